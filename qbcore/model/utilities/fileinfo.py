"""GNU coreutils 9.1 stat with a format (-c, --format, --printf): what a reply asks of a file
to check it (``[ "$(stat -c %a out.txt)" = 644 ]``).

The directives followed are the ones the virtual tree knows: the mode (%a %A %f), the
kind (%F), the name (%n %N), the size of a file or symlink (%s) and a link count (%h).
Owners, times, inodes, devices and blocks differ from machine to machine and are unknown,
as is a directory's size (tmpfs and ext4 differ). Without a format, stat prints such
fields, so its text is unknown and only its status is followed.
"""

from __future__ import annotations

from .common import Output, guarded, mode_letters, quote, scan_options
from .context import CommandContext, CommandResult, unknown
from .vfs import VfsError

__all__ = ["stat"]

_LONGS = {"format": ("c", True), "printf": ("p", True), "dereference": ("L", False)}
_KINDS = {"dir": 0o040000, "file": 0o100000, "symlink": 0o120000}
_ESCAPES = {"\\": b"\\", '"': b'"', "a": b"\a", "b": b"\b", "e": b"\x1b", "f": b"\f", "n": b"\n",
            "r": b"\r", "t": b"\t", "v": b"\v"}
#: the directives that print a number: a width pads them with zeros under the 0 flag, which
#: the others drop (stat.c make_format)
_NUMERIC = frozenset("ashf")


class _NotFollowed(Exception):
    """A part of the format the model does not follow."""


@guarded
def stat(ctx: CommandContext) -> CommandResult:
    opts, operands = scan_options(ctx.argv, "L", with_arg="c", longs=_LONGS)
    out = Output("stat")
    if not operands:
        out.usage("missing operand")
        return out.result()
    formats = [(letter, value) for letter, value in opts if letter in "cp"]
    if not formats:
        found = _status_only(ctx, operands, "L" in {letter for letter, _ in opts})
        return found
    if "QUOTING_STYLE" in ctx.env:
        return unknown("stat with QUOTING_STYLE set")
    letter, text = formats[-1]  # the last format given is the one used
    try:
        pieces = _compile(text, escapes=letter == "p")
    except _NotFollowed as exc:
        return unknown(f"stat: {exc}")
    if letter == "c":
        pieces.append(b"\n")
    # stat sets its quoting style only when the format holds "%N" as such: %1N or %-N print
    # the names bare (coreutils 9.1, main)
    quoted = "%N" in text
    follow = "L" in {letter for letter, _ in opts}
    for name in operands:
        try:
            described = _describe(ctx, name, follow)
        except VfsError as exc:
            out.error(f"cannot statx {quote(name)}: {exc.strerror}")
            continue
        except _NotFollowed as exc:
            return unknown(f"stat: {exc}")
        try:
            out.out += b"".join(piece if isinstance(piece, bytes) else _directive(piece, described, quoted)
                                for piece in pieces)
        except _NotFollowed as exc:
            return unknown(f"stat: {exc}")
    return out.result()


def _status_only(ctx: CommandContext, operands: list, follow: bool) -> CommandResult:
    """stat without a format: its text holds times and inodes; its status is whether each name
    could be read."""
    failed = False
    for name in operands:
        try:
            _describe(ctx, name, follow)
        except VfsError:
            failed = True
        except _NotFollowed as exc:
            return unknown(f"stat: {exc}")
    found = CommandResult(1 if failed else 0)
    found.stdout_unknown = "the output of stat without a format (times, inodes)"
    if failed:
        found.stderr_unknown = "the messages of stat"
    return found


def _describe(ctx: CommandContext, name: str, follow: bool) -> dict:
    """What stat learns of ``name``: its kind, mode, size, link count and target."""
    files = ctx.files
    if name == "-":
        raise _NotFollowed("stat of standard input")
    kind = files.kind(name, follow_symlinks=follow)
    mode = files.mode(name) if follow else files.lmode(name)
    found = {"name": name, "kind": kind, "mode": mode}
    # (as stat(2): neither a file's bytes nor a folder's names are read)
    found["links"] = files.links(name, follow)
    if kind == "file":
        found["size"] = files.size(name)
    elif kind == "symlink":
        found["target"] = files.readlink(name)
        found["size"] = len(found["target"].encode("utf-8", "surrogateescape"))
    return found


def _compile(text: str, escapes: bool) -> list:
    """The format as pieces: bytes to print, or ``(flags, width, directive)``."""
    pieces, literal, i = [], bytearray(), 0
    while i < len(text):
        c = text[i]
        if c == "\\" and escapes:
            data, i = _escape(text, i)
            literal += data
            continue
        if c != "%" or i + 1 == len(text):
            literal += c.encode("utf-8", "surrogateescape")  # a lone % at the end prints as it is
            i += 1
            continue
        j = i + 1
        while j < len(text) and text[j] in "-0":
            j += 1
        flags = text[i + 1:j]
        k = j
        while k < len(text) and text[k].isdigit():
            k += 1
        if k == len(text):
            raise _NotFollowed(f"the directive {text[i:]!r}")
        width, directive = text[j:k], text[k]
        if directive == "%" and not flags and not width:
            literal += b"%"
        elif directive in "aAfFhnNs":
            pieces.append(bytes(literal))
            literal = bytearray()
            pieces.append((flags, int(width) if width else 0, directive))
        else:
            raise _NotFollowed(f"the directive {text[i:k + 1]!r}")
        i = k + 1
    pieces.append(bytes(literal))
    return pieces


def _escape(text: str, i: int) -> tuple:
    """``(bytes, next index)`` of the backslash escape at ``text[i]`` (--printf)."""
    nxt = text[i + 1:i + 2]
    if nxt in _ESCAPES:
        return _ESCAPES[nxt], i + 2
    if nxt and nxt in "01234567":
        end = i + 1
        while end < min(len(text), i + 4) and text[end] in "01234567":
            end += 1
        return bytes([int(text[i + 1:end], 8) & 0xFF]), end
    if nxt == "x" and text[i + 2:i + 3] and text[i + 2] in "0123456789abcdefABCDEF":
        end = i + 2
        while end < min(len(text), i + 4) and text[end] in "0123456789abcdefABCDEF":
            end += 1
        return bytes([int(text[i + 2:end], 16)]), end
    raise _NotFollowed(f"the escape {text[i:i + 2]!r}")


def _directive(piece: tuple, found: dict, quoted: bool) -> bytes:
    flags, width, directive = piece
    mode, kind = found["mode"], found["kind"]
    if directive == "a":
        text = format(mode & 0o7777, "o")
    elif directive == "A":
        text = {"dir": "d", "file": "-", "symlink": "l"}[kind] + mode_letters(mode)
    elif directive == "f":
        text = format(_KINDS[kind] | mode & 0o7777, "x")
    elif directive == "F":
        text = {"dir": "directory", "symlink": "symbolic link"}.get(kind) or \
            ("regular file" if found["size"] else "regular empty file")
    elif directive == "n":
        text = found["name"]
    elif directive == "N":
        name, target = found["name"], found.get("target")
        if target is not None and "0" in flags:
            # stat formats the target with the format it rewrote for the name, which then
            # prints an "s" more (coreutils 9.1 make_format over the same buffer)
            raise _NotFollowed("%N with the 0 flag on a symlink")
        if quoted:
            name, target = quote(name), target and quote(target)
        text = _padded(name, flags, width, directive)
        return (text + (f" -> {_padded(target, flags, width, directive)}" if kind == "symlink" else "")).encode(
            "utf-8", "surrogateescape")
    elif directive == "s":
        if kind == "dir":
            raise _NotFollowed("the size of a directory, which differs between file systems")
        text = str(found["size"])
    else:  # h
        text = str(found["links"])
    return _padded(text, flags, width, directive).encode("utf-8", "surrogateescape")


def _padded(text: str, flags: str, width: int, directive: str) -> str:
    if width <= len(text):
        return text
    if "-" in flags:
        return text + " " * (width - len(text))
    return ("0" if "0" in flags and directive in _NUMERIC else " ") * (width - len(text)) + text
