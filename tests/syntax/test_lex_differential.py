"""The compiled and the pure engine agree on every input: same tokens or the same error.

Hypothesis generates shell-like text rich in quotes, expansions, operators,
here-documents and multi-byte UTF-8, plus raw bytes. Per run of the suite this
is about 25,000 inputs (QBCORE_LONG=1 multiplies it by ten); CI runs the suite
twice, so over 50,000 inputs are compared per CI run.
"""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qbcore import ShellSyntaxError

SCALE = 10 if os.environ.get("QBCORE_LONG", "") not in ("", "0") else 1
SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)

CHARS = list("'\"$\\`{}()[]\n#<>|&; \t=abcxyz019-:+*@!?~%/.,^") + ["é", "€", "𝄞", "\r", "\0"]
FRAGMENTS = [
    "$(", "${", "$((", "))", "$[", "]", "$'", '$"', "`", "\\`", "'", '"', "\\", "\\\n", "(", ")", "((",
    "{", "}", " ", "\n", "\t", ";", ";;", "&&", "||", "|", "&", "<", ">", "2>&1", "<<", "<<-", "<<'E'",
    "<<E", "E\n", "\tE\n", "E", "#", "# c\n", "case x in ", "esac", "in", "if ", "then ", "fi", "for i ",
    "do ", "done", "while ", "{ ", " }", "[[ ", " ]]", "=~", "@(", "a=", "a[1]=", "a=(", "export ", "x",
    "$x", "$1", "$@", "${x:-", "é", "𝄞", "<(", ">(", "function f ", "f() ", "!", "time ", "\r\n",
    "declare -a ", "local ", "let ", "eval ", "i=(", "done }", "fi }", "!(", "[[ x == ", "[k]=",
]

shell_text = st.text(alphabet=st.sampled_from(CHARS), max_size=80)
shell_fragments = st.lists(st.sampled_from(FRAGMENTS), max_size=24).map("".join)
raw_bytes = st.binary(max_size=60) | st.lists(
    st.sampled_from([b"\xff", b"\xc3", b"\xa9", b"\x80", b"\xe2\x82", b"'", b'"', b"$(", b")", b"\\", b"\n",
                     b"`", b"<<E\n", b"E\n", b" ", b"x"]), max_size=30).map(b"".join)


def outcome(engine, source):
    try:
        return "tokens", list(engine.lex(source))
    except ShellSyntaxError as exc:
        return "error", (exc.message, exc.offset, exc.line, exc.column)


def check_agreement(both_lexers, source):
    fast, pure = both_lexers
    expected = outcome(pure, source)
    assert outcome(fast, source) == expected
    if expected[0] == "tokens":
        data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
        position = 0
        for kind, start, end in expected[1]:
            assert position <= start < end <= len(data)
            assert data[position:start].strip(b" \t") == b""
            position = end
        assert data[position:].strip(b" \t") == b""


@settings(max_examples=9000 * SCALE, **SETTINGS)
@given(shell_fragments)
def test_engines_agree_on_fragments(both_lexers, source):
    check_agreement(both_lexers, source)


@settings(max_examples=9000 * SCALE, **SETTINGS)
@given(shell_text)
def test_engines_agree_on_characters(both_lexers, source):
    check_agreement(both_lexers, source)


@settings(max_examples=5000 * SCALE, **SETTINGS)
@given(raw_bytes)
def test_engines_agree_on_bytes(both_lexers, source):
    check_agreement(both_lexers, source)


@settings(max_examples=2000 * SCALE, **SETTINGS)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=200).map("".join))
def test_engines_agree_on_long_inputs(both_lexers, source):
    check_agreement(both_lexers, source)


def test_tokens_compare_equal_across_engines(both_lexers):
    fast, pure = both_lexers
    source = 'x=$(cat <<E\n$y\nE\n) ; [[ $a =~ (b|c) ]] && echo "${d:-e}" `f`'
    assert fast.lex(source) == pure.lex(source)
    assert pure.lex(source) == fast.lex(source)
    assert fast.lex(source) != pure.lex(source + " g")
    assert pure.lex(source) != fast.lex(source + " g")
    assert list(fast.lex(source)) == list(pure.lex(source))
    assert fast.lex(source)[-2:] == pure.lex(source)[-2:]
