"""The syntax nodes behave the same in both engines: dataclass fields, equality,
repr and slots, and the compiled parser builds the very trees its source builds.

In the compiled build the nodes are extension types declared in parser.pxd,
whose field order Cython takes from the .pxd: the differential tests below load
parser.py itself beside the extension and compare the two.
"""

import dataclasses
import importlib.util
import sys
from pathlib import Path

import pytest
from corpus_replies import CORPUS as REPLIES
from lexcorpus import agent_commands, malformed, scripts

from qbcore.syntax import parser as S

SOURCE = Path(S.__file__).with_name("parser.py")


def node_classes(module):
    return {name: value for name, value in vars(module).items()
            if isinstance(value, type) and dataclasses.is_dataclass(value)}


@pytest.fixture(scope="module")
def source_parser():
    """parser.py run as Python beside the parser the package loaded."""
    if S.__file__.endswith(".py"):
        pytest.skip("the parser loaded is its source already: nothing to compare it with")
    spec = importlib.util.spec_from_file_location("qbcore.syntax._parser_source", SOURCE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolves the string annotations through it
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_every_node_class_has_the_same_fields_and_match_args_in_both_engines(source_parser):
    compiled, source = node_classes(S), node_classes(source_parser)
    # 31 node classes, and BraceRefusedWord: a Word with its refusal beside the fields
    assert sorted(compiled) == sorted(source) and len(source) == 32
    for name, kind in source.items():
        fields = [f.name for f in dataclasses.fields(kind)]
        assert [f.name for f in dataclasses.fields(compiled[name])] == fields, name
        assert compiled[name].__match_args__ == kind.__match_args__ == tuple(fields), name
        assert tuple(compiled[name].__dataclass_fields__) == tuple(fields), name


def corpus():
    texts = list(agent_commands()) + [reply for _, reply in REPLIES]
    texts += [body.decode("utf-8", "surrogateescape") for body in scripts().values()]
    texts += [text for text in malformed() if isinstance(text, str)]
    # the outer command lines of the nested transport (the reply spliced into double quotes)
    texts += ['bash -c "' + text + '"' for text in agent_commands()]
    return texts


def test_the_compiled_parser_builds_the_trees_of_its_source(source_parser):
    for text in corpus():
        try:
            expected = repr(source_parser.parse_prefix(text))
        except (RecursionError, ValueError) as exc:
            with pytest.raises(type(exc)):
                S.parse_prefix(text)
            continue
        assert repr(S.parse_prefix(text)) == expected, text


def test_the_lexers_grammar_tokens_are_the_parsers_reading_of_its_stream():
    # the parser takes them from the lexer's stream when the text is ASCII; from a list of
    # (kind, start, end) it works them out itself: both give the same tokens
    checked = 0
    for text in corpus() + ["echo a # note\nls", "a \\\n b", "# only", "x # c"]:
        raw = text.encode("utf-8", "surrogateescape")
        try:
            tokens = S._lex(text)
        except (S.ShellSyntaxError, RecursionError, ValueError):
            continue
        if any(tok[0] == "line-cont" for tok in tokens):
            assert tokens.grammar_tokens(text) is None, text
        elif len(text) == len(raw):
            assert S._Parser(text, tokens, raw).toks == S._Parser(text, list(tokens), raw).toks, text
            checked += 1
    assert checked > 500


def test_nodes_compare_by_value_and_are_not_hashable():
    a = S.parse("echo 'a' \"$b\" > out")
    b = S.parse("echo 'a' \"$b\" > out")
    assert a.chunks == b.chunks and a.chunks is not b.chunks
    assert a.chunks != S.parse("echo 'a' \"$c\" > out").chunks
    word = a.chunks[0].items[0].command.pipelines[0].commands[0].words[1]
    assert word == S.Word((S.SingleQuoted("a", 5, 8),), 5, 8)
    assert word != S.Word((S.SingleQuoted("a", 5, 8),), 5, 9)
    with pytest.raises(TypeError):
        hash(word)


def test_node_repr_names_every_field_in_order():
    param = S.Param("x", None, False, False, ":-", S.Word((S.Lit("d", 4, 5),), 4, 5), None, True, 0, 6)
    assert repr(param) == ("Param(name='x', index=None, length=False, indirect=False, op=':-', "
                           "arg=Word(parts=(Lit(text='d', start=4, end=5),), start=4, end=5), arg2=None, "
                           "braced=True, start=0, end=6)")
    assert repr(S.Escaped("$", 1, 3)) == "Escaped(char='$', start=1, end=3)"


def test_nodes_hold_their_fields_and_nothing_else():
    lit = S.Lit("a", 0, 1)
    lit.text, lit.end = "ab", 2  # the parser completes some nodes in place
    assert (lit.text, lit.start, lit.end) == ("ab", 0, 2)
    with pytest.raises(AttributeError):
        lit.note = "x"
    match S.parse("ls -l").chunks[0].items[0].command.pipelines[0].commands[0]:
        case S.SimpleCommand(assignments=(), words=(S.Word(parts=(S.Lit(text=name),)), _)):
            assert name == "ls"
        case other:
            pytest.fail(f"no match: {other!r}")


def test_text_of_a_str_subclass_is_parsed_and_held_as_text():
    # the model hands the parser its own values, which may be str subclasses (values.Partial)
    class Text(str):
        pass

    script = S.parse_prefix(Text("echo 'hi'"))
    assert script.error is None and script.source == "echo 'hi'"
    assert S.parse_prefix(Text("echo 'hi'")).chunks == S.parse_prefix("echo 'hi'").chunks
    assert S.SingleQuoted(Text("x"), 0, 3).text == "x"
