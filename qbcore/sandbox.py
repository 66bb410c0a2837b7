"""Run one untrusted command under bubblewrap so that nothing it does reaches the host.

Every attempt gets a fresh sandbox: read-only root, a size-capped tmpfs as the
task directory (the only place it can write), a private /tmp, a loopback-only
network namespace, its own pid namespace, rlimits, a wall-clock timeout and
capped output. The task directory travels in and out as tar streams, so the
sandbox never holds a writable host path: a reply that fills its disk fills a
tmpfs of bounded size, and the host only gets back what the validator reads.
"""

from __future__ import annotations

import fcntl
import io
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import tarfile
import time
from dataclasses import dataclass, field
from typing import Mapping, Sequence

__all__ = ["SandboxUnavailable", "Limits", "Completed", "available", "unavailable_reason", "run"]

# The unprivileged identity a root caller drops to: the kernel ignores
# RLIMIT_NPROC for host root even inside a user namespace, so the process
# limit only holds when the sandbox runs under another uid.
NOBODY = 65534

# Where the launcher (pid 1 inside the sandbox) finds its instructions; it
# deletes the folder before the command starts.
_CONTROL = "/tmp/.qbcore-sandbox"

# pid 1 of the sandbox: unpack the task directory and the /tmp files, run the
# command under rlimits with exactly the caller's environment, wait for it
# and then for every process still holding its stdout or stderr (a harness
# that reads the output to its end waits for them too), report the exit
# status, kill whatever is left, and stream the task directory out on fd 3.
# As pid 1 it cannot be killed from inside, and it reaps orphans while it
# waits, so leftover zombies never count against the process limit.
_LAUNCHER = r"""
for fd in /proc/$$/fd/*; do
  fd=${fd##*/}
  ((fd > 4)) && eval "exec $fd>&-"
done
work=$1 control=$2
tar -xpf - -C / <&4 2>/dev/null || { echo 'E cannot unpack the task directory and files' >&3; exit 0; }
exec 4<&-
mapfile -d '' -t qb_argv < "$control/argv"
mapfile -d '' -t qb_env < "$control/env"
read -r qb_limits < "$control/limits"
read -r nonce < "$control/nonce"
: > "$control/nonce"
echo R >&3
exec 8>&2 2>/dev/null
(
  exec 3>&- 2>&8 8>&-
  ulimit $qb_limits 2>/dev/null || { echo 'qbcore-sandbox: cannot apply limits' >&2; exit 125; }
  cd "$work" || exit 125
  exec env -i "${qb_env[@]}" "${qb_argv[@]}"
)
status=$?
exec 0</dev/null
holds_output() {
  local fd
  for fd in /proc/[0-9]*/fd/*; do
    [[ $fd == /proc/1/* ]] && continue
    [[ $fd -ef /proc/1/fd/1 || $fd -ef /proc/1/fd/8 ]] && return 0
  done
  return 1
}
while holds_output; do sleep 0.01; done
kill -KILL -1
for _ in {1..200}; do
  alive=0
  for stat in /proc/[0-9]*/stat; do
    read -r pid _ st _ < "$stat" || continue
    [[ $pid == 1 || $st == Z ]] || { alive=1; break; }
  done
  ((alive)) || break
  kill -KILL -1
  sleep 0.005
done
{ echo "S $nonce $status"; tar -cf - -C "$work" .; } >&3
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

    def ulimit_flags(self) -> str:
        # bash's ulimit counts -v and -f in KiB; -u is per uid inside the
        # sandbox's own user namespace, so it counts only this attempt
        return (f"-t {int(self.cpu_s)} -v {self.memory_bytes // 1024} -f {self.file_size_bytes // 1024} "
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


_availability: tuple[bool, str] | None = None


def _bwrap() -> str | None:
    return shutil.which("bwrap")


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


def _anonymous(member: tarfile.TarInfo) -> tarfile.TarInfo:
    member.uid = member.gid = 0
    member.uname = member.gname = ""
    return member


def _pack_inputs(workdir: str | None, inner_work: str, argv: Sequence[str], env: Mapping[str, str],
                 files: Mapping[str, bytes], limits: Limits, nonce: str) -> bytes:
    """One tar stream the launcher unpacks at /: the task directory (ownership dropped: the
    sandbox user owns everything), the launcher's instructions, and the /tmp files."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        if workdir is not None:
            for name in sorted(os.listdir(workdir)):
                archive.add(os.path.join(workdir, name), arcname=f"{inner_work.lstrip('/')}/{name}",
                            filter=_anonymous)

        def add(name: str, data: bytes, mode: int = 0o644):
            info = tarfile.TarInfo(name.lstrip("/"))
            info.size = len(data)
            info.mode = mode
            archive.addfile(info, io.BytesIO(data))

        add(_CONTROL + "/argv", b"".join(_encode(a) + b"\0" for a in argv))
        add(_CONTROL + "/env", b"".join(_encode(f"{k}={v}") + b"\0" for k, v in env.items()))
        add(_CONTROL + "/limits", limits.ulimit_flags().encode())
        add(_CONTROL + "/nonce", nonce.encode() + b"\n", 0o600)
        for path, data in files.items():
            add(path, data)
    return buffer.getvalue()


def _encode(text: str | bytes) -> bytes:
    if isinstance(text, bytes):
        return text
    return os.fsencode(text)


def _memfd(data: bytes, name: str) -> int:
    fd = os.memfd_create(name, 0)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _check_inputs(argv, files, workdir):
    if not argv:
        raise ValueError("argv is empty")
    for arg in argv:
        if "\0" in (arg if isinstance(arg, str) else arg.decode("latin-1")):
            raise ValueError("an argument contains a NUL byte, which no program can receive")
    for path in files:
        normal = os.path.normpath(path)
        if not normal.startswith("/tmp/") or normal != path:
            raise ValueError(f"sandbox files must be absolute paths under /tmp: {path!r}")
    if workdir is not None and not os.path.isdir(workdir):
        raise ValueError(f"workdir is not a directory: {workdir}")


def _private_places() -> list[str]:
    """Host folders that hold people's own files: hidden behind empty tmpfs mounts in the sandbox."""
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


def run(argv: Sequence[str], *, workdir: str | None, env: Mapping[str, str], stdin: bytes | None = None,
        limits: Limits = Limits(), ro_binds=(), files: Mapping[str, bytes] = {},
        unsafe_no_sandbox: bool = False) -> Completed:
    """Run ``argv`` in ``workdir`` with exactly ``env``; ``workdir`` ends up holding the final state.

    ``ro_binds``: host paths (or ``(host, inside)`` pairs) made visible read-only.
    ``files``: absolute paths under the private /tmp created before the command starts.
    Raises SandboxUnavailable when bubblewrap cannot run, unless ``unsafe_no_sandbox``.
    """
    _check_inputs(argv, files, workdir)
    if unsafe_no_sandbox:
        return _run_unsandboxed(argv, workdir=workdir, env=env, stdin=stdin, limits=limits, files=files)
    bwrap = _bwrap()
    if bwrap is None:
        raise SandboxUnavailable("bubblewrap (bwrap) is not installed, so replies cannot be run safely; "
                                 "install it, or pass --unsafe-no-sandbox to run them directly on this host")
    inner_work = os.path.abspath(workdir) if workdir is not None else "/tmp/qbcore-work"
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
    for place in hidden:
        # read-only once the mount points inside them exist
        command += ["--remount-ro", place]
    command += ["--unshare-all", "--unshare-user", "--uid", str(uid), "--gid", str(gid),
                "--hostname", "sandbox", "--die-with-parent", "--new-session", "--as-pid-1",
                "--chdir", "/", "--", "/bin/bash", "-c", _LAUNCHER, "qbcore-sandbox", inner_work, _CONTROL]

    # pid 1 signs its report with this, so a process that reached the result
    # channel (possible when the pipe's owner is the sandbox's own uid) cannot forge it
    nonce = secrets.token_hex(16)
    inputs_fd = _memfd(_pack_inputs(workdir, inner_work, argv, env, files, limits, nonce), "qbcore-inputs")
    state_read, state_write = os.pipe()
    fds = {3: state_write, 4: inputs_fd}
    started = time.monotonic()
    try:
        proc = _start(command, stdin is not None, fds, uid, gid)
    except OSError as exc:
        for fd in (inputs_fd, state_read, state_write):
            os.close(fd)
        raise SandboxUnavailable(f"cannot start bubblewrap: {exc}") from exc
    for fd in (inputs_fd, state_write):
        os.close(fd)
    outcome = _collect(proc, stdin, limits, state_read, started)
    state = outcome.pop("state")
    notes = []
    ready, status, archive = _parse_state(state, outcome["state_overflow"], nonce)
    if not ready and not outcome["timed_out"]:
        message = outcome["stderr"].decode(errors="replace").strip()
        if archive is None and status is None:
            raise SandboxUnavailable(f"bubblewrap could not set up the sandbox: {message or 'no reason given'}")
    state_lost = archive is None
    if outcome["timed_out"]:
        exit_code = None
    elif status is None:
        exit_code, state_lost = None, True
        notes.append("no signed report from the sandbox's pid 1: it ended early, or another process "
                     "wrote to its result channel")
    else:
        exit_code = status
    if outcome["state_overflow"]:
        notes.append("the task directory outgrew its cap and was not returned")
    if workdir is not None and archive is not None:
        try:
            _restore_directory(workdir, archive, notes)
        except (tarfile.TarError, EOFError) as exc:
            notes.append(f"the task directory came back unreadable ({exc})")
            state_lost = True
    return Completed(exit_code=exit_code, stdout=outcome["stdout"], stderr=outcome["stderr"],
                     timed_out=outcome["timed_out"], duration_s=time.monotonic() - started,
                     stdout_truncated=outcome["stdout_truncated"],
                     stderr_truncated=outcome["stderr_truncated"], state_lost=state_lost, notes=tuple(notes))


def _arrange_fds(fds: Mapping[int, int]):
    """Place the state pipe and the input stream on fds 3 and 4 of bwrap (runs in the child)."""

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

    def wait(self, timeout: float | None = None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            pid, status = os.waitpid(self.pid, 0 if deadline is None else os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
            elif time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired("bwrap", timeout)
            else:
                time.sleep(0.005)
        return self.returncode


def _start(command, with_stdin: bool, fds: Mapping[int, int], uid: int, gid: int):
    """Start bwrap with the pipes on 0-2 and ``fds`` on their numbers, in a new session.

    posix_spawn costs a third of forking this (large) Python process with a
    preexec hook; a root caller drops to ``uid`` through setpriv. Without
    setpriv, Popen does the same work more slowly.
    """
    setpriv = shutil.which("setpriv") if os.geteuid() == 0 else None
    if os.geteuid() == 0 and setpriv is None:
        return subprocess.Popen(
            command, stdin=subprocess.PIPE if with_stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={"PATH": "/usr/bin:/bin"},
            start_new_session=True, pass_fds=tuple(fds), preexec_fn=_arrange_fds(fds),
            **_drop_privileges(uid, gid))
    if setpriv:
        command = [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *command]
    return _spawn(command, with_stdin, fds, {"PATH": "/usr/bin:/bin"})


def _spawn(command, with_stdin: bool, fds: Mapping[int, int], env: Mapping[str, str]):
    """posix_spawn ``command`` in a new session with pipes on 0-2 and ``fds`` on their numbers."""
    ours = []  # every fd we create here is close-on-exec and numbered above the targets

    def high(fd: int) -> int:
        lifted = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 16)
        os.close(fd)
        ours.append(lifted)
        return lifted

    try:
        stdin_r, stdin_w = (high(fd) for fd in os.pipe()) if with_stdin else (high(os.open(os.devnull, os.O_RDONLY)), None)
        stdout_r, stdout_w = (high(fd) for fd in os.pipe())
        stderr_r, stderr_w = (high(fd) for fd in os.pipe())
        sources = {target: high(os.dup(fd)) for target, fd in fds.items()}
        actions = [(os.POSIX_SPAWN_DUP2, stdin_r, 0), (os.POSIX_SPAWN_DUP2, stdout_w, 1),
                   (os.POSIX_SPAWN_DUP2, stderr_w, 2)]
        actions += [(os.POSIX_SPAWN_DUP2, source, target) for target, source in sources.items()]
        # Python ignores SIGPIPE and SIGXFSZ; the shell under test must see them
        # at their defaults, as Popen(restore_signals=True) would leave them
        pid = os.posix_spawn(command[0], command, dict(env), file_actions=actions, setsid=True,
                             setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    keep = {stdin_w, stdout_r, stderr_r} - {None}
    for fd in ours:
        if fd not in keep:
            os.close(fd)
    return _Spawned(pid, os.fdopen(stdin_w, "wb", buffering=0) if stdin_w is not None else None,
                    os.fdopen(stdout_r, "rb", buffering=0), os.fdopen(stderr_r, "rb", buffering=0))


def _drop_privileges(uid: int, gid: int) -> dict:
    if os.geteuid() != 0:
        return {}
    return {"user": uid, "group": gid, "extra_groups": []}


def _parse_state(data: bytes, overflow: bool, nonce: str):
    """(launcher reached the command, exit status or None, task directory tar or None).

    Anything but pid 1's signed report right after "R" means another process
    wrote to the channel: the result is then not trusted at all.
    """
    ready = data.startswith(b"R\n")
    rest = data[2:] if ready else data
    if rest.startswith(b"E "):
        raise SandboxUnavailable("sandbox launcher: " + rest[2:].decode(errors="replace").strip())
    head = b"S " + nonce.encode() + b" "
    if not rest.startswith(head):
        return ready, None, None
    line, _, archive = rest[len(head):].partition(b"\n")
    try:
        status = int(line)
    except ValueError:
        return ready, None, None
    return ready, status, (None if overflow else archive)


def _collect(proc: subprocess.Popen, stdin: bytes | None, limits: Limits, state_fd: int, started: float):
    """Read stdout, stderr and the state pipe together; past a cap keep reading and discarding."""
    caps = {"stdout": limits.output_bytes, "stderr": limits.output_bytes, "state": limits.workdir_bytes + (8 << 20)}
    chunks = {name: [] for name in caps}
    sizes = dict.fromkeys(caps, 0)
    truncated = dict.fromkeys(caps, False)
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ, "stdout")
    selector.register(proc.stderr, selectors.EVENT_READ, "stderr")
    state_file = os.fdopen(state_fd, "rb", buffering=0)
    selector.register(state_file, selectors.EVENT_READ, "state")
    pending = memoryview(stdin or b"")
    if stdin is not None:
        os.set_blocking(proc.stdin.fileno(), False)
        if pending:
            selector.register(proc.stdin, selectors.EVENT_WRITE, "stdin")
        else:
            proc.stdin.close()
    deadline = started + limits.wall_s
    timed_out = False
    open_streams = 3
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
    state_file.close()
    return {"stdout": b"".join(chunks["stdout"]), "stderr": b"".join(chunks["stderr"]),
            "state": b"".join(chunks["state"]), "timed_out": timed_out,
            "stdout_truncated": truncated["stdout"], "stderr_truncated": truncated["stderr"],
            "state_overflow": truncated["state"]}


def _kill(proc: subprocess.Popen):
    # bwrap leads its own session; killing the group takes the monitor, and
    # --die-with-parent then takes pid 1 of the sandbox and with it every process
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _clear_directory(path: str):
    for name in os.listdir(path):
        target = os.path.join(path, name)
        if os.path.isdir(target) and not os.path.islink(target):
            shutil.rmtree(target)
        else:
            os.unlink(target)


def _restore_directory(workdir: str, archive: bytes, notes: list[str]):
    """Replace ``workdir``'s content with the sandbox's final task directory, safely.

    Nothing is ever written through a symlink or outside ``workdir``; symlinks
    and fifos come back as they are (validators must see them), set-id bits
    and device nodes never do.
    """
    _clear_directory(workdir)
    root = os.path.realpath(workdir)
    directories = []
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as stream:
        for member in stream:
            name = os.path.normpath(member.name)
            if name == ".":
                continue
            dest = os.path.join(root, name)
            parent = os.path.dirname(dest)
            if (os.path.isabs(name) or name.startswith("..") or os.path.realpath(parent) != parent
                    or not (parent + "/").startswith(root + "/")):
                notes.append(f"entry outside the task directory not returned: {member.name}")
                continue
            mode = member.mode & 0o1777
            try:
                if member.isdir():
                    os.makedirs(dest, exist_ok=True)
                    directories.append((dest, mode))
                elif member.isreg():
                    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                    with os.fdopen(fd, "wb") as handle:
                        shutil.copyfileobj(stream.extractfile(member), handle)
                        os.fchmod(handle.fileno(), mode)
                elif member.issym():
                    os.symlink(member.linkname, dest)
                elif member.islnk():
                    target = os.path.join(root, os.path.normpath(member.linkname))
                    if os.path.realpath(target) != target or not os.path.isfile(target):
                        notes.append(f"hard link not returned: {member.name}")
                        continue
                    os.link(target, dest, follow_symlinks=False)
                elif member.isfifo():
                    os.mkfifo(dest, mode)
                else:
                    notes.append(f"special file not returned: {member.name}")
            except OSError as exc:
                notes.append(f"entry not returned ({exc.strerror}): {member.name}")
    # directories last and deepest first, so a read-only one does not block its own content
    for path, mode in reversed(directories):
        os.chmod(path, mode)


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


def _run_unsandboxed(argv, *, workdir, env, stdin, limits: Limits, files) -> Completed:
    """The same contract with no isolation: rlimits and the timeout only (for --unsafe-no-sandbox)."""
    import resource

    created = []
    for path, data in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
        created.append(path)

    def limit():
        for kind, value in ((resource.RLIMIT_CPU, limits.cpu_s), (resource.RLIMIT_AS, limits.memory_bytes),
                            (resource.RLIMIT_FSIZE, limits.file_size_bytes),
                            (resource.RLIMIT_NOFILE, limits.open_files)):
            resource.setrlimit(kind, (value, value))

    state_read, state_write = os.pipe()
    os.close(state_write)
    started = time.monotonic()
    launcher = _unsandboxed_launcher(limits, workdir or "/", env)
    try:
        if launcher:
            # the same cheap start as the sandbox's: env sets the directory and
            # the exact environment, prlimit the limits
            proc = _spawn([*launcher, "--", *argv], stdin is not None, {}, {})
        else:
            proc = subprocess.Popen(list(argv), cwd=workdir or "/", env=dict(env),
                                    stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                    preexec_fn=limit)
    except OSError as exc:
        os.close(state_read)
        return Completed(exit_code=127, stdout=b"", stderr=f"qbcore: {exc}\n".encode(), timed_out=False,
                         duration_s=time.monotonic() - started, stdout_truncated=False, stderr_truncated=False)
    outcome = _collect(proc, stdin, limits, state_read, started)
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
    return Completed(exit_code=exit_code, stdout=outcome["stdout"], stderr=outcome["stderr"],
                     timed_out=outcome["timed_out"], duration_s=time.monotonic() - started,
                     stdout_truncated=outcome["stdout_truncated"], stderr_truncated=outcome["stderr_truncated"])
