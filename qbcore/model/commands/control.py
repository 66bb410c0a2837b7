"""true, false, `:`, exit, break, continue, return and trap: status and the control transfers
the walker performs once the command is recorded."""

from __future__ import annotations

import re
from typing import Optional, Union

from ..values import has_opaque
from .external import unmodelled
from .registry import Invocation, Outcome, register, said

#: a number as bash's legal_number takes it: strtoimax in base 10, blanks around it
_LEGAL_NUMBER = re.compile(r"[ \t\n\v\f\r]*([-+]?[0-9]+)[ \t\n\v\f\r]*")


def legal_number(word) -> Optional[int]:
    """The value of ``word`` where bash takes it for a number (one in intmax_t), else None."""
    found = _LEGAL_NUMBER.fullmatch(word) if type(word) is str else None
    if found is None:
        return None
    value = int(found.group(1))
    return value if -(1 << 63) <= value < 1 << 63 else None


def numeric_operand(ctx: Invocation) -> Union[None, str, tuple]:
    """The one operand of exit, return, shift, break or continue after a leading ``--``: None
    for none, else ``(word, its value or None)``; a string saying why it is not followed (more
    than one operand: bash's "too many arguments" discards the rest of the command, which
    ends a ``bash -c``; a word not known; ``--help``)."""
    args = list(ctx.args)
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        return None
    if len(args) > 1:
        return f"{ctx.name} with more than one operand"
    word = args[0]
    if type(word) is not str or has_opaque(word) or word == "--help":
        return f"{ctx.name} of a word not followed"
    return word, legal_number(word)


class Discard(Exception):
    """bash's jump to its top level (DISCARD) in a script read from a file or stdin: the rest
    of the line the command is on is dropped, and the script goes on with the next line."""


def too_many_operands(ctx: Invocation) -> Optional[Outcome]:
    """exit, return, shift, break or continue given more operands than one, the first a number:
    bash says so and jumps to its top level (measured): the shell of a -c string ends with 1
    (its EXIT trap runs), a subshell ends with 1, and a script read from a file or stdin drops the
    rest of the line (Discard), with 1 in ``$?``. None for any other operands; inside a trap's
    action (where the jump ends the action, or the line the trap ran on) not followed."""
    args = list(ctx.args)
    if args[:1] == ["--"]:
        args = args[1:]
    if len(args) < 2 or any(type(a) is not str or has_opaque(a) for a in args) or legal_number(args[0]) is None:
        return None
    if getattr(ctx.env, "in_trap", False):
        return unmodelled(ctx)
    error = f"{ctx.name}: too many arguments"
    return Outcome(1, error=error, transfer=Exit(1) if "c" in (ctx.env.flags or "") else Discard())


class Exit(Exception):
    """``exit`` (or an error that ends the shell): the shell stops with ``status``."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


class Break(Exception):
    """``break N`` / ``continue N``: ``kind`` is the builtin's name."""

    def __init__(self, levels: int, kind: str):
        super().__init__(levels)
        self.levels = levels
        self.kind = kind


class Return(Exception):
    """``return``: the function (or eval'd script) ends with ``status``."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


@register(":", "true")
def true(ctx: Invocation) -> Outcome:
    return Outcome(0)


@register("false")
def false(ctx: Invocation) -> Outcome:
    return Outcome(1)


@register("exit")
def exit_builtin(ctx: Invocation) -> Outcome:
    found = numeric_operand(ctx)
    too_many = too_many_operands(ctx) if type(found) is str else None
    if too_many is not None:
        return too_many
    if type(found) is str:
        args = list(ctx.args)[1:] if ctx.args[:1] == ["--"] else list(ctx.args)
        first = args[0] if args else None
        if len(args) > 1 and type(first) is str and not has_opaque(first) and legal_number(first) is None:
            # bash reads the first word before it counts them: not a number, it exits with 2
            # (measured: `exit } data.tsv`, a reply's lines joined on one)
            return Outcome(2, error=f"exit: {first}: numeric argument required", transfer=Exit(2))
        return unmodelled(ctx)
    if found is None:
        status = ctx.env.status
    elif found[1] is None:  # (bash says so, and exits with 2)
        return Outcome(2, error=f"exit: {found[0]}: numeric argument required", transfer=Exit(2))
    else:
        status = found[1] & 0xFF
    return Outcome(status, transfer=Exit(status))


#: the signals a trap may name that never come in a run the executor makes (nothing sends them;
#: a run past its time is killed outright)
_QUIET_SIGNALS = frozenset("INT TERM HUP QUIT SIGINT SIGTERM SIGHUP SIGQUIT 1 2 3 15".split())
_EXIT_SIGNALS = frozenset(("EXIT", "0"))
_ERR_SIGNALS = frozenset(("ERR",))


# every name of a signal (bash's trap ignores case, and takes them without SIG) and the
# shell's own, on Linux: kill -l; a number names one up to 64; SIGRTMIN+N and SIGRTMAX-N too
_SIGNAL_NAMES = frozenset(
    "HUP INT QUIT ILL TRAP ABRT IOT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CLD CONT STOP TSTP "
    "TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO POLL PWR SYS RTMIN RTMAX EXIT DEBUG ERR RETURN".split())
_TRAP_USAGE = "trap: usage: trap [-lp] [[arg] signal_spec ...]\n"


def _no_signal(word: str) -> bool:
    """Whether ``word`` names no signal for ``trap`` (measured: ``trap 99`` and ``trap ''`` too)."""
    if word.isdigit() and word.isascii():
        return int(word) > 64
    name = word.upper().removeprefix("SIG")
    return name not in _SIGNAL_NAMES and not name.startswith("RTM")


@register("trap")
def trap_builtin(ctx: Invocation) -> Outcome:
    """``trap ACTION SIGNALS…`` for EXIT (``Env.exit_trap``, run when the shell ends:
    evaluate), for ERR (``Env.err_trap``, run where set -e would exit: evaluate's
    ``err_trap``) and for signals no run receives; ``-`` or an empty action sets none.
    Listing traps, DEBUG and RETURN, ERR under set -E or set in a function, and a trap set in a
    subshell (run when the subshell ends) or where the model does not know it runs are not
    modelled."""
    args = list(ctx.args)
    if args[:1] == ["--"]:
        args = args[1:]
    shell = ctx.shell
    if len(args) == 1 and type(args[0]) is str and not has_opaque(args[0]) and args[0][:1] != "-" or \
            args in (["-"], [""]):
        if _no_signal(args[0]):
            # one word, no signal's name: an action with no signal
            return Outcome(2, stderr=_TRAP_USAGE)
        args = ["-", args[0].upper()]  # one signal alone is reset (bash outside posix mode; case is ignored)
    if len(args) < 2 or any(not isinstance(a, str) or has_opaque(a) for a in args) or \
            args[0].startswith("-") and args[0] != "-" or getattr(shell, "in_subshell", True) or \
            not getattr(shell, "certain", False) or not hasattr(ctx.env, "exit_trap"):
        return unmodelled(ctx)
    # a word that names no signal is refused on its own; the others are set all the same
    # (measured: `trap 'rm -f "$tmp"' EXIT` whose quotes a transport dropped, `trap rm -f "" EXIT`)
    refused = [signal for signal in args[1:] if _no_signal(signal)]
    signals = [signal for signal in args[1:] if not _no_signal(signal)]
    if not all(signal in _EXIT_SIGNALS or signal in _QUIET_SIGNALS or signal in _ERR_SIGNALS for signal in signals):
        return unmodelled(ctx)
    if any(signal in _ERR_SIGNALS for signal in signals):
        if not getattr(shell, "toplevel", False) or "E" in (ctx.env.flags or ""):
            return unmodelled(ctx)  # (set in a function, or inherited by them under set -E)
        ctx.env.err_trap = None if args[0] in ("-", "") else args[0]
    if any(signal in _EXIT_SIGNALS for signal in signals):
        ctx.env.exit_trap = None if args[0] in ("-", "") else args[0]
    if not refused:
        return Outcome(0)
    return Outcome(1, error=said("trap", [f"trap: {signal}: invalid signal specification" for signal in refused]))


@register("break", "continue")
def break_builtin(ctx: Invocation) -> Outcome:
    loops = ctx.shell.loops
    if not loops:
        if ctx.shell.outer_loops:
            return Outcome(0)  # in a subshell inside a loop: nothing happens, the subshell goes on
        # outside a loop of this function or script (a function's caller's loops do not count)
        return Outcome(0, error=f"{ctx.name}: only meaningful in a `for', `while', or `until' loop")
    found = numeric_operand(ctx)
    too_many = too_many_operands(ctx) if type(found) is str else None
    if too_many is not None:
        return too_many
    if type(found) is str or found is not None and (found[1] is None or found[1] <= 0):
        # a word that is no number ends the shell (status 128 and more); a count below 1 leaves
        # every loop, with a message of its own form: neither is followed
        return unmodelled(ctx)
    levels = 1 if found is None else found[1]
    return Outcome(0, transfer=Break(min(levels, loops), ctx.name))


@register("return")
def return_builtin(ctx: Invocation) -> Outcome:
    found = numeric_operand(ctx)
    too_many = too_many_operands(ctx) if type(found) is str else None
    if too_many is not None:
        return too_many  # (its operands come first, wherever it runs)
    if type(found) is str or ctx.shell.toplevel and found is not None and found[1] is None:
        return unmodelled(ctx)  # (at the top level that is two messages)
    if ctx.shell.toplevel:
        return Outcome(2, error="return: can only `return' from a function or sourced script")
    if found is None:
        status = ctx.env.status
    elif found[1] is None:  # (bash says so, and returns 2)
        return Outcome(2, error=f"return: {found[0]}: numeric argument required", transfer=Return(2))
    else:
        status = found[1] & 0xFF
    return Outcome(status, transfer=Return(status))
