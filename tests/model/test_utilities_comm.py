"""comm against GNU coreutils 9.1: columns, order checks and errors, and generated inputs in
and out of order."""

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import compare

FILES = {"a": b"apple\nbanana\ncherry\n", "b": b"banana\ncherry\ndate\n", "nonl": b"apple\nzebra",
         "unsorted": b"b\na\nc\n", "dup": b"a\na\nb\n", "empty": b"", "d": None, "d/x": b"",
         "z1": b"a\0c\0", "z2": b"b\0c\0"}

CASES = [
    ["comm", "a", "b"], ["comm", "-1", "a", "b"], ["comm", "-2", "a", "b"], ["comm", "-3", "a", "b"],
    ["comm", "-12", "a", "b"], ["comm", "-13", "a", "b"], ["comm", "-23", "a", "b"], ["comm", "-123", "a", "b"],
    ["comm", "a", "nonl"], ["comm", "nonl", "a"], ["comm", "dup", "a"], ["comm", "a", "empty"], ["comm", "empty", "b"],
    ["comm", "--output-delimiter=|", "a", "b"], ["comm", "--output-delimiter", "::", "-3", "b", "a"],
    ["comm", "--output-delimiter=", "a", "b"], ["comm", "--total", "a", "b"], ["comm", "--total", "-12", "a", "b"],
    ["comm", "--output-delimiter=,", "--output-delimiter=;", "a", "b"],
    ["comm", "--output-delimiter=,", "--output-delimiter=,", "a", "b"],
    ["comm", "-z", "z1", "z2"], ["comm", "-", "b"], ["comm", "a", "-"],
    # order: by default said once a line was unpairable (status 1 at the end); --check-order
    # ends comm at the first; --nocheck-order says nothing
    ["comm", "unsorted", "a"], ["comm", "unsorted", "unsorted"], ["comm", "a", "unsorted"],
    ["comm", "--check-order", "unsorted", "unsorted"], ["comm", "--check-order", "a", "unsorted"],
    ["comm", "--nocheck-order", "unsorted", "a"], ["comm", "--check-order", "--nocheck-order", "unsorted", "a"],
    ["comm", "--nocheck-order", "--check-order", "unsorted", "a"],
    # operands
    ["comm", "a"], ["comm"], ["comm", "a", "b", "c"], ["comm", "nope", "a"], ["comm", "a", "nope"],
    ["comm", "d", "a"], ["comm", "a", "d"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_table(argv):
    assert compare(argv, FILES, b"apple\ncherry\nfig\n") is True


LINES = st.lists(st.sampled_from(["a", "b", "c", "a b", "B", "", "c\t", "10", "9"]), max_size=6)


@settings(max_examples=examples(120), deadline=None)
@given(first=LINES, second=LINES, sort_first=st.booleans(), sort_second=st.booleans(),
       options=st.lists(st.sampled_from(["-1", "-2", "-3", "--check-order", "--nocheck-order", "--total"]),
                        max_size=3, unique=True),
       final_newline=st.booleans())
def test_generated(first, second, sort_first, sort_second, options, final_newline):
    """Two files, sorted (bytewise) or not, under random options: as GNU comm."""
    def text(lines, sort):
        lines = sorted(lines, key=lambda line: line.encode()) if sort else lines
        return ("\n".join(lines) + ("\n" if final_newline and lines else "")).encode()
    assert compare(["comm", *options, "x", "y"], {"x": text(first, sort_first), "y": text(second, sort_second)}) is True
