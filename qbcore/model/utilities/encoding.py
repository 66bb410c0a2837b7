"""GNU coreutils 9.1 base64: the encoding replies use to carry bytes past every layer of
quoting (``echo aGk= | base64 -d > f``, ``base64 -d <<< …``), encoded and decoded as
coreutils does, with its behaviour on input that is not base64.

Decoding follows gnulib's ``base64_decode_ctx`` as coreutils calls it: newlines are skipped
(``-i`` drops every byte outside the alphabet and ``=`` first), the rest is read four
characters at a time, a block that ends in padding may be followed by more blocks, and at
the first block that is not base64 the bytes it still gives are written, then ``invalid
input`` (status 1).
"""

from __future__ import annotations

import base64 as _codec

from .common import OptionUnknown, Output, guarded, quote_c, quotef, read_input, reads_folder, scan_options
from .context import CommandContext, CommandResult
from .vfs import VfsError

__all__ = ["MODELS"]

_DIGITS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_ALPHABET = frozenset(_DIGITS)
_VALUE = {byte: n for n, byte in enumerate(_DIGITS)}
_KEPT_BY_I = _ALPHABET | {ord("=")}
_LONGS = {"decode": ("d", False), "ignore-garbage": ("i", False), "wrap": ("w", True)}
#: xstrtoimax's largest value: a wrap beyond it means no wrapping
_IMAX = (1 << 63) - 1


def _wrap_size(value: str, out: Output):
    """The wrap column of ``-w value`` (0: none), or None after coreutils' message. xstrtoimax
    reads it: a value past the largest means no wrapping, one below 0 or without a number is
    refused. Leading blanks, a sign before 0 and a suffix after digits are not followed."""
    if value.isascii() and value.isdigit():
        return 0 if int(value) > _IMAX else int(value)
    if value[:1] == "-" and value[1:].isascii() and value[1:].isdigit() and int(value[1:]) \
            or value[:1] not in _NUMBER_START:
        out.error(f"invalid wrap size: {quote_c(value)}")
        return None
    raise OptionUnknown(f"base64 -w {value!r} (a size xstrtoimax reads otherwise)")


#: how a number strtoimax reads may start: a blank (C's isspace), a sign or a digit
_NUMBER_START = frozenset(" \t\n\v\f\r+-0123456789")


def encoded(data: bytes, wrap: int) -> bytes:
    """``data`` in base64, a newline after every ``wrap`` characters and after the last (none at
    all for a wrap of 0)."""
    text = _codec.b64encode(data)
    if not wrap or not text:
        return text
    return b"".join(text[at:at + wrap] + b"\n" for at in range(0, len(text), wrap))


def decoded(data: bytes, ignore_garbage: bool) -> tuple[bytes, bool]:
    """``(the bytes written, whether the input was base64)``, as coreutils decodes ``data``."""
    if ignore_garbage:
        chars = bytes(byte for byte in data if byte in _KEPT_BY_I)
    else:
        chars = data.replace(b"\n", b"")
    out = bytearray()
    for at in range(0, len(chars), 4):
        if not _decode_block(chars[at:at + 4], out):
            return bytes(out), False
    return bytes(out), True


def _decode_block(block: bytes, out: bytearray) -> bool:
    """gnulib's decode_4 on one block of up to four characters: the bytes it gives go to
    ``out`` even when it then fails."""
    if len(block) < 2 or block[0] not in _ALPHABET or block[1] not in _ALPHABET:
        return False
    a, b = _VALUE[block[0]], _VALUE[block[1]]
    out.append((a << 2 | b >> 4) & 0xFF)
    if len(block) == 2:
        return False
    if block[2] == ord("="):
        return len(block) == 4 and block[3] == ord("=")
    if block[2] not in _ALPHABET:
        return False
    c = _VALUE[block[2]]
    out.append((b << 4 | c >> 2) & 0xFF)
    if len(block) == 3:
        return False
    if block[3] == ord("="):
        return True
    if block[3] not in _ALPHABET:
        return False
    out.append((c << 6 | _VALUE[block[3]]) & 0xFF)
    return True


@guarded
def base64(ctx: CommandContext) -> CommandResult:
    """base64 [-d] [-i] [-w COLS] [FILE]: FILE or stdin encoded (wrapped at 76 columns by
    default) or decoded."""
    opts, names = scan_options(ctx.argv, "di", with_arg="w", longs=_LONGS)
    out = Output("base64", in_order=True)
    decode = ignore_garbage = False
    wrap = 76
    for letter, value in opts:  # the options in turn: a wrap size is refused as it is met
        if letter == "d":
            decode = True
        elif letter == "i":
            ignore_garbage = True
        else:
            wrap = _wrap_size(value, out)
            if wrap is None:
                return out.result()
    if len(names) > 1:
        out.usage(f"extra operand {quote_c(names[1])}")
        return out.result()
    name = names[0] if names else "-"
    try:
        folder = name != "-" and reads_folder(ctx.files, name)
    except VfsError as exc:  # (a folder its owner may not read: fopen's message)
        out.error(f"{quotef(name)}: {exc.strerror}")
        return out.result()
    if folder:  # fopen takes a folder; its read fails
        out.error("read error: Is a directory")
        return out.result()
    data = read_input(ctx, name, out, [])
    if data is None:
        return out.result()
    if not decode:
        out.out += encoded(data, wrap)
        return out.result()
    written, whole = decoded(data, ignore_garbage)
    out.out += written
    if not whole:
        out.error("invalid input")
    return out.result()


MODELS = {"base64": base64}
