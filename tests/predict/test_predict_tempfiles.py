"""Replies that edit through a file mktemp makes in /tmp, and clean up with an EXIT trap,
predicted and executed: decided under
raw as the tools run them, and every certain prediction agrees with the executor under every
transport (mktemp's name differs on every run: an outcome that depends on it is unknown)."""

from predicting import ListedReplies

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
    # the EXIT trap that removes it, run when the shell ends
    ("sed-replace/t0-plain", "tmp=$(mktemp) || exit 1\ntrap 'rm -f \"$tmp\"' EXIT\n"
                             "sed 's/alpha/omega/g' data.txt > \"$tmp\" && mv \"$tmp\" data.txt", True),
    ("sed-replace/t0-plain", "tmp=$(mktemp); trap 'rm -f \"$tmp\"' EXIT INT TERM; sed 's/alpha/omega/g' data.txt > "
                             "\"$tmp\"; cat \"$tmp\" > data.txt", True),
    ("write-file/t0-plain", "trap 'rm -f out.txt' EXIT; printf 'hello world\\n' > out.txt", False),
    ("write-file/t0-plain", "trap 'printf \"hello world\\n\" > out.txt' EXIT; exit 3", True),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "script", "stdin", "ssh", "ssh-argv", "heredoc-ssh")


class TestTempFileReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS
