"""The file system as the static evaluation sees it: the starting tree plus what the script made.

One job: answer every file-system question of the evaluation (pathname
expansion, ``cd``'s directory check, whether a redirection can open its file)
from one view. The starting tree under the working directory is the real
directory when it exists, a given listing, or unknown; the files the
script's own redirections create are added to it. After a command whose
effects on files the model does not follow (``touch``, ``rm``, an unknown
program…) the view is lost: every later answer is None (unknown), named by
``lost``. Outside the working tree the answers come from this machine
only when the view may read the host (``host``); otherwise they are unknown,
so untrusted replies never make the model read, or reveal, the machine.
"""

from __future__ import annotations

import os
from typing import Iterable, Optional

# Opened by any process on any Linux machine, for reading and writing.
ALWAYS_OPENS = frozenset({"/dev/null"})
# the paths of the process's own output descriptors (symlinks to /proc/self/fd/N): opening one
# opens what that descriptor holds, which a walker with descriptors follows (effects); a
# view alone takes it to open, as it does while the descriptor is
STREAM_PATHS = {"/dev/stdout": 1, "/dev/stderr": 2, "/dev/fd/1": 1, "/dev/fd/2": 2}

NO_SUCH_FILE = "No such file or directory"
IS_A_DIRECTORY = "Is a directory"
NOT_A_DIRECTORY = "Not a directory"
PERMISSION_DENIED = "Permission denied"


def checked_listing(paths: Iterable[str]) -> tuple:
    """The paths of a listing; TypeError or ValueError (with the path) when one is not usable."""
    if isinstance(paths, (str, bytes)):
        raise TypeError("a listing is an iterable of paths, not one string")
    found = tuple(paths)
    for path in found:
        if not isinstance(path, str):
            raise TypeError(f"listing paths must be str, not {type(path).__name__}")
        if path.startswith("/") or ".." in path.split("/"):
            raise ValueError(f"listing path {path!r} leaves the working directory")
    return found


class Listing:
    """A given tree: paths relative to ``root`` (``sub/`` or ``sub/f`` make ``sub`` a directory)."""

    def __init__(self, paths: Iterable[str], root: str):
        self.root = root
        self.dirs: dict = {"": set()}
        for path in checked_listing(paths):
            is_dir = path.endswith("/")
            parts = [p for p in path.split("/") if p not in ("", ".")]
            prefix = ""
            for n, part in enumerate(parts):
                self.dirs.setdefault(prefix, set()).add(part)
                prefix = f"{prefix}/{part}" if prefix else part
                if n < len(parts) - 1 or is_dir:
                    self.dirs.setdefault(prefix, set())

    def names(self, rel: str) -> list:
        return sorted(self.dirs.get(rel, ()))

    def kind(self, rel: str) -> Optional[str]:
        """``dir``, ``file`` or None (absent)."""
        if rel in self.dirs:
            return "dir"
        parent, _, name = rel.rpartition("/")
        return "file" if name in self.dirs.get(parent, ()) else None


class FileQuestions:
    """The questions bash's opens and ``cd`` ask, answered from a view's ``kind``
    (``dir``, ``file``, ``missing`` or None) and ``root``: one set of answers for
    every file view. A view tunes three hooks: whether an existing file may be
    written, how far above a path its directories are looked at, and what is
    known of the directories above the root; and it says what a fork of it
    changed (``changed_in``), which it alone can tell."""

    def entered(self, path: str):
        """The shell's working directory is now ``path`` (cd): a view that answers from
        permissions notes it."""

    def absorb(self, fork, what, first_loss: bool = True):
        """After ``what`` (a str, or what spells one) ran on ``fork`` (``fork()``) without
        certainty: anything it changed is unknown here, named after what the fork lost first
        (unless not ``first_loss``: a pipeline's commands run at once), or else after ``what``."""
        if first_loss and fork.lost != self.lost and fork.lost is not None:
            self.lose(fork.lost)
        elif fork.lost != self.lost or self.changed_in(fork):
            self.lose(f"the files after {what}")

    def changed_in(self, fork) -> bool:
        """Whether ``fork`` (``fork()``) holds a change this view does not: each view answers
        from what it keeps (FileView its created names, TreeFiles its tree)."""
        raise NotImplementedError(f"{type(self).__name__} does not say what a fork of it changed")

    def lose_unless(self, why: str, harmless):
        """``lose(why)`` unless ``harmless()`` (a question that may cost a parse) says the
        command changed nothing; a view may put the question off until it is asked."""
        if self.lost is None and not harmless():
            self.lose(why)

    def is_dir(self, path: str) -> Optional[bool]:
        kind = self.kind(path)
        return None if kind is None else kind == "dir"

    def file_test(self, op: str, path: str) -> Optional[bool]:
        """The value of ``test``'s unary file test ``op`` (``-e``, ``-f``…) on ``path``
        (absolute), or None when the view does not know it."""
        return None

    def listed(self, path: str, pattern):
        """A glob listed directory ``path`` for the names ``pattern`` matches (a view that
        watches for races notes it)."""

    def open_target(self, path: str, target: str, writes: bool, source: str) -> tuple:
        """A redirection opens ``path`` (absolute; ``target`` as the script names it,
        ``source`` the redirection's text): ``(failure, doubt)``, bash's error when it
        fails for certain, or the doubt naming why it may fail (a write the view cannot
        decide leaves the files unknown after it); both None when it opens."""
        failure = self.open_failure(path, writes=writes, trailing_slash=target.endswith("/"))
        if failure is None:
            why = self.unknown(path) or "permissions outside the working tree"
            if writes:
                self.lose(f"the files after `{source}`")
            return None, f"whether {target} can be opened ({why})"
        return failure or None, None

    def open_failure(self, path: str, *, writes: bool, trailing_slash: bool = False) -> Optional[str]:
        """Why opening ``path`` (absolute) fails: bash's wording of the error, "" when it
        opens, None when unknown. Writing creates a missing file; whether an existing
        one may be written is the view's own question (``_write_failure``)."""
        path = normpath(path)
        if (path in ALWAYS_OPENS or writes and path in STREAM_PATHS) and not trailing_slash:
            return ""
        failure = self._ancestor_failure(path)
        if failure != "":
            return failure
        kind = self.kind(path)
        if kind is None:
            return None
        if writes:
            if kind == "dir" or trailing_slash:
                return IS_A_DIRECTORY  # O_CREAT on a name ending in / is EISDIR too
            return self._write_failure(path, kind)
        if kind == "missing":
            return NO_SUCH_FILE
        if kind == "file" and trailing_slash:
            return NOT_A_DIRECTORY
        return ""

    def directory_failure(self, path: str) -> Optional[str]:
        """Why ``cd`` cannot enter ``path`` (absolute): bash's wording, "" when it can, None when unknown."""
        path = normpath(path)
        failure = self._ancestor_failure(path)
        if failure != "":
            return failure
        kind = self.kind(path)
        if kind is None:
            return None
        return {"dir": "", "file": NOT_A_DIRECTORY, "missing": NO_SUCH_FILE}[kind]

    def _ancestor_failure(self, path: str) -> Optional[str]:
        """The error of the first directory above ``path`` that is missing or a file ("" for none)."""
        ancestors = []
        head = dirname(path)
        while head and head != self.root and self._walks_up_to(head):  # the working directory is there
            up = dirname(head)
            if up == head:
                break  # `/` or `//`: the root is a directory
            ancestors.append(head)
            head = up
        for ancestor in reversed(ancestors):
            kind = self.kind(ancestor)
            if kind is None:
                return None
            if kind == "missing":
                return NO_SUCH_FILE
            if kind == "file":
                return NOT_A_DIRECTORY
        return self._above_root(path)


def normpath(path: str) -> str:
    """``os.path.normpath(path)``, without its work for an absolute path already in normal
    form (the paths the model asks about nearly all are)."""
    if path[:1] == "/" and "//" not in path and "/./" not in path and "/../" not in path:
        last = path[-1]
        if last == "/":
            if path == "/":
                return path
        elif last != "." or path[-2] != "/" and path[-3:] != "/..":  # not `/.` nor `/..` at the end
            return path
    return os.path.normpath(path)


def dirname(path: str) -> str:
    """``os.path.dirname(path)``, spelled out (the standard one runs interpreted; the virtual
    tree has its twin, ``vfs._parent``, as the utilities import nothing of the model)."""
    i = path.rfind("/") + 1
    head = path[:i]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head


def absolute(path) -> str:
    """``os.path.abspath(path)``; an absolute path is normalised without asking for the
    working directory."""
    if type(path) is str and path.startswith("/"):
        return normpath(path)
    return os.path.abspath(path)


def is_directory(path: str) -> bool:
    """``os.path.isdir(path)`` without the cost of an exception for a missing path (a
    name with a trailing slash resolves only to a directory)."""
    try:
        return os.access(path if path.endswith("/") else path + "/", os.F_OK)
    except ValueError:
        return False  # a NUL in the name, as os.path.isdir answers it


class FileView(FileQuestions):
    """What the evaluation knows of the files, shared by a shell and its subshells
    (the file system is not per process).

    ``root`` is the first working directory; ``listing`` None reads the real
    directory when it exists (the tree is unknown otherwise), or lists the
    paths standing for the whole tree under ``root``. ``host`` False: nothing
    is read from this machine, inside the tree (unless listed) or outside it;
    those answers are unknown, named by ``unknown``.
    """

    def __init__(self, root: str, listing: Optional[Iterable[str]] = None, *, host: bool = True):
        self.root = absolute(root)
        self.listing = None if listing is None else Listing(listing, self.root)
        self.host = host
        self.real = host and listing is None and is_directory(self.root)
        self.created: set = set()
        self._lost: Optional[str] = None
        self._pending = None  # (why, harmless): a loss decided only when the view is next read

    @property
    def lost(self) -> Optional[str]:
        """Why the tree is no longer known (None while it is)."""
        if self._pending is not None:
            self._settle()
        return self._lost

    @lost.setter
    def lost(self, why: Optional[str]):
        self._pending = None
        self._lost = why

    def lose_unless(self, why: str, harmless):
        # most scripts end with the command that may have changed the files, so the
        # question is put off until something reads the view
        if self._pending is not None:
            self._settle()
        if self._lost is None:
            self._pending = (why, harmless)

    def _settle(self):
        why, harmless = self._pending
        self._pending = None
        if self._lost is None and not harmless():
            self._lost = why

    def fork(self) -> "FileView":
        """A copy for something that may or may not happen (see ``absorb``)."""
        other = FileView.__new__(FileView)
        other.root, other.listing, other.real = self.root, self.listing, self.real
        other.host = self.host
        other.created = set(self.created)
        other.lost = self.lost
        return other

    def changed_in(self, fork: "FileView") -> bool:
        return fork.created != self.created

    # -- what the script does ---------------------------------------------

    def create(self, path: str):
        """A redirection created (or truncated) the file ``path`` (absolute)."""
        self.created.add(os.path.normpath(path))

    def lose(self, why: str):
        """Something changed the files in ways the model does not follow."""
        if self.lost is None:
            self.lost = why

    # -- questions ---------------------------------------------------------

    def unknown(self, path: str) -> Optional[str]:
        """Why nothing is known about ``path`` (absolute), or None when something is."""
        if self.lost is not None:
            return self.lost
        inside = self._relative(path) is not None
        if not self.host and not (inside and self.listing is not None):
            if inside:
                return f"the files in {self.root} (no listing or working directory given)"
            return f"the files outside {self.root} (this machine's files are not read)"
        if inside and self.listing is None and not self.real:
            return f"the files in {self.root} ({self.root} does not exist here)"
        return None

    def kind(self, path: str) -> Optional[str]:
        """``dir``, ``file``, ``missing``, or None when unknown."""
        path = normpath(path)
        if path in self.created and self.lost is None:
            return "file"
        if self.unknown(path):
            return None
        rel = self._relative(path)
        if rel is not None and self.listing is not None:
            return self.listing.kind(rel) or "missing"
        if is_directory(path):
            return "dir"
        return "file" if os.path.lexists(path) else "missing"

    def names(self, path: str) -> Optional[list]:
        """The names in directory ``path`` (absolute; [] when it is none), or None when unknown."""
        path = normpath(path)
        if self.unknown(path):
            return None
        rel = self._relative(path)
        if rel is not None and self.listing is not None:
            found = set(self.listing.names(rel))
        else:
            try:
                found = set(os.listdir(path))
            except OSError:
                found = set()
        found.update(os.path.basename(p) for p in self.created if os.path.dirname(p) == path)
        return sorted(found)

    # -- the hooks of FileQuestions ----------------------------------------

    def _write_failure(self, path: str, kind: str) -> Optional[str]:
        # inside the working tree directories are taken as writable; outside, permissions decide
        return None if self._relative(path) is None else ""

    def _walks_up_to(self, head: str) -> bool:
        return True

    def _above_root(self, path: str) -> Optional[str]:
        return ""

    def _relative(self, path: str) -> Optional[str]:
        """``path`` (absolute, normalised) relative to the root; None outside the tree."""
        if path == self.root:
            return ""
        prefix = self.root.rstrip("/") + "/"
        return path[len(prefix):] if path.startswith(prefix) else None
