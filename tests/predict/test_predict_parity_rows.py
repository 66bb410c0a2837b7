"""predict over the QuoteBench artifact's own recorded runs (tests/parity/quotebench_verdicts.jsonl:
oracle, naive, mutated and hand-written commands under raw, nested, single and double-nested,
whose verdicts qbcore's executor gives on every row, tests/realbash/test_parity.py): every
certain prediction gives the recorded pass or fail, and every row is decided. Nothing is
executed here. The failure class may differ where the artifact's machine lacked a program this
one has (``last``: a reply's stray line ``last part`` runs it here)."""

import sys
from pathlib import Path

from qbcore.predict import predict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "tools"))
import parity_record  # noqa: E402


def test_every_certain_prediction_gives_the_recorded_verdict():
    _, rows = parity_record.read(parity_record.DEFAULT_OUT)
    decided, wrong, classes = 0, [], 0
    for row in rows:
        found = predict(row["task_id"], row["command"], row["transport"])
        if not found.certain:
            continue
        decided += 1
        if found.passed != row["passed"]:
            wrong.append(f"{row['task_id']} [{row['transport']}] {row['command']!r}: {found.why}")
        elif found.failure_class is not None and found.failure_class != row["class"]:
            classes += 1
    assert not wrong, f"{len(wrong)} certain predictions differ from the recorded verdict:\n" + "\n".join(wrong[:20])
    assert decided == len(rows), f"decided {decided} of {len(rows)}"
    assert classes <= decided // 100, f"{classes} of {decided} decided rows in another failure class"
