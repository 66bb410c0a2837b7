"""python3's traceback of an uncaught exception, against the sandbox's python3.

python3.11 marks the part of a line that failed with carets (always a binary operation's
operator and a subscript's brackets), shows the line where that part starts, and a library
function written in Python adds frames of its own: where the model cannot tell those apart,
what it says of stderr is the traceback's first line, and the rest is unknown; where it
claims the whole text, that text is python3's."""

import pytest

import sandboxref

pytestmark = [pytest.mark.bash, pytest.mark.skipif(sandboxref.unavailable() is not None,
                                                   reason=sandboxref.unavailable() or "")]

PROGRAMS = {
    "name.py": "{a: 1}\n", "open.py": "open('nope')\n", "part.py": "x = open('nope').read()\n",
    "binop.py": "def f():\n    return 1 + 'a'\nf()\n", "subscript.py": "d = {}\nd['k']\n",
    "loads.py": "import json\njson.loads('{')\n", "raise.py": "raise ValueError('x')\n",
    "reraise.py": "try:\n    1/0\nexcept ZeroDivisionError:\n    raise\n", "lines.py": "print(\n  undefined_name\n)\n",
    "frames.py": "def g(x):\n    raise KeyError(x)\ndef f():\n    g(1)\nf()\n", "rename.py": "import os\nos.rename('nope', 'b')\n",
    "int.py": "int('a')\n", "makedirs.py": "import os\nos.makedirs('name.py')\n", "closed.py": "f = open('x', 'w')\nf.close()\nf.write('a')\n",
    "write.py": "open('x', 'w').write(1)\n",
    "chain.py": "try:\n    open('nope')\nexcept OSError:\n    raise ValueError('x')\n",
}
SCRIPTS = [f"python3 {name}" for name in PROGRAMS] + [
    "python3 -c 'import json; json.loads(\"{\")'", "python3 -c 'open(\"nope\")'", "python3 -c 'x = 1\nprint(\n y)'",
    "python3 -c 'int(\"x\")'", "python3 -c 'import os; os.makedirs(\"name.py\")'",
    "python3 -c 'import csv; csv.writer(open(\"w.csv\", \"w\")).writerow([\"a\"], 2)'",
    "python3 -c 'try:\n    open(\"nope\")\nexcept OSError as e:\n    raise ValueError(\"x\") from e'",
]
FILES = {name: text.encode() for name, text in PROGRAMS.items()}


@pytest.mark.parametrize("command", SCRIPTS)
def test_what_the_model_says_of_a_traceback_is_python3s(command):
    script = f"{command} > out 2> err; echo $? > st"
    with sandboxref.task_folder() as root:
        run, model = sandboxref.model(script, root, FILES)
        assert run.unknown is None and run.files.lost is None, (run.unknown, run.files.lost)
        real = sandboxref.sandboxed(script, root, FILES)
        said = model.pop(f"{root}/err")
        assert model == {path: data for path, data in real.items() if path != f"{root}/err"}
        if isinstance(said, bytes):
            assert said == real[f"{root}/err"]
        else:  # (unknown: what the model says of stderr went nowhere; stderr is a traceback)
            assert real[f"{root}/err"].startswith(b"Traceback (most recent call last):\n")
