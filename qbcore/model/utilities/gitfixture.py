"""A task's git fixture in the virtual tree, and the validator's view of the final repository.

``lay`` runs the git model with the commands ``realbash.fixture`` runs with
real git, so the virtual repository starts as the executor's does.
``stored_repository`` answers the git check's questions from a final
snapshot (``{relative path: Entry}``), reading ``.git`` in git's format.
"""

from __future__ import annotations

import base64
from typing import Mapping

from .context import CommandContext
from .git import git
from .gitstore import StoredRepository, Unreadable
from .vfs import VirtualTree

__all__ = ["lay", "stored_repository", "NO_REPOSITORY"]


def _run(tree: VirtualTree, root: str, *argv: str):
    done = git(CommandContext(["git", *argv], b"", root, {"HOME": root}, tree))
    if done.unknown is not None or done.status != 0:
        raise Unreadable(f"the fixture's git {' '.join(argv)}: {done.unknown or done.stderr.decode()}")


def lay(tree: VirtualTree, root: str, spec: Mapping):
    """The repository ``realbash.fixture`` builds in ``root`` (whose files are already there)."""
    identity = spec["identity"]
    _run(tree, root, "init", "-q", "-b", "master", "--template=")
    _run(tree, root, "config", "user.email", identity["email"])
    _run(tree, root, "config", "user.name", identity["name"])
    if not spec.get("initial_commit", True):
        return
    _run(tree, root, "add", "-A")
    _run(tree, root, "commit", "-q", "-m", spec.get("initial_message", "Initial commit"))
    for change in spec.get("after_commit", ()):
        data = change["text"].encode("utf-8") if "text" in change else base64.b64decode(change["base64"])
        path = f"{root}/{change['path']}"
        tree.write_bytes(path, data)
        tree.chmod(path, int(change.get("mode", "0644"), 8))


class _Nowhere:
    """The answerer for a state whose checks ask nothing of git: any question is an error."""

    def __enter__(self):
        raise Unreadable("a git question about a task without a git check")

    def __exit__(self, *exc):
        return False


NO_REPOSITORY = _Nowhere()


def stored_repository(after: Mapping) -> StoredRepository:
    """The git check's questions answered from the snapshot's ``.git`` (symlinks there are not followed)."""

    def read(rel: str):
        entry = after.get(f".git/{rel}")
        if entry is None:
            return None
        if entry.kind != "file":
            raise Unreadable(f".git/{rel} is a {entry.kind}")
        return entry.data

    return StoredRepository(read, [path[5:] for path in after if path.startswith(".git/")])
