"""eval, function calls, exec, and `command`/`builtin`: running other code in this shell.

A function call opens a Scope; ``eval`` runs in the scope it is called from (so
``eval "local x=1"`` in a function makes a local of that function). Both ask
the walker for the running itself (``Shell.run_script``, ``Shell.run_body``).
"""

from __future__ import annotations

from ...syntax import parser as S
from .. import expand as X
from ..expand import Opaque
from .control import Exit
from .external import unmodelled
from .registry import MODELLED, Invocation, Outcome, register


class Scope:
    """The variables one function call shadows with ``local``, and their values before
    the call, restored when it returns."""

    def __init__(self):
        self.saved: dict = {}

    def shadow(self, env, name: str) -> bool:
        """Make ``name`` local here; False when it already is."""
        if name in self.saved:
            return False
        old = env.vars.get(name)
        self.saved[name] = None if old is None else X.Variable(
            dict(old.value) if isinstance(old.value, dict) else old.value, old.exported)
        return True

    def fork(self) -> "Scope":
        """The scope as a subshell has it: what ``local`` does there stays there."""
        other = Scope()
        other.saved = dict(self.saved)
        return other

    def restore(self, env) -> None:
        """The function's locals end with it."""
        for name, old in self.saved.items():
            if old is None:
                env.vars.pop(name, None)
            else:
                env.vars[name] = old


def call_function(ctx: Invocation) -> Outcome:
    """Run the function ``ctx.name`` with ``ctx.args`` as its positional parameters."""
    env = ctx.env
    env.meter.step(1, "function calls")
    saved = env.positional
    env.positional = list(ctx.args)
    scope = Scope()
    try:
        status = ctx.shell.run_body(env.functions[ctx.name], scope, ctx.stdout_away, ctx.own_stdout)
    finally:
        env.positional = saved
        scope.restore(env)
    return Outcome(status)


@register("eval")
def eval_builtin(ctx: Invocation) -> Outcome:
    text = " ".join(ctx.args)
    env = ctx.env
    env.meter.step(1, "eval")
    env.meter.build(len(text), "eval")
    try:
        script = S.parse_prefix(text)
    except ValueError as exc:
        return Outcome(Opaque("status of eval"), Opaque(f"output of eval ({exc})"), modelled=False)
    # like bash -c, eval runs the lines before a syntax error, then fails with 2
    ctx.shell.run_script(script)
    if script.error is not None:
        # (2 after a [[ ]] error too, which may say nothing: measured)
        status = Opaque("status of eval after a [[ ]] error inside a command substitution") \
            if script.error.conditional == "substitution" else 2
        return Outcome(status, error=f"eval: {script.error.message}" if script.error.message else None)
    return Outcome(env.status)


@register("command", "builtin")
def command(ctx: Invocation) -> Outcome:
    """``command NAME …`` skips functions; ``builtin NAME …`` runs a modelled builtin."""
    env, name, args = ctx.env, ctx.name, ctx.args
    if args and not args[0].startswith("-") and (name == "command" or args[0] in MODELLED):
        saved = env.functions
        env.functions = {}  # `command f` skips functions
        try:
            return ctx.shell.run(args[0], args, ctx.node, ctx.stdout_away, ctx.own_stdout)
        finally:
            env.functions = saved
    return unmodelled(ctx)


@register("exec", modelled=False)
def exec_builtin(ctx: Invocation) -> Outcome:
    args = ctx.args
    if args:
        ctx.files.lose(f"the files after `{ctx.source()}`")
        # the shell is replaced: nothing after this runs (or it exits if exec fails)
        return Outcome(Opaque(f"status of exec {args[0]}"), Opaque(f"output of {args[0]}"), modelled=False,
                       transfer=Exit(Opaque(f"status of exec {args[0]}")))
    return Outcome(0)
