"""A syntax error inside a compound assignment `name=(`: bash drops the rest of the line it is
on and reads on from the next one. Where nothing follows that line the prediction is decided;
where something does, what bash runs next is not followed (it was once taken to end the script,
a certain prediction that was wrong)."""

from predicting import ListedReplies
from qbcore.predict import predict

WRITE = "write-file/t0-plain"
ORACLE = "printf 'hello world\\n' > out.txt"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, f"{ORACLE}\ni=(<", True),
    (WRITE, f"{ORACLE}; i=(<", False),  # the line that holds the error does not run at all
    (WRITE, f"{ORACLE}\ni=(<\n\n", True),
    (WRITE, f"{ORACLE}\nif then", True),  # another syntax error ends the script where it stands
]
TRANSPORTS = ("raw", "script", "stdin")


class TestCompoundAssignmentErrors(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_what_bash_reads_after_such_an_error_is_not_followed():
    for transport in TRANSPORTS:
        found = predict(WRITE, f"i=(<\n{ORACLE}", transport)
        assert not found.certain and "goes on reading" in found.why, (transport, found)
