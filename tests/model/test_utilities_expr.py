"""GNU expr's model against expr itself (coreutils 9.1, GMP, the C locale): values, statuses,
messages, and generated expressions over its operators."""

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import compare

CASES = [
    ["expr", "1", "+", "1"], ["expr", "99999999999999999999", "+", "1"], ["expr", "5", "/", "0"],
    ["expr", "a", "+", "1"], ["expr", "3", "%", "2"], ["expr", "-3", "/", "2"], ["expr", "-3", "%", "2"],
    ["expr", "7", "/", "-2"], ["expr", "1", "=", "1"], ["expr", "a", "=", "a"], ["expr", "a", "<", "b"],
    ["expr", "10", "<", "9"], ["expr", "010", "=", "10"], ["expr", "b", ">=", "ab"], ["expr", "length", "abcd"],
    ["expr", "substr", "hello", "2", "3"], ["expr", "substr", "hello", "0", "3"], ["expr", "substr", "hello", "x", "2"],
    ["expr", "index", "hello", "lo"], ["expr", "index", "hello", "z"], ["expr", "0", "|", "5"], ["expr", "0", "&", "5"],
    ["expr", "3", "&", "0"], ["expr", "", "|", "0"], ["expr", "1", "+"], ["expr", "+", "length"],
    ["expr", "(", "1", "+", "2", ")", "*", "3"], ["expr", "1", "2"], ["expr", "--", "5"], ["expr", "00"], ["expr", "x"],
    ["expr", " 1", "+", "1"], ["expr", "+1", "+", "1"], ["expr", "1", "-", "-1"], ["expr"], ["expr", "-"],
    ["expr", "1", "|", "1", "/", "0"], ["expr", "0", "&", "a", "+", "1"], ["expr", "-0"], ["expr", "2", "*", "3", "+", "4"],
    ["expr", "1", "+", "2", "*", "3", "=", "7"], ["expr", "a", "!=", "b", "&", "1"],
]
UNKNOWN = {("expr", "abc", ":", "a"), ("expr", "match", "abc", "a"), ("expr", "--help"), ("expr", "(", "1"),
           ("expr", "it's", "=", "x"), ("expr", "9" * 4001, "+", "1"), ("expr", "9" * 3999, "*", "9" * 3999)}


@pytest.mark.parametrize("argv", CASES + [list(u) for u in sorted(UNKNOWN)], ids=lambda c: " ".join(c)[:60])
def test_table(argv):
    assert compare(argv, {}) is (None if tuple(argv) in UNKNOWN else True)


WORD = st.sampled_from(["0", "1", "-2", "10", "007", "a", "b", "", "+", "-", "*", "/", "%", "<", "=", "!=", ">", "|",
                        "&", "(", ")", "length", "substr", "index", "-0", "99999999999999999999"])


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(WORD, min_size=1, max_size=7))
def test_generated_expressions_match_expr_where_decided(words):
    compare(["expr", *words], {})
