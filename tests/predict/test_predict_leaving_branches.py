"""Branches that may or may not run and may leave (exit, return, break, set -e's exit), or
change the shell's state beyond its variables' values (functions, options, IFS, exports):
what runs after them is not followed, so the prediction is unknown; where the condition is
known, the reply is decided. Each is checked against the executor under every transport
listed: no certain prediction disagrees (`$RANDOM` is known to no one)."""

from predicting import ListedReplies
from qbcore.predict import predict

WRITE, SED, BULK = "write-file/t0-plain", "sed-replace/t0-plain", "bulk-rename/t0-plain"
ORACLE = "echo hello world > out.txt"

# (task, reply, passes under raw): the condition is known, so is what follows
REPLIES = [
    (WRITE, f"[ -d . ] || exit 1\n{ORACLE}", True),
    (WRITE, f"[ -f nope ] && exit 0\n{ORACLE}", True),
    (WRITE, f"f() {{ [ -d . ] || return 1; {ORACLE}; }}\nf", True),
    (WRITE, f"set -e\ncd . || exit 1\n{ORACLE}", True),
    (WRITE, f"[ -d . ] && f() {{ echo hello world; }}\nf > out.txt", True),
    (WRITE, f"[ -d nope ] || exit 4\n{ORACLE}", False),
    (WRITE, f"{ORACLE}\nexit 1 &\nwait", True),  # a job's exit leaves only itself
    # no descriptor of a run is a terminal
    (WRITE, f"[ -t 0 ] || exit 1\n{ORACLE}", False), (WRITE, f"if [[ -t 2 ]]; then exit 3; fi; {ORACLE}", True),
    (WRITE, f"test -t x || {ORACLE}", True), (WRITE, f"exec 3<&0; [ -t 3 ] || {ORACLE}", True),
    (WRITE, f"test -t || exit 1; {ORACLE}", True),
    # uname prints Linux there: the usual test for sed -i's spelling is decided
    (WRITE, f"uname | grep -q Linux && exit 1\n{ORACLE}", False),
    (SED, "[[ $(uname) == Linux ]] && exit 0\nsed -i 's/alpha/omega/g' data.txt", False),
    (WRITE, f"main() {{\n  [[ $(uname) == Linux ]] && return 0\n  {ORACLE}\n}}\nmain", False),
    (SED, 'if [[ "$(uname)" == Darwin ]]; then\n  sedi() { sed -i \'\' "$@"; }\nelse\n'
          '  sedi() { sed -i "$@"; }\nfi\nsedi \'s/alpha/omega/g\' data.txt', True),
    (BULK, 'set -euo pipefail\nfor f in *.txt; do\n  [ -t 0 ] || break\n  mv -- "$f" "done_$f"\ndone', False),
    # a writer head surely cuts off: SIGPIPE's 141 is pipefail's failure, and set -e leaves
    (WRITE, f"set -eo pipefail\nseq 100000 | head -n1\n{ORACLE}", False),
    (WRITE, f"set -o pipefail\nseq 100000 | head -n1 >/dev/null || exit 1\n{ORACLE}", False),
]
TRANSPORTS = ("raw", "nested", "stdin", "ssh")


class TestKnownConditions(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


# (task, reply): a branch whose condition the model does not know; executed, each fails or passes
# only by what the branch does
UNKNOWN = [
    (WRITE, f"set -eo pipefail\nseq 12000 | head -n1\n{ORACLE}"),  # (seq may finish before head is gone)
    (WRITE, f"set -e\n[ $RANDOM -lt 9 ]\n{ORACLE}"),
    (WRITE, f"[ $RANDOM -lt 9 ] || exit 1\n{ORACLE}"),
    (BULK, 'for f in *.txt; do\n  [ $RANDOM -lt 9 ] || break\n  mv -- "$f" "done_$f"\ndone'),
    (WRITE, f"[ $RANDOM -lt 9 ] || set -e\nfalse\n{ORACLE}"),
    (WRITE, "[ $RANDOM -lt 9 ] || f() { echo hello world; }\nf > out.txt"),
    (WRITE, "[ $RANDOM -lt 9 ] || IFS=,\nx='hello,world'; echo $x > out.txt"),
    (WRITE, "[ $RANDOM -lt 9 ] || shopt -s nullglob\nfor f in *.nomatch; do echo hello world > out.txt; done"),
    (WRITE, f"[ $RANDOM -lt 9 ] || set -o noclobber\necho a > out.txt; {ORACLE}"),
    (WRITE, "[ $RANDOM -lt 9 ] || export MSG=hi\nbash -c 'echo ${MSG:-hello world}' > out.txt"),
]


class TestUnknownConditions(ListedReplies):
    REPLIES, TRANSPORTS = [(task, reply, None) for task, reply in UNKNOWN], ("raw", "nested", "script")

    def test_replies_are_decided_under_raw_as_listed(self, outcomes):
        for task, reply in UNKNOWN:
            found = predict(task, reply, "raw")
            assert not found.certain, (reply, found)


def test_the_why_names_how_the_shell_may_leave():
    assert "an exit that may run" in predict(WRITE, f"[ $RANDOM -lt 9 ] || exit 1\n{ORACLE}", "raw").why
    assert "an exit that may run" in predict(WRITE, f"[ $RANDOM -lt 9 ] || : ${{nope?gone}}\n{ORACLE}", "raw").why
    assert "a return that may run" in predict(WRITE, f"f() {{ [ $RANDOM -lt 9 ] || return; {ORACLE}; }}; f", "raw").why
    assert "functions, which a command that may not run changed" in \
        predict(WRITE, "[ $RANDOM -lt 9 ] || f() { :; }\nf > out.txt", "raw").why
