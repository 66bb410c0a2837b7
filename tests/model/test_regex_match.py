"""[[ … =~ … ]] and BASH_REMATCH against bash: decided where the regular expression
translates exactly, unknown elsewhere, never wrong."""

import shlex

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.syntax.parser import parse

pytestmark = pytest.mark.bash

SHOW = '; echo "$? ${#BASH_REMATCH[@]} <${BASH_REMATCH[0]}> <${BASH_REMATCH[1]}> <${BASH_REMATCH[2]}>"'

CASES = [
    "[[ abc123 =~ ^([a-z]+)([0-9]+)$ ]]", 'x="a.b"; [[ axb =~ "$x" ]]', 'x="a.b"; [[ axb =~ $x ]]',
    're="^[0-9]+$"; [[ 42 =~ $re ]]', "[[ abc =~ (b) ]]", "[[ abc =~ z ]]", "[[ a.c =~ a\\.c ]]",
    "[[ abc =~ a'.'c ]]", '[[ "a b" =~ a\\ b ]]', "[[ xay =~ [[:alpha:]]+ ]]", "[[ 2024-01-05 =~ ^([0-9]{4})-([0-9]{2}) ]]",
    "[[ '' =~ ^$ ]]", "[[ $'a\\nb' =~ a.b ]]", "[[ abc =~ ^b ]]", "[[ foo.txt =~ \\.txt$ ]]",
    "[[ A =~ [a-z] ]]", "[[ x =~ '(' ]]", "v=abc; [[ $v =~ ^a ]] && [[ $v =~ (c)$ ]]",
    # glibc's word anchors from a variable; written in the pattern, \< is a quoted <
    're="\\<at\\>"; [[ " at" =~ $re ]]', 're="\\<at"; [[ "a<at" =~ $re ]]', 're="\\<at"; [[ bat =~ $re ]]',
    "[[ 'a<b' =~ a\\<b ]]", "[[ ' at' =~ \\<at ]]",
    # glibc reads a backslash before a letter with no meaning as the letter (\t is t, not a
    # tab), and a backslash in brackets as itself: as grep does, not as sed does
    "re='\\t'; [[ t =~ $re ]]", "re='\\t'; [[ $'\\t' =~ $re ]]", "re='^a\\t(.*)$'; [[ $'a\\tb' =~ $re ]]",
    "re='\\n'; [[ n =~ $re ]]", "re='\\d+'; [[ 5d =~ $re ]]", "re='[\\t]'; [[ '\\' =~ $re ]]", "re='[\\t]+'; [[ xt =~ $re ]]",
    "re='\\w+\\s\\S'; [[ 'ab cd' =~ $re ]]", "re='\\x41'; [[ x41 =~ $re ]]",
]


@pytest.mark.parametrize("script", CASES)
def test_regex_matches_as_bash_does(script, tmp_path):
    full = script + SHOW
    outcome = bashref.run(full, cwd=str(tmp_path))
    assert evaluate(parse(full), Env.default(str(tmp_path))).stdout == outcome.text


@pytest.mark.parametrize("script", ["[[ abc =~ (a|ab)(c|bcd) ]]", "[[ aa =~ (a)* ]]", "[[ ab =~ ^(a)(x)?b ]]", "[[ x =~ a{2,1} ]]",
                                    "[[ $RANDOM =~ 1 ]]", "[[ abc =~ $RANDOM ]]",
                                    # glibc's anchors meet a newline inside the subject (measured)
                                    "s=$'\\n'; [[ $s =~ .^ ]]", "s=$'a\\nb'; [[ $s =~ a$. ]]"])
def test_a_regex_not_translated_leaves_the_match_unknown(script, tmp_path):
    result = evaluate(parse(script + SHOW), Env.default(str(tmp_path)))
    assert isinstance(result.stdout, Opaque)


SUBJECT = st.text(st.sampled_from("ab1.- \n"), max_size=6)
REGEX = st.lists(st.one_of(st.sampled_from(["a", "b", ".", "1", "^", "$", "[ab]", "[^a]", "(a)", "(b+)", "a*", "b?",
                                            "[0-9]+", "\\.", "x{0,2}", "-"]),
                           st.sampled_from(["'.'", '"a*"', "'^'"])), max_size=4).map("".join)


@settings(max_examples=examples(150), deadline=None)
@given(SUBJECT, REGEX)
def test_regex_generated(tmp_path_factory, subject, regex):
    tmp_path = tmp_path_factory.mktemp("regex")
    script = f"s={shlex.quote(subject)}; [[ $s =~ {regex or 'x'} ]]" + SHOW
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    if not isinstance(result.stdout, Opaque):
        assert result.stdout == outcome.text, script
