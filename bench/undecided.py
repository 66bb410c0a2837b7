"""The (reply, transport) pairs `predict` leaves unknown, grouped by the reason it names.

Run from the project root: python bench/undecided.py [suite|generated|generated-other|samples] [-v]

suite: the tasks' oracle and naive replies, and samples: the bundled sample
replies, each under every transport predict follows; generated and
generated-other: the replies of tests/predict/test_predict_generated.py, under
the crossover's four transports and under the other five (QBCORE_SEED,
QBCORE_LONG as there). Quoted parts of a reason are folded so that one shape
counts once; -v shows three pairs of each.
"""

import collections
import json
import os
import re
import sys

sys.path[:0] = [".", "tests/support", "tests/predict"]

from qbcore import suite  # noqa: E402
from qbcore.predict import predict  # noqa: E402

TRANSPORTS = ("raw", "nested", "single", "double-nested", "script", "stdin", "ssh", "ssh-argv", "heredoc-ssh")
SAMPLES = os.path.join("qbcore", "batch", "data", "sample_replies.jsonl")


def shape(why: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "…", why)[:110]


def pairs(source: str):
    if source == "suite":
        for task in suite.load():
            for label in ("oracle", "naive"):
                for transport in TRANSPORTS:
                    yield task, getattr(task, label), transport, label
    elif source in ("generated", "generated-other"):
        import probing
        import test_predict_generated as generated
        drawn = generated._replies(generated.TRANSPORTS, generated.COUNT, probing.SEED) if source == "generated" \
            else generated._replies(generated.OTHER_TRANSPORTS, generated.COUNT // 2, probing.SEED + 1)
        for task, reply, transport in drawn:
            if "\0" not in reply:
                yield task, reply, transport, source
    elif source == "samples":
        with open(SAMPLES, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                for transport in TRANSPORTS:
                    yield suite.get(record["task_id"]), record["reply"], transport, record["id"]
    else:
        raise SystemExit(f"unknown source {source!r}: suite, generated, generated-other or samples")


def main(argv):
    source = next((a for a in argv if not a.startswith("-")), "suite")
    groups = collections.defaultdict(list)
    seen, decided = collections.Counter(), collections.Counter()
    for task, reply, transport, label in pairs(source):
        found = predict(task, reply, transport)
        seen[transport] += 1
        if found.certain:
            decided[transport] += 1
        else:
            groups[shape(found.why)].append((task.id, label, transport, reply, found.why))
    total, done = sum(seen.values()), sum(decided.values())
    print(f"{source}: decided {done}/{total} ({done / max(total, 1):.1%})  "
          + " ".join(f"{t}={decided[t]}/{seen[t]}" for t in TRANSPORTS))
    for why, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(items):5d}  {why}")
        if "-v" in argv:
            for task_id, label, transport, reply, full in items[:3]:
                print(f"         {task_id} {label} {transport}: {reply[:150]!r}\n           -> {full[:200]}")


if __name__ == "__main__":
    main(sys.argv[1:])
