"""Replies to the sed-replace task, predicted and executed: sed's addresses, ranges and backup
suffix decide whether the file is right and whether a stray file is left beside it, and the
status of grep -L and of tail's obsolete count whether the edit runs."""

import pytest

from predicting import certain_disagreements, execute
from qbcore import suite
from qbcore.predict import predict

TASK = "sed-replace/t0-plain"  # data.txt: alpha on lines 2 and 4 of 5; no new file allowed

# (reply, passes under raw)
REPLIES = [
    ("sed -i.bak 's/alpha/omega/g' data.txt", False),  # data.txt.bak is a stray file
    ("sed -i.bak 's/alpha/omega/g' data.txt && rm data.txt.bak", True),
    ("sed -ie 's/alpha/omega/g' data.txt", False),  # -i takes e as the suffix: data.txte
    ("sed -i~ -e 's/alpha/omega/' data.txt; rm -f data.txt~", True),
    ("sed -i '2,4s/alpha/omega/' data.txt", True),
    ("sed -i '1,2s/alpha/omega/' data.txt", False),
    ("sed -i '/primary/,/secondary/s/alpha/omega/' data.txt", True),
    ("sed -i '/primary/,/primary/s/alpha/omega/' data.txt", True),  # the end is looked for after the start
    ("sed -i '3,1s/alpha/omega/;2s/alpha/omega/' data.txt", False),
    ("sed -i '2,3!s/alpha/omega/' data.txt", False),
    ("sed -i '$!s/alpha/omega/' data.txt", True),
    ("sed -i 's/[a]lpha/omega/g' data.txt", True),
    ("sed -i 's/[/]*alpha/omega/g' data.txt", True),  # the delimiter inside brackets
    ("sed -i '\\%alpha%s/alpha/omega/' data.txt", True),
    ("sed -i '/ALPHA/Is/alpha/omega/' data.txt", True),
    ("sed -n '0p' data.txt && sed -i 's/alpha/omega/g' data.txt", False),  # invalid line address 0
    ("sed -i '1#x' data.txt || sed -i 's/alpha/omega/g' data.txt", True),
    ("sed -i 's/alpha/omega/g' - data.txt || rm data.txt", False),  # - is a file's name under -i: status 2
    # grep -L lists nothing here, and its status is 0: a line was selected
    ("grep -L alpha data.txt && sed -i 's/alpha/omega/g' data.txt", True),
    ("grep -L alpha data.txt || sed -i 's/alpha/omega/g' data.txt", False),
    ("tail -1 data.txt data.txt > /dev/null || sed -i 's/alpha/omega/g' data.txt", True),
]
TRANSPORTS = ("raw", "nested", "single")


@pytest.fixture(scope="module")
def outcomes():
    cases = [(TASK, reply, transport) for reply, _ in REPLIES for transport in TRANSPORTS]
    return suite.get(TASK), cases, execute(cases)


def test_sed_replies_are_decided_under_raw_as_sed_runs_them(outcomes):
    task, cases, executed = outcomes
    for n, (_, reply, transport) in enumerate(cases):
        if transport != "raw":
            continue
        found = predict(task, reply, transport)
        passes = dict(REPLIES)[reply]
        assert found.certain and found.passed is passes, (reply, found)
        assert executed[n].passed is passes, (reply, executed[n].reason)


def test_every_certain_prediction_agrees_with_the_executor(outcomes):
    _, cases, executed = outcomes
    wrong = certain_disagreements(cases, executed)
    assert not wrong, "\n".join(wrong)
