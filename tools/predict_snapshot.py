#!/usr/bin/env python3
"""Every prediction of a fixed set of pairs, to check that a change to the model's speed
changes no decision.

    python3 tools/predict_snapshot.py dump before.json       # on the code before the change
    python3 tools/predict_snapshot.py dump after.json        # after it (rebuild the engine first)
    python3 tools/predict_snapshot.py compare before.json after.json

The pairs: the suite's oracle and naive replies and generated replies (the
mutations of tests/predict/test_predict_generated.py, drawn from a fixed
seed), each under every transport the model follows. Each prediction is made
with nothing reused from another (the caches are emptied before it), and the
record is (task, reply, transport, passed, class, certain, why). Run it from
the checkout's root, once per engine (``QBCORE_NO_EXTENSIONS=1`` for the
pure one).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(HERE / "tests" / "support"), str(HERE / "tests" / "predict")]
sys.path.append(str(HERE))  # this checkout's qbcore, unless PYTHONPATH names another

TRANSPORTS = ("raw", "json", "json-naive", "nested", "single", "double-nested")


def pairs(count: int, seed: int):
    from qbcore import suite
    from test_predict_generated import MUTATIONS

    tasks = suite.load()
    found = [(t, getattr(t, label)) for t in tasks for label in ("oracle", "naive")]
    rng = random.Random(seed)
    plain = [t for t in tasks if not any(c["kind"] == "git" for c in t.checks)]
    for _ in range(count):
        task = rng.choice(plain)
        reply = getattr(task, rng.choice(["oracle", "naive"]))
        for _ in range(rng.choice([1, 1, 2])):
            reply = rng.choice(MUTATIONS)(reply, rng)
        found.append((task, reply))
    return [(task, reply, transport) for task, reply in found for transport in TRANSPORTS]


def dump(path: str, count: int, seed: int):
    from qbcore import engine, predict as module

    predict = module.predict
    clear_caches = getattr(module, "clear_caches", lambda: None)  # code from before the caches

    records, start = [], time.process_time()
    for task, reply, transport in pairs(count, seed):
        clear_caches()
        try:
            p = predict(task, reply, transport)
            records.append([task.id, reply, transport, p.passed, p.failure_class, p.certain, p.why])
        except Exception as exc:  # noqa: BLE001 - an error is a result too, and must not change
            records.append([task.id, reply, transport, "error", type(exc).__name__, str(exc)])
    took = time.process_time() - start
    Path(path).write_text(json.dumps({"engine": engine, "records": records}) + "\n", encoding="utf-8")
    print(f"engine {engine}: {len(records)} predictions in {took:.1f} s of CPU; "
          f"{sum(1 for r in records if r[5] is True)} certain")


def compare(before: str, after: str) -> int:
    old = json.loads(Path(before).read_text(encoding="utf-8"))["records"]
    new = json.loads(Path(after).read_text(encoding="utf-8"))["records"]
    if [r[:3] for r in old] != [r[:3] for r in new]:
        print("the two snapshots hold different pairs (another seed or count?)")
        return 2
    changed = [(a, b) for a, b in zip(old, new) if a != b]
    for a, b in changed[:20]:
        print(f"{a[0]} {a[2]} {a[1]!r}:\n  before {a[3:]}\n  after  {b[3:]}")
    print(f"{len(old)} predictions; {len(changed)} changed")
    return 1 if changed else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    take = sub.add_parser("dump", help="predict every pair and write the records")
    take.add_argument("path")
    take.add_argument("--count", type=int, default=1500, help="generated replies (default 1500)")
    take.add_argument("--seed", type=int, default=4242)
    check = sub.add_parser("compare", help="list the predictions that differ")
    check.add_argument("before")
    check.add_argument("after")
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(args.path, args.count, args.seed)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
