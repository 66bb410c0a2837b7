"""`command -v`, `type -t` and `type` against bash: what each name is (a keyword, a function, a
builtin, a program of a system folder, or nothing), printed, and the status (command -v: found
any; type -t and type: found all)."""

import datetime

import bashref
import pytest
from utilities_diff import compare_script

from qbcore.model.effects import run_effects
from qbcore.model.utilities.hostfacts import SYSTEM_FOLDERS, Facts, stated, system_programs, system_unrunnable
from qbcore.model.utilities.vfs import VirtualTree

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


@pytest.mark.bash
@pytest.mark.parametrize("folder", SYSTEM_FOLDERS)
def test_the_names_taken_for_programs_are_those_bash_runs(folder):
    # each name a system folder lists and system_unrunnable leaves out is a program bash's
    # search finds there (nothing is run: the ones it leaves out are only not followed)
    names = sorted(system_programs()[folder])
    unrunnable = system_unrunnable()[folder]
    script = 'for n; do type -P -- "$n" || echo -; done'
    found = bashref.run(script, cwd="/", environ={"PATH": folder}, args=["bash", *names]).stdout.decode().splitlines()
    assert len(found) == len(names)
    for name, path in zip(names, found):
        if name not in unrunnable:
            assert path == f"{folder}/{name}", name


def _decided(script, unrunnable) -> bool:
    """Whether the model decides ``script`` where /usr/bin lists ``prog`` too, and the run
    states ``unrunnable`` for /usr/bin."""
    programs = {**system_programs(), "/usr/bin": system_programs()["/usr/bin"] | {"prog"}}
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", programs=programs,
                  unrunnable={**system_unrunnable(), "/usr/bin": unrunnable})
    with stated(facts):
        run = run_effects(script + " > o", VirtualTree.from_listing({"/work/task/k": b""}), "/work/task",
                          bashref.executor_environ("/work/task"))
    return run.unknown is None and run.files.lost is None


@pytest.mark.parametrize("script", ["command -v prog", "type -P prog", "which prog", "prog", "echo a | xargs prog",
                                    "find . -maxdepth 0 -exec prog {} +"])
def test_a_name_that_is_no_program_is_not_followed(script):
    # a folder, or a file without the x bit, that a system folder lists: bash goes on past it,
    # or runs it and fails with Permission denied; the model follows neither
    assert not _decided(script, frozenset({"prog"}))
    if script in ("command -v prog", "which prog"):
        assert _decided(script, frozenset())  # where it is a program, the search is followed
