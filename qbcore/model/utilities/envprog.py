"""GNU env (coreutils 9.1) starting a program: what it changes in the environment it passes
on, which program it runs, and how it fails on its own; and printenv NAME, which prints values
of the environment it gets.

env never runs a builtin or a function: it execs the program found on PATH, so the walker
runs the program (qbcore.model.effects) with these changes in force. Only ``-u NAME``,
``--unset=NAME``, ``--`` and ``NAME=VALUE`` operands are followed; ``-i``, ``-C``, ``-S``,
and the signal options are left to the caller as unknown. Without a program env prints the
environment, in the order bash passed it on: its status is known, its output is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .common import OptionUnknown, Output, guarded, quote_c
from .context import CommandContext, CommandResult

__all__ = ["EnvRequest", "env_request", "not_run", "printenv", "timeout_request"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# names bash or the programs it runs read for themselves when they arrive in the environment
# (bash imports PATH, PWD, SHLVL, IFS and its own settings specially; the locale and the time
# zone change messages): a change to them is not followed
_SPECIAL = frozenset(
    "PATH PWD OLDPWD HOME SHLVL IFS ENV SHELLOPTS BASHOPTS POSIXLY_CORRECT PS4 CDPATH GLOBIGNORE "
    "TMPDIR TZ LANG LANGUAGE NLSPATH HOSTNAME TERM SHELL RANDOM SRANDOM SECONDS LINENO EPOCHSECONDS "
    "EPOCHREALTIME HISTCMD FUNCNAME GROUPS UID EUID PPID OPTIND OPTARG OPTERR PYTHONPATH PYTHONHOME "
    "PYTHONSTARTUP PYTHONIOENCODING PYTHONUTF8 GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_CONFIG "
    "QBCORE_REMOTE_DIR _".split())
_SPECIAL_PREFIXES = ("BASH", "LC_", "GIT_", "PYTHON", "LD_", "MALLOC")
# what strpbrk looks for before env adds its hint about shebang lines (C_ISSPACE_CHARS)
_SPACES = frozenset(" \t\n\v\f\r")


@dataclass(frozen=True)
class EnvRequest:
    """``env [-i] -u U… N=V… PROGRAM ARGS…``: ``unsets`` (applied first), ``sets`` ((name, value)
    pairs, in order), ``program`` (its argv, empty when env prints the environment instead);
    or ``failure``, env's own (status, stderr)."""

    unsets: tuple = ()
    sets: tuple = ()
    program: tuple = ()
    failure: Optional[tuple] = None
    clear: bool = False  # -i: the program starts with ``sets`` alone


def _followed(name: str) -> bool:
    return bool(_NAME.fullmatch(name)) and name not in _SPECIAL and not name.startswith(_SPECIAL_PREFIXES)


# the locale settings followed: to the C locale, in either of its encodings, which every machine
# has; env passes them on as a prefix assignment does, and its own messages read the same there
_LOCALE_NAMES = frozenset({"LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_MESSAGES", "LC_NUMERIC", "LANG"})
_C_LOCALES = frozenset({"C", "POSIX", "C.UTF-8", "C.utf8"})


def _c_locale(name: str, value: str) -> bool:
    return name in _LOCALE_NAMES and value in _C_LOCALES


def env_request(argv: list) -> Optional[EnvRequest]:
    """What ``argv`` (env's, all plain text) asks env to do, or None when it is not followed.
    Options come first: getopt stops at the first operand ("+" in env's option string), so
    ``env A=1 -u B prog`` runs a program named ``-u``."""
    unsets, sets, clear = [], [], False
    n = 1
    while n < len(argv):
        word = argv[n]
        if word == "--":
            n += 1
            break
        if word == "-":
            break  # (no option: getopt stops there)
        if word in ("-i", "--ignore-environment"):
            clear = True
            n += 1
            continue
        if word == "--unset" and n + 1 < len(argv):
            unsets.append(argv[n + 1])
            n += 2
        elif word.startswith("--unset="):
            unsets.append(word[len("--unset="):])
            n += 1
        elif word.startswith("-u") and len(word) > 2:
            unsets.append(word[2:])
            n += 1
        elif word == "-u" and n + 1 < len(argv):
            unsets.append(argv[n + 1])
            n += 2
        elif word[:1] == "-":
            return None  # -0, -v, -C, -S, the signal options, letters together, another spelling
        else:
            break
    if n < len(argv) and argv[n] == "-":
        clear = True  # a lone - first after the options (after -- too) is -i
        n += 1
    if clear:
        unsets = []  # (env then empties the environment instead: -u is neither checked nor done)
    for name in unsets:
        if "=" in name or not name:
            # (every -u is read before any is applied; the first bad one ends env)
            return EnvRequest(failure=(125, f"env: cannot unset {quote_c(name)}: Invalid argument\n"))
        if not _followed(name):
            return None
    while n < len(argv) and "=" in argv[n]:
        name, _, value = argv[n].partition("=")
        if not _followed(name) and not _c_locale(name, value):
            return None
        sets.append((name, value))
        n += 1
    return EnvRequest(tuple(unsets), tuple(sets), tuple(argv[n:]), clear=clear)


#: a time interval of timeout (coreutils 9.1): a decimal number and an optional unit
_INTERVAL = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)([smhd]?)")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
#: the shortest limit taken never to end a program the model runs (which ends within its step
#: budget long before; the sandbox's own limit is 15 seconds of wall clock)
SURE_TIMEOUT = 5.0


def timeout_request(argv: list) -> Optional[EnvRequest]:
    """``timeout [OPTION…] DURATION PROGRAM ARGS…`` as env's request to run the program unchanged,
    where the limit cannot end it first (0, or at least SURE_TIMEOUT): timeout then exits with
    the program's status (-k, -s, -v, --foreground, --preserve-status change nothing then).
    None for anything else (a shorter limit, an interval it refuses, no program)."""
    n = 1
    while n < len(argv) and argv[n][:1] == "-" and argv[n] != "-":
        word = argv[n]
        if word == "--":
            n += 1
            break
        if word in ("-k", "-s") and n + 1 < len(argv):
            n += 2
        elif word[:2] in ("-k", "-s") or word in ("-v", "--verbose", "--foreground", "--preserve-status"):
            n += 1
        else:
            return None
    if n + 1 >= len(argv):
        return None
    found = _INTERVAL.fullmatch(argv[n])
    if found is None:
        return None
    seconds = float(found.group(1)) * _UNITS[found.group(2)]
    if seconds != 0 and seconds < SURE_TIMEOUT:
        return None
    return EnvRequest(program=tuple(argv[n + 1:]))


def not_run(program: str, status: int) -> EnvRequest:
    """env's failure to exec ``program``: 127 when nothing is there (ENOENT), 126 when something
    is that cannot run (EACCES: a folder, a file without execute permission)."""
    reason = "No such file or directory" if status == 127 else "Permission denied"
    message = f"env: {quote_c(program)}: {reason}\n"
    if status == 127 and _SPACES.intersection(program):
        message += "env: use -[v]S to pass options in shebang lines\n"
    return EnvRequest(failure=(status, message))


@guarded
def printenv(ctx: CommandContext) -> CommandResult:
    """coreutils printenv NAME…: the value of each name the environment holds, a line each;
    status 0 when it holds all of them, else 1 (a name with ``=`` in it is never held). With
    no name it prints the environment, in the order bash passed it on: not modelled; nor are
    its options, nor ``_`` (the path bash found printenv at)."""
    names = ctx.argv[1:]
    if names[:1] == ["--"]:
        names = names[1:]
    if not names or any(name[:1] == "-" for name in names) or "_" in names:
        raise OptionUnknown("printenv without names, with an option, or of _")
    out = Output("printenv")
    missing = False
    for name in names:
        value = ctx.env.get(name) if "=" not in name else None
        if value is None:
            missing = True
        elif not isinstance(value, str):
            raise OptionUnknown(f"printenv of {name}, whose value is not known")
        else:
            out.out += (value + "\n").encode("utf-8", "surrogateescape")
    out.status = 1 if missing else 0
    return out.result()
