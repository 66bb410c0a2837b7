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
    ["grep", "-L", "-l", "alpha", "f", "g"], ["grep", "-lL", "alpha", "f", "g"],  # the last of -l and -L wins
    ["grep", "-cq", "zzz", "f", "g"], ["grep", "-Lq", "zzz", "f"], ["grep", "-qL", "foo", "g"],  # -q prints nothing
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
    # egrep and fgrep: grep -E and grep -F; its messages name grep
    ["fgrep", "-c", "foo.bar", "f"], ["fgrep", "o.b", "f", "nope"], ["fgrep", "-x", "-e", "foo", "-", "g"],
    ["egrep", "-n", "fo+|al", "f"], ["egrep", "-c", "(a|b)+", "f", "g"], ["egrep", "-F", "o+", "f"], ["fgrep", "--", "-x", "f"],
    ["egrep"], ["fgrep", "-G", "fo*", "f"],
    # grep 3.8 under -i -o: a backslash before a lower-case letter that means nothing selects the
    # line and prints no match (not followed); one that means something, or under -F, prints it
    ["grep", "-io", "-e", "\\o", "f"], ["grep", "-io", "\\w", "g"], ["grep", "-ioF", "\\o", "f"], ["grep", "-o", "\\o", "f"],
    # -m: each file read for that many selected lines (-v's too); 0 ends grep before anything,
    # a negative count or one past the largest is no limit; its value is checked as it is scanned
    ["grep", "-m", "1", "o", "f", "g"], ["grep", "-m2", "-c", "o", "f", "g"], ["grep", "-m1", "-v", "a", "f"],
    ["grep", "--max-count=2", "-n", "o", "f"], ["grep", "-m", "1", "-o", "o", "f"], ["grep", "-m", " +1", "o", "f"],
    ["grep", "-m", "-1", "o", "f"], ["grep", "-m", "99999999999999999999", "o", "g"], ["grep", "-m0", "o", "f"],
    ["grep", "-m0", "-c", "[", "nope"], ["grep", "-m", "1k", "o", "f"], ["grep", "-m", "", "o", "f"],
    ["grep", "-m", "x", "-E", "-F", "o", "f"], ["grep", "-E", "-F", "-m", "x", "o", "f"], ["grep", "-m0"],
    ["grep", "-m1", "-l", "o", "f", "g"], ["grep", "-m", "1", "-q", "zzz", "f"], ["grep", "-m1", "o", "-", "f"],
    ["grep", "-m0", "-L", "o", "f"],
]
UNKNOWN = {("grep", "-l", "o", "-", "-"), ("grep", "-m0", "-L", "o", "f"), ("grep", "[:o:]\\(", "f"), ("grep", "-io", "-e", "\\o", "f")}


# -r: the folders given (or .), down their folders, past the symlinks met there; a folder's
# files come in the order its file system keeps (StdoutLines where two or more print)
RFILES = {"d": None, "d/a": b"foo\nbar foo\n", "d/s": None, "d/s/b": b"foo\n", "d/.h": b"foo hidden\n",
          "c": b"x\n", "e": None, "n": None, "n/only": b"foo once\n"}
RLINKS = {"e/link": "../d", "L": "d/a"}
R_CASES = [
    ["grep", "-r", "foo"], ["grep", "-r", "foo", "d"], ["grep", "-r", "foo", "d/"], ["grep", "-r", "foo", "./d//"],
    ["grep", "-r", "foo", "d", "e"], ["grep", "-rc", "foo", "d"], ["grep", "-rl", "foo"], ["grep", "-rL", "bar"],
    ["grep", "-rh", "foo", "d"], ["grep", "-rH", "foo", "d/a"], ["grep", "-r", "foo", "d/a"], ["grep", "-r", "foo", "L"],
    ["grep", "-rn", "foo", "."], ["grep", "-rq", "foo"], ["grep", "-r", "nope"], ["grep", "-r", "foo", "nope"],
    ["grep", "-rc", "foo", "e"], ["grep", "--recursive", "-i", "FOO", "d/s"], ["grep", "-r", "foo", "c", "d/s"],
    ["grep", "-r", "once", "."], ["grep", "-r", "foo", "n", "d/s"], ["grep", "-r", "stdin", "-"],
    ["grep", "-rv", "foo", "n"], ["grep", "-ro", "o", "d/s"],
]
R_UNKNOWN = [["grep", "-R", "foo"], ["grep", "--dereference-recursive", "foo", "d"]]


@pytest.mark.parametrize("argv", R_CASES, ids=[" ".join(c)[:60] for c in R_CASES])
def test_recursive(argv):
    assert compare(argv, RFILES, b"from stdin\n", links=RLINKS) is True


@pytest.mark.parametrize("argv", R_UNKNOWN, ids=[" ".join(c)[:60] for c in R_UNKNOWN])
def test_recursive_through_symlinks_is_unknown(argv):
    assert compare(argv, RFILES, b"", links=RLINKS) is None


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_table(argv):
    got = compare(argv, FILES, b"std in\nfoo\n")
    assert got is (None if tuple(argv) in UNKNOWN else True)


ATOM = st.sampled_from(["a", "o", ".", "o*", "[ab]", "[^a]", "^", "$", "\\.", "f", "(", ")", "|",
                        "+", "?", "{2}", "x", "A", "\\(", "\\)", "\\|", "\\t", "\\o", "\\A", "\\x",
                        "[\\t]", "[a\\]", "[^\\o]", "[:o:]", "[:"])
OPTS = st.lists(st.sampled_from(["-c", "-F", "-E", "-x", "-v", "-i", "-n", "-l", "-h", "-o", "-w", "-m1", "-m2"]),
                max_size=3)
TEXT = st.text(st.sampled_from("afo. x\nA|()bt\t"), max_size=30).map(lambda s: s.encode())


@settings(max_examples=examples(150), deadline=None)
@given(OPTS, st.lists(ATOM, max_size=4), TEXT)
def test_generated(opts, atoms, text):
    compare(["grep"] + opts + ["-e", "".join(atoms), "t", "-"], {"t": text}, b"fa\nxo\n")


# -r over generated trees: folders, files of a few lines, symlinks to both; each folder's
# files in whatever order its file system keeps (the model claims an order only where one prints)
NAMES = st.sampled_from(["a", "b", "c.txt", ".h", "s"])
R_OPTS = st.lists(st.sampled_from(["-c", "-l", "-L", "-n", "-h", "-H", "-v", "-i", "-o", "-q", "-s", "-x", "-m1"]),
                  max_size=3)
LINES = st.lists(st.sampled_from([b"foo", b"bar foo", b"x", b"", b"FOO"]), max_size=3).map(
    lambda lines: b"".join(line + b"\n" for line in lines))


@st.composite
def trees(draw):
    listing, links = {}, {}
    for depth1 in draw(st.lists(NAMES, max_size=3, unique=True)):
        if draw(st.booleans()):
            listing[depth1] = None
            for depth2 in draw(st.lists(NAMES, max_size=3, unique=True)):
                listing[f"{depth1}/{depth2}"] = draw(LINES)
        else:
            listing[depth1] = draw(LINES)
    if listing and draw(st.booleans()):
        links["ln"] = draw(st.sampled_from(sorted(listing)))
    return listing, links


@settings(max_examples=examples(120), deadline=None)
@given(trees(), R_OPTS, st.sampled_from(["foo", "o", "^$", "x"]),
       st.lists(st.sampled_from([".", "a", "s", "ln", "b/", "nope"]), max_size=2))
def test_recursive_generated(tree, opts, pattern, operands):
    listing, links = tree
    compare(["grep", "-r"] + opts + ["-e", pattern] + operands, listing, b"", links=links)


# -P: PCRE2 patterns where Python's re reads them alike (perlre), else unknown
PERL_FILES = {"p": b"value: 12\tx\nfoo_bar baz\nfoo bar\nabab\n\nv2.0 rc1\nTab\there\nAB 7\n"}
PERL_CASES = [
    ["grep", "-P", "\\d+", "p"], ["grep", "-oP", "\\d+", "p"], ["grep", "-cP", "^\\w+\\s", "p"],
    ["grep", "-P", "^value: \\d+\\t", "p"], ["grep", "-oP", "(?<=v)\\d\\.\\d", "p"], ["grep", "-P", "foo(?!_)", "p"],
    ["grep", "-oP", "a|ab", "p"], ["grep", "-oP", "^a", "p"], ["grep", "-oP", "(?<=a)b", "p"],
    ["grep", "-Pw", "foo|bar", "p"], ["grep", "-Pwo", "foo", "p"], ["grep", "-Pw", "", "p"], ["grep", "-Px", "foo.*", "p"],
    ["grep", "-Pxv", "foo bar", "p"], ["grep", "-Pi", "^ab", "p"], ["grep", "-oP", "b*", "p"], ["grep", "-P", "(ab)\\1", "p"],
    ["grep", "-oP", "\\x41\\w", "p"], ["grep", "-P", "[^\\d\\s]{3,}", "p"], ["grep", "-oP", "\\w+?\\b", "p"],
    ["grep", "-nP", "\\.", "p"], ["grep", "--perl-regexp", "-c", "", "p"],
    # re's \B never matches an empty line; PCRE's does
    ["grep", "-cP", "\\B", "p"], ["grep", "-cP", "^\\B$", "p"],
    # \K: what -o prints starts there; an empty rest prints nothing
    ["grep", "-oP", "value: \\K\\d+", "p"], ["grep", "-oP", "a\\Kb", "p"], ["grep", "-oP", "a\\K", "p"],
    ["grep", "-cP", "a\\K", "p"], ["grep", "-owP", "foo\\K bar", "p"], ["grep", "-oxP", "ab\\Kab", "p"],
    # one pattern only, and one matcher
    ["grep", "-P", "-e", "a", "-e", "b", "p"], ["grep", "-P", "a\nb", "p"], ["grep", "-E", "-P", "a", "p"],
]
PERL_UNKNOWN = [
    ["grep", "-oP", "(value): \\K\\d+\\1", "p"], ["grep", "-oP", "a\\Kb|c", "p"], ["grep", "-oP", "(a\\K)b", "p"],
    ["grep", "-P", "[[:digit:]]", "p"], ["grep", "-P", "(?i)ab", "p"],
    ["grep", "-P", "(?<n>a)", "p"], ["grep", "-P", "(a+)+$", "p"], ["grep", "-P", "a{,2}", "p"], ["grep", "-P", "(", "p"],
    ["grep", "-P", "\\Qa.\\E", "p"], ["grep", "-P", "é", "p"], ["grep", "-P", "(?=a)*", "p"],
]


@pytest.mark.parametrize("argv", PERL_CASES, ids=[" ".join(c)[:60] for c in PERL_CASES])
def test_perl_table(argv):
    assert compare(argv, PERL_FILES, b"") is True


@pytest.mark.parametrize("argv", PERL_UNKNOWN, ids=[" ".join(c)[:60] for c in PERL_UNKNOWN])
def test_perl_outside_the_subset_is_unknown(argv):
    assert compare(argv, PERL_FILES, b"") is None


def test_perl_work_is_bounded():
    """Three unbounded quantifiers over a long line: unknown before any backtracking."""
    assert compare(["grep", "-P", "a*a*a*b", "t"], {"t": b"a" * 5000 + b"\n"}, b"") is None


PERL_ATOM = st.sampled_from(["a", "b", "o", ".", "\\d", "\\w", "\\s", "\\b", "\\B", "\\D", "\\W", "[a-c]", "[^o]",
                             "[\\d.]", "^", "$", "(", ")", "(?:", "(?=", "(?!", "(?<=a)", "(?<!o)", "|", "*", "+",
                             "?", "*?", "+?", "*+", "{2}", "{1,2}", "{2,}", "\\.", "\\t", "\\1", "x", "A", "\\x41",
                             "\\K", "{,2}", "[[:alpha:]]", " ", "1"])
PERL_OPTS = st.lists(st.sampled_from(["-c", "-x", "-v", "-i", "-n", "-o", "-w", "-o"]), max_size=3)
PERL_TEXT = st.text(st.sampled_from("abo. x\nA1_\t2"), max_size=30).map(lambda s: s.encode())


@settings(max_examples=examples(150), deadline=None)
@given(PERL_OPTS, st.lists(PERL_ATOM, max_size=5), PERL_TEXT)
def test_perl_generated(opts, atoms, text):
    compare(["grep", "-P"] + opts + ["-e", "".join(atoms), "t"], {"t": text}, b"")
