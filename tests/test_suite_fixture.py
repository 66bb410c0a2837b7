"""Fixtures and validators: built without a shell, probe programs checked by running them in bash."""

import os
import stat
import subprocess

import pytest

from qbcore import fixture, suite, validators
from qbcore.fixture import FixtureError


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


@pytest.mark.bash
def test_argv_recorder_records_each_call_exactly(tmp_path):
    fixture.build({"programs": [{"path": "rec", "kind": "argv-recorder", "log": "args.log"}]}, str(tmp_path))
    args = ["-n", "", "a b", "*", "x\ny", "é"]
    subprocess.run([str(tmp_path / "rec"), *args], check=True, cwd="/")
    subprocess.run([str(tmp_path / "rec")], check=True)
    calls = validators.parse_argv_log((tmp_path / "args.log").read_bytes())
    assert calls == [args, []]


@pytest.mark.bash
def test_env_recorder_tells_unset_from_empty(tmp_path):
    fixture.build({"programs": [{"path": "rec", "kind": "env-recorder", "variables": ["V", "W"],
                                 "log": "env.log"}]}, str(tmp_path))
    subprocess.run([str(tmp_path / "rec")], check=True, env={"V": "a\nb", "PATH": os.environ["PATH"]})
    subprocess.run([str(tmp_path / "rec")], check=True, env={"W": "", "PATH": os.environ["PATH"]})
    calls = validators.parse_env_log((tmp_path / "env.log").read_bytes())
    assert calls == [{"V": "a\nb", "W": None}, {"V": None, "W": ""}]


@pytest.mark.bash
def test_ssh_wrapper_joins_words_and_runs_remotely(tmp_path):
    fixture.build({"dirs": ["remote"], "programs": [
        {"path": "rsh", "kind": "ssh-wrapper", "remote_root": "remote", "variables": {"R": "it's"}}]},
        str(tmp_path))
    done = subprocess.run([str(tmp_path / "rsh"), "box", "printf '%s|' \"$R\" \"$PWD\"", "a  b"],
                          capture_output=True, text=True, cwd="/")
    assert done.stdout == f"it's|{tmp_path}/remote|a|b|"
    from_stdin = subprocess.run([str(tmp_path / "rsh"), "box"], input="echo $R", capture_output=True, text=True)
    assert from_stdin.stdout == "it's\n"
    assert "R" not in os.environ


def test_git_fixture_has_identity_fixed_dates_and_pending_change(tmp_path):
    task = suite.get("git-commit/t0-plain")
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    info = fixture.build(task.fixture, str(tmp_path / "one"))
    assert fixture.build(task.fixture, str(tmp_path / "two")).git_head == info.git_head
    tmp_path = tmp_path / "one"
    status = subprocess.run(["git", "-C", str(tmp_path), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == " M README.md\n"
    email = subprocess.run(["git", "-C", str(tmp_path), "config", "user.email"], capture_output=True, text=True)
    assert email.stdout.strip() == "tester@qbcore.invalid"


# --- validators -----------------------------------------------------------------

def _state(tmp_path, task_id):
    task = suite.get(task_id)
    info = fixture.build(task.fixture, str(tmp_path))
    return task, info, validators.snapshot(str(tmp_path))


def test_tree_check_catches_collateral_damage(tmp_path):
    task, info, before = _state(tmp_path, "hostile-filenames/t2-glob")
    os.unlink(tmp_path / "*.bak")
    os.unlink(tmp_path / "a.bak")
    verdict = validators.check(task.checks, str(tmp_path), before, validators.snapshot(str(tmp_path)), info)
    assert not verdict.ok and "a.bak was removed" in verdict.reason


def test_tree_check_catches_a_mode_change(tmp_path):
    task, info, before = _state(tmp_path, "sed-replace/t0-plain")
    path = tmp_path / "app.conf"
    path.write_text(path.read_text().replace("localhost", task.payloads["new"]))
    path.chmod(0o600)
    verdict = validators.check(task.checks, str(tmp_path), before, validators.snapshot(str(tmp_path)), info)
    assert not verdict.ok and "mode is 600 instead of 644" in verdict.reason


def test_json_check_compares_values_not_text(tmp_path):
    task, info, before = _state(tmp_path, "json-write/t1-quotes")
    (tmp_path / "data.json").write_text('{ "message" :\n' + __import__("json").dumps(task.payloads["message"]) + "}")
    verdict = validators.check(task.checks, str(tmp_path), before, validators.snapshot(str(tmp_path)), info)
    assert verdict.ok, verdict.reason


def test_symlinks_are_never_followed(tmp_path):
    task, info, before = _state(tmp_path, "write-file/t0-plain")
    target = tmp_path.parent / "elsewhere.txt"
    target.write_text(task.payloads["content"])
    os.symlink(target, tmp_path / "note.txt")
    verdict = validators.check(task.checks, str(tmp_path), before, validators.snapshot(str(tmp_path)), info)
    assert not verdict.ok and "symlink" in verdict.reason


def test_git_check_never_runs_the_repository_config(tmp_path):
    task, info, before = _state(tmp_path, "git-commit/t0-plain")
    canary = tmp_path.parent / "fsmonitor-ran"
    with open(tmp_path / ".git" / "config", "a") as handle:
        handle.write(f"[core]\n\tfsmonitor = touch {canary}\n\thooksPath = /nonexistent\n")
    verdict = validators.check(task.checks, str(tmp_path), before, validators.snapshot(str(tmp_path)), info)
    assert not verdict.ok and "0 new commits" in verdict.reason
    assert not canary.exists()


def test_disallowed_new_files(tmp_path):
    task, info, before = _state(tmp_path, "write-file/t0-plain")
    (tmp_path / "note.txt").write_text("x")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "f").write_text("x")
    after = validators.snapshot(str(tmp_path))
    assert validators.disallowed_new(before, after, task.allowed_new) == ["junk", "junk/f"]
