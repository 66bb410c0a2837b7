"""A bash started inside a command substitution writes into it, against bash: `$(bash -c …)`,
`$(bash FILE)`, `$(bash <<< …)`, and a reply wrapped in a markdown fence, whose
```` ```bash ```` opens a backtick substitution that runs `bash` (reading an empty stdin) and
then the reply's lines: their output is the substitution's text."""

import pytest

from utilities_diff import compare_script

pytestmark = pytest.mark.bash

DECIDED = ["```bash\necho hello world > out.txt\n```", "```\necho hello world > out.txt\n```", "```bash\nprintf 'x\\n'\n```",
           "x=$(bash -c 'echo hi; echo there'); echo \"[$x]\" > out", "echo \"$(bash -c 'printf a; exit 3')\" $? > out",
           "x=$(bash -c 'echo err >&2'); echo \"[$x]\" > out 2>/dev/null", "`bash -c 'echo echo hi'` > out",
           "x=$(bash <<< 'echo in'); echo \"$x\" > out", "printf 'echo f\\n' > s.sh; x=$(bash s.sh); echo \"$x\" > out; rm s.sh",
           "x=$(bash -c 'cat' < /dev/null); echo \"[$x]\" > out", "x=$(echo pre; bash -c 'echo mid'; echo post); echo \"$x\" > out"]
# its stderr into the substitution too, or a job it leaves running: not followed
UNDECIDED = ["x=$(bash -c 'echo hi >&2' 2>&1); echo \"[$x]\" > out", "x=$(bash -c 'echo a; sleep 0 & echo b'); echo \"$x\" > out"]


@pytest.mark.parametrize("script", DECIDED)
def test_its_output_is_the_substitutions(script):
    assert compare_script(script, {"k": b""}, certain=True, status=True)


@pytest.mark.parametrize("script", UNDECIDED)
def test_what_is_not_followed_is_unknown(script):
    assert not compare_script(script, {"k": b""})
