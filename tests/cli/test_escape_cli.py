"""``qbcore escape``: prints exactly the payload, reads the reply three ways, fails clearly."""

import subprocess
import sys

import pytest

from qbcore.harness.transports import NAMES, escape

HOSTILE = "echo \"it's\" $HOME `id` \\ *\nEOF\n-é"


def qbcore(*args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "qbcore", "escape", *args], input=stdin,
                          capture_output=True, timeout=60)


@pytest.mark.parametrize("transport", NAMES)
def test_prints_the_payload_byte_for_byte_without_a_newline(transport):
    done = qbcore("-t", transport, "--", HOSTILE)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == escape(HOSTILE, transport).encode()


def test_reads_the_reply_from_a_file_or_stdin_with_its_bytes(tmp_path):
    path = tmp_path / "reply"
    path.write_bytes(b"a'b\n\xff")  # invalid UTF-8 survives as the same byte
    from_file = qbcore("-t", "single", "--file", str(path))
    from_stdin = qbcore("-t", "single", "-", stdin=path.read_bytes())
    assert from_file.stdout == from_stdin.stdout == b"a'\\''b\n\xff"


@pytest.mark.bash
def test_the_printed_payload_runs_through_the_transport_as_the_reply(tmp_path):
    payload = qbcore("-t", "nested", "--", "printf '%s' \"$0 it's\"").stdout.decode()
    done = subprocess.run(["bash", "-c", f'bash -c "{payload}"'], capture_output=True, cwd=tmp_path)
    assert done.stdout == b"bash it's"


@pytest.mark.parametrize("args, stdin, message", [
    (("-t", "raw", "-"), b"a\0b", b"NUL character"),
    (("-t", "raw", "--file", "/nonexistent/reply"), b"", b"cannot read /nonexistent/reply"),
    (("-t", "telnet", "--", "x"), b"", b"invalid choice"),
    (("-t", "raw"), b"", b"give exactly one of"),
    (("--", "x"), b"", b"required: -t"),
])
def test_bad_input_exits_2_with_a_message_and_no_traceback(args, stdin, message):
    done = qbcore(*args, stdin=stdin)
    assert done.returncode == 2
    assert message in done.stderr and b"Traceback" not in done.stderr
    assert done.stdout == b""
