"""Replies that edit through a file mktemp makes in /tmp, a name of their own there (the
sandbox's /tmp starts with its own names alone) or one made from $$, and clean up with an EXIT
trap, predicted and executed: decided under raw as the tools run them, and every certain
prediction agrees with the executor under every transport (mktemp's name and the shell's
process id differ on every run: an outcome that depends on them is unknown)."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

# (task, reply, passes under raw)
REPLIES = [
    ("sed-replace/t0-plain", "tmp=$(mktemp) && sed 's/alpha/omega/g' data.txt > \"$tmp\" && mv \"$tmp\" data.txt", True),
    ("sed-replace/t0-plain", "tmp=$(mktemp) && sed 's/alpha/omega/g' data.txt > \"$tmp\" && cat \"$tmp\" > data.txt "
                             "&& rm -f \"$tmp\"", True),
    ("sed-replace/t0-plain", "t=$(mktemp); sed 's/alpha/omega/g' data.txt > $t; cp $t data.txt; rm $t", True),
    ("sed-replace/t0-plain", "d=$(mktemp -d); cp data.txt \"$d/\"; sed -i 's/alpha/omega/g' \"$d/data.txt\"; "
                             "mv \"$d/data.txt\" .; rmdir \"$d\"", True),
    # mktemp's name in the task's file: the validator sees a name no run repeats
    ("write-file/t0-plain", "f=$(mktemp); echo \"$f\" > out.txt", False),
    # (mode 0600 follows the file into the task directory)
    ("write-file/t0-plain", "f=$(mktemp); printf 'hello world\\n' > \"$f\"; mv \"$f\" out.txt; chmod 644 out.txt", True),
    ("write-file/t0-plain", "f=$(mktemp); [ -f \"$f\" ] && printf 'hello world\\n' > out.txt; [ -s \"$f\" ] && "
                            "rm out.txt; rm -f \"$f\"", True),
    # a template, or -p: the name is made in the task directory (mode 0600 too)
    ("write-file/t0-plain", "tmp=$(mktemp out.txt.XXXXXX) && printf '%s\\n' 'hello world' > \"$tmp\" && "
                            "chmod 644 \"$tmp\" && mv \"$tmp\" out.txt", True),
    ("write-file/t0-plain", "tmp=$(mktemp -p .); echo 'hello world' > \"$tmp\"; mv -f \"$tmp\" out.txt", True),
    ("write-file/t0-plain", "t=$(mktemp ./x.XXX); echo 'hello world' > \"$t\"; cat \"$t\" > out.txt; rm \"$t\"", True),
    ("write-file/t0-plain", "t=$(mktemp -p .); echo 'hello world' > out.txt", False),  # a stray file
    ("write-file/t0-plain", "t=$(mktemp x.XXX.txt); echo 'hello world' > \"$t\"; mv \"$t\" out.txt; chmod 644 out.txt",
     True),
    ("write-file/t0-plain", "t=$(mktemp XX) || echo 'hello world' > out.txt", True),  # too few X's
    ("write-file/t0-plain", "mktemp nope/x.XXX 2>/dev/null || echo 'hello world' > out.txt", True),
    ("write-file/t0-plain", "t=$(mktemp --tmpdir w.XXXXXX); echo 'hello world' > \"$t\"; cp \"$t\" out.txt; "
                            "chmod 644 out.txt", True),
    # the EXIT trap that removes it, run when the shell ends
    ("sed-replace/t0-plain", "tmp=$(mktemp) || exit 1\ntrap 'rm -f \"$tmp\"' EXIT\n"
                             "sed 's/alpha/omega/g' data.txt > \"$tmp\" && mv \"$tmp\" data.txt", True),
    ("sed-replace/t0-plain", "tmp=$(mktemp); trap 'rm -f \"$tmp\"' EXIT INT TERM; sed 's/alpha/omega/g' data.txt > "
                             "\"$tmp\"; cat \"$tmp\" > data.txt", True),
    ("write-file/t0-plain", "trap 'rm -f out.txt' EXIT; printf 'hello world\\n' > out.txt", False),
    ("write-file/t0-plain", "trap 'printf \"hello world\\n\" > out.txt' EXIT; exit 3", True),
    # a name of the reply's own in /tmp; /tmp itself may be looked up, not listed
    ("sed-replace/t0-plain", "sed 's/alpha/omega/g' data.txt > /tmp/out && mv /tmp/out data.txt", True),
    ("sed-replace/t0-plain", "cp data.txt /tmp/data.orig && sed -i 's/alpha/omega/g' data.txt && "
                             "grep -c alpha /tmp/data.orig", True),
    ("write-file/t0-plain", "mkdir -p /tmp/work && cd /tmp/work && printf 'hello world\\n' > out.txt && cd - && "
                            "mv /tmp/work/out.txt .", True),
    ("write-file/t0-plain", "[ -d /tmp ] && [ -w /tmp ] && [ -k /tmp ] && [ ! -e /tmp/nothing ] && "
                            "printf 'hello world\\n' > out.txt", True),
    ("write-file/t0-plain", "ln -s \"$PWD/out.txt\" /tmp/link; printf 'hello world\\n' > /tmp/link", True),
    ("grep-count/t0-plain", "grep -c TODO lines.txt > /tmp/c; cp /tmp/c count.txt; rm /tmp/c", True),
    # a name made from $$, the harness bash's process id (another on every run): decided where
    # no outcome hangs on it (a bash started inside has an id of its own, not known)
    ("write-file/t0-plain", "trap 'rm -f tmp.$$' EXIT; echo 'hello world' > tmp.$$; mv tmp.$$ out.txt", True),
    ("write-file/t0-plain", "echo 'hello world' > /tmp/o.$$ && cp /tmp/o.$$ out.txt", True),
    ("sed-replace/t0-plain", "sed 's/alpha/omega/g' data.txt > data.txt.$$ && mv data.txt.$$ data.txt", True),
    ("write-file/t0-plain", "echo 'hello world' > tmp.$$", False),
    ("write-file/t0-plain", "(echo $$ > a); echo $$ > b; cmp -s a b && echo 'hello world' > out.txt; rm a b", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "script", "stdin", "ssh", "ssh-argv", "heredoc-ssh")


class TestTempFileReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS


@pytest.mark.parametrize("reply", [
    "ls /tmp > out.txt", "echo /tmp/* > out.txt", "find /tmp > out.txt", "cd /tmp && ls > x; printf 'hello world\\n' > out.txt",
    "cat /tmp/qbcore-reply.sh > out.txt", "touch /tmp/.qbcore-sandbox/x; printf 'hello world\\n' > out.txt",
    "rmdir /tmp; printf 'hello world\\n' > out.txt", "rm -rf /tmp; printf 'hello world\\n' > out.txt",
    "mv /tmp /tmp2; printf 'hello world\\n' > out.txt", "ls /tmp/qbcore-attempt-* > out.txt",
])
def test_the_sandbox_s_own_names_in_tmp_are_unknown(reply):
    # /tmp lists the attempt's folder (a random name) and the script transport's file
    for transport in ("raw", "script"):
        assert not predict("write-file/t0-plain", reply, transport).certain, (reply, transport)


@pytest.mark.parametrize("reply", ["[ $(($$ % 2)) = 0 ] && printf 'hello world\\n' > out.txt",
                                   "[ $$ -lt 100 ] && printf 'hello world\\n' > out.txt"])
def test_an_outcome_that_hangs_on_the_process_id_is_unknown(reply):
    found = predict("write-file/t0-plain", reply, "raw")
    assert not found.certain and "process id" in found.why, found
