"""The probe records what the inner shell really receives; these pin it to known bash behaviour."""

import os

import pytest

from qbcore.realbash import probe as probe_module
from qbcore.realbash.probe import ProbeError, base_environ, probe, probe_many
from qbcore.harness.transports import HOST, SCRIPT_PATH
from qbcore.model.commandenv import COMMAND_PATH

from sandboxing import need_sandbox

pytestmark = pytest.mark.bash


@pytest.fixture(scope="module")
def sandboxed():
    need_sandbox()
    return {}


def test_a_closing_double_quote_hands_the_rest_to_the_outer_shell(sandboxed):
    got = probe('echo "a b" x', "nested")
    assert (got.inner_script, got.inner_args) == ("echo a", ["b x"])
    assert got.exit_code == 0 and got.sandboxed


def test_dollar_at_in_the_outer_quotes_and_leaked_commands_are_recorded_in_order(sandboxed):
    got = probe('x"; echo leaked; bash -c "y', "nested")
    assert [r.argv for r in got.received] == [("-c", "x"), ("-c", "y")]
    assert got.stdout == b"leaked\n"


def test_the_outer_environment_is_the_executors_with_the_probe_bin_first(sandboxed):
    got = probe("echo $HOME $PATH $LC_ALL $TERM $GIT_CONFIG_NOSYSTEM $0 $_", "nested")
    bin_dir = got.environ["PATH"].split(":")[0]
    assert got.environ == base_environ(got.cwd, bin_dir)
    assert got.inner_script == (f"echo {got.cwd} {bin_dir}:{COMMAND_PATH} C dumb 1 bash bash")


def test_double_nested_lets_the_middle_shell_run_and_records_the_innermost(sandboxed):
    # \$ survives the outer layer and is expanded by the middle one; SHLVL stays 1
    # because bash -c execs a lone simple command, and `_` is bash's full path
    got = probe("echo \\$SHLVL \\$_ \\$0 $SHLVL", "double-nested")
    assert got.inner_script == "echo 1 /usr/bin/bash bash 1"
    assert len(got.received) == 1


def test_ssh_goes_through_the_standin_which_joins_with_single_spaces(sandboxed):
    got = probe("echo\" a  b \"$HOME  'c  d'", "ssh")
    assert got.inner_script == f"echo a b {got.cwd}  'c  d'"
    assert got.received[0].cwd == got.cwd


def test_ssh_argv_joins_shlex_words_and_reports_split_errors(sandboxed):
    assert probe('a "b  c" \\$x', "ssh-argv").inner_script == "a b  c $x"
    failed = probe("echo 'it", "ssh-argv")
    assert failed.harness_error.startswith("shlex.split") and failed.received == ()
    assert failed.inner_script is None


def test_heredoc_ssh_delivers_the_expanded_body_with_its_final_newline(sandboxed):
    got = probe('echo \\"x\\" \\$y \\a $HOME `echo hi`\nEO$()F\nlast', "heredoc-ssh")
    assert got.inner_script == f'echo \\"x\\" $y \\a {got.cwd} hi\nEOF\nlast\n'
    assert got.received[0].argv == ("-c", "bash")
    early = probe("one\nEOF\ntwo", "heredoc-ssh")
    assert early.inner_script == "one\n"
    assert b"two: command not found" in early.stderr


def test_json_naive_contract_errors_run_nothing(sandboxed):
    got = probe('echo "hi"', "json-naive")
    assert got.harness_error and got.exit_code is None and got.received == ()
    assert probe('a", "command": "b', "json-naive").inner_script == "b"


def test_script_and_stdin_transports(sandboxed):
    got = probe("echo $0", "script")
    assert got.inner_script == "echo $0" and got.received[0].argv == (SCRIPT_PATH,)
    got = probe("read x\necho $x", "stdin")
    assert got.inner_script == "read x\necho $x\n" and got.received[0].argv == ("-s",)


def test_the_fixture_is_the_outer_shells_working_directory(sandboxed):
    # words that fall out of the quotes are globbed by the outer shell
    got = probe('" *.txt .h* nomatch* "', "nested", fixture={"a.txt": b"", "b.txt": b"", ".h.txt": b""})
    assert (got.inner_script, got.inner_args) == ("", ["a.txt", "b.txt", ".h.txt", "nomatch*", ""])
    with pytest.raises(ValueError, match="leaves the working directory"):
        probe("x", "nested", fixture={"../x": b""})


def test_a_hanging_outer_command_times_out_and_the_batch_goes_on(sandboxed):
    slow, fast = probe_many([('"; sleep 30; "', "nested"), ("echo ok", "nested")], timeout=1, workers=1)
    assert slow.timed_out and slow.exit_code is None
    assert not fast.timed_out and fast.inner_script == "echo ok"


def test_results_keep_the_order_of_the_items_across_parallel_batches(sandboxed):
    items = [(f"echo {i}", "single" if i % 2 else "raw") for i in range(40)]
    got = probe_many(items, workers=2)
    assert [g.inner_script for g in got] == [f"echo {i}" for i in range(40)]
    assert [g.transport for g in got] == [t for _, t in items]


def test_without_a_sandbox_the_probe_refuses_unless_told_otherwise(monkeypatch, tmp_path):
    monkeypatch.setattr(probe_module, "_sandbox_module", lambda: None)
    with pytest.raises(ProbeError, match="unsafe_no_sandbox"):
        probe("echo hi", "raw")
    got = probe("echo $0", "script", unsafe_no_sandbox=True)
    assert got.inner_script == "echo $0" and not got.sandboxed
    assert got.received[0].argv[0] != SCRIPT_PATH  # a private copy: /tmp is shared here


def test_unknown_transport_and_nul_are_errors_before_anything_runs():
    with pytest.raises(ValueError, match="unknown transport"):
        probe("x", "telnet")
    with pytest.raises(ValueError, match="NUL"):
        probe("a\0b", "raw")


def test_host_name_reaches_the_standin_as_the_destination(sandboxed):
    # the recorder sees what ssh's remote shell gets; the destination is not part of it
    got = probe(HOST, "ssh")
    assert got.inner_script == HOST


def test_a_reply_that_swaps_the_work_directory_for_a_link_copies_back_nothing_of_the_host(sandboxed, tmp_path):
    # the batch's final directory comes back into the host's work directory: it is
    # read from inside the sandbox by descriptor, so a link to a host folder is a link
    hostdir = tmp_path / "host"
    hostdir.mkdir()
    (hostdir / "host-only-file").write_text("host secret\n")
    root = tmp_path / "probes"
    root.mkdir()
    # the inner shell is the recorder: the swap leaks into the outer shell, which runs for real
    reply = (f'x"; d=$(dirname "$PWD"); cd /; mv "$d" /tmp/moved && mkdir "$d" && ln -s {hostdir} "$d/w"; '
             f'echo done; bash -c "y')
    try:
        got = probe(reply, "nested", root=str(root))
        assert got.stdout.endswith(b"done\n")
    except ProbeError as exc:
        # the batch driver cannot restore a work directory that is now a link, and says so
        assert "probe batch failed" in str(exc)
    copied = [name for _, _, files in os.walk(root) for name in files]
    assert "host-only-file" not in copied
    assert sorted(os.listdir(hostdir)) == ["host-only-file"]
