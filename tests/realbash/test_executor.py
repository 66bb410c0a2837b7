"""The executor's failure classes, its batch runner, bad input, and the run/tasks verbs."""

import json
import subprocess
import sys

import pytest

from qbcore.realbash import executor
from qbcore import suite
from qbcore.harness import transports
from qbcore.cli import main
from qbcore.realbash.sandbox import Limits

from sandboxing import need_sandbox


@pytest.fixture(autouse=True)
def _sandbox_available():
    need_sandbox()


WRITE = "write-file/t0-plain"


def attempt(reply, transport="raw", task=WRITE, **kw):
    return executor.run(task, reply, transport, **kw)


def content():
    return suite.get(WRITE).payloads["content"]


@pytest.mark.parametrize("reply, class_", [
    ("printf '%s\\n' '{c}' > out.txt", "pass"),
    ("printf %s 'x' > out.txt; if then", "shell-syntax"),
    ("sed -e 's/a/b/q9' out.txt", "tool-error"),
    ("cat missing.txt > out.txt", "tool-error"),  # "No such file or directory" is a tool mark
    ("no-such-command-qb", "runtime-error"),
    ("printf %s wrong > out.txt", "silent-wrong"),
    ("printf '%s\\n' '{c}' > out.txt; touch stray", "environment-invalid"),
    # the benchmark's order: a right final state passes whatever the exit status,
    # and extra files only matter when the state is right
    ("printf '%s\\n' '{c}' > out.txt; exit 3", "pass"),
    ("touch stray; exit 3", "runtime-error"),
    ("awk 'BEGIN {{' > out.txt", "tool-error"),  # awk's syntax error has no "bash:" beside it
])
def test_failure_classes(reply, class_):
    result = attempt(reply.format(c=content()))
    assert result.class_ == class_, result.reason
    assert result.passed == (class_ == "pass")


def test_timeout_class():
    result = attempt("sleep 60", limits=Limits(wall_s=1.0))
    assert result.class_ == "timeout" and result.exit_code is None


def test_contract_error_for_json_naive_text_that_does_not_parse():
    result = attempt('printf "%s" x', "json-naive")
    assert result.class_ == "contract-error" and "JSON" in result.reason


def test_contract_error_when_shlex_cannot_split():
    result = attempt("echo 'unbalanced", "ssh-argv")
    assert result.class_ == "contract-error" and "No closing quotation" in result.reason


def test_attempt_json_fields():
    data = attempt(suite.get(WRITE).oracle).as_dict()
    assert set(data) == {"task_id", "transport", "passed", "class", "reason", "exit_code", "new_files", "duration_s",
                         "diff"}
    assert data["diff"] == []
    assert data["new_files"] == ["out.txt"] and data["class"] == "pass"


def test_new_files_are_reported_even_when_allowed():
    result = attempt(suite.get(WRITE).oracle, "script")
    assert result.new_files == ("out.txt",)  # the script file lives in the private /tmp


# --- bad input ------------------------------------------------------------------

def test_unknown_task_id():
    with pytest.raises(suite.UnknownTask):
        attempt("true", task="nope/t0")


def test_unknown_transport():
    with pytest.raises(ValueError, match="unknown transport"):
        attempt("true", "telnet")


def test_empty_reply_is_a_defined_failure():
    result = attempt("")
    assert (result.class_, result.exit_code) == ("silent-wrong", 0)


def test_nul_byte_is_a_contract_error():
    result = attempt("printf a\0b > out.txt")
    assert result.class_ == "contract-error" and "NUL" in result.reason


def test_ten_megabyte_reply():
    big = "#" + "x" * (10 * 1024 * 1024) + "\n" + suite.get(WRITE).oracle
    assert attempt(big).class_ == "contract-error"
    assert attempt(big, "script").class_ == "pass"


def test_invalid_utf8_bytes_reach_bash_unchanged():
    reply = b"printf '%s' '\xff\xfe' > out.txt".decode("utf-8", "surrogateescape")
    result = attempt(reply)
    assert result.class_ == "silent-wrong" and "xff" in result.reason and "xfe" in result.reason


# --- batches --------------------------------------------------------------------

def test_batch_streams_every_result_with_its_job():
    jobs = [executor.Job(t.id, t.oracle, "raw", "oracle") for t in suite.load()[:6]]
    jobs.append(executor.Job("nope/t9", "true", "raw", "bad"))
    seen = {job.task_id: result for job, result in executor.run_many(jobs, workers=2)}
    assert len(seen) == 7
    assert all(seen[j.task_id].passed for j in jobs[:6])
    assert seen["nope/t9"].class_ == "environment-invalid" and "no task" in seen["nope/t9"].reason


# --- command line ---------------------------------------------------------------

def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_verb_json(capsys):
    code, out, _ = cli(capsys, "run", "--task", WRITE, "--format", "json", "--", suite.get(WRITE).oracle)
    assert code == 0 and json.loads(out)["class"] == "pass"


def test_run_verb_text_failure(capsys):
    code, out, _ = cli(capsys, "run", "--task", WRITE, "-t", "nested", "--", "true")
    assert code == 1 and out.startswith("FAIL write-file/t0-plain via nested: silent-wrong")


def test_run_verb_unknown_task(capsys):
    code, _, err = cli(capsys, "run", "--task", "write-file/t9", "--", "true")
    assert code == 2 and "no task with id" in err


def test_run_verb_missing_file(capsys, tmp_path):
    code, _, err = cli(capsys, "run", "--task", WRITE, "--file", str(tmp_path / "missing"))
    assert code == 2 and "cannot read the reply" in err


def test_run_verb_invalid_utf8_file(capsys, tmp_path):
    path = tmp_path / "reply"
    path.write_bytes(b"printf '\xff' > out.txt")
    code, out, err = cli(capsys, "run", "--task", WRITE, "--format", "json", "--file", str(path))
    assert code == 1 and "not valid UTF-8" in err and json.loads(out)["class"] == "silent-wrong"


def test_run_verb_reply_from_stdin_with_a_nul_byte():
    done = subprocess.run([sys.executable, "-m", "qbcore", "run", "--task", WRITE, "--format", "json", "-"],
                          input=b"printf a\0b", capture_output=True)
    assert done.returncode == 1 and json.loads(done.stdout)["class"] == "contract-error"
    assert b"Traceback" not in done.stderr


def test_tasks_list_json(capsys):
    code, out, _ = cli(capsys, "tasks", "list", "--format", "json")
    listing = json.loads(out)
    assert code == 0 and len(listing) == 56
    assert {"id", "family", "tier", "hazards"} <= set(listing[0])


def test_tasks_show(capsys):
    code, out, _ = cli(capsys, "tasks", "show", "sed-replace/t2-slashes")
    assert code == 0 and "oracle:" in out and "⟪src/main.c⟫" in out
    code, _, err = cli(capsys, "tasks", "show", "sed-replace/t2")
    assert code == 2 and "did you mean" in err


def test_run_refuses_without_bubblewrap(monkeypatch, capsys):
    from qbcore.realbash import sandbox
    monkeypatch.setattr(sandbox, "_bwrap", lambda: None)
    code, _, err = cli(capsys, "run", "--task", WRITE, "--", "true")
    assert code == 3 and "--unsafe-no-sandbox" in err
    code, out, _ = cli(capsys, "run", "--task", WRITE, "--unsafe-no-sandbox", "--", suite.get(WRITE).oracle)
    assert code == 0 and out.startswith("PASS")


def test_escaped_oracle_runs_under_every_transport():
    task = suite.get("ssh-heredoc/t3-template-literal")
    for name in transports.NAMES:
        result = attempt(transports.escape(task.oracle, name), name, task=task.id)
        assert result.passed, (name, result.reason)


def test_real_ssh_needs_the_sandbox(capsys):
    code, _, err = cli(capsys, "run", "--task", WRITE, "-t", "ssh", "--real-ssh", "--unsafe-no-sandbox", "--", "true")
    assert code == 2 and "cannot be combined" in err


def test_fixture_snapshot_is_what_a_written_fixture_reads_back(tmp_path):
    # the judged "before" state comes from the kept fixture, not from a fresh read
    from qbcore.realbash import dirtree, validators
    for index, task in enumerate(suite.load()):
        nodes, _ = executor._template(task.fixture)
        root = tmp_path / str(index)
        root.mkdir()
        dirtree.write(nodes, str(root))
        assert executor._snapshot_of(nodes) == validators.snapshot(str(root)), task.id


def test_sandboxed_and_unsandboxed_attempts_agree_on_a_git_task():
    task = suite.get("git-commit/t2-multiline")
    for reply in (task.oracle, task.naive):
        inside = attempt(reply, task=task.id)
        outside = attempt(reply, task=task.id, unsafe_no_sandbox=True)
        # the new commit's object ids depend on the second it was made in
        def shape(files):
            return [f for f in files if not f.startswith(".git/objects/")], len(files)
        assert (inside.class_, shape(inside.new_files)) == (outside.class_, shape(outside.new_files))


# --- the command environment ----------------------------------------------------

def _environ_seen(transport):
    from qbcore.model.commandenv import command_environ

    result = attempt("env", transport)
    seen = dict(line.split("=", 1) for line in result.stdout.decode().splitlines())
    return seen, command_environ(seen["HOME"])


def test_the_command_runs_with_exactly_the_benchmarks_environment():
    seen, wanted = _environ_seen("raw")
    # what bash itself adds: the directory, the shell level, the last argument
    assert {k: v for k, v in seen.items() if k not in ("PWD", "SHLVL", "_")} == wanted
    assert seen["PWD"] == seen["HOME"] and "USER" not in seen and wanted["LC_ALL"] == "C"


def test_an_ssh_transport_adds_only_the_stand_in_first_on_path():
    seen, wanted = _environ_seen("ssh")
    assert seen["PATH"].endswith(":" + wanted["PATH"]) and seen["PATH"].split(":")[0].endswith("/bin")
    assert {k: v for k, v in seen.items() if k not in ("PWD", "SHLVL", "_", "OLDPWD", "PATH")} == \
        {k: v for k, v in wanted.items() if k != "PATH"}


def test_attempt_lists_how_the_state_differs_from_the_one_asked_for():
    result = attempt("printf 'hello\\n' > out.txt; mkdir d; chmod 700 d")
    assert [d.as_dict() for d in result.differences] == [
        {"path": "out.txt", "expected": "'hello world\\n'", "found": "'hello\\n'", "checked": True},
        {"path": "d", "expected": "missing", "found": "a folder", "checked": False}]
    assert result.as_dict()["diff"] == [d.as_dict() for d in result.differences]
