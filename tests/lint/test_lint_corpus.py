"""The labelled corpus: qbcore lint against hazards that real bash confirms, and against correct idioms.

tests/support/corpus/lint/cases.jsonl holds the commands and their evident intent;
labels.jsonl what real bash delivered (tests/support/lintcorpus.py). Targets:
recall of at least 95% on confirmed hazards, and no error or warning on any
command whose delivery bash shows intact.
"""

import pytest
from lintcorpus import label_all, load_cases, load_labels
from probing import sandbox_ready

from qbcore.lint import lint_text

__all__ = ["sandbox_ready"]
CASES = load_cases()
LABELS = load_labels()


def flagged(command):
    return [f for f in lint_text(command) if f.severity in ("error", "warning")]


def test_every_case_is_labelled():
    assert [c["id"] for c in CASES] == list(LABELS)
    assert sum(1 for c in CASES if c["kind"] == "hazard") >= 45


def test_labels_match_the_intent():
    # a hazard that bash does not confirm, or an idiom that bash shows damaged, is a wrong case
    assert [c["id"] for c in CASES if (c["kind"] == "hazard") != LABELS[c["id"]]["confirmed"]] == []


def test_recall_on_hazards_bash_confirms():
    confirmed = [c for c in CASES if LABELS[c["id"]]["confirmed"]]
    missed = [c["id"] for c in confirmed if not flagged(c["command"])]
    assert len(missed) <= len(confirmed) * 0.05, missed


def test_no_error_or_warning_on_intact_deliveries():
    assert [(c["id"], [f.code for f in flagged(c["command"])]) for c in CASES
            if not LABELS[c["id"]]["confirmed"] and flagged(c["command"])] == []


@pytest.mark.bash
def test_stored_labels_are_what_real_bash_does_now(sandbox_ready, tmp_path):
    fresh = {e["id"]: e for e in label_all(str(tmp_path))}
    for case_id, stored in LABELS.items():
        now = fresh[case_id]
        assert (now["confirmed"], now["received_args"]) == (stored["confirmed"], stored["received_args"]), case_id
        if "tmp" not in (stored["received"] or "") and "case" not in (stored["received"] or ""):
            assert now["received"] == stored["received"], case_id
