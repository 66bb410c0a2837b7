"""`qbcore screen` on a long generated input: pairs a second, with predictions and without, the share
of its time spent outside the model, and peak memory.

Run: python -m pytest bench/bench_screen_scale.py -s          (100,000 replies)
     QBCORE_LONG=1 python -m pytest bench/bench_screen_scale.py -s   (1,000,000 replies)

The input is generated here, never committed: the bundled sample replies
repeated under new ids, written to a temporary file. The command runs as a
user runs it, under every transport with the default number of workers,
twice: with its default options (every pair of a suite task predicted pass or
fail) and with ``--no-predict``. Peak memory is the largest resident set of
the batch process or one of its workers (what the kernel reports when the
process is reaped), and must stay under 300 MB however long the input.

The samples repeat, so after its first sight of each a worker finds the
prediction of a (task, reply, transport) made already: the default row
measures the screen with its predictions known. A third run screens 2,000
distinct replies (each sample under a comment line of its own, still a reply
to its suite task) with predictions on: every prediction is made afresh, the
rate of a first screening of new replies.

The share outside the model compares the CPU time of the whole run (batch
process and workers) with the CPU time ``simulate`` alone takes for the same
pairs in this process: what reading, hashing, rows, predicting, the workers'
traffic and writing cost on top of it. CPU time, unlike the rate, changes
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
DISTINCT = 2_000
PEAK_MB = 300
ROWS = []


def generate(path: Path, count: int) -> Path:
    """``count`` replies in ``path``: the samples again and again, each under an id of its own."""
    samples = [json.loads(line) for line in open(SAMPLES)]
    with open(path, "w") as handle:
        for n in range(count):
            handle.write(json.dumps(dict(samples[n % len(samples)], id=f"gen-{n}")) + "\n")
    return path


def distinct_replies(count: int) -> list:
    """``count`` records of the samples in turn, each reply made new by a comment line of its own."""
    samples = [json.loads(line) for line in open(SAMPLES)]
    return [dict(sample, id=f"new-{n}", reply=f"# attempt {n}\n{sample['reply']}")
            for n, sample in ((n, samples[n % len(samples)]) for n in range(count))]


def run_screen(path: Path, out: Path, *extra) -> tuple:
    """(seconds, CPU seconds, peak resident MiB) of one whole `qbcore screen` run, its workers included
    (wait4 reports a process together with the children it reaped)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "qbcore", "screen", str(path), "-o", str(out), *extra],
                               stdout=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def simulate_cpu_per_pair(replies: list, rounds: int = 3, repeat: int = 20) -> float:
    """CPU seconds of one ``simulate`` call, averaged over ``replies`` under every transport, best of
    ``rounds``."""
    from qbcore.harness.simulate import simulate

    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(repeat):
            for reply in replies:
                for transport in NAMES:
                    simulate(reply, transport)
        best = min(best, (time.process_time() - start) / (repeat * len(replies) * len(NAMES)))
    return best


def _screened(name, path, out, replies, model, *extra):
    pairs = replies * len(NAMES)
    seconds, cpu, peak = run_screen(path, out, *extra)
    with open(out) as handle:
        rows = sum(1 for _ in handle)
    assert rows == pairs
    ROWS.append((name, pairs, seconds, cpu, model, peak))
    assert peak < PEAK_MB, f"peak RSS {peak:.0f} MB"


def bench_screen_a_long_input(tmp_path):
    path = generate(tmp_path / "replies.jsonl", REPLIES)
    model = simulate_cpu_per_pair([json.loads(line)["reply"] for line in open(SAMPLES)])
    name = f"{REPLIES:,} replies x {len(NAMES)} transports"
    _screened(f"{name}, predictions on (repeated: known)", path, tmp_path / "out.jsonl", REPLIES, model)
    _screened(f"{name}, --no-predict", path, tmp_path / "plain.jsonl", REPLIES, model, "--no-predict")


def bench_screen_distinct_replies(tmp_path):
    records = distinct_replies(DISTINCT)
    path = tmp_path / "distinct.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    model = simulate_cpu_per_pair([record["reply"] for record in records], repeat=1)
    _screened(f"{DISTINCT:,} distinct replies x {len(NAMES)} transports, predictions on (all new)", path,
              tmp_path / "out.jsonl", DISTINCT, model)


def teardown_module():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    for name, pairs, seconds, cpu, model, peak in ROWS:
        print(f"\nscreen {name}: {pairs / seconds:,.0f} pairs/s ({seconds:,.0f} s), peak RSS {peak:.0f} MB; "
              f"CPU {cpu / pairs * 1e6:.1f} us a pair, simulate alone {model * 1e6:.1f} us a pair "
              f"({cores / model:,.0f} pairs/s on {cores} cores at best): "
              f"{1 - model * pairs / cpu:.0%} of the CPU time is outside simulate")
