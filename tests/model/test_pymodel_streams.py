"""python3's standard streams and open files where their buffers and error handlers decide
the bytes, against the real python3 run by bash: text with lone surrogates (stdout's
surrogateescape in the C locale, stderr's backslashreplace), stdout written as text and
through .buffer, a file handle that writes after its file was renamed or written by another
handle, and Path.glob's refusal of `**` inside a name."""

import pytest

from pymodel_ref import python3_c as program
from utilities_diff import compare_script, script_model

pytestmark = pytest.mark.bash

FIXTURE = {"k": b""}

SCRIPTS = [
    program('print("hello world\\udcff")') + " > out.txt",
    program('import sys\nsys.stderr.write("x\\udcff\\n")') + " 2> err",
    program('import sys\nprint(sys.argv[1])') + " $'\\xff' > out.txt",
    "LC_ALL=C.UTF-8 " + program('print("a\\udcff")') + " > out.txt",
    # one layer of stdout, or unbuffered: the order written
    "python3 -u -c 'import sys\nsys.stdout.write(\"hello \"); sys.stdout.buffer.write(b\"world\\n\")' > out.txt",
    program('import sys\nsys.stdout.buffer.write(b"a"); sys.stdout.buffer.write(b"b\\n")') + " > out.txt",
    # a handle that writes its file where it still is, alone
    program('import os\nf = open("a", "w"); f.write("x"); f.flush(); f.write("y"); f.close(); os.rename("a", "b")'),
    program('f = open("a", "a"); g = open("a", "a"); f.write("x"); f.flush(); g.write("y"); g.close(); f.close()'),
]

UNKNOWN = [
    program('import sys\nsys.stdout.write("hello "); sys.stdout.buffer.write(b"world\\n")') + " > out.txt",
    program('print("hello", end=" ")\nimport sys\nsys.stdout.buffer.write(b"world\\n")') + " > out.txt",
    program('import os\nf = open("tmp.txt", "w"); os.rename("tmp.txt", "out.txt"); f.write("hello world\\n")'),
    program('import os\nf = open("t", "w"); f.write("a"); f.flush(); os.rename("t", "o"); f.write("b"); f.close()'),
    program('import os\nf = open("t", "w"); os.remove("t"); f.write("a"); f.close()'),
    program('a = open("o", "w"); b = open("o", "w"); b.write("hello world\\n"); b.close(); a.write("hello")'),
    program('from pathlib import Path\n[p.rename("done_" + p.name) for p in Path().glob("**.txt")]'),
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_streams_and_handles_match_python3(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", UNKNOWN)
def test_what_is_not_followed_is_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None
