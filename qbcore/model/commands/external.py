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
_CHANGES_ANYTHING = frozenset("source . enable trap".split())
# Builtins with a model that run other code (a command, a file's commands): a run of one the
# model does not follow may change any file
_RUN_OTHER_CODE = frozenset("command builtin source .".split())
# Builtins the model does not run that change no file (as the ones it runs, but those of
# _RUN_OTHER_CODE); every other command may.
_NO_FILE_EFFECTS = frozenset(
    "read mapfile readarray getopts type hash alias unalias wait jobs kill umask ulimit times help dirs "
    "disown caller compgen complete compopt".split())


#: utilities that change no file whatever their options, and end once their input does, but
#: for the option letters named (long options: READER_LONGS): a run of one the model does not
#: follow (`ls -l`, `stat -c %a f`, `md5sum f`) leaves the files as they were
READERS = {
    # with a model, followed in part
    "basename": "", "cat": "", "cut": "", "dirname": "", "head": "", "readlink": "", "realpath": "", "tac": "",
    "tr": "", "wc": "", "whoami": "", "ls": "R", "grep": "rRd", "tail": "fFs", "sort": "oT", "paste": "",
    "printenv": "", "comm": "",
    # without one
    "stat": "", "file": "C", "md5sum": "", "sha1sum": "", "sha224sum": "", "sha256sum": "", "sha384sum": "",
    "sha512sum": "", "b2sum": "", "cksum": "", "du": "", "diff": "", "cmp": "", "od": "", "nl": "", "rev": "",
    "fold": "", "join": "", "expand": "", "unexpand": "", "column": "", "uname": "",
    "id": "", "nproc": "", "base64": "", "base32": "", "strings": "", "hexdump": "",
}
#: those of READERS that touch no file at all, whatever their words
PURE_READERS = frozenset({"basename", "dirname", "whoami", "uname", "id", "nproc", "printenv"})
READER_LONGS = ("--recursive", "--dereference-recursive", "--directories", "--follow", "--retry", "--pid",
                "--sleep-interval", "--output", "--temporary-directory", "--compress-program", "--files0-from",
                "--compile")


def reads_only(name, argv) -> bool:
    """Whether ``argv`` runs a reader (READERS) over names inside the task directory: no
    refused option, no operand that starts at / or climbs with .. (a slow or endless read
    elsewhere: ls -l /, cat /dev/zero)."""
    refused = READERS.get(name) if type(name) is str else None
    if name in PURE_READERS:
        return True
    if refused is None or any(type(w) is not str for w in argv):
        return False
    for word in argv[1:]:
        if word.startswith("--"):
            if word.split("=", 1)[0] in READER_LONGS:
                return False
        elif word[:1] == "-" and len(word) > 1:
            if any(letter in refused for letter in word[1:]):
                return False
        elif word.startswith("/") or ".." in word.split("/"):
            return False
    return True


@register(None)
def unmodelled(ctx: Invocation) -> Outcome:
    name, args, env = ctx.name, ctx.args, ctx.env
    if name in _SETS_VARIABLES:
        taint_variables(env, name, args)
    elif name in _CHANGES_ANYTHING:
        taint_everything(env, ctx.note, name)
    # (a reader whose stdin is bash's own script input may take the rest of the script)
    changes_no_file = name in _NO_FILE_EFFECTS or name in MODELLED and name not in _RUN_OTHER_CODE or \
        reads_only(name, ctx.argv) and getattr(ctx, "script_input", None) is None
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
