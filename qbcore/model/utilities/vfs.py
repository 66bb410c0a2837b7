"""A virtual file tree: the task's files as pure data, so command models can change them.

Nothing here touches the real file system. Paths are normalised by the tree
itself (``.``, ``..``, ``//``, symlinks inside the tree); errors carry the
errno name and the path exactly as the caller spelled it, so models can print
the wording the real tool would. A :class:`Budget` is checked *before* any
write, so a runaway script cannot grow the tree past it.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Optional

__all__ = ["VirtualTree", "VfsError", "VfsBudgetExceeded", "Budget", "STRERROR", "UnknownData",
           "UnknownContent", "join"]

#: strerror(3) wording of glibc, as bash and coreutils print it.
STRERROR = {
    "ENOENT": "No such file or directory",
    "EEXIST": "File exists",
    "ENOTDIR": "Not a directory",
    "EISDIR": "Is a directory",
    "ENOTEMPTY": "Directory not empty",
    "EINVAL": "Invalid argument",
    "ELOOP": "Too many levels of symbolic links",
    "EBUSY": "Device or resource busy",
    "EACCES": "Permission denied",
    "EXDEV": "Invalid cross-device link",
    "ENAMETOOLONG": "File name too long",
    "EROFS": "Read-only file system",
}

_MAX_SYMLINK_HOPS = 40  # Linux's MAXSYMLINKS

#: the change logs open now (sets): every change of any tree adds its canonical path to each,
#: a move its source and target (the entries below them moved with them); a reader of the
#: log learns what changed, even a change undone later, which a diff of two states misses
CHANGE_LOGS: list = []


#: while a program's model runs (commands.programs), a set for it that learns each entry the
#: program used in a way its mode withholds from its owner: a file read or written in place, a
#: folder listed, searched on a lookup's way, or given or robbed of a name. Root may, its owner
#: may not, and the models do not follow who runs them (nor how each program words the failure)
WITHHELD_ACCESS: list = []


class Refusing(set):
    """A WITHHELD_ACCESS log for a program whose own words for such a failure the model has
    (measured): while it is the innermost log, a use its owner may not make fails with EACCES
    where the kernel would fail it, and nothing is learnt."""


def _withheld(canon: str, given: str = "") -> None:
    """``canon`` used as its mode withholds from its owner, by a call on path ``given``."""
    if WITHHELD_ACCESS[-1].__class__ is Refusing:
        raise VfsError("EACCES", given or canon, canon)
    for log in WITHHELD_ACCESS:
        log.add(canon)


def _logged(*paths: str) -> None:
    for log in CHANGE_LOGS:
        log.update(paths)


_FILE, _DIR, _LINK = "f", "d", "l"


class VfsError(Exception):
    """A failed file operation: ``errno_name`` (``"ENOENT"``…) and the caller's ``path``."""

    def __init__(self, errno_name: str, path: str, at: str = ""):
        super().__init__(errno_name, path)
        self.errno_name = errno_name
        self.path = path
        self.at = at  # the entry a lookup failed at, after the symlinks on the way ("": not a lookup)

    @property
    def strerror(self) -> str:
        return STRERROR.get(self.errno_name, self.errno_name)

    def __str__(self) -> str:
        return f"{self.path}: {self.strerror}"


class UnknownContent(Exception):
    """The bytes of a file were asked for, and the model does not know them (``why`` says what
    wrote them): what asked is not followed. Not a VfsError, so no model words it as a failed call."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class UnknownData:
    """The bytes of a file that the model does not know, as its node holds them: ``why`` says what
    wrote them (the output of git log, a message of bash's own). The file is there, with its
    mode: it can be listed, renamed, removed or judged by its name, but whoever asks for its
    bytes or its size gets UnknownContent; bytes appended to it leave it unknown."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why

    def __repr__(self) -> str:
        return f"UnknownData({self.why!r})"


class VfsBudgetExceeded(Exception):
    """A write would pass the tree's budget; not a VfsError, so no model swallows it."""

    def __init__(self, what: str, limit: int):
        super().__init__(f"virtual tree budget exceeded: {what} over {limit}")
        self.what = what
        self.limit = limit


@dataclass
class Budget:
    """Limits on bytes written (cumulative) and on entries held; checked before each write."""

    max_bytes: int = 64 * 1024 * 1024
    max_entries: int = 100_000
    bytes_written: int = 0

    def charge_bytes(self, n: int) -> None:
        if self.bytes_written + n > self.max_bytes:
            raise VfsBudgetExceeded("bytes written", self.max_bytes)
        self.bytes_written += n

    def check_entries(self, count: int) -> None:
        if count > self.max_entries:
            raise VfsBudgetExceeded("entries", self.max_entries)


class _Node:
    """One entry. Replaced, never mutated, so clones can share nodes."""

    __slots__ = ("kind", "data", "mode", "target")

    def __init__(self, kind: str, data: bytes = b"", mode: int = 0o644, target: str = ""):
        self.kind = kind
        self.data = data
        self.mode = mode
        self.target = target


class _Store:
    """The shared state behind a tree and its ``at(cwd)`` views.

    ``version`` is a token replaced at every change of the entries: two stores holding the
    same token hold the same entries (a clone keeps its origin's token until it changes),
    which tells a cache that a tree is as it started without comparing entries."""

    __slots__ = ("nodes", "children", "budget", "version", "withholding")

    def __init__(self, nodes, children, budget, version=None, withholding=False):
        self.nodes: dict[str, _Node] = nodes
        # each directory's names as a frozenset, replaced on change, so a clone shares them
        self.children: dict[str, frozenset[str]] = children
        self.budget: Budget = budget
        self.version = object() if version is None else version
        # once a folder's mode has withheld from its owner what lookups and listings need, the
        # walks while a program runs check each folder (WITHHELD_ACCESS); until then they need not
        self.withholding = withholding


def changed_paths(before: dict, tree: "VirtualTree") -> set:
    """The paths whose entries differ between ``before`` (a copy of ``tree.nodes()`` taken
    earlier) and ``tree`` now: nodes are replaced, never changed, so identity tells."""
    after = tree.nodes()
    return {k for k in set(before) | set(after) if before.get(k) is not after.get(k)}


def same_entries(a: "VirtualTree", b: "VirtualTree") -> bool:
    """Whether two trees hold the same entries (kinds, bytes, modes, link targets)."""
    def state(tree):
        return {path: (node.kind, node.data, node.mode, node.target) for path, node in tree.nodes().items()}
    return state(a) == state(b)


def join(cwd: str, path: str) -> str:
    """``path`` made absolute against ``cwd`` (lexically; no symlinks)."""
    if path.startswith("/"):
        return path
    return (cwd.rstrip("/") or "") + "/" + path if path else cwd


def _parent(path: str) -> str:
    """``posixpath.dirname(path) or "/"``, spelled out: it runs at every step of a lookup
    (qbcore.model.files has the same for its view; the utilities import nothing of the model)."""
    i = path.rfind("/") + 1
    head = path[:i]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head or "/"


class VirtualTree:
    """A file tree in memory. ``at(cwd)`` gives a view resolving relative paths against cwd."""

    def __init__(self, budget: Budget | None = None, cwd: str = "/"):
        root = _Node(_DIR, mode=0o755)
        self._store = _Store({"/": root}, {"/": frozenset()}, budget or Budget())
        self.cwd = cwd

    # -- construction -------------------------------------------------------
    @classmethod
    def from_listing(cls, listing: dict, modes: dict | None = None,
                     budget: Budget | None = None, symlinks: dict | None = None) -> "VirtualTree":
        """A tree from ``{path: bytes | None}`` (None = directory); parents are implied."""
        tree = cls(budget=budget)
        for path in sorted(listing, key=lambda p: p.count("/")):
            content = listing[path]
            if content is None:
                tree.mkdir(path, parents=True, exist_ok=True)
            else:
                tree.mkdir(_parent(join("/", path)), parents=True, exist_ok=True)
                tree.write_bytes(path, bytes(content))
        for path, target in (symlinks or {}).items():
            tree.mkdir(_parent(join("/", path)), parents=True, exist_ok=True)
            tree.symlink(target, path)
        for path, mode in (modes or {}).items():
            tree.chmod(path, mode)
        return tree

    def at(self, cwd: str) -> "VirtualTree":
        """A view of the same tree whose relative paths start at ``cwd``."""
        view = VirtualTree.__new__(VirtualTree)
        view._store = self._store
        view.cwd = join(self.cwd, cwd)
        return view

    def clone(self) -> "VirtualTree":
        """An independent copy (nodes are shared until replaced; budget counters copied)."""
        copy = VirtualTree.__new__(VirtualTree)
        store = self._store
        b = store.budget
        copy._store = _Store(dict(store.nodes), dict(store.children),
                             Budget(b.max_bytes, b.max_entries, b.bytes_written), store.version,
                             store.withholding)
        copy.cwd = self.cwd
        return copy

    @property
    def budget(self) -> Budget:
        return self._store.budget

    # -- path resolution ----------------------------------------------------
    def _resolve(self, path: str, follow_last: bool = True) -> tuple[str, _Node | None]:
        """(canonical path, node or None when absent); parent components must exist."""
        return self._lookup(path, follow_last)[:2]

    def _lookup(self, path: str, follow_last: bool = True, searching: bool = False) -> tuple[str, _Node | None, bool]:
        """Like _resolve, plus whether the name ends in a slash (its own or a link target's).
        ``searching``: a folder the walk must search and its owner may not is EACCES there."""
        if path == "":
            raise VfsError("ENOENT", path)
        nodes = self._store.nodes
        full = join(self.cwd, path)
        recording = WITHHELD_ACCESS and self._store.withholding
        if not searching and not recording and "//" not in full and "/./" not in full and "/../" not in full and \
                not full.endswith(("/", "/.", "/..")):
            # a name spelled canonically that is an entry: every key is a canonical path, so
            # each directory above it is a real one (no symlink on the way)
            node = nodes.get(full)
            if node is not None and (node.kind != _LINK or not follow_last):
                return full, node, False
            if node is None:
                # a name missing from a directory that is an entry (so no symlink above it)
                parent = nodes.get(full[:full.rfind("/")] or "/")
                if parent is not None and parent.kind == _DIR:
                    return full, None, False
        pending = [c for c in full.split("/") if c][::-1]
        trailing_slash = path.endswith("/")
        cur = "/"
        hops = 0
        while pending:
            if (searching or recording) and not nodes[cur].mode & 0o100:
                if searching:
                    raise VfsError("EACCES", path, cur)  # each name, `.` and `..` too, is looked up in its folder
                _withheld(cur, path)
            comp = pending.pop()
            if comp == ".":
                continue
            if comp == "..":
                cur = _parent(cur)
                continue
            cand = cur.rstrip("/") + "/" + comp
            node = nodes.get(cand)
            last = not pending
            if node is None:
                if last:
                    return cand, None, trailing_slash
                raise VfsError("ENOENT", path, cand)
            if node.kind == _LINK and (not last or follow_last or trailing_slash):
                hops += 1
                if hops > _MAX_SYMLINK_HOPS:
                    raise VfsError("ELOOP", path, cand)
                target = node.target
                if target.startswith("/"):
                    cur = "/"
                if last and target.endswith("/"):
                    trailing_slash = True
                pending.extend([c for c in target.split("/") if c][::-1])
                if not target.strip("/") and target.startswith("/") and last:
                    return "/", nodes["/"], True
                continue
            if node.kind != _DIR and not last:
                raise VfsError("ENOTDIR", path, cand)
            cur = cand
        if trailing_slash and nodes[cur].kind != _DIR:
            raise VfsError("ENOTDIR", path, cur)
        return cur, nodes[cur], trailing_slash

    def _try(self, path: str, follow_last: bool = True) -> _Node | None:
        try:
            return self._resolve(path, follow_last)[1]
        except VfsError:
            return None

    def realpath(self, path: str) -> str:
        """The canonical absolute path (last component may be absent)."""
        return self._resolve(path)[0]

    def _parent_dir(self, canon: str, path: str) -> str:
        parent = self._store.nodes.get(_parent(canon))
        if parent is None:
            raise VfsError("ENOENT", path)
        if parent.kind != _DIR:
            raise VfsError("ENOTDIR", path)
        return _parent(canon)

    def _add(self, canon: str, node: _Node) -> None:
        store = self._store
        if canon not in store.nodes:
            parent = _parent(canon)
            if WITHHELD_ACCESS:
                self._changing(parent)
            store.budget.check_entries(len(store.nodes) + 1)
            store.children[parent] = store.children[parent] | {posixpath.basename(canon)}
        self._put(canon, node)
        if node.kind == _DIR:
            store.children.setdefault(canon, frozenset())

    def _put(self, canon: str, node: _Node) -> None:
        """``node`` at ``canon``, in place of what was there (nodes are replaced, never changed)."""
        store = self._store
        if CHANGE_LOGS:
            _logged(canon)
        if node.kind == _DIR and node.mode & 0o700 != 0o700:
            store.withholding = True
        store.nodes[canon] = node
        store.version = object()

    def _drop(self, canon: str) -> None:
        parent = _parent(canon)
        if WITHHELD_ACCESS:
            self._changing(parent)
        if CHANGE_LOGS:
            _logged(canon)
        store = self._store
        store.version = object()
        del store.nodes[canon]
        store.children.pop(canon, None)
        store.children[parent] = store.children[parent] - {posixpath.basename(canon)}

    def _changing(self, folder: str) -> None:
        """A name made or taken away in ``folder``: its owner needs to write it and search it."""
        if self._store.nodes[folder].mode & 0o300 != 0o300:
            _withheld(folder)

    # -- queries ------------------------------------------------------------
    def exists(self, p: str) -> bool:
        return self._try(p) is not None

    def lexists(self, p: str) -> bool:
        return self._try(p, follow_last=False) is not None

    def is_file(self, p: str) -> bool:
        node = self._try(p)
        return node is not None and node.kind == _FILE

    def is_dir(self, p: str) -> bool:
        node = self._try(p)
        return node is not None and node.kind == _DIR

    def is_symlink(self, p: str) -> bool:
        node = self._try(p, follow_last=False)
        return node is not None and node.kind == _LINK

    def kind(self, p: str, follow_symlinks: bool = True) -> str:
        """``"file"``, ``"dir"`` or ``"symlink"``; raises VfsError as stat/lstat would."""
        node = self._existing(p, follow_last=follow_symlinks)
        return {_FILE: "file", _DIR: "dir", _LINK: "symlink"}[node.kind]

    def size(self, p: str) -> int:
        node = self._existing(p)
        if node.kind != _FILE:
            return 4096
        if type(node.data) is UnknownData:
            raise UnknownContent(node.data.why)
        return len(node.data)

    def links(self, p: str, follow_last: bool = True) -> int:
        """stat(2)'s link count of ``p``, which asks no read bit: 1 for a file or symlink (the
        tree holds no hard links), and for a folder 2 and one for each folder in it (its own
        entry, its ``.``, and each one's ``..``)."""
        canon, node = self._resolve(p, follow_last)
        if node is None:
            raise VfsError("ENOENT", p)
        if node.kind != _DIR:
            return 1
        nodes, base = self._store.nodes, canon.rstrip("/")
        return 2 + sum(1 for name in self._store.children[canon] if nodes[base + "/" + name].kind == _DIR)

    def _existing(self, p: str, follow_last: bool = True) -> _Node:
        node = self._resolve(p, follow_last)[1]
        if node is None:
            raise VfsError("ENOENT", p)
        return node

    def read_bytes(self, p: str) -> bytes:
        canon, node = self._resolve(p)
        if node is None:
            raise VfsError("ENOENT", p)
        if WITHHELD_ACCESS and not node.mode & 0o400:
            _withheld(canon, p)  # (open asks before a folder's read fails)
        if node.kind == _DIR:
            raise VfsError("EISDIR", p)
        if type(node.data) is UnknownData:
            raise UnknownContent(node.data.why)
        return node.data

    def listdir(self, p: str) -> list[str]:
        canon, node = self._resolve(p)
        if node is None:
            raise VfsError("ENOENT", p)
        if node.kind != _DIR:
            raise VfsError("ENOTDIR", p)
        if WITHHELD_ACCESS and not node.mode & 0o400:
            _withheld(canon, p)
        return sorted(self._store.children[canon])

    def readlink(self, p: str) -> str:
        node = self._existing(p, follow_last=False)
        if node.kind != _LINK:
            raise VfsError("EINVAL", p)
        return node.target

    def search_withheld(self, path: str, itself: bool = False) -> Optional[str]:
        """The first folder that a lookup of ``path`` searches and whose owner may not (its x bit
        off), following symlinks as open does; ``path`` itself is searched too when ``itself``
        (cd). None when there is none before the lookup ends, found or not."""
        try:
            canon, node, _ = VirtualTree._lookup(self, path, True, True)
        except VfsError as exc:
            return exc.at if exc.errno_name == "EACCES" else None
        return canon if itself and node is not None and node.kind == _DIR and not node.mode & 0o100 else None

    def new_name_withheld(self, path: str) -> bool:
        """Whether the folder that would hold a new name ``path`` (canonical) is one its owner
        may not change."""
        folder = self._store.nodes.get(_parent(path))
        return folder is not None and folder.kind == _DIR and folder.mode & 0o300 != 0o300

    def mode(self, p: str) -> int:
        return self._existing(p).mode

    def lmode(self, p: str) -> int:
        return self._existing(p, follow_last=False).mode

    # -- changes ------------------------------------------------------------
    def write_bytes(self, p: str, data: bytes, append: bool = False) -> None:
        """open(p, O_CREAT|O_WRONLY|(O_APPEND or O_TRUNC)) then write: follows a final symlink."""
        if p.endswith("/"):  # Linux: O_CREAT with a trailing slash is EISDIR
            self._resolve(p.rstrip("/") or "/", follow_last=False)
            raise VfsError("EISDIR", p)
        canon, node, trailing = self._lookup(p)
        if node is not None and node.kind == _DIR:
            raise VfsError("EISDIR", p)
        if node is None:
            if trailing:
                raise VfsError("EISDIR", p)
            self._parent_dir(canon, p)
        self._store.budget.charge_bytes(len(data))
        if node is None:
            self._add(canon, _Node(_FILE, bytes(data), 0o644))
        else:
            new = bytes(data) if not append else node.data if type(node.data) is UnknownData else node.data + data
            if WITHHELD_ACCESS and not node.mode & 0o200:
                _withheld(canon, p)
            self._put(canon, _Node(_FILE, new, node.mode))

    def write_unknown(self, p: str, why: str) -> None:
        """Bytes the model does not know written through a descriptor opened on ``p`` (as
        write_bytes appends): the file then holds UnknownData, whatever it held before."""
        self.write_bytes(p, b"", append=True)
        canon, node = self._resolve(p)
        if type(node.data) is not UnknownData:
            self._put(canon, _Node(_FILE, UnknownData(why), node.mode))

    def replace_bytes(self, p: str, data: bytes) -> None:
        """File ``p``'s bytes replaced as ``sed -i`` and ``perl -i`` replace them: a new file made
        in its folder, given its mode and renamed over it. Its folder changes (the owner must
        write it); the file's own write bit is not asked."""
        canon, node = self._resolve(p)
        if node is None or node.kind != _FILE:
            raise VfsError("ENOENT" if node is None else "EISDIR", p)
        if WITHHELD_ACCESS:
            self._changing(_parent(canon))
        self._store.budget.charge_bytes(len(data))
        self._put(canon, _Node(_FILE, bytes(data), node.mode))

    def mkdir(self, p: str, parents: bool = False, exist_ok: bool = False) -> None:
        """mkdir(2), or ``mkdir -p`` with ``parents``; an existing directory is fine with exist_ok."""
        if p == "":
            raise VfsError("ENOENT", p)
        if parents:
            parts = [c for c in p.split("/")]
            prefix = "/" if p.startswith("/") else ""
            prefixes = []
            for i, comp in enumerate(parts):
                if comp:
                    prefix = prefix + comp if prefix.endswith("/") or not prefix else prefix + "/" + comp
                    prefixes.append((i, prefix))
            # the deepest name on the way that exists, found from the end: every folder above
            # it exists, and is not looked at (a bounded view may not hold them)
            start = 0
            for k in range(len(prefixes) - 1, -1, -1):
                if self._try(prefixes[k][1]) is not None:
                    start = k
                    break
            for i, prefix in prefixes[start:]:
                last = all(not c for c in parts[i + 1:])
                node = self._try(prefix)
                if node is not None and node.kind == _DIR:
                    continue
                if node is not None and not last:
                    raise VfsError("ENOTDIR", prefix)
                try:
                    self.mkdir(prefix, exist_ok=exist_ok or not last)
                except VfsError as exc:
                    if not last:
                        raise
                    raise VfsError(exc.errno_name, p) from None  # (the last, named as given: `d/`)
            return
        canon, node = self._resolve(p.rstrip("/") or "/", follow_last=False)
        if node is not None:
            if node.kind == _LINK:
                target = self._try(p)
                if exist_ok and target is not None and target.kind == _DIR:
                    return
                raise VfsError("EEXIST", p)
            if exist_ok and node.kind == _DIR:
                return
            raise VfsError("EEXIST", p)
        self._parent_dir(canon, p)
        self._add(canon, _Node(_DIR, mode=0o755))

    def remove(self, p: str) -> None:
        """unlink(2): a file or symlink; a directory is EISDIR."""
        canon, node = self._resolve(p.rstrip("/") or p, follow_last=False)
        if node is None:
            raise VfsError("ENOENT", p)
        if node.kind == _DIR:
            raise VfsError("EISDIR", p)
        if p.endswith("/"):
            raise VfsError("ENOTDIR", p)
        self._drop(canon)

    def rmdir(self, p: str) -> None:
        canon, node = self._resolve(p.rstrip("/") or "/", follow_last=False)
        if node is None:
            raise VfsError("ENOENT", p)
        if node.kind != _DIR:
            raise VfsError("ENOTDIR", p)
        if canon == "/":
            raise VfsError("EBUSY", p)
        if self._store.children[canon]:
            raise VfsError("ENOTEMPTY", p)
        self._drop(canon)

    def rename(self, src: str, dst: str) -> None:
        """rename(2): replaces a file, or an empty directory with a directory."""
        s_canon, s_node = self._resolve(src.rstrip("/") or src, follow_last=False)
        d_canon, d_node = self._resolve(dst.rstrip("/") or dst, follow_last=False)
        if s_node is None:
            raise VfsError("ENOENT", src)
        if d_node is None:
            self._parent_dir(d_canon, dst)
        # both names are looked up first; then a trailing slash on either needs a directory to move
        if s_node.kind != _DIR and (src.endswith("/") or dst.endswith("/")):
            raise VfsError("ENOTDIR", src if src.endswith("/") else dst)
        if s_canon == d_canon:
            return
        if s_node.kind == _DIR and (d_canon + "/").startswith(s_canon.rstrip("/") + "/"):
            raise VfsError("EINVAL", src)
        if d_node is not None and d_canon != "/" and s_canon.startswith(d_canon + "/"):
            # Linux: a target that is an ancestor of the source is not empty, before any kind check
            raise VfsError("ENOTEMPTY", dst)
        if s_canon == "/":
            raise VfsError("EBUSY", src)
        if WITHHELD_ACCESS:
            source, target = _parent(s_canon), _parent(d_canon)
            self._changing(source)
            self._changing(target)
            if source != target and s_node.kind == _DIR and not s_node.mode & 0o200:
                _withheld(s_canon)  # (a folder moved to another one has its `..` rewritten)
        if d_node is not None:
            if d_node.kind == _DIR:
                if s_node.kind != _DIR:
                    raise VfsError("EISDIR", dst)
                if self._store.children[d_canon]:
                    raise VfsError("ENOTEMPTY", dst)
            elif s_node.kind == _DIR:
                raise VfsError("ENOTDIR", dst)
            self._drop(d_canon)
        self._move_subtree(s_canon, d_canon)

    def rename_on_one_device(self, src: str, dst: str) -> None:
        """rename(2) itself, which fails across file systems (EXDEV) where ``rename`` stands for
        a move that copies there (mv); a tree of one file system never refuses."""
        self.rename(src, dst)

    def _move_subtree(self, s_canon: str, d_canon: str) -> None:
        if CHANGE_LOGS:
            _logged(s_canon, d_canon)
        store = self._store
        store.version = object()
        prefix = s_canon + "/"
        moved = [k for k in store.nodes if k == s_canon or k.startswith(prefix)]
        source, target = _parent(s_canon), _parent(d_canon)
        store.children[source] = store.children[source] - {posixpath.basename(s_canon)}
        store.children[target] = store.children[target] | {posixpath.basename(d_canon)}
        for old in moved:
            new = d_canon + old[len(s_canon):]
            store.nodes[new] = store.nodes.pop(old)
            if old in store.children:
                store.children[new] = store.children.pop(old)

    def copy(self, src: str, dst: str, new_mode=None) -> None:
        """The content of file ``src`` (symlinks followed) written to ``dst``; a new file gets
        ``new_mode`` (src's mode when None), one that was there keeps its own. Bytes not known
        are copied as such (UnknownData)."""
        try:
            data, unknown = self.read_bytes(src), None
        except UnknownContent as exc:
            data, unknown = b"", exc.why
        existed = self.exists(dst)
        if unknown is None:
            self.write_bytes(dst, data)
        else:
            self.write_unknown(dst, unknown)
        if not existed:
            self.chmod(dst, self.mode(src) if new_mode is None else new_mode)

    def symlink(self, target: str, p: str) -> None:
        canon, node = self._resolve(p.rstrip("/") or p, follow_last=False)
        if node is not None:
            raise VfsError("EEXIST", p)
        if p.endswith("/"):
            raise VfsError("ENOENT", p)
        if target == "":
            raise VfsError("ENOENT", p)
        self._parent_dir(canon, p)
        self._add(canon, _Node(_LINK, mode=0o777, target=target))

    def chmod(self, p: str, mode: int) -> None:
        canon, node = self._resolve(p)
        if node is None:
            raise VfsError("ENOENT", p)
        self._put(canon, _Node(node.kind, node.data, mode & 0o7777, node.target))

    # -- whole-tree views ---------------------------------------------------
    def walk(self, top: str = "/"):
        """Yield canonical paths under ``top`` (itself first), depth first, names sorted."""
        canon, node = self._resolve(top)
        if node is None:
            raise VfsError("ENOENT", top)
        stack = [canon]
        nodes, children = self._store.nodes, self._store.children
        recording = WITHHELD_ACCESS and self._store.withholding
        while stack:
            path = stack.pop()
            yield path
            if nodes[path].kind == _DIR:
                if recording and nodes[path].mode & 0o500 != 0o500:
                    _withheld(path)  # (a walk lists each folder and looks its names up in it)
                base = path.rstrip("/")
                stack.extend(base + "/" + name for name in sorted(children[path], reverse=True))

    def snapshot(self) -> dict:
        """``{path: bytes | None}`` for every entry but the root; symlinks show what they reach
        (None for a directory); a dangling symlink is left out (see :meth:`symlinks`)."""
        out = {}
        for path, node in self._store.nodes.items():
            if path == "/":
                continue
            if node.kind == _LINK:
                reached = self._try(path)
                if reached is None:
                    continue
                node = reached
            out[path] = node.data if node.kind == _FILE else None
        return dict(sorted(out.items()))

    def symlinks(self) -> dict:
        """``{path: target}`` for every symlink."""
        return {p: n.target for p, n in sorted(self._store.nodes.items()) if n.kind == _LINK}

    def modes(self) -> dict:
        """``{path: mode}`` for every entry but symlinks and the root."""
        return {p: n.mode for p, n in sorted(self._store.nodes.items())
                if n.kind != _LINK and p != "/"}

    def nodes(self) -> dict:
        """``{canonical path: node}`` for every entry (``kind`` f, d or l; ``data``, ``mode``,
        ``target``): a whole-tree reader's view, without resolving each path again. Read only."""
        return self._store.nodes

    def __len__(self) -> int:
        return len(self._store.nodes)
