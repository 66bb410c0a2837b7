"""python3's base64 module against the real one run by bash: the bytes a program decodes into
a file, or encodes, as replies carry a payload past quoting; and what stays unknown (an error
base64 raises, whose traceback shows base64.py's own frames)."""

import pytest

from pymodel_ref import python3_c as program
from utilities_diff import compare_script, script_model

pytestmark = pytest.mark.bash

FIXTURE = {"enc.txt": b"c2hlIHNhaWQgIml0J3MgZG9uZSwgJEhPTUUgc3RheXMiCg==\n", "bin": bytes(range(256))}
MIXED = "c2hlIHNhaWQgIml0J3MgZG9uZSwgJEhPTUUgc3RheXMiCg=="


SCRIPTS = [
    program(f'import base64\nopen("out.txt", "wb").write(base64.b64decode("{MIXED}"))'),
    program(f'import base64, sys\nsys.stdout.buffer.write(base64.b64decode(b"{MIXED}"))') + " > out.txt",
    program('import sys, base64\nsys.stdout.buffer.write(base64.b64decode(sys.stdin.read()))') + " < enc.txt > out.txt",
    program('from base64 import b64decode\nwith open("enc.txt") as f:\n    data = b64decode(f.read())\n'
            'open("out.txt", "w").write(data.decode())'),
    program('import base64\nprint(base64.b64encode(open("bin", "rb").read()).decode())') + " > out.txt",
    program('import base64\nprint(base64.b64encode("it\\u00e9s".encode()), base64.standard_b64encode(b"x"))') + " > o",
    program('import base64\nprint(base64.urlsafe_b64encode(bytes(range(250, 256))), base64.urlsafe_b64decode("-_-_"))')
    + " > o",
    program('import base64\nprint(base64.encodebytes(bytes(range(100))).decode(), end="")') + " > o",
    program('import base64\nprint(base64.decodebytes(b"aGk=\\naGk=\\n"), base64.b32encode(b"hi"), base64.b16decode("6869"))')
    + " > o",
    # b64decode drops what is not base64 unless validate=True
    program('import base64\nprint(base64.b64decode("aG k=!"), base64.b64decode("aGk=\\n"))') + " > o",
]

UNKNOWN = [
    program('import base64\nprint(base64.b64decode("aGk"))') + " 2> e",  # binascii.Error: Incorrect padding
    program('import base64\nprint(base64.b64decode("aG k=", validate=True))') + " 2> e",
    program('import base64\nprint(base64.b64encode("text"))') + " 2> e",  # TypeError inside base64.py
    program('import base64\nprint(base64.a85encode(b"x"))') + " > o",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_base64_programs_match_python3(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", UNKNOWN)
def test_what_base64_does_not_follow_is_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None
