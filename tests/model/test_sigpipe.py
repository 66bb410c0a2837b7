"""A writer SIGPIPE surely ends, against bash 5.2: head exits once it has its lines, grep -q
at the first line it selects, and a writer with more left to write than the pipe holds then
dies of the signal (status 141, in PIPESTATUS, and the pipeline's under pipefail). Where the
writer may have written it all by then, or may not die of it, its status stays unknown."""

import pytest

from utilities_diff import compare_script, script_model, unknown_why

pytestmark = pytest.mark.bash

FIXTURE = {"data.txt": b"a\nb\n"}

CUT_OFF = [
    "seq 100000 | head -n1 > out; echo \"${PIPESTATUS[@]}\" >> out",
    "set -o pipefail; seq 100000 | head -n1 >/dev/null || exit 1; echo never > out",
    "set -eo pipefail; seq 100000 | head -1 > out; echo never >> out",
    "printf '%s\\n' {1..20000} | head -n 3 > out; echo \"${PIPESTATUS[*]}\" >> out",
    "seq 30000 | head -c 5 > out; echo \"${PIPESTATUS[0]}\" >> out",
    "seq 30000 | head > out; echo \"${PIPESTATUS[0]}\" >> out",
    "x=$(set -o pipefail; seq 1 100000 | head -n2); echo \"$? $x\" > out",
    "seq 1 20000 | head -1 > /dev/null; echo \"${PIPESTATUS[@]}\" > out",
    "set -o pipefail; seq 100000 | grep -q 5 || exit 1; echo never > out",
    "seq 100000 | grep -qv 1; echo \"${PIPESTATUS[@]}\" > out",
    "seq 100000 | grep -qxF 20000; echo \"${PIPESTATUS[@]}\" > out",
    "seq 100000 | grep --quiet -E '^7+$'; echo \"${PIPESTATUS[@]}\" > out",
]
# the writer may have written it all before head is gone, or its reader is another: unknown
UNKNOWN = [
    "seq 15000 | head -n1 > out; echo \"${PIPESTATUS[@]}\" >> out",  # 78,894 bytes: within a pipe and a read
    "seq 100000 | grep -m1 1 > out; echo \"${PIPESTATUS[@]}\" >> out",
    "seq 30000 | grep -q 1; echo \"${PIPESTATUS[@]}\" > out",  # (grep's buffer may hold it all)
    "seq 100000 | grep -q 1 data.txt; echo \"${PIPESTATUS[@]}\" > out",  # (grep reads no pipe)
    "seq 100000 | grep -qc 1; echo \"${PIPESTATUS[@]}\" > out",
    "seq 100000 | grep -q nothing; echo \"${PIPESTATUS[@]}\" > out",  # (no line: grep reads it all, not followed)
    "seq 100000 | head -n 200000 > /dev/null; echo \"${PIPESTATUS[@]}\" > out",
    "python3 -c 'print(\"x\\n\" * 100000)' | head -n1 > out; echo \"${PIPESTATUS[@]}\" >> out",
    "seq() { command seq \"$@\"; }; seq 100000 | head -n1 > out; echo \"${PIPESTATUS[@]}\" >> out",
    # (the writer of cat's input: cat may read it all before head is gone, or die first)
    "seq 30000 | cat | head -n1 > out; echo \"${PIPESTATUS[0]}\" >> out",
]


@pytest.mark.parametrize("script", CUT_OFF)
def test_a_writer_cut_off_by_head_ends_as_in_bash(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True)


@pytest.mark.parametrize("script", UNKNOWN)
def test_a_writer_that_may_finish_is_unknown(script):
    assert unknown_why(*script_model(script, FIXTURE)) is not None
