"""``exec`` with redirections only: they become the shell's own for the rest of it, against
bash (the files left and the status). A compound command's own redirections undo those it
names after it; in a function, eval, a subshell or a pipeline the model does not follow them."""

import pytest

from utilities_diff import compare_script, script_model

pytestmark = pytest.mark.bash

FIXTURE = {"in.txt": b"l1\nl2\nl3\n", "d/x": b"x"}

SCRIPTS = [
    "exec > out.txt\necho 'hello world'",
    "exec 1> out.txt; printf '%s\\n' 'hello world'",
    "exec 3>out.txt; echo 'hello world' >&3; exec 3>&-",
    "exec >o 2>&1; echo a; ls nope; echo b",
    "exec 2>/dev/null; ls nope; echo $? > st",
    "exec >o; echo 1; exec >p; echo 2",
    "exec >>in.txt; echo more",
    "exec < in.txt; read a; read b; echo \"$b\" > o",
    "exec 3>o; echo a >&3; echo b >&3; exec 3>&-; echo c >&3 2> err; echo $? > st",
    "exec >o; bash -c 'echo child'; printf 'x\\n'",
    "exec >o; cat in.txt; sed -n 2p in.txt",
    "exec > d; echo x 2> err; echo $? > st",
    "exec >nodir/o; echo $? > st",
    # a compound command: its own redirections are undone after it, what it did not name stays
    "{ exec >o; echo in; } > g; echo after > h",
    "exec >o; { echo a; echo b; } > g; echo c",
    "if true; then exec >o; fi; echo x",
    "if true; then exec >o; fi 2>e; echo x; ls nope",
    "for i in 1 2; do exec >>o; echo $i; done",
    "while read l; do exec 2>e; echo $l; done < in.txt > o; ls nope 2>&1; ls nope",
    "{ exec >o 2>&1; } 2>e; echo x; ls nope",
    "case x in x) exec >o;; esac; echo y",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_exec_redirections_last_as_in_bash(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", [
    "f() { exec >o; }; f; echo x > p", "(exec >o; echo sub); echo main > p", "eval 'exec >o'; echo x > p",
    "exec >o | cat; echo x", "[ $RANDOM -gt 5 ] && exec >o; echo x", "exec {fd}>o; echo x >&$fd",
    "exec 2>e\necho x\nfi",  # bash's message about the syntax error goes to e
])
def test_exec_redirections_not_followed_are_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None
