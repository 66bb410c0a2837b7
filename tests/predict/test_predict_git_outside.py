"""git where the task directory holds no repository.

The sandbox mounts the task directory, so git's discovery stops there: "fatal: not a git
repository (or any parent up to mount point <the attempt folder>)", then "Stopping at
filesystem boundary", status 128 (predict states the mount: hostfacts.starts_filesystem). The
message names the folder above the task directory, which differs between runs. Outside a
repository git diff compares paths and rev-parse --sq-quote quotes: those stay unknown."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

WRITE = "write-file/t0-plain"
ORACLE = "printf 'hello world\\n' > out.txt"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, f"git status > s.txt 2>&1; {ORACLE}; rm s.txt", True),
    (WRITE, f"git status 2>/dev/null || {ORACLE}", True),
    (WRITE, f"git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {ORACLE}", True),
    (WRITE, f"git log --oneline 2>&1 | grep -q 'not a git repository' && {ORACLE}", True),
    (WRITE, f"{ORACLE}; git add out.txt", True),
    (WRITE, "git status > out.txt 2>&1", False),
    (WRITE, "mkdir sub && cd sub && git status 2>&1 | head -1 | cut -c1-25 > ../out.txt; cd .. && rmdir sub", False),
    (WRITE, "git status 2>&1 | grep -c boundary > out.txt", False),
    (WRITE, f"git init -q sub; cd sub; git status 2>&1; cd ..; rm -rf sub; {ORACLE}", True),
]
TRANSPORTS = ("raw", "single", "ssh")


class TestGitOutsideARepository(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


@pytest.mark.parametrize("reply, named", [
    (f"git diff 2>/dev/null; {ORACLE}", "git diff outside a repository"),
    ("git rev-parse --sq-quote a > out.txt", "git rev-parse outside a repository"),
])
def test_what_git_does_outside_a_repository_otherwise_is_unknown(reply, named):
    found = predict(WRITE, reply, "raw")
    assert not found.certain and named in found.why, found
