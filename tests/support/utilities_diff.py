"""Run a command model and the real utility on the same listing; compare everything.

The real tool runs in a temp directory built from the listing (paths under
``/task`` map to the temp root), with LC_ALL=C; printf and echo run as bash
builtins. Compared: stdout, stderr, status and the final tree (contents and
symlinks). Messages from bash builtins start with ``bash: line N:`` under
``bash -c``; the model writes ``bash:``, and the comparison maps one onto the other.
"""

from __future__ import annotations

import datetime
import os
import re
import shutil
import subprocess
import tempfile

import bashref
from bashref import host_facts
from pymodel_ref import build
from qbcore.model.effects import run_effects
from qbcore.model.utilities.context import CommandContext
from qbcore.model.utilities.hostfacts import Facts, stated, system_programs, system_unrunnable
from qbcore.model.utilities.registry import MODELS
from qbcore.model.utilities.vfs import UnknownData, VirtualTree

ENV = {"LC_ALL": "C", "LANG": "C", "PATH": "/usr/bin:/bin"}
BUILTINS = {"printf", "echo", "pwd"}


def real_tree(root: str, at: str = "/task") -> dict:
    """The files under the real directory ``root``, named as if it stood at ``at``
    (links as ("link", target), directories None, files their bytes)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.join(at, os.path.relpath(full, root))
            if os.path.islink(full):
                out[rel] = ("link", os.readlink(full))
            elif os.path.isdir(full):
                out[rel] = None
            else:
                with open(full, "rb") as f:
                    out[rel] = f.read()
    return out


def virtual_tree(tree: VirtualTree, at: str = "/task") -> dict:
    """The files under ``at`` in ``tree``, in real_tree's form."""
    links = tree.symlinks()
    snap = tree.snapshot()
    out = {}
    for path in tree.walk(at):
        if path == at:
            continue
        out[path] = ("link", links[path]) if path in links else snap.get(path)
    return out


def unknown_why(run, tree: VirtualTree, at: str = "/"):
    """Why the final state of the effect model's ``run`` over ``tree`` is not wholly known: the
    run's own reason, the files' loss, or a file under ``at`` whose bytes the model does not
    know (vfs.UnknownData); None when it is all known."""
    if run.unknown is not None or run.files.lost is not None:
        return run.unknown or run.files.lost
    inside = at.rstrip("/") + "/"
    return next((node.data.why for path, node in tree.nodes().items()
                 if type(node.data) is UnknownData and (path + "/").startswith(inside)), None)


def same_files(virtual: dict, real: dict) -> bool:
    """``virtual`` (virtual_tree) holds what ``real`` (real_tree) does, where a file whose bytes
    the model does not know stands for a file with any bytes."""
    return virtual.keys() == real.keys() and all(
        value == real[path] or type(value) is UnknownData and isinstance(real[path], bytes)
        for path, value in virtual.items())


def lay(root: str, listing: dict, links=None):
    """Make ``listing`` (and ``links``, path -> target) under the real directory ``root``."""
    build(root, listing)
    for path, target in (links or {}).items():
        os.symlink(target, os.path.join(root, path))


def run_real(argv, listing, stdin=b"", links=None, modes=None, merged=False):
    """(status, stdout, stderr, tree) of the real tool; with ``merged``, stdout holds its
    stdout and stderr written to one pipe, and stderr is None."""
    with tempfile.TemporaryDirectory() as root:
        lay(root, listing, links)
        if modes is not None:
            os.chmod(root, 0o755)  # (a temporary directory starts 0700; the model's 0755)
        for path, mode in (modes or {}).items():
            os.chmod(os.path.join(root, path), mode)
        cmd = (["bash", "-c", '"$@"', "bash"] + argv) if argv[0] in BUILTINS else argv
        proc = subprocess.run(cmd, cwd=root, env=ENV, input=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT if merged else subprocess.PIPE, timeout=20)
        stderr = None if merged else re.sub(rb"^bash: line \d+: ", b"bash: ", proc.stderr, flags=re.M)
        return proc.returncode, proc.stdout, stderr, real_tree(root)


def run_model(argv, listing, stdin=b"", links=None, modes=None):
    """(status, stdout, stderr, tree) of the model, in run_real's form; None when unknown."""
    found = _model_result(argv, listing, stdin, links, modes)
    return None if found is None else _in_real_form(*found)


def _in_real_form(res, tree) -> tuple:
    """A model's CommandResult and tree after it, in run_real's form."""
    stderr = res.stderr if res.stderr_unknown is None else StderrStart(res.stderr)
    stdout = ANY if res.stdout_unknown is not None else \
        StdoutLines(res.stdout) if res.stdout_unordered is not None else res.stdout
    return ANY if res.status_unknown is not None else res.status, stdout, stderr, virtual_tree(tree)


def _model_result(argv, listing, stdin=b"", links=None, modes=None):
    """(CommandResult, the virtual tree after it) of the model; None when it says unknown."""
    tree = VirtualTree.from_listing({"/task": None, **{"/task/" + p: c for p, c in listing.items()}},
                                    symlinks={"/task/" + p: t for p, t in (links or {}).items()})
    for path, mode in (modes or {}).items():
        tree.chmod("/task/" + path, mode)
    # (the real tool reads its stdin from a pipe)
    ctx = CommandContext(argv=list(argv), stdin=stdin, cwd="/task", env=dict(ENV), tree=tree, stdin_regular=False)
    with host_facts():  # the real tool runs here, with this machine's programs on PATH
        res = MODELS[argv[0]](ctx)
    return None if res.unknown is not None else (res, tree)


class StderrStart(bytes):
    """What a model knows of stderr when it knows only how it starts."""


class StdoutLines(bytes):
    """What a model knows of stdout when it knows its lines, not their order."""

    def __eq__(self, other):
        return sorted(bytes(self).split(b"\n")) == sorted(bytes(other).split(b"\n"))

    __hash__ = bytes.__hash__


class _Any:
    """A part of the result the model says it does not know: anything agrees with it."""

    def __eq__(self, other):
        return True

    def __repr__(self):
        return "<unknown>"


ANY = _Any()


def compare(argv, listing=None, stdin=b"", links=None):
    """None when the model says unknown; else asserts agreement and returns True."""
    listing = listing or {}
    found = _model_result(argv, listing, stdin, links)
    if found is None:
        return None
    res, tree = found
    model = _in_real_form(res, tree)
    real = run_real(argv, listing, stdin, links)
    if isinstance(model[2], StderrStart):  # stderr known only up to a point: the rest is the utility's
        assert real[2].startswith(model[2]) and (model[0], model[1], model[3]) == (real[0], real[1], real[3]), \
            f"{argv!r}\nmodel: {model!r} (stderr: its start)\nreal:  {real!r}"
        return True
    assert model == real, f"{argv!r}\nmodel: {model!r}\nreal:  {real!r}"
    merged = None if res.stdout_unknown or res.stdout_unordered or res.stderr_unknown else res.merged
    if merged is not None:  # the model says how its stdout and stderr read in one place
        _, together, _, _ = run_real(argv, listing, stdin, links, merged=True)
        assert merged == together, f"{argv!r} (stdout and stderr in one place)\nmodel: {merged!r}\nreal:  {together!r}"
    return True


def compare_modes(argv, listing, modes, links=None, stdin=b""):
    """compare(), the permission bits of every entry too; ``modes`` {path: bits} are set
    on both trees first. None when the model says unknown."""
    tree = VirtualTree.from_listing({"/task": None, **{"/task/" + p: c for p, c in listing.items()}},
                                    symlinks={"/task/" + p: t for p, t in (links or {}).items()})
    for path, mode in modes.items():
        tree.chmod("/task/" + path, mode)
    with host_facts():
        res = MODELS[argv[0]](CommandContext(argv=list(argv), stdin=stdin, cwd="/task", env=dict(ENV), tree=tree,
                                             stdin_regular=False))
    if res.unknown is not None:
        return None
    model = (res.status, res.stdout, res.stderr, virtual_tree(tree),
             {p: tree.lmode(p) & 0o7777 for p in tree.walk("/task") if not tree.is_symlink(p)})
    with tempfile.TemporaryDirectory() as root:
        lay(root, listing, links)
        os.chmod(root, 0o755)
        for path, mode in modes.items():
            os.chmod(os.path.join(root, path), mode)
        proc = subprocess.run(argv, cwd=root, env=ENV, input=stdin, capture_output=True, timeout=20)
        found = {}
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                full = os.path.join(dirpath, name)
                if not os.path.islink(full):
                    found["/task/" + os.path.relpath(full, root)] = os.lstat(full).st_mode & 0o7777
        found["/task"] = os.lstat(root).st_mode & 0o7777
        real = (proc.returncode, proc.stdout, proc.stderr, real_tree(root), found)
        for dirpath, dirnames, _ in os.walk(root):  # let the directory go, whatever the modes left
            for name in dirnames:
                os.chmod(os.path.join(dirpath, name), 0o755)
    assert model == real, f"{argv!r}\nmodel: {model!r}\nreal:  {real!r}"
    return True


#: where the effect model places a script's fixture (script_model, compare_script)
SCRIPT_ROOT = "/work/task"


def script_model(script: str, fixture: dict, links=None):
    """``(run, tree)``: ``script`` run by the effect model over a virtual tree holding
    ``fixture`` (and ``links``, path -> target) at SCRIPT_ROOT, at a fixed time."""
    tree = VirtualTree.from_listing({f"{SCRIPT_ROOT}/{path}": data for path, data in fixture.items()},
                                    symlinks={f"{SCRIPT_ROOT}/{path}": target for path, target in (links or {}).items()})
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", programs=system_programs(),
                  unrunnable=system_unrunnable())
    with stated(facts):
        run = run_effects(script, tree, SCRIPT_ROOT, bashref.executor_environ(SCRIPT_ROOT))
    return run, tree


def compare_script(script: str, fixture: dict, *, where=None, links=None, certain: bool = False,
                   status: bool = False) -> bool:
    """``script`` in real bash in the directory ``where`` (a fresh one, removed after, when
    None) holding ``fixture``, and in the effect model (script_model): whether the model
    decided it; where it did, the two final trees must be equal (and with ``status`` the
    statuses), and with ``certain`` it must. A file whose bytes the model does not know
    leaves the run undecided, and the rest of the tree must still be bash's (same_files)."""
    root = bashref.tempdir() if where is None else str(where)
    try:
        lay(root, fixture, links)
        real = bashref.run(script, cwd=root)
        run, tree = script_model(script, fixture, links)
        why = unknown_why(run, tree, SCRIPT_ROOT)
        if certain:
            assert why is None, why
        if run.unknown is None and run.files.lost is None:
            virtual, found = virtual_tree(tree, SCRIPT_ROOT), real_tree(root, SCRIPT_ROOT)
            assert same_files(virtual, found), (virtual, found, real.error)
            assert why is not None or not status or run.status == real.status, (run.status, real.status, real.error)
        return why is None
    finally:
        if where is None:
            shutil.rmtree(root)
