"""sleep in a reply: it changes nothing, so a short one is followed and the reply decided; its
usage errors are spelled. The model's clock stands still, so a reply that reads the time and
sleeps is unknown: executed, the time read after the sleep is a later one."""

from predicting import ListedReplies, execute
from qbcore.predict import predict

# (task, reply, passes under raw)
DECIDED = [
    ("write-file/t0-plain", "sleep 0.2; printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "sleep .1s 0.05 && printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "sleep 1x || printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "sleep 2> err.log; grep -q 'missing operand' err.log && rm err.log && "
                            "printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; sleep x; [ $? -eq 1 ] || rm out.txt", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt & sleep 0.1; wait", True),
]
CLOCK = ("write-file/t0-plain", "a=$(date +%s); sleep 1.1; b=$(date +%s); [ \"$a\" != \"$b\" ] && "
                                "printf 'hello world\\n' > out.txt")


class TestSleepReplies(ListedReplies):
    REPLIES = DECIDED
    TRANSPORTS = ("raw", "nested", "script")


def test_time_read_by_a_run_that_sleeps_is_unknown():
    found = predict(*CLOCK, "raw")
    assert not found.certain and "sleeps" in found.why
    assert execute([(*CLOCK, "raw")])[0].passed  # the clock moved: a frozen one would say it fails
