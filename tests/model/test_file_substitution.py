"""``$(<file)``: bash substitutes the file's contents, against bash (the files left and the
status): the special form only (one input redirection, nothing else), its trailing newlines
dropped as any substitution's; a file with a NUL byte or a folder is unknown."""

import os

import pytest

import bashref
from utilities_diff import real_tree, virtual_tree
from qbcore.model.effects import run_effects
from qbcore.model.utilities.vfs import VirtualTree

pytestmark = pytest.mark.bash

ROOT = "/work/task"
FIXTURE = {"data.txt": b"alpha one\nbeta alpha\n\n\n", "one": b"x", "empty": b"", "sp ace": b"s p\n",
           "nul": b"a\0b", "d/x": b"x"}

SCRIPTS = [
    "c=$(<data.txt); printf '%s\\n' \"${c//alpha/omega}\" > data.txt",
    "c=$(< one); echo \"[$c]\" > o", "c=$( <one ); echo \"[$c]\" > o", "c=$(0<one); echo \"[$c]\" > o",
    "c=$(<one;); echo \"[$c]\" > o", "c=`<one`; echo \"[$c]\" > o", "c=$(<empty); echo \"[$c] $?\" > o",
    "c=$(<'sp ace'); echo \"[$c]\" > o", "f=one; c=$(<\"$f\"); echo \"[$c]\" > o",
    "c=$(</dev/null); echo \"[$c] $?\" > o", "c=$(<nope); echo \"[$c] $?\" > o 2> e",
    "c=$(< one > /dev/null); echo \"[$c]\" > o",  # not the special form: nothing is written
    "echo \"$(<data.txt)\" | wc -l > o",
]


def _model(script):
    tree = VirtualTree.from_listing({f"{ROOT}/{path}": data for path, data in FIXTURE.items()})
    with bashref.host_facts():
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT))
    return run, tree


@pytest.mark.parametrize("script", SCRIPTS)
def test_file_substitution_is_the_file_s_contents(script, tmp_path):
    for path, data in FIXTURE.items():
        os.makedirs(os.path.dirname(tmp_path / path), exist_ok=True)
        (tmp_path / path).write_bytes(data)
    real = bashref.run(script, cwd=str(tmp_path))
    run, tree = _model(script)
    assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
    assert virtual_tree(tree, ROOT) == real_tree(str(tmp_path), ROOT), real.error
    assert run.status == real.status


@pytest.mark.parametrize("script", ["c=$(<nul); echo \"$c\" > o", "c=$(<d); echo \"[$c]\" > o"])
def test_file_substitution_not_followed_is_unknown(script):
    run, _ = _model(script)
    assert run.unknown is not None or run.files.lost is not None
