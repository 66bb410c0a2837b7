"""Predictions per second, beside executing the same (reply, transport) pairs in the sandbox.

Run: python -m pytest bench/bench_predict.py -s   (the table is printed at the end)

The pairs are the suite's oracle and naive replies under raw, nested, single
and double-nested (448 pairs). Predicting runs in this process, one pair after
another on one core; executing uses the executor's batch with two workers,
as the machine has. The decided share and the disagreements with the
executor are printed with the rates: a prediction that is certain and wrong
is a bug.
"""

import time

import pytest

from qbcore import engine, suite
from qbcore.predict import predict
from qbcore.realbash import executor, sandbox

TRANSPORTS = ("raw", "nested", "single", "double-nested")
ROUNDS = 5


def _pairs():
    return [(task, getattr(task, label), label, transport) for task in suite.load()
            for label in ("oracle", "naive") for transport in TRANSPORTS]


def bench_predict_against_execute():
    pairs = _pairs()
    best = None
    for _ in range(ROUNDS):
        start = time.perf_counter()
        predictions = [predict(task, reply, transport) for task, reply, _, transport in pairs]
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    decided = sum(p.certain for p in predictions)
    lines = [f"engine {engine}: {len(pairs)} pairs; decided {decided} ({decided / len(pairs):.1%})",
             f"predict: {len(pairs) / best:,.0f} pairs/s on one core (best of {ROUNDS})"]
    if sandbox.available():
        jobs = [executor.Job(task.id, reply, transport, label) for task, reply, label, transport in pairs]
        start = time.perf_counter()
        outcomes = {(j.task_id, j.label, j.transport): a for j, a in executor.run_many(jobs, workers=2)}
        took = time.perf_counter() - start
        wrong = sum(1 for (task, _, label, transport), p in zip(pairs, predictions)
                    if p.certain and p.passed != outcomes[(task.id, label, transport)].passed)
        lines.append(f"execute: {len(pairs) / took:,.0f} pairs/s with 2 workers; "
                     f"predict is {took / best:,.0f}x faster")
        lines.append(f"certain predictions that disagree with the executor: {wrong}")
        assert wrong == 0
    else:
        pytest.skip("bubblewrap cannot run here: " + (sandbox.unavailable_reason() or ""))
    print("\n" + "\n".join(lines))
