"""true, false, `:`, exit, break, continue, return and trap: status and the control transfers
the walker performs once the command is recorded."""

from __future__ import annotations

import re

from ..values import has_opaque
from .external import unmodelled
from .registry import Invocation, Outcome, register

#: a status argument bash takes as a number
_INTEGER = re.compile(r"-?[0-9]+")


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
    args = ctx.args
    status = ctx.env.status
    if args:
        status = int(args[0]) & 0xFF if _INTEGER.fullmatch(args[0]) else 2
    return Outcome(status, transfer=Exit(status))


#: the signals a trap may name that never come in a run the executor makes (nothing sends them;
#: a run past its time is killed outright)
_QUIET_SIGNALS = frozenset("INT TERM HUP QUIT SIGINT SIGTERM SIGHUP SIGQUIT 1 2 3 15".split())
_EXIT_SIGNALS = frozenset(("EXIT", "0"))
_ERR_SIGNALS = frozenset(("ERR",))


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
    if len(args) < 2 or any(not isinstance(a, str) or has_opaque(a) for a in args) or \
            args[0].startswith("-") and args[0] != "-" or getattr(shell, "in_subshell", True) or \
            not getattr(shell, "certain", False) or not hasattr(ctx.env, "exit_trap") or \
            not all(signal in _EXIT_SIGNALS or signal in _QUIET_SIGNALS or signal in _ERR_SIGNALS
                    for signal in args[1:]):
        return unmodelled(ctx)
    if any(signal in _EXIT_SIGNALS for signal in args[1:]):
        ctx.env.exit_trap = None if args[0] in ("-", "") else args[0]
    if any(signal in _ERR_SIGNALS for signal in args[1:]):
        if not getattr(shell, "toplevel", False) or "E" in (ctx.env.flags or ""):
            return unmodelled(ctx)  # (set in a function, or inherited by them under set -E)
        ctx.env.err_trap = None if args[0] in ("-", "") else args[0]
    return Outcome(0)


@register("break", "continue")
def break_builtin(ctx: Invocation) -> Outcome:
    args = ctx.args
    levels = int(args[0]) if args and args[0].isdigit() else 1
    loops = ctx.shell.loops
    if not loops:
        if ctx.shell.outer_loops:
            return Outcome(0)  # in a subshell inside a loop: nothing happens, the subshell goes on
        # outside a loop of this function or script (a function's caller's loops do not count)
        return Outcome(0, error=f"{ctx.name}: only meaningful in a `for', `while', or `until' loop")
    return Outcome(0, transfer=Break(min(max(levels, 1), loops), ctx.name))


@register("return")
def return_builtin(ctx: Invocation) -> Outcome:
    args = ctx.args
    if ctx.shell.toplevel:
        return Outcome(2, error="return: can only `return' from a function or sourced script")
    status = int(args[0]) & 0xFF if args and _INTEGER.fullmatch(args[0]) else ctx.env.status
    return Outcome(status, transfer=Return(status))
