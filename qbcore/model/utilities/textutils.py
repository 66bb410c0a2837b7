"""GNU coreutils 9.1 text filters and name tools: head, tail, wc, sort, cut, tr, uniq, seq, tac,
comm, paste, basename, dirname, readlink, realpath, pwd, ls."""

from __future__ import annotations

import itertools
import posixpath
import re

from .common import (Output, OptionUnknown, guarded, quote, quote_c, quotef, read_input, reads_folder,
                     refuse_invalid_option, scan_options)
from .context import CommandContext, CommandResult, unknown
from .vfs import VfsError

__all__ = ["MODELS"]


def _count(value: str, what: str) -> tuple[int, bool]:
    """(N, from_start) for -n/-c values; only plain decimal counts are modelled."""
    m = re.fullmatch(r"([+-]?)([0-9]+)", value)
    if not m:
        raise OptionUnknown(f"{what} count {value!r}")
    return int(m.group(2)), m.group(1) == "+"


def _tail_obsolete_form(argv: list) -> bool:
    """Whether tail reads ``-N`` or ``+N`` first as its count (coreutils 9.1): only with at
    most one operand after it that is no option (``-`` is stdin), or with ``--`` after it."""
    return (len(argv) == 2 or len(argv) == 3 and not (argv[2].startswith("-") and len(argv[2]) > 1)
            or 3 <= len(argv) <= 4 and argv[2] == "--")


def _head_tail(ctx: CommandContext, name: str) -> CommandResult:
    argv = list(ctx.argv)
    obsolete = len(argv) > 1 and re.fullmatch(r"[-+][0-9]+", argv[1])
    if obsolete and name == "tail" and not _tail_obsolete_form(argv):
        if argv[1][0] == "-":  # getopt then meets the digit as an option
            out = Output(name)
            out.error(f"option used in invalid context -- {argv[1][1]}", 1)
            return out.result()
        obsolete = False  # +N is a file's name
    if obsolete and (argv[1][0] == "-" or name == "tail"):
        argv[1:2] = ["-n", argv[1][1:] if argv[1][0] == "-" else argv[1]]
    opts, names = scan_options(argv, "qv", with_arg="nc",
                               longs={"lines": ("n", True), "bytes": ("c", True),
                                      "quiet": ("q", False), "silent": ("q", False),
                                      "verbose": ("v", False)})
    unit, n, from_start = "n", 10, False
    elide = False  # head -n -N, -c -N: all but the last N
    headers = len(names) > 1
    for o, v in opts:
        if o in "nc":
            unit = o
            n, from_start = _count(v, f"{name} -{o}")
            if n >= 1 << 64:  # beyond uintmax_t, found while the options are read
                if name == "tail" and obsolete:
                    raise OptionUnknown("tail's obsolete count out of range")
                out = Output(name)
                out.error(f"invalid number of {'lines' if o == 'n' else 'bytes'}: "
                          f"{quote_c(v[1:] if v.startswith('-') else v)}: Value too large for defined data type")
                return out.result()
            if name == "head" and v.startswith("+"):
                raise OptionUnknown(f"head -{o} with a sign")
            elide = name == "head" and v.startswith("-")
        elif o == "q":
            headers = False
        elif o == "v":
            headers = True
    if name == "head" and names.count("-") > 1:
        # what head's first read of stdin leaves for the next depends on how far it read: it puts
        # a regular file's offset back after what it printed (measured: `head -n 2 - - < FILE`
        # prints the third line under the second header), a pipe's it cannot (tail reads to the
        # end of either: the next finds nothing, measured)
        raise OptionUnknown("head reading stdin twice")
    out = Output(name, in_order=True)
    if name == "tail" and n == 0 and not from_start:
        return out.result()  # GNU tail opens nothing then: no headers, no errors (measured)
    used: list = []
    first = True
    for fname in names or ["-"]:
        if fname != "-" and reads_folder(ctx.files, fname):
            if name == "tail" and (unit == "c" or from_start):
                # after the read error GNU tail goes on to the next file on tmpfs, and stops on
                # ext4 (measured): the file system decides
                raise OptionUnknown("tail reading a directory by bytes or from a line on")
            # the directory opens: its header comes first, then the read fails (head reads
            # nothing for a count of 0)
            if headers:
                out.out += (b"" if first else b"\n") + f"==> {fname} <==\n".encode("utf-8", "surrogateescape")
            first = False
            if not (name == "head" and n == 0):
                out.error(f"error reading {quote(fname)}: Is a directory")
            continue
        if fname != "-" and not ctx.files.exists(fname):
            try:
                ctx.files.read_bytes(fname)
            except VfsError as exc:
                out.error(f"cannot open {quote(fname)} for reading: {exc.strerror}")
            continue
        data = read_input(ctx, fname, out, used)
        if data is None:
            continue
        if headers:
            label = "standard input" if fname == "-" else fname
            out.out += (b"" if first else b"\n") + f"==> {label} <==\n".encode(
                "utf-8", "surrogateescape")
        first = False
        if unit == "c":
            if name == "head":
                out.out += data[:max(len(data) - n, 0)] if elide else data[:n]
            else:
                out.out += data[n - 1:] if from_start else (data[-n:] if n else b"")
            continue
        lines = data.split(b"\n")
        lines = [line + b"\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        if name == "head":
            out.out += b"".join(lines[:max(len(lines) - n, 0)] if elide else lines[:n])
        elif from_start:
            out.out += b"".join(lines[max(n - 1, 0):])
        else:
            out.out += b"".join(lines[-n:]) if n else b""
    return out.result()


@guarded
def head(ctx):
    return _head_tail(ctx, "head")


@guarded
def tail(ctx):
    if any(a in ("-f", "-F", "--follow") for a in ctx.argv[1:]):
        return unknown("tail -f")
    return _head_tail(ctx, "tail")


@guarded
def wc(ctx: CommandContext) -> CommandResult:
    opts, names = scan_options(ctx.argv, "lwcm", longs={"lines": ("l", False),
                                                        "words": ("w", False),
                                                        "bytes": ("c", False),
                                                        "chars": ("m", False)})
    chosen = {o for o, _ in opts}
    if "m" in chosen:
        raise OptionUnknown("wc -m (locale-dependent)")
    order = [c for c in "lwc" if c in chosen] or ["l", "w", "c"]
    out = Output("wc")
    rows = []
    used: list = []
    non_regular = False  # GNU's minimum width is then 7
    total_size = 0
    for name in names or ["-"]:
        if name == "":  # checked before any open; it still counts toward the total line
            out.error("invalid zero-length file name")
            continue
        if name != "-" and reads_folder(ctx.files, name):
            out.error(f"{quotef(name)}: Is a directory")
            rows.append(([0, 0, 0], name))
            continue
        data = read_input(ctx, name, out, used)
        if data is None:
            continue
        regular = ctx.stdin_regular if name == "-" else ctx.files.is_file(name)  # (not /dev/null)
        if regular is None and not (len(order) == 1 and len(names) <= 1):
            raise OptionUnknown("wc: whether its stdin is a regular file (the width of its counts)")
        if regular:
            total_size += len(data)
        else:
            non_regular = True
        words = len(re.findall(rb"[^ \t\n\v\f\r]+", data))
        rows.append(([data.count(b"\n"), words, len(data)], name if names else None))
    if len(names) > 1:
        totals = [sum(r[0][k] for r in rows) for k in range(3)]
        rows.append((totals, "total"))
    if any(r[1] is not None and ctx.files.is_dir(r[1]) for r in rows if r[1] != "total"):
        non_regular = True  # a directory counts as non-regular: GNU uses the default width
    if len(order) == 1 and len(names) <= 1:
        width = 1
    else:
        width = max(len(str(total_size)), 7 if non_regular else 1)
    for counts, label in rows:
        vals = {"l": counts[0], "w": counts[1], "c": counts[2]}
        line = " ".join(str(vals[k]).rjust(width) for k in order)
        if label is not None:
            line += " " + label
        out.out += line.encode("utf-8", "surrogateescape") + b"\n"
    return out.result()


_NUM = re.compile(rb"[ \t]*(-?)([0-9]*)(?:\.([0-9]*))?")


def _numeric_cmp_key(line: bytes):
    m = _NUM.match(line)
    sign, whole, frac = m.group(1), m.group(2) or b"", m.group(3) or b""
    whole = whole.lstrip(b"0")
    frac = frac.rstrip(b"0")
    if not whole and not frac:
        return (0, 0, b"")
    if sign:
        # more negative sorts first: invert magnitude ordering
        return (-1, -len(whole), _Inv(whole + b"." + frac))
    return (1, len(whole), whole + b"." + frac)


class _Inv:
    """Reverses the order of bytes values inside a sort key."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return self.v > other.v

    def __eq__(self, other):
        return self.v == other.v


class _Rev:
    """A sort key component in reverse order (a key's r)."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return other.v < self.v

    def __eq__(self, other):
        return self.v == other.v


class _SortKey:
    """One -k F1[.C1][bnr][,F2[.C2][bnr]] of GNU sort: fields and characters 0-based, an end
    character of 0 meaning the end of its field (``echar``), ``eword`` None for the line's end."""

    __slots__ = ("sword", "schar", "eword", "echar", "skip_start", "skip_end", "numeric", "reverse", "fold", "own")

    def __init__(self, spec: str):
        m = re.fullmatch(r"([0-9]+)(?:\.([0-9]+))?([a-zA-Z]*)(?:,([0-9]+)(?:\.([0-9]+))?([a-zA-Z]*))?", spec)
        if m is None or set(m.group(3) + (m.group(6) or "")) - set("bnrf"):
            raise OptionUnknown(f"sort -k {spec!r}")
        sword, schar, eword = int(m.group(1)), int(m.group(2) or 1), m.group(4)
        if sword == 0 or schar == 0 or eword is not None and int(eword) == 0:
            raise OptionUnknown(f"sort -k {spec!r} (a zero field or character)")
        self.sword, self.schar = sword - 1, schar - 1
        self.eword = None if eword is None else int(eword) - 1
        self.echar = int(m.group(5) or 0)
        first, second = m.group(3), m.group(6) or ""
        self.skip_start, self.skip_end = "b" in first, "b" in second
        self.numeric = "n" in first + second
        self.reverse = "r" in first + second
        self.fold = "f" in first + second  # lower case compared as upper (the C locale's toupper)
        self.own = bool(first or second)  # a key with an option of its own takes none of the global ones

    def text(self, line: bytes, tab) -> bytes:
        """The key's bytes of ``line`` (GNU's begfield and limfield)."""
        n = len(line)
        ptr = 0
        for _ in range(self.sword):
            ptr = _past_field(line, ptr, tab, True)
        if self.skip_start:
            ptr = _past_blanks(line, ptr)
        begin = min(n, ptr + self.schar)
        if self.eword is None:
            return line[begin:]
        ptr = 0
        # an end character of 0 takes all of the end field; limfield leaves the last separator
        for left in reversed(range(self.eword + (1 if self.echar == 0 else 0))):
            ptr = _past_field(line, ptr, tab, bool(left or self.echar))
        if self.echar:
            if self.skip_end:
                ptr = _past_blanks(line, ptr)
            ptr = min(n, ptr + self.echar)
        return line[begin:max(begin, ptr)]


def _past_blanks(line: bytes, ptr: int) -> int:
    while ptr < len(line) and line[ptr] in _BLANKS:
        ptr += 1
    return ptr


def _past_field(line: bytes, ptr: int, tab, over_separator: bool) -> int:
    """Where the field at ``ptr`` ends: without -t after its blanks and then its non-blanks;
    with -t at its separator, or just past it (``over_separator``)."""
    n = len(line)
    if tab is None:
        ptr = _past_blanks(line, ptr)
        while ptr < n and line[ptr] not in _BLANKS:
            ptr += 1
        return ptr
    while ptr < n and line[ptr] != tab:
        ptr += 1
    return ptr + 1 if ptr < n and over_separator else ptr


_BLANKS = frozenset(b" \t")


@guarded
def sort(ctx: CommandContext) -> CommandResult:
    opts, names = scan_options(ctx.argv, "rnubszf", "otk", longs={"reverse": ("r", False),
                                                                "ignore-case": ("f", False),
                                                               "zero-terminated": ("z", False),
                                                               "numeric-sort": ("n", False),
                                                               "unique": ("u", False),
                                                               "output": ("o", True),
                                                               "key": ("k", True),
                                                               "field-separator": ("t", True),
                                                               "ignore-leading-blanks": ("b", False),
                                                               "stable": ("s", False)})
    chosen = {o for o, _ in opts}
    into = [value for o, value in opts if o == "o"]
    if len(into) > 1:
        raise OptionUnknown("sort with -o given twice")
    tabs = {value for o, value in opts if o == "t"}
    if len(tabs) > 1 or any(len(t.encode("utf-8", "surrogateescape")) != 1 for t in tabs):
        raise OptionUnknown("sort -t: an empty, multi-character or second separator")
    tab = tabs.pop().encode("utf-8", "surrogateescape")[0] if tabs else None
    keys = [_SortKey(value) for o, value in opts if o == "k"]
    # -z: records end at NUL (where a newline is a character like another)
    end = b"\0" if "z" in chosen else b"\n"
    if end == b"\0" and (keys or chosen & {"b", "s", "t", "n", "f"}):
        # (a newline is a blank there, which a number may start with: not followed)
        raise OptionUnknown("sort -z with keys, -b, -n, -s, -t or -f")
    out = Output("sort")
    # GNU sort checks that every input can be read, then opens the output (creating it, not yet
    # truncating it), and only then reads
    for name in names:
        if name != "-":
            try:
                ctx.files.kind(name)
            except VfsError as exc:
                out.error(f"cannot read: {quotef(name)}: {exc.strerror}", 2)
                return out.result()
    if into:
        try:
            ctx.files.write_bytes(into[0], b"", append=True)
        except VfsError as exc:
            out.error(f"open failed: {quotef(into[0])}: {exc.strerror}", 2)
            return out.result()
    data = bytearray()
    used: list = []
    for name in names or ["-"]:
        if name != "-" and reads_folder(ctx.files, name):
            out.error(f"read failed: {quotef(name)}: Is a directory", 2)
            return out.result()
        if name == "-":
            content = ctx.stdin if not used else b""
            used.append(True)
        else:
            content = ctx.files.read_bytes(name)
        if content and not content.endswith(end):
            content += end
        data += content
    lines = bytes(data).split(end)[:-1]
    numeric = "n" in chosen
    reverse = "r" in chosen
    by_keys = keys or chosen & {"b", "s", "f"}
    if by_keys:
        keyed = _sort_by_keys(lines, keys, tab, chosen)
    elif numeric and "u" in chosen:
        # -u turns off the last-resort comparison: equal keys keep input order
        keyed = sorted(lines, key=_numeric_cmp_key, reverse=reverse)
    elif numeric:
        keyed = sorted(lines, key=lambda l: (_numeric_cmp_key(l), l), reverse=reverse)
    else:
        keyed = sorted(lines, reverse=reverse)
    if "u" in chosen and not by_keys:
        uniq = []
        last = object()
        for line in keyed:
            k = _numeric_cmp_key(line) if numeric else line
            if k != last:
                uniq.append(line)
                last = k
        keyed = uniq
    sorted_text = b"".join(l + end for l in keyed)
    if into:
        # -o: truncated and written after every input was read, so it may be one of them
        ctx.files.write_bytes(into[0], sorted_text)
        return out.result()
    out.out += sorted_text
    return out.result()


def _sort_by_keys(lines: list, keys: list, tab, chosen: set) -> list:
    """GNU sort's order by keys: each key compared in turn (numerically under n, reversed under
    r), then, unless -s or -u, the whole line (reversed under a global -r); -u keeps the first
    of lines whose keys are all equal. A key with no option of its own takes the global
    -b, -n, -r and -f; with no -k the whole line is the one key."""
    if not keys:
        keys = [_SortKey("1")]
        keys[0].own = False
    for key in keys:
        if not key.own:
            key.skip_start = key.skip_end = "b" in chosen
            key.numeric, key.reverse, key.fold = "n" in chosen, "r" in chosen, "f" in chosen

    def parts(line: bytes) -> tuple:
        found = []
        for key in keys:
            text = key.text(line, tab)
            value = _numeric_cmp_key(text) if key.numeric else text.upper() if key.fold else text
            found.append(_Rev(value) if key.reverse else value)
        return tuple(found)

    last_resort = not ({"s", "u"} & chosen)
    whole = (lambda line: (parts(line), _Rev(line) if "r" in chosen else line)) if last_resort else parts
    ordered = sorted(lines, key=whole)  # Python's sort is stable: equal keys keep input order
    if "u" not in chosen:
        return ordered
    kept, previous = [], None
    for line in ordered:
        current = parts(line)
        if previous is None or current != previous:
            kept.append(line)
        previous = current
    return kept


def _operands(ctx: CommandContext, names: list, utility: str, dash_reads_stdin: bool = True):
    """``(name, bytes)`` of each operand (``-`` and none: stdin), or ``(name, VfsError)`` for one
    that cannot be read, for the utility to report; a directory is not modelled (its error
    depends on the file system). Without ``dash_reads_stdin``, ``-`` names a file."""
    if not names:
        yield "-", ctx.stdin
    for name in names:
        if name == "-" and dash_reads_stdin:
            yield name, ctx.stdin
            continue
        try:
            if reads_folder(ctx.files, name):
                raise OptionUnknown(f"{utility} of a directory (its error depends on the file system)")
            yield name, ctx.files.read_bytes(name)
        except VfsError as exc:
            yield name, exc


@guarded
def rev(ctx: CommandContext) -> CommandResult:
    """util-linux rev: each line's characters last to first, its newline kept at its end (a
    last line without one gets none); ASCII only (rev reverses characters of the locale)."""
    _, names = scan_options(ctx.argv, "")
    out = Output("rev")
    for _, data in _operands(ctx, names, "rev", dash_reads_stdin=False):  # (util-linux: - is a name)
        if isinstance(data, VfsError):
            raise OptionUnknown(f"rev: a file it cannot read ({data.strerror})")
        if any(b > 127 for b in data) or b"\0" in data:
            raise OptionUnknown("rev of bytes beyond ASCII, or NUL")
        records = data.split(b"\n")
        last = records.pop()
        out.out += b"".join(r[::-1] + b"\n" for r in records) + last[::-1]
    return out.result()


@guarded
def tac(ctx: CommandContext) -> CommandResult:
    """Lines last to first (a last line without a newline joins the one after it, as GNU's
    records do); -s, -b and -r are not modelled."""
    _, names = scan_options(ctx.argv, "")
    out = Output("tac")
    for name, data in _operands(ctx, names, "tac"):
        if isinstance(data, VfsError):
            out.error(f"failed to open {quote(name)} for reading: {data.strerror}")
            continue
        records = data.split(b"\n")
        last = records.pop()  # after the final newline: empty, or a line without one
        out.out += last + b"".join(r + b"\n" for r in reversed(records))
    return out.result()


@guarded
def readlink(ctx: CommandContext) -> CommandResult:
    """A symlink's target; -f, -e and -m canonicalize (-f: all but the last component must
    exist, -e: all, -m: none); -n drops the newline. Other options are not modelled."""
    opts, names = scan_options(ctx.argv, "fenm", longs={"canonicalize": ("f", False),
                                                         "canonicalize-existing": ("e", False),
                                                         "canonicalize-missing": ("m", False),
                                                         "no-newline": ("n", False)})
    chosen = [o for o, _ in opts]
    mode = next((o for o in reversed(chosen) if o in "fem"), None)
    out = Output("readlink")
    if not names:
        out.usage("missing operand")
        return out.result()
    if "n" in chosen and len(names) > 1:
        raise OptionUnknown("readlink -n with several operands (a warning)")
    end = b"" if "n" in chosen else b"\n"
    for name in names:
        found = _canonical(ctx, name, mode) if mode else _target(ctx, name)
        if found is None:
            out.status = 1
            continue
        out.out += found.encode("utf-8", "surrogateescape") + end
    return out.result()


@guarded
def realpath(ctx: CommandContext) -> CommandResult:
    """The canonical absolute path: all but the last component must exist (-e: all, -m:
    none); other options are not modelled."""
    opts, names = scan_options(ctx.argv, "em", longs={"canonicalize-existing": ("e", False),
                                                      "canonicalize-missing": ("m", False)})
    chosen = [o for o, _ in opts]
    mode = next((o for o in reversed(chosen) if o in "em"), "f")
    out = Output("realpath")
    if not names:
        out.usage("missing operand")
        return out.result()
    for name in names:
        found = _canonical(ctx, name, mode, out)
        if found is not None:
            out.out += found.encode("utf-8", "surrogateescape") + b"\n"
    return out.result()


def _target(ctx: CommandContext, name: str):
    try:
        return ctx.files.readlink(name)
    except VfsError:
        return None  # not a symlink, or missing: status 1, no message


def _canonical(ctx: CommandContext, name: str, mode: str, out: Output = None):
    """``name`` resolved to an absolute path without symlinks, ``.`` or ``..`` (``mode`` f:
    all but the last component must exist, e: all, m: none), or None after the error."""
    if name == "":
        if out is not None:
            out.error(f"{quotef(name)}: No such file or directory")
        return None
    files = ctx.files
    try:
        canon, node, _ = files._lookup(name)
    except VfsError as exc:
        if mode != "m" and out is not None:
            out.error(f"{quotef(name)}: {exc.strerror}")
        if mode == "m":
            raise OptionUnknown("readlink -m, realpath -m past a missing directory")
        return None  # (readlink says nothing: out is None)
    if node is None and mode == "e":
        if out is not None:
            out.error(f"{quotef(name)}: No such file or directory")
        return None
    return canon


def _ranges(spec: str, cmd: str):
    parts = []
    for piece in spec.split(","):
        m = re.fullmatch(r"([0-9]*)(-?)([0-9]*)", piece)
        if not m or piece in ("", "-"):
            raise OptionUnknown(f"{cmd} list {spec!r}")
        lo = int(m.group(1)) if m.group(1) else 1
        hi = int(m.group(3)) if m.group(3) else (None if m.group(2) else lo)
        if max(lo, hi or 0) >= (1 << 64) - 1:
            raise OptionUnknown(f"{cmd} list {spec!r} (a number GNU finds too large)")
        if lo == 0 or (hi is not None and hi < lo):
            raise OptionUnknown(f"{cmd} list {spec!r} (an error GNU reports)")
        parts.append((lo, hi))
    return lambda k: any(lo <= k and (hi is None or k <= hi) for lo, hi in parts)


@guarded
def cut(ctx: CommandContext) -> CommandResult:
    opts, names = scan_options(ctx.argv, "s", with_arg="dfcb",
                               longs={"delimiter": ("d", True), "fields": ("f", True),
                                      "characters": ("c", True), "bytes": ("b", True),
                                      "only-delimited": ("s", False), "output-delimiter": ("O", True)})
    delim, mode, spec, only, joiner = b"\t", None, None, False, None
    for o, v in opts:
        if o == "O":
            joiner = v.encode("utf-8", "surrogateescape") or b"\0"  # an empty one is a NUL (measured)
            continue
        if o == "d":
            d = v.encode("utf-8", "surrogateescape")
            if len(d) != 1:
                raise OptionUnknown("cut -d with other than one byte")
            delim = d
        elif o in "fcb":
            if mode is not None:
                raise OptionUnknown("cut with more than one list")
            mode, spec = o, v
        elif o == "s":
            only = True
    if mode is None:
        raise OptionUnknown("cut without a list (usage error)")
    if joiner is not None and mode != "f":
        raise OptionUnknown("cut --output-delimiter with -c or -b (it goes between ranges)")
    keep = _ranges(spec, "cut")
    out = Output("cut")
    used: list = []
    for name in names or ["-"]:
        data = read_input(ctx, name, out, used)
        if data is None:
            continue
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        for line in lines:
            if mode in "cb":
                out.out += bytes(b for k, b in enumerate(line, 1) if keep(k)) + b"\n"
                continue
            if delim not in line:
                if not only:
                    out.out += line + b"\n"
                continue
            fields = line.split(delim)
            out.out += (delim if joiner is None else joiner).join(f for k, f in enumerate(fields, 1) if keep(k)) + b"\n"
    return out.result()


_TR_CLASSES = {"upper": bytes(range(65, 91)), "lower": bytes(range(97, 123)),
               "digit": b"0123456789", "alpha": bytes(range(65, 91)) + bytes(range(97, 123)),
               "alnum": b"0123456789" + bytes(range(65, 91)) + bytes(range(97, 123)),
               "space": b"\t\n\v\f\r ", "blank": b"\t "}
_TR_ESC = {"n": 10, "t": 9, "r": 13, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11}


def _tr_set(text: str) -> bytes:
    raw = text.encode("utf-8", "surrogateescape")
    items: list = []
    i = 0
    while i < len(raw):
        m = re.match(rb"\[:([a-z]+):\]", raw[i:])
        if m:
            if m.group(1).decode() not in _TR_CLASSES:
                raise OptionUnknown(f"tr class {m.group(0)!r}")
            items.append(_TR_CLASSES[m.group(1).decode()])
            i += m.end()
            continue
        if raw[i:i + 1] == b"[" and (b"*" in raw[i:i + 4] or raw[i + 1:i + 2] == b"="):
            raise OptionUnknown("tr [c*n] or [=c=]")
        c = raw[i]
        if c == 92 and i + 1 < len(raw):
            d = chr(raw[i + 1])
            if d in _TR_ESC:
                c = _TR_ESC[d]
            elif d in "01234567":
                # one to three octal digits (a third that would pass 255 is tr's warning)
                digits = re.match(rb"[0-7]{1,3}", raw[i + 1:]).group(0)
                c = int(digits, 8)
                if c > 255:
                    raise OptionUnknown("tr octal escape above \\377")
                i += len(digits) - 1
            else:
                c = raw[i + 1]
            i += 2
        else:
            i += 1
        if i + 1 < len(raw) + 1 and raw[i:i + 1] == b"-" and i + 1 < len(raw):
            hi = raw[i + 1]
            if hi == 92:
                raise OptionUnknown("tr range ending in an escape")
            if hi < c:
                raise OptionUnknown("tr reversed range (an error GNU reports)")
            items.append(bytes(range(c, hi + 1)))
            i += 2
            continue
        items.append(bytes([c]))
    return b"".join(items)


@guarded
def tr(ctx: CommandContext) -> CommandResult:
    # tr's options end at its first operand (its getopt string starts with "+"): in `tr a -d`
    # the second set is "-d"
    opts, sets = scan_options(ctx.argv, "ds", longs={"delete": ("d", False),
                                                     "squeeze-repeats": ("s", False)}, permute=False)
    chosen = {o for o, _ in opts}
    delete, squeeze = "d" in chosen, "s" in chosen
    fewest, most = 1 + (delete == squeeze), 1 + (delete <= squeeze)  # as tr counts its operands
    if not fewest <= len(sets) <= most:
        out = Output("tr")
        if not sets:
            out.error("missing operand")
        elif len(sets) < fewest:
            out.error(f"missing operand after {quote_c(sets[-1])}")
            out.err += b"Two strings must be given when both deleting and squeezing repeats.\n" if squeeze \
                else b"Two strings must be given when translating.\n"
        else:
            out.error(f"extra operand {quote_c(sets[most])}")
            if len(sets) == 2:
                out.err += b"Only one string may be given when deleting without squeezing repeats.\n"
        out.err += b"Try 'tr --help' for more information.\n"
        return out.result()
    if any("[:upper:]" in s or "[:lower:]" in s for s in sets[1:]) and not (
            len(sets) == 2 and {sets[0], sets[1]} <= {"[:upper:]", "[:lower:]"}):
        raise OptionUnknown("tr with case classes outside [:upper:]<->[:lower:]")
    data = ctx.stdin
    if chosen == {"d"} and len(sets) == 1:
        table = set(_tr_set(sets[0]))
        return CommandResult(0, bytes(b for b in data if b not in table), b"")
    if chosen == {"s"} and len(sets) == 1:
        squeeze = set(_tr_set(sets[0]))
        return CommandResult(0, _squeeze(data, squeeze), b"")
    if chosen <= {"s"} and len(sets) == 2:
        src, dst = _tr_set(sets[0]), _tr_set(sets[1])
        if not dst:
            raise OptionUnknown("tr with an empty second set")
        if len(dst) < len(src):
            dst = dst + dst[-1:] * (len(src) - len(dst))
        mapping = {}
        for a, b in zip(src, dst):
            mapping[a] = b
        table = bytes(mapping.get(b, b) for b in range(256))
        result = data.translate(table)
        if "s" in chosen:
            result = _squeeze(result, set(_tr_set(sets[1])))
        return CommandResult(0, result, b"")
    raise OptionUnknown(f"tr {' '.join(ctx.argv[1:])}")


def _squeeze(data: bytes, chars: set) -> bytes:
    out = bytearray()
    for b in data:
        if out and b == out[-1] and b in chars:
            continue
        out.append(b)
    return bytes(out)


@guarded
def basename(ctx: CommandContext) -> CommandResult:
    """coreutils' basename: NAME [SUFFIX], or with -a (-s SUFFIX implies it) every operand a
    name; -z ends each with a NUL."""
    opts, names = scan_options(ctx.argv, "az", "s", longs=_BASENAME_LONGS, permute=False)  # "+as:z"
    out = Output("basename")
    multiple = any(letter in "as" for letter, _ in opts)
    suffix = next((value for letter, value in reversed(opts) if letter == "s"), None)
    end = b"\0" if any(letter == "z" for letter, _ in opts) else b"\n"
    if not names:
        out.usage("missing operand")
        return out.result()
    if not multiple and len(names) > 2:
        out.usage(f"extra operand {quote_c(names[2])}")
        return out.result()
    if not multiple:
        names, suffix = names[:1], names[1] if len(names) == 2 else None
    for name in names:
        stripped = name.rstrip("/")
        base = posixpath.basename(stripped) if stripped else ("/" if name else "")
        if suffix and base.endswith(suffix) and base != suffix:
            base = base[: -len(suffix)]
        out.out += base.encode("utf-8", "surrogateescape") + end
    return out.result()


_BASENAME_LONGS = {"multiple": ("a", False), "suffix": ("s", True), "zero": ("z", False)}


@guarded
def dirname(ctx: CommandContext) -> CommandResult:
    _, names = scan_options(ctx.argv, "")
    out = Output("dirname")
    if not names:
        out.usage("missing operand")
        return out.result()
    for name in names:
        stripped = name.rstrip("/")
        if not stripped:
            result = "/" if name else "."
        elif "/" not in stripped:
            result = "."
        else:
            result = stripped[: stripped.rfind("/")].rstrip("/") or "/"
        out.out += result.encode("utf-8", "surrogateescape") + b"\n"
    return out.result()


def pwd(ctx: CommandContext) -> CommandResult:
    """bash's pwd builtin: the logical cwd the caller passes."""
    if len(ctx.argv) > 1:
        return unknown("pwd with arguments")
    return CommandResult(0, ctx.cwd.encode("utf-8", "surrogateescape") + b"\n", b"")


@guarded
def ls(ctx: CommandContext) -> CommandResult:
    """Only the name listing a pipe gets (one per line, C-locale order); -a, -A, -1. An
    option ls does not have is its usage error, whatever the others are (a file name that
    starts with a dash, unquoted: ``ls *.txt`` over ``-dash.txt``)."""
    # coreutils 9.1's short options; -w and -T end ls at a value they refuse, while it scans
    refused = refuse_invalid_option(ctx.argv, "abcdfghiklmnopqrstuvxABCDFGHLNQRSUXZ1", "wIT", acting="wT",
                                    stop_at_long=True)
    if refused is not None:
        return refused
    opts, names = scan_options(ctx.argv, "aA1" + _LS_FORM, longs={"all": ("a", False),
                                                                  "almost-all": ("A", False)})
    chosen = {o for o, _ in opts}
    out = Output("ls")
    files = ctx.files
    plain, dirs = [], []
    for name in names or ["."]:
        try:
            files.kind(name)
        except VfsError as exc:
            if files.lexists(name):
                plain.append(name)
                continue
            out.error(f"cannot access {quote(name)}: {exc.strerror}", 2)
            continue
        (dirs if files.is_dir(name) else plain).append(name)
    if any(not (c.isprintable() and c != "\\") for n in names for c in n):
        raise OptionUnknown("ls of names needing quoting")
    form = chosen.intersection(_LS_FORM)
    if form:
        # a listing in another form: its status and messages, not its text
        if "d" not in chosen and any(files.mode(d) & 0o500 != 0o500 for d in dirs):
            raise OptionUnknown("ls -l and the like of a folder its owner may not read or enter")
        found = out.result()
        found.stdout, found.stdout_unknown = b"", f"the output of ls -{''.join(sorted(form))} (its form)"
        return found
    blocks = []
    if plain:
        blocks.append("".join(n + "\n" for n in sorted(plain, key=lambda s: s.encode())))
    for d in sorted(dirs, key=lambda s: s.encode()):
        entries = files.listdir(d)
        if "a" in chosen:
            entries = [".", ".."] + entries
        elif "A" not in chosen:
            entries = [e for e in entries if not e.startswith(".")]
        entries = sorted(entries, key=lambda s: s.encode())
        listing = "".join(e + "\n" for e in entries)
        if len(names) > 1:
            listing = f"{d}:\n" + listing
        blocks.append(listing)
    out.out += "\n".join(blocks).encode("utf-8", "surrogateescape")
    return out.result()


#: ls's options that change only the form of its listing, not which names it reads or its
#: status (no -R, -L, -H, and none that takes a value): long form and its columns, sizes,
#: indicators, order, quoting, columns across, -d (folders as names)
_LS_FORM = "lhsiFpgonGtSrUXvcuCxmNQqbkZBfdD"


@guarded
def uniq(ctx: CommandContext) -> CommandResult:
    """Adjacent equal lines once: -c, -d, -u, -i (ASCII case, the C locale); -f, -s, -w, -z,
    -D and an OUTPUT operand are not modelled."""
    opts, names = scan_options(ctx.argv, "cdui", longs={"count": ("c", False), "repeated": ("d", False),
                                                        "unique": ("u", False), "ignore-case": ("i", False)})
    given = {o for o, _ in opts}
    if len(names) > 1:
        raise OptionUnknown("uniq with an OUTPUT operand")
    out = Output("uniq")
    if names and names[0] != "-" and reads_folder(ctx.files, names[0]):
        out.error(f"error reading {quote(names[0])}")  # uniq reads by lines: no errno in its message
        return out.result()
    data = read_input(ctx, names[0] if names else "-", out, [])
    if data is None:
        return out.result()
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    groups: list = []
    for line in lines:
        key = line.lower() if "i" in given else line
        if groups and groups[-1][0] == key:
            groups[-1][2] += 1
        else:
            groups.append([key, line, 1])
    for _, line, count in groups:
        if "d" in given and count == 1 or "u" in given and count > 1:
            continue
        out.out += (f"{count:7d} ".encode() if "c" in given else b"") + line + b"\n"
    return out.result()


_INTEGER = re.compile(r"-?[0-9]+\Z")
#: the most numbers seq is followed for: more is unknown (a reply's output budget holds the rest)
SEQ_LIMIT = 100_000


@guarded
def seq(ctx: CommandContext) -> CommandResult:
    """Integers from FIRST by INCREMENT to LAST: -w, -s; -f, fractions and exponents are not
    modelled."""
    args, operands, separator, width_given = ctx.argv[1:], [], "\n", False
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if not arg.startswith("-") or len(arg) == 1 or arg[1].isdigit() or arg[1] == ".":
            operands.extend(args[i - 1:])  # a negative number ends the options
            break
        if arg in ("-w", "--equal-width"):
            width_given = True
        elif arg.startswith("-s") and len(arg) > 2:
            separator = arg[2:]
        elif arg in ("-s", "--separator") and i < len(args):
            separator = args[i]
            i += 1
        else:
            raise OptionUnknown(f"seq {arg}")
    out = Output("seq")
    if not operands:
        out.usage("missing operand")
        return out.result()
    if len(operands) > 3:
        out.usage(f"extra operand {quote_c(operands[3])}")
        return out.result()
    for n, operand in enumerate(operands):  # read in order: a zero increment stops before LAST
        if not _INTEGER.match(operand):
            if re.fullmatch(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?|[-+]?(inf|nan).*", operand, re.I):
                raise OptionUnknown("seq of a number that is not a plain integer")
            out.usage(f"invalid floating point argument: {quote(operand)}")
            return out.result()
        if n == 1 and len(operands) == 3 and int(operand) == 0:
            out.usage(f"invalid Zero increment value: {quote(operand)}")
            return out.result()
    if len(operands) == 1:
        first, step, last = "1", "1", operands[0]
    elif len(operands) == 2:
        first, step, last = operands[0], "1", operands[1]
    else:
        first, step, last = operands
    if first == "-0" or last == "-0":
        raise OptionUnknown("seq of -0")
    values = range(int(first), int(last) + (1 if int(step) > 0 else -1), int(step))
    if len(values) > SEQ_LIMIT:
        raise OptionUnknown(f"seq of more than {SEQ_LIMIT} numbers")
    width = max(len(first), len(last)) if width_given else 0
    texts = [(f"-{str(-v).zfill(width - 1)}" if v < 0 else str(v).zfill(width)) for v in values]
    if texts:
        out.out += (separator.join(texts) + "\n").encode("utf-8", "surrogateescape")
    return out.result()


#: paste -d's escapes (coreutils' collapse_escapes): \0 is no delimiter; another letter is itself
_PASTE_ESCAPES = {"0": b"", "b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t", "v": b"\v", "\\": b"\\"}


def _paste_delimiters(spec: str) -> list:
    delimiters, i = [], 0
    while i < len(spec):
        if spec[i] == "\\":
            if i + 1 == len(spec):
                raise OptionUnknown("paste: a delimiter list that ends with an unescaped backslash")
            letter = spec[i + 1]
            delimiters.append(_PASTE_ESCAPES.get(letter, letter.encode("utf-8", "surrogateescape")))
            i += 2
        else:
            delimiters.append(spec[i].encode("utf-8", "surrogateescape"))
            i += 1
    return delimiters or [b""]


def _lines_of(data: bytes) -> list:
    """A file's lines without their newlines; a last one without its newline is a line too."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


@guarded
def paste(ctx: CommandContext) -> CommandResult:
    """coreutils paste: the files' lines side by side, or with -s each file's on one line,
    joined by -d's delimiters in turn (tab by default); each ``-`` takes stdin's next line
    (``paste - -`` pairs them). A file it cannot open ends it before any output, but under -s,
    where each file is read in turn. -z is not modelled."""
    opts, names = scan_options(ctx.argv, "s", with_arg="d", longs={"serial": ("s", False),
                                                                   "delimiters": ("d", True)})
    serial = any(o == "s" for o, _ in opts)
    delimiters = _paste_delimiters(next((v for o, v in reversed(opts) if o == "d"), "\t"))
    out = Output("paste")
    # stdin is taken only where `-` names it (a paste of files leaves it, and the rest of a
    # script bash reads from it, alone)
    stdin = iter(_lines_of(ctx.stdin)) if not names or "-" in names else iter(())
    sources = []
    for name, data in _operands(ctx, names, "paste"):
        if isinstance(data, VfsError):
            out.error(f"{quotef(name)}: {data.strerror}")
            if not serial:
                return out.result()
            sources.append(None)
        else:
            sources.append(stdin if name == "-" else _lines_of(data))
    if serial:
        for source in sources:
            if source is None:
                continue
            lines = list(source)
            joined = bytearray(lines[0] if lines else b"")
            for k, line in enumerate(lines[1:]):
                joined += delimiters[k % len(delimiters)] + line
            out.out += joined + b"\n"
        return out.result()
    for k in itertools.count():
        row = [next(source, None) if source is stdin else source[k] if k < len(source) else None
               for source in sources]
        if all(field is None for field in row):
            break
        line = bytearray()
        for i, field in enumerate(row):
            if i:
                line += delimiters[(i - 1) % len(delimiters)]
            line += field or b""
        out.out += line + b"\n"
    return out.result()


@guarded
def comm(ctx: CommandContext) -> CommandResult:
    """coreutils comm over two sorted files, byte by byte (the C locale): the lines of FILE1
    alone, of FILE2 alone, and of both, in three columns (-1, -2, -3 leave one out) apart by
    --output-delimiter (a tab; an empty one is a NUL byte), --total's counts, -z. Input out
    of order is said once per file, where its check applies (--check-order: at once, and it
    ends comm; by default once a line was unpairable, and the status is 1 at the end)."""
    opts, names = scan_options(ctx.argv, "123z", longs={
        "check-order": ("c", False), "nocheck-order": ("n", False), "output-delimiter": ("d", True),
        "total": ("t", False), "zero-terminated": ("z", False)})
    given = {o for o, _ in opts}
    out = Output("comm", in_order=True)
    separators = [v for o, v in opts if o == "d"]
    if any(v != separators[0] for v in separators):
        out.error("multiple output delimiters specified")
        return out.result()
    if len(names) != 2:
        out.usage("missing operand" if not names else f"missing operand after {quote(names[0])}"
                  if len(names) == 1 else f"extra operand {quote(names[2])}")
        return out.result()
    if names == ["-", "-"]:
        raise OptionUnknown("comm reading stdin as both files")
    separator = (separators[0].encode("utf-8", "surrogateescape") or b"\0") if separators else b"\t"
    delim = b"\0" if "z" in given else b"\n"
    check = "off" if "n" in given and ("c" not in given or _last(opts, "cn") == "n") else \
        "on" if "c" in given else "default"
    files = []
    for name in names:
        if name != "-" and reads_folder(ctx.files, name):
            out.error(f"{quotef(name)}: Is a directory")
            return out.result()
        data = read_input(ctx, name, out, [])
        if data is None:
            return out.result()
        lines = data.split(delim)
        if lines[-1] == b"":
            lines.pop()
        files.append(lines)
    totals = [0, 0, 0]
    at = [0, 0]
    warned = [False, False]
    unpairable = False

    def checked(i: int, before: bytes, after: bytes) -> bool:
        """check_order: False where --check-order ends comm here."""
        if check == "off" or check == "default" and not unpairable or warned[i] or before <= after:
            return True
        out.error(f"file {i + 1} is not in sorted order", 1 if check == "on" else 0)
        warned[i] = True
        return check != "on"

    while at[0] < len(files[0]) or at[1] < len(files[1]):
        first = files[0][at[0]] if at[0] < len(files[0]) else None
        second = files[1][at[1]] if at[1] < len(files[1]) else None
        order = 1 if first is None else -1 if second is None else (first > second) - (first < second)
        if order == 0:
            totals[2] += 1
            if "3" not in given:
                out.out += separator * (("1" not in given) + ("2" not in given)) + second + delim
        else:
            unpairable = True
            if order < 0:
                totals[0] += 1
                if "1" not in given:
                    out.out += first + delim
            else:
                totals[1] += 1
                if "2" not in given:
                    out.out += separator * ("1" not in given) + second + delim
        for i in ([0, 1] if order == 0 else [0] if order < 0 else [1]):
            at[i] += 1
            lines = files[i]
            if at[i] < len(lines):
                ok = checked(i, lines[at[i] - 1], lines[at[i]])
            else:  # at the end, the last two lines again: an unpairable line may have come since
                ok = at[i] < 2 or checked(i, lines[at[i] - 2], lines[at[i] - 1])
            if not ok:
                return out.result()
    if "t" in given:
        out.out += b"%d%s%d%s%d%stotal%s" % (totals[0], separator, totals[1], separator, totals[2], separator, delim)
    if any(warned):
        out.error("input is not in sorted order")
    return out.result()


def _last(opts: list, letters: str) -> str:
    """Which of ``letters`` was given last."""
    return next(o for o, _ in reversed(opts) if o in letters)


def _width(opts: list, letter: str, default: int, utility: str) -> int:
    """The last value of option ``letter`` (a width, a tab size), ``default`` without one; only
    plain decimal digits above 0 are followed."""
    value = next((v for o, v in reversed(opts) if o == letter), None)
    if value is None:
        return default
    if not value.isdigit() or not value.isascii() or int(value) == 0:
        raise OptionUnknown(f"{utility} -{letter} {value!r}")
    return int(value)


@guarded
def expand(ctx: CommandContext) -> CommandResult:
    """coreutils expand: each tab to spaces up to the next stop (every 8 columns, or -t N),
    -i only those before a line's first other character; a backspace steps a column back.
    Lists of stops (-t 4,8) and the -N spelling are not modelled."""
    opts, names = scan_options(ctx.argv, "i", "t", longs={"initial": ("i", False), "tabs": ("t", True)})
    size = _width(opts, "t", 8, "expand")
    initial = any(letter == "i" for letter, _ in opts)
    out = Output("expand")
    for name, data in _operands(ctx, names, "expand"):
        if isinstance(data, VfsError):
            out.error(f"{quotef(name)}: {data.strerror}")
            continue
        column, leading = 0, True
        for byte in data:
            if byte == 9 and (leading or not initial):
                stop = (column // size + 1) * size
                out.out += b" " * (stop - column)
                column = stop
                continue
            if byte == 10:
                column, leading = 0, True
            else:
                # (a tab here follows a line's first other character: no column counts after it)
                column = max(0, column - 1) if byte == 8 else column + 1
                leading = leading and byte == 32
            out.out.append(byte)
    return out.result()


def _fold_column(column: int, byte: int, count_bytes: bool) -> int:
    """The column after ``byte`` (fold.c adjust_column)."""
    if count_bytes:
        return column + 1
    if byte == 8:
        return max(0, column - 1)
    if byte == 13:
        return 0
    if byte == 9:
        return column + 8 - column % 8
    return column + 1


@guarded
def fold(ctx: CommandContext) -> CommandResult:
    """coreutils fold: lines broken before the column that would pass WIDTH (-w, 80), at the
    last blank before it with -s, counting bytes with -b (else a tab to the next multiple of 8,
    a backspace back, a carriage return to 0). The -N spelling is not modelled."""
    opts, names = scan_options(ctx.argv, "bs", "w", longs={"bytes": ("b", False), "spaces": ("s", False),
                                                          "width": ("w", True)})
    width = _width(opts, "w", 80, "fold")
    flags = {letter for letter, _ in opts}
    count_bytes, spaces = "b" in flags, "s" in flags
    out = Output("fold")
    for name, data in _operands(ctx, names, "fold"):
        if isinstance(data, VfsError):
            out.error(f"{quotef(name)}: {data.strerror}")
            continue
        out.out += _folded(data, width, count_bytes, spaces)
    return out.result()


def _folded(data: bytes, width: int, count_bytes: bool, spaces: bool) -> bytes:
    out, line, column = bytearray(), bytearray(), 0
    for byte in data:
        if byte == 10:
            out += line + b"\n"
            line, column = bytearray(), 0
            continue
        while True:
            column = _fold_column(column, byte, count_bytes)
            if column <= width:
                line.append(byte)
                break
            blank = max(line.rfind(b" "), line.rfind(b"\t")) if spaces else -1
            if blank >= 0:
                out += line[:blank + 1] + b"\n"
                line = line[blank + 1:]
                column = 0
                for kept in line:
                    column = _fold_column(column, kept, count_bytes)
                continue
            if not line:
                line.append(byte)
                break
            out += line + b"\n"
            line, column = bytearray(), 0
    return bytes(out + line)


MODELS = {"head": head, "tail": tail, "wc": wc, "sort": sort, "cut": cut, "tr": tr, "uniq": uniq, "seq": seq,
          "tac": tac, "rev": rev, "readlink": readlink, "realpath": realpath,
          "basename": basename, "dirname": dirname, "pwd": pwd, "ls": ls, "paste": paste, "comm": comm,
          "expand": expand, "fold": fold}
