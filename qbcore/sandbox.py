"""Run one untrusted command under bubblewrap so that nothing it does reaches the host.

Every attempt gets a fresh sandbox: read-only root, a size-capped tmpfs as the
task directory (the only place it can write), a private /tmp, a loopback-only
network namespace, its own pid namespace, rlimits, a wall-clock timeout and
capped output. The host fills the task directory and reads its final state
through the sandbox's own root (/proc/PID/root) while its pid 1 holds it
open and every other process is gone: the sandbox never holds a writable host
path, and a reply that fills its disk fills a tmpfs of bounded size.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import secrets
import selectors
import shutil
import signal
import select
import subprocess
import time
from dataclasses import dataclass, field
from typing import Mapping, Protocol, Sequence

from . import dirtree

__all__ = ["SandboxUnavailable", "Limits", "Completed", "Workspace", "available", "unavailable_reason", "run"]

# The unprivileged identity a root caller drops to: the kernel ignores
# RLIMIT_NPROC for host root even inside a user namespace, so the process
# limit only holds when the sandbox runs under another uid.
NOBODY = 65534

# The launcher's private folder in the sandbox's /tmp: the host creates the
# output fifos there and removes them once the launcher has opened them.
_CONTROL = "/tmp/.qbcore-sandbox"

# pid 1 of the sandbox: a POSIX sh script (dash starts in half the time of
# bash) that takes the rlimits itself, so the command inherits them. It
# talks to the host over two pipes: it reports on fd 3 (R: set up; B: the output fifos are open; S: the command's exit
# status, signed with the attempt's secret; D: every other process is gone;
# E: a failure) and waits on fd 4 for the host's word (go + secret: the task
# directory is ready; end: the output has reached its end; end of file:
# finish). The command writes to fifos whose read ends only the host holds, so
# the host sees end of file exactly when no process holds the output any more
# (a harness that reads the output to its end waits for the same). As pid 1
# it cannot be killed from inside, reaps orphans while it waits, and its exit
# ends every process left in the sandbox.
_LAUNCHER = r"""
exec 5>&-
work=$1 control=$2 limits=$3
shift 3
printf 'R\n' >&3
read -r word nonce <&4 && [ "$word" = go ] || exit 0
cd "$work" || { printf 'E cannot enter the task directory\n' >&3; exit 0; }
eval "$limits" 2>/dev/null || { printf 'E cannot apply the resource limits\n' >&3; exit 0; }
exec 6>"$control/out" 7>"$control/err" 8<&0
printf 'B\n' >&3
env -i "$@" <&8 >&6 2>&7 3>&- 4>&- 6>&- 7>&- 8<&- &
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
    """Resource limits for one attempt (all enforced inside the sandbox but wall_s and output_bytes)."""

    cpu_s: int = 10
    memory_bytes: int = 1 << 30
    file_size_bytes: int = 64 << 20
    open_files: int = 256
    processes: int = 256
    wall_s: float = 15.0
    output_bytes: int = 1 << 20
    workdir_bytes: int = 128 << 20
    tmp_bytes: int = 64 << 20

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
    # True when the sandbox could not return the task directory (the launcher
    # was killed by the timeout, or the directory outgrew its cap)
    state_lost: bool = False
    notes: tuple[str, ...] = field(default=())
    # what the caller's Workspace.inspect returned (None without one, or when the state was lost)
    inspected: object = field(default=None, repr=False)


_availability: tuple[bool, str] | None = None


def _bwrap() -> str | None:
    return shutil.which("bwrap")


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
        return False, f"bubblewrap ran but a trivial command failed: {done.stderr.decode(errors='replace').strip()}"
    return True, ""


def _encode(text: str | bytes) -> bytes:
    if isinstance(text, bytes):
        return text
    return os.fsencode(text)


def _memfd(data: bytes) -> int:
    fd = os.memfd_create("qbcore-program", os.MFD_CLOEXEC)
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


_hidden: dict[tuple, list[str]] = {}


def _private_places() -> list[str]:
    """Host folders that hold people's own files: hidden behind empty tmpfs mounts in the sandbox."""
    key = (os.getuid(), os.environ.get("HOME"))
    if key not in _hidden:
        _hidden[key] = _find_private_places()
    return _hidden[key]


def _find_private_places() -> list[str]:
    import pwd

    places = ["/root", "/home", "/run/user", "/var/mail", "/var/spool/mail"]
    try:
        places.append(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:
        pass
    if os.environ.get("HOME"):
        places.append(os.environ["HOME"])
    kept = []
    for place in places:
        real = os.path.realpath(place)
        if (os.path.isdir(real) and real != "/" and not (real + "/").startswith("/tmp/")
                and not any((real + "/").startswith(k + "/") for k in kept)):
            kept.append(real)
    return kept


def _bind_pairs(ro_binds) -> list[tuple[str, str]]:
    pairs = []
    for bind in ro_binds:
        src, dest = (bind, bind) if isinstance(bind, (str, os.PathLike)) else bind
        pairs.append((os.fspath(src), os.fspath(dest)))
    return pairs


class Workspace(Protocol):
    """What goes into the task directory and what is read from it, for a caller that need not copy.

    ``populate`` fills the fresh, empty task directory before the command
    starts; ``inspect`` reads the final one once every process of the
    attempt is gone, and its result becomes ``Completed.inspected``. Both get
    a path that is only valid during the call.
    """

    def populate(self, path: str) -> None: ...

    def inspect(self, path: str) -> object: ...


class _HostDirectory:
    """The default workspace: a host directory's content goes in, the final state comes back into it."""

    def __init__(self, workdir: str | None):
        self.workdir = workdir
        self.notes: list[str] = []

    def populate(self, path: str):
        if self.workdir is not None:
            dirtree.write(self._content, path)

    def read_content(self):
        # read as the caller: the sandbox user need not be able to read the host's files
        self._content = dirtree.read(self.workdir) if self.workdir is not None else []

    def inspect(self, path: str):
        if self.workdir is not None:
            final = dirtree.read(path)
            dirtree.clear(self.workdir)
            dirtree.write(final, self.workdir, self.notes)


def run(argv: Sequence[str], *, workdir: str | None, env: Mapping[str, str], stdin: bytes | None = None,
        limits: Limits = Limits(), ro_binds=(), files: Mapping[str, bytes] = {},
        programs: Mapping[str, bytes] = {}, workspace: Workspace | None = None,
        unsafe_no_sandbox: bool = False) -> Completed:
    """Run ``argv`` in ``workdir`` with exactly ``env``.

    Without ``workspace``, ``workdir``'s content goes in and the final state
    comes back into it. With one, ``workdir`` only names the task directory
    (the same path inside the sandbox) and the workspace fills and reads it.
    ``ro_binds``: host paths (or ``(host, inside)`` pairs) made visible read-only.
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
    if host_directory is not None:
        host_directory.read_content()
    inner_work = os.path.abspath(workdir) if workdir is not None else "/tmp/qbcore-work"
    shell = _launcher_shell()
    uid, gid = _identity()
    hidden = _private_places()
    command = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
               "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
               "--size", str(1 << 20), "--tmpfs", "/dev/shm"]
    for place in hidden:
        command += ["--size", "65536", "--tmpfs", place]
    command += ["--size", str(limits.workdir_bytes), "--tmpfs", inner_work]
    for src, dest in _bind_pairs(ro_binds):
        command += ["--ro-bind", src, dest]
    # each program comes in on its own descriptor (bwrap reads and closes it)
    # into a small tmpfs that turns read-only once they are all in place
    program_fds = {6 + index: _memfd(data) for index, data in enumerate(programs.values())}
    folders = sorted({os.path.dirname(path) for path in programs})
    for folder in folders:
        command += ["--size", "1048576", "--tmpfs", folder]
    for fd, path in zip(program_fds, programs):
        command += ["--perms", "0755", "--ro-bind-data", str(fd), path]
    for place in [*hidden, *folders]:
        # read-only once the mount points inside them exist
        command += ["--remount-ro", place]
    # env -i K=V... ARGV: the first word without "=" is the program (_check_inputs makes sure it is argv[0])
    env_words = [_encode(f"{k}={v}") for k, v in env.items()]
    command += ["--unshare-all", "--unshare-user", "--uid", str(uid), "--gid", str(gid),
                "--hostname", "sandbox", "--die-with-parent", "--new-session", "--as-pid-1",
                "--info-fd", "5", "--chdir", "/", "--", shell, "-c", _LAUNCHER, "qbcore-sandbox",
                inner_work, _CONTROL, limits.ulimit_commands(os.path.basename(shell)), *env_words, *argv]
    session = _Session(limits, stdin)
    try:
        session.start(command, uid, gid, program_fds)
        session.prepare(lambda root: _populate(root, inner_work, workspace, files), uid, gid)
        inspected = session.finish(lambda root: workspace.inspect(root + inner_work))
    finally:
        session.close()
    notes = list(session.notes) + (host_directory.notes if host_directory else [])
    return Completed(exit_code=session.status, stdout=session.output["stdout"], stderr=session.output["stderr"],
                     timed_out=session.timed_out, duration_s=time.monotonic() - session.started,
                     stdout_truncated=session.truncated["stdout"], stderr_truncated=session.truncated["stderr"],
                     state_lost=session.state_lost, notes=tuple(notes), inspected=inspected)


def _populate(root: str, inner_work: str, workspace: Workspace, files: Mapping[str, bytes]):
    """Fill the sandbox's task directory and /tmp (``root`` is the sandbox's / seen from the host)."""
    workspace.populate(root + inner_work)
    for path, data in files.items():
        os.makedirs(os.path.dirname(root + path), exist_ok=True)
        fd = os.open(root + path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    os.makedirs(root + _CONTROL, exist_ok=True)
    os.mkfifo(root + _CONTROL + "/out", 0o600)
    os.mkfifo(root + _CONTROL + "/err", 0o600)


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
        self.notes: list[str] = []
        self.output = {"stdout": b"", "stderr": b""}
        self.truncated = {"stdout": False, "stderr": False}
        self.status: int | None = None
        self.timed_out = False
        self.state_lost = True
        self.pid = None
        self.pidfd = None
        self.root = None
        self._fds: list[int] = []
        self._report = b""

    def _keep(self, fd: int) -> int:
        self._fds.append(fd)
        return fd

    def start(self, command, uid: int, gid: int, extra: Mapping[int, int]):
        report_r, report_w = os.pipe()
        control_r, control_w = os.pipe()
        info_r, info_w = os.pipe()
        self.report, self.control, self.info = self._keep(report_r), self._keep(control_w), self._keep(info_r)
        stdin_r = os.open(os.devnull, os.O_RDONLY)
        self.stdin_w = None
        if self.stdin is not None:
            os.close(stdin_r)
            stdin_r, stdin_w = os.pipe()
            self.stdin_w = self._keep(stdin_w)
            os.set_blocking(stdin_w, False)
        # bubblewrap's own complaints (and nothing else) land here
        self.errors = self._keep(os.memfd_create("qbcore-bwrap-errors", os.MFD_CLOEXEC))
        devnull = os.open(os.devnull, os.O_WRONLY)
        child = {0: stdin_r, 1: devnull, 2: self.errors, 3: report_w, 4: control_r, 5: info_w, **extra}
        try:
            self.pid = _start(command, child, uid, gid)
        except OSError as exc:
            raise SandboxUnavailable(f"cannot start bubblewrap: {exc}") from exc
        finally:
            for fd in (stdin_r, devnull, report_w, control_r, info_w, *extra.values()):
                os.close(fd)
        try:
            self.pidfd = self._keep(os.pidfd_open(self.pid))
        except (AttributeError, OSError):
            self.pidfd = None

    def prepare(self, populate, uid: int, gid: int):
        """Wait until pid 1 is up, fill its directories, open the output fifos, and let it start."""
        try:
            if self._line() != "R":
                self._setup_failed()
            child = self._child_pid()
            self.root = f"/proc/{child}/root"
            with _as_sandbox_user(uid, gid):
                populate(self.root)
                self.out = self._keep(os.open(self.root + _CONTROL + "/out", os.O_RDONLY | os.O_NONBLOCK))
                self.err = self._keep(os.open(self.root + _CONTROL + "/err", os.O_RDONLY | os.O_NONBLOCK))
            os.write(self.control, f"go {self.nonce}\n".encode())
            word = self._line()
            if word.startswith("E "):
                raise SandboxUnavailable("sandbox launcher: " + word[2:])
            if word != "B":
                self._setup_failed()
            with _as_sandbox_user(uid, gid):
                # no path to the output is left for the command to find
                for name in ("out", "err"):
                    os.unlink(self.root + _CONTROL + "/" + name)
                os.rmdir(self.root + _CONTROL)
        except _Deadline:
            self._time_out()

    def finish(self, inspect):
        """Collect the output until the command has exited and no process holds it; then read the state."""
        if self.timed_out:
            return None
        try:
            signed = self._collect() and self._end_processes()
        except _Deadline:
            self._time_out()
            return None
        if not signed:
            self.status = None
            self.notes.append("no signed report from the sandbox's pid 1: it ended early, or another process "
                              "wrote to its result channel")
            return None
        try:
            inspected = inspect(self.root)
        except OSError as exc:
            self.notes.append(f"the task directory could not be read back ({exc})")
            return None
        self.state_lost = False
        return inspected

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

    def _child_pid(self) -> int:
        data = b""
        while True:
            try:
                return int(json.loads(data)["child-pid"])
            except (ValueError, KeyError):
                pass
            self._wait_readable(self.info)
            chunk = os.read(self.info, 4096)
            if not chunk:
                self._setup_failed()
            data += chunk

    def _setup_failed(self):
        self._end()  # bubblewrap has said all it will say once it is reaped
        os.lseek(self.errors, 0, os.SEEK_SET)
        message = os.read(self.errors, 65536).decode(errors="replace").strip()
        raise SandboxUnavailable(f"bubblewrap could not set up the sandbox: {message or 'no reason given'}")

    def _collect(self) -> bool:
        """Read both fifos to their end (past the cap: read and discard), feed stdin, take the status;
        False when pid 1 gave no signed status."""
        caps = self.limits.output_bytes
        chunks = {"stdout": [], "stderr": []}
        sizes = {"stdout": 0, "stderr": 0}
        selector = selectors.DefaultSelector()
        selector.register(self.out, selectors.EVENT_READ, "stdout")
        selector.register(self.err, selectors.EVENT_READ, "stderr")
        status_line = self._line() if b"\n" in self._report else None
        if status_line is None:
            selector.register(self.report, selectors.EVENT_READ, "report")
        pending = memoryview(self.stdin or b"")
        if self.stdin_w is not None:
            if pending:
                selector.register(self.stdin_w, selectors.EVENT_WRITE, "stdin")
            else:
                self._close(self.stdin_w)
        open_streams = 2
        try:
            while open_streams or status_line is None:
                remaining = self.deadline - time.monotonic()
                if remaining <= 0:
                    raise _Deadline
                for key, _ in selector.select(timeout=min(remaining, 1.0)):
                    name = key.data
                    if name == "stdin":
                        try:
                            pending = pending[os.write(self.stdin_w, pending[:65536]):]
                        except BlockingIOError:
                            continue
                        except BrokenPipeError:
                            pending = memoryview(b"")
                        if not pending:
                            selector.unregister(self.stdin_w)
                            self._close(self.stdin_w)
                        continue
                    if name == "report":
                        data = os.read(self.report, 4096)
                        self._report += data
                        if not data or b"\n" in self._report:
                            status_line = self._line()
                            selector.unregister(self.report)
                        continue
                    data = os.read(key.fd, 65536)
                    if not data:
                        selector.unregister(key.fd)
                        open_streams -= 1
                        continue
                    room = caps - sizes[name]
                    if room > 0:
                        chunks[name].append(data[:room])
                    if len(data) > room:
                        self.truncated[name] = True
                    sizes[name] += min(len(data), max(room, 0))
        finally:
            selector.close()
            for name in chunks:
                self.output[name] = b"".join(chunks[name])
        head = f"S {self.nonce} "
        if status_line.startswith(head) and status_line[len(head):].isdigit():
            self.status = int(status_line[len(head):])
            return True
        return False

    def _time_out(self):
        self.timed_out, self.status, self.state_lost = True, None, True
        self._kill()

    def _kill(self):
        # bwrap leads its own session; killing the group takes the monitor, and
        # --die-with-parent then takes pid 1 of the sandbox and with it every process
        if self.pid is not None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _close(self, fd: int):
        if fd in self._fds:
            self._fds.remove(fd)
            os.close(fd)

    def _end(self):
        """End pid 1 (closing its control pipe lets it exit) and reap bwrap."""
        if self.control in self._fds:
            self._close(self.control)
        if self.pid is not None:
            if not _reap(self.pid, self.pidfd, max(0.0, self.deadline - time.monotonic()) + 2.0):
                self._kill()
                _reap(self.pid, None, None)
            self.pid = None

    def close(self):
        """End the sandbox and release every descriptor."""
        self._end()
        for fd in list(self._fds):
            self._close(fd)


def _reap(pid: int, pidfd: int | None, timeout: float | None) -> bool:
    """Wait for ``pid`` up to ``timeout`` seconds (forever when None); True once it is reaped."""
    if timeout is None:
        os.waitpid(pid, 0)
        return True
    if pidfd is not None:
        if select.select([pidfd], [], [], timeout)[0]:
            os.waitpid(pid, 0)
            return True
        return False
    deadline = time.monotonic() + timeout
    while not os.waitpid(pid, os.WNOHANG)[0]:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.002)
    return True


def _arrange_fds(fds: Mapping[int, int]):
    """Place the inherited descriptors on their numbers (runs in the forked child)."""

    def arrange():
        # lift every source above the target range first so no dup2 clobbers a source
        lifted = {target: fcntl.fcntl(source, fcntl.F_DUPFD, 64) for target, source in fds.items()}
        for target, temporary in lifted.items():
            os.dup2(temporary, target, inheritable=True)
            os.close(temporary)

    return arrange


class _Spawned:
    """The little of Popen's interface that _collect needs, for a process started with posix_spawn."""

    def __init__(self, pid: int, stdin, stdout, stderr):
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self.returncode = None
        try:
            self._pidfd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self._pidfd = None

    def wait(self, timeout: float | None = None):
        if self.returncode is None:
            if not _reap_status(self, timeout):
                raise subprocess.TimeoutExpired("bash", timeout)
            if self._pidfd is not None:
                os.close(self._pidfd)
                self._pidfd = None
        return self.returncode


def _reap_status(proc: _Spawned, timeout: float | None) -> bool:
    if timeout is not None and proc._pidfd is not None and not select.select([proc._pidfd], [], [], timeout)[0]:
        return False
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        pid, status = os.waitpid(proc.pid, 0 if deadline is None or proc._pidfd is not None else os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.002)


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
            sources[target] = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 16)
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


def _collect(proc, stdin: bytes | None, limits: Limits, started: float):
    """Read stdout and stderr together until both end; past a cap keep reading and discarding."""
    caps = {"stdout": limits.output_bytes, "stderr": limits.output_bytes}
    chunks = {name: [] for name in caps}
    sizes = dict.fromkeys(caps, 0)
    truncated = dict.fromkeys(caps, False)
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ, "stdout")
    selector.register(proc.stderr, selectors.EVENT_READ, "stderr")
    pending = memoryview(stdin or b"")
    if stdin is not None:
        os.set_blocking(proc.stdin.fileno(), False)
        if pending:
            selector.register(proc.stdin, selectors.EVENT_WRITE, "stdin")
        else:
            proc.stdin.close()
    deadline = started + limits.wall_s
    timed_out = False
    open_streams = 2
    while open_streams:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            _kill(proc)
            break
        for key, _ in selector.select(timeout=min(remaining, 1.0)):
            name = key.data
            if name == "stdin":
                try:
                    pending = pending[os.write(proc.stdin.fileno(), pending[:65536]):]
                except (BrokenPipeError, BlockingIOError) as exc:
                    if isinstance(exc, BrokenPipeError):
                        pending = memoryview(b"")
                if not pending:
                    selector.unregister(proc.stdin)
                    proc.stdin.close()
                continue
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                selector.unregister(key.fileobj)
                open_streams -= 1
                continue
            room = caps[name] - sizes[name]
            if room > 0:
                chunks[name].append(data[:room])
            if len(data) > room:
                truncated[name] = True
            sizes[name] += min(len(data), max(room, 0))
    selector.close()
    try:
        proc.wait(timeout=max(0.0, deadline - time.monotonic()) + 2.0)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill(proc)
        proc.wait()
    for stream in (proc.stdout, proc.stderr, proc.stdin):
        if stream is not None and not stream.closed:
            stream.close()
    return {"stdout": b"".join(chunks["stdout"]), "stderr": b"".join(chunks["stderr"]), "timed_out": timed_out,
            "stdout_truncated": truncated["stdout"], "stderr_truncated": truncated["stderr"]}


def _kill(proc: subprocess.Popen):
    # bwrap leads its own session; killing the group takes the monitor, and
    # --die-with-parent then takes pid 1 of the sandbox and with it every process
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


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


def _spawn_piped(command, with_stdin: bool, env: Mapping[str, str]) -> _Spawned:
    """posix_spawn ``command`` in a new session with pipes on 0-2."""
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
    return _Spawned(pid, os.fdopen(stdin_w, "wb", buffering=0) if stdin_w is not None else None,
                    os.fdopen(stdout_r, "rb", buffering=0), os.fdopen(stderr_r, "rb", buffering=0))


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
            proc = _spawn_piped([*launcher, "--", *argv], stdin is not None, {})
        else:
            proc = subprocess.Popen(list(argv), cwd=workdir or "/", env=dict(env),
                                    stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                    preexec_fn=limit)
    except OSError as exc:
        return Completed(exit_code=127, stdout=b"", stderr=f"qbcore: {exc}\n".encode(), timed_out=False,
                         duration_s=time.monotonic() - started, stdout_truncated=False, stderr_truncated=False)
    outcome = _collect(proc, stdin, limits, started)
    if not outcome["timed_out"]:
        # the command is done; leftovers in its session go with it, as in the sandbox
        _kill(proc)
    for path in created:
        try:
            os.unlink(path)
        except OSError:
            pass
    code = proc.returncode
    exit_code = None if outcome["timed_out"] else (128 - code if code < 0 else code)
    inspected = workspace.inspect(workdir) if workspace is not None and not outcome["timed_out"] else None
    return Completed(exit_code=exit_code, stdout=outcome["stdout"], stderr=outcome["stderr"],
                     timed_out=outcome["timed_out"], duration_s=time.monotonic() - started,
                     stdout_truncated=outcome["stdout_truncated"], stderr_truncated=outcome["stderr_truncated"],
                     state_lost=outcome["timed_out"] and workspace is not None, inspected=inspected)
