"""Replies whose cat reads the file its output goes to (once predicted to pass, and failing:
`cat a out.txt > out.txt` refuses out.txt once cat has written a there, and fails)."""

from predicting import ListedReplies

WRITE = "write-file/t0-plain"
HELLO = "printf 'hello world\\n' > a; "

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, HELLO + "cat a out.txt > out.txt 2>/dev/null && rm a", False),
    (WRITE, HELLO + "cat a out.txt > out.txt 2>/dev/null; rm a", True),
    (WRITE, HELLO + "{ cat a; cat out.txt; } > out.txt; rm a", True),
    (WRITE, "printf 'hello world\\n' > out.txt; cat out.txt nope > out.txt 2>&1", False),
    (WRITE, HELLO + "cat a > out.txt < out.txt && rm a", True),
    (WRITE, HELLO + "sort a out.txt > out.txt; rm a", True),
]
TRANSPORTS = ("raw", "nested", "stdin")


class TestCatReadingItsOutput(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS
