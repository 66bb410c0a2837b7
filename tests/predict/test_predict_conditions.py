"""Replies that test with ``[[ ]]``: a regular expression as glibc reads it (``\\t`` is ``t``,
not a tab), and an error of the ``[[ ]]`` grammar (an outer shell that expands ``$line`` to
nothing leaves ``[[  == …``), whose status is 2 under set -e; ``=~`` alone is a word, not
the operator (``[[  =~  ]]`` is true)."""

from predicting import ListedReplies, decided_share

LOOKUP = "field-lookup/t2-dollar"
PLAIN = "field-lookup/t0-plain"
COUNT = "grep-count/t3-bracket-dollar"

# (task, reply, passes under raw)
REPLIES = [
    (LOOKUP, "re='^\\$5 fee\\t(.*)$'\nwhile IFS= read -r line; do\n  [[ $line =~ $re ]] && echo \"${BASH_REMATCH[1]}\"\n"
             "done < data.tsv > out.txt", False),
    (LOOKUP, "re=$'^\\\\$5 fee\\t(.*)$'\nwhile IFS= read -r line; do\n  if [[ $line =~ $re ]]; then "
             "echo \"${BASH_REMATCH[1]}\"; fi\ndone < data.tsv > out.txt", True),
    (PLAIN, "re='^alpha[[:space:]](.*)$'\nwhile IFS= read -r line; do\n  if [[ $line =~ $re ]]; then "
            "printf '%s\\n' \"${BASH_REMATCH[1]}\"; fi\ndone < data.tsv > out.txt", True),
    (PLAIN, "re='^alpha\\t'\nwhile IFS=$'\\t' read -r k v; do [[ \"$k\"$'\\t' =~ $re ]] && echo \"$v\"; done "
            "< data.tsv > out.txt; true", False),
    (COUNT, "set -euo pipefail\ncount=0\nwhile IFS= read -r line; do\n  if [[ $line == *'[status] $ok'* ]]; "
            "then count=$((count+1)); fi\ndone < lines.txt\necho \"$count\" > count.txt", True),
    (COUNT, "set -e\nc=0\nwhile IFS= read -r l; do [[ $l == *'[status] $ok'* ]] && c=$((c+1)); done < lines.txt\n"
            "echo $c > count.txt", True),
    # `[[ $x =~ $re ]]` after an outer shell expanded both to nothing: `[[  =~  ]]` tests the word =~
    (PLAIN, "x=; re=; [[ $x =~ $re ]] && printf 'vf24021\\n' > out.txt", True),
]
TRANSPORTS = ("raw", "nested", "single")


class TestConditions(ListedReplies):
    REPLIES, TRANSPORTS = REPLIES, TRANSPORTS


def test_condition_replies_are_decided_under_raw():
    assert decided_share(REPLIES, ("raw",)) == 1.0
