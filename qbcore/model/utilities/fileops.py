"""GNU coreutils 9.1 commands that change the tree: cat, tee, touch, mkdir, mv, cp, rm, ln."""

from __future__ import annotations

import posixpath

from .common import Output, guarded, quote, quotef, read_input, refuse_invalid_option, scan_options
from .context import CommandContext, CommandResult, unknown
from .vfs import VfsError

__all__ = ["cat", "tee", "touch", "mkdir", "mv", "cp", "rm", "ln"]


@guarded
def cat(ctx: CommandContext) -> CommandResult:
    """Concatenate; no formatting options are modelled."""
    _, names = scan_options(ctx.argv, "u")
    out = Output("cat")
    used: list = []
    for name in names or ["-"]:
        if name != "-" and ctx.files.is_dir(name):
            out.error(f"{quotef(name)}: Is a directory")
            continue
        data = read_input(ctx, name, out, used)
        if data is not None:
            out.out += data
    return out.result()


@guarded
def tee(ctx: CommandContext) -> CommandResult:
    opts, names = scan_options(ctx.argv, "a", longs={"append": ("a", False)})
    if "" in names:
        return unknown("an empty file name")
    append = any(o == "a" for o, _ in opts)
    out = Output("tee")
    for name in names:
        if name == "-":
            out.out += ctx.stdin  # GNU tee writes "-" to stdout again
            continue
        try:
            ctx.files.write_bytes(name, ctx.stdin, append=append)
        except VfsError as exc:
            out.error(f"{quotef(name)}: {exc.strerror}")
    out.out += ctx.stdin
    return out.result()


@guarded
def touch(ctx: CommandContext) -> CommandResult:
    """Create missing files; times are not modelled, so only creation is visible."""
    opts, names = scan_options(ctx.argv, "c", longs={"no-create": ("c", False)})
    if "" in names:
        return unknown("an empty file name")
    out = Output("touch")
    if not names:
        out.usage("missing file operand")
        return out.result()
    for name in names:
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
    opts, names = scan_options(ctx.argv, "p", longs={"parents": ("p", False)})
    parents = any(o == "p" for o, _ in opts)
    out = Output("mkdir")
    if not names:
        out.usage("missing operand")
        return out.result()
    for name in names:
        try:
            ctx.files.mkdir(name, parents=parents, exist_ok=parents)
        except VfsError as exc:
            out.error(f"cannot create directory {quote(exc.path if parents else name)}: "
                      f"{exc.strerror}")
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
    refused = refuse_invalid_option(ctx.argv, "bfinuvTZ", "tS")  # coreutils 9.1's option set
    if refused is not None:
        return refused.result()
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
    opts, names = scan_options(ctx.argv, "fn", longs={"force": ("f", False),
                                                       "no-clobber": ("n", False)})
    if names and names[-1] == "":
        return unknown("mv to an empty name")
    no_clobber = False
    for o, _ in opts:
        no_clobber = o == "n"
    out = Output("mv")
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
    refused = refuse_invalid_option(ctx.argv, "abdfHilLnprsuvxPRTZ", "tS")  # coreutils 9.1's option set
    if refused is not None:
        return refused.result()
    opts, names = scan_options(ctx.argv, "rRfn", longs={"recursive": ("r", False),
                                                         "force": ("f", False),
                                                         "no-clobber": ("n", False)})
    if "" in names:
        return unknown("an empty file name")
    recursive = any(o in "rR" for o, _ in opts)
    no_clobber = any(o == "n" for o, _ in opts)
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
            _copy_tree(files, out, src, dst, no_clobber)
            continue
        if recursive and files.is_symlink(src):
            return unknown("cp -r copies symlinks as symlinks")
        seen.add(src)
        _copy_file(files, out, src, dst, no_clobber)
    return out.result()


def _copy_file(files, out, src, dst, no_clobber):
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
        files.copy(src, dst)
    except VfsError as exc:
        out.error(f"cannot create regular file {quote(dst)}: {exc.strerror}")


def _copy_tree(files, out, src, dst, no_clobber):
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
    if not files.exists(dst):
        try:
            files.mkdir(dst)
            files.chmod(dst, files.mode(src))
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
            _copy_tree(files, out, s, d, no_clobber)
        else:
            _copy_file(files, out, s, d, no_clobber)


@guarded
def rm(ctx: CommandContext) -> CommandResult:
    refused = refuse_invalid_option(ctx.argv, "dfirvIR", "")  # coreutils 9.1's option set
    if refused is not None:
        return refused.result()
    opts, names = scan_options(ctx.argv, "rRfd", longs={"recursive": ("r", False),
                                                         "force": ("f", False),
                                                         "dir": ("d", False)})
    if "" in names:
        return unknown("an empty file name")
    recursive = any(o in "rR" for o, _ in opts)
    force = any(o == "f" for o, _ in opts)
    empty_dirs = any(o == "d" for o, _ in opts)
    out = Output("rm")
    if not names:
        if not force:
            out.usage("missing operand")
        return out.result()
    files = ctx.files
    for name in names:
        base = posixpath.basename(name.rstrip("/"))
        if recursive and base in (".", ".."):
            out.error(f"refusing to remove '.' or '..' directory: skipping {quote(name)}")
            continue
        if recursive and files.lexists(name) and files.realpath(name) == "/" and \
                not files.is_symlink(name):
            out.error(f"it is dangerous to operate recursively on {quote(name)}")
            out.err += b"rm: use --no-preserve-root to override this failsafe\n"
            continue
        try:
            files.kind(name, follow_symlinks=False)
        except VfsError as exc:
            if not (force and exc.errno_name in ("ENOENT", "ENOTDIR")):
                out.error(f"cannot remove {quote(name)}: {exc.strerror}")
            continue
        if files.is_dir(name) and not files.is_symlink(name):
            if recursive:
                _remove_tree(files, name)
            elif empty_dirs:
                try:
                    files.rmdir(name)
                except VfsError as exc:
                    out.error(f"cannot remove {quote(name)}: {exc.strerror}")
            else:
                out.error(f"cannot remove {quote(name)}: Is a directory")
            continue
        try:
            files.remove(name)
        except VfsError as exc:
            out.error(f"cannot remove {quote(name)}: {exc.strerror}")
    return out.result()


def _remove_tree(files, name):
    for child in files.listdir(name):
        path = name.rstrip("/") + "/" + child
        if files.is_dir(path) and not files.is_symlink(path):
            _remove_tree(files, path)
        else:
            files.remove(path)
    files.rmdir(name)


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
            try:
                same = files.exists(target) and files.realpath(target) == files.realpath(link)
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
