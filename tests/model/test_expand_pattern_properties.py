"""Property: bash glob patterns match as in bash, in [[ == ]], case, ${v#p} and ${v%%p}.

Patterns mix wildcards, bracket expressions (negation, ranges, classes, a
leading ``]``), quoted and escaped characters and multi-byte text, which the
C locale matches byte by byte. One bash process per batch of 100 scripts.
"""

import os

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import bashref

LONG = os.environ.get("QBCORE_LONG", "") not in ("", "0")
BATCH = 100
EXAMPLES = 100 if LONG else 10

PATTERN_PIECES = ["*", "?", "[ab]", "[!a]", "[^b]", "[a-c]", "[]a]", "[!]]", "[[:alpha:]]", "[[:digit:]]", "a", "b",
                  ".", "\\*", "'*'", '"?"', "[", "]", "-", "[a-]", "[\\]]", "é", "[é]"]
VALUE_PIECES = ["a", "b", "c", "]", "[", "-", "*", "?", ".", "1", "é", " ", "!"]

CASE = st.tuples(st.lists(st.sampled_from(PATTERN_PIECES), min_size=1, max_size=4).map("".join),
                 st.lists(st.sampled_from(VALUE_PIECES), max_size=4).map("".join))


def script_for(pattern: str, value: str) -> str:
    return (f"v={bashref.quote(value)}; [[ $v == {pattern} ]] && echo y || echo n; "
            f"case $v in {pattern}) echo Y;; *) echo N;; esac; echo \"${{v#{pattern}}}|${{v%%{pattern}}}\"")


@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(CASE, min_size=BATCH, max_size=BATCH))
def test_patterns_match_as_in_bash(tmp_path_factory, batch):
    cwd = str(tmp_path_factory.mktemp("patterns"))
    wrong = bashref.stdout_disagreements([script_for(p, v) for p, v in batch], cwd=cwd)
    assert not wrong, "model vs bash:\n" + "\n".join(f"{s!r}: {m!r} != {b!r}" for s, m, b in wrong)


def removal_and_replacement_script(pattern: str, value: str) -> str:
    return (f"v={bashref.quote(value)}; "
            f"echo \"${{v#{pattern}}}|${{v##{pattern}}}|${{v%{pattern}}}|${{v%%{pattern}}}\"; "
            f"echo \"${{v/{pattern}/<&>}}|${{v//{pattern}/<&>}}|${{v/#{pattern}/<&>}}|${{v/%{pattern}/<&>}}\"")


# bash 5.2's ${v/p/r} first works out a fixed match length for p, and gets it wrong for an
# unclosed `[` (`${v/[*/r}` replaces two characters) and a negated bracket that starts with
# `]` (`${v/[!]]/r}` replaces nothing), though ${v#p} and ${v%p} match them as patterns:
# quirks the model does not follow (yet), left out here
REPLACE_PIECES = [p for p in PATTERN_PIECES if p not in ("[!]]", "[^]]", "[")]
LONGER = st.tuples(st.lists(st.sampled_from(REPLACE_PIECES), min_size=1, max_size=6).map("".join),
                   st.lists(st.sampled_from(VALUE_PIECES), max_size=12).map("".join))


@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(LONGER, min_size=BATCH, max_size=BATCH))
def test_removal_and_replacement_as_in_bash(tmp_path_factory, batch):
    # shortest/longest prefix and suffix, first/every/anchored replacement with `&`:
    # the scans of the linear-time matcher against bash's own
    cwd = str(tmp_path_factory.mktemp("replace"))
    wrong = bashref.stdout_disagreements([removal_and_replacement_script(p, v) for p, v in batch], cwd=cwd)
    assert not wrong, "model vs bash:\n" + "\n".join(f"{s!r}: {m!r} != {b!r}" for s, m, b in wrong)


# a pattern that starts with `*` and ends with a quoted `*`: bash's quick "is there a
# match at all" test then matches the pattern itself against the whole value
STAR_QUOTED_STAR = [("*'*'", "ab*-1"), ("*'*'", "a*b*"), ("*\\*", "x*y"), ("*\\*", "x*"), ("*[*]", "x*y"),
                    ("b'*'", "ab*-1"), ("**", "a*"), ("*'*'", ""), ("*?'*'", "a*b*c*"), ("*\"*\"", "q*")]


def test_a_star_pattern_ending_in_a_quoted_star_replaces_only_a_whole_match(tmp_path):
    wrong = bashref.stdout_disagreements([removal_and_replacement_script(p, v) for p, v in STAR_QUOTED_STAR],
                                         cwd=str(tmp_path))
    assert not wrong, "model vs bash:\n" + "\n".join(f"{s!r}: {m!r} != {b!r}" for s, m, b in wrong)
