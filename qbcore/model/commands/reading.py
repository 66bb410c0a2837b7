"""read, mapfile and readarray: the builtins that read their stdin a line at a time.

They read from the stream the walker lends them (``Invocation.input``): bash's
read takes its line and no more, so the next command that reads the same
descriptor starts where it stopped. Without a stream, with options that
depend on a terminal or a clock (``-t``, ``-n``, ``-u``), or while the walker
is not certain the command runs, they are not modelled: the variables they
set become unknown, and so does the rest of the stream.
"""

from __future__ import annotations

from ..expand import Opaque
from ..utilities.common import OptionUnknown, scan_options
from .external import READING_OPTIONS, taint_variables
from .registry import Invocation, Outcome, register
from .variables import _NAME, assign

_IFS_WHITESPACE = " \t\n"


def _not_followed(ctx: Invocation, why: str) -> Outcome:
    if ctx.input is not None:
        ctx.input.spoil()  # how much of it the builtin took is not known
    taint_variables(ctx.env, ctx.name, ctx.args)
    return Outcome(Opaque(f"status of {ctx.name} ({why})"), modelled=False)


def _options(ctx: Invocation, flags: str, with_value: str):
    """``({flag: value or True}, operands)`` as bash's internal getopt reads them (options
    end at the first word that is none), or None for an option it would refuse."""
    try:
        opts, operands = scan_options(ctx.argv, flags, with_value, permute=False)
    except OptionUnknown:
        return None
    return {letter: True if value is None else value for letter, value in opts}, operands


def _followed(ctx: Invocation, flags: str, with_value: str, unfollowed: str, names_of):
    """``(options, names, delimiter)`` of read or mapfile when the model follows the run,
    else the Outcome of one it does not (``unfollowed``: options it does not model;
    ``names_of(options, operands)``: the variables it sets)."""
    parsed = _options(ctx, flags, with_value)
    if parsed is None:
        return _not_followed(ctx, "an option it refuses")
    given, operands = parsed
    for letter in unfollowed:
        if letter in given:
            return _not_followed(ctx, f"{ctx.name} -{letter}")
    delim = given.get("d", "\n")
    delim = delim[:1] if delim else "\0"
    names = names_of(given, operands)
    if names is None or any(not _NAME.fullmatch(name) or name in ctx.env.readonly for name in names) or \
            ord(delim) > 0x7F:
        return _not_followed(ctx, "a name it refuses, or a delimiter past ASCII")
    if ctx.input is None or not ctx.shell.certain:
        return _not_followed(ctx, "its stdin" if ctx.input is None else "a read that may not run")
    return given, operands, delim


@register("read")
def read(ctx: Invocation) -> Outcome:
    # -e (readline), -s (no echo) and -p (the prompt) act only when stdin is a terminal
    found = _followed(ctx, *READING_OPTIONS["read"], "intNu",
                      lambda given, operands: ([given["a"]] if "a" in given else []) + operands)
    if isinstance(found, Outcome):
        return found
    given, names, delim = found
    array = given.get("a")
    env = ctx.env
    ifs = env.ifs()
    if not isinstance(ifs, str) or not ifs.isascii():
        return _not_followed(ctx, "$IFS")
    data, found = b"", False
    while True:
        got = ctx.input.read_until(delim.encode())
        if got is None:
            return _not_followed(ctx, ctx.input.why or "its stdin")
        data += got[0]
        found = got[1]
        if not found or "r" in given or not _escapes_its_end(data):
            break
        data += delim.encode()  # an escaped delimiter does not end the line (a newline: it goes)
    if not found and "r" not in given and _escapes_its_end(data):
        # bash keeps its internal escape mark for a backslash that ends the input, in some fields
        return _not_followed(ctx, "a backslash at the end of its input")
    if b"\0" in data:
        return _not_followed(ctx, "a NUL byte in its input")
    chars = _unescaped(data.decode("utf-8", "surrogateescape"), "r" in given)
    note = ctx.note
    if array is not None:
        assign(env, note, array, tuple(_fields(chars, ifs)))
    elif not names:
        assign(env, note, "REPLY", "".join(c for c, _ in chars))
    else:
        whitespace = "".join(c for c in ifs if c in _IFS_WHITESPACE)
        rest = _strip_leading(chars, whitespace)
        for name in names[:-1]:
            word, rest = _next_word(rest, ifs, whitespace)
            assign(env, note, name, word)
        assign(env, note, names[-1], _last_value(rest, ifs, whitespace))
    return Outcome(0 if found else 1)


def _escapes_its_end(data: bytes) -> bool:
    """Whether ``data`` ends in a backslash that escapes what follows (an odd run of them)."""
    run = len(data) - len(data.rstrip(b"\\"))
    return run % 2 == 1


def _unescaped(text: str, raw: bool) -> list:
    """``[(char, escaped)]`` of a line: without -r a backslash escapes the next character
    (which no IFS character then splits or strips), and a backslash-newline is removed."""
    if raw:
        return [(c, False) for c in text]
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if i + 1 < len(text):
                if text[i + 1] != "\n":
                    out.append((text[i + 1], True))
                i += 2
                continue
            break  # (a backslash at the end of the input is not followed: see read)
        out.append((c, False))
        i += 1
    return out


def _is_ifs(item, chars: str) -> bool:
    return not item[1] and item[0] in chars


def _strip_leading(chars: list, whitespace: str) -> list:
    i = 0
    while i < len(chars) and _is_ifs(chars[i], whitespace):
        i += 1
    return chars[i:]


def _next_word(chars: list, ifs: str, whitespace: str):
    """(the first field of ``chars``, what follows its delimiter): the field ends at an IFS
    character; the delimiter is IFS whitespace around at most one other IFS character."""
    i = 0
    while i < len(chars) and not _is_ifs(chars[i], ifs):
        i += 1
    word = "".join(c for c, _ in chars[:i])
    while i < len(chars) and _is_ifs(chars[i], whitespace):
        i += 1
    if i < len(chars) and _is_ifs(chars[i], ifs) and chars[i][0] not in whitespace:
        i += 1
        while i < len(chars) and _is_ifs(chars[i], whitespace):
            i += 1
    return word, chars[i:]


def _last_value(chars: list, ifs: str, whitespace: str) -> str:
    """What the last name gets: one field alone (its delimiter dropped), or the rest of
    the line with the IFS whitespace at its end stripped, escaped or not, but for its
    first character (bash's strip_trailing_ifs_whitespace)."""
    if not chars:
        return ""
    word, after = _next_word(chars, ifs, whitespace)
    if not after:
        return word
    end = len(chars)
    while end > 1 and chars[end - 1][0] in whitespace:
        end -= 1
    return "".join(c for c, _ in chars[:end])


def _fields(chars: list, ifs: str) -> list:
    whitespace = "".join(c for c in ifs if c in _IFS_WHITESPACE)
    rest = _strip_leading(chars, whitespace)
    fields = []
    while rest:
        word, rest = _next_word(rest, ifs, whitespace)
        fields.append(word)
    return fields


@register("mapfile", "readarray")
def mapfile(ctx: Invocation) -> Outcome:
    found = _followed(ctx, *READING_OPTIONS["mapfile"], "nOscCu",
                      lambda given, operands: (operands or ["MAPFILE"]) if len(operands) <= 1 else None)
    if isinstance(found, Outcome):
        return found
    given, names, delim = found
    name = names[0] if names else "MAPFILE"
    env = ctx.env
    data = ctx.input.take()
    if data is None:
        return _not_followed(ctx, ctx.input.why or "its stdin")
    text = data.decode("utf-8", "surrogateescape")
    if "\0" in text and delim != "\0":
        return _not_followed(ctx, "a NUL byte in its input")
    lines = text.split(delim)
    lines = [line + delim for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    if "t" in given:
        lines = [line[:-1] if line.endswith(delim) else line for line in lines]
    assign(env, ctx.note, name, tuple(lines))
    return Outcome(0)
