"""The modules a program may import, modelled over the virtual process.

Pure helpers (``os.path.join``, ``json.dumps`` on plain values, ``re`` with
patterns that cannot backtrack without bound) reuse the standard library;
everything that touches files or processes goes through ``Process``.
"""

import base64 as real_base64
import fnmatch
import json
import posixpath
import re
import shlex
import subprocess as real_subprocess
import sys
import types
from pathlib import PurePosixPath

from ..utilities.vfs import VfsError
from .files import open_file, os_error
from .csvmodule import make_csv
from .interp import nested
from .signals import NotModelled, ProgramExit, PyRaise, written_in_c


class Module:
    """A module as the program sees it: a fixed table of attributes."""

    model_name = "module"

    def __init__(self, name, attrs, real=None, shown=None):
        self.name = name
        self.shown = shown or name   # the name python3's messages use (os.path is posixpath)
        self.attrs = attrs
        self.real = real   # the real module, only to offer python3's "Did you mean" hints

    def model_attr(self, attr):
        if attr in self.attrs:
            return self.attrs[attr]
        if self.real is not None and not hasattr(self.real, attr):
            from .suggest import closest
            exc = AttributeError(f"module '{self.shown}' has no attribute '{attr}'", name=attr)
            exc.model_hint = closest(attr, dir(self.real))
            raise PyRaise(exc)
        raise NotModelled(f"{self.name}.{attr}")

    def __repr__(self):
        raise NotModelled(f"the text of module {self.name}")

    __str__ = __repr__


@written_in_c
class Stream:
    """sys.stdout / sys.stderr / sys.stdin (text), with ``.buffer`` for bytes."""

    model_name = "TextIOWrapper"

    def __init__(self, proc, which, binary=False):
        self.proc = proc
        self.which = which
        self.binary = binary

    def model_attr(self, name):
        if name == "buffer" and not self.binary:
            return Stream(self.proc, self.which, binary=True)
        if self.which == "stdin":
            if name in ("read", "readline", "readlines"):
                return getattr(self, "in_" + name)
        elif name in ("write", "flush", "writelines"):
            return getattr(self, name)
        if name == "encoding" and not self.binary:
            return "utf-8"
        if name == "isatty":
            return lambda: False
        raise NotModelled(f"sys.{self.which}.{name}")

    def model_iter(self):
        return iter(self.in_readlines())

    def model_enter(self):
        return self

    def model_exit(self):
        raise NotModelled(f"closing sys.{self.which}")

    def __repr__(self):
        raise NotModelled(f"the text of sys.{self.which}")

    def write(self, data):
        if self.binary:
            if not isinstance(data, (bytes, bytearray)):
                raise PyRaise(TypeError(f"a bytes-like object is required, not '{type(data).__name__}'"))
            raw = bytes(data)
        else:
            if not isinstance(data, str):
                raise PyRaise(TypeError(f"write() argument must be str, not {type(data).__name__}"))
            try:
                raw = data.encode("utf-8")
            except UnicodeError:
                raw = self.proc.encode_stream(data, self.which)
        if self.which == "stdout":
            if not self.proc.unbuffered:
                # the text layer holds its bytes back until it flushes, while .buffer writes go
                # on to the buffered writer: written through both, stdout's order is not followed
                layers = self.proc.stdout_layers
                layers.add(self.binary)
                if len(layers) > 1:
                    raise NotModelled("sys.stdout written both as text and through sys.stdout.buffer")
            self.proc.write_out(raw)
        else:
            self.proc.write_err(raw)
        return len(data)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        if self.which == "stdout":
            self.proc.flush_out()

    def _decode(self, raw):
        if self.binary:
            return raw
        try:
            return raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeError as exc:
            raise PyRaise(exc) from None

    def in_read(self, n=-1):
        if n is not None and n >= 0 and not self.binary:
            raise NotModelled("sys.stdin.read(n)")
        return self._decode(self.proc.read_stdin(-1 if n is None else n))

    def in_readline(self, size=-1):
        return self._decode(self.proc.readline_stdin())

    def in_readlines(self, hint=-1):
        lines = []
        while True:
            line = self.in_readline()
            if not line:
                return lines
            lines.append(line)


class PosixPath:
    """pathlib.Path over the tree: pure parts from PurePosixPath, I/O through the process."""

    model_name = "PosixPath"
    _PURE = {"name", "stem", "suffix", "suffixes", "parts", "anchor", "root", "drive"}
    _PURE_PATHS = {"parent", "with_suffix", "with_name", "with_stem", "joinpath", "relative_to"}

    def __init__(self, proc, pure):
        self._proc = proc
        self._pure = pure

    def model_fspath(self):
        return str(self._pure)

    def __str__(self):
        return str(self._pure)

    def __repr__(self):
        return f"PosixPath({str(self._pure)!r})"

    def __format__(self, spec):
        return format(str(self._pure), spec)

    def __fspath__(self):
        return str(self._pure)

    def __eq__(self, other):
        return isinstance(other, PosixPath) and self._pure == other._pure

    def __hash__(self):
        return hash(self._pure)

    def __lt__(self, other):
        if not isinstance(other, PosixPath):
            return NotImplemented
        return self._pure < other._pure

    def __le__(self, other):
        return self == other or self < other

    def __gt__(self, other):
        if not isinstance(other, PosixPath):
            return NotImplemented
        return self._pure > other._pure

    def __ge__(self, other):
        return self == other or self > other

    def __truediv__(self, other):
        return self._wrap(self._pure / self._part(other))

    def __rtruediv__(self, other):
        return self._wrap(self._part(other) / self._pure)

    def _part(self, other):
        if isinstance(other, PosixPath):
            return other._pure
        if isinstance(other, str):
            return other
        raise PyRaise(TypeError(f"unsupported operand type(s) for /: 'PosixPath' and '{type(other).__name__}'"))

    def _wrap(self, pure):
        return PosixPath(self._proc, pure)

    def _abs(self):
        return self._proc.abs(str(self._pure))

    def model_attr(self, name):
        if name in self._PURE:
            return getattr(self._pure, name)
        if name == "parents":
            return tuple(self._wrap(p) for p in self._pure.parents)
        if name in self._PURE_PATHS:
            method = getattr(self._pure, name)

            def pure_call(*args, **kwargs):
                args = [a._pure if isinstance(a, PosixPath) else a for a in args]
                result = method(*args, **kwargs) if callable(method) else method
                return self._wrap(result)
            return self._wrap(method) if name == "parent" else pure_call
        if name in ("is_absolute", "as_posix", "match"):
            return getattr(self._pure, name)
        handler = getattr(self, "m_" + name, None)
        if handler is None:
            raise NotModelled(f"Path.{name}")
        return handler

    def m_exists(self):
        return self._proc.tree.exists(self._abs())

    def m_is_file(self):
        return self._proc.tree.is_file(self._abs())

    def m_is_dir(self):
        return self._proc.tree.is_dir(self._abs())

    def m_is_symlink(self):
        return self._proc.tree.is_symlink(self._abs())

    def m_open(self, mode="r", buffering=-1, encoding=None, errors=None, newline=None):
        return open_file(self._proc, str(self._pure), mode, buffering, encoding, errors, newline)

    def m_read_text(self, encoding=None, errors=None):
        f = self.m_open("r", encoding=encoding, errors=errors)
        try:
            return f.read()
        finally:
            f.close()

    def m_read_bytes(self):
        f = self.m_open("rb")
        try:
            return f.read()
        finally:
            f.close()

    def m_write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise PyRaise(TypeError(f"data must be str, not {type(data).__name__}"))
        f = self.m_open("w", encoding=encoding, errors=errors, newline=newline)
        try:
            return f.write(data)
        finally:
            f.close()

    def m_write_bytes(self, data):
        if not isinstance(data, (bytes, bytearray)):
            raise PyRaise(TypeError(f"memoryview: a bytes-like object is required, not '{type(data).__name__}'"))
        f = self.m_open("wb")
        try:
            return f.write(data)
        finally:
            f.close()

    def m_rename(self, target):
        target_str = self._proc.fspath(target)
        os_rename(self._proc, str(self._pure), target_str)
        return PosixPath(self._proc, PurePosixPath(target_str))

    m_replace = m_rename

    def m_unlink(self, missing_ok=False):
        try:
            os_remove(self._proc, str(self._pure))
        except PyRaise as raised:
            if not (missing_ok and isinstance(raised.exc, FileNotFoundError)):
                raise

    def m_mkdir(self, mode=0o777, parents=False, exist_ok=False):
        proc = self._proc
        shown = str(self._pure)
        target = self._abs()
        if proc.tree.exists(target) or proc.tree.is_symlink(target):
            if exist_ok and proc.tree.is_dir(target):
                return None
            raise PyRaise(os_error("EEXIST", shown))
        proc.call(proc.tree.mkdir, target, parents, False, filename=shown)

    def m_rmdir(self):
        proc = self._proc
        proc.call(proc.tree.rmdir, self._abs(), filename=str(self._pure))

    def m_touch(self, mode=0o666, exist_ok=True):
        proc = self._proc
        target = self._abs()
        if proc.tree.exists(target):
            if not exist_ok:
                raise PyRaise(os_error("EEXIST", str(self._pure)))
            return None
        proc.call(proc.tree.write_bytes, target, b"", True, filename=str(self._pure))

    def m_iterdir(self):
        names = os_listdir(self._proc, str(self._pure))
        return iter([self._wrap(self._pure / n) for n in names])

    def m_glob(self, pattern):
        if isinstance(pattern, str) and any("**" in part and part != "**" for part in pattern.split("/")):
            # python 3.11's ValueError ("'**' can only be an entire path component"), raised in
            # pathlib's own frames, which its traceback shows
            raise NotModelled(f"Path.glob({pattern!r}), which python 3.11 refuses")
        return iter([self._wrap(PurePosixPath(p)) for p in
                     glob_paths(self._proc, pattern, str(self._pure), recursive=True, hidden=True)])

    def m_rglob(self, pattern):
        return self.m_glob("**/" + pattern)

    def m_resolve(self, strict=False):
        return self._wrap(PurePosixPath(posixpath.normpath(self._abs())))

    def m_absolute(self):
        return self._wrap(PurePosixPath(self._abs()))

    def m_stat(self):
        raise NotModelled("Path.stat")

    def m_samefile(self, other):
        raise NotModelled("Path.samefile")


def os_rename(proc, src, dst):
    src, dst = proc.fspath(src), proc.fspath(dst)
    if not src or not dst:
        raise PyRaise(os_error("ENOENT", src, dst))
    proc.call(proc.tree.rename_on_one_device, proc.abs(src), proc.abs(dst), filename=src, filename2=dst)


def os_remove(proc, path):
    path = proc.fspath(path)
    proc.call(proc.tree.remove, proc.abs(path), filename=path)


def os_listdir(proc, path="."):
    path = proc.fspath(path)
    return proc.in_listing_order(list(proc.call(proc.tree.listdir, proc.abs(path), filename=path)))


def _has_magic(s):
    return any(c in s for c in "*?[")


def glob_paths(proc, pattern, base=None, recursive=False, hidden=False):
    """Paths matching ``pattern``, spelled as python3 spells them, in the run's listing order.

    ``base`` set: pathlib's glob (results under base, ``**`` always recursive,
    yielding directories only when last). The real order is the directory's
    order on disk, which no static model knows (see command.ListingOrder).
    """
    tree = proc.tree
    if pattern.startswith("/"):
        if base is not None:
            raise PyRaise(NotImplementedError("Non-relative patterns are unsupported"))
        parts, start = pattern.split("/")[1:], "/"
    else:
        parts, start = pattern.split("/"), ("" if base is None else base)
    if base is not None:
        parts = [p for p in parts if p not in ("", ".")]
        if not parts:
            raise PyRaise(ValueError(f"Unacceptable pattern: {pattern!r}"))
        if not tree.is_dir(proc.abs(start or ".")):
            return []  # (pathlib selects from a folder only: `Path("gone").glob("**")` finds nothing)
    elif pattern == "":
        return []

    def real(spelled):
        return proc.abs(spelled or ".")

    def join(a, b):
        if a == "":
            return b
        return a + b if a.endswith("/") else a + "/" + b

    def children(spelled):
        try:
            return tree.listdir(real(spelled))
        except VfsError:
            return []

    def visible(name, pat="*"):
        return hidden or not name.startswith(".") or pat.startswith(".")

    def is_real_dir(spelled):
        return tree.is_dir(real(spelled)) and not tree.is_symlink(real(spelled))

    def walk_dirs(spelled):
        proc_tick(proc)
        yield spelled
        for name in children(spelled):
            candidate = join(spelled, name)
            if visible(name) and is_real_dir(candidate):
                yield from walk_dirs(candidate)

    def walk_all(spelled):
        for name in children(spelled):
            proc_tick(proc)
            if not visible(name):
                continue
            candidate = join(spelled, name)
            yield candidate
            if is_real_dir(candidate):
                yield from walk_all(candidate)

    def descend(spelled, i):
        proc_tick(proc)
        if i == len(parts):
            yield spelled
            return
        part, last = parts[i], i == len(parts) - 1
        if part == "**" and (recursive or base is not None):
            if last and base is None:
                if spelled:
                    yield join(spelled, "")
                yield from walk_all(spelled)
            elif last:
                yield from walk_dirs(spelled)
            else:
                for d in walk_dirs(spelled):
                    yield from descend(d, i + 1)
            return
        if not _has_magic(part):
            if part == "":
                if last:
                    if tree.is_dir(real(spelled)):
                        yield join(spelled, "")
                else:
                    yield from descend(join(spelled, ""), i + 1)
                return
            candidate = join(spelled, part)
            if last:
                if tree.exists(real(candidate)) or tree.is_symlink(real(candidate)):
                    yield candidate
            elif tree.is_dir(real(candidate)):
                yield from descend(candidate, i + 1)
            return
        if spelled and not tree.is_dir(real(spelled)):
            return
        for name in children(spelled):
            if visible(name, part) and fnmatch.fnmatchcase(name, part):
                candidate = join(spelled, name)
                if last:
                    yield candidate
                elif tree.is_dir(real(candidate)):
                    yield from descend(candidate, i + 1)

    results, seen = [], set()
    for p in descend(start, 0):
        if p == "" or p in seen:
            continue
        seen.add(p)
        results.append(p)
        if len(results) > proc.limits.items:
            raise NotModelled("a glob matching more entries than the model follows")
    return proc.in_listing_order(sorted(results))


def proc_tick(proc):
    tick = getattr(proc, "tick", None)
    if tick is not None:
        tick()


# -- regular expressions -------------------------------------------------------

def _regex_guard(pattern, flags=0):
    """Refuse patterns whose matching time the model cannot bound."""
    if isinstance(pattern, re.Pattern):
        return
    if not isinstance(pattern, (str, bytes)):
        return
    try:
        from re import _parser as sre_parse
        parsed = sre_parse.parse(pattern, flags)
    except Exception:
        return  # the real re.compile reports the error
    from re import _constants as c

    def walk(items, inside_repeat):
        for op, arg in items:
            if op in (c.GROUPREF, c.GROUPREF_EXISTS):
                raise NotModelled("a regular expression with back-references")
            if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
                lo, hi, sub = arg
                if inside_repeat and hi > 1:
                    raise NotModelled("a regular expression with nested repetition")
                walk(sub, inside_repeat or hi > 1)
            elif op == c.SUBPATTERN:
                walk(arg[-1], inside_repeat)
            elif op == c.BRANCH:
                if inside_repeat:
                    raise NotModelled("a regular expression with alternatives under repetition")
                for alt in arg[1]:
                    walk(alt, inside_repeat)
            elif op in (c.ASSERT, c.ASSERT_NOT):
                walk(arg[1], inside_repeat)
            elif op == c.ATOMIC_GROUP:
                walk(arg, inside_repeat)

    walk(parsed, False)


def _re_function(name, interp):
    real = getattr(re, name)

    def call(pattern, *args, **kwargs):
        flags = kwargs.get("flags", 0)
        _regex_guard(pattern, flags if isinstance(flags, int) else 0)
        return interp.real(real, pattern, *args, **kwargs)
    return call


# -- json ----------------------------------------------------------------------

def _json_kwargs(kwargs):
    if kwargs.get("cls") is not None:
        raise NotModelled("json with a custom encoder class")
    return kwargs


def make_modules(proc, interp, run_command):
    """The importable modules, bound to this process."""
    tree = _LiveTree(proc)

    def fs(p):
        return proc.fspath(p)

    # os.path ---------------------------------------------------------------
    def exists(p):
        try:
            return tree.exists(proc.abs(fs(p)))
        except PyRaise:
            return False

    def isfile(p):
        try:
            return tree.is_file(proc.abs(fs(p)))
        except PyRaise:
            return False

    def isdir(p):
        try:
            return tree.is_dir(proc.abs(fs(p)))
        except PyRaise:
            return False

    def islink(p):
        try:
            return tree.is_symlink(proc.abs(fs(p)))
        except PyRaise:
            return False

    def getsize(p):
        p = fs(p)
        return len(proc.call(tree.read_bytes, proc.abs(p), filename=p)) if not tree.is_dir(proc.abs(p)) else 4096

    def abspath(p):
        p = fs(p)
        return posixpath.normpath(posixpath.join(proc.cwd, p))

    def relpath(p, start=None):
        p = fs(p)
        return posixpath.relpath(abspath(p), abspath(start if start is not None else "."))

    def expanduser(p):
        p = fs(p)
        if not p.startswith("~"):
            return p
        if "HOME" not in proc.env:
            raise NotModelled("~ without HOME")
        if p == "~" or p.startswith("~/"):
            return (proc.env["HOME"].rstrip("/") or "/") + p[1:] if p != "~" else proc.env["HOME"]
        raise NotModelled("~user in a path")

    def pure(fn):
        def call(*args, **kwargs):
            args = [a.model_fspath() if isinstance(a, PosixPath) else a for a in args]
            return interp.real(fn, *args, **kwargs)
        return call

    ospath_attrs = {
        "exists": exists, "isfile": isfile, "isdir": isdir, "islink": islink, "lexists": exists,
        "getsize": getsize, "abspath": abspath, "relpath": relpath, "expanduser": expanduser,
        "realpath": abspath, "sep": "/",
    }
    for name in ("join", "basename", "dirname", "split", "splitext", "normpath", "isabs",
                 "commonprefix", "commonpath", "normcase"):
        ospath_attrs[name] = pure(getattr(posixpath, name))
    ospath = Module("os.path", ospath_attrs, posixpath, shown="posixpath")

    # os --------------------------------------------------------------------
    def makedirs(name, mode=0o777, exist_ok=False):
        # CPython's os.makedirs: it looks no higher than the first folder that exists
        p = fs(name)
        head, tail = posixpath.split(p)
        if not tail:
            head, tail = posixpath.split(head)
        if head and tail and not tree.exists(proc.abs(head)):
            try:
                makedirs(head, exist_ok=exist_ok)
            except PyRaise as raised:
                if not isinstance(raised.exc, FileExistsError):
                    raise
            if tail == ".":
                return None
        try:
            proc.call(tree.mkdir, proc.abs(p), False, False, filename=p)
        except PyRaise as raised:
            if not exist_ok or not isinstance(raised.exc, OSError) or not tree.is_dir(proc.abs(p)):
                raise
        return None

    def mkdir(path, mode=0o777):
        p = fs(path)
        proc.call(tree.mkdir, proc.abs(p), False, False, filename=p)

    def rmdir(path):
        p = fs(path)
        proc.call(tree.rmdir, proc.abs(p), filename=p)

    def getcwd():
        return proc.cwd

    def chdir(path):
        p = fs(path)
        target = proc.abs(p)
        if not tree.exists(target):
            raise PyRaise(os_error("ENOENT", p))
        if not tree.is_dir(target):
            raise PyRaise(os_error("ENOTDIR", p))
        proc.cwd = posixpath.normpath(target)

    def walk(top, topdown=True, onerror=None, followlinks=False):
        if not topdown:
            raise NotModelled("os.walk(topdown=False)")
        top = fs(top)

        def gen(dirpath):
            proc_tick(proc)
            try:
                names = proc.in_listing_order(tree.listdir(proc.abs(dirpath)))
            except VfsError:
                return
            dirs, files = [], []
            for n in names:
                full = proc.abs(posixpath.join(dirpath, n))
                (dirs if tree.is_dir(full) else files).append(n)
            yield dirpath, dirs, files
            for d in dirs:
                if not tree.is_symlink(proc.abs(posixpath.join(dirpath, d))):
                    yield from gen(posixpath.join(dirpath, d))
        return gen(top)

    def getenv(key, default=None):
        return proc.env.get(key, default)

    def chmod(path, mode):
        p = fs(path)
        proc.call(tree.chmod, proc.abs(p), mode, filename=p)

    def system(command):
        result = run_process(proc, interp, run_command, ["/bin/sh", "-c", command], capture=False)
        return result[0] << 8 if result[0] >= 0 else 0

    os_attrs = {
        "path": ospath, "makedirs": makedirs, "walk": walk, "environ": proc.env, "getenv": getenv, "sep": "/",
        "linesep": "\n", "pathsep": ":", "curdir": ".", "pardir": "..", "extsep": ".", "name": "posix",
        "devnull": "/dev/null",
        # posix's own, in C (makedirs, walk and getenv are os.py's)
        **{name: written_in_c(function) for name, function in {
            "rename": lambda s, d: os_rename(proc, s, d), "replace": lambda s, d: os_rename(proc, s, d),
            "remove": lambda p: os_remove(proc, p), "unlink": lambda p: os_remove(proc, p),
            "listdir": lambda p=".": os_listdir(proc, p), "mkdir": mkdir, "rmdir": rmdir, "getcwd": getcwd,
            "chdir": chdir, "chmod": chmod, "system": system, "fspath": lambda p: fs(p)}.items()},
    }
    import os as real_os
    os_mod = Module("os", os_attrs, real_os)

    # shutil ----------------------------------------------------------------
    def same_file(s, d):
        a, b = posixpath.normpath(proc.abs(s)), posixpath.normpath(proc.abs(d))
        if a == b and tree.exists(a):
            import shutil
            raise PyRaise(shutil.SameFileError(f"{s!r} and {d!r} are the same file"))

    def copyfile(src, dst, follow_symlinks=True):
        s, d = fs(src), fs(dst)
        same_file(s, d)
        # shutil opens the source first: its failure is the one reported
        data = proc.call(tree.read_bytes, proc.abs(s), filename=s)
        if tree.is_dir(proc.abs(d)):
            raise PyRaise(os_error("EISDIR", d))
        proc.call(tree.write_bytes, proc.abs(d), data, False, filename=d)
        return dst

    def copy(src, dst, follow_symlinks=True):
        s, d = fs(src), fs(dst)
        if tree.is_dir(proc.abs(d)):
            d = posixpath.join(d, posixpath.basename(s))
        same_file(s, d)
        if tree.is_dir(proc.abs(s)):
            raise PyRaise(os_error("EISDIR", s))
        # the source is read, then the destination opened: each failure names its own file
        data = proc.call(tree.read_bytes, proc.abs(s), filename=s)
        proc.call(tree.write_bytes, proc.abs(d), data, False, filename=d)
        proc.call(tree.chmod, proc.abs(d), proc.call(tree.mode, proc.abs(s), filename=s), filename=d)
        return d

    def copytree(src, dst, dirs_exist_ok=False, **kwargs):
        if kwargs:
            raise NotModelled("shutil.copytree options")
        s, d = fs(src), fs(dst)
        if tree.exists(proc.abs(d)) and not dirs_exist_ok:
            raise PyRaise(os_error("EEXIST", d))

        def copy_all(a, b):
            proc_tick(proc)
            if not tree.is_dir(b):
                proc.call(tree.mkdir, b, True, True)
            for n in tree.listdir(a):
                fa, fb = a.rstrip("/") + "/" + n, b.rstrip("/") + "/" + n
                if tree.is_dir(fa):
                    copy_all(fa, fb)
                else:
                    proc.call(tree.copy, fa, fb)
        if not tree.is_dir(proc.abs(s)):
            raise PyRaise(os_error("ENOENT" if not tree.exists(proc.abs(s)) else "ENOTDIR", s))
        copy_all(proc.abs(s), proc.abs(d))
        return d

    def rmtree(path, ignore_errors=False, onerror=None):
        p = fs(path)
        target = proc.abs(p)
        try:
            # (python's rmtree starts with lstat: a file on the way is ENOTDIR, not ENOENT)
            missing = tree._resolve(target, follow_last=False)[1] is None
        except VfsError as exc:
            if ignore_errors:
                return None
            raise PyRaise(os_error(exc.errno_name, p)) from None
        if missing:
            if ignore_errors:
                return None
            raise PyRaise(os_error("ENOENT", p))
        if not tree.is_dir(target) or tree.is_symlink(target):
            if ignore_errors:
                return None
            raise PyRaise(os_error("ENOTDIR", p))

        def remove_all(d):
            proc_tick(proc)
            for n in tree.listdir(d):
                full = d.rstrip("/") + "/" + n
                if tree.is_dir(full) and not tree.is_symlink(full):
                    remove_all(full)
                else:
                    proc.call(tree.remove, full)
            proc.call(tree.rmdir, d)
        remove_all(target)

    def move(src, dst, copy_function=None):
        s, d = fs(src), fs(dst)
        real_dst = d
        if tree.is_dir(proc.abs(d)):
            if posixpath.normpath(proc.abs(s)) == posixpath.normpath(proc.abs(d)):
                os_rename(proc, s, d)
                return None  # shutil returns early here, with nothing
            real_dst = posixpath.join(d, posixpath.basename(s.rstrip("/")))
            if tree.exists(proc.abs(real_dst)):
                import shutil
                raise PyRaise(shutil.Error(f"Destination path '{real_dst}' already exists"))
        if not tree.exists(proc.abs(s)) and not tree.is_symlink(proc.abs(s)):
            raise PyRaise(os_error("ENOENT", s))
        try:
            proc.call(tree.rename, proc.abs(s), proc.abs(real_dst), filename=s, filename2=real_dst)
        except PyRaise as failed:
            # shutil falls back to copying, then removing the source
            if not isinstance(failed.exc, OSError) or tree.is_symlink(proc.abs(s)):
                raise
            if tree.is_dir(proc.abs(s)):
                # (shutil asks of the destination given, and names it, not the path it made)
                inner = posixpath.normpath(proc.abs(d)) + "/"
                if inner.startswith(posixpath.normpath(proc.abs(s)) + "/"):
                    import shutil
                    raise PyRaise(shutil.Error(f"Cannot move a directory '{s}' into itself '{d}'."))
                copytree(s, real_dst)
                rmtree(s)
            else:
                copyfile(s, real_dst)
                os_remove(proc, s)
        return real_dst

    import shutil as real_shutil
    shutil_mod = Module("shutil", {
        "copyfile": copyfile, "copy": copy, "copy2": copy, "move": move, "rmtree": rmtree,
        "copytree": copytree, "Error": real_shutil.Error,
    }, real_shutil)

    # glob ------------------------------------------------------------------
    def glob_glob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False):
        if root_dir is not None or dir_fd is not None:
            raise NotModelled("glob with root_dir/dir_fd")
        return glob_paths(proc, fs(pathname), None, recursive, include_hidden)

    import glob as real_glob
    glob_mod = Module("glob", {
        "glob": glob_glob, "iglob": lambda *a, **k: iter(glob_glob(*a, **k)),
        "escape": real_glob.escape,
    }, real_glob)

    # json ------------------------------------------------------------------
    def check_json(obj):
        """json names the type of a value it cannot write: a stand-in of the model (a
        function of the program, an open file ...) would show the model's name for it."""
        interp.check_size(obj)
        for v in nested(obj):
            if isinstance(v, PosixPath):
                continue  # named as python3 names it
            if type(v).__module__ != "builtins" or callable(v) and not isinstance(v, (types.BuiltinFunctionType, type)):
                raise NotModelled(f"json of a {type(v).__name__} (a stand-in of the model)")

    def dumps(obj, **kwargs):
        check_json(obj)
        return interp.real(json.dumps, obj, **_json_kwargs(kwargs))

    def dump(obj, fp, **kwargs):
        writer = getattr(fp, "write", None)
        if writer is None:
            raise NotModelled("json.dump to an object without write")
        check_json(obj)
        return interp.real(json.dump, obj, fp, **_json_kwargs(kwargs))

    def loads(s, **kwargs):
        return interp.real(json.loads, s, **_json_kwargs(kwargs))

    def load(fp, **kwargs):
        reader = getattr(fp, "read", None)
        if reader is None:
            raise NotModelled("json.load from an object without read")
        return loads(reader(), **kwargs)

    json_mod = Module("json", {
        "dumps": dumps, "dump": dump, "loads": loads, "load": load,
        "JSONDecodeError": json.JSONDecodeError,
    }, json)

    # re --------------------------------------------------------------------
    re_attrs = {name: _re_function(name, interp) for name in (
        "sub", "subn", "search", "match", "fullmatch", "findall", "finditer", "split", "compile")}
    re_attrs["escape"] = re.escape
    re_attrs["error"] = re.error
    for flag in ("IGNORECASE", "I", "MULTILINE", "M", "DOTALL", "S", "VERBOSE", "X", "ASCII", "A"):
        re_attrs[flag] = getattr(re, flag)
    re_mod = Module("re", re_attrs, re)

    # subprocess --------------------------------------------------------------
    def sp_run(args, *, stdin=None, input=None, stdout=None, stderr=None, capture_output=False,
               shell=False, cwd=None, timeout=None, check=False, encoding=None, errors=None,
               text=None, env=None, universal_newlines=None):
        argv = _argv(proc, args, shell)
        textual = bool(text or universal_newlines or encoding or errors)
        if capture_output and (stdout is not None or stderr is not None):
            raise PyRaise(ValueError("stdout and stderr arguments may not be used with capture_output."))
        if capture_output:
            stdout = stderr = real_subprocess.PIPE
        if stdin is not None and stdin is not real_subprocess.DEVNULL:
            raise NotModelled("subprocess with a stdin other than input= or DEVNULL")
        data = b""
        if input is not None:
            if textual:
                if not isinstance(input, str):
                    raise PyRaise(TypeError("input must be str when text mode is on"))
                data = input.encode("utf-8")
            else:
                if not isinstance(input, (bytes, bytearray)):
                    raise PyRaise(TypeError(f"memoryview: a bytes-like object is required, not '{type(input).__name__}'"))
                data = bytes(input)
        elif stdin is None:
            data = None  # inherits python's own stdin
        status, out, err = run_process(proc, interp, run_command, argv, stdin_data=data,
                                       cwd=fs(cwd) if cwd is not None else None, env=env,
                                       stdout=stdout, stderr=stderr)

        def shape(b):
            if b is None:
                return None
            if textual:
                try:
                    return b.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
                except UnicodeError as exc:
                    raise PyRaise(exc) from None
            return b
        result = real_subprocess.CompletedProcess(args, status, shape(out), shape(err))
        if check and status:
            raise PyRaise(real_subprocess.CalledProcessError(status, args, shape(out), shape(err)))
        return result

    def sp_call(args, **kwargs):
        return sp_run(args, **kwargs).returncode

    def sp_check_call(args, **kwargs):
        sp_run(args, check=True, **kwargs)
        return 0

    def sp_check_output(args, **kwargs):
        if "stdout" in kwargs:
            raise PyRaise(ValueError("stdout argument not allowed, it will be overridden."))
        return sp_run(args, stdout=real_subprocess.PIPE, check=True, **kwargs).stdout

    sp_mod = Module("subprocess", {
        "run": sp_run, "call": sp_call, "check_call": sp_check_call, "check_output": sp_check_output,
        "PIPE": real_subprocess.PIPE, "DEVNULL": real_subprocess.DEVNULL, "STDOUT": real_subprocess.STDOUT,
        "CalledProcessError": real_subprocess.CalledProcessError,
        "CompletedProcess": real_subprocess.CompletedProcess,
        "SubprocessError": real_subprocess.SubprocessError,
    }, real_subprocess)

    # sys ---------------------------------------------------------------------
    def sys_exit(code=None):
        raise ProgramExit(code)

    sys_mod = Module("sys", {
        "argv": proc.argv, "exit": sys_exit, "stdout": Stream(proc, "stdout"),
        "stderr": Stream(proc, "stderr"), "stdin": Stream(proc, "stdin"), "platform": "linux",
        "maxsize": sys.maxsize, "byteorder": "little",
    }, sys)

    # pathlib -----------------------------------------------------------------
    def path_factory(*parts):
        pieces = []
        for p in parts:
            if isinstance(p, PosixPath):
                pieces.append(p._pure)
            else:
                pieces.append(fs(p) if not isinstance(p, str) else p)
        return PosixPath(proc, PurePosixPath(*pieces))

    path_factory.model_name = "type"

    class PathClass:
        """``pathlib.Path``: callable, with the class methods cwd() and home()."""

        model_name = "type"

        def __call__(self, *parts):
            return path_factory(*parts)

        def model_attr(self, name):
            if name == "cwd":
                return lambda: PosixPath(proc, PurePosixPath(proc.cwd))
            if name == "home":
                def home():
                    if "HOME" not in proc.env:
                        raise NotModelled("Path.home() without HOME")
                    return PosixPath(proc, PurePosixPath(proc.env["HOME"]))
                return home
            raise NotModelled(f"Path.{name}")

        def model_isinstance(self, value):
            return isinstance(value, PosixPath)

        def __repr__(self):
            return "<class 'pathlib.Path'>"

    path_class = PathClass()
    import pathlib as real_pathlib
    pathlib_mod = Module("pathlib", {"Path": path_class, "PosixPath": path_class,
                                     "PurePath": None, "PurePosixPath": None}, real_pathlib)
    del pathlib_mod.attrs["PurePath"], pathlib_mod.attrs["PurePosixPath"]

    shlex_mod = Module("shlex", {"quote": shlex.quote, "split": lambda s, comments=False, posix=True:
                                 interp.real(shlex.split, s, comments, posix), "join": shlex.join}, shlex)

    import string as real_string
    import textwrap as real_textwrap

    def pure_text(fn):
        def call(*args, **kwargs):
            return interp.real(fn, *args, **kwargs)
        return call

    textwrap_mod = Module("textwrap", {name: pure_text(getattr(real_textwrap, name)) for name in (
        "dedent", "indent", "fill", "wrap", "shorten")}, real_textwrap)
    textwrap_mod.attrs["indent"] = lambda text, prefix, predicate=None: interp.real(
        real_textwrap.indent, text, prefix, predicate)
    string_mod = Module("string", {name: getattr(real_string, name) for name in (
        "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits",
        "punctuation", "whitespace", "printable")}, real_string)
    string_mod.attrs["capwords"] = pure_text(real_string.capwords)

    base64_mod = make_base64(interp)

    return {
        "base64": base64_mod, "textwrap": textwrap_mod, "string": string_mod, "csv": make_csv(interp, Module),
        "os": os_mod, "os.path": ospath, "shutil": shutil_mod, "glob": glob_mod, "json": json_mod,
        "re": re_mod, "subprocess": sp_mod, "sys": sys_mod, "pathlib": pathlib_mod, "shlex": shlex_mod,
    }


#: base64's functions a program may call: pure, over the bytes or ASCII text it gives them
_BASE64_FUNCTIONS = ("b64encode", "b64decode", "standard_b64encode", "standard_b64decode", "urlsafe_b64encode",
                     "urlsafe_b64decode", "encodebytes", "decodebytes", "b32encode", "b32decode", "b16encode",
                     "b16decode")


def make_base64(interp):
    """The base64 module, as replies use it to carry bytes past quoting
    (``open(f, "wb").write(base64.b64decode("…"))``). An error it raises is unknown: it
    rises inside base64.py, whose frames python3's traceback shows."""

    def wrapped(fn):
        def call(*args, **kwargs):
            try:
                found = fn(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - any error comes from base64.py's own frames
                raise NotModelled(f"base64.{fn.__name__} raising {type(exc).__name__} (its traceback shows "
                                  "base64.py's frames)") from None
            interp.check_text(len(found))
            return found
        return call

    return Module("base64", {name: wrapped(getattr(real_base64, name)) for name in _BASE64_FUNCTIONS}, real_base64)


class _LiveTree:
    """The process's tree, looked up at each use so that open files are flushed into it first."""

    def __init__(self, proc):
        self._proc = proc

    def __getattr__(self, name):
        return getattr(self._proc.tree, name)


def _argv(proc, args, shell):
    if isinstance(args, (str, bytes)) or isinstance(args, PosixPath):
        if isinstance(args, bytes):
            raise NotModelled("a bytes command line")
        args = [proc.fspath(args)]
        if shell:
            return ["/bin/sh", "-c", args[0]]
        return args
    if shell:
        raise NotModelled("shell=True with an argument list")
    if not isinstance(args, (list, tuple)):
        raise NotModelled(f"a subprocess argument of type {type(args).__name__}")
    out = []
    for a in args:
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            raise PyRaise(TypeError(f"expected str, bytes or os.PathLike object, not {type(a).__name__}"))
        out.append(proc.fspath(a))
    if not out:
        raise PyRaise(IndexError("list index out of range"))
    return out


def run_process(proc, interp, run_command, argv, stdin_data=None, cwd=None, env=None,
                stdout=None, stderr=None, capture=True):
    """Run ``argv`` through the command registry hook; (status, captured out, captured err)."""
    if run_command is None:
        raise NotModelled("subprocess " + shlex.join(argv))
    from qbcore.model.utilities.context import CommandContext
    if stdin_data is None:
        stdin_data = proc.read_stdin(-1)
    where = proc.cwd if cwd is None else posixpath.normpath(proc.abs(cwd))
    if cwd is not None and not proc.tree.is_dir(where):
        raise PyRaise(os_error("ENOENT" if not proc.tree.exists(where) else "ENOTDIR", cwd))
    environment = dict(proc.env) if env is None else {str(k): str(v) for k, v in env.items()}
    result = run_command(CommandContext(list(argv), stdin_data, where, environment, proc.tree))
    if result.unknown is not None:
        raise NotModelled(result.unknown)
    if result.status == 127:
        raise NotModelled(f"whether {argv[0]} can be executed")
    captured_out = captured_err = None
    if stdout is real_subprocess.PIPE:
        captured_out = result.stdout
    elif stdout is None:
        proc.out += result.stdout
    if stderr is real_subprocess.PIPE:
        captured_err = result.stderr
    elif stderr is real_subprocess.STDOUT:
        if captured_out is not None:
            captured_out += result.stderr
        else:
            proc.out += result.stderr
    elif stderr is None:
        proc.write_err(result.stderr)
    proc.check_output()
    return result.status, captured_out, captured_err
