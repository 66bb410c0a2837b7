"""Whether bash finds a command name on PATH, where the answer is known: "command not found".

A system PATH folder holds the names the run states for it
(``hostfacts.programs_in``: the sandbox binds the host's /usr read-only),
and the folder of the harness's stand-ins holds the stand-in ssh;
a folder in the task tree holds what the virtual tree does. Anything else on
PATH (another folder under /usr, another /tmp folder, a relative entry
outside the tree) leaves the answer unknown. A command name with a slash
that leads out of the task tree is missing when a name on its way is missing
from the deepest folder whose names the run states (`$PATH` run as a
command). Nothing on the host is looked up by a name a reply wrote.
"""

from __future__ import annotations

import os
from typing import Optional, Union

from ..utilities.hostfacts import STANDIN_PROGRAMS, programs_in, runnable, standins_folder
from ..values import Opaque

__all__ = ["BASH_BUILTINS", "STANDIN_PROGRAMS", "found_at", "not_found", "not_found_message", "missing_command",
           "system_program"]

# `compgen -b` of bash 5.2: names bash never searches PATH for
BASH_BUILTINS = frozenset(
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs "
    "disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local "
    "logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend "
    "test times trap true type typeset ulimit umask unalias unset wait".split())

# top-level folders whose contents the sandbox takes from the host as they are
_HOST = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/")
# those of them whose programs the utility models stand for
_PROGRAM_FOLDERS = _HOST[:3]


def missing_command(name, env) -> Optional[tuple]:
    """``(status, bash's message)`` when ``name`` names no command bash can run: 127 for a name
    found nowhere on PATH or a path with a slash to nothing, 126 for a path to a folder of the
    task tree. None when it may run."""
    if isinstance(name, str) and "/" in name:
        kind = _path_kind(name, env)
        if kind == "missing":
            return 127, f"{name}: No such file or directory"
        return (126, f"{name}: Is a directory") if kind == "dir" else None
    return (127, not_found_message(name, env)) if not_found(name, env) else None


def not_found_message(name: str, env):
    """bash's "command not found" for ``name``: a name holding a byte the shell's locale does
    not print (a control character; past ASCII in the C locale the executor gives) is shown
    ANSI-C quoted, ``$'caf\\303\\251'`` (measured); an Opaque where the locale is another and the
    name goes past ASCII."""
    raw = name.encode("utf-8", "surrogateescape")
    if not any(byte < 0x20 or byte >= 0x7f for byte in raw):
        return f"{name}: command not found"
    locale = next((value for value in (env.get(v) for v in ("LC_ALL", "LC_CTYPE", "LANG")) if value != ""), None)
    if any(byte >= 0x80 for byte in raw) and locale not in (None, "C", "POSIX"):
        return Opaque(f"bash's message that {name} is not found (how the locale {locale} prints it)")
    quoted = "".join(_ANSI_C.get(byte) or (chr(byte) if 0x20 <= byte < 0x7f else f"\\{byte:03o}") for byte in raw)
    return f"$'{quoted}': command not found"


#: the bytes bash's ansic_quote writes with a letter (lib/sh/strtrans.c)
_ANSI_C = {0x1b: "\\E", 0x07: "\\a", 0x08: "\\b", 0x0c: "\\f", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t",
           0x0b: "\\v", 0x5c: "\\\\", 0x27: "\\'"}


def _path_kind(name: str, env) -> Optional[str]:
    """What the kernel meets at the path ``name`` as written (so no ``..``, which normpath
    would hide): "missing" when a part of it is missing and every part before is a folder
    (ENOENT; a file on the way would be ENOTDIR), "dir" when it is a folder of the task tree
    (or one the run made in /tmp) all the way; None otherwise or when not known."""
    if not env.cwd_known or getattr(env.files, "inside", None) is None or ".." in name.split("/"):
        return None
    full = os.path.normpath(os.path.join(env.cwd, name))
    if not env.files.inside(full):
        return "missing" if _missing_outside(full) else None
    here, rest = (env.files.root, full[len(env.files.root):]) if (full + "/").startswith(env.files.root + "/") \
        else ("", full)  # (a name of the run's own outside it: from the root down, past the folders above it)
    for part in rest.strip("/").split("/"):
        if not part:
            continue  # the task directory itself
        here = here + "/" + part
        if not env.files.inside(here):
            continue  # the root, and /tmp's: folders
        kind = env.files.kind(here)
        if kind != "dir":
            return "missing" if kind == "missing" else None
    return "dir"


def _missing_outside(full: str) -> bool:
    """Whether the normal path ``full``, outside the task tree, has a name missing from the
    deepest folder on its way whose names the run states (``programs_in``)."""
    parts = full.strip("/").split("/")
    for depth in range(len(parts) - 1, 0, -1):
        names = programs_in("/" + "/".join(parts[:depth]))
        if names is not None:
            return parts[depth] not in names
    return False


_FOLDERS: dict = {}


def _search_folders(path: str, cwd: str) -> tuple:
    """The folders of ``path`` (a PATH value) bash searches from ``cwd``, normalised: worked
    out once for each PATH and working directory, not for every command name."""
    key = (path, cwd)
    found = _FOLDERS.get(key)
    if found is None:
        if len(_FOLDERS) >= 256:
            _FOLDERS.clear()
        found = _FOLDERS[key] = tuple(os.path.normpath(os.path.join(cwd, folder or "."))
                                      for folder in path.split(":"))
    return found


def _search(name: str, env, path) -> Optional[str]:
    """The folder where bash's search of ``path`` (PATH's value) meets ``name`` first ("" when
    nowhere), None when the search is not known. A folder of the task tree counts as met where
    it holds anything by that name (whether bash runs it or goes on is not followed here). An
    empty PATH is not followed: bash then runs the name as a path, as it does with none."""
    if not isinstance(path, str) or not path or not env.cwd_known:
        return None
    files = env.files
    for where in _search_folders(path, env.cwd):
        full = where + "/" + name if where != "/" else "/" + name  # os.path.join: `where` is normal
        if full.startswith(_HOST):
            names = programs_in(where)
            if names is None:
                return None
            if name in names:
                # (a folder or a file bash does not run: it goes on, or fails; not followed)
                return where if runnable(where, name) else None
        elif getattr(files, "inside", None) is not None and files.inside(full):
            kind = files.kind(full)
            if kind != "missing":
                return None if kind is None else where
        elif where == standins_folder():
            if name in STANDIN_PROGRAMS:
                return where
        else:
            return None
    return ""


def found_at(name, env) -> Optional[str]:
    """The path bash's search of PATH for ``name`` meets first ("" when nowhere), where that
    is a system folder's program or nothing; None when not known (a folder of the task tree,
    the stand-ins', PATH unknown)."""
    if not isinstance(name, str) or not name or "/" in name:
        return None
    where = _search(name, env, env.get("PATH"))
    if where is None or where == "":
        return where
    return where + "/" + name if (where + "/").startswith(_HOST) else None


def not_found(name, env) -> Optional[bool]:
    """True when bash, searching PATH for ``name``, finds nothing; False when it may find
    something; None when the search itself is not known."""
    if not isinstance(name, str) or not name or "/" in name or name in BASH_BUILTINS or name in env.functions:
        return None
    where = _search(name, env, env.get("PATH"))
    return None if where is None else where == ""


def program_missing(name, env) -> Optional[bool]:
    """True when a search of PATH for ``name`` as execvp makes it (no builtin, no function:
    what env or xargs runs) finds nothing; False when it may find something; None when the
    search is not known."""
    if not isinstance(name, str) or not name or "/" in name:
        return None
    where = _search(name, env, env.get("PATH"))
    return None if where is None else where == ""


def system_program(name: str, env, path) -> Union[None, tuple, str]:
    """Whether the program bash runs for ``name`` (no builtin, no function) searching ``path``
    (PATH's value, read by the caller) is the system's, the one a utility model stands for:
    None when the search leads to it in a system folder, ``(127, bash's message)`` when it
    leads nowhere, else why it is not known (PATH unknown, or a program of that name
    elsewhere first)."""
    where = _search(name, env, path) if name else ""
    if where == "":
        return 127, not_found_message(name, env)
    if where is not None and (where + "/").startswith(_PROGRAM_FOLDERS):
        return None
    return f"where PATH leads {name}" if where is None else f"the {name} in {where}, first on PATH"
