"""GNU env running a program, against bash and coreutils' env: the environment the program
gets, env's own failures (their messages and statuses), and what env leaves unknown; and
timeout, which runs a program as env does where its limit cannot end it first."""

import os
import tempfile

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from utilities_diff import real_tree, same_files, unknown_why, virtual_tree
from qbcore.model.effects import run_effects
from qbcore.model.utilities.envprog import EnvRequest, env_request
from qbcore.model.utilities.vfs import VirtualTree

ROOT = "/work/task"
# a probe as the env-passing tasks have: what it got for A and B, and whether each was set
PROBE = b'#!/bin/bash\nprintf \'[%s|%s|%s|%s]\' "${A-unset}" "${B-unset}" "${A+set}" "$#" >> got\n'
FIXTURE = {"probe": PROBE, "d/x": b"x\n"}

SCRIPTS = [
    # timeout with a limit that cannot end the program first: the program's status and effects
    "export A=x; timeout 10 ./probe one; echo $? > st", "timeout -s KILL 1m sed -n p nope 2> err; echo $? > st",
    "timeout 0 bash -c './probe; exit 3'; echo $? > st", "timeout --preserve-status -k 5 30s printf '%s\\n' a > o",
    "A=1 timeout 5.5 ./probe", "timeout 10 env A=2 ./probe",
    # printenv NAME: each value bash passed on, status 1 when one is not there
    "export A='x y'; printenv A nope B > o; echo $? > st", "B=1 printenv -- B > o; printenv 'B=1' >> o; echo $? > st",
    # the assignments reach the program; the shell keeps its own values
    "env A='two words' ./probe",
    "env A=1 B='x=y' ./probe; env -- A=2 ./probe arg",
    "export A=0; env A=1 ./probe; ./probe; echo \"$A\" > a",
    "A=prefix env B=2 ./probe; A=prefix env A=3 ./probe",
    "B=kept; env A=1 ./probe",  # an unexported variable does not reach the program
    "export A=0 B=0; env -u A ./probe; env -uB ./probe; env --unset=A --unset B ./probe",
    "export A=0; env -u A A=back ./probe",  # -u first, then the assignments
    "A=x env -u A ./probe",
    "env A=\"$(printf 'a\\nb')\" ./probe",
    "env A=1 bash -c 'printf \"%s\" \"$A\" > fromc'",
    "env A=1 env B=2 ./probe",
    "env A=1 sed -i 's/x/y/' d/x; env A=1 python3 -c 'open(\"py\", \"w\").write(\"p\")'",
    "x=$(env A=1 cat d/x); echo \"[$x]\" > sub",
    # env's own failures: nothing by that name, a path to nothing or to a folder, a bad -u
    "env A=1 no-such-program 2> err; echo $? > st",
    "env ./nothing 2> err; echo $? > st; env d 2>> err; echo $? >> st; env ./d 2>> err; echo $? >> st",
    "env 'it'\\''s' 2> err; echo $? > st",
    "env 'a b' 2> err; echo $? > st",
    "env $'a\\tb' 2> err; echo $? > st",
    "env '' 2> err; echo $? > st",
    "env -u A=B ./probe 2> err; echo $? > st; env -u '' ./probe 2>> err; echo $? >> st",
    "env A=1 -u B ./probe 2> err; echo $? > st",  # options end at the first operand: a program -u
    "env A=1 -- ./probe 2> err; echo $? > st",
    # -i (a lone - too): the program gets env's assignments alone; printed, they are all there is
    "export A=0 B=0; env -i A=1 ./probe; env - ./probe; env -- - B=2 ./probe", "A=x env --ignore-environment ./probe",
    "export A=0; env -i > o; env -i B=2 A=1 B=3 >> o; env -i -u A ./probe",
    # without a program it prints the environment: status 0
    "env > /dev/null; echo $? > st; env A=1 > /dev/null; echo $? >> st",
    # a function or a builtin of that name is not what env runs
    "f() { echo f > f; }; env no-such-f 2> err; echo $? > st",
    # the C locale, as a prefix assignment gives it: sort's order, a new bash's value, env's messages
    "printf 'b\\nB\\na\\n_\\n' | env LC_ALL=C sort > o; printf 'b\\nB\\n' | env LC_ALL=C.UTF-8 sort > u",
    "env LANG=C LC_COLLATE=POSIX sort d/x > o; env LC_ALL=C.utf8 bash -c 'printf \"%s\" \"$LC_ALL\"' > c",
    "env LC_ALL=C ./nothing 2> err; echo $? > st",
    # echo is coreutils' there, which prints what the builtin does (a function of that name
    # is not what env runs)
    "env echo hi > o; env echo -n -e 'a\\tb' >> o; env -- echo -E '\\n' --help >> o; echo $? > st",
    "echo() { builtin echo fn; }; env echo real > o",
    # so is printf, where it prints what the builtin does (no %q, \\c, options, or messages)
    "env printf x > o; env -- printf '%s|%d\\n' a 1 b 2 >> o; env printf -- '%b' 'x\\ty' >> o; echo $? > st",
    "printf() { :; }; env printf '%5s|%x\\n' ab 255 > o", "f() { :; }; env printf x > o",
    "env A=1 printf '%s\\n' \"$A\" > o",
    # a builtin or function with no program of its name: env finds nothing on PATH
    "env cd d 2> err; echo $? > st", "f() { :; }; env f 2> err; echo $? > st",
    "env shopt -s nullglob 2> err; echo $? > st",
]


def _model(script):
    tree = VirtualTree.from_listing({f"{ROOT}/{path}": data for path, data in FIXTURE.items()})
    tree.chmod(f"{ROOT}/probe", 0o755)
    with bashref.host_facts():
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT))
    return run, tree


def _lay(root: str):
    """The fixture in the real directory ``root``."""
    for path, data in FIXTURE.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "wb") as f:
            f.write(data)
    os.chmod(os.path.join(root, "probe"), 0o755)


@pytest.mark.bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_final_files_match_bash(script, tmp_path):
    _lay(str(tmp_path))
    real = bashref.run(script, cwd=str(tmp_path))
    run, tree = _model(script)
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
    assert virtual_tree(tree, ROOT) == real_tree(str(tmp_path), ROOT), real.error
    assert run.status == real.status


# words of env's line, drawn in any order: options, assignments, programs, and what fails
PIECES = ["-u", "A", "-uB", "--", "A=1", "B='x y'", "./probe", "-i", "--unset=A", "--unset", "nosuch", "''",
          "-u A=B", "C=", "=x", "d", "./d", "-", "A=\"$(printf 'a\\nb')\"", "B==", "./probe arg", "env",
          "bash -c './probe'", "LC_ALL=C", "LANG=C.utf8", "echo -n x", "echo -e 'a\\tb'",
          "printf '%s\\n' x", "printf '%d' 1x"]


@pytest.mark.bash
@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(["", "export A=0; ", "A=p ", "export B=0; "]), st.lists(st.sampled_from(PIECES), max_size=5))
def test_generated_env_lines_match_bash_where_decided(prefix, words):
    script = prefix + "env " + " ".join(words) + " > o 2> err; echo $? > st"
    run, tree = _model(script)
    if run.unknown is not None or run.files.lost is not None:
        return
    with tempfile.TemporaryDirectory() as root:
        _lay(root)
        real = bashref.run(script, cwd=root)
        assert same_files(virtual_tree(tree, ROOT), real_tree(root, ROOT)), (script, real.error)


@pytest.mark.parametrize("script", [
    "env -i A=1 probe", "env -i env > o", "env -iv ./probe", "env -C d ./probe", "env -S 'A=1 ./probe'", "env -0",
    "env PATH=/nowhere probe", "env -u PATH ./probe", "env LC_ALL=xx ./probe", "env LANG=en_US.UTF-8 sort d/x",
    "env LC_TIME=C ./probe", "env BASH_ENV=x ./probe",
    "env SHELLOPTS=xtrace ./probe", "env 'A-B=1' ./probe", "env =x ./probe",
    "env echo --help > o", "env echo -e '\\u0041' > o", "POSIXLY_CORRECT=1; export POSIXLY_CORRECT; env echo -n x > o",
    "env echo hi >&- 2> err",
    "env printf '%q' 'a b' > o", "env printf 'a\\cb' > o", "env printf -v x y", "env printf x y > o",
    "env printf '%d\\n' x; echo $? > st", "env printf '%d\\n' x > o 2> err", "builtin() { :; }; env printf x > o",
    "env -v ./probe", "env -u", "env --unse=A ./probe",
    "env > o",  # the environment, in bash's order
    # a limit that may end it, an interval timeout refuses, a program it cannot run (its message)
    "timeout 1 ./probe", "timeout 0.5s ./probe", "timeout x ./probe", "timeout 10 nosuch 2> err",
    "timeout 10 cd d", "timeout 10", "timeout --signal=KILL 10 ./probe",
    "printenv > o", "printenv -0 A > o", "printenv _ > o",
])
def test_what_env_does_not_follow_is_unknown(script):
    assert unknown_why(*_model(script)) is not None


def test_a_request_reads_options_until_the_first_operand():
    assert env_request(["env", "-u", "A", "-uB", "--unset=C", "--", "D=1", "p", "E=2"]) == \
        EnvRequest(("A", "B", "C"), (("D", "1"),), ("p", "E=2"))
    assert env_request(["env", "D=1", "-u", "A"]) == EnvRequest((), (("D", "1"),), ("-u", "A"))
    assert env_request(["env", "-i", "p"]) == env_request(["env", "-", "p"]) == EnvRequest(program=("p",), clear=True)
    assert env_request(["env", "-u", "A=B", "-u", "PATH"]).failure == \
        (125, "env: cannot unset 'A=B': Invalid argument\n")
