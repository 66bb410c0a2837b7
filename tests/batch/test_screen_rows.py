"""Result rows as the workers write them: the same bytes as the row dict through json.dumps, in input
order whatever the number of workers, and the same file after a kill and a resume."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qbcore.batch import screen as screen_module
from qbcore.batch.replies import iter_replies
from qbcore.batch.screen import (ERROR, OUTCOMES, _meta, delivery, reply_sha256, result_row, row_head, row_text,
                                 screen, screen_block, setup_of)
from qbcore.harness.simulate import OuterEffect, simulate
from qbcore.harness.transports import NAMES

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"
SETUP = setup_of({"cwd": None, "listing": None})

# text a row may carry: quotes, backslashes, control characters, non-ASCII, lone surrogates
TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12) | st.sampled_from(
    ["", "a", '"', "\\", "\n", "é", "\ud800", "x" * 40])
META = st.fixed_dictionaries({"id": TEXT, "line": st.integers(0, 10**9), "task_id": TEXT,
                              "model": st.none() | TEXT, "contract": st.sampled_from([None, "raw", "nested"]),
                              "trial": st.none() | st.integers(-5, 10**12), "reply_sha256": TEXT,
                              "reply_chars": st.integers(0, 10**8), "setup": TEXT})
EFFECT = st.builds(OuterEffect, kind=st.sampled_from(["command", "substitution", "file"]), text=TEXT,
                   argv=st.lists(TEXT, max_size=4).map(tuple), path=st.none() | TEXT, certain=st.booleans(),
                   layer=st.sampled_from([1, 2]))
PREDICTION = st.builds(
    SimpleNamespace, inner_script=st.none() | TEXT, inner_args=st.lists(TEXT, max_size=6),
    opaque=st.lists(TEXT, max_size=4), outer_effects=st.lists(EFFECT, max_size=3),
    outer_error=st.none() | TEXT | st.sampled_from([{"kind": "syntax", "at": [1, 2]}, 7]),
    exact=st.booleans())


def expected_line(meta, transport, simulation, reply, max_text):
    return json.dumps(result_row(meta, transport, simulation, reply=reply, max_text=max_text))


@settings(max_examples=400, deadline=None)
@given(meta=META, transport=st.sampled_from(NAMES), prediction=PREDICTION, reply=TEXT,
       max_text=st.sampled_from([1, 2, 3, 5, 8, 13, 40, 200, 16384]))
def test_a_row_built_as_text_is_the_row_dict_through_json_dumps(meta, transport, prediction, reply, max_text):
    delivered, text = row_text(row_head(meta), transport, prediction, reply, max_text)
    assert text == expected_line(meta, transport, prediction, reply, max_text)
    assert delivered == delivery(reply, transport, prediction) and text.isascii()


def test_real_predictions_give_the_same_rows_either_way():
    meta = {"id": "s", "line": 1, "task_id": "t", "model": None, "contract": None, "trial": None,
            "reply_sha256": "0" * 64, "reply_chars": 0, "setup": SETUP}
    replies = [json.loads(line)["reply"] for line in open(SAMPLES)]
    replies += ["echo " + "y" * 300, "x=$(date) ; echo \"$x\" > f; `id`", "printf '\\udc80 %s' é"]
    for reply in replies:
        for transport in NAMES:
            found = simulate(reply, transport)
            for max_text in (5, 60, 16384):
                assert row_text(row_head(meta), transport, found, reply, max_text)[1] == \
                    expected_line(meta, transport, found, reply, max_text)


def test_an_empty_meta_still_gives_a_json_object():
    found = simulate("echo hi", "raw")
    assert row_text(row_head({}), "raw", found, "echo hi")[1] == expected_line({}, "raw", found, "echo hi", 16384)


def reference_file(lines, transports, simulate_with=simulate) -> bytes:
    """The result file of a fresh run, built the plain way: one dict a pair through json.dumps."""
    out = []
    for item in iter_replies(lines):
        if hasattr(item, "reply"):
            meta = _meta(item, reply_sha256(item.reply), SETUP)
            for transport in transports:
                out.append(expected_line(meta, transport, simulate_with(item.reply, transport), item.reply, 16384))
    return "".join(line + "\n" for line in out).encode()


def sample_lines(count):
    samples = [json.loads(line) for line in open(SAMPLES)]
    return [json.dumps(dict(samples[n % len(samples)], id=f"r{n}")) + "\n" for n in range(count)]


def jittery_simulate(reply, transport, **options):
    """The real model, slower at random: workers finish their chunks out of order."""
    if random.random() < 0.05:
        time.sleep(0.01)
    return simulate(reply, transport, **options)


@pytest.mark.parametrize("jobs", [1, 3])
def test_rows_come_out_in_input_order_as_one_process_writes_them(tmp_path, monkeypatch, jobs):
    monkeypatch.setattr(screen_module, "CHUNK_PAIRS", 5)  # many chunks, finishing out of order
    lines = sample_lines(60) + ["{broken\n"] + sample_lines(70)[60:]
    out = tmp_path / "out.jsonl"
    summary = screen(lines, list(NAMES), out, jobs=jobs, simulate=jittery_simulate)
    assert out.read_bytes() == reference_file(lines, NAMES)
    assert summary.screened == 70 * len(NAMES) and [b.line for b in summary.bad_lines] == [61]
    tally = {t: dict.fromkeys(OUTCOMES, 0) for t in NAMES}
    for row in map(json.loads, out.read_text().splitlines()):
        tally[row["transport"]][row["delivered"]] += 1
    assert summary.counts == tally


def test_rows_written_again_for_changed_replies_are_counted_once(tmp_path, monkeypatch):
    monkeypatch.setattr(screen_module, "CHUNK_PAIRS", 4)
    out = tmp_path / "out.jsonl"
    before = sample_lines(20)
    screen(before, ["raw", "nested", "single"], out, jobs=2)
    after = [line.replace('"reply": "', '"reply": "echo \\"$HOME\\"; ') if n % 3 == 0 else line
             for n, line in enumerate(before)]
    summary = screen(after, ["raw", "nested", "single"], out, jobs=2)
    changed = sum(1 for n in range(20) if n % 3 == 0)
    assert (summary.screened, summary.skipped, summary.superseded) == (3 * changed, 3 * (20 - changed), 3 * changed)
    latest = {}
    for row in map(json.loads, out.read_text().splitlines()):
        latest[row["id"], row["transport"]] = row
    tally = {t: dict.fromkeys(OUTCOMES, 0) for t in ("raw", "nested", "single")}
    for row in latest.values():
        tally[row["transport"]][row["delivered"]] += 1
    assert summary.counts == tally and tally["nested"][ERROR] == 0


def test_a_worker_lost_mid_chunk_keeps_the_order_of_the_rest(tmp_path, monkeypatch):
    monkeypatch.setattr(screen_module, "CHUNK_PAIRS", 8)
    lines = sample_lines(6)
    lines[3] = json.dumps({"id": "crash", "task_id": "t", "reply": "# crash"}) + "\n"

    def crashing(reply, transport, **options):
        if reply == "# crash" and transport == "nested":
            os.kill(os.getpid(), signal.SIGKILL)
        return simulate(reply, transport, **options)

    out = tmp_path / "out.jsonl"
    screen(lines, ["raw", "nested", "single"], out, jobs=2, simulate=crashing)
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["transport"]) for r in found] == [
        (json.loads(line)["id"], t) for line in lines for t in ("raw", "nested", "single")]
    crashed = [r for r in found if r["delivered"] == ERROR]
    assert [(r["id"], r["transport"]) for r in crashed] == [("crash", "nested")]
    assert crashed[0]["error"] == "crash: the worker was killed by SIGKILL"


def test_the_blocks_a_worker_returns_are_its_rows_in_order():
    lines = sample_lines(4)
    tasks, seq = [], 0
    for item in iter_replies(lines):
        meta = _meta(item, reply_sha256(item.reply), SETUP)
        for transport in ("nested", "raw"):
            tasks.append((seq, meta, item.reply, transport))
            seq += 1
    codes, data, verdicts = screen_block(tasks, simulate, {})
    assert verdicts is None
    assert data == reference_file(lines, ("nested", "raw"))
    assert [OUTCOMES[c] for c in codes] == [json.loads(line)["delivered"] for line in data.splitlines()]


def test_a_batch_killed_at_any_moment_resumes_to_the_same_file(tmp_path):
    source = tmp_path / "r.jsonl"
    source.write_text("".join(sample_lines(4000)))
    out, clean = tmp_path / "out.jsonl", tmp_path / "clean.jsonl"
    args = [sys.executable, "-m", "qbcore", "screen", str(source), "-t", "nested", "-t", "ssh", "-t", "raw",
            "--jobs", "3"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for stop_at in (30_000, 400_000):  # killed twice, at different points
        batch = subprocess.Popen(args + ["-o", str(out)], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        while batch.poll() is None and (not out.exists() or out.stat().st_size < stop_at):
            time.sleep(0.01)
        batch.send_signal(signal.SIGKILL)
        batch.wait()
        assert batch.returncode == -signal.SIGKILL, "the batch finished before it was killed"
    assert subprocess.run(args + ["-o", str(out)], env=env, capture_output=True).returncode == 0
    assert subprocess.run(args + ["-o", str(clean)], env=env, capture_output=True).returncode == 0
    assert out.read_bytes() == clean.read_bytes()
