"""A word made only of literal text skips the expansion steps (expand._literal_word):
its field, and the bytes it charges the budget, are those of the steps it skips."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from probing import LONG

from qbcore.model import expand as E
from qbcore.model.budget import Meter
from qbcore.syntax.errors import ShellSyntaxError
from qbcore.syntax.parser import parse

# literal pieces, quoted and not, and pieces that expand (the word then takes the steps)
PIECES = ["a", "b c", "'q r'", '"d"', '"e f"', '""', "''", "\\ ", '\\"', '"\\""', '"\\$x"', '"a\\b"', "$'t\\tu'",
          '"' + "l" * 70 + '"', "m" * 70, "'" + "n" * 70 + "'", "=", ":", "-", ".", "/", "%",
          "~", "*", "?", "[a]", "{a,b}", "$x", '"$x"', "$(echo)", '"$((1))"', "$", '"{"', "'~'"]
WORDS = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)


def _word(text):
    return parse("echo " + text).chunks[0].items[0].command.pipelines[0].commands[0].words[1]


def _expanded(word, steps):
    env = E.Env({"x": "v w"}, cwd="/nonexistent/qbcore", files=None, meter=Meter())
    exp = E.Expander(env)
    if steps:
        expansions = E.brace_expand(word.parts, env.meter)
        # a word brace expansion changed is no longer assignment-like: `{a,b}=~` is `a=~ b=~`
        braced = len(expansions) > 1 or len(expansions[0]) != len(word.parts)
        fields = exp.fields_of(expansions, braced, E.ARGV)
    else:
        fields = exp.word_fields(word, E.ARGV)
    return fields, env.meter.bytes, exp.opaque


@settings(max_examples=5000 if LONG else 500, deadline=None, database=None)
@given(WORDS)
def test_a_literal_word_gives_what_the_expansion_steps_give(text):
    try:
        word = _word(text)
    except (ShellSyntaxError, IndexError):
        assume(False)  # (`$` before `(`, a word that is no single word)
    assert _expanded(word, steps=False) == _expanded(word, steps=True)


def test_literal_words_take_the_short_way_and_others_do_not():
    meter = Meter()
    for text, field in [('"true"', "true"), ("a'b c'\"d\"\\ e", "ab cd e"), ('""', ""), ("$'a\\tb'", "a\tb"),
                        ('"a\\"b"', 'a"b'), ('x"' + "y" * 70 + '"', "x" + "y" * 70)]:
        assert E._literal_word(_word(text).parts, meter) == field, text
    for text in ["~/x", "a*", "{a,b}", '"$x"', "$x", '"$(true)"', "a$", "[x]"]:
        assert E._literal_word(_word(text).parts, meter) is None, text
