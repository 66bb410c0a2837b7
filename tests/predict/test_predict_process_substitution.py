"""Process substitution, predicted and executed.

``READER <(producer)…``: bash names each pipe /dev/fd/63, 62… in the reader's words, and a
reader that reads the files its words name start to end (cat, diff, comm, paste, sort, grep,
wc…) reads all the producer writes.

``FILTER < <(producer)``: a filter that writes no file of its own (grep, wc, sort, cat…)
reads all that one producer writes, whenever it writes it.

Either way, where the producer changes no file its output is what the reader reads. A producer
that lists a folder or names a file a redirection creates races with it, and a reader that is
a function, a builtin or writes a file of its own (sort -o) is not followed."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

WRITE, GREP = "write-file/t0-plain", "grep-count/t0-plain"
ORACLE = "echo hello world > out.txt"

# (task, reply, passes under raw)
REPLIES = [
    # <(…) as a word
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
    # < <(…) as stdin
    (GREP, "grep -cF TODO < <(cat lines.txt) > count.txt", True),
    (GREP, "wc -l < <(grep TODO lines.txt) > count.txt", True),
    (GREP, 'grep -c TODO < <(cat lines.txt) | tr -d " " > count.txt', True),
    (GREP, "cat < <(grep -c TODO lines.txt) > count.txt", True),
    (GREP, 'sort < <(printf "3\\n") > count.txt', True),
    (WRITE, 'head -n1 < <(printf "hello world\\nx\\n") > out.txt', True),
    (WRITE, "tr a-z A-Z < <(echo hello world) > out.txt", False),
]
TRANSPORTS = ("raw", "nested", "stdin", "ssh")


class TestProcessSubstitution(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


@pytest.mark.parametrize("task, reply", [
    # a producer that lists a folder, or names a file a redirection creates
    (WRITE, "cat <(ls) > out.txt"), (WRITE, "cat <(echo hello world > out.txt)"),
    (WRITE, "cat <(cat out.txt) > out.txt"), (GREP, "grep -c TODO < <(ls) > count.txt"),
    (GREP, "echo 9 > count.txt; grep -c TODO < <(cat count.txt lines.txt) > count.txt"),
    # a reader that is a builtin, a function, or writes a file of its own
    (WRITE, "echo <(true) > out.txt"), (WRITE, "[ -f <(true) ] || echo hello world > out.txt"),
    (WRITE, "f() { cat \"$1\"; }; f <(echo hello world) > out.txt"),
    (GREP, "f() { grep -c TODO; }; f < <(cat lines.txt) > count.txt"), (GREP, 'sort -o count.txt < <(printf "3\\n")'),
])
def test_what_races_or_is_not_followed_is_unknown(task, reply):
    assert not predict(task, reply, "raw").certain
