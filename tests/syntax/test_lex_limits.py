"""Large and deeply nested input: no recursion, no crash, time linear in the size.

Linearity is checked by lexing the same shape at two sizes (×8) and bounding
the ratio of the best CPU times generously (×24, where quadratic work would
give ×64), never by an absolute time.
"""

import os
import sys
import time

import pytest

from qbcore import ShellSyntaxError

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")
DEPTH = 100_000

NESTINGS = {
    # name: (command, opening, closing): opening and closing repeated DEPTH times around "x"
    "command substitution": ("echo ", "$(", ")"),
    "quoted command substitution": ("echo ", '"$(', ')"'),
    "parameter default": ("echo ", "${x:-", "}"),
    "arithmetic": ("echo ", "$((", "))"),
    "process substitution": ("cat ", "<(", ")"),
    "subshell": ("", "( ", " )"),
}


def nested(name, depth):
    command, opening, closing = NESTINGS[name]
    return command + opening * depth + "x" + closing * depth


FACTOR = 8


def best_time(function, argument, repeat=3):
    # CPU time of this process: other processes on a shared machine add less noise
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function(argument)
        best = min(best, time.process_time() - start)
    return best


def assert_linear(lexer, make, small):
    # warm up, then compare a size with FACTOR times that size; the best of three such
    # ratios, as a burst of other work on a shared machine can spoil one (a quadratic
    # lexer shows about FACTOR**2 in every one)
    lexer.lex(make(small))
    ratio = float("inf")
    for _ in range(3):
        ratio = min(ratio, best_time(lexer.lex, make(FACTOR * small)) / max(best_time(lexer.lex, make(small), 5), 1e-4))
        if ratio < 3 * FACTOR:
            break
    assert ratio < 3 * FACTOR, f"lexing {FACTOR}x the input took {ratio:.1f}x the time"


def fast(lexer):
    return lexer.__name__.endswith("_fastquote")


@pytest.mark.parametrize("name", list(NESTINGS))
def test_deep_nesting_is_lexed_without_recursion(lexer, name):
    limit = sys.getrecursionlimit()
    tokens = lexer.lex(nested(name, DEPTH))
    assert sys.getrecursionlimit() == limit
    assert len(tokens) >= 2 * DEPTH
    assert tokens[-1][2] == len(nested(name, DEPTH))


@pytest.mark.parametrize("name", list(NESTINGS))
def test_deep_nesting_left_open_is_an_error_not_a_crash(lexer, name):
    command, opening, _ = NESTINGS[name]
    with pytest.raises(ShellSyntaxError):
        lexer.lex(command + opening * DEPTH + "x")


def test_backticks_inside_escaped_backticks(lexer):
    # each level doubles the backslashes: `a \`b \\\`c\\\` b\` a`
    source = "x"
    for level in range(12):
        escaped = source.replace("\\", "\\\\").replace("`", "\\`")
        source = f"`echo {escaped}`"
    tokens = lexer.lex("echo " + source)
    assert [kind for kind, _, _ in tokens] == ["lit", "backtick-open", "backtick-body", "backtick-close"]
    flat = "echo `" + "\\`" * DEPTH + "`"
    assert [kind for kind, _, _ in lexer.lex(flat)] == ["lit", "backtick-open", "backtick-body", "backtick-close"]


@pytest.mark.parametrize("name", ["command substitution", "quoted command substitution", "parameter default"])
def test_deep_nesting_time_is_linear(lexer, name):
    assert_linear(lexer, lambda depth: nested(name, depth), 20_000 if fast(lexer) else 2_500)


SCRIPT = (
    '#!/bin/bash\n'
    'set -euo pipefail\n'
    'for f in "$@"; do\n'
    '  if [[ -f $f && $f == *.txt ]]; then\n'
    '    n=$(wc -l < "$f") # count\n'
    '    echo "${f##*/}: $((n + 1)) lines" >> "${LOG:-/tmp/log}"\n'
    "  fi\n"
    "done\n"
    "cat <<EOF | sed -e 's/a/b/' 2>&1\n"
    "report $(date) for $USER\n"
    "EOF\n"
    "case $1 in start|stop) run \"$1\";; *) echo usage >&2;; esac\n"
)


def big_script(size):
    return SCRIPT * (size // len(SCRIPT) + 1)


def test_ten_megabytes(lexer):
    size = 10_000_000 if (fast(lexer) or LONG) else 2_000_000
    source = big_script(size)
    tokens = lexer.lex(source)
    assert tokens[-1] == ("newline", len(source) - 1, len(source))
    assert len(tokens) > size // 10


def test_script_time_is_linear(lexer):
    assert_linear(lexer, big_script, 200_000 if fast(lexer) else 25_000)


def test_many_heredocs_time_is_linear(lexer):
    def heredocs(count):
        return "cat <<A <<'B'\n$x\nA\ny\nB\n" * count
    assert_linear(lexer, heredocs, 4_000 if fast(lexer) else 500)


def test_nested_dollar_dparen_that_are_not_arithmetic_are_reread_once(lexer):
    # `$((a) )` is `$( (a) )`: each `$((` found not to be arithmetic is
    # re-read once as a command substitution. Nested, this re-reading is
    # quadratic (docs/tokens.md, known differences), never exponential.
    def source(depth):
        return "echo " + "$((" * depth + "a) )" + " ) )" * (depth - 1)
    for depth in (1, 2, 3):
        tokens = lexer.lex(source(depth))
        assert [kind for kind, _, _ in tokens].count("cmdsub-open") == depth
    small = 100 if fast(lexer) else 25
    lexer.lex(source(small))
    ratio = best_time(lexer.lex, source(4 * small)) / max(best_time(lexer.lex, source(small), 5), 1e-4)
    assert ratio < 3 * 16, f"4x the nesting took {ratio:.1f}x the time"
