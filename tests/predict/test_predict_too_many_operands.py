"""exit, return, shift, break or continue with more operands than one, the first a number: bash
says "too many arguments" and jumps to its top level. The shell of a -c string ends with 1, a
script read from a file or stdin drops the rest of the line and goes on with the next (measured).
Under ssh-argv a reply's `exit 1` and its next line reach the remote shell as one line."""

from predicting import ListedReplies

WRITE = "write-file/t0-plain"

REPLIES = [
    (WRITE, "exit 1 2; echo no > out.txt\necho hello world > out.txt", False),
    (WRITE, "[ -t 0 ] || exit 1\necho hello world > out.txt", False),
    (WRITE, "f() { return 3 4; echo in; }; f; echo no > out.txt\necho hello world > out.txt", False),
    (WRITE, "for i in 1 2; do shift 1 2; done; echo no > out.txt\necho hello world > out.txt", False),
    (WRITE, "(exit 1 2; echo no > out.txt); [ $? = 1 ] && echo hello world > out.txt", True),
    (WRITE, "trap 'echo hello world > out.txt' EXIT; exit 1 2", True),
    (WRITE, "exit 1 2 2> out.txt\necho $? >> out.txt", False),
]


class TestTooManyOperands(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = ("raw", "script", "stdin", "ssh-argv", "nested")
