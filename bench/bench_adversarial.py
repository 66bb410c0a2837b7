"""The worst adversarial reply under the default budget: seconds and peak MB.

Run: python -m pytest bench/bench_adversarial.py -s

Every reply of tests/adversarial.py (each family at the scales in
QBCORE_BENCH_SCALES, default 1, in each placement) goes through every transport; one pass measures wall time, a
second pass the peak of Python's allocations (tracemalloc) for the replies
through the transports whose outer shell evaluates them.
"""

import os
import time
import tracemalloc

from adversarial import big_reply, replies

from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES
from qbcore.model.budget import DEFAULT

EVALUATING = ("nested", "double-nested", "ssh", "heredoc-ssh")


def _corpus():
    for scale in os.environ.get("QBCORE_BENCH_SCALES", "1").split(","):
        yield from replies(int(scale))
    yield "big", big_reply(2 * DEFAULT.reply_bytes)


def bench_adversarial_worst_case():
    corpus = list(_corpus())
    timings = []
    for family, reply in corpus:
        for transport in NAMES:
            start = time.perf_counter()
            simulation = simulate(reply, transport)
            timings.append((time.perf_counter() - start, family, transport, reply, simulation.opaque[:1]))
    peaks = []
    for family, reply in corpus:
        for transport in EVALUATING:
            tracemalloc.start()
            simulate(reply, transport)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            peaks.append((peak / 2**20, family, transport, reply))
    timings.sort(key=lambda row: row[0], reverse=True)
    peaks.sort(key=lambda row: row[0], reverse=True)
    total = sum(row[0] for row in timings)
    print(f"\nadversarial corpus: {len(corpus)} replies x {len(NAMES)} transports = {len(timings)} simulations, "
          f"{total:.1f} s in all, budget {DEFAULT}")
    print("slowest:")
    for seconds, family, transport, reply, why in timings[:5]:
        print(f"  {seconds:6.2f} s  {family:<13} {transport:<13} {reply[:60]!r}  {why}")
    print("largest peak of allocations:")
    for mb, family, transport, reply in peaks[:5]:
        print(f"  {mb:6.1f} MB {family:<13} {transport:<13} {reply[:60]!r}")
