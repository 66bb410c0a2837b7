"""Run one untrusted command under bubblewrap so that nothing it does reaches the host.

The sandbox sees a least-privilege view of the machine (read-only /usr and
its /bin, /lib* and /sbin links, a minimal /etc made for it, its own /proc,
a minimal /dev, fresh tmpfs mounts for /tmp and the task directory, nothing
else of the host), has only loopback networking, runs without capabilities
under a seccomp filter (``qbcore.realbash.seccomp``), with rlimits, a wall-clock
timeout and capped output, and every process of a worker's sandboxes counts
against one cgroup memory and process cap (``qbcore.realbash.cgroups``) where the
machine allows it.

Namespaces are made once per worker: each process keeps long-lived zygotes
(``qbcore.realbash.zygote``, one bubblewrap each), and every attempt gets a fresh
world from one of them (new pid and mount namespaces, new tmpfs mounts, a
clean environment), torn down completely before the next. A zygote that
dies or wedges is replaced; the attempt it had is reported, not lost.
Attempts that need host paths bound in (``ro_binds``) get a bubblewrap of
their own instead.

The host never resolves a path the command could have changed: the final
task directory is read by descriptors opened before the command ran
(``dirtree.read_at``), under caps on entries, depth and bytes, and handed
to the caller's workspace as a private host copy.
"""

from __future__ import annotations

import array
import atexit
import contextlib
import ctypes
import fcntl
import json
import marshal
import os
import secrets
import selectors
import shutil
import signal
import select
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol, Sequence

from . import cgroups, dirtree, seccomp, zygote

__all__ = ["SandboxUnavailable", "Limits", "Completed", "Workspace", "available", "unavailable_reason", "run",
           "VISIBLE_TOP_LEVEL", "close_zygotes"]

# The unprivileged identity a root caller drops to: the kernel ignores
# RLIMIT_NPROC for host root even inside a user namespace, so the process
# limit only holds when the sandbox runs under another uid.
NOBODY = 65534

# the login name inside the sandbox (executor.LOGIN; the real-ssh server's account has the same name)
LOGIN = "qbuser"
# the machine's name inside the sandbox (its own UTS namespace)
HOSTNAME = "sandbox"

# The launcher's private folder in the sandbox's /tmp: the host creates the
# output fifos there and removes them once the launcher has opened them.
_CONTROL = "/tmp/.qbcore-sandbox"

# where the zygote's own code appears inside its sandbox
_ZYGOTE_DIR = "/qbcore"

# the host's top-level names that may appear in the sandbox: /usr read-only, and its links
_USR_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
VISIBLE_TOP_LEVEL = ("usr", *_USR_LINKS, "etc", "dev", "proc", "tmp")

# pid 1 of a sandbox of its own: a POSIX sh script (dash starts in half the
# time of bash) that takes the rlimits itself, so the command inherits them. It
# talks to the host over two pipes: it reports on fd 3 (R: set up; B: the output fifos are open; S: the command's exit
# status, signed with the attempt's secret; D: every other process is gone;
# E: a failure) and waits on fd 4 for the host's word (go + secret: the task
# directory is ready; end: the output has reached its end; end of file:
# finish). The command writes to fifos whose read ends only the host holds, so
# the host sees end of file exactly when no process holds the output any more
# (a harness that reads the output to its end waits for the same). As pid 1
# it cannot be killed from inside, reaps orphans while it waits, and its exit
# ends every process left in the sandbox. It holds one capability (CAP_KILL)
# that the command gives up (``drop``): the kernel lets no process read the
# memory, descriptors or environment of one with capabilities it lacks, so
# the secret in pid 1's memory stays out of the command's reach.
_LAUNCHER = r"""
exec 5>&-
work=$1 control=$2 limits=$3 drop=$4
shift 4
printf 'R\n' >&3
read -r word nonce <&4 && [ "$word" = go ] || exit 0
cd "$work" || { printf 'E cannot enter the task directory\n' >&3; exit 0; }
eval "$limits" 2>/dev/null || { printf 'E cannot apply the resource limits\n' >&3; exit 0; }
exec 6>"$control/out" 7>"$control/err" 8<&0
printf 'B\n' >&3
$drop env -i "$@" <&8 >&6 2>&7 3>&- 4>&- 6>&- 7>&- 8<&- &
exec 0</dev/null 2>/dev/null 6>&- 7>&- 8<&-
wait $!
printf 'S %s %s\n' "$nonce" "$?" >&3
read -r word <&4
while :; do
  kill -KILL -1
  alive=0
  for stat in /proc/[0-9]*/stat; do
    read -r line < "$stat" || continue
    state=${line##*) }
    case "${line%% *} ${state%% *}" in
      "1 "*|*" Z") ;;
      *) alive=1; break ;;
    esac
  done
  [ "$alive" = 0 ] && break
  sleep 0.002
done
printf 'D %s\n' "$nonce" >&3
read -r word <&4
"""


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot create its namespaces here; the reason says which."""


@dataclass(frozen=True)
class Limits:
    """Resource limits for one attempt (all enforced inside the sandbox but wall_s, output_bytes and the
    read-back caps).

    ``memory_bytes`` caps each process's address space and, where a cgroup
    can be made, the whole attempt (every process, tmpfs and memfd
    included); ``processes`` likewise. ``entries``, ``depth`` and
    ``read_bytes`` cap what is read back from the task directory.
    """

    cpu_s: int = 10
    memory_bytes: int = 1 << 30
    file_size_bytes: int = 64 << 20
    open_files: int = 256
    processes: int = 256
    wall_s: float = 15.0
    output_bytes: int = 1 << 20
    workdir_bytes: int = 128 << 20
    tmp_bytes: int = 64 << 20
    entries: int = 20000
    depth: int = 64
    read_bytes: int = 64 << 20

    def ulimit_commands(self, shell: str) -> str:
        """The ``ulimit`` commands that set these limits in ``shell`` (dash or bash, whose units and
        flags differ: dash counts -f in 512-byte blocks and calls the process limit -p)."""
        # the process limit is per uid inside the sandbox's own user namespace,
        # so it counts only this attempt
        if shell == "dash":
            return (f"ulimit -t {int(self.cpu_s)} && ulimit -v {self.memory_bytes // 1024} && "
                    f"ulimit -f {self.file_size_bytes // 512} && ulimit -n {int(self.open_files)} && "
                    f"ulimit -p {int(self.processes)}")
        return (f"ulimit -t {int(self.cpu_s)} -v {self.memory_bytes // 1024} -f {self.file_size_bytes // 1024} "
                f"-n {int(self.open_files)} -u {int(self.processes)}")

    def caps(self) -> dirtree.Caps:
        return dirtree.Caps(entries=self.entries, depth=self.depth, data_bytes=self.read_bytes,
                            name_bytes=max(1 << 20, self.entries * 256))

    def rlimits(self) -> dict:
        return {"cpu_s": int(self.cpu_s), "memory_bytes": int(self.memory_bytes),
                "file_size_bytes": int(self.file_size_bytes), "open_files": int(self.open_files),
                "processes": int(self.processes), "tmp_bytes": int(self.tmp_bytes),
                "workdir_bytes": int(self.workdir_bytes)}


@dataclass(frozen=True)
class Completed:
    """What the command did: exit status (None when killed at the timeout), capped output, timing."""

    exit_code: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool
    duration_s: float
    stdout_truncated: bool
    stderr_truncated: bool
    # True when the sandbox could not return the task directory (the timeout
    # ended the attempt, the sandbox died, or the directory went past a cap)
    state_lost: bool = False
    notes: tuple[str, ...] = field(default=())
    # what the caller's Workspace.inspect returned (None without one, or when the state was lost)
    inspected: object = field(default=None, repr=False)
    # set when the task directory went past a read-back cap: which one
    over_cap: str | None = None


_availability: tuple[bool, str] | None = None


_bwrap_path: list[str | None] = []


def _bwrap() -> str | None:
    if not _bwrap_path:
        _bwrap_path.append(shutil.which("bwrap"))
    return _bwrap_path[0]


def _launcher_shell() -> str:
    """dash when there is one (pid 1 starts sooner), bash otherwise."""
    return "/bin/dash" if os.access("/bin/dash", os.X_OK) else "/bin/bash"


def _identity() -> tuple[int, int]:
    if os.geteuid() == 0:
        return NOBODY, NOBODY
    return os.getuid(), os.getgid()


def unavailable_reason() -> str | None:
    """None when sandboxed runs work here, else a sentence saying why they do not."""
    global _availability
    if _availability is None:
        _availability = _probe()
    return None if _availability[0] else _availability[1]


def available() -> bool:
    return unavailable_reason() is None


def _probe() -> tuple[bool, str]:
    bwrap = _bwrap()
    if bwrap is None:
        return False, "bubblewrap (bwrap) is not installed; install it (Debian: apt-get install bubblewrap)"
    try:
        done = run(["true"], workdir=None, env={"PATH": "/usr/bin:/bin"},
                   limits=Limits(wall_s=10.0))
    except SandboxUnavailable as exc:
        return False, str(exc)
    if done.exit_code != 0:
        return False, (f"bubblewrap ran but a trivial command failed: "
                       f"{done.stderr.decode(errors='replace').strip() or '; '.join(done.notes)}")
    return True, ""


def _encode(text: str | bytes) -> bytes:
    if isinstance(text, bytes):
        return text
    return os.fsencode(text)


def _memfd(data: bytes, name: str = "qbcore-data") -> int:
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _check_inputs(argv, files, programs, workdir, workspace):
    if not argv:
        raise ValueError("argv is empty")
    if "=" in (argv[0] if isinstance(argv[0], str) else argv[0].decode("latin-1")):
        raise ValueError("the program name contains '=', which env would take for a variable")
    for arg in argv:
        if "\0" in (arg if isinstance(arg, str) else arg.decode("latin-1")):
            raise ValueError("an argument contains a NUL byte, which no program can receive")
    for path in [*files, *programs]:
        normal = os.path.normpath(path)
        if not normal.startswith("/tmp/") or normal != path:
            raise ValueError(f"sandbox files must be absolute paths under /tmp: {path!r}")
    if workspace is None and workdir is not None and not os.path.isdir(workdir):
        raise ValueError(f"workdir is not a directory: {workdir}")
    if workspace is not None and workdir is None:
        raise ValueError("a workspace needs the task directory's path (workdir)")


def _bind_pairs(ro_binds) -> list[tuple[str, str]]:
    pairs = []
    for bind in ro_binds:
        src, dest = (bind, bind) if isinstance(bind, (str, os.PathLike)) else bind
        pairs.append((os.fspath(src), os.fspath(dest)))
    return pairs


# --- what the sandbox sees --------------------------------------------------

def etc_files(uid: int, gid: int) -> dict[str, bytes]:
    """The sandbox's whole /etc: who its one user is, where names are looked up, its host names.

    The tasks' programs (bash, coreutils, sed, awk, grep, git, python3, the
    ssh stand-in, OpenSSH's ssh and sshd for --real-ssh) need no more: the
    C.UTF-8 locale and the time zone data live under /usr, and the ssh
    programs get their configuration by option.
    """
    passwd = f"root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n{LOGIN}:x:{uid}:{gid}:qbcore sandbox user:/tmp:/bin/bash\n"
    if uid != NOBODY:
        passwd += f"nobody:x:{NOBODY}:{NOBODY}:nobody:/nonexistent:/usr/sbin/nologin\n"
    group = f"root:x:0:\n{LOGIN}:x:{gid}:\n"
    if gid != NOBODY:
        group += f"nogroup:x:{NOBODY}:\n"
    return {
        "passwd": passwd.encode(), "group": group.encode(),
        "nsswitch.conf": b"passwd: files\ngroup: files\nshadow: files\nhosts: files\nnetworks: files\n"
                         b"protocols: files\nservices: files\n",
        "hosts": f"127.0.0.1\tlocalhost\n127.0.1.1\t{HOSTNAME}\n::1\tlocalhost ip6-localhost ip6-loopback\n".encode(),
        "hostname": f"{HOSTNAME}\n".encode(),
        "shells": b"/bin/sh\n/bin/bash\n/usr/bin/bash\n/bin/dash\n/usr/bin/dash\n",
    }


def _view(uid: int, gid: int, tmp_bytes: int, replaced=(), mask_proc: bool = True) -> tuple[list[str], list[int]]:
    """bubblewrap's arguments for the least-privilege view, and the descriptors they read (closed by bwrap).

    ``replaced``: /etc files a bind of the caller's provides instead. ``mask_proc``: cover the kernel-wide
    /proc files (a zygote leaves its /proc whole, as the kernel only lets an attempt mount a /proc of its
    own beside a fully visible one, and masks the attempt's)."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in _USR_LINKS:
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    fds = []
    for name, data in etc_files(uid, gid).items():
        if f"/etc/{name}" in replaced:
            continue
        fd = _memfd(data, "qbcore-etc")
        fds.append(fd)
        # a file on the root tmpfs (read-only once / is remounted), not a mount of its own: every
        # attempt's mount namespace is a copy of this one, and each mount in it costs a copy and a teardown
        args += ["--perms", "0644", "--file", str(fd), f"/etc/{name}"]
    for name, target in _alternatives():
        args += ["--symlink", target, f"/etc/alternatives/{name}"]
    args += ["--dev", "/dev", "--proc", "/proc", "--size", str(tmp_bytes), "--perms", "1777", "--tmpfs", "/tmp",
             "--size", str(1 << 20), "--perms", "1777", "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    for name in zygote.MASKED_PROC if mask_proc else ():
        if os.path.exists(f"/proc/{name}"):
            args += ["--ro-bind", "/dev/null", f"/proc/{name}"]
    return args, fds


_programs_chosen: list[tuple[str, str]] | None = None


def _alternatives() -> list[tuple[str, str]]:
    """The host's /etc/alternatives links that choose a program under /usr (awk -> mawk, editor, ...):
    the commands on PATH go through them, so the sandbox's /etc has the same links (and no others)."""
    global _programs_chosen
    if _programs_chosen is None:
        _programs_chosen = []
        folder = "/etc/alternatives"
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            names = []
        for name in names:
            path = os.path.join(folder, name)
            try:
                target = os.readlink(path)
            except OSError:
                continue
            real = os.path.realpath(path)
            if (real.startswith("/usr/") and os.path.isfile(real) and os.access(real, os.X_OK)
                    and "/" not in name):
                _programs_chosen.append((name, target))
    return _programs_chosen


_filter: bytes | None = None


def _seccomp_program() -> bytes:
    global _filter
    if _filter is None:
        _filter = seccomp.program() if seccomp.supported() else b""
    return _filter


# --- the workspace ------------------------------------------------------------

class Workspace(Protocol):
    """What goes into the task directory and what is read from it.

    ``populate`` fills a fresh, empty directory with the task's content
    (a workspace may instead offer ``content()``, the node list itself);
    ``inspect`` reads a private host copy of the final task directory, made
    once every process of the attempt is gone, and its result becomes
    ``Completed.inspected``. Both get a path that is only valid during the call.
    A workspace may instead offer ``inspect_nodes(nodes)``: it then gets the
    final directory as the node list (what the copy would hold), and no copy
    is made unless it makes one itself.
    """

    def populate(self, path: str) -> None: ...

    def inspect(self, path: str) -> object: ...


class _HostDirectory:
    """The default workspace: a host directory's content goes in, the final state comes back into it."""

    def __init__(self, workdir: str | None):
        self.workdir = workdir
        self.notes: list[str] = []

    def content(self) -> list[dirtree.Node]:
        # read as the caller: the sandbox user need not be able to read the host's files
        return dirtree.read(self.workdir) if self.workdir is not None else []

    def populate(self, path: str):
        dirtree.write(self.content(), path)

    def inspect(self, path: str):
        if self.workdir is not None:
            final = dirtree.read(path)
            dirtree.clear(self.workdir)
            dirtree.write(final, self.workdir, self.notes)


def _content_of(workspace) -> list[dirtree.Node]:
    if hasattr(workspace, "content"):
        return workspace.content()
    with tempfile.TemporaryDirectory(prefix="qbcore-content-") as scratch:
        workspace.populate(scratch)
        return dirtree.read(scratch)


_scratch: list[str | None] = []


def _scratch_dir() -> str | None:
    """Where the host lays down final states: /dev/shm when it is a roomy tmpfs (no disk I/O for
    a directory that lives a few milliseconds), else the usual temporary directory."""
    if not _scratch:
        place = None
        try:
            info = os.statvfs("/dev/shm")
            if info.f_bavail * info.f_frsize >= 4 << 30 and os.access("/dev/shm", os.W_OK | os.X_OK):
                place = "/dev/shm"
        except OSError:
            pass
        _scratch.append(place)
    return _scratch[0]


def _inspect_copy(workspace, nodes: list[dirtree.Node], notes: list[str]):
    """Lay ``nodes`` down in a private host directory and let the workspace read it there (or hand the
    workspace the nodes that copy would hold, when it reads them directly)."""
    if hasattr(workspace, "inspect_nodes"):
        kept = []
        for node in nodes:
            if node.kind in ("dir", "file", "symlink", "fifo"):
                kept.append(node if node.kind == "symlink" else node._replace(mode=node.mode & dirtree.MODE_BITS))
            else:
                notes.append(f"special file not returned: {node.path}")
        return workspace.inspect_nodes(kept)
    scratch = tempfile.mkdtemp(prefix="qbcore-final-", dir=_scratch_dir())
    try:
        copy = os.path.join(scratch, "task")
        os.mkdir(copy, 0o755)
        dirtree.write(nodes, copy, notes)
        return workspace.inspect(copy)
    finally:
        _remove_tree(scratch)


def _remove_tree(path: str):
    try:
        dirtree.clear(path)
        os.rmdir(path)
    except OSError:
        shutil.rmtree(path, ignore_errors=True)


# --- run ------------------------------------------------------------------------

def run(argv: Sequence[str], *, workdir: str | None, env: Mapping[str, str], stdin: bytes | None = None,
        limits: Limits = Limits(), ro_binds=(), files: Mapping[str, bytes] = {},
        programs: Mapping[str, bytes] = {}, workspace: Workspace | None = None,
        unsafe_no_sandbox: bool = False) -> Completed:
    """Run ``argv`` in ``workdir`` with exactly ``env``.

    Without ``workspace``, ``workdir``'s content goes in and the final state
    comes back into it. With one, ``workdir`` only names the task directory
    (the same path inside the sandbox) and the workspace fills and reads it.
    ``ro_binds``: host paths (or ``(host, inside)`` pairs) made visible read-only
    (such an attempt gets a bubblewrap of its own).
    ``files``: absolute paths under the private /tmp created before the command starts.
    ``programs``: executables (absolute paths under /tmp) that the command can run but not change:
    each folder holding one is read-only.
    Raises SandboxUnavailable when bubblewrap cannot run, unless ``unsafe_no_sandbox``.
    """
    _check_inputs(argv, files, programs, workdir, workspace)
    host_directory = None
    if workspace is None:
        workspace = host_directory = _HostDirectory(workdir)
    if unsafe_no_sandbox:
        return _run_unsandboxed(argv, workdir=workdir, env=env, stdin=stdin, limits=limits,
                                files={**files, **programs}, executable=set(programs),
                                workspace=None if host_directory else workspace)
    bwrap = _bwrap()
    if bwrap is None:
        raise SandboxUnavailable("bubblewrap (bwrap) is not installed, so replies cannot be run safely; "
                                 "install it, or pass --unsafe-no-sandbox to run them directly on this host")
    inner_work = os.path.abspath(workdir) if workdir is not None else "/tmp/qbcore-work"
    if inner_work == "/tmp" or not inner_work.startswith("/") or inner_work == "/":
        raise ValueError(f"the task directory cannot be {inner_work}")
    started = time.monotonic()
    content = _content_of(workspace)
    if ro_binds:
        outcome = _run_own_bubblewrap(bwrap, argv, inner_work, env, stdin, limits, ro_binds, files, programs,
                                      content)
    else:
        outcome = _zygotes.run(bwrap, argv, inner_work, env, stdin, limits, files, programs, content)
    notes = list(outcome.notes)
    inspected = None
    if outcome.nodes is not None:
        inspected = _inspect_copy(workspace, outcome.nodes, notes)
    if host_directory is not None:
        notes += host_directory.notes
    return Completed(exit_code=outcome.status, stdout=outcome.output["stdout"], stderr=outcome.output["stderr"],
                     timed_out=outcome.timed_out, duration_s=time.monotonic() - started,
                     stdout_truncated=outcome.truncated["stdout"], stderr_truncated=outcome.truncated["stderr"],
                     state_lost=outcome.nodes is None, notes=tuple(notes), inspected=inspected,
                     over_cap=outcome.over_cap)


class _Outcome:
    """What one sandboxed attempt gave back, before the workspace reads it."""

    def __init__(self):
        self.status: int | None = None
        self.output = {"stdout": b"", "stderr": b""}
        self.truncated = {"stdout": False, "stderr": False}
        self.timed_out = False
        self.nodes: list[dirtree.Node] | None = None
        self.notes: list[str] = []
        self.over_cap: str | None = None

    def take(self, pumped: "_Pumped"):
        self.output, self.truncated, self.timed_out = pumped.output, pumped.truncated, pumped.timed_out
        if self.timed_out:
            self.status = None


def _start_sandbox(command, child: Mapping[int, int], uid: int, gid: int, group) -> tuple[int, int]:
    """Start bwrap (``child``: target fd -> our fd, ours closed here); its pid and the sandbox's pid 1.

    bubblewrap reports pid 1 on its fd 5 once the namespaces exist; both go
    into the cgroup before anything untrusted runs in them (pid 1 forks
    nothing until the host's go), or the sandbox does not start.
    """
    info_r, info_w = os.pipe()
    try:
        pid = _start(command, {**child, 5: info_w}, uid, gid)
    except OSError as exc:
        os.close(info_r)
        raise SandboxUnavailable(f"cannot start bubblewrap: {exc}") from exc
    finally:
        os.close(info_w)
        for fd in child.values():
            os.close(fd)
    try:
        data = b""
        deadline = time.monotonic() + 30.0
        child_pid = None
        while child_pid is None:
            try:
                child_pid = int(json.loads(data)["child-pid"])
                break
            except (ValueError, KeyError):
                pass
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([info_r], [], [], remaining)[0]:
                break
            chunk = os.read(info_r, 4096)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(info_r)
    if child_pid is None:
        return pid, 0
    if group is not None and not (group.add(pid) and group.add(child_pid)) and _running(child_pid):
        # a sandbox outside its cgroup would run uncapped, silently: it does not start (one whose
        # pid 1 has already ended, bubblewrap having failed, is reported by the caller as such)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        raise SandboxUnavailable(f"the kernel would not put the sandbox into its cgroup {group.pids_dir}")
    return pid, child_pid


def _running(pid: int) -> bool:
    """Whether ``pid`` exists and has not ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rpartition(b")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def _bwrap_errors(errors_fd: int) -> str:
    os.lseek(errors_fd, 0, os.SEEK_SET)
    return os.read(errors_fd, 65536).decode(errors="replace").strip() or "no reason given"


# --- zygotes: one bubblewrap per worker, a fresh world per attempt ----------

class _ZygoteDied(Exception):
    """The zygote ended or broke the protocol; it is replaced."""


class _ZygoteGone(_ZygoteDied):
    """An idle zygote had ended before it was given the attempt: the attempt can go to a new one."""


class _Zygote:
    """One long-lived sandbox (see ``qbcore.realbash.zygote``) and the host's side of its conversation."""

    def __init__(self, bwrap: str):
        uid, gid = _identity()
        self.owner = os.getpid()
        self.group = cgroups.Group.create((1 << 30) + _ZYGOTE_MEMORY, 256 + _ZYGOTE_TASKS)
        view, view_fds = _view(uid, gid, 1 << 20, mask_proc=False)
        program = _seccomp_program()
        # the zygote's code comes in as data, not as binds of the install: the sandbox's
        # user need not be able to reach the folder qbcore is installed in (a 0700 clone)
        code = _zygote_code()
        for name, data in code.items():
            fd = _memfd(data, "qbcore-zygote-code")
            view_fds.append(fd)
            view += ["--perms", "0644", "--file", str(fd), f"{_ZYGOTE_DIR}/{name}"]
        init = _attempt_init()
        if init is not None:
            fd = _memfd(init, "qbcore-attempt-init")
            view_fds.append(fd)
            view += ["--perms", "0555", "--file", str(fd), f"{_ZYGOTE_DIR}/attemptinit"]
        command = [bwrap, *view,
                   "--remount-ro", "/", "--unshare-all", "--unshare-user", "--uid", str(uid), "--gid", str(gid),
                   "--cap-add", "ALL", "--hostname", HOSTNAME, "--die-with-parent", "--new-session",
                   "--as-pid-1", "--info-fd", "5", "--chdir", "/", "--", _python(), "-I", "-S",
                   f"{_ZYGOTE_DIR}/{next(iter(code))}"]
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock = ours
        self.errors = os.memfd_create("qbcore-zygote-errors", os.MFD_CLOEXEC)
        child = {0: os.open(os.devnull, os.O_RDONLY), 1: os.open(os.devnull, os.O_WRONLY),
                 2: os.dup(self.errors), 3: theirs.detach()}
        for index, fd in enumerate(view_fds):
            child[6 + index] = fd
        # the view's descriptors keep their numbers in bwrap: rewrite the arguments to the targets
        mapping = {str(fd): str(6 + index) for index, fd in enumerate(view_fds)}
        command = _renumber(command, mapping)
        if program:
            target = 6 + len(view_fds)
            child[target] = _memfd(program, "qbcore-seccomp")
        command += [str(target) if program else "-", f"{_ZYGOTE_DIR}/attemptinit" if init is not None else "-"]
        self.pid = None
        try:
            self.pid, self.child_pid = _start_sandbox(command, child, uid, gid, self.group)
            if not self.child_pid:
                raise SandboxUnavailable(f"bubblewrap could not set up the sandbox: {_bwrap_errors(self.errors)}")
            # the zygote forks nothing before this byte: every process it makes starts in the cgroup
            self.sock.sendall(zygote.GO)
            zygote.send_frame(self.sock, marshal.dumps({"op": "ping"}))
            self._expect("pong", time.monotonic() + 30.0)
        except (SandboxUnavailable, _ZygoteDied, OSError) as exc:
            message = _bwrap_errors(self.errors)
            self.close()
            if isinstance(exc, SandboxUnavailable):
                raise
            raise SandboxUnavailable(f"the sandbox's zygote did not start: {message}") from exc

    def _expect(self, op, deadline: float, payload_limit: int = 0) -> tuple[dict, bytes]:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([self.sock], [], [], remaining)[0]:
            raise _ZygoteDied(f"no answer from the zygote (waiting for {op})")
        try:
            self.sock.settimeout(max(1.0, deadline - time.monotonic()))
            header, payload = zygote.recv_frame(self.sock, payload_limit, json.loads)
        except (OSError, EOFError, ValueError) as exc:
            raise _ZygoteDied(f"the zygote's channel broke ({exc})") from exc
        finally:
            self.sock.settimeout(None)
        expected = op if isinstance(op, tuple) else (op,)
        if header.get("op") == "error" and "error" not in expected:
            raise SandboxUnavailable(f"the sandbox could not set up the attempt: {header.get('error')}")
        if header.get("op") not in expected:
            raise _ZygoteDied(f"the zygote answered {header.get('op')!r} where {op!r} was due")
        return header, payload

    def attempt(self, argv, work: str, env, stdin: bytes | None, limits: Limits, files, programs,
                content: list[dirtree.Node]) -> _Outcome:
        outcome = _Outcome()
        started = time.monotonic()
        deadline = started + limits.wall_s
        if self.group is not None and not self.group.limit(limits.memory_bytes + _ZYGOTE_MEMORY,
                                                            limits.processes + _ZYGOTE_TASKS):
            outcome.notes.append("the cgroup refused the attempt's memory and process caps")
        request = {"op": "run", "argv": [_encode(a) for a in argv],
                   "env": [_encode(f"{k}={v}") for k, v in env.items()], "work": work,
                   "limits": limits.rlimits(), "caps": _caps_dict(limits.caps()),
                   "files": {p: bytes(d) for p, d in files.items()},
                   "programs": {p: bytes(d) for p, d in programs.items()}, "stdin": stdin is not None}
        try:
            zygote.send_frame(self.sock, marshal.dumps(request), dirtree.dump(content))
        except OSError as exc:
            raise _ZygoteGone(f"the zygote was gone before the attempt ({exc})") from exc
        fds = self._receive_started(deadline + _GRACE_S)
        out, err, status_fd = fds[0], fds[1], fds[2]
        stdin_fd = fds[3] if len(fds) > 3 else None
        status = _StatusLine()
        try:
            pumped = _pump(out, err, stdin_fd, stdin, limits.output_bytes, deadline, status_fd, status.feed)
        finally:
            for fd in (out, err, status_fd):
                os.close(fd)
        outcome.take(pumped)
        if not pumped.timed_out:
            outcome.status = status.code
            if status.code is None:
                outcome.notes.append("the attempt's pid 1 ended without the command's exit status")
        try:
            zygote.send_frame(self.sock, marshal.dumps({"op": "end", "timed_out": pumped.timed_out}))
        except OSError as exc:
            raise _ZygoteDied(f"the zygote's channel broke ({exc})") from exc
        caps = limits.caps()
        limit = caps.data_bytes + caps.name_bytes + 64 * caps.entries
        header, payload = self._expect("done", time.monotonic() + 3 * _GRACE_S, limit)
        state = header.get("state")
        if state == "ok":
            try:
                outcome.nodes = dirtree.load(payload, caps)
            except dirtree.TooLarge as exc:
                outcome.over_cap = str(exc)
            except ValueError as exc:
                raise _ZygoteDied(f"the zygote sent a malformed directory ({exc})") from exc
        elif state == "too-large":
            outcome.over_cap = header.get("note") or "a read-back cap"
        elif not pumped.timed_out:
            outcome.notes.append(header.get("note") or "the task directory could not be read back")
        if outcome.over_cap:
            outcome.notes.append(f"the task directory went past the sandbox's read-back cap: {outcome.over_cap}")
        return outcome

    def _receive_started(self, deadline: float) -> list[int]:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([self.sock], [], [], remaining)[0]:
            raise _ZygoteDied("the zygote did not start the attempt")
        try:
            head, fds = _receive_fds(self.sock, zygote.FRAME.size, 5)
        except OSError as exc:
            raise _ZygoteDied(f"the zygote's channel broke ({exc})") from exc
        try:
            if len(head) < zygote.FRAME.size:
                self.sock.settimeout(5.0)
                head += zygote._exactly(self.sock, zygote.FRAME.size - len(head), zygote.FRAME.size)
            head_len, payload_len = zygote.FRAME.unpack(head)
            self.sock.settimeout(5.0)
            header = json.loads(zygote._exactly(self.sock, head_len, zygote.MAX_HEADER))
            zygote._exactly(self.sock, payload_len, 0)
        except (OSError, EOFError, ValueError) as exc:
            for fd in fds:
                os.close(fd)
            raise _ZygoteDied(f"the zygote's channel broke ({exc})") from exc
        finally:
            self.sock.settimeout(None)
        if header.get("op") == "error":
            raise SandboxUnavailable(f"the sandbox could not set up the attempt: {header.get('error')}")
        if header.get("op") != "started" or len(fds) < 3:
            for fd in fds:
                os.close(fd)
            raise _ZygoteDied(f"the zygote answered {header.get('op')!r} where 'started' was due")
        return fds

    def close(self):
        """End the zygote and everything in it, and remove its cgroup."""
        if self.owner != os.getpid():
            return
        with contextlib.suppress(OSError):
            self.sock.close()
        if self.pid is not None:
            if _reap(self.pid, 2.0) is None:
                _kill_group(self.pid)
                _reap(self.pid, None)
            self.pid = None
        if self.group is not None:
            self.group.close()
            self.group = None
        with contextlib.suppress(OSError):
            os.close(self.errors)

    def kill(self):
        if self.pid is not None and self.owner == os.getpid():
            _kill_group(self.pid)
        self.close()


class _StatusLine:
    """The command's exit status, as the attempt's pid 1 writes it on its status pipe ("N\\n")."""

    def __init__(self):
        self.data = b""
        self.code: int | None = None

    def feed(self, fd: int) -> bool:
        """Read what is there; True once the line is complete or pid 1 is gone (end of file)."""
        chunk = os.read(fd, 64)
        self.data += chunk
        line, newline, _ = self.data.partition(b"\n")
        if newline and line.isdigit() and len(line) <= 3:
            self.code = int(line)
        return bool(newline) or not chunk or len(self.data) > 64


_init_program: list[bytes | None] = []


def _attempt_init() -> bytes | None:
    """The libc-free pid 1 built by setup.py (``attemptinit.c``), or None: the zygote then forks a Python one.

    QBCORE_NO_EXTENSIONS turns it off as it turns off the compiled engine."""
    if not _init_program:
        from .. import _switch

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_attemptinit")
        found = None
        if not _switch.extensions_disabled() and os.access(path, os.X_OK):
            with open(path, "rb") as handle:
                found = handle.read()
        _init_program.append(found)
    return _init_program[0]


# a zygote's own share of its cgroup: its python and the attempt's pid 1
_ZYGOTE_MEMORY = 96 << 20
_ZYGOTE_TASKS = 8
# how long past the wall clock the zygote may take to answer before it is replaced
_GRACE_S = 5.0


def _caps_dict(caps: dirtree.Caps) -> dict:
    return {"entries": caps.entries, "depth": caps.depth, "data_bytes": caps.data_bytes,
            "name_bytes": caps.name_bytes}


def _renumber(command: list[str], mapping: Mapping[str, str]) -> list[str]:
    out = list(command)
    for index, arg in enumerate(command[:-1]):
        if arg in ("--ro-bind-data", "--file") and command[index + 1] in mapping:
            out[index + 1] = mapping[command[index + 1]]
    return out


_compiled: dict[str, bytes] = {}


def _zygote_code() -> dict[str, bytes]:
    """The zygote's files, the one it runs first: compiled here (unchecked .pyc) when the sandbox's python3
    is this Python's version, so that no zygote compiles them at its start; their sources otherwise."""
    if not _compiled:
        import importlib.util
        import sys

        here = os.path.dirname(os.path.abspath(__file__))
        same = os.path.basename(os.path.realpath(_python())) == f"python{sys.version_info[0]}.{sys.version_info[1]}"
        for name in ("zygote", "dirtree"):
            with open(os.path.join(here, f"{name}.py"), "rb") as handle:
                source = handle.read()
            if same and sys.implementation.name == "cpython":
                # PEP 552: magic, flags (hash-based, source not checked), source hash, code
                code = compile(source, f"{_ZYGOTE_DIR}/{name}.py", "exec", dont_inherit=True)
                _compiled[f"{name}.pyc"] = (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
                                            + importlib.util.source_hash(source) + marshal.dumps(code))
            else:
                _compiled[f"{name}.py"] = source
    return _compiled


def _python() -> str:
    """The system's python3 (under /usr, so visible in the sandbox) for the zygote."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(candidate, os.X_OK):
            return candidate
    raise SandboxUnavailable("no python3 under /usr for the sandbox's zygote (Debian: apt-get install python3)")


class _ZygotePool:
    """This process's idle zygotes: an attempt takes one (or starts one) and gives it back when it is done."""

    def __init__(self):
        self.idle: list[_Zygote] = []
        self.lock = threading.Lock()
        self.owner = os.getpid()
        self.spawner = None

    def _take(self, bwrap: str) -> _Zygote:
        with self.lock:
            if self.owner != os.getpid():
                self._forget()
            if self.idle:
                return self.idle.pop()
            _end_with_this_process()
        if threading.current_thread() is threading.main_thread():
            return _Zygote(bwrap)
        # bubblewrap's --die-with-parent follows the thread that started it:
        # zygotes are started by a thread that lives as long as the process
        with self.lock:
            if self.spawner is None:
                from concurrent.futures import ThreadPoolExecutor
                self.spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qbcore-zygotes")
        return self.spawner.submit(_Zygote, bwrap).result()

    def _give_back(self, zyg: _Zygote):
        with self.lock:
            if zyg.owner == os.getpid():
                self.idle.append(zyg)

    def _forget(self):
        # a forked child must not use (or end) its parent's zygotes
        for zyg in self.idle:
            with contextlib.suppress(OSError):
                zyg.sock.close()
            with contextlib.suppress(OSError):
                os.close(zyg.errors)
        self.idle = []
        self.spawner = None
        self.owner = os.getpid()

    def run(self, bwrap, argv, work, env, stdin, limits, files, programs, content) -> _Outcome:
        for _ in range(3):
            zyg = self._take(bwrap)
            try:
                outcome = zyg.attempt(argv, work, env, stdin, limits, files, programs, content)
            except _ZygoteGone as exc:
                zyg.kill()
                continue
            except _ZygoteDied as exc:
                said = _bwrap_errors(zyg.errors) if zyg.pid is not None else ""
                zyg.kill()
                outcome = _Outcome()
                outcome.notes.append(f"the sandbox's zygote died during the attempt and was replaced: {exc}"
                                     + (f" ({said})" if said and said != "no reason given" else ""))
                return outcome
            except BaseException:
                zyg.kill()
                raise
            self._give_back(zyg)
            return outcome
        raise SandboxUnavailable("the sandbox's zygotes keep ending before they get an attempt")

    def close(self):
        with self.lock:
            if self.owner == os.getpid():
                for zyg in self.idle:
                    zyg.close()
            self.idle = []


_zygotes = _ZygotePool()
atexit.register(_zygotes.close)
# a multiprocessing worker leaves through os._exit, past atexit: its finalizers run instead
_finalizer_for: int | None = None


def _end_with_this_process():
    global _finalizer_for
    if _finalizer_for != os.getpid():
        import multiprocessing.util
        multiprocessing.util.Finalize(_zygotes, _zygotes.close, exitpriority=10)
        _finalizer_for = os.getpid()
os.register_at_fork(after_in_child=lambda: _zygotes._forget() if _zygotes.owner != os.getpid() else None)


def close_zygotes():
    """End this process's idle zygotes (they are also ended at exit)."""
    _zygotes.close()


# --- an attempt with a bubblewrap of its own (for host paths bound in) ------

def _run_own_bubblewrap(bwrap, argv, inner_work, env, stdin, limits: Limits, ro_binds, files, programs,
                        content) -> _Outcome:
    shell = _launcher_shell()
    uid, gid = _identity()
    view, view_fds = _view(uid, gid, limits.tmp_bytes, {dest for _, dest in _bind_pairs(ro_binds)})
    command = [bwrap, *view, "--size", str(limits.workdir_bytes), "--tmpfs", inner_work]
    for src, dest in _bind_pairs(ro_binds):
        command += ["--ro-bind", src, dest]
    # each program comes in on its own descriptor (bwrap reads and closes it)
    # into a small tmpfs that turns read-only once they are all in place
    first = 6 + len(view_fds)
    mapping = {str(fd): str(6 + index) for index, fd in enumerate(view_fds)}
    command = _renumber(command, mapping)
    extra = {6 + index: fd for index, fd in enumerate(view_fds)}
    program_fds = {first + index: _memfd(data) for index, data in enumerate(programs.values())}
    extra.update(program_fds)
    folders = sorted({os.path.dirname(path) for path in programs})
    for folder in folders:
        command += ["--size", "1048576", "--tmpfs", folder]
    for fd, path in zip(program_fds, programs):
        command += ["--perms", "0755", "--ro-bind-data", str(fd), path]
    for place in folders:
        # read-only once the mount points inside them exist
        command += ["--remount-ro", place]
    program = _seccomp_program()
    if program:
        target = first + len(program_fds)
        extra[target] = _memfd(program, "qbcore-seccomp")
        command += ["--seccomp", str(target)]
    # env -i K=V... ARGV: the first word without "=" is the program (_check_inputs makes sure it is argv[0])
    env_words = [_encode(f"{k}={v}") for k, v in env.items()]
    command += ["--remount-ro", "/", "--unshare-all", "--unshare-user", "--uid", str(uid), "--gid", str(gid),
                "--cap-add", "CAP_KILL", "--hostname", HOSTNAME, "--die-with-parent", "--new-session", "--as-pid-1",
                "--info-fd", "5", "--chdir", "/", "--", shell, "-c", _LAUNCHER, "qbcore-sandbox",
                inner_work, _CONTROL, limits.ulimit_commands(os.path.basename(shell)), _drop_command(),
                *env_words, *argv]
    session = _Session(limits, stdin)
    try:
        session.start(command, uid, gid, extra)
        session.prepare(inner_work, content, files, uid, gid)
        session.finish()
    finally:
        session.close()
    return session.outcome


def _drop_command() -> str:
    """What runs the command without any capability (setpriv from util-linux, under /usr)."""
    setpriv = shutil.which("setpriv", path="/usr/bin:/bin")
    if not setpriv or not setpriv.startswith("/usr/"):
        raise SandboxUnavailable("setpriv (util-linux) is needed under /usr to start the command without "
                                 "capabilities")
    return f"{setpriv} --inh-caps=-all --ambient-caps=-all --bounding-set=-all"


_libc = None


@contextlib.contextmanager
def _as_sandbox_user(uid: int, gid: int):
    """File operations of this thread act as the sandbox's user (files a root caller creates in the
    sandbox must belong to it, and host root is not mapped into its user namespace)."""
    global _libc
    if os.geteuid() != 0:
        yield
        return
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    _libc.setfsgid(gid)
    _libc.setfsuid(uid)
    try:
        yield
    finally:
        _libc.setfsuid(0)
        _libc.setfsgid(0)


class _Deadline(Exception):
    """The attempt's wall clock ran out."""


class _Session:
    """One bubblewrap run and the conversation with its pid 1 (see _LAUNCHER)."""

    def __init__(self, limits: Limits, stdin: bytes | None):
        self.limits = limits
        self.stdin = stdin
        self.started = time.monotonic()
        self.deadline = self.started + limits.wall_s
        self.nonce = secrets.token_hex(16)
        self.outcome = _Outcome()
        self.pid = None
        self.workfd = None
        self.group = None
        self._fds: list[int] = []
        self._report = b""

    def _keep(self, fd: int) -> int:
        self._fds.append(fd)
        return fd

    def start(self, command, uid: int, gid: int, extra: Mapping[int, int]):
        report_r, report_w = os.pipe()
        control_r, control_w = os.pipe()
        self.report, self.control = self._keep(report_r), self._keep(control_w)
        stdin_r = os.open(os.devnull, os.O_RDONLY)
        self.stdin_w = None
        if self.stdin is not None:
            os.close(stdin_r)
            stdin_r, stdin_w = os.pipe()
            self.stdin_w = self._keep(stdin_w)
            os.set_blocking(stdin_w, False)
        # bubblewrap's own complaints (and nothing else) land here
        self.errors = self._keep(os.memfd_create("qbcore-bwrap-errors", os.MFD_CLOEXEC))
        self.group = cgroups.Group.create(self.limits.memory_bytes, self.limits.processes + 8)
        child = {0: stdin_r, 1: os.open(os.devnull, os.O_WRONLY), 2: os.dup(self.errors), 3: report_w,
                 4: control_r, **extra}
        self.pid, self.child = _start_sandbox(command, child, uid, gid, self.group)
        if not self.child:
            self._setup_failed()

    def prepare(self, inner_work: str, content, files: Mapping[str, bytes], uid: int, gid: int):
        """Wait until pid 1 is up, fill its directories, open the output fifos, and let it start.

        Only pid 1 (the launcher) runs in the sandbox now, so the paths
        resolved here through its root are still the ones bubblewrap made;
        the task directory's descriptor taken now is what is read at the end.
        """
        try:
            if self._line() != "R":
                self._setup_failed()
            root = f"/proc/{self.child}/root"
            with _as_sandbox_user(uid, gid):
                self.workfd = self._keep(os.open(root + inner_work, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW))
                dirtree.write(content, f"/proc/self/fd/{self.workfd}")
                for path, data in files.items():
                    os.makedirs(os.path.dirname(root + path), exist_ok=True)
                    fd = os.open(root + path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
                    with os.fdopen(fd, "wb") as handle:
                        handle.write(data)
                os.makedirs(root + _CONTROL, exist_ok=True)
                os.mkfifo(root + _CONTROL + "/out", 0o600)
                os.mkfifo(root + _CONTROL + "/err", 0o600)
                self.out = self._keep(os.open(root + _CONTROL + "/out", os.O_RDONLY | os.O_NONBLOCK))
                self.err = self._keep(os.open(root + _CONTROL + "/err", os.O_RDONLY | os.O_NONBLOCK))
            os.write(self.control, f"go {self.nonce}\n".encode())
            word = self._line()
            if word.startswith("E "):
                raise SandboxUnavailable("sandbox launcher: " + word[2:])
            if word != "B":
                self._setup_failed()
            with _as_sandbox_user(uid, gid):
                # no path to the output is left for the command to find
                for name in ("out", "err"):
                    os.unlink(root + _CONTROL + "/" + name)
                os.rmdir(root + _CONTROL)
        except _Deadline:
            self._time_out()

    def finish(self):
        """Collect the output until the command has exited and no process holds it; then read the state."""
        outcome = self.outcome
        if outcome.timed_out:
            return
        status = {}

        def on_status(_fd) -> bool:
            data = os.read(self.report, 4096)
            self._report += data
            if not data or b"\n" in self._report:
                status["line"] = self._line()
                return True
            return False

        if b"\n" in self._report:
            status["line"] = self._line()
        if self.stdin_w is not None:
            self._fds.remove(self.stdin_w)  # the pump closes it
        pumped = _pump(self.out, self.err, self.stdin_w, self.stdin, self.limits.output_bytes, self.deadline,
                       None if "line" in status else self.report, on_status)
        outcome.take(pumped)
        if pumped.timed_out:
            self._time_out()
            return
        head = f"S {self.nonce} "
        line = status.get("line", "")
        signed = line.startswith(head) and line[len(head):].isdigit()
        if signed:
            outcome.status = int(line[len(head):])
        try:
            signed = signed and self._end_processes()
        except _Deadline:
            self._time_out()
            return
        if not signed:
            outcome.status = None
            outcome.notes.append("no signed report from the sandbox's pid 1: it ended early, or another process "
                                 "wrote to its result channel")
            return
        try:
            outcome.nodes = dirtree.read_at(self.workfd, self.limits.caps())
        except dirtree.TooLarge as exc:
            outcome.over_cap = str(exc)
            outcome.notes.append(f"the task directory went past the sandbox's read-back cap: {exc}")
        except OSError as exc:
            outcome.notes.append(f"the task directory could not be read back ({exc})")

    def _end_processes(self) -> bool:
        """Tell pid 1 the output has ended; True once it reports every other process gone."""
        try:
            os.write(self.control, b"end\n")
        except BrokenPipeError:
            return False
        return self._line() == f"D {self.nonce}"

    def _wait_readable(self, fd: int):
        remaining = self.deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            raise _Deadline

    def _line(self) -> str:
        """The next line pid 1 reports on its fd 3 ("" at end of file)."""
        while b"\n" not in self._report:
            self._wait_readable(self.report)
            data = os.read(self.report, 4096)
            if not data:
                line, self._report = self._report, b""
                return line.decode(errors="replace")
            self._report += data
        line, _, self._report = self._report.partition(b"\n")
        return line.decode(errors="replace")

    def _setup_failed(self):
        self._end()  # bubblewrap has said all it will say once it is reaped
        raise SandboxUnavailable(f"bubblewrap could not set up the sandbox: {_bwrap_errors(self.errors)}")

    def _time_out(self):
        self.outcome.timed_out, self.outcome.status, self.outcome.nodes = True, None, None
        if self.pid is not None:
            _kill_group(self.pid)

    def _close(self, fd: int):
        if fd in self._fds:
            self._fds.remove(fd)
            os.close(fd)

    def _end(self):
        """End pid 1 (closing its control pipe lets it exit) and reap bwrap."""
        if self.control in self._fds:
            self._close(self.control)
        if self.pid is not None:
            if _reap(self.pid, max(0.0, self.deadline - time.monotonic()) + 2.0) is None:
                _kill_group(self.pid)
                _reap(self.pid, None)
            self.pid = None

    def close(self):
        """End the sandbox and release every descriptor and the cgroup."""
        self._end()
        for fd in list(self._fds):
            self._close(fd)
        if self.group is not None:
            self.group.close()


# --- processes: one pump, one reaper, one kill -------------------------------

@dataclass
class _Pumped:
    output: dict
    truncated: dict
    timed_out: bool


def _pump(out: int, err: int, stdin_fd: int | None, stdin: bytes | None, cap: int, deadline: float,
          status_fd: int | None = None, on_status: Callable[[int], bool] | None = None) -> _Pumped:
    """Read stdout and stderr to their end (past ``cap``: read and discard) while feeding stdin, and until
    ``on_status`` (called when ``status_fd`` is readable) says the status is in; stops at ``deadline``.
    Closes ``stdin_fd`` (once all is written, or at the end); the caller closes the others."""
    chunks = {"stdout": [], "stderr": []}
    sizes = {"stdout": 0, "stderr": 0}
    truncated = {"stdout": False, "stderr": False}
    selector = selectors.DefaultSelector()
    selector.register(out, selectors.EVENT_READ, "stdout")
    selector.register(err, selectors.EVENT_READ, "stderr")
    if status_fd is not None:
        selector.register(status_fd, selectors.EVENT_READ, "status")
    pending = memoryview(stdin or b"")
    # the pump owns stdin's write end: closing it is the command's end of file
    stdin_open = stdin_fd is not None
    if stdin_fd is not None:
        os.set_blocking(stdin_fd, False)
        if pending:
            selector.register(stdin_fd, selectors.EVENT_WRITE, "stdin")
        else:
            os.close(stdin_fd)
            stdin_open = False
    open_streams = 2
    waiting_status = status_fd is not None
    timed_out = False
    try:
        while open_streams or waiting_status:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in selector.select(timeout=min(remaining, 1.0)):
                name = key.data
                if name == "stdin":
                    try:
                        pending = pending[os.write(stdin_fd, pending[:65536]):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        pending = memoryview(b"")
                    if not pending:
                        selector.unregister(stdin_fd)
                        os.close(stdin_fd)
                        stdin_open = False
                    continue
                if name == "status":
                    if on_status(key.fd):
                        selector.unregister(key.fd)
                        waiting_status = False
                    continue
                data = os.read(key.fd, 65536)
                if not data:
                    selector.unregister(key.fd)
                    open_streams -= 1
                    continue
                room = cap - sizes[name]
                if room > 0:
                    chunks[name].append(data[:room])
                if len(data) > room:
                    truncated[name] = True
                sizes[name] += min(len(data), max(room, 0))
    finally:
        selector.close()
        if stdin_open:
            os.close(stdin_fd)
    return _Pumped({name: b"".join(parts) for name, parts in chunks.items()}, truncated, timed_out)


def _reap(pid: int, timeout: float | None) -> int | None:
    """Wait for ``pid`` up to ``timeout`` seconds (forever when None); its exit code once reaped, else None.

    A pidfd wakes the wait the moment the process exits; without one, poll."""
    if timeout is None:
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    if pidfd is not None:
        try:
            if not select.select([pidfd], [], [], timeout)[0]:
                return None
        finally:
            os.close(pidfd)
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.002)


def _kill_group(pid: int):
    """Kill the process group ``pid`` leads: a command with all it started, or bwrap (whose
    --die-with-parent then takes the sandbox's pid 1 and with it every process)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _arrange_fds(fds: Mapping[int, int]):
    """Place the inherited descriptors on their numbers (runs in the forked child)."""

    def arrange():
        # lift every source above the target range first so no dup2 clobbers a source
        lifted = {target: fcntl.fcntl(source, fcntl.F_DUPFD, 64) for target, source in fds.items()}
        for target, temporary in lifted.items():
            os.dup2(temporary, target, inheritable=True)
            os.close(temporary)

    return arrange


def _start(command, child: Mapping[int, int], uid: int, gid: int) -> int:
    """Start bwrap in a new session with ``child`` (target fd -> our fd) as its descriptors; its pid.

    posix_spawn costs a third of forking this (large) Python process with a
    preexec hook; a root caller drops to ``uid`` through setpriv. Without
    setpriv, Popen does the same work more slowly.
    """
    setpriv = shutil.which("setpriv") if os.geteuid() == 0 else None
    if os.geteuid() == 0 and setpriv is None:
        extra = {target: fd for target, fd in child.items() if target > 2}
        proc = subprocess.Popen(command, stdin=child[0], stdout=child[1], stderr=child[2],
                                env={"PATH": "/usr/bin:/bin"}, start_new_session=True, pass_fds=tuple(extra),
                                preexec_fn=_arrange_fds(extra), **_drop_privileges(uid, gid))
        proc.returncode = 0  # reaped by its pid, not through this object
        return proc.pid
    if setpriv:
        command = [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *command]
    return _spawn(command, child, {"PATH": "/usr/bin:/bin"})


def _spawn(command, child: Mapping[int, int], env: Mapping[str, str]) -> int:
    """posix_spawn ``command`` in a new session with ``child`` (target fd -> our fd) as its descriptors."""
    # every source is first lifted to a close-on-exec copy above the targets, so no dup2 clobbers one
    sources = {}
    try:
        for target, fd in child.items():
            sources[target] = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 64)
        actions = [(os.POSIX_SPAWN_DUP2, source, target) for target, source in sources.items()]
        # and nothing else this process holds reaches the child (Popen's close_fds)
        actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inheritable_fds() if fd not in child]
        # Python ignores SIGPIPE and SIGXFSZ; the shell under test must see them
        # at their defaults, as Popen(restore_signals=True) would leave them
        return os.posix_spawn(command[0], command, dict(env), file_actions=actions, setsid=True,
                              setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    finally:
        for fd in sources.values():
            os.close(fd)


def _receive_fds(sock, size: int, most: int) -> tuple[bytes, list[int]]:
    """Up to ``size`` bytes and ``most`` descriptors from ``sock``, the descriptors close-on-exec
    from the moment they arrive: one received inheritable could reach a sandbox another thread
    starts between _spawn's listing of this process's descriptors and its spawn. (Python
    3.11's socket.recv_fds drops the flags it is given, MSG_CMSG_CLOEXEC among them.)"""
    fds = array.array("i")
    head, ancillary, _, _ = sock.recvmsg(size, socket.CMSG_LEN(most * fds.itemsize), socket.MSG_CMSG_CLOEXEC)
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
    return head, list(fds)


def _inheritable_fds() -> list[int]:
    found = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd > 2 and os.get_inheritable(fd):
                found.append(fd)
        except OSError:
            pass  # the descriptor listdir itself used
    return found


def _drop_privileges(uid: int, gid: int) -> dict:
    if os.geteuid() != 0:
        return {}
    return {"user": uid, "group": gid, "extra_groups": []}


_chdir_env: bool | None = None


def _unsandboxed_launcher(limits: Limits, directory: str, env: Mapping[str, str]) -> list[str] | None:
    """``env -i -C DIR K=V... prlimit LIMITS``, or None when this system's env or prlimit cannot."""
    global _chdir_env
    env_binary, prlimit = shutil.which("env"), shutil.which("prlimit")
    if not env_binary or not prlimit or any("=" in k for k in env):
        return None
    if _chdir_env is None:
        probe = subprocess.run([env_binary, "-i", "-C", "/", prlimit, "--cpu=1:1", "--", "true"],
                               capture_output=True, stdin=subprocess.DEVNULL)
        _chdir_env = probe.returncode == 0
    if not _chdir_env:
        return None
    return [env_binary, "-i", "-C", directory, *(f"{k}={v}" for k, v in env.items()), prlimit,
            f"--cpu={limits.cpu_s}:{limits.cpu_s}", f"--as={limits.memory_bytes}:{limits.memory_bytes}",
            f"--fsize={limits.file_size_bytes}:{limits.file_size_bytes}",
            f"--nofile={limits.open_files}:{limits.open_files}"]


def _spawn_piped(command, with_stdin: bool, env: Mapping[str, str]) -> tuple[int, int | None, int, int]:
    """posix_spawn ``command`` in a new session with pipes on 0-2: its pid, stdin's write end, stdout, stderr."""
    ours = []
    try:
        stdin_r, stdin_w = os.pipe() if with_stdin else (os.open(os.devnull, os.O_RDONLY), None)
        ours += [stdin_r, stdin_w]
        stdout_r, stdout_w = os.pipe()
        ours += [stdout_r, stdout_w]
        stderr_r, stderr_w = os.pipe()
        ours += [stderr_r, stderr_w]
        pid = _spawn(command, {0: stdin_r, 1: stdout_w, 2: stderr_w}, env)
    except BaseException:
        for fd in ours:
            if fd is not None:
                os.close(fd)
        raise
    for fd in (stdin_r, stdout_w, stderr_w):
        os.close(fd)
    return pid, stdin_w, stdout_r, stderr_r


def _run_unsandboxed(argv, *, workdir, env, stdin, limits: Limits, files, executable=(),
                     workspace=None) -> Completed:
    """The same contract with no isolation: rlimits and the timeout only (for --unsafe-no-sandbox)."""
    import resource

    created = []
    for path, data in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
        if path in executable:
            os.chmod(path, 0o755)
        created.append(path)

    def limit():
        for kind, value in ((resource.RLIMIT_CPU, limits.cpu_s), (resource.RLIMIT_AS, limits.memory_bytes),
                            (resource.RLIMIT_FSIZE, limits.file_size_bytes),
                            (resource.RLIMIT_NOFILE, limits.open_files)):
            resource.setrlimit(kind, (value, value))

    started = time.monotonic()
    if workspace is not None:
        workspace.populate(workdir)
    launcher = _unsandboxed_launcher(limits, workdir or "/", env)
    try:
        if launcher:
            # the same cheap start as the sandbox's: env sets the directory and
            # the exact environment, prlimit the limits
            pid, stdin_w, out, err = _spawn_piped([*launcher, "--", *argv], stdin is not None, {})
        else:
            proc = subprocess.Popen(list(argv), cwd=workdir or "/", env=dict(env),
                                    stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                    preexec_fn=limit)
            proc.returncode = 0  # reaped by its pid, not through this object
            pid, out, err = proc.pid, os.dup(proc.stdout.fileno()), os.dup(proc.stderr.fileno())
            stdin_w = os.dup(proc.stdin.fileno()) if proc.stdin is not None else None
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
    except OSError as exc:
        return Completed(exit_code=127, stdout=b"", stderr=f"qbcore: {exc}\n".encode(), timed_out=False,
                         duration_s=time.monotonic() - started, stdout_truncated=False, stderr_truncated=False)
    deadline = started + limits.wall_s
    try:
        pumped = _pump(out, err, stdin_w, stdin, limits.output_bytes, deadline)
    finally:
        os.close(out)
        os.close(err)
    code = None if pumped.timed_out else _reap(pid, max(0.0, deadline - time.monotonic()) + 2.0)
    # the command is done (or out of time); leftovers in its session go with it, as in the sandbox
    _kill_group(pid)
    if code is None:
        _reap(pid, None)
    timed_out = code is None
    for path in created:
        try:
            os.unlink(path)
        except OSError:
            pass
    exit_code = None if timed_out else (128 - code if code < 0 else code)
    inspected = workspace.inspect(workdir) if workspace is not None and not timed_out else None
    return Completed(exit_code=exit_code, stdout=pumped.output["stdout"], stderr=pumped.output["stderr"],
                     timed_out=timed_out, duration_s=time.monotonic() - started,
                     stdout_truncated=pumped.truncated["stdout"], stderr_truncated=pumped.truncated["stderr"],
                     state_lost=timed_out and workspace is not None, inspected=inspected)
