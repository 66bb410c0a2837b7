"""GNU findutils 4.9 xargs: items read from stdin, run as a command's arguments.

Items are split at blanks and newlines, with quotes and backslashes (or at NULs
with -0, at one character with -d); -n, -I and -r shape the runs. Each run is
a utility model of this package over the same tree, its stdin /dev/null, as
xargs gives its children. A command the models do not know, and -P above 1,
-p, -L, -s, -x, -t, -E, -e, -a and -i, are not modelled.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Optional

from .children import run_child
from .common import Output, OptionUnknown, guarded, scan_options
from .context import CommandContext, CommandResult, unknown
from .vfs import same_entries

__all__ = ["xargs_over"]

#: the most bytes of arguments one run takes before GNU xargs splits them (its default, -s)
_ARGS_LIMIT = 128 * 1024 - 2048
_BLANKS = " \t\n"
#: items in no known order are run in each of their orders: 4! = 24 at most
_MOST_ITEMS = 4


def _options(argv: list):
    """({option: value or True}, the command) as xargs's getopt reads them: options end at
    the first word that is none."""
    opts, command = scan_options(argv, "0r", "dnIP", longs=_LONGS, permute=False)
    valued = [letter for letter, value in opts if value is not None]
    if len(set(valued)) != len(valued):
        # xargs checks each value as it scans: an earlier one may fail though a later one would not
        raise OptionUnknown("xargs with an option given twice")
    return {letter: True if value is None else value for letter, value in opts}, command


_LONGS = {"null": ("0", False), "no-run-if-empty": ("r", False), "delimiter": ("d", True),
          "max-args": ("n", True), "replace": ("I", True), "max-procs": ("P", True)}


# -d's escapes that name one character (findutils 4.9, measured: `-d '\\n'` splits at newlines)
_DELIMITER_ESCAPES = {"\\a": "\a", "\\b": "\b", "\\f": "\f", "\\n": "\n", "\\r": "\r", "\\t": "\t",
                      "\\v": "\v", "\\\\": "\\", "\\0": "\0"}


def _split(data: bytes, given: dict, out: Output):
    """The items of stdin (those before the error, after one, with ``out`` failed)."""
    text = data.decode("utf-8", "surrogateescape")
    delim = "\0" if "0" in given else given.get("d")
    delim = _DELIMITER_ESCAPES.get(delim, delim)
    if "\0" in text and delim != "\0":  # an argument ends at a NUL when xargs runs the command
        raise OptionUnknown("xargs input holding a NUL")
    if delim is not None:
        if len(delim) != 1:
            raise OptionUnknown("xargs -d with an octal or hex escape, or more than one character")
        items = text.split(delim)
        if items and items[-1] == "":
            items.pop()
        return items
    return _words(text, out, blanks_split="I" not in given)


def _words(text: str, out: Output, blanks_split: bool) -> list:
    """Items as xargs reads them: a newline ends one, and so do blanks (``blanks_split``;
    with -I they do not, but those before an item are skipped), unless quoted or escaped;
    a quote runs to its match on the same line. An item a separator ends counts even when
    empty (``''``); at the end of the input only a nonempty one does."""
    items: list = []
    current: list = []
    started = False
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\n" or c in " \t" and blanks_split:
            if started:
                items.append("".join(current))
            current, started = [], False
        elif c in " \t" and not started:
            pass  # (-I) a blank before an item
        elif c in "'\"":
            end = text.find(c, i + 1)
            newline = text.find("\n", i + 1)
            if end < 0 and newline < 0:
                raise OptionUnknown("a quote xargs reads to the end of its input")
            if end < 0 or 0 <= newline < end:
                kind = "single" if c == "'" else "double"
                out.error(f"unmatched {kind} quote; by default quotes are special to xargs unless "
                          "you use the -0 option")
                return items  # xargs runs what it read before, then fails
            current.append(text[i + 1:end])
            started = True
            i = end
        elif c == "\\":
            if i + 1 < len(text):
                current.append(text[i + 1])
                i += 1
            started = True
        else:
            current.append(c)
            started = True
        i += 1
    if "".join(current):
        items.append("".join(current))
    return items


def xargs_over(models: Mapping):
    """The model of xargs whose runs are the programs of ``models`` (the registry's table,
    which holds this model too)."""

    @guarded
    def xargs(ctx: CommandContext) -> CommandResult:
        if not ctx.stdin_unordered:
            return _xargs(ctx, models, ctx.tree, None)
        # items in no known order (find's output): run them in each of their orders, all but the
        # first over a copy of the tree; what differs beyond the order of output lines is unknown
        given = _options(ctx.argv)[0]
        delim = "\0" if "0" in given else given.get("d")
        if delim is not None and _DELIMITER_ESCAPES.get(delim, delim) != ("\0" if b"\0" in ctx.stdin else "\n"):
            # (-0 over lines: one item holding them all, in an order not known)
            return unknown("xargs items that are not the lines (or NUL-ended names) given in no known order")
        count = len(_split(ctx.stdin, given, Output("xargs")))
        if count > _MOST_ITEMS:
            return unknown(f"xargs over {count} items in no known order (each order is run up to "
                           f"{_MOST_ITEMS} items)")
        untouched = ctx.tree.clone()
        first = _xargs(ctx, models, ctx.tree, None)
        if first.unknown is not None:
            return first
        for order in list(itertools.permutations(range(count)))[1:]:
            other = _xargs(ctx, models, untouched.clone(), order, compare=ctx.tree)
            if other.unknown is not None:
                return other
            if (first.status, sorted(first.stderr.split(b"\n")), sorted(first.stdout.split(b"\n"))) != \
                    (other.status, sorted(other.stderr.split(b"\n")), sorted(other.stdout.split(b"\n"))):
                return unknown("xargs runs that depend on the order of lines find gave in no known order")
            first.stdout_unknown = first.stdout_unknown or other.stdout_unknown
            if first.stdout != other.stdout:
                first.stdout_unordered = "the order of the lines xargs read"
            if first.stderr != other.stderr:
                first.stderr_unknown = "the order of xargs's runs"
        if first.stderr_unknown:
            first.stderr = b""
        return first

    return xargs


def _xargs(ctx: CommandContext, models: Mapping, tree, order: Optional[tuple],
           compare=None) -> CommandResult:
    """xargs over ``tree``, its items in ``order`` (their indexes; None: as they come); with
    ``compare``, unknown when the final ``tree`` holds other entries than that tree."""
    given, command = _options(ctx.argv)
    if given.get("P", "1") != "1":
        raise OptionUnknown("xargs -P (runs at once)")
    command = command or ["echo"]
    if "I" in given and "n" in given:
        raise OptionUnknown("xargs -I with -n (a warning, and one of them ignored)")
    out = Output("xargs")
    items = _split(ctx.stdin, given, out)
    if order is not None:
        items = [items[k] for k in order]
    failed = out.status
    if "I" in given:
        mark = given["I"]
        runs = [command[:1] + [arg.replace(mark, item) for arg in command[1:]] for item in items]
    else:
        size = given.get("n")
        if size is not None and (not size.isdigit() or int(size) < 1):
            raise OptionUnknown(f"xargs -n {size}")
        step = int(size) if size is not None else max(len(items), 1)
        runs = [command + items[k:k + step] for k in range(0, len(items), step)]
        if not runs and "r" not in given and not failed:
            runs = [command]
    status = 0
    unsaid = None  # why the output is not known: a run's (ls -l's form), which is xargs's
    for argv in runs:
        if sum(len(a.encode("utf-8", "surrogateescape")) + 1 for a in argv) > _ARGS_LIMIT:
            raise OptionUnknown("xargs arguments past the size of one run")
        child = run_child(ctx, argv, models, tree=tree)
        if child.unknown is not None:
            return child
        if child.status_unknown:
            return unknown(f"xargs running {argv[0]} ({child.status_unknown})")
        if child.stderr_unknown:
            out.more_errors = out.more_errors or f"stderr of {argv[0]} ({child.stderr_unknown})"
        if child.stdout_unknown:
            unsaid = unsaid or f"the output of xargs running {argv[0]} ({child.stdout_unknown})"
        out.out += child.stdout
        out.err += child.stderr
        if child.status == 255:
            # (measured, findutils 4.9) no later run starts
            out.error(f"{argv[0]}: exited with status 255; aborting", 124)
            out.status = 124
            return out.result()
        if child.status >= 126:
            return unknown(f"xargs after {argv[0]} exited {child.status}")
        if child.status:
            status = 123
    out.status = failed or status
    if compare is not None and not same_entries(tree, compare):
        return unknown("xargs runs that depend on the order of lines find gave in no known order")
    found = out.result()
    if unsaid is not None:
        found.stdout, found.stdout_unknown = b"", unsaid
    return found
