"""``READER <(producer)…``: bash names each pipe /dev/fd/63, 62… in the reader's words, and a
reader that reads the files its words name start to end (cat, diff, comm, paste, sort, grep,
wc…) reads all the producer writes. Where the producer changes no file and lists no folder or
names no file the reader's redirections create, its output is the pipe's bytes. Predicted and
executed."""

from predicting import ListedReplies
from qbcore.predict import predict

WRITE, GREP = "write-file/t0-plain", "grep-count/t0-plain"
ORACLE = "echo hello world > out.txt"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, f"diff <(echo hello world) <(echo hello world) >/dev/null && {ORACLE}", True),
    (WRITE, f"diff <(echo hello) <(echo world) >/dev/null && {ORACLE}", False),
    (WRITE, "cat <(echo hello world) > out.txt", True),
    (WRITE, "paste -d' ' <(echo hello) <(echo world) > out.txt", True),
    (WRITE, "paste -d ' ' <(printf 'hello\\n') <(printf 'world\\n') > out.txt", True),
    (WRITE, "wc -l <(echo a) > out.txt", False),  # it names the pipe: 1 /dev/fd/63
    (WRITE, "cat <(echo hello; echo world) > out.txt", False),
    (WRITE, "cat <(echo hello world; true) > out.txt", True),
    (GREP, "grep -c TODO <(cat lines.txt) > count.txt", True),
    (GREP, "sort <(grep TODO lines.txt) <(echo x) | grep -c TODO > count.txt", True),
]
TRANSPORTS = ("raw", "nested", "stdin", "ssh")


class TestProcessArguments(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_what_races_or_is_no_reader_is_unknown():
    for reply in ("cat <(ls) > out.txt", "cat <(echo hello world > out.txt)", "echo <(true) > out.txt",
                  "f() { cat \"$1\"; }; f <(echo hello world) > out.txt", "cat <(cat out.txt) > out.txt",
                  "[ -f <(true) ] || echo hello world > out.txt"):
        assert not predict(WRITE, reply, "raw").certain, reply
