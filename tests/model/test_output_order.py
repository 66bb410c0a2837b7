"""Bytes of one command that meet in one file or pipe, against bash: a program's messages and
its output (the messages come at once, the output as its buffer fills), and the messages of
xargs and find -exec about children SIGPIPE ended when their reader stopped reading."""

import pytest
from utilities_diff import compare_script

import bashref

FIXTURE = {"d/f": b"one\n", "n": b"1\n2\n3\n4\n5\n6\n7\n8\n"}


@pytest.mark.bash
def test_a_program_s_message_comes_before_its_output(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f").write_bytes(b"")
    bashref.run("ls d nowhere > o 2>&1", cwd=str(tmp_path))
    assert (tmp_path / "o").read_bytes().startswith(b"ls: cannot access 'nowhere'")


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "ls d nowhere > o 2>&1", "ls d nowhere 2>&1 | cat > o", "{ cat -n d/f nowhere; } > o 2>&1",
    # the reader stops: a child still writing dies of SIGPIPE, which xargs and find report
    "xargs -n1 < n 2> e | head -2 > o", "{ xargs -n1 < n | head -2; } > o 2>&1",
    "set -o pipefail; xargs -n1 < n | head -2 > o; echo $? > s", "find . -name n -exec cat {} + 2> e | head -1 > o",
])
def test_what_is_not_followed_is_unknown(script):
    assert not compare_script(script, FIXTURE)


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "ls d nowhere > o 2> e", "xargs -n1 < n | cat > o 2> e", "xargs -n1 < n | sort -r > o",
    # (the redirections after the last command are its own: xargs's stderr is the harness's)
    "xargs -n1 < n | head -2 > o 2> e",
])
def test_apart_they_are_followed(script):
    assert compare_script(script, FIXTURE, certain=True, status=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    # models that keep the order their utility writes in (CommandResult.merged)
    "{ cat d/f nowhere n; } > o 2>&1", "cat nowhere d/f 2>&1 | tail -1 > o", "grep -H 1 n nowhere d/f > o 2>&1",
    "head -n1 n nowhere d/f 2>&1 | cat > o", "o=$(tee d/g no/x < n 2>&1); echo \"$o\" > o",
])
def test_in_one_place_where_the_model_keeps_the_order(script):
    assert compare_script(script, FIXTURE, certain=True, status=True)
