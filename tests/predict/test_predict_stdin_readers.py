"""Programs in a script that bash reads from its stdin (the stdin transport): a program takes
that stdin only when it reads it, so one that never does (python3 -c, paste of files, install
from /dev/null) leaves the rest of the script to bash (each once predicted to swallow it),
and one that reads it takes it all. Predicted and executed: decided, and every certain prediction agrees."""

from predicting import certain_disagreements, execute
from qbcore.predict import predict

REPLIES = [
    # (reply, passes under stdin)
    ("python3 -c 'print(1)' > /dev/null\nprintf 'hello world\\n' > out.txt", True),
    ("python3 -c 'import os; print(os.getcwd())' > /dev/null\nprintf 'hello world\\n' > out.txt", True),
    ("python3 -c 'import sys; sys.stdin.read()' > /dev/null\nprintf 'hello world\\n' > out.txt", False),
    # (python3 reads a buffer at a time: its first line is the script's next one, and the rest is gone)
    ("python3 -c 'import sys; print(sys.stdin.readline(), end=\"\")' > out.txt\nprintf 'hello world\\n'", False),
    ("cat > /dev/null\nprintf 'hello world\\n' > out.txt", False),
    # paste of files and install from /dev/null read no stdin (once predicted to swallow it too)
    ("printf 'a\\n' > a; paste a a > /dev/null\nprintf 'hello world\\n' > out.txt; rm a", True),
    ("install -m 644 /dev/null z\nprintf 'hello world\\n' > out.txt; rm z", True),
    ("paste - > /dev/null\nprintf 'hello world\\n' > out.txt", False),
]


def test_python3_takes_stdin_only_when_it_reads_it():
    for reply, passes in REPLIES:
        found = predict("write-file/t0-plain", reply, "stdin")
        assert found.certain and found.passed is passes, (reply, found)
    cases = [("write-file/t0-plain", reply, transport) for reply, _ in REPLIES
             for transport in ("stdin", "raw", "heredoc-ssh", "script")]
    assert not certain_disagreements(cases, execute(cases))
