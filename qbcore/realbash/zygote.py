"""The long-lived process inside a worker's sandbox that gives every attempt a fresh world.

bubblewrap starts this once per worker (``python3 -I -S``, standard library
and ``dirtree`` only, no host path of its own); the host then sends it one
request per attempt over a socket on fd 3. For each attempt the zygote itself
enters new mount, pid and IPC namespaces, mounts fresh tmpfs for /tmp,
/dev/shm, the task directory and the read-only program folders, writes the
fixture and files in, starts the attempt's pid 1 and returns to its own
namespaces. pid 1 (``attemptinit.c``, spawned without copying this process;
a fork of it where that program is missing) mounts its own /proc and starts
the command with a clean environment, no capabilities, the rlimits,
no_new_privs and the seccomp filter. The output pipes and pid 1's status pipe
go to the host (SCM_RIGHTS), which pumps them; when it says "end", the zygote
kills pid 1 (the kernel then ends every process in that namespace, and the
namespace's mounts go with it), reads the task directory from the descriptor
it opened before the command ran (``dirtree.read_at``: no path followed,
capped), sends it back and closes the last reference to that tmpfs.

Frames, both ways: ``<IQ`` (header length, payload length), a header, the
payload. The host's headers are marshal data (the zygote trusts the host, and
marshal costs no import); the zygote's are JSON, which the host, trusting
nothing from a sandbox, parses with ``json``.
"""

from __future__ import annotations

import _signal
import _socket
import ctypes
import marshal
import os
import resource
import struct
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import dirtree  # noqa: E402 - the sandbox carries this module next to this one
else:
    from . import dirtree

FRAME = struct.Struct("<IQ")
#: the host's first byte: the zygote is in its cgroup now, so whatever it forks is counted there
GO = b"G"
MAX_HEADER = 64 << 20

CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWIPC = 0x00020000, 0x20000000, 0x08000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 0x4000, 0x40000
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, PR_SET_DUMPABLE = 47, 4, 4
_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)

# kernel-wide /proc files a reply has no use for (symbols, memory, keys, timers): /dev/null is mounted on them
MASKED_PROC = ("kallsyms", "kcore", "keys", "key-users", "timer_list", "sched_debug", "sysrq-trigger",
               "latency_stats", "modules", "kpageflags", "kpagecount", "kpagecgroup")
MS_BIND = 4096
SIGKILL = _signal.SIGKILL
# Python ignores or handles these; the command (and pid 1) must start with them at their defaults
_DEFAULT_SIGNALS = (_signal.SIGPIPE, _signal.SIGXFSZ, _signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP,
                    _signal.SIGCHLD, _signal.SIGQUIT)
_SOL_SOCKET = _SCM_RIGHTS = 1


def send_frame(sock, header: bytes, payload: bytes = b"", fds=()):
    """One frame; ``header`` is already encoded (``to_json`` here, marshal on the host).

    ``sock`` is a socket (``_socket`` in the zygote: ``socket`` costs it an import of enum)."""
    data = FRAME.pack(len(header), len(payload)) + header
    if fds:
        sent = sock.sendmsg([data], [(_SOL_SOCKET, _SCM_RIGHTS, struct.pack(f"{len(fds)}i", *fds))])
        if sent < len(data):
            sock.sendall(data[sent:])
    else:
        sock.sendall(data)
    if payload:
        sock.sendall(payload)


def to_json(header: dict) -> bytes:
    """A flat dict of str, int, bool and None as JSON (the json module pulls in re, a slow import)."""
    return ("{" + ",".join(f"{_json_value(k)}:{_json_value(v)}" for k, v in header.items()) + "}").encode()


def _json_value(value) -> str:
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value)
    out = []
    for char in str(value):
        code = ord(char)
        if 0x20 <= code < 0x7F and char not in '"\\':
            out.append(char)
        elif code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return '"' + "".join(out) + '"'


def _exactly(sock, size: int, limit: int) -> bytes:
    if size > limit:
        raise ValueError(f"frame of {size} bytes is over its limit of {limit}")
    view = bytearray(size)
    got = 0
    while got < size:
        count = sock.recv_into(memoryview(view)[got:], size - got)
        if not count:
            raise EOFError("the other side closed the channel")
        got += count
    return bytes(view)


def recv_frame(sock, payload_limit: int, decode=marshal.loads) -> tuple[dict, bytes]:
    head = _exactly(sock, FRAME.size, FRAME.size)
    head_len, payload_len = FRAME.unpack(head)
    header = decode(_exactly(sock, head_len, MAX_HEADER))
    if not isinstance(header, dict):
        raise ValueError("a frame's header is not a mapping")
    return header, _exactly(sock, payload_len, payload_limit)


def _check(result: int, what: str):
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _mount(source, target, kind, flags, data=None):
    _check(_libc.mount(source and source.encode(), target.encode(), kind and kind.encode(), flags,
                       data and data.encode()), f"mount {target}")


def _tmpfs(target: str, size: int, mode: str, inodes: int | None = None):
    options = f"size={size},mode={mode}" + (f",nr_inodes={inodes}" if inodes else "")
    _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, options)


class _World:
    """The zygote's own namespaces, to come back to after making an attempt's, and what every pid 1 gets."""

    def __init__(self, seccomp_fd: int | None, init_program: str | None):
        # mounts made for an attempt never propagate back here
        _mount(None, "/", None, MS_REC | MS_PRIVATE)
        self.namespaces = [(os.open(f"/proc/self/ns/{name}", os.O_RDONLY | os.O_CLOEXEC), flag)
                           for name, flag in (("mnt", CLONE_NEWNS), ("ipc", CLONE_NEWIPC), ("pid", CLONE_NEWPID))]
        self.seccomp_fd = seccomp_fd
        self.seccomp = b""
        if seccomp_fd is not None:
            self.seccomp = os.pread(seccomp_fd, 1 << 16, 0)
        self.init_program = init_program

    def renew_pid(self):
        """A new pid namespace for the next child, in place of one whose pid 1 has ended."""
        fd, flag = self.namespaces[-1]
        _check(_libc.setns(fd, flag), "setns")
        _check(_libc.unshare(CLONE_NEWPID), "unshare")

    def restore(self):
        """Back to the zygote's own mount, IPC and pid namespaces (pid: for the next pid 1)."""
        for fd, flag in self.namespaces:
            _check(_libc.setns(fd, flag), "setns")


class _Broken(Exception):
    """The zygote cannot go on (its own namespaces could not be restored, or the host left)."""


class _Attempt:
    """One attempt: its namespaces and mounts made by the zygote, its pid 1, the read-back."""

    def __init__(self, sock, request: dict, fixture: bytes, world: _World):
        self.sock, self.request, self.fixture, self.world = sock, request, fixture, world

    def run(self):
        request = self.request
        caps = dirtree.Caps(**request["caps"])
        ours: list[int] = []
        try:
            init, workfd, theirs = self._start(caps, ours)
        except (OSError, ValueError) as exc:
            for fd in ours:
                os.close(fd)
            send_frame(self.sock, to_json({"op": "error", "error": f"cannot set up the attempt: {exc}"}))
            return
        try:
            send_frame(self.sock, to_json({"op": "started"}), fds=theirs)
        finally:
            for fd in theirs:
                os.close(fd)
        try:
            header, _ = recv_frame(self.sock, 0)
        except (OSError, EOFError, ValueError) as exc:
            os.kill(init, SIGKILL)
            os.waitpid(init, 0)
            os.close(workfd)
            raise _Broken(f"the host left mid-attempt ({exc})") from exc
        # pid 1's end ends every process of its namespace; the wait returns once they are all gone
        os.kill(init, SIGKILL)
        os.waitpid(init, 0)
        try:
            if header.get("timed_out"):
                send_frame(self.sock, to_json({"op": "done", "state": "lost", "note": "timed out"}))
                return
            try:
                nodes = dirtree.read_at(workfd, caps)
            except dirtree.TooLarge as exc:
                send_frame(self.sock, to_json({"op": "done", "state": "too-large", "note": str(exc)}))
                return
            except OSError as exc:
                send_frame(self.sock, to_json({"op": "done", "state": "lost",
                                               "note": f"the task directory could not be read back ({exc})"}))
                return
            send_frame(self.sock, to_json({"op": "done", "state": "ok"}), dirtree.dump(nodes))
        finally:
            # the last reference to the attempt's task directory: its tmpfs goes with it
            os.close(workfd)

    def _start(self, caps, ours: list[int]) -> tuple[int, int, list[int]]:
        """Make the attempt's world and start its pid 1; the zygote is back in its own namespaces after.

        Returns pid 1's pid, the task directory's descriptor and the descriptors for the host (stdout,
        stderr, status, and stdin's write end when there is input). ``ours`` collects what to close on
        failure.
        """
        request = self.request
        limits = request["limits"]
        work = request["work"]
        # System V shared memory and message queues outlive their processes: a new IPC namespace too
        _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC), "unshare")
        try:
            # a writable place the last attempt could have used is a new, empty mount now
            _tmpfs("/tmp", limits["tmp_bytes"], "1777", caps.entries + 1024)
            _tmpfs("/dev/shm", 1 << 20, "1777", 1024)
            os.makedirs(work, 0o755)
            _tmpfs(work, limits["workdir_bytes"], "0755", caps.entries + 64)
            workfd = os.open(work, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            ours.append(workfd)
            dirtree.write(dirtree.load(self.fixture, caps), work)
            for path, data in request["files"].items():
                _create(path, data, 0o644)
            folders = sorted({os.path.dirname(p) for p in request["programs"]})
            for folder in folders:
                os.makedirs(folder, 0o755, exist_ok=True)
                _tmpfs(folder, 1 << 20, "0755", 64)
            for path, data in request["programs"].items():
                _create(path, data, 0o755)
            for folder in folders:
                _mount(None, folder, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, None)
            argv = list(request["argv"])
            env = {}
            for item in request["env"]:
                key, _, value = item.partition(b"=")
                env[key] = value
            # searched here, in the attempt's mounts, as execvp would in the command's own PATH
            try:
                program = _find_program(argv[0], env.get(b"PATH", b""))
            except OSError:
                program = b""  # an exec of it fails with ENOENT, which pid 1 reports as env would
            pipes = [os.pipe(), os.pipe(), os.pipe()]  # stdout, stderr, status
            for pair in pipes:
                ours.extend(pair)
            if request["stdin"]:
                stdin = os.pipe()
            else:
                stdin = (os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC), None)
            ours.extend(fd for fd in stdin if fd is not None)
            child_fds = (stdin[0], pipes[0][1], pipes[1][1], pipes[2][1])
            init = None
            if self.world.init_program:
                try:
                    init = self._spawn_init(work, limits, program, argv, env, child_fds)
                except OSError:
                    # the command's arguments and environment at the kernel's limit (E2BIG): the Python
                    # pid 1 reports what exec says of them, as for any command that cannot start. The
                    # failed pid 1 ended its pid namespace (no process can enter one whose init is gone)
                    self.world.renew_pid()
            if init is None:
                init = _python_init(self.world.seccomp, work, limits, program, argv, env, child_fds, ours)
        finally:
            try:
                self.world.restore()
            except OSError as exc:
                raise _Broken(f"cannot return to the zygote's namespaces ({exc})") from exc
        for fd in child_fds:
            os.close(fd)
            ours.remove(fd)
        theirs = [pipes[0][0], pipes[1][0], pipes[2][0]] + ([stdin[1]] if stdin[1] is not None else [])
        return init, workfd, theirs

    def _spawn_init(self, work, limits, program, argv, env, child_fds) -> int:
        """pid 1 as the libc-free ``attemptinit`` program: started without copying this process."""
        masked = [f"/proc/{name}" for name in MASKED_PROC]
        args = [INIT_PROTOCOL, work, *(str(limits[k]) for k in _LIMIT_ORDER), str(len(masked)), *masked,
                program, *argv]
        actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(child_fds)]
        actions.append((os.POSIX_SPAWN_DUP2, self.world.seccomp_fd, 4) if self.world.seccomp_fd is not None
                       else (os.POSIX_SPAWN_OPEN, 4, os.devnull, os.O_RDONLY, 0))
        return os.posix_spawn(self.world.init_program, args, env, file_actions=actions, setsigmask=(),
                              setsigdef=_DEFAULT_SIGNALS)


# attemptinit.c's argv[0]: it refuses any other (a program built from an older source)
INIT_PROTOCOL = b"qbcore-attempt-init-1"
# the order attemptinit.c reads the limits in
_LIMIT_ORDER = ("cpu_s", "memory_bytes", "file_size_bytes", "open_files", "processes")


def _create(path: str, data: bytes, mode: int):
    os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def _python_init(seccomp: bytes, work, limits, program, argv, env, child_fds, ours) -> int:
    """pid 1 as a fork of this process, for machines without the ``attemptinit`` program (see there).

    It takes on itself everything the command inherits (directory,
    rlimits, no_new_privs, the seccomp filter, no inheritable or ambient
    capabilities) and starts the command with posix_spawn, so no Python
    process is copied for it. It keeps its own permitted capabilities:
    the kernel then lets the command neither trace it nor read its memory
    or descriptors.
    """
    init = os.fork()
    if init:
        return init
    try:
        in_r, out_w, err_w, status_w = child_fds
        for fd in ours:
            if fd not in child_fds:
                os.close(fd)
        _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
        try:
            _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | 8, None)  # 8: MS_NOEXEC
            for name in MASKED_PROC:
                if os.path.exists(f"/proc/{name}"):
                    _mount("/dev/null", f"/proc/{name}", None, MS_BIND, None)
            os.chdir(work)
            for kind, value in ((resource.RLIMIT_CPU, limits["cpu_s"]),
                                (resource.RLIMIT_AS, limits["memory_bytes"]),
                                (resource.RLIMIT_FSIZE, limits["file_size_bytes"]),
                                (resource.RLIMIT_NOFILE, limits["open_files"]),
                                (resource.RLIMIT_NPROC, limits["processes"])):
                resource.setrlimit(kind, (value, value))
            _keep_capabilities_to_self()
            _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
            if seccomp:
                _install_filter(seccomp)
        except OSError as exc:
            os.write(err_w, f"qbcore sandbox: {exc}\n".encode())
            os._exit(1)
        try:
            command = os.posix_spawn(
                program, argv, env,
                file_actions=[(os.POSIX_SPAWN_DUP2, in_r, 0), (os.POSIX_SPAWN_DUP2, out_w, 1),
                              (os.POSIX_SPAWN_DUP2, err_w, 2)],
                setsid=True, setsigmask=(), setsigdef=_DEFAULT_SIGNALS)
        except OSError as exc:
            # what `env -i` says, so a missing program reads the same either way
            os.write(err_w, f"env: '{os.fsdecode(argv[0])}': {exc.strerror}\n".encode(errors="replace"))
            os.write(status_w, b"126\n" if isinstance(exc, PermissionError) else b"127\n")
            command = None
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        while True:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                _signal.pause()
                continue
            if pid == command:
                code = os.waitstatus_to_exitcode(status)
                os.write(status_w, f"{128 - code if code < 0 else code}\n".encode())
    finally:
        os._exit(1)


def _find_program(name: bytes, path: bytes) -> bytes:
    """execvp's search, in the command's own PATH (posix_spawnp would search this process's)."""
    if b"/" in name:
        return name
    denied = None
    for folder in path.split(b":"):
        candidate = os.path.join(folder or b".", name)
        if os.path.isfile(candidate):
            if os.access(candidate, os.X_OK):
                return candidate
            denied = candidate
    if denied:
        return denied
    raise FileNotFoundError(2, "No such file or directory")


def _keep_capabilities_to_self():
    """Clear the ambient and inheritable sets: a command started from here (not uid 0 in the
    namespace, no_new_privs) starts with no capability."""
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capget(header, data), "capget")
    data[2] = data[5] = 0  # inheritable, both words
    _check(_libc.capset(header, data), "capset")


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _install_filter(program: bytes):
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "seccomp")


def serve(sock, world: _World):
    """Answer requests until the host closes the channel; one attempt at a time.

    Anything that goes wrong outside an attempt's own setup (the host left
    mid-attempt, the zygote's namespaces could not be restored) ends this
    zygote, and the host replaces it.
    """
    _signal.signal(_signal.SIGCHLD, _signal.SIG_DFL)
    while True:
        try:
            header, payload = recv_frame(sock, 1 << 30)
        except EOFError:
            return
        if header.get("op") == "ping":
            send_frame(sock, to_json({"op": "pong"}))
            continue
        _Attempt(sock, header, payload, world).run()


def main():
    import gc

    # the collector never walks what start-up built (less work, fewer pages written in pid 1's forks)
    gc.freeze()
    os.set_inheritable(3, False)  # the host's channel never reaches a command
    sock = _socket.socket(fileno=3)
    seccomp_fd = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "-" else None
    if seccomp_fd is not None:
        os.set_inheritable(seccomp_fd, False)
    init_program = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    # a process that forks before the host has put it in the sandbox's cgroup leaves a child
    # outside it, uncapped: nothing is forked until the host says the cgroup holds this process
    if sock.recv(1) != GO:
        os._exit(0)
    # bubblewrap's namespaces belong to its outer user namespace, and the kernel lets no process
    # back into those: the zygote serves from mount, IPC and pid namespaces of its own, which it
    # may return to after making each attempt's (this first process only waits for it, as pid 1
    # of bubblewrap's namespace, so the sandbox ends when the zygote does)
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID), "unshare")
    server = os.fork()
    if server:
        sock.close()
        while True:
            pid, status = os.waitpid(-1, 0)
            if pid == server:
                os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
    try:
        serve(sock, _World(seccomp_fd, init_program))
    except _Broken as exc:
        os.write(2, f"qbcore zygote: {exc}\n".encode(errors="replace"))
        os._exit(1)
    os._exit(0)


if __name__ == "__main__":
    main()
