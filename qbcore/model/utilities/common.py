"""Pieces every utility model shares: option scanning, GNU's quoting of names in messages."""

from __future__ import annotations

import re

from .context import CommandContext, CommandResult, unknown
from . import vfs
from .vfs import VfsError

__all__ = ["scan_options", "quote", "quotef", "Output", "read_input", "OptionUnknown"]

_SAFE = re.compile(r"[A-Za-z0-9_./@%+=:,^~-]+\Z")
_PLAIN = re.compile(r"[ -~]*\Z")
# the characters with which gnulib quotes a name holding an apostrophe in double quotes, and
# # or ~ first (measured)
_C_AND_SHELL = re.compile(r"[#~]?[ %'+,\-./0-9:@A-Z\]_a-z]*\Z")


class OptionUnknown(Exception):
    """An option the model does not cover; becomes an ``unknown`` result."""


class MissingArgument(OptionUnknown):
    """An option that takes a value, last on the command line with none: getopt's usage error,
    spelled by :func:`guarded` for the utilities whose usage text is known (``_USAGE``).
    ``option`` is the letter of a short option, or ``--name`` of a long one."""

    def __init__(self, program: str, option: str):
        super().__init__(f"{program} {option if option.startswith('--') else '-' + option} without its argument")
        self.option = option


class UnknownBytes(OptionUnknown):
    """An input that reads without error but whose bytes are not known (a pipe after a writer
    whose output is not known, a here-document with unknown parts, a file that such output
    was written to: vfs.UnknownData)."""


def _shell_quote(name: str, always: bool) -> str:
    if not always and name and _SAFE.match(name) and not name.startswith("~"):
        return name
    if not _PLAIN.match(name):
        return _shell_escape(name)
    if "'" not in name:
        return f"'{name}'"
    if _C_AND_SHELL.match(name):  # gnulib: every character the same in C's quotes and the shell's
        return f'"{name}"'
    return "'" + name.replace("'", "'\\''") + "'"


_ESCAPES = {7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r"}


def _shell_escape(name: str) -> str:
    """gnulib's shell-escape-always quoting in the C locale, for a name with a byte that is no
    printable ASCII: single quotes, each run of such bytes as ``$'\\n\\303'`` between them,
    an apostrophe as ``'\\''`` (``'a'$'\\n''b'``, measured with ls and mv).

    With an apostrophe gnulib writes the name in a second pass that starts in the state the
    first one ended in; when that changes the text, its length differs from the one gnulib
    sized the buffer by, and a message's second name loses its last quote (mv's target,
    measured): such a name is not spelled here."""
    text, escaping = _shell_escape_pass(name, False)
    if "'" in name and escaping and _shell_escape_pass(name, True)[0] != text:
        raise OptionUnknown(f"a name gnulib quotes in two passes, in a message: {name!r}")
    return text


def _shell_escape_pass(name: str, escaping: bool) -> tuple[str, bool]:
    out = ["'"]
    for byte in name.encode("utf-8", "surrogateescape"):
        if byte == 39:  # '
            out.append("'\\''")
            escaping = False
        elif 32 <= byte < 127:
            if escaping:
                out.append("''")
                escaping = False
            out.append(chr(byte))
        else:
            if not escaping:
                out.append("'$'")
                escaping = True
            out.append("\\" + _ESCAPES[byte] if byte in _ESCAPES else "\\%03o" % byte)
    out.append("'")
    return "".join(out), escaping


def quote(name: str) -> str:
    """GNU quote() in the C locale, shell-escape-always style: ``'x'``, ``"it's"``."""
    return _shell_quote(name, True)


def quote_c(name: str) -> str:
    """gnulib's quote() in the C locale (locale_quoting_style: the operands in the usage errors
    of tr, basename, seq, chmod; the names in mkdir's and find's messages): ``'x'``, with
    ``\\\\`` and ``\\'`` inside, and a byte that is no printable ASCII escaped as C does
    (``\\n``, ``\\303``; measured with ls --quoting-style=locale)."""
    out = ["'"]
    for byte in name.encode("utf-8", "surrogateescape"):
        if byte in (39, 92):  # ' and backslash
            out.append("\\" + chr(byte))
        elif 32 <= byte < 127:
            out.append(chr(byte))
        else:
            out.append("\\" + _ESCAPES[byte] if byte in _ESCAPES else "\\%03o" % byte)
    out.append("'")
    return "".join(out)


def quotef(name: str) -> str:
    """GNU quotef(): bare when the name needs no quoting, else as :func:`quote`."""
    return _shell_quote(name, False)


def scan_options(argv: list, flags: str, with_arg: str = "", longs: dict | None = None,
                 permute: bool = True, optional: str = ""):
    """GNU getopt_long over ``argv[1:]``: returns ([(opt, value)], operands).

    ``longs`` maps a long name (without ``--``) to (short equivalent, takes_arg); takes_arg
    ``"optional"`` takes a value only after ``=`` (getopt_long's optional_argument).
    ``optional`` letters take a value only from the rest of their word (getopt's ``i::``).
    Anything else that looks like an option raises OptionUnknown.
    """
    longs = longs or {}
    opts: list = []
    operands: list = []
    args = list(argv[1:])
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name not in longs:
                # a name spelled in part stands for the one long option it begins, or is
                # ambiguous, among all of the utility's long options, more than the model knows
                raise OptionUnknown(f"{argv[0]} {arg}" + (" (a long option spelled in part)"
                                                          if any(k.startswith(name) for k in longs) else ""))
            short, takes = longs[name]
            if takes == "optional":
                opts.append((short, value if eq else None))
                continue
            if takes and not eq:
                if i >= len(args):
                    raise _missing(argv[0], "--" + name, opts)
                value = args[i]
                i += 1
            elif not takes and eq:
                raise OptionUnknown(f"{argv[0]} {arg}")
            opts.append((short, value if takes else None))
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                c = arg[j]
                if c in with_arg:
                    value = arg[j + 1:]
                    if not value:
                        if i >= len(args):
                            raise _missing(argv[0], c, opts)
                        value = args[i]
                        i += 1
                    opts.append((c, value))
                    break
                if c in optional:
                    opts.append((c, arg[j + 1:] or None))
                    break
                if c not in flags:
                    raise OptionUnknown(f"{argv[0]} -{c}")
                opts.append((c, None))
                j += 1
            continue
        operands.append(arg)
        if not permute:
            operands.extend(args[i:])
            break
    return opts, operands


def _missing(program: str, option: str, opts: list) -> OptionUnknown:
    """The error for ``option`` left without its value. Certain only when it is the first option
    that takes one: getopt ends on it, but a utility may act on an earlier value while it is
    still scanning (sed compiles each -e, head checks -n) and fail on that first."""
    if any(value is not None for _, value in opts):
        return OptionUnknown(f"{program} {option if option.startswith('--') else '-' + option} without its argument")
    return MissingArgument(program, option)


def invalid_option(argv: list, flags: str, with_arg: str, optional: str = "", acting: str = "",
                   once: str = "", stop_at_long: bool = False) -> str | None:
    """The first short option GNU getopt rejects, scanning ``argv[1:]`` with the utility's whole
    option set (``flags`` alone, ``with_arg`` taking a value, ``optional`` taking one only in
    the same word; ``acting``, the options the utility acts on while it scans, which may
    fail before a later one is reached; ``once``, those of ``with_arg`` that
    are an error of their own when given twice), or the whole word of a long one
    that names no option at all (one not led by a letter, a digit or a dash: every long option
    of coreutils, hidden ones too, starts so); None when every option is valid. Any other long
    option makes the answer unknown (their abbreviations, and whether one takes the next word,
    are not modelled here), or with ``stop_at_long`` ends the scan with None: the utility's own
    scan of its long options takes over from there."""
    seen = set()
    acted = False
    for c, _ in option_letters(argv, with_arg, optional):
        if c.startswith("--"):
            name = c[2:].partition("=")[0]
            if name and not (name[0].isascii() and name[0].isalnum() or name[0] == "-"):
                return c  # a prefix of no long option: getopt's "unrecognized option"
            if stop_at_long:
                return None
            raise OptionUnknown(f"{argv[0]} {c}")
        if c in optional:
            continue
        if c in with_arg:
            if c in seen and c in once:  # a second -t is an error of its own, found while scanning
                raise OptionUnknown(f"{argv[0]} -{c} twice")
            seen.add(c)
            acted = acted or c in acting
            continue
        if c not in flags:
            if acted:
                raise OptionUnknown(f"{argv[0]} -{c} after an option it acts on first")
            return c
        acted = acted or c in acting
    return None


def option_letters(argv: list, with_arg: str, optional: str = ""):
    """The options of ``argv[1:]`` in the order getopt meets them, up to ``--``: each letter
    of a short option word as ``(letter, the rest of its word)`` when it takes a value
    (``with_arg``, or ``optional`` only in the same word; a value in the next word is
    skipped), else ``(letter, None)``; a long option as ``(the word, None)``."""
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            return
        if arg.startswith("--"):
            yield arg, None
            continue
        if not arg.startswith("-") or arg == "-":
            continue
        for j, c in enumerate(arg[1:], 1):
            if c in with_arg or c in optional:
                if c in with_arg and j == len(arg) - 1:
                    i += 1  # the value is the next word
                yield c, arg[j + 1:]
                break
            yield c, None


def refuse_invalid_option(argv: list, flags: str, with_arg: str = "", optional: str = "",
                          acting: str = "", once: str = "", stop_at_long: bool = False) -> CommandResult | None:
    """GNU's usage error for an invalid option (``invalid_option``); None when there is none."""
    c = invalid_option(argv, flags, with_arg, optional, acting, once, stop_at_long)
    if c is None:
        return None
    if not _PLAIN.match(c):
        raise OptionUnknown(f"{argv[0]}: option {c!r} in a message")
    return usage_error(argv[0], f"unrecognized option '{c}'" if c.startswith("--") else f"invalid option -- '{c}'")


# how a utility ends on a usage error (its usage(EXIT_FAILURE), measured): the status, what it
# prints after the message, and what it prints after that unspelled
_USAGE = {
    **dict.fromkeys(("cat", "cut", "head", "tail", "mv", "cp", "rm", "rmdir", "xargs", "stat", "base64"),
                    (1, "Try '{0} --help' for more information.\n", None)),
    "ls": (2, "Try 'ls --help' for more information.\n", None),
    "sort": (2, "Try 'sort --help' for more information.\n", None),
    "grep": (2, "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", None),
    "sed": (1, "Usage: sed [OPTION]... {{script-only-if-no-other-script}} [input-file]...\n", "the rest of sed's help text"),
}


def usage_error(program: str, message: str) -> CommandResult:
    """``program: message``, then the utility's usage error (``_USAGE``); unknown for one whose
    usage text is not known here (or one started by a path: getopt names it as it was started)."""
    usage = _USAGE.get(program)
    if usage is None:
        raise OptionUnknown(f"{program}: {message}")
    status, tail, rest = usage
    found = CommandResult(status, b"", f"{program}: {message}\n{tail.format(program)}".encode())
    found.stderr_unknown = rest
    return found


def mode_letters(mode: int) -> str:
    """The nine permission letters of ``ls -l`` for ``mode`` (gnulib strmode without the type)."""
    out = []
    for shift, special, letter in ((6, 0o4000, "s"), (3, 0o2000, "s"), (0, 0o1000, "t")):
        bits = mode >> shift
        out.append("r" if bits & 4 else "-")
        out.append("w" if bits & 2 else "-")
        if mode & special:
            out.append(letter if bits & 1 else letter.upper())
        else:
            out.append("x" if bits & 1 else "-")
    return "".join(out)


class Output:
    """Collects stdout, stderr and the exit status of one model run.

    ``in_order``: the model appends to ``out`` as the utility writes, so each message falls
    where the utility wrote it (gnulib's ``error`` flushes stdout before it writes), and the
    result says how both read in one place (CommandResult.merged)."""

    def __init__(self, name: str, in_order: bool = False):
        self.name = name
        self.out = bytearray()
        self.err = bytearray()
        self.status = 0
        self.more_errors = None  # what else the utility may write to stderr, when not modelled
        # (len(out), len(err)) as each message began; None when the order is not followed
        self._messages: list | None = [] if in_order else None

    def error(self, message: str, status: int = 1) -> None:
        if self._messages is not None:
            self._messages.append((len(self.out), len(self.err)))
        self.err += f"{self.name}: {message}\n".encode("utf-8", "surrogateescape")
        self.status = status

    def usage(self, message: str) -> None:
        self.error(message)
        self.err += f"Try '{self.name} --help' for more information.\n".encode()

    def result(self) -> CommandResult:
        return CommandResult(self.status, bytes(self.out), bytes(self.err), stderr_unknown=self.more_errors,
                             merged=self._merged())

    def _merged(self) -> bytes | None:
        """stdout and stderr as they read in one place: the output before each message, the
        message (with what the model added to it, a usage line), the output after."""
        marks = self._messages
        if marks is None or marks and marks[0][1] != 0 or not marks and self.err:
            return None  # (stderr that no message began: its place is not known)
        merged, out_at = bytearray(), 0
        for n, (out_mark, err_mark) in enumerate(marks):
            merged += self.out[out_at:out_mark]
            merged += self.err[err_mark:marks[n + 1][1] if n + 1 < len(marks) else len(self.err)]
            out_at = out_mark
        return bytes(merged + self.out[out_at:])


def reads_folder(files, name: str) -> bool:
    """Whether operand ``name`` is a folder, asked as a reader asks: by opening it, which needs
    the folder's read bit before a read of it fails (a folder its owner may not read is noted
    as such a read: vfs.WITHHELD_ACCESS)."""
    if not files.is_dir(name):
        return False
    if vfs.WITHHELD_ACCESS:
        try:
            files.read_bytes(name)
        except VfsError as exc:
            if exc.errno_name != "EISDIR":
                raise
    return True


def read_input(ctx: CommandContext, name: str, out: Output, stdin_used: list) -> bytes | None:
    """The bytes of operand ``name`` (``-`` is stdin, read once); None after printing the error."""
    if name == "-":
        if stdin_used:
            return b""
        stdin_used.append(True)
        return ctx.stdin
    try:
        return ctx.files.read_bytes(name)
    except VfsError as exc:
        out.error(f"{quotef(name)}: {exc.strerror}")
        return None
    except vfs.UnknownContent as exc:
        raise UnknownBytes(exc.why) from None


def guarded(model):
    """Turn OptionUnknown raised anywhere in ``model`` into an ``unknown`` result."""

    def run(ctx: CommandContext) -> CommandResult:
        try:
            return model(ctx)
        except MissingArgument as exc:
            option = exc.option
            try:
                return usage_error(ctx.argv[0], f"option '{option}' requires an argument" if option.startswith("--")
                                   else f"option requires an argument -- '{option}'")
            except OptionUnknown:
                return unknown(str(exc))
        except OptionUnknown as exc:
            return unknown(str(exc))

    run.__name__ = model.__name__
    run.__doc__ = model.__doc__
    return run
