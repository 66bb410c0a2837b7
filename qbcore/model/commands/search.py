"""Whether bash finds a command name on PATH, where the answer is known: "command not found".

The executor's sandbox sees the host's /usr read-only (and /bin, /sbin, /lib
as links into it), so a PATH directory there holds what the host's holds; a
directory in the task tree holds what the virtual tree does. Anything else
on PATH (another /tmp folder, a relative entry outside the tree) leaves the
answer unknown.
"""

from __future__ import annotations

import os
from typing import Optional

__all__ = ["BASH_BUILTINS", "not_found"]

# `compgen -b` of bash 5.2: names bash never searches PATH for
BASH_BUILTINS = frozenset(
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs "
    "disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local "
    "logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend "
    "test times trap true type typeset ulimit umask unalias unset wait".split())

# top-level folders whose contents the sandbox takes from the host as they are
_HOST = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/")


def not_found(name, env) -> Optional[bool]:
    """True when bash, searching PATH for ``name``, finds nothing; False when it may find
    something; None when the search itself is not known."""
    if not isinstance(name, str) or not name or "/" in name or name in BASH_BUILTINS or name in env.functions:
        return None
    path = env.get("PATH")
    if not isinstance(path, str) or not env.cwd_known:
        return None
    files = env.files
    for folder in path.split(":"):
        full = os.path.normpath(os.path.join(env.cwd, folder or ".", name))
        if full.startswith(_HOST):
            if os.path.lexists(full):
                return False
        elif getattr(files, "inside", None) is not None and files.inside(full):
            kind = files.kind(full)
            if kind != "missing":
                return None if kind is None else False
        else:
            return None
    return True
