"""sleep against coreutils sleep: short intervals and their sums, and its usage errors; what
strtod reads beyond plain decimals, options and long sleeps are unknown."""

import pytest

from utilities_diff import compare

CASES = [["sleep", "0"], ["sleep", "0.01"], ["sleep", ".01s", "0"], ["sleep", "0.001m"], ["sleep", "x"],
         ["sleep", "x", "y"], ["sleep"], ["sleep", "1x"], ["sleep", ""], ["sleep", "."], ["sleep", "--", "0"],
         ["sleep", "0", "1q"], ["sleep", "0.0"]]
UNKNOWN = [["sleep", "-1"], ["sleep", "inf"], ["sleep", "1e-3"], ["sleep", "5"], ["sleep", " 1"], ["sleep", "0x1"],
           ["sleep", "+0"], ["sleep", "1d"]]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_sleep(argv):
    assert compare(argv) is True


@pytest.mark.parametrize("argv", UNKNOWN, ids=[" ".join(c) for c in UNKNOWN])
def test_sleep_not_followed_says_so(argv):
    assert compare(argv) is None
