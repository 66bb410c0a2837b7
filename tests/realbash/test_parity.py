"""qbcore judges as the QuoteBench artifact does: every recorded artifact verdict, replayed in the sandbox.

tests/parity/quotebench_verdicts.jsonl holds the artifact's own verdicts
(recorded by tools/parity_record.py from a checkout of LeonardNJU/quoteBench)
for oracle, naive, mutated and hand-written commands under raw, nested,
single and double-nested. qbcore's executor must give the same pass or fail
on every row and the same failure class on at least 99% of them. With
QBCORE_QUOTEBENCH=/path/to/quoteBench the artifact is also run afresh.
"""

import collections
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from qbcore.realbash import executor
from qbcore import suite

from sandboxing import need_sandbox

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import parity_record  # noqa: E402

ARTIFACT = os.environ.get("QBCORE_QUOTEBENCH", "")


@pytest.fixture(autouse=True)
def _sandbox_available():
    need_sandbox()


def recorded():
    return parity_record.read(parity_record.DEFAULT_OUT)


def _key(row):
    return row["task_id"], row["command"], row["transport"]


@lru_cache(maxsize=1)
def _replayed() -> dict:
    """qbcore's attempt for every recorded (task, command, transport), run once for the module."""
    _, rows = recorded()
    jobs = [executor.Job(r["task_id"], r["command"], r["transport"], str(i)) for i, r in enumerate(rows)]
    return {_key(rows[int(job.label)]): attempt for job, attempt in executor.run_many(jobs)}


def compare(rows, attempts) -> tuple[list, list]:
    """Rows whose pass/fail differs, and rows whose class alone differs, with qbcore's side."""
    verdicts, classes = [], []
    for row in rows:
        attempt = attempts[_key(row)]
        if attempt.passed != row["passed"]:
            verdicts.append((row, attempt.class_, attempt.reason))
        elif attempt.class_ != row["class"]:
            classes.append((row, attempt.class_, attempt.reason))
    return verdicts, classes


def _describe(found) -> str:
    return "\n".join(f"{row['task_id']} [{row['transport']}] {row['command']!r}: artifact {row['class']}, "
                     f"qbcore {class_} ({reason})" for row, class_, reason in found[:20])


def test_the_table_covers_the_whole_suite_under_four_transports():
    header, rows = recorded()
    assert header["artifact"] == "LeonardNJU/quoteBench" and header["rows"] == len(rows) >= 1500
    assert {r["task_id"] for r in rows} == set(suite.ids())
    assert {r["transport"] for r in rows} == set(parity_record.TRANSPORTS)
    sources = {r["source"].split("/")[-1] for r in rows}
    assert {"artifact-oracle", "artifact-naive", "qbcore-oracle", "quotes-swapped", "escapes-dropped",
            "echo-for-printf", "globs-unquoted", "heredoc-unquoted", "wrong-file-name", "hand-written"} <= sources
    assert len({_key(r) for r in rows}) == len(rows)
    # both outcomes and most classes occur, so agreement is not agreement on one answer
    assert {"pass", "shell-syntax", "tool-error", "runtime-error", "silent-wrong",
            "environment-invalid"} <= {r["class"] for r in rows}


def test_qbcore_gives_the_artifacts_verdict_on_every_recorded_run():
    _, rows = recorded()
    verdicts, classes = compare(rows, _replayed())
    assert not verdicts, f"{len(verdicts)} of {len(rows)} runs differ in pass/fail:\n" + _describe(verdicts)
    agreement = 1 - len(classes) / len(rows)
    assert agreement >= 0.99, f"class agreement {agreement:.2%}:\n" + _describe(classes)


@pytest.mark.skipif(not ARTIFACT, reason="set QBCORE_QUOTEBENCH to a checkout of the QuoteBench artifact")
def test_a_fresh_recording_agrees_with_the_table_and_with_qbcore():
    fresh = parity_record.record(ARTIFACT)
    _, rows = recorded()
    assert {_key(r) for r in fresh} == {_key(r) for r in rows}, "the parity set changed: re-record the table"
    stored = {_key(r): (r["passed"], r["class"]) for r in rows}
    drift = [r for r in fresh if stored[_key(r)] != (r["passed"], r["class"])]
    assert not drift, f"the artifact now judges {len(drift)} runs differently, e.g. {drift[:3]}"
    verdicts, classes = compare(fresh, _replayed())
    assert not verdicts and len(classes) <= len(fresh) // 100, _describe(verdicts + classes)


def summary() -> dict:
    """The parity figures, for the record: rows, pass/fail and class agreement, every class difference."""
    _, rows = recorded()
    verdicts, classes = compare(rows, _replayed())
    differences = collections.Counter(f"artifact {r['class']} / qbcore {c}" for r, c, _ in classes + verdicts)
    return {"rows": len(rows), "passfail_agree": len(rows) - len(verdicts),
            "class_agree": len(rows) - len(verdicts) - len(classes), "class_differences": dict(differences)}


if __name__ == "__main__":
    # python3 tests/realbash/test_parity.py: the parity figures as JSON
    print(json.dumps(summary()))
