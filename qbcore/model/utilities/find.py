"""GNU findutils 4.9 find: -name -iname -type -perm -maxdepth -mindepth -print -print0 -printf !
-exec and -delete.

-exec runs each command as a model of the registry's table (``{} ;`` once for
each path, its status a test; ``{} +`` once for all of them, after the walk).
-delete is followed as the only action, on entries that are no folders: it
turns on -depth, which changes only the order folders are acted on in.
-execdir, -ok and the operators -o and parentheses are ``unknown``.
Order: real find lists a directory in the order its file system keeps, which
no listing records. The model walks the tree both ways, names sorted up and
down: runs that change the tree or say different things in the two orders are
``unknown``, and output in which two paths lie side by side is
``stdout_unordered`` (its lines are known, not their order).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re

from collections.abc import Mapping

from .children import run_child
from .common import Output, OptionUnknown, guarded, quote_c
from .context import CommandContext, CommandResult
from .fileops import adjust_mode, compile_mode
from .vfs import VfsError, changed_paths, same_entries

__all__ = ["find_over"]

_TYPES = {"f": "file", "d": "dir", "l": "symlink"}


def _type_list(value: str) -> tuple:
    """(the kinds ``-type VALUE`` selects, None) or (None, find's message refusing VALUE), as
    findutils 4.9 reads it: one letter, or letters apart by commas (``f,d``), each once."""
    if not value:
        return None, "Arguments to -type should contain at least one letter"
    kinds: list = []
    i = 0
    while True:
        letter = value[i]
        if letter not in _TYPES:
            if letter in "bcpsD" or not letter.isascii():
                raise OptionUnknown(f"find -type {letter}")
            return None, f"Unknown argument to -type: {letter}"
        if _TYPES[letter] in kinds:
            return None, f"Duplicate file type '{letter}' in the argument list to -type."
        kinds.append(_TYPES[letter])
        i += 1
        if i == len(value):
            return tuple(kinds), None
        if value[i] != ",":
            return None, "Must separate multiple arguments to -type using: ','"
        i += 1
        if i == len(value):
            return None, "Last file type in list argument to -type is missing, i.e., list is ending on: ','"


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


_PRINTF_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\"}


def _printf_format(fmt: str) -> list:
    """-printf's FORMAT: literal text and the directives followed, ``%p %P %f %h %d %y %%``,
    with ``\\n \\t \\\\`` and ``\\0`` (NUL, where no octal digit follows: ``\\NNN`` is octal).
    Each record must be one line, ended by the format's only newline, or one NUL-ended record
    as -print0 makes: find's records may come in no known order, and only whole records are
    judged so."""
    parts: list = []
    text = []
    k = 0
    while k < len(fmt):
        c = fmt[k]
        if c == "\\" and fmt[k + 1:k + 2] in _PRINTF_ESCAPES:
            text.append(_PRINTF_ESCAPES[fmt[k + 1]])
            k += 2
        elif c == "\\" and fmt[k + 1:k + 2] == "0" and fmt[k + 2:k + 3] not in tuple("01234567"):
            text.append("\0")
            k += 2
        elif c == "%" and fmt[k + 1:k + 2] == "%":
            text.append("%")
            k += 2
        elif c == "%" and fmt[k + 1:k + 2] and fmt[k + 1] in "pPfhdy":
            parts.append("".join(text))
            text = []
            parts.append(fmt[k + 1])
            k += 2
        elif c in "%\\":
            raise OptionUnknown("find -printf with a directive or escape not followed")
        else:
            text.append(c)
            k += 1
    parts.append("".join(text))
    literal = "".join(parts[::2])
    end = literal[-1:]
    if end not in ("\n", "\0") or literal.count("\n") + literal.count("\0") != 1 or not parts[-1].endswith(end):
        raise OptionUnknown("find -printf whose records are not one line or one NUL-ended record each")
    return parts


def _printed(parts: list, path: str, start: str, kind: str, depth: int) -> bytes:
    """One record of -printf (gnulib's base_name and dir_name for %f and %h)."""
    out = []
    for k, part in enumerate(parts):
        if k % 2 == 0:
            out.append(part)
            continue
        bare = path.rstrip("/")
        cut = bare.rfind("/")
        if part == "p":
            out.append(path)
        elif part == "P":
            out.append(path[len(start):].lstrip("/") if path != start else "")
        elif part == "f":
            out.append(path if cut < 0 else path[cut + 1:])
        elif part == "h":
            out.append("." if cut < 0 else bare[:cut] or "/")
        elif part == "d":
            out.append(str(depth))
        else:
            out.append({"file": "f", "dir": "d", "symlink": "l"}[kind])
    return "".join(out).encode("utf-8", "surrogateescape")


def _name_test(pattern: str, fold: bool):
    if "[^" in pattern or (("[" in pattern) != ("]" in pattern)) or "\\" in pattern and "[" in pattern:
        raise OptionUnknown(f"find -name pattern {pattern!r}")
    if re.search(r"(?<!\\)(?:\\\\)*\\\Z", pattern):
        return lambda base: False  # fnmatch(3) matches no name against a lone backslash at the end
    rx = re.compile(_escaped_glob(pattern) if "\\" in pattern else fnmatch.translate(pattern),
                    re.S | (re.I if fold else 0))
    return lambda base: rx.match(base) is not None


def _escaped_glob(pattern: str) -> str:
    """The regex of a -name pattern without brackets in which a backslash makes the next
    character literal (fnmatch(3) without FNM_NOESCAPE)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "*" else "." if c == "?" else re.escape(c))
        i += 1
    return "(?:" + "".join(out) + r")\Z"


def _perm_test(value: str):
    """``-perm MODE`` (every permission bit as MODE), ``-MODE`` (all of MODE's bits set) or
    ``/MODE`` (any of them), MODE octal or symbolic as chmod reads it, from no bits and under no
    umask (findutils parse_perm, pred_perm); the entry's own mode, a symlink's not followed."""
    kind, text = {"-": ("all", value[1:]), "/": ("any", value[1:])}.get(value[:1], ("exact", value))
    if value[:1] == "+":
        raise OptionUnknown("find -perm +MODE")  # a mode, or the old spelling of /MODE
    changes = compile_mode(text)
    if changes is None:
        raise OptionUnknown(f"find -perm {value!r} (an invalid mode)")
    wanted = (adjust_mode(0, False, changes, umask=0), adjust_mode(0, True, changes, umask=0))
    if kind == "any" and wanted == (0, 0):
        raise OptionUnknown("find -perm /000 (a warning, then every entry)")

    def test(files, path, entry_kind, base, depth):
        mode = files.lmode(path) & 0o7777
        bits = wanted[entry_kind == "dir"]
        if kind == "exact":
            return mode == bits
        # /MODE whose bits for this kind of entry are none matches it (pred_perm)
        return mode & bits == bits if kind == "all" else mode & bits != 0 or not bits
    return test


def acts_only_on_names(argv: list):
    """A test every entry ``find ARGV`` acts on passes (prints it, runs -exec on it): its -name
    and -iname tests before its first action, in a conjunction; None when not known. A file
    that fails it is nothing to that find, wherever the walk meets it."""
    args, i = list(argv[1:]), 0
    if any(a in ("-o", "-or", ",", "(", ")") for a in args):
        return None
    while i < len(args) and not (args[i].startswith("-") and len(args[i]) > 1) and args[i] not in ("!", "("):
        i += 1
    tests = []
    while i < len(args):
        a = args[i]
        if a in ("-name", "-iname") and i + 1 < len(args):
            try:
                tests.append(_name_test(args[i + 1], a == "-iname"))
            except OptionUnknown:
                return None
        elif a not in ("-type", "-maxdepth", "-mindepth") or i + 1 >= len(args):
            break  # an action, or what the walk may not follow: tests after it do not count
        i += 2
    if not tests:
        return None
    return lambda base: all(test(base) for test in tests)


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


def find_over(models: Mapping):
    """The model of find whose -exec runs the programs of ``models`` (the registry's table,
    which holds this model too)."""

    @guarded
    def find(ctx: CommandContext) -> CommandResult:
        return _find(ctx, models)

    return find


class _Runs:
    """The -exec runs of one walk: over ``tree``, those of ``{} +`` gathered in ``batches``."""

    def __init__(self, ctx: CommandContext, models: Mapping, tree):
        self.ctx, self.models, self.tree = ctx, models, tree
        self.batches: dict = {}
        self.printed: list = []
        # the folders the walk has listed (read whole, as fts reads one): a name a run creates
        # in one of them is never met by the walk
        self.listed: set = set()
        self.failed = False
        self.out = Output("find")

    def each(self, command: list, path: str, kind: str) -> bool:
        """``-exec … ;`` on ``path``: its status is the test's value."""
        argv = [word.replace("{}", path) for word in command]
        self.printed.append(path)
        before = dict(self.tree.nodes())
        child = run_child(self.ctx, argv, self.models, tree=self.tree)
        _check(child, argv, self.out)
        changed = changed_paths(before, self.tree)
        if changed:
            target = self.tree.at(self.ctx.cwd)._lookup(path, False)[0]
            if kind == "dir" or any(k != target and (k in before or not k.startswith(target)) and
                                    not (k not in before and posixpath.dirname(k) in self.listed) for k in changed):
                # the walk may meet what it changed, or another path's run may: not followed
                # (a new name in a folder the walk has read is not met)
                raise OptionUnknown(f"find -exec {command[0]} that changes what the walk may meet")
        self.out.out += child.stdout
        self.out.err += child.stderr
        return child.status == 0

    def gather(self, n: int, path: str):
        self.batches.setdefault(n, []).append(path)

    def finish(self, commands: dict):
        """Run each ``{} +`` command on the paths it gathered (none: it does not run)."""
        for n, command in commands.items():
            paths = self.batches.get(n)
            if not paths:
                continue
            argv = command[:-2] + paths  # (its last words are {} and +)
            child = run_child(self.ctx, argv, self.models, tree=self.tree)
            _check(child, argv, self.out)
            self.out.out += child.stdout
            self.out.err += child.stderr
            self.failed = self.failed or child.status != 0


def _check(child: CommandResult, argv: list, out: Output):
    """A run find follows: its status and stdout known (its stderr may be named unknown)."""
    if child.unknown is not None:
        raise OptionUnknown(f"find -exec {argv[0]} ({child.unknown})")
    if child.status_unknown or child.stdout_unknown or child.stdout_unordered:
        raise OptionUnknown(f"find -exec {argv[0]}, which the model does not wholly follow")
    if child.stderr_unknown:
        out.more_errors = out.more_errors or f"stderr of {argv[0]} ({child.stderr_unknown})"


def _find(ctx: CommandContext, models: Mapping) -> CommandResult:
    args = ctx.argv[1:]
    starts = []
    while args and not (args[0].startswith("-") and len(args[0]) > 1) and args[0] not in ("!", "("):
        starts.append(args.pop(0))
    tests = []          # (negated, predicate(files, path, kind, base, depth), or ("exec", command))
    actions = []        # (how many tests before it, b"\n" or b"\0" to print, -printf's parts, ("+", n) or None)
    batched: dict = {}  # the action's index -> the command of an -exec … {} +
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
        if a in ("-name", "-iname", "-type", "-maxdepth", "-mindepth", "-perm"):
            if i >= len(args):
                out.error(f"missing argument to `{a}'")
                return out.result()
            value = args[i]
            i += 1
            if a in ("-name", "-iname"):
                test = _name_test(value, a == "-iname")
                tests.append((negate, lambda f, p, k, b, d, t=test: t(b)))
            elif a == "-type":
                kinds, refused = _type_list(value)
                if refused:
                    out.error(refused)
                    return out.result()
                tests.append((negate, lambda f, p, k, b, d, want=kinds: k in want))
            elif a == "-perm":
                tests.append((negate, _perm_test(value)))
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
        if a == "-printf":
            if i >= len(args):
                out.error("missing argument to `-printf'")
                return out.result()
            if negate:
                raise OptionUnknown("find ! -printf")
            parts = _printf_format(args[i])
            if any(start.endswith("/") and start != "/" for start in starts) and ("f" in parts or "h" in parts):
                # measured: find d/ gives %h d, find tree/ gives %h .
                raise OptionUnknown("find -printf %f or %h under a starting point that ends in a slash")
            actions.append((len(tests), parts))
            i += 1
            continue
        if a == "-delete":
            if negate:
                raise OptionUnknown("find ! -delete")
            actions.append((len(tests), "delete"))
            continue
        if a == "-exec":
            end = next((j for j in range(i, len(args)) if args[j] == ";" or args[j] == "+" and args[j - 1] == "{}"
                        and j > i), None)
            if end is None or end == i:
                # a `;` right after -exec is a word find refuses; without one, the end is missing
                out.error("invalid argument `;' to `-exec'" if end == i else "missing argument to `-exec'")
                return out.result()
            command, i = args[i:end + 1], end + 1
            if command[-1] == "+":
                if negate or any("{}" in word for word in command[:-2]):
                    raise OptionUnknown("find -exec … {} + with ! or another {}")
                batched[len(actions)] = command
                actions.append((len(tests), ("+", len(actions))))
            else:
                tests.append((negate, ("exec", command[:-1])))
                actions.append((len(tests), None))
            negate = False
            continue
        if a != "-" and a not in _GNU_PREDICATES and a not in ("(", ")", ",") and not a.startswith("-newer"):
            out.error(f"unknown predicate `{a}'")
            return out.result()
        raise OptionUnknown(f"find {a}")
    if negate:
        raise OptionUnknown("find: a trailing !")
    if not actions:
        actions = [(len(tests), b"\n")]
    if any(act == "delete" for _, act in actions) and (
            len(actions) > 1 or any(type(pred) is tuple for _, pred in tests)):
        # -delete turns on -depth: what else acts would act in another order
        raise OptionUnknown("find -delete beside another action or -exec")
    executes = bool(batched) or any(type(pred) is tuple for _, pred in tests)  # an -exec anywhere
    if executes and ctx.stdin:
        raise OptionUnknown("find -exec with a stdin its runs may read")
    walks = []
    # the tree as the walk found it, for the walk the other way (runs may change it)
    untouched = ctx.tree.clone() if executes else None
    for reverse in (False, True):
        tree = untouched if reverse else ctx.tree
        runs = _Runs(ctx, models, tree)
        printed_all, walk_out = _walk(ctx, tree.at(ctx.cwd), starts or ["."], tests, actions, maxdepth, mindepth,
                                      runs, reverse, Output("find"))
        runs.finish(batched)
        walks.append((tree, runs, printed_all, walk_out))
        if not executes:
            break  # nothing runs: one walk tells it all (its order is judged from what it printed)
    (tree, runs, printed_all, walk_out), *other = walks
    if other:
        _, other_runs, _, other_out = other[0]
        if not same_entries(tree, other[0][0]) or walk_out.err != other_out.err or \
                runs.out.err != other_runs.out.err or runs.failed != other_runs.failed or \
                (runs.out.more_errors is None) != (other_runs.out.more_errors is None) or \
                walk_out.status != other_out.status or \
                sorted((walk_out.out + runs.out.out).split(b"\n")) != sorted((other_out.out + other_runs.out.out).split(b"\n")):
            raise OptionUnknown("find -exec whose runs depend on the order of a directory's entries")
    out.out += walk_out.out + runs.out.out
    out.err += walk_out.err + runs.out.err
    out.status = out.status or walk_out.status or (1 if runs.failed else 0)
    out.more_errors = out.more_errors or runs.out.more_errors
    result = out.result()
    # a directory's entries come in the order its file system keeps, not by name: unless each
    # path printed (or run on) is the one before or lies under it, another order is as likely
    if any(later != earlier and not later.startswith(earlier.rstrip("/") + "/") for printed in printed_all
           for earlier, later in zip(printed, printed[1:])):
        printing = [act for _, act in actions if type(act) in (bytes, list)]
        if result.stdout and len(printing) > 1 and any(act == b"\0" or type(act) is list and act[-1].endswith("\0")
                                                       for act in printing):
            # a path's records are no whole lines, and the lines of two paths mix in other orders
            raise OptionUnknown("find: -print0 beside another printing action, in no known order")
        if result.stdout:
            result.stdout_unordered = "the order find lists a directory in"
    return result


def _delete(files, path: str, kind: str):
    """-delete on ``path``: an entry that is no folder is unlinked (after the walk has listed
    its folder, as -depth does); a folder is rmdir'd only once its own entries are gone."""
    if kind == "dir":
        raise OptionUnknown("find -delete on a folder (removed after its entries, if they all go)")
    try:
        files.remove(path)
    except VfsError as exc:
        raise OptionUnknown(f"find -delete that fails ({exc.strerror})") from None


def _walk(ctx, files, starts, tests, actions, maxdepth, mindepth, runs: _Runs, reverse: bool, out: Output):
    """One walk of the tree, each directory's names sorted up (or down, ``reverse``):
    ``([the paths acted on, for each start], out)``."""
    printed_all = []
    for start in starts:
        printed: list = []
        runs.printed = printed  # (a path an -exec … ; runs on counts as printed)
        try:
            kind = files.kind(start, follow_symlinks=False)
        except VfsError as exc:
            out.error(f"{quote_c(start)}: {exc.strerror}")
            continue
        stack = [(start, kind, 0)]
        while stack:
            path, kind, depth = stack.pop()
            base = posixpath.basename(path.rstrip("/")) or "/"
            if depth >= mindepth:
                done = 0
                ok = True
                for upto, act in actions:
                    while ok and done < upto:
                        neg, pred = tests[done]
                        found = runs.each(pred[1], path, kind) if type(pred) is tuple else \
                            pred(files, path, kind, base, depth)
                        ok = found != neg
                        done += 1
                    if ok and act is not None:
                        if act == "delete":
                            _delete(files, path, kind)
                            continue
                        if type(act) is tuple:
                            runs.gather(act[1], path)
                        elif type(act) is list:
                            out.out += _printed(act, path, start, kind, depth)
                        else:
                            out.out += path.encode("utf-8", "surrogateescape") + act
                        printed.append(path)
            if kind == "dir" and (maxdepth is None or depth < maxdepth):
                children = []
                try:
                    names = files.listdir(path)
                    runs.listed.add(files._lookup(path, False)[0])
                except VfsError:
                    raise OptionUnknown("find: a directory gone before the walk reached it") from None
                for name in (reversed(names) if reverse else names):
                    child = path + name if path.endswith("/") else path + "/" + name
                    children.append((child, files.kind(child, follow_symlinks=False), depth + 1))
                stack.extend(reversed(children))
        printed_all.append(printed)
    return printed_all, out
