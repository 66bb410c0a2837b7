"""A directory's content as data: read without following a symlink, written without writing through one.

The sandbox carries task directories in and out of its private filesystem
this way, and the executor keeps each built fixture as such a list to lay it
down fresh for every attempt. A directory a reply has had its hands on is
read from a descriptor opened before the reply ran, one ``openat`` at a time
(never a path resolved from the top, never a symlink followed), without
recursion, and under caps on entries, depth and bytes: ``TooLarge`` says
which cap ended the read. ``dump`` and ``load`` carry a node list over a pipe.
"""

from __future__ import annotations

import os
import stat
import struct
from collections import namedtuple

__all__ = ["Node", "Caps", "TooLarge", "read", "read_at", "write", "clear", "dump", "load"]

# what a written entry may keep of its mode: never the set-id bits
MODE_BITS = 0o1777


class Node(namedtuple("Node", "path kind mode data target", defaults=(0, b"", ""))):
    """One entry, parents before children: ``kind`` is dir, file, symlink, fifo or other.

    (A named tuple, not a dataclass: the sandbox's zygote imports this module
    at every start, and dataclasses costs more to import than the rest of it.)
    """

    __slots__ = ()


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


class Caps(namedtuple("Caps", "entries depth data_bytes name_bytes", defaults=(20000, 64, 192 << 20, 8 << 20))):
    """The most a read may return: entries, directory depth, bytes of file content, bytes of path and link text."""

    __slots__ = ()


class TooLarge(Exception):
    """A read stopped at a cap; the message names it."""


_KINDS = ("dir", "file", "symlink", "fifo", "other")


def read_at(dirfd: int, caps: Caps = Caps()) -> list[Node]:
    """Every entry under the directory open on ``dirfd`` (as ``read``), walking by descriptors only.

    Each directory is opened with ``openat(O_NOFOLLOW | O_DIRECTORY)``
    relative to its parent's descriptor and each entry is examined with
    ``fstatat(AT_SYMLINK_NOFOLLOW)``, so no symlink anywhere is followed, and
    a path name is never resolved from the top. Raises TooLarge past a cap.
    """
    nodes: list[Node] = []
    data_bytes = name_bytes = 0
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    # the stack holds (descriptor, relative path, depth); it grows with the
    # number of directories, never with recursion
    stack = [(os.dup(dirfd), "", 0)]
    try:
        while stack:
            fd, rel_dir, depth = stack.pop()
            try:
                subdirs = []
                with os.scandir(fd) as entries:
                    names = []
                    for entry in entries:
                        names.append(entry.name)
                        if len(nodes) + len(names) > caps.entries:
                            raise TooLarge(f"more than {caps.entries} entries in the directory")
                for name in sorted(names):
                    rel = f"{rel_dir}/{name}" if rel_dir else name
                    name_bytes += len(rel.encode(errors="surrogateescape"))
                    if name_bytes > caps.name_bytes:
                        raise TooLarge(f"more than {caps.name_bytes} bytes of path names")
                    info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    mode = stat.S_IMODE(info.st_mode)
                    if stat.S_ISDIR(info.st_mode):
                        if depth + 1 > caps.depth:
                            raise TooLarge(f"directories nested deeper than {caps.depth}")
                        nodes.append(Node(rel, "dir", mode))
                        subdirs.append((name, rel))
                    elif stat.S_ISREG(info.st_mode):
                        # st_size of a sparse file is what reading it would return
                        data_bytes += info.st_size
                        if data_bytes > caps.data_bytes:
                            raise TooLarge(f"more than {caps.data_bytes} bytes of file content")
                        nodes.append(Node(rel, "file", mode, _read_file(name, fd, info.st_size)))
                    elif stat.S_ISLNK(info.st_mode):
                        target = os.readlink(name, dir_fd=fd)
                        name_bytes += len(target.encode(errors="surrogateescape"))
                        if name_bytes > caps.name_bytes:
                            raise TooLarge(f"more than {caps.name_bytes} bytes of path names")
                        nodes.append(Node(rel, "symlink", target=target))
                    elif stat.S_ISFIFO(info.st_mode):
                        nodes.append(Node(rel, "fifo", mode))
                    else:
                        nodes.append(Node(rel, "other", mode))
                for name, rel in reversed(subdirs):
                    stack.append((os.open(name, flags | os.O_DIRECTORY, dir_fd=fd), rel, depth + 1))
            finally:
                os.close(fd)
    finally:
        for fd, _, _ in stack:
            os.close(fd)
    # parents first, siblings sorted: the order ``read`` gives
    return nodes


def _read_file(name: str, dirfd: int, size: int) -> bytes:
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dirfd)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        chunks, left = [], size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


_HEAD = struct.Struct("<BIIIQ")  # kind, mode, path length, target length, data length


def dump(nodes: list[Node]) -> bytes:
    """The nodes as bytes for ``load``."""
    parts = []
    for node in nodes:
        path = node.path.encode(errors="surrogateescape")
        target = node.target.encode(errors="surrogateescape")
        parts += [_HEAD.pack(_KINDS.index(node.kind), node.mode, len(path), len(target), len(node.data)),
                  path, target, node.data]
    return b"".join(parts)


def load(data: bytes, caps: Caps = Caps()) -> list[Node]:
    """The nodes ``dump`` wrote, checked: within ``caps``, relative paths without '..', parents before children.

    Raises TooLarge past a cap and ValueError for anything malformed.
    """
    nodes: list[Node] = []
    dirs = {""}
    seen = set()
    view = memoryview(data)
    at = data_bytes = 0
    while at < len(view):
        if at + _HEAD.size > len(view):
            raise ValueError("truncated node list")
        kind, mode, path_len, target_len, data_len = _HEAD.unpack_from(view, at)
        at += _HEAD.size
        end = at + path_len + target_len + data_len
        if kind >= len(_KINDS) or end > len(view):
            raise ValueError("malformed node list")
        path = bytes(view[at:at + path_len]).decode(errors="surrogateescape")
        target = bytes(view[at + path_len:at + path_len + target_len]).decode(errors="surrogateescape")
        content = bytes(view[at + path_len + target_len:end])
        at = end
        parts = path.split("/")
        if not path or any(p in ("", ".", "..") for p in parts) or "\0" in path or path in seen:
            raise ValueError(f"bad path in node list: {path!r}")
        if "/".join(parts[:-1]) not in dirs:
            raise ValueError(f"entry before its directory in node list: {path!r}")
        if len(parts) > caps.depth:
            raise TooLarge(f"directories nested deeper than {caps.depth}")
        data_bytes += len(content)
        if len(nodes) >= caps.entries:
            raise TooLarge(f"more than {caps.entries} entries in the directory")
        if data_bytes > caps.data_bytes:
            raise TooLarge(f"more than {caps.data_bytes} bytes of file content")
        seen.add(path)
        if _KINDS[kind] == "dir":
            dirs.add(path)
        nodes.append(Node(path, _KINDS[kind], mode & 0o7777, content, target))
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
                directories.append((path, node.mode & MODE_BITS))
            elif node.kind == "file":
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                try:
                    view = memoryview(node.data)
                    while view:
                        view = view[os.write(fd, view):]
                    os.fchmod(fd, node.mode & MODE_BITS)
                finally:
                    os.close(fd)
            elif node.kind == "symlink":
                os.symlink(node.target, path)
            elif node.kind == "fifo":
                os.mkfifo(path, node.mode & MODE_BITS)
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
