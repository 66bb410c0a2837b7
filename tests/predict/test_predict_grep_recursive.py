"""Replies that search folders with grep -r, predicted and executed: the lines it prints are
known, their order only where one file of each folder given prints (a folder keeps its own
order), which is enough for xargs, sort, a count or a status; a file the search may find its
output in is not followed."""

from predicting import ListedReplies
from qbcore.predict import predict

SED = "sed-replace/t0-plain"
FIND = "find-glob/t0-plain"
ORACLE = "sed -i 's/alpha/omega/g' data.txt"

# (task, reply, passes under raw)
REPLIES = [
    (SED, "grep -rl alpha . | xargs sed -i 's/alpha/omega/g'", True),
    (SED, "grep -rl alpha | xargs -r sed -i 's/alpha/omega/g'", True),
    (SED, f"grep -r alpha . > /dev/null && {ORACLE}", True),
    (SED, f"grep -rq alpha && {ORACLE}", True),
    (SED, f"grep -rn alpha > /tmp/hits; {ORACLE}", True),
    (SED, f"grep -r zzz . || {ORACLE}", True),
    (FIND, "grep -rl '' tree | grep '\\.log$' | LC_ALL=C sort > list.txt", True),
    (FIND, "grep -rL zzz tree/sub > list.txt", False),
    (FIND, "grep -rc '' tree > /tmp/c; find tree -type f -name '*.log' | LC_ALL=C sort > list.txt", True),
    ("grep-count/t0-plain", "grep -rc -F TODO lines.txt > count.txt", True),
    # -m: the count stops there
    ("grep-count/t0-plain", "grep -m 100 -c TODO lines.txt > count.txt", True),
    ("grep-count/t0-plain", "grep -rc -m2 TODO lines.txt > count.txt", False),
    ("hostile-filenames/t0-plain", "grep -rq . && mv -- notes.txt archive.txt", True),
    ("bulk-rename/t0-plain", "grep -rL nothing . | grep '\\.txt$' | while read -r f; do f=${f#./}; "
                             "mv -- \"$f\" \"done_$f\"; done", True),
]
TRANSPORTS = ("raw", "nested", "single", "script")


class TestRecursiveGrepReplies(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_a_search_that_may_find_its_own_output_is_unknown():
    for reply in (f"grep -r alpha . > hits.txt; {ORACLE}; rm hits.txt", f"grep -rc alpha > n.txt; {ORACLE}; rm n.txt"):
        found = predict(SED, reply, "raw")
        assert not found.certain and "where its output goes" in found.why, found
