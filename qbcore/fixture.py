"""Build a task's starting directory with Python file operations, never a shell.

Files with exact bytes and modes, directories, a git repository with a fixed
identity and fixed dates (git is run as a program, with argv, no shell), and
the probe programs a task observes the reply through: an argv recorder, an
env recorder and an ssh-like wrapper.
"""

from __future__ import annotations

import base64
import os
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Mapping

from .quoting import single_quote

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
    identity = spec["identity"]
    with tempfile.TemporaryDirectory(prefix="qbcore-git-home-") as home:
        env = git_env(home)
        # no template: no sample hooks or description, fewer files to carry per attempt
        _git(root, env, "init", "-q", "-b", "main", "--template=")
        _git(root, env, "config", "user.name", identity["name"])
        _git(root, env, "config", "user.email", identity["email"])
        _git(root, env, "add", "-A")
        _git(root, env, "commit", "-q", "-m", spec.get("initial_message", "Initial commit"))
        head = _git(root, env, "rev-parse", "HEAD")
    for change in spec.get("after_commit", ()):
        _write(root, change["path"], _file_bytes(change), int(change.get("mode", "0644"), 8))
    return FixtureInfo(git_head=head, git_commits=1)


def build(fixture: Mapping, root: str) -> FixtureInfo:
    """Create the fixture inside the existing, empty directory ``root``."""
    for rel in fixture.get("dirs", ()):
        os.makedirs(_target(root, rel), exist_ok=True)
    for spec in fixture.get("files", ()):
        _write(root, spec["path"], _file_bytes(spec), int(spec.get("mode", "0644"), 8))
    for spec in fixture.get("programs", ()):
        _write(root, spec["path"], program_text(spec).encode("utf-8"), 0o755)
    if fixture.get("git"):
        return _build_git(root, fixture["git"])
    return FixtureInfo()


# --- probe programs -----------------------------------------------------------

def program_text(spec: Mapping) -> str:
    """The source of one probe program; its log lands next to it, whatever the caller's directory."""
    kind = spec.get("kind")
    if kind == "argv-recorder":
        return _ARGV_RECORDER.replace("@LOG@", single_quote(spec.get("log", "args.log")))
    if kind == "env-recorder":
        names = " ".join(single_quote(n) for n in spec["variables"])
        return _ENV_RECORDER.replace("@LOG@", single_quote(spec.get("log", "env.log"))).replace("@NAMES@", names)
    if kind == "ssh-wrapper":
        exports = "".join(f"export {name}={single_quote(value)}\n" for name, value in spec["variables"].items())
        return (_SSH_WRAPPER.replace("@REMOTE_ROOT@", single_quote(spec["remote_root"]))
                .replace("@EXPORTS@", exports))
    raise FixtureError(f"unknown probe program kind {kind!r}")


_ARGV_RECORDER = """#!/bin/bash
# argv recorder: appends one record per call to its log, next to this program:
# "call N" then each of the N arguments, every item NUL-terminated.
log="$(dirname -- "$0")"/@LOG@
{ printf 'call %d\\0' "$#"; (($#)) && printf '%s\\0' "$@"; } >> "$log"
exit 0
"""

_ENV_RECORDER = """#!/bin/bash
# env recorder: appends one record per call to its log, next to this program:
# "call", then for each watched variable "set NAME" and its value, or
# "unset NAME"; every item NUL-terminated.
log="$(dirname -- "$0")"/@LOG@
{
  printf 'call\\0'
  for name in @NAMES@; do
    if [[ -v $name ]]; then printf 'set %s\\0%s\\0' "$name" "${!name}"; else printf 'unset %s\\0' "$name"; fi
  done
} >> "$log"
exit 0
"""

_SSH_WRAPPER = """#!/bin/bash
# ssh-like wrapper: `rsh HOST [COMMAND...]` joins the words after HOST with
# single spaces and runs them with `bash -c` in the remote root, where the
# remote-only variables are set; with no command, bash reads standard input.
if (($# < 1)); then
  echo "usage: rsh HOST [COMMAND...]" >&2
  exit 255
fi
shift
cd -- "$(dirname -- "$0")"/@REMOTE_ROOT@ || exit 255
@EXPORTS@IFS=' '
joined="$*"
if [[ -z $joined ]]; then
  exec bash
fi
exec bash -c "$joined"
"""
