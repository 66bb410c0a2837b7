"""The operands and options of bash's own exit, return, shift, break, continue, unset, cd and
printf, against bash: the numbers bash's legal_number takes (blanks, a sign, `--` first),
the words it refuses with a message, and where each message lands."""

import pytest
from utilities_diff import compare_script

DECIDED = [
    # a status or count: blanks and a sign around the digits; `--` ends the options
    'f() { return " 5 "; }; f; echo "$?" > s', 'f() { return -- -1; }; f; echo "$?" > s',
    '( exit +300 ); echo "$?" > s', 'set -- a b c; shift -- " 2"; echo "$? $1" > s',
    'for i in 1 2 3; do for j in 1 2; do break " 2"; done; done; echo "$i" > s',
    # a word that is no number: bash's message, then its status (exit 2, return 2, shift 1)
    '{ exit x\n} 2> e', '{ ( exit 0x10 )\n} 2> e; echo "$?" > s', 'set -- a b; { shift x\n} 2> e; echo "$? $#" > s',
    'f() { return x; echo no > n; }; f 2> /dev/null; echo "$?" > s',
    # unset: its options, a name that is no identifier, a function a name leaves
    '{ unset -z a\n} 2> e; echo "$?" > s', '{ unset -fv a\n} 2> e; echo "$?" > s', '{ unset -v 2x b\n} 2> e; echo "$?" > s',
    'unset 1a b; echo "$?" > s', 'unset -f 2x; echo "$?" > s', 'unset -- -x; echo "$?" > s',
    'f() { echo hi; }; unset f; f 2> /dev/null; echo "$?" > s', 'g() { echo G; }; g=1; unset g; g > s',
    'x=1; unset -v x; echo "${x-unset}" > s',
    # cd: two operands are refused (bash 5.2), the rest goes on; -L and -P; `--` before `-`
    'mkdir d g; { cd d g\n} 2> e; echo "$?" > s', 'mkdir d; cd -L -P d; echo in > f',
    'mkdir d; cd d; cd ..; cd -- - > /dev/null; echo in > f',
    # printf's message for an argument that is no number, its output apart from it
    "{ printf '%d|%s\\n' x y\n} 2> e > o; echo \"$?\" > s", "printf '%d\\n' 3x 2> /dev/null > o",
    # more than one operand, the first a number: "too many arguments", and the -c string's shell ends
    "exit 1 2; echo after > s", "f() { return 1 2; }; f 2> /dev/null; echo after > s",
    "set -- a; shift 1 2 2> /dev/null; echo after > s", "(exit 1 2) 2> /dev/null; echo $? > s",
]
NOT_DECIDED = [
    # a loop count that is no number ends the shell; one below 1 leaves every loop
    "for i in 1; do break x; done; echo after > s", "for i in 1 2; do echo $i >> s; continue 0; done",
    # printf's message and its output in one place: the message comes first
    "printf '%d\\n' x > o 2>&1", "printf '%d %d\\n' x y 2> e",
    # cd's options it does not follow (-e, -@) and those it refuses
    "mkdir d; cd -P -e d 2> e; echo $? > s", "mkdir d; cd -x d 2> e; echo $? > s",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", DECIDED)
def test_as_bash(script):
    assert compare_script(script, {"k": b""}, certain=True, status=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", NOT_DECIDED)
def test_what_is_not_followed_is_unknown(script):
    assert not compare_script(script, {"k": b""})
