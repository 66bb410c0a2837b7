"""find's model against GNU find 4.9. Entries are compared as sets per output: real find lists a
directory in file-system order, the model in name order (documented in docs/utilities.md)."""

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import run_model, run_real

FILES = {"a.txt": b"", "b.log": b"", "e.txt\\": b"", "d": None, "d/c.txt": b"", "d/e": None, "d/e/f.txt": b"",
         ".hid": b"", "D": None}
LINKS = {"l": "d", "dangling": "nowhere"}


MODES = {"a.txt": 0o755, "b.log": 0o600, "d/c.txt": 0o4711, "d/e": 0o700, "d/e/f.txt": 0o640, "D": 0o1777}


def check(argv, modes=None):
    model = run_model(argv, FILES, b"", LINKS, modes)
    if model is None:
        return None
    real = run_real(argv, FILES, b"", LINKS, modes)
    sep = b"\0" if "-print0" in argv or any(a.endswith("\\0") for a in argv) else b"\n"
    norm = lambda r: (r[0], sorted(r[1].split(sep)), r[2], r[3])
    assert norm(model) == norm(real), f"{argv}\nmodel {model}\nreal {real}"
    return True


CASES = [
    ["find"], ["find", "."], ["find", "d"], ["find", "d/"], ["find", ".", "-name", "*.txt"],
    ["find", ".", "-type", "f"], ["find", ".", "-type", "d"], ["find", ".", "-type", "l"],
    ["find", ".", "-maxdepth", "1"], ["find", ".", "-maxdepth", "1", "-type", "f"],
    ["find", ".", "-mindepth", "2"], ["find", ".", "-name", "*.txt", "-print0"],
    ["find", ".", "!", "-name", "*.txt"], ["find", ".", "-not", "-type", "d"],
    ["find", ".", "-iname", "d"], ["find", "nope", "d"], ["find", ".", "-type", "x"],
    ["find", ".", "-name", "[ab]*"], ["find", "a.txt", "d/e"], ["find", "l"],
    ["find", ".", "-name", "*.txt", "-exec", "rm", "{}", ";"], ["find", ".", "-delete"],
    ["find", ".", "-name", "a*", "-o", "-name", "b*"],
    # a glob the shell expanded: a path after the expression, with find's hint when it exists
    ["find", "d", "-type", "f", "-name", "a.txt", "b.log"], ["find", "d", "-name", "x", "nope"],
    ["find", ".", "-maxdepth", "1", "a.txt"], ["find", ".", "!", "-name", "x", "d"],
    ["find", ".", "-print0", "l"], ["find", ".", "-type", "f", "dangling"],
    ["find", ".", "-na!me", "x"], ["find", "d", "-t*ype", "f"], ["find", ".", "-name", "x", "-foo"], ["find", "-x", "d"],
    ["find", "--no-such-option-zz"],
    # a backslash makes the next character of a -name pattern literal
    ["find", ".", "-name", "*.\\txt"], ["find", ".", "-name", "*\\.log"], ["find", ".", "-name", "\\*.txt"],
    ["find", ".", "-iname", "\\A.TX\\T"], ["find", ".", "-name", "*.txt\\"],
    # parentheses and the comma are operators, not unknown predicates
    ["find", ".", "(", "-name", "a.txt", ")"], ["find", ".", "-name", "a.txt", ",", "-print"],
    # -type takes letters apart by commas, each once
    ["find", ".", "-type", "f,l"], ["find", ".", "!", "-type", "d,l"], ["find", ".", "-type", "f,"],
    ["find", ".", "-type", ",f"], ["find", ".", "-type", "fd"], ["find", ".", "-type", "f,d,f"],
    ["find", ".", "-type", ""], ["find", ".", "-type", "foo"],
    # a `;` right after -exec is refused; no `;` at all is a missing argument
    ["find", ".", "-exec", ";"], ["find", ".", "-exec", "+"], ["find", ".", "-exec", "echo", "{}", "x", "+"],
    # -printf: %p %P %f %h %d %y and %%, \n \t \\, one line a record (gnulib's base and dir names)
    ["find", ".", "-printf", "[%p|%P|%f|%h|%d|%y]\\n"], ["find", "d/", "-printf", "%P|%p\\n"],
    ["find", "./d", "-name", "*.txt", "-printf", "%P\\n"], ["find", "l", "d/e", "-printf", "%y%% %f\\t%d\\n"],
    ["find", ".", "-printf"], ["find", ".", "-printf", "%p"], ["find", ".", "-printf", "%p\\0"],
    ["find", ".", "-type", "f", "-printf", "%f|%d\\0"], ["find", ".", "-printf", "\\0%p"], ["find", ".", "-printf", "%p\\012"],
    ["find", ".", "-printf", "%p\\0\\n"],
    ["find", ".", "-printf", "%s\\n"], ["find", ".", "-printf", "%-5p\\n"], ["find", ".", "-printf", "x\\q\\n"],
    ["find", "d/", "-printf", "%h\\n"], ["find", ".", "-print0", "-printf", "%p\\n"],
]
UNKNOWN = {("find", ".", "-delete"),
           ("find", ".", "-name", "a*", "-o", "-name", "b*"),
           ("find", ".", "(", "-name", "a.txt", ")"), ("find", ".", "-name", "a.txt", ",", "-print"),
           # records that are not one line each (find's order is not known), directives and escapes not followed
           ("find", ".", "-printf", "%p"), ("find", ".", "-printf", "%s\\n"), ("find", ".", "-printf", "\\0%p"),
           ("find", ".", "-printf", "%p\\012"), ("find", ".", "-printf", "%p\\0\\n"),
           ("find", ".", "-printf", "%-5p\\n"), ("find", ".", "-printf", "x\\q\\n"),
           ("find", "d/", "-printf", "%h\\n"),  # measured: d/ gives d, where tree/ gives .
           ("find", ".", "-print0", "-printf", "%p\\n")}


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_table(argv):
    assert check(argv) is (None if tuple(argv) in UNKNOWN else True)


PERM_CASES = [
    ["find", ".", "-perm", "644"], ["find", ".", "-perm", "-u+x"], ["find", ".", "-perm", "-u+x", "-type", "f"],
    ["find", ".", "-perm", "/g+w,o+w"], ["find", ".", "-perm", "/111"], ["find", ".", "-perm", "-4000"],
    ["find", ".", "-perm", "u=rwx,g=rx,o=rx"], ["find", ".", "!", "-perm", "-u=r"], ["find", ".", "-perm", "-1000"],
    ["find", ".", "-perm", "0777"], ["find", ".", "-perm", "-a+X"], ["find", ".", "-perm", "/u+s,o+t"],
    ["find", "d", "-perm", "700"], ["find", ".", "-perm"], ["find", ".", "-perm", "-g=u"],
]
PERM_UNKNOWN = [["find", ".", "-perm", "xyz"], ["find", ".", "-perm", "/000"], ["find", ".", "-perm", "+x"],
                ["find", ".", "-perm", "-u+7"]]


@pytest.mark.parametrize("argv", PERM_CASES, ids=[" ".join(c)[:60] for c in PERM_CASES])
def test_perm(argv):
    assert check(argv, MODES) is True


@pytest.mark.parametrize("argv", PERM_UNKNOWN, ids=[" ".join(c)[:60] for c in PERM_UNKNOWN])
def test_perm_not_followed_says_so(argv):
    assert check(argv, MODES) is None


PERM_MODE = st.one_of(st.integers(0, 0o7777).map(lambda n: format(n, "o")),
                      st.builds(lambda who, op, perms: who + op + perms, st.sampled_from(["", "u", "go", "a"]),
                                st.sampled_from("+="), st.text(st.sampled_from("rwxXst"), min_size=1, max_size=3)))


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from(["", "-", "/"]), PERM_MODE, st.booleans())
def test_perm_generated(prefix, mode, negated):
    check(["find", "."] + (["!"] if negated else []) + ["-perm", prefix + mode], MODES)


PIECE = st.sampled_from([["-name", "*.txt"], ["-name", "?"], ["-type", "f"], ["-type", "d"],
                         ["-type", "l"], ["-type", "f,d"], ["!"], ["-print"], ["-print0"], ["-iname", "D*"],
                         ["-name", "[a-c]*"], ["-maxdepth", "1"], ["-mindepth", "1"],
                         ["a.txt"], ["nope"], ["d"], ["-nam"], ["-ty*pe", "f"], ["-name", "*\\.t?t"],
                         ["-name", "\\*"], ["("], [")"], ["-printf", "%P %y\\n"], ["-printf", "<%f|%h|%d>\\n"]])


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(st.sampled_from([".", "d", "d/e", "l", "a.txt", "nope"]), max_size=2),
       st.lists(PIECE, max_size=4))
def test_generated(starts, pieces):
    argv = ["find"] + starts + [x for p in pieces for x in p]
    if "-print" in argv and "-print0" in argv:
        return  # mixed separators do not split into comparable sets
    check(argv)


EXEC_FILES = {"a.txt": b"alpha\n", "b.txt": b"beta\n", "d": None, "d/x.txt": b"x alpha\n", "d/e": None,
              "c.log": b"alpha beta\n"}


def check_exec(argv):
    model = run_model(argv, EXEC_FILES, b"")
    if model is None:
        return None
    real = run_real(argv, EXEC_FILES, b"")
    norm = lambda r: (r[0], sorted(r[1].split(b"\n")), sorted(r[2].split(b"\n")), r[3])
    assert norm(model) == norm(real), f"{argv}\nmodel {model}\nreal {real}"
    return True


EXEC_CASES = [
    ["find", ".", "-name", "*.txt", "-exec", "grep", "-l", "alpha", "{}", ";"],
    ["find", ".", "-name", "*.txt", "-exec", "grep", "-c", "alpha", "{}", "+"],
    ["find", ".", "-type", "f", "-exec", "grep", "-q", "alpha", "{}", ";", "-print"],
    ["find", ".", "-type", "f", "-exec", "false", ";", "-print"], ["find", ".", "-name", "*.txt", "-exec", "false", "{}", "+"],
    ["find", ".", "-exec"], ["find", ".", "-exec", "echo", "{}"], ["find", ".", "-name", "*.txt", "-exec", "rm", "{}", ";"],
    ["find", ".", "-name", "*.txt", "-exec", "mv", "{}", "{}.bak", ";"], ["find", "d", "-type", "f", "-exec", "cat", "{}", "+"],
    ["find", ".", "-name", "*.log", "-exec", "sed", "-i", "s/alpha/A/", "{}", "+"],
    ["find", ".", "-type", "f", "-name", "*.txt", "-exec", "cp", "{}", "{}.copy", ";"],
    ["find", ".", "-maxdepth", "1", "-name", "*.txt", "-exec", "basename", "{}", ".txt", ";"],
    ["find", ".", "-name", "*.none", "-exec", "rm", "{}", "+"], ["find", ".", "-name", "a.txt", "-exec", "echo", "[{}]", "x{}y", ";"],
    ["find", ".", "-name", "*.txt", "-exec", "chmod", "600", "{}", "+"],
    # a new name in a folder the walk has read whole is never met (fts reads a folder at once)
    ["find", ".", "-maxdepth", "1", "-type", "f", "-exec", "mv", "{}", "{}.txt", ";"],
    ["find", ".", "-name", "a.txt", "-exec", "cp", "{}", "./copy.txt", ";"],
    ["find", "d", "-name", "*.txt", "-exec", "cp", "{}", "d/e.txt", ";"],
    # -delete, on entries that are no folders; coreutils' printf
    ["find", ".", "-name", "*.txt", "-delete"], ["find", ".", "-type", "f", "-name", "a*", "-delete"],
    ["find", "d", "-type", "f", "-delete"], ["find", ".", "-type", "l", "-delete"],
    ["find", ".", "-name", "*.none", "-delete"],
    ["find", ".", "-name", "*.txt", "-exec", "printf", "%s\\n", "{}", "+"],
    ["find", ".", "-name", "a.txt", "-exec", "printf", "[%s]", "{}", ";"],
]
# the walk could meet what a run changes, the runs collide, or the command has no model
EXEC_UNKNOWN = [["find", ".", "-name", "*.txt", "-exec", "mv", "{}", "d", ";"],
                ["find", ".", "-type", "d", "-exec", "touch", "{}/new", ";"],
                ["find", ".", "-name", "*.txt", "-exec", "cp", "{}", "all", ";"],
                # into a folder the walk has yet to read
                ["find", ".", "-maxdepth", "1", "-name", "*.txt", "-exec", "cp", "{}", "d/", ";"],
                ["find", ".", "-exec", "sh", "-c", "echo {}", ";"], ["find", ".", "-execdir", "echo", "{}", ";"],
                # one line of paths whose order is the file system's
                ["find", "d", "-exec", "echo", "{}", "+"],
                # -delete on a folder, or beside another action (it turns on -depth)
                ["find", "d", "-delete"], ["find", ".", "-name", "*.txt", "-delete", "-print"],
                ["find", ".", "-name", "*.txt", "-exec", "printf", "%q\\n", "{}", "+"]]


@pytest.mark.parametrize("argv", EXEC_CASES, ids=[" ".join(c)[:60] for c in EXEC_CASES])
def test_exec(argv):
    assert check_exec(argv) is True


@pytest.mark.parametrize("argv", EXEC_UNKNOWN, ids=[" ".join(c)[:60] for c in EXEC_UNKNOWN])
def test_exec_the_model_does_not_follow_is_unknown(argv):
    assert check_exec(argv) is None


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from([["-name", "*.txt"], ["-type", "f"], ["-type", "d"], ["!"], ["-maxdepth", "1"],
                                 ["-print"]]), max_size=2),
       st.sampled_from([["grep", "-l", "alpha", "{}", ";"], ["grep", "-c", "a", "{}", "+"], ["cat", "{}", ";"],
                        ["rm", "-f", "{}", "+"], ["mv", "{}", "{}.old", ";"], ["wc", "-l", "{}", "+"],
                        ["touch", "{}", "+"], ["echo", "{}", ";"], ["mkdir", "-p", "{}/sub", ";"], ["ls", "{}", ";"]]),
       st.lists(st.sampled_from([["-print"], ["-name", "*.txt"], ["!", "-type", "d"]]), max_size=1))
def test_exec_generated(before, command, after):
    argv = ["find", "."] + [x for p in before for x in p] + ["-exec"] + command + [x for p in after for x in p]
    check_exec(argv)
