"""bash's backslash escapes, one decoder for its four dialects.

``$'…'`` (read by the parser), ``echo -e``, ``printf``'s ``%b`` argument and
``printf``'s format string share the same escapes with small differences
(which octal forms, what ``\\c`` does, whether quotes are escaped); each
difference is one line of the table below, so the four cannot drift.
"""

from __future__ import annotations

__all__ = ["ANSI_C", "ECHO", "PRINTF_B", "FORMAT", "EscapeUnknown", "escape_at", "decode", "byte_char"]

ANSI_C = "ansi-c"  # $'…': \' \" \? too, \cX is a control character
ECHO = "echo"  # echo -e: \0NNN only, \c stops the output
PRINTF_B = "%b"  # printf %b: \0NNN and \NNN, \c stops the output
FORMAT = "format"  # a printf format: \NNN, \' \" \?, \c is no escape

_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
           "t": "\t", "v": "\v", "\\": "\\"}
_QUOTES = {"'": "'", '"': '"', "?": "?"}
_HEX = "0123456789abcdefABCDEF"
_OCTAL = "01234567"


class EscapeUnknown(ValueError):
    """An escape whose bytes the decoder cannot know: ``\\u`` beyond ASCII outside ``$'…'``
    depends on the locale's character set."""


def byte_char(value: int, byte_mode: bool = False) -> str:
    """The character standing for one byte: itself in ``byte_mode`` (text holds bytes as
    latin-1), else the character of UTF-8 text (a lone byte above 0x7f as a surrogate)."""
    if byte_mode or value < 0x80:
        return chr(value)
    return bytes([value]).decode("utf-8", "surrogateescape")


def escape_at(text: str, i: int, dialect: str, byte_mode: bool = False) -> tuple:
    """The escape whose backslash is ``text[i]``: (decoded text, index after it, stop).

    ``stop`` is True for ``\\c`` where it ends the output (echo, %b). What is
    no escape in ``dialect`` decodes to the backslash alone: bash then reads
    the next character afresh.
    """
    n = len(text)
    if i + 1 >= n:
        return "\\", i + 1, False
    esc = text[i + 1]
    if esc in _SIMPLE:
        return _SIMPLE[esc], i + 2, False
    if esc in _QUOTES and dialect in (ANSI_C, FORMAT):
        return _QUOTES[esc], i + 2, False
    if esc == "c":
        if dialect in (ECHO, PRINTF_B):
            return "", i + 2, True
        if dialect == ANSI_C and i + 2 < n:
            ctl = text[i + 2]
            if ctl == "?":
                return "\x7f", i + 3, False
            # bash takes one byte (the first of a multi-byte character; the rest stay)
            data = ctl.encode("utf-8", "surrogateescape")
            return chr(data[0] & 0x1F) + data[1:].decode("utf-8", "surrogateescape"), i + 3, False
        return "\\", i + 1, False
    if esc in _OCTAL:
        if esc == "0" and dialect in (ECHO, PRINTF_B):
            start = i + 2  # \0NNN: up to three digits after the 0
        elif dialect == ECHO:
            return "\\", i + 1, False  # echo reads \NNN without the 0 as no escape
        else:
            start = i + 1
        end = start
        while end < n and end - start < 3 and text[end] in _OCTAL:
            end += 1
        return byte_char(int(text[start:end] or "0", 8) & 0xFF, byte_mode), end, False
    if esc == "x":
        end = i + 2
        while end < n and end - i - 2 < 2 and text[end] in _HEX:
            end += 1
        if end == i + 2:
            return "\\x", end, False
        return byte_char(int(text[i + 2:end], 16), byte_mode), end, False
    if esc in "uU":
        end = i + 2
        limit = 4 if esc == "u" else 8
        while end < n and end - i - 2 < limit and text[end] in _HEX:
            end += 1
        if end == i + 2:
            return "\\" + esc, end, False
        value = int(text[i + 2:end], 16)
        if dialect == ANSI_C:
            return (chr(value) if value < 0x110000 else text[i:end]), end, False
        if value > 0x7F:
            raise EscapeUnknown("\\u escape beyond ASCII depends on the locale")
        return chr(value), end, False
    return "\\", i + 1, False


def decode(text: str, dialect: str, byte_mode: bool = False) -> tuple:
    """Every escape of ``text`` decoded: (text, stopped by ``\\c``)."""
    if "\\" not in text:
        return text, False
    out = []
    i, n = 0, len(text)
    while i < n:
        cut = text.find("\\", i)
        if cut < 0:
            out.append(text[i:])
            break
        out.append(text[i:cut])
        piece, i, stop = escape_at(text, cut, dialect, byte_mode)
        out.append(piece)
        if stop:
            return "".join(out), True
    return "".join(out), False
