"""Replies that write a file of commands and source it (`source f`, `. ./f`): its commands run
in the reply's own shell, as bash runs them, under every transport."""

from predicting import ListedReplies, decided_share

WRITE = "write-file/t0-plain"
ENV = "env-passing/t2-dollar"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, "printf 'printf \"%%s\\\\n\" \"hello world\" > out.txt\\n' > g.sh; source g.sh; rm g.sh", True),
    (WRITE, "cat > g.sh <<'EOF'\nw() { printf '%s\\n' \"$1\" > out.txt; }\nEOF\n. ./g.sh && w 'hello world'; rm -f g.sh",
     True),
    (WRITE, "echo 'return 1' > g.sh; source g.sh && echo 'hello world' > out.txt; rm g.sh", False),
    (WRITE, "source nothing.sh && echo 'hello world' > out.txt", False),
    (WRITE, "source nothing.sh; echo 'hello world' > out.txt", True),
    (WRITE, "mkdir d && echo 'cd ..' > d/up.sh && cd d && . ./up.sh && echo 'hello world' > out.txt; rm -r d", True),
    (WRITE, "echo 'echo \"hello world\"' > g.sh; source g.sh > out.txt; rm g.sh", True),
    (WRITE, "echo 'if then' > g.sh; source g.sh 2>/dev/null || echo 'hello world' > out.txt; rm g.sh", True),
    (ENV, "cat > env.sh <<'EOF'\nMSG='$HOME is not expanded here'\nexport MSG\nEOF\n. ./env.sh && ./check_env && rm env.sh",
     True),
    (ENV, "echo \"export MSG='$HOME is not expanded here'\" > env.sh; source env.sh; ./check_env; rm env.sh", False),
]
TRANSPORTS = ("raw", "nested", "script", "stdin")


class TestSourcedFiles(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_sourced_replies_are_decided_under_raw():
    assert decided_share(REPLIES, ("raw",)) == 1.0
