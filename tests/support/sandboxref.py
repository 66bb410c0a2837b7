"""One script in the effect model and in the executor's sandbox, over the same files at the
same path (so that messages naming a path agree): the model's run and both final trees."""

from __future__ import annotations

import datetime
import os
import shutil
import tempfile
from contextlib import contextmanager

import bashref
from utilities_diff import real_tree, virtual_tree
from qbcore.model.effects import run_effects
from qbcore.model.utilities.hostfacts import Facts, stated, system_programs
from qbcore.model.utilities.vfs import VirtualTree
from qbcore.realbash import sandbox


def unavailable() -> str | None:
    """Why the sandbox cannot run here, or None."""
    return sandbox.unavailable_reason()


@contextmanager
def task_folder():
    """A fresh folder the sandbox takes as the task directory, removed after (modes and all)."""
    root = tempfile.mkdtemp(prefix="qbcore-sandboxref-")
    try:
        yield root
    finally:
        for folder, _, _ in os.walk(root):
            os.chmod(folder, 0o700)
        shutil.rmtree(root, ignore_errors=True)


def model(script: str, root: str, files: dict, links: dict = {}, modes: dict = {}):
    """(run_effects' run, the final files in real_tree's form) of ``script`` in ``root``."""
    tree = VirtualTree.from_listing({f"{root}/{path}": data for path, data in files.items()},
                                    modes={f"{root}/{path}": mode for path, mode in modes.items()},
                                    symlinks={f"{root}/{path}": target for path, target in links.items()})
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", programs=system_programs())
    with stated(facts):
        run = run_effects(script, tree, root, bashref.executor_environ(root))
    return run, virtual_tree(tree, root)


def sandboxed(script: str, root: str, files: dict, links: dict = {}, modes: dict = {}) -> dict:
    """The final files of ``script`` run by bash in the sandbox, in ``root`` holding ``files``."""
    for path, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "wb") as handle:
            handle.write(data)
    for path, target in links.items():
        os.symlink(target, os.path.join(root, path))
    for path, mode in modes.items():
        os.chmod(os.path.join(root, path), mode)
    sandbox.run(["bash", "-c", script], workdir=root, env=bashref.executor_environ(root),
                limits=sandbox.Limits(wall_s=20.0))
    return real_tree(root, root)
