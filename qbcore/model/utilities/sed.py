"""GNU sed 4.9, the subset scripts use: s///, p, d, q, Q, a, i, c, y, =, n, N, P, D, the hold space (h H g G x), blocks, labels and b t T; addresses (N, $, /re/,
\\cREc, I, ranges, !, and GNU's first~step, addr,+N, addr,~N and 0,/re/); -n -e -E -s, and
-i with or without a backup suffix.

Anything else in a script (w, r, e, l, F, z, W, R, the M modifier) makes the whole run
``unknown``: a partial sed would give plausible, wrong files.
"""

from __future__ import annotations

import os

from .common import Output, OptionUnknown, guarded, refuse_invalid_option, scan_options
from .context import CommandContext, CommandResult
from .posixre import ConfusingBracket, Untranslatable, compile_posix
from .vfs import VfsError

__all__ = ["sed"]


_MISSING = b"\0<no newline>\0"  # marker stripped before the output leaves the model


def _finish(out: bytearray) -> bytes:
    data = bytes(out)
    return data[:-len(_MISSING)] if data.endswith(_MISSING) else data


class _Cmd:
    __slots__ = ("addr", "addr2", "state", "until", "negate", "name", "regex", "repl", "glob", "nth", "print_",
                 "exit_code", "text", "jump")

    def __init__(self):
        self.addr = None
        self.addr2 = None  # the end of a range
        self.state = 0  # of the range: _OUTSIDE
        self.until = 0  # the last line of a range that ends at +N or ~N, set where it starts
        self.negate = False
        self.name = ""
        self.regex = None
        self.repl = None
        self.glob = False
        self.nth = 1
        self.print_ = 0
        self.exit_code = 0
        self.text = b""  # of a, i, c; y's table; the label of :, b, t, T
        self.jump = 0  # of {: the index of the command after its }; of b, t, T: where they go


class _ScriptError(Exception):
    """A script GNU sed rejects: message as sed prints it after ``sed: -e expression #1, char N: ``;
    ``at`` is N counted over the whole script (the -e pieces joined by newlines)."""

    def __init__(self, message: str, at: int):
        super().__init__(message)
        self.at = at


def _read_delimited(s: bytes, i: int, delim: int, regex: bool = False,
                    unterminated: str = "unterminated `s' command") -> tuple[bytes, int]:
    """Text up to the unescaped ``delim``; ``\\delim`` becomes delim, ``\\n`` a newline escape.
    In a regex (``regex``) a bracket expression is read whole: the delimiter and a backslash
    are plain characters in it (GNU's match_slash)."""
    out = bytearray()
    n = len(s)
    while i < n:
        c = s[i]
        if c == 92 and i + 1 < n:
            d = s[i + 1]
            if d == delim:
                if chr(delim) in ".*[]^$+?(){}|":
                    raise OptionUnknown("sed: escaped delimiter that is also a regex operator")
                out.append(d)
            elif d == 10:
                out += b"\\n"
            else:
                out += s[i:i + 2]
            i += 2
            continue
        if c == delim:
            return bytes(out), i + 1
        if c == 10 and delim != 10:
            raise _ScriptError(unterminated, i)
        out.append(c)
        i += 1
        if c == 91 and regex:  # [
            i = _bracket(s, i, out)
            if i < 0:
                raise _ScriptError(unterminated, -i - 1)
    raise _ScriptError(unterminated, n)


def _bracket(s: bytes, i: int, out: bytearray) -> int:
    """The rest of a bracket expression whose ``[`` is before ``i``, copied to ``out``: the
    index after its ``]``, or ``-1 - where`` when a newline or the end comes first. A ``]``
    first (after ``^``) is a member; ``[:`` ``[.`` ``[=`` open a class that only the same
    character and ``]`` close."""
    n = len(s)
    for lead in (94, 93):  # ^ then ]
        if i < n and s[i] == lead:
            out.append(lead)
            i += 1
    state = 0  # 0 plain, 1 after [, 2 inside [: :] (or . =), 3 after its closing : . =
    opened = 0
    while i < n:
        c = s[i]
        if c == 10:
            return -1 - i
        out.append(c)
        i += 1
        if c in (46, 58, 61):  # . : =
            if state == 1:
                opened, state = c, 2
                continue
            if state == 2 and c == opened:
                state = 3
                continue
        elif c == 91:  # [
            if state == 0:
                state = 1
            continue
        elif c == 93:  # ]
            if state in (0, 1):
                return i
            if state == 3:
                state = 0
        state &= ~1
    return -1 - n


#: the names of GNU sed 4.9's commands, and what it reads as part of an address (`~`, `+`,
#: `!`: "missing command"); any other printable character is "unknown command" (measured)
_COMMANDS = frozenset(c.encode("ascii") for c in "{}=#:abcdDeFgGhHilLnNpPqQrRstTvwWxyz~+!")


def _blanks(script: bytes, i: int) -> int:
    while i < len(script) and script[i] in (32, 9):
        i += 1
    return i


def _number(script: bytes, i: int) -> tuple[int, int]:
    """The decimal number after the blanks at ``i`` (0 when no digit follows: GNU's
    in_integer), and the index after it."""
    i = j = _blanks(script, i)
    while j < len(script) and 48 <= script[j] <= 57:
        j += 1
    if j - i > 18:
        raise OptionUnknown("sed: a number in an address beyond 18 digits")
    return int(script[i:j] or b"0"), j


def _address(script: bytes, i: int, extended: bool):
    """The address at ``i``, or None when none starts there; and the index after it. A
    line number (``("line", N)``), ``$`` (``("last", None)``), ``/re/`` or ``\\cREc`` with I
    after it (``("re", regex)``), and GNU's forms: ``first~step`` (``("step", (first,
    step))``, a line number when the step is 0), ``+N`` and ``~N`` (``("plus", N)``,
    ``("mult", N)``: the end of a range N lines on, or at the next multiple of N), and ``+0``
    or ``~0``, no address at all, which every line matches (``("any", None)``)."""
    n = len(script)
    c = script[i] if i < n else -1
    if 48 <= c <= 57:
        first, j = _number(script, i)
        k = _blanks(script, j)
        if k < n and script[k] == 126:  # ~
            step, j = _number(script, k + 1)
            if step:
                return ("step", (first, step)), j
        return ("line", first), j
    if c == 36:  # $
        return ("last", None), i + 1
    if c in (43, 126):  # + ~
        step, j = _number(script, i + 1)
        if not step:
            return ("any", None), j
        return ("plus" if c == 43 else "mult", step), j
    if c not in (47, 92):  # / \
        return None, i
    if c == 92:
        i += 1
        if i >= n:
            raise _ScriptError("unterminated address regex", n)
        if script[i] in (10, 92):
            raise OptionUnknown("sed: a newline or backslash as an address's delimiter")
    body, i = _read_delimited(script, i + 1, script[i], True, "unterminated address regex")
    icase = False
    while True:
        j = _blanks(script, i)
        if j < n and script[j] == 73:  # I
            icase, i = True, j + 1
        elif j < n and script[j] == 77:  # M
            raise OptionUnknown("sed: the M modifier of an address")
        else:
            break
    if body == b"":
        if icase:  # (sed has read up to the character after the modifiers and their blanks)
            raise _ScriptError(_EMPTY_MODIFIED, _blanks(script, i))
        return ("re", None), i
    confusing: list = []
    address = ("re", _regex(body, extended, icase, confusing))
    if confusing:
        raise ConfusingBracket()
    return address, i


def _label(script: bytes, i: int, stops: bytes) -> tuple:
    """``(label, end)``: the label of :, b, t or T after the blanks at ``i``, up to a byte of
    ``stops`` or the script's end."""
    j = end = _blanks(script, i)
    while end < len(script) and script[end] not in stops:
        end += 1
    return script[j:end], end


def _parse(script: bytes, extended: bool) -> list:
    cmds = []
    blocks = []  # the indexes of the { still open
    i = 0
    n = len(script)
    while i < n:
        c = script[i:i + 1]
        if c in (b" ", b"\t", b"\n", b";"):
            i += 1
            continue
        cmd = _Cmd()
        cmd.addr, i = _address(script, i, extended)
        if cmd.addr is not None:
            if cmd.addr[0] in ("plus", "mult"):
                raise _ScriptError("invalid usage of +N or ~N as first address", i)
            i = _blanks(script, i)
            if i < n and script[i] == 44:  # ,
                cmd.addr2, j = _address(script, _blanks(script, i + 1), extended)
                if cmd.addr2 is None:  # sed has read the character that is no address
                    raise _ScriptError("unexpected `,'", min(j + 1, n))
                i = _blanks(script, j)
            # checked on the character after the addresses; 0,/re/ is a range open before line 1
            if cmd.addr == ("line", 0) and (cmd.addr2 is None or cmd.addr2[0] != "re"):
                if cmd.addr2 is None and script[i:i + 1] == b"r":
                    raise OptionUnknown("sed: 0r")
                raise _ScriptError("invalid usage of line address 0", min(i + 1, n))
        if i < n and script[i:i + 1] == b"!":
            cmd.negate = True
            i = _blanks(script, i + 1)
        if i >= n:
            raise _ScriptError("missing command", n)
        if cmd.addr is not None and script[i] == 35:  # #
            raise _ScriptError("comments don't accept any addresses", i + 1)
        name = script[i:i + 1]
        i += 1
        cmd.name = name.decode("latin-1")
        if name == b"{":
            blocks.append(len(cmds))
            cmds.append(cmd)
            continue  # its commands may follow at once
        if name == b"}":
            if cmd.addr is not None or cmd.negate:
                raise OptionUnknown("sed: an address before }")
            if not blocks:
                raise _ScriptError("unexpected `}'", i)
            cmds[blocks.pop()].jump = len(cmds) + 1
        elif name == b"s":
            if i >= n:
                raise _ScriptError("unterminated `s' command", i)
            if script[i] in (10, 92):
                raise OptionUnknown("sed: a newline or backslash as the delimiter of s")
            delim = script[i]
            pat, i = _read_delimited(script, i + 1, delim, True)
            repl, i = _read_delimited(script, i, delim)
            icase = False
            numbered = False
            while i < n and script[i:i + 1] not in (b";", b"\n", b"}", b"#"):
                f = script[i:i + 1]
                if f == b"g":
                    if cmd.glob:
                        raise _ScriptError("multiple `g' options to `s' command", i + 1)
                    cmd.glob = True
                elif f == b"p":
                    if cmd.print_:
                        raise _ScriptError("multiple `p' options to `s' command", i + 1)
                    cmd.print_ += 1
                elif f in (b"i", b"I"):
                    icase = True
                elif f.isdigit():
                    if numbered:
                        raise OptionUnknown("sed: two number options to s")
                    j = i
                    while j < n and script[j:j + 1].isdigit():
                        j += 1
                    cmd.nth, numbered = int(script[i:j]), True
                    if cmd.nth == 0:
                        raise _ScriptError("number option to `s' command may not be zero", j)
                    i = j
                    continue
                elif f in (b" ", b"\t"):
                    pass
                elif f in (b"e", b"m", b"M", b"w", b"r", b"W", b"R"):
                    raise OptionUnknown(f"sed: s flag {f.decode('latin-1')!r}")
                else:
                    raise _ScriptError("unknown option to `s'", i + 1)
                i += 1
            confusing: list = []
            if pat == b"":
                # the last regex sed ran stands for it (cmd.regex None); sed checks no reference
                if icase:
                    raise _ScriptError(_EMPTY_MODIFIED, min(i + 1, n))
                cmd.repl = _replacement(repl, 9, min(i + 1, n))
                if any(type(part) is int and part for part in cmd.repl):
                    raise OptionUnknown("sed: a group reference after an empty regex (the groups of the last one run)")
            else:
                cmd.regex = _regex(pat, extended, icase, confusing)
                # sed has read the character that ends the command when it checks the references,
                # before dfa reads the regex
                cmd.repl = _replacement(repl, cmd.regex.groups, min(i + 1, n))
            if confusing:
                raise ConfusingBracket()
        elif name in (b"p", b"d", b"=", b"n", b"N", b"P", b"D", b"h", b"H", b"g", b"G", b"x"):
            pass
        elif name == b":":
            if cmd.addr is not None or cmd.negate:
                raise OptionUnknown("sed: an address before a label")
            label, end = _label(script, i, b";\n")
            if not label:
                raise _ScriptError('":" lacks a label', i)
            if any(c in b" \t}#" for c in label):
                raise OptionUnknown("sed: a label with blanks, } or #")
            cmd.text, i = label, end
        elif name in (b"b", b"t", b"T"):
            cmd.text, i = _label(script, i, b";\n \t}")
        elif name in (b"q", b"Q"):
            if cmd.addr2 is not None:
                raise _ScriptError("command only uses one address", i)
            j = i
            while j < n and script[j:j + 1] in (b" ", b"\t"):
                j += 1
            k = j
            while k < n and script[k:k + 1].isdigit():
                k += 1
            if k > j:
                cmd.exit_code = int(script[j:k])
                i = k
        elif name == b"y":
            if i >= n:
                raise _ScriptError("unterminated `y' command", i)
            delim = script[i]
            if delim in (10, 92):
                raise OptionUnknown("sed: a newline or backslash as the delimiter of y")
            source, i = _read_delimited(script, i + 1, delim, False, "unterminated `y' command")
            target, i = _read_delimited(script, i, delim, False, "unterminated `y' command")
            cmd.text = _transliteration(_y_chars(source), _y_chars(target), i)
        elif name in (b"a", b"i", b"c"):
            cmd.text, i = _text(script, i)
            cmds.append(cmd)
            continue  # the text ran to the end of its line
        elif name == b"#":
            while i < n and script[i] != 10:
                i += 1
            continue
        elif name not in _COMMANDS and 32 < name[0] < 127:
            # GNU sed reads the whole script before any input: nothing runs, no file changes
            raise _ScriptError(f"unknown command: `{name.decode('ascii')}'", i)
        else:
            raise OptionUnknown(f"sed command {name.decode('latin-1')!r}")
        while i < n and script[i:i + 1] in (b" ", b"\t"):
            i += 1
        if i < n and script[i:i + 1] not in (b";", b"\n", b"#", b"}"):
            raise _ScriptError("extra characters after command", i + 1)
        cmds.append(cmd)
    if blocks:
        raise _ScriptError("unmatched `{'", 0)
    labels: dict = {}
    for at, cmd in enumerate(cmds):
        if cmd.name == ":":
            if cmd.text in labels:
                raise OptionUnknown("sed: a label defined twice")
            labels[cmd.text] = at
    for cmd in cmds:
        if cmd.name in ("b", "t", "T"):
            if cmd.text and cmd.text not in labels:
                raise OptionUnknown("sed: a branch to a label not defined (sed's error)")
            cmd.jump = labels[cmd.text] if cmd.text else len(cmds)  # no label: the end of the script
    _link_empty_regexes(cmds)
    return cmds


_EMPTY_MODIFIED = "cannot specify modifiers on empty regexp"


class _NoPrevious(Exception):
    """An empty regex run before any other: sed ends there, as GNU's ``bad_prog`` does."""


class _LastRegex:
    """GNU sed's ``regex_last``: the regex it ran last, for which an empty one (``//``,
    ``s//X/``) stands when it runs. It is set as each address is tested and each s command
    runs, so which one it is depends on the lines read."""

    __slots__ = ("regex",)

    def __init__(self):
        self.regex = None


class _Tracked:
    """A regex of a script that holds an empty one: running it makes it the last."""

    __slots__ = ("regex", "last", "groups")

    def __init__(self, regex, last: _LastRegex):
        self.regex, self.last, self.groups = regex, last, regex.groups

    def search(self, line: bytes, pos: int = 0):
        self.last.regex = self.regex
        return self.regex.search(line, pos)


class _Reused:
    """An empty regex: the last one run, or the end of sed when none has run yet."""

    __slots__ = ("last",)

    def __init__(self, last: _LastRegex):
        self.last = last

    def search(self, line: bytes, pos: int = 0):
        if self.last.regex is None:
            raise _NoPrevious()
        return self.last.regex.search(line, pos)


def _link_empty_regexes(cmds: list) -> None:
    """Where the script holds an empty regex, each regex tells one shared _LastRegex when it
    runs, and each empty one asks it (a script without one runs its regexes as they are)."""
    empty = any(c.name == "s" and c.regex is None for c in cmds) or \
        any(a is not None and a[0] == "re" and a[1] is None for c in cmds for a in (c.addr, c.addr2))
    if not empty:
        return
    last = _LastRegex()

    def linked(regex):
        return _Reused(last) if regex is None else _Tracked(regex, last)

    for cmd in cmds:
        if cmd.name == "s":
            cmd.regex = linked(cmd.regex)
        if cmd.addr is not None and cmd.addr[0] == "re":
            cmd.addr = ("re", linked(cmd.addr[1]))
        if cmd.addr2 is not None and cmd.addr2[0] == "re":
            cmd.addr2 = ("re", linked(cmd.addr2[1]))


def may_stop_early(script: str) -> bool:
    """Whether sed running ``script`` may end before it has read all its input: the script
    quits (q, Q), holds an empty regex (which ends sed when it runs before any other), or is
    one the model does not read or sed rejects before reading."""
    try:
        cmds = _parse(script.encode("utf-8", "surrogateescape"), False)
    except (_ScriptError, ConfusingBracket, OptionUnknown):
        return True
    return any(c.name in ("q", "Q") or type(c.regex) is _Reused or
               any(a is not None and a[0] == "re" and type(a[1]) is _Reused for a in (c.addr, c.addr2))
               for c in cmds)


def _y_chars(text: bytes) -> bytes:
    """One string of ``y`` (its delimiters already unescaped): ``\\\\`` a backslash, ``\\n`` a
    newline, ``\\t`` a tab; any other escape, and bytes past ASCII (a locale's characters),
    are not modelled."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c > 127:
            raise OptionUnknown("sed: y with bytes past ASCII")
        if c == 92:
            d = text[i + 1:i + 2]
            if d not in (b"\\", b"n", b"t"):
                raise OptionUnknown(f"sed: the escape \\{d.decode('latin-1')} in y")
            out += {b"\\": b"\\", b"n": b"\n", b"t": b"\t"}[d]
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def _transliteration(source: bytes, target: bytes, end: int) -> bytes:
    """The 256-byte table of ``y/source/target/`` (its command ending at ``end``)."""
    if len(source) != len(target):
        raise _ScriptError("strings for `y' command are different lengths", end)
    if len(set(source)) != len(source):
        raise OptionUnknown("sed: y mapping a character twice")
    return bytes.maketrans(source, target)


# the escapes of a, i and c's text that stand for a control character (\c \d \o \x: not modelled);
# a backslash before any other character is that character
_TEXT_CONTROLS = {97: b"\a", 102: b"\f", 110: b"\n", 114: b"\r", 116: b"\t", 118: b"\v"}


def _text(script: bytes, i: int) -> tuple:
    """``(text, end)``: the text of a, i or c whose letter ends before ``i``, as GNU sed 4.9
    reads it: after blanks, either a backslash and a newline then lines (kept as written),
    or the rest of this line (from its first non-blank, or all of it after a backslash);
    a backslash-newline goes on to the next line. The text ends with a newline, unless
    there is none at all (``a\\`` ending the script)."""
    n = len(script)
    j = _blanks(script, i)
    if j >= n:
        raise _ScriptError("expected \\ after `a', `c' or `i'", j)
    if script[j] == 10:
        raise OptionUnknown("sed: a, i or c with no text on its line")
    if script[j] == 92:
        j += 1
        if j >= n:
            return b"", n
        if script[j] == 10:
            j += 1
    out = bytearray()
    while j < n and script[j] != 10:
        c = script[j]
        if c == 92:
            if j + 1 >= n:
                # sed then keeps the text's escapes as written (measured): not modelled
                raise OptionUnknown("sed: a text ending in a backslash at the end of the script")
            d = script[j + 1]
            if d in b"cdox":
                raise OptionUnknown(f"sed: the escape \\{chr(d)} in a text")
            out += b"\n" if d == 10 else _TEXT_CONTROLS.get(d, bytes([d]))
            j += 2
            continue
        out.append(c)
        j += 1
    return bytes(out) + b"\n", min(j + 1, n)


# what GNU sed 4.9 makes of a backslash and a letter in a regex outside brackets, where
# glibc gives the letter no meaning: sed turns \a \f \r \v into the control character;
# the other letters match themselves, but not under I (glibc then matches neither case of
# an escaped lower-case letter), and \c \d \o \x take what follows (not modelled)
_REGEX_CONTROLS = {"a": "\a", "f": "\f", "r": "\r", "v": "\v"}
_REGEX_LETTERS = {c: c for c in "eghijklmpquyzACDEFGHIJKLMNOPQRTUVXYZ"}
_REGEX_ESCAPES = {**_REGEX_CONTROLS, **_REGEX_LETTERS}
_REGEX_ESCAPES_ICASE = {**_REGEX_CONTROLS, **{c: c for c in _REGEX_LETTERS if c.isupper()}}


#: what GNU sed's ``\xHH`` may produce for the model: characters that mean nothing special in a
#: regex or a replacement (it reads one or two hex digits; `\x2e`, `\x26`… are not followed)
_PLAIN_BY_NUMBER = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '\"-_,:;=@%#!~/<>`")
_HEX = frozenset(b"0123456789abcdefABCDEF")


def _by_number(text: bytes, i: int) -> tuple:
    """GNU sed's ``\\xHH`` at ``text[i]`` (the backslash): (the character, the index after it);
    OptionUnknown where it makes one that is not plain (_PLAIN_BY_NUMBER)."""
    end = i + 2
    while end < len(text) and end < i + 4 and text[end] in _HEX:
        end += 1
    value = int(text[i + 2:end], 16)
    if value not in _PLAIN_BY_NUMBER:
        raise OptionUnknown(f"sed: the escape {text[i:end].decode('latin-1')}, a character with a meaning there")
    return bytes([value]), end


def _numbered(body: bytes) -> bytes:
    """A regex with its ``\\xHH`` escapes turned into the plain characters they stand for (sed
    does so before the regex is compiled); one inside brackets is not followed."""
    if b"\\x" not in body:
        return body
    out, i = bytearray(), 0
    while i < len(body):
        c = body[i]
        if c == 92 and i + 1 < len(body):
            if body[i + 1] == 120 and i + 2 < len(body) and body[i + 2] in _HEX:  # \x and a hex digit
                if b"[" in body:
                    raise OptionUnknown("sed: \\x in a regex with brackets")
                char, i = _by_number(body, i)
                out += char
                continue
            out += body[i:i + 2]
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def _regex(body: bytes, extended: bool, icase: bool, confusing: list):
    """The compiled regex of a body that is not empty; what dfa refuses is appended to
    ``confusing`` (see compile_posix)."""
    body = _numbered(body)
    try:
        return compile_posix(body, extended, icase, escapes=_REGEX_ESCAPES_ICASE if icase else _REGEX_ESCAPES,
                             confusing=confusing)
    except Untranslatable as exc:
        raise OptionUnknown(f"sed regex {body!r}: {exc}") from None


# escapes of GNU sed's replacement that stand for a control character; \\d, \\o and \\x take a
# number after them, \\c a character, \\l \\u \\L \\U \\E change case: any other letter is itself
_CONTROL = {"a": b"\a", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t", "v": b"\v"}


def _replacement(repl: bytes, groups: int, end: int) -> list:
    """A list of bytes pieces and group numbers (0 is the whole match); ``end`` is where the
    s command ends in the script, where sed reports a reference to a missing group."""
    parts: list = []
    i = 0
    while i < len(repl):
        c = repl[i]
        if c == 38:  # &
            parts.append(0)
            i += 1
            continue
        if c == 92 and i + 1 < len(repl):
            d = chr(repl[i + 1])
            i += 2
            if d.isdigit():
                if int(d) > groups:
                    raise _ScriptError(f"invalid reference \\{d} on `s' command's RHS", end)
                parts.append(int(d))
            elif d in _CONTROL:
                parts.append(_CONTROL[d])
            elif d in "LUluE":
                raise OptionUnknown(f"sed: case conversion \\{d} in a replacement")
            elif d == "x" and i < len(repl) and repl[i] in _HEX:
                char, i = _by_number(repl, i - 2)
                parts.append(char)
            elif d == "c" or d in "dox" and i < len(repl) and chr(repl[i]) in "0123456789abcdefABCDEF":
                raise OptionUnknown(f"sed: escape \\{d} in a replacement")
            else:
                parts.append(d.encode("latin-1"))
            continue
        parts.append(bytes([c]))
        i += 1
    return parts


def _expand(parts: list, m) -> bytes:
    return b"".join(p if isinstance(p, bytes) else (m.group(p) or b"") for p in parts)


def _substitute(cmd: _Cmd, line: bytes) -> tuple[bytes, bool]:
    """GNU's loop: an empty match right after a previous match is skipped."""
    out = bytearray()
    pos = 0
    count = 0
    changed = False
    prev_end = -1
    search = 0
    while search <= len(line):
        m = cmd.regex.search(line, search)
        if not m:
            break
        if m.start() == m.end() and m.start() == prev_end:
            if m.start() >= len(line):
                break
            search = m.start() + 1
            continue
        count += 1
        if count >= cmd.nth:
            out += line[pos:m.start()] + _expand(cmd.repl, m)
            pos = m.end()
            changed = True
            if not cmd.glob:
                break
        prev_end = m.end()
        search = m.end() if m.end() > m.start() else m.end() + 1
    out += line[pos:]
    return bytes(out), changed


def _hit(addr, line: bytes, number: int, last: bool) -> bool:
    kind = addr[0]
    if kind == "line":
        return number == addr[1]
    if kind == "last":
        return last
    if kind == "step":
        first, step = addr[1]
        return number >= first and (number - first) % step == 0
    if kind == "any":
        return True
    return addr[1].search(line) is not None


def _matches(cmd: _Cmd, line: bytes, number: int, last: bool) -> bool:
    if cmd.addr is None:
        hit = True
    elif cmd.addr2 is None:
        hit = _hit(cmd.addr, line, number, last)
    else:
        hit = _in_range(cmd, line, number, last)
    return hit != cmd.negate


_OUTSIDE, _INSIDE, _CLOSED = 0, 1, 2  # a range's states; a closed range of a line number stays closed


def _in_range(cmd: _Cmd, line: bytes, number: int, last: bool) -> bool:
    """GNU sed's range, evaluated each time the command is reached: a line number as the
    first address opens it on any line at or after that number (a line skipped by d still
    opens it), a regex on a line it matches; a regex as the end is checked from the next
    line on, a line number or ``$`` on this line too; ``+N`` and ``~N`` fix the range's last
    line where it opens, and it ends at the first line reached at or past it."""
    first, end = cmd.addr, cmd.addr2
    if cmd.state != _INSIDE:
        if first[0] == "line":
            if cmd.state == _CLOSED or number < first[1]:
                return False
        elif not _hit(first, line, number, last):
            return False
        cmd.state = _INSIDE
        if end[0] == "re":
            return True
        if end[0] == "line":
            if number >= end[1]:
                cmd.state = _CLOSED
            return number <= end[1] or _hit(first, line, number, last)
        if end[0] == "plus":
            cmd.until = number + end[1]
            return True
        if end[0] == "mult":
            cmd.until = number + end[1] - number % end[1]
            return True
    if end[0] == "line":
        if number >= end[1]:
            cmd.state = _CLOSED
        return number <= end[1]
    if end[0] in ("plus", "mult"):
        if cmd.until <= number:
            cmd.state = _CLOSED
        return True
    if _hit(end, line, number, last):
        cmd.state = _CLOSED
    return True


def _run(cmds: list, data: bytes, quiet: bool, out: bytearray, number: int,
         last_file: bool, separate: bool = False, unchomped=frozenset()) -> tuple[int, int | None]:
    """Run over one input; returns (lines read so far, exit status if q ended the run).
    ``separate``: this input is one of -s or -i's, read on its own, and not the last;
    ``unchomped``: the indexes of lines that lacked their newline in their file."""
    lines = data.split(b"\n")
    missing_newline = lines[-1] != b""

    def emit(text: bytes, nl: bytes) -> None:
        # GNU sed: output after a line that lacked its newline gets one first
        if out.endswith(_MISSING):
            del out[-len(_MISSING):]
            out.extend(b"\n")
        out.extend(text + (nl or _MISSING))

    def put(text: bytes) -> None:
        """a, i or c's text, which sed writes as it is; a line before it lacking its newline
        gets one (for a and i even when the text is empty, measured)."""
        if out.endswith(_MISSING):
            del out[-len(_MISSING):]
            out.extend(b"\n")
        out.extend(text)

    if not missing_newline:
        lines.pop()
    if separate and any(cmd.name in "nNDhHgGx" for cmd in cmds):
        # the hold space and reading on go across -s and -i's inputs in ways not modelled
        raise OptionUnknown("sed: n N D or the hold space with -s or -i over several inputs")
    for cmd in cmds:
        # each input read on its own (-s, -i) starts outside every range, and inside 0,/re/
        cmd.state = _INSIDE if cmd.addr == ("line", 0) else _OUTSIDE
    hold = b""
    line = b""
    # whether the pattern and hold spaces end in a newline when written: a line read keeps
    # the newline it had; h H g G x carry it with the text (GNU's chomped, measured)
    chomped = held_chomped = True
    cur = -1  # the index of the line read last: whether it is the last
    k = 0  # the next line to read
    steps = 0
    restart = False  # D: the next cycle starts with what is left, reading nothing
    while True:
        if not restart:
            if k >= len(lines):
                break
            line, cur, k = lines[k], k, k + 1
            chomped = not (cur == len(lines) - 1 and missing_newline or cur in unchomped)
            number += 1
            replaced = False  # since a line was read or t took its branch
        restart = False
        deleted = False
        appended = []  # a's texts, written when the cycle ends or the next line is read (not after Q)
        at = 0
        while at < len(cmds):
            steps += 1
            if steps > _STEP_LIMIT:
                raise OptionUnknown("sed: a script that runs beyond the step budget")
            if len(line) + len(hold) + len(out) > _SPACE_LIMIT:
                raise OptionUnknown("sed: pattern, hold space or output beyond the byte budget")
            cmd = cmds[at]
            at += 1
            newline = b"\n" if chomped else b""
            if not _matches(cmd, line, number, last_file and cur == len(lines) - 1):
                if cmd.name == "{":
                    at = cmd.jump  # past its }
                continue
            name = cmd.name
            if name in ("{", "}", ":"):
                continue
            if name == "y":
                line = line.translate(cmd.text)
            elif name == "a":
                appended.append(cmd.text)
            elif name == "i":
                put(cmd.text)
            elif name == "=":
                put(b"%d\n" % number)
            elif name == "c":
                # within a range, the text is written once, where the range ends
                if (cmd.addr2 is None or cmd.state != _INSIDE) and cmd.text:
                    put(cmd.text)
                deleted = True
                break
            elif name == "s":
                line, changed = _substitute(cmd, line)
                if changed:
                    replaced = True
                    for _ in range(cmd.print_):
                        emit(line, newline)
            elif name == "p":
                emit(line, newline)
            elif name == "P":
                end = line.find(b"\n")
                emit(line, newline) if end < 0 else emit(line[:end], b"\n")
            elif name == "d":
                deleted = True
                break
            elif name == "D":
                end = line.find(b"\n")
                if end < 0:
                    deleted = True
                    break
                if appended:
                    raise OptionUnknown("sed: D with a's text waiting")
                line, restart = line[end + 1:], True
                break
            elif name in ("n", "N"):
                if k >= len(lines):
                    if separate:
                        raise OptionUnknown(f"sed: {name} at the end of an input of -s or -i")
                    # GNU sed: no next line, so the pattern space is written (unless -n) and sed ends
                    if not quiet:
                        emit(line, newline)
                    for text in appended:
                        put(text)
                    return number, None
                if name == "n" and not quiet:
                    emit(line, newline)
                for text in appended:  # written when the next line is read
                    put(text)
                appended = []
                line = (line + b"\n" + lines[k]) if name == "N" else lines[k]
                cur, k = k, k + 1
                chomped = not (cur == len(lines) - 1 and missing_newline or cur in unchomped)
                number += 1
                replaced = False
            elif name == "h":
                hold, held_chomped = line, chomped
            elif name == "H":
                hold, held_chomped = hold + b"\n" + line, chomped
            elif name == "g":
                line, chomped = hold, held_chomped
            elif name == "G":
                line, chomped = line + b"\n" + hold, held_chomped
            elif name == "x":
                line, hold, chomped, held_chomped = hold, line, held_chomped, chomped
            elif name in ("b", "t", "T"):
                if name == "b" or (name == "t") == replaced:
                    at = cmd.jump
                if name != "b":
                    replaced = False
            elif name in ("q", "Q"):
                if name == "q":
                    # q ends the output with a newline, even after a last line that had none
                    if out.endswith(_MISSING):
                        del out[-len(_MISSING):]
                        out.extend(b"\n")
                    if not quiet:
                        emit(line, b"\n")
                    for text in appended:
                        put(text)
                return number, cmd.exit_code
        if restart:
            continue
        if not deleted and not quiet:
            emit(line, b"\n" if chomped else b"")
        for text in appended:
            put(text)
    return number, None


_STEP_LIMIT = 200_000  # commands run over one input: a branch may loop forever
_SPACE_LIMIT = 16 << 20  # bytes in the pattern and hold spaces and the output: G, H and D may grow them forever


def _write_in_place(files, name: str, data: bytes, suffix: str) -> None:
    """sed -i's result: with a suffix the original file is renamed to NAME+SUFFIX, and the
    new one takes its name and its mode."""
    if not suffix:
        files.replace_bytes(name, data)
        return
    backup = name + suffix
    if files.is_dir(backup):
        raise OptionUnknown("sed -i with a backup name that is a directory")
    mode = files.mode(name)
    files.rename(name, backup)
    files.write_bytes(name, data)
    files.chmod(name, mode)


def _no_previous(out: Output, pieces: list) -> CommandResult:
    """sed's end at an empty regex run before any other: the message names the last
    expression, at char 0, whichever one holds it (measured with sed 4.9)."""
    out.error(f"-e expression #{len(pieces)}, char 0: no previous regular expression", 1)
    return out.result()


@guarded
def sed(ctx: CommandContext) -> CommandResult:
    # sed 4.9's short options (its getopt string "bsnrzuEe:f:l:i::V:"): one it does not have
    # ends it on its usage error, unless a value before it fails first (sed compiles each -e
    # and reads each -f while it scans)
    refused = refuse_invalid_option(ctx.argv, "bsnrzuE", "eflV", optional="i", acting="eflV", stop_at_long=True)
    if refused is not None:
        return refused
    opts, operands = scan_options(
        ctx.argv, "nErs", with_arg="e", optional="i",
        longs={"quiet": ("n", False), "silent": ("n", False), "regexp-extended": ("E", False),
               "expression": ("e", True), "separate": ("s", False), "in-place": ("i", "optional")})
    # the backup suffix: the value of the last -i (`-i.bak`, `-ni~`, `--in-place=.orig`), none
    # when that one has none (its value is never the next word)
    suffix = next((value or "" for o, value in reversed(opts) if o == "i"), "")
    if "*" in suffix or "/" in suffix:
        raise OptionUnknown("sed -i with a backup name made from * or a directory")
    quiet = any(o == "n" for o, _ in opts)
    extended = any(o in "Er" for o, _ in opts)
    in_place = any(o == "i" for o, _ in opts)
    separate = in_place or any(o == "s" for o, _ in opts)
    pieces = [v.encode("utf-8", "surrogateescape") for o, v in opts if o == "e"]
    out = Output("sed")
    if not pieces:
        if not operands:
            # the usage line, then the whole help text, which the model does not spell
            out.err += (b"Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n")
            out.status = 1
            found = out.result()
            found.stderr_unknown = "the rest of sed's help text"
            return found
        pieces = [operands.pop(0).encode("utf-8", "surrogateescape")]
    try:
        cmds = _parse(b"\n".join(pieces), extended)
    except _ScriptError as exc:
        number, start = 1, 0
        # the newline between two -e pieces is no character of either: the first ends before it
        while number < len(pieces) and exc.at > start + len(pieces[number - 1]) + 1:
            start += len(pieces[number - 1]) + 1
            number += 1
        out.error(f"-e expression #{number}, char {min(exc.at - start, len(pieces[number - 1]))}: {exc}", 1)
        return out.result()
    except ConfusingBracket:
        out.error(ConfusingBracket.MESSAGE, 4)  # dfa's error ends sed as a panic does
        return out.result()
    if in_place and not operands:
        out.error("no input files", 4)
        return out.result()
    if in_place and any(c.name in ("q", "Q") for c in cmds):
        raise OptionUnknown("sed -i with q")
    files = ctx.files
    names = operands or ["-"]
    number = 0
    status = 0
    # sed reads all inputs as one stream unless -s/-i; "last line" is the stream's last.
    readable = []
    stop = None  # under -i, the name that is no regular file, where sed stops
    # sed names a file in its messages as it is, unquoted (measured: a b, it's, a newline)
    for name in names:
        if name == "-" and not in_place:  # under -i, - names a file like any other (measured)
            # the first - reads stdin to its end: another finds nothing
            readable.append((name, b"" if any(n == "-" for n, _ in readable) else ctx.stdin))
            continue
        if in_place and files.is_symlink(name):
            raise OptionUnknown("sed -i on a symlink (GNU replaces the link with a file)")
        try:
            if in_place and files.exists(name) and not files.is_file(name):
                # a folder, /dev/null: sed stops there, the files before it edited (measured)
                stop = name
                break
            if files.is_dir(name):
                if readable or status:
                    raise OptionUnknown("sed: a directory after other inputs (partial output)")
                out.error(f"read error on {name}: Is a directory", 4)
                return out.result()
            if files.is_file(name) and not files.mode(name) & 0o400:
                # the reply never runs as root: sed cannot open a file its owner may not read
                raise VfsError("EACCES", name)
            readable.append((name, files.read_bytes(name)))  # (/dev/null reads as empty)
        except VfsError as exc:
            out.error(f"can't read {name}: {exc.strerror}", 2)
            status = 2
    if not separate:
        # one stream: a file without a final newline still separates from the next
        data = b""
        unchomped = set()  # the lines that ended a file without its newline
        for k, (_, content) in enumerate(readable):
            if data and not data.endswith(b"\n"):
                unchomped.add(data.count(b"\n"))
                data += b"\n"
            data += content
        buf = bytearray()
        try:
            number, code = _run(cmds, data, quiet, buf, 0, True, unchomped=unchomped)
        except _NoPrevious:
            out.out += _finish(buf)  # (what it wrote before is flushed as it exits)
            return _no_previous(out, pieces)
        out.out += _finish(buf)
        out.status = status if code is None else code
        return out.result()
    if in_place and suffix and {os.path.normpath(name + suffix) for name, _ in readable} & \
            {os.path.normpath(name) for name in names}:
        raise OptionUnknown("sed -i whose backup of one input is another")
    shared = bytearray()  # -s: one output stream, so a missing newline carries over
    for k, (name, content) in enumerate(readable):
        if in_place:
            # each file is read when its turn comes: one named twice is edited twice (measured)
            content = files.read_bytes(name)
        buf = bytearray() if in_place else shared
        try:
            _, code = _run(cmds, content, quiet, buf, 0, True, separate=k < len(readable) - 1)
        except _NoPrevious:
            # -i: the file being edited keeps its bytes (sed removes its temporary file);
            # those edited before stay edited
            out.out += _finish(shared)
            return _no_previous(out, pieces)
        if in_place:
            _write_in_place(files, name, _finish(buf), suffix)
        if code is not None:
            out.out += _finish(shared)
            out.status = code
            return out.result()
    out.out += _finish(shared)
    out.status = status
    if stop is not None:
        out.error(f"couldn't edit {stop}: not a regular file", 4)
    return out.result()
