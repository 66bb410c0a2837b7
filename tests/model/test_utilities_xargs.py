"""xargs against GNU findutils' xargs: the items, the runs, and what each run did."""

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from utilities_diff import ENV, compare

FILES = {"a.txt": b"alpha\n", "b.txt": b"beta\n", "sp ace.txt": b"s\n", "d": None, "d/x.txt": b"x\n"}

CASES = [
    # coreutils' printf, where it prints what bash's does
    (["xargs", "printf", "x"], b""), (["xargs", "printf", "%s|%5s\\n"], b"a b c\n"),
    (["xargs", "-0", "printf", "[%s]\\t%b\\n"], b"a b\0x\\ty\0"),
    (["xargs"], b"a b\n c\td\n"), (["xargs", "echo", "["], b"a b c"), (["xargs", "-n1", "echo", "<"], b"a b\nc\n"),
    (["xargs", "-n", "2"], b"1 2 3 4 5\n"), (["xargs", "-I{}", "echo", "[{}]"], b"a b\n c\td\n\n"),
    (["xargs", "-I", "X", "echo", "<X>", "X"], b"  a b  \n"), (["xargs", "-n1", "echo"], b"'a b' \"c d\" e\\ f\n"),
    (["xargs", "echo"], b"'a\nb'\n"), (["xargs", "echo"], b""), (["xargs", "-r", "echo", "x"], b""),
    (["xargs", "-I{}", "echo", "x"], b""), (["xargs", "-0", "-n1", "echo", "["], b"a\0\0b\0"),
    (["xargs", "-d,", "-n1", "echo", "<"], b"a,,b,"), (["xargs", "--null", "echo"], b"a b\0c"),
    (["xargs", "cat"], b"a.txt b.txt\n"), (["xargs", "cat"], b"a.txt nope\n"), (["xargs", "rm"], b"a.txt\nb.txt\n"),
    (["xargs", "-I{}", "cp", "{}", "{}.bak"], b"a.txt\nb.txt\n"), (["xargs", "-I{}", "mv", "{}", "d/"], b"sp ace.txt\n"),
    (["xargs", "-0", "rm", "-f"], b"sp ace.txt\0a.txt\0"), (["xargs", "wc", "-l"], b"a.txt b.txt"),
    (["xargs", "grep", "-l", "alpha"], b"a.txt b.txt\n"), (["xargs", "-n1", "basename"], b"d/x.txt /a/b\n"),
    (["xargs", "echo", "<"], b"'' x\n"), (["xargs", "echo", "<"], b"x ''\n''\n"), (["xargs", "echo", "<"], b"x ''"),
    (["xargs", "-I{}", "echo", "[{}]"], b" ''  \n''\n"), (["xargs", "-n1", "echo", "<"], b"a\\\nb c\\"),
    (["xargs", "echo", "-e", "a\\tb\\0101"], b"x"), (["xargs", "mkdir", "-p"], b"n1 n2/n3\n"), (["xargs", "touch"], b"t1 't 2'\n"), (["xargs", "--", "echo", "-n"], b"x\n"),
    # a run whose output is not known (ls -l's form): xargs's output is not, its status and files are
    (["xargs", "ls", "-l"], b"a.txt d\n"), (["xargs", "-n1", "ls", "-l"], b"a.txt nope\n"),
    (["xargs", "-0", "ls", "-l"], b"sp ace.txt\0"),
    # -d's escapes that name one character
    (["xargs", "-d", "\\n", "printf", "[%s]"], b"a b\nc\td\\e\n"), (["xargs", "-d", "\\t", "printf", "[%s]"], b"a\tb c\n"),
    (["xargs", "-d", "\\0", "printf", "[%s]"], b"a b\0c\n"), (["xargs", "-d", "\\\\", "printf", "[%s]"], b"a\\b"),
    (["xargs", "-d", "\\n", "-I{}", "printf", "<%s>", "{}"], b"it's a.txt\n b\n"), (["xargs", "-d", "\\", "echo"], b"a\\b"),
]
UNKNOWN = [(["xargs", "-P", "2", "echo"], b"a"), (["xargs", "-t", "echo"], b"a"), (["xargs", "nosuch"], b"a"),
           (["xargs", "sh", "-c", "exit 3"], b"x"), (["xargs", "-L", "1", "echo"], b"a"),
           # coreutils' printf where it differs from bash's: %q, and items a format takes none of
           (["xargs", "printf", "%q\\n"], b"a b\n"), (["xargs", "printf", "x"], b"a b"),
           (["xargs", "printf", "%d\\n"], b"1 x"),  # (a message worded otherwise)
           (["xargs", "-n", "1", "-I", "Q", "echo", "Q"], b"a\nb\n"),
           # xargs checks each value as it scans: a first -n of -0 fails though the second is fine
           (["xargs", "-n", "-0", "-n", "1", "echo"], b"a"),
           # an argument ends at a NUL when xargs runs the command (unless -0 made the NULs ends)
           (["xargs", "-d", ",", "echo"], b"a\0b,c"),
           # -d's octal and hex escapes, and the specifications it refuses (its message)
           (["xargs", "-d", "\\x41", "echo"], b"aAb"), (["xargs", "-d", "\\101", "echo"], b"aAb"),
           (["xargs", "-d", "ab", "echo"], b"a"), (["xargs", "-d", "\\q", "echo"], b"a"),
           # coreutils' echo, not bash's: \u as it is, and its help
           (["xargs", "echo", "-e", "\\u0041"], b"a"), (["xargs", "echo", "--help"], b"")]


@pytest.mark.parametrize("argv, stdin", CASES, ids=[" ".join(c[0])[:50] for c in CASES])
def test_table(argv, stdin):
    assert compare(argv, FILES, stdin) is True


@pytest.mark.parametrize("argv, stdin", UNKNOWN, ids=[" ".join(c[0])[:50] for c in UNKNOWN])
def test_what_is_not_modelled_is_unknown(argv, stdin):
    assert compare(argv, FILES, stdin) is None


ITEMS = st.text(st.sampled_from("ab '\"\\\n\t,x"), max_size=12)


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from([["xargs"], ["xargs", "-n1"], ["xargs", "-n", "2", "echo", "-"], ["xargs", "-I{}", "echo", "<{}>"],
                        ["xargs", "-r"], ["xargs", "-d,", "echo"], ["xargs", "-0", "-n1"], ["xargs", "-I", "x", "echo", "x", "x"]]),
       ITEMS)
def test_generated(argv, stdin):
    data = stdin.replace(",", "\0") if "-0" in argv else stdin
    compare(argv, FILES, data.encode())


def test_lines_in_no_known_order_are_run_both_ways_round():
    from qbcore.model.utilities.context import CommandContext
    from qbcore.model.utilities.registry import MODELS
    from qbcore.model.utilities.vfs import VirtualTree

    def run(argv):
        tree = VirtualTree.from_listing({"/task": None, "/task/a": b"x\n", "/task/b": b"y\n"})
        with bashref.host_facts():
            return MODELS["xargs"](CommandContext(argv, b"a\nb\n", "/task", dict(ENV), tree,
                                                  stdin_unordered=True)), tree

    removed, tree = run(["xargs", "rm"])
    assert removed.unknown is None and not tree.exists("/task/a") and not tree.exists("/task/b")
    each, _ = run(["xargs", "-n1", "echo"])
    assert each.unknown is None and each.stdout_unordered and sorted(each.stdout.split()) == [b"a", b"b"]
    joined, _ = run(["xargs", "echo"])  # one line whose words come in find's order
    assert joined.unknown is not None
    appended, _ = run(["xargs", "-I{}", "cp", "{}", "c"])  # the last one copied wins
    assert appended.unknown is not None
