"""BASH_SOURCE outside functions and sourced files: empty where bash reads its script from -c
or stdin, the script's path where it reads a file. Replies find their own folder so:
`$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)` is the working directory under -c and the
harness's folder under the script transport. Predicted and executed."""

from predicting import ListedReplies
from qbcore.predict import predict

WRITE = "write-file/t0-plain"
CHILD = "echo 'echo \"[${BASH_SOURCE[0]}] ${#BASH_SOURCE[@]}\"' > s.sh"

# (task, reply, passes under raw)
REPLIES = [
    (WRITE, 'DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)\necho hello world > "$DIR/out.txt"', True),
    (WRITE, 'cd "$(dirname "${BASH_SOURCE[0]}")"\necho hello world > out.txt', True),
    (WRITE, 'echo "[${BASH_SOURCE[0]}] ${#BASH_SOURCE[@]}" > out.txt', False),
    (WRITE, 'echo "[${BASH_SOURCE}]" > out.txt; ( echo "[${BASH_SOURCE[*]}]" >> out.txt )', False),
    (WRITE, f"{CHILD}; bash s.sh > out.txt; rm s.sh", False),
    (WRITE, f"{CHILD}; bash < s.sh > out.txt; rm s.sh", False),
]
TRANSPORTS = ("raw", "nested", "script", "stdin", "ssh", "heredoc-ssh")


class TestBashSourceReplies(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_in_a_function_or_a_sourced_file_it_is_bash_s_call_stack_not_followed():
    for reply in ('f() { echo "[${BASH_SOURCE[0]}]"; }; f > out.txt',
                  f"{CHILD}; . ./s.sh > out.txt; rm s.sh"):
        assert not predict(WRITE, reply, "raw").certain
