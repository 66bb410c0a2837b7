"""The sandbox's contract: what goes in, what comes back, limits, and refusing to run unsafely."""

import os
import socket
import stat

import pytest

from qbcore.realbash import sandbox
from qbcore.realbash.sandbox import Limits, SandboxUnavailable

from sandboxing import BASE_ENV, need_sandbox


@pytest.fixture(autouse=True)
def _sandbox_available():
    need_sandbox()


def run(script, workdir=None, **kw):
    return sandbox.run(["bash", "-c", script], workdir=workdir, env=dict(BASE_ENV, **kw.pop("env", {})), **kw)


def test_exit_status_and_output_come_back():
    done = run("echo out; echo err >&2; exit 7")
    assert (done.exit_code, done.stdout, done.stderr, done.timed_out) == (7, b"out\n", b"err\n", False)


def test_the_command_sees_exactly_the_given_environment():
    done = sandbox.run(["/usr/bin/env"], workdir=None, env={"PATH": "/usr/bin", "A": "x y", "E": ""})
    assert done.stdout.split(b"\n")[:-1] == [b"PATH=/usr/bin", b"A=x y", b"E="]


def test_stdin_bytes_reach_the_command():
    data = b"line\n" * 50000 + b"\xff\x00end"
    done = sandbox.run(["wc", "-c"], workdir=None, env=BASE_ENV, stdin=data)
    assert done.stdout.strip() == str(len(data)).encode()


def test_without_stdin_the_command_reads_end_of_file():
    assert run("cat; echo done").stdout == b"done\n"


def test_files_are_created_in_the_private_tmp(tmp_path):
    done = run("cat /tmp/qb/x.sh; ls -A /tmp/qb", files={"/tmp/qb/x.sh": b"echo hi\n"})
    assert done.stdout == b"echo hi\nx.sh\n"
    assert not os.path.exists("/tmp/qb/x.sh")


def test_files_outside_tmp_are_refused():
    with pytest.raises(ValueError, match="under /tmp"):
        run("true", files={"/etc/x": b""})
    with pytest.raises(ValueError, match="under /tmp"):
        run("true", files={"/tmp/../etc/x": b""})


def test_nul_in_an_argument_is_refused():
    with pytest.raises(ValueError, match="NUL"):
        sandbox.run(["echo", "a\0b"], workdir=None, env=BASE_ENV)


def test_workdir_round_trip_keeps_bytes_modes_links_and_fifos(tmp_path):
    (tmp_path / "secret").write_bytes(b"\x00\xffdata")
    (tmp_path / "secret").chmod(0o600)
    (tmp_path / "d").mkdir()
    done = run("cat secret >/dev/null && echo new > d/new && chmod 751 d/new && ln -s /etc/passwd link "
               "&& mkfifo pipe && rm secret && mkdir -p e/f && chmod 500 e", workdir=str(tmp_path))
    assert done.exit_code == 0, done.stderr
    assert (tmp_path / "d" / "new").read_bytes() == b"new\n"
    assert stat.S_IMODE((tmp_path / "d" / "new").stat().st_mode) == 0o751
    assert os.readlink(tmp_path / "link") == "/etc/passwd"
    assert stat.S_ISFIFO((tmp_path / "pipe").lstat().st_mode)
    assert not (tmp_path / "secret").exists()
    assert stat.S_IMODE((tmp_path / "e").stat().st_mode) == 0o500
    (tmp_path / "e").chmod(0o700)


def test_set_id_bits_never_reach_the_host(tmp_path):
    run("echo x > f && chmod 4755 f", workdir=str(tmp_path))
    assert stat.S_IMODE((tmp_path / "f").stat().st_mode) == 0o755


def test_nothing_is_written_through_a_returned_symlink(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    done = run(f"ln -s {outside} esc && mkdir real && echo x > real/file", workdir=str(work))
    assert done.exit_code == 0
    assert os.readlink(work / "esc") == str(outside)
    assert list(outside.iterdir()) == []


def test_output_is_capped_and_the_rest_is_drained():
    done = run("head -c 5000000 /dev/zero; echo tail >&2", limits=Limits(output_bytes=1000))
    assert len(done.stdout) == 1000 and done.stdout_truncated
    assert done.stderr == b"tail\n" and not done.stderr_truncated
    assert done.exit_code == 0


def test_wall_clock_timeout_ends_the_attempt():
    done = run("sleep 30", limits=Limits(wall_s=1.0))
    assert done.timed_out and done.exit_code is None
    assert done.duration_s < 5


def test_harness_waits_for_background_output_holders_like_a_reader_would():
    done = run("(sleep 0.3; echo late) & echo early")
    assert done.stdout == b"early\nlate\n"


def test_background_process_without_the_output_is_killed_at_the_end():
    done = run("sleep 30 >/dev/null 2>&1 & echo started", limits=Limits(wall_s=5))
    assert not done.timed_out and done.stdout == b"started\n" and done.duration_s < 4


def test_file_size_limit_applies():
    done = run("head -c 3000000 /dev/zero > big; echo $?", workdir=None, limits=Limits(file_size_bytes=1 << 20))
    assert done.stdout.strip() != b"0"


def test_task_directory_has_a_size_cap(tmp_path):
    done = run("head -c 20000000 /dev/zero > big; echo $?", workdir=str(tmp_path),
               limits=Limits(workdir_bytes=4 << 20))
    assert done.stdout.strip() != b"0"
    assert (tmp_path / "big").stat().st_size <= 4 << 20


def test_process_limit_applies():
    # xargs starts as many sleeps as the limit lets it; a glob counts the
    # processes without forking one more
    script = "seq 40 | xargs -P 40 -I{} sleep 2 & sleep 1; p=(/proc/[0-9]*); echo ${#p[@]}; kill %1"
    unlimited = run(script, limits=Limits(processes=200))
    limited = run(script, limits=Limits(processes=20))
    assert int(unlimited.stdout) > 40
    assert 5 < int(limited.stdout) <= 21


def test_no_network_but_loopback():
    # /sys is not there; the network namespace's devices are listed in the sandbox's own /proc
    done = run("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")
    assert done.stdout.split() == [b"lo"]


def test_own_pid_namespace():
    done = run("ps -e --no-headers | wc -l")
    assert int(done.stdout) < 10


def test_refuses_without_bubblewrap_and_says_how_to_proceed(monkeypatch):
    monkeypatch.setattr(sandbox, "_bwrap", lambda: None)
    with pytest.raises(SandboxUnavailable, match="unsafe-no-sandbox"):
        run("true")


def test_unsafe_mode_runs_without_bubblewrap(monkeypatch, tmp_path):
    monkeypatch.setattr(sandbox, "_bwrap", lambda: None)
    done = run("echo hi > f; cat /tmp/qbcore-test-unsafe", workdir=str(tmp_path), unsafe_no_sandbox=True,
               files={"/tmp/qbcore-test-unsafe": b"file\n"})
    assert (done.exit_code, done.stdout) == (0, b"file\n")
    assert (tmp_path / "f").read_bytes() == b"hi\n"
    assert not os.path.exists("/tmp/qbcore-test-unsafe")


def test_unsafe_mode_still_times_out(tmp_path):
    done = run("sleep 30", workdir=str(tmp_path), unsafe_no_sandbox=True, limits=Limits(wall_s=1.0))
    assert done.timed_out and done.duration_s < 5


def test_a_forged_result_is_not_trusted(tmp_path, monkeypatch):
    # pid 1 reports the exit status and the directory on its fd 3; whether or
    # not a reply can reach that pipe (it can when the sandbox runs as the
    # pipe's owner), what it writes there must never be taken as the result
    forge = "printf 'S 0\\n' > /proc/1/fd/3 2>/dev/null; printf 'S 0\\n' >&3 2>/dev/null; exit 4"
    done = run(forge, workdir=str(tmp_path))
    assert done.exit_code in (4, None) or done.state_lost
    assert done.exit_code != 0



def test_the_report_secret_is_out_of_reach_of_the_command(tmp_path):
    # the secret reaches pid 1 on its control pipe before the command starts;
    # neither its arguments, its environment nor that pipe give it away
    steal = ("secret=$(cat /proc/1/cmdline /proc/1/environ 2>/dev/null | tr '\\0' ' ';"
             " timeout 0.5 cat /proc/1/fd/4 2>/dev/null); for word in $secret; do "
             "printf 'S %s 0\\nD %s\\n' \"$word\" \"$word\" > /proc/1/fd/3; done 2>/dev/null; exit 4")
    done = run(steal, workdir=str(tmp_path))
    assert done.exit_code != 0


def test_sigpipe_and_sigxfsz_are_at_their_defaults():
    # Python ignores both; a shell started from it must not inherit that
    done = run("yes | head -c 1 >/dev/null; echo ${PIPESTATUS[0]}; trap -p")
    assert done.stdout.split(b"\n")[0] == b"141" and b"SIGPIPE" not in done.stdout


@pytest.mark.parametrize("unsafe", [False, True], ids=["sandboxed", "unsandboxed"])
def test_only_the_three_standard_descriptors_reach_the_command(unsafe):
    leaked = os.open(os.devnull, os.O_RDONLY)
    os.set_inheritable(leaked, True)
    try:
        done = run("cd /proc/self/fd && echo *", unsafe_no_sandbox=unsafe)
    finally:
        os.close(leaked)
    assert done.stdout.split()[:3] == [b"0", b"1", b"2"] and len(done.stdout.split()) <= 4


def test_descriptors_from_a_zygote_arrive_close_on_exec():
    """The host takes the attempt's pipes from a zygote close-on-exec: an inheritable one could
    reach a sandbox another thread starts between _spawn's listing and its spawn."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    sent = os.open(os.devnull, os.O_RDONLY)
    try:
        socket.send_fds(theirs, [b"x"], [sent])
        head, fds = sandbox._receive_fds(ours, 1, 5)
        assert head == b"x" and len(fds) == 1
        assert not os.get_inheritable(fds[0])
        os.close(fds[0])
    finally:
        os.close(sent)
        ours.close()
        theirs.close()


def test_the_limits_reach_the_command_exactly():
    limits = Limits(cpu_s=7, memory_bytes=700 << 20, file_size_bytes=3 << 20, open_files=77, processes=55)
    table = run("cat /proc/self/limits", limits=limits).stdout.decode()
    soft = {line[:26].strip(): line[26:].split()[0] for line in table.splitlines()[1:]}
    assert (soft["Max cpu time"], soft["Max address space"], soft["Max file size"], soft["Max open files"],
            soft["Max processes"]) == ("7", str(700 << 20), str(3 << 20), "77", "55")


def test_programs_run_but_their_folder_cannot_change():
    script = ("/tmp/qb/bin/hello; echo x > /tmp/qb/bin/hello || echo no-write; "
              "touch /tmp/qb/bin/git || echo no-add; /tmp/qb/bin/hello")
    done = run(script, programs={"/tmp/qb/bin/hello": b"#!/bin/sh\necho hello\n"})
    assert done.stdout == b"hello\nno-write\nno-add\nhello\n"


def test_a_sandbox_that_cannot_be_set_up_says_why():
    with pytest.raises(SandboxUnavailable, match="Can't find source path /nonexistent-qbcore"):
        run("true", ro_binds=["/nonexistent-qbcore"])
