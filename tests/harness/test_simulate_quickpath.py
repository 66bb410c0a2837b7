"""The fast path of simulate never disagrees with the general path, and both engines agree."""

import importlib
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probing import HOSTILE_CHARS, HOSTILE_TOKENS, LONG

from qbcore.harness.quickpath import dq_words_pure
from qbcore.harness.simulate import simulate, simulate_general

# plain shell words as well as hostile pieces: the fast path is about the common case
PIECES = HOSTILE_CHARS + HOSTILE_TOKENS + ["echo ", "sed -i ", "'s/a/b/' ", "grep -c ", "x.txt", "-n ",
                                           "\\\"", "\\$", "\\\\", "\"a b\"", "'it'\\''s'", " > out.txt"]
replies = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)
EXAMPLES = 20000 if LONG else 2000


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(replies, st.sampled_from(["nested", "single", "ssh", "ssh-argv", "raw", "json", "script", "stdin"]))
def test_fast_path_results_equal_the_general_path(reply, transport):
    fast = simulate(reply, transport, cwd="/nonexistent/qbcore")
    general = simulate_general(reply, transport, cwd="/nonexistent/qbcore")
    if fast.exact:
        assert fast == general, (reply, transport)


def test_typical_replies_take_the_fast_path(monkeypatch):
    module = sys.modules["qbcore.harness.simulate"]  # the package attribute is the function

    monkeypatch.setattr(module, "simulate_general", lambda *a, **k: pytest.fail("took the general path"))
    for reply in ['echo "hello world" > out.txt', "sed -i 's/alpha/ALPHA/' notes.txt", "grep -c 'x' f"]:
        assert simulate(reply, "nested").exact


def _compiled():
    try:
        return importlib.import_module("qbcore.harness._quickpath").dq_words
    except ImportError as exc:
        from conftest import REQUIRE_EXTENSIONS
        if REQUIRE_EXTENSIONS:
            pytest.fail(f"compiled fast path required but not importable: {exc}")
        pytest.skip(f"compiled fast path not built: {exc}")


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(replies)
def test_compiled_and_pure_fast_paths_agree(reply):
    assert _compiled()(reply) == dq_words_pure(reply)


@pytest.mark.parametrize("reply, words", [
    ('echo "a b" x', ["echo a", "b x"]),
    ('a\\"b', ['a"b']),
    ('x"\\', ['x"']),                # the escape takes the harness's closing quote
    ('" \\x "', ["", "x", ""]),
    ("$ and $'", ["$ and $'"]),      # a `$` that starts nothing stays
    ('"$x"', None), ("`x`", None), ("a\0", None), ("x\" 'a\0b'", None), ('x" *', None), ('x" ~', None), ('x"; y', None), ("x\" 'y", None),
])
def test_words_of_the_outer_double_quotes(reply, words):
    assert dq_words_pure(reply) == words
