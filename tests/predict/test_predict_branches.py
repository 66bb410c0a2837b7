"""Commands that may or may not run, and tests whose operands the model does not know.

``test`` and ``[`` change no file whatever their words, so one with an unknown operand leaves
only its status (and stderr) unknown: a reply that goes on regardless is decided. Where a
branch may or may not run and changes the files, the prediction is unknown, and its why names
the first thing lost: a command the branch ran that the model does not follow, or else the
branch itself and the status that decides it."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

WRITE = "write-file/t0-plain"
ORACLE = "printf 'hello world\\n' > out.txt"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, f"[ $RANDOM -gt 5 ]; {ORACLE}", True),
    (WRITE, f"[ $RANDOM -gt 5 ] && echo hi; {ORACLE}", True),
    (WRITE, f"test $RANDOM = a b; {ORACLE}", True),  # test's own message: too many arguments
    (WRITE, f"[ $RANDOM = a b ] 2>/dev/null; {ORACLE}", True),
    (WRITE, f"{ORACLE}; [ $RANDOM ] 2>&1", True),
    (WRITE, f"if test $RANDOM -ge 0; then :; fi; {ORACLE}", True),
    (WRITE, f"while [ $RANDOM -lt 0 ]; do :; done; {ORACLE}", True),
]
TRANSPORTS = ("raw", "script", "stdin")


class TestUnknownOperandsOfTest(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


# (reply, what the why names): the branch and what decides it, or what the branch lost first
UNKNOWN = [
    (f"{ORACLE}; [ $RANDOM -lt 5 ] && touch x", ("`touch x`, which may not run", "$RANDOM")),
    (f"{ORACLE}; if [ $RANDOM -lt 5 ]; then touch x; fi", ("`if [ $RANDOM", "which may not run", "$RANDOM")),
    (f"{ORACLE}; case $RANDOM in 1) touch x;; esac", ("`case $RANDOM in", "which may not run ($RANDOM)")),
    (f"{ORACLE}; for f in $RANDOM; do touch x; done", ("`for f in $RANDOM;", "which may not run (loop over")),
    (f"{ORACLE}; [ $RANDOM -lt 5 ] && git diff --stat", ("the files after `git diff --stat` (",)),
    (f"{ORACLE}; [ $RANDOM -lt 5 ] || {{ sed -i s/a/b/ out.txt; }} 2>/dev/null", ("`{ sed -i s/a/b/ out.txt; }",)),
    # a branch that may leave: what runs after it may not (the model knows no range of $RANDOM)
    (f"[ -n \"$RANDOM\" ] || exit 3; {ORACLE}", ("what runs after an exit that may run",)),
    (f"set -e; [ $RANDOM -ge 0 ]; {ORACLE}", ("what runs after set -e's exit after status of [",)),
]


@pytest.mark.parametrize("reply, named", UNKNOWN)
def test_a_branch_that_may_not_run_is_named_with_what_decides_it(reply, named):
    found = predict(WRITE, reply, "raw")
    assert not found.certain, found
    missing = [part for part in named if part not in found.why]
    assert not missing, (missing, found.why)
