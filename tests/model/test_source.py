"""`source FILE` and `. FILE` against bash: the file's commands run in this shell (its
variables, functions, directory and files stay), `return` ends it, a syntax error ends it with
2 after the lines before ran, a missing file or a folder is bash's message and 1; bash's
messages inside name the file. What is not followed stays unknown."""

import re

import pytest

import bashref
from utilities_diff import compare_script, lay, script_model

pytestmark = pytest.mark.bash

FIXTURE = {
    "set.sh": b"x='a b'\nf() { echo \"f $1\"; }\n",
    "write.sh": b"printf '%s\\n' 'hello world' > out.txt\necho written\n",
    "ret.sh": b"echo one > r1\nreturn 3\necho two > r2\n",
    "status.sh": b"false\n",
    "cd.sh": b"cd sub\n",
    "exit.sh": b"echo before > e1\nexit 4\n",
    "syntax.sh": b"echo a > s1\nif then\necho b > s2\n",
    "eof.sh": b"echo a > s1\necho \"open\n",
    "nested.sh": b"source write.sh > /dev/null\ny=$x\n",
    "args.sh": b"echo \"$0 $# $*\" > args\n",
    "lineno.sh": b"\necho $LINENO > line\n",
    "nocmd.sh": b"nosuchcommand\necho after > n1\n",
    "sub/in.sh": b"echo in > here\n",
    "self.sh": b"source self.sh\n",
    "bin.sh": b"echo a\0\n",
    "abort.sh": b"echo a > a1\necho ${x/\n",
}

SCRIPTS = [
    "source set.sh; f \"$x\" > out",
    ". ./set.sh && echo \"$x\" > out",
    "source -- write.sh > log",
    "source ret.sh; echo $? > st",
    "f() { source ret.sh; echo \"f $?\" > st; }; f; echo $? >> st",
    "source status.sh; echo $? > st",
    "true; source cd.sh; basename \"$PWD\" > ../where",
    "source exit.sh; echo never > e2",
    "source syntax.sh 2>/dev/null; echo $? > st",
    "source eof.sh 2>/dev/null; echo $? > st",
    "x=1; source nested.sh; echo \"$y\" > out; cat log 2>/dev/null > copy",
    "set -- p q; source args.sh",
    "source lineno.sh",
    "source nocmd.sh 2>/dev/null; echo $? > st",
    "source sub/in.sh",
    "source nope.sh 2>/dev/null; echo $? > st",
    ". sub 2>/dev/null; echo $? > st",
    "source 2>/dev/null; echo $? > st",
    "source sub/nope.sh 2>/dev/null || echo failed > st",
    "set -e; source status.sh; echo never > st",
    "source write.sh | tr a-z A-Z > shout",
    "( source set.sh; echo \"$x\" > in ); echo \"[$x]\" > out",
    "source \"$(echo write.sh)\" > /dev/null; source $UNSET 2>/dev/null; echo $? > st",
    "source abort.sh 2>/dev/null; echo $? > st",
]

UNKNOWN = [
    "source args.sh 1 2",  # arguments replace $@, and may stay replaced
    "source ./sub/../write.sh",
    "trap 'echo t' ERR; source status.sh",
    "source self.sh",  # over and over: the budget ends it
    "source bin.sh",
    "source /etc/profile",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_source_as_bash(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", UNKNOWN)
def test_what_source_does_not_follow_is_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None 


@pytest.mark.parametrize("script", ["source nocmd.sh", "source nope.sh", ". sub", "source syntax.sh",
                                    "printf 'x=`if`\\n' > cs.sh; source cs.sh"])
def test_messages_name_the_file(script, tmp_path):
    """bash's messages while a file is sourced start with its name (the line after it is not
    spelled on the harness's stderr)."""
    lay(str(tmp_path), FIXTURE)
    real = bashref.run(script, cwd=str(tmp_path))
    run, _ = script_model(script, FIXTURE)
    said = [re.sub(r"(-c: )?line \d+: ", "", line) for line in real.error.splitlines()]
    assert run.effects.stderr_unknown is None and run.status == real.status
    assert [line.rstrip("\n") for line in run.effects.stderr] == said[:len(run.effects.stderr)], said
