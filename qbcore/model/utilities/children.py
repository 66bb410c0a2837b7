"""A utility that runs another (xargs, find -exec): the child is a model of the registry's
table, or a ``bash -c`` or a bash script of the tree named by its path, which the shell
model runs (``CommandContext.bash``), over the same tree, or unknown; ``sh -c`` run by the
shell itself goes the same way (sh_program). A child named without a slash is found on PATH
(execvp): the model stands for it only where PATH's folders are all system folders or the
stand-ins' folder, and the first that holds the name is a system folder."""

from __future__ import annotations

from collections.abc import Mapping

from .context import CommandContext, CommandResult, unknown
from .hostfacts import SYSTEM_FOLDERS, programs_in, runnable, standins_folder
from .shellbuiltins import coreutils_echo_differs, coreutils_printf

__all__ = ["run_child", "sh_program"]

#: bash builtins the registry holds whose programs of the same name a child would run instead
#: (coreutils' printf has a model of its own: coreutils_printf)
_NOT_PROGRAMS = frozenset({"printf", "pwd"})


def run_child(ctx: CommandContext, argv: list, models: Mapping, stdin: bytes = b"", tree=None) -> CommandResult:
    """What a utility that runs ``argv`` gets back: the model of that program in ``models``
    run over ``tree`` (the caller's by default) with ``stdin``; unknown without a model."""
    name = argv[0]
    if name in ("bash", "sh") and len(argv) >= 3 and argv[1] == "-c":
        # (sh is dash: the shell model stands for it over the scripts both read alike)
        if ctx.bash is None:
            return unknown(f"a run of {name} -c, which the shell model does not follow here")
        if not _system_program(name, ctx.env.get("PATH")):
            return unknown(f"a run of {name}, where PATH leads it")
        return ctx.bash(list(argv), stdin, ctx.cwd, ctx.env, ctx.tree if tree is None else tree)
    if isinstance(name, str) and "/" in name:
        # a path: no PATH search; the shell model runs a bash script of the tree it names
        if ctx.bash is None:
            return unknown(f"a run of {name}, which the shell model does not follow here")
        return ctx.bash(list(argv), stdin, ctx.cwd, ctx.env, ctx.tree if tree is None else tree)
    if name in ("true", "false") and "--help" not in argv[1:2] and "--version" not in argv[1:2]:
        return CommandResult(0 if name == "true" else 1)  # coreutils' programs: their status only
    model = coreutils_printf if name == "printf" else \
        None if name in _NOT_PROGRAMS or "/" in name else models.get(name)
    if model is None:
        return unknown(f"a run of {name}, which has no model here")
    if not _system_program(name, ctx.env.get("PATH")):
        return unknown(f"a run of {name}, where PATH leads it")
    if name == "echo" and coreutils_echo_differs(argv[1:], "POSIXLY_CORRECT" in ctx.env):
        return unknown("a run of coreutils' echo with --help, --version, \\u or \\U, or POSIXLY_CORRECT")
    return model(CommandContext(list(argv), stdin, ctx.cwd, ctx.env, ctx.tree if tree is None else tree,
                                bash=ctx.bash))


def sh_program(ctx: CommandContext) -> CommandResult:
    """``sh -c SCRIPT [ARG0 ARGS…]`` run by the shell itself: dash, run in the shell model as a
    child of a utility is (CommandContext.bash), where PATH leads to the system's sh. ``sh``
    or ``sh -s [ARGS…]`` reads its script from stdin (a pipe, a here-document): run the same
    way, as ``sh -c SCRIPT sh ARGS…`` whose stdin is not known (dash reads its script ahead, a
    block at a time: a command of it that reads stdin finds what dash left, which is not
    followed); from bash's own script input it is not followed."""
    argv = ctx.argv
    if ctx.bash is None or not (len(argv) >= 3 and argv[1] == "-c" or len(argv) == 1 or argv[1] == "-s"):
        return unknown("sh other than sh -c SCRIPT, sh or sh -s")
    if not _system_program("sh", ctx.env.get("PATH")):
        return unknown("a run of sh, where PATH leads it")
    if argv[1:2] != ["-c"]:
        args = argv[3:] if argv[2:3] == ["--"] else argv[2:]
        if args[:1] and args[0][:1] in ("-", "+"):
            return unknown("sh -s with more options")
        if getattr(ctx, "script_input", None) is not None:
            return unknown("sh reading its script from bash's own script input")
        script = ctx.stdin.decode("utf-8", "surrogateescape")
        return ctx.bash(["sh", "-c", script, "sh", *args], None, ctx.cwd, ctx.env, ctx.tree)
    # dash reads its stdin from where the shell's stream is (bash's own script input, a file
    # opened with <): it is given the stream itself, which a command of its script takes only
    # if it reads it, as one of the shell's own would (a `bash -c` the shell runs likewise)
    stream = getattr(ctx, "script_input", None) or getattr(ctx, "input", None)
    if stream is not None:
        return ctx.bash(list(argv), b"", ctx.cwd, ctx.env, ctx.tree, stream=stream)
    return ctx.bash(list(argv), ctx.stdin, ctx.cwd, ctx.env, ctx.tree)


def _system_program(name: str, path) -> bool:
    """Whether searching ``path`` (PATH's value) for ``name`` finds it first in a system folder."""
    if not isinstance(path, str):
        return False
    standins = standins_folder()
    for folder in path.split(":"):
        if folder not in SYSTEM_FOLDERS and (standins is None or folder != standins):
            return False
        names = programs_in(folder)
        if names is None:
            return False
        if name in names:
            return folder in SYSTEM_FOLDERS and runnable(folder, name)
    return False
