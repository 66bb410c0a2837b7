"""bash 5.2's printf and echo builtins (their own semantics, not coreutils'): escapes, format reuse, %q.

The one implementation of both: the evaluator's builtins (qbcore.model.commands.output)
and the utility models below call it. Text is a string of units: in ``byte_mode`` each
character stands for one byte (latin-1), as bash sees text in the C locale; otherwise
a unit is a character of UTF-8 text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ...syntax import escapes
from .context import CommandContext, CommandResult, unknown

__all__ = ["printf", "coreutils_printf", "coreutils_printf_differs", "echo", "format_printf", "echo_text", "Printed", "PrintUnknown"]


class PrintUnknown(Exception):
    """What printf or echo would write depends on something not modelled (named)."""


@dataclass(frozen=True)
class Printed:
    """What printf wrote: ``text`` (units), its exit ``status`` and bash's ``errors``
    (messages without the ``bash: line N:`` prefix, in order)."""

    text: str
    status: int
    errors: tuple = ()


# a conversion: flags, width, precision, the conversion letter
_SPEC = re.compile(r"%([-+ #0']*)(\*|[0-9]*)(?:\.(\*|-?[0-9]*))?([a-zA-Z%])")
_HEAD = re.compile(r"%[-+ #0']*(\*|[0-9]*)(\.(\*|-?[0-9]*))?")
_NUMBER = re.compile(r"[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
_INTMAX = 1 << 63


def format_printf(fmt: str, args: list, byte_mode: bool = False, meter=None) -> Printed:
    """bash's printf: the format is reused while arguments remain.

    Widths, precisions and the output are checked against ``meter`` (the
    evaluation's budget, or fixed limits) before they are made. Raises PrintUnknown for what is not modelled (floating point,
    length modifiers, numbers beyond 64 bits, ``\\u`` beyond ASCII).
    """
    meter = meter if meter is not None else _Limits()
    if _PLAIN_FORMAT.match(fmt) is not None:
        return _plain_printf(fmt, args, meter)
    out = _MeteredList(meter, "printf output")
    errors: list = []
    status = 0
    index = 0

    def take():
        nonlocal index
        if index < len(args):
            index += 1
            return args[index - 1], True
        return "", False

    def number(arg: str, unsigned: bool = False) -> int:
        nonlocal status
        value, ok = _number(arg, unsigned)
        if not ok:
            # bash's sh_invalidnum names the base from the argument's first characters
            kind = "octal " if arg[:1] == "0" and arg[1:2] in tuple("0123456789") else "hex " if arg[:2] == "0x" else ""
            errors.append(f"printf: {arg}: invalid {kind}number")
            status = 1
        return value

    try:
        while True:
            consumed_before = index
            i, n = 0, len(fmt)
            while i < n:
                ch = fmt[i]
                if ch == "\\":
                    _warn_missing_digit(fmt, i, errors)
                    piece, i, _ = escapes.escape_at(fmt, i, escapes.FORMAT, byte_mode)
                    out.append(piece)
                    continue
                if ch != "%":
                    end = fmt.find("\\", i)
                    end = n if end < 0 else end
                    cut = fmt.find("%", i, end)
                    end = end if cut < 0 else cut
                    out.append(fmt[i:end])
                    i = end
                    continue
                match = _SPEC.match(fmt, i)
                if not match:
                    head = _HEAD.match(fmt, i)
                    bad = fmt[head.end():head.end() + 1]
                    if bad == "(":
                        raise PrintUnknown("printf's %(...)T (the time)")
                    if not bad:
                        errors.append(f"printf: `{fmt[i:]}': missing format character")
                    elif ord(bad) < 128:
                        errors.append(f"printf: `{bad}': invalid format character")
                    else:
                        raise PrintUnknown("printf with a non-ASCII format character")
                    return Printed("".join(out), 1, tuple(errors))
                i = match.end()
                flags, width, precision, conv = match.groups()
                if "'" in flags:
                    if not byte_mode:
                        raise PrintUnknown("printf's ' flag (digit grouping of the locale)")
                    flags = flags.replace("'", "")  # nothing to group in the C locale
                if precision is not None and precision.startswith("-"):
                    raise PrintUnknown("printf with a negative precision")
                if conv == "%":
                    if match.end() - match.start() != 2:
                        errors.append("printf: `%': invalid format character")
                        return Printed("".join(out), 1, tuple(errors))
                    out.append("%")
                    continue
                if conv not in "diouxXcsbq":
                    if conv in "eEfFgGaA":
                        raise PrintUnknown("floating point format")
                    raise PrintUnknown(f"printf conversion %{conv}")
                if width == "*":
                    value = number(take()[0])
                    if value < 0:
                        flags, value = flags + "-", -value
                    width = str(value)
                if precision == "*":
                    value = number(take()[0])
                    precision = str(value) if value >= 0 else None
                if width:
                    meter.width(int(width))
                if precision:
                    meter.width(int(precision))
                arg, present = take()
                if conv == "s":
                    text = _cut(arg, precision)
                elif conv == "b":
                    _warn_missing_digits(arg, errors)
                    text, stop = escapes.decode(arg, escapes.PRINTF_B, byte_mode)
                    if stop:
                        out.append(_pad(_cut(text, precision), flags, width))
                        return Printed("".join(out), 0, tuple(errors))  # success after \c, whatever came before
                    text = _cut(text, precision)
                elif conv == "q":
                    text = _cut(_quote(arg, byte_mode) if present else "''", precision)
                elif conv == "c":
                    text = arg[:1] or "\0"
                else:
                    text = _format_int(number(arg, conv in "ouxX") if present else 0, conv, flags, precision)
                out.append(_pad(text, flags, width, numeric=conv in "diouxX" and precision is None))
            if index >= len(args) or index == consumed_before:
                break
    except escapes.EscapeUnknown as exc:
        raise PrintUnknown(str(exc)) from None
    return Printed("".join(out), status, tuple(errors))


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _warn_missing_digit(text: str, i: int, errors: list):
    """bash's warning for the escape at ``text[i]`` (a backslash) when it is ``\\x``, ``\\u`` or
    ``\\U`` with no hex digit after it (printf's format and %b alike; it then prints it as it is)."""
    letter = text[i + 1:i + 2]
    if letter in ("x", "u", "U") and text[i + 2:i + 3] not in _HEX_DIGITS:
        errors.append(f"printf: missing {'hex' if letter == 'x' else 'unicode'} digit for \\{letter}")


def _warn_missing_digits(arg: str, errors: list):
    """The warnings of :func:`_warn_missing_digit` for a %b argument, up to a ``\\c``."""
    i = arg.find("\\")
    while 0 <= i < len(arg) - 1 and arg[i + 1] != "c":
        _warn_missing_digit(arg, i, errors)
        i = arg.find("\\", i + 2)


def coreutils_echo_differs(args: list, posixly_correct: bool) -> bool:
    """Whether coreutils 9.1's echo (the program env, xargs and find -exec run) prints
    otherwise than bash's builtin for ``args``: its help or version alone, ``\\u`` and ``\\U``
    (which it writes as they are), and any run under POSIXLY_CORRECT."""
    return posixly_correct or list(args) in (["--help"], ["--version"]) or \
        any("\\u" in a or "\\U" in a for a in args)


def echo_text(args: list, byte_mode: bool = False) -> str:
    """bash's echo (xpg_echo off): leading -n/-e/-E words, then the words joined by spaces."""
    newline, escaping = True, False
    i = 0
    while i < len(args) and len(args[i]) > 1 and args[i][0] == "-" and not args[i][1:].strip("neE"):
        for letter in args[i][1:]:
            if letter == "n":
                newline = False
            elif letter == "e":
                escaping = True
            else:
                escaping = False
        i += 1
    text = " ".join(args[i:])
    if escaping:
        try:
            text, stop = escapes.decode(text, escapes.ECHO, byte_mode)
        except escapes.EscapeUnknown as exc:
            raise PrintUnknown(str(exc)) from None
        if stop:
            return text
    return text + ("\n" if newline else "")


class _Limits:
    """Fixed limits for a printf run outside an evaluation: past them it is unknown."""

    WIDTH = 1 << 20
    OUTPUT = 1 << 24

    def __init__(self):
        self.built = 0

    def width(self, size: int) -> None:
        if size > self.WIDTH:
            raise PrintUnknown(f"a field width of {size}")

    def build(self, size: int, what: str) -> None:
        self.built += size
        if self.built > self.OUTPUT:
            raise PrintUnknown(f"{what} beyond {self.OUTPUT} bytes")


# a format of text and bare %s conversions (the usual one): no escape, flag, width or other conversion
_PLAIN_FORMAT = re.compile(r"[^\\%]*(?:%s[^\\%]*)*\Z")


def _plain_printf(fmt: str, args: list, meter) -> Printed:
    """``format_printf`` of a ``_PLAIN_FORMAT``: the arguments in turn in its slots (the
    format again while any remain, the last round's missing ones empty). The output's
    size is charged before it is built."""
    parts = fmt.split("%s")
    slots = len(parts) - 1
    if slots == 0:
        meter.build(len(fmt), "printf output")
        return Printed(fmt, 0, ())
    rounds = max(1, -(-len(args) // slots))
    meter.build(rounds * (len(fmt) - 2 * slots) + sum(map(len, args)), "printf output")
    out = []
    taken = 0
    for _ in range(rounds):
        out.append(parts[0])
        for part in parts[1:]:
            out.append(args[taken] if taken < len(args) else "")
            out.append(part)
            taken += 1
    return Printed("".join(out), 0, ())


class _MeteredList(list):
    """A list of output pieces whose every piece is paid for as it is added."""

    def __init__(self, meter, what: str):
        super().__init__()
        self.meter = meter
        self.what = what

    def append(self, piece):
        self.meter.build(len(piece), self.what)
        super().append(piece)


def _number(arg: str, unsigned: bool = False) -> tuple:
    """An integer argument as bash reads it (strtoimax, or strtoumax for the ``unsigned``
    conversions): (value, valid)."""
    if arg == "":
        return 0, True  # an empty argument is 0 without complaint
    if arg[0] in "'\"":
        return (ord(arg[1]) if len(arg) > 1 else 0), True
    match = _NUMBER.match(arg)
    if not match:
        return 0, False
    sign, digits = match.groups()
    value = int(digits, 16) if digits[:2] in ("0x", "0X") else int(digits, 8 if digits.startswith("0") else 10)
    value = -value if sign == "-" else value
    if not (-_INTMAX * 2 < value < _INTMAX * 2 if unsigned else -_INTMAX <= value < _INTMAX):
        raise PrintUnknown("printf: a number beyond 64 bits")
    return value, match.end() == len(arg)


def _format_int(value: int, conv: str, flags: str, precision: Optional[str]) -> str:
    """One integer conversion as C's printf makes it, before the width is applied."""
    if conv in "di":
        sign = "-" if value < 0 else ("+" if "+" in flags else (" " if " " in flags else ""))
        digits = str(abs(value))
    else:
        sign = ""
        value &= (1 << 64) - 1
        digits = {"u": "%d", "o": "%o", "x": "%x", "X": "%X"}[conv] % value
    if precision is not None:
        digits = "" if int(precision or "0") == 0 and value == 0 else digits.zfill(int(precision or "0"))
    if "#" in flags:
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and value:
            sign = "0" + conv
    return sign + digits


def _cut(text: str, precision: Optional[str]) -> str:
    return text if precision is None else text[:int(precision or "0")]


def _pad(text: str, flags: str, width: str, numeric: bool = False) -> str:
    """``text`` padded to ``width``: left-justified with ``-``; with ``0`` (a number
    without precision) zeros go after the sign or 0x prefix."""
    size = int(width or "0")
    if len(text) >= size:
        return text
    if "-" in flags:
        return text.ljust(size)
    if numeric and "0" in flags:
        head = len(text) - len(text.lstrip("+- ")) if text[:1] in "+- " else 0
        if text[head:head + 2] in ("0x", "0X"):
            head += 2
        return text[:head] + "0" * (size - len(text)) + text[head:]
    return text.rjust(size)


_Q_SPECIAL = frozenset(" \t\n'\"\\|&;()<>!{}*[]?^$`,")
_Q_NAMES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 27: "\\E", 39: "\\'",
            92: "\\\\"}


def _quote(arg: str, byte_mode: bool) -> str:
    """printf %q: backslashes, or $'…' when the word holds control (or, in the C locale,
    non-ASCII) bytes."""
    if arg == "":
        return "''"
    if not byte_mode and any(ord(c) >= 0x80 for c in arg):
        raise PrintUnknown("printf %q of non-ASCII text outside the C locale")
    data = arg.encode("latin-1") if byte_mode else arg.encode("utf-8", "surrogateescape")
    if any(c < 0x20 or c == 0x7F for c in data) or (byte_mode and any(c >= 0x80 for c in data)):
        out = ["$'"]
        for c in data:
            if c in _Q_NAMES:
                out.append(_Q_NAMES[c])
            elif c < 0x20 or c >= 0x7F:
                out.append(f"\\{c:03o}")
            else:
                out.append(chr(c))
        out.append("'")
        return "".join(out)
    return "".join("\\" + c if c in _Q_SPECIAL or (k == 0 and c in "~#") else c for k, c in enumerate(arg))


def printf(ctx: CommandContext) -> CommandResult:
    """bash's printf builtin; -v (assigns a variable) belongs to the evaluator."""
    args = [a.encode("utf-8", "surrogateescape").decode("latin-1") for a in ctx.argv[1:]]
    if args and args[0] == "--":
        args = args[1:]
    if args and args[0].startswith("-") and args[0] != "-":
        return unknown(f"printf option {args[0]}")
    if not args:
        return CommandResult(2, b"", b"printf: usage: printf [-v var] format [arguments]\n")
    try:
        printed = format_printf(args[0], args[1:], byte_mode=True)
    except PrintUnknown as exc:
        return unknown(f"printf: {exc}")
    stderr = "".join(f"bash: {message}\n" for message in printed.errors)
    return CommandResult(printed.status, printed.text.encode("latin-1"), stderr.encode("latin-1"))


def coreutils_printf_differs(args: list) -> Optional[str]:
    """Why coreutils 9.1's printf (the program env, xargs and find -exec run) may print
    otherwise than bash's builtin for ``args`` (measured over formats and arguments side by
    side), or None: an option or no format, ``%q``, ``\\c``, ``\\'``, ``\\?``, ``\\u`` or ``\\U``,
    and arguments to a format that takes none (coreutils warns of them). Messages are worded
    otherwise too, which the caller sees only after the run."""
    if args and args[0] == "--":
        args = args[1:]
    if not args or args[0].startswith("-") and args[0] != "-":
        return "coreutils printf with no format, or an option"
    fmt = args[0]
    if re.search(r"\\[c'?uU]|%[-+ #0]*[0-9*]*(?:\.[0-9*]*)?q", fmt) or \
            args[1:] and not _CONVERSION.search(fmt) or any("\\u" in a or "\\U" in a for a in args[1:]):
        return "coreutils printf with %q, \\c, \\', \\?, \\u or \\U, or arguments its format takes none of"
    return None


def coreutils_printf(ctx: CommandContext) -> CommandResult:
    """coreutils 9.1's printf where it prints what bash's builtin does (coreutils_printf_differs),
    with no error (the two word their messages otherwise)."""
    args = ctx.argv[1:]
    why = coreutils_printf_differs(args)
    if why is not None:
        return unknown(why)
    if args[0] == "--":
        args = args[1:]
    found = printf(CommandContext(["printf", *args], ctx.stdin, ctx.cwd, ctx.env, ctx.tree))
    if found.stderr or found.status not in (0, None):
        return unknown("coreutils printf's messages (worded otherwise than bash's)")
    return found


_CONVERSION = re.compile(r"%[-+ #0]*[0-9*]*(?:\.[0-9*]*)?[diouxXeEfFgGaAcsb]")


def echo(ctx: CommandContext) -> CommandResult:
    """bash's echo builtin (xpg_echo off): leading -n/-e/-E words, then the words joined by spaces."""
    args = [a.encode("utf-8", "surrogateescape").decode("latin-1") for a in ctx.argv[1:]]
    try:
        text = echo_text(args, byte_mode=True)
    except PrintUnknown as exc:
        return unknown(f"echo: {exc}")
    return CommandResult(0, text.encode("latin-1"), b"")
