"""`qbcore validate -t all --real-ssh` holds: the suite proves itself against real bash.

Every escaped oracle passes under every transport, the naive command passes
the 14 controls and none of the 42 hostile tasks under raw, and under the ssh
transports the stand-in ssh and a private OpenSSH server agree on every
oracle and naive outcome.
"""

from qbcore.cli import main

from sandboxing import need_real_ssh


def test_validate_all_transports_with_the_real_ssh_check(capsys):
    need_real_ssh()
    code = main(["validate", "-t", "all", "--real-ssh", "-j", "2"])
    out = capsys.readouterr().out
    assert "raw: naive: controls 14/14, hostile 0/42" in out
    for name in ("raw", "nested", "single", "double-nested", "ssh", "ssh-argv", "heredoc-ssh", "json-naive",
                 "json", "script", "stdin"):
        assert f"{name}: oracle: 56/56 passed" in out, out
    for name in ("ssh", "ssh-argv", "heredoc-ssh"):
        assert f"{name} (real server): oracle: 56/56 passed" in out
        assert f"{name}: stand-in vs real server: 112/112 outcomes agree" in out
    assert code == 0, out


def test_validate_rejects_an_unknown_transport(capsys):
    assert main(["validate", "-t", "telnet"]) == 2
    assert "unknown transport" in capsys.readouterr().err
