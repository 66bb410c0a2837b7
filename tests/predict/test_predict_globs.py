"""Replies whose globs run under shell options (nullglob, dotglob, globstar, extglob), and the
other shapes decided with them (mv -v, sort -z, tr's octal escapes, env's C locale, find's
lines through grep or cut before sort): predicted and executed, decided under raw as bash runs
them, and every certain prediction agrees with the executor under the transports that rewrite
them."""

import pytest

from predicting import ListedReplies
from qbcore.predict import predict

LOOP = 'for f in *.txt; do mv -- "$f" "done_$f"; done'
STAR = 'for f in tree/**/*.log; do [ -f "$f" ] && printf \'%s\\n\' "$f"; done | LC_ALL=C sort > list.txt'
# (task, reply, passes under raw)
REPLIES = [
    ("bulk-rename/t1-spaces", "shopt -s nullglob; " + LOOP.replace("mv --", "mv -v --"), True),
    ("bulk-rename/t1-spaces", "shopt -s nullglob; " + LOOP.replace("*.txt", "*.none"), False),
    ("bulk-rename/t1-spaces", "shopt -s dotglob; " + LOOP, True),
    ("bulk-rename/t2-dash-apostrophe", "shopt -s nullglob; " + LOOP, True),
    ("bulk-rename/t2-dash-apostrophe", "shopt -s nullglob; " + LOOP.replace("mv --", "mv"), False),
    ("find-glob/t1-cwd-trap", "shopt -s globstar; printf '%s\\n' tree/**/*.log | LC_ALL=C sort > list.txt", True),
    ("find-glob/t1-cwd-trap", "shopt -s globstar; " + STAR, True),
    ("find-glob/t1-cwd-trap", "shopt -s globstar dotglob; " + STAR, True),
    ("find-glob/t0-plain", "shopt -s globstar; " + STAR, True),
    ("find-glob/t2-spaces", "shopt -s globstar nullglob; " + STAR, True),
    ("find-glob/t1-cwd-trap", "find tree -type f -name '*.log' -print0 | LC_ALL=C sort -z | tr '\\0' '\\n' > list.txt",
     True),
    ("find-glob/t1-cwd-trap", "find tree -name '*.log' -type f | env LC_ALL=C sort > list.txt", True),
    # find's lines, in no known order, through grep or cut before sort
    ("find-glob/t3-multi-trap", "find tree -type f | grep '\\.log$' | LC_ALL=C sort > list.txt", True),
    ("find-glob/t3-multi-trap", "find tree -type f | grep -v '\\.txt$' | LC_ALL=C sort > list.txt", False),
    ("find-glob/t1-cwd-trap", "find tree -type f -name '*.log' | cut -d/ -f1- | LC_ALL=C sort > list.txt", True),
    # extglob: a glob without a group matches as without it
    ("bulk-rename/t1-spaces", "shopt -s extglob; " + LOOP, True),
    ("bulk-rename/t1-spaces", "shopt -s extglob\n" + LOOP, True),
    ("find-glob/t0-plain", "shopt -s extglob; find tree -type f -name *.log | sort > list.txt", True),
    # a group on the line that turns extglob on: still a syntax error there
    ("bulk-rename/t0-plain", "shopt -s extglob; for f in !(done_*).txt; do mv -- \"$f\" \"done_$f\"; done", False),
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "ssh")


class TestGlobReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS


@pytest.mark.parametrize("reply", [
    # bash reads the second line under extglob: `!(done_*).txt` is a glob there, and passes
    "shopt -s extglob\nfor f in !(done_*).txt; do mv -- \"$f\" \"done_$f\"; done",
    "shopt -s extglob\n!(true) && printf 'hello world\\n' > out.txt",
])
def test_lines_read_under_extglob_that_may_open_a_group_are_unknown(reply):
    task = "bulk-rename/t0-plain" if "for f" in reply else "write-file/t0-plain"
    found = predict(task, reply, "raw")
    assert not found.certain and "extglob" in found.why, found
