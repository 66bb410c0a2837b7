"""The awk model against the installed mawk 1.3.4: a table and generated programs."""

import os

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import compare

FILES = {"t": b"alice 30 NY\nbob 25 LA\ncarol 35 NY\n\n  dave   40   SF  \n",
         "c": b"a,b,c\n1,2,3\nx,,z\n"}


def test_the_installed_awk_is_mawk():
    assert os.path.basename(os.path.realpath("/usr/bin/awk")) == "mawk"


CASES = [
    ["awk", "{print $1}", "t"],
    ["awk", "{print $2, $1}", "t"],
    ["awk", "-F,", "{print $2}", "c"],
    ["awk", "-F", ",", "{print NF \":\" $3}", "c"],
    ["awk", "$2 > 28", "t"],
    ["awk", "$3 == \"NY\" {print NR \": \" $1}", "t"],
    ["awk", "/NY/", "t"],
    ["awk", "!/NY/ {print}", "t"],
    ["awk", "$1 ~ /^[ab]/ {print $1}", "t"],
    ["awk", "BEGIN {print \"start\"} {n++} END {print n, NR}", "t"],
    ["awk", "{s += $2} END {print s, s/NR}", "t"],
    ["awk", "-v", "x=a\\tb", "BEGIN {print x}"],
    ["awk", "-v", "min=30", "$2 >= min {print $1}", "t"],
    ["awk", "{printf \"%-6s|%5.1f|%d|%c\\n\", $1, $2, $2, $1}", "t"],
    ["awk", "BEGIN {printf \"%s %s\\n\", \"a\", 1/3}"],
    ["awk", "BEGIN {print 1/3, 2^31}"],
    ["awk", "BEGIN {OFS=\"-\"} {$1=$1; print}", "t"],
    ["awk", "{$2 = \"X\"; print}", "c"],
    ["awk", "NF {print NF}", "t"],
    ["awk", "{if ($2 > 30) print \"old\"; else print \"young\"}", "t"],
    ["awk", "NR == 2 {next} {print $1}", "t"],
    ["awk", "{print length($1), toupper($1), index($1, \"o\")}", "t"],
    ["awk", "{print $1}", "nope"],
    ["awk", "{print \"a\" \"b\", 1 2}", "c"],
    ["awk", "BEGIN {x = \"10\"; y = 9; print (x < y), (\"10\" < \"9\")}"],
    ["awk", "{print ($2 < 100)}", "t"],
    ["awk", "{for (i=1;i<=NF;i++) print $i}", "t"],
    ["awk", "{a[$1]=1}", "t"],
    ["awk", "{print > \"out\"}", "t"],
]
UNKNOWN = {0: None}
UNKNOWN_ARGS = {"BEGIN {print 1/3, 2^31}", "{for (i=1;i<=NF;i++) print $i}", "{a[$1]=1}", "{print > \"out\"}"}


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_table(argv):
    got = compare(argv, FILES, b"x y\n")
    assert got is (None if argv[1] in UNKNOWN_ARGS else True)


EXPR = st.sampled_from(["$1", "$2", "NR", "NF", "\"s\"", "1", "2.5", "$1 $2", "($2 + 1)",
                        "($1 < $2)", "($2 == 3)", "(NR % 2)", "x", "-$2", "($1 ~ /a/)"])
COND = st.sampled_from(["", "NR > 1", "$2 > 2", "/a/", "$1 == \"b\"", "NF == 2", "!/x/"])


@settings(max_examples=examples(120), deadline=None)
@given(COND, st.lists(EXPR, min_size=1, max_size=3), st.sampled_from(["", ",", ":"]),
       st.lists(st.text(st.sampled_from("ab 12,.:"), max_size=8), max_size=5),
       st.sampled_from(["", "x=3", "x=a\\nb"]))
def test_generated(cond, exprs, fs, lines, var):
    program = cond + " {print " + ", ".join(exprs) + "}"
    argv = ["awk"] + (["-F" + fs] if fs else []) + (["-v", var] if var else []) + [program, "t"]
    compare(argv, {"t": ("\n".join(lines) + "\n").encode() if lines else b""})
