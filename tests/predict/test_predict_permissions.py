"""Replies that take permissions away from their own files, then run programs or the shell over them:
what a program may do then depends on who runs it, which the model does not follow. Programs
over a file its owner may not read, or in a folder it may not list, change or enter, are
unknown, and so is a program that writes in place into a file its owner may not write; what
touches no such entry is still decided. Predicted and executed: every certain prediction
agrees with the executor (these replies were once predicted to pass, and failed)."""

from predicting import ListedReplies, certain_disagreements, execute
from qbcore.predict import predict

UNKNOWN = [
    ("sed-replace/t0-plain", "chmod 000 data.txt; sed -i 's/alpha/omega/g' data.txt; chmod 644 data.txt"),
    ("hostile-filenames/t0-plain", "chmod 555 .; mv notes.txt archive.txt; chmod 755 ."),
    ("write-file/t0-plain", "printf 'x\\n' > out.txt; chmod 444 out.txt; printf 'hello world\\n' | tee out.txt; "
                            "chmod 644 out.txt"),
    ("write-file/t0-plain", "mkdir d; chmod 300 d; printf 'hello world\\n' > out.txt; ls d > /dev/null && rm out.txt; "
                            "chmod 755 d; rmdir d"),
    ("write-file/t0-plain", "printf 'hello world\\n' > t; chmod 200 t; cat t > out.txt; rm -f t"),
    ("write-file/t0-plain", "printf 'hello world\\n' > t; chmod 200 t; install -m 644 t out.txt; rm -f t"),
    ("write-file/t0-plain", "mkdir d; : > d/f; chmod 600 d; [ \"$(stat -c %a d/f)\" = 644 ] && "
                            "printf 'hello world\\n' > out.txt; chmod 755 d; rm -r d"),
    # the shell's own: a new name in a folder its owner may not change, a path or a cd through
    # a folder it may not enter, a test of a path there
    ("write-file/t0-plain", "chmod 555 .; printf 'hello world\\n' > out.txt"),
    ("write-file/t0-plain", "chmod 555 .; printf 'hello world\\n' >> out.txt"),
    ("write-file/t0-plain", "mkdir d; chmod 000 d; printf 'hello world\\n' > out.txt; cd d && rm ../out.txt"),
    ("write-file/t0-plain", "mkdir d; printf 'x' > d/f; chmod 600 d; printf 'hello world\\n' > out.txt; "
                            "[ -f d/f ] || rm out.txt; chmod 755 d; rm -r d"),
    ("write-file/t0-plain", "mkdir d; printf 'hello world\\n' > d/f; chmod 600 d; cat < d/f > out.txt"),
]
FOUR_TRANSPORTS = ("raw", "nested", "single", "double-nested")
# (task, reply, passes under raw)
DECIDED = [
    # read-only files that programs read, remove or replace: no write into them in place
    ("write-file/t0-plain", "printf 'hello world\\n' > t; chmod 444 t; cp t out.txt; chmod 644 out.txt; rm -f t", True),
    ("write-file/t0-plain", "printf 'hello world\\n' > out.txt; chmod 444 out.txt; grep -q hello out.txt && "
                            "chmod 644 out.txt", True),
    ("write-file/t0-plain", "printf 'x\\n' > t; chmod 400 t; rm -f t; printf 'hello world\\n' > out.txt; [ -e t ] && rm out.txt",
     True),
]


def test_programs_over_withheld_entries_are_unknown():
    for task, reply in UNKNOWN:
        assert not predict(task, reply, "raw").certain, reply


def test_every_certain_prediction_of_those_agrees_with_the_executor():
    # (under other transports a reply may break before it reaches what is withheld: decided there)
    cases = [(task, reply, transport) for task, reply in UNKNOWN for transport in FOUR_TRANSPORTS]
    assert not certain_disagreements(cases, execute(cases))


class TestReadOnlyFiles(ListedReplies):
    REPLIES = DECIDED
    TRANSPORTS = FOUR_TRANSPORTS
