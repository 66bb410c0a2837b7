"""A utility that runs another (xargs, find -exec): the child is a model of the registry's
table, run over the same tree, or unknown."""

from __future__ import annotations

from collections.abc import Mapping

from .context import CommandContext, CommandResult, unknown

__all__ = ["run_child"]

#: bash builtins the registry holds whose programs of the same name a child would run instead
_NOT_PROGRAMS = frozenset({"printf", "pwd"})


def run_child(ctx: CommandContext, argv: list, models: Mapping, stdin: bytes = b"", tree=None) -> CommandResult:
    """What a utility that runs ``argv`` gets back: the model of that program in ``models``
    run over ``tree`` (the caller's by default) with ``stdin``; unknown without a model."""
    name = argv[0]
    if name in ("true", "false") and "--help" not in argv[1:2] and "--version" not in argv[1:2]:
        return CommandResult(0 if name == "true" else 1)  # coreutils' programs: their status only
    model = None if name in _NOT_PROGRAMS or "/" in name else models.get(name)
    if model is None:
        return unknown(f"a run of {name}, which has no model here")
    return model(CommandContext(list(argv), stdin, ctx.cwd, ctx.env, ctx.tree if tree is None else tree))
