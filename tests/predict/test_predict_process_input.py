"""``FILTER < <(producer)``: a filter that writes no file of its own (grep, wc, sort, cat…)
reads all that one producer writes, whenever it writes it, so where the producer changes no
file its output is the filter's stdin. A producer that lists a folder or names a file a later
redirection creates races with it, and a filter that is a function or writes a file (sort -o)
is not followed. Predicted and executed."""

from predicting import ListedReplies
from qbcore.predict import predict

GREP, WRITE = "grep-count/t0-plain", "write-file/t0-plain"

# (task, reply, passes under raw)
REPLIES = [
    (GREP, "grep -cF TODO < <(cat lines.txt) > count.txt", True),
    (GREP, "wc -l < <(grep TODO lines.txt) > count.txt", True),
    (GREP, 'grep -c TODO < <(cat lines.txt) | tr -d " " > count.txt', True),
    (GREP, "cat < <(grep -c TODO lines.txt) > count.txt", True),
    (GREP, 'sort < <(printf "3\\n") > count.txt', True),
    (WRITE, 'head -n1 < <(printf "hello world\\nx\\n") > out.txt', True),
    (WRITE, "tr a-z A-Z < <(echo hello world) > out.txt", False),
]
TRANSPORTS = ("raw", "nested", "stdin", "ssh")


class TestFilterReplies(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_races_and_what_is_not_a_filter_are_unknown():
    for reply in ("echo 9 > count.txt; grep -c TODO < <(cat count.txt lines.txt) > count.txt",
                  'sort -o count.txt < <(printf "3\\n")', "grep -c TODO < <(ls) > count.txt",
                  "f() { grep -c TODO; }; f < <(cat lines.txt) > count.txt"):
        assert not predict(GREP, reply, "raw").certain, reply
