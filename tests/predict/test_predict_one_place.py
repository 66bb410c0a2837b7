"""A utility's messages and output written to one place (`> f 2>&1`, `2>&1 |`, `$(… 2>&1)`).

cat, tee, grep, head, tail, mv, rm and rmdir write each message where they meet it (gnulib's
``error`` flushes stdout first), and their models keep that order: a reply that reads both
together is decided. cat's formatting writes at the end, and stays unknown."""

from predicting import ListedReplies
from qbcore.predict import predict

WRITE = "write-file/t0-plain"
HELLO = "printf 'hello world\\n' > a; "

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, HELLO + "cat a nope > out.txt 2>&1; rm a", False),
    (WRITE, HELLO + "cat nope a 2>&1 | tail -n 1 > out.txt; rm a", True),
    (WRITE, "printf 'hello world\\n' | tee no/x 2>&1 | tail -1 > out.txt", True),
    (WRITE, HELLO + "grep -h hello a nope 2>&1 | head -1 > out.txt; rm a", True),
    (WRITE, HELLO + "head -n1 nope a > out.txt 2>&1; rm a", False),
    (WRITE, "printf 'x\\n' > a; rm -v a nope 2>&1 | wc -l | grep -qx 2 && echo 'hello world' > out.txt", True),
    (WRITE, "printf 'x\\n' > a; rm -v nope a 2>&1 | head -1 | grep -q nope && echo 'hello world' > out.txt", True),
    (WRITE, "{ " + HELLO + "cat a nope; rm a; } > out.txt 2>&1", False),
    (WRITE, HELLO + "out=$(cat nope a 2>&1); rm a; echo \"${out#*directory?}\" > out.txt", True),
]
TRANSPORTS = ("raw", "nested", "script")


class TestMessagesAmongOutput(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_formatting_cat_is_left_unknown():
    found = predict(WRITE, HELLO + "cat -n a nope > out.txt 2>&1; rm a", "raw")
    assert not found.certain and "its stdout and stderr, in one place" in found.why, found
