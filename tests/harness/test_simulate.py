"""simulate on hand-picked cases: each pins one behaviour, with real bash as the referee."""

import pytest

from qbcore.realbash.probe import probe
from qbcore.harness.simulate import simulate

from sandboxing import need_sandbox

pytestmark = pytest.mark.bash


@pytest.fixture(scope="module")
def sandboxed():
    need_sandbox()


def check(reply, transport, tmp_path, fixture=None):
    """The simulation of ``reply``, after checking it against the probe byte for byte."""
    got = probe(reply, transport, root=str(tmp_path), fixture=fixture)
    sim = simulate(reply, transport, cwd=got.cwd, environ=got.environ, listing=list(fixture or ()))
    assert sim.exact, sim.opaque
    assert (sim.inner_script, sim.inner_args, sim.inner_starts) == (
        got.inner_script, got.inner_args, len(got.received)), got.stderr
    return sim


@pytest.mark.parametrize("reply, transport, script, args", [
    ('echo "a b" x', "nested", "echo a", ["b x"]),
    ("echo \"it's\"", "single", None, []),
    ("echo 'a' \\$x", "double-nested", "echo 'a' ", []),
    ("echo \\$0 \\$SHLVL", "double-nested", "echo bash 1", []),
    ('echo "x  y" \'$q\'', "ssh", "echo x y ''", []),
    ('echo "x  y" \'$q\'', "ssh-argv", "echo x  y $q", []),
    ("cat <<X\n$x \\$y `echo z`\nX", "heredoc-ssh", "cat <<X\n $y z\nX\n", []),
    ('a", "command": "echo b', "json-naive", "echo b", []),
    ("echo $0", "script", "echo $0", []),
    ("read x\necho $x", "stdin", "read x\necho $x\n", []),
])
def test_inner_script_and_args_agree_with_bash(reply, transport, script, args, tmp_path, sandboxed):
    sim = check(reply, transport, tmp_path)
    assert (sim.inner_script, sim.inner_args) == (script, args)


def test_home_is_the_working_directory_by_default(tmp_path):
    sim = simulate('echo "$HOME" ~', "nested", cwd=str(tmp_path))
    assert sim.inner_script == f"echo {tmp_path} ~" and sim.exact  # the outer quotes keep ~


def test_leaked_commands_files_and_client_side_substitutions_are_outer_effects(tmp_path, sandboxed):
    reply = 'x"; echo leaked > f; bash -c "y $(echo sub)'
    got = probe(reply, "nested", root=str(tmp_path))
    sim = simulate(reply, "nested", cwd=got.cwd, environ=got.environ, listing=[])
    assert (sim.inner_script, sim.inner_args, sim.inner_starts) == (got.inner_script, got.inner_args, 2)
    kinds = [(e.kind, e.argv or e.path or e.text) for e in sim.outer_effects]
    assert ("command", ("echo", "leaked")) in kinds
    assert ("command", ("bash", "-c", "y sub")) in kinds
    assert ("substitution", "$(echo sub)") in kinds
    assert any(k == "file" and str(v).endswith("/f") for k, v in kinds)
    # the inner shell ran `x` first, which may have changed the files: `> f` may fail
    assert sim.opaque == ['whether f can be opened (the files after `bash -c "x"`)', "whether `echo leaked > f` runs"]


def test_unknown_parts_are_named_and_exactness_is_not_claimed():
    sim = simulate('echo "$RANDOM $(date)" $$', "nested", cwd="/nonexistent/dir")
    assert not sim.exact
    assert "$RANDOM" in sim.opaque and "$(date)" in sim.opaque


def test_a_glob_against_a_directory_that_is_not_there_is_opaque():
    sim = simulate('" *.txt "', "nested", cwd="/nonexistent/dir")
    assert not sim.exact


def test_a_glob_in_the_outer_shell_uses_the_real_listing(tmp_path, sandboxed):
    sim = check('" *.txt .h* "', "nested", tmp_path, fixture={"a.txt": b"", ".h": b""})
    assert sim.inner_args == ["a.txt", ".h", ""]


@pytest.mark.parametrize("reply, transport, script, args, starts", [
    # $? is the status of the command substitution that just ended
    ("`{b}<b`$?", "nested", "1", [], 1),
    (";`{${y$!{a,b}<é$#b`EOFy||$?$#<$_é$#||$#$", "nested", ";EOFy||10<bashé0||0$", [], 1),
    ("$(exit 3)$? $(false)", "double-nested", "3 ", [], 1),
    # a redirection that fails keeps the harness from starting
    ('" <nonexist "', "nested", None, [], 0),
    ('" >nodir/x "', "nested", None, [], 0),
    ('" >. "', "nested", None, [], 0),
    ('" <>. "', "double-nested", None, [], 0),
    ("$(true <nonexist)$?", "nested", "1", [], 1),
    ("$(<nonexist)$?", "heredoc-ssh", "1\n", [], 1),
    # files the outer shell made are there for its globs
    ('"$(: >a; : >b) * "', "nested", "", ["a", "b", ""], 1),
])
def test_outer_statuses_failing_redirections_and_made_files(reply, transport, script, args, starts, tmp_path,
                                                           sandboxed):
    sim = check(reply, transport, tmp_path)
    assert (sim.inner_script, sim.inner_args, sim.inner_starts) == (script, args, starts)


@pytest.mark.parametrize("reply, args", [
    ('" >made * "', ["old", ""]),  # words are expanded before redirections are performed
    ('"$(: >made) * "', ["made", "old", ""]),
])
def test_globs_see_the_fixture_and_what_the_outer_shell_made_so_far(reply, args, tmp_path, sandboxed):
    sim = check(reply, "nested", tmp_path, fixture={"old": b""})
    assert sim.inner_args == args


def test_outer_syntax_error_stops_before_the_inner_shell(tmp_path, sandboxed):
    sim = check('echo "unterminated', "nested", tmp_path)
    assert sim.inner_script is None
    assert sim.outer_error == "bash: -c: line 1: unexpected EOF while looking for matching `\"'"


def test_later_lines_fail_after_earlier_ones_ran(tmp_path, sandboxed):
    # bash -c runs line by line: the harness's command ran before line 2 failed
    sim = check('x"\n(', "nested", tmp_path)
    assert sim.inner_script == "x" and sim.outer_error.startswith("bash: -c: line 2:")


def test_harness_errors_are_outer_errors_and_nothing_runs():
    assert simulate("echo 'it", "ssh-argv").outer_error == "shlex.split: No closing quotation"
    sim = simulate('echo "hi"', "json-naive")
    assert sim.inner_script is None and sim.outer_error.startswith("the JSON text is invalid")
    assert sim.inner_starts == 0


def test_ssh_reads_a_leading_dash_as_its_own_option(tmp_path, sandboxed):
    sim = check('-x" "echo hi', "ssh", tmp_path)
    assert sim.inner_script == "echo hi"
    assert check("-x echo hi", "ssh-argv", tmp_path).inner_script == "echo hi"
    sim = check("-z", "ssh", tmp_path)
    assert sim.inner_script is None and sim.outer_error == "ssh: unknown option -- z"


def test_a_script_word_bash_reads_as_options_is_not_exact():
    sim = simulate("-n", "raw")
    assert not sim.exact and sim.inner_script is None


def test_a_missing_input_file_keeps_the_harness_command_from_running(tmp_path, sandboxed):
    sim = check('"<nofile"', "nested", tmp_path)
    assert sim.inner_script is None and "nofile: No such file or directory" in sim.outer_error


def test_a_background_harness_command_races_the_shell_exit():
    sim = simulate('x"& "y', "nested", cwd="/tmp")
    assert not sim.exact and any("background" in name for name in sim.opaque)


def test_json_shape_has_exactly_the_documented_keys():
    assert list(simulate("echo hi", "nested").as_dict()) == [
        "transport", "reply", "inner_script", "inner_args", "exact", "opaque", "outer_effects", "outer_error"]


@pytest.mark.parametrize("bad, error", [("a\0b", ValueError), (b"x", TypeError)])
def test_bad_input_is_a_clear_error(bad, error):
    with pytest.raises(error):
        simulate(bad, "nested")
    with pytest.raises(ValueError, match="unknown transport"):
        simulate("x", "telnet")


def test_a_heredoc_body_joined_into_another_construct_is_not_guessed(tmp_path, sandboxed):
    # bash joins `$\<nl>$(` into `$$(` before it expands: a pid and a `(`, no failure
    got = probe("$\\\n$(", "heredoc-ssh", root=str(tmp_path))
    assert got.inner_script is not None and got.inner_script.endswith("(\n")
    sim = simulate("$\\\n$(", "heredoc-ssh", cwd=got.cwd, environ=got.environ, listing=[])
    assert not sim.exact and any("backslash-newline" in name for name in sim.opaque)
    # with no continuation the body cannot be expanded, and the command does not run
    assert check("$(", "heredoc-ssh", tmp_path).inner_script is None


@pytest.mark.parametrize("reply, transport", [("a'|bash -c 'b", "single"), ('a"|bash -c "b', "nested")])
def test_shells_started_by_one_pipeline_race(reply, transport):
    # the commands of a pipeline start together: which inner shell comes first is a race
    sim = simulate(reply, transport, cwd="/tmp", listing=[])
    assert not sim.exact and any("pipeline" in name for name in sim.opaque)
    assert sim.inner_starts == 2


def test_a_bad_substitution_in_bracket_arithmetic_fails_when_it_expands(tmp_path, sandboxed):
    # bash reads $[${] by its brackets and finds the ${ bad when it expands it: the
    # outer shell stops there and the inner one never starts
    got = probe("$[${]", "nested", root=str(tmp_path))
    assert b"bad substitution" in got.stderr and not got.received
    sim = simulate("$[${]", "nested", cwd=got.cwd, environ=got.environ, listing=[])
    assert sim.exact and sim.inner_script is None and sim.inner_starts == 0


def test_the_middle_shell_runs_a_known_output_as_source(tmp_path, sandboxed):
    # double-nested: an output of the outer shell lands unquoted in the middle
    # shell's script, which parses it: here it runs a second substitution
    sim = check("echo $(echo '$(echo hi)')", "double-nested", tmp_path)
    assert sim.inner_script == "echo hi"
    assert [(e.text, e.layer) for e in sim.outer_effects] == [("$(echo '$(echo hi)')", 1), ("$(echo hi)", 2)]


@pytest.mark.parametrize("reply", ["result=`ls | wc -l`; echo $result", 'echo "$(date) x"'])
def test_an_unknown_output_in_the_middle_script_is_not_followed(reply):
    # what the middle shell parses depends on the text of the output: its quotes,
    # its `$(`, its `;`; the model names the script unknown instead of guessing
    sim = simulate(reply, "double-nested")
    assert sim.inner_script is None and sim.outer_error is None
    assert sim.opaque[-1] == "the middle shell's script"
    assert [e.layer for e in sim.outer_effects] == [1]  # nothing claimed of the middle shell
    assert sim.as_dict() == simulate(reply, "double-nested", cwd="/nonexistent/qbcore").as_dict()


@pytest.mark.parametrize("reply, transport", [('python3 -c "print(1)"', "nested"), ("echo 'it'\\''s' > f", "single")])
def test_a_harness_line_bash_refuses_reads_neither_the_directory_nor_the_environment(reply, transport,
                                                                                       monkeypatch):
    import os
    from qbcore.harness import simulate as module
    expected = module.simulate_general(reply, transport)
    assert expected.inner_script is None and "line 1:" in expected.outer_error and not expected.inner_starts
    monkeypatch.setattr(os, "getcwd", lambda: pytest.fail("read the working directory"))
    monkeypatch.setattr(module, "default_environ", lambda cwd: pytest.fail("built the environment"))
    assert module.simulate_general(reply, transport) == expected
