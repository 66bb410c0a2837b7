"""cd and pwd: the shell's working directory, checked against the file view."""

from __future__ import annotations

import os
from typing import Optional

from .. import files
from ..expand import Opaque
from .registry import Invocation, Outcome, register


@register("pwd")
def pwd(ctx: Invocation) -> Outcome:
    return Outcome(0, working_directory(ctx.env) + "\n")


def working_directory(env) -> str:
    """What ``pwd`` prints: $PWD while it is known, else the model's directory."""
    value = env.get("PWD")
    return value if isinstance(value, str) else env.cwd


@register("cd")
def cd(ctx: Invocation) -> Outcome:
    env = ctx.env
    args = [a for a in ctx.args if a not in ("-L", "-P", "--")]
    output = None
    if not args:
        target = env.get("HOME")
    elif args[0] == "-":
        target = env.get("OLDPWD")
        if target is None:
            return Outcome(1, error="cd: OLDPWD not set")
        output = f"{target}\n"
    else:
        target = args[0]
    if not isinstance(target, str):
        env.cwd_known = False
        return Outcome(Opaque("status of cd"), modelled=False)
    new = target if target.startswith("/") else os.path.join(env.cwd, target)
    failure = dotdot_failure(new, env.files)
    new = os.path.normpath(new)  # as bash: a leading `//` stays, `///` is `/`
    if failure == "":
        failure = env.files.directory_failure(new)
    if failure is None:
        env.cwd_known = False  # it may or may not have changed
        return Outcome(Opaque(f"status of cd {target}"), modelled=False)
    if failure:
        return Outcome(1, error=f"cd: {target}: {failure}")
    env.set("OLDPWD", working_directory(env))
    env.cwd = new
    env.set("PWD", new)
    return Outcome(0, output)


def dotdot_failure(path: str, view) -> Optional[str]:
    """bash's ``cd`` takes ``x/..`` away only when ``x`` is a directory (measured): the
    error for the first one that is not ("" for none, None when unknown)."""
    logical = "//" if path.startswith("//") and not path.startswith("///") else "/"
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if logical.strip("/"):
                kind = view.kind(logical)
                if kind is None:
                    return None
                if kind != "dir":
                    return files.NO_SUCH_FILE if kind == "missing" else files.NOT_A_DIRECTORY
            logical = os.path.dirname(logical.rstrip("/")) or logical
            continue
        logical = logical + part if logical.endswith("/") else logical + "/" + part
    return ""
