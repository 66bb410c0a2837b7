"""set -a (allexport) against bash: every assignment made while it is on exports its variable
(a plain one, read, for, arithmetic, printf -v, ${x:=}, local, declare, a sourced file's),
until set +a; $-, $SHELLOPTS and $BASHOPTS follow the options that are on."""

import pytest

from utilities_diff import compare_script

pytestmark = pytest.mark.bash

CHILD = "bash -c 'echo \"[$x]\"'"
DECIDED = [
    f"set -a; x=1; {CHILD} > out", f"set -a; read x <<< 2; {CHILD} > out", f"set -a; for x in 3; do :; done; {CHILD} > out",
    f"set -a; ((x=4)); {CHILD} > out", f"set -a; printf -v x 5; {CHILD} > out", f"set -a; : ${{x:=8}}; {CHILD} > out",
    f"set -a; f() {{ local x=6; {CHILD}; }}; f > out", f"set -a; declare x=7; {CHILD} > out", f"set -a; let x=3; {CHILD} > out",
    f"set -a; readonly x=1; {CHILD} > out", f"set -a; x=1 true; {CHILD} > out",
    # on from the assignment after set -a to the one before set +a; one made before stays as it was
    f"set -a; x=1; set +a; y=2; bash -c 'echo \"[$x][$y]\"' > out", f"x=0; set -a; {CHILD} > out; x=1; {CHILD} >> out",
    f"set -o allexport; x=1; set +o allexport; {CHILD} > out",
    # what env-passing replies do: set -a around the assignments, or around a sourced file
    "set -a; MSG=$'a\\nb \"c\"'; set +a; bash -c 'printf \"%s|\" \"$MSG\"' > out",
    "set -a; echo \"M='x y'\" > e.sh; . ./e.sh; set +a; bash -c 'echo \"[$M]\"' > out; rm e.sh",
    "set -a; x=1; printenv x > out", "set -a; x=1; sh -c 'echo \"[$x]\"' > out",
    # the options bash lists
    "set -a; echo $- $SHELLOPTS > out", "set -a; set +a; echo $- $SHELLOPTS > out", "set -o allexport; set -fu; echo $- $SHELLOPTS > out",
    "set -e; set -o pipefail -o noclobber; echo $SHELLOPTS > out", "set -x; echo $SHELLOPTS > out 2>/dev/null",
    "shopt -s dotglob nullglob; shopt -u nullglob; echo $BASHOPTS > out", "set -a; shopt -s nullglob; printenv BASHOPTS SHELLOPTS > out; echo $? >> out",
]
UNDECIDED = [
    "set -a; arr=(1 2); bash -c 'echo \"[$arr]\"' > out",  # an array, which bash does not pass on
    "set -a; [[ ab =~ (a) ]]; bash -c 'echo \"[$BASH_REMATCH]\"' > out",
    "set +B; echo {a,b} > out",  # no brace expansion after: not followed
    f"set -a; x=1; export -n x; {CHILD} > out; x=2; {CHILD} >> out",  # (export -n is not followed)
]


@pytest.mark.parametrize("script", DECIDED)
def test_allexport_as_bash(script):
    assert compare_script(script, {"k": b""}, certain=True, status=True)


@pytest.mark.parametrize("script", UNDECIDED)
def test_what_is_not_followed_is_unknown(script):
    assert not compare_script(script, {"k": b""})
