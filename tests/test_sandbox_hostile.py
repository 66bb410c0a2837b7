"""Hostile replies run as one batch; after it, the host is checked for every one of them.

Each reply tries to escape or exhaust something: write or delete outside the
task directory, read a file outside, reach a listener on the host's loopback,
leave processes behind, start hundreds of them, sleep forever, fill the disk,
print gigabytes. All must be contained: the host unchanged, each attempt
ended within its timeout, the batch finished with every result.
"""

import os
import pwd
import socket
import tempfile

import pytest

from qbcore import executor, suite
from qbcore.sandbox import Limits

from sandboxing import need_sandbox

WALL = 4.0
LIMITS = Limits(wall_s=WALL, output_bytes=64 * 1024, workdir_bytes=16 << 20, tmp_bytes=16 << 20)
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
    jobs = [executor.Job(TASK, reply, "raw", name) for name, reply in replies.items()]
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
           "scratch_left": os.listdir(scratch), "replies": replies}
    listener.close()
    os.unlink(home_canary)
    os.unlink(canary)
    os.rmdir(canary_dir)
    os.rmdir(scratch)


def test_every_attempt_of_the_batch_reported(host):
    assert set(host["results"]) == set(host["replies"]) | {"oracle-after"}
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
