"""Replies whose command reads a file on its stdin that changed since it was opened.

Each of UNKNOWN was once predicted certain to pass, and fails: its reader meets the file's
new bytes, not those it held when it was opened (tee empties its own stdin's file first).
They are unknown now, and the why says so; a file read as it was opened stays decided."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

WRITE = "write-file/t0-plain"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, "printf 'hello world\\n' > a; { : > b; cat > out.txt; } < a; rm a b", True),
    (WRITE, "printf 'hello world\\n' > a; { read -r l; cat > x; } < a; echo \"$l\" > out.txt; rm a x", True),
    (WRITE, "printf 'hello world\\n' > a; sort < a > out.txt; rm a", True),
]
TRANSPORTS = ("raw", "nested", "stdin")


class TestStdinFileAsOpened(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


@pytest.mark.parametrize("reply, named", [
    ("printf 'hello world\\n' > out.txt; { : > out.txt; cat > x; } < out.txt; mv x out.txt", "changed since it was opened"),
    ("printf 'hello world\\n' > a; { printf 'x\\n' >> a; cat > out.txt; } < a; rm a", "changed since it was opened"),
    ("printf 'hello world\\n' > out.txt; tee out.txt < out.txt", "its stdin's file, and read its stdin"),
])
def test_a_file_changed_since_it_was_opened_is_unknown(reply, named):
    found = predict(WRITE, reply, "raw")
    assert not found.certain and named in found.why, found
