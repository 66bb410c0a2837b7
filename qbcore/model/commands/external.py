"""Commands the model does not run: their status and output are unknown, and what they
may change (variables they set, files, the whole shell state) becomes unknown too."""

from __future__ import annotations

import re

from ...syntax import parser as S
from ..expand import Opaque
from ..utilities.common import OptionUnknown, scan_options
from .registry import MODELLED, Invocation, Outcome, register

#: a shell variable's name
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Builtins the model does not run but that set the variables named in their
# arguments: afterwards those variables are opaque, never their old value.
_SETS_VARIABLES = {"read": "REPLY", "mapfile": "MAPFILE", "readarray": "MAPFILE", "getopts": None}
# Commands after which anything in the shell may have changed.
_CHANGES_ANYTHING = frozenset("source . pushd popd enable trap".split())
# Builtins the model does not run that change no file (as the ones it runs, but
# `command` and `builtin`, which run another command); every other command may.
_NO_FILE_EFFECTS = frozenset(
    "read mapfile readarray getopts type hash alias unalias wait jobs kill umask ulimit times help dirs "
    "disown caller compgen complete compopt".split())


@register(None)
def unmodelled(ctx: Invocation) -> Outcome:
    name, args, env = ctx.name, ctx.args, ctx.env
    if name in (".", "source") and args in ([], ["--"]):
        # nothing to read: bash refuses before anything changes
        return Outcome(2, None, error=f"{name}: filename argument required",
                       stderr=f"{name}: usage: {name} filename [arguments]\n")
    if name in _SETS_VARIABLES:
        taint_variables(env, name, args)
    elif name in _CHANGES_ANYTHING:
        taint_everything(env, ctx.note, name)
    changes_no_file = name in _NO_FILE_EFFECTS or name in MODELLED and name not in ("command", "builtin")
    if not changes_no_file:
        argv = ctx.argv
        why = f"the files after `{ctx.source()}`"
        if len(argv) >= 3 and argv[0] == "bash" and argv[1] == "-c" and isinstance(argv[2], str) and \
                not env.get("BASH_ENV"):
            # whether the script runs anything takes a parse: asked only if the files are read later
            env.files.lose_unless(why, lambda: script_runs_nothing(argv[2]))
        elif not _runs_nothing(argv, env):
            env.files.lose(why)
    return Outcome(Opaque(f"status of {name}"), Opaque(f"output of {name}"), modelled=False)


# the reading builtins' options, as bash's getopt reads them: (flags, letters that take a value)
READING_OPTIONS = {"read": ("ers", "adinNptu"), "mapfile": ("t", "dnOscCu"), "readarray": ("t", "dnOscCu")}


def taint_variables(env, name, args):
    names = []
    if name == "getopts":
        names = args[1:2] + ["OPTIND", "OPTARG"]
    else:
        flags, with_value = READING_OPTIONS[name]
        try:
            if not all(isinstance(a, str) for a in args):
                raise OptionUnknown("a word the model does not know")
            opts, names = scan_options([name] + list(args), flags, with_value, permute=False)
            names = [value for letter, value in opts if letter == "a"] + names  # read -a names the array
        except OptionUnknown:
            names = list(args)  # whatever it set, it is among its words
        if not names:
            names = [_SETS_VARIABLES[name]]
    for var in names:
        if _NAME.fullmatch(var):
            env.set(var, Opaque(f"${var} (set by {name})"))


def taint_everything(env, note, name):
    """After ``name`` anything in the shell may have changed: variables, positional
    parameters, options, the directory and the files all become unknown."""
    for var in list(env.vars):
        env.set(var, Opaque(f"${var} (after {name})"))
    env.positional = [Opaque(f"positional parameters (after {name})")]
    env.noglob = None  # unknown shell options: globbing is no longer predictable
    env.cwd_known = False
    env.files.lose(f"the files after {name}")
    note([f"shell state after {name}"])


def _runs_nothing(argv, env) -> bool:
    """``bash -c SCRIPT`` whose script runs no command (blank, comments, or a syntax
    error on its first line): a shell that changes no file."""
    if len(argv) < 3 or argv[0] != "bash" or argv[1] != "-c" or env.get("BASH_ENV"):
        return False  # BASH_ENV names a file bash -c would source first
    return script_runs_nothing(argv[2])


#: one line of plain words: no quote, expansion, operator, comment, glob or brace in it
_PLAIN_LINE = re.compile(r"[ \t]*([A-Za-z0-9_./+=,:@%^-]+)[A-Za-z0-9_./+=,:@%^ \t-]*")


def script_runs_nothing(text) -> bool:
    """Whether the script ``text`` of ``bash -c`` runs no command."""
    plain = _PLAIN_LINE.fullmatch(text)
    if plain is not None and plain.group(1) not in S.RESERVED:  # (bash reads a reserved word as grammar)
        return False  # a simple command of plain words: the parse would find it (the usual leak)
    try:
        script = S.parse_prefix(text)
    except ValueError:
        return False
    return not any(chunk.items for chunk in script.chunks)
