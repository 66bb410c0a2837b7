"""Property: scripts that create, open and glob files and read ``$?`` do what bash does.

Each drawn script runs in its own fresh directory holding TREE, once in bash
and once in the model; whenever the model knows the output and the exit
status they must be bash's, and so must stderr when the whole evaluation is
exact (QBCORE_LONG=1 draws more).
"""

import os

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

import bashref
from qbcore.model.evaluate import evaluate
from qbcore.model.expand import Env, Opaque
from qbcore.syntax.parser import parse

pytestmark = pytest.mark.bash

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")
EXAMPLES = 2000 if LONG else 150
TREE = ["a", "d/", "d/x"]
TARGETS = ["a", "b", "d", "d/x", "d/y", "nodir/x", ".", "''", "a/", "d/", "b/", "a/x", '"$f"', "$g"]
COMMANDS = [
    ": >{t}", "echo x >{t}", "echo x >>{t}", ": <{t}", "echo $? <{t}", ": <>{t}", "echo x &>{t}",
    "{{ echo g; }} <{t}", "(echo s) >{t}", "x=$(: <{t})", "echo $(true <{t})$?", "f=$(echo {t})",
    "echo x >/dev/null >{t}", "echo x >{t} <{t}", ": {{n}}<{t}",
    "echo $?", "echo *", "echo d/* */", "echo $(false)$?", "echo $(exit 3) $?", "false", "true",
    "x=$(exit 2) y=$?", "echo \"[$y]\"", "cd d", "cd ..", "echo $(exit 4)${{z:-$?}}", "for i in $(exit 5)q; do echo $?; done",
    "case $(exit 6) in *) echo $?;; esac", "echo x >&-", "g=$(exit 7)b",
    "set -C", "set +C", "echo x >|{t}", "(: >{t}); echo $?", "echo {t}*", "exec 3>{t}",
    "(exec >{t}; echo x); echo $?", "(exec >&-; echo x)", "{{ echo x; }} >&- >{t}",
]
SEPARATORS = ["; ", " && ", " || ", "\n"]

COMMAND = st.tuples(st.sampled_from(COMMANDS), st.sampled_from(TARGETS)).map(lambda ct: ct[0].format(t=ct[1]))
SCRIPT = st.lists(st.tuples(COMMAND, st.sampled_from(SEPARATORS)), min_size=1, max_size=6).map(
    lambda items: "".join(c + s for c, s in items) + "echo \"end $?\"")


@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(SCRIPT)
# once wrong: `exec >b` that may fail (outside the tree) left the rest of the output known
@example('exec 3>d/; cd .. && (exec >b; echo x); echo "end $?"')
@example('cd ..; (echo y; exec >b; echo x); echo "end $?"')
def test_known_outcomes_agree_with_bash(tmp_path_factory, script):
    model_dir, bash_dir = str(tmp_path_factory.mktemp("model")), str(tmp_path_factory.mktemp("bash"))
    bashref.make_tree(model_dir, TREE)
    bashref.make_tree(bash_dir, TREE)
    # the model's directory keeps the starting tree: the model must not lean on what bash made
    result = evaluate(parse(script), Env.default(model_dir))
    if isinstance(result.stdout, Opaque) or isinstance(result.status, Opaque):
        return
    outcome = bashref.run(script, cwd=bash_dir)
    model = (result.stdout.replace(model_dir, "CWD"), result.status)
    assert model == (outcome.text.replace(bash_dir, "CWD"), outcome.status), script
    if result.exact:  # the errors too, when nothing was unknown
        assert bashref.model_stderr(result.commands) == outcome.error, script


def test_output_after_an_exec_that_may_fail_is_unknown(tmp_path):
    """Whether `exec >b` outside the tree opens b decides where the rest goes: bash
    writes x to b; the model must not claim x on stdout."""
    script = "cd ..; (echo y; exec >b; echo x); echo z"
    bash_dir, model_dir = tmp_path / "bash", tmp_path / "model"
    for where in (bash_dir, model_dir):
        where.mkdir()
        bashref.make_tree(str(where), TREE)
    outcome = bashref.run(script, cwd=str(bash_dir))
    assert outcome.text == "y\nz\n" and (tmp_path / "b").read_text() == "x\n"
    result = evaluate(parse(script), Env.default(str(model_dir)))
    assert isinstance(result.stdout, Opaque)
