"""Background jobs: whether a job and the commands after it may run in any interleaving.

The executor's harness reads the command's output to its end, so a job that
keeps the output open (its stdout or stderr) is done before the attempt is
judged; only when it ran, among the commands after it, is not known (up to a
`wait` of the shell that started it: ``Job.end``). The
effect walker runs the job to its end where it starts, then the rest, and
watches both: the paths each looked up, the folders each listed, the paths
each changed (``vfs.CHANGE_LOGS``, which sees a change undone later too).
When neither changed a path the other used (the path itself, or a folder on
its way), nor a name in a folder the other listed, every interleaving ends in
the same files, and the run in that order stands for all of them.
"""

from __future__ import annotations

import os
from typing import Optional

from .utilities import vfs

__all__ = ["Job", "Access", "WATCHES", "watch", "unwatch", "touched", "listed", "clash", "may_see"]


class Job:
    """One background job of a harness run: ``text`` its source, ``did`` what it did,
    ``after`` what ran after it, watched until the run ends or the shell that started it
    (``owner``, that shell's state) waits for it."""

    __slots__ = ("text", "did", "after", "owner", "waited")

    def __init__(self, text: str, did: "Access", owner):
        self.text, self.did, self.owner, self.waited = text, did, owner, False
        self.after = Access()
        watch(self.after)

    def end(self):
        """What runs from here on no longer runs beside the job."""
        if not self.waited:
            self.waited = True
            unwatch(self.after)

    def clash(self) -> Optional[str]:
        return clash(self.did, self.after)


class Access:
    """What commands did to the tree while watched: ``touched`` the paths looked up
    (canonical and as spelled), ``listed`` the folders listed (each with the pattern that
    picked its names, None for every name), ``changed`` the paths changed."""

    __slots__ = ("touched", "listed", "changed")

    def __init__(self):
        self.touched: set = set()
        self.listed: list = []
        self.changed: set = set()


#: the watches open now: each lookup and listing of a walker's tree is told to every one
WATCHES: list = []


def watch(access: Access) -> None:
    WATCHES.append(access)
    vfs.CHANGE_LOGS.append(access.changed)


def unwatch(access: Access) -> None:
    # by identity: two logs may hold the same paths
    del WATCHES[next(n for n, a in enumerate(WATCHES) if a is access)]
    logs = vfs.CHANGE_LOGS
    del logs[next(n for n, log in enumerate(logs) if log is access.changed)]


def touched(*paths: str) -> None:
    for access in WATCHES:
        access.touched.update(paths)


def listed(folder: str, pattern) -> None:
    for access in WATCHES:
        access.listed.append((folder, pattern))


def clash(job: Access, rest: Access) -> Optional[str]:
    """A path one of the two changed that the other used, or None when they share none."""
    for one, other in ((job, rest), (rest, job)):
        changed = one.changed
        if not changed:
            continue
        for path in other.touched:
            while True:  # the path itself, and each folder on its way
                if path in changed:
                    return path
                if path in ("/", ""):
                    break
                path = os.path.dirname(path)
        for path in changed:
            if may_see(other.listed, path):
                return path
    return None


def may_see(listed: list, path: str) -> bool:
    """Whether a command that listed ``listed`` (folders, each with its pattern or None) may
    have seen ``path`` there."""
    folder, name = os.path.split(path)
    return any(at == folder and (pattern is None or pattern.matches(name)) for at, pattern in listed)
