"""One memory and process cap for everything a sandbox runs, through a cgroup of its own.

Per-process rlimits do not bound a reply's total: many processes each under
the address-space limit, or memory held in a memfd or tmpfs, add up. A
cgroup counts them all. Both layouts are supported: cgroup v2 (one unified
tree that must offer the memory and pids controllers) and v1 (separate memory
and pids hierarchies). Where neither can be written (no permission, a
read-only /sys/fs/cgroup), ``Group.create`` returns None and the sandbox is
left with its rlimits, whose total is bounded by the process limit.
"""

from __future__ import annotations

import itertools
import os
import signal

__all__ = ["Group", "layout"]

_ROOT = "/sys/fs/cgroup"
_counter = itertools.count()
_layout: tuple | None = None


def _mounts() -> list[tuple[str, str, set[str]]]:
    found = []
    try:
        with open("/proc/self/mounts", encoding="utf-8") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) >= 4 and fields[2] in ("cgroup", "cgroup2"):
                    found.append((fields[2], fields[1], set(fields[3].split(","))))
    except OSError:
        pass
    return found


def _own_path(controller: str | None) -> str:
    """This process's cgroup in the hierarchy of ``controller`` (None: the v2 tree)."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as handle:
            for line in handle:
                _, names, path = line.rstrip("\n").split(":", 2)
                if (controller is None and names == "") or (controller and controller in names.split(",")):
                    return path
    except OSError:
        pass
    return "/"


def _parent(mount: str, controller: str | None) -> str | None:
    """Where new groups go: under this process's own group when that is writable, else the mount's root."""
    for candidate in (os.path.join(mount, _own_path(controller).lstrip("/")), mount):
        if os.path.isdir(candidate) and os.access(candidate, os.W_OK):
            return candidate
    return None


def layout() -> tuple | None:
    """("v2", parent) or ("v1", memory parent, pids parent), or None when no writable layout offers both caps."""
    global _layout
    if _layout is None:
        _layout = _detect() or ()
    return _layout or None


def _detect():
    mounts = _mounts()
    for kind, point, _ in mounts:
        if kind == "cgroup2":
            parent = _parent(point, None)
            try:
                with open(os.path.join(point, "cgroup.controllers"), encoding="utf-8") as handle:
                    offered = set(handle.read().split())
            except OSError:
                continue
            if parent and {"memory", "pids"} <= offered:
                return ("v2", parent)
    v1 = {}
    for kind, point, options in mounts:
        if kind == "cgroup":
            for controller in ("memory", "pids"):
                if controller in options and controller not in v1:
                    parent = _parent(point, controller)
                    if parent:
                        v1[controller] = parent
    if len(v1) == 2:
        return ("v1", v1["memory"], v1["pids"])
    return None


def _write(path: str, value: str) -> bool:
    try:
        with open(path, "w", encoding="ascii") as handle:
            handle.write(value)
        return True
    except OSError:
        return False


class Group:
    """A cgroup (one directory per hierarchy) capping memory (swap included) and the number of tasks."""

    def __init__(self, kind: str, directories: list[str]):
        self.kind, self.directories = kind, directories
        self.memory_bytes = self.tasks = None

    @classmethod
    def create(cls, memory_bytes: int, tasks: int) -> "Group | None":
        found = layout()
        if not found:
            return None
        name = f"qbcore-{os.getpid()}-{next(_counter)}"
        directories = [os.path.join(parent, name) for parent in found[1:]]
        made = []
        try:
            for directory in directories:
                os.mkdir(directory, 0o755)
                made.append(directory)
        except OSError:
            for directory in made:
                _remove(directory)
            return None
        group = cls(found[0], directories)
        if not group.limit(memory_bytes, tasks):
            group.close()
            return None
        return group

    @property
    def memory_dir(self) -> str:
        return self.directories[0]

    @property
    def pids_dir(self) -> str:
        return self.directories[-1]

    def limit(self, memory_bytes: int, tasks: int) -> bool:
        """Set both caps (skipped when unchanged); False when the kernel refuses them."""
        if (memory_bytes, tasks) == (self.memory_bytes, self.tasks):
            return True
        if self.kind == "v2":
            ok = _write(os.path.join(self.memory_dir, "memory.max"), str(memory_bytes))
            _write(os.path.join(self.memory_dir, "memory.swap.max"), "0")
            ok = ok and _write(os.path.join(self.pids_dir, "pids.max"), str(tasks))
        else:
            memory = os.path.join(self.memory_dir, "memory.limit_in_bytes")
            both = os.path.join(self.memory_dir, "memory.memsw.limit_in_bytes")
            # memsw may not go below the memory limit, nor the memory limit above memsw: order matters
            if os.path.exists(both) and self.memory_bytes is not None and memory_bytes > self.memory_bytes:
                ok = _write(both, str(memory_bytes)) and _write(memory, str(memory_bytes))
            else:
                ok = _write(memory, str(memory_bytes))
                if os.path.exists(both):
                    _write(both, str(memory_bytes))
            ok = ok and _write(os.path.join(self.pids_dir, "pids.max"), str(tasks))
        if ok:
            self.memory_bytes, self.tasks = memory_bytes, tasks
        return ok

    def add(self, pid: int) -> bool:
        return all(_write(os.path.join(d, "cgroup.procs"), str(pid)) for d in self.directories)

    def pids(self) -> list[int]:
        if not self.directories:
            return []
        try:
            with open(os.path.join(self.pids_dir, "cgroup.procs"), encoding="ascii") as handle:
                return [int(line) for line in handle if line.strip()]
        except OSError:
            return []

    def peak_memory(self) -> int | None:
        name = "memory.peak" if self.kind == "v2" else "memory.max_usage_in_bytes"
        try:
            with open(os.path.join(self.memory_dir, name), encoding="ascii") as handle:
                return int(handle.read())
        except (OSError, ValueError):
            return None

    def close(self):
        """Kill whatever is left in the group and remove it (again: nothing)."""
        import time

        for _ in range(400):
            left = self.pids()
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.005)
        for directory in self.directories:
            _remove(directory)
        self.directories = []


def _remove(directory: str):
    try:
        os.rmdir(directory)
    except OSError:
        pass
