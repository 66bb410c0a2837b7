"""head, tail, wc, sort, cut, tr, uniq, seq, basename, dirname, pwd, ls, expand, fold against GNU coreutils 9.1."""

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import compare

FILES = {"f": b"one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n",
         "n": b"10\n-2\n3.5\n3.50\nabc\n0\n-0\n 7\n2\n10\n-10.5\n", "nonl": b"a b\tc\nlast",
         "csv": b"a,b,c\n1,2,3\nno delim\n,,\n", "d": None, "d/x": b"", ".hidden": b"",
         "cr": b"a\rb\nc\r\nd"}

CASES = [
    ["head", "f"], ["head", "-n", "3", "f"], ["head", "-3", "f", "nonl"], ["head", "-c", "5", "f"],
    ["head", "nope"], ["head", "-n", "-2", "f"],
    # all but the last N; lines end at newlines alone (a carriage return is no end of line)
    ["head", "-n", "-3", "nonl", "f"], ["head", "-c", "-4", "f"], ["head", "-n", "-0", "nonl"], ["head", "-n", "-99", "f"],
    ["head", "-n", "1", "cr"], ["tail", "-n", "1", "cr"], ["head", "-n", "-1", "cr"],
    ["rev", "f", "nonl", "cr"], ["rev"], ["rev", "nope"],
    ["rev", "-", "f"], ["tac", "-", "f"],  # util-linux rev opens - as a name (here missing); GNU tac reads stdin
    # a directory among files: its header, then the read error; tail with a count of 0 opens nothing
    ["head", "d", "f"], ["head", "f", "d", "nonl"], ["head", "-c", "2", "d", "f"], ["head", "-n", "0", "d", "f"],
    ["head", "-q", "d", "f"], ["head", "-v", "d"], ["tail", "-n", "2", "d", "f"], ["tail", "f", "d"],
    ["tail", "-n", "0", "d", "nope", "f"], ["tail", "-c", "0", "-v", "f"], ["tail", "-c", "3", "d", "f"],
    ["tail", "-n", "+2", "f", "d", "f"],
    ["tail", "f"], ["tail", "-n", "2", "f"], ["tail", "-n", "+11", "f"], ["tail", "-1", "nonl"],
    ["tail", "-c", "3", "nonl"], ["tail", "-n", "1", "f", "nonl"], ["tail", "nope"],
    # tail reads -N or +N as its count only with one operand at most after it (or -- first):
    # otherwise -N is a digit option (an error), +N a file's name
    ["tail", "-1", "f", "nonl"], ["tail", "-2", "f", "-"], ["tail", "-1", "-q", "f"], ["tail", "+11", "f"],
    ["tail", "+2", "f", "nonl"], ["tail", "-1", "--", "f"], ["tail", "-1", "--", "f", "nonl"], ["tail", "+3"],
    ["head", "+2", "f"],
    # a count beyond uintmax_t is refused while the options are read (the last that fits works)
    ["head", "-n", "18446744073709551616", "f"], ["head", "-c", "-99999999999999999999999", "f"],
    ["tail", "-n", "+99999999999999999999999", "f"], ["head", "-n", "18446744073709551615", "f"],
    ["head", "-99999999999999999999999", "nope"],
    ["cut", "-f", "18446744073709551615", "csv"], ["cut", "-c", "1-18446744073709551614", "csv"],
    ["wc", "f"], ["wc", "-l", "f"], ["wc", "-l", "f", "nonl"], ["wc"], ["wc", "-l"],
    ["wc", "-w", "nonl", "-"], ["wc", "-c", "nope", "f"], ["wc", "-lwc", "csv"],
    ["wc", ""], ["wc", "f", "", "nonl"], ["wc", "-c", "f", ""],  # an empty name: its own message, a total still
    ["sort", "f"], ["sort", "-r", "f"], ["sort", "-n", "n"], ["sort", "-rn", "n"],
    ["sort", "-u", "n"], ["sort", "-nu", "n"], ["sort", "nonl", "csv"], ["sort", "nope"],
    ["sort", "-z", "f", "nonl"], ["sort", "-zr", "-o", "out", "f"],
    ["sort", "-k", "2", "f"],
    # keys: fields apart by blanks (each field keeps the blanks before it) or by -t's character,
    # characters within them, n, r and b of their own or the global ones, the line last
    ["sort", "-t", ",", "-k", "2", "csv"], ["sort", "-k", "2,2", "-k", "1,1r", "nonl", "csv"], ["sort", "-k1.2n", "n"],
    ["sort", "-t", ",", "-k", "3n,3", "-u", "csv"], ["sort", "-b", "-k", "1", "n"], ["sort", "-s", "-k", "1.1,1.1", "f"],
    ["sort", "-rn", "-k", "1", "n"], ["sort", "-t", "e", "-k2", "f"], ["sort", "-u", "-k", "1.1,1.1", "f"],
    ["cut", "-d", ",", "-f", "2", "csv"], ["cut", "-d,", "-f1,3", "csv"], ["cut", "-d,", "-s",
                                                                           "-f2-", "csv"],
    ["cut", "-c", "1-3", "f"], ["cut", "-d,", "-f1,3", "--output-delimiter= | ", "csv"],
    ["cut", "-d,", "-f2-", "--output-delimiter", "", "csv"], ["cut", "-c1,3", "--output-delimiter=:", "csv"], ["cut", "-f", "2", "nonl"], ["cut", "-c2", "nope"],
    ["basename", "/a/b/c.txt"], ["basename", "/a/b/c.txt", ".txt"], ["basename", "a/"],
    ["basename", "/"], ["basename", "x.txt", "x.txt"], ["basename"],
    # -a, -s SUFFIX (which implies -a), -z
    ["basename", "-s", ".txt", "a.txt", "b", "d/c.txt.txt", ".txt"], ["basename", "-a", "x/y", "z/", "/"],
    ["basename", "-z", "a/b"], ["basename", "-a"], ["basename", "-s", "", "a.txt"], ["basename", "-as", ".txt", "a.txt"],
    ["basename", "--suffix=.txt", "a.txt", "b"], ["basename", "--multiple", "a/b", "c"], ["basename", "-a", "--", "-x"],
    ["basename", "-s", ".txt", "-a", "a.txt"], ["basename", "-s", ".a", "-s", ".b", "x.a", "x.b"], ["basename", "-sz", ".c", "f.c"],
    ["dirname", "/a/b/c"], ["dirname", "c"], ["dirname", "/"], ["dirname", "a/b/", "//x"],
    ["ls"], ["ls", "-a"], ["ls", "-A"], ["ls", "d", "f"], ["ls", "nope", "f"],
    ["ls", "-l"],
    # an option ls does not have: its usage error, whatever the others (a file name with a dash)
    ["ls", "-dash.txt", "f"], ["ls", "-1", "-a.txt"], ["ls", "-e"], ["ls", "-.", "-w", "x"], ["ls", "-lQZ", "-q%"],
    ["ls", "-w", "x", "-."], ["ls", "--all", "-."],
    # another form of listing: its status and messages (its text is not followed)
    ["ls", "-la", "nope", "f"], ["ls", "-lh", "d"], ["ls", "-ld", "d", "nope"], ["ls", "-1F"], ["ls", "-lt", "f", "d"],
    ["ls", "-lR"], ["ls", "-L", "f"],
    # paste: side by side, -s one line per file, -d's delimiters in turn, each - stdin's next line
    ["paste", "-sd,", "nonl"], ["paste", "csv", "nonl", "cr"], ["paste", "-d", ":+", "csv", "nonl", "-"],
    ["paste", "-", "-"], ["paste", "-s", "-", "csv", "-"], ["paste", "-d", "\\n\\0\\\\", "csv", "f", "nonl"],
    ["paste", "-d", "", "-", "csv"], ["paste", "nonl", "nope", "csv"], ["paste", "-s", "nope", "csv"],
    ["paste", "--serial", "--delimiters", "\\tX", "f"], ["paste", "-z", "f"], ["paste", "d"], ["paste", "-d", "x\\", "f"],
]
SEQ_UNIQ = [["seq", "3"], ["seq", "2", "4"], ["seq", "1", "2", "9"], ["seq", "5", "1"], ["seq", "5", "-2", "-4"],
            ["seq", "-w", "8", "11"], ["seq", "-w", "-1", "1"], ["seq", "-w", "1", "010"], ["seq", "-w", "5", "-1", "-10"],
            ["seq", "-s,", "3"], ["seq", "-s", "", "3"], ["seq", "-s", ", ", "-w", "9", "10"], ["seq", "1", "0", "3"],
            ["seq", "abc"], ["seq"], ["seq", "1", "2", "3", "4"], ["seq", "1", "2", "3", "it's"], ["basename", "a", "b", "a\\'b"], ["basename", "x.txt", "--", ".txt"], ["basename", "a.txt", "-s"], ["seq", "-3"], ["seq", "--", "-3", "-1"],
            ["seq", "-w", "1", "100", "5"], ["seq", "007"], ["seq", "1", "x"],
            ["uniq"], ["uniq", "-c"], ["uniq", "-d"], ["uniq", "-u"], ["uniq", "-ic"], ["uniq", "-cd", "f"],
            ["uniq", "n"], ["uniq", "nope"], ["uniq", "-du", "n"], ["uniq", "nonl"], ["uniq", "d"], ["uniq", "-c", "d"],
            ["tac"], ["tac", "f", "nonl"], ["tac", "nope"], ["sort", "-o", "f", "f"], ["sort", "-o", "out", "n", "-r"],
            ["sort", "-o", "nope/x", "f"], ["sort", "-o", "d", "f"],
            # sort checks every input can be read, then creates the output, then reads
            ["sort", "d", "-o", "out"], ["sort", "d", "-o", "f"], ["sort", "d", "nope"], ["sort", "d", "-o", "nope/x"],
            ["sort", "nope", "-o", "out"], ["sort", "-", "-", "f", "-o", "out"]]
LINKS = {"lf": "f", "ld": "d", "loop": "loop", "dangling": "nope/x", "up": "../x"}
PATHS = [["readlink", "lf", "f", "dangling", "nope"], ["readlink", "-f", "lf", "ld/x", "nope", "nope/x", "dangling"],
         ["readlink", "-e", "lf", "nope", "ld"], ["readlink", "-n", "lf"], ["readlink"], ["readlink", "-f", "loop"],
         ["realpath", "lf", "ld/./x/..", "nope"], ["realpath", "nope/x", "f/x"], ["realpath", "-e", "nope", "d"],
         ["realpath", "", "."], ["realpath"], ["readlink", "-f", "."]]
TR = [["tr", "a-z", "A-Z"], ["tr", "-d", "aeiou"], ["tr", "-s", " "], ["tr", "abc", "x"],
      ["tr", "[:lower:]", "[:upper:]"], ["tr", "\\n", ","], ["tr", "-s", "a-z", "A-Z"],
      ["tr", "-c", "a", "b"],
      # tr's options end at its first operand (its getopt string starts with +)
      ["tr", "a", "-d"], ["tr", "a-c", "-s"], ["tr", "-d", "a", "-s"], ["tr", "-s", "a", "b", "-d"],
      # too few or too many sets
      ["tr"], ["tr", "a"], ["tr", "-s"], ["tr", "-ds", "a"], ["tr", "-d", "a", "b"], ["tr", "a", "b", "c"],
      ["tr", "-ds", "a", "b", "c"], ["tr", "-s", "a", "b", "it's"],
      # octal escapes: one to three digits, the third only while the value stays below 256
      ["tr", "\\n\\0", "\\0_"], ["tr", "\\141\\0142", "x"], ["tr", "-d", "\\154\\12"], ["tr", "\\400", "xy"]]
UNKNOWN = {("paste", "-z", "f"), ("paste", "d"), ("paste", "-d", "x\\", "f"), ("cut", "-c1,3", "--output-delimiter=:", "csv"), ("ls", "-lR"), ("ls", "-L", "f"), ("rev", "nope"), ("rev", "-", "f"), ("ls", "-w", "x", "-."), ("ls", "--all", "-."),
           ("tail", "-c", "3", "d", "f"), ("tail", "-n", "+2", "f", "d", "f"),
           ("tr", "-c", "a", "b"), ("tr", "\\400", "xy"),
           # cut refuses a number from 2**64 - 1 on (its message, not spelled here); the one below runs
           ("cut", "-f", "18446744073709551615", "csv")}


@pytest.mark.parametrize("argv", CASES + TR + SEQ_UNIQ, ids=[" ".join(c)[:60] for c in CASES + TR + SEQ_UNIQ])
def test_table(argv):
    got = compare(argv, FILES, b"hello  world\nabc\naab ccc\n")
    assert got is (None if tuple(argv) in UNKNOWN else True)


LINES = st.lists(st.text(st.sampled_from("ab1 -.0,9\t"), max_size=6), max_size=8)


MIXED_CASE = st.lists(st.text(st.sampled_from("aAbB_ 1,"), max_size=5), max_size=8)


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from([["sort", "-f"], ["sort", "-fu"], ["sort", "-fr"], ["sort", "-f", "-s"], ["sort", "-t,", "-k2f"],
                        ["sort", "-f", "-k1,1"], ["sort", "-k1,1f", "-u"], ["sort", "--ignore-case", "-b"]]), MIXED_CASE)
def test_sort_folding_case_generated(argv, lines):
    """-f: lower case compared as upper, the whole line last (but under -s or -u)."""
    compare(argv, FILES, "".join(line + "\n" for line in lines).encode())


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from([["sort"], ["sort", "-n"], ["sort", "-r"], ["sort", "-u"], ["sort", "-nu"],
                        ["sort", "-rn"], ["sort", "-k2"], ["sort", "-t,", "-k2n,2"], ["sort", "-k1.2,1.3r", "-u"],
                        ["sort", "-b", "-k", "2", "-s"], ["wc"], ["wc", "-l"], ["wc", "-w"], ["head", "-2"],
                        ["head", "-n", "-2"], ["head", "-c", "-3"], ["rev"], ["tail", "-2"], ["cut", "-d,", "-f2"],
                        ["cut", "-c2-3"],
                        ["tr", "a-b", "x"], ["tr", "-d", "1"], ["tr", "-s", " a"], ["uniq"], ["uniq", "-c"],
                        ["uniq", "-i", "-u"], ["uniq", "-d"], ["paste", "-s"], ["paste", "-sd", ",;"],
                        ["paste", "-", "-"], ["paste", "-d", " ", "-", "-", "-"]]),
       LINES, st.booleans())
def test_generated(argv, lines, final_newline):
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    compare(argv, {}, text.encode())


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([["sort", "-z"], ["sort", "-zr"], ["sort", "-zu"], ["sort", "-zru"],
                        ["sort", "--zero-terminated", "-r"]]),
       st.lists(st.text(st.sampled_from("ab1 -.0\n"), max_size=5), max_size=6), st.booleans())
def test_generated_zero_terminated(argv, records, final_nul):
    """sort -z: records end at NUL, and a newline is one more character of a record."""
    text = "\0".join(records) + ("\0" if final_nul and records else "")
    compare(argv, {}, text.encode())


def test_pwd_is_the_callers_cwd():
    import subprocess
    from qbcore.model.utilities.context import CommandContext
    from qbcore.model.utilities.registry import MODELS
    from qbcore.model.utilities.vfs import VirtualTree
    real = subprocess.run(["bash", "-c", "cd /usr/bin && pwd"], capture_output=True).stdout
    ctx = CommandContext(["pwd"], b"", "/usr/bin", {}, VirtualTree())
    assert MODELS["pwd"](ctx).stdout == real == b"/usr/bin\n"


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.one_of(st.integers(-30, 30).map(str), st.sampled_from(["0", "00", "-05", "012", "1.5", "+2", "x"])),
                min_size=1, max_size=3), st.booleans(), st.sampled_from([None, ",", "", " - "]))
def test_seq_generated(operands, width, separator):
    argv = ["seq"] + (["-w"] if width else []) + ([f"-s{separator}"] if separator else []) + ["--"] + operands
    compare(argv, {})


@pytest.mark.parametrize("argv", PATHS, ids=[" ".join(c)[:60] for c in PATHS])
def test_paths(argv):
    # absolute paths: the real run's root stands at /task, as the model's
    from utilities_diff import run_model, run_real
    import re
    model = run_model(argv, FILES, b"", LINKS)
    if model is None:
        return
    real = run_real(argv, FILES, b"", LINKS)
    real = (real[0], re.sub(rb"/tmp/[^/\n]+", b"/task", real[1]), real[2], real[3])
    assert model == real, f"{argv}\nmodel {model}\nreal {real}"


# expand and fold: columns as coreutils counts them (tabs, backspaces, carriage returns)
LAYOUT_FILES = {"t": b"a\tbc\tdef\n\tx\n  \ty\tz\nno newline\t", "long": b"The quick brown fox jumps over the lazy dog\n"
                b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
                "ctl": b"ab\bc\td\re\tf\n\b\tq\n"}
LAYOUT_CASES = [
    ["expand", "t"], ["expand", "-t", "4", "t"], ["expand", "-i", "t"], ["expand", "--tabs=2", "-i", "t", "ctl"],
    ["expand", "-t1", "ctl"], ["expand", "nope", "t"], ["expand"], ["fold", "long"], ["fold", "-w", "10", "long"],
    ["fold", "-sw", "10", "long", "t"], ["fold", "-w", "3", "t", "ctl"], ["fold", "-b", "-w", "4", "ctl"],
    ["fold", "-s", "-w", "1", "long"], ["fold", "--width=7", "--spaces", "long"], ["fold", "nope"], ["fold", "-w5"],
]


@pytest.mark.parametrize("argv", LAYOUT_CASES, ids=[" ".join(c)[:60] for c in LAYOUT_CASES])
def test_expand_fold(argv):
    assert compare(argv, LAYOUT_FILES, b"from\tstdin and more words\n") is True


@settings(max_examples=examples(120), deadline=None)
@given(st.binary(max_size=60).map(lambda b: bytes(c for c in b if c in b"ab \t\b\r\n")),
       st.sampled_from([["expand"], ["expand", "-i"], ["expand", "-t", "3"], ["fold", "-w", "5"],
                        ["fold", "-s", "-w", "4"], ["fold", "-b", "-w", "3"], ["fold", "-bs", "-w", "6"],
                        ["fold", "-w", "1"]]))
def test_expand_fold_generated(text, argv):
    assert compare(argv, {}, text) is True
