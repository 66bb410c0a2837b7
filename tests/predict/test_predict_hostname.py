"""$HOSTNAME, which bash sets for itself where its environment has none: the sandbox's name,
in the harness shell and in every bash started inside it, predicted and executed."""

from predicting import ListedReplies

W = "write-file/t0-plain"
# (task, reply, passes under raw)
REPLIES = [
    (W, '[ "$HOSTNAME" = "$(hostname)" ] && echo hello world > out.txt', True),
    (W, "bash -c '[ \"$HOSTNAME\" = \"$(hostname)\" ]' && echo hello world > out.txt", True),
    (W, "HOSTNAME=x bash -c '[ \"$HOSTNAME\" = x ]' && echo hello world > out.txt", True),  # inherited: kept
    (W, "HOSTNAME=x; bash -c '[ \"$HOSTNAME\" = x ]' || echo hello world > out.txt", True),  # not exported
    (W, 'echo "$HOSTNAME" > out.txt', False),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "ssh", "heredoc-ssh", "script")


class TestHostnameReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS
