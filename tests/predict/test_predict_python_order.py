"""python3 replies whose files do not depend on an order python3 does not fix (a directory
listing's, a set of strings'), predicted and executed: decided, whatever they print; and
those whose files do, left unknown."""

import pytest

from predicting import certain_disagreements, execute
from qbcore import suite
from qbcore.predict import predict

TASK = "bulk-rename/t1-spaces"
# (reply, decided under raw)
REPLIES = [
    ("python3 -c 'import os\nfor f in os.listdir(\".\"):\n    if f.endswith(\".txt\"):\n"
     "        os.rename(f, \"done_\" + f)'", True),
    ("python3 - <<'EOF'\nimport glob, os\nfor f in glob.glob('*.txt'):\n    os.rename(f, 'done_' + f)\n"
     "    print(f)\nEOF", True),
    ("python3 -c \"from pathlib import Path\nfor p in Path('.').glob('*.txt'): "
     "p.rename(p.with_name('done_' + p.name))\"", True),
    ("python3 -c 'import os; names = os.listdir(\".\"); print(names); "
     "[os.rename(n, \"done_\" + n) for n in names if n.endswith(\".txt\")]'", True),
    ("python3 -c 'import os\nfor n in {\"alpha one.txt\", \"beta two.txt\", \"plain.txt\"}:\n"
     "    print(n); os.rename(n, \"done_\" + n)'", True),
    # the first .txt listed is the one renamed: which one, the file system decides
    ("python3 -c 'import glob, os; f = glob.glob(\"*.txt\")[0]; os.rename(f, \"done_\" + f)'", False),
    # written in the order listed: the file's bytes depend on it
    ("python3 -c 'import os\nwith open(\"list\", \"w\") as out:\n    for n in os.listdir(\".\"): "
     "out.write(n + \"\\n\")'", False),
]
TRANSPORTS = ("raw", "nested", "single", "stdin")


@pytest.fixture(scope="module")
def outcomes():
    cases = [(TASK, reply, transport) for reply, _ in REPLIES for transport in TRANSPORTS]
    return cases, execute(cases)


def test_files_independent_of_the_order_are_decided(outcomes):
    task = suite.get(TASK)
    for reply, decided in REPLIES:
        found = predict(task, reply, "raw")
        assert found.certain is decided, (reply, found)
        if not decided:
            assert "order" in found.why, found.why


def test_every_certain_prediction_agrees_with_the_executor(outcomes):
    cases, executed = outcomes
    wrong = certain_disagreements(cases, executed)
    assert not wrong, "\n".join(wrong)
