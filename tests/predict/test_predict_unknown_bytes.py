"""Replies that write output the model cannot spell into a file (git log, the environment,
``ls -l``, a message of bash's own), predicted and executed: the file's bytes are not known, so
a check that reads them leaves the prediction unknown, and one that needs only the file's name
(a stray file fails the task, a file in /tmp or removed after does not) decides it."""

import pytest

from predicting import ListedReplies, decided_share
from qbcore import suite
from qbcore.predict import UNKNOWN_FILE, predict

GIT = "git-commit/t0-plain"
COMMIT = "git add newfile.txt; git commit -qm 'add feature'"
WRITE = "write-file/t0-plain"
ORACLE = "printf '%s\\n' 'hello world' > out.txt"
RENAME = "bulk-rename/t0-plain"
RENAMED = 'for f in *.txt; do mv -- "$f" "done_$f"; done'

# (task, reply, passes under raw)
REPLIES = [
    (GIT, f"{COMMIT}; git log --oneline > log.txt", False),
    (GIT, f"{COMMIT}; git log --oneline > /tmp/log.txt", True),
    (GIT, f"{COMMIT} && git log > l.txt && rm l.txt", True),
    (GIT, f"{COMMIT}; git log -1 >> /tmp/l.txt; mv /tmp/l.txt ./history.txt", False),
    (GIT, f"{COMMIT}; git log > /tmp/l; cp /tmp/l log.txt", False),
    (GIT, f"{COMMIT}; git log > /tmp/l; cp /tmp/l /tmp/m; rm /tmp/l", True),
    (WRITE, f"{ORACLE}; env > /tmp/env.txt", True),
    (WRITE, f"env > e.txt; {ORACLE}", False),
    (WRITE, f"{{ env; echo end; }} > /tmp/e; {ORACLE}; ls -l > /tmp/l", True),
    (WRITE, f"{ORACLE}; {{ echo $((1/0)); }} 2> err.txt", False),
    (WRITE, f"{ORACLE}; {{ echo $((1/0)); }} 2> /tmp/err.txt", True),
    (RENAME, f"{RENAMED}; ls -l > listing.txt", False),
    (RENAME, f"ls -l > /tmp/before.txt; {RENAMED}", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested")


def test_a_stray_file_of_unknown_bytes_fails_the_task_and_its_difference_says_so():
    found = predict(GIT, f"{COMMIT}; git log --oneline > log.txt", "raw")
    assert found.certain and found.passed is False and found.failure_class == "environment-invalid"
    (difference,) = found.diff
    assert difference.path == "log.txt" and difference.found.startswith(UNKNOWN_FILE) and "git log" in difference.found


def test_a_check_that_reads_unknown_bytes_leaves_the_prediction_unknown():
    for reply in ("env > out.txt", f"{ORACLE}; ls -l >> out.txt", f"{ORACLE}; {{ echo $((1/0)); }} 2>> out.txt"):
        found = predict(suite.get(WRITE), reply, "raw")
        assert not found.certain and "out.txt" in found.why, (reply, found)


class TestUnknownBytesReplies(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS

    def test_most_pairs_are_decided(self):
        assert decided_share(REPLIES, TRANSPORTS) >= 0.75
