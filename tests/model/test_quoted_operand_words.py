"""The word of ${x:-…} inside double quotes or a here-document, against bash 5.2: where bash
reads $'…', $"…" or a nested "…" its own way there (a decoded $'…' read again as the word's
text, a backslash dropped before any character in nested double quotes, $'…' left as it is
in a here-document, $"1" in a here-document's arithmetic read as $1), the model's text is
unknown, and never its own reading."""

import pytest

import bashref
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.syntax.parser import parse
from utilities_diff import compare_script

pytestmark = pytest.mark.bash

FOLLOWED = ["echo \"${N:-$'a b'}\"", "echo \"${N:-$'\\x41'}\"", 'echo "${G:-"a\\$b"}"', 'echo "${G:-"a\\\\b"}"',
            'echo "${G:-a\\ b}"', "echo \"${G:-'a b'}\"", 'echo "${G:-$"hello world"}"', 'echo "${G:-"a b"}"']
NOT_FOLLOWED = ["echo \"${N:-$'\\x27'}\"; echo after", "echo \"${N:-$'\\x24HOME'}\"", 'echo "${G:-"hello\\ world"}"',
                'echo "${G:-"a\\qb"}"', "echo \"${x:-\"$'\\x41'\"}\"",
                # read again whether or not the word is used: a decoded quote is bash's bad
                # substitution with the variable set too
                "TERM=x; echo \"${TERM:-$'\\x27'}\"; echo after", "x=a; echo \"${x:=$'\\x27'}\"",
                "x=a; echo \"${x+$'\\x22'}\"", "x=a; echo \"${x:-$'\\x7d'}\""]
# here-documents: what the decided ones write, and the rest unknown
DOCUMENTS = ['$(( "1" + 1 ))', '$(( $"1" + 1 ))', "${Q:-'a b'}", "${G:-hello\\ world}", "${G:-\"a b\"}", "${Q:-$'\\x27'}", "${Q:-$'ab'}",
             "${Q:-$\"hello world\"}", "${G:-\"hello\\ world\"}"]


@pytest.mark.parametrize("script", FOLLOWED)
def test_followed_as_bash_reads_it(script, tmp_path):
    assert evaluate(parse(script), Env.default(str(tmp_path))).stdout == bashref.run(script, cwd=str(tmp_path)).text


@pytest.mark.parametrize("script", NOT_FOLLOWED)
def test_read_otherwise_is_unknown(script, tmp_path):
    assert isinstance(evaluate(parse(script), Env.default(str(tmp_path))).stdout, Opaque)


@pytest.mark.parametrize("line", DOCUMENTS)
def test_in_a_here_document(line):
    decided = compare_script(f"cat > out <<EOF\n{line}\nEOF", {"k": b""})
    assert decided is ("$'" not in line and '"hello' not in line and '$"' not in line)
