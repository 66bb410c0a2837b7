"""pushd, popd and dirs against bash: the working directory, OLDPWD, the stack as dirs prints
it (HOME as ``~``), the messages and statuses; options and ``+N``/``-N`` stay unknown."""

import pytest

from utilities_diff import compare_script, script_model

pytestmark = pytest.mark.bash

FIXTURE = {"d/x": b"x", "a/b/y": b"y"}
# HOME is the task directory, as the executor sets it: dirs prints paths under it from ~

SCRIPTS = [
    "pushd a > o; pushd b >> ~/o; echo \"${PWD#$HOME} ${OLDPWD#$HOME}\" >> ~/o; popd >> ~/o; popd >> ~/o; "
    "popd 2> ~/e; echo $? > ~/st",
    "pushd . >/dev/null; echo x > f; popd >/dev/null; dirs > dd",
    "pushd nope 2> e; echo $? > st; pushd 2>> e; echo $? >> st; popd 2>> e; echo $? >> st",
    "mkdir q; pushd q > o; pushd >> ~/o; dirs >> ~/o; echo \"${PWD#$HOME}\" >> ~/o",
    "pushd d > o; pushd ../a/b >> ~/d/o; pushd >> ~/d/o; pushd >> ~/d/o; dirs > ~/st",
    # cd's messages name the line, as every builtin's: into a file or a pipe too
    "cd nope 2> err", "cd nope 2>&1 | cat > o", "echo a\ncd nope 2> err; echo $? >> err",
    "cd d; pushd - | sed \"s|$HOME|H|\" > ~/o; cd nope 2> ~/e; echo $? > ~/st",
    "pushd -- d > o; dirs -- 2> e; echo $? > st",
    "f() { pushd d > /dev/null; }; f; echo \"${PWD#$HOME}\" > ~/w; (popd > ~/x); echo \"${PWD#$HOME}\" > ~/y",
    # HOME as ~ only where a slash or the end follows it, and not when it is /
    "HOME=$PWD/a; cd a; pushd b > ~/o; cd; dirs >> ~/o",
    "HOME=$PWD/a/; cd a; pushd b | sed \"s|${HOME%/}|H|g\" > ../o",
    "cd a; HOME=$PWD/b; pushd b | sed \"s|$PWD|H|g\" > ~/o",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_directory_stack_as_in_bash(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", ["pushd -n d > o; echo y > f", "pushd +1 > o", "popd -n > o", "dirs -v > o",
                                    "dirs -c; echo x > o"])
def test_directory_stack_options_are_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None
