"""Replies that take permissions away from their own files, then run programs or the shell over them.
The executor never runs a reply as root (the sandbox runs it as nobody, or as its caller), so the
owner's bits decide. The shell's own opens, cd and file tests are decided as such a user meets
them: bash's `Permission denied`, status 1, and a glob lists no folder its owner may not read
or reach. A program that reads a file its owner may not read or writes into one in place, or
lists a folder, searches it on the way to a name, or makes or takes away a name in it, where the
mode withholds that from its owner, is unknown unless its model words that failure as the
program does (mv, rm, touch, mkdir, rmdir, ln, cat, ls, tee, head, wc, grep, chmod, stat: vfs.Refusing,
checked here word for word); a program beside such an entry that uses none of it is followed,
sed -i and perl -i ask the folder and not the file, and sed reads a file its owner may not read
as GNU sed meets it (`sed: can't read F: Permission denied`, status 2). Predicted and executed:
every certain prediction agrees with the executor (the first of these replies were once
predicted to pass, and failed)."""

from predicting import ListedReplies, certain_disagreements, execute
from qbcore.predict import predict

UNKNOWN = [
    ("write-file/t0-plain", "mkdir d; chmod 300 d; printf 'hello world\\n' > out.txt; ls d > /dev/null && rm out.txt; "
                            "chmod 755 d; rmdir d"),
    ("write-file/t0-plain", "printf 'hello world\\n' > t; chmod 200 t; install -m 644 t out.txt; rm -f t"),
    # programs that use a folder as its mode withholds from its owner: search, list, change it
    ("write-file/t0-plain", "mkdir d; chmod 000 d; printf 'hello world\\n' > out.txt; find . -name x; chmod 755 d; "
                            "rmdir d"),
    ("write-file/t0-plain", "mkdir d; touch d/f; chmod 300 d; printf 'hello world\\n' > out.txt; cp -r d e; chmod 755 d; "
                            "rm -r d e"),
    # sed -i and perl -i make a new file in the folder (perl lists it too) and rename it over
    ("sed-replace/t0-plain", "chmod 500 .; sed -i 's/alpha/omega/g' data.txt; chmod 755 ."),
    ("sed-replace/t0-plain", "chmod 300 .; perl -pi -e 's/alpha/omega/g' data.txt; chmod 755 ."),
    # the shell below a folder it has since made unsearchable: its relative opens search from
    # where it is, not through that folder
    ("write-file/t0-plain", "mkdir -p d/e; cd d/e; chmod 600 ..; echo a > f; cd ../..; chmod 700 d; rm -r d; "
                            "printf 'hello world\\n' > out.txt"),
]
W = "write-file/t0-plain"
OK = "printf 'hello world\\n' > out.txt"
# (task, reply, passes under raw): the shell's own opens, cd and file tests
SHELLS_OWN = [
    (W, "chmod 555 .; printf 'hello world\\n' > out.txt", False),
    (W, "chmod 555 .; printf 'hello world\\n' >> out.txt", False),
    (W, "chmod 555 .; printf 'hello world\\n' > out.txt 2>/dev/null; chmod 755 .; " + OK, True),
    (W, "mkdir d; chmod 000 d; printf 'hello world\\n' > out.txt; cd d && rm ../out.txt", True),
    (W, "mkdir d; printf 'hello world\\n' > d/f; chmod 600 d; cat < d/f > out.txt", False),
    (W, "mkdir ro; chmod 555 ro; echo a > ro/new || " + OK, True),
    (W, "mkdir ro; chmod 555 ro; echo a > ro/new; " + OK + "; chmod 755 ro; rmdir ro", True),
    (W, "printf 'x\\n' > w0; chmod 444 w0; echo b >> w0; st=$?; rm -f w0; [ $st = 1 ] && " + OK, True),
    (W, "touch out.txt; chmod 444 out.txt; printf 'hello world\\n' > out.txt", False),
    (W, "printf 'x\\n' > r0; chmod 000 r0; cat < r0 > out.txt; rm -f r0", False),
    (W, "printf 'x\\n' > r0; chmod 200 r0; exec 3< r0 || { rm r0; " + OK + "; }", True),
    (W, "mkdir nox; touch nox/f; chmod 600 nox; echo a > nox/f || { chmod 700 nox; rm -r nox; " + OK + "; }", True),
    (W, "mkdir nox; chmod 600 nox; cd nox || { chmod 700 nox; rmdir nox; " + OK + "; }", True),
    (W, "mkdir -p d/e; chmod 600 d; cd d/e 2> e.txt || { read -r m < e.txt; echo \"$m\" > out.txt; }", False),
    (W, "mkdir d; ln -s d l; chmod 600 d; echo x > l/f || { chmod 700 d; rm -r d l; " + OK + "; }", True),
    (W, "mkdir nox; touch nox/f; chmod 600 nox; [ -e nox/f ] || { chmod 700 nox; rm -r nox; " + OK + "; }", True),
    (W, "printf 'x\\n' > r0; chmod 000 r0; [ -r r0 ] || [ -w r0 ] || rm -f r0; " + OK, True),
    (W, "touch w0; chmod 444 w0; [ -w w0 ] && echo yes > out.txt; rm -f w0; [ -e out.txt ] || " + OK, True),
    (W, "mkdir ro; chmod 555 ro; for f in ro/a ro/b; do echo 1 > $f; done 2>/dev/null; chmod 755 ro; rmdir ro && "
        + OK, True),
]
# (task, reply, passes under raw): globs, which list a folder (its owner must read it, and search
# the folders on the way) and stat a name they match before a slash (searching its folder)
GLOBS = [
    (W, "mkdir d; touch d/a; chmod 300 d; set -- d/*; chmod 700 d; rm -r d; [ \"$1\" = 'd/*' ] && " + OK, True),
    (W, "mkdir d; touch d/a; chmod 100 d; set -- d/*; chmod 700 d; rm -r d; [ \"$1\" = 'd/*' ] && " + OK, True),
    (W, "mkdir d; touch d/a; chmod 600 d; set -- d/* d/a*; chmod 700 d; rm -r d; [ \"$1 $2\" = 'd/a d/a' ] && " + OK,
     True),
    (W, "mkdir -p d/e; touch d/e/a; chmod 600 d; set -- d/*/a d/[e]/a d/?; chmod 700 d; rm -r d; "
        "[ \"$*\" = 'd/*/a d/[e]/a d/e' ] && " + OK, True),
    (W, "mkdir -p d/e; touch d/e/a; chmod 300 d; set -- d/e/* d/*/a; chmod 700 d; rm -r d; "
        "[ \"$*\" = 'd/e/a d/*/a' ] && " + OK, True),
    (W, "mkdir d; touch d/a; chmod 300 d; shopt -s nullglob; set -- d/*; chmod 700 d; rm -r d; [ $# = 0 ] && " + OK,
     True),
    (W, "touch x; chmod 333 .; set -- *; chmod 755 .; rm x; [ \"$1\" = '*' ] && " + OK, True),
    (W, "mkdir d; touch d/a; chmod 300 d; for f in d/*; do echo \"$f\" > out.txt; done; chmod 700 d; rm -r d; "
        "[ \"$(cat out.txt)\" = d/a ] && " + OK, False),
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


# (task, reply, passes under raw): programs beside a folder whose mode withholds from its owner
# what they do not need of it
BESIDE = [
    (W, "mkdir d; printf 'x' > d/f; chmod 600 d; " + OK + "; [ -f d/f ] || rm out.txt; chmod 755 d; rm -r d", False),
    (W, "mkdir d; chmod 000 d; " + OK + "; cat out.txt; chmod 755 d; rmdir d", True),
    (W, "mkdir d; chmod 000 d; " + OK + "; ls d; chmod 755 d; rmdir d", True),
    (W, "mkdir d; chmod 000 d; printf 'hello world\\n' | tee out.txt > /dev/null; rmdir d", True),
    (W, "chmod 555 .; chmod 755 .; printf 'hello world\\n' | tee out.txt", True),
    (W, "mkdir d; chmod 555 d; " + OK + "; ls; chmod 755 d; rmdir d", True),
    ("hostile-filenames/t0-plain", "chmod 555 .; ls; cat notes.txt; chmod 755 .; mv notes.txt archive.txt", True),
    ("sed-replace/t0-plain", "mkdir keep; chmod 500 keep; sed -i 's/alpha/omega/g' data.txt; chmod 700 keep; rmdir keep",
     True),
]


class TestProgramsBesideAWithheldFolder(ListedReplies):
    REPLIES = BESIDE
    TRANSPORTS = FOUR_TRANSPORTS


# (task, reply, passes under raw): mv, whose failures there the model words as mv does
# (`cannot stat 'd/a': Permission denied`, `cannot move 'a' to 'b': Permission denied`)
MV = [
    ("hostile-filenames/t0-plain", "chmod 555 .; mv notes.txt archive.txt; chmod 755 .", False),
    ("hostile-filenames/t0-plain", "chmod 555 .; mv notes.txt archive.txt 2>&1 | "
                                   "grep -q \"cannot move 'notes.txt' to 'archive.txt': Permission denied\"; st=$?; "
                                   "chmod 755 .; [ $st = 0 ] && mv notes.txt archive.txt", True),
    ("hostile-filenames/t0-plain", "chmod 555 .; mv notes.txt archive.txt 2> err.txt; chmod 755 .; "
                                   "mv notes.txt archive.txt", True),  # (the redirection fails: no mv)
    (W, "mkdir -p a/b c; chmod 500 a/b; " + OK + "; mv a/b c/; chmod -R 755 a c; rm -r a c", True),
    (W, "mkdir d; touch d/a; chmod 600 d; mv d/a b 2> out.txt; st=$?; chmod 700 d; rm -r d; [ $st = 1 ] && "
        "grep -q \"cannot stat 'd/a': Permission denied\" out.txt && " + OK, True),
    (W, "mkdir d; touch a; chmod 600 d; mv a d/x 2>&1 | grep -q \"cannot stat 'd/x'\" && rm a && " + OK + "; chmod 700 d; "
        "rmdir d", True),
    (W, "mkdir d; touch a; chmod 100 d; mv a d/ 2>&1 | grep -q \"cannot move 'a' to 'd/a'\" && rm a && " + OK + "; "
        "chmod 700 d; rmdir d", True),
    (W, "mkdir d; touch d/a; chmod 500 d; mv d/a d/b; chmod 700 d; [ -e d/a ] && rm -r d && " + OK, True),
    (W, "mkdir s t; chmod 500 s; mv s t/ || { chmod 700 s; rmdir s t; " + OK + "; }", True),
    (W, "mkdir s; chmod 500 s; mv s s2 && chmod 700 s2 && rmdir s2 && " + OK, True),
    (W, "mkdir d; touch a d/a; chmod 500 d; mv -n a d/ && rm a; chmod 700 d; rm -r d; " + OK, True),
    (W, "touch a b; chmod 555 .; mv a b; chmod 755 .; rm b; [ -e a ] && mv a out.txt", False),
]


# (task, reply, passes under raw): other programs refused as they are (vfs.Refusing)
REFUSED = [
    (W, "printf 'x\\n' > out.txt; chmod 444 out.txt; printf 'hello world\\n' | tee out.txt; chmod 644 out.txt", False),
    (W, "printf 'hello world\\n' > t; chmod 200 t; cat t > out.txt; rm -f t", False),
    (W, "mkdir d; chmod 555 d; " + OK + "; touch d/x; chmod 755 d; rm -rf d", True),
    (W, "chmod 555 .; printf 'hello world\\n' | tee out.txt; chmod 755 .", False),
    (W, "mkdir d; touch d/f; chmod 500 d; rm -f d/f || { chmod 700 d; rm -r d; " + OK + "; }", True),
    (W, "mkdir d; : > d/f; chmod 600 d; [ \"$(stat -c %a d/f)\" = 644 ] && " + OK + "; chmod 755 d; rm -r d", False),
    (W, "mkdir d; chmod 500 d; mkdir d/e 2> out.txt; chmod 700 d; rmdir d; grep -q \"cannot create directory "
        "'d/e': Permission denied\" out.txt && " + OK, True),
]


class TestOtherProgramsRefused(ListedReplies):
    REPLIES = REFUSED
    TRANSPORTS = FOUR_TRANSPORTS


class TestMvWhereItsOwnerMayNot(ListedReplies):
    REPLIES = MV
    TRANSPORTS = FOUR_TRANSPORTS


class TestGlobsOverFoldersItsOwnerMayNotReadOrSearch(ListedReplies):
    REPLIES = GLOBS
    TRANSPORTS = ("raw", "nested", "script")


class TestReadOnlyFiles(ListedReplies):
    REPLIES = DECIDED
    TRANSPORTS = FOUR_TRANSPORTS


class TestTheShellsOwnOpensCdAndTests(ListedReplies):
    REPLIES = SHELLS_OWN
    TRANSPORTS = ("raw", "nested", "script", "stdin")


S = "sed-replace/t0-plain"
SED = [
    (S, "chmod 000 data.txt; sed -i 's/alpha/omega/g' data.txt; chmod 644 data.txt", False),
    (S, "chmod 000 data.txt; sed -n p data.txt 2> err.txt; chmod 644 data.txt; grep -q 'Permission denied' err.txt "
        "&& rm err.txt && sed -i 's/alpha/omega/g' data.txt", True),
    (S, "cp data.txt t; chmod 000 t; sed -i 's/alpha/omega/g' t data.txt; st=$?; chmod 644 t; rm t; [ $st = 2 ] || "
        "rm data.txt", True),
    (S, "chmod 200 data.txt; sed 's/alpha/omega/g' data.txt > new.txt 2>&1; chmod 644 data.txt; mv new.txt data.txt",
     False),
]


class TestSedOverAFileItsOwnerMayNotRead(ListedReplies):
    REPLIES = SED
    TRANSPORTS = ("raw", "nested", "script")


# (task, reply, passes under raw): sed -i and perl -i replace a file with a new one: the file's own
# write bit is not asked, its folder's are
IN_PLACE = [
    (S, "chmod 444 data.txt; sed -i 's/alpha/omega/g' data.txt; chmod 644 data.txt", True),
    (S, "chmod 444 data.txt; perl -pi -e 's/alpha/omega/g' data.txt; chmod 644 data.txt", True),
    (S, "chmod 444 data.txt; sed -i 's/alpha/omega/g' data.txt; [ \"$(stat -c %a data.txt)\" = 644 ] || "
        "chmod 644 data.txt", True),
    (S, "mkdir k; chmod 500 k; perl -pi -e 's/alpha/omega/g' data.txt; chmod 700 k; rmdir k", True),
]


class TestInPlaceEditors(ListedReplies):
    REPLIES = IN_PLACE
    TRANSPORTS = ("raw", "nested", "script")


# programs whose models meet a use their owner may not make as the program does (vfs.Refusing), in a
# folder d holding a file and a folder, under every owner mode of d that withholds a bit: what
# each prints and its status go into out.txt, so a certain prediction's differences hold its words
REFUSED_COMMANDS = [
    "rm d/a b", "rm -f d/n", "rm -r d", "rm -rf d/e", "rm d", "touch d/a d/n b", "touch -c d/n d/a", "mkdir d/n b2",
    "mkdir -p d/e/f", "mkdir -p d/n/m", "rmdir d/e d", "rmdir -p d/e", "ln -s x d/l", "ln -sf x d/a", "ln -s b d/", "cat d/a b",
    "cat d", "cat d/n", "ls d/a d/n", "ls d/e", "tee d/a < b", "tee -a d/a < b", "tee b d/t < /dev/null",
    "head d/a b", "head d", "wc -c d/a d/n", "grep -c x d/a b", "grep x d", "chmod 600 d/a d/n", "chmod -R 700 d",
    "mv d/a b", "mv b d/", "mv d/a d/e/", "stat -c %a d", "stat -c '%n %s %h' d/a d/e b", "stat -c %h d/n",
]
REFUSED_MODES = ("000", "100", "300", "500", "600")


def _refused_cases():
    return [(W, f"mkdir -p d/e; printf 'x\\n' > d/a; printf 'y\\n' > b; chmod {mode} d; {command} > out.txt 2>&1; "
                f"echo \"st=$?\" >> out.txt; chmod -R 700 d 2>/dev/null; rm -rf d b b2", "raw")
            for mode in REFUSED_MODES for command in REFUSED_COMMANDS]


def test_programs_refused_as_they_are_refused_agree_with_the_executor_word_for_word():
    cases = _refused_cases()
    assert not certain_disagreements(cases, execute(cases))
    found = [(reply, predict(task, reply, transport)) for task, reply, transport in cases]
    decided = [(reply, p) for reply, p in found if p.certain]
    assert len(decided) >= 0.7 * len(cases), f"decided {len(decided)} of {len(cases)}"
    # no words hold the task directory's path (a prediction that holds it lists no differences,
    # and its words would go unchecked): each certain one's differences were compared above
    assert [reply for reply, p in decided if p.diff is None] == []
