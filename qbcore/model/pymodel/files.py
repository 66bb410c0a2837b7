"""The process around the program: file objects, standard streams, paths over the virtual tree.

Everything that touches the tree goes through ``Process``, which turns the
tree's ``VfsError`` into the ``OSError`` python3 raises (same errno, same
filename spelling) and the tree's budget into ``NotModelled``.
"""

import errno as errno_codes
import os
import posixpath

from qbcore.model.utilities.context import STDIN_NAMES
from qbcore.model.utilities.vfs import UnknownContent, VfsBudgetExceeded, VfsError

from .signals import NotModelled, PyRaise, written_in_c

_ENCODINGS = {"utf-8": "utf-8", "utf8": "utf-8", "ascii": "ascii", "us-ascii": "ascii",
              "latin-1": "latin-1", "latin1": "latin-1", "iso-8859-1": "latin-1", "utf-16": "utf-16"}
_ENCODING_NAMES = {"utf-8": "UTF-8", "ascii": "ascii", "latin-1": "latin-1", "utf-16": "utf-16"}


def os_error(name, filename, filename2=None):
    """The OSError subclass python3 raises for errno ``name`` (e.g. FileNotFoundError)."""
    code = getattr(errno_codes, name, None)
    if code is None:
        raise NotModelled(f"the error {name}")
    if filename2 is not None:
        return OSError(code, os.strerror(code), filename, None, filename2)
    return OSError(code, os.strerror(code), filename)


class ProgramEnviron(dict):
    """os.environ as the program holds it: its names and values taken without reading them
    (Environ.quiet), each value's read told to the shell's watchers only when the program
    reads it (``os.environ["N"]`` reads N; listing the items, printing or comparing the
    mapping reads them all). Every way to a value is overridden, so that none of CPython's
    fast paths over a plain dict's storage (``dict(x)``, ``{**x}``, ``x | y``, ``repr``)
    reaches one unread: an overridden ``__iter__`` sends them through ``keys`` and
    ``__getitem__``."""

    __slots__ = ("_source", "_told")
    model_name = "_Environ"  # as python3 names os.environ's class in its messages

    def __init__(self, source):
        quiet = getattr(source, "quiet", None)
        super().__init__(quiet() if quiet is not None else source)
        self._source = source
        self._told = quiet is None

    def _tell(self, name):
        if not self._told and name in self._source:
            self._source[name]  # noqa: B018 - reading it tells the shell's watchers
        self._known(name)

    def _tell_all(self):
        if not self._told:
            self._told = True
            for name in self._source:
                self._source[name]  # noqa: B018
        for name in dict.keys(self):
            self._known(name)

    def _known(self, name):
        """A value the model does not know ($_, the program's own path to bash) is not read as text."""
        if name in self and type(dict.__getitem__(self, name)) is not str:
            raise NotModelled(f"os.environ[{name!r}], a value the model does not know")

    def __iter__(self):
        return iter(list(dict.keys(self)))

    def _one(name):
        """dict's method ``name`` whose first argument names the one value it reads."""
        method = getattr(dict, name)

        def read_one(self, key, *args):
            self._tell(key)
            return method(self, key, *args)
        read_one.__name__ = name
        return read_one

    def _all(name):
        """dict's method ``name``, which reads every value."""
        method = getattr(dict, name)

        def read_all(self, *args, **kwargs):
            self._tell_all()
            return method(self, *args, **kwargs)
        read_all.__name__ = name
        return read_all

    __getitem__ = _one("__getitem__")
    get = _one("get")
    pop = _one("pop")
    setdefault = _one("setdefault")
    items = _all("items")
    values = _all("values")
    popitem = _all("popitem")
    copy = _all("copy")
    __repr__ = _all("__repr__")
    __str__ = _all("__repr__")
    __eq__ = _all("__eq__")
    __ne__ = _all("__ne__")
    __or__ = _all("__or__")
    __ror__ = _all("__ror__")
    __ior__ = _all("__ior__")
    __reduce_ex__ = _all("__reduce_ex__")
    del _one, _all

    __hash__ = None


class Process:
    """Cwd, environment, streams and the tree of one python3 run."""

    @property
    def env(self) -> dict:
        """The program's own copy of its environment (os.environ), each value read from the
        shell's variables when the program reads it (ProgramEnviron; see ``quiet_environ``)."""
        if self._env is None:
            self._env = ProgramEnviron(self._environ)
        return self._env

    def quiet_environ(self):
        """Take the environment without reading any value as the program's own: for a program
        whose text never reaches its environment (command.reaches_environment)."""
        if self._env is None:
            quiet = getattr(self._environ, "quiet", None)
            self._env = quiet() if quiet is not None else dict(self._environ)

    def __init__(self, tree, cwd, env, stdin, limits, unbuffered=False):
        self._tree = tree
        self.cwd = cwd
        self._environ = env
        self._env = None
        # bytes, or a function that takes them once the program first reads its stdin (a
        # program that never does leaves a stream, or the rest of bash's script, to the next reader)
        self._stdin = stdin
        self.stdin_pos = 0
        # what fd 0 is: a pipe (False), a regular file read from its start (True), or not known
        # (None): open("/dev/stdin") takes the pipe's bytes, or opens the file anew
        self.stdin_regular = None
        self.stdin_reopened = False  # a pipe's bytes were taken through /dev/stdin
        self.limits = limits
        self.unbuffered = unbuffered
        self.stdout_layers: set = set()  # text (False) and .buffer (True), as written to
        self.out = bytearray()        # what reached fd 1
        self.pending = bytearray()    # python's own stdout buffer, not yet flushed
        self.err = bytearray()
        self.open_files = []
        self.holds = None             # the interpreter's reachability test (Interpreter.holds)
        self.listing = None           # the ListingOrder of this run

    @property
    def tree(self):
        """The tree as any reader would see it now (see settle_files)."""
        if self.open_files:
            self.settle_files()
        return self._tree

    def in_listing_order(self, names: list) -> list:
        """A directory's entries (or a glob's matches) in the order this run takes for the file
        system's (see command.ListingOrder)."""
        if len(names) > 1 and self.listing is not None:
            return self.listing.apply(names)
        return names

    def settle_files(self):
        """Files with written bytes still in CPython's buffer, before the tree is used: one the
        program can no longer reach was freed, so closed and its buffer written; one it still
        holds keeps its bytes from every reader until it is flushed or closed, which the
        model does not follow."""
        for f in list(self.open_files):
            if f.pending:
                if self.holds is None or self.holds(f):
                    raise NotModelled("the file tree used while a file the program holds open has buffered "
                                      "(unwritten) output")
                f.close()

    def charge(self, n):
        """Refuse a write that would take the tree past its byte budget."""
        budget = self._tree.budget
        pending = sum(len(f.pending) for f in self.open_files)
        if budget.bytes_written + pending + n > budget.max_bytes:
            raise NotModelled(f"the file tree's budget (bytes written over {budget.max_bytes})")

    # -- paths ---------------------------------------------------------------

    def fspath(self, p, what="path"):
        if isinstance(p, str):
            if "\0" in p:
                raise PyRaise(ValueError("embedded null byte"))
            return p
        fs = getattr(p, "model_fspath", None)
        if fs is not None:
            return fs()
        if isinstance(p, bytes):
            raise NotModelled("byte-string paths")
        raise PyRaise(TypeError(
            f"{what} should be string, bytes, os.PathLike or integer, not {type(p).__name__}"
            if what != "path" else f"expected str, bytes or os.PathLike object, not {type(p).__name__}"))

    def abs(self, p):
        """Absolute spelling of ``p`` for the tree (the tree normalises it)."""
        if not p:
            raise PyRaise(os_error("ENOENT", p))
        return p if p.startswith("/") else self.cwd.rstrip("/") + "/" + p

    def call(self, fn, *args, filename=None, filename2=None):
        """Run a tree operation; its errors become python3's."""
        try:
            return fn(*args)
        except VfsError as err:
            raise PyRaise(os_error(err.errno_name, filename if filename is not None else err.path,
                                   filename2)) from None
        except VfsBudgetExceeded as err:
            raise NotModelled(f"the file tree's budget ({err.what} over {err.limit})") from None
        except UnknownContent as err:
            raise NotModelled(err.why) from None

    # -- standard streams ------------------------------------------------------

    def encode_stream(self, text: str, which: str) -> bytes:
        """Text that strict UTF-8 refuses (lone surrogates), as python3 writes it to its
        standard streams: stderr with backslashreplace; stdout with surrogateescape in the C
        or C.UTF-8 locale (measured); under another, not known."""
        if which == "stderr":
            return text.encode("utf-8", "backslashreplace")
        if _c_locale(self._environ) is None:
            raise NotModelled("text with lone surrogates on stdout, under a locale the model does not know")
        try:
            return text.encode("utf-8", "surrogateescape")
        except UnicodeError as exc:
            raise PyRaise(exc) from None

    def write_out(self, data):
        self.pending += data
        if self.unbuffered or len(self.pending) >= 8192:
            self.flush_out()
        self.check_output()

    def flush_out(self):
        self.out += self.pending
        self.pending.clear()

    def write_err(self, data):
        self.err += data
        self.check_output()

    def check_output(self):
        if len(self.out) + len(self.pending) + len(self.err) > self.limits.output:
            raise NotModelled(f"more than {self.limits.output} bytes of output")

    @property
    def stdin(self) -> bytes:
        if callable(self._stdin):
            self._stdin = self._stdin()
        return self._stdin

    @stdin.setter
    def stdin(self, value):
        self._stdin = value

    def read_stdin(self, n=-1):
        self._stdin_left()
        data = self.stdin[self.stdin_pos:] if n < 0 else self.stdin[self.stdin_pos:self.stdin_pos + n]
        self.stdin_pos += len(data)
        return data

    def readline_stdin(self):
        self._stdin_left()
        rest = self.stdin[self.stdin_pos:]
        end = rest.find(b"\n")
        line = rest if end < 0 else rest[:end + 1]
        self.stdin_pos += len(line)
        return line

    def _stdin_left(self):
        if self.stdin_reopened:
            # /dev/stdin's reader took what it buffered of the pipe (8 KiB at a time), not all
            raise NotModelled("sys.stdin read after /dev/stdin took from the same pipe")

    def close_all(self):
        for f in list(self.open_files):
            f.close()



def _c_locale(env):
    """True where python3 runs in the C, POSIX or C.UTF-8 locale (LC_ALL, else LC_CTYPE, else
    LANG); None where another locale, a value not known, PYTHONIOENCODING or PYTHONUTF8 decides."""
    values = [env.get(name) for name in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LC_CTYPE", "LANG")]
    if any(value is not None and type(value) is not str for value in values) or values[0] or values[1]:
        return None
    for value in values[2:]:
        if value:
            # C.UTF-8 too (measured); another locale may or may not exist on the machine
            return True if value in ("C", "POSIX", "C.UTF-8", "C.utf8") else None
    return True


def encoding_of(name):
    if name is None:
        return "utf-8"
    if not isinstance(name, str):
        raise PyRaise(TypeError(f"open() argument 'encoding' must be str or None, not {type(name).__name__}"))
    key = name.lower().replace("_", "-")
    if key not in _ENCODINGS:
        raise NotModelled(f"the encoding {name!r}")
    return _ENCODINGS[key]


def decode_text(data, encoding, errors, newline):
    text = data.decode(encoding, errors or "strict")
    if newline is None:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


@written_in_c
class TextIOWrapper:
    """A file opened by ``open()`` (text or binary), reading and writing through the tree.

    Writes wait in ``pending``, as in CPython's buffer, until flush(), close(), the
    end of the program, or the file's last reference going away (Process.settle_files).
    """

    model_name = "TextIOWrapper"

    def __init__(self, proc, path, shown, mode, encoding, errors, newline):
        self._proc = proc
        self._path = path           # absolute path in the tree
        self.name = shown           # as the program spelled it
        self.mode = mode
        self._binary = "b" in mode
        self._encoding = encoding
        self._errors = errors
        self._newline = newline
        self.closed = False
        self._readable = "r" in mode
        self._writable = any(c in mode for c in "wax")
        # the file this handle writes, as it was after its last write (None: appending, which
        # always lands at the end): a rename, a removal or another writer leaves it elsewhere
        self._written = _entry(proc, path) if self._writable and "a" not in mode else None
        self._data = None
        self._pos = 0
        self.pending = bytearray()   # written, not yet in the tree (batched, as CPython buffers)

    @property
    def model_name_(self):
        if not self._binary:
            return "TextIOWrapper"
        return "BufferedReader" if self._readable else "BufferedWriter"

    # attribute access from the program
    def model_attr(self, name):
        if name in ("write", "writelines", "read", "readline", "readlines", "close", "flush",
                    "readable", "writable", "seekable", "seek", "tell", "fileno", "isatty"):
            return getattr(self, name)
        if name in ("name", "mode", "closed"):
            return getattr(self, name)
        if name == "encoding" and not self._binary:
            return _ENCODING_NAMES.get(self._encoding, self._encoding)
        raise NotModelled(f"the file attribute {name}")

    def model_enter(self):
        self._check_open()
        return self

    def model_exit(self):
        self.close()

    def model_iter(self):
        self._check_open()
        if not self._readable:
            self._unsupported("not readable")
        return _text_line_iter(self)

    def __repr__(self):
        if self._binary:
            return f"<_io.{self.model_name_} name={self.name!r}>"
        return f"<_io.TextIOWrapper name={self.name!r} mode={self.mode!r} encoding={_ENCODING_NAMES.get(self._encoding, self._encoding)!r}>"

    def _check_open(self):
        if self.closed:
            raise PyRaise(ValueError("I/O operation on closed file."))

    def _unsupported(self, what):
        import io
        raise PyRaise(io.UnsupportedOperation(what))

    def write(self, data):
        self._check_open()
        if not self._writable:
            self._unsupported("not writable")
        if self._binary:
            if isinstance(data, str):
                raise PyRaise(TypeError("a bytes-like object is required, not 'str'"))
            if not isinstance(data, (bytes, bytearray)):
                raise PyRaise(TypeError(f"a bytes-like object is required, not '{type(data).__name__}'"))
            raw = bytes(data)
            count = len(raw)
        else:
            if not isinstance(data, str):
                raise PyRaise(TypeError(f"write() argument must be str, not {type(data).__name__}"))
            text = data
            if self._newline not in (None, "", "\n"):
                text = text.replace("\n", self._newline)
            try:
                raw = text.encode(self._encoding, self._errors or "strict")
            except UnicodeError as exc:
                raise PyRaise(exc) from None
            count = len(data)
        self._proc.charge(len(raw))
        self.pending += raw
        return count

    def flush_pending(self):
        if self.pending:
            if self._written is not None and _entry(self._proc, self._path) is not self._written:
                # the handle writes the file it opened, at its own offset, wherever that file now is
                raise NotModelled(f"a write to {self.name} after it was renamed, removed or written "
                                  "through another handle")
            data, self.pending = bytes(self.pending), bytearray()
            self._proc.call(self._proc._tree.write_bytes, self._path, data, True, filename=self.name)
            if self._written is not None:
                self._written = _entry(self._proc, self._path)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def _content(self):
        if self._data is None:
            self._data = self._decoded(self._proc.call(self._proc.tree.read_bytes, self._path, filename=self.name))
        return self._data

    def _decoded(self, raw: bytes):
        """The file's bytes as the program reads them: as they are, or text as opened."""
        if self._binary:
            return raw
        try:
            return decode_text(raw, self._encoding, self._errors, self._newline)
        except UnicodeError as exc:
            raise PyRaise(exc) from None

    def read(self, size=-1):
        self._check_open()
        if not self._readable:
            self._unsupported("not readable")
        data = self._content()
        if size is None or size < 0:
            out = data[self._pos:]
        else:
            out = data[self._pos:self._pos + size]
        self._pos += len(out)
        return out

    def readline(self, size=-1):
        self._check_open()
        if not self._readable:
            self._unsupported("not readable")
        data = self._content()
        sep = b"\n" if self._binary else "\n"
        end = data.find(sep, self._pos)
        end = len(data) if end < 0 else end + 1
        line = data[self._pos:end]
        self._pos = end
        return line

    def readlines(self, hint=-1):
        lines = []
        while True:
            line = self.readline()
            if not line:
                return lines
            lines.append(line)

    def seek(self, offset, whence=0):
        self._check_open()
        if self._readable and not self._writable and whence == 0 and offset == 0:
            self._pos = 0
            self._data = None
            return 0
        raise NotModelled("seek on a file other than rewinding a read-only one")

    def tell(self):
        raise NotModelled("tell() on a file")

    def fileno(self):
        raise NotModelled("file descriptors")

    def isatty(self):
        return False

    def readable(self):
        self._check_open()
        return self._readable

    def writable(self):
        self._check_open()
        return self._writable

    def seekable(self):
        self._check_open()
        return True

    def flush(self):
        self._check_open()
        self.flush_pending()

    def close(self):
        if not self.closed:
            self.flush_pending()
            self.closed = True
            if self in self._proc.open_files:
                self._proc.open_files.remove(self)


def _entry(proc, path):
    """The tree's entry at ``path`` (None when there is none): each write makes a new one.
    (Through ``_tree``: ``.tree`` refuses while a handle holds output.)"""
    return proc._tree._try(path)


def _text_line_iter(f):
    while True:
        line = f.readline()
        if not line:
            return
        yield line


def open_file(proc, file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None):
    """python3's built-in ``open`` over the tree."""
    if isinstance(file, int) and not isinstance(file, bool):
        raise NotModelled("open() of a file descriptor")
    shown = file if isinstance(file, str) else None
    path = proc.fspath(file)
    if shown is None:
        shown = path
    if not isinstance(mode, str):
        raise PyRaise(TypeError(f"open() argument 'mode' must be str, not {type(mode).__name__}"))
    kinds = [c for c in mode if c in "rwxa"]
    if len(kinds) != 1 or len(set(mode)) != len(mode) or any(c not in "rwxabt+U" for c in mode) \
            or ("b" in mode and "t" in mode):
        raise PyRaise(ValueError(f"invalid mode: '{mode}'"))
    if "+" in mode:
        raise NotModelled(f"open() in mode {mode!r}")
    binary = "b" in mode
    if binary and encoding is not None:
        raise PyRaise(ValueError("binary mode doesn't take an encoding argument"))
    if binary and newline is not None:
        raise PyRaise(ValueError("binary mode doesn't take a newline argument"))
    if newline not in (None, "", "\n", "\r", "\r\n"):
        raise PyRaise(ValueError(f"illegal newline value: {newline}"))
    if newline == "\r" or newline == "\r\n" and "r" in mode:
        raise NotModelled(f"open() with newline={newline!r}")
    enc = None if binary else encoding_of(encoding)
    target = proc.abs(path) if path else path
    tree = proc.tree
    kind = kinds[0]
    if not path:
        raise PyRaise(os_error("ENOENT", shown))
    if path in STDIN_NAMES:
        if kind != "r" or proc.stdin_regular is None:
            raise NotModelled(f"open() of {path} in mode {mode!r}, or on a stdin whose kind is not known")
        f = StdinReopened(proc, path, shown, mode, enc, errors, newline)
        proc.open_files.append(f)
        return f
    if kind == "r":
        if proc.call(tree.is_dir, target):
            raise PyRaise(os_error("EISDIR", shown))
        if not proc.call(tree.exists, target):
            if path.endswith("/") or _parent_is_file(proc, target):
                raise PyRaise(os_error("ENOTDIR", shown))
            raise PyRaise(os_error("ENOENT", shown))
        proc.call(tree.read_bytes, target, filename=shown)
    else:
        if kind == "x" and (proc.call(tree.exists, target) or proc.call(tree.is_symlink, target)):
            raise PyRaise(os_error("EEXIST", shown))  # O_EXCL is checked before the type
        if proc.call(tree.is_dir, target):
            raise PyRaise(os_error("EISDIR", shown))
        if path.endswith("/"):
            raise PyRaise(os_error("EISDIR", shown))
        if kind == "a":
            proc.call(tree.write_bytes, target, b"", True, filename=shown)
        else:
            proc.call(tree.write_bytes, target, b"", False, filename=shown)
    f = TextIOWrapper(proc, target, shown, mode, enc, errors, newline)
    proc.open_files.append(f)
    return f


class StdinReopened(TextIOWrapper):
    """``open("/dev/stdin")``: a pipe's bytes from where the program's stdin stands, all taken
    at the first read (sys.stdin read before or after is not followed: each buffers), or a
    regular file anew from its start, whatever sys.stdin reads."""

    def _content(self):
        if self._data is None:
            proc = self._proc
            raw = proc.stdin
            if not proc.stdin_regular:
                if proc.stdin_pos:
                    raise NotModelled("/dev/stdin read after sys.stdin took from the same pipe")
                proc.stdin_pos, proc.stdin_reopened = len(raw), True
            self._data = self._decoded(raw)
        return self._data

    def seek(self, offset, whence=0):
        raise NotModelled("seek on /dev/stdin")


def _parent_is_file(proc, target):
    """Whether the path to ``target`` (missing) goes through a file: the first folder on the
    way up that exists is one (every folder above it exists), so the walk stops there."""
    parent = posixpath.dirname(target.rstrip("/"))
    while parent and parent != "/":
        if proc.tree.exists(parent):
            return proc.tree.is_file(parent)
        parent = posixpath.dirname(parent)
    return False
