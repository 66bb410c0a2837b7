"""cd, pwd, and pushd, popd and dirs: the shell's working directory, checked against the
file view, and the stack of directories pushd keeps below it."""

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
    args = list(ctx.args)
    while args and isinstance(args[0], str) and args[0].startswith("-") and args[0] != "-":
        word = args.pop(0)
        if word == "--":
            break
        if any(letter not in "LP" for letter in word[1:]):
            # -e, -@, or a word bash refuses as an option: not followed
            env.cwd_known = False
            return Outcome(Opaque(f"status of cd {word}"), modelled=False)
    if len(args) > 1:
        return Outcome(1, error="cd: too many arguments")  # (bash 5.2; older ones took the first)
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
    found = change_directory(env, target, "cd")
    if output is not None and found.status == 0:
        return Outcome(0, output)
    return found


def change_directory(env, target, name: str) -> Outcome:
    """``cd TARGET`` as ``name`` (cd, pushd, popd) runs it: the new working directory, PWD and
    OLDPWD, or the builtin's message and status 1."""
    if not isinstance(target, str):
        env.cwd_known = False
        return Outcome(Opaque(f"status of {name}"), modelled=False)
    new = target if target.startswith("/") else os.path.join(env.cwd, target)
    failure = dotdot_failure(new, env.files)
    new = os.path.normpath(new)  # as bash: a leading `//` stays, `///` is `/`
    if failure == "":
        failure = env.files.directory_failure(new)
    if failure is None:
        env.cwd_known = False  # it may or may not have changed
        return Outcome(Opaque(f"status of {name} {target}"), modelled=False)
    if failure:
        return Outcome(1, error=f"{name}: {target}: {failure}")
    env.set("OLDPWD", working_directory(env))
    env.cwd = new
    env.files.entered(new)
    env.set("PWD", new)
    return Outcome(0)


@register("pushd")
def pushd(ctx: Invocation) -> Outcome:
    """``pushd DIR`` (cd there, the old directory on the stack) and ``pushd`` alone (the top
    two swapped), each printing the stack as ``dirs`` does; options and ``+N``/``-N`` are not
    followed."""
    env, args = ctx.env, list(ctx.args)
    if args[:1] == ["--"]:
        args = args[1:]
    stack = env.dirstack
    if stack is None or len(args) > 1 or any(not isinstance(a, str) for a in args) or \
            args and args[0][:1] in ("-", "+") and args[0] != "-":
        return _not_followed(env, "pushd")
    old = working_directory(env)
    if not args:
        if not stack:
            return Outcome(1, error="pushd: no other directory")
        target = stack[0]
    else:
        target = env.get("OLDPWD") if args[0] == "-" else args[0]
    if not isinstance(old, str):
        return _not_followed(env, "pushd")
    found = change_directory(env, target, "pushd")
    if found.status != 0:
        return found
    if args:
        stack.insert(0, old)
    else:
        stack[0] = old
    listing = _listing(env)
    if args[:1] == ["-"] and isinstance(listing, str):
        listing = f"{target}\n{listing}"  # (as `cd -`, it prints where it went first)
    return Outcome(0, listing)


@register("popd")
def popd(ctx: Invocation) -> Outcome:
    """``popd``: cd to the directory on the top of the stack, which leaves it, and print the
    stack as ``dirs`` does; options and ``+N``/``-N`` are not followed."""
    env, args = ctx.env, list(ctx.args)
    if args[:1] == ["--"]:
        args = args[1:]
    stack = env.dirstack
    if stack is None or args:
        return _not_followed(env, "popd")
    if not stack:
        return Outcome(1, error="popd: directory stack empty")
    found = change_directory(env, stack[0], "popd")
    if found.status != 0:
        return _not_followed(env, "popd")  # (what bash does with the stack then is not followed)
    stack.pop(0)
    return Outcome(0, _listing(env))


@register("dirs")
def dirs(ctx: Invocation) -> Outcome:
    """``dirs`` alone: the working directory and the stack, ``~`` for HOME; options are not
    followed."""
    if ctx.args not in ([], ["--"]) or ctx.env.dirstack is None:
        return Outcome(Opaque("status of dirs"), Opaque("output of dirs"), modelled=False)
    return Outcome(0, _listing(ctx.env))


def _not_followed(env, name: str) -> Outcome:
    env.cwd_known = False
    env.dirstack = None
    return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)


def _listing(env):
    """What ``dirs`` prints: each directory with a leading HOME as ``~`` (bash's
    polite_directory_format: HOME longer than ``/``, followed by a slash or the end)."""
    home = env.get("HOME")
    names = [working_directory(env)] + list(env.dirstack)
    if isinstance(home, Opaque) or any(not isinstance(n, str) for n in names):
        return Opaque("output of dirs (HOME)")
    shown = []
    for name in names:
        if home is not None and len(home) > 1 and name.startswith(home) and \
                (len(name) == len(home) or name[len(home)] == "/"):
            name = "~" + name[len(home):]
        shown.append(name)
    return " ".join(shown) + "\n"


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
