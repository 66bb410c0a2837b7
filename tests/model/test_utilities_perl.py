"""perl's model against perl 5.36: a table of substitution programs, what stays unknown, and
generated s/// programs over generated lines."""

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import compare

FILES = {"f": b"alpha one\nbeta two\nalpha three\n", "g": b"no newline alpha", "d": None, "sub/h": b"x.y\n",
         "e": b"", "p": b"src/main.c src/mainXc\nsrc\\/main.c\n"}

MODELLED = [
    ["perl", "-pi", "-e", "s/alpha/omega/g", "f"],
    ["perl", "-pe", "s/alpha/omega/", "f", "g"],
    ["perl", "-p", "-i.bak", "-e", "s/a/A/g", "f"],
    ["perl", "-pi.orig", "-e", "s/a/A/", "f", "g"],
    ["perl", "-pi", "-e", "s/(\\w+) (\\w+)/$2 $1/", "f"],
    ["perl", "-pi", "-e", "s#alpha#/x/#g", "f"],
    ["perl", "-pi", "-e", "s/\\./_/g", "sub/h"],
    ["perl", "-pi", "-e", "s/ALPHA/X/gi", "f"],
    ["perl", "-pi", "-e", "s/a.*?a/<$&>/", "f"],
    ["perl", "-pi", "-e", "s/\\s+/ /g", "f"],  # the newline is a blank too
    ["perl", "-pe", "s/^/> /", "f"],  # an empty match, once
    ["perl", "-pe", "s/$/!/", "f", "g"],  # before the line's newline
    ["perl", "-pe", "s/o+/0/g; s/e/E/", "f"],
    ["perl", "-p", "-e", "s/a/b/;", "-e", "s/b/c/", "f"],
    ["perl", "-pe", "s/(a|b)(l|e)/[$1${2}]/g", "f"],
    ["perl", "-pe", "s/(x)?alpha/[$1|$2]/", "f"],  # groups that took no part, or that are not there
    ["perl", "-pi", "-e", "s/alpha/x\\/y\\$z\\@w/", "f"],
    ["perl", "-pe", "s/a/\\m\\d\\S\\B\\Z/", "f"],  # a letter that means nothing in a string: itself
    ["perl", "-pe", "s/a(@*)l/<$1a@.b @ c@/g", "f"],  # @ before punctuation or a blank, or last, is itself
    ["perl", "-pe", "s!a!b!g", "f"],
    ["perl", "-pe", "s:a\\:b:c:g", "f"],
    # bracketing delimiters: nested pairs, escaped ones kept, blanks between the parts
    ["perl", "-pe", "s{a\\{2\\}}{X}; s{l{1}}{L}g", "f"], ["perl", "-pi", "-e", "s{alpha} {\\}}", "f"],
    ["perl", "-pe", "s{a}/[$&]/; s(e)(\\))g", "f"], ["perl", "-pe", "s[a/l][x[1]y]g", "f"], ["perl", "-pe", "s<a>\n<Z>", "f"],
    ["perl", "-pi", "-e", "s|alpha|/x\\|y/|g", "f"], ["perl", "-pe", "s|a\\|l|<$&>|g", "f"], ["perl", "-pe", "s|(a)$|$1!|", "f"],
    ["perl", "-pe", "s/[^a-z ]/#/g", "f"],
    ["perl", "-pe", "s/\\bt\\w+/T/g", "f"],
    ["perl", "-pe", "s/(\\w)\\1/D/g", "f"],
    ["perl", "-pe", "s/a{1,2}l/X/g", "f"],
    ["perl", "-pe", "s/x/y/"],  # stdin
    ["perl", "-pe", "s/x/y/", "-", "f"],
    ["perl", "-pi", "-e", "s/alpha/omega/g", "nofile", "f"],  # perl's message, then on: status 0
    ["perl", "-pi", "-e", "s/a/b/", "d", "f"],
    # once lines were read, a warning names how many ($.), across files and stdin
    ["perl", "-pi", "-e", "s/a/b/", "f", "d", "nofile", "g"], ["perl", "-pe", "s/a/b/", "g", "e", "nofile", "-", "nofile"],
    ["perl", "-pe", "s/x/y/", "e", "nofile", "f", "f", "nofile"],
    ["perl", "-pi", "-e", "s/a/b/", "e"],
    ["perl", "-e", "s/a/b/", "-p", "f"],
    ["perl", "-pi", "-e", "s/a/b/", "--", "f"],
    # an s/// the program ends inside: perl's compile error, on the line its s starts on, before any file
    ["perl", "-pi", "-e", "s/alpha", "f"], ["perl", "-pi", "-e", "s/alpha/omega", "f", "nofile"],
    ["perl", "-pe", "s/x/y/;\n\ns/a/b", "f"], ["perl", "-pe", "s/a\nb/c", "f"], ["perl", "-pe", "s#a\\#", "f"],
    ["perl", "-pe", "s/[a\\/b/", "f"],  # (perl finds the delimiter inside brackets too)
    # \Q to \E: the text stands for itself; an escaped delimiter in it is the delimiter itself
    ["perl", "-pi", "-e", "s/\\Qsrc\\/main.c\\E/build\\/out\\\\main.o/g", "p"],
    ["perl", "-pe", "s/\\Q.\\E|x/_/g", "sub/h"], ["perl", "-pe", "s/\\Qmain.c/M/g", "p"],
    ["perl", "-pe", "s#\\Qsrc/main.c\\E#X#", "p"], ["perl", "-pe", "s/(\\Q.\\E)(y)/$2$1/", "sub/h"],
    # a letter after s/// that is no modifier: a compile error (255) before any file is read or edited
    ["perl", "-pi", "-e", "s/Qsrc/main.cE/build/out\\main.o/g", "p"], ["perl", "-pi", "-e", "s/a/b/gz", "f", "nofile"],
    ["perl", "-pe", "s/a/b/; s/a/c/q; s/x", "f"], ["perl", "-pi.bak", "-e", "s/a/b/ib", "f"],
    # \x in a replacement: at most two hex digits (none is \0), or {HEX}; a byte
    ["perl", "-pe", "s/a/<\\x27>/", "f"], ["perl", "-pe", "s/a/<\\x2>/", "f"], ["perl", "-pe", "s/a/<\\x>/", "f"],
    ["perl", "-pe", "s/a/<\\x{27}>/", "f"], ["perl", "-pe", "s/a/<\\x4A5>/", "f"], ["perl", "-pe", "s/a/<\\x{}>/", "f"],
    ["perl", "-pe", "s/a/<\\xg>/", "f"], ["perl", "-pi", "-e", "s/alpha/\\x27$&\\x27 \\x80/g", "f"],
]

UNKNOWN = [
    ["perl", "-pi", "-e", "s/alpha/$HOME/", "f"],  # perl's own variables, empty here
    ["perl", "-pi", "-e", "s/alpha/user@example.com/", "f"],  # an array, empty
    ["perl", "-pe", "s/a/x@-y/", "f"], ["perl", "-pe", "s/a/x@@y/", "f"],  # @- and @@y interpolate too
    ["perl", "-pi", "-e", "s/$x/y/", "f"],
    ["perl", "-pe", "s/o*/-/g", "f"],  # empty matches under g
    ["perl", "-ip", "-e", "s/a/b/", "f"],  # -i with the suffix p: no -p
    ["perl", "-pie", "s/a/b/", "f"],  # -i with the suffix e: s/a/b/ is the program's file
    ["perl", "-ne", "print if /alpha/", "f"],
    ["perl", "-e", "print 1"],
    ["perl", "-0777", "-pe", "s/a\\nb/x/", "f"],
    ["perl", "-lpe", "s/a/b/", "f"],
    ["perl", "-pe", "s/a/\\U$&/", "f"],
    ["perl", "-pe", "s/(a)\\10/x/", "f"],  # octal 010 where fewer than ten groups
    ["perl", "-pe", "s/(a)/<$1[0]>/", "f"], ["perl", "-pe", "s/(a)/<$1{x}>/", "f"],  # elements of @1, %1
    ["perl", "-pe", "s/a/b/e", "f"],
    ["perl", "-pe", "s/[[:alpha:]]/x/", "f"],
    # an s with brackets the program ends inside: perl's messages come from -p's loop then
    ["perl", "-pe", "s{alpha", "f"], ["perl", "-pe", "s{alpha}", "f"], ["perl", "-pe", "s{alpha}{x", "f"],
    ["perl", "-pe", "s/a/b/ if /x/", "f"],
    ["perl", "-pe", "tr/a/b/", "f"],
    ["perl", "-pi", "-e", "s/a/b/"],  # -i on stdin
    ["perl", "-p", "-e", "s/a/b/", "-e", "s/c/d/", "f"],  # no ; between them: perl's syntax error
    ["perl", "-pe", "s/a/b/\ns/c/d/", "f"],
    ["perl", "-pe", "s/[a/b/", "f"],  # a bracket expression not ended: perl's regex error
    ["perl", "-pi", "-e", "s/a/b/; s/c"],  # -i's warning about stdin comes first
    ["perl", "-pe", "s/\\Q\\t\\E/x/", "f"], ["perl", "-pe", "s/\\Q$x\\E/y/", "f"],  # read, then quoted
    ["perl", "-pe", "s/a/\\x{263A}/", "f"],  # a wide character (and perl's warning)
    ["perl", "-pe", "s/a/\\x{27/", "f"],  # perl's error: the brace not closed
]


@pytest.mark.parametrize("argv", MODELLED, ids=[" ".join(a)[:60] for a in MODELLED])
def test_table(argv):
    assert compare(argv, FILES, b"stdin alpha\n") is True


@pytest.mark.parametrize("argv", UNKNOWN, ids=[" ".join(a)[:60] for a in UNKNOWN])
def test_what_is_not_modelled_is_unknown(argv):
    assert compare(argv, FILES, b"stdin alpha\n") is None


ATOM = st.sampled_from(["a", "b", "o", " ", ".", "\\.", "\\s", "\\S", "\\w", "\\W", "\\d", "[ab]", "[^a ]", "[a-c]",
                        "(a|b)", "(o+)", "^", "$", "\\b", "x", "-", "#", "\\/", "[.]", "(?:ab|a)", "A",
                        "\\Qa.\\E", "\\Q.x\\/\\E", "\\Q(o+\\E", "\\Q[a]"])
QUANTIFIER = st.sampled_from(["", "", "*", "+", "?", "*?", "+?", "{2}", "{1,2}"])
REPLACEMENT = st.sampled_from(["X", "", "$1", "<$&>", "\\n", "${1}-", "[\\$]", "\\\\", "$1$1", "y\\/z", "a@b", "@-", "@.",
                               "\\m", "\\x27", "\\x{41}"])
LINES = st.lists(st.text(st.sampled_from("abo A.-x1"), max_size=6), max_size=4).map(lambda ls: "\n".join(ls))


SUBSTITUTION = st.tuples(st.lists(st.tuples(ATOM, QUANTIFIER), min_size=1, max_size=3), REPLACEMENT,
                         st.sampled_from(["", "g", "i", "gi"])).map(
    lambda t: "s/" + "".join(a + q for a, q in t[0]) + "/" + t[1] + "/" + t[2])


@settings(max_examples=examples(120), deadline=None)
@given(st.lists(SUBSTITUTION, min_size=1, max_size=2), st.sampled_from([";", "; ", " ;\n", "\n", " ", "-e"]),
       LINES, st.booleans(), st.sampled_from([["-pe"], ["-pi", "-e"], ["-p", "-i.b", "-e"]]),
       st.sampled_from([0, 0, 0, 1, 2, 5]))
def test_generated(statements, separator, text, newline, switches, cut):
    """Substitutions one after another: parted by ;, or (perl's syntax error) by blanks only,
    in one -e or in several; the last one cut short by ``cut`` characters, as a quote
    closing early cuts a program (perl's compile error where an s/// is left open)."""
    statements[-1] = statements[-1][:len(statements[-1]) - cut] or "s"
    if separator == "-e":
        program = [x for k, s in enumerate(statements) for x in ([s] if k == 0 else ["-e", s])]
    else:
        program = [separator.join(statements)]
    data = (text + "\n" if newline and text else text).encode()
    compare(["perl", *switches, *program, "t"], {"t": data})
