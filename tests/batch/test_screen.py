"""Screening: every (reply, transport) pair gets one result line; no reply, fault or interruption stops
the batch or loses work, and a changed reply is screened again."""

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qbcore.batch.screen import DELIVERY, ERROR, delivery, screen
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES

ROOT = Path(__file__).resolve().parent.parents[1]
SAMPLES = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"

REPLIES = [
    {"id": "a", "task_id": "write-file/t0-plain", "reply": "printf 'hi\\n' > f.txt"},
    {"id": "b", "task_id": "write-file/t1-apostrophe", "reply": 'echo "a b" x'},
    "{broken",
    {"id": "c", "task_id": "grep-count/t2-regex-trap", "reply": "echo \"$(pwd)\""},
]

# Replies the substitute model below treats as hostile. The guard is tested with a model of its own,
# passed to screen() the way any caller passes one, so no production code path knows these markers
# and the test does not depend on which real replies the model happens to mishandle today.
HANG, CRASH, RAISE, GREEDY = "# hangs the model", "# crashes the model", "# makes the model raise", "# eats memory"


def hostile_simulate(reply, transport, **options):
    if reply == HANG:
        time.sleep(3600)
    if reply == CRASH:
        os.kill(os.getpid(), signal.SIGSEGV)
    if reply == RAISE:
        raise RuntimeError("a bug in the model")
    if reply == GREEDY:
        bytearray(1 << 30)
    return simulate(reply, transport, **options)


def options_simulate(reply, transport, **options):
    """A model that reports which options it was given, as its inner script."""
    return simulate("echo " + shlex.quote(json.dumps(sorted(options))), "raw")


def jsonl(rows):
    return [(r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows]


def rows(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def latest(path):
    found = {}
    for row in rows(path):
        found[row["id"], row["transport"]] = row
    return found


def _obey_file_modes():
    """In the child: as root, give up overriding file modes, so an unreadable directory is unreadable."""
    if os.geteuid() == 0:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, out of the bounding set
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                os._exit(97)


def cli(*args, cwd=None, obey_modes=False, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "qbcore", "screen", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=timeout,
                          preexec_fn=_obey_file_modes if obey_modes else None)
    if done.returncode == 97:
        pytest.skip("cannot give up root's file-mode override here")
    return done


def test_every_pair_is_screened_and_a_bad_line_is_reported(tmp_path):
    out = tmp_path / "out.jsonl"
    summary = screen(jsonl(REPLIES), list(NAMES), out)
    assert [b.line for b in summary.bad_lines] == [3]
    got = [(r["id"], r["transport"]) for r in rows(out)]
    assert got == [(i, t) for i in "abc" for t in NAMES]  # in input order, whatever the workers' order
    assert summary.screened == 3 * len(NAMES) and summary.errors == 0


def test_delivery_follows_what_the_inner_shell_receives():
    assert delivery("echo hi", "raw", simulate("echo hi", "raw")) == "intact"
    assert delivery("echo hi", "stdin", simulate("echo hi", "stdin")) == "intact"
    # BASH-NOTES: a double quote in R closes the outer one: inner script `echo a`, $0 `b x`
    assert delivery('echo "a b" x', "nested", simulate('echo "a b" x', "nested")) == "rewritten"
    assert delivery('echo "a', "nested", simulate('echo "a', "nested")) == "broken"
    assert delivery("echo a\\nb", "json-naive", simulate("echo a\\nb", "json-naive")) == "rewritten"
    assert delivery('echo "$RANDOM"', "nested", simulate('echo "$RANDOM"', "nested")) == "unknown"


def test_a_file_of_hostile_replies_finishes_every_good_line(tmp_path):
    out = tmp_path / "out.jsonl"
    huge = "echo " + "x" * 200_000
    lines = jsonl([
        {"id": "good-1", "task_id": "t", "reply": "echo one"},
        {"id": "nul", "task_id": "t", "reply": "echo a\0b"},
        '{"id": "deep", "task_id": "t", "reply": "x", "junk": ' + "[" * 100_000 + "]" * 100_000 + "}",
        {"id": "huge", "task_id": "t", "reply": huge},
        {"id": "hang", "task_id": "t", "reply": HANG},
        {"id": "good-2", "task_id": "t", "reply": 'echo "a b" x'},
        {"id": "crash", "task_id": "t", "reply": CRASH},
        {"id": "raise", "task_id": "t", "reply": RAISE},
        {"id": "good-3", "task_id": "t", "reply": "echo three"},
        "{broken",
        # real replies that have hung or broken the model: whatever it makes of them, they get a row
        {"id": "root-slashes", "task_id": "t", "reply": '" <//x "'},
        {"id": "deep-reply", "task_id": "t", "reply": "echo " + "$(echo " * 600 + "x" + ")" * 600},
    ])
    transports = ["raw", "nested"]
    reported = []
    summary = screen(lines, transports, out, simulate=hostile_simulate, timeout=2, jobs=2,
                     on_bad_line=lambda bad: reported.append((bad.line, len(out.read_text().splitlines()))))
    assert [line for line, _ in reported] == [2, 3, 10]
    assert all(written < 9 * len(transports) for _, written in reported)  # reported as read, not at the end
    found = rows(out)
    assert [(r["id"], r["transport"]) for r in found] == [
        (i, t) for i in ("good-1", "huge", "hang", "good-2", "crash", "raise", "good-3", "root-slashes",
                         "deep-reply") for t in transports]
    by_id = {(r["id"], r["transport"]): r for r in found}
    for record_id in ("good-1", "good-2", "good-3", "huge"):
        assert all(by_id[record_id, t]["delivered"] in DELIVERY for t in transports)
    assert by_id["hang", "raw"]["error"].startswith("timeout: no result within 2 s")
    assert by_id["crash", "nested"]["error"] == "crash: the worker was killed by SIGSEGV"
    assert by_id["raise", "raw"]["error"] == "exception: RuntimeError: a bug in the model"
    assert {r["delivered"] for r in found if r["id"] in ("hang", "crash", "raise")} == {ERROR}
    assert summary.screened == 18 and summary.errors >= 6
    big = by_id["huge", "raw"]
    assert big["cut"] == ["inner_script"] and big["reply_chars"] == len(huge)
    assert big["inner_script"] == huge[:len(big["inner_script"])] and big["delivered"] == "intact"
    assert max(len(line) for line in out.read_text().splitlines()) < 100_000  # the reply is in no row whole


def test_a_reply_that_needs_more_memory_than_a_worker_has_is_an_error_row(tmp_path):
    out = tmp_path / "out.jsonl"
    lines = jsonl([{"id": "m", "task_id": "t", "reply": GREEDY}, {"id": "g", "task_id": "t", "reply": "echo"}])
    summary = screen(lines, ["raw"], out, simulate=hostile_simulate, memory_mb=512, jobs=1)
    assert summary.errors == 1 and latest(out)["g", "raw"]["delivered"] == "intact"
    assert latest(out)["m", "raw"]["error"].startswith("memory: ")


def test_replies_from_standard_input(tmp_path):
    out = tmp_path / "out.jsonl"
    done = subprocess.run([sys.executable, "-m", "qbcore", "screen", "-", "-t", "raw", "-o", str(out)],
                          input="".join(jsonl(REPLIES)), capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert done.returncode == 1 and "skipped line 3" in done.stderr
    assert [r["id"] for r in rows(out)] == ["a", "b", "c"]


def test_an_error_row_is_final_unless_errors_are_retried(tmp_path):
    out = tmp_path / "out.jsonl"
    lines = jsonl([{"id": "r", "task_id": "t", "reply": RAISE}, {"id": "g", "task_id": "t", "reply": "echo"}])
    screen(lines, ["raw"], out, simulate=hostile_simulate)
    again = screen(lines, ["raw"], out, simulate=hostile_simulate)
    assert (again.screened, again.skipped) == (0, 2)
    retried = screen(lines, ["raw"], out, retry_errors=True)
    assert (retried.screened, retried.skipped) == (1, 1)
    assert latest(out)["r", "raw"]["delivered"] == "intact" and retried.counts["raw"][ERROR] == 0


def test_a_changed_reply_under_the_same_id_is_screened_again(tmp_path):
    out = tmp_path / "out.jsonl"
    before = [{"id": "a", "task_id": "t", "reply": "echo safe"}, {"id": "b", "task_id": "t", "reply": "echo b"}]
    screen(jsonl(before), list(NAMES), out)
    after = [dict(before[0], reply='rm -rf "$HOME"'), before[1]]
    summary = screen(jsonl(after), list(NAMES), out)
    assert (summary.screened, summary.skipped) == (len(NAMES), len(NAMES))
    assert summary.superseded == len(NAMES)
    now = latest(out)
    assert all(now["a", t]["inner_script"] != "echo safe" for t in ("raw", "json", "script"))
    assert sum(sum(c.values()) for c in summary.counts.values()) == 2 * len(NAMES)  # superseded rows not counted


def test_shifted_line_ids_are_screened_again(tmp_path):
    out = tmp_path / "out.jsonl"
    one, two = {"task_id": "t", "reply": "echo one"}, {"task_id": "t", "reply": "echo two"}
    screen(jsonl([one, two]), ["raw"], out)
    summary = screen(jsonl([{"task_id": "t", "reply": "echo zero"}, one, two]), ["raw"], out)
    assert summary.screened == 3 and summary.skipped == 0
    assert [latest(out)[f"line-{n}", "raw"]["inner_script"] for n in (1, 2, 3)] == ["echo zero", "echo one", "echo two"]


def test_a_damaged_result_line_is_reported_and_its_pair_redone(tmp_path):
    out = tmp_path / "out.jsonl"
    screen(jsonl(REPLIES), ["raw", "nested"], out)
    text = out.read_text().splitlines()
    text[2] = text[2][:40]  # a damaged line in the middle
    out.write_text("\n".join(text) + "\n")
    damaged = []
    summary = screen(jsonl(REPLIES), ["raw", "nested"], out, on_damaged=lambda n, r: damaged.append(n))
    assert damaged == [3] and summary.screened == 1 and summary.skipped == 5
    assert sum(summary.counts["raw"].values()) == sum(summary.counts["nested"].values()) == 3


def test_options_reach_the_model_only_when_given(tmp_path):
    out = tmp_path / "out.jsonl"
    lines = jsonl([{"id": "a", "task_id": "t", "reply": "echo"}])
    screen(lines, ["raw"], out, simulate=options_simulate)
    assert latest(out)["a", "raw"]["inner_script"] == 'echo "[]"'.replace('"', "'")
    summary = screen(lines, ["raw"], out, simulate=options_simulate, cwd=str(tmp_path), listing=["f.txt"])
    assert summary.screened == 1  # other options: other work
    assert latest(out)["a", "raw"]["inner_script"] == "echo '[\"cwd\", \"listing\"]'"


# -- the command ------------------------------------------------------------------

def test_the_command_screens_the_bundled_samples(tmp_path):
    done = cli("-o", tmp_path / "out.jsonl", "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    samples = sum(1 for _ in open(SAMPLES))
    assert summary["screened"] == samples * len(NAMES) and summary["bad_lines"] == []
    assert summary["delivery"]["raw"]["intact"] == samples
    assert summary["delivery"]["nested"]["rewritten"] > 0


def test_the_command_rejects_an_unknown_transport(tmp_path):
    done = cli("-t", "telnet", "-o", tmp_path / "o")
    assert done.returncode == 2 and "unknown transport 'telnet'" in done.stderr


def test_bad_lines_exit_1_after_every_good_line(tmp_path):
    source = tmp_path / "r.jsonl"
    source.write_bytes(b"\xef\xbb\xbf" + "".join(jsonl(REPLIES)).encode())
    done = cli(source, "-t", "raw", "-o", tmp_path / "out.jsonl")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == f"qbcore screen: {source}: skipped line 3: not JSON: " \
                          "Expecting property name enclosed in double quotes at column 2\n"
    assert [r["id"] for r in rows(tmp_path / "out.jsonl")] == ["a", "b", "c"]


def test_a_killed_batch_resumes_losing_and_duplicating_nothing(tmp_path):
    samples = [json.loads(line) for line in open(SAMPLES)]
    source = tmp_path / "r.jsonl"
    source.write_text("".join(json.dumps(dict(samples[i % len(samples)], id=f"r{i}")) + "\n" for i in range(3000)))
    out, clean = tmp_path / "out.jsonl", tmp_path / "clean.jsonl"
    args = [sys.executable, "-m", "qbcore", "screen", str(source), "-t", "nested", "-t", "ssh", "-t", "single"]
    batch = subprocess.Popen(args + ["-o", str(out)], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while batch.poll() is None and (not out.exists() or out.stat().st_size < 100_000):
        time.sleep(0.02)
    batch.send_signal(signal.SIGKILL)
    batch.wait()
    assert batch.returncode == -signal.SIGKILL  # killed mid-batch, not finished
    partial = out.read_text().count("\n")
    assert 0 < partial < 9_000
    assert cli(source, "-t", "nested", "-t", "ssh", "-t", "single", "-o", out).returncode == 0
    assert cli(source, "-t", "nested", "-t", "ssh", "-t", "single", "-o", clean).returncode == 0
    resumed = rows(out)
    keys = [(r["id"], r["transport"]) for r in resumed]
    assert len(keys) == len(set(keys)) == 9_000
    assert sorted(resumed, key=lambda r: (r["id"], r["transport"])) == \
        sorted(rows(clean), key=lambda r: (r["id"], r["transport"]))


def _fault(tmp_path, name):
    source = tmp_path / "r.jsonl"
    source.write_text("".join(jsonl(REPLIES)))
    if name == "missing directory":
        return source, tmp_path / "no" / "out.jsonl", "cannot write .*/no/out.jsonl: No such file or directory"
    if name == "a directory":
        return source, tmp_path, "cannot write .*: Is a directory"
    if name == "a FIFO":
        os.mkfifo(tmp_path / "fifo")
        return source, tmp_path / "fifo", ".*/fifo is a FIFO, not a regular file"
    if name == "/dev/zero":
        return source, "/dev/zero", "/dev/zero is a character device, not a regular file"
    if name == "the input":
        return source, source, ".*/r.jsonl is the input file itself"
    if name == "a symlink to the input":
        (tmp_path / "link").symlink_to(source)
        return source, tmp_path / "link", ".*/link is the input file itself"
    if name == "a hard link to the input":
        os.link(source, tmp_path / "hard")
        return source, tmp_path / "hard", ".*/hard is the input file itself"
    raise AssertionError(name)


@pytest.mark.parametrize("name", ["missing directory", "a directory", "a FIFO", "/dev/zero", "the input",
                                  "a symlink to the input", "a hard link to the input"])
def test_an_output_path_fault_is_one_line_and_exit_2(tmp_path, name):
    import re

    source, out, message = _fault(tmp_path, name)
    before = source.read_bytes()
    for extra in ([], ["--restart"]):
        done = cli(source, "-o", out, *extra, timeout=60)
        assert done.returncode == 2 and done.stdout == ""
        assert re.fullmatch(f"qbcore screen: {message}\n", done.stderr), done.stderr
    assert source.read_bytes() == before


def test_an_unwritable_output_is_one_line_and_exit_2(tmp_path):
    source = tmp_path / "r.jsonl"
    source.write_text("".join(jsonl(REPLIES)))
    shut = tmp_path / "shut"
    shut.mkdir()
    shut.chmod(0o555)
    try:
        done = cli(source, "-o", shut / "out.jsonl", obey_modes=True)
    finally:
        shut.chmod(0o755)
    assert done.returncode == 2
    assert done.stderr == f"qbcore screen: cannot write {shut}/out.jsonl: Permission denied\n"


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_one_line_and_exit_2_and_the_file_resumes(tmp_path, small_disk):
    done = cli("-o", small_disk / "out.jsonl", timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"qbcore screen: cannot write {small_disk}/out.jsonl: No space left on device\n"
    moved = tmp_path / "out.jsonl"
    moved.write_bytes((small_disk / "out.jsonl").read_bytes())  # the torn end is cut on resume
    assert cli("-o", moved).returncode == 0
    keys = [(r["id"], r["transport"]) for r in rows(moved)]
    assert len(keys) == len(set(keys)) == sum(1 for _ in open(SAMPLES)) * len(NAMES)


def test_listing_and_cwd_reach_the_model(tmp_path):
    listing = tmp_path / "listing"
    listing.write_text("b.txt\nsub/a.txt\n")
    source = tmp_path / "r.jsonl"
    source.write_text(json.dumps({"id": "g", "task_id": "t", "reply": '" * */*.txt "'}) + "\n")
    out = tmp_path / "out.jsonl"
    done = cli(source, "-t", "nested", "--cwd", "/nonexistent/qbcore-screen", "--listing", listing, "-o", out)
    assert done.returncode == 0, done.stderr
    assert latest(out)["g", "nested"]["inner_args"] == ["b.txt", "sub", "sub/a.txt", ""]


def test_screen_gives_the_same_results_in_a_directory_it_cannot_read(tmp_path):
    replies = ['" * "', 'x"; ls *.txt; "', "echo *", '" $(echo /*) "', '[ -f a.txt ] && cat a.txt']
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "a.txt").write_text("secret\n")
    source = tmp_path / "r.jsonl"
    source.write_text("".join(json.dumps({"id": f"r{i}", "task_id": "t", "reply": r}) + "\n"
                              for i, r in enumerate(replies)))
    found = []
    try:
        for mode in (0o755, 0o311):  # readable, then searchable but not readable
            work.chmod(mode)
            out = tmp_path / f"out-{mode:o}.jsonl"
            done = cli(source, "-o", out, cwd=work, obey_modes=True)
            assert done.returncode == 0, done.stderr
            found.append(rows(out))
    finally:
        work.chmod(0o755)
    assert len(found[0]) == len(found[1]) == len(replies) * len(NAMES)
    assert found[0] == found[1]


def test_the_input_is_read_only_a_bounded_way_ahead_of_the_rows_written(tmp_path):
    from qbcore.batch.screen import CHUNK_PAIRS

    out = tmp_path / "out.jsonl"
    ahead = []

    def stream():
        for n in range(1, 3001):
            if n % 250 == 0:  # how far reading runs ahead of writing
                ahead.append(n - 1 - out.read_text().count("\n"))
            yield json.dumps({"id": f"r{n}", "task_id": "t", "reply": f"echo {n}"}) + "\n"

    summary = screen(stream(), ["raw"], out, jobs=1)
    assert summary.screened == 3000 and len(ahead) == 12
    assert max(ahead) <= 1 * CHUNK_PAIRS * 5  # two chunks in flight, one being read: not the whole input


def test_a_bad_listing_is_a_usage_error(tmp_path):
    listing = tmp_path / "listing"
    listing.write_text("../up\n")
    for args in (["--listing", listing], ["--listing", tmp_path / "missing"]):
        done = cli("-o", tmp_path / "out.jsonl", *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_row_caps_each_reported_field_and_names_what_it_cut():
    from types import SimpleNamespace

    from qbcore.batch.screen import result_row

    many = [f"arg-{n:05}" for n in range(10_000)]
    prediction = SimpleNamespace(outer_error=None, exact=True, inner_script="echo " + "y" * 5000,
                                 inner_args=many, opaque=["$(date)"], outer_effects=[])
    row = result_row({"id": "a"}, "nested", prediction, reply="echo", max_text=1000)
    assert row["cut"] == ["inner_script", "inner_args"] and row["delivered"] == "rewritten"
    assert row["inner_script"] == ("echo " + "y" * 5000)[:1000]
    assert row["inner_args"] == many[:len(row["inner_args"])] and 950 < sum(map(len, row["inner_args"])) <= 1000
    assert row["opaque"] == ["$(date)"] and row["exact"] is True
