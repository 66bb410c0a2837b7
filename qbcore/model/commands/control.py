"""true, false, `:`, exit, break, continue and return: status and the control transfers
the walker performs once the command is recorded."""

from __future__ import annotations

import re

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
