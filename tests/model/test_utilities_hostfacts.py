"""date, whoami, hostname, uname, last, mktemp and which answer from the facts a run states; date's
formats against GNU date, hostname against the sandbox's, what mktemp makes against GNU mktemp,
what which finds against the machine's which."""

import datetime
import os
import re
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from qbcore.model.utilities.context import CommandContext
import sandboxing
from qbcore.model.utilities.hostfacts import Facts, date, hostname, last, stated, system_programs, uname, whoami
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


@pytest.mark.parametrize("argv", [["hostname"], ["hostname", "-s"], ["hostname", "--short"], ["uname"], ["uname", "-s"],
                                  ["uname", "-n"], ["uname", "-os"], ["uname", "-ons"],
                                  ["uname", "--kernel-name", "--operating-system"], ["uname", "-s", "--"]])
def test_the_machines_names_are_the_sandboxs(argv, tmp_path):
    sandboxing.need_sandbox()
    real = sandbox.run(argv, workdir=str(tmp_path), env=dict(sandboxing.BASE_ENV))
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                  programs=system_programs(), host=sandbox.HOSTNAME)
    found = _run({"hostname": hostname, "uname": uname}[argv[0]], argv, facts)
    assert (found.status, found.stdout, found.stderr) == (real.exit_code, real.stdout, real.stderr)
    assert not facts.read  # the same name on every run: a prediction need not run twice for it


@pytest.mark.parametrize("argv", [["uname", "-a"], ["uname", "-r"], ["uname", "-m"], ["uname", "x"],
                                  ["uname", "--all"], ["uname", "-n"]])
def test_uname_of_what_differs_between_machines_is_unknown(argv):
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                  programs=system_programs())  # the machine's name not stated
    assert _run(uname, argv, facts).unknown is not None


@pytest.mark.parametrize("flags", [[], ["-d"], ["--directory"], ["-q"]])
def test_mktemp_makes_what_gnu_mktemp_makes(flags):
    from qbcore.model.utilities.hostfacts import mktemp

    real = subprocess.run(["mktemp", *flags], capture_output=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    made = real.stdout.decode().strip()
    try:
        real_mode, real_dir = os.stat(made).st_mode & 0o7777, os.path.isdir(made)
    finally:
        (os.rmdir if os.path.isdir(made) else os.remove)(made)
    tree = VirtualTree.from_listing({"/tmp": None, "/task": None})
    ctx = CommandContext(["mktemp", *flags], b"", "/task", {}, tree)
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", temp="/tmp/tmp.AbC123")):
        found = mktemp(ctx)
        again = mktemp(CommandContext(["mktemp", *flags], b"", "/task", {}, tree))
    assert (found.status, real.returncode) == (0, 0) and found.stderr == real.stderr == b""
    assert re.fullmatch(rb"/tmp/tmp\.[A-Za-z0-9]{10}\n", real.stdout) and found.stdout == b"/tmp/tmp.AbC1230000\n"
    assert again.stdout == b"/tmp/tmp.AbC1230001\n"  # a name not taken yet
    assert (tree.mode("/tmp/tmp.AbC1230000"), tree.is_dir("/tmp/tmp.AbC1230000")) == (real_mode, real_dir)


TEMPLATES = [["out.XXXXXX"], ["-p", "."], ["-p", ".", "x.XXX"], ["--tmpdir=."], ["./a.XXXXXXXX"], ["-d", "d.XXX"],
             ["x.XXX.txt"], ["sub/y.XXXX"], ["-p", "sub", "z.XXX"], ["-d", "-p", "sub"], ["XXX"], ["a b.XXX"],
             ["XXXXXXXXXX"], ["-p", "/tmp", "t.XXXXX"], ["--tmpdir", "w.XXX"], ["-p", "", "e.XXX"],
             # its messages, and -q's silence
             ["out.XX"], ["out"], ["nope/x.XXX"], ["-q", "nope/x.XXX"], ["-p", "nope"], ["-d", "nope/d.XXX"],
             ["-p", ".", "/abs.XXX"], ["f/x.XXX"]]


# TMPDIR in mktemp's environment: the folder when there is no template, or under a bare
# --tmpdir or an empty -p; -p DIR and a template alone pass it by
WITH_TMPDIR = [([], "."), ([], "sub"), ([], "sub/"), ([], "./"), ([], ""), ([], "nope"), (["-d"], "sub"),
               (["x.XXX"], "sub"), (["--tmpdir", "w.XXX"], "sub"), (["-p", "", "e.XXX"], "."),
               (["-p", "sub"], "."), (["--tmpdir=sub//", "v.XXXX"], "."), (["-q"], "f")]


def _random_part(args, tmpdir) -> re.Pattern:
    """The name GNU mktemp gives for ``args`` under ``tmpdir``: the template's run of X's (before
    what follows its last X) any ten characters of the alphabet, after DIR/ under -p."""
    names = [a for a in args if not a.startswith("-") and a not in ("nope", ".", "sub", "/tmp", "")]
    template = names[0] if names else "tmp.XXXXXXXXXX"
    where = next((a[len("--tmpdir="):] for a in args if a.startswith("--tmpdir=")), None)
    if "-p" in args:
        where = args[args.index("-p") + 1]
    if not where and (not names or "--tmpdir" in args or where is not None):
        where = tmpdir or "/tmp"
    end = template.rfind("X") + 1
    count = end - len(template[:end].rstrip("X"))
    lead = f"{where.rstrip('/')}/" if where else ""
    return re.compile(re.escape(lead + template[:end - count]) + f"[A-Za-z0-9]{{{count}}}" + re.escape(template[end:]))


@pytest.mark.parametrize("args, tmpdir", [(args, None) for args in TEMPLATES] + WITH_TMPDIR,
                         ids=lambda value: " ".join(value) if isinstance(value, list) else f"TMPDIR={value}")
def test_mktemp_with_a_template_or_folder_makes_what_gnu_mktemp_makes(args, tmpdir, tmp_path):
    from qbcore.model.utilities.hostfacts import mktemp

    (tmp_path / "sub").mkdir()
    (tmp_path / "f").write_text("x")
    env = {"LC_ALL": "C", "PATH": "/usr/bin:/bin"}
    if tmpdir is not None:
        env["TMPDIR"] = tmpdir
    real = subprocess.run(["mktemp", *args], cwd=tmp_path, capture_output=True, env=env)
    tree = VirtualTree.from_listing({"/tmp": None, "/task": None, "/task/sub": None, "/task/f": b"x"})
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", temp="/tmp/tmp.AbC123")):
        found = mktemp(CommandContext(["mktemp", *args], b"", "/task", {} if tmpdir is None else {"TMPDIR": tmpdir},
                                      tree))
    assert found.unknown is None
    assert (found.status, found.stderr) == (real.returncode, real.stderr)
    made = real.stdout.decode().strip()
    if not made:
        assert found.stdout == b""
        return
    try:
        shape = _random_part(args, tmpdir)
        assert shape.fullmatch(made) and shape.fullmatch(found.stdout.decode().strip()), (made, found.stdout)
        where = made if made.startswith("/") else str(tmp_path / made)
        virtual = found.stdout.decode().strip()
        virtual = virtual if virtual.startswith("/") else f"/task/{virtual}"
        assert (tree.mode(virtual), tree.is_dir(virtual)) == (os.stat(where).st_mode & 0o7777, os.path.isdir(where))
    finally:
        if made.startswith("/"):
            (os.rmdir if os.path.isdir(made) else os.remove)(made)


@pytest.mark.parametrize("argv, env", [(["mktemp", "-u"], {}), (["mktemp", "-t", "x.XXX"], {}),
                                       (["mktemp"], {"TMPDIR": "/"}),
                                       (["mktemp", "-p", "/"], {}), (["mktemp", "x" + "X" * 11], {}),
                                       (["mktemp", "a", "b"], {}), (["mktemp", "--suffix=.t", "x.XXX"], {})])
def test_mktemp_the_model_does_not_follow_is_unknown(argv, env):
    from qbcore.model.utilities.hostfacts import mktemp

    ctx = CommandContext(argv, b"", "/task", env, VirtualTree.from_listing({"/tmp": None, "/task": None}))
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", temp="/tmp/tmp.AbC123")):
        assert mktemp(ctx).unknown is not None
    assert mktemp(CommandContext(["mktemp"], b"", "/task", {}, VirtualTree.from_listing({"/tmp": None}))).unknown


_SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@pytest.mark.parametrize("argv, path", [
    (["which", "ls", "sed"], _SYSTEM_PATH), (["which", "-a", "printf", "nosuch"], _SYSTEM_PATH),
    (["which"], _SYSTEM_PATH), (["which", "--", "bash"], "/usr/bin:/bin:"), (["which", "-aa", "cat"], "/bin:/usr/bin"),
    (["which", "nosuch"], "/usr/bin"),
])
def test_which_finds_what_the_machines_which_finds(argv, path):
    """debianutils which, run with the same PATH: its output and status."""
    from qbcore.model.utilities.hostfacts import which

    ctx = CommandContext(argv, b"", "/task", {"PATH": path}, VirtualTree.from_listing({"/task": None}))
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                      programs=system_programs())):
        found = which(ctx)
    real = subprocess.run(argv, capture_output=True, env={"PATH": path}, cwd="/", timeout=20)
    assert found.unknown is None
    assert (found.status, found.stdout, found.stderr) == (real.returncode, real.stdout, real.stderr)


@pytest.mark.parametrize("argv, path", [
    (["which", "./x"], _SYSTEM_PATH), (["which", "-s", "ls"], _SYSTEM_PATH), (["which", "ls"], "bin:/usr/bin"),
    (["which", "ls"], "/opt/elsewhere:/usr/bin"), (["which", "-a", "cat"], "/bin::/usr/bin"),
])
def test_which_the_model_does_not_follow_is_unknown(argv, path):
    from qbcore.model.utilities.hostfacts import which

    ctx = CommandContext(argv, b"", "/task", {"PATH": path}, VirtualTree.from_listing({"/task": None}))
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                      programs=system_programs())):
        assert which(ctx).unknown is not None
