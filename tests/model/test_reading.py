"""read, mapfile and readarray over the effect model's streams, against bash."""

import datetime
import shlex

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from qbcore.model.effects import run_effects
from qbcore.model.utilities.hostfacts import Facts, stated, system_programs
from qbcore.model.utilities.vfs import VirtualTree

pytestmark = pytest.mark.bash

ROOT = "/work/task"


def _agree(script: str, tmp_path, inputs: dict, unknown_allowed: bool = False):
    """The model is certain of the final files, and bash makes the same ones (or, when
    ``unknown_allowed``, the model says it does not know them)."""
    for name, data in inputs.items():
        (tmp_path / name).write_bytes(data)
    real = bashref.run(script, cwd=str(tmp_path))
    tree = VirtualTree.from_listing({f"{ROOT}/{name}": data for name, data in inputs.items()})
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                      programs=system_programs())):
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT))
    if unknown_allowed and (run.unknown or run.files.lost):
        return
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
    assert tree.read_bytes(f"{ROOT}/o") == (tmp_path / "o").read_bytes(), (script, real.error)


SHOW = 'printf "<%s>" "$?" "$a" "$b" "$c" "${#arr[@]}" "${arr[@]}" "$REPLY" >> o; echo >> o'
DATA = b"alpha one\n  beta\\ two  \\\nthree \t\nx,y,,z:w\\\\ \n\n last"

SCRIPTS = [
    "while IFS= read -r line; do echo \"[$line]\"; done < in > o",
    "while read -r a b; do echo \"$b|$a\"; done < in > o",
    "while read a; do echo \"[$a]\"; done < in > o; echo \"end $?\" >> o",
    "read a b < in; { read c; cat; } < in > o; echo \"$a-$b-$c\" >> o",
    "cat in | while IFS=, read -r a b c; do echo \"$a/$b/$c\"; done > o",
    "IFS=: read -r -a arr < in; printf '%s|' \"${arr[@]}\" > o",
    "read -d '' -r a < in; printf '%s' \"$a\" > o",
    "read -rd y a b < in; echo \"$a|$b\" > o",
    "mapfile -t lines < in; printf '[%s]' \"${lines[@]}\" \"${#lines[@]}\" > o",
    "readarray lines < in; printf '[%s]' \"${lines[@]}\" > o",
    "mapfile -d , -t parts < in; printf '[%s]' \"${parts[@]}\" > o",
    "read -r first < in; mapfile -t rest < in; echo \"$first ${#rest[@]}\" > o",
    "{ read -r a; mapfile -t rest; } < in; echo \"$a ${#rest[@]} ${rest[0]}\" > o",
    "read -r a b <<< 'one two three'; read -r c <<EOF\n  here doc  \nEOF\necho \"$a|$b|$c\" > o",
    "while read -r -p '> ' -e a; do echo $a; done < in > o",
    "x=old; read x < /dev/null; echo \"[$x] $?\" > o",
    "f() { local v; read -r v; echo \"in $v\"; }; f < in > o; echo \"[$v]\" >> o",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_reading_builtins_match_bash(script, tmp_path):
    _agree(script, tmp_path, {"in": DATA})


@pytest.mark.parametrize("script", [
    "read -t 1 a < in; echo $a > o", "read -n 3 a < in; echo $a > o", "read -u 3 a 3< in; echo $a > o",
    "if [ -n \"$RANDOM\" ]; then read a; fi < in; read b < in; echo $b > o",
    "read $RANDOM < in; echo $a > o", "mapfile -n 2 l < in; echo ${l[1]} > o",
    "printf 'a\\0b\\n' | { read -r a; echo $a > o; }",
])
def test_what_the_reading_builtins_do_not_follow_is_unknown(script):
    tree = VirtualTree.from_listing({f"{ROOT}/in": DATA})
    run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT))
    assert run.unknown is not None or run.files.lost is not None


LINE = st.text(st.sampled_from("ab ,:\t\\\né"), max_size=14)
IFS = st.sampled_from([None, "", " ", ",", ", ", ":\t", " ,:", "\\", "\n"])
OPTIONS = st.lists(st.sampled_from(["-r", "-a arr", "-d ,", "-d ''", "-s"]), max_size=2, unique=True)
NAMES = st.lists(st.sampled_from(["a", "b", "c"]), max_size=3, unique=True)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(LINE, min_size=1, max_size=3), IFS, OPTIONS, NAMES, st.integers(1, 2))
def test_read_generated(tmp_path_factory, lines, ifs, options, names, reads):
    tmp_path = tmp_path_factory.mktemp("read")
    setting = "unset IFS" if ifs is None else f"IFS={shlex.quote(ifs)}"
    read = f"read {' '.join(options)} {' '.join(names)}"
    script = f"{setting}\n" + "".join(f"{read} < in\n{SHOW}\n" if n == 0 else f"{read}\n{SHOW}\n"
                                      for n in range(reads))
    # a second read takes the next line of the same descriptor
    script = script.replace(" < in\n", "\n", 1) if reads == 2 else script
    script = f"{{\n{script}}} < in" if reads == 2 else script
    _agree(script, tmp_path, {"in": "\n".join(lines).encode()}, unknown_allowed=True)


@pytest.mark.parametrize("script", [
    "mapfile -t arr <<< $'l1\\nl2'; echo ${#arr[@]} ${arr[1]}", "readarray -td, a <<< 'a,b'; echo ${#a[@]}",
    "read -e x <<< q; echo $x", "read -rpPrompt x <<< q; echo $x", "read -ra arr <<< 'a b'; echo ${arr[1]}",
    "mapfile -C cb -c1 a <<< q; echo ${#a[@]}", "read -- x <<< q; echo $x", "echo q | mapfile -t a; echo ${#a[@]}",
])
def test_without_the_stream_the_variables_they_set_are_unknown(script, tmp_path):
    """The evaluator alone follows no stdin: each variable the builtin sets is unknown (its
    options read as bash's getopt reads them: -t and -e take no value), or known as bash has it."""
    from qbcore.model.evaluate import evaluate
    from qbcore.model.expand import Env, Opaque
    from qbcore.syntax.parser import parse

    stdout = evaluate(parse(script), Env.default(str(tmp_path))).stdout
    assert isinstance(stdout, Opaque) or stdout == bashref.run(script, cwd=str(tmp_path)).text, stdout
