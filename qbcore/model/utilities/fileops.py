"""GNU coreutils 9.1 commands that change the tree: cat, tee, touch, mkdir, mv, cp, rm, ln, chmod,
install."""

from __future__ import annotations

import posixpath
import re

from .common import OptionUnknown, Output, UnknownBytes, guarded, mode_letters, quote, quote_c, quotef, read_input, refuse_invalid_option, scan_options
from .context import CommandContext, CommandResult, unknown
from .vfs import STRERROR, UnknownContent, VfsError

__all__ = ["cat", "tee", "touch", "mkdir", "mv", "cp", "rm", "ln", "chmod", "install"]


@guarded
def cat(ctx: CommandContext) -> CommandResult:
    """Concatenate, with GNU cat's formatting (-n -b -s -E -T -v and -A -e -t), which runs over
    all its input as one stream: numbers go on from file to file, as do squeezed blank lines."""
    refused = refuse_invalid_option(ctx.argv, "ubnsETvAet", "", stop_at_long=True)  # coreutils 9.1's option set
    if refused is not None:
        return refused
    opts, names = scan_options(ctx.argv, "ubnsETvAet", longs={
        "number": ("n", False), "number-nonblank": ("b", False), "squeeze-blank": ("s", False),
        "show-ends": ("E", False), "show-tabs": ("T", False), "show-nonprinting": ("v", False),
        "show-all": ("A", False)})
    shown = "".join({"A": "vET", "e": "vE", "t": "vT"}.get(o, o) for o, _ in opts if o != "u")
    out = Output("cat", in_order=not shown)  # (formatting runs over all of its input at the end)
    used: list = []
    unknown_bytes = None  # cat copies what it reads: stdin's unknown bytes leave only its output unknown
    for name in names or ["-"]:
        if ctx.output is not None and _is_own_output(ctx, name, out, shown):
            out.error(f"{quotef(name)}: input file is output file")
            continue
        try:
            data = read_input(ctx, name, out, used)  # (a folder: "Is a directory", once open may read it)
        except UnknownBytes as exc:
            unknown_bytes = unknown_bytes or str(exc)
            continue
        if data is not None:
            out.out += data
    if shown and unknown_bytes is None:
        out.out = bytearray(_cat_format(bytes(out.out), shown))
    result = out.result()
    if unknown_bytes is not None:
        result.stdout_unknown = f"the output of cat ({unknown_bytes})"
    return result


def _is_own_output(ctx: CommandContext, name: str, out: Output, shown: str) -> bool:
    """Whether GNU cat refuses operand ``name`` as the file its stdout goes to (ctx.output):
    the same file, holding bytes past where cat would start reading. It holds what it held
    when cat started, and what cat has written to it since: cat writes as it reads, and its
    messages too where its stderr goes there."""
    own = ctx.output
    if name == "-":
        if own.on_stdin:  # (where its stdin's offset stands is not followed)
            raise OptionUnknown("cat reading the file its output goes to on its stdin")
        return False
    try:
        if ctx.files.realpath(name) != ctx.tree.realpath(own.path):
            return False
        held = len(ctx.tree.read_bytes(own.path))
    except VfsError:
        return False  # (its own message follows when cat opens it)
    except UnknownContent as exc:
        raise UnknownBytes(exc.why) from None
    if shown:  # (what of its formatted output it has written by then is not followed)
        raise OptionUnknown("formatting cat reading the file its output goes to")
    return held + len(out.out) + (len(out.err) if own.with_stderr else 0) > 0


def _cat_format(data: bytes, shown: str) -> bytes:
    """GNU cat's formatting of ``data`` for the option letters ``shown`` (of ``bnsETv``)."""
    lines = data.split(b"\n")
    last = lines.pop()  # b"" when data ends with a newline
    out, number, blank_before = bytearray(), 0, False
    for n, line in enumerate(lines + ([last] if last else [])):
        ended = n < len(lines)
        blank = not line and ended
        if "s" in shown and blank and blank_before:
            continue
        blank_before = blank
        if "b" in shown and not blank or "b" not in shown and "n" in shown:
            number += 1
            out += b"%6d\t" % number
        if "v" in shown:
            line = b"".join(_NONPRINTING[c] for c in line)
        if "T" in shown:
            line = line.replace(b"\t", b"^I")
        out += line
        if ended:
            out += b"$\n" if "E" in shown else b"\n"
    return bytes(out)


def _shown(c: int) -> bytes:
    """cat -v's spelling of byte ``c`` (a tab and a newline stay themselves)."""
    prefix = b""
    if c >= 128:
        prefix, c = b"M-", c - 128
    if c == 127:
        return prefix + b"^?"
    if c < 32 and c not in (9, 10) or prefix and c in (9, 10):
        return prefix + b"^" + bytes([c + 64])
    return prefix + bytes([c])


_NONPRINTING = [_shown(c) for c in range(256)]


@guarded
def tee(ctx: CommandContext) -> CommandResult:
    opts, names = scan_options(ctx.argv, "a", longs={"append": ("a", False)})
    append = any(o == "a" for o, _ in opts)
    out = Output("tee", in_order=True)  # (it opens every file before it copies)
    for name in names:  # "-" is a file's name to coreutils 9.1's tee (measured)
        try:
            ctx.files.write_bytes(name, ctx.stdin, append=append)
        except VfsError as exc:
            out.error(f"{quotef(name)}: {exc.strerror}")
    out.out += ctx.stdin
    return out.result()


@guarded
def truncate(ctx: CommandContext) -> CommandResult:
    """``truncate -s N FILE…`` (coreutils 9.1): each file cut to N bytes or padded with NULs
    to them, created when missing but with ``-c``; N a plain number of bytes up to 1 MiB (no
    suffix, no ``+ - < > / %``, no ``--reference``)."""
    opts, names = scan_options(ctx.argv, "c", with_arg="s", longs={"no-create": ("c", False),
                                                                  "size": ("s", True)})
    sizes = [v for o, v in opts if o == "s"]
    out = Output("truncate")
    if not names:
        out.usage("missing file operand")
        return out.result()
    if len(sizes) != 1 or not sizes[0].isdigit() or int(sizes[0]) > _TRUNCATE_LIMIT or "" in names:
        return unknown("truncate without one plain size of at most 1 MiB, or of an empty name")
    size, create = int(sizes[0]), not any(o == "c" for o, _ in opts)
    files = ctx.files
    for name in names:
        try:
            if files.is_dir(name):
                out.error(f"cannot open {quote(name)} for writing: Is a directory")
                continue
            if not files.exists(name):
                if not create:
                    continue
                files.write_bytes(name, b"\0" * size)
                continue
            if not files.mode(name) & 0o200:
                return unknown("truncate of a file its owner may not write")
            data = files.read_bytes(name)
            files.write_bytes(name, data[:size] + b"\0" * (size - len(data)))
        except VfsError as exc:
            out.error(f"cannot open {quote(name)} for writing: {exc.strerror}")
    return out.result()


_TRUNCATE_LIMIT = 1 << 20


@guarded
def sync(ctx: CommandContext) -> CommandResult:
    """``sync`` alone: buffers reach the disk, which changes nothing the model sees."""
    if len(ctx.argv) > 1:
        return unknown("sync with options or files")
    return CommandResult(0)


@guarded
def touch(ctx: CommandContext) -> CommandResult:
    """Create missing files; times are not modelled, so only creation is visible."""
    opts, names = scan_options(ctx.argv, "c", longs={"no-create": ("c", False)})
    out = Output("touch")
    if not names:
        out.usage("missing file operand")
        return out.result()
    for name in names:
        if name == "-":  # touch's standard output: its times, whatever it is
            return unknown("touch - (the times of standard output)")
        if any(o == "c" for o, _ in opts):
            try:
                ctx.files.kind(name)
            except VfsError as exc:
                if exc.errno_name != "ENOENT":
                    out.error(f"setting times of {quote(name)}: {exc.strerror}")
            continue
        if ctx.files.exists(name):
            continue
        try:
            ctx.files.write_bytes(name, b"", append=True)
        except VfsError as exc:
            out.error(f"cannot touch {quote(name)}: {exc.strerror}")
    return out.result()


@guarded
def mkdir(ctx: CommandContext) -> CommandResult:
    """Directories, ``-p`` and ``-m MODE``: MODE as chmod reads it from ``a=rwx`` under the umask,
    given whole to the directory made last (its parents get the default, as GNU mkdir does)."""
    opts, names = scan_options(ctx.argv, "p", "m", longs={"parents": ("p", False), "mode": ("m", True)})
    parents = any(o == "p" for o, _ in opts)
    out = Output("mkdir")
    mode = None
    for o, value in opts:
        if o == "m":
            changes = compile_mode(value)
            if changes is None:
                out.error(f"invalid mode {quote_c(value)}")
                return out.result()
            mode = adjust_mode(0o777, True, changes)
    if not names:
        out.usage("missing operand")
        return out.result()
    for name in names:
        existed = parents and ctx.files.lexists(name)
        try:
            ctx.files.mkdir(name, parents=parents, exist_ok=parents)
        except VfsError as exc:
            if parents and exc.errno_name == "EACCES":
                # mkdir -p enters each folder on the way and names the one it could not: not followed
                return unknown("mkdir -p through a folder its owner may not change or search")
            out.error(f"cannot create directory {quote_c(exc.path if parents else name)}: "
                      f"{exc.strerror}")
            continue
        if mode is not None and not existed:
            ctx.files.chmod(name, mode)
    return out.result()


def _target_dir(ctx, out, names, cmd):
    """(sources, directory or None, destination) per GNU's 'last operand' rule."""
    if len(names) < 2:
        if not names:
            out.usage("missing file operand")
        else:
            out.usage(f"missing destination file operand after {quote(names[0])}")
        return None
    *srcs, dst = names
    if ctx.files.is_dir(dst):
        return srcs, dst
    if len(srcs) > 1:
        try:
            ctx.files.kind(dst)
            reason = "Not a directory"
        except VfsError as exc:
            reason = exc.strerror
        out.error(f"target {quote(dst)}: {reason}")
        return None
    return srcs, None


def _into(directory: str, src: str) -> str:
    base = posixpath.basename(src.rstrip("/")) or src
    return directory.rstrip("/") + "/" + base if directory.rstrip("/") else "/" + base


@guarded
def mv(ctx: CommandContext) -> CommandResult:
    # coreutils 9.1's option set; its long options the scan below knows, or it is unknown
    refused = refuse_invalid_option(ctx.argv, "bfinuvTZ", "tS", once="tS", stop_at_long=True)
    if refused is not None:
        return refused
    if not any(a.startswith("--") for a in ctx.argv[1:]):
        every, operands = scan_options(ctx.argv, "bfinuvTZ", with_arg="tS")
        folders = [v for o, v in every if o == "t"]
        folder = folders[0] if len(folders) == 1 and all(o != "T" for o, _ in every) else None
        if folder is not None and operands:
            # mv checks the target directory before it moves anything, whatever its other options
            try:
                ctx.files.kind(folder)
            except VfsError as exc:
                out = Output("mv")
                out.error(f"target directory {quote(folder)}: {exc.strerror}")
                return out.result()
    opts, names = scan_options(ctx.argv, "finv", longs={"force": ("f", False),
                                                         "interactive": ("i", False),
                                                         "no-clobber": ("n", False),
                                                         "verbose": ("v", False)})
    no_clobber = interactive = False  # the last of -f, -i and -n rules
    for o, _ in opts:
        if o != "v":
            no_clobber, interactive = o == "n", o == "i"
    verbose = any(o == "v" for o, _ in opts)
    out = Output("mv", in_order=True)
    plan = _target_dir(ctx, out, names, "mv")
    if plan is None:
        return out.result()
    srcs, directory = plan
    files = ctx.files
    canon = []
    for src in srcs:
        try:
            canon.append(files.realpath(src.rstrip("/") or src))
        except VfsError:
            canon.append(src)
    if len(set(canon)) != len(canon):
        return unknown("mv with a source named twice")
    for src in srcs:
        if src == "":
            out.error("cannot stat '': No such file or directory")
            continue
        if posixpath.basename(src.rstrip("/")) in (".", "..") or src.rstrip("/") == "":
            return unknown("mv of '.', '..' or '/'")
        if no_clobber and files.lexists(src) and files.lexists(_into(directory, src) if directory is not None
                                        else names[-1]):
            continue
        dst = _into(directory, src) if directory is not None else names[-1]
        try:
            files.kind(src, follow_symlinks=False)
        except VfsError as exc:
            out.error(f"cannot stat {quote(src)}: {exc.strerror}")
            continue
        if interactive and files.lexists(dst):
            return unknown("mv -i onto an existing name (it asks on stdin whether to replace it)")
        try:
            files.kind(dst, follow_symlinks=False)
        except VfsError as exc:
            if exc.errno_name != "ENOENT":
                out.error(f"cannot stat {quote(dst)}: {exc.strerror}")
                continue
        try:
            same = files.lexists(dst) and files.realpath(src) == files.realpath(dst)
        except VfsError:
            same = False
        if same:
            out.error(f"{quote(src)} and {quote(dst)} are the same file")
            continue
        if files.lexists(dst):
            if no_clobber:
                continue
            if files.is_dir(src) and not files.is_symlink(src) and not files.is_dir(dst):
                out.error(f"cannot overwrite non-directory {quote(dst)} with directory {quote(src)}")
                continue
            if files.is_dir(dst) and not files.is_symlink(dst) and not (
                    files.is_dir(src) and not files.is_symlink(src)):
                out.error(f"cannot overwrite directory {quote(dst)} with non-directory")
                continue
        try:
            files.rename(src, dst)
            if verbose:
                out.out += f"renamed {quote(src)} -> {quote(dst)}\n".encode("utf-8", "surrogateescape")
        except VfsError as exc:
            if exc.errno_name == "EINVAL":
                out.error(f"cannot move {quote(src)} to a subdirectory of itself, {quote(dst)}")
            elif exc.errno_name == "ENOTEMPTY":
                out.error(f"cannot move {quote(src)} to {quote(dst)}: Directory not empty")
            else:
                out.error(f"cannot move {quote(src)} to {quote(dst)}: {exc.strerror}")
    return out.result()


@guarded
def cp(ctx: CommandContext) -> CommandResult:
    refused = refuse_invalid_option(ctx.argv, "abdfHilLnprsuvxPRTZ", "tS", once="tS",  # coreutils 9.1's option set
                                    stop_at_long=True)
    if refused is not None:
        return refused
    opts, names = scan_options(ctx.argv, "rRfnpa", longs={"recursive": ("r", False),
                                                           "force": ("f", False),
                                                           "no-clobber": ("n", False),
                                                           "preserve": ("P", "optional"),
                                                           "archive": ("a", False)})
    if "" in names:
        return unknown("an empty file name")
    if "POSIXLY_CORRECT" in ctx.env:
        return unknown("cp under POSIXLY_CORRECT (it writes through a dangling symlink)")
    for o, value in opts:
        if o == "P" and value is not None and set(value.split(",")) - _PRESERVED:
            return unknown(f"cp --preserve={value}")
    recursive = any(o in "rRa" for o, _ in opts)
    no_clobber = any(o == "n" for o, _ in opts)
    # (the times and the owner it keeps too are nothing the tree holds; -a copies symlinks as
    # symlinks, which a recursive copy here leaves unknown)
    preserve = any(o in "pa" or o == "P" and (v is None or "mode" in v.split(",") or "all" in v.split(","))
                   for o, v in opts)
    out = Output("cp")
    plan = _target_dir(ctx, out, names, "cp")
    if plan is None:
        return out.result()
    srcs, directory = plan
    files = ctx.files
    seen = set()
    for src in srcs:
        dst = _into(directory, src) if directory is not None else names[-1]
        if directory is not None and src in seen:
            what = "directory" if files.is_dir(src) else "file"
            out.err += f"cp: warning: source {what} {quote(src)} specified more than once\n".encode()
            continue
        try:
            files.kind(dst, follow_symlinks=False)
        except VfsError as exc:
            if exc.errno_name != "ENOENT" and files.lexists(src) and (
                    recursive or not files.is_dir(src)):
                out.error(f"cannot stat {quote(dst)}: {exc.strerror}")
                continue
        try:
            files.kind(src)
        except VfsError as exc:
            if files.lexists(src) and recursive:
                return unknown("cp -r of a dangling symlink")
            out.error(f"cannot stat {quote(src)}: {exc.strerror}")
            continue
        if files.is_dir(src):
            if not recursive:
                out.error(f"-r not specified; omitting directory {quote(src)}")
                continue
            if files.is_symlink(src):
                return unknown("cp -r of a symlink to a directory")
            seen.add(src)
            _copy_tree(files, out, src, dst, no_clobber, preserve)
            continue
        if recursive and files.is_symlink(src):
            return unknown("cp -r copies symlinks as symlinks")
        seen.add(src)
        _copy_file(files, out, src, dst, no_clobber, preserve)
    return out.result()


#: the attributes ``cp --preserve=`` names that the model keeps or that the tree does not hold
_PRESERVED = {"mode", "ownership", "timestamps", "all"}


def _copied_mode(mode: int, preserve: bool) -> int:
    """The mode cp gives what it makes from a source of ``mode``: the source's own with ``-p``,
    else its permission bits under the umask (no set-id or sticky bit)."""
    return mode if preserve else mode & 0o777 & ~UMASK


def _copy_file(files, out, src, dst, no_clobber, preserve=False):
    if files.is_symlink(dst) and not files.exists(dst):
        # its open with O_EXCL meets the link, whatever -n says (coreutils 9.1, measured)
        out.error(f"not writing through dangling symlink {quote(dst)}")
        return
    if no_clobber and files.lexists(dst) and not files.is_dir(dst):
        return
    if files.exists(dst) and files.realpath(src) == files.realpath(dst):
        out.error(f"{quote(src)} and {quote(dst)} are the same file")
        return
    if files.is_dir(dst):
        out.error(f"cannot overwrite directory {quote(dst)} with non-directory")
        return
    if no_clobber and files.lexists(dst):
        return
    try:
        files.copy(src, dst, _copied_mode(files.mode(src), preserve))
    except VfsError as exc:
        out.error(f"cannot create regular file {quote(dst)}: {exc.strerror}")
        return
    if preserve:  # (-p gives a file that was there the source's mode too)
        files.chmod(dst, files.mode(src))


def _copy_tree(files, out, src, dst, no_clobber, preserve=False):
    src_real = files.realpath(src)
    try:
        dst_real = files.realpath(dst)
    except VfsError:
        dst_real = None
    if dst_real is not None and (dst_real + "/").startswith(src_real.rstrip("/") + "/"):
        from .common import OptionUnknown
        raise OptionUnknown("cp -r of a directory into itself (copies part before failing)")
    if files.lexists(dst) and not files.is_dir(dst):
        out.error(f"cannot overwrite non-directory {quote(dst)} with directory {quote(src)}")
        return
    made = not files.exists(dst)
    if made:
        try:
            files.mkdir(dst)
        except VfsError as exc:
            out.error(f"cannot create directory {quote(dst)}: {exc.strerror}")
            return
    for name in files.listdir(src):
        s, d = src.rstrip("/") + "/" + name, dst.rstrip("/") + "/" + name
        if files.is_symlink(s):
            raise_unknown = "cp -r copies symlinks as symlinks"
            from .common import OptionUnknown
            raise OptionUnknown(raise_unknown)
        if files.is_dir(s):
            _copy_tree(files, out, s, d, no_clobber, preserve)
        else:
            _copy_file(files, out, s, d, no_clobber, preserve)
    if made or preserve:  # (set once its entries are in, as cp does)
        files.chmod(dst, _copied_mode(files.mode(src), preserve))


@guarded
def rm(ctx: CommandContext) -> CommandResult:
    refused = refuse_invalid_option(ctx.argv, "dfirvIR", "", stop_at_long=True)  # coreutils 9.1's option set
    if refused is not None:
        return refused
    opts, names = scan_options(ctx.argv, "rRfdv", longs={"recursive": ("r", False),
                                                          "force": ("f", False),
                                                          "dir": ("d", False),
                                                          "verbose": ("v", False)})
    recursive = any(o in "rR" for o, _ in opts)
    force = any(o == "f" for o, _ in opts)
    empty_dirs = any(o == "d" for o, _ in opts)
    verbose = any(o == "v" for o, _ in opts)
    out = Output("rm", in_order=True)
    if not names:
        if not force:
            out.usage("missing operand")
        return out.result()
    files = ctx.files

    def removed(path: str, directory: bool = False):
        if verbose:
            out.out += f"removed {'directory ' if directory else ''}{quote(path)}\n".encode("utf-8", "surrogateescape")

    for name in names:
        if name == "":  # (lstat finds no such file: `rm -f "$tmp"` where $tmp was never set)
            if not force:
                out.error("cannot remove '': No such file or directory")
            continue
        base = posixpath.basename(name.rstrip("/"))
        if recursive and base in (".", ".."):
            out.error(f"refusing to remove '.' or '..' directory: skipping {quote(name)}")
            continue
        if recursive and files.lexists(name) and not files.is_symlink(name) and files.realpath(name) == "/":
            out.error(f"it is dangerous to operate recursively on {quote(name)}")
            out.err += b"rm: use --no-preserve-root to override this failsafe\n"
            continue
        try:
            files.kind(name, follow_symlinks=False)
        except VfsError as exc:
            if not (force and exc.errno_name in ("ENOENT", "ENOTDIR")):
                # a dangling symlink named with a slash after it is no folder to rm (measured:
                # `rm dang/` says Not a directory, where the lookup through it finds nothing)
                dangling = exc.errno_name == "ENOENT" and name.endswith("/") and files.lexists(name.rstrip("/"))
                out.error(f"cannot remove {quote(name)}: {'Not a directory' if dangling else exc.strerror}")
            continue
        if files.is_dir(name) and not files.is_symlink(name):
            if recursive:
                if verbose and not _one_by_one(files, name):
                    raise OptionUnknown("rm -rv over a folder of several entries (the order it meets them in)")
                _remove_tree(files, name, removed if verbose else None)
            elif empty_dirs:
                try:
                    files.rmdir(name)
                    removed(name, True)
                except VfsError as exc:
                    out.error(f"cannot remove {quote(name)}: {exc.strerror}")
            else:
                out.error(f"cannot remove {quote(name)}: Is a directory")
            continue
        try:
            files.remove(name)
            removed(name)
        except VfsError as exc:
            out.error(f"cannot remove {quote(name)}: {exc.strerror}")
    return out.result()


@guarded
def rmdir(ctx: CommandContext) -> CommandResult:
    """coreutils rmdir: each operand an empty folder, removed; ``-v`` says each; ``-p`` then
    removes each folder its path names above it, innermost first, until one fails (named in
    a message: status 1). ``--ignore-fail-on-non-empty`` is not modelled."""
    refused = refuse_invalid_option(ctx.argv, "pv", "", stop_at_long=True)
    if refused is not None:
        return refused
    opts, names = scan_options(ctx.argv, "vp", longs={"verbose": ("v", False), "parents": ("p", False)})
    if "" in names:
        return unknown("an empty file name")
    verbose = any(o == "v" for o, _ in opts)
    parents = any(o == "p" for o, _ in opts)
    out = Output("rmdir", in_order=True)
    if not names:
        out.usage("missing operand")
        return out.result()
    files = ctx.files
    for name in names:
        if verbose:
            out.out += f"rmdir: removing directory, {quote(name)}\n".encode("utf-8", "surrogateescape")
        try:
            if name.rstrip("/") in (".", "..") or name.endswith("/.") or name.endswith("/.."):
                raise OptionUnknown("rmdir of . or ..")
            files.rmdir(name)
        except VfsError as exc:
            out.error(f"failed to remove {quote(name)}: {_rmdir_failure(files, name, exc)}")
            continue
        path = name.rstrip("/") or name
        while parents and "/" in path:
            # (remove_parents: cut the last name and the slashes before it)
            path = path[:path.rindex("/")].rstrip("/") or "/"
            if path == "/" or path.endswith("/.") or path.endswith("/..") or path in (".", ".."):
                raise OptionUnknown(f"rmdir -p up to {path}")
            if verbose:
                out.out += f"rmdir: removing directory, {quote(path)}\n".encode("utf-8", "surrogateescape")
            try:
                files.rmdir(path)
            except VfsError as exc:
                what = "" if exc.errno_name == "ENOTDIR" else "directory "
                out.error(f"failed to remove {what}{quote(path)}: {exc.strerror}")
                break
    return out.result()


def _rmdir_failure(files, name: str, exc: VfsError) -> str:
    """rmdir's words for why ``name`` was not removed: a name with a trailing slash that is a
    symlink to a folder, or a dangling one, is "Symbolic link not followed" (rmdir.c), else
    the error's own."""
    if exc.errno_name != "ENOTDIR" or not name.endswith("/") or not name.rstrip("/"):
        return exc.strerror
    try:
        followed = files.kind(name) == "dir"  # (stat of the name, its slash kept)
    except VfsError as error:
        followed = error.errno_name != "ENOTDIR"
    return "Symbolic link not followed" if followed and files.is_symlink(name.rstrip("/")) else exc.strerror


@guarded
def unlink(ctx: CommandContext) -> CommandResult:
    """coreutils unlink: its one operand removed by unlink(2), a folder refused (EISDIR)."""
    names = ctx.argv[1:]
    if names[:1] == ["--"]:
        names = names[1:]
    elif any(name[:1] == "-" and name != "-" for name in names[:1]):
        return unknown("unlink with an option")
    out = Output("unlink")
    if not names:
        out.usage("missing operand")
    elif len(names) > 1:
        out.usage(f"extra operand {quote(names[1])}")
    elif names[0] == "":
        return unknown("an empty file name")
    else:
        files = ctx.files
        try:
            if files.is_dir(names[0]) and not files.is_symlink(names[0]):
                out.error(f"cannot unlink {quote(names[0])}: Is a directory")
            else:
                files.remove(names[0])
        except VfsError as exc:
            out.error(f"cannot unlink {quote(names[0])}: {exc.strerror}")
    return out.result()


def _one_by_one(files, name) -> bool:
    """Whether no folder under ``name`` (a folder) holds more than one entry: the only trees
    whose removal ``rm -rv`` says in a known order (it meets a folder's entries in the order
    its file system keeps them)."""
    paths = [name.rstrip("/") + "/" + child for child in files.listdir(name)]
    return len(paths) < 2 and all(_one_by_one(files, path) for path in paths
                                  if files.is_dir(path) and not files.is_symlink(path))


def _remove_tree(files, name, removed=None):
    """``rm -r name``; ``removed(path, directory)`` says each removal, as -v does."""
    children = files.listdir(name)
    for child in children:
        path = name.rstrip("/") + "/" + child
        if files.is_dir(path) and not files.is_symlink(path):
            _remove_tree(files, path, removed)
        else:
            files.remove(path)
            if removed is not None:
                removed(path)
    files.rmdir(name)
    if removed is not None:
        removed(name, True)


@guarded
def ln(ctx: CommandContext) -> CommandResult:
    """Symbolic links only (-s); a hard link would share content, which the tree cannot express."""
    opts, names = scan_options(ctx.argv, "sfnT", longs={"symbolic": ("s", False),
                                                         "force": ("f", False),
                                                         "no-dereference": ("n", False)})
    if "" in names:
        return unknown("an empty file name")
    given = {o for o, _ in opts}
    if "s" not in given:
        return unknown("ln without -s (hard links)")
    if "T" in given:
        return unknown("ln -T")
    force, no_deref = "f" in given, "n" in given
    out = Output("ln")
    files = ctx.files
    if not names:
        out.usage("missing file operand")
        return out.result()
    if len(names) == 1:
        names = names + ["."]  # GNU: a lone target is linked into the current directory
    *targets, dst = names
    into = files.is_dir(dst) and not (no_deref and files.is_symlink(dst))
    if len(targets) > 1 and not into:
        try:
            files.kind(dst)
            reason = "Not a directory"
        except VfsError as exc:
            reason = exc.strerror
        out.error(f"target {quote(dst)}: {reason}")
        return out.result()
    for target in targets:
        link = _into(dst, target) if into else dst
        if force:
            try:
                files.kind(link, follow_symlinks=False)
            except VfsError as exc:
                if exc.errno_name != "ENOENT":
                    out.error(f"failed to access {quote(link)}: {exc.strerror}")
                    continue
        if files.lexists(link) and force:
            # the target as a name from here (followed) is the file the link's own name is: not
            # where that name is a symlink, which lstat tells apart (measured: `ln -sf lf` loops)
            try:
                same = not files.is_symlink(link) and files.exists(target) and \
                    files.realpath(target) == files.realpath(link)
            except VfsError:
                same = False
            if files.is_dir(link) and not files.is_symlink(link):
                out.error(f"{quotef(link)}: cannot overwrite directory")
                continue
            if same:
                out.error(f"{quote(target)} and {quote(link)} are the same file")
                continue
            files.remove(link)
        try:
            files.symlink(target, link)
        except VfsError as exc:
            out.error(f"failed to create symbolic link {quote(link)}: {exc.strerror}")
    return out.result()


# -- install --------------------------------------------------------------------

#: the sources install reads that are no file of the tree: what each gives
_DEVICES = {"/dev/null": "empty", "/dev/stdin": "stdin", "-": None}


@guarded
def install(ctx: CommandContext) -> CommandResult:
    """coreutils install: files copied to a name or into a folder, each a new file (a name that
    was there is removed first, a symlink too) with -m MODE (chmod's syntax, from no bits and
    under no umask) or 0755; -d makes folders (missing parents 0755, the named ones MODE, an
    existing one given MODE); -D makes a file's missing parents; -t, -T, and -p (the tree holds
    no times). /dev/null and /dev/stdin may be sources. Owners, stripping, backups, -C and -v
    are not modelled."""
    opts, names = scan_options(ctx.argv, "dDpT", "mt", longs={
        "directory": ("d", False), "mode": ("m", True), "preserve-timestamps": ("p", False),
        "target-directory": ("t", True), "no-target-directory": ("T", False)})
    flags = {letter for letter, _ in opts}
    values = {letter: value for letter, value in opts if value is not None}
    out = Output("install")
    if "" in names:
        return unknown("an empty file name")
    files = ctx.files
    if any(name.startswith("/dev/") for name in (names if "d" in flags else names[-1:]) + [values.get("t", "")]):
        return unknown("install to a device")
    # the order of install's checks (install.c main): operands, the target, the mode
    if len(names) <= (0 if "d" in flags or "t" in values else 1):
        return _install_usage(out, f"missing destination file operand after {quote(names[0])}" if names
                              else "missing file operand")
    folder = None
    if "T" in flags:
        if "t" in values or len(names) > 2:
            return unknown("install -T with -t or more than two operands")
    elif "t" in values:
        folder = values["t"]
        try:
            failure = None if files.kind(folder) == "dir" else STRERROR["ENOTDIR"]
        except VfsError as exc:
            failure = None if "D" in flags and exc.errno_name == "ENOENT" else exc.strerror  # (-D makes it)
        if failure is not None:
            out.error(f"failed to access {quote(folder)}: {failure}")
            return out.result()
    elif "d" not in flags:
        plan = _target_dir(ctx, out, names, "install")
        if plan is None:
            return out.result()
        if plan[1] is not None:
            folder, names = plan[1], plan[0]
    changes = compile_mode(values.get("m", "755"))
    if changes is None:
        out.error(f"invalid mode {quote_c(values['m'])}")
        return out.result()
    if "d" in flags:
        if "t" in values:
            return unknown("install -d with -t")
        for name in names:
            # without -m: 0755, every bit of a folder that was there set so (install.c)
            _install_dir(files, out, name, adjust_mode(0, True, changes, umask=0),
                         changed_bits(changes, True) if "m" in values else 0o7777)
        return out.result()
    mode = adjust_mode(0, False, changes, umask=0)
    if folder is not None:
        if "D" in flags:
            _made_parents(files, folder + "/x")
        pairs = [(src, _into(folder, src)) for src in names]
    else:
        if "D" in flags:
            _made_parents(files, names[1])
        pairs = [(names[0], names[1])]
    stdin, made = [None], set()  # stdin taken only where /dev/stdin is a source
    for src, dst in pairs:
        try:
            where = files.realpath(dst)
        except VfsError:
            where = None
        if where in made:
            out.error(f"will not overwrite just-created {quote(dst)} with {quote(src)}")
            continue
        device = src in _DEVICES or src.startswith("/dev/")
        if device:
            data = _device_bytes(ctx, src, stdin)
        elif not _source_found(files, out, src, dst):
            continue
        try:
            files.kind(dst, follow_symlinks=False)
        except VfsError as exc:
            if exc.errno_name != "ENOENT":  # (copy.c: a name on the way that is no folder, say)
                out.error(f"cannot stat {quote(dst)}: {exc.strerror}")
                continue
        try:
            if files.is_dir(dst) and not files.is_symlink(dst):
                out.error(f"cannot overwrite directory {quote(dst)} with non-directory")
                continue
            if files.lexists(dst):
                files.remove(dst)
            if not device:
                # install opens its source only once the name it replaces is gone
                try:
                    data = files.read_bytes(src)
                except VfsError as exc:
                    out.error(f"cannot open {quote(src)} for reading: {exc.strerror}")
                    continue
            files.write_bytes(dst, data)
        except VfsError as exc:
            out.error(f"cannot create regular file {quote(dst)}: {exc.strerror}")
            continue
        files.chmod(dst, mode)
        made.add(where)
    return out.result()


def _install_usage(out: Output, message: str) -> CommandResult:
    out.usage(message)
    return out.result()


def _device_bytes(ctx, src: str, stdin: list) -> bytes:
    """What install reads from the device ``src`` (``stdin[0]``: whether /dev/stdin was read
    before, which leaves nothing for another)."""
    if _DEVICES.get(src) is None:
        raise OptionUnknown(f"install from {src}")
    if _DEVICES[src] == "empty":
        return b""
    data = b"" if stdin[0] else ctx.stdin
    stdin[0] = True
    return data


def _source_found(files, out: Output, src: str, dst: str) -> bool:
    """Whether install may copy the tree's ``src`` to ``dst``; its message when not."""
    try:
        if files.is_dir(src):
            out.error(f"omitting directory {quote(src)}")
            return False
        files.kind(src)
    except VfsError as exc:
        out.error(f"cannot stat {quote(src)}: {exc.strerror}")
        return False
    try:
        # (a symlink at dst is removed, not followed: no sameness there)
        same = files.lexists(dst) and not files.is_symlink(dst) and files.realpath(src) == files.realpath(dst)
    except VfsError:
        same = False
    if same:
        out.error(f"{quote(src)} and {quote(dst)} are the same file")
    return not same


def _made_parents(files, path: str):
    """install -D: the folders above ``path`` made, 0755; any on the way that is no folder
    is not followed."""
    parent = posixpath.dirname(path.rstrip("/"))
    if not parent:
        return
    try:
        files.mkdir(parent, parents=True, exist_ok=True)
    except VfsError:
        raise OptionUnknown("install -D through a name that is no folder") from None


def _install_dir(files, out: Output, name: str, mode: int, bits: int):
    if files.lexists(name) and not files.is_dir(name):
        out.error(f"cannot create directory {quote(name)}: File exists")
        return

    old = files.mode(name) if files.is_dir(name) else 0
    try:
        files.mkdir(name, parents=True, exist_ok=True)
    except VfsError:
        raise OptionUnknown("install -d through a name that is no folder") from None
    # a folder that was there keeps the bits the mode does not set (mkdir-p's mode_bits)
    files.chmod(name, old & ~bits | mode)


# -- chmod ----------------------------------------------------------------------

#: the umask the tree makes new files under (0644, directories 0755): a symbolic mode that
#: names no one leaves its bits alone
UMASK = 0o022
_WHO = {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}
_PERMS = {"r": 0o444, "w": 0o222, "x": 0o111, "s": 0o6000, "t": 0o1000}
_COPY = {"u": 0o700, "g": 0o070, "o": 0o007}


@guarded
def chmod(ctx: CommandContext) -> CommandResult:
    """Octal and symbolic modes (``u+x``, ``go-w``, ``a=rX``, ``+x``), also given as options
    (``-w``, ``-rx``), -R and -f; -v, -c, --reference and the other long options are not
    modelled."""
    mode_words, argv = _modes_as_options(ctx.argv)
    opts, operands = scan_options(argv, "Rf", longs={"recursive": ("R", False), "silent": ("f", False),
                                                     "quiet": ("f", False)})
    flags = {letter for letter, _ in opts}
    out = Output("chmod")
    if mode_words is None and not operands:
        out.usage("missing operand")
        return out.result()
    if mode_words is None:
        mode, names = operands[0], operands[1:]
        if not names:
            out.usage(f"missing operand after {quote_c(mode)}")
            return out.result()
    else:
        # chmod joins every option that is a mode, with commas, into one mode (chmod.c)
        mode, names = ",".join(mode_words), operands
        if not names:
            out.usage("missing operand")
            return out.result()
    changes = compile_mode(mode)
    if changes is None:
        out.usage(f"invalid mode: {quote_c(mode)}")
        return out.result()
    files, silent = ctx.files, "f" in flags

    def change(path: str, is_dir: bool, shown: str):
        old = files.mode(path)
        new = adjust_mode(old, is_dir, changes)
        files.chmod(path, new)
        if mode_words is not None:
            # a mode given as an option is checked against the same mode under no umask
            naive = adjust_mode(old, is_dir, changes, umask=0)
            if new & ~naive:
                out.error(f"{quotef(shown)}: new permissions are {mode_letters(new)}, not {mode_letters(naive)}")

    for name in names:
        try:
            kind = files.kind(name)
        except VfsError as exc:
            if exc.errno_name == "ELOOP":
                return unknown("chmod on a symlink loop")
            if not silent:
                dangling = exc.errno_name == "ENOENT" and files.lexists(name)
                out.error(f"cannot operate on dangling symlink {quote(name)}" if dangling else
                          f"cannot access {quote(name)}: {exc.strerror}")
            out.status = 1
            continue
        change(name, kind == "dir", name)
        if "R" in flags and kind == "dir":
            if mode_words is not None:
                return unknown("chmod -R with a mode given as an option (the names its messages give)")
            top = files.realpath(name)
            for path in files.walk(top):
                if path == top or files.is_symlink(path):
                    continue  # a symlink met on the way is neither changed nor followed
                change(path, files.is_dir(path), path)
        if "R" in flags and any(files.is_dir(path) and files.mode(path) & 0o500 != 0o500
                                for path in files.walk(files.realpath(name))):
            # whether it may go on into a directory it can no longer read depends on who runs it
            return unknown("chmod -R that takes away its own way into a directory")
    return out.result()


#: the letters chmod's getopt takes as the start of a mode (``-w``, ``-rx``, ``-644``)
_MODE_LETTERS = frozenset("rwxXstugoa,+=01234567")


def _modes_as_options(argv: list) -> tuple:
    """``(the words that are modes, or None; argv without them)``: a word of options that holds
    a mode letter is, whole, one part of the mode (chmod.c: ``argv[optind - 1]``), the options
    before that letter still counted (``-Rw`` is the mode ``-Rw``, which is invalid)."""
    words, rest = [], [argv[0]]
    for n, word in enumerate(argv[1:], 1):
        if word == "--":
            rest.extend(argv[n:])
            break
        if word.startswith("-") and not word.startswith("--") and len(word) > 1:
            at = next((i for i, c in enumerate(word) if i and c in _MODE_LETTERS), None)
            if at is not None:
                words.append(word)
                if at > 1:
                    rest.append(word[:at])
                continue
        rest.append(word)
    return (words or None), rest


def compile_mode(text: str):
    """``[(op, who bits or 0, value bits, copied from or "", X given)]`` for a mode (octal
    or ``[ugoa]*([-+=]([rwxXst]*|[ugo]))+`` clauses joined by commas), None when invalid."""
    if text[:1].isdigit():
        if any(c not in "01234567" for c in text) or int(text, 8) > 0o7777:
            return None
        value = int(text, 8)
        keep = 0 if len(text) >= 5 else 0o6000 & ~value  # a directory keeps set-id bits not given
        return [("=", 0o7777, value, "", False, keep)]
    changes = []
    for clause in text.split(","):
        i, who = 0, 0
        while i < len(clause) and clause[i] in _WHO:
            who |= _WHO[clause[i]]
            i += 1
        if i == len(clause) or clause[i] not in "+-=":
            return None
        while i < len(clause) and clause[i] in "+-=":
            op = clause[i]
            i += 1
            if i < len(clause) and clause[i].isdigit():
                raise OptionUnknown("chmod with an octal value after an operator")
            if i < len(clause) and clause[i] in _COPY:
                changes.append((op, who, 0, clause[i], False, 0o6000))
                i += 1
                continue
            value, x_if_any = 0, False
            while i < len(clause) and clause[i] in "rwxXst":
                if clause[i] == "X":
                    x_if_any = True
                else:
                    value |= _PERMS[clause[i]]
                i += 1
            mentioned = who & value if who else value
            changes.append((op, who, value, "", x_if_any, 0o6000 & ~mentioned))
        if i != len(clause):
            return None
    return changes


def changed_bits(changes, is_dir: bool) -> int:
    """The permission bits ``changes`` set or clear under no umask, whatever they start from
    (gnulib mode_adjust's ``pmode_bits``)."""
    bits = 0
    for op, who, value, copied, x_if_any, keep in changes:
        keep = keep if is_dir else 0
        if copied or x_if_any:
            raise OptionUnknown("a mode that copies bits or gives X, where only the bits it sets count")
        value &= (who if who else 0o7777) & ~keep
        bits |= ~((~who if who else 0) | keep) & 0o7777 if op == "=" else value
    return bits


def adjust_mode(mode: int, is_dir: bool, changes, umask: int = UMASK) -> int:
    """The permission bits ``changes`` (compile_mode) make of ``mode``, under ``umask``."""
    new = mode & 0o7777
    for op, who, value, copied, x_if_any, keep in changes:
        keep = keep if is_dir else 0
        if copied:
            bits = new & _COPY[copied]
            value = (0o444 if bits & 0o444 else 0) | (0o222 if bits & 0o222 else 0) | \
                (0o111 if bits & 0o111 else 0)
        elif x_if_any and (new & 0o111 or is_dir):
            value |= 0o111
        value &= (who if who else ~umask) & ~keep
        if op == "=":
            preserved = (~who if who else 0) | keep
            new = (new & preserved) | value
        elif op == "+":
            new |= value
        else:
            new &= ~value
    return new & 0o7777


#: dd's operands the model follows; a block size only sizes the reads and writes
_DD_BLOCK = re.compile(r"[1-9][0-9]*[KMG]?")


def dd_reads_stdin(argv) -> bool:
    """Whether dd reads stdin: it does unless an ``if=`` names its input (any word that may)."""
    return not any(isinstance(a, str) and a.startswith("if=") for a in argv[1:]) or \
        any(not isinstance(a, str) for a in argv[1:])


@guarded
def dd(ctx: CommandContext) -> CommandResult:
    """coreutils dd copying its input (``if=``, else stdin) to its output (``of=``, created and
    truncated but with ``conv=notrunc``, else stdout) whole: ``bs=`` sizes the blocks only,
    ``status=none`` silences its statistics, which otherwise end in a time (unknown). Counts,
    skips, seeks, other conversions and flags are not modelled."""
    given: dict = {}
    for word in ctx.argv[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in ("if", "of", "bs", "status", "conv"):
            raise OptionUnknown(f"dd {word}")
        given[key] = value  # the last of each wins
    if "bs" in given and not _DD_BLOCK.fullmatch(given["bs"]) or \
            given.get("status", "none") not in ("none", "noxfer", "progress") or \
            given.get("conv", "notrunc") != "notrunc" or "" in (given.get("if"), given.get("of")):
        raise OptionUnknown(f"dd {' '.join(ctx.argv[1:])}")
    out = Output("dd")
    files = ctx.files
    source, target = given.get("if"), given.get("of")
    if source is not None:
        if files.is_dir(source):
            raise OptionUnknown("dd reading a folder")
        try:
            data = files.read_bytes(source)
        except VfsError as exc:
            out.error(f"failed to open {quote(source)}: {exc.strerror}")
            return out.result()
    else:
        data = ctx.stdin
    if target is None:
        out.out += data
    else:
        try:
            if "conv" in given and files.exists(target) and not files.is_dir(target):
                old = files.read_bytes(target)
                files.write_bytes(target, data + old[len(data):])
            else:
                files.write_bytes(target, data)
        except VfsError as exc:
            out.error(f"failed to open {quote(target)}: {exc.strerror}")
            return out.result()
    found = out.result()
    if given.get("status") != "none":
        found.stderr_unknown = "dd's statistics (they end with the time it took)"
    return found
