"""Quotes in an arithmetic expression, against bash 5.2: double quotes go, as in a word, and
the quotes of '…' and $'…' stay, in $((…)), $[…], ((…)), for ((…)), a subscript and a
substring's bounds. bash expands the expression as inside double quotes, so a kept
quote is text its evaluator refuses: the model spells that error, and leaves unknown
a quoted text that would expand once more there."""

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
        "for ((i='0'; i<1; i++)); do echo l; done; echo after", "x=abc; echo ${x:1:'1'}; echo after",
        "echo $[ $'1' + 1 ]; echo after", "echo $(( $'a\\'b' ))", "echo $(( $'' + 1 ))", "echo $(( '' ))",
        "echo $(( 1 + $'\\n' ))", "echo $(( 1+'2'*3 ))", "x=5; echo $(( 1 + $'x' ))", "echo $(( 1 ? 2 : $'3' ))",
        "echo $(( 0 && '1' ))", "echo $(( 1 '2' ))", "echo $(( (1) '2' ))", "echo $(( x'1' ))",
        "x=$(( $'1' + 1 )); echo $x", "echo $(( $(( $'1' )) + 1 ))", "a=(p q); echo ${a[$'1']}",
        "x=abc; echo ${x:$'1'}", "echo $[ $'1' ]",
        # '…' inside double quotes and here-documents too
        "echo \"$[ '1' + 1 ]\"", "a=(p q); echo \"${a['1']}\"", "x=abc; echo \"${x:1:'1'}\"",
        "echo \"$(( '1' + 1 ))\"", "cat <<E\n$[ '1' + 1 ]\nE"]
# $'…' inside double quotes: bash keeps its quotes in "$((…))" but decodes it in "$[…]",
# "${a[…]}" and "${x:…}" (measured); in a here-document it is text. Unknown, all of them.
ANSI_C_QUOTED = ["echo \"$[ $'1' + 1 ]\"", "echo \"$(( $'1' + 1 ))\"", "x=abc; echo \"${x:1:$'1'}\"",
                 "a=(p q); echo \"${a[$'1']}\"", "cat <<E\n$(( $'1' + 1 ))\nE"]
# the text inside is expanded again as inside double quotes (bash's syntax error, or not): unknown
EXPANDED_AGAIN = ["x=5; echo $(( 1 + '$x' )); echo after", "x=5; echo $(( 1 + $'$x' ))", "echo $(( 1 + '`echo 2`' ))",
                  "echo $(( 1 + 'a\"b' ))", "echo $(( $'\\\\' ))"]
# which error bash's reader gives for a character it cannot read: an operand was expected
# at the start and after an operator, an operator after an operand (expr.c's readtok)
UNREADABLE = ['echo $(( 1 @ 2 ))', 'echo $(( @1 ))', 'echo $(( 1 + @ ))', 'echo $(( (1) @ ))', 'echo $(( 1 + "@" ))',
              'x=1; echo $(( x++ @ ))', 'x=1; echo $(( ++x @ ))', 'a=(1 2); echo $(( a[1] @ ))', 'echo $(( 08 @ ))',
              'echo $(( 1, @ ))', 'echo $(( ~ @ ))', 'echo $(( 1 ++ @ ))', '(( 1 "@" )); echo $?']
# a substring's bounds: bash names the parameter in an error, and shows a negative length as written
SUBSTRING = ['x=abc; echo ${x:1/0}', 'x=abc; echo ${x:1:2/0}', 'set -- a b; echo ${@:@}', 'a=(1 2); echo ${a[@]:@}',
             'a=(1 2); echo ${a[ 1 ]:@}', 'x=y; y=abc; echo ${!x:@}', 'echo ${1:@}', 'x=abc; echo ${x:y@}',
             'x=abc; echo ${x:1: -5}', 'x=abc; echo ${x:1:1-5 }', 'set -- a b c; echo ${@:1: -5}',
             'a=(1 2); echo ${a[@]:0:1-5 }', 'x=abc; echo ${x: -5:1}']


def _same_as_bash(script, cwd):
    result = evaluate(parse(script), Env.default(cwd))
    real = bashref.run(script, cwd=cwd)
    assert (result.stdout, bashref.model_stderr(result.commands), result.status) == \
        (real.text, real.error, real.status), script


@pytest.mark.parametrize("script", FOLLOWED)
def test_double_quotes_go(script, tmp_path):
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == bashref.run(script, cwd=str(tmp_path)).text


@pytest.mark.parametrize("script", KEPT)
def test_single_quotes_kept_are_bash_syntax_error(script, tmp_path):
    assert "syntax error" in bashref.run(script, cwd=str(tmp_path)).error
    _same_as_bash(script, str(tmp_path))


@pytest.mark.parametrize("script", EXPANDED_AGAIN + ANSI_C_QUOTED)
def test_quotes_not_followed_are_unknown(script, tmp_path):
    assert isinstance(evaluate(parse(script), Env.default(str(tmp_path))).stdout, Opaque)


@pytest.mark.parametrize("script", UNREADABLE + SUBSTRING)
def test_arithmetic_errors_spelled_as_bash(script, tmp_path):
    _same_as_bash(script, str(tmp_path))
