"""What bash exports, against a child bash: a name exported while unset (its assignment
exports), declare -x and +x, and the prefix assignments of eval, source and a function call,
which bash exports to everything they run (its temporary environment)."""

import pytest

from utilities_diff import compare_script

pytestmark = pytest.mark.bash

CHILD = "bash -c 'echo \"[${MSG-unset}]\"'"
DECIDED = [
    f"export MSG; MSG=v; {CHILD} > out", f"declare -x MSG; MSG=v; {CHILD} > out", f"typeset -x MSG; read MSG <<< v; {CHILD} > out",
    f"export MSG; printf -v MSG v; {CHILD} > out", f"export MSG; for MSG in v; do :; done; {CHILD} > out",
    f"export MSG; : ${{MSG:=v}}; {CHILD} > out", f"export MSG; MSG+=v; {CHILD} > out",
    f"export MSG; {CHILD} > out", f"export MSG; unset MSG; MSG=v; {CHILD} > out",
    f"MSG=v; declare -x MSG; {CHILD} > out", f"export MSG=v; declare +x MSG; {CHILD} > out",
    f"export MSG=v; declare +x MSG=w; {CHILD} > out", f"export MSG=v; typeset +x MSG; MSG=w; {CHILD} > out",
    # a prefix assignment reaches what eval, source and a function run
    f"MSG=v eval {CHILD!r} > out", f"f() {{ {CHILD}; }}; MSG=v f > out", f"echo {CHILD!r} > s.sh; MSG=v . ./s.sh > out; rm s.sh",
    f"MSG=v command eval {CHILD!r} > out", f"MSG=v eval 'MSG=w; {CHILD}' > out; echo \"[$MSG]\" >> out",
    f"f() {{ MSG=w; {CHILD}; }}; MSG=v f > out; echo \"[${{MSG-unset}}]\" >> out", f"MSG=v eval 'printenv MSG' > out",
    f"MSG=v eval 'echo $(printenv MSG)' > out", f"MSG=old; MSG=v eval {CHILD!r} > out; {CHILD} >> out",
]


@pytest.mark.parametrize("script", DECIDED)
def test_exported_as_bash_exports(script):
    assert compare_script(script, {"k": b""}, certain=True, status=True)

