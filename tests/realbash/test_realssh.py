"""The private OpenSSH server: key-only, reachable only from inside the attempt, landing in the task directory."""

import os
import stat

import pytest

from qbcore.realbash import executor, realssh
from qbcore import suite
from qbcore.harness import transports

from sandboxing import need_real_ssh


@pytest.fixture(scope="module")
def server():
    need_real_ssh()
    with realssh.Server.create() as made:
        yield made
    assert not os.path.exists(made.keys.folder)


def test_private_keys_are_private(server):
    for name in ("host_key", "user_key"):
        mode = stat.S_IMODE(os.stat(os.path.join(server.keys.folder, name)).st_mode)
        assert mode == 0o600


def test_server_accepts_keys_only(server):
    config = open(os.path.join(server.keys.folder, "sshd_config")).read()
    assert "PasswordAuthentication no" in config and "KbdInteractiveAuthentication no" in config
    assert f"ListenAddress 127.0.0.1:{server.keys.port}" in config


def test_nothing_listens_on_the_host(server):
    import socket
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", server.keys.port)) != 0


def test_login_lands_in_the_task_directory_as_the_harness_user(server):
    task = suite.get("argv-passing/t0-plain")
    reply = "./record \"${PWD##*/}\" \"$USER\" \"${SSH_CONNECTION%% *}\""
    result = executor.run(task, transports.escape(reply, "ssh"), "ssh", real_ssh=True, ssh_server=server)
    assert result.class_ == "silent-wrong", result.reason
    assert f"'task\\x00{executor.LOGIN}\\x00127.0.0.1\\x00'" in result.reason


def test_stand_in_does_not_set_ssh_variables(server):
    task = suite.get("argv-passing/t0-plain")
    reply = "./record \"${SSH_CONNECTION-none}\""
    result = executor.run(task, transports.escape(reply, "ssh"), "ssh")
    assert "'none\\x00'" in result.reason
