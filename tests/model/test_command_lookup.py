"""`command -v`, `type -t` and `type` against bash: what each name is (a keyword, a function, a
builtin, a program of a system folder, or nothing), printed, and the status (command -v: found
any; type -t and type: found all)."""

import pytest
from utilities_diff import compare_script

SCRIPTS = [
    "command -v ls nosuch echo if; echo \"st=$?\"",
    "command -v nosuch; echo \"st=$?\"; command -v nosuch nosuch2; echo \"st=$?\"",
    "f() { :; }; command -v f printf [[ '{' time; echo \"st=$?\"",
    "command -v -- sed python3 git jq; command -v; echo \"st=$?\"",
    "command -v cd type command; command -v printf >/dev/null && echo found",
    "type -t echo ls if nosuch; echo \"st=$?\"",
    "f() { :; }; type -t f ls; echo \"st=$?\"; type -t nosuch; echo \"st=$?\"",
    # type: a keyword or a builtin said so; a name bash does not find, its message (naming the line)
    "type printf if [[ cd; echo \"st=$?\"; type -- echo; type; echo \"st=$?\"",
    "type printf nosuch; echo \"st=$?\"",
    "echo first\ntype nosuch\necho \"st=$?\"",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_command_lookup_as_bash(script):
    assert compare_script("{ " + script + "; } > o 2>&1", {"k": b""}, certain=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", ["type -t", "command -v ./k", "type ls", "command -V ls", "command -v -p ls",
                                    "f() { :; }; type f", "type nosuch printf", "type -a cd"])
def test_what_is_not_modelled_is_unknown(script):
    assert not compare_script("{ " + script + "; } > o 2>&1", {"k": b""})
