"""The python3 model on hostile or runaway programs, and on subprocesses.

A loop that may not end, a value or a file that grows without bound, a
regular expression that backtracks without bound: each ends in ``unknown``
(named), never in a hang or a guess. Subprocesses go through the command
registry hook; without one they are unknown.
"""

import pytest

from pymodel_ref import differences, run_model
from qbcore.model.pymodel import Limits
from qbcore.model.utilities.context import CommandResult
from qbcore.model.utilities.vfs import Budget

FILES = {"notes.txt": b"alpha\nbeta\n", "d": None}


@pytest.mark.parametrize("program, reason", [
    ("while True:\n    pass", "step budget"),
    ("i = 0\nwhile i >= 0:\n    i += 1", "step budget"),
    ("def f(n):\n    return f(n + 1)\nf(0)", "recursion"),
    ("x = 'a' * 10**12", "characters"),
    ("s = 'ab'\nwhile True:\n    s = s + s", "characters"),
    ("print(10**10**10)", "power"),
    ("s = 'x' * 10**7\nprint(''.join(s for _ in range(1000)))", "characters"),
    ("s = 'x' * 10**7\nprint([s] * 100)", "bounds"),
    ("import json\ns = 'x' * 10**7\njson.dumps([s] * 100)", "bounds"),
    ("print(sum(range(10**12)))", "range"),
    ("print(list(iter(int, 1)))", "sentinel"),
    ("print('x'.ljust(10**11))", "characters"),
    ("print(f'{1:>99999999999}')", "width"),
    ("while True:\n    print('x' * 10**6)", "output"),
    ("import re\nre.sub(r'(a|aa)+$', '', 'a' * 40 + 'b')", "alternatives under repetition"),
    ("import re\nre.match(r'(a+)+$', 'a' * 40 + 'b')", "nested repetition"),
    ("import re\nre.search(r'(\\w)\\1', 'aa')", "back-references"),
    # whether a written file is still held is searched for within a budget, per search and per run
    ("big = list(range(10**6))\nfor i in range(3000):\n    open('f', 'a').write('x')\nopen('f').read()", "buffered"),
])
def test_runaway_programs_end_in_unknown(program, reason):
    result = run_model(program, FILES, "c")
    assert result.unknown is not None and reason in result.unknown, result.unknown


def test_the_step_budget_is_a_parameter():
    program = "total = 0\nfor i in range(1000):\n    total += i\nprint(total)"
    assert run_model(program, FILES, "c").stdout == b"499500\n"
    small = run_model(program, FILES, "c", limits=Limits(steps=500))
    assert "step budget of 500" in small.unknown


def test_writing_gigabytes_stops_at_the_tree_budget():
    program = "with open('big', 'w') as f:\n    while True:\n        f.write('x' * 10**6)"
    result = run_model(program, FILES, "c")
    assert "budget" in result.unknown
    small = run_model("open('big', 'w').write('x' * 5000)", FILES, "c", budget=Budget(max_bytes=4096))
    assert "budget" in small.unknown
    fits = run_model("open('big', 'w').write('x' * 4000)", FILES, "c", budget=Budget(max_bytes=4096))
    assert fits.unknown is None and fits.tree["big"] == b"x" * 4000


def registry(ctx):
    """A stand-in command registry knowing echo, cat, true and false (checked against the real ones below)."""
    name = ctx.argv[0].rsplit("/", 1)[-1]
    if name == "echo":
        return CommandResult(0, (" ".join(ctx.argv[1:]) + "\n").encode())
    if name == "cat":
        out = b""
        for path in ctx.argv[1:]:
            out += ctx.tree.read_bytes(path if path.startswith("/") else ctx.cwd + "/" + path)
        return CommandResult(0, out if len(ctx.argv) > 1 else ctx.stdin)
    if name in ("true", "false"):
        return CommandResult(int(name == "false"))
    return CommandResult(0, unknown=f"{name} is not modelled")


@pytest.mark.parametrize("program", [
    "import subprocess\nr = subprocess.run(['echo', 'hi there'], capture_output=True, text=True)\nprint(repr(r.stdout), r.returncode)",
    "import subprocess\nprint('first')\nsubprocess.run(['echo', 'second'])\nprint('third', flush=True)\nsubprocess.run(['echo', 'fourth'])",
    "import subprocess\nsubprocess.run(['cat', 'notes.txt'], check=True)",
    "import subprocess\nopen('new.txt', 'w').write('made by python\\n')\nprint(subprocess.check_output(['cat', 'new.txt']))",
    "import subprocess\nsubprocess.run(['false'], check=True)",
    "import subprocess\nprint(subprocess.call(['false']), subprocess.run(['true']).returncode)",
    "import subprocess\nr = subprocess.run(['cat'], input='piped\\n', stdout=subprocess.PIPE, text=True)\nprint(r.stdout.upper())",
    "import subprocess\nsubprocess.check_call(['false'])",
])
def test_subprocess_through_the_registry_hook_agrees(program):
    assert differences(program, FILES, "c", run_command=registry) == []


def test_subprocess_without_a_registry_is_unknown():
    result = run_model("import subprocess\nsubprocess.run(['git', 'commit', '-m', 'a b'])", FILES, "c")
    assert result.unknown == "python3: subprocess git commit -m 'a b'"


def test_subprocess_unknown_to_the_registry_is_unknown():
    result = run_model("import subprocess\nsubprocess.run(['jq', '.'])", FILES, "c", run_command=registry)
    assert result.unknown == "python3: jq is not modelled"


def utilities_registry(ctx):
    """The utility models of qbcore.model.utilities as the hook, as the effect model will wire them."""
    registry = pytest.importorskip("qbcore.model.utilities.registry")
    found = registry.lookup(ctx.argv[0].rsplit("/", 1)[-1])
    if found is None:
        return CommandResult(0, unknown=f"{ctx.argv[0]} is not modelled")
    return found(ctx)


@pytest.mark.parametrize("program", [
    "import os, subprocess\nsubprocess.run(['mkdir', '-p', 'out/sub'], check=True)\n"
    "subprocess.run(['cp', 'notes.txt', 'out/sub/'])\nprint(sorted(os.listdir('out/sub')))",
    "import subprocess\nopen('x.txt', 'w').write('a b\\n')\nsubprocess.run(['sed', '-i', 's/a/A/', 'x.txt'])\n"
    "print(open('x.txt').read(), end='')",
    "import subprocess\nr = subprocess.run(['mv', 'nothere', 'd'], capture_output=True, text=True)\nprint(r.returncode, r.stderr)",
])
def test_subprocess_through_the_utility_models_agrees(program):
    assert differences(program, FILES, "c", run_command=utilities_registry) == []
