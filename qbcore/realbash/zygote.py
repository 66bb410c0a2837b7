"""The long-lived process inside a worker's sandbox that gives every attempt a fresh world.

bubblewrap starts this once per worker (``python3 -I -S``, standard library
and ``dirtree`` only, no host path of its own); the host then sends it one
request per attempt over a socket on fd 3. For each attempt it forks a
manager with fresh mount, pid and IPC namespaces: new tmpfs mounts for /tmp,
/dev/shm, the task directory and the read-only program folders, the fixture
and files written in, and then the attempt's pid 1, which mounts its own
/proc and starts the command with a clean environment, no capabilities, the
rlimits, no_new_privs and the seccomp filter. The output pipes go to the host
(SCM_RIGHTS) and the host pumps them; when it says "end", the manager kills
the attempt's pid 1 (the kernel then ends every process in that namespace),
reads the task directory from the descriptor it opened before the command
ran (``dirtree.read_at``: no path followed, capped) and sends it back. When
the manager exits, its mount namespace and every tmpfs in it go away.

Frames, both ways: ``<IQ`` (header length, payload length), a header, the
payload. The host's headers are marshal data (the zygote trusts the host, and
marshal costs no import); the zygote's are JSON, which the host, trusting
nothing from a sandbox, parses with ``json``.
"""

from __future__ import annotations

import ctypes
import marshal
import os
import resource
import select
import signal
import socket
import struct
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import dirtree  # noqa: E402 - the sandbox carries this module next to this one
else:
    from . import dirtree

FRAME = struct.Struct("<IQ")
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


def send_frame(sock: socket.socket, header: bytes, payload: bytes = b"", fds=()):
    """One frame; ``header`` is already encoded (``to_json`` here, marshal on the host)."""
    data = FRAME.pack(len(header), len(payload)) + header
    if fds:
        socket.send_fds(sock, [data], list(fds))
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


def _exactly(sock: socket.socket, size: int, limit: int) -> bytes:
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


def recv_frame(sock: socket.socket, payload_limit: int, decode=marshal.loads) -> tuple[dict, bytes]:
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


class _Attempt:
    """One attempt, run by the manager (a fork of the zygote) in its own namespaces."""

    def __init__(self, sock: socket.socket, request: dict, fixture: bytes, seccomp: bytes):
        self.sock, self.request, self.fixture, self.seccomp = sock, request, fixture, seccomp

    def run(self):
        request = self.request
        limits = request["limits"]
        caps = dirtree.Caps(**request["caps"])
        work = request["work"]
        try:
            # System V shared memory and message queues outlive their processes: a new IPC namespace too
            _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC), "unshare")
            _mount(None, "/", None, MS_REC | MS_PRIVATE)
            # a writable place the last attempt could have used is a new, empty mount now
            _tmpfs("/tmp", limits["tmp_bytes"], "1777", caps.entries + 1024)
            _tmpfs("/dev/shm", 1 << 20, "1777", 1024)
            os.makedirs(work, 0o755)
            _tmpfs(work, limits["workdir_bytes"], "0755", caps.entries + 64)
            workfd = os.open(work, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            dirtree.write(dirtree.load(self.fixture, caps), work)
            for path, data in request["files"].items():
                self._create(path, data, 0o644)
            folders = sorted({os.path.dirname(p) for p in request["programs"]})
            for folder in folders:
                os.makedirs(folder, 0o755, exist_ok=True)
                _tmpfs(folder, 1 << 20, "0755", 64)
            for path, data in request["programs"].items():
                self._create(path, data, 0o755)
            for folder in folders:
                _mount(None, folder, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, None)
        except (OSError, ValueError) as exc:
            send_frame(self.sock, to_json({"op": "error", "error": f"cannot set up the attempt: {exc}"}))
            return
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        if request["stdin"]:
            in_r, in_w = os.pipe()
        else:
            in_r, in_w = os.open(os.devnull, os.O_RDONLY), None
        status_r, status_w = os.pipe()
        init = os.fork()
        if init == 0:
            try:
                os.close(status_r)
                for fd in (out_r, err_r, in_w, workfd):
                    if fd is not None:
                        os.close(fd)
                self._init(status_w, in_r, out_w, err_w)
            finally:
                os._exit(1)
        for fd in (out_w, err_w, in_r, status_w):
            os.close(fd)
        send_frame(self.sock, to_json({"op": "started"}), fds=[out_r, err_r] + ([in_w] if in_w is not None else []))
        for fd in (out_r, err_r, in_w):
            if fd is not None:
                os.close(fd)
        self._converse(init, status_r, workfd, caps)

    def _create(self, path: str, data: bytes, mode: int):
        os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, mode)
        finally:
            os.close(fd)

    def _converse(self, init: int, status_r: int, workfd: int, caps):
        """Relay the command's status, wait for the host's end, end the namespace, return the state."""
        timed_out = False
        status_sent = False
        buffered = b""
        while True:
            ready = select.select([self.sock] + ([] if status_sent else [status_r]), [], [])[0]
            if status_r in ready and not status_sent:
                buffered += os.read(status_r, 64)
                if b"\n" in buffered or not buffered:
                    status = buffered.split(b"\n")[0].decode() or None
                    send_frame(self.sock, to_json({"op": "status", "status": None if status is None else int(status)}))
                    status_sent = True
                continue
            if self.sock in ready:
                header, _ = recv_frame(self.sock, 0)
                timed_out = bool(header.get("timed_out"))
                break
        os.kill(init, signal.SIGKILL)
        os.waitpid(init, 0)
        if timed_out:
            send_frame(self.sock, to_json({"op": "done", "state": "lost", "note": "timed out"}))
            return
        try:
            nodes = dirtree.read_at(workfd, caps)
        except dirtree.TooLarge as exc:
            send_frame(self.sock, to_json({"op": "done", "state": "too-large", "note": str(exc)}))
            return
        except OSError as exc:
            send_frame(self.sock, to_json({"op": "done", "state": "lost", "note": f"the task directory could not be read "
                                                                          f"back ({exc})"}))
            return
        send_frame(self.sock, to_json({"op": "done", "state": "ok"}), dirtree.dump(nodes))

    def _init(self, status_w: int, in_r: int, out_w: int, err_w: int):
        """pid 1 of the attempt: its own /proc, the command, then reaping until the manager ends it.

        It takes on itself everything the command inherits (directory,
        rlimits, no_new_privs, the seccomp filter, no inheritable or ambient
        capabilities) and starts the command with posix_spawn, so no Python
        process is copied for it. It keeps its own permitted capabilities:
        the kernel then lets the command neither trace it nor read its memory
        or descriptors.
        """
        _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
        request, limits = self.request, self.request["limits"]
        try:
            _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | 8, None)  # 8: MS_NOEXEC
            for name in MASKED_PROC:
                if os.path.exists(f"/proc/{name}"):
                    _mount("/dev/null", f"/proc/{name}", None, MS_BIND, None)
            os.chdir(request["work"])
            for kind, value in ((resource.RLIMIT_CPU, limits["cpu_s"]),
                                (resource.RLIMIT_AS, limits["memory_bytes"]),
                                (resource.RLIMIT_FSIZE, limits["file_size_bytes"]),
                                (resource.RLIMIT_NOFILE, limits["open_files"]),
                                (resource.RLIMIT_NPROC, limits["processes"])):
                resource.setrlimit(kind, (value, value))
            _keep_capabilities_to_self()
            _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
            if self.seccomp:
                _install_filter(self.seccomp)
        except OSError as exc:
            os.write(err_w, f"qbcore sandbox: {exc}\n".encode())
            os._exit(1)
        argv = list(request["argv"])
        env = {}
        for item in request["env"]:
            key, _, value = item.partition(b"=")
            env[key] = value
        try:
            command = os.posix_spawn(
                _find_program(argv[0], env.get(b"PATH", b"")), argv, env,
                file_actions=[(os.POSIX_SPAWN_DUP2, in_r, 0), (os.POSIX_SPAWN_DUP2, out_w, 1),
                              (os.POSIX_SPAWN_DUP2, err_w, 2)],
                setsid=True, setsigmask=(),
                setsigdef=(signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                           signal.SIGCHLD, signal.SIGQUIT))
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
                signal.pause()
                continue
            if pid == command:
                code = os.waitstatus_to_exitcode(status)
                os.write(status_w, f"{128 - code if code < 0 else code}\n".encode())


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


def serve(sock: socket.socket, seccomp: bytes):
    """Answer requests until the host closes the channel; one attempt at a time.

    A manager says it is finished with the channel (a byte on a pipe) before
    it exits, so the next attempt need not wait for its namespaces to be torn
    down; it is reaped later. A manager that dies without saying so may have
    stopped mid-frame: then this zygote ends, and the host replaces it.
    """
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    while True:
        _reap_finished()
        try:
            header, payload = recv_frame(sock, 1 << 30)
        except EOFError:
            return
        if header.get("op") == "ping":
            send_frame(sock, to_json({"op": "pong"}))
            continue
        released_r, released_w = os.pipe()
        manager = os.fork()
        if manager == 0:
            code = 1
            try:
                os.close(released_r)
                _Attempt(sock, header, payload, seccomp).run()
                os.write(released_w, b"k")
                code = 0
            except BaseException as exc:  # noqa: BLE001 - the host must learn of it, not hang
                try:
                    os.write(2, f"qbcore zygote: {exc.__class__.__name__}: {exc}\n".encode())
                except OSError:
                    pass
            finally:
                os._exit(code)
        os.close(released_w)
        try:
            released = os.read(released_r, 1)
        finally:
            os.close(released_r)
        if released != b"k":
            _, status = os.waitpid(manager, 0)
            os.write(2, f"qbcore zygote: the attempt's manager ended with wait status {status}\n".encode())
            return


def _reap_finished():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return


def main():
    import gc

    # what the zygote has built stays untouched by the collector in every fork (no copy-on-write for it)
    gc.freeze()
    os.set_inheritable(3, False)  # the host's channel never reaches a command
    sock = socket.socket(fileno=3)
    seccomp = b""
    if len(sys.argv) > 1:
        with open(int(sys.argv[1]), "rb", closefd=True) as handle:
            seccomp = handle.read()
    serve(sock, seccomp)


if __name__ == "__main__":
    main()
