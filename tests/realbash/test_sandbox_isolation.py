"""What a reply can see and do inside the sandbox, and what one attempt leaves for the next: nothing.

These run replies the way the executor does and check the sandbox from the
inside (what is visible, which system calls fail) and from the host (its
processes and files, the zygote that serves the next attempt).
"""

import os
import signal
import threading
import time

import pytest

from qbcore.realbash import cgroups, sandbox
from qbcore.realbash.sandbox import Limits

from sandboxing import BASE_ENV, need_sandbox


@pytest.fixture(autouse=True)
def _sandbox_available():
    need_sandbox()


TASK_DIR = "/tmp/qbcore-isolation/task"


class _Capture:
    """A workspace that starts empty and keeps the final node list."""

    def content(self):
        return []

    def populate(self, path):
        pass

    def inspect(self, path):
        from qbcore.realbash import dirtree
        return dirtree.read(path)


def run(script, *, own_bubblewrap=False, **kw):
    binds = ["/usr/share/zoneinfo"] if own_bubblewrap else []
    return sandbox.run(["bash", "-c", script], workdir=TASK_DIR, env=dict(BASE_ENV), workspace=_Capture(),
                       ro_binds=binds, **kw)


BOTH = pytest.mark.parametrize("own_bubblewrap", [False, True], ids=["zygote", "own-bubblewrap"])


@BOTH
def test_only_the_least_privilege_view_of_the_host_is_visible(own_bubblewrap):
    done = run("ls -A /; ls -A /etc; ls -d /opt /var /srv /home /root /mnt /run /sys /boot 2>&1 | wc -l",
               own_bubblewrap=own_bubblewrap)
    lines = done.stdout.decode().split("\n")
    top = set(lines[:lines.index("alternatives")]) if "alternatives" in lines else set()
    allowed = set(sandbox.VISIBLE_TOP_LEVEL) | {"qbcore"}
    assert top and top <= allowed, top - allowed
    assert "usr" in top and "etc" in top
    etc = set(lines[lines.index("alternatives"):-2])
    assert etc == {"alternatives", *sandbox.etc_files(0, 0)}
    assert lines[-2] == "9"  # nine "No such file or directory"


@BOTH
def test_host_files_cannot_be_read(own_bubblewrap):
    secrets = []
    for path in ("/etc/machine-id", "/etc/hostname", "/etc/ssh/ssh_host_ed25519_key.pub"):
        try:
            with open(path, "rb") as handle:
                text = handle.read().strip()
        except OSError:
            continue
        if text:
            secrets.append(text)
    done = run("cat /etc/machine-id /etc/ssh/ssh_host_*_key.pub /var/log/* /proc/kallsyms 2>&1; "
               "ls /var/lib /opt /root /sys/kernel 2>&1; getent passwd | cut -d: -f1",
               own_bubblewrap=own_bubblewrap)
    for secret in secrets:
        assert secret not in done.stdout
    assert b"srso_" not in done.stdout and b" T " not in done.stdout  # no kernel symbols
    assert done.stdout.split(b"\n")[-3:-1] == [b"root", b"qbuser"] or b"qbuser" in done.stdout


@BOTH
def test_ptrace_of_pid_1_and_of_a_sibling_fail(own_bubblewrap):
    script = ("python3 -c 'import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
              "print(libc.ptrace(16, 1, 0, 0), ctypes.get_errno())'; "
              "sleep 5 & python3 -c 'import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True); "
              "print(libc.ptrace(16, int(sys.argv[1]), 0, 0), ctypes.get_errno())' $!; "
              "cat /proc/1/environ /proc/1/mem 2>&1 | head -c 300 | tr -d '\\0'; kill %1")
    done = run(script, own_bubblewrap=own_bubblewrap)
    lines = done.stdout.decode().split("\n")
    assert lines[0] == "-1 1" and lines[1] == "-1 1", done.stdout  # EPERM both times
    # pid 1's environment (and with it anything pid 1 was told) stays out of reach
    assert "Permission denied" in lines[2] or lines[2] == ""


@BOTH
def test_nested_namespaces_and_mounts_are_refused(own_bubblewrap):
    script = ("unshare -Urm true; echo $?; unshare -Urpf true; echo $?; unshare -n true; echo $?; "
              "python3 -c 'import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
              "print(libc.unshare(0x10000000), libc.mount(b\"none\", b\"/tmp\", b\"tmpfs\", 0, None), "
              "libc.syscall(321, 0, 0, 0), libc.syscall(298, 0, 0, 0, 0, 0))'")
    done = run(script, own_bubblewrap=own_bubblewrap)
    lines = done.stdout.decode().split()
    assert lines[:3] != ["0", "0", "0"] and "0" not in lines[:3], done.stdout
    assert lines[3:] == ["-1", "-1", "-1", "-1"], done.stdout


def test_clone_without_namespace_flags_still_works():
    # fork, threads and posix_spawn go through clone/clone3: only namespace flags are refused
    done = run("python3 -c 'import threading, subprocess; t = threading.Thread(target=print, args=(1,), kwargs={\"flush\": True}); "
               "t.start(); t.join(); print(subprocess.run([\"echo\", \"2\"]).returncode)' && (echo 3) | cat")
    assert done.stdout == b"1\n2\n0\n3\n", done.stderr


def test_nothing_of_one_attempt_reaches_the_next_in_the_same_zygote():
    sandbox.close_zygotes()
    leave = ("(exec -a qbcore-leftover-writer bash -c 'while :; do date >> /tmp/w; date >> ./w; sleep 0.01; done' "
             "</dev/null >/dev/null 2>&1 &); "
             "echo secret > /tmp/left; echo secret > /dev/shm/left; echo secret > left; mkdir -p /tmp/d/e; "
             "mkfifo /tmp/fifo; exec 7>/tmp/left7; touch /dev/left /etc/left /left /usr/left 2>/dev/null; "
             "ipcmk -M 4096 >/dev/null; ipcmk -Q >/dev/null; hostname left 2>/dev/null; "
             "(exec -a qbcore-leftover-listener python3 -c 'import socket, time; s = socket.socket(); "
             "s.bind((\"127.0.0.1\", 47123)); s.listen(); u = socket.socket(socket.AF_UNIX); "
             "u.bind(\"\\0qbcore-left\"); u.listen(); time.sleep(60)' </dev/null >/dev/null 2>&1 &); sleep 0.3; "
             "export QBCORE_LEFT=1; echo QBCORE_LEFT=1 >> ~/.bashrc; echo ok")
    first = run(leave)
    assert first.stdout.endswith(b"ok\n") and first.exit_code == 0
    assert len(sandbox._zygotes.idle) == 1
    used = sandbox._zygotes.idle[0]
    look = ("ps -eo comm= | sort | tr '\\n' ' '; echo; ls -A /tmp /dev/shm . | tr '\\n' ' '; echo; "
            "ls /proc/self/fd | tr '\\n' ' '; echo; env | grep -c QBCORE; ls /dev /etc / | grep -c left; "
            "ipcs -m -q | grep -c 0x; hostname; (exec 3<>/dev/tcp/127.0.0.1/47123) 2>/dev/null && echo open || "
            "echo closed; python3 -c 'import socket; u = socket.socket(socket.AF_UNIX)\n"
            "try: u.connect(\"\\0qbcore-left\"); print(\"open\")\nexcept OSError: print(\"closed\")'")
    second = run(look)
    assert sandbox._zygotes.idle == [used]  # the same zygote served both
    lines = second.stdout.decode().split("\n")
    assert "qbcore-leftover-writer" not in lines[0] and "bash" in lines[0] and "sleep" not in lines[0]
    assert len(lines[0].split()) <= 5, lines[0]  # bash, ps, sort, tr: this attempt's own
    assert "left" not in lines[1] and "w" not in lines[1].split() and "d" not in lines[1].split()
    assert lines[2].split() == ["0", "1", "2", "3"]  # ls's own directory descriptor is the 4th
    assert lines[3:5] == ["0", "0"]
    # System V IPC, the host name, loopback and abstract sockets: nothing left either
    assert lines[5:9] == ["0", "sandbox", "closed", "closed"], lines[5:]
    assert second.inspected == []
    # and on the host no process of the first attempt is left
    assert not any(b"qbcore-leftover-" in _cmdline(pid) for pid in os.listdir("/proc") if pid.isdigit())


def _cmdline(pid: str) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def test_a_zygote_that_dies_mid_attempt_is_replaced_and_the_attempt_reported():
    sandbox.close_zygotes()
    run("true")
    doomed = sandbox._zygotes.idle[0]
    killer = threading.Timer(0.5, lambda: os.killpg(doomed.pid, signal.SIGKILL))
    killer.start()
    try:
        done = run("sleep 3; echo late", limits=Limits(wall_s=8))
    finally:
        killer.cancel()
    assert done.state_lost and done.exit_code is None
    assert any("zygote died" in note for note in done.notes), done.notes
    after = run("echo fine")
    assert after.stdout == b"fine\n" and sandbox._zygotes.idle[0] is not doomed


def test_a_wedged_zygote_is_replaced_after_the_grace_period(monkeypatch):
    monkeypatch.setattr(sandbox, "_GRACE_S", 0.5)
    sandbox.close_zygotes()
    run("true")
    wedged = sandbox._zygotes.idle[0]
    # stop both of the zygote's processes (the command goes on and ends, and its pid 1 reports the
    # status, but no zygote answers the host's "end" with the task directory)

    def stop():
        with open(f"/proc/{wedged.child_pid}/task/{wedged.child_pid}/children") as handle:
            for pid in [wedged.child_pid, *map(int, handle.read().split())]:
                os.kill(pid, signal.SIGSTOP)

    stopper = threading.Timer(0.3, stop)
    stopper.start()
    try:
        done = run("sleep 0.6; echo out", limits=Limits(wall_s=1.5))
    finally:
        stopper.cancel()
    assert done.state_lost and done.exit_code is None
    assert run("echo fine").stdout == b"fine\n"
    assert sandbox._zygotes.idle[0] is not wedged


@pytest.mark.usefixtures("cgroup_needed")
@BOTH
def test_memory_spread_over_many_processes_meets_one_cap(own_bubblewrap):
    # four processes of 100 MB each, each under the 192 MB address-space limit; the
    # cgroup lets the attempt have 192 MB (the zygote's own share on top): a holder
    # that keeps its 100 MB for three seconds says so, and no more than two can
    script = ("for i in 1 2 3 4; do python3 -c 'import time; x = b\"x\" * (100 << 20); "
              "time.sleep(3); print(\"kept\", flush=True)' & done; wait")
    done = run(script, own_bubblewrap=own_bubblewrap, limits=Limits(memory_bytes=192 << 20, wall_s=15))
    assert done.stdout.count(b"kept") <= 2, (done.stdout, done.notes)


def _tree(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as handle:
        children = [int(child) for child in handle.read().split()]
    return [pid, *(p for child in children for p in _tree(child))]


@pytest.mark.usefixtures("cgroup_needed")
def test_a_zygote_forks_nothing_before_the_host_has_put_it_in_its_cgroup(monkeypatch):
    # a host slow to add the sandbox's pids (a loaded machine) must not leave the zygote's
    # server, and so every attempt forked from it, outside the cgroup's caps
    add = cgroups.Group.add

    def slow_add(group, pid):
        time.sleep(0.3)
        return add(group, pid)

    monkeypatch.setattr(cgroups.Group, "add", slow_add)
    sandbox.close_zygotes()
    done = run("sleep 0.2; echo up")
    assert done.stdout == b"up\n", done.notes
    zygote = sandbox._zygotes.idle[0]
    processes = _tree(zygote.child_pid)
    assert len(processes) >= 2, processes  # pid 1 and the server it forked
    assert set(processes) <= set(zygote.group.pids()), (processes, zygote.group.pids())


@pytest.mark.usefixtures("cgroup_needed")
def test_memory_in_a_memfd_counts_too():
    script = ("python3 -c 'import os; fd = os.memfd_create(\"m\"); chunk = b\"x\" * (1 << 20)\n"
              "for i in range(600): os.write(fd, chunk)\nprint(\"wrote all\")'; echo $?")
    done = run(script, limits=Limits(memory_bytes=192 << 20, wall_s=10))
    assert b"wrote all" not in done.stdout and done.stdout.strip() != b"0"


def test_deep_directories_end_at_the_depth_cap_with_a_clear_note():
    done = run("python3 -c 'import os\nfor i in range(3000): os.mkdir(\"d\"); os.chdir(\"d\")'; echo done",
               limits=Limits(depth=40))
    assert done.stdout == b"done\n"
    assert done.state_lost and done.over_cap and "deeper than 40" in done.over_cap
    assert any("read-back cap" in note for note in done.notes)


def test_a_flood_of_files_stops_at_the_entry_cap_early():
    script = ("python3 -c 'import os\ntry:\n    for i in range(10**6): open(f\"f{i}\", \"w\").close()\n"
              "except OSError as e: print(i, e.strerror)'")
    started = time.monotonic()
    done = run(script, limits=Limits(entries=1000, wall_s=20))
    # the task directory's tmpfs has about as many inodes as the cap allows, so the flood fails fast
    count, _, error = done.stdout.decode().partition(" ")
    assert int(count) < 1100 and "No space left" in error
    assert done.over_cap and "more than 1000 entries" in done.over_cap
    assert time.monotonic() - started < 15


def test_huge_sparse_files_end_at_the_byte_cap():
    done = run("truncate -s 60M a b c && ls -s a", limits=Limits(read_bytes=100 << 20))
    assert done.exit_code == 0
    assert done.over_cap and "bytes of file content" in done.over_cap


@pytest.fixture(params=["attemptinit", "python"])
def pid1(request, monkeypatch):
    """Either kind of pid 1, in fresh zygotes: the libc-free program setup.py builds, or
    (without it) a fork of the zygote. Both owe the command the same guarantees."""
    if request.param == "attemptinit" and sandbox._attempt_init() is None:
        pytest.skip("the attempt init is not built here (no compiler, another machine, or QBCORE_NO_EXTENSIONS)")
    if request.param == "python":
        monkeypatch.setattr(sandbox, "_init_program", [None])
    sandbox.close_zygotes()
    yield request.param
    sandbox.close_zygotes()


def test_either_pid_1_starts_the_command_bare_and_keeps_it_out(pid1):
    done = run("echo $$; tr '\\0' ' ' </proc/1/cmdline; echo; grep -E '^Cap(Inh|Prm|Eff|Amb)' /proc/self/status | "
               "tr -s '\\t' ' '; ls /proc/self/fd | tr '\\n' ' '; echo; cat /proc/1/environ 2>&1 >/dev/null | "
               "grep -c 'Permission denied'; ulimit -t; ulimit -v; ulimit -n; ulimit -u; cat /proc/kallsyms | wc -c; nosuch; echo $?")
    lines = done.stdout.decode().split("\n")
    assert lines[0] == "2"  # the command is pid 1's only child, pid 1 itself not the command
    assert ("qbcore-attempt-init" in lines[1]) == (pid1 == "attemptinit"), lines[1]
    assert lines[2:6] == [f"Cap{kind}: 0000000000000000" for kind in ("Inh", "Prm", "Eff", "Amb")], lines[2:6]
    assert lines[6].split() == ["0", "1", "2", "3"]  # ls's own directory descriptor is the 4th
    assert lines[7] == "1"  # pid 1 is out of the command's reach
    assert lines[8:12] == ["10", str((1 << 30) // 1024), "256", "256"]
    assert lines[12:14] == ["0", "127"]
    assert b"nosuch: command not found" in done.stderr


def test_arguments_past_the_kernels_limit_are_reported_as_env_would(pid1):
    # pid 1's own exec fails too then; the attempt still gets env's words and 127, and the next one runs
    done = sandbox.run(["bash", "-c", "echo ran", *["x" * 100_000] * 25], workdir=TASK_DIR, env=dict(BASE_ENV),
                       workspace=_Capture())
    after = run("echo $$")
    assert (done.exit_code, done.stdout) == (127, b"")
    assert done.stderr == b"env: 'bash': Argument list too long\n"
    assert after.stdout == b"2\n"


@pytest.mark.usefixtures("cgroup_needed")
@BOTH
def test_a_sandbox_the_kernel_keeps_out_of_its_cgroup_does_not_run(monkeypatch, own_bubblewrap):
    monkeypatch.setattr(cgroups.Group, "add", lambda group, pid: False)
    sandbox.close_zygotes()
    with pytest.raises(sandbox.SandboxUnavailable, match="would not put the sandbox into its cgroup"):
        run("echo escaped", own_bubblewrap=own_bubblewrap)
    monkeypatch.undo()
    assert run("echo fine", own_bubblewrap=own_bubblewrap).stdout == b"fine\n"
