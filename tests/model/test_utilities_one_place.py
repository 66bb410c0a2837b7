"""A utility's messages among its output, both written to one place (`> f 2>&1`, `2>&1 |`).

Where a model keeps the order the utility writes in (CommandResult.merged: gnulib's
``error`` flushes stdout before each message), the two read together as the real utility's
do; where it does not (cat's formatting, which writes at the end), it says so."""

import pytest

from utilities_diff import _model_result, compare

FILES = {"a.txt": b"alpha\nbeta\n", "b.txt": b"bravo\n", "d": None, "d/in": b"inside\n", "e": None}

# each writes output, then a message, then output again
CASES = [
    ["cat", "a.txt", "nope", "b.txt"], ["cat", "nope", "a.txt", "d", "-"], ["tee", "new", "no/x", "d"],
    ["grep", "-H", "a", "a.txt", "nope", "b.txt"], ["grep", "a", "d", "a.txt", "e", "b.txt"],
    ["grep", "-c", "a", "b.txt", "nope", "a.txt"], ["grep", "-l", "a", "a.txt", "nope", "b.txt"],
    ["head", "-n1", "a.txt", "nope", "b.txt"], ["head", "-c2", "d", "a.txt"], ["tail", "-n1", "a.txt", "nope", "b.txt"],
    ["mv", "-v", "a.txt", "nope", "b.txt", "d"], ["rm", "-v", "a.txt", "nope", "b.txt"], ["rm", "-rv", "d", "nope", "e"],
    ["rmdir", "-v", "e", "nope", "d"], ["rmdir", "-pv", "d/in", "e"],
]


@pytest.mark.parametrize("argv", CASES, ids=" ".join)
def test_messages_among_output(argv):
    found = _model_result(argv, FILES, b"in\n")
    assert found is not None and found[0].merged is not None, "the model follows this one's order"
    assert compare(argv, FILES, b"in\n")


def test_formatting_cat_leaves_the_order_unknown():
    (result, _) = _model_result(["cat", "-n", "a.txt", "nope"], FILES)
    assert result.stderr and result.merged is None
