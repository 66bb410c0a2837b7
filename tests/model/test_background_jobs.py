"""Background jobs against bash: a job and what runs after it, in every order bash may take.

The harness reads the output to its end, so a job that keeps it is done before
the files are judged (``qbcore.model.jobs``). Where the model decides the files
after ``JOB & REST``, bash must leave the same files running it, and also when
the job runs wholly before the rest or wholly after it: every interleaving ends
alike, or the model may not claim one.
"""

import datetime

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from utilities_diff import real_tree, virtual_tree
from qbcore.model.effects import run_effects
from qbcore.model.utilities.hostfacts import Facts, stated, system_programs
from qbcore.model.utilities.vfs import VirtualTree

ROOT = "/work/task"
FILES = {"a": b"1\n2\n", "b": b"b\n", "d/x": b"x\n", "n.log": b"log\n"}
COMMANDS = st.sampled_from([
    "echo x > a", "echo y >> b", "cp a c", "mv b c", "rm -f a", "mkdir -p d/e", "touch d/n", "sed -i s/1/9/ a",
    "cat a > c", "ls > list", "echo *.log > list", "wc -l < a > n", "printf z > d/x", "echo out", "cat nope",
    "ls d > dl", "mv d/x d/y", "cp -r d e", "echo new > m.log", "grep -c 1 a > n2", "rm -rf d",
    "[ -f c ] && echo yes > t", "f=$(cat b); echo \"$f$f\" > bb", "echo z 2>/dev/null > z",
])


def _model(script):
    tree = VirtualTree.from_listing({f"{ROOT}/{path}": data for path, data in FILES.items()})
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", programs=system_programs())
    with stated(facts):
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT))
    return run, tree


def _real(script, folder):
    for path, data in FILES.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    bashref.run(script, cwd=str(folder))
    return real_tree(str(folder), ROOT)


def _decided_alike(tmp_path_factory, script: str, orders: tuple):
    """Where the model decides ``script``, bash leaves the same files running it and each of
    the ``orders`` it may take."""
    run, tree = _model(script)
    if run.unknown or run.files.lost:
        return
    found = virtual_tree(tree, ROOT)
    for order in (script, *orders):
        assert found == _real(order, tmp_path_factory.mktemp("job")), order


@pytest.mark.bash
@settings(max_examples=examples(80), deadline=None)
@given(st.lists(COMMANDS, min_size=1, max_size=2), st.lists(COMMANDS, min_size=1, max_size=3))
def test_jobs_the_model_decides_end_alike_in_every_order(tmp_path_factory, job, rest):
    job, rest = "{ " + " && ".join(job) + "; }", "; ".join(rest)
    _decided_alike(tmp_path_factory, f"{job} & {rest}", (f"( {job} ); {rest}", f"{rest}; ( {job} )"))


@pytest.mark.bash
@settings(max_examples=examples(60), deadline=None)
@given(st.lists(COMMANDS, min_size=1, max_size=2), st.lists(COMMANDS, max_size=2), st.lists(COMMANDS, min_size=1, max_size=2))
def test_a_wait_ends_what_may_run_beside_a_job(tmp_path_factory, job, before, after):
    """``JOB & BEFORE; wait; AFTER``: the job runs anywhere in BEFORE, and is done by AFTER."""
    job, before, after = "{ " + " && ".join(job) + "; }", "".join(c + "; " for c in before), "; ".join(after)
    _decided_alike(tmp_path_factory, f"{job} & {before}wait; {after}",
                   (f"( {job} ); {before}{after}", f"{before}( {job} ); {after}"))


@pytest.mark.parametrize("script", [
    "echo x > a & wait; cat a > c", "for i in 1 2; do echo $i > j$i & done; wait; cat j1 j2 > c",
    "f() { echo x > a & }; f; wait; cat a > c",
    "echo x > a & echo y > b", "sed -i s/1/9/ a & mkdir -p d/e; echo *.log > list",
    "cp a c & wc -l < b > n", "echo out & cat nope", "for i in 1 2; do echo $i > j$i & done",
])
def test_jobs_on_paths_apart_are_decided(script):
    run, _ = _model(script)
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)


@pytest.mark.parametrize("script", [
    "echo x > a & cat a > c",
    # a subshell's wait waits for its own jobs only; a wait that may not run ends nothing
    "echo x > a & ( wait; cat a > c )",
    "echo x > a & [ -e q ] && wait; cat a > c", "wait() { :; }; echo x > a & wait; cat a > c",
])
def test_what_may_run_beside_a_job_and_meet_it_is_unknown(script):
    run, _ = _model(script)
    assert "both use" in (run.files.lost or ""), (run.unknown, run.files.lost)


def test_a_job_the_harness_may_kill_is_unknown():
    # measured with the executor: `(sleep 2; printf … > out.txt) >/dev/null 2>&1 &` leaves no
    # out.txt, as the harness stops reading when no process holds its output
    run, _ = _model("{ echo x > a; } >/dev/null 2>&1 & echo y > b")
    assert "away from the harness" in (run.files.lost or "")
