"""Reused runs change no prediction: every prediction made while earlier runs are reused
equals the one made with nothing reused.

The cases are the suite's oracle and naive replies and generated replies
(test_predict_generated's mutations, seeded), each under every transport the
model follows, so the same delivered script meets the same and different
states many times over. A second part runs scripts whose new shells read
state the outer shell changed between two identical `bash -c` commands.
"""

import random

import pytest

import bashref
import probing
from test_predict_generated import MUTATIONS
from qbcore import suite
from qbcore.model.effects import SHELL_RUNS, run_effects
from qbcore.model.utilities.vfs import UnknownData, VirtualTree
from qbcore.predict import SUPPORTED, clear_caches, predict

COUNT = 1500 if probing.LONG else 150
TRANSPORTS = sorted(SUPPORTED)


def _cases():
    tasks = [t for t in suite.load() if not any(c["kind"] == "git" for c in t.checks)]
    cases = [(task, getattr(task, label)) for task in tasks for label in ("oracle", "naive")]
    rng = random.Random(probing.SEED)
    for _ in range(COUNT):
        task = rng.choice(tasks)
        reply = getattr(task, rng.choice(["oracle", "naive"]))
        for _ in range(rng.choice([1, 1, 2])):
            reply = rng.choice(MUTATIONS)(reply, rng)
        cases.append((task, reply))
    return [(task, reply, transport) for task, reply in cases for transport in TRANSPORTS]


def _fresh(cases):
    """Each prediction with nothing reused."""
    found = []
    for task, reply, transport in cases:
        clear_caches()
        SHELL_RUNS.enabled = False
        try:
            found.append(predict(task, reply, transport))
        finally:
            SHELL_RUNS.enabled = True
    return found


def test_reused_runs_change_no_prediction():
    cases = _cases()
    fresh = _fresh(cases)
    clear_caches()
    reused = [predict(task, reply, transport) for task, reply, transport in cases]
    assert SHELL_RUNS.hits >= 20  # runs were reused, so the comparison means something
    clear_caches(shell_runs=False)
    again = [predict(task, reply, transport) for task, reply, transport in cases]  # every run kept
    assert SHELL_RUNS.hits >= len(SHELL_RUNS) // 2
    for (task, reply, transport), one, two, three in zip(cases, fresh, reused, again):
        assert one == two == three, f"{task.id} {transport} {reply!r}"


ROOT = "/work/task"
# scripts that start the same new shell over and over, in the same state and in changed ones


def _model(script, start):
    tree = start.clone()  # the same entries each time, as predict's copies of a fixture
    with bashref.host_facts():
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT))
    # (bytes not known are compared by what the model says of them)
    files = {path: ("not known", data.why) if type(data) is UnknownData else data for path, data in tree.snapshot().items()}
    return (files, tree.modes(), run.status, run.unknown, run.files.lost, run.effects.stderr,
            run.effects.stderr_unknown)


def _fresh_and_reused(script):
    start = VirtualTree.from_listing({f"{ROOT}/f": b"start\n", f"{ROOT}/d": None})
    SHELL_RUNS.clear()
    SHELL_RUNS.enabled = False
    try:
        fresh = _model(script, start)
    finally:
        SHELL_RUNS.enabled = True
    return fresh, [_model(script, start) for _ in range(3)]


def test_a_new_shell_in_the_same_state_is_reused():
    fresh, reused = _fresh_and_reused("bash -c 'echo \"$0 $1\" >> f; exit 3' a b; echo $? >> f")
    assert reused == [fresh] * 3
    # the harness's shell and the one it starts are run once; the harness's is reused after
    assert SHELL_RUNS.hits == 2 and SHELL_RUNS.misses == 2
    assert fresh[0][f"{ROOT}/f"] == b"start\na b\n3\n"


@pytest.mark.parametrize("script", [
    # the outer shell changes the file the same inner script reads
    "bash -c 'cat f >> g'; echo more >> f; bash -c 'cat f >> g'",
    "bash -c 'echo a >> f'; bash -c 'echo a >> f'",
    # and the environment, the arguments, the directory, the descriptors
    "bash -c 'echo $X >> f'; export X=1; bash -c 'echo $X >> f'",
    "bash -c 'echo $0 >> f' a; bash -c 'echo $0 >> f' b",
    "bash -c 'pwd >> /work/task/f'; cd d; bash -c 'pwd >> /work/task/f'",
    "bash -c 'echo x' > f; bash -c 'echo x' >> f; bash -c 'echo x' 2>> f",
    "bash -c 'cat' < f > g; echo y >> f; bash -c 'cat' < f >> g",
    "bash -c 'exit 3'; echo $? > f; bash -c 'exit 3'; echo $? >> f",
    "bash -c 'if then' 2>> f; bash -c 'if then' 2>> f",
    "echo x | bash -c 'cat >> f'; echo x | bash -c 'cat >> f'",
    # what a new shell reads of its parents: its level, its whole environment, stdin
    "bash -c 'echo $SHLVL >> f'; bash -c 'bash -c \"echo \\$SHLVL >> f\"'; bash -c 'echo $SHLVL >> f'",
    "bash -c 'export -p >> f'; Y=2 bash -c 'export -p >> f'",
    "bash -c 'for w in $(cat f); do echo $w >> g; done'; echo z >> f; bash -c 'for w in $(cat f); do :; done'",
    "bash -c 'cat >> f' <<< in; bash -c 'cat >> f' <<< in",
    "{ bash -c 'echo a; echo b >&2'; } 2>&1 | bash -c 'cat >> f'; bash -c 'echo a; echo b >&2' 2>> f",
])
def test_new_shells_give_what_fresh_runs_give(script):
    fresh, reused = _fresh_and_reused(script)
    assert reused == [fresh] * 3
