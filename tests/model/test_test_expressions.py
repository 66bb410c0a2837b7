"""test and [ with more than four arguments (bash's expression parser), against bash."""

import shlex

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
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


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(WORD, min_size=4, max_size=8))
def test_expressions_generated(tmp_path_factory, words):
    tmp_path = tmp_path_factory.mktemp("test")
    script = "test " + " ".join(shlex.quote(w) for w in words) + " 2>/dev/null; echo $?"
    outcome = bashref.run(script, cwd=str(tmp_path))
    result = evaluate(parse(script), Env.default(str(tmp_path)))
    if not isinstance(result.stdout, Opaque):
        assert result.stdout == outcome.text, script
