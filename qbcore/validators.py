"""Decide whether a task directory ended in the state the task asks for, and say why not.

A task's checks are data (kind + arguments); each kind compares the final
directory with the expectation: exact file bytes, the whole directory against
the fixture plus the intended changes, a JSON value, the argv or environment
a probe program received, the git commit made. Nothing here follows a
symlink or trusts the repository's configuration: the directory was written
by untrusted code.
"""

from __future__ import annotations

import fnmatch
import json
import os
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Mapping, Sequence

from .fixture import FixtureInfo, git_env

__all__ = ["Entry", "snapshot", "new_paths", "disallowed_new", "check", "Verdict"]


@dataclass(frozen=True)
class Entry:
    """One path of a directory snapshot: ``kind`` is file, dir, symlink or other."""

    kind: str
    mode: int = 0
    data: bytes = b""
    target: str = ""


def snapshot(root: str) -> dict[str, Entry]:
    """Every path under ``root`` (relative, '/'-separated), without following symlinks."""
    entries: dict[str, Entry] = {}
    for current, dirs, files in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(current, root)
        for name in dirs + files:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            path = os.path.join(current, name)
            info = os.lstat(path)
            mode = stat.S_IMODE(info.st_mode)
            if stat.S_ISLNK(info.st_mode):
                entries[rel] = Entry("symlink", target=os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                entries[rel] = Entry("dir", mode)
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as handle:
                    entries[rel] = Entry("file", mode, handle.read())
            else:
                entries[rel] = Entry("other", mode)
        # os.walk lists a symlink to a directory among dirs; never descend into it
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(current, d))]
    return entries


def _matches(path: str, patterns: Sequence[str]) -> bool:
    # fnmatch's * also crosses '/', so "dir/**" covers a whole subtree
    return any(fnmatch.fnmatchcase(path, p) for p in patterns)


def new_paths(before: Mapping[str, Entry], after: Mapping[str, Entry]) -> list[str]:
    return sorted(set(after) - set(before))


def disallowed_new(before, after, allowed: Sequence[str]) -> list[str]:
    """New paths the task does not allow; a directory is allowed when something allowed lies under it."""
    out = []
    for path in new_paths(before, after):
        if _matches(path, allowed):
            continue
        if after[path].kind == "dir" and any(a.startswith(path + "/") for a in allowed):
            continue
        out.append(path)
    return out


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str


def _show(data: bytes, limit: int = 60) -> str:
    text = data.decode("utf-8", "backslashreplace")
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _expected_bytes(spec: Mapping) -> bytes:
    if "text" in spec:
        return spec["text"].encode("utf-8")
    import base64
    return base64.b64decode(spec["base64"])


def _file(after, path):
    entry = after.get(path)
    if entry is None:
        return None, f"{path} is missing"
    if entry.kind != "file":
        return None, f"{path} is a {entry.kind}, not a regular file"
    return entry.data, ""


def _check_file_bytes(spec, after, **_):
    data, problem = _file(after, spec["path"])
    if data is None:
        return problem
    want = _expected_bytes(spec)
    if data != want:
        return f"{spec['path']} holds {_show(data)} instead of {_show(want)}"
    return ""


def _check_tree(spec, before, after, **_):
    ignore = spec.get("ignore", ())
    expected = {p: e for p, e in before.items() if p not in spec.get("remove", ())}
    wanted_files, wanted_modes = {}, {}
    for path, content in spec.get("set", {}).items():
        wanted_files[path] = _expected_bytes(content)
        if "mode" in content:
            wanted_modes[path] = int(content["mode"], 8)
        elif before.get(path, Entry("missing")).kind == "file":
            # an edited file keeps its mode
            wanted_modes[path] = before[path].mode
        parent = path.rsplit("/", 1)[0] if "/" in path else ""
        while parent and parent not in expected:
            expected[parent] = Entry("dir")
            parent = parent.rsplit("/", 1)[0] if "/" in parent else ""
    problems = []
    for path in sorted(set(expected) | set(after) | set(wanted_files)):
        if _matches(path, ignore):
            continue
        got = after.get(path)
        if path in wanted_files:
            if got is None or got.kind != "file":
                problems.append(f"{path} is missing" if got is None else f"{path} is a {got.kind}")
            elif got.data != wanted_files[path]:
                problems.append(f"{path} holds {_show(got.data)} instead of {_show(wanted_files[path])}")
            elif path in wanted_modes and got.mode != wanted_modes[path]:
                problems.append(f"{path} mode is {got.mode:o} instead of {wanted_modes[path]:o}")
            continue
        want = expected.get(path)
        if want is None:
            problems.append(f"unexpected {got.kind} {path}")
        elif got is None:
            problems.append(f"{path} was removed" if path in before else f"{path} is missing")
        elif got.kind != want.kind:
            problems.append(f"{path} became a {got.kind}")
        elif want.kind == "file" and got.data != want.data:
            problems.append(f"{path} was changed")
        elif want.kind == "symlink" and got.target != want.target:
            problems.append(f"{path} points elsewhere")
        elif path in before and want.mode != got.mode and want.kind != "symlink":
            problems.append(f"{path} mode changed from {want.mode:o} to {got.mode:o}")
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        return "directory state differs: " + "; ".join(problems[:3]) + more
    return ""


def _check_json(spec, after, **_):
    data, problem = _file(after, spec["path"])
    if data is None:
        return problem
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"{spec['path']} is not valid JSON ({exc}): {_show(data)}"
    if value != spec["value"]:
        return f"{spec['path']} holds the JSON value {json.dumps(value, ensure_ascii=False)[:80]} instead of " \
               f"{json.dumps(spec['value'], ensure_ascii=False)[:80]}"
    return ""


def parse_argv_log(data: bytes) -> list[list[str]] | None:
    items = data.split(b"\0")
    if items[-1] != b"":
        return None
    items.pop()
    calls, i = [], 0
    while i < len(items):
        head = items[i].decode("ascii", "replace")
        if not head.startswith("call ") or not head[5:].isdigit():
            return None
        count = int(head[5:])
        args = items[i + 1:i + 1 + count]
        if len(args) != count:
            return None
        calls.append([a.decode("utf-8", "surrogateescape") for a in args])
        i += 1 + count
    return calls


def parse_env_log(data: bytes) -> list[dict[str, str | None]] | None:
    items = data.split(b"\0")
    if items[-1] != b"":
        return None
    items.pop()
    calls: list[dict] = []
    i = 0
    while i < len(items):
        item = items[i].decode("utf-8", "surrogateescape")
        if item == "call":
            calls.append({})
            i += 1
        elif item.startswith("set ") and calls and i + 1 < len(items):
            calls[-1][item[4:]] = items[i + 1].decode("utf-8", "surrogateescape")
            i += 2
        elif item.startswith("unset ") and calls:
            calls[-1][item[6:]] = None
            i += 1
        else:
            return None
    return calls


def _check_recorded(spec, after, parse, what):
    data, problem = _file(after, spec["path"])
    if data is None:
        return f"the program was never run: {problem}"
    calls = parse(data)
    if calls is None:
        return f"{spec['path']} is not a record the probe program writes: {_show(data)}"
    want = spec["calls"]
    if len(calls) != len(want):
        return f"the program ran {len(calls)} times instead of {len(want)}"
    for got, expected in zip(calls, want):
        if got != expected:
            return f"the program received {what} {_short(got)} instead of {_short(expected)}"
    return ""


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:120] + "…"


def _check_argv(spec, after, **_):
    return _check_recorded(spec, after, parse_argv_log, "the arguments")


def _check_env(spec, after, **_):
    return _check_recorded(spec, after, parse_env_log, "the environment")


def _git_read(root: str, home: str, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    # plumbing only, an explicit GIT_DIR and fsmonitor off: the repository was
    # written by the reply, and its config must not make the host run anything
    env = dict(git_env(home), GIT_DIR=os.path.join(root, ".git"), GIT_WORK_TREE=root,
               GIT_CEILING_DIRECTORIES=os.path.dirname(root))
    return subprocess.run(["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", *args],
                          env=env, capture_output=True, timeout=30, cwd=root, input=stdin)


def _git_objects(root: str, home: str, names: Sequence[str]) -> list[bytes | None]:
    """The raw content of each named object (``HEAD``, ``HEAD:path``, an id), None when missing."""
    done = _git_read(root, home, "cat-file", "--batch", stdin="".join(n + "\n" for n in names).encode())
    out, found, pos = done.stdout, [], 0
    for _ in names:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) != 3:
            found.append(None)
            continue
        size = int(header[2])
        found.append(out[pos:pos + size])
        pos += size + 1
    return found


def _check_git(spec, root, after, info: FixtureInfo, **_):
    if after.get(".git", Entry("missing")).kind != "dir":
        return ".git is not a directory any more"
    with tempfile.TemporaryDirectory(prefix="qbcore-git-home-") as home:
        history = _git_read(root, home, "rev-list", "HEAD")
        if history.returncode != 0:
            return "the repository has no readable HEAD: " + history.stderr.decode(errors="replace").strip()
        commits = history.stdout.decode().split()
        made = len(commits) - info.git_commits
        if made != spec.get("new_commits", 1):
            return f"{made} new commits instead of {spec.get('new_commits', 1)}"
        if info.git_head and commits[made] != info.git_head:
            return "the new commit does not sit on the fixture's HEAD"
        tracked = {}
        if spec.get("clean"):
            listing = _git_read(root, home, "ls-tree", "-r", "-z", "--full-tree", "HEAD").stdout
            for record in filter(None, listing.split(b"\0")):
                meta, _, name = record.partition(b"\t")
                tracked[name.decode("utf-8", "surrogateescape")] = meta.split()[2].decode()
        heads = list(spec.get("head_files", {}))
        objects = _git_objects(root, home, ["HEAD"] + [f"HEAD:{p}" for p in heads] + list(tracked.values()))
        raw = (objects[0] or b"").decode("utf-8", "surrogateescape")
        message = raw.split("\n\n", 1)[1] if "\n\n" in raw else ""
        want = spec["message"]
        if message.rstrip("\n") != want.rstrip("\n"):
            return f"the commit message is {_show(message.encode(errors='surrogateescape'))} instead of " \
                   f"{_show(want.encode())}"
        for path, blob in zip(heads, objects[1:1 + len(heads)]):
            if blob != spec["head_files"][path].encode("utf-8"):
                return f"the commit does not hold the expected {path}"
        for path, blob in zip(tracked, objects[1 + len(heads):]):
            entry = after.get(path)
            if entry is None or entry.kind != "file" or entry.data != blob:
                return f"the working tree differs from the commit at {path}"
        if spec.get("clean"):
            staged = _git_read(root, home, "diff-index", "--cached", "--quiet", "HEAD")
            if staged.returncode != 0:
                return "the index holds changes that were not committed"
    return ""


_CHECKS = {"file-bytes": _check_file_bytes, "tree": _check_tree, "json-value": _check_json,
           "argv": _check_argv, "env": _check_env, "git": _check_git}


def check(checks: Sequence[Mapping], root: str, before: Mapping[str, Entry], after: Mapping[str, Entry],
          info: FixtureInfo = FixtureInfo()) -> Verdict:
    """Run every check; the verdict fails at the first that does not hold and says why."""
    for spec in checks:
        try:
            run = _CHECKS[spec["kind"]]
        except KeyError:
            raise ValueError(f"unknown check kind {spec.get('kind')!r}") from None
        problem = run(spec, root=root, before=before, after=after, info=info)
        if problem:
            return Verdict(False, problem)
    return Verdict(True, "the final state is the one the task asks for")
