"""Build a task's starting directory with Python file operations, never a shell.

Files with exact bytes and modes, directories, a git repository with a fixed
identity and fixed dates (git is run as a program, with argv, no shell), and
the probe programs a task observes the reply through (``standins/task``): an
argv recorder, an env recorder and an ssh-like wrapper.
"""

from __future__ import annotations

import base64
import os
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Mapping

from ..harness.quoting import single_quote

__all__ = ["FixtureError", "FixtureInfo", "build", "program_text", "git_env", "GIT_DATE"]

# fixed so that a fixture's commit ids never depend on when it was built
GIT_DATE = "2000-01-01T00:00:00+0000"


class FixtureError(ValueError):
    """A fixture description that cannot be built (bad path, unknown program kind, git failure)."""


@dataclass(frozen=True)
class FixtureInfo:
    """Facts about the built fixture that validators compare against (e.g. the starting git HEAD)."""

    git_head: str | None = None
    git_commits: int = 0


def _target(root: str, rel: str) -> str:
    if not rel or os.path.isabs(rel) or ".." in rel.split("/"):
        raise FixtureError(f"fixture paths must be relative and stay inside the task directory: {rel!r}")
    return os.path.join(root, rel)


def _file_bytes(spec: Mapping) -> bytes:
    if "text" in spec:
        return spec["text"].encode("utf-8")
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    raise FixtureError(f"fixture file {spec.get('path')!r} has neither text nor base64 content")


def _write(root: str, rel: str, data: bytes, mode: int):
    path = _target(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)
    os.chmod(path, mode)


def git_env(home: str) -> dict:
    """An environment for git that ignores every configuration but the repository's own."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull, "LC_ALL": "C", "GIT_AUTHOR_DATE": GIT_DATE,
            "GIT_COMMITTER_DATE": GIT_DATE, "GIT_TERMINAL_PROMPT": "0"}


def _git(root: str, env: dict, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", root, *args], env=env, capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        raise FixtureError("git is not installed, and this task's fixture is a git repository") from None
    if done.returncode != 0:
        raise FixtureError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def _build_git(root: str, spec: Mapping) -> FixtureInfo:
    """A repository on branch ``master`` with the task's identity; with ``initial_commit`` (the
    default) everything is committed once and ``after_commit`` files are written on top."""
    identity = spec["identity"]
    with tempfile.TemporaryDirectory(prefix="qbcore-git-home-") as home:
        env = git_env(home)
        # no template: no sample hooks or description, fewer files to carry per attempt
        _git(root, env, "init", "-q", "-b", "master", "--template=")
        _git(root, env, "config", "user.email", identity["email"])
        _git(root, env, "config", "user.name", identity["name"])
        if not spec.get("initial_commit", True):
            return FixtureInfo()
        _git(root, env, "add", "-A")
        _git(root, env, "commit", "-q", "-m", spec.get("initial_message", "Initial commit"))
        head = _git(root, env, "rev-parse", "HEAD")
    for change in spec.get("after_commit", ()):
        _write(root, change["path"], _file_bytes(change), int(change.get("mode", "0644"), 8))
    return FixtureInfo(git_head=head, git_commits=1)


def build(fixture: Mapping, root: str) -> FixtureInfo:
    """Create the fixture inside the existing, empty directory ``root``."""
    git = fixture.get("git")
    for rel in fixture.get("dirs", ()):
        os.makedirs(_target(root, rel), exist_ok=True)
    for spec in fixture.get("programs", ()):
        _write(root, spec["path"], program_text(spec).encode("utf-8"), 0o755)
    # a repository without a first commit is made before its files are written
    # (they are the uncommitted change); one with a commit is made from them
    late = bool(git) and not git.get("initial_commit", True)
    if not late:
        for spec in fixture.get("files", ()):
            _write(root, spec["path"], _file_bytes(spec), int(spec.get("mode", "0644"), 8))
    info = _build_git(root, git) if git else FixtureInfo()
    if late:
        for spec in fixture.get("files", ()):
            _write(root, spec["path"], _file_bytes(spec), int(spec.get("mode", "0644"), 8))
    return info


# --- probe programs -----------------------------------------------------------

def _probe_source(name: str) -> str:
    with open(os.path.join(os.path.dirname(__file__), "standins", "task", name), encoding="utf-8") as handle:
        return handle.read()


def _word(text: str) -> str:
    # names of logs, variables and directories are plain words in every task
    if not text or not all(c.isalnum() or c in "._-/" for c in text):
        raise FixtureError(f"not a plain name for a probe program: {text!r}")
    return text


def program_text(spec: Mapping) -> str:
    """The source of one probe program (``qbcore/realbash/standins/task``) filled in for this task."""
    kind = spec.get("kind")
    if kind == "argv-recorder":
        return _probe_source("record").replace("@LOG@", _word(spec.get("log", "got.bin")))
    if kind == "env-recorder":
        return (_probe_source("check_env").replace("@VARIABLE@", _word(spec["variable"]))
                .replace("@LOG@", _word(spec.get("log", "got.txt"))))
    if kind == "remote-shell":
        exports = "".join(f"export {_word(name)}={single_quote(value)}\n"
                          for name, value in spec["variables"].items())
        return _probe_source("remote").replace("@ROOT@", _word(spec["remote_root"])).replace("@EXPORTS@", exports)
    raise FixtureError(f"unknown probe program kind {kind!r}")
