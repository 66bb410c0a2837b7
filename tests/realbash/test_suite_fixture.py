"""Fixtures and validators: built without a shell, probe programs checked against bash itself."""

import os
import stat
import subprocess

import pytest

from qbcore.realbash import fixture, validators
from qbcore import suite
from qbcore.realbash.fixture import FixtureError


def test_files_dirs_and_modes(tmp_path):
    fixture.build({"dirs": ["a/b"], "files": [{"path": "a/x.sh", "text": "é\n", "mode": "0750"},
                                              {"path": "raw", "base64": "AP8="}]}, str(tmp_path))
    assert (tmp_path / "a" / "b").is_dir()
    assert (tmp_path / "a" / "x.sh").read_bytes() == "é\n".encode()
    assert stat.S_IMODE((tmp_path / "a" / "x.sh").stat().st_mode) == 0o750
    assert (tmp_path / "raw").read_bytes() == b"\x00\xff"


@pytest.mark.parametrize("path", ["../x", "/etc/x", "a/../../x", ""])
def test_paths_must_stay_inside(tmp_path, path):
    with pytest.raises(FixtureError, match="inside the task directory"):
        fixture.build({"files": [{"path": path, "text": ""}]}, str(tmp_path))


def test_unknown_program_kind_is_refused(tmp_path):
    with pytest.raises(FixtureError, match="unknown probe program"):
        fixture.build({"programs": [{"path": "p", "kind": "nope"}]}, str(tmp_path))


def test_probe_names_must_be_plain_words(tmp_path):
    with pytest.raises(FixtureError, match="plain name"):
        fixture.build({"programs": [{"path": "p", "kind": "argv-recorder", "log": "a;b"}]}, str(tmp_path))


@pytest.mark.bash
@pytest.mark.parametrize("args", [["-n", "", "a b", "*", "x\ny", "é", "back\\slash"], [], [""]])
def test_argv_recorder_writes_what_printf_would(tmp_path, args):
    # the referee is the benchmark's own idiom, run by bash: printf '%s\0' "$@"
    fixture.build({"programs": [{"path": "record", "kind": "argv-recorder", "log": "got.bin"}]}, str(tmp_path))
    (tmp_path / "work").mkdir()
    subprocess.run([str(tmp_path / "record"), *args], check=True, cwd=tmp_path / "work")
    reference = subprocess.run(["bash", "-c", "printf '%s\\0' \"$@\"", "bash", *args], capture_output=True).stdout
    assert (tmp_path / "work" / "got.bin").read_bytes() == reference
    assert not (tmp_path / "got.bin").exists(), "the log goes to the caller's directory"


@pytest.mark.bash
@pytest.mark.parametrize("value", ["a\nb 'c' $d", "", None])
def test_env_recorder_writes_the_value_without_newline(tmp_path, value):
    fixture.build({"programs": [{"path": "check_env", "kind": "env-recorder", "variable": "MSG", "log": "got.txt"}]},
                  str(tmp_path))
    env = {"PATH": os.environ["PATH"]} | ({} if value is None else {"MSG": value})
    subprocess.run([str(tmp_path / "check_env")], check=True, env=env, cwd=tmp_path)
    assert (tmp_path / "got.txt").read_bytes() == (value or "").encode()


@pytest.mark.bash
def test_remote_joins_words_and_runs_them_in_the_remote_root(tmp_path):
    fixture.build({"dirs": ["remote_root"], "programs": [
        {"path": "remote", "kind": "remote-shell", "remote_root": "remote_root", "variables": {"R": "it's"}}]},
        str(tmp_path))
    done = subprocess.run(["./remote", "printf '%s|' \"$R\" \"$PWD\"", "a  b"], capture_output=True, text=True,
                          cwd=tmp_path, env={"PATH": os.environ["PATH"]})
    assert done.stdout == f"it's|{tmp_path}/remote_root|a|b|"
    assert subprocess.run(["./remote"], cwd=tmp_path, input=b"echo hi", capture_output=True).stdout == b""


def test_git_fixture_is_an_empty_repository_with_one_new_file(tmp_path):
    task = suite.get("git-commit/t0-plain")
    fixture.build(task.fixture, str(tmp_path))
    status = subprocess.run(["git", "-C", str(tmp_path), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == "?? newfile.txt\n"
    email = subprocess.run(["git", "-C", str(tmp_path), "config", "user.email"], capture_output=True, text=True)
    assert email.stdout.strip() == "qb@example.com"
    head = subprocess.run(["git", "-C", str(tmp_path), "symbolic-ref", "HEAD"], capture_output=True, text=True)
    assert head.stdout.strip() == "refs/heads/master"


# --- validators -----------------------------------------------------------------

def _state(tmp_path, task_id):
    task = suite.get(task_id)
    info = fixture.build(task.fixture, str(tmp_path))
    return task, info, validators.snapshot(str(tmp_path))


def _verdict(task, tmp_path, before, info):
    return validators.check(task.checks, str(tmp_path), before, validators.snapshot(str(tmp_path)), info)


def test_file_set_catches_collateral_damage(tmp_path):
    task, info, before = _state(tmp_path, "hostile-filenames/t2-glob-name")
    for name in ("*.txt", "a.txt"):
        os.unlink(tmp_path / name)
    verdict = _verdict(task, tmp_path, before, info)
    assert not verdict.ok and "missing ['a.txt']" in verdict.reason


def test_file_set_ignores_directories_and_git(tmp_path):
    task, info, before = _state(tmp_path, "hostile-filenames/t2-glob-name")
    os.unlink(tmp_path / "*.txt")
    (tmp_path / "empty").mkdir()
    (tmp_path / "sub" / ".git").mkdir(parents=True)
    (tmp_path / "sub" / ".git" / "x").write_text("x")
    assert _verdict(task, tmp_path, before, info).ok


def test_path_list_drops_a_leading_dot_slash_and_splits_lines_as_python(tmp_path):
    task, info, before = _state(tmp_path, "find-glob/t0-plain")
    (tmp_path / "list.txt").write_bytes(b"./tree/alpha.log\r\ntree/sub/beta.log")
    assert _verdict(task, tmp_path, before, info).ok
    (tmp_path / "list.txt").write_bytes(b"tree/alpha.log\n\ntree/sub/beta.log\n")
    assert not _verdict(task, tmp_path, before, info).ok


def test_json_check_compares_values_not_text(tmp_path):
    task, info, before = _state(tmp_path, "json-write/t1-quotes")
    (tmp_path / "config.json").write_text('{ "message" :\n' + __import__("json").dumps(task.payloads["message"]) + "}")
    assert _verdict(task, tmp_path, before, info).ok


def test_symlinks_are_followed_only_inside_the_directory(tmp_path):
    task, info, before = _state(tmp_path, "write-file/t0-plain")
    (tmp_path / "real.txt").write_text("hello world\n")
    os.symlink("real.txt", tmp_path / "out.txt")
    assert _verdict(task, tmp_path, before, info).ok
    os.unlink(tmp_path / "out.txt")
    outside = tmp_path.parent / "elsewhere.txt"
    outside.write_text("hello world\n")
    os.symlink(outside, tmp_path / "out.txt")
    verdict = _verdict(task, tmp_path, before, info)
    assert not verdict.ok and "missing" in verdict.reason


def test_git_check_reads_message_index_and_count(tmp_path):
    task, info, before = _state(tmp_path, "git-commit/t1-apostrophe")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "add", "newfile.txt"], cwd=tmp_path, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "-m", task.payloads["message"] + "\n\n"], cwd=tmp_path, env=env, check=True)
    assert _verdict(task, tmp_path, before, info).ok
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", task.payloads["message"]], cwd=tmp_path, env=env,
                   check=True)
    verdict = _verdict(task, tmp_path, before, info)
    assert not verdict.ok and "2 commits instead of 1" in verdict.reason


def test_git_check_never_runs_the_repository_config(tmp_path):
    task, info, before = _state(tmp_path, "git-commit/t0-plain")
    canary = tmp_path.parent / "fsmonitor-ran"
    with open(tmp_path / ".git" / "config", "a") as handle:
        handle.write(f"[core]\n\tfsmonitor = touch {canary}\n\thooksPath = /nonexistent\n")
    verdict = _verdict(task, tmp_path, before, info)
    assert not verdict.ok and "no commit was made" in verdict.reason
    assert not canary.exists()


def test_new_files_are_regular_files_outside_git_by_exact_name(tmp_path):
    task, info, before = _state(tmp_path, "write-file/t0-plain")
    (tmp_path / "out.txt").write_text("x")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "f").write_text("x")
    (tmp_path / "empty").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("x")
    os.symlink("out.txt", tmp_path / "link")
    os.symlink("nowhere", tmp_path / "dangling")
    after = validators.snapshot(str(tmp_path))
    assert validators.disallowed_new(before, after, task.allowed_new) == ["junk/f", "link"]
