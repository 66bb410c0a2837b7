"""Quotes in an arithmetic expression, against bash 5.2: double quotes go, as in a word, and
the quotes of '…' and $'…' stay, where they are bash's syntax error (measured): the model
follows the first and leaves the second unknown, in $((…)), $[…], ((…)), for ((…)), a
subscript and a substring's bounds."""

import pytest

import bashref
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.syntax.parser import parse

pytestmark = pytest.mark.bash

FOLLOWED = ['echo $(( "1" + 1 ))', 'x=1; echo $(( "$x" + 1 ))', '((  "1" == 1 )) && echo y', 'a=(x y); echo ${a["1"]}',
            'x=abc; echo ${x:"1"}', 'echo $[ "1" + 1 ]', "echo $(( $(echo '1') + 1 ))", 'x=abc; echo ${x:1:"1"}']
KEPT = ["echo $(( $'1' + 1 )); echo after", "echo $(( '1' + 1 )); echo after", "i=1; (( i == $'1' )) && echo y; echo after",
        "(( 1 == '1' )) && echo y; echo after", "a=(x y); echo ${a['1']}; echo after", "x=abc; echo ${x:'1'}; echo after",
        "for ((i='0'; i<1; i++)); do echo l; done; echo after", "a=(x y); a['1']=z; echo ${a[@]}",
        "x=abc; echo ${x:1:'1'}; echo after"]


@pytest.mark.parametrize("script", FOLLOWED)
def test_double_quotes_go(script, tmp_path):
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == bashref.run(script, cwd=str(tmp_path)).text


@pytest.mark.parametrize("script", KEPT)
def test_single_quotes_kept_are_unknown(script, tmp_path):
    real = bashref.run(script, cwd=str(tmp_path))
    assert "operand expected" in real.error  # bash's own error: the model does not spell it
    assert isinstance(evaluate(parse(script), Env.default(str(tmp_path))).stdout, Opaque)
