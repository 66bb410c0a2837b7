"""Replies that reach a name the sandbox's root does not hold, predicted and executed. The root
is a read-only file system: such a name is missing, and making it fails with "Read-only file
system". This is where a path built from a variable the outer shell emptied lands
(`"$DIR/out.txt"` is `/out.txt`). Names the root may hold, moves there (another file system)
and the root's listing stay unknown."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

W = "write-file/t0-plain"
HELLO = "echo hello world > out.txt"
# (task, reply, passes under raw)
REPLIES = [
    (W, 'DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)\necho hello world > "$DIR/out.txt"', True),
    (W, 'd=; echo hello world > "$d/out.txt"', False),
    (W, "echo hello world > /out.txt 2> out.txt", False),
    (W, f"echo hello world > /x/out.txt || {HELLO}", True),
    (W, f"[ \"$(touch /x 2>&1)\" = \"touch: cannot touch '/x': Read-only file system\" ] && {HELLO}", True),
    (W, f"[ \"$(mkdir -p /x/y 2>&1)\" = \"mkdir: cannot create directory '/x': Read-only file system\" ] && {HELLO}",
     True),
    (W, "printf 'hello world\\n' > a; cp a /a.bak 2>/dev/null || mv a out.txt", True),
    (W, f"ln -s out.txt /link 2>/dev/null; {HELLO}", True),
    (W, "echo hello world | tee /out.txt > out.txt", True),
    (W, "python3 -c 'open(\"/out.txt\", \"w\").write(\"hello world\\n\")'", False),
    (W, f"python3 -c 'open(\"/out.txt\", \"w\")' 2>/dev/null || {HELLO}", True),
    (W, f"cat /out.txt > out.txt 2>/dev/null || {HELLO}", True),
    (W, f"[ -e /out.txt ] || {HELLO}", True),
    (W, f"cd /work 2>/dev/null || {HELLO}", True),
    (W, f"mktemp /out.XXXXXX >/dev/null 2>&1 || {HELLO}", True),
    (W, f"mktemp -p /x 2>/dev/null || {HELLO}", True),
    (W, f"rm -f /out.txt; {HELLO}", True),
    # a command named by a path there, or by one in /tmp a run makes: 127 where it is missing, 126 a folder
    (W, f"/x 2>/dev/null || {HELLO}", True),
    (W, f"/x/y 2>/dev/null; [ $? = 127 ] && {HELLO}", True),
    (W, f"/tmp/d 2>/dev/null; [ $? = 127 ] && {HELLO}", True),
    (W, f"mkdir /tmp/d; /tmp/d 2>/dev/null; [ $? = 126 ] && {HELLO}", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "script", "stdin", "ssh", "ssh-argv", "heredoc-ssh")


class TestRootNameReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS


@pytest.mark.parametrize("reply", [
    f"{HELLO}; mv out.txt /out.txt", f"echo hello world > /home/out.txt; {HELLO}", f"touch /var/x; {HELLO}",
    f"ls / > /dev/null; {HELLO}", f"set -- /*; [ $# -gt 5 ] || {HELLO}", f"touch /qbcore-x; {HELLO}",
    f"mkdir /opt/x; {HELLO}", f"cp out.txt / 2>/dev/null; {HELLO}",
])
def test_names_the_root_may_hold_and_moves_there_are_unknown(reply):
    for transport in ("raw", "script"):
        assert not predict(W, reply, transport).certain, (reply, transport)



def test_every_name_the_sandbox_s_root_shows_is_one_the_model_leaves_unknown():
    from qbcore.model.effects import no_root_name
    from qbcore.realbash import sandbox

    assert not [name for name in sandbox.VISIBLE_TOP_LEVEL if no_root_name("/" + name)]
    assert not no_root_name("/qbcore-attempt-x") and no_root_name("/out.txt") and no_root_name("/x/y")
