"""bash 5.2's printf and echo builtins (their own semantics, not coreutils'): escapes, format reuse, %q."""

from __future__ import annotations

import re

from .context import CommandContext, CommandResult, unknown

__all__ = ["printf", "echo"]

_SIMPLE = {"a": 7, "b": 8, "e": 27, "E": 27, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11,
           "\\": 92, '"': 34, "'": 39, "?": 63}


def _escape(text: bytes, i: int, for_b: bool, echo: bool = False) -> tuple[bytes, int, bool]:
    """Decode the escape at text[i] (just after the backslash): (bytes, next index, stop).

    ``for_b``: %b and echo -e rules (\\c stops, \\0NNN); ``echo``: octal needs the leading 0."""
    if i >= len(text):
        return b"\\", i, False
    c = chr(text[i])
    if for_b and c in "'\"?":
        return b"\\" + c.encode(), i + 1, False
    if c in _SIMPLE:
        return bytes([_SIMPLE[c]]), i + 1, False
    if c == "c" and for_b:
        return b"", i + 1, True
    if c in "01234567" and not (echo and c != "0"):
        # %b: \0NNN (up to 3 after the 0) and \NNN; the format string: \NNN only
        start = i + 1 if (for_b and c == "0") else i
        j = start
        while j < len(text) and j - start < 3 and chr(text[j]) in "01234567":
            j += 1
        return bytes([int(text[start:j] or b"0", 8) & 0xFF]), j, False
    if c == "x":
        j = i + 1
        while j < len(text) and j - i - 1 < 2 and chr(text[j]) in "0123456789abcdefABCDEF":
            j += 1
        if j == i + 1:
            return b"\\x", i + 1, False
        return bytes([int(text[i + 1:j], 16)]), j, False
    if c in "uU":
        j = i + 1
        limit = 4 if c == "u" else 8
        while j < len(text) and j - i - 1 < limit and chr(text[j]) in "0123456789abcdefABCDEF":
            j += 1
        if j == i + 1:
            return b"\\" + c.encode(), i + 1, False
        code = int(text[i + 1:j], 16)
        if code > 0x7F:
            raise ValueError("\\u escape beyond ASCII depends on the locale")
        return bytes([code]), j, False
    return b"\\", i, False  # bash prints the backslash and reads the character afresh


def _unescape(text: bytes, for_b: bool, echo: bool = False) -> tuple[bytes, bool]:
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == 92:
            piece, i, stop = _escape(text, i + 1, for_b, echo)
            out += piece
            if stop:
                return bytes(out), True
        else:
            out.append(ch)
            i += 1
    return bytes(out), False


_Q_SPECIAL = set(" \t\n'\"\\|&;()<>!{}*[]?^$`,")


def _shell_q(arg: bytes) -> bytes:
    """printf %q: backslashes, or $'…' when the word holds control or non-ASCII bytes."""
    if arg == b"":
        return b"''"
    if any(b < 32 or b >= 127 for b in arg):
        out = bytearray(b"$'")
        names = {7: b"\\a", 8: b"\\b", 9: b"\\t", 10: b"\\n", 11: b"\\v", 12: b"\\f", 13: b"\\r",
                 27: b"\\E", 39: b"\\'", 92: b"\\\\"}
        for b in arg:
            if b in names:
                out += names[b]
            elif b < 32 or b >= 127:
                out += b"\\%03o" % b
            else:
                out.append(b)
        return bytes(out + b"'")
    out = bytearray()
    for k, b in enumerate(arg):
        ch = chr(b)
        if ch in _Q_SPECIAL or (k == 0 and ch in "~#"):
            out.append(92)
        out.append(b)
    return bytes(out)


_INT = re.compile(rb"[ \t\n]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")


def _number(arg: bytes, errors: list) -> int:
    if arg == b"":
        return 0  # an empty argument is 0 without complaint
    if arg[:1] in (b"'", b'"'):
        return arg[1] if len(arg) > 1 else 0
    m = _INT.match(arg)
    if not m:
        errors.append(arg)
        return 0
    value = int(m.group(2), 0) if not m.group(2).startswith(b"0") or len(m.group(2)) == 1 or \
        m.group(2)[:2].lower() == b"0x" else int(m.group(2), 8)
    if m.group(1) == b"-":
        value = -value
    if m.end() != len(arg):
        errors.append(arg)
    return value


_SPEC = re.compile(rb"%([-+ #0']*)(\*|[0-9]*)(?:\.(\*|-?[0-9]*))?([a-zA-Z%])")


def printf(ctx: CommandContext) -> CommandResult:
    """bash's printf builtin; -v (assigns a variable) belongs to the evaluator."""
    args = [a.encode("utf-8", "surrogateescape") for a in ctx.argv[1:]]
    if args and args[0] == b"--":
        args = args[1:]
    if args and args[0].startswith(b"-") and args[0] != b"-":
        return unknown(f"printf option {args[0].decode(errors='replace')}")
    if not args:
        return CommandResult(2, b"", b"printf: usage: printf [-v var] format [arguments]\n")
    fmt, rest = args[0], args[1:]
    out = bytearray()
    errors: list = []
    err = bytearray()
    status = 0
    pos = 0
    try:
        while True:
            consumed_before = pos
            i = 0
            while i < len(fmt):
                ch = fmt[i]
                if ch == 92:
                    if fmt[i + 1:i + 2] == b"x" and not re.match(rb"[0-9a-fA-F]", fmt[i + 2:i + 3]):
                        err += b"bash: printf: missing hex digit for \\x\n"
                    piece, i, _ = _escape(fmt, i + 1, False)
                    out += piece
                    continue
                if ch != 37:
                    out.append(ch)
                    i += 1
                    continue
                m = _SPEC.match(fmt, i)
                if not m:
                    head = re.match(rb"%[-+ #0']*(\*|[0-9]*)(\.(\*|-?[0-9]*))?", fmt[i:])
                    bad = fmt[i + head.end():i + head.end() + 1]
                    if not bad:
                        err += b"bash: printf: `" + fmt[i:] + b"': missing format character\n"
                    elif bad[0] < 128:
                        err += b"bash: printf: `" + bad + b"': invalid format character\n"
                    else:
                        return unknown("printf with a non-ASCII format character")
                    return _done(out, err, errors, 1)
                i = m.end()
                flags, width, prec, conv = m.group(1), m.group(2), m.group(3), m.group(4)
                flags = flags.replace(b"'", b"")  # grouping: nothing to group in the C locale
                if prec is not None and prec.startswith(b"-"):
                    return unknown("printf with a negative precision")
                if conv == b"%":
                    if m.end() - m.start() != 2:
                        err += b"bash: printf: `%': invalid format character\n"
                        return _done(out, err, errors, 1)
                    out += b"%"
                    continue

                def take():
                    nonlocal pos
                    if pos < len(rest):
                        pos += 1
                        return rest[pos - 1], True
                    return b"", False

                if width == b"*":
                    w, _ = take()
                    width = str(_number(w, errors)).encode()
                if prec == b"*":
                    p, _ = take()
                    prec = str(_number(p, errors)).encode()
                arg, present = take()
                spec = "%" + flags.decode() + width.decode() + (
                    "." + prec.decode() if prec is not None else "")
                c = conv.decode()
                if c == "s":
                    out += _pad_bytes(arg, flags, width, prec)
                elif c == "b":
                    text, stop = _unescape(arg, True)
                    out += _pad_bytes(text, flags, width, prec)
                    if stop:
                        return _done(out, err, errors, status)
                elif c == "q":
                    out += _pad_bytes(_shell_q(arg), flags, width, None)
                elif c == "c":
                    out += _pad_bytes(arg[:1], flags, width, None)
                elif c in "di":
                    n = _number(arg, errors) if present else 0
                    out += (spec + "d") .__mod__(n).encode()
                elif c in "uxXo":
                    n = _number(arg, errors) if present else 0
                    if n < 0:
                        n &= (1 << 64) - 1
                    out += (spec + ("d" if c == "u" else c)).__mod__(n).encode()
                elif c in "feEgG":
                    return unknown(f"printf %{c} (floating point formatting)")
                else:
                    return unknown(f"printf conversion %{c}")
            if pos >= len(rest) or pos == consumed_before:
                break
    except ValueError as exc:
        return unknown(f"printf: {exc}")
    return _done(out, err, errors, status)


def _pad_bytes(text: bytes, flags: bytes, width: bytes, prec) -> bytes:
    if prec is not None:
        text = text[: int(prec or b"0")]
    w = int(width or b"0")
    if len(text) >= w:
        return text
    fill = b" " * (w - len(text))
    return text + fill if b"-" in flags else fill + text


def _done(out, err, errors, status) -> CommandResult:
    for bad in errors:
        err += b"bash: printf: " + bad + b": invalid number\n"
        status = 1
    return CommandResult(status, bytes(out), bytes(err))


def echo(ctx: CommandContext) -> CommandResult:
    """bash's echo builtin (xpg_echo off): leading -n/-e/-E words, then the words joined by spaces."""
    args = ctx.argv[1:]
    newline, escapes = True, False
    while args and len(args[0]) > 1 and args[0][0] == "-" and set(args[0][1:]) <= set("neE"):
        for c in args[0][1:]:
            if c == "n":
                newline = False
            elif c == "e":
                escapes = True
            else:
                escapes = False
        args = args[1:]
    out = bytearray()
    for k, word in enumerate(args):
        data = word.encode("utf-8", "surrogateescape")
        if k:
            out += b" "
        if escapes:
            try:
                text, stop = _unescape(data, True, echo=True)
            except ValueError as exc:
                return unknown(f"echo: {exc}")
            out += text
            if stop:
                return CommandResult(0, bytes(out), b"")
        else:
            out += data
    if newline:
        out += b"\n"
    return CommandResult(0, bytes(out), b"")
