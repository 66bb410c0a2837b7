"""GNU findutils 4.9 find, the listing subset: -name -iname -type -maxdepth -mindepth -print -print0 and !.

Actions that run or delete (-exec, -delete, -execdir, -ok) and operators
(-o, parentheses) are ``unknown``: -exec belongs to the evaluator. Order: the
model lists a directory's entries sorted by name; real find uses the order the
file system returns, which no listing records, so output in which two paths
lie side by side is ``stdout_unordered``: its lines are known, not their order.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re

from .common import Output, OptionUnknown, guarded, quote
from .context import CommandContext, CommandResult
from .vfs import VfsError

__all__ = ["find"]

_TYPES = {"f": "file", "d": "dir", "l": "symlink"}
# every word findutils 4.9 reads as a predicate, option or operator: any other word with a dash is
# its "unknown predicate" error, found before anything is listed
_GNU_PREDICATES = frozenset(
    "-amin -anewer -atime -cmin -cnewer -ctime -daystart -delete -depth -empty -exec -execdir -executable "
    "-false -fls -follow -fprint -fprint0 -fprintf -fstype -gid -group -help --help -ignore_readdir_race "
    "-ilname -iname -inum -ipath -iregex -iwholename -links -lname -ls -maxdepth -mindepth -mmin -mount "
    "-mtime -name -newer -nogroup -noignore_readdir_race -noleaf -not -nouser -ok -okdir -or -o -and -a "
    "-path -perm -print -print0 -printf -prune -quit -readable -regex -regextype -samefile -size -true "
    "-type -uid -used -user -version --version -wholename -writable -xdev -xtype -context -files0-from "
    "-D -O -H -L -P -warn -nowarn -d".split())


def _name_test(pattern: str, fold: bool):
    if "\\" in pattern or "[^" in pattern or (("[" in pattern) != ("]" in pattern)):
        raise OptionUnknown(f"find -name pattern {pattern!r}")
    rx = re.compile(fnmatch.translate(pattern), re.S | (re.I if fold else 0))
    return lambda base: rx.match(base) is not None


def _path_after_expression(ctx, out, arg, last):
    """find refuses an operand after the expression began (a glob the shell expanded, most often),
    and when such a file exists names the predicate before it as the likely culprit."""
    out.error(f"paths must precede expression: `{arg}'")
    if last is not None and last.startswith("-"):
        try:
            exists = ctx.files.exists(arg)
        except VfsError:
            exists = False
        if exists:
            out.err += f"find: possible unquoted pattern after predicate `{last}'?\n".encode("utf-8", "surrogateescape")
    elif last is not None:
        raise OptionUnknown(f"find: {arg!r} after {last!r}")
    return out.result()


@guarded
def find(ctx: CommandContext) -> CommandResult:
    args = ctx.argv[1:]
    starts = []
    while args and not (args[0].startswith("-") and len(args[0]) > 1) and args[0] not in ("!", "("):
        starts.append(args.pop(0))
    tests = []          # (negated, predicate(path, kind, base, depth))
    actions = []
    maxdepth, mindepth = None, 0
    out = Output("find")
    negate = False
    last = None  # the last predicate read, named in find's hint about an unquoted pattern
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if not a.startswith("-") and a not in ("!", "(", ")", ","):
            return _path_after_expression(ctx, out, a, last)
        last = a
        if a in ("!", "-not"):
            if negate:
                raise OptionUnknown("find with ! twice in a row")
            negate = True
            continue
        if a in ("-a", "-and"):
            continue
        if a in ("-name", "-iname", "-type", "-maxdepth", "-mindepth"):
            if i >= len(args):
                out.error(f"missing argument to `{a}'")
                return out.result()
            value = args[i]
            i += 1
            if a in ("-name", "-iname"):
                test = _name_test(value, a == "-iname")
                tests.append((negate, lambda p, k, b, d, t=test: t(b)))
            elif a == "-type":
                if value not in _TYPES:
                    if len(value) == 1 and value in "bcpsD":
                        raise OptionUnknown(f"find -type {value}")
                    out.error(f"Unknown argument to -type: {value}")
                    return out.result()
                tests.append((negate, lambda p, k, b, d, want=_TYPES[value]: k == want))
            else:
                if not re.fullmatch(r"[0-9]+", value):
                    raise OptionUnknown(f"find {a} {value!r}")
                if negate:
                    raise OptionUnknown("find ! before a global option")
                if a == "-maxdepth":
                    maxdepth = int(value)
                else:
                    mindepth = int(value)
            negate = False
            continue
        if a in ("-print", "-print0"):
            if negate:
                raise OptionUnknown("find ! -print")
            actions.append((len(tests), b"\n" if a == "-print" else b"\0"))
            continue
        if a != "-" and a not in _GNU_PREDICATES and not a.startswith("-newer"):
            out.error(f"unknown predicate `{a}'")
            return out.result()
        raise OptionUnknown(f"find {a}")
    if negate:
        raise OptionUnknown("find: a trailing !")
    if not actions:
        actions = [(len(tests), b"\n")]
    files = ctx.files
    unordered = False
    for start in starts or ["."]:
        printed: list = []
        try:
            kind = files.kind(start, follow_symlinks=False)
        except VfsError as exc:
            out.error(f"{quote(start)}: {exc.strerror}")
            continue
        stack = [(start, kind, 0)]
        while stack:
            path, kind, depth = stack.pop()
            base = posixpath.basename(path.rstrip("/")) or "/"
            if depth >= mindepth:
                done = 0
                ok = True
                for upto, term in actions:
                    while ok and done < upto:
                        neg, pred = tests[done]
                        ok = pred(path, kind, base, depth) != neg
                        done += 1
                    if ok:
                        out.out += path.encode("utf-8", "surrogateescape") + term
                        printed.append(path)
            if kind == "dir" and (maxdepth is None or depth < maxdepth):
                children = []
                for name in files.listdir(path):
                    child = path + name if path.endswith("/") else path + "/" + name
                    children.append((child, files.kind(child, follow_symlinks=False), depth + 1))
                stack.extend(reversed(children))
        # a directory's entries come in the order its file system keeps, not by name: unless
        # each path printed lies under the one before, another order is as likely
        unordered = unordered or any(not later.startswith(earlier.rstrip("/") + "/")
                                     for earlier, later in zip(printed, printed[1:]))
    result = out.result()
    if unordered:
        result.stdout_unordered = "the order find lists a directory in"
    return result
