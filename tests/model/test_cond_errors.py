"""Errors of bash's ``[[ ]]`` grammar, against bash: what runs, the status, the first message.

bash reports these with its parser's message alone: the line does not run, and the status
stays what the lines before it left (not 2), from -c, a script file and stdin; under set -e, 2. A ``]]``
where a term must start (``[[ ]]``, ``[[ a && ]]``, ``[[ ! ]]``) is refused without a word,
and what follows it never runs. An outer shell that expands ``$x`` to nothing turns
``[[ $x ]]`` into the first of these.
"""

import os
import random
import re

import bashref
import pytest
from probing import LONG, SEED
from utilities_diff import real_tree, script_model, virtual_tree, SCRIPT_ROOT

from qbcore.model.expand import Opaque
from qbcore.syntax.parser import parse_prefix

BODIES = [
    "", "a &&", "a ||", "!", "! !", "a && !", "( a ) &&", "(", "( (", "( !", "a && (", "( )",
    "== x", "a b", "a ==", "( a", "a -eq b c", "-n == x", "a )", "( a ) )", "a ;", "a <", "( ( x )",
    "a == b ( )", "x || -z", "-f", "( a b )", "a |", "; a", "a\n== b", "-f\na", "a == b\n&& c",
    # accepted: `!` where an operand is read is the word `!`
    "! a", "! a == b", "! ! a", "a == !", "-n !", "( a ) && ! ( b )",
    # a unary operator before a word is a unary test, whatever the word: a file named != here
    "-f != || b", "-n == && a", "-z < || -f", '"-n" == -n', "-q == x",
]
FIXTURE = {"k": b""}


def _script(body: str, before: str) -> str:
    return f"echo a > a; {before}\n[[ {body} ]] && echo yes > y\necho ran > r"


def _agree(script: str, where) -> bool:
    """Whether the model decided ``script``; where it did, its files, status and first
    message must be bash's."""
    os.makedirs(where, exist_ok=True)
    with open(os.path.join(where, "k"), "wb"):
        pass
    real = bashref.run(script, cwd=str(where))
    run, tree = script_model(script, FIXTURE)
    if run.unknown is not None or run.files.lost is not None:
        return False
    assert virtual_tree(tree, SCRIPT_ROOT) == real_tree(str(where), SCRIPT_ROOT), real.error
    status = run.status
    if not isinstance(status, Opaque):
        assert status == real.status, (status, real.error)
    said = real.error.decode() if isinstance(real.error, bytes) else real.error
    first = re.sub(r"^bash: (-c: )?line \d+: ", "", said.splitlines()[0]) if said else ""
    if run.effects.stderr_unknown is None:
        stderr = run.effects.stderr
        assert (re.sub(r"^bash: (-c: )?", "", stderr[0]) if stderr else "") == first, (stderr, said)
    return True


@pytest.mark.bash
# under set -e (on before the line is read) the status is 2 (after `! true` too)
@pytest.mark.parametrize("before", ["true", "false", "set -e", "set -o errexit; ! true"])
@pytest.mark.parametrize("body", BODIES)
def test_cond_error_as_bash(body, before, tmp_path):
    assert _agree(_script(body, before), tmp_path)


@pytest.mark.parametrize("body", ["", "a &&", "!", "( a ) &&"])
def test_a_term_missing_is_refused_without_a_word(body):
    error = parse_prefix(f"[[ {body} ]]").error
    assert error is not None and error.message == "" and error.conditional == "line"


@pytest.mark.parametrize("source", ["x=$( [[ == x ]] )", "echo \"$( [[ ]] )\""])
def test_in_a_substitution_the_status_is_not_modelled(source):
    # measured: bash exits 127 after the first, and reports a quote left open after the second
    assert parse_prefix(source).error.conditional == "substitution"
    run, _ = script_model(source, FIXTURE)
    assert isinstance(run.status, Opaque)


ATOMS = ["a", "b", '"x"', "-f", "-n", "-z", "==", "!=", "-eq", "!", "(", ")", "x)", "&&", "||", "<", ">",
         "\n", ";", "|", "&"]


@pytest.mark.bash
def test_generated_cond_errors_as_bash(tmp_path):
    rng = random.Random(SEED)
    count = 1500 if LONG else 120
    decided = 0
    for n in range(count):
        body = " ".join(rng.choice(ATOMS) for _ in range(rng.randint(0, 6)))
        decided += _agree(_script(body, rng.choice(["true", "false"])), tmp_path / str(n))
    assert decided >= count * 0.9, (decided, count, SEED)


# at the end of the input: the newline bash adds (or the script's last) ends it, and the
# status is 2 after 0; a `[[` still open at the end itself is left unknown
AT_THE_END = ["true\n[[ a\n", "false\n[[ a\n", "true\n[[ a", "false\n[[ a", "true\n[[ a ==", "(exit 5)\n[[ a",
              "true\n[[ a\n\n", "true\n[[ a\nb", "true\n[[ ]]\n", "false\n[[ a ) ]]"]
LEFT_OPEN = ["true\n[[ a &&", "true\n[[ (", "true\n[[ a == b\n"]


@pytest.mark.bash
@pytest.mark.parametrize("script", AT_THE_END + LEFT_OPEN)
def test_cond_error_at_the_end_as_bash(script, tmp_path):
    real = bashref.run(script, cwd=str(tmp_path))
    run, _ = script_model(script, FIXTURE)
    if script in LEFT_OPEN:
        assert isinstance(run.status, Opaque)
    else:
        assert run.status == real.status, real.error
