"""eval, function calls, exec, and `command`/`builtin`: running other code in this shell.

A function call opens a Scope; ``eval`` runs in the scope it is called from (so
``eval "local x=1"`` in a function makes a local of that function). Both ask
the walker for the running itself (``Shell.run_script``, ``Shell.run_body``).
"""

from __future__ import annotations

import os
from typing import Optional

from ...syntax import parser as S
from .. import expand as X
from ..expand import Opaque
from ..values import has_opaque
from .control import Exit
from .external import unmodelled
from .registry import MODELLED, Invocation, Outcome, register
from .search import BASH_BUILTINS, found_at, program_missing


class Scope:
    """The variables one function call shadows with ``local``, and their values before
    the call, restored when it returns."""

    def __init__(self):
        self.saved: dict = {}
        self.pending: set = set()  # the names of ``saved`` that were unset and exported (Env.export_pending)

    def shadow(self, env, name: str) -> bool:
        """Make ``name`` local here; False when it already is."""
        if name in self.saved:
            return False
        old = env.vars.get(name)
        self.saved[name] = None if old is None else X.Variable(
            dict(old.value) if isinstance(old.value, dict) else old.value, old.exported)
        if old is None and name in env.export_pending:
            self.pending.add(name)
        return True

    def fork(self) -> "Scope":
        """The scope as a subshell has it: what ``local`` does there stays there."""
        other = Scope()
        other.saved = dict(self.saved)
        other.pending = set(self.pending)
        return other

    def restore(self, env) -> None:
        """The function's locals end with it."""
        for name, old in self.saved.items():
            env.export_pending.discard(name)
            if old is None:
                env.vars.pop(name, None)
                if name in self.pending:
                    env.export_pending.add(name)
            else:
                env.vars[name] = old


def call_function(ctx: Invocation) -> Outcome:
    """Run the function ``ctx.name`` with ``ctx.args`` as its positional parameters."""
    env = ctx.env
    env.meter.step(1, "function calls")
    saved = env.positional
    env.positional = list(ctx.args)
    scope = Scope()
    env.calls += 1
    try:
        status = ctx.shell.run_body(env.functions[ctx.name], scope, ctx.stdout_away, ctx.own_stdout)
    finally:
        env.calls -= 1
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


@register("source", ".")
def source_builtin(ctx: Invocation) -> Outcome:
    """``source FILE`` and ``. FILE``: FILE's commands run in this shell, line by line as eval
    runs its text, its status the last one's (or ``return``'s); a syntax error ends it with 2
    after the lines before it ran, as bash -c does. A name without a slash is looked for on
    PATH first (sourcepath), in the working directory when no folder there holds it.
    Followed where FILE is a file of the task tree the run may read (a missing one, or a
    folder: bash's message, status 1). Arguments after FILE (they replace ``$@``, and stay
    replaced when the file sets them), an ERR trap (which bash runs inside), and a file
    elsewhere, with a NUL, or found on PATH are not."""
    name, env = ctx.name, ctx.env
    args = list(ctx.args)
    if args[:1] == ["--"]:
        args = args[1:]
    elif args and isinstance(args[0], str) and args[0][:1] == "-" and args[0] != "-":
        return unmodelled(ctx)  # an option: bash 5.2 takes none
    if not args:
        # nothing to read: bash refuses before anything changes
        return Outcome(2, None, error=f"{name}: filename argument required",
                       stderr=f"{name}: usage: {name} filename [arguments]\n")
    file = args[0]
    files = env.files
    if len(args) > 1 or not isinstance(file, str) or has_opaque(file) or not file or not env.cwd_known or \
            getattr(env, "err_trap", None) is not None or getattr(files, "read", None) is None or \
            "/" not in file and program_missing(file, env) is not True or ".." in file.split("/"):
        return unmodelled(ctx)  # (normpath would hide what the kernel meets on the way of `..`)
    path = os.path.normpath(os.path.join(env.cwd, file))
    kind = files.kind(path)
    if kind == "missing" and files.kind(os.path.dirname(path)) == "dir":
        return Outcome(1, error=f"{file}: No such file or directory")
    if kind == "dir":
        return Outcome(1, error=f"{name}: {file}: is a directory")
    data = files.read(path) if kind == "file" else None
    if data is None or b"\0" in data:
        return unmodelled(ctx)  # (bash refuses a binary file with a message of its own)
    text = data.decode("utf-8", "surrogateescape")
    env.meter.step(1, "source")
    env.meter.build(len(text), "source")
    try:
        script = S.parse_prefix(text)
    except ValueError as exc:
        return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name} ({exc})"), modelled=False)
    status = ctx.shell.run_sourced(script, file)
    if script.error is not None:
        status = Opaque(f"status of {name} after a [[ ]] error inside a command substitution") \
            if script.error.conditional == "substitution" else 2
        # (bash names the file and the line; the harness's stderr is read for its marks)
        return Outcome(status, stderr=f"{file}: {script.error.message}\n" if script.error.message else None)
    return Outcome(status)


def _kind_of(name, env) -> Optional[tuple]:
    """What bash takes ``name`` for, as ``type -t`` says it, and what ``command -v`` prints:
    ``(kind, text)``, ``("", "")`` when it is nothing bash finds, None when not known."""
    if not isinstance(name, str) or has_opaque(name) or not name or "/" in name:
        return None
    if name in S.RESERVED:
        return "keyword", name
    if name in env.functions:
        return "function", name
    if name in BASH_BUILTINS:
        return "builtin", name
    path = found_at(name, env)
    return None if path is None else ("file", path) if path else ("", "")


def _describe(ctx: Invocation, names: list, kind: bool) -> Outcome:
    """``command -v NAMES`` (``kind`` False) and ``type -t NAMES``: a line for each name bash
    finds (its path, or the name itself; or its kind), status 0 when it found any for
    ``command -v``, when it found all for ``type -t`` (measured)."""
    lines, found = [], []
    for name in names:
        what = _kind_of(name, ctx.env)
        if what is None:
            return unmodelled(ctx)
        found.append(bool(what[0]))
        if what[0]:
            lines.append(what[0] if kind else what[1])
    status = 0 if (all(found) if kind else any(found) or not names) else 1
    return Outcome(status, "".join(line + "\n" for line in lines))


#: what ``type NAME`` says of a keyword and a builtin
_TYPE_SAYS = {"keyword": "a shell keyword", "builtin": "a shell builtin"}


@register("type")
def type_builtin(ctx: Invocation) -> Outcome:
    """``type -t NAMES``, and ``type NAMES`` over keywords, builtins and names bash does not
    find ("type: x: not found", status 1); a function (its body, as bash prints it) and a file
    (hashed or not: "ls is hashed (/usr/bin/ls)" once it ran) are not modelled."""
    args = ctx.args
    if args[:1] == ["-t"] and args[1:] and not any(isinstance(a, str) and a.startswith("-") for a in args[1:]):
        return _describe(ctx, args[1:], True)
    names = args[1:] if args[:1] == ["--"] else args
    if any(not isinstance(a, str) or a.startswith("-") for a in names):
        return unmodelled(ctx)
    lines, missing = [], []
    for name in names:
        what = _kind_of(name, ctx.env)
        if what is None or what[0] not in ("", *_TYPE_SAYS):
            return unmodelled(ctx)
        if what[0]:
            lines.append(f"{name} is {_TYPE_SAYS[what[0]]}\n")
        else:
            missing.append(name)
    if len(missing) > 1 or missing and missing[0] != names[-1]:
        return unmodelled(ctx)  # (its messages and its output, interleaved)
    return Outcome(1 if missing else 0, "".join(lines), error=f"type: {missing[0]}: not found" if missing else None)


@register("command", "builtin")
def command(ctx: Invocation) -> Outcome:
    """``command NAME …`` skips functions; ``builtin NAME …`` runs a modelled builtin;
    ``command -v NAMES`` says what bash finds for each."""
    env, name, args = ctx.env, ctx.name, ctx.args
    if name == "command" and args[:1] == ["-v"]:
        names = args[2:] if args[1:2] == ["--"] else args[1:]
        if not any(isinstance(a, str) and a.startswith("-") for a in names):
            return _describe(ctx, names, False)
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
