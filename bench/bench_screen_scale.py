"""`qbcore screen` on a long generated input: pairs a second, the share of its time spent outside the model,
and peak memory.

Run: python -m pytest bench/bench_screen_scale.py -s          (100,000 replies)
     QBCORE_LONG=1 python -m pytest bench/bench_screen_scale.py -s   (1,000,000 replies)

The input is generated here, never committed: the bundled sample replies
repeated under new ids, written to a temporary file. The command runs as a
user runs it, under every transport with the default number of workers;
peak memory is the largest resident set of the batch process or one of its
workers (what the kernel reports when the process is reaped), and must stay
under 300 MB however long the input.

The share outside the model compares the CPU time of the whole run (batch
process and workers) with the CPU time ``simulate`` alone takes for the same
pairs in this process: what reading, hashing, rows, the workers' traffic and
writing cost on top of the predictions. CPU time, unlike the rate, changes
little with the machine's other load.
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
    """(seconds, CPU seconds, peak resident MiB) of one whole `qbcore screen` run, its workers included
    (wait4 reports a process together with the children it reaped)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "qbcore", "screen", str(path), "-o", str(out), *extra],
                               stdout=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def simulate_cpu_per_pair(rounds: int = 3) -> float:
    """CPU seconds of one ``simulate`` call, averaged over the pairs of the generated file (the
    samples in turn, every transport), best of ``rounds``."""
    from qbcore.harness.simulate import simulate

    replies = [json.loads(line)["reply"] for line in open(SAMPLES)]
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(20):
            for reply in replies:
                for transport in NAMES:
                    simulate(reply, transport)
        best = min(best, (time.process_time() - start) / (20 * len(replies) * len(NAMES)))
    return best


def bench_screen_a_long_input(tmp_path):
    path = generate(tmp_path / "replies.jsonl", REPLIES)
    pairs = REPLIES * len(NAMES)
    model = simulate_cpu_per_pair()
    seconds, cpu, peak = run_screen(path, tmp_path / "out.jsonl")
    rows = sum(1 for _ in open(tmp_path / "out.jsonl"))
    assert rows == pairs
    ROWS.append((f"{REPLIES:,} replies x {len(NAMES)} transports", pairs, seconds, cpu, model, peak))
    assert peak < PEAK_MB, f"peak RSS {peak:.0f} MB"


def teardown_module():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    for name, pairs, seconds, cpu, model, peak in ROWS:
        print(f"\nscreen {name}: {pairs / seconds:,.0f} pairs/s ({seconds:,.0f} s), peak RSS {peak:.0f} MB; "
              f"CPU {cpu / pairs * 1e6:.1f} us a pair, simulate alone {model * 1e6:.1f} us a pair "
              f"({cores / model:,.0f} pairs/s on {cores} cores at best): "
              f"{1 - model * pairs / cpu:.0%} of the CPU time is outside simulate")
