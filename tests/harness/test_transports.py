"""The transports table, wrap and escape: shapes, errors, and end-to-end runs with real bash."""

import json
import os
import shlex
import shutil
import subprocess

import pytest

from qbcore.harness import transports
from qbcore.harness.transports import (HOST, SCRIPT_PATH, TRANSPORTS, ContractError, Invocation, SplitError,
                               escape, wrap)

NAMES = ["raw", "nested", "single", "double-nested", "ssh", "ssh-argv", "heredoc-ssh",
         "json-naive", "json", "script", "stdin"]
BASH = shutil.which("bash")


def test_the_table_holds_exactly_the_design_names_in_order():
    assert list(TRANSPORTS) == NAMES
    assert all(TRANSPORTS[n].name == n for n in NAMES)


def test_transport_data_says_who_parses_the_outer_layer():
    assert TRANSPORTS["raw"].outer == "none"
    assert TRANSPORTS["nested"].outer == "bash"
    assert TRANSPORTS["double-nested"].outer == "bash-twice"
    assert TRANSPORTS["ssh-argv"].outer == "shlex"
    assert TRANSPORTS["json-naive"].outer == "json"
    assert [n for n in NAMES if TRANSPORTS[n].remote] == ["ssh", "ssh-argv", "heredoc-ssh"]
    assert [n for n in NAMES if TRANSPORTS[n].inner == "stdin"] == ["heredoc-ssh", "stdin"]


@pytest.mark.parametrize("name, argv", [
    ("raw", ("bash", "-c", "echo 'a b'")),
    ("json", ("bash", "-c", "echo 'a b'")),
    ("nested", ("bash", "-c", "bash -c \"echo 'a b'\"")),
    ("single", ("bash", "-c", "bash -c 'echo 'a b''")),
    ("double-nested", ("bash", "-c", "bash -c \"bash -c \\\"echo 'a b'\\\"\"")),
    ("ssh", ("bash", "-c", f"ssh {HOST} \"echo 'a b'\"")),
    ("ssh-argv", ("ssh", HOST, "echo", "a b")),
    ("heredoc-ssh", ("bash", "-c", f"ssh {HOST} bash <<EOF\necho 'a b'\nEOF\n")),
    ("json-naive", ("bash", "-c", "echo 'a b'")),
])
def test_wrap_builds_the_argv_the_harness_executes(name, argv):
    assert wrap("echo 'a b'", name) == Invocation(argv)


def test_wrap_script_writes_the_reply_to_a_file_under_tmp():
    inv = wrap("echo hi\n", "script")
    assert inv.argv == ("bash", SCRIPT_PATH)
    assert dict(inv.files) == {SCRIPT_PATH: b"echo hi\n"}
    assert SCRIPT_PATH.startswith("/tmp/")
    assert inv.stdin is None


def test_wrap_stdin_pipes_the_reply_and_a_final_newline_to_bash_s():
    inv = wrap("echo é", "stdin")
    assert inv.argv == ("bash", "-s")
    assert inv.stdin == "echo é\n".encode()


def test_json_naive_keeps_the_last_duplicate_key_and_decodes_escapes():
    assert wrap('a", "command": "b', "json-naive").argv == ("bash", "-c", "b")
    assert wrap("a\\/b\\u00e9\\n", "json-naive").argv == ("bash", "-c", "a/bé\n")


@pytest.mark.parametrize("reply, reason", [
    ("echo \"hi\"", "invalid"),
    ("a\nb", "invalid"),            # raw control characters are not JSON
    ("a\tb", "invalid"),
    ("\\x", "invalid"),
    ('", "command": 5, "x": "', "not a string"),
    ('a", "command": null, "x": "', "not a string"),
    ('a"} [1', "invalid"),
    ("\\u0000", "NUL"),
    ("\\ud800", "surrogate"),
])
def test_json_naive_contract_errors_say_why(reply, reason):
    with pytest.raises(ContractError, match=reason):
        wrap(reply, "json-naive")


def test_ssh_argv_splits_like_shlex_and_reports_unbalanced_quotes():
    assert wrap('a "b\\$c" #d e;f', "ssh-argv").argv == ("ssh", HOST, "a", "b\\$c", "#d", "e;f")
    with pytest.raises(SplitError, match="No closing quotation"):
        wrap("echo 'it", "ssh-argv")


def test_harness_errors_are_value_errors_for_callers_that_catch_broadly():
    assert issubclass(ContractError, ValueError) and issubclass(SplitError, ValueError)


@pytest.mark.parametrize("name", NAMES)
def test_nul_has_no_payload_and_the_error_says_so(name):
    with pytest.raises(ValueError, match="NUL"):
        escape("a\0b", name)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_transport_and_wrong_types_are_clear_errors(name):
    with pytest.raises(ValueError, match="unknown transport 'nope'.*raw"):
        wrap("x", "nope")
    with pytest.raises(ValueError, match="unknown transport"):
        escape("x", "nope")
    with pytest.raises(TypeError, match="str"):
        escape(b"x", name)


def test_escape_examples():
    assert escape("a\"$`\\b", "nested") == "a\\\"\\$\\`\\\\b"
    assert escape("it's", "single") == "it'\\''s"
    assert escape("-la", "ssh") == '--" "-la'
    assert escape("-la", "ssh-argv") == "-- -la"
    assert escape("a\nEOF\nb", "heredoc-ssh") == "a\nEO$()F\nb"
    assert escape('a"\n', "json-naive") == 'a\\"\\n'
    assert escape("x", "raw") == escape("x", "stdin") == escape("x", "script") == "x"


def test_ssh_argv_escape_survives_shlex_and_the_join():
    for reply in ["", "-", "a  b", "'\"\\", "x\ny", "é ; #"]:
        words = shlex.split(escape(reply, "ssh-argv"))
        if words and words[0] == "--":
            words = words[1:]
        assert " ".join(words) == reply


def test_json_naive_escape_is_what_a_strict_parser_reads_back():
    for reply in ["", "a\"b", "\\", "\n\t\x01\x7f", "é\u2028", "\udcff"]:
        assert json.loads('{"command": "' + escape(reply, "json-naive") + '"}')["command"] == reply


def test_standin_ssh_ships_with_the_package_and_is_executable():
    path = transports.standin("ssh")
    assert os.access(path, os.X_OK)
    assert os.path.dirname(path) == transports.standins_dir()
    with pytest.raises(ValueError):
        transports.standin("nope")


# --- end to end with real bash and the stand-in ssh -----------------------

HOSTILE = ["it's", 'say "hi"', "$HOME `x` \\", "a\\\nb", "*.txt {a,b} ~", "a;b|c&d>e<f(g)h#i!j=k",
           "tab\there", "é ✓ 𝄞", "EOF", "trail\\", "\n\nlead", "-n", "'\"'\"'", "!!", ""]


def _run(inv: Invocation, cwd, env):
    for path, data in inv.files.items():
        # never the real /tmp name in a test: two runs would race on it
        local = os.path.join(cwd, os.path.basename(path))
        with open(local, "wb") as handle:
            handle.write(data)
        inv = Invocation(tuple(local if a == path else a for a in inv.argv), inv.stdin)
    return subprocess.run(inv.argv, input=inv.stdin or b"", cwd=cwd, env=env,
                          capture_output=True, timeout=20)


@pytest.mark.bash
@pytest.mark.parametrize("name", NAMES)
def test_escaped_payload_prints_the_payload_through_real_bash(name, tmp_path):
    # the inner shell runs printf with the hostile text in single quotes;
    # whatever the transport does on the way, the bytes printed must not change
    env = {"PATH": f"{transports.standins_dir()}:/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C",
           "HOME": str(tmp_path)}
    for text in HOSTILE:
        reply = "printf '%s' " + shlex.quote(text)
        result = _run(wrap(escape(reply, name), name), tmp_path, env)
        assert (result.returncode, result.stdout.decode()) == (0, text), (name, text, result.stderr)


@pytest.mark.bash
def test_standin_ssh_joins_arguments_with_single_spaces_and_runs_them(tmp_path):
    (tmp_path / "remote").mkdir()
    env = {"PATH": "/usr/bin:/bin", "QBCORE_REMOTE_DIR": str(tmp_path / "remote")}
    ssh = transports.standin("ssh")
    out = subprocess.run([ssh, "-o", "BatchMode=yes", HOST, "printf '[%s]'", "a  b", "; pwd; echo ${QBCORE_REMOTE_DIR-unset}"],
                         env=env, capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout == f"[a][b]{tmp_path / 'remote'}\nunset\n"


@pytest.mark.bash
@pytest.mark.parametrize("argv, status, stdout, stderr", [
    (["-V"], 0, "", "OpenSSH"),
    ([HOST, "-x", "echo", "hi"], 0, "hi\n", ""),            # options after the destination too
    ([HOST, "-x y"], 255, "", "unknown option -- "),       # as OpenSSH reads a leading dash
    ([HOST, "--", "-x y"], 1, "", ""),                     # `--` makes it a command (bash -c -x ...)
    (["-p"], 255, "", "requires an argument"),
    ([], 255, "", "usage"),
    (["-N", HOST, "echo", "hi"], 0, "", ""),
])
def test_standin_ssh_reads_options_as_openssh_does(argv, status, stdout, stderr, tmp_path):
    out = subprocess.run([transports.standin("ssh"), *argv], env={"PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert out.returncode == status or (status == 1 and out.returncode != 0)
    assert out.stdout == stdout
    assert stderr in out.stderr


@pytest.mark.bash
def test_standin_ssh_without_a_command_runs_a_shell_on_stdin(tmp_path):
    ssh = transports.standin("ssh")
    out = subprocess.run([ssh, HOST], input="echo from-stdin\n", env={"PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout == "from-stdin\n"
    out = subprocess.run([ssh, "-n", HOST, "cat"], input="lost\n", env={"PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout == ""
