"""``$(<file)``: bash substitutes the file's contents, against bash (the files left and the
status): the special form only (one input redirection, nothing else), its trailing newlines
dropped as any substitution's; a file with a NUL byte or a folder is unknown."""

import pytest

from utilities_diff import compare_script, script_model, unknown_why

pytestmark = pytest.mark.bash

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


@pytest.mark.parametrize("script", SCRIPTS)
def test_file_substitution_is_the_file_s_contents(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", ["c=$(<nul); echo \"$c\" > o", "c=$(<d); echo \"[$c]\" > o"])
def test_file_substitution_not_followed_is_unknown(script):
    assert unknown_why(*script_model(script, FIXTURE)) is not None
