"""A kept shell run is reused only where it read the same: replies that read what differs
between one layer and the next (SHLVL, the environment, a bash started inside, $-, $0, $$, the
directory, the time) are predicted alike with runs reused across transports and with nothing
reused, bash gives them different outcomes under raw and one layer deeper, and the executor
agrees with every certain prediction."""

import pytest

import bashref
import sandboxing
from predicting import disagreement
from qbcore import suite
from qbcore.harness.transports import SCRIPT_PATH
from qbcore.model.effects import SHELL_RUNS, run_effects
from qbcore.model.utilities.vfs import VirtualTree
from qbcore.predict import clear_caches, predict
from qbcore.realbash import executor

TASK = "sed-replace/t0-plain"
SED = "sed -i -e s/alpha/omega/g data.txt"
# one after another, as screen predicts one reply under each transport
TRANSPORTS = ("raw", "nested", "single", "double-nested", "ssh", "script", "stdin")

def _chars(name: str) -> str:
    """A Python expression for the string ``name`` without a quote."""
    return "+".join(f"chr({ord(c)})" for c in name)


def _python(program: str) -> str:
    return f"python3 -c 'import os, sys; {program}'"


def _piped_python(program: str) -> str:
    """``program`` run by a python3 that a bash started inside runs, read from a pipe."""
    escaped = "".join("\\" + c if c in ";()" else c for c in f"import os,sys;{program}")
    return f"echo {escaped.replace(' ', chr(92) + ' ')} | bash -c python3"


_SHLVL = f"sys.exit(os.environ.get({_chars('SHLVL')})!={_chars('1')})"
_PATH = f"sys.exit(not os.environ.get({_chars('PATH')}).startswith({_chars('/usr/')}))"

# each reads something a layer may change; none holds `$` (but for the inner shell under
# single), `"`, a backtick or a backslash before those, so a double-quoting layer hands it on
# intact (the single-quoting one breaks those with `'`)
READERS = {
    # SHLVL: bash lowers it before it execs a last command, which the model does not follow, so
    # any read of it, by the shell, a utility or a bash started inside, leaves the outcome unknown
    "shlvl": f"test $SHLVL = 1 && {SED}",
    "python-shlvl": f"{_python(_SHLVL)} && {SED}",
    "bash-inside-shlvl": f"{_piped_python(_SHLVL)} && {SED}",
    # a python reads the values it asks for only: PATH here
    "python-path": f"{_python(_PATH)} && {SED}",
    "bash-inside-path": f"{_piped_python(_PATH)} && {SED}",
    # the remote shell inherits OLDPWD (the stand-in's cd), raw's shell has none
    "cd-back": f"cd - > /dev/null 2>&1 || {SED}",
    "bash-inside-cd-back": f"bash -c cd\\ -\\ \\>/dev/null\\ 2\\>\\&1 || {SED}",
    # a python that reads nothing of its environment
    "python-unread": f"python3 -c print\\(1\\) > /dev/null && {SED}",
    "flags": f"case $- in *c*) {SED};; esac",
    "arg0": f"test $0 = {SCRIPT_PATH} && {SED}",
    "pwd": f"pwd | grep -q /task && {SED}",
    "date": f"date +%Y | grep -qx 2031 && {SED}",
    # $$: the harness bash's own id, which the same script one layer deeper does not share
    "pid": f"test $$ -gt 1 && {SED}",
}

# where bash's outcomes differ between raw and a layer whose shell starts otherwise
DIFFER = (("cd-back", "ssh"), ("bash-inside-cd-back", "ssh"))


def _pairs():
    task = suite.get(TASK)
    return [(name, task, reply, transport) for name, reply in READERS.items() for transport in TRANSPORTS]


def _fresh(pairs):
    found = []
    for _, task, reply, transport in pairs:
        clear_caches()
        SHELL_RUNS.enabled = False
        try:
            found.append(predict(task, reply, transport))
        finally:
            SHELL_RUNS.enabled = True
    return found


def _shared(pairs):
    clear_caches()
    return [predict(task, reply, transport) for _, task, reply, transport in pairs]


def test_runs_reused_across_transports_predict_what_fresh_runs_do():
    pairs = _pairs()
    fresh = _fresh(pairs)
    shared = _shared(pairs)
    assert SHELL_RUNS.hits > 0  # runs were reused, so the comparison means something
    for (name, _, _, transport), one, two in zip(pairs, fresh, shared):
        assert one == two, f"{name} under {transport}"


def test_the_readers_tell_raw_from_one_layer_deeper():
    # if a read went unrecorded, the run under nested would reuse raw's and these would agree
    found = {(name, transport): p for (name, _, _, transport), p in zip(_pairs(), _shared(_pairs()))}
    for name, transport in DIFFER:
        raw, deeper = found[(name, "raw")], found[(name, transport)]
        assert raw.certain and deeper.certain, (name, transport)
        assert raw.passed and not deeper.passed, (name, transport)
        assert found[(name, "nested")] == raw, name  # shared with raw's run, or alike
    assert found[("arg0", "script")].passed and not found[("arg0", "raw")].passed
    assert found[("flags", "raw")].passed and not found[("flags", "script")].passed
    assert all(found[("python-unread", transport)].passed for transport in TRANSPORTS if transport != "stdin")
    # the harness bash's $$ is known (another in each of the two runs), a bash inside has its own
    assert found[("pid", "raw")].passed and not found[("pid", "single")].certain
    # PATH starts in a system folder but where the stand-in's folder comes first
    assert found[("python-path", "raw")].passed and not found[("python-path", "ssh")].passed
    # the time differs on every run, and bash's SHLVL is not followed: reused or not, the
    # prediction says so
    for name in ("date", "shlvl", "python-shlvl", "bash-inside-shlvl"):
        # (the single-quoting layer breaks a reply holding `'` before anything is read)
        assert not any(found[(name, transport)].certain for transport in TRANSPORTS
                       if transport != "single" or "'" not in READERS[name]), name


def test_shared_runs_agree_with_the_executor():
    sandboxing.need_sandbox()
    pairs = _pairs()
    predicted = _shared(pairs)
    jobs = [executor.Job(task.id, reply, transport, str(n))
            for n, (_, task, reply, transport) in enumerate(pairs) if predicted[n].certain]
    wrong = []
    for job, attempt in executor.run_many(jobs, workers=2):
        n = int(job.label)
        name, _, _, transport = pairs[n]
        line = disagreement(predicted[n], attempt, f"{name} {transport}")
        if line:
            wrong.append(line)
    assert not wrong, "\n".join(wrong)
    assert len(jobs) >= 25


ROOT = "/work/task"


_START = VirtualTree.from_listing({f"{ROOT}/f": b""})


def _written(script, **environ):
    """What ``script`` leaves in f, run as the harness's bash with ``environ`` changed on a copy
    of one starting tree (as predict's copies of a fixture)."""
    tree = _START.clone()
    with bashref.host_facts():
        run_effects(script, tree, ROOT, dict(bashref.executor_environ(ROOT), **environ))
    return tree.read_bytes(f"{ROOT}/f")


@pytest.mark.parametrize("script, read", [
    ("echo $SHLVL > f", True),
    ("bash -c 'echo $SHLVL' > f", True),
    ("bash -c 'bash -c \"echo \\$X\"' > f", True),
    ("python3 -c 'import os; open(\"f\", \"w\").write(os.environ[\"X\"])'", True),
    ("python3 -c 'import os; print(os.getenv(\"X\"))' > f", True),
    ("python3 -c 'import os; print(os.environ)' > f", True),
    # a program reads the values it asks for only
    ("python3 -c 'import os; open(\"f\", \"w\").write(os.environ[\"PATH\"][:1])'", False),
    ("python3 -c 'import os; print(sorted(os.environ.items()))' > /dev/null", True),
    ("python3 -c 'import os; print(len(dict(os.environ)))' > f", True),
    ("echo $X > f", True),
    ("echo x > f", False),
    ("bash -c 'echo x' > f", False),
    ("python3 -c 'print(1)' > f", False),
    ("echo $Y > f", False),
])
def test_a_run_is_reused_only_where_it_read_the_same(script, read):
    SHELL_RUNS.clear()
    first = _written(script, SHLVL="4", X="a")
    second = _written(script, SHLVL="6", X="b")
    assert (SHELL_RUNS.hits > 0) is not read
    SHELL_RUNS.enabled = False
    try:
        assert (first, second) == (_written(script, SHLVL="4", X="a"), _written(script, SHLVL="6", X="b"))
    finally:
        SHELL_RUNS.enabled = True


def test_a_remote_reply_that_reads_path_is_run_again_at_another_place():
    # the stand-in's folder, first on the remote shell's PATH, lies beside the task directory,
    # whose name differs on every run: a reply whose outcome hangs on it is unknown. The stand-in
    # finding itself on PATH is no read of the reply's: a reply that does not look is decided
    task = suite.get(TASK)
    clear_caches()
    guess = f"case '$PATH' in /tmp/qbcore-attempt-5eed5eed5eed5eed/*) {SED};; esac"
    found = predict(task, guess, "ssh-argv")
    assert not found.certain and "differ on every run" in found.why
    assert predict(task, SED, "ssh-argv").passed
    assert predict(task, SED, "ssh").passed
