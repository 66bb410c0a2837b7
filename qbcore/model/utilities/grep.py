"""GNU grep 3.8: -c -F -E -G -P -x -v -i -e -q -n -l -L -H -h -s -o -w -r, over the tree; egrep and
fgrep, where they are the wrappers that run grep -E and grep -F.

-r goes through each folder it is given (``.`` when none, its names then without ``./``), and
skips the symlinks it meets there. A folder lists its entries in the order its file system
keeps: where the files of one folder given print more than one group of lines, their order is
not known (the output's lines are). A name it cannot read on the way is not followed.

-P's patterns are followed where Python's ``re`` reads them as PCRE2 does (``perlre``)."""

from __future__ import annotations

import copy
import re

from .common import Output, OptionUnknown, guarded, reads_folder, refuse_invalid_option, scan_options
from .context import CommandContext, CommandResult, unknown
from .hostfacts import grep_wrapper
from .perlre import NotPerlSubset, PerlPattern
from .posixre import GLIBC_LETTERS, ConfusingBracket, Untranslatable, compile_posix
from .vfs import VfsError

__all__ = ["grep", "recursive_roots"]


# a backslash before a letter glibc's regex gives no meaning: the grep installed (GNU grep
# 3.8 as Debian 12 ships it) matches the letter, in either case under -i, and says nothing
# such a lower-case one: under -i -o grep 3.8 selects its line and prints none of the matches
_STRAY_LOWER_ESCAPE = re.compile(rb"\\[acdefghijklmnopqrtuvxyz]")


def _matcher(patterns: list, fixed: bool, extended: bool, icase: bool, whole_line: bool, word: bool):
    """A function line -> bool: true when any pattern matches (under -w as a word, see
    _word_matcher; -x outweighs -w); ConfusingBracket when dfa refuses the patterns (after
    glibc took every one of them)."""
    if fixed and icase and any(any(b >= 128 for b in p) for p in patterns):
        raise OptionUnknown("grep -F -i with non-ASCII patterns")
    compiled = None if fixed else _compiled(patterns, extended, icase)
    if word and not whole_line:
        return _word_matcher(patterns, compiled, icase)
    if fixed:
        if icase:
            pats = [p.lower() for p in patterns]
            if whole_line:
                return lambda line: line.lower() in pats
            return lambda line: any(p in line.lower() for p in pats)
        if whole_line:
            return lambda line: line in patterns
        return lambda line: any(p in line for p in patterns)
    if whole_line:
        full = [re.compile(b"(?:" + rx.pattern + b")\\Z", rx.flags) for rx in compiled]
        return lambda line: any(rx.match(line) for rx in full)
    return lambda line: any(rx.search(line) for rx in compiled)


def _compiled(patterns: list, extended: bool, icase: bool) -> list:
    """The patterns as regexes for whether a line matches (not where)."""
    compiled, confusing = [], []
    for p in patterns:
        try:
            rx = compile_posix(p, extended, icase, existence_only=True, escapes=GLIBC_LETTERS, plain_backslash=True,
                               confusing=confusing)
        except Untranslatable as exc:
            raise OptionUnknown(f"grep pattern {p!r}: {exc}") from None
        compiled.append(rx)
    if confusing:
        raise ConfusingBracket()
    return compiled


_WORD = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
_WORD_LINE = 256  # the longest line -w is followed on (it tries every start and end)


def _word_matcher(patterns: list, compiled, icase: bool):
    """A function line -> bool for -w (``compiled`` the regexes, None for -F): some pattern
    matches the whole of a stretch that has no word character just before it or just after
    it. grep 3.8 tries each start a match has, and there every shorter length, so any such
    stretch selects the line, an empty one too (measured)."""
    if compiled is None:
        pats = [p.lower() for p in patterns] if icase else patterns
        fits = lambda line, s, e: (line[s:e].lower() if icase else line[s:e]) in pats  # noqa: E731
    else:
        if any(b"\\Z" in rx.pattern for rx in compiled):
            # a $ must not match where the stretch ends inside the line (glibc's not_eol)
            raise OptionUnknown("grep -w with $ in a pattern")
        fits = lambda line, s, e: any(rx.fullmatch(line, s, e) for rx in compiled)  # noqa: E731

    def match(line: bytes) -> bool:
        if len(line) > _WORD_LINE or not line.isascii():
            raise OptionUnknown("grep -w on a long line or one past ASCII (a locale's letters)")
        n = len(line)
        starts = [s for s in range(n + 1) if s == 0 or line[s - 1] not in _WORD]
        ends = [e for e in range(n, -1, -1) if e == n or line[e] not in _WORD]
        return any(fits(line, s, e) for s in starts for e in ends if e >= s)
    return match


def _perl(pattern: bytes, icase: bool, whole_line: bool, word: bool):
    """(matcher, finder) of one -P pattern, wrapped as grep 3.8 wraps it for -x (``^(?:…)$``)
    and -w (``(?<!\\w)(?:…)(?!\\w)``); a line the pattern's work is not bounded for is unknown.
    The finder searches from an offset in the whole line, as grep does: ``^`` matches only at
    the line's start, a lookbehind sees what comes before (measured)."""
    try:
        checked = PerlPattern(pattern)
        if whole_line:
            rx = checked.compile(b"^(?:", b")\\Z", icase)
        elif word:
            rx = checked.compile(b"(?<!\\w)(?:", b")(?!\\w)", icase)
        else:
            rx = checked.compile(b"", b"", icase)
    except NotPerlSubset as exc:
        raise OptionUnknown(f"grep -P {pattern!r}: {exc}") from None

    def bounded(line: bytes):
        try:
            checked.work(line)
        except NotPerlSubset as exc:
            raise OptionUnknown(f"grep -P: {exc}") from None

    def match(line: bytes) -> bool:
        bounded(line)
        return rx.search(line) is not None

    def find(line: bytes, pos: int):
        bounded(line)
        found = rx.search(line, pos)
        return None if found is None else checked.reported(found)
    return match, find


def _finder(patterns: list, fixed: bool, extended: bool, icase: bool):
    """A function (line, pos) -> (start, end) of the match -o prints next, or None: the
    leftmost at or after ``pos``, the longest of those starting there (over every pattern)."""
    if fixed:
        pats = [p.lower() for p in patterns] if icase else patterns

        def find_fixed(line: bytes, pos: int):
            hay = line.lower() if icase else line
            found = [(at, at + len(p)) for p in pats if (at := hay.find(p, pos)) >= 0]
            return min(found, key=lambda m: (m[0], -m[1])) if found else None
        return find_fixed
    compiled = []
    for p in patterns:
        try:
            # the extent matters here: the translation that keeps POSIX's leftmost-longest
            compiled.append(compile_posix(p, extended, icase, escapes=GLIBC_LETTERS, plain_backslash=True))
        except Untranslatable as exc:
            raise OptionUnknown(f"grep -o pattern {p!r}: {exc}") from None

    def find(line: bytes, pos: int):
        found = [m.span() for rx in compiled if (m := rx.search(line, pos)) is not None]
        return min(found, key=lambda m: (m[0], -m[1])) if found else None
    return find


def _only_matching(line: bytes, find, whole_line: bool) -> list:
    """What -o prints of a selected line: each match, left to right, not overlapping; an
    empty match prints nothing and the search goes on one character later (grep 3.8)."""
    if whole_line:
        return [line] if line else []
    parts, pos = [], 0
    while pos < len(line):
        span = find(line, pos)
        if span is None or span[0] >= len(line):
            break
        start, end = span
        if end == start:
            pos = start + 1
            continue
        parts.append(line[start:end])
        pos = end
    return parts


# grep 3.8's short options (its getopt string: letters before a colon take a value), and those
# it acts on while it scans: it reads -f's file, checks the other values but -e's, and stops
# at a second matcher unlike the first
_FLAGS, _WITH_VALUE, _ACTING = "0123456789EFGHIPTUVabchiLlnoqRrsuvwxyZz", "ABCDXdefm", "ABCDXdfmEFGP"


#: -m's count as grep 3.8 reads it (xstrtoimax): blanks, a sign, digits; a count past the
#: largest is the largest
_MAX_COUNT = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+")
# the options the model follows, short and long
_FOLLOWED = "cFEGPxviqnlLHhsyowrm"
_LONGS = {"count": ("c", False), "fixed-strings": ("F", False),
          "extended-regexp": ("E", False), "basic-regexp": ("G", False), "perl-regexp": ("P", False),
          "line-regexp": ("x", False), "invert-match": ("v", False),
          "ignore-case": ("i", False), "quiet": ("q", False), "silent": ("q", False),
          "line-number": ("n", False), "files-with-matches": ("l", False),
          "files-without-match": ("L", False), "with-filename": ("H", False),
          "no-filename": ("h", False), "no-messages": ("s", False),
          "regexp": ("e", True), "file": ("f", True), "only-matching": ("o", False),
          "word-regexp": ("w", False), "recursive": ("r", False), "max-count": ("m", True)}


def recursive_roots(argv: list) -> list | None:
    """The names grep ``argv`` goes down with -r (``.`` when none), read as the model reads
    its words; [] when it is not recursive, None when the model does not follow its words."""
    try:
        opts, operands = scan_options(argv, _FOLLOWED, with_arg="efm", longs=_LONGS)
    except OptionUnknown:
        return None
    if not any(o == "r" for o, _ in opts):
        return []
    if not any(o in "ef" for o, _ in opts):
        operands = operands[1:]  # the first is the pattern
    return operands or ["."]


@guarded
def grep(ctx: CommandContext) -> CommandResult:
    # an option grep does not have ends it on its usage error, whatever else the line holds
    refused = refuse_invalid_option(ctx.argv, _FLAGS, _WITH_VALUE, acting=_ACTING, stop_at_long=True)
    if refused is not None:
        return refused
    opts, operands = scan_options(ctx.argv, _FOLLOWED, with_arg="efm", longs=_LONGS)
    flags = {}
    patterns: list = []
    mode = "G"
    matchers = set()
    limit = None  # -m: how many selected lines grep reads each file for (None: all)
    for o, v in opts:  # as grep scans them: the first refused stops it
        if o in "FEGP":
            matchers.add(o)
            if len(matchers) > 1:
                return CommandResult(2, b"", b"grep: conflicting matchers specified\n")
        elif o == "m":
            if _MAX_COUNT.fullmatch(v) is None:
                return CommandResult(2, b"", b"grep: invalid max count\n")
            limit = int(v) if int(v) >= 0 else None  # a negative count, as none
    for o, v in opts:
        if o == "e":
            patterns.extend(v.encode("utf-8", "surrogateescape").split(b"\n"))
        elif o == "f":
            raise OptionUnknown("grep -f")
        elif o in "FEGP":
            mode = o
        elif o == "y":
            flags["i"] = True
        elif o in "lL":
            flags.pop("L" if o == "l" else "l", None)  # the last of -l and -L wins
            flags[o] = True
        else:
            flags[o] = True
    out = Output("grep", in_order=True)
    if not patterns:
        if not operands:
            out.err += (b"Usage: grep [OPTION]... PATTERNS [FILE]...\n"
                        b"Try 'grep --help' for more information.\n")
            out.status = 2
            return out.result()
        patterns = operands.pop(0).encode("utf-8", "surrogateescape").split(b"\n")
    if limit == 0:
        # grep ends there, before it compiles the pattern or opens a file (measured, grep 3.8)
        if flags.get("L"):
            raise OptionUnknown("grep -m 0 -L")
        return CommandResult(1, b"", bytes(out.err))
    if flags.get("v") and b"" in patterns:
        raise OptionUnknown("grep -v with an empty pattern (grep skips the input)")
    if flags.get("w") and flags.get("o") and not flags.get("x") and mode != "P":
        raise OptionUnknown("grep -o -w")
    invert = flags.get("v", False)
    # -o prints the matches of each selected line (none under -v); -c, -l, -L and -q print as without it
    only = flags.get("o") and not any(flags.get(f) for f in "clLq")
    if only and flags.get("i") and mode in "GE" and any(_STRAY_LOWER_ESCAPE.search(p) for p in patterns):
        # grep 3.8 selects the line, and prints none of its matches (measured: `\o` under -i -o)
        raise OptionUnknown("grep -o -i with a backslash before a letter that means nothing")
    if mode == "P":
        if len(patterns) > 1:
            out.error("the -P option only supports a single pattern", 2)
            return out.result()
        match, find = _perl(patterns[0], flags.get("i", False), flags.get("x", False), flags.get("w", False))
        if not only or invert:
            find = None
    else:
        try:
            match = _matcher(patterns, mode == "F", mode == "E", flags.get("i", False), flags.get("x", False),
                             flags.get("w", False))
        except ConfusingBracket:
            out.error(ConfusingBracket.MESSAGE, 2)
            return out.result()
        find = _finder(patterns, mode == "F", mode == "E", flags.get("i", False)) if only and not invert else None
    recursive = flags.get("r", False)
    names = operands or ([_HERE] if recursive else ["-"])
    named = [o for o, _ in opts if o in "Hh"]  # the last of -H/-h wins
    inputs = _inputs(ctx, names) if recursive else [(name, name, False, None) for name in names]
    selected_any = False
    error = False
    stdin_read = False
    printed: dict = {}  # for each folder given, how many of the files found in it printed
    for name, label, found, given in inputs:
        with_name = named[-1] == "H" if named else len(names) > 1 or found
        before = len(out.out)
        if name == "-":
            label = "(standard input)"
            if stdin_read and (flags.get("l") or flags.get("L") or limit is not None):
                # (-m: grep puts a regular file's offset back after the last line it selected,
                # measured: `grep -m1 a - - < FILE` selects a line under each)
                raise OptionUnknown("grep -l, -L or -m reading its stdin twice (where the first read stopped)")
            # the first `-` reads stdin to its end: another finds nothing left (measured)
            data = b"" if stdin_read else ctx.stdin
            stdin_read = True
        else:
            try:
                if reads_folder(ctx.files, name):
                    if not flags.get("s"):
                        out.error(f"{name}: Is a directory", 2)
                    error = True
                    data = b""  # then read as empty: -c counts 0 for it, -L lists it (measured)
                else:
                    data = ctx.files.read_bytes(name)
            except VfsError as exc:
                if found:  # (its message's place among the others follows the order of the walk)
                    raise OptionUnknown(f"grep -r meeting {label}: {exc.strerror}") from None
                if not flags.get("s"):
                    out.error(f"{name}: {exc.strerror}", 2)
                error = True
                continue
        if b"\0" in data:
            raise OptionUnknown("grep on binary data (NUL bytes)")
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        count = 0
        prefix = label.encode("utf-8", "surrogateescape") + b":" if with_name else b""
        for number, line in enumerate(lines, 1):
            if match(line) == invert:
                continue
            count += 1
            selected_any = True
            if flags.get("q"):
                return CommandResult(0, b"", bytes(out.err))
            if flags.get("l") or flags.get("L"):
                break
            if only:
                head = prefix + (b"%d:" % number if flags.get("n") else b"")
                for part in _only_matching(line, find, flags.get("x", False) and mode != "P") if find is not None else ():
                    out.out += head + part + b"\n"
            elif not flags.get("c"):
                out.out += prefix + (b"%d:" % number if flags.get("n") else b"") + line + b"\n"
            if count == limit:
                break  # -m: it reads no further in this file
        if flags.get("q"):
            pass  # -q prints nothing, -c, -l and -L included (it ended at the first selected line)
        elif flags.get("l") and count:
            out.out += label.encode("utf-8", "surrogateescape") + b"\n"
        elif flags.get("L") and not count:
            out.out += label.encode("utf-8", "surrogateescape") + b"\n"
        elif flags.get("c") and not (flags.get("l") or flags.get("L")):
            out.out += prefix + b"%d\n" % count
        if found and len(out.out) > before:
            printed[given] = printed.get(given, 0) + 1
    # -L too: 0 when a line was selected in some input, listed or not (grep 3.8, measured)
    out.status = 2 if error else (0 if selected_any else 1)
    found = out.result()
    if any(n > 1 for n in printed.values()):
        found.stdout_unordered = "the order grep -r finds the files of a folder in"
    return found


#: the folder -r searches when given none: its files are named without ``./``
_HERE = ""


def _inputs(ctx: CommandContext, names: list) -> list:
    """What grep -r reads for ``names``: ``(path, label, found in a folder, that folder)`` for
    each. A name given is read as without -r unless it leads to a folder (through a symlink
    too); the files under a folder are found going down its folders, skipping the symlinks
    there, in one order (by name: the real one is not known)."""
    files = ctx.files
    inputs = []
    for name in names:
        path = name or "."
        if name == "-" or not files.is_dir(path):
            inputs.append((path, name, False, None))
            continue
        base = name.rstrip("/")
        if name and not base:
            raise OptionUnknown("grep -r of /")
        try:
            stack = [(path, "")]
            while stack:
                folder, rel = stack.pop()
                for entry in reversed(files.listdir(folder)):
                    inner = f"{rel}/{entry}" if rel else entry
                    full = f"{folder.rstrip('/')}/{entry}"
                    if files.is_symlink(full):
                        continue
                    if files.is_dir(full):
                        stack.append((full, inner))
                    else:
                        inputs.append((full, f"{base}/{inner}" if name else inner, True, name))
        except VfsError as exc:
            raise OptionUnknown(f"grep -r meeting {exc.path}: {exc.strerror}") from None
    return inputs


def wrapper(name: str):
    """The model of ``egrep`` or ``fgrep``: the sh script that runs ``grep -E`` or ``grep -F``
    with its own arguments (so grep's messages name grep), where the machine's is that script
    (hostfacts.grep_wrapper)."""

    def run(ctx: CommandContext) -> CommandResult:
        option = grep_wrapper(name)
        if option is None:
            return unknown(f"{name}, which is not the plain wrapper of grep here")
        inner = copy.copy(ctx)
        inner.argv = ["grep", option, *ctx.argv[1:]]
        return grep(inner)

    return run
