"""A utility that reads the file its stdout goes to, against bash.

GNU cat writes as it reads, so such a file may hold cat's own bytes by the time cat opens it;
cat then refuses it ("input file is output file", status 1) and goes on. It refuses it when
the file holds bytes past its start: what it held, what cat wrote since, its messages too
where its stderr goes there. Other utilities hold their output in stdio's buffer (4 KiB): they
read the file as it was, unless their output filled that buffer first."""

import pytest
from utilities_diff import compare_script

FIXTURE = {"a": b"alpha\n", "o": b"old\n", "big": b"x" * 5000 + b"\n"}


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "cat a o > o; echo $? > s", "cat o > o; echo $? > s", "cat a o >> o; echo $? > s", "cat o >> o; echo $? > s",
    "{ cat a; cat o; } > o; echo $? > s", "cat nope o > o 2>&1; echo $? > s", "cat nope o > o 2>/dev/null; echo $? > s",
    "cat o a o > o 2> e; echo $? > s", "ln -s o l; cat a l > o; echo $? > s", "cat a > o < o; echo $? > s",
    "head -n1 a o > o; echo $? > s", "sort a o > o; echo $? > s",
])
def test_decided_as_bash_does(script):
    assert compare_script(script, FIXTURE, certain=True, status=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "cat a - < o > o", "cat -n a o > o",  # stdin's offset; formatting cat's own buffer
    "cat o a 2> o",  # its messages, in the file it reads
    "head -c 4500 big a o > o",  # stdio's buffer full before it reads o
])
def test_left_unknown(script):
    assert not compare_script(script, FIXTURE)
