"""perl 5.36 as replies use it to edit files: ``perl -p[i[SUFFIX]] -e 's/PAT/REPL/FLAGS; …' FILE…``.

Only a program of substitutions is followed, each a regex Python's ``re`` matches as Perl
does: literal text, ``. ^ $``, the quantifiers (greedy and lazy), groups, alternation,
bracket expressions, ``\\d \\w \\s \\b`` and their negations, ``\\Q…\\E`` over printable
text, over bytes (Perl's rules for a string that is not UTF-8 are ASCII's, as Python's for
bytes). Under g a match of the empty string, after which the two engines' rules for the next
match differ, is unknown. Anything Perl would interpolate (``$x``, ``@x``), other escapes,
modifiers other than g and i, and every other switch and statement are unknown: a partial
perl would give plausible, wrong files. Of perl's own syntax errors, an s/// the program ends
inside is followed (status 255, nothing read or edited), and so is a letter after s/// that
is no modifier (status 255, its messages not followed); the others are unknown.
"""

from __future__ import annotations

import re

from .common import OptionUnknown, Output, guarded
from .context import CommandContext, CommandResult
from .vfs import VfsError

__all__ = ["perl"]

# delimiters of s/// followed: none quotes (an apostrophe would stop interpolation), none
# brackets; an escaped one is that character, in the pattern too, where `\|` then stands for
# alternation as `|` does (measured: s|a\|b|X|g makes a|b X|X)
_DELIMITERS = b"/#,!:%|"
# bracketing delimiters: s{…}{…}, s(…)(…), s[…][…], s<…><…>, blanks between the two parts; inside,
# brackets of the same kind nest and escaped ones keep their backslash
_BRACKETS = {123: 125, 40: 41, 91: 93, 60: 62}
# escapes whose meaning Python's re shares with Perl's
_CLASS_ESCAPES = b"dDwWsS"
_PLAIN_ESCAPES = {ord("t"): b"\\t", ord("n"): b"\\n", ord("r"): b"\\r", ord("f"): b"\\f"}
# what may follow @ in a replacement for the @ to stay itself (measured; @- @+ @@ interpolate)
_AT_LITERAL = frozenset(b" ./;!%*&#")
# a group in a replacement: $1 to $9, ${1} to ${9}, $&
_GROUP = re.compile(rb"\$(?:([1-9])(?![0-9])|\{([1-9])\}|(&))")
# the letters that mean something after a backslash in perl's double-quoted strings
_STRING_ESCAPES = frozenset(b"abcefnortuxlNEFLQU")
# after \x: {HEX} (group 1 its digits, none is 0), or up to two hex digits (group 2, none is 0)
_HEX_ESCAPE = re.compile(rb"\{([0-9A-Fa-f]*)\}|([0-9A-Fa-f]{0,2})")
_QUANTIFIER = re.compile(rb"\{(\d+)(,(\d*))?\}")


def _switches(argv: list):
    """``(program, suffix or None, files)`` of perl's switches: ``-p``, ``-i[SUFFIX]`` (the
    rest of its word), ``-e PROGRAM`` (the rest of its word or the next), clustered as perl
    reads them (``-pi.bak``; ``-ip`` is -i with the suffix p). Anything else is unknown."""
    pieces, suffix, printing = [], None, False
    n = 1
    while n < len(argv):
        word = argv[n]
        if word == "--":
            n += 1
            break
        if word[:1] != "-" or word == "-":
            break
        k = 1
        while k < len(word):
            letter = word[k]
            if letter == "p":
                printing = True
                k += 1
            elif letter == "i":
                suffix = word[k + 1:]
                break
            elif letter == "e":
                if k + 1 < len(word):
                    pieces.append(word[k + 1:])
                elif n + 1 < len(argv):
                    n += 1
                    pieces.append(argv[n])
                else:
                    raise OptionUnknown("perl: -e without a program")
                break
            else:
                raise OptionUnknown(f"perl: the switch -{letter}")
        n += 1
    if not printing or not pieces:
        raise OptionUnknown("perl: a program other than -p -e")
    if suffix is not None and ("*" in suffix or "/" in suffix):
        raise OptionUnknown("perl -i with a backup name made from * or a directory")
    return "\n".join(pieces).encode("utf-8", "surrogateescape"), suffix, argv[n:]


class _UnknownModifier(Exception):
    """A letter after s/// that is no modifier of perl's: a compile error, before perl reads or
    edits anything (status 255); its messages, and those of the text after it, not followed."""


#: the modifiers perl 5.36 takes after s///
_MODIFIERS = frozenset(b"msixpodualngcer")


class _NotTerminated(Exception):
    """An s/// the program ends inside: perl's compile error, before it reads or edits
    anything (status 255)."""


def _delimited(text: bytes, i: int, delim: int, part: str = "pattern") -> tuple:
    """The bytes up to the unescaped ``delim`` from ``i`` (an escaped delimiter is the
    character itself), and the index after the delimiter; _NotTerminated, naming ``part``,
    where the text ends first."""
    out = bytearray()
    while i < len(text):
        c = text[i]
        if c == delim:
            return bytes(out), i + 1
        if c == 92 and i + 1 < len(text):  # backslash
            if text[i + 1] == delim:
                out.append(delim)
            else:
                out += text[i:i + 2]
            i += 2
            continue
        out.append(c)
        i += 1
    raise _NotTerminated(part)


def _bracketed(text: bytes, i: int, opener: int, part: str) -> tuple:
    """The bytes up to the ``opener`` bracket's unescaped match from ``i`` (nested pairs and
    escapes kept), and the index after it; unknown where the text ends first (perl's messages
    then come from the braces of the loop -p wraps the program in)."""
    closer, depth, start = _BRACKETS[opener], 1, i
    while i < len(text):
        c = text[i]
        if c == 92:
            i += 2
            continue
        depth += (c == opener) - (c == closer)
        if depth == 0:
            return text[start:i], i + 1
        i += 1
    raise OptionUnknown(f"perl: an s with brackets whose {part} the program ends inside")


def _escape(c: int) -> bytes:
    return re.escape(bytes([c]))


def _pattern(source: bytes) -> bytes:
    """The Python regex for a Perl pattern of the followed subset."""
    out = bytearray()
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == 92:  # backslash
            if i + 1 >= n:
                raise OptionUnknown("perl: a pattern ending in a backslash")
            e = source[i + 1]
            if e == 81:  # \Q: the text up to \E (or the end) stands for itself (quotemeta)
                end = source.find(b"\\E", i + 2)
                quoted = source[i + 2:end if end >= 0 else n]
                if any(b in quoted for b in b"\\$@") or any(b >= 128 or b < 32 for b in quoted):
                    # an escape, a variable or an array in it is read first, then quoted
                    raise OptionUnknown("perl: \\Q over an escape, a variable or a byte outside printable ASCII")
                out += re.escape(quoted)
                i = end + 2 if end >= 0 else n
                continue
            if e in _CLASS_ESCAPES or e in b"bB":
                out += source[i:i + 2]
            elif e in _PLAIN_ESCAPES:
                out += _PLAIN_ESCAPES[e]
            elif 49 <= e <= 57 and not source[i + 2:i + 3].isdigit():
                out += source[i:i + 2]  # \1 to \9: a group matched before (\10 may be octal)
            elif not (48 <= e <= 57 or 65 <= e <= 90 or 97 <= e <= 122) and e < 128:
                out += _escape(e)  # a punctuation character stands for itself
            else:
                raise OptionUnknown(f"perl: the escape \\{chr(e)} in a pattern")
            i += 2
        elif c == 36:  # $: the end, unless perl reads a variable there
            if i + 1 < n and source[i + 1] not in b")|":
                raise OptionUnknown("perl: a variable in a pattern")
            out += b"$"
            i += 1
        elif c == 64 and i + 1 < n and (source[i + 1:i + 2].isalnum() or source[i + 1] in b"_:{$"):
            raise OptionUnknown("perl: an array in a pattern")
        elif c == 91:  # [
            i = _bracket(source, i, out)
        elif c == 40:  # (
            if source[i + 1:i + 2] == b"?":
                if source[i + 2:i + 3] != b":":
                    raise OptionUnknown("perl: an extended group (?…)")
                out += b"(?:"
                i += 3
            else:
                out += b"("
                i += 1
        elif c in b"*+?":
            out.append(c)
            i += 1
            if i < n and source[i] == 43:  # a possessive quantifier
                raise OptionUnknown("perl: a possessive quantifier")
        elif c == 123:  # {
            found = _QUANTIFIER.match(source, i)
            if found is None or i == 0:
                raise OptionUnknown("perl: a brace that is no quantifier")
            out += found.group(0)
            i = found.end()
        elif c in b").|^":
            out.append(c)
            i += 1
        elif c >= 128 or c < 32 and c not in b"\t":
            raise OptionUnknown("perl: a control or non-ASCII byte in a pattern")
        else:
            out += _escape(c)
            i += 1
    return bytes(out)


def _bracket(source: bytes, i: int, out: bytearray) -> int:
    """A bracket expression from ``[`` at ``i``: its Python form appended to ``out``; the
    index after its ``]``."""
    n = len(source)
    j = i + 1
    out += b"["
    if j < n and source[j] == 94:  # ^
        out += b"^"
        j += 1
    first = True
    while j < n:
        c = source[j]
        if c == 93 and not first:  # ]
            out += b"]"
            return j + 1
        if c == 91:  # [ inside: [:alpha:] and kin, or a nested set in Python's eyes
            raise OptionUnknown("perl: [ inside a bracket expression")
        if c == 92:
            if j + 1 >= n:
                break
            e = source[j + 1]
            if e in _CLASS_ESCAPES:
                out += source[j:j + 2]
            elif e in _PLAIN_ESCAPES:
                out += _PLAIN_ESCAPES[e]
            elif e < 128 and not (48 <= e <= 57 or 65 <= e <= 90 or 97 <= e <= 122):
                out += b"\\" + bytes([e])
            else:
                raise OptionUnknown("perl: an escape in a bracket expression")
            j += 2
        elif c in b"$@":
            raise OptionUnknown("perl: $ or @ in a bracket expression (perl may interpolate)")
        elif c >= 128 or c < 32:
            raise OptionUnknown("perl: a control or non-ASCII byte in a bracket expression")
        else:
            out += b"\\" + bytes([c]) if c in b"^&~|" else bytes([c])
            j += 1
        first = False
    raise OptionUnknown("perl: a bracket expression not ended (perl's syntax error)")


def _replacement(source: bytes) -> list:
    """A replacement of the followed subset: a list of bytes and group numbers."""
    parts: list = []
    text = bytearray()
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == 92:
            e = source[i + 1] if i + 1 < n else -1
            if e in _PLAIN_ESCAPES:
                text += {116: b"\t", 110: b"\n", 114: b"\r", 102: b"\f"}[e]
            elif e == 120:  # \xHH (at most two hex digits, none is \0) or \x{HEX}: that byte
                found = _HEX_ESCAPE.match(source, i + 2)
                value = int(found.group(1) or found.group(2) or "0", 16)
                if source[i + 2:i + 3] == b"{" and found.group(1) is None or value > 0xFF:
                    # (a brace not closed by hex digits is perl's error; past 0xFF a wide character)
                    raise OptionUnknown("perl: a \\x escape in a replacement beyond a byte")
                text.append(value)
                i = found.end()
                continue
            elif 0 <= e < 128 and not 48 <= e <= 57 and e not in _STRING_ESCAPES:
                # \\ \/ \$ \@, other punctuation, and a letter with no meaning in a string: the
                # character (perl warns of the letter only under -w)
                text.append(e)
            else:
                raise OptionUnknown("perl: an escape in a replacement")
            i += 2
        elif c == 36:  # $1 … $9, ${1}, $&
            found = _GROUP.match(source, i)
            if found is None or source[found.end():found.end() + 1] in (b"[", b"{") or \
                    source[found.end():found.end() + 3] in (b"->[", b"->{"):
                # (perl reads $1[0], $1{x} and $1->[0] as an element of something else)
                raise OptionUnknown("perl: a variable in a replacement")
            parts.append(bytes(text))
            text = bytearray()
            parts.append(0 if found.group(3) else int(found.group(1) or found.group(2)))
            i = found.end()
        elif c == 64 and i + 1 < n and source[i + 1] not in _AT_LITERAL:
            # @x, @_, @{…}, @-, @+, @@…: arrays perl interpolates (measured)
            raise OptionUnknown("perl: an array in a replacement")
        else:
            text.append(c)
            i += 1
    parts.append(bytes(text))
    return parts


def _program(program: bytes) -> list:
    """``[(compiled regex, replacement parts, global)]`` of a program of substitutions."""
    found = []
    i, n = 0, len(program)
    while True:
        while i < n and program[i] in b" \t\n;":
            i += 1
        if i >= n:
            return found
        if program[i] != 115 or i + 1 >= n or program[i + 1] not in _DELIMITERS and program[i + 1] not in _BRACKETS:
            raise OptionUnknown("perl: a statement other than s/// with / # , ! : % | or brackets")
        delim = program[i + 1]
        try:
            if delim in _BRACKETS:
                # (one the program ends inside meets the braces of -p's loop: perl's messages then
                # are not followed)
                pattern, j = _bracketed(program, i + 2, delim, "pattern")
                while j < n and program[j] in b" \t\n":
                    j += 1
                if j < n and program[j] in _BRACKETS:
                    replacement, j = _bracketed(program, j + 1, program[j], "replacement")
                elif j < n and program[j] in _DELIMITERS:
                    replacement, j = _delimited(program, j + 1, program[j], "replacement")
                elif j < n:
                    raise OptionUnknown("perl: a replacement delimiter other than / # , ! : % | or brackets")
                else:
                    raise OptionUnknown("perl: an s with brackets whose replacement the program ends before")
            else:
                pattern, j = _delimited(program, i + 2, delim)
                replacement, j = _delimited(program, j, delim, "replacement")
        except _NotTerminated as exc:
            # perl names the line its s starts on (measured)
            raise _NotTerminated(f"Substitution {exc} not terminated at -e line {program.count(10, 0, i) + 1}.\n") \
                from None
        i = j
        flags = bytearray()
        while i < n and program[i:i + 1].isalpha():
            flags.append(program[i])
            i += 1
        if set(flags) - _MODIFIERS:
            raise _UnknownModifier()
        if set(flags) - set(b"gi") or len(set(flags)) != len(flags):
            raise OptionUnknown("perl: a flag of s/// other than g and i")
        if not pattern:
            raise OptionUnknown("perl: an empty pattern (perl reuses the last one)")
        try:
            regex = re.compile(_pattern(pattern), re.IGNORECASE if 105 in flags else 0)
        except re.error:
            raise OptionUnknown("perl: a pattern Python's re refuses") from None
        found.append((regex, _replacement(replacement), 103 in flags))
        while i < n and program[i] in b" \t\n":
            i += 1
        if i < n and program[i] != 59:  # only ; parts statements: a newline is a blank (perl's syntax error)
            raise OptionUnknown("perl: more than s/// in a statement")


def _substitute(regex, parts: list, every: bool, line: bytes) -> bytes:
    matches = list(regex.finditer(line)) if every else [m for m in [regex.search(line)] if m]
    out = bytearray()
    at = 0
    for m in matches:
        if every and m.end() == m.start():
            # where the next match starts after an empty one, the engines' rules differ
            raise OptionUnknown("perl: s///g matching the empty string")
        out += line[at:m.start()]
        for part in parts:
            # a group the pattern lacks, or one that took no part, is empty (perl's undef)
            out += part if isinstance(part, bytes) else (m.group(part) if part <= regex.groups else None) or b""
        at = m.end()
    out += line[at:]
    return bytes(out)


def _edit(statements: list, data: bytes) -> bytes:
    """``-p``: each line, its newline included, through the substitutions, then printed."""
    out = bytearray()
    lines = [part + b"\n" for part in data.split(b"\n")]
    lines[-1] = lines[-1][:-1]  # the last line lacks its newline, or is none at all
    for line in lines if lines[-1] else lines[:-1]:
        for regex, parts, every in statements:
            line = _substitute(regex, parts, every, line)
        out += line
    return bytes(out)


def _lines(data: bytes) -> int:
    """The lines perl's ``<>`` reads from ``data`` (a last one without its newline counts)."""
    return data.count(b"\n") + (not data.endswith(b"\n") and bool(data))


def _at(read: int) -> str:
    """Where perl says a warning met ``<>``: the lines read so far, once there are any (measured)."""
    return f", <> line {read}" if read else ""


@guarded
def perl(ctx: CommandContext) -> CommandResult:
    program, suffix, names = _switches(ctx.argv)
    if suffix is not None and not names:
        raise OptionUnknown("perl -i reading stdin")  # (its warning comes before any compile error)
    try:
        statements = _program(program)
    except _NotTerminated as exc:
        return CommandResult(255, b"", str(exc).encode())
    except _UnknownModifier:
        return CommandResult(255, stderr_unknown="perl's compile errors (Unknown regexp modifier)")
    out = Output("perl")
    files = ctx.files
    stdin_used = False
    read = 0  # the lines read so far ($.), which perl's warnings name once there are any
    for name in names or ["-"]:
        if name == "-" and suffix is not None:
            raise OptionUnknown("perl -i on -")
        if name == "-":
            data, stdin_used = (b"" if stdin_used else ctx.stdin), True
            out.out += _edit(statements, data)
            read += _lines(data)
            continue
        if files.is_symlink(name):
            raise OptionUnknown("perl on a symlink (-i replaces the link with a file)")
        if suffix is not None and files.exists(name) and not files.is_file(name):  # a folder, /dev/null
            out.err += f"Can't do inplace edit: {name} is not a regular file{_at(read)}.\n".encode(
                "utf-8", "surrogateescape")
            continue
        if files.is_dir(name):
            raise OptionUnknown("perl reading a directory")
        try:
            data = files.read_bytes(name)
        except VfsError as exc:
            out.err += f"Can't open {name}: {exc.strerror}{_at(read)}.\n".encode("utf-8", "surrogateescape")
            continue
        edited = _edit(statements, data)
        read += _lines(data)
        if suffix is not None:
            # perl -i opens the file's folder and makes and renames its files through that
            # handle (5.28 and later): a folder its owner may not read fails it (measured)
            files.listdir(name[:name.rfind("/")] or "/" if "/" in name else ".")
        if suffix is None:
            out.out += edited
        elif suffix:
            mode = files.mode(name)
            if files.lexists(name + suffix) and files.is_dir(name + suffix):
                raise OptionUnknown("perl -i with a backup name that is a directory")
            files.rename(name, name + suffix)
            files.write_bytes(name, edited)
            files.chmod(name, mode)
        else:
            files.replace_bytes(name, edited)
    return out.result()
