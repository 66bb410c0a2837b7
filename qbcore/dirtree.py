"""A directory's content as data: read without following a symlink, written without writing through one.

The sandbox carries task directories in and out of its private filesystem
this way, and the executor keeps each built fixture as such a list to lay it
down fresh for every attempt.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

__all__ = ["Node", "read", "write", "clear"]

# what a written entry may keep of its mode: never the set-id bits
_MODE_BITS = 0o1777


@dataclass(frozen=True)
class Node:
    """One entry, parents before children: ``kind`` is dir, file, symlink, fifo or other."""

    path: str
    kind: str
    mode: int = 0
    data: bytes = b""
    target: str = ""


def read(root: str) -> list[Node]:
    """Every entry under ``root`` (relative '/'-separated paths, sorted, parents first).

    Symlinks are recorded, never followed; special files are recorded as
    ``other`` without their content.
    """
    nodes: list[Node] = []
    pending = [""]
    while pending:
        rel_dir = pending.pop()
        here = os.path.join(root, rel_dir) if rel_dir else root
        subdirs = []
        for name in sorted(os.listdir(here)):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            path = os.path.join(here, name)
            info = os.lstat(path)
            mode = stat.S_IMODE(info.st_mode)
            if stat.S_ISDIR(info.st_mode):
                nodes.append(Node(rel, "dir", mode))
                subdirs.append(rel)
            elif stat.S_ISREG(info.st_mode):
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                with os.fdopen(fd, "rb") as handle:
                    nodes.append(Node(rel, "file", mode, handle.read()))
            elif stat.S_ISLNK(info.st_mode):
                nodes.append(Node(rel, "symlink", target=os.readlink(path)))
            elif stat.S_ISFIFO(info.st_mode):
                nodes.append(Node(rel, "fifo", mode))
            else:
                nodes.append(Node(rel, "other", mode))
        pending.extend(reversed(subdirs))
    return nodes


def write(nodes: list[Node], root: str, notes: list[str] | None = None):
    """Create ``nodes`` inside the existing, empty directory ``root``.

    A new entry never replaces or goes through an existing one (O_EXCL,
    O_NOFOLLOW), set-id bits are dropped and special files are skipped. With
    ``notes``, an entry that cannot be written is skipped and named there;
    without, the error is raised.
    """
    directories = []
    for node in nodes:
        path = os.path.join(root, node.path)
        try:
            if node.kind == "dir":
                os.mkdir(path, 0o700)
                directories.append((path, node.mode & _MODE_BITS))
            elif node.kind == "file":
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                try:
                    view = memoryview(node.data)
                    while view:
                        view = view[os.write(fd, view):]
                    os.fchmod(fd, node.mode & _MODE_BITS)
                finally:
                    os.close(fd)
            elif node.kind == "symlink":
                os.symlink(node.target, path)
            elif node.kind == "fifo":
                os.mkfifo(path, node.mode & _MODE_BITS)
            elif notes is not None:
                notes.append(f"special file not returned: {node.path}")
        except OSError as exc:
            if notes is None:
                raise
            notes.append(f"entry not returned ({exc.strerror}): {node.path}")
    # directories last and deepest first, so a read-only one does not block its own content
    for path, mode in reversed(directories):
        os.chmod(path, mode)


def clear(root: str):
    """Remove everything inside ``root`` (never following a symlink), keeping ``root`` itself."""
    import shutil

    for name in os.listdir(root):
        path = os.path.join(root, name)
        if os.path.isdir(path) and not os.path.islink(path):
            for current, dirs, _ in os.walk(path):
                # a directory the reply made read-only must open up to be emptied
                for name_ in dirs:
                    inner = os.path.join(current, name_)
                    if not os.path.islink(inner):
                        os.chmod(inner, 0o700)
            os.chmod(path, 0o700)
            shutil.rmtree(path)
        else:
            os.unlink(path)
