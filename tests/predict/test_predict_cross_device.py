"""python3's os.rename, os.replace and Path.rename between the task directory, /tmp and the
sandbox's root, predicted and executed: each is a file system of its own, and rename(2)
across them fails with EXDEV ("Invalid cross-device link"), where mv and shutil.move copy."""

from predicting import ListedReplies

W = "write-file/t0-plain"
# (task, reply, passes under raw)
REPLIES = [
    (W, "echo hello world > a; python3 -c 'import os; os.rename(\"a\", \"/tmp/a\"); "
        "os.rename(\"/tmp/a\", \"out.txt\")'", False),
    (W, "echo hello world > a; python3 -c 'import os; os.rename(\"a\", \"/tmp/a\")' 2>/dev/null || mv a out.txt", True),
    (W, "echo hello world > /tmp/a; python3 -c 'import os; os.replace(\"/tmp/a\", \"out.txt\")'", False),
    (W, "echo hello world > /tmp/a; python3 -c 'import shutil; shutil.move(\"/tmp/a\", \"out.txt\")'", True),
    (W, "echo hello world > a; python3 -c 'import pathlib; pathlib.Path(\"a\").rename(\"/x\")' 2>/dev/null || "
        "mv a out.txt", True),
    (W, "mkdir /tmp/d; echo hello world > /tmp/d/a; python3 -c 'import os; os.rename(\"/tmp/d/a\", \"/tmp/d/b\")' && "
        "cp /tmp/d/b out.txt", True),
    (W, "echo hello world > /tmp/a; python3 -c 'import os; os.rename(\"/tmp/a\", \"out.txt\")' 2> err.txt; "
        "grep -q 'Invalid cross-device link' err.txt && mv /tmp/a out.txt; rm err.txt", True),
]
TRANSPORTS = ("raw", "nested", "script", "heredoc-ssh")


class TestCrossDeviceRenames(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS
