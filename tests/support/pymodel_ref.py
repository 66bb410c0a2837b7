"""Run a program both ways: through the python3 model on a virtual tree, and through
the real python3 in a temporary directory built from the same listing.

Only trusted, hand-written or generated programs come here (no sandbox).
The comparison covers what a validator sees: stdout, the exit status, the
last line of stderr (the exception python3 reports) and the final file tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from qbcore.model.pymodel import model
from qbcore.model.utilities.context import CommandContext
from qbcore.model.utilities.vfs import Budget, VirtualTree

PYTHON3 = shutil.which("python3") or "python3"
ROOT = "/task"


@dataclass
class Run:
    status: int
    stdout: bytes
    stderr: bytes
    tree: dict
    unknown: str | None = None
    status_unknown: str | None = None
    stdout_unknown: str | None = None
    stdout_unordered: str | None = None
    stderr_unknown: str | None = None

    @property
    def last_error_line(self) -> str:
        lines = self.stderr.decode("utf-8", "replace").rstrip("\n").split("\n")
        return lines[-1] if lines else ""


def environ(home: str) -> dict:
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "LANG": "C", "HOME": home}


def python3_c(body: str) -> str:
    """A bash line that runs ``body`` with python3 -c, single-quoted (the body holds no ')."""
    assert "'" not in body
    return f"python3 -c '{body}'"


def argv_for(program: str, how: str, args=()) -> tuple[list, bytes | None]:
    """(argv, stdin program) for the three ways replies start python3."""
    if how == "c":
        return ["python3", "-c", program, *args], None
    if how == "stdin":
        return ["python3", "-", *args], program.encode()
    if how == "file":
        return ["python3", "prog.py", *args], None
    raise ValueError(how)


def run_model(program: str, listing: dict, how: str = "c", args=(), stdin: bytes = b"",
              budget: Budget | None = None, run_command=None, limits=None) -> Run:
    files = {ROOT: None}
    files.update({f"{ROOT}/{k}": v for k, v in listing.items()})
    if how == "file":
        files[f"{ROOT}/prog.py"] = program.encode()
    tree = VirtualTree.from_listing(files, budget=budget)
    argv, program_stdin = argv_for(program, how, args)
    ctx = CommandContext(argv, program_stdin if program_stdin is not None else stdin, ROOT,
                         environ(ROOT), tree)
    if limits is not None:
        from qbcore.model.pymodel import python3_model
        result = python3_model(ctx, run_command=run_command, limits=limits)
    else:
        result = model(ctx, run_command=run_command)
    snapshot = {k[len(ROOT) + 1:]: v for k, v in tree.snapshot().items() if k.startswith(ROOT + "/")}
    return Run(result.status, result.stdout, result.stderr, snapshot, result.unknown, result.status_unknown,
               result.stdout_unknown, result.stdout_unordered, result.stderr_unknown)


def build(root: str, listing: dict):
    for rel, content in sorted(listing.items(), key=lambda kv: kv[0].count("/")):
        full = os.path.join(root, rel)
        if content is None:
            os.makedirs(full, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(content)


def snapshot(root: str) -> dict:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            full = os.path.join(dirpath, d)
            out[os.path.relpath(full, root)] = None
        for name in filenames:
            full = os.path.join(dirpath, name)
            with open(full, "rb") as f:
                out[os.path.relpath(full, root)] = f.read()
    return dict(sorted(out.items()))


def run_real(program: str, listing: dict, how: str = "c", args=(), stdin: bytes = b"") -> Run:
    with tempfile.TemporaryDirectory(prefix="pymodel-") as root:
        build(root, listing)
        if how == "file":
            with open(os.path.join(root, "prog.py"), "w") as f:
                f.write(program)
        argv, program_stdin = argv_for(program, how, args)
        argv[0] = PYTHON3
        proc = subprocess.run(argv, cwd=root, env=environ(root), capture_output=True,
                              input=program_stdin if program_stdin is not None else stdin, timeout=60)
        return Run(proc.returncode, proc.stdout, proc.stderr, snapshot(root))


def differences(program: str, listing: dict, how: str = "c", args=(), stdin: bytes = b"",
                run_command=None) -> list:
    """What the model gets wrong about ``program`` (empty when it agrees with python3)."""
    modelled = run_model(program, listing, how, args, stdin, run_command=run_command)
    if modelled.unknown is not None:
        return [f"model says unknown: {modelled.unknown}"]
    real = run_real(program, listing, how, args, stdin)
    problems = []
    if modelled.stdout_unordered is not None:  # lines known, not their order
        if sorted(modelled.stdout.split(b"\n")) != sorted(real.stdout.split(b"\n")):
            problems.append(f"stdout lines: model {modelled.stdout!r} real {real.stdout!r}")
    elif modelled.stdout != real.stdout and modelled.stdout_unknown is None:
        problems.append(f"stdout: model {modelled.stdout!r} real {real.stdout!r}")
    if modelled.status != real.status and modelled.status_unknown is None:
        problems.append(f"status: model {modelled.status} real {real.status} ({real.stderr[-300:]!r})")
    if modelled.stderr_unknown is None and modelled.last_error_line != real.last_error_line or \
            modelled.stderr_unknown is not None and not real.stderr.startswith(modelled.stderr):
        # (a traceback the model does not wholly know: what it says of it starts the real one)
        problems.append(f"stderr: model {modelled.stderr!r} ({modelled.stderr_unknown}) real {real.stderr!r}")
    if modelled.tree != real.tree:
        problems.append(f"tree: model {modelled.tree!r} real {real.tree!r}")
    return problems
