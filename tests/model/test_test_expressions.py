"""test and [ against bash: two words without a unary operator, and more than four arguments
(bash's expression parser)."""

import shlex

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from qbcore.model.effects import run_effects
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.model.utilities.vfs import VirtualTree
from qbcore.syntax.parser import parse

pytestmark = pytest.mark.bash

CASES = ["[ a = a -a b = b ]", "[ a = b -o b = b ]", "[ ! a = b -a x ]", "test '' -o x -a ''", "[ ( a = a ) -a ( 1 -eq 1 ) ]",
         "[ ! ! a = a -o '' ]", "[ -n x -a -z '' ]", "[ a -a b -o '' ]", "[ 1 -lt 2 -a 3 -ge 3 -a x != y ]",
         "[ ( a ) ]", "[ '(' x ')' ]", "[ a = a -a ( b = c -o d = d ) ]"]


@pytest.mark.parametrize("script", CASES)
def test_expressions_are_read_as_bash_reads_them(script, tmp_path):
    full = script.replace("(", "\\(").replace(")", "\\)").replace("'\\(", "'(").replace("\\)'", ")'") + "; echo $?"
    outcome = bashref.run(full, cwd=str(tmp_path))
    assert evaluate(parse(full), Env.default(str(tmp_path))).stdout == outcome.text


WORD = st.sampled_from(["a", "b", "", "1", "2", "=", "!=", "-a", "-o", "!", "(", ")", "-n", "-z", "-eq", "-lt", "x"])
PRIMARY = st.sampled_from([["a", "=", "a"], ["a", "!=", "b"], ["-n", "x"], ["-z", ""], ["1", "-lt", "2"],
                           ["2", "-eq", "3"], ["x"], [""], ["b", "=", "c"], ["-z", "y"]])
EXPRESSION = st.recursive(PRIMARY, lambda inner: st.one_of(
    inner.map(lambda e: ["!"] + e), inner.map(lambda e: ["("] + e + [")"]),
    st.tuples(inner, st.sampled_from(["-a", "-o"]), inner).map(lambda t: t[0] + [t[1]] + t[2])), max_leaves=5)


def _bash_and_model(tmp_path, words):
    script = "test " + " ".join(shlex.quote(w) for w in words) + " 2>/dev/null; echo $?"
    return script, bashref.run(script, cwd=str(tmp_path)).text, evaluate(parse(script), Env.default(str(tmp_path))).stdout


@settings(max_examples=examples(150), deadline=None)
@given(EXPRESSION.filter(lambda words: len(words) >= 4))
def test_well_formed_expressions_are_decided_as_bash_decides_them(tmp_path_factory, words):
    script, bash, model = _bash_and_model(tmp_path_factory.mktemp("test"), words)
    assert model == bash, script


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(WORD, min_size=4, max_size=8))
def test_any_words_are_never_decided_wrong(tmp_path_factory, words):
    # mostly syntax errors (bash's message and status 2): unknown, but never a wrong answer
    script, bash, model = _bash_and_model(tmp_path_factory.mktemp("test"), words)
    if not isinstance(model, Opaque):
        assert model == bash, script


# two arguments where the first is no unary operator: bash's "unary operator expected", status 2
# (what `[ $x = alpha ]` becomes when $x expands to nothing), its message naming the line
TWO_WORDS = ["[ = alpha ]", "[ abc def ]", "test -- x", "[ -Q x ]", "test '' x", "[ '(' x ]", "test ')' x",
             "[ ! abc def ]", "[ ! -- x ]", "[ -nt x ]", "test -eq 1", "[ a -a ]", "[ a -nt ]", "x=\n[ $x = alpha ]", "true\nif [ $u = a ]; then :; fi\n:"]


@pytest.mark.parametrize("script", TWO_WORDS)
def test_two_words_without_a_unary_operator_are_bash_s_syntax_error(script, tmp_path):
    full = f"{{ {script}\n}} 2> err; echo $?; cat err"
    outcome = bashref.run(full, cwd=str(tmp_path))
    assert "unary operator expected" in outcome.text
    run = _effects(full, str(tmp_path))
    assert run.files.lost is None and run.unknown is None
    assert run.evaluation.stdout == outcome.text


def _effects(script, cwd):
    tree = VirtualTree()
    tree.mkdir(cwd, parents=True, exist_ok=True)
    with bashref.host_facts():
        return run_effects(script, tree, cwd, bashref.executor_environ(cwd))


# bash's other errors of test's grammar: status 2 and its message, whatever the words around
OTHER_ERRORS = ["[ hello world = hello world ]", "[ a b c ]", "[ a = b c d ]", "[ -n a -o ]", "[ a -o b c ]",
                "test a b c d e", "[ -z a b c ]", "[ a -eq b ]", "[ 1 -eq b ]", "[ ' x' -eq 1 ]", "[ x -lt 2 ]",
                "[ a =~ b ]", "[ x -lt 2 -o 1 ]", "[ 1 -eq 1 -a 2 -gt z ]", "x='hello world'; [ $x = hello ]",
                # a word left over that starts with -: "syntax error: `-' unexpected"
                "[ -f x - y ]", "test -s x - nope", "[ x = y -z ]", "[ a = a -x y ]", "test a = a b"]


@pytest.mark.parametrize("script", OTHER_ERRORS)
def test_test_s_other_errors_are_bash_s(script, tmp_path):
    full = f"{{ {script}\n}} 2> err; echo $?; cat err"
    outcome = bashref.run(full, cwd=str(tmp_path))
    assert outcome.text.startswith("2\n")
    run = _effects(full, str(tmp_path))
    assert run.files.lost is None and run.unknown is None
    assert run.evaluation.stdout == outcome.text


@settings(max_examples=examples(120), deadline=None)
@given(st.lists(st.sampled_from(["a", "", "=", "-n", "-z", "-e", "-Q", "--", "!", "(", ")", "-a", "-o", "-t", "x y",
                                 "-eq", "1", "-lt"]),
                min_size=2, max_size=3))
def test_two_and_three_words_are_never_decided_wrong(tmp_path_factory, words):
    script, bash, model = _bash_and_model(tmp_path_factory.mktemp("test"), words)
    if not isinstance(model, Opaque):
        assert model == bash, script
