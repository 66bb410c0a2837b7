"""date, whoami, hostname and last answer from the facts a run states; date's formats against GNU date,
hostname against the sandbox's."""

import datetime
import os
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from qbcore.model.utilities.context import CommandContext
import sandboxing
from qbcore.model.utilities.hostfacts import Facts, date, hostname, last, stated, system_programs, whoami
from qbcore.realbash import sandbox
from qbcore.model.utilities.vfs import VirtualTree

DIRECTIVES = "YmdeHMSyaAbBhjZzsuwpIFTDRc%nt"


def _run(model, argv, facts=None, env=None):
    ctx = CommandContext(argv, b"", "/task", env or {}, VirtualTree.from_listing({"/task": None}))
    if facts is None:
        return model(ctx)
    with stated(facts):
        return model(ctx)


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 4_102_444_800), st.lists(st.sampled_from(list(DIRECTIVES) + ["-", ":", " "]), max_size=6))
def test_date_formats_agree_with_gnu_date(stamp, pieces):
    fmt = "".join(p if len(p) > 1 or not p.isalpha() and p != "%" else "%" + p for p in pieces)
    now = datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc)
    real = subprocess.run(["date", "-u", "-d", f"@{stamp}", "+" + fmt], capture_output=True,
                          env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    model = _run(date, ["date", "+" + fmt], Facts(now, "qbuser"))
    if model.unknown is not None:
        assert "%-" in fmt.replace("%%", "")  # a flag: not modelled
        return
    assert (model.status, model.stdout) == (real.returncode, real.stdout), fmt


def test_date_without_a_format_is_gnu_dates_default():
    now = datetime.datetime(2031, 12, 31, 23, 59, 58, tzinfo=datetime.timezone.utc)
    real = subprocess.run(["date", "-u", "-d", "@" + str(int(now.timestamp()))], capture_output=True,
                          env={"LC_ALL": "C", "PATH": "/usr/bin:/bin", "TZ": "UTC"})
    assert _run(date, ["date"], Facts(now, "qbuser")).stdout == real.stdout


def test_the_facts_read_are_recorded():
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser")
    assert _run(whoami, ["whoami"], facts).stdout == b"qbuser\n"
    assert facts.read == {"the user's name"}


@pytest.mark.parametrize("model, argv", [(date, ["date"]), (whoami, ["whoami"]), (last, ["last"]),
                                         (hostname, ["hostname"])])
def test_without_facts_the_commands_are_unknown(model, argv):
    assert _run(model, argv).unknown is not None


@pytest.mark.skipif(not os.path.exists("/usr/bin/last"), reason="last is not installed here")
def test_last_without_login_records_fails_as_in_the_sandbox():
    found = _run(last, ["last", "part"], Facts(datetime.datetime.now(datetime.timezone.utc), "qbuser",
                                               programs=system_programs()))
    assert (found.status, found.stderr) == (1, b"last: cannot open /var/log/wtmp: No such file or directory\n")


@pytest.mark.parametrize("argv, env", [(["date", "-d", "tomorrow"], {}), (["date", "+%-d"], {}),
                                       (["date"], {"TZ": "Europe/Paris"}), (["whoami", "-x"], {}),
                                       (["last", "-f", "x"], {}), (["hostname", "-f"], {}),
                                       (["hostname", "other"], {}), (["hostname", "-s", "-s"], {}),
                                       (["hostname"], {})])  # facts that do not state the name
def test_what_is_not_modelled_is_unknown(argv, env):
    model = {"date": date, "whoami": whoami, "last": last, "hostname": hostname}[argv[0]]
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser")
    assert _run(model, argv, facts, env).unknown is not None


@pytest.mark.parametrize("argv", [["hostname"], ["hostname", "-s"], ["hostname", "--short"]])
def test_hostname_prints_the_sandboxs_name(argv, tmp_path):
    sandboxing.need_sandbox()
    real = sandbox.run(argv, workdir=str(tmp_path), env=dict(sandboxing.BASE_ENV))
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                  programs=system_programs(), host=sandbox.HOSTNAME)
    found = _run(hostname, argv, facts)
    assert (found.status, found.stdout, found.stderr) == (real.exit_code, real.stdout, real.stderr)
    assert not facts.read  # the same name on every run: a prediction need not run twice for it
