"""grep's model against GNU grep 3.8: a table and generated patterns/options."""

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import compare

FILES = {"f": b"alpha\nBeta\ngamma delta\nfoo.bar\n\nfoobar\nlast", "g": b"one\ntwo\nfoo\n",
         "d": None}

CASES = [
    ["grep", "foo", "f"],
    # a backslash inside brackets is itself (POSIX)
    ["grep", "-c", "[\\s]", "f"], ["grep", "-n", "[a\\]", "f", "g"], ["grep", "-E", "[\\]]", "f"], ["grep", "[\\-a]", "f"],
    # the first - reads stdin to its end: a second finds nothing
    ["grep", "-v", "x", "-", "f", "-"], ["grep", "-c", "o", "-", "-"], ["grep", "-l", "o", "-", "-"],
    ["grep", "-c", "foo", "f", "g"],
    ["grep", "-F", "foo.bar", "f"],
    ["grep", "foo.bar", "f"],
    ["grep", "-x", "foo", "f", "g"],
    ["grep", "-v", "a", "f"],
    ["grep", "-i", "beta", "f"],
    ["grep", "-e", "one", "-e", "two", "g"],
    ["grep", "--", "-x", "f"],
    ["grep", "-E", "fo+|al", "f"],
    ["grep", "fo\\+\\|al", "f"],
    ["grep", "-q", "foo", "f"],
    ["grep", "-q", "zzz", "f"],
    ["grep", "foo", "nope", "f"],
    ["grep", "-s", "foo", "nope", "f"],
    ["grep", "-q", "foo", "nope", "f"],
    ["grep", "foo", "d"],
    ["grep", "-n", "a", "f"],
    ["grep", "-l", "foo", "f", "g", "-"],
    ["grep", "-L", "alpha", "f", "g"], ["grep", "-L", "alpha", "f"], ["grep", "-L", "zzz", "f"],
    # glibc's word anchors
    ["grep", "\\<foo", "f"], ["grep", "-c", "foo\\>", "f"], ["grep", "-E", "\\<(bar|one)\\>", "f", "g"], ["grep", "a\\>", "f"],
    ["grep", "-Lv", "alpha", "f"], ["grep", "-L", "alpha", "f", "nope"],
    ["grep", "-h", "o", "f", "g"],
    ["grep", "-H", "o", "g"],
    ["grep", "-c", "", "f"],
    ["grep", "^$", "f"],
    ["grep", "-x", "-F", "foo", "g"],
    ["grep", "-iF", "ALPHA", "f"],
    ["grep", "in"],
    ["grep"],
    ["grep", "-E", "(a|b)+", "f"],
    ["grep", "-w", "foo", "f"],
    # a backslash before a letter the regex gives no meaning: the letter (a tab and a newline are \t, \n in sed only)
    ["grep", "-c", "f\\o\\O", "f"], ["grep", "-ci", "F\\O\\o", "f"], ["grep", "-E", "x\\t|\\n", "f"],
    ["grep", "-n", "\\e\\q", "g"],
    # dfa refuses a bracket spelled like a class name, [:alpha:], after glibc took the patterns
    ["grep", "[:alpha:]", "f"], ["grep", "-E", "x|[^:o\\:]", "f"], ["grep", "-e", "a", "-e", "[:o:]", "f", "d"],
    ["grep", "-c", "[:a-z:]", "f"], ["grep", "[::]", "f"], ["grep", "[:o]", "f"], ["grep", "[:[:alpha:]:]", "f"],
    ["grep", "-F", "[:o:]", "f"], ["grep", "[:o:]\\(", "f"],
    # -o: each match of a selected line, leftmost-longest over the patterns; empty ones print nothing
    ["grep", "-o", "o*", "f"], ["grep", "-on", "-e", "o", "-e", "oo", "f", "g"], ["grep", "-oiF", "A", "f"],
    ["grep", "-ox", "foo", "g"], ["grep", "-ov", "a", "f"], ["grep", "-oc", "o", "f"], ["grep", "-oE", "[a-z]+", "f"],
    ["grep", "--only-matching", "-H", "a.", "f"], ["grep", "-o", "", "f"],
    # -w: a stretch the pattern matches whole, with no word character just outside it (an empty one too)
    ["grep", "-nw", "foo", "f"], ["grep", "-w", "o*", "f"], ["grep", "-cw", "", "f"], ["grep", "-wF", "bar", "f"],
    ["grep", "-wi", "ALPHA", "f"], ["grep", "-nwx", "foo", "g"], ["grep", "-wv", "a.*", "f"], ["grep", "-wE", "fo+|be", "f"],
]
UNKNOWN = {("grep", "-l", "o", "-", "-"), ("grep", "[:o:]\\(", "f")}


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_table(argv):
    got = compare(argv, FILES, b"std in\nfoo\n")
    assert got is (None if tuple(argv) in UNKNOWN else True)


ATOM = st.sampled_from(["a", "o", ".", "o*", "[ab]", "[^a]", "^", "$", "\\.", "f", "(", ")", "|",
                        "+", "?", "{2}", "x", "A", "\\(", "\\)", "\\|", "\\t", "\\o", "\\A", "\\x",
                        "[\\t]", "[a\\]", "[^\\o]", "[:o:]", "[:"])
OPTS = st.lists(st.sampled_from(["-c", "-F", "-E", "-x", "-v", "-i", "-n", "-l", "-h", "-o", "-w"]),
                max_size=3)
TEXT = st.text(st.sampled_from("afo. x\nA|()bt\t"), max_size=30).map(lambda s: s.encode())


@settings(max_examples=examples(150), deadline=None)
@given(OPTS, st.lists(ATOM, max_size=4), TEXT)
def test_generated(opts, atoms, text):
    compare(["grep"] + opts + ["-e", "".join(atoms), "t", "-"], {"t": text}, b"fa\nxo\n")
