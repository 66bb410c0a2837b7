"""A descriptor opened on a file (`< f`) reads what the file holds when it reads, against bash.

Where the file changed in place after it was opened (truncated, appended, rewritten by `>`),
the reader meets other bytes than those the file held at the open; where it was replaced (rm,
mv, sed -i), its old ones. Neither is followed: the reader's bytes are unknown. tee empties its
files before it reads: one that is its own stdin is not followed either."""

import pytest
from utilities_diff import compare_script

FIXTURE = {"f": b"one\ntwo\n", "g": b"other\n"}


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "{ : > f; cat > x; } < f", "{ echo three >> f; cat > x; } < f", "{ echo new > f; cat > x; } < f",
    "{ read -r l; echo more >> f; cat > x; } < f", "tee f < f > x", "{ rm f; cat > x; } < f",
])
def test_a_file_changed_since_it_was_opened_is_not_followed(script):
    assert not compare_script(script, FIXTURE)


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "{ cat > x; } < f", "{ : > g; cat > x; } < f", "{ read -r l; echo \"$l\" > g; cat > x; } < f",
    "while read -r l; do echo \"[$l]\" >> x; done < f", "tee g < f > x", "sort < f > f",
])
def test_a_file_as_it_was_opened_is_followed(script):
    assert compare_script(script, FIXTURE, certain=True, status=True)
