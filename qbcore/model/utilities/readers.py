"""Readers whose text the model does not spell but whose status it knows: a checksum, a
dump or a file's details over regular files the run may read succeed (their output is
unknown), and cmp and diff of two such files say whether their bytes are the same.

Replies run them to check what they wrote (``md5sum out.txt``, ``od -c out.txt``,
``diff -u old new``); what follows often hangs on their status. A checksum goes on past
a name it cannot open or read (missing, a folder, not readable) with coreutils' message, and
fails. Anything else (another option, stdin, such a name for the other readers) is unknown:
their messages and the statuses of their failures are not followed.
"""

from __future__ import annotations

from .common import Output, guarded, quotef, scan_options
from .context import CommandContext, CommandResult, unknown
from .vfs import UnknownContent, VfsError

__all__ = ["MODELS"]

#: the readers followed, each with the option letters that change only its text (none takes
#: a value): checksums in binary or text mode, dumps in their formats
_TEXT_ONLY = {
    **dict.fromkeys(("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum"), "bt"),
    "cksum": "", "od": "bcdosx", "nl": "", "base32": "", "hexdump": "bcCdox", "xxd": "pu",
    "strings": "",
}
#: those that take one input (xxd writes its second operand; base32 refuses one)
_ONE_INPUT = frozenset({"xxd", "base32"})


def _readable_file(ctx: CommandContext, name: str) -> bool:
    """Whether ``name`` leads to a regular file its owner may read (the run is its owner)."""
    files = ctx.files
    try:
        return files.is_file(name) and bool(files.mode(name) & 0o400)
    except VfsError:
        return False


def _reader(ctx: CommandContext) -> CommandResult:
    name = ctx.argv[0]
    _, operands = scan_options(ctx.argv, _TEXT_ONLY[name])
    if name in _CHECKSUMS and operands and "-" not in operands:
        return _checksums(ctx, name, operands)
    if not operands or len(operands) > 1 and name in _ONE_INPUT or \
            any(op == "-" or not _readable_file(ctx, op) for op in operands):
        return unknown(f"{name} of stdin, or of a name that is no regular file it may read")
    found = CommandResult(0)
    found.stdout_unknown = f"the output of {name} (not spelled)"
    return found


#: the checksums, which go on past a name they cannot read with coreutils' message for it
_CHECKSUMS = frozenset({"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum"})


def _checksums(ctx: CommandContext, name: str, operands: list) -> CommandResult:
    """A checksum of each operand in turn: a line for each it reads (not spelled), the message
    of the open or read that failed for each it cannot (a missing name, a folder, a file its
    owner may not read), then status 1."""
    out = Output(name)
    failed = 0
    for operand in operands:
        try:
            if name == "cksum" and ctx.files.is_dir(operand):
                continue  # its CRC reads a folder as empty, and fails nothing (coreutils 9.1, measured)
            ctx.files.read_bytes(operand)
        except VfsError as exc:
            out.error(f"{quotef(operand)}: {exc.strerror}")
            failed += 1
        except UnknownContent:
            pass  # its checksum is not known; neither is any other's
    found = out.result()
    if failed < len(operands):
        found.stdout_unknown = f"the output of {name} (not spelled)"
    return found


def _compare(ctx: CommandContext, letters: str) -> CommandResult:
    name = ctx.argv[0]
    opts, operands = scan_options(ctx.argv, letters)
    if len(operands) != 2 or any(op == "-" or not _readable_file(ctx, op) for op in operands):
        return unknown(f"{name} of other than two regular files it may read")
    same = ctx.files.read_bytes(operands[0]) == ctx.files.read_bytes(operands[1])
    found = CommandResult(0 if same else 1)
    if not same and not (name == "cmp" and opts):  # cmp -s says nothing
        found.stdout_unknown = f"the output of {name} (not spelled)"
    return found


@guarded
def cmp(ctx: CommandContext) -> CommandResult:
    """cmp [-s] A B: 0 when the bytes are the same, 1 when not."""
    return _compare(ctx, "s")


@guarded
def diff(ctx: CommandContext) -> CommandResult:
    """diff [-u|-c|-q] A B: 0 when the bytes are the same, 1 when not (text or binary)."""
    return _compare(ctx, "ucq")


MODELS = {**{name: guarded(_reader) for name in _TEXT_ONLY}, "cmp": cmp, "diff": diff}
