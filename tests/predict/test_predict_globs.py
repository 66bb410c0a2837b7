"""Replies whose globs run under shell options (nullglob, dotglob, globstar), and the other
shapes decided with them (mv -v, sort -z, tr's octal escapes, env's C locale): predicted and
executed, decided under raw as bash runs them, and every certain prediction agrees with the
executor under the transports that rewrite them."""

from predicting import ListedReplies

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
]
TRANSPORTS = ("raw", "nested", "single", "double-nested", "ssh")


class TestGlobReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS
