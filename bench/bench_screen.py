"""`qbcore screen` throughput and peak memory, beside the model's own cost for the same pairs.

Run: python -m pytest bench/bench_screen.py -s   (the table is printed at the end)

The baseline is `simulate` called in this process for every (reply, transport)
pair of the same input, one after another: what the batch would cost with no
workers, no guard and no result file. The batch is the command as a user runs
it, from start to summary, on the bundled samples and on a generated file of
20,000 replies (the samples repeated under new ids), with one worker and with
the default number. Peak memory is the largest resident set of the batch
process or a worker.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from qbcore.batch.replies import iter_replies, read_lines
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"
GENERATED = 20_000
ROWS = []


def _generated(tmp_path) -> Path:
    samples = [json.loads(line) for line in open(SAMPLES)]
    path = tmp_path / "replies-20k.jsonl"
    with open(path, "w") as handle:
        for n in range(GENERATED):
            handle.write(json.dumps(dict(samples[n % len(samples)], id=f"gen-{n}")) + "\n")
    return path


def _baseline(path) -> float:
    with open(path, "rb") as handle:
        replies = [r.reply for r in iter_replies(read_lines(handle))]
    start = time.perf_counter()
    for reply in replies:
        for transport in NAMES:
            simulate(reply, transport)
    return time.perf_counter() - start


def _batch(path, out, *jobs) -> tuple:
    """(seconds, peak resident KiB) of one whole `qbcore screen` run."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "qbcore", "screen", str(path), "-o", str(out), *jobs],
                               stdout=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0
    return time.perf_counter() - start, usage.ru_maxrss


def bench_screen_throughput(tmp_path):
    for name, path in (("samples", SAMPLES), (f"{GENERATED:,} replies", _generated(tmp_path))):
        pairs = sum(1 for _ in open(path)) * len(NAMES)
        alone = _baseline(path)
        ROWS.append((name, "simulate in-process", pairs / alone, None))
        for jobs in (["--jobs", "1"], []):
            out = tmp_path / "out.jsonl"
            if out.exists():
                out.unlink()
            seconds, peak = _batch(path, out, *jobs)
            ROWS.append((name, "screen " + (" ".join(jobs) or "(all cores)"), pairs / seconds, peak))


def teardown_module():
    if not ROWS:
        return
    print(f"\n{'input':<18} {'run':<22} {'pairs/s':>9} {'peak RSS':>10}")
    for name, run, rate, peak in ROWS:
        memory = f"{peak / 1024:.0f} MB" if peak else ""
        print(f"{name:<18} {run:<22} {rate:>9,.0f} {memory:>10}")
