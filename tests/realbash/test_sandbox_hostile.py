"""Hostile replies run as one batch; after it, the host is checked for every one of them.

Each reply tries to escape or exhaust something: write or delete outside the
task directory, read a file outside, reach a listener on the host's loopback,
leave processes behind, start hundreds of them, sleep forever, fill the disk,
print gigabytes, swap its task directory for a symlink to a host directory
(under every transport, the real ssh server included), read host paths,
ptrace pid 1, spread memory over many processes, nest directories thousands
deep, create files by the hundred thousand, make huge sparse files. All must
be contained: the host unchanged, nothing from outside the task directory in
any report, each attempt ended within its timeout, the batch finished with
every result.
"""

import json

import os
import pwd
import socket
import tempfile

import pytest

from qbcore.realbash import executor, realssh
from qbcore import suite
from qbcore.realbash.sandbox import Limits

from sandboxing import REQUIRE, need_sandbox

WALL = 4.0
LIMITS = Limits(wall_s=WALL, output_bytes=64 * 1024, workdir_bytes=16 << 20, tmp_bytes=16 << 20,
                memory_bytes=256 << 20)
# the transports whose harness a swap of the task directory is tried under
SWAP_TRANSPORTS = ("raw", "nested", "ssh", "heredoc-ssh", "script", "stdin")
SWAP_REAL_SSH = ("ssh", "heredoc-ssh")
HOST_SECRET = "host-secret-text-7d1e"
HOST_SECRET_NAME = "host-secret-name-5b2c"
TASK = "write-file/t0-plain"


def _alive_with(marker: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if marker.encode() in handle.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def host():
    """Canaries on the host, a listener on loopback, and the batch's results."""
    need_sandbox()
    home = pwd.getpwuid(os.getuid()).pw_dir
    canary_dir = tempfile.mkdtemp(prefix="qbcore-canary-")
    os.chmod(canary_dir, 0o755)
    canary = os.path.join(canary_dir, "canary")
    with open(canary, "w") as handle:
        handle.write("secret-canary-text\n")
    os.chmod(canary, 0o644)
    home_canary = os.path.join(home, f".qbcore-test-canary-{os.getpid()}")
    with open(home_canary, "w") as handle:
        handle.write("secret-home-text\n")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    marker = f"qbcore-left-behind-{os.getpid()}"
    # the batch's attempt directories go to a folder of their own, so that
    # other tests running meanwhile cannot blur the check of what is left
    scratch = tempfile.mkdtemp(prefix="qbcore-hostile-")
    os.chmod(scratch, 0o755)
    replies = {
        "write-root": "echo x > /qbcore-escape; touch /usr/qbcore-escape; echo $?",
        "write-home": f"echo x > {home}/qbcore-escape; echo x > ~root/qbcore-escape; rm -f {home_canary}",
        "write-tmp": f"echo x > /tmp/qbcore-escape; rm -rf {canary_dir}; rm -f {canary}",
        "write-parent": "echo x > ../qbcore-escape; rm -rf ../* ../../qbcore-*; mkdir ../../x ../../../x",
        "read-outside": f"cat {canary} {home_canary} /etc/shadow 2>&1; ls {os.path.dirname(home_canary)}",
        "network": f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected >&3",
        "background": f"(exec -a {marker} sleep 300 >/dev/null 2>&1 &) ; echo left",
        "many": f"for i in $(seq 400); do (exec -a {marker} sleep 300) & done 2>/dev/null",
        "sleep": "sleep infinity",
        "fill-disk": "while :; do head -c 1000000 /dev/zero >> fill$((RANDOM % 8)) || break; done; df -k .",
        "flood": "head -c 3000000000 /dev/zero",
    }
    # a mode-0700 host directory that holds a file named like the task's target
    hostdir = tempfile.mkdtemp(prefix="qbcore-hostdir-")
    for name in ("note.txt", HOST_SECRET_NAME):
        with open(os.path.join(hostdir, name), "w") as handle:
            handle.write(HOST_SECRET + "\n")
    hostdir_before = _listing(hostdir)
    swap = (f'd=$(dirname "$PWD"); cd /; mv "$d" /tmp/moved && mkdir "$d" && ln -s {hostdir} "$d/task" '
            f'&& echo swapped')
    try:
        with open("/etc/machine-id") as handle:
            machine_id = handle.read().strip()
    except OSError:
        machine_id = None
    replies.update({
        "host-paths": ("cat /etc/machine-id /etc/ssh/*.pub /var/log/*.log /root/* 2>&1; ls /opt /var /sys /srv "
                       "/home /mnt /run 2>&1; ls /"),
        "ptrace-pid-1": ("python3 -c 'import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
                         "print(\"ptrace\", libc.ptrace(16, 1, 0, 0))'; cat /proc/1/environ /proc/1/fd/* 2>&1 "
                         "| head -c 1000; unshare -Urm true && echo nested-userns; "
                         "unshare -Urpf true && echo nested-pidns; printf note > note.txt"),
        "memory-spread": ("for i in 1 2 3 4; do python3 -c 'import time; x = b\"x\" * (150 << 20); "
                          "time.sleep(2); print(\"kept\", flush=True)' & done; wait"),
        "deep": "python3 -c 'import os\nfor i in range(3000): os.mkdir(\"d\"); os.chdir(\"d\")'; echo deep",
        "million-files": ("mkdir many && cd many && python3 -c 'import os\n"
                          "for i in range(10**6): open(str(i), \"w\").close()'"),
        "sparse": "truncate -s 60M s1 s2 && echo sparse",
    })
    jobs = [executor.Job(TASK, reply, "raw", name) for name, reply in replies.items()]
    jobs += [executor.Job(TASK, swap, transport, f"swap-{transport}") for transport in SWAP_TRANSPORTS]
    with_real_ssh = realssh.available() is None
    if with_real_ssh:
        jobs += [executor.Job(TASK, swap, transport, f"swap-{transport}-real-ssh", real_ssh=True)
                 for transport in SWAP_REAL_SSH]
    elif REQUIRE:
        pytest.fail(f"QBCORE_REQUIRE_SANDBOX is set but the real ssh server cannot run: {realssh.available()}")
    task = suite.get(TASK)
    jobs.append(executor.Job(TASK, task.oracle, "raw", "oracle-after"))
    saved, tempfile.tempdir = tempfile.tempdir, scratch
    try:
        results = {job.label: attempt for job, attempt in executor.run_many(jobs, workers=2, limits=LIMITS)}
    finally:
        tempfile.tempdir = saved
    connections = []
    try:
        while True:
            connections.append(listener.accept())
    except OSError:
        pass
    yield {"results": results, "canary": canary, "canary_dir": canary_dir, "home": home,
           "home_canary": home_canary, "connections": connections, "marker": marker,
           "scratch_left": os.listdir(scratch), "replies": replies, "jobs": jobs, "hostdir": hostdir,
           "hostdir_before": hostdir_before, "machine_id": machine_id, "with_real_ssh": with_real_ssh}
    listener.close()
    for name in os.listdir(hostdir):
        os.unlink(os.path.join(hostdir, name))
    os.rmdir(hostdir)
    os.unlink(home_canary)
    os.unlink(canary)
    os.rmdir(canary_dir)
    os.rmdir(scratch)


def _listing(folder: str) -> dict:
    found = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as handle:
            found[name] = (handle.read(), os.stat(os.path.join(folder, name)).st_mode)
    return found


def test_every_attempt_of_the_batch_reported(host):
    assert set(host["results"]) == {job.label for job in host["jobs"]}
    assert host["results"]["oracle-after"].passed


def test_each_attempt_ended_within_its_timeout(host):
    for name, attempt in host["results"].items():
        assert attempt.duration_s < WALL + 6, name


def test_nothing_was_written_or_deleted_outside(host):
    for path in ("/qbcore-escape", "/usr/qbcore-escape", "/tmp/qbcore-escape",
                 os.path.join(host["home"], "qbcore-escape"), "/root/qbcore-escape"):
        assert not os.path.exists(path), path
    assert open(host["canary"]).read() == "secret-canary-text\n"
    assert open(host["home_canary"]).read() == "secret-home-text\n"
    # every attempt directory was removed, and `mkdir ../../x` made nothing here
    assert host["scratch_left"] == []


def test_writes_outside_fail_inside_the_sandbox(host):
    assert host["results"]["write-root"].stdout.strip() != b"0"


def test_files_outside_cannot_be_read(host):
    out = host["results"]["read-outside"].stdout
    assert b"secret-canary-text" not in out and b"secret-home-text" not in out
    assert b"root:" not in out


def test_host_loopback_listener_is_unreachable(host):
    assert host["connections"] == []
    assert host["results"]["network"].exit_code != 0


def test_no_process_survives(host):
    assert _alive_with(host["marker"]) == []


def test_hundreds_of_processes_are_contained(host):
    attempt = host["results"]["many"]
    assert attempt.class_ in ("timeout", "silent-wrong", "runtime-error")


def test_sleeping_forever_is_a_timeout(host):
    assert host["results"]["sleep"].class_ == "timeout"


def test_filling_the_disk_stops_at_the_task_directory_cap(host):
    attempt = host["results"]["fill-disk"]
    assert attempt.class_ in ("silent-wrong", "runtime-error", "tool-error", "timeout")
    assert any(f.startswith("fill") for f in attempt.new_files) or attempt.class_ == "timeout"


def test_printing_gigabytes_keeps_only_the_cap(host):
    attempt = host["results"]["flood"]
    assert attempt.class_ in ("timeout", "silent-wrong")
    assert len(attempt.stdout) <= LIMITS.output_bytes


def _report(attempt) -> str:
    return json.dumps(attempt.as_dict(output=True))


def test_nothing_from_outside_the_task_reaches_any_report(host):
    for name, attempt in host["results"].items():
        report = _report(attempt)
        assert HOST_SECRET not in report and HOST_SECRET_NAME not in report, name
        assert "secret-canary-text" not in report and "secret-home-text" not in report, name
        if host["machine_id"]:
            assert host["machine_id"] not in report, name


def test_a_task_directory_swapped_for_a_symlink_is_never_followed_by_the_host(host):
    assert _listing(host["hostdir"]) == host["hostdir_before"]
    swaps = {name: a for name, a in host["results"].items() if name.startswith("swap-")}
    assert len(swaps) == len(SWAP_TRANSPORTS) + (len(SWAP_REAL_SSH) if host["with_real_ssh"] else 0)
    # the swap itself works inside the sandbox (the reply sees its own tmpfs moved) ...
    assert b"swapped" in host["results"]["swap-raw"].stdout
    for name, attempt in swaps.items():
        # ... but what is judged is the task directory the attempt was given, never the link's target
        assert not attempt.passed, name
        assert attempt.new_files == (), (name, attempt.new_files)


def test_host_paths_are_not_there(host):
    attempt = host["results"]["host-paths"]
    out = attempt.stdout.decode()
    listing = out.rstrip("\n").split("\n")
    top = set(listing[listing.index("bin"):]) if "bin" in listing else set()
    assert top and top <= {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "qbcore", "sbin", "tmp",
                           "usr"}, top
    for place in ("/opt", "/var", "/sys", "/srv", "/home", "/mnt", "/run"):
        assert f"cannot access '{place}'" in out


def test_ptrace_of_pid_1_and_nested_namespaces_fail(host):
    attempt = host["results"]["ptrace-pid-1"]
    assert b"ptrace -1" in attempt.stdout
    assert b"nested-userns" not in attempt.stdout and b"nested-pidns" not in attempt.stdout
    assert not attempt.passed


@pytest.mark.usefixtures("cgroup_needed")
def test_memory_spread_over_processes_meets_the_attempts_cap(host):
    attempt = host["results"]["memory-spread"]
    # four processes of 150 MB under a 256 MB cap (plus the zygote's share): at most two keep theirs
    assert attempt.stdout.count(b"kept") <= 2, attempt.stdout


def test_deep_directories_and_file_floods_end_at_a_cap_with_a_class(host):
    for name, cap in (("deep", "nested deeper"), ("million-files", "entries"), ("sparse", "bytes of file content")):
        attempt = host["results"][name]
        assert attempt.class_ == "environment-invalid", (name, attempt.class_, attempt.reason)
        assert "read-back cap" in attempt.reason and cap in attempt.reason, (name, attempt.reason)
        assert len(_report(attempt)) < 200_000, name
