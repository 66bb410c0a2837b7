"""An option left without its value at the end of the command line: getopt's message and the
utility's usage error, against the real utilities."""

import pytest
from hypothesis import given, settings, strategies as st

from utilities_diff import compare
from tests_settings import examples

FILES = {"a.txt": b"alpha\nbeta\n", "d": None}

DECIDED = [
    ["sed", "-e"], ["sed", "-i", "-e"], ["sed", "-n", "--expression"], ["sed", "-ne"],
    ["grep", "-e"], ["grep", "-c", "-F", "-e"], ["grep", "-ce"], ["grep", "--regexp"], ["grep", "-f"],
    ["cut", "-d"], ["cut", "-f"], ["cut", "-s", "-d"],
    ["head", "-n"], ["head", "-c"], ["head", "--lines"], ["tail", "-n"], ["tail", "-c"],
    ["sort", "-o"], ["sort", "-r", "a.txt", "-o"],
    ["xargs", "-n"], ["xargs", "-0", "-I"],
    ["mv", "-t"], ["mv", "a.txt", "-f", "-t"], ["mv", "-S"],
]

# an option the utility does not have: getopt's message, the same usage error
INVALID = [
    ["grep", "-c -F", "-e", "x", "a.txt"], ["grep", "-j", "x"], ["grep", "-e", "x", "-c", "-j", "a.txt"],
    ["grep", "x", "a.txt", "-%"], ["sed", "-c", "s/a/b/", "a.txt"], ["sed", "-n -e", "p"],
    ["sed", "p", "-i", "-s", "a.txt", "-j"],
    ["mv", "-q", "a.txt", "b"], ["rm", "-k", "a.txt"], ["cat", "-l", "a.txt"], ["cat", "a.txt", "-n", "-q"],
    ["cat", "-nl", "a.txt"],
    # before a long option, whose value may be the next word, the scan has judged what it met
    ["grep", "-j", "--regexp", "x", "a.txt"], ["sed", "-c", "--expression", "p", "a.txt"],
    # -i takes the rest of its word as a backup suffix: here "e", and the next word is the script
    ["sed", "-ie", "s/a/b/", "a.txt"], ["sed", "-nie", "p", "a.txt"],
]

# left unknown: an earlier value may fail first (sed compiles each -e while it scans, grep
# checks -A's), a long option spelled in part (below)
UNKNOWN = [["grep", "--regexp", "x", "-j", "a.txt"], ["sed", "-e", "s/a", "-e"], ["head", "-n", "x", "-c"], ["grep", "--regex"], ["sed", "-e", "s/a", "-c"],
           ["grep", "-A", "x", "-j"], ["grep", "-E", "-F", "-j"], ["grep", "-A3", "-j"], ["sed", "-i", "-e", "s/a/b/", "-k", "a.txt"],
           # a long option spelled in part: grep's --c is ambiguous (--context --color --colour
           # --count), its --cou is --count; only the utility's whole list of long names tells
           ["grep", "--c", "a", "a.txt"], ["grep", "--cou", "a", "a.txt"], ["sort", "--rev", "a.txt"],
           ["head", "--li=1", "a.txt"], ["mkdir", "--par", "d/e"]]


@pytest.mark.parametrize("argv", DECIDED, ids=[" ".join(c) for c in DECIDED])
def test_decided(argv):
    assert compare(argv, FILES, b"in\n") is True


@pytest.mark.parametrize("argv", INVALID, ids=[" ".join(c) for c in INVALID])
def test_invalid(argv):
    assert compare(argv, FILES, b"in\n") is True


@pytest.mark.parametrize("argv", UNKNOWN, ids=[" ".join(c) for c in UNKNOWN])
def test_unknown(argv):
    assert compare(argv, FILES, b"in\n") is None


# each utility: flags it models, and its options that take a value
OPTIONS = {"sed": ("-n", "-E", "-s", "-e", "-i", "-c", "-ni"), "grep": ("-c", "-F", "-v", "-x", "-e", "-f", "-j", "-cj"),
           "cut": ("-s", "-d", "-f"), "head": ("-q", "-n", "-c"), "tail": ("-q", "-n", "-c"),
           "sort": ("-r", "-n", "-u", "-o"), "xargs": ("-0", "-r", "-n", "-I"), "mv": ("-f", "-n", "-t")}
WORDS = st.sampled_from(["a.txt", "d", "1", "-", "--", "s/a/b/", "x"])


@st.composite
def lines(draw):
    name = draw(st.sampled_from(sorted(OPTIONS)))
    words = draw(st.lists(st.one_of(st.sampled_from(OPTIONS[name]), WORDS), max_size=4))
    return [name, *words, draw(st.sampled_from(OPTIONS[name]))]


@settings(max_examples=examples(60), deadline=None)
@given(lines())
def test_generated(argv):
    assert compare(argv, FILES, b"in\n") is not False
