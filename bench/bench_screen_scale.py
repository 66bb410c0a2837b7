"""`qbcore screen` on a long generated input: pairs a second and peak memory.

Run: python -m pytest bench/bench_screen_scale.py -s          (100,000 replies)
     QBCORE_LONG=1 python -m pytest bench/bench_screen_scale.py -s   (1,000,000 replies)

The input is generated here, never committed: the bundled sample replies
repeated under new ids, written to a temporary file. The command runs as a
user runs it, under every transport with the default number of workers;
peak memory is the largest resident set of the batch process or one of its
workers (what the kernel reports when the process is reaped), and must stay
under 300 MB however long the input.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from qbcore.harness.transports import NAMES

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "qbcore" / "batch" / "data" / "sample_replies.jsonl"
REPLIES = 1_000_000 if os.environ.get("QBCORE_LONG", "") not in ("", "0") else 100_000
PEAK_MB = 300
ROWS = []


def generate(path: Path, count: int) -> Path:
    """``count`` replies in ``path``: the samples again and again, each under an id of its own."""
    samples = [json.loads(line) for line in open(SAMPLES)]
    with open(path, "w") as handle:
        for n in range(count):
            handle.write(json.dumps(dict(samples[n % len(samples)], id=f"gen-{n}")) + "\n")
    return path


def run_screen(path: Path, out: Path, *extra) -> tuple:
    """(seconds, peak resident MiB) of one whole `qbcore screen` run."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "qbcore", "screen", str(path), "-o", str(out), *extra],
                               stdout=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def bench_screen_a_long_input(tmp_path):
    path = generate(tmp_path / "replies.jsonl", REPLIES)
    pairs = REPLIES * len(NAMES)
    seconds, peak = run_screen(path, tmp_path / "out.jsonl")
    rows = sum(1 for _ in open(tmp_path / "out.jsonl"))
    assert rows == pairs
    ROWS.append((f"{REPLIES:,} replies x {len(NAMES)} transports", pairs / seconds, peak, seconds))
    assert peak < PEAK_MB, f"peak RSS {peak:.0f} MB"


def teardown_module():
    for name, rate, peak, seconds in ROWS:
        print(f"\nscreen {name}: {rate:,.0f} pairs/s, {seconds:,.0f} s, peak RSS {peak:.0f} MB")
