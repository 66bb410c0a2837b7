"""The fast path of simulate never disagrees with the general path, and both engines agree."""

import importlib
import shlex
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probing import HOSTILE_CHARS, HOSTILE_TOKENS, LONG

from qbcore.harness.quickpath import dq_words_pure, shlex_words_pure
from qbcore.harness.simulate import simulate, simulate_general

# plain shell words as well as hostile pieces: the fast path is about the common case
PIECES = HOSTILE_CHARS + HOSTILE_TOKENS + ["echo ", "sed -i ", "'s/a/b/' ", "grep -c ", "x.txt", "-n ",
                                           "\\\"", "\\$", "\\\\", "\"a b\"", "'it'\\''s'", " > out.txt",
                                           # JSON string escapes and what a strict parser refuses
                                           "\\n", "\\u00e9", "\\ud800", "\\u0000", "\\/", "\t", "\r", "é", "-"]
replies = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)
EXAMPLES = 20000 if LONG else 2000


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(replies, st.sampled_from(["nested", "single", "double-nested", "ssh", "ssh-argv", "raw", "json", "script",
                                  "stdin", "json-naive"]))
def test_fast_path_results_equal_the_general_path(reply, transport):
    fast = simulate(reply, transport, cwd="/nonexistent/qbcore")
    general = simulate_general(reply, transport, cwd="/nonexistent/qbcore")
    if fast.exact:
        assert fast == general, (reply, transport)


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(replies, st.sampled_from(["ssh-argv", "json-naive"]))
def test_harness_side_fast_paths_equal_the_general_path_exactly(reply, transport):
    # these fast paths decode what the harness itself does: never a guess, exact or not
    assert _outcome(simulate, reply, transport) == _outcome(simulate_general, reply, transport)


def _outcome(function, reply, transport):
    try:
        return function(reply, transport)
    except ValueError as exc:  # a NUL or a lone surrogate no harness passes on
        return str(exc)


def _shlex_split(reply):
    try:
        return shlex.split(reply)
    except ValueError:
        return None


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(st.text(alphabet=" \t\r\n'\"\\ab$`;#é\0", max_size=14) | replies)
def test_shlex_words_are_those_of_shlex_split(reply):
    assert shlex_words_pure(reply) == _shlex_split(reply)
    assert _compiled("shlex_words")(reply) == _shlex_split(reply)


def test_typical_replies_take_the_fast_path(monkeypatch):
    module = sys.modules["qbcore.harness.simulate"]  # the package attribute is the function

    monkeypatch.setattr(module, "simulate_general", lambda *a, **k: pytest.fail("took the general path"))
    for reply in ['echo "hello world" > out.txt', "sed -i 's/alpha/ALPHA/' notes.txt", "grep -c 'x' f"]:
        assert simulate(reply, "nested").exact
        assert simulate(reply, "ssh-argv").exact
    assert simulate('printf \\"%s\\n\\" x', "json-naive").inner_script == 'printf "%s\n" x'


def _compiled(name="dq_words"):
    try:
        return getattr(importlib.import_module("qbcore.harness._quickpath"), name)
    except ImportError as exc:
        from conftest import REQUIRE_EXTENSIONS
        if REQUIRE_EXTENSIONS:
            pytest.fail(f"compiled fast path required but not importable: {exc}")
        pytest.skip(f"compiled fast path not built: {exc}")


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(replies)
def test_compiled_and_pure_fast_paths_agree(reply):
    assert _compiled()(reply) == dq_words_pure(reply)


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(replies | st.text(alphabet=" -+'a;|*\n\"\\", max_size=8))
def test_compiled_and_pure_double_nested_quick_readings_agree(reply):
    from qbcore.harness.simulate import _quick_double_nested
    compiled, pure = _compiled("double_nested")(reply), _quick_double_nested(reply)
    # (under the pure engine the two are different classes: compared by their fields)
    assert (compiled and compiled.as_dict()) == (pure and pure.as_dict())


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


@pytest.mark.parametrize("fields", [
    dict(kind="command", text="b c", argv=("b", "c"), certain=False),
    dict(kind="file", text="x > f", path="/w/f", layer=2),
    dict(kind="substitution", text="$(pwd)"),
])
def test_compiled_and_pure_outer_effects_agree(fields):
    from qbcore.harness.simulate import PureOuterEffect
    compiled, pure = _compiled("OuterEffect")(**fields), PureOuterEffect(**fields)
    assert repr(compiled) == repr(pure)[len("Pure"):] and compiled.as_dict() == pure.as_dict()
    assert compiled == _compiled("OuterEffect")(**fields) and hash(compiled) == hash(pure)
    assert compiled != _compiled("OuterEffect")(**dict(fields, layer=3))
    with pytest.raises(AttributeError):
        compiled.kind = "file"  # as frozen as the dataclass
