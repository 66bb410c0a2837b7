"""What a script does to a task's files: the static walker run over a virtual tree.

One job: evaluate a script as ``evaluate`` does, but where redirections write
command output into a VirtualTree, here-documents, here-strings and ``< file``
feed stdin, pipelines hand each command's stdout to the next one's stdin, and
the utility models run as registry entries over the tree. Whatever the model
does not follow makes the files unknown, with a reason naming it; nothing is
guessed.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Optional, Union

from ..syntax import parser as S
from . import evaluate as E, jobs
from .budget import Budget, Meter
from .commands import Outcome, lookup
from .commands.calls import call_function
from .commands.external import reads_only
from .commands.programs import entries as utility_entries, entry as utility_entry
from .commands.registry import BUILTINS, SEVERAL_MESSAGES, Invocation
from .commands.search import BASH_BUILTINS, missing_command, not_found_message, program_missing, system_program
from .dashsubset import REFUSED_NAMES as _DASH_REFUSED, refusal as dash_refusal
from .expand import Env, Opaque, Variable, forget_arithmetic
from .jobs import WATCHES as _JOB_WATCHES
from .files import ALWAYS_OPENS, PERMISSION_DENIED, STREAM_PATHS, FileQuestions, normpath
from .pymodel.command import model as python3_model
from .sshcall import ssh_call
from .utilities.common import OptionUnknown, scan_options
from .utilities.context import CommandContext, CommandResult, Environ, OwnOutput, unknown as unknown_result
from .utilities.envprog import EnvRequest, env_request, not_run, timeout_request
from .utilities.find import acts_only_on_names
from .utilities.fileops import dd_reads_stdin
from .utilities.git import reads_stdin as git_reads_stdin
from .utilities.grep import grep as grep_model, recursive_roots as grep_recursive_roots
from .utilities.hostfacts import (consulted_values, reconsult, shell_pid, standins_folder, start_watching,
                                   stated_host, stop_watching, temp_names)
from .utilities.shellbuiltins import coreutils_echo_differs, coreutils_printf_differs
from .utilities.vfs import (STRERROR, UnknownData, UnknownContent, VfsBudgetExceeded, VfsError, VirtualTree,
                             changed_paths, join, same_entries)
from .utilities.vfs import _Node as vfs_node
from .values import UnorderedLines, has_opaque, opaque_names

__all__ = ["TreeFiles", "Effects", "run_effects", "COMMANDS", "ShellRuns", "SHELL_RUNS"]

# the utility models as registry entries, over the tree; python3 by its own model
COMMANDS = dict(utility_entries())
COMMANDS["python3"] = COMMANDS["python"] = utility_entry(python3_model)
# its output is the task directory's path, which differs on every run
COMMANDS.pop("pwd", None)


# messages the walker records in its own words, not bash's (qbcore.model.expand.UnexpandableDocument)
_UNSPELLED = ("here-document: cannot expand", SEVERAL_MESSAGES)
# utilities that never read stdin, and builtins that do (the other builtins never read it)
_NO_STDIN = frozenset({"dirname", "basename", "mkdir", "mv", "cp", "rm", "ln", "touch", "ls", "find", "chmod", "seq",
                       "readlink", "realpath"})
_READS_STDIN = frozenset({"read", "mapfile", "readarray", "command", "builtin", "exec"})
# of those, the ones that read it when told to ask (-i, -I, --interactive: _never_reads_stdin)
_ASK_ON_STDIN = frozenset({"mv", "cp", "rm", "ln"})
# builtins that take their stdin a line at a time from the stream itself (Invocation.input)
_LINE_READERS = frozenset({"read", "mapfile", "readarray"})
# utilities that write what they read as they read it (no stdio buffer between): one that reads
# the file its output goes to may read its own output; their models are given that file
# (OwnOutput) and meet it as the utility does (cat refuses it)
_WRITE_AS_THEY_READ = frozenset({"cat"})
# the bytes stdio holds back before it writes to a file (glibc: the file's block size on tmpfs)
_STDIO_BUFFER = 4096
# utilities that read stdin only with some arguments (git: commit -F -)
_STDIN_WHEN = {"git": git_reads_stdin, "dd": dd_reads_stdin}
# builtins that run a script in the same shell (their commands read and write where the builtin does)
_RUNS_IN_SHELL = frozenset({"eval", "source", "."})
# the flags the stand-in ssh's usage line lists
_SSH_USAGE_FLAGS = "46AaCfGgKkMNnqsTtVvXxYy"
# builtins whose failure writes nothing to stderr (source's status without a message of its
# own is the sourced file's, whose commands wrote theirs)
_SILENT_FAILURES = frozenset({"false", "test", "[", "let", "return", "exit", "shift", "wait", "source", "."})
# builtins that change no file whatever their words: not followed, only their status and stderr are unknown
_CHANGE_NO_FILE = frozenset({"test", "["})


class OutsideTree(Exception):
    """A command reached a path outside the task directory, which the model does not know."""

    def __init__(self, path: str):
        super().__init__(f"the files outside the task directory ({path})")


DEV_NULL = "/dev/null"


class BoundedTree(VirtualTree):
    """A view of a tree whose paths must stay under ``bound``: any other raises OutsideTree,
    which no utility model swallows (the tree holds nothing true outside it). Where the run's
    mktemp names are stated (``temp``: hostfacts.Facts.temp), the run is the sandbox's, whose
    /tmp is a fresh tmpfs: paths under its names are the run's own too (``fresh_tmp``)."""

    _bound = "/"
    _below = "//"  # what every path under the bound starts with
    _temp = None

    @classmethod
    def within(cls, tree: VirtualTree, bound: str, temp: Optional[str] = None) -> "BoundedTree":
        view = cls.__new__(cls)
        view._store, view.cwd, view._bound = tree._store, tree.cwd, bound
        view._below = bound + "/"
        view._temp = temp
        return view

    def _inside(self, canon: str) -> bool:
        return canon == self._bound or canon.startswith(self._below) or \
            self._temp is not None and run_owns(canon)

    def _tmp_itself(self, p: str, follow_last: bool = True) -> bool:
        """Whether ``p`` is the sandbox's /tmp itself: a run may look it up and make names in
        it, not list, move or remove it (its listing holds the sandbox's own names)."""
        if self._temp is None:
            return False
        try:
            return self._lookup(p, follow_last)[0] == "/tmp"
        except VfsError:
            return False

    def _lookup(self, path, follow_last=True):
        if _PIPES and path in _PIPES:
            return path, _PIPES[path], False  # a process substitution's pipe (EffectWalker.simple)
        if _JOB_WATCHES:
            # a background job is being followed: the path, as spelled and as found, is used
            jobs.touched(os.path.normpath(join(self.cwd, path)) if path else self._bound)
        try:
            found = _TREE_LOOKUP(self, path, follow_last)
        except VfsError as exc:
            lexical = os.path.normpath(join(self.cwd, path)) if path else self._bound
            if not self._inside(lexical):
                raise OutsideTree(lexical) from None
            if exc.at and not self._inside(exc.at):
                raise OutsideTree(exc.at) from None  # a symlink on the way led out
            raise
        if not self._inside(found[0]):
            raise OutsideTree(found[0])
        if _JOB_WATCHES:
            jobs.touched(found[0])
        return found

    def at(self, cwd):
        return BoundedTree.within(super().at(cwd), self._bound, self._temp)

    # /dev/null spelled so: the sandbox's, which a utility may ask whether it exists, is a
    # folder, a regular file or a symlink, where it leads, read (empty) and write (opened as
    # it stands, kept nothing); anything else asked of it, or of a path that leads there
    # another way, reaches outside the tree
    def exists(self, p: str) -> bool:
        return p == DEV_NULL or VirtualTree.exists(self, p)

    def lexists(self, p: str) -> bool:
        return p == DEV_NULL or VirtualTree.lexists(self, p)

    def is_dir(self, p: str) -> bool:
        return p != DEV_NULL and VirtualTree.is_dir(self, p)

    def is_file(self, p: str) -> bool:
        return p != DEV_NULL and VirtualTree.is_file(self, p)  # (a character device)

    def is_symlink(self, p: str) -> bool:
        return p != DEV_NULL and VirtualTree.is_symlink(self, p)

    def read_bytes(self, p: str) -> bytes:
        return b"" if p == DEV_NULL else VirtualTree.read_bytes(self, p)

    def realpath(self, p: str) -> str:
        return p if p == DEV_NULL else VirtualTree.realpath(self, p)

    def write_bytes(self, p: str, data: bytes, append: bool = False) -> None:
        if p != DEV_NULL:  # (it takes what is written and keeps nothing)
            VirtualTree.write_bytes(self, p, data, append)

    # the directories a pipeline's command lists (ls, find, a glob), for its races
    def listdir(self, p: str) -> list:
        found = VirtualTree.listdir(self, p)
        if self._temp is not None or _LISTINGS or _JOB_WATCHES:
            folder = self._lookup(p)[0]
            if folder == "/tmp" and self._temp is not None:
                raise OutsideTree("/tmp")  # (its listing holds the sandbox's own names)
            if _LISTINGS:
                _LISTINGS[-1].append((folder, None))
            jobs.listed(folder, None)
        return found

    def _try_canon(self, p: str) -> Optional[str]:
        """The canonical path of ``p`` (its last name not followed), None where its lookup fails."""
        try:
            return self._resolve(p, follow_last=False)[0]
        except VfsError:
            return None

    def rename_on_one_device(self, src: str, dst: str) -> None:
        if self._temp is not None and self.lexists(src):
            one, other = self._file_system(src), self._file_system(dst)
            if one is not None and other is not None and one != other:
                raise VfsError("EXDEV", src)
        self.rename(src, dst)

    def _file_system(self, p: str) -> Optional[str]:
        """Which of the sandbox's file systems ``p``'s entry lies on (its last name not
        followed): the task directory's, /tmp's or the root's; None where the lookup fails."""
        canon = self._try_canon(p.rstrip("/") or p)
        if canon is None:
            return None
        if canon == self._bound or canon.startswith(self._below):
            return "task"
        return "tmp" if fresh_tmp(canon) else "root" if no_root_name(canon) else None

    def _add(self, canon: str, node) -> None:
        if self._temp is not None and no_root_name(canon):
            raise VfsError("EROFS", canon)  # (the sandbox's root, where it is none, is read-only)
        VirtualTree._add(self, canon, node)

    def walk(self, top: str = "/"):
        for path in VirtualTree.walk(self, top):
            if path == "/tmp" and self._temp is not None:
                raise OutsideTree("/tmp")  # (the walk starts there: nothing under it is inside)
            if _LISTINGS:
                _LISTINGS[-1].append((path, None))
            if _JOB_WATCHES:
                jobs.listed(path, None)
                jobs.touched(path)
            yield path

    def clone(self):
        return BoundedTree.within(super().clone(), self._bound, self._temp)

    def remove(self, p: str) -> None:
        if self._tmp_itself(p.rstrip("/") or p, False):
            raise OutsideTree("/tmp")
        VirtualTree.remove(self, p)

    def rmdir(self, p: str) -> None:
        if self._tmp_itself(p.rstrip("/") or p, False):
            raise OutsideTree("/tmp")
        VirtualTree.rmdir(self, p)

    def rename(self, src: str, dst: str) -> None:
        if self._tmp_itself(src.rstrip("/") or src, False) or self._tmp_itself(dst.rstrip("/") or dst, False):
            raise OutsideTree("/tmp")
        if self._temp is not None:
            target = self._try_canon(dst.rstrip("/") or dst)
            if target is not None and no_root_name(target):
                # rename(2) to another file system is EXDEV, which mv meets by copying: not followed
                raise OutsideTree(target)
        VirtualTree.rename(self, src, dst)


_TREE_LOOKUP = VirtualTree._lookup


def fresh_tmp(path: str) -> bool:
    """Whether ``path`` (normalized) lies under a name in the sandbox's /tmp that only the run
    can have made: the tmpfs starts with the sandbox's own names alone (the attempt's folder,
    the script file of the script transport, the launcher's folder: ``qbcore-…``,
    ``.qbcore-…``), which a run that guesses them does not meet as the model does; /tmp itself,
    whose listing holds them, is not the run's."""
    return path.startswith("/tmp/") and not path.startswith(("/tmp/qbcore-", "/tmp/.qbcore-"))


def run_owns(path: str) -> bool:
    """Whether a run in the sandbox alone decides what ``path`` (normalized) holds: /tmp, the
    names in it only a run makes, and the names the root does not hold."""
    return fresh_tmp(path) or path == "/tmp" or no_root_name(path)


#: every name the sandbox's root may hold (realbash.sandbox.VISIBLE_TOP_LEVEL, the other
#: names a distribution's root holds, and the sandbox's own): the root is a read-only file
#: system, and any other name is missing there and cannot be made
_ROOT_NAMES = frozenset(("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc", "tmp",
                         "boot", "home", "media", "mnt", "opt", "root", "run", "srv", "sys", "var"))


def no_root_name(path: str) -> bool:
    """Whether ``path`` (normalized) is or lies under a name the sandbox's root does not hold:
    a run finds it missing (ENOENT) and cannot make it (EROFS)."""
    if path[:1] != "/" or path[:2] == "//":
        return False
    name = path[1:].partition("/")[0]
    return bool(name) and name not in _ROOT_NAMES and not name.startswith(("qbcore", ".qbcore"))


#: while a pipeline's command runs, the directories it listed, each with the pattern of the
#: glob that listed it (None: every name counts), innermost pipeline last
_LISTINGS: list = []


#: the unary file tests a tree answers (test, `[`, `[[ … ]]`), and the mode bit of each of
#: the special ones
FILE_TESTS = frozenset(("-e", "-a", "-f", "-d", "-L", "-h", "-s", "-p", "-S", "-b", "-c", "-u", "-g", "-k",
                        "-r", "-w", "-x"))
_SPECIAL_BITS = {"-u": 0o4000, "-g": 0o2000, "-k": 0o1000}


class TreeFiles(FileQuestions):
    """The evaluator's file view (as qbcore.model.files.FileView) over a VirtualTree rooted at ``root``.

    Inside ``root`` every answer comes from the tree; outside it nothing is
    known. ``lost`` names the first change the model could not follow.
    """

    host = False
    # a glob the view cannot answer is an unknown word, never its own text (expand.glob)
    exact_words = True

    def __init__(self, tree: VirtualTree, root: str):
        self.tree = tree
        self.cwds = {normpath(root)}  # every working directory the shell has been in (_withheld)
        self.root = root
        self.lost: Optional[str] = None

    def fork(self) -> "TreeFiles":
        other = TreeFiles(self.tree.clone(), self.root)
        other.lost = self.lost
        return other

    def changed_in(self, fork: "TreeFiles") -> bool:
        return not _same_tree(fork.tree, self.tree)

    def lose(self, why: str):
        if self.lost is None:
            self.lost = why

    def inside(self, path: str) -> bool:
        path = normpath(path)
        return path == self.root or path.startswith(self.root + "/") or \
            getattr(self.tree, "_temp", None) is not None and run_owns(path)

    def unknown(self, path: str) -> Optional[str]:
        if self.lost is not None:
            return self.lost
        if not self.inside(path):
            return f"the files outside the task directory ({normpath(path)})"
        return None

    def kind(self, path: str) -> Optional[str]:
        """``dir``, ``file``, ``missing``, or None when unknown."""
        if self.unknown(path):
            return None
        if self.tree.is_dir(path):
            return "dir"
        return "file" if self.tree.exists(path) else "missing"

    def terminal(self, descriptor: str) -> bool:
        """``test -t``: no descriptor of a run is a terminal. The executor gives bash /dev/null
        or a pipe to read and pipes to write to, and the sandbox has no controlling terminal
        to open (bash: false for a word that is no number too)."""
        return False

    def file_test(self, op: str, path: str) -> Optional[bool]:
        """From the tree, for what it holds: regular files, directories and symlinks, each
        owned by the user who runs the reply, who is not root (the sandbox runs it as nobody
        or as its caller, never as root: the owner's bits decide ``-r``, ``-w`` and ``-x``,
        and a folder its owner may not search hides what it holds), and no times."""
        if op not in FILE_TESTS or self.unknown(path):
            return None
        withheld = self._withheld(path)
        if withheld is not False:
            return None if withheld is None else False  # through a folder its owner may not search: stat fails
        follow = op not in ("-L", "-h")
        try:
            canon, node, _ = self.tree._lookup(path, follow)
        except OutsideTree:
            return None
        except VfsError as exc:
            if exc.at and not self.inside(exc.at):
                return None  # a symlink on the way led out of the tree
            return False  # a directory above it is missing, a file, or a loop: stat fails
        if not self.inside(canon):
            return None
        if node is None:
            return False
        kind = node.kind
        if op in ("-e", "-a"):
            return True
        if op == "-f":
            return kind == "f"
        if op == "-d":
            return kind == "d"
        if op in ("-L", "-h"):
            return kind == "l"
        if op == "-s":
            if kind == "f" and type(node.data) is UnknownData:
                return None
            return kind == "d" or len(node.data) > 0
        if op in _SPECIAL_BITS:
            return bool(node.mode & _SPECIAL_BITS[op])
        if op in ("-p", "-S", "-b", "-c"):
            return False  # the tree holds no pipe, socket or device
        return bool(node.mode & {"-r": 0o400, "-w": 0o200, "-x": 0o100}[op])

    def names(self, path: str) -> Optional[list]:
        """A glob's listing of folder ``path``: none where bash's opendir fails, on a folder
        its owner may not read or on the way through one it may not search."""
        if self.unknown(path) or type(self.tree) is BoundedTree and self.tree._tmp_itself(path):
            return None
        withheld = self._withheld(path)
        if withheld is not False:
            return None if withheld is None else []
        try:
            names = VirtualTree.listdir(self.tree, path)  # a glob's: it says its pattern (listed)
            return names if self.tree.mode(path) & 0o400 else []
        except VfsError:
            return []

    def is_dir(self, path: str) -> Optional[bool]:
        """A glob's question of a name it matched (bash stats it): no folder through a folder
        its owner may not search."""
        withheld = self._withheld(path)
        if withheld is not False:
            return None if withheld is None else False
        return FileQuestions.is_dir(self, path)

    def listed(self, path: str, pattern):
        if _LISTINGS or _JOB_WATCHES:
            try:
                folder = self.tree._lookup(path)[0]
            except VfsError:
                return
            if _LISTINGS:
                _LISTINGS[-1].append((folder, pattern))
            jobs.listed(folder, pattern)

    def create(self, path: str):
        """A redirection opened ``path`` for writing: a missing file now exists, empty."""
        if self.unknown(path):
            return
        try:
            if not self.tree.exists(path):
                self.tree.write_bytes(path, b"")
        except VfsError as exc:
            self.lose(f"the files after opening {path} ({exc.strerror})")

    def truncate(self, path: str):
        if self.unknown(path) is None and self.tree.is_file(path):
            self.tree.write_bytes(path, b"")

    def write(self, path: str, data: bytes):
        """Bytes written through a descriptor opened on ``path``; appended at its end."""
        if self.unknown(path):
            return
        try:
            self.tree.write_bytes(path, data, append=True)
        except VfsError as exc:
            self.lose(f"the files after writing {path} ({exc.strerror})")

    def write_unknown(self, path: str, why: str):
        """Bytes the model does not know written through a descriptor opened on ``path``: the
        file is there, its bytes unknown (vfs.UnknownData)."""
        if self.unknown(path):
            return
        try:
            self.tree.write_unknown(path, why)
        except VfsError as exc:
            self.lose(f"the files after writing {path} ({exc.strerror})")

    def read(self, path: str) -> Optional[bytes]:
        """The bytes of file ``path``; None when not known (nor when it is no file it may read)."""
        if self.unknown(path) or not self.tree.is_file(path) or not self.tree.mode(path) & 0o400:
            return None
        try:
            return self.tree.read_bytes(path)
        except UnknownContent:
            return None

    # The shell's own opens, cd and tests, as the user who runs the reply (not root: file_test)
    # meets them: the owner's bits decide, and bash says "Permission denied" (measured as nobody)

    def _write_failure(self, path: str, kind: str) -> Optional[str]:
        if kind == "file" and not self.tree.mode(path) & 0o200:
            return PERMISSION_DENIED  # a file its owner may not write
        if kind == "missing" and self.tree.new_name_withheld(path):
            return PERMISSION_DENIED  # a new name in a folder its owner may not change
        if kind == "missing" and getattr(self.tree, "_temp", None) is not None and no_root_name(path):
            return STRERROR["EROFS"]  # a new name in the sandbox's root
        return ""

    def open_failure(self, path: str, *, writes: bool, trailing_slash: bool = False) -> Optional[str]:
        inside = self.unknown(path) is None
        withheld = self._withheld(path)
        if withheld is not False:
            return None if withheld is None else PERMISSION_DENIED  # through a folder its owner may not search
        failure = FileQuestions.open_failure(self, path, writes=writes, trailing_slash=trailing_slash)
        if failure == "" and inside and not writes and not self.tree.mode(path) & 0o400:
            return PERMISSION_DENIED  # a file or folder its owner may not read
        return failure

    def directory_failure(self, path: str) -> Optional[str]:
        withheld = self._withheld(path, itself=True)
        if withheld is not False:
            return None if withheld is None else PERMISSION_DENIED  # a folder its owner may not search
        return FileQuestions.directory_failure(self, path)

    def entered(self, path: str):
        self.cwds.add(normpath(path))

    def _withheld(self, path: str, itself: bool = False) -> Optional[bool]:
        """Whether a lookup of ``path`` meets a folder its owner may not search (``itself``: or
        is one); None when the shell has been below that folder, where a relative lookup
        starts without searching it. False outside the tree (what it holds there is unknown)."""
        if self.unknown(path) is not None:
            return False
        folder = self.tree.search_withheld(normpath(path), itself)
        if folder is None:
            return False
        inside = folder.rstrip("/") + "/"
        return None if any(cwd.startswith(inside) for cwd in self.cwds) else True

    def _walks_up_to(self, head: str) -> bool:
        return self.inside(head)

    def _above_root(self, path: str) -> Optional[str]:
        return "" if self.inside(path) or path in ALWAYS_OPENS else None


def _same_tree(a: VirtualTree, b: VirtualTree) -> bool:
    # nodes are replaced, never changed: a clone that changed nothing holds the same objects
    left, right = a._store.nodes, b._store.nodes
    return len(left) == len(right) and all(right.get(k) is v for k, v in left.items())


def _parse_doubt(script: str, source: Optional[str]) -> Optional[str]:
    """Why bash's reading of ``script`` (from ``source``: "-c", "stdin", or a file for
    anything else) is not modelled, if it is not."""
    if source != "-c" and (len(script) - len(script.rstrip("\\"))) % 2:
        # measured: bash drops a backslash at the very end of a script it reads from a file
        # or its stdin, one line or several (a -c string's is the lexer's: it keeps it unless
        # the last line began inside single quotes)
        return f"a backslash at the end of a script read from {'its stdin' if source == 'stdin' else 'a file'}"
    if "$(" in script and _delimiter_line_goes_on(script):
        error = parse(script).error
        if error is not None and _delimiter_line_goes_on(script, error.offset):
            return "a here-document whose delimiter starts a longer line (`EOF)`), which bash 5.2 ends in $( )"
    return None


_HEREDOC_OPERATOR = re.compile(r"<<-?[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def _delimiter_line_goes_on(script: str, before: Optional[int] = None) -> bool:
    """Whether a line after a here-document operator starts with its delimiter and goes on:
    inside $( ) bash 5.2 ends the body there, warns that it was delimited by the end of file,
    and reads the rest of the line as commands (measured: `EOF)` closes the substitution,
    `EOFX)` runs X), where the lexer reads on to the end of the script (and reports the
    substitution unterminated: _parse_doubt asks for that error too), for an operator after a
    ``$(`` (one before any cannot lie inside a substitution). ``before``: only an
    operator that starts before this byte offset (a syntax error's: bash reads the script
    alike up to the first operator, and stops at an error before it)."""
    for match in _HEREDOC_OPERATOR.finditer(script):
        if before is not None and len(script[:match.start()].encode("utf-8", "surrogateescape")) >= before:
            break
        if "$(" not in script[:match.start()]:
            continue  # (no substitution opened before it: it cannot lie inside one)
        if re.search(rf"(?m)^\t*{re.escape(match.group(2))}[^\n]", script[match.end():]):
            return True
    return False


def _mentions(text: str, name: str) -> bool:
    """Whether source ``text`` may name the file ``name`` (a plain name as a whole word)."""
    if not re.fullmatch(r"[\w.-]+", name):
        return name in text
    return any(os.path.basename(word) == name for word in re.findall(r"[\w./-]+", text))


def _names(arg, path: str) -> bool:
    return isinstance(arg, str) and _mentions(arg, os.path.basename(path))


def _searches_under(argv, path: str, cwd) -> bool:
    """Whether grep ``argv`` may be recursive and ``path`` lie under a name it goes down (the
    working directory when none): grep -r finds the file its output goes to (and skips it,
    saying so). True when not sure."""
    if any(type(word) is not str for word in argv) or not isinstance(cwd, str):
        return True
    roots = grep_recursive_roots(list(argv))
    if roots is None:
        return True
    return any(path == root or path.startswith(root.rstrip("/") + "/")
               for root in (normpath(os.path.join(cwd, name)) for name in roots))


#: producers of `< <(…)` that write through stdio: into a pipe, their output comes at exit;
#: and the builtins echo and printf, which read nothing once their words are expanded
_BUFFERED_PRODUCERS = frozenset({"find", "ls", "sort", "grep", "seq", "cut", "head", "tail", "wc", "uniq",
                                 "echo", "printf"})
_PIPE_BUFFER = 4096


def _plain_name(command) -> Optional[str]:
    """The name of a simple command when it is one plain word, else None."""
    if type(command) is not S.SimpleCommand or not command.words:
        return None
    parts = command.words[0].parts
    return parts[0].text if len(parts) == 1 and type(parts[0]) is S.Lit else None


def _settles(command, output: "Buffer", reader) -> bool:
    """Whether a pipeline's ``command`` is done before its ``reader`` does anything: one
    utility that writes through stdio (its output, at most one pipe buffer, comes when it
    exits), read by xargs or by what reads before anything else (read, a while read loop)."""
    if _plain_name(command) not in _BUFFERED_PRODUCERS:
        return False
    size = len(output.data) if output.unknown is None else (
        len(output.unordered.encode("utf-8", "surrogateescape")) if output.unordered is not None else None)
    if any(r.op[:1] == ">" or r.op[:2] == "&>" for r in getattr(reader, "redirects", ())):
        return False  # the reader opens its own files as it starts, while the command still runs
    return size is not None and size <= _PIPE_BUFFER and (_is_xargs(reader) or _reads_first(reader))


def _done_before(commands, settled: set) -> list:
    """For each command of a pipeline, the ones certainly done before it does anything: the
    one before it when that settles (``_settles``); and where that one reads its input to the
    end before it exits (``_drains``: sort, grep…), the utility before it as well (its stdout
    closes when it exits), and so on back while each drains its input."""
    done = [frozenset()] * len(commands)
    for n in range(1, len(commands)):
        if n - 1 not in settled:
            continue
        found = {n - 1}
        k = n - 1
        while k > 0 and _drains(commands[k]) and type(commands[k - 1]) is S.SimpleCommand:
            found.add(k - 1)
            found |= done[k - 1]
            k -= 1
        done[n] = frozenset(found)
    return done


#: filters that read their stdin to the end before they exit, given only short options without
#: the letters named (those that stop early, or name a file to read or write instead), and
#: for grep its one pattern
_DRAINERS = {"sort": "cCo", "grep": "qmlLef", "cut": "", "wc": "", "uniq": "", "tail": "fFc"}


def _drains(command) -> bool:
    """Whether a pipeline's command reads its stdin to the end before it exits (_DRAINERS), its
    words plain: sort, grep, cut, wc, uniq and tail with no operand (a file they would read
    instead), grep with its pattern alone."""
    name = _plain_name(command)
    refused = _DRAINERS.get(name)
    words = E.plain_words(command) if refused is not None else None
    if words is None or command.redirects:
        return False
    operands = [w for w in words[1:] if w[:1] != "-" or w == "-"]
    if any(w[:2] == "--" or w[:1] == "-" and any(letter in refused for letter in w[1:]) for w in words[1:]):
        return False
    return len(operands) == (1 if name == "grep" else 0)


def _takes_in_any_order(command, text: str) -> bool:
    """Whether a pipeline's reader gives the same output whatever the order of the records of
    ``text``, which come in no known order (NUL-ended where it holds a NUL, as -print0 makes
    them, else lines; as _orders reads them): E.ignores_order, where sort reads records as
    the text ends them (-z for NULs), and over NUL-ended records wc counts only lines and
    bytes (a record that starts with a blank starts a word only where it comes first)."""
    if not E.ignores_order(command):
        return False
    words = E.plain_words(command) or []
    letters = "".join(w[1:] for w in words[1:] if w[:1] == "-")
    nul = "\0" in text
    if words[:1] == ["sort"]:
        return ("z" in letters) == nul
    return not nul or bool(letters) and set(letters) <= set("lc")


def _filters_lines(command) -> bool:
    """Whether a pipeline's reader writes for each line of its input what that line alone
    decides, and its status whatever their order: ``grep`` of the pipe (no file operand) with
    options that match line by line (not -n, -c, -m, -A…), ``cut`` of the pipe."""
    if type(command) is not S.SimpleCommand or not command.words or any(
            r.fd in (None, "0") and r.op[:1] == "<" or r.fd == "0" for r in command.redirects):
        return False  # not a plain command, or its stdin is not the pipe
    words = E.plain_words(command)
    if words is None or words[0] not in _LINE_FILTERS:
        return False
    flags, valued = _LINE_FILTERS[words[0]]
    try:
        opts, operands = scan_options(words, flags, with_arg=valued)
    except OptionUnknown:
        return False  # another option, a long one, or a value missing (the usage error)
    if words[0] == "cut":
        return not operands
    return bool(operands) != any(letter == "e" for letter, _ in opts) and len(operands) <= 1


#: the line filters _filters_lines takes: (their options that match line by line, those of them
#: that take a value)
_LINE_FILTERS = {"grep": ("vixFEGPwoy", "e"), "cut": ("s", "dfcb")}


def _one_read(output: Optional["Buffer"]) -> bool:
    """Whether a pipe's reader takes all of ``output`` in its first read: one write of at most
    one pipe buffer (atomic), its contents known."""
    return output is not None and output.unknown is None and output.writes <= 1 and \
        len(output.data) <= _PIPE_BUFFER


def _is_xargs(command) -> bool:
    """Whether a pipeline's reader is xargs, named by a plain word."""
    return _plain_name(command) == "xargs"


def _only_command(script) -> Optional["S.SimpleCommand"]:
    """The script's one simple command of plain words, if that is all it is."""
    items = [item for chunk in script.chunks for item in chunk.items]
    if len(items) != 1 or items[0].background or len(items[0].command.pipelines) != 1:
        return None
    commands = items[0].command.pipelines[0].commands
    if len(commands) != 1 or type(commands[0]) is not S.SimpleCommand or not commands[0].words or \
            commands[0].assignments or commands[0].redirects:
        return None
    return commands[0]


#: utilities that read their stdin as a filter, writing no file of their own (sort's -o aside)
_STDIN_FILTERS = frozenset({"grep", "wc", "sort", "cut", "uniq", "cat", "tr", "head", "tail"})


def _filters(node) -> bool:
    """Whether ``node``, a utility of _STDIN_FILTERS, writes only to its stdout: its words
    plain, sort without -o."""
    words = E.plain_words(node)
    return words is not None and not (words[0] == "sort" and any(
        w.startswith("--o") or w[:1] == "-" and w[1:2] != "-" and "o" in w for w in words[1:]))


#: the readers whose `<(…)` words the model follows: utilities that read the files their words
#: name as a stream, start to end, and whose output does not tell a pipe from a file
_PIPE_READERS = frozenset({"cat", "diff", "cmp", "comm", "paste", "sort", "grep", "head", "tail", "cut",
                           "uniq", "join", "wc", "md5sum", "sha256sum", "awk"})
#: what may list a folder: ls, find, a glob
_LISTS = re.compile(r"\b(ls|find)\b|[*?\[]")
#: the pipes of process substitutions open now, by the path bash names them with
_PIPES: dict = {}


def _pipe_words(node) -> bool:
    """Whether a simple command's words hold a process substitution."""
    return any(type(part) is S.ProcSub for word in node.words for part in word.parts)


def _pipe_node(data: bytes):
    """The entry a pipe's path leads to, as a reader of its bytes meets it."""
    return vfs_node("f", data, 0o600)


def _never_reads_stdin(name: str, argv) -> bool:
    """Whether the utility ``name`` run as ``argv`` never reads its stdin, whatever it holds:
    one of _NO_STDIN but find, and for mv, cp, rm and ln no word that may ask it to (an option
    word with i or I, --interactive; stdin is never a terminal here, where they would ask for
    a file they may not write)."""
    if name not in _NO_STDIN or name == "find":
        return False
    return name not in _ASK_ON_STDIN or all(
        type(word) is str and not (word[:1] == "-" and ("i" in word or "I" in word)) for word in argv[1:])


def _reads_first(node) -> bool:
    """Whether ``node`` reads its stdin before it does anything else: ``read``, ``mapfile``
    or ``readarray``, a ``while`` loop whose condition starts with one, or a program that reads
    what it runs from there (_READ_PROGRAM_FIRST: ``bash``, ``sh -s ARGS…``, ``python3 -``)."""
    if type(node) is S.While and not node.until and node.condition:
        first = node.condition[0].command.pipelines[0]
        node = first.commands[0] if len(first.commands) == 1 else None
    name = _plain_name(node)
    if name in _READ_PROGRAM_FIRST:
        words = E.plain_words(node)  # (and no redirection: `< FILE` gives it another script)
        return words is not None and (len(words) == 1 or words[1] == _READ_PROGRAM_FIRST[name]) and not node.redirects
    return name in _LINE_READERS


#: programs that read the program they run from stdin before they do anything, with the word
#: that says so after their name (alone, they read it there too): a shell reads a line, python3
#: all of it
_READ_PROGRAM_FIRST = {"bash": "-s", "sh": "-s", "python3": "-"}


def _find_filter(command):
    """For a pipeline's ``find`` of plain words, the test every entry it acts on passes
    (find.acts_only_on_names); None for anything else."""
    if _plain_name(command) != "find":
        return None
    words = E.plain_words(command)
    return None if words is None else acts_only_on_names(words)


def _unseen(test, path: str, tree) -> bool:
    """Whether a find whose entries all pass ``test`` may ignore ``path``: a file (not a
    folder, which the walk may enter) whose name fails it."""
    if test is None or test(os.path.basename(path)):
        return False
    try:
        return not tree.is_dir(path)
    except (VfsError, OutsideTree):
        return False


# -- where a command's descriptors lead ----------------------------------------

#: the longest here-document bash writes to a pipe (a longer one goes to a temporary file)
_HEREDOC_PIPE = 65536


@dataclass
class Stream:
    """Bytes on a descriptor for reading; a stream with bytes is read by one command only."""

    data: Optional[bytes]
    why: str = ""
    taken: bool = False
    pos: int = 0  # what read and its kin took, a line at a time, ends here
    unordered: bool = False  # its lines are known, not their order: only xargs is given them
    # with data None: it reads without error all the same (a pipe, a here-document), only its
    # bytes are not known (a reader that copies them, cat, knows its status)
    readable: bool = False
    source: Optional[str] = None  # the file it was opened on (`<`)
    # whether it reads a regular file (fstat: wc pads its counts otherwise): a file opened with
    # `<`; not a pipe, /dev/null or a here-document a pipe holds; None: not known (a longer
    # here-document, which bash writes to a temporary file, among them)
    regular: Optional[bool] = False

    def peek(self) -> Optional[bytes]:
        """The bytes for a command that does not read them."""
        return None if self.data is None or self.data and self.taken else self.data[self.pos:]

    def take(self) -> Optional[bytes]:
        if self.data is None:
            return None
        if self.data and self.taken:
            return None  # what the first reader left is not modelled
        self.taken = True
        return self.data[self.pos:]

    def read_until(self, delim: bytes) -> Optional[tuple]:
        """The next line up to ``delim`` (bash's read takes exactly that much), and whether
        ``delim`` ended it; None when unknown (or known in no order)."""
        if self.data is None or self.data and self.taken or self.unordered:
            return None
        end = self.data.find(delim, self.pos)
        start = self.pos
        if end < 0:
            self.pos = len(self.data)
            return self.data[start:], False
        self.pos = end + 1
        return self.data[start:end], True

    def spoil(self):
        self.taken = True


class ScriptInput(Stream):
    """bash's stdin when bash reads its script from it (`bash -s`, or a bash started on it).

    bash reads its script a line at a time, and a command that reads stdin takes what bash has
    not read yet. While a chunk runs (evaluate runs one line's complete commands at a time),
    ``data`` holds the script's bytes after the chunk (``EffectWalker.begin_chunk``; None where
    the offsets are not known: ``script`` None). A utility that reads them (``take``) takes them
    all: the script, held in one pipe buffer, is all in the pipe, and a utility reads a buffer
    at a time; bash then meets the end of its input, and the script ends with the chunk
    (``taken``). ``read`` takes a line, a byte at a time, as bash does: bash then reads on from
    there (``pos``; ``EffectWalker.input_moved``). A read of a share not known (``head -c``, a
    background job racing bash, more than a buffer) is ``partial``, which leaves the run
    unknown. A command that never reads stdin sees nothing there."""

    script: Optional[bytes] = None  # the script bash reads here, when its chunks' offsets are its own
    text: Optional[str] = None  # the same, as the parser read it
    partial: bool = False

    def peek(self) -> Optional[bytes]:
        return b""

    def take(self) -> Optional[bytes]:
        if self.taken:
            return b""  # the first reader left nothing
        if self.data is None or _IN_JOB or _BESIDE or len(self.data) - self.pos > _PIPE_BUFFER:
            self.partial = True
            return None
        self.taken = True
        return self.data[self.pos:]

    def read_until(self, delim: bytes) -> Optional[tuple]:
        if self.taken:
            return b"", False
        if self.data is None or _IN_JOB or _BESIDE:
            self.partial = True
            return None
        return Stream.read_until(self, delim)

    def spoil(self):
        self.partial = True

    def left(self) -> Optional[bytes]:
        """What bash has not read of its input yet; None when not known."""
        if self.taken:
            return b""
        return None if self.data is None or self.partial else self.data[self.pos:]


def stdin_script(text: str) -> ScriptInput:
    """The stdin of a bash that reads ``text`` from it as its script."""
    found = ScriptInput(None, "bash's stdin, which holds the rest of the script")
    if "\\\n" not in text:  # (a joined line's chunks have the offsets of the joined text)
        found.script, found.text = text.encode("utf-8", "surrogateescape"), text
    return found


class _ScriptReader(Invocation):
    """A command whose stdin is bash's script input: a model that reads ``stdin`` takes it."""

    script_input: Optional[ScriptInput] = None
    _data: Optional[bytes] = None

    @property
    def stdin(self) -> Optional[bytes]:
        if self._data is None and self.script_input is not None:
            self._data = self.script_input.take()
        return self._data

    @stdin.setter
    def stdin(self, value):
        pass  # what bash has not read yet is the script itself


@dataclass
class Buffer:
    """A pipe's contents, or why they are not known."""

    data: bytearray = field(default_factory=bytearray)
    unknown: Optional[str] = None
    # lines whose order is not known, the writer's only output here (values.UnorderedLines):
    # a reader that sorts or counts lines may take them in this order
    unordered: Optional[str] = None
    # the version of the files when the writer first wrote here (None: not yet): a file it
    # changes after that may stay as it was, when its reader stops early (SIGPIPE ends the
    # writer at a write once its reader is gone)
    first_version: Optional[object] = None
    # how many lines the shell's stderr held then: what the writer says there after it may
    # never come, for the same reason
    first_stderr: Optional[int] = None
    # how many writes it took (each emit is one write(2) at least): a reader may take more
    # than one write in one read, or one in several
    writes: int = 0


class OpenFile:
    """One open file description for writing (a redirection opens one; ``2>&1`` and a child
    share it): ``append`` for ``>>``, else ``written`` the bytes written through it, its offset
    (-1 once it wrote bytes the model does not know). While that is the file's size, a write
    lands at its end; another writer on the same file (a second redirection, a utility) moves
    the end away from the offset."""

    __slots__ = ("append", "written")

    def __init__(self, append: bool):
        self.append = append
        self.written = 0


@dataclass(frozen=True)
class FileSink:
    path: str
    # the open description it writes through (None: not followed); not part of its value,
    # which names where the output goes
    opened: Optional[OpenFile] = field(default=None, compare=False, hash=False)


class _Special:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


SHELL_OUT = _Special("the harness's stdout")
SHELL_ERR = _Special("the harness's stderr")
NULL = _Special("/dev/null")
CLOSED = _Special("a closed descriptor")
UNKNOWN = _Special("an unknown descriptor")

Target = Union[Stream, Buffer, FileSink, _Special]


@dataclass
class Effects:
    """What the evaluation wrote to the harness's stderr (for the failure class), or why unknown."""

    stderr: list = field(default_factory=list)
    streams: tuple = ()  # (stdin, stderr) of the command whose words are being expanded
    stderr_unknown: Optional[str] = None


#: builtins whose messages (bash's builtin_error) name the line the command runs on
_LINE_NAMING_BUILTINS = frozenset({"test", "[", "cd", "pushd", "popd", "type", "exit", "return", "shift", "unset",
                                   "printf", "trap"})


class EffectWalker(E._Walker):
    """The walker with descriptors: stdin, stdout and stderr lead to streams, pipes or files."""

    #: whether this shell's own stdout is a command substitution's (a _CapturingWalker)
    captured = False
    #: the command this walker runs as one of a pipeline's, forked before its words expand
    forked_command = None
    follows_descriptors = True

    def __init__(self, env, result, script, certain=True, depth=0):
        super().__init__(env, result, script, certain, depth)
        self.stdin: Stream = Stream(b"")  # the executor's harness reads /dev/null
        self.sink: Target = SHELL_OUT
        self.errsink: Target = SHELL_ERR
        # the top-level walker of a shell reports to the Effects it carries, and starts with
        # the descriptors it was given (see run_effects and the substitution hook)
        self.effects: Effects = getattr(env, "effects", None) or Effects()
        streams = getattr(env, "streams", None)
        if streams is not None:
            self.stdin, self.sink, self.errsink = streams
        self._pending: tuple = ()
        self._ran = False
        self._error_sink: Optional[Target] = None
        self._exports: set = set()
        # descriptors above 2 that `exec` opened for the rest of this shell
        self.fds: dict = {}
        # whether this walker walks a part of another's shell (a function, eval'd code, a
        # subshell, a pipeline's command): `exec`'s redirections would outlive it there
        self.inherited = False

    def begin_chunk(self, chunk):
        """Before a chunk of this shell's script runs: a stdin that holds the script holds
        what follows the chunk."""
        stdin = self.stdin
        if type(stdin) is ScriptInput and stdin.script is not None and stdin.text == self.script.source:
            stdin.data, stdin.pos = stdin.script[chunk.end:], 0

    def input_moved(self):
        """After a chunk of this shell's script, read from its stdin: None to go on with the
        next chunk; True when the commands took the rest (bash meets the end of its input);
        else the script bash reads on with, from where ``read`` left its input (with as many
        newlines first as bash has read: its line numbers go on)."""
        stdin = self.stdin
        if type(stdin) is not ScriptInput or stdin.text != self.script.source or stdin.data is None or \
                stdin.partial or not stdin.taken and stdin.pos == 0:
            return None
        if stdin.taken or stdin.pos >= len(stdin.data):
            return True
        if self.env.functions:
            # a function's body is spelled in the script it came from, not in the one read on
            stdin.partial = True
            return None
        script = stdin.script
        text = "\n" * script[:len(script) - len(stdin.data)].count(b"\n") + \
            stdin.data[stdin.pos:].decode("utf-8", "surrogateescape")
        stdin.script, stdin.text, stdin.data, stdin.pos = text.encode("utf-8", "surrogateescape"), text, None, 0
        return parse(text)

    def _inherit(self, walker: "EffectWalker") -> "EffectWalker":
        walker.stdin, walker.sink, walker.errsink, walker.effects = self.stdin, self.sink, self.errsink, self.effects
        walker.fds, walker.inherited = dict(self.fds), True
        return walker

    def child(self, env, certain=None):
        return self._inherit(super().child(env, certain))

    def enter(self, script, scope, inline=False):
        return self._inherit(super().enter(script, scope, inline))

    # -- writing --------------------------------------------------------------

    def emit(self, target: Target, text, what: str):
        """Write ``text`` (str, Opaque or None) to ``target``."""
        if text is None or text == "":
            return
        if isinstance(target, Buffer):
            target.writes += 1
            if target.first_version is None:
                target.first_version = self.env.files.tree._store.version
                target.first_stderr = len(self.effects.stderr)
            if type(text) is UnorderedLines and self.certain and target.unknown is None and not target.data:
                self.env.meter.build(len(text.lines), "pipe contents")
                target.unordered, target.unknown = text.lines, text.name
                return
            target.unordered = None
            if isinstance(text, Opaque) or not self.certain:
                target.unknown = target.unknown or (text.name if isinstance(text, Opaque) else
                                                    f"output of {what}, which may not run")
            elif target.unknown is None:
                self.env.meter.build(len(text), "pipe contents")
                target.data += text.encode("utf-8", "surrogateescape")
        elif isinstance(target, FileSink):
            if isinstance(text, Opaque):
                self._write_unknown(target, f"the bytes written to {target.path} ({text.name})")
                return
            data = text.encode("utf-8", "surrogateescape")
            opened = target.opened
            files = self.env.files
            if opened is not None and not opened.append and files.unknown(target.path) is None:
                if opened.written < 0:
                    # at an offset not known, after bytes not known: what the file holds is not known
                    self._write_unknown(target, f"the bytes written to {target.path} after bytes not known")
                    return
                # the write lands at this descriptor's offset: the file's end only while no
                # other writer moved it
                now = files.read(target.path)
                if now is None or len(now) != opened.written:
                    files.lose(f"the files after {what} wrote to {target.path}, whose end another "
                               "writer moved while it was open")
                    return
                opened.written += len(data)
            self.env.files.write(target.path, data)
        elif target is SHELL_ERR:
            if isinstance(text, Opaque):
                self.effects.stderr_unknown = self.effects.stderr_unknown or text.name
            else:
                self.effects.stderr.append(text)
        elif target is SHELL_OUT:
            # the shell's own stdout (stderr sent there with 2>&1): it joins the output in order
            if isinstance(text, str) and not self.certain:
                text = Opaque(f"output of {what}, which may not run")
            self.result.output.append(text)
            if isinstance(text, Opaque):
                self.note([text.name])
        elif target in (CLOSED, UNKNOWN):
            self.env.files.lose(f"the files after {what} wrote to {target}")

    def _write_unknown(self, target: "FileSink", why: str):
        """Bytes the model does not know written to a file: it holds UnknownData, and its
        descriptor's offset is not known (a later write through it loses the files)."""
        if target.opened is not None:
            target.opened.written = -1
        self.env.files.write_unknown(target.path, why)

    def emit_error(self, target: Target, text, what: str, line: Optional[int] = None):
        """Write bash's own message to stderr. Into a file or a pipe it is ``$0: line N: text``
        where ``line`` is known (``_message_line``); elsewhere its prefix is not spelled."""
        name = self.env.sourcing or self.env.arg0  # (a sourced file's name: measured)
        if line is not None and text and isinstance(target, (FileSink, Buffer)):
            self.emit(target, f"{name}: line {line}: {text}\n", what)
            return
        if isinstance(target, FileSink) and text:
            self._write_unknown(target, f"the bytes of an error message written to {target.path}")
            return
        if (target is SHELL_OUT or isinstance(target, Buffer)) and text:
            text = Opaque(f"an error message of {what} on stdout")
        if target is SHELL_ERR and isinstance(text, str) and text:
            text = f"{name}: {text}"  # bash starts its messages with $0
        self.emit(target, text, what)

    # -- redirections ------------------------------------------------------------

    def redirection(self, redirect, exp, opened=()):
        record, doubt = super().redirection(redirect, exp, opened)
        if doubt is None and record.truncates and record.path and record.exact:
            self.env.files.truncate(record.path)
        return record, doubt

    def _node_of(self, path: str):
        """The entry ``path`` leads to now (a write makes a new one), None when there is none."""
        tree = self.env.files.tree
        try:
            return tree.nodes().get(tree.realpath(path))
        except VfsError:
            return None

    def descriptors(self, records) -> dict:
        """fd -> target after ``records``, from this walker's stdin, stdout and stderr."""
        table = {0: self.stdin, 1: self.sink, 2: self.errsink}
        if self.fds:
            table.update(self.fds)
        for record in records:
            op = record.op
            fd = int(record.fd) if record.fd is not None and record.fd.isdigit() else None
            if record.fd is not None and fd is None:
                table[-1] = UNKNOWN  # {name}>…: a descriptor bash picks
                continue
            if record.body is not None:
                body = record.body
                data = None if has_opaque(body) else body.encode("utf-8", "surrogateescape")
                # bash writes a document of up to 64 KiB to a pipe, a longer one to a file (measured)
                table[0 if fd is None else fd] = Stream(None, "a here-document with unknown parts", readable=True,
                                                        regular=None) if data is None else \
                    Stream(data, regular=False if len(data) <= _HEREDOC_PIPE else None)
            elif op in ("<&", ">&") and record.path is None:
                target = record.target or ""
                to = 0 if op == "<&" and fd is None else (1 if fd is None else fd)
                if target == "-":
                    table[to] = CLOSED
                elif target.isdigit() and int(target) in table:
                    table[to] = table[int(target)]
                else:
                    table[to] = UNKNOWN
            elif record.path is None or not record.exact:
                table[(0 if op[:1] == "<" else 1) if fd is None else fd] = UNKNOWN
            elif op == "<":
                path = os.path.normpath(record.path)
                data = b"" if path == "/dev/null" else self.env.files.read(path)
                table[0 if fd is None else fd] = Stream(data, f"the contents of {record.target}",
                                                        source=None if path == "/dev/null" else path,
                                                        regular=path != "/dev/null")
            elif op in (">", ">|", ">>", "&>", "&>>"):
                path = os.path.normpath(record.path)
                if path in STREAM_PATHS:
                    target = self._reopened(table.get(STREAM_PATHS[path]), record)
                else:
                    target = NULL if path == "/dev/null" else FileSink(path, OpenFile(op in (">>", "&>>")))
                if op in ("&>", "&>>"):
                    table[1] = table[2] = target
                else:
                    table[1 if fd is None else fd] = target
            else:
                table[0 if fd is None else fd] = UNKNOWN  # <> and anything else
        stdin = table[0]
        if type(stdin) is Stream and stdin.source is not None and stdin.data is not None and not stdin.taken and \
                self.env.files.read(stdin.source) != stdin.data:
            # a descriptor reads what its file holds when it reads: a file changed in place
            # since it was opened (`{ : > f; cat; } < f`) holds other bytes, one replaced (rm, mv,
            # sed -i) its old ones: not followed
            stdin.data, stdin.why, stdin.readable = None, f"{stdin.source}, changed since it was opened", True
        return table

    def _reopened(self, current, record):
        """What ``> /dev/stdout`` (or /dev/stderr) opens: the pipe, the harness's stream or
        /dev/null its descriptor holds; a file it holds is opened anew (truncated, from its
        start), and a closed descriptor fails to open: not followed."""
        if current is SHELL_OUT or current is SHELL_ERR or current is NULL or type(current) is Buffer:
            return current
        self.env.files.lose(f"the files after `> {record.target}` (a descriptor holding a file, closed or "
                            "not known, opened again by its path)")
        return UNKNOWN

    def redirections(self, redirects, node, names=None, substitutions=None, forked=False):
        saved = self.effects.streams
        try:
            return super().redirections(redirects, node, names, substitutions, forked)
        finally:
            self.effects.streams = saved

    def before_redirection(self, records, redirect):
        # a command substitution in the next redirection's word or here-document reads and
        # writes where the redirections before it put stdin and stderr (measured: in
        # `cat >& f <<EOF` a substitution's error goes to f); one without any runs nothing
        raw, doc = self.raw, redirect.heredoc
        spans = [raw[redirect.start:redirect.end]]
        if doc is not None and not doc.quoted:
            spans.append(raw[doc.start:doc.end])
        if any(b"$(" in span or b"`" in span for span in spans):
            table = self.descriptors(records)
            self.effects.streams = (table[0], table[2])

    def error_in_redirection(self, records):
        # measured: in `cat > out 2> err <<EOF` a body's bad substitution is reported in err
        if records:
            self._error_sink = self.descriptors(records)[2]

    def process_input(self, redirect, node, later) -> Optional[str]:
        """``< <(producer)`` run to its end before ``node`` reads, when that is what bash does:
        the producer is one utility that writes through stdio (its output, at most one pipe
        buffer, comes when it exits), or echo or printf, and changes no file, and ``node``
        reads before anything else (``read``, ``mapfile``, a ``while read`` loop); or ``node``
        is a filter that writes no file of its own (grep, wc, sort…), which reads all that
        any one command that changes no file writes, whenever it does. No later redirection
        may create a file a listing producer could see or the producer names."""
        target = redirect.target
        if redirect.op != "<" or redirect.heredoc is not None or target is None or len(target.parts) != 1 or \
                type(target.parts[0]) is not S.ProcSub or target.parts[0].direction != "<" or \
                _plain_name(node) in self.env.functions:
            return None
        # a filter reads to the end whatever the producer writes, whenever it writes it
        draining = _plain_name(node) in _STDIN_FILTERS and _filters(node)
        if not draining and not _reads_first(node):
            return None
        script = target.parts[0].script
        producer = _only_command(script)
        if producer is None or script.error is not None:
            return None
        name = _plain_name(producer)
        if name is None or not draining and name not in _BUFFERED_PRODUCERS or name in self.env.functions:
            return None
        text = self.produced(script, self.text(target.parts[0]), later, self.text(redirect))
        if text is None:
            return None
        return text if draining or len(text.encode("utf-8", "surrogateescape")) <= _PIPE_BUFFER else None

    def produced(self, script, text: str, redirects, what: str) -> Optional[str]:
        """What the producer of a process substitution (``script``, spelled ``text``) writes, run
        to its end on a copy of this shell; None where it may race with bash opening a file of
        ``redirects`` (it lists a folder, or names the file), or where what it does is not known
        (then the files are lost: it ran, ``what`` says where)."""
        created = [r for r in redirects if r.op[:1] == ">" or r.op[:2] == "&>"]
        if created and (_LISTS.search(text) or any(
                r.target is None or _mentions(text, os.path.basename(self.text(r.target))) for r in created)):
            return None
        files = self.env.files
        before = dict(files.tree._store.nodes)
        self.effects.streams = (self.stdin, self.errsink)  # the producer's are the shell's
        held = dict(_PIPES)  # (the pipes opened before it are its reader's, not its own)
        _PIPES.clear()
        try:
            found = self.env.substitute(script, self.env.copy())
        finally:
            _PIPES.update(held)
        self.effects.streams = (self.stdin, self.errsink)
        if changed_paths(before, files.tree) or not isinstance(found.stdout, str):
            files.lose(f"the files after `{what}`")  # it ran: what it did is not followed
            return None
        return found.stdout

    # -- commands -------------------------------------------------------------

    def record(self, *, argv, node, modelled, status, output, error=None, **rest):
        super().record(argv=argv, node=node, modelled=modelled, status=status, output=output, error=error,
                       **rest)
        ran, sink, self._error_sink = self._error_sink is not None, self._error_sink or self.errsink, None
        if error and not ran and any(r.fd == "2" or r.op in ("&>", "&>>") for r in rest.get("redirects", ())):
            # a redirection failed: bash reports it where the redirections before it put stderr
            # (measured: `echo x 2>err >/nope/x` and `{ :; } 2>err >/nope/x` write it to err);
            # the message itself is not spelled
            self.emit(self.descriptors(rest["redirects"])[2], Opaque(f"bash's message ({error})"), self.text(node))
        elif error and error.startswith(_UNSPELLED):
            self.emit(sink, Opaque(f"bash's message ({error})"), self.text(node))
        elif error and not rest.get("kind_only"):
            self.emit_error(sink, error, self.text(node), self._message_line(argv, node, error))

    def _message_line(self, argv, node, error) -> Optional[int]:
        """The line bash names in its message ``error`` about ``node``, where the model knows
        it: a command not found (or a path to nothing or to a folder), or the message of a
        builtin of _LINE_NAMING_BUILTINS (it names the line the command runs on), written on one line of
        the script's own code, outside a function, eval'd code or a command substitution, in a
        script without line continuations. bash takes the line it has read up to when it meets
        the token after the command's first word (measured: `foo "a<newline>b"` is line 2,
        `x=1 \\<newline>foo` line 1), LINENO the line the command starts on."""
        line = self.env.lineno
        if type(line) is not int or self.depth or self.substitution_lines is not None or not argv or \
                type(node) is not S.SimpleCommand or "\n" in self.text(node) or "\\\n" in self.script.source:
            return None
        name = argv[0]
        if type(name) is not str or error not in (not_found_message(name, self.env),
                                                   f"{name}: No such file or directory", f"{name}: Is a directory") and \
                not (name in _LINE_NAMING_BUILTINS and error.startswith(f"{name}: ")):
            return None
        return line

    def execute(self, node, argv, assignments, redirects, exp_names, substitutions):
        locale = _locale_set(argv, assignments, self.env)
        if locale is not None:
            # bash sets its own locale, and warns where the host has no such locale: on its stderr
            # before the command's own redirections (measured: `LC_ALL=x 2>/dev/null` warns)
            what = f"bash's warning that it cannot set the locale {locale}, if the host has no such locale"
            self.emit(self.errsink, Opaque(what), self.text(node))
        # prefix assignments are exported to the command they go with; a command substitution
        # in its words runs commands of its own, after which the set is this command's again
        saved, self._exports = self._exports, {name for name, *_ in assignments}
        self._pending, self._ran = tuple(redirects), False
        try:
            super().execute(node, argv, assignments, redirects, exp_names, substitutions)
        finally:
            self._exports = saved
        if argv and not self._ran:
            # a command the walker could not even dispatch (an unknown name): its output is unknown
            self.emit(self.sink, Opaque(f"output of `{self.text(node)}`"), self.text(node))
            self.effects.stderr_unknown = self.effects.stderr_unknown or f"stderr of `{self.text(node)}`"

    def simple(self, node):
        # a command substitution in its words reads this shell's stdin and writes to its stderr
        self.effects.streams = (self.stdin, self.errsink)
        name = _plain_name(node)
        if name not in _PIPE_READERS or name in self.env.functions or not _pipe_words(node):
            super().simple(node)
            return
        # `READER <(producer)…`: each producer runs to its end, its output the pipe's bytes the
        # reader finds at the path bash names in the word, /dev/fd/63, 62…
        env, opened = self.env, []
        env.process_substitution = lambda part: self.pipe(part, node, opened)
        try:
            super().simple(node)
        finally:
            del env.process_substitution
            for path in opened:
                _PIPES.pop(path, None)

    def pipe(self, part, node, opened) -> Optional[str]:
        """The path of the pipe ``<(…)`` in ``node``'s words opens (its bytes in _PIPES), or None:
        its producer changes no file, its output is known, and it lists no folder and names no
        file where ``node``'s redirections create one (bash opens those while it runs)."""
        if part.direction != "<" or part.script.error is not None:
            return None
        text = self.produced(part.script, self.text(part), node.redirects, self.text(part))
        if text is None:
            return None
        path = f"/dev/fd/{63 - len(opened)}"
        opened.append(path)
        _PIPES[path] = _pipe_node(text.encode("utf-8", "surrogateescape"))
        return path

    def compound(self, node):
        # so does one in the words of for, case, [[ … ]] and (( … )), inside the compound's
        # own redirections
        self.effects.streams = (self.stdin, self.errsink)
        super().compound(node)

    def background(self, item):
        # the job runs at a time not known, up to the harness's end: run where it starts, it is
        # watched against all that runs after it (run_effects checks the two)
        access = jobs.Access()
        jobs.watch(access)
        try:
            if self.certain and not self.captured and self._job_reads_nothing(item) \
                    and not isinstance(self.sink, Buffer) and not isinstance(self.errsink, Buffer):
                self.followed_background(item)
            else:
                self.uncertain_background(item)
        finally:
            jobs.unwatch(access)
        _JOBS.append(jobs.Job(self.text(item.command), access, self.env))

    def _job_reads_nothing(self, item) -> bool:
        """Whether ``item &`` reads an empty stdin: this shell's holds nothing, or bash gives
        the job /dev/null, as it does a job that redirects nothing to its stdin (measured:
        `cat & wait` in a script bash reads from stdin leaves the script alone; `cat <&0 &`
        races bash for its rest). A `<` or `0>` anywhere in the job's text counts as such a redirection."""
        if type(self.stdin) is Stream and self.stdin.peek() == b"":
            return True
        text = self.text(item.command)
        return type(self.stdin) is ScriptInput and "<" not in text and _FD0_OUT.search(text) is None

    def followed_background(self, item):
        """``item &`` run to its end now, in its subshell over the shared files. Its stdin, as
        the shell's, holds nothing; its output reaches no reader here (a pipe read after it
        could see it anywhere), and each of its commands must keep the shell's stdout or
        stderr, so that the harness, reading them to their end, waits for the job."""
        global _IN_JOB
        walker = self.child(self.env.copy())
        walker.into_subshell()
        walker.stdin = Stream(b"")  # an asynchronous list without job control reads /dev/null
        _IN_JOB += 1
        try:
            walker.subshell(item.command)
        finally:
            _IN_JOB -= 1
        self.env.status = 0
        self.env.last_bg = Opaque("$!")

    def uncertain_background(self, item):
        """``item &`` where the walker does not follow it: as evaluate does, on a copy whose
        changes are unknown; what it writes into a pipe or a command substitution comes at a
        place among the rest's output that is not known."""
        global _BESIDE
        pipes = [t for t in {id(self.sink): self.sink, id(self.errsink): self.errsink}.values()
                 if isinstance(t, Buffer)]
        writes, said = [t.writes for t in pipes], len(self.result.output)
        _BESIDE += 1
        try:
            super().background(item)
        finally:
            _BESIDE -= 1
        what = f"`{self.text(item.command)}`"
        late = Opaque(f"output of {what}, run in the background (where it comes among what follows)")
        for target, before in zip(pipes, writes):
            if target.writes != before:
                self.emit(target, late, what)
        if self.captured and len(self.result.output) != said:
            self.emit(SHELL_OUT, late, what)

    def job_spec(self, node, argv, assignments, exp_names, substitutions) -> bool:
        """A command name that starts with %: bash takes it for a job to resume and runs fg on
        the words before any redirection, which without job control fails (measured: `%x > o
        2>&1` prints `fg: no job control` where stderr was, makes no o, status 1). A pipeline's
        own command is forked first and searches for the name (run); bg, after `&`, is not
        followed."""
        name = argv[0] if argv else None
        if type(name) is not str or name[:1] != "%" or self.forked_command is node or _IN_JOB or _BESIDE:
            return False
        self.record(argv=tuple(argv), node=node, modelled=True, status=1, output=None, error="fg: no job control",
                    assignments=assignments, redirects=(), opaque=exp_names, substitutions=substitutions)
        self.env.status = 1
        self.set_last_argument(argv)
        return True

    def _lend_exports(self) -> dict:
        """The command's prefix assignments flagged exported while it runs: bash exports them
        to a utility, and to all that eval, source or a function runs (its temporary
        environment, measured: `MSG=x eval ./prog`); the variables as they were, for _give_back."""
        vars_ = self.env.vars
        lent = {k: vars_[k] for k in self._exports if k in vars_ and not vars_[k].exported}
        for k, var in lent.items():
            vars_[k] = Variable(var.value, True)
        return lent

    def _give_back(self, lent: dict):
        vars_ = self.env.vars
        for k, var in lent.items():
            if k in vars_ and vars_[k].exported and vars_[k].value is var.value:
                vars_[k] = var

    def run(self, name, argv, node, stdout_away, own_stdout=False) -> Outcome:
        self._ran = True
        if name == "exec" and len(argv) > 1 and type(argv[1]) is str and argv[1] in COMMANDS and \
                argv[1] not in BUILTINS:
            # `exec UTILITY …`: the utility, found on PATH, replaces the shell with exec's
            # descriptors (still pending), and its status ends the shell (a builtin's name
            # runs its program)
            found = self.run(argv[1], argv[1:], node, stdout_away, own_stdout)
            return Outcome(found.status, found.stdout, found.error, found.modelled, found.stderr,
                           transfer=E._Exit(found.status))
        env_itself = None
        # env and timeout, the system's programs of plain words, run a program of their own
        starter = name in ("env", "timeout") and name not in self.env.functions and \
            self.system_program(name) is None and all(type(a) is str and not has_opaque(a) for a in argv)
        if starter and name == "timeout":
            # a limit that cannot end the program first: the program, as env runs it (a program
            # it cannot run gets timeout's own message: not followed)
            request = timeout_request(argv)
            request = request if request is None else self.env_missing(request)
            if request is not None and request.failure is None:
                return self.env_program(request, node, stdout_away, own_stdout)
        if starter and name == "env":
            request = env_request(argv)
            if request is not None and request.failure is None:
                request = self.env_missing(request)
            if request is not None and request.failure is None and request.program:
                return self.env_program(request, node, stdout_away, own_stdout)
            if request is not None and request.failure is None and request.clear:
                # its own settings alone, in the order it made them (a name set again keeps its place)
                env_itself = Outcome(0, "".join(f"{k}={v}\n" for k, v in dict(request.sets).items()))
            elif request is not None and request.failure is None:
                # the environment, in the order bash passed it on: not known
                env_itself = Outcome(0, Opaque(f"output of `{self.text(node)}` (the environment, in bash's order)"))
            elif request is not None:
                env_itself = Outcome(request.failure[0], None, stderr=request.failure[1])
        redirects, self._pending = self._pending, ()
        table = self.descriptors(redirects)
        if name == "exec" and len(argv) == 1 and redirects:
            named = _named_descriptors(redirects)
            if self.inherited or -1 in table or self.forked_command is not None or not self.certain or \
                    0 in named and type(self.stdin) is ScriptInput or 2 in named and self.script.error is not None:
                # (bash reads the rest of a script it reads from stdin from the new stdin, and
                # writes its message about the script's syntax error to the new stderr)
                self.env.files.lose(f"the files after `{self.text(node)}` (exec redirections in a function, "
                                    "eval, a subshell or a pipeline, to a descriptor bash picks, that may not run, "
                                    "of the stdin bash reads its script from, or of the stderr of a script "
                                    "with a syntax error)")
            else:
                # they stay for the rest of this shell (a compound command's own redirections,
                # undone after it, undo them too: stdout_compound)
                self.stdin, self.sink, self.errsink = table[0], table[1], table[2]
                self.fds = {fd: target for fd, target in table.items() if fd > 2}
                return Outcome(0)
        stdin, sink, errsink = table[0], table[1], table[2]
        if isinstance(name, str) and name[:1] == "%" and self.forked_command is not node:
            # a job to resume for bash (job_spec), met here through `command`, `exec` or a
            # background job: not followed
            self.env.files.lose(f"the files after `{self.text(node)}` (a command name that starts with %, "
                                "a job bash would resume)")
            return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)
        if _IN_JOB and sink is not SHELL_OUT and errsink is not SHELL_ERR:
            # it may hold neither: the harness may end before it does, and kill it
            self.env.files.lose(f"the files after `{self.text(node)}`, run in the background with its "
                                "stdout and stderr away from the harness")
        if name == "wait" and len(argv) == 1 and name not in self.env.functions:
            # every job this shell started is done: what follows no longer runs beside them (a
            # wait that may not run, or a job started elsewhere, ends nothing); status 0
            if self.certain:
                for job in _JOBS:
                    if job.owner is self.env:
                        job.end()
            return Outcome(0)
        if name in self.env.functions and self.depth < E.CALL_DEPTH:
            saved = self.stdin, self.sink, self.errsink
            self.stdin, self.sink, self.errsink = stdin, sink, errsink
            lent = self._lend_exports()
            try:
                return call_function(Invocation(argv, self.env, self, node, stdout_away, own_stdout))
            finally:
                self._give_back(lent)
                self.stdin, self.sink, self.errsink = saved
        program = argv[1:] if name == "exec" and len(argv) > 1 else argv
        if program is argv and type(name) is str and (name in COMMANDS or name == "bash") and \
                name not in BASH_BUILTINS:
            found = self.system_program(name)
            if type(found) is tuple:
                self._error_sink = errsink  # bash's message goes where the command's stderr does
                return Outcome(found[0], None, error=found[1])
            if found is not None:
                self.env.files.lose(f"the files after `{self.text(node)}` ({found})")
                return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)
        shell = self.shell_program(program, node, table)
        if shell is not None:
            if program is not argv:  # exec: the shell is replaced, and ends with its status
                return Outcome(shell.status, transfer=E._Exit(shell.status))
            return shell
        missing = program is argv and name not in COMMANDS and lookup(name) is lookup(None) and \
            missing_command(name, self.env)
        if missing:
            self._error_sink = errsink  # bash's message goes where the command's stderr does
            return Outcome(missing[0], None, error=missing[1])
        reads_output = False  # it may read the file its stdout goes to, empty when it starts
        for target in (sink, errsink) if name in COMMANDS else ():
            if not isinstance(target, FileSink):
                continue
            named = any(_names(a, target.path) for a in argv[1:]) or \
                type(stdin) is Stream and stdin.source == target.path
            if name in _WRITE_AS_THEY_READ and target is sink:
                pass  # its model meets its output file as the utility does (OwnOutput)
            elif named and (self.env.files.read(target.path) or name in _WRITE_AS_THEY_READ) or \
                    name == "grep" and (named or _searches_under(argv, target.path, self.env.cwd)):
                # grep refuses an input that is its output (an empty one too, and one that -r
                # finds); others read what they wrote (cat its messages there)
                self.env.files.lose(f"the files after `{self.text(node)}` (it may read {target.path}, "
                                    "where its output goes)")
            else:
                reads_output = reads_output or named and target is sink
        # (bash puts the utility's own path in its environment as $_, whatever $_ holds)
        if name in COMMANDS and any((v.exported or k in self._exports) and type(v) is not _StartVariable and
                                    not isinstance(v.value, str) and k != "_" for k, v in self.env.vars.items()):
            self.env.files.lose(f"the files after `{self.text(node)}` (its environment holds unknown values)")
        model = COMMANDS.get(name) or lookup(name) if env_itself is None else (lambda ctx: env_itself)
        lazy = False
        if not isinstance(stdin, Stream) or name in _LINE_READERS:
            data = None  # (read and its kin take their lines from the stream itself)
        elif name in _NO_STDIN or (name not in COMMANDS and model is not lookup(None)
                                   and name not in _READS_STDIN) or \
                (name in _STDIN_WHEN and not _STDIN_WHEN[name](argv)):
            data = stdin.peek()  # a command that never reads stdin leaves it to the next one
        elif name in COMMANDS and type(stdin) is Stream and not stdin.unordered:
            data, lazy = None, True  # the utility's model takes it if it reads it (programs.entry)
        elif type(stdin) is ScriptInput:
            data = None  # taken if the command reads it (_ScriptReader)
        else:
            data = stdin.take()
        if data is None and name in COMMANDS and _never_reads_stdin(name, argv):
            data = b""  # (what stdin holds does not matter to a utility that never looks)
        if data is None and type(stdin) is ScriptInput:
            ctx = _ScriptReader(argv, self.env, self, node, stdout_away, own_stdout, None)
            ctx.script_input = stdin
        else:
            ctx = Invocation(argv, self.env, self, node, stdout_away, own_stdout, data)
        if (name in _LINE_READERS or lazy) and isinstance(stdin, Stream):
            ctx.input = stdin
        if name in _WRITE_AS_THEY_READ and isinstance(sink, FileSink):
            ctx.output = OwnOutput(sink.path, errsink == sink, type(stdin) is Stream and stdin.source == sink.path)
        if isinstance(stdin, Stream) and stdin.unordered:
            ctx.stdin_unordered = True  # (only a model that takes such lines is given them: programs.entry)
        if name in COMMANDS and data is None and type(ctx) is Invocation and not lazy:
            what = stdin.why if isinstance(stdin, Stream) and stdin.why else "its stdin"
            self.env.files.lose(f"the files after `{self.text(node)}` ({what} not known)")
        # a utility sees the prefix assignments in its environment, as bash exports them to it
        lent = self._lend_exports() if name in COMMANDS or name in _RUNS_IN_SHELL else {}
        # eval runs its commands in this shell with the descriptors
        # their own redirections set up (`eval echo x > f` writes f)
        saved = self.stdin, self.sink, self.errsink
        if name in _RUNS_IN_SHELL:
            self.stdin, self.sink, self.errsink = stdin, sink, errsink
        # the file its stdin was opened on, as it is before the command runs (None: no such file)
        opened_on = self._node_of(stdin.source) if \
            name in COMMANDS and type(stdin) is Stream and stdin.source is not None and not stdin.taken else None
        try:
            outcome = model(ctx)
        except OutsideTree as exc:
            self.env.files.lose(f"the files after `{self.text(node)}` ({exc})")
            outcome = Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)
        finally:
            self._give_back(lent)
            self.stdin, self.sink, self.errsink = saved
        if opened_on is not None and stdin.taken and self._node_of(stdin.source) is not opened_on:
            # it wrote the file its stdin was opened on, and read its stdin: a read after the
            # write meets the new bytes (tee empties its files before it reads): not followed
            self.env.files.lose(f"the files after `{self.text(node)}` (it changed {stdin.source}, "
                                "its stdin's file, and read its stdin)")
        if reads_output and outcome.stdout is not None and (
                not isinstance(outcome.stdout, str) or
                len(outcome.stdout.encode("utf-8", "surrogateescape")) >= _STDIO_BUFFER):
            # output that fills stdio's buffer is written before the file may be read
            self.env.files.lose(f"the files after `{self.text(node)}` (it may read {sink.path}, "
                                "where its output goes, after writing to it)")
        what = f"`{self.text(node)}`"
        if outcome.error is None and not outcome.stderr and isinstance(outcome.status, int) and \
                outcome.status != 0 and name not in COMMANDS and name not in _SILENT_FAILURES:
            # a builtin that failed without its message in the model (printf's invalid formats)
            self.effects.stderr_unknown = self.effects.stderr_unknown or f"stderr of {what}"
        if isinstance(outcome.stdout, str) and outcome.stdout and any(has_opaque(a) for a in argv):
            unknown = ", ".join(n for a in argv for n in opaque_names(a))
            outcome = Outcome(outcome.status, Opaque(f"output of {name} ({unknown})"),
                              outcome.error, outcome.modelled, outcome.stderr, outcome.transfer)
        if outcome.unknown is not None:
            # a utility the model could not follow may have changed any file (sed -i, mv, …),
            # but for a reader, which changes none and ends on its own: its status and output
            # are what is unknown then
            if not (reads_only(name, argv) or name in _CHANGE_NO_FILE) or type(stdin) is ScriptInput:
                # (a reader may read the script's rest)
                self.env.files.lose(f"the files after {what} ({outcome.unknown})")
            # what it said is not known either, wherever its stderr goes (a file, a pipe)
            self.emit(errsink, Opaque(f"stderr of {what}"), what)
        elif name in COMMANDS:
            for target in (self.sink, self.errsink):
                if isinstance(target, FileSink) and not self.env.files.tree.lexists(target.path):
                    # the file the shell writes to was moved or removed while open: what is
                    # written next goes to it, wherever it is now, not to a new file of that name
                    self.env.files.lose(f"the files after {what}, which moved or removed {target.path}, "
                                        "open for writing")
        if outcome.stdout and (outcome.stderr or outcome.error_first and outcome.error) and sink == errsink and \
                (sink is SHELL_OUT or isinstance(sink, (FileSink, Buffer))):
            # both in one place (a file, a pipe, the shell's stdout): a program writes its messages
            # at once and its output as its buffer fills or it ends (measured: `ls d nowhere > f
            # 2>&1` has the message first), and printf too (Outcome.error_first): not followed,
            # but where the model kept the order they were written in (Outcome.merged)
            merged = outcome.merged if outcome.merged is not None and not outcome.error else \
                Opaque(f"output of {what} (its stdout and stderr, in one place)")
            outcome = Outcome(outcome.status, merged, outcome.error, outcome.modelled, None, outcome.transfer)
        if errsink is SHELL_OUT and outcome.stderr:
            self.emit(SHELL_OUT, outcome.stderr, what)
        if sink is not SHELL_OUT or stdout_away:
            # (its own redirection may lead back to the shell's stdout: `{ echo b >&2; } 2>&1`)
            self.emit(sink, outcome.stdout, what)
        if errsink is not SHELL_OUT:
            self.emit(errsink, outcome.stderr, what)
        self._error_sink = errsink  # bash's message, if any, is written when the command is recorded
        return outcome

    def system_program(self, name: str):
        """``search.system_program`` for ``name`` on this shell's PATH: a utility the model runs
        by name is the system's program only where PATH leads to it. The search reads PATH as
        plumbing: where the stand-ins' folder lies cannot change what it finds for a name the
        stand-ins do not have."""
        return system_program(name, self.env, _plumbing_value(self.env.vars.get("PATH")))

    def env_missing(self, request: EnvRequest) -> Optional[EnvRequest]:
        """``request`` when its program may run, env's failure when it cannot (nothing on PATH
        by that name, a path to nothing or to a folder), None when that is not known."""
        if not request.program:
            return request
        program = request.program[0]
        if not program:
            return not_run(program, 127)
        if request.clear and "/" not in program:
            return None  # (searched for on the PATH execvp takes when there is none: not followed)
        if "/" not in program and (program in BASH_BUILTINS or program in self.env.functions):
            if program == "echo" and self._coreutils_echo(request.program):
                return request
            if program == "printf" and self.system_program("printf") is None and "builtin" not in self.env.functions and \
                    coreutils_printf_differs(request.program[1:]) is None:
                return request
            if program_missing(program, self.env):
                return not_run(program, 127)  # (a builtin with no program of its name: shopt, cd…)
            return None  # env runs the program of that name, if any, which the model does not follow
        missing = missing_command(program, self.env)
        return request if not missing else not_run(program, missing[0])

    def _coreutils_echo(self, argv) -> bool:
        """Whether coreutils' echo, which env runs for ``echo``, prints what bash's builtin
        does for ``argv``: PATH leads to the system's, and none of what only it does holds
        (its help and version alone, ``\\u`` and ``\\U`` left as they are, POSIXLY_CORRECT)."""
        return self.system_program("echo") is None and "builtin" not in self.env.functions and \
            not coreutils_echo_differs(argv[1:], "POSIXLY_CORRECT" in self.env.vars)

    def env_program(self, request: EnvRequest, node, stdout_away, own_stdout) -> Outcome:
        """The program env execs, run as this walker runs a command (it takes env's stdin and
        descriptors, and its status is env's) with env's changes to the environment bash passes
        on: bash's exported variables and the command's own assignments."""
        vars_, exports = self.env.vars, self._exports
        unsets = request.unsets if not request.clear else \
            tuple(name for name, var in vars_.items() if var.exported or name in exports)
        saved = {name: vars_.get(name) for name in (*unsets, *(name for name, _ in request.sets))}
        self._exports = exports.difference(unsets)
        for name in unsets:
            vars_.pop(name, None)
        for name, value in request.sets:
            vars_[name] = Variable(value, True)
        try:
            if request.program[0] in ("echo", "printf"):
                # coreutils' echo or printf (env_missing: they print what the builtins do); a
                # message of their own is worded otherwise, and printf's status after one is
                # not followed
                argv = list(request.program)
                if argv[0] == "printf" and argv[1:2] == ["--"]:
                    del argv[1]
                found = self.run("builtin", ["builtin", *argv], node, stdout_away, own_stdout)
                if found.error is not None or found.stderr or found.status != 0:
                    what = f"`{self.text(node)}` (coreutils' {argv[0]})"
                    self.emit(self._error_sink or self.errsink, Opaque(f"stderr of {what}"), what)
                    return Outcome(found.status if argv[0] == "echo" else Opaque(f"status of {what}"),
                                   found.stdout, None, found.modelled)
                return found
            return self.run(request.program[0], list(request.program), node, stdout_away, own_stdout)
        finally:
            self._exports = exports
            for name, old in saved.items():
                if old is None:
                    vars_.pop(name, None)
                else:
                    vars_[name] = old

    def remote_shell(self, argv, node, table):
        """The stand-in ssh (realbash/standins/ssh) found first on PATH: ``(script, cwd,
        environ changes, stdin)`` of the ``bash -c JOINED`` it ends in, an Outcome for what
        it does without a shell (a usage error), or None when it is not that or not followed."""
        folder = standins_folder()
        path = _plumbing_value(self.env.vars.get("PATH"))
        if folder is None or not isinstance(path, str) or path.split(":", 1)[0] != folder:
            return None
        if any(not isinstance(a, str) or has_opaque(a) for a in argv):
            return None  # (the remote shell would read text the model does not know)
        call = ssh_call(argv[1:])
        if call.error is not None:
            usage = f"usage: ssh [-{_SSH_USAGE_FLAGS}] [-o option] [-p port] destination [command [argument ...]]\n"
            message = usage if call.host is None and call.error == "no destination" else f"{call.error}\n{usage}"
            self.emit(table[2], message, self.text(node))
            return Outcome(255)
        if not call.command:
            return None  # -V, -N, or a login shell reading stdin: not followed
        variable = self.env.vars.get("QBCORE_REMOTE_DIR")
        remote = variable.value if variable is not None and (variable.exported or "QBCORE_REMOTE_DIR" in self._exports) \
            else ""
        if not isinstance(remote, str) or not self.env.cwd_known or self.env.get("PWD") != self.env.cwd:
            return None
        # ${QBCORE_REMOTE_DIR:-.}: the remote shell of an ssh run remotely starts where it is
        remote = os.path.normpath(os.path.join(self.env.cwd, remote or "."))
        if self.env.files.kind(remote) != "dir":
            return None
        stdin = Stream(b"") if call.null_stdin else table[0]
        # the stand-in's bash cd's to the remote directory (OLDPWD, exported, is where it started)
        # and unsets QBCORE_REMOTE_DIR before exec'ing the remote shell
        return call.command, remote, {"QBCORE_REMOTE_DIR": None, "PWD": remote, "OLDPWD": self.env.cwd}, stdin

    def shell_program(self, argv, node, table) -> Optional[Outcome]:
        """A new bash this command starts: ``bash -c SCRIPT [ARG0 ARGS…]``, a bash script
        file of the tree run by its path, or the remote shell of the stand-in ssh. None for any
        other command."""
        name = argv[0]
        cwd, changes, outer, script_path = self.env.cwd, {}, None, None
        if name == "ssh":
            found = self.remote_shell(argv, node, table)
            if found is None or isinstance(found, Outcome):
                return found
            text, cwd, changes, stdin = found
            arg0, args, label = "bash", [], "-c"
            table = {0: stdin, 1: table[1], 2: table[2]}
        elif name == "bash" and len(argv) >= 3 and argv[1] == "-c":
            text, arg0, args = argv[2], argv[3] if len(argv) > 3 else "bash", argv[4:]
            label = "-c"
        elif name == "bash" and (len(argv) == 1 or argv[1] == "-s") and \
                (type(table[0]) is Stream and table[0].peek() is not None or
                 type(table[0]) is ScriptInput and table[0].data is not None):
            # `bash` or `bash -s [--] ARGS…` reading its script from a known stdin (a here-document:
            # the remote shell of heredoc-ssh); a command that reads stdin would take the rest of it
            args = argv[2:]
            if args[:1] == ["--"]:
                args = args[1:]
            elif args and isinstance(args[0], str) and args[0][:1] in ("-", "+"):
                return None  # more options: not followed
            if type(table[0]) is ScriptInput:
                # the new bash reads the rest of this one's script, a byte at a time: what it
                # leaves, this one reads on from (after the run)
                outer = table[0]
                data = outer.left()
                if data is None or _IN_JOB or _BESIDE:
                    outer.partial = True
                    return None
            else:
                data = table[0].take()
            text, arg0, label = data.decode("utf-8", "surrogateescape"), "bash", "stdin"
            table = {0: stdin_script(text), 1: table[1], 2: table[2]}
        elif "/" in name and isinstance(name, str) and self.env.cwd_known:
            path = os.path.normpath(os.path.join(self.env.cwd, name))
            text = _bash_script(self.env.files, path, by_bash=True)
            if text is None:
                return None
            arg0, args, label, script_path = name, argv[1:], None, path
        elif name == "bash" and len(argv) >= 2 and isinstance(argv[1], str) and argv[1][:1] not in ("", "-", "+") \
                and self.env.cwd_known:
            # `bash FILE ARGS…`: bash opens FILE from the working directory (searching PATH only
            # when nothing is there), whatever its mode and first line
            script_path = os.path.normpath(os.path.join(self.env.cwd, argv[1]))
            text = _script_file(self.env.files, script_path)
            if text is None:
                return None
            arg0, args, label = argv[1], argv[2:], None
        else:
            return None
        if any(not isinstance(a, str) or has_opaque(a) for a in (text, arg0, *args)):
            # (text with unknown spans: what the new shell reads there, and how, is not known)
            return None
        exports = self._exports
        environ, hidden = _passed_on((name, var) for name, var in self.env.vars.items()
                                     if var.exported or name in exports)
        for var, value in changes.items():
            if var in hidden:
                hidden.remove(var)
            if value is None:
                environ.pop(var, None)
            else:
                environ[var] = value
        env = new_shell_env(environ, cwd, self.env.files, self.env.meter, arg0, args)
        env.flags = _SOURCES[_SOURCE_OF[label]][0]  # ($- of a script file: hB, no c)
        for var in hidden:
            env.set(var, Opaque(f"${var}"), exported=True)
        # $_ starts as the path this shell found bash at (measured: /usr/bin/bash), not its own $_
        env.vars["_"] = _STARTED_BY_PATH
        env.effects = self.effects
        capture = None
        if self.captured and table[1] is SHELL_OUT and table[2] is not SHELL_OUT:
            # in a command substitution the new shell writes into the substitution: kept, its
            # text is the command's output (`$(bash -c …)`, a fenced reply's `` `bash …` ``)
            capture = Buffer()
            table = {0: table[0], 1: capture, 2: table[2]}
        env.streams = (table[0], table[1], table[2])
        env.substitute = self.env.substitute
        doubt = _parse_doubt(text, label)
        if doubt:
            self.env.files.lose(f"the files after `{self.text(node)}` ({doubt})")
            return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)
        started = (table[0], table[1], table[2])
        jobs_before = len(_JOBS)
        # a shell that starts itself (`bash < s.sh` in s.sh) ends at the nesting budget, as unknown
        meter = self.env.meter
        meter.enter_shell()
        try:
            run = run_shell(text, environ, hidden, arg0, args, env, self.effects, started,
                            lambda: E.evaluate(parse(text), env, walker=EffectWalker), self.env)
        finally:
            meter.leave_shell()
        if label == "stdin" and (table[0].partial or outer is not None and not _read_on(run, table[0], outer, data)):
            self.env.files.lose(f"the files after `{self.text(node)}` (a command may read its stdin, "
                                "which holds the rest of its script)")
            if outer is not None:
                outer.partial = True
            return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)
        if script_path is not None and _script_changed(self.env.files, script_path, text):
            self.env.files.lose(f"the files after `{self.text(node)}` (its script file {arg0} changed while it ran)")
            return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)
        if run.syntax_message:  # (bash refuses some [[ ]] without a word: "")
            where = f"{arg0}: -c" if label == "-c" else arg0
            # bash's words are `WHERE: line N: message`, and for a token a second line quoting
            # the line: spelled only where they reach the harness, which reads their marks
            self.emit(table[2], f"{where}: {run.syntax_message}" if table[2] is SHELL_ERR else
                      Opaque(f"bash's message for a syntax error in {where}"), self.text(node))
        if run.opaque and isinstance(run.status, Opaque):
            self.note([run.status.name])
        if capture is not None:
            known = capture.unknown is None and capture.unordered is None and len(_JOBS) == jobs_before
            return Outcome(run.status, bytes(capture.data).decode("utf-8", "surrogateescape") if known
                           else Opaque(f"output of `{self.text(node)}`"))
        if self.captured and table[1] is SHELL_OUT:
            # the new shell writes to a command substitution's stdout, which its run does not keep
            return Outcome(run.status, Opaque(f"output of `{self.text(node)}`"))
        return Outcome(run.status)

    def utility_bash(self, argv, stdin: Optional[bytes], cwd: str, environ, tree, stream=None) -> CommandResult:
        """``bash -c SCRIPT [ARG0 ARGS…]``, or a bash script of the tree run by its path (``PATH
        ARGS…``), started by a utility this shell runs (find -exec, xargs; CommandContext.bash),
        in ``cwd`` over ``tree`` with the utility's ``environ``:
        its status, stdout and stderr as the utility gets them, each known or named unknown;
        unknown as a whole where its files are not known. ``sh -c`` (dash) likewise, over a
        script dashsubset finds dash reads as bash does, walked in dash mode (_DashWalker).
        ``stream``: the caller's own stdin stream to read from, instead of ``stdin``'s bytes
        (None: bytes not known)."""
        dash = argv[0] == "sh"
        shell = "sh" if dash else "bash"
        if not isinstance(environ, Environ) or type(tree) is not BoundedTree or type(cwd) is not str or \
                any(type(w) is not str or has_opaque(w) for w in argv):
            return unknown_result(f"a run of {argv[0]} with words or a place the model does not know")
        if "/" in argv[0]:
            # a script of the tree run by its path: the kernel starts `/bin/bash PATH ARGS…`
            found = _bash_script(TreeFiles(tree, self.env.files.root), os.path.normpath(os.path.join(cwd, argv[0])))
            if found is None:
                return unknown_result(f"a run of {argv[0]}, which is not a bash script of the tree")
            text, arg0, args, label = found, argv[0], argv[1:], None
        else:
            text, arg0, args, label = argv[2], argv[3] if len(argv) > 3 else shell, argv[4:], "-c"
        if dash:
            why = dash_refusal(text)
            if why is not None:
                return unknown_result(f"a run of sh -c (dash) over {why}")
        start, hidden = _passed_on((name, var) for name, var in environ.variables().items() if name != "_")
        if start.get("BASH_ENV") and not dash:
            return unknown_result("a run of bash -c, which first reads the file BASH_ENV names")
        files = TreeFiles(tree, self.env.files.root)
        meter = self.env.meter
        env = new_shell_env(start, cwd, files, meter, arg0, args)
        if not dash:
            env.flags = _SOURCES[_SOURCE_OF[label]][0]
        for name in hidden:
            env.set(name, Opaque(f"${name}"), exported=True)
        # $_ starts as the path the utility was found at, which bash passes on to what it runs
        env.vars["_"] = _STARTED_BY_PATH
        if dash:
            # dash leaves SHLVL as it came
            if type(start.get("SHLVL")) is str:
                env.vars["SHLVL"] = Variable(start["SHLVL"], True)
            else:
                env.vars.pop("SHLVL", None)
        effects = env.effects = Effects()
        out, err = Buffer(), Buffer()
        if stream is None:
            stream = Stream(stdin, "" if stdin is not None else "its stdin, whose bytes are not known", regular=None)
        started = env.streams = (stream, out, err)
        env.substitute = _substitution_hook(effects, _DashCapturingWalker if dash else _CapturingWalker)
        doubt = _parse_doubt(text, label)
        if doubt:
            return unknown_result(f"a run of {argv[0] if label is None else 'bash -c'} ({doubt})")
        jobs_before = len(_JOBS)
        meter.enter_shell()
        try:
            run = run_shell(text, start, hidden, arg0, args, env, effects, started,
                            lambda: E.evaluate(parse(text), env, walker=_DashWalker if dash else EffectWalker),
                            self.env)
        finally:
            meter.leave_shell()
        if files.lost is not None:
            return unknown_result(files.lost)
        if label is None and _script_changed(files, os.path.normpath(os.path.join(cwd, argv[0])), text):
            return unknown_result(f"a run of {argv[0]}, whose script file changed while it ran")
        if len(_JOBS) != jobs_before:
            return unknown_result(f"a background job of a {shell} -c that a utility started")
        if effects.stderr or effects.stderr_unknown:
            return unknown_result(f"a message of a {shell} -c that a utility started")
        if run.syntax_message is not None:
            # `$0: -c: line N: message`, a second line for an unexpected token: not always
            # in bash's words here
            err.unknown = err.unknown or "bash's message for a syntax error in a bash -c script"
        status = run.status
        result = CommandResult(status if type(status) is int else 0, bytes(out.data), bytes(err.data))
        if type(status) is not int:
            result.status_unknown = status.name if isinstance(status, Opaque) else "the status of bash -c"
        if out.unknown is not None:
            result.stdout_unknown = out.unknown
        if err.unknown is not None:
            result.stderr_unknown = err.unknown
        return result

    def file_substituted(self, record) -> Optional[str]:
        """What ``$(<file)`` substitutes, ``record`` its command: the bytes of the regular file
        its one redirection opened, where they are known and hold no NUL (bash drops those,
        with a warning); None where not."""
        redirect = record.redirects[0] if len(record.redirects) == 1 else None
        if redirect is None or redirect.path is None or not redirect.exact:
            return None
        path = os.path.normpath(redirect.path)
        if path == "/dev/null":
            return ""
        files = self.env.files
        if files.kind(path) != "file":
            return None
        data = files.read(path)
        if data is None or b"\0" in data:
            return None
        return data.decode("utf-8", "surrogateescape")

    def stdout_compound(self, node, records):
        # bash restores the descriptors the compound's own redirections name after it (an
        # `exec` inside changed them for nothing); the others keep what an `exec` inside did
        if not records:
            super().stdout_compound(node, records)
            return
        table = self.descriptors(records)
        touched = _named_descriptors(records)
        saved = {0: self.stdin, 1: self.sink, 2: self.errsink, **self.fds}
        self.stdin, self.sink, self.errsink = table[0], table[1], table[2]
        self.fds = {fd: target for fd, target in table.items() if fd > 2}
        try:
            super().stdout_compound(node, records)
        finally:
            now = {0: self.stdin, 1: self.sink, 2: self.errsink, **self.fds}
            for fd in touched:
                if fd in saved:
                    now[fd] = saved[fd]
                else:
                    now.pop(fd, None)
            self.stdin, self.sink, self.errsink = now.pop(0), now.pop(1), now.pop(2)
            self.fds = now

    def unknown_output(self, text: Opaque):
        self.emit(self.sink, text, text.name)

    def concurrent(self, node):
        """The pipeline over one shared tree, stdout to stdin; a file one command changes and
        another names is a race, and the files become unknown."""
        files = self.env.files
        statuses, changes, listings = [], [], []
        silent = set()  # n: command n wrote nothing into its pipe
        previous: Optional[Buffer] = None
        last = len(node.commands) - 1
        texts = [self.text(c) for c in node.commands]
        settled = set()  # n: command n was done before command n + 1 did anything
        pipes = []  # n: what command n wrote into its pipe
        for n, command in enumerate(node.commands):
            sub = self.env.copy()  # each command is a subshell; the files are shared
            walker = self.child(sub)
            walker.into_subshell()
            walker.forked_command = command
            orders = None
            filtering = False
            if n and previous.unordered is not None and (_takes_in_any_order(command, previous.unordered) or
                                                         _is_xargs(command)):
                walker.stdin = Stream(previous.unordered.encode("utf-8", "surrogateescape"),
                                      unordered=not _takes_in_any_order(command, previous.unordered))
            elif 0 < n < last and previous.unordered is not None and "\0" not in previous.unordered and \
                    self.certain and _filters_lines(command):
                # a filter line by line: over the lines in another order, its output lines come in
                # that order; which lines, and its status, are the same
                walker.stdin = Stream(previous.unordered.encode("utf-8", "surrogateescape"))
                filtering = True
            elif n and previous.unordered is not None and self._may_reorder(n == last) and \
                    (orders := _orders(previous.unordered)) is not None:
                walker.stdin = Stream(orders[0])
            elif n:
                walker.stdin = Stream(None, previous.unknown, readable=True) if previous.unknown \
                    else Stream(bytes(previous.data))
            source = previous
            if n < last:
                walker.stdout_redirected += 1
                walker.stdout_closed = False
                walker.sink = previous = Buffer()
                pipes.append(previous)
            before = dict(files.tree._store.nodes)
            _LISTINGS.append([])
            start = marks = None
            if orders is not None and len(orders) > 1:
                # where the first run starts: the files, and how much of each output it finds
                start = files.fork()
                marks = (len(self.result.output), len(self.effects.stderr),
                         len(walker.sink.data) if isinstance(walker.sink, Buffer) else 0,
                         walker.sink.unknown if isinstance(walker.sink, Buffer) else None)
            try:
                statuses.append(walker.subshell(command))
                if start is not None:
                    statuses[-1] = self._in_other_orders(command, orders[1:], walker, statuses[-1], marks, start)
                output = walker.sink
                if filtering and (output.data or output.unknown is not None or not walker.certain):
                    # (no line at all has no order)
                    if output.unknown is None and output.data.endswith(b"\n") and walker.certain:
                        output.unordered = output.data.decode("utf-8", "surrogateescape")
                    output.unknown = output.unknown or f"the order of the lines of `{texts[n]}`, which read lines " \
                                                       "in no known order"
            finally:
                listings.append(_LISTINGS.pop())
                if _LISTINGS:
                    _LISTINGS[-1].extend(listings[-1])
            changes.append(changed_paths(before, files.tree))
            if n < last and not previous.writes and not previous.data and previous.unknown is None:
                silent.add(n)
            if n < last and previous.first_stderr is not None and len(self.effects.stderr) > previous.first_stderr \
                    and E.may_stop_reading(node.commands[n + 1]):
                # its reader may be gone by then: SIGPIPE may end it before it says it (measured: a
                # bash -c whose printf writes into a pipe to a command not found never reports the
                # syntax error on its next line)
                self.effects.stderr_unknown = self.effects.stderr_unknown or \
                    f"stderr of `{texts[n]}` after it first wrote to its reader, which may stop reading"
            if n < last and previous.writes and _runs_writers(command, texts[n]) and E.may_stop_reading(node.commands[n + 1]):
                # its children write into the pipe, each on its own: where its reader is gone, SIGPIPE
                # ends the one writing then, and xargs and find say so on stderr (xargs then ends
                # with 125; measured: `xargs -n1 | head -3`)
                said = Opaque(f"stderr of `{texts[n]}`, whose reader may stop reading")
                if any(r.fd == "2" or r.op in ("&>", "&>>", ">&") and r.fd is None for r in command.redirects):
                    self.env.files.lose(f"the files after `{texts[n]}` ({said.name}; where its stderr goes)")
                walker.emit(walker.errsink, said, texts[n])
                statuses[-1] = Opaque(f"status of `{texts[n]}`, whose reader may stop reading")
            if n < last and not changes[-1] and _settles(command, previous, node.commands[n + 1]) and \
                    _plain_name(node.commands[n + 1]) not in self.env.functions:
                settled.add(n)
            if n < last and previous.first_version is not None and \
                    files.tree._store.version is not previous.first_version and \
                    E.may_stop_reading(node.commands[n + 1]):
                # its reader may exit before it is done: at a later write SIGPIPE ends it, and
                # what it would have changed after that stays as it was
                files.lose(f"the files after `{texts[n]}`, which its reader may stop reading "
                           f"(SIGPIPE ends a writer that writes on)")
            elif 0 < n < last and changes[-1] and previous.first_version is not None and \
                    type(command) is S.SimpleCommand and not _one_read(source) and \
                    E.may_stop_reading(node.commands[n + 1]):
                # a utility (tee) that writes files and its stdout chunk by chunk, as its input
                # comes: its reader may be gone before a later chunk reaches the files
                files.lose(f"the files after `{texts[n]}`, whose input may come in several reads "
                           f"and whose reader may stop reading (SIGPIPE ends a writer that writes on)")
        # the commands run at the same time: a file one changes and another names, or one
        # creates in a directory another lists, is a race; but for those done before it acts
        done = _done_before(node.commands, settled)
        filters = [_find_filter(command) for command in node.commands]
        for n, changed in enumerate(changes):
            for path in changed:
                name = os.path.basename(path)
                others = [m for m in range(len(texts)) if m != n and m not in done[n] and n not in done[m]]
                if any(_mentions(texts[m], name) for m in others) or \
                        any(jobs.may_see(listings[m], path) and not _unseen(filters[m], path, files.tree) for m in others):
                    files.lose(f"the files after the pipeline `{self.text(node)}` (its commands race on {name})")
        killed = {n for n in range(last) if statuses[n] == 0 and self._surely_cut_off(node.commands[n], pipes[n],
                                                                                      node.commands[n + 1])}
        return self.pipeline_status(node, statuses, silent, killed)

    def _surely_cut_off(self, writer, pipe: "Buffer", reader) -> bool:
        """Whether SIGPIPE surely ends ``writer``: its reader exits once it has what it wants
        (head its lines or bytes, ``grep -q`` a match: _STOPS_READING), and the writer wrote
        more than the pipe holds beyond what the reader can have read by then. The writer is a
        builtin or a system utility that dies of the signal, as a shell does (python3 does not)."""
        if pipe.unknown is not None or pipe.unordered is not None or len(pipe.data) <= _PIPE_SIZE or \
                type(writer) is not S.SimpleCommand or type(reader) is not S.SimpleCommand or \
                any(r.fd in (None, "0") and r.op[:1] == "<" or r.fd == "0" for r in reader.redirects):
            return False  # (a reader whose stdin is not the pipe)
        words, read = E.plain_words(writer), E.plain_words(reader)
        if not words or not read or words[0] not in _DIES_OF_SIGPIPE or read[0] not in _STOPS_READING or \
                words[0] in self.env.functions or read[0] in self.env.functions or \
                words[0] not in BASH_BUILTINS and self.system_program(words[0]) is not None or \
                self.system_program(read[0]) is not None:
            return False
        stop, ahead = _STOPS_READING[read[0]](read[1:], pipe.data)
        return stop is not None and len(pipe.data) > stop + _PIPE_SIZE + ahead

    def _may_reorder(self, last: bool) -> bool:
        """Whether a pipeline's command can be run again over a fork, its output and messages
        compared with the first run's: they go where a fork's can be told apart."""
        return self.certain and \
            (not last or self.sink in (SHELL_OUT, NULL) or isinstance(self.sink, (FileSink, Buffer))) and \
            (self.errsink in (SHELL_ERR, NULL) or isinstance(self.errsink, FileSink))

    def _in_other_orders(self, command, orders: list, main: "EffectWalker", status, marks: tuple,
                         start: TreeFiles):
        """Run ``command`` (a pipeline's, just run by ``main`` over lines in no known order)
        again over forks of the files as they were before (``start``), given the lines in each
        of the other ``orders``: what differs from the first run is unknown; output lines that
        differ only in order stay unordered for a reader that sorts or counts them."""
        out_mark, err_mark, data_mark, unknown_before = marks
        sink = main.sink
        why = f"`{self.text(command)}` reading lines in no known order"
        said, printed = self.effects.stderr[err_mark:], self.result.output[out_mark:]
        # a pipe's output as the first run wrote it (one unknown before it says nothing new)
        wrote = (sink.unknown, bytes(sink.data[data_mark:])) \
            if isinstance(sink, Buffer) and unknown_before is None else None
        outputs = []
        for order in orders:
            env = self.env.copy()
            env.files = start.fork()
            effects = Effects()
            env.substitute = _substitution_hook(effects)
            fork = self.child(env)
            fork.into_subshell()
            fork.effects, fork.result = effects, E.Evaluation()
            fork.stdin = Stream(order)
            fork.stdout_redirected, fork.stdout_closed = main.stdout_redirected, main.stdout_closed
            fork.sink = Buffer() if isinstance(sink, Buffer) else sink
            fork.errsink = main.errsink
            other = fork.subshell(command)
            if other != status or isinstance(status, Opaque):
                status = Opaque(f"status of {why}")
            if env.files.lost != self.env.files.lost or not same_entries(env.files.tree, self.env.files.tree):
                self.env.files.lose(f"the files after {why}")
            if effects.stderr != said or effects.stderr_unknown:
                self.effects.stderr_unknown = self.effects.stderr_unknown or f"the messages of {why}"
            if sink is SHELL_OUT and fork.result.output != printed:
                self.result.output[out_mark:] = [Opaque(f"output of {why}")]
                self.note([f"output of {why}"])
            if wrote is not None:
                outputs.append((fork.sink.unknown, bytes(fork.sink.data)))
        if wrote is not None and any(output != wrote for output in outputs):
            lines = sorted(wrote[1].split(b"\n"))
            if data_mark == 0 and wrote[0] is None and \
                    all(unknown is None and sorted(data.split(b"\n")) == lines for unknown, data in outputs):
                # the same lines in another order: known, their order not
                sink.unordered = wrote[1].decode("utf-8", "surrogateescape")
            else:
                sink.unordered = None
            sink.unknown = sink.unknown or f"output of {why}"
        return status


# what a pipe holds (Linux: 16 pages) and what GNU head reads at once (BUFSIZ)
_PIPE_SIZE = 65536
_HEAD_READ = 8192
# writers that a write to a pipe with no reader kills (SIGPIPE's default action), the
# shell's builtins in a subshell among them
_DIES_OF_SIGPIPE = frozenset("echo printf seq cat tr sed awk grep sort cut tail head nl rev base64".split())


def _head_stop(args: list, data: bytes) -> tuple:
    """How far into ``data`` head reads before it has what ``args`` ask for (``-n N``, ``-N``,
    ``-c N``, none: 10 lines), None where that is not known or head reads it all; and how
    much further it may have read (BUFSIZ, twice)."""
    return _head_end(args, data), 2 * _HEAD_READ


def _head_end(args: list, data: bytes) -> Optional[int]:
    if not args:
        args = ["-n", "10"]
    if len(args) == 1 and args[0][:2] in ("-n", "-c") and len(args[0]) > 2:
        args = [args[0][:2], args[0][2:]]
    elif len(args) == 1 and args[0][1:].isdigit() and args[0][:1] == "-":
        args = ["-n", args[0][1:]]
    if len(args) != 2 or args[0] not in ("-n", "-c") or not args[1].isdigit() or int(args[1]) < 1:
        return None
    count = int(args[1])
    if args[0] == "-c":
        return count if count < len(data) else None
    at = -1
    for _ in range(count):
        at = data.find(b"\n", at + 1)
        if at < 0:
            return None
    return at + 1


def _grep_stop(args: list, data: bytes) -> tuple:
    """How far into ``data`` ``grep -q`` reads before it meets a line it selects (it exits
    there), None where no line is selected or that is not known; and how much further it may
    have read (_GREP_READ). One pattern and options that choose lines, over ASCII: the grep
    model finds the line."""
    flags = [w for w in args if w[:1] == "-" and w != "-"]
    patterns = [w for w in args if w not in flags]
    letters = "".join(w[1:] for w in flags if w[:2] != "--")
    if "q" not in letters and "--quiet" not in flags and "--silent" not in flags or len(patterns) != 1 or \
            any(w not in ("--quiet", "--silent") and (w[:2] == "--" or not set(w[1:]) <= set("FEGixwvsq"))
                for w in flags) or not data.isascii() or not patterns[0].isascii():
        return None, 0
    chosen = letters.replace("q", "")
    found = grep_model(CommandContext(["grep", "-n", "-m", "1", *(["-" + chosen] if chosen else []), "-e", patterns[0]],
                                      data, "/", {}, VirtualTree()))
    number = found.stdout.partition(b":")[0] if found.unknown is None and found.status == 0 else b""
    if not number.isdigit():
        return None, 0  # (no line selected, or "Binary file (standard input) matches")
    at = -1
    for _ in range(int(number)):
        at = data.find(b"\n", at + 1)
        if at < 0:
            return None, 0
    return at + 1, _GREP_READ


# the readers that exit once they have what they want: how far into a pipe's bytes each
# gets before it stops, and how much further it may have read by then
_STOPS_READING = {"head": _head_stop, "grep": _grep_stop}
# GNU grep's buffer (96 KiB and a page), twice over
_GREP_READ = 2 * (96 * 1024 + 4096)


def _orders(text: str) -> Optional[list]:
    """Every order of the lines of ``text`` (lines in no known order, each ended by a newline
    or a NUL), the first as they are; None past _MOST_LINES lines (a reader run in some
    orders only may meet the real one in none of them, and differ there)."""
    end = "\0" if "\0" in text else "\n"
    if not text.endswith(end):
        return None
    lines = text[:-1].split(end)
    if len(lines) > _MOST_LINES:
        return None
    return [(end.join(order) + end).encode("utf-8", "surrogateescape") for order in itertools.permutations(lines)]


# lines in no known order a reader is run over in each of their orders: 4! = 24 runs at most
_MOST_LINES = 4


# -- the environment a new bash starts with --------------------------------------

_SHELL_ENVS: OrderedDict = OrderedDict()
_SHELL_ENVS_SIZE = 256


def new_shell_env(environ: dict, cwd: str, files, meter, arg0, positional) -> Env:
    """``Env.from_environ(environ, cwd, files=files, meter=meter, arg0=arg0, positional=…)``,
    built once for each start and copied after (``Env.copy`` shares the variables, which
    a shell replaces and never changes in place, and gives fresh arrays, functions and
    sets: no shell changes another). Every layer of every prediction starts
    one; the copy costs a third of building it."""
    words = (cwd, arg0, *positional)
    host = stated_host()
    if files.host or any(type(v) is not str for v in environ.values()) or \
            any(type(w) is not str for w in words):
        # a view of this machine's files answers from the disk as it is now
        env = Env.from_environ(environ, cwd, files=files, meter=meter, arg0=arg0, positional=list(positional))
        _name_machine(env, environ, host)
        env.pipestatus_empty()
        return env
    key = (tuple(environ.items()), words, type(files), host)
    template = _SHELL_ENVS.get(key)
    if template is None:
        template = Env.from_environ(environ, cwd, files=files, meter=meter, arg0=arg0,
                                    positional=list(positional))
        _name_machine(template, environ, host)
        template.files = template.meter = None  # the start only: no run's files or budget kept
        template.start_watch = _Watch()
        _watched(template.vars, template.start_watch)  # once: every copy shares them
        _SHELL_ENVS[key] = template
        _TEMPLATE_NAMES[id(template)] = (template, _start_names(template.vars))
        if len(_SHELL_ENVS) > _SHELL_ENVS_SIZE:
            gone = _SHELL_ENVS.popitem(last=False)[1]
            _TEMPLATE_NAMES.pop(id(gone), None)
    env = template.copy()
    env.files, env.meter = files, meter
    env.pipestatus_empty()
    env.start_watch = template.start_watch
    names = _TEMPLATE_NAMES.get(id(template))
    if names is not None:
        # the start's names, for the cache of runs (the last start only: it is asked at once)
        _START_NAMES.clear()
        _START_NAMES[id(env)] = (env, names[1])
    return env


def _name_machine(env: Env, environ: dict, host: Optional[str]):
    """$HOSTNAME, which bash sets where the environment has none: the machine's name, where the
    run states it (the sandbox's), else unknown (Env.from_environ)."""
    if host is not None and "HOSTNAME" not in environ:
        env.vars["HOSTNAME"] = Variable(host, False)


# the names of each kept start (ShellRuns.key), and of the shell started last
_TEMPLATE_NAMES: dict = {}
_START_NAMES: dict = {}


# -- scripts parsed once --------------------------------------------------------

_PARSED: OrderedDict = OrderedDict()
_PARSED_SIZE = 2048


def parse(text: str) -> S.Script:
    """``parser.parse_prefix(text)``, kept for the texts seen last: the same script reaches a
    shell at every layer of every transport, and its tree is only read by the walker."""
    found = _PARSED.get(text)
    if found is None:
        found = _PARSED[text] = S.parse_prefix(text)
        if len(_PARSED) > _PARSED_SIZE:
            _PARSED.popitem(last=False)
    return found


def forget_parses():
    """Forget every script parsed and arithmetic expression read so far: the next run parses its own."""
    _PARSED.clear()
    forget_arithmetic()


# -- runs of a new bash, remembered by what they read ----------------------------

_VALUE_OF = Variable.value.__get__  # a Variable's value, read without telling a watcher
_SET_VALUE = Variable.value.__set__
_ABSENT = object()  # a variable a start did not hold


class _Watch:
    """Where the watched variables of one start note their reads: the run being recorded from
    that start (``reads`` None while none is). A start built once and copied for every shell
    (new_shell_env) shares its watched variables, and so this, between its runs: a run points it
    at its own recording and puts back what it held when it ends (a run of the same start may
    be recorded inside it). A read noted for another run of the same start only makes that
    run's key ask one value more, which that start gives alike."""

    __slots__ = ("reads", "plumbing")

    def __init__(self):
        self.reads: Optional[dict] = None
        self.plumbing: Optional[set] = None


class _StartVariable(Variable):
    """A variable as a new shell started with it (plain text), whose reads are watched: reading
    ``value`` notes its name and value in the run's ``reads`` (through ``watch``), so that a
    cache of runs can key the run by the values it read and no others (bash raises SHLVL at
    every layer: a script that never reads it runs alike at every depth). Variables are
    replaced, never changed, so an assignment leaves the watched object behind."""

    __slots__ = ("name", "watch")
    text_known = True

    @property
    def value(self):
        value = _VALUE_OF(self)
        watch = self.watch
        if watch.reads is not None:
            watch.reads[self.name] = value
            if watch.plumbing:
                watch.plumbing.discard(self.name)  # read for the reply's own sake now
        return value

    def peek(self):
        """The value, read without noting it (the cache's own bookkeeping)."""
        return _VALUE_OF(self)


def _passed_on(variables) -> tuple:
    """``(environ, hidden)`` a new shell starts from, of ``variables`` ((name, Variable) pairs it
    is passed): the values that are plain text, read without telling a watcher (its run tells
    the caller which it read: run_shell), and the names of the others."""
    environ, hidden = {}, []
    for name, var in variables:
        value = _peek(var)
        if type(value) is str:
            environ[name] = value
        else:
            hidden.append(name)
    return environ, hidden


def _peek(var) -> object:
    return _VALUE_OF(var)


def _plumbing_value(var) -> object:
    """The value of ``var`` (None for no variable) read for the harness's own plumbing: the
    stand-in ssh finding itself first on PATH. A run cache keys by the value all the same, but
    the read tells nothing of what the reply did with it (``plumbing``): a prediction asks a
    second run at another place only when the reply read PATH, which holds that place."""
    if var is None:
        return None
    if type(var) is _StartVariable:
        value = var.peek()
        watch = var.watch
        if watch.reads is not None and var.name not in watch.reads:
            watch.reads[var.name] = value
            watch.plumbing.add(var.name)
        return value
    return var.value


def _watched(vars_: dict, watch: _Watch):
    """Make the text variables of ``vars_`` watched ones, noting their reads through ``watch``."""
    for name, var in vars_.items():
        if type(var) is Variable and type(_VALUE_OF(var)) is str:
            watched = _NEW(_StartVariable)
            _SET_VALUE(watched, _VALUE_OF(var))
            watched.exported, watched.name, watched.watch = var.exported, name, watch
            vars_[name] = watched


def _watch(env: Env, reads: dict, plumbing: set) -> tuple:
    """Note the reads of the start variables of ``env`` in ``reads`` (and in ``plumbing`` the
    ones read only by _plumbing_value); what to give back to ``_unwatch`` when the run ends."""
    watch = getattr(env, "start_watch", None)
    if watch is None:  # a start not built by new_shell_env: its variables watched here
        watch = env.start_watch = _Watch()
        _watched(env.vars, watch)
    held = (watch, watch.reads, watch.plumbing)
    watch.reads, watch.plumbing = reads, plumbing
    return held


def _unwatch(held: tuple):
    watch, watch.reads, watch.plumbing = held


_NEW = object.__new__


class _Recording:
    """One run being recorded: the names of the variables it read from its start, the facts it
    consulted, and whether it read the descriptors its caller's command held (``entry``)."""

    __slots__ = ("reads", "plumbing", "facts", "entry", "entry_read")

    def __init__(self, entry):
        self.reads: dict = {}  # name -> the value read
        self.facts: set = set()
        self.entry = entry
        self.entry_read = False
        self.plumbing: set = set()


# the runs being recorded, innermost last
_RECORDING: list = []


def _entry_read(effects: "Effects"):
    """A command substitution reads ``effects.streams``: each run being recorded that has not
    replaced its entry's value since it started has read it."""
    streams = effects.streams
    for recording in _RECORDING:
        if streams is recording.entry:
            recording.entry_read = True


class _ShellRun:
    """What one ``bash -c SCRIPT`` run did: its status and syntax error, and the state it left
    (the tree's entries, the files' loss, meter charges, stderr, the descriptors last expanded),
    with what it read: ``reads`` ((name, value) of each start variable read), ``facts`` ((field, value) of each fact of the run consulted),
    ``entry`` the key of the caller's descriptors when read (None when not)."""

    __slots__ = ("status", "syntax_message", "opaque", "nodes", "children", "bytes_written", "lost",
                 "steps", "bytes", "stderr", "stderr_unknown", "streams", "version", "evaluation",
                 "reads", "plumbing", "facts", "entry")


def _stream_key(targets) -> Optional[tuple]:
    """The descriptors a run starts with, as a key; None when one holds state the key would miss
    (a pipe, bytes on stdin)."""
    out = []
    for target in targets:
        if type(target) is Stream and target.data == b"":
            out.append("empty")  # taking from an empty stream changes nothing a reader sees
        elif type(target) is _Special or type(target) is FileSink:
            out.append(target)
        else:
            return None
    return tuple(out)


def _streams_out(after, entry, table) -> Optional[tuple]:
    """``effects.streams`` after a run, said in terms a replay can rebuild: the caller's own
    descriptors by position, the run's own ones by their contents."""
    if after is entry:
        return ("entry",)
    out, seen = [], {}
    for n, target in enumerate(after):
        if id(target) in seen:
            out.append(("same", seen[id(target)]))
            continue
        seen[id(target)] = n
        place = next((("table", i) for i, t in enumerate(table) if t is target), None) or \
            next((("entry", i) for i, t in enumerate(entry) if t is target), None)
        if place is not None:
            out.append(place)
        elif type(target) is Stream:
            out.append(("stream", target.data, target.why, target.taken, target.regular))
        elif type(target) is Buffer:
            out.append(("buffer", bytes(target.data), target.unknown))
        elif type(target) is _Special or type(target) is FileSink:
            out.append(("value", target))
        else:
            return None
    return tuple(out)


def _streams_back(saved: tuple, entry, table) -> tuple:
    if saved == ("entry",):
        return entry
    out = []
    for how, *what in saved:
        if how == "same":
            out.append(out[what[0]])
        elif how == "table":
            out.append(table[what[0]])
        elif how == "entry":
            out.append(entry[what[0]])
        elif how == "stream":
            out.append(Stream(what[0], what[1], what[2], regular=what[3]))
        elif how == "buffer":
            out.append(Buffer(bytearray(what[0]), what[1]))
        else:
            out.append(what[0])
    return tuple(out)


def _bash_script(files, path: str, by_bash: bool = False) -> Optional[str]:
    """The text of the tree's file at ``path`` where running it by its path starts bash on it
    (``/bin/bash PATH``, read as _script_file reads it): executable, its first line
    ``#!/bin/bash``; or, where bash itself runs it (``by_bash``), no ``#!`` line at all: the
    kernel refuses such a file and bash runs it in a child it resets to a new shell (exported
    variables only, options and functions gone: measured), as ``bash PATH`` would (execvp in
    a program runs it with /bin/sh instead). None for anything else."""
    text = _script_file(files, path)
    if text is None or not files.tree.mode(path) & 0o100:
        return None
    if text.startswith("#!/bin/bash\n") or by_bash and not text.startswith("#!"):
        return text
    return None


def _runs_writers(command, text: str) -> bool:
    """Whether a pipeline's command (source ``text``) may start programs that write its output
    (xargs, find -exec…), whose deaths by SIGPIPE it reports; a name that is not one literal
    word counts too."""
    if type(command) is not S.SimpleCommand or not command.words:
        return False
    parts = command.words[0].parts
    if len(parts) != 1 or type(parts[0]) not in (S.Lit, S.SingleQuoted):
        return True
    name = parts[0].text
    return name == "xargs" or name == "find" and ("-exec" in text or "-ok" in text)


def _script_file(files, path: str) -> Optional[str]:
    """The text of the tree's file at ``path`` that ``bash PATH`` reads as its script; None when
    it is not a readable file of the tree, or holds a NUL byte (bash may refuse it as binary)."""
    data = files.read(path)
    if data is None or b"\0" in data:
        return None
    return data.decode("utf-8", "surrogateescape")


def _script_changed(files, path: str, text: str) -> bool:
    """Whether the script file at ``path``, read as ``text`` when its bash started, holds other
    bytes now: bash reads a script file as it goes, so what the run wrote into it (`>> "$0"`)
    may be read and run too (measured), or cut what is left of it. One removed is read on
    from what bash holds open."""
    return files.tree.lexists(path) and files.read(path) != text.encode("utf-8", "surrogateescape")


class ShellRuns:
    """A bounded cache of new-bash runs (``bash -c SCRIPT``, and a prediction's own harness
    shell) over the virtual tree, keyed by what a run reads, so the same delivered script on
    the same files is walked once whatever layer it runs at.

    Why: the same reply under several transports very often reaches its innermost shell as
    the same script in the same state, but one layer deeper: bash raises SHLVL and sets
    ``_`` at every layer. The key (``key``) holds what every run depends on: the script,
    $0 and the arguments, the shell's flags, the names of its variables (and which are
    exported, which unknown), the working directory, the tree (its version token: a tree
    with the token of another holds the same entries) and its budget, the meter's limits
    and nesting, and the descriptors the run starts with. Beside it each kept run holds
    the values it read: the start variables it read (watched, ``_StartVariable``; a
    utility reads only what it asks of its ``Environ``, a bash started inside only what
    its own run read), the facts of the run it consulted (hostfacts.start_watching: the time,
    the stand-in's folder…), and the caller's descriptors when a command substitution read
    them before any command replaced them. A run is reused when those are equal.

    A run is kept only when it ended normally, within its budget, with nothing on stderr
    unknown before it, without reading ``$$`` (the harness bash's own, which the same script
    one layer deeper does not share), and without meeting the interpreter's recursion limit
    (which depends on the caller's stack). A replay puts back the entries, the loss, the
    meter's charges (only where they fit the budget still left), stderr and the descriptors,
    and tells the
    caller's watchers what the run read; ``tests/predict/test_shell_runs.py`` checks replays
    against fresh runs.
    """

    def __init__(self, size: int = 4096):
        self.size = size
        self.enabled = True
        self.hits = self.misses = 0
        self._runs: OrderedDict = OrderedDict()

    def clear(self):
        self._runs.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return sum(len(runs) for runs in self._runs.values())

    def key(self, text, environ: dict, hidden, arg0, args, env, effects, table) -> Optional[tuple]:
        """The key of running ``text`` in the new shell ``env`` (just started from ``environ``,
        its variables not yet watched), or None when it cannot have one."""
        files, meter = env.files, env.meter
        if not self.enabled or _JOB_WATCHES or type(files) is not TreeFiles or files.lost is not None or \
                meter.exceeded is not None or type(files.tree) is not BoundedTree:
            return None
        words = (text, arg0, *args)
        if any(type(w) is not str for w in words) or any(type(v) is not str for v in environ.values()):
            return None  # text with unknown spans equals its plain spelling as a str
        start = _stream_key(table)
        if start is None or any(type(t) is FileSink and t.opened is not None and not t.opened.append
                                for t in (*table, *effects.streams)):
            return None  # (a replay would not move the offset of a descriptor the run wrote through)
        tree = files.tree
        store = tree._store
        budget = store.budget
        names = _start_names(env.vars) if hidden else _START_NAMES.get(id(env))
        if names is None or names[0] is not env:
            names = _start_names(env.vars)
        else:
            names = names[1]
        return (words, env.flags, names, tuple(hidden), env.cwd, env.cwd_known, files.root, tree._bound, tree._temp,
                tree.cwd, store.version, budget.bytes_written, budget.max_bytes, budget.max_entries,
                meter.budget, meter.nesting, start)

    def replay(self, key, env, effects, table) -> Optional[_ShellRun]:
        """The run kept under ``key`` whose reads ``env``'s start gives alike, its changes made
        again on ``env``'s files, meter and ``effects``; None when there is none (or its
        charges would not fit the budget left). Call before ``_watch``."""
        if key is None:
            return None
        runs = self._runs.get(key)
        run = None
        if runs:
            vars_ = env.vars
            for candidate in runs:
                if all((_ABSENT if vars_.get(name) is None else _peek(vars_[name])) == value
                       for name, value in candidate.reads) and \
                        (not candidate.facts or consulted_values(dict(candidate.facts)) == candidate.facts) and \
                        (candidate.entry is None or _stream_key(effects.streams) == candidate.entry):
                    run = candidate
                    break
        meter = env.meter
        if run is None or meter.steps + run.steps > meter.budget.steps or \
                meter.bytes + run.bytes > meter.budget.bytes:
            self.misses += 1
            return None
        self._runs.move_to_end(key)
        self.hits += 1
        files = env.files
        store = files.tree._store
        store.nodes.clear()
        store.nodes.update(run.nodes)
        store.children.clear()
        store.children.update(run.children)
        store.version = run.version
        store.budget.bytes_written = run.bytes_written
        files.lost = run.lost
        meter.steps += run.steps
        meter.bytes += run.bytes
        effects.stderr.extend(run.stderr)
        effects.stderr_unknown = effects.stderr_unknown or run.stderr_unknown
        if run.entry is not None:
            _entry_read(effects)
        effects.streams = _streams_back(run.streams, effects.streams, table)
        reconsult(name for name, _ in run.facts)
        return run

    def record(self, key, env, effects, table, evaluate) -> tuple:
        """Run ``evaluate()`` (the new shell's evaluation; ``env`` not yet watched), keep what it
        did under ``key``; ``(the _ShellRun, the names of the start variables it read)``."""
        meter = env.meter
        steps, size, said, entry = meter.steps, meter.bytes, len(effects.stderr), effects.streams
        unknown_before = effects.stderr_unknown
        recording = _Recording(entry)
        started = len(_JOBS)
        held = _watch(env, recording.reads, recording.plumbing)
        _RECORDING.append(recording)
        start_watching(recording.facts)
        try:
            evaluation = evaluate()
        finally:
            stop_watching(recording.facts)
            _RECORDING.remove(recording)
            _unwatch(held)
        run = _ShellRun()
        run.evaluation = evaluation
        run.status = evaluation.status
        run.syntax_message = None if evaluation.syntax_error is None else evaluation.syntax_error.message
        run.opaque = bool(evaluation.opaque)
        run.reads = tuple(sorted(recording.reads.items()))
        run.plumbing = frozenset(recording.plumbing)
        run.facts = consulted_values(recording.facts)
        run.entry = None
        if key is None or meter.exceeded is not None or unknown_before is not None or len(_JOBS) != started or \
                "pid" in recording.facts:
            # (a job it started is checked against what runs after the run; $$ is the harness
            # bash's own, which the same script run one layer deeper does not share)
            return run
        if recording.entry_read:
            run.entry = _stream_key(entry)
            if run.entry is None:
                return run  # it read descriptors the key cannot say
        run.streams = _streams_out(effects.streams, entry, table)
        files = env.files
        store = files.tree._store
        run.lost, run.stderr_unknown, run.stderr = files.lost, effects.stderr_unknown, effects.stderr[said:]
        texts = [*evaluation.opaque, run.lost or "", run.stderr_unknown or "", run.syntax_message or "",
                 run.status.name if isinstance(run.status, Opaque) else ""]
        if run.streams is None or any("deep" in t for t in texts) or \
                any(type(line) is not str or "deep" in line for line in run.stderr):
            return run  # how deep the interpreter's stack was may have decided it
        run.nodes = dict(store.nodes)
        run.children = dict(store.children)  # frozensets, replaced on change (vfs)
        run.version = store.version
        run.bytes_written = store.budget.bytes_written
        run.steps, run.bytes = meter.steps - steps, meter.bytes - size
        runs = self._runs.get(key)
        if runs is None:
            runs = self._runs[key] = []
        runs.insert(0, run)
        self._runs.move_to_end(key)
        while len(self._runs) > self.size:
            self._runs.popitem(last=False)
        return run


def _start_names(vars_: dict) -> tuple:
    """The names of a start's variables as a key: the exported ones in order (a utility's
    environment lists them so), the others as a set (bash puts the ones it inherits first, so
    a layer deeper they come in another order)."""
    return (tuple(name for name, var in vars_.items() if var.exported),
            tuple(sorted(name for name, var in vars_.items() if not var.exported)))


def _tell_caller(run: _ShellRun, caller: Optional[Env]):
    """The caller's variables a new shell's run read through its environment: a bash started
    with a variable inherits it under the same name (SHLVL is raised from the caller's)."""
    if caller is None:
        return
    vars_ = caller.vars
    for name, _ in run.reads:
        var = vars_.get(name)
        if var is None:
            continue
        if name in run.plumbing:
            _plumbing_value(var)
        else:
            var.value  # noqa: B018 - reading it tells the caller's watcher


#: $_ in a shell another program started: the path that program found bash at, not known here
_STARTED_BY_PATH = Variable(Opaque("$_ (the path of the program that started bash)"), False)


def run_shell(text, environ, hidden, arg0, args, env, effects, table, evaluate, caller=None) -> _ShellRun:
    """Run a new shell's evaluation (``evaluate()`` over ``env``, just started from ``environ``)
    through SHELL_RUNS: replayed when a kept run read the same, else run, watched and kept."""
    key = SHELL_RUNS.key(text, environ, hidden, arg0, args, env, effects, table)
    run = SHELL_RUNS.replay(key, env, effects, table)
    if run is None:
        run = SHELL_RUNS.record(key, env, effects, table, evaluate)
    _tell_caller(run, caller)
    return run


#: the runs of this process; ``clear()`` forgets them (the bench does, between rounds)
SHELL_RUNS = ShellRuns()

_FD0_OUT = re.compile(r"(?<![0-9])0>")

#: the background jobs (jobs.Job) of the harness run under way (run_effects). _IN_JOB: how
#: many jobs are being run now
_JOBS: list = []
_IN_JOB = 0
#: how many jobs the walker does not follow are being walked now (a reader of bash's script
#: input among them races bash for it: ScriptInput.take)
_BESIDE = 0


@dataclass
class EffectRun:
    """The result of running a script over a tree: the evaluation, the files (``files.lost``
    says why they are unknown), what reached stderr, and why the run as a whole is unknown."""

    evaluation: Optional[E.Evaluation]
    files: TreeFiles
    effects: Effects
    unknown: Optional[str] = None
    #: the variables of its start the run read, also through the shells and utilities it started
    reads: frozenset = frozenset()
    #: those of ``reads`` read only for the harness's plumbing (``_plumbing_value``)
    plumbing: frozenset = frozenset()

    @property
    def status(self):
        return self.evaluation.status if self.evaluation else Opaque(self.unknown or "status")


def _harness_pid():
    """$$ of the harness's bash: the run's stated process id, a fact read (hostfacts)."""
    text = shell_pid()
    return Opaque("$$") if text is None else text


# how bash gets its script: its flags ($-) and the start of its syntax messages after $0
_SOURCES = {"-c": ("hBc", ": -c: "), "file": ("hB", ": "), "stdin": ("hBs", ": ")}
# the source of a child shell by its label in shell_program and utility_bash (None: a file)
_SOURCE_OF = {"-c": "-c", "stdin": "stdin", None: "file"}


def run_effects(script: str, tree: VirtualTree, cwd: str, environ: dict, *, args=(),
                budget: Optional[Budget] = None, source: str = "-c") -> EffectRun:
    """Run ``script`` as ``bash -c SCRIPT ARG0 ARGS...`` in ``cwd`` over ``tree`` (changed in place).

    ``source`` says where bash reads the script: ``-c`` (an argument), ``file``
    (``bash FILE ARGS...``: ``args[0]`` is the file's path, stdin /dev/null) or
    ``stdin`` (``bash -s``: a command that reads stdin would take the rest of the
    script, and leaves the run unknown).
    """
    flags, where = _SOURCES[source]
    files = TreeFiles(BoundedTree.within(tree, normpath(cwd), temp_names()), normpath(cwd))
    meter = Meter(budget)
    env = new_shell_env(environ, cwd, files, meter, args[0] if args else "bash", args[1:])
    env.flags = flags
    env.pid = _harness_pid  # (a bash started inside has a $$ of its own: not known)
    effects = env.effects = Effects()
    doubt = _parse_doubt(script, source)
    if doubt:
        return EffectRun(None, files, effects, doubt)
    env.substitute = _substitution_hook(effects)
    script_input = None
    if source == "stdin":
        script_input = stdin_script(script)
        env.streams = (script_input, SHELL_OUT, SHELL_ERR)
    started = env.streams if script_input is not None else (Stream(b""), SHELL_OUT, SHELL_ERR)
    global _JOBS
    outer, _JOBS = _JOBS, []
    try:
        # the harness's own bash: a kept run of the same script that read the same is reused
        run = run_shell(script, environ, (), env.arg0, args[1:], env, effects, started,
                        lambda: E.evaluate(parse(script), env, walker=EffectWalker))
        evaluation = run.evaluation
    except VfsBudgetExceeded as exc:
        return EffectRun(None, files, effects, f"budget: {exc}")
    except OutsideTree as exc:
        return EffectRun(None, files, effects, str(exc))
    except RecursionError:
        return EffectRun(None, files, effects, "the script nests deeper than the model follows")
    finally:
        started_jobs, _JOBS = _JOBS, outer
        for job in started_jobs:
            job.end()
    for job in started_jobs:
        path = job.clash()
        if path is not None:
            files.lose(f"the files after the background job `{job.text}` (it and what runs after it both use {path})")
    if meter.exceeded is not None:
        return EffectRun(evaluation, files, effects, meter.exceeded)
    if script_input is not None and script_input.partial:
        return EffectRun(evaluation, files, effects, "a command may read bash's stdin, which holds the "
                         "rest of the script (the stdin transport)")
    if evaluation.syntax_error is not None and evaluation.syntax_error.message:
        effects.stderr.append(f"{env.arg0}{where}{evaluation.syntax_error.message}")
    return EffectRun(evaluation, files, effects, reads=frozenset(name for name, _ in run.reads),
                     plumbing=run.plumbing)


#: the variables whose assignment makes bash set its own locale (and warn where the host has
#: none such: `bash: line 1: warning: setlocale: LC_ALL: cannot change locale (x): …`), and the
#: locales every host has; measured: LANG=x says nothing, `LC_ALL=x ls` neither (ls gets it),
#: LC_CTYPE=x nothing while LC_ALL holds a locale
_LOCALE_VARIABLES = frozenset({"LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC", "LC_TIME"})
_EVERY_HOSTS_LOCALES = frozenset({"", "C", "POSIX", "C.UTF-8", "C.utf8"})
_DECLARING = frozenset({"export", "declare", "typeset", "local", "readonly"})


def _locale_set(argv, assignments, env) -> Optional[str]:
    """``NAME=value`` when the command makes bash set its locale to one not every host has: an
    assignment alone or before a builtin or function, or a declaring builtin's argument."""
    name = argv[0] if argv else None
    if not assignments and name not in _DECLARING:
        return None  # (every simple command comes here)
    found = []
    if name is None or name in BUILTINS or name in env.functions or name not in COMMANDS:
        found += [(var, value) for var, value, *_ in assignments]
    if name in _DECLARING:
        found += [tuple(word.split("=", 1)) for word in argv[1:] if isinstance(word, str) and "=" in word]
    for var, value in found:
        if var not in _LOCALE_VARIABLES or value in _EVERY_HOSTS_LOCALES:
            continue
        if var != "LC_ALL" and all(v != "LC_ALL" for v, _ in found):
            held = env.vars.get("LC_ALL")
            held = None if held is None else held.value
            if isinstance(held, str) and held:
                continue  # LC_ALL rules the locale: bash does not set this category
        return f"{var}={value}" if isinstance(value, str) else var
    return None


def _read_on(run: _ShellRun, script_input: ScriptInput, outer: ScriptInput, data: bytes) -> bool:
    """After a bash that read its script (``data``) from the stdin its caller reads its own
    from: take what it read from the caller's input; False when that is not known. A bash
    that reads to the end takes it all; one that exits leaves what follows the line it exited
    on (its script's input ``left``), which the caller reads on with. A syntax error is not
    followed (where bash stops reading then is not modelled)."""
    if run.syntax_message is not None or run.opaque:
        return False
    left = b"" if not run.evaluation.exited else script_input.left()
    if left is None:
        return False
    if not left.strip(b" \t\n"):
        outer.taken = True
    else:
        outer.pos += len(data) - len(left)
    return True


def _named_descriptors(records) -> set:
    """The descriptors a list of redirections sets (``{name}>…`` counts as -1, bash's pick)."""
    named = set()
    for record in records:
        if record.fd is not None:
            named.add(int(record.fd) if record.fd.isdigit() else -1)
        elif record.op in ("&>", "&>>"):
            named.update((1, 2))
        else:
            named.add(0 if record.op[:1] == "<" else 1)
    return named


class _CapturingWalker(EffectWalker):
    """The walker of a command substitution's body: what its commands print is the value."""

    captured = True


class _DashWalker(EffectWalker):
    """The walker of a dash script (``sh -c`` that a utility started) that dashsubset let
    through: a builtin whose arguments dash reads otherwise (echo with a backslash, printf
    beyond ``%s``, test's bash-only operators, shift past the arguments…) is unknown, and a
    message of the shell's own loses the files (dash words it otherwise, and its status may
    differ: 2 for a failed redirection where bash says 1)."""

    def run(self, name, argv, node, stdout_away, own_stdout=False) -> Outcome:
        why = self.dash_refusal(name, argv)
        if why is not None:
            self.env.files.lose(f"the files after `{self.text(node)}` under dash ({why})")
            return Outcome(Opaque(f"status of {name} under dash"), Opaque(f"output of {name} under dash"),
                           modelled=False)
        return EffectWalker.run(self, name, argv, node, stdout_away, own_stdout)

    def record(self, *, argv, node, modelled, status, output, error=None, **rest):
        if error:
            self.env.files.lose(f"the files after `{self.text(node)}` under dash (a message of the shell's "
                                "own, which dash words otherwise)")
        EffectWalker.record(self, argv=argv, node=node, modelled=modelled, status=status, output=output,
                            error=error, **rest)

    def dash_refusal(self, name, argv) -> Optional[str]:
        """Why dash may run ``argv`` otherwise than bash's model, or None."""
        if type(name) is not str or name in _DASH_REFUSED:
            return f"the command {name}"
        words = argv[1:]
        if any(type(w) is not str for w in words):
            return None  # (an unknown word is unknown to either shell)
        if name == "echo":
            if any("\\" in w for w in words) or words and words[0][:1] == "-" and \
                    (words[0] != "-n" or len(words) > 1 and words[1][:1] == "-"):
                return "echo with a backslash or an option but -n (dash's echo reads them otherwise)"
        elif name == "printf":
            if not words or words[0][:1] == "-" or _DASH_PRINTF.fullmatch(words[0]) is None:
                return "printf with a format beyond %s, \\n and \\t"
        elif name in ("test", "["):
            if any(w in _DASH_TEST_REFUSED or _OPTION_WORD.fullmatch(w) and w not in _DASH_TEST_OPERATORS
                   for w in words):
                return f"{name} with an operator dash reads otherwise"
        elif name == "set":
            if not words or words[0] not in ("--", "-e", "-u", "+e", "+u", "-eu", "-ue"):
                return "set beyond -e, -u and --"
        elif name == "shift":
            if words and not (len(words) == 1 and words[0].isdigit()) or \
                    (int(words[0]) if words else 1) > len(self.env.positional):
                return "shift past the arguments (dash fails with a message, bash quietly)"
        elif name == "exit":
            if words and not (len(words) == 1 and words[0].isdigit() and int(words[0]) < 256):
                return "exit with a status past 255 or no number"
        elif name in ("cd", "export", "unset"):
            if words and words[0][:1] == "-":
                return f"{name} with an option"
        return None


class _DashCapturingWalker(_DashWalker):
    """A command substitution's body in a dash script."""

    captured = True


#: the formats dash's printf prints as bash's does: text, %s, %%, \n, \t and \\
_DASH_PRINTF = re.compile(r"(?:[^%\\]|%[s%]|\\[nt\\])*")
_OPTION_WORD = re.compile(r"-[A-Za-z]+")
_DASH_TEST_OPERATORS = frozenset({"-e", "-f", "-d", "-s", "-r", "-w", "-x", "-n", "-z", "-L", "-h",
                                  "-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_DASH_TEST_REFUSED = frozenset({"==", "<", ">", "(", ")", "-a", "-o"})


def _substitution_hook(effects: Effects, walker=None):
    """The command-substitution hook of one run: the body runs with descriptors, over the same
    tree, and reads the stdin of the command whose words hold it (walked by ``walker``,
    _CapturingWalker by default)."""
    walker = walker or _CapturingWalker

    def substitute(script, env):
        _entry_read(effects)
        saved = effects.streams
        stdin, errsink = saved or (Stream(None, "the stdin of a command substitution", regular=None), UNKNOWN)
        env.effects = effects
        env.streams = (stdin, SHELL_OUT, errsink)
        try:
            found = E.substitute(script, env, walker=walker)
        finally:
            # the body's commands set streams of their own: the next substitution in the same
            # command reads the command's stdin again (`$(echo hi | true) $(cat)`: not the pipe)
            effects.streams = saved
        if script.error is not None and script.error.message:
            # bash reports a body that does not parse, and goes on
            message = f"{env.sourcing or env.arg0}: command substitution: {script.error.message}"
            if errsink is SHELL_ERR:
                effects.stderr.append(message)
            elif errsink is not NULL:
                env.files.lose(f"the files after a message written to {errsink}")
        return found

    return substitute
