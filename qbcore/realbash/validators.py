"""Decide whether a task directory ended in the state the task asks for, and say why not.

A task's checks are data (kind + arguments); each kind compares the final
directory with the expectation as the QuoteBench validators do: exact file
bytes (also what a probe program recorded), the exact set of files, a list
of paths, a parsed JSON value, the git commit made. Symlinks are followed only within the snapshot, and the
repository's configuration is never trusted: the directory was written by
untrusted code.
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

__all__ = ["Entry", "snapshot", "resolve", "regular_files", "new_paths", "disallowed_new", "check", "Verdict",
           "GitRepository", "Difference", "differences", "judge"]


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


def resolve(entries: Mapping[str, Entry], path: str, hops: int = 40) -> Entry | None:
    """The entry ``path`` leads to inside the snapshot, following symlinks that stay in it.

    A symlink out of the directory (an absolute target, too many ``..``) or a
    loop leads nowhere: None, as for a missing path.
    """
    parts: list[str] = []
    todo = [p for p in path.split("/") if p not in ("", ".")]
    while todo:
        part = todo.pop(0)
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        rel = "/".join(parts + [part])
        entry = entries.get(rel)
        if entry is None:
            return None
        if entry.kind == "symlink":
            hops -= 1
            if hops < 0 or entry.target.startswith("/"):
                return None
            todo = [p for p in entry.target.split("/") if p not in ("", ".")] + todo
            continue
        parts.append(part)
    return entries.get("/".join(parts)) if parts else Entry("dir")


def regular_files(entries: Mapping[str, Entry]) -> set[str]:
    """The paths the benchmark counts as files: regular files, or symlinks to one, outside any ``.git``."""
    out = set()
    for path, entry in entries.items():
        if ".git" in path.split("/") or entry.kind not in ("file", "symlink"):
            continue
        found = resolve(entries, path) if entry.kind == "symlink" else entry
        if found is not None and found.kind == "file":
            out.add(path)
    return out


def new_paths(before: Mapping[str, Entry], after: Mapping[str, Entry]) -> list[str]:
    """The files the reply added (directories and anything under ``.git`` do not count)."""
    return sorted(regular_files(after) - regular_files(before))


def disallowed_new(before, after, allowed: Sequence[str]) -> list[str]:
    """New files the task does not name in its allowed-new-files list."""
    allowed = set(allowed)
    return [path for path in new_paths(before, after) if path not in allowed]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str


@dataclass(frozen=True)
class Difference:
    """One way a final state differs from the state its task asks for: what the task expects at
    ``path`` and what the state holds there, each short. ``checked`` is False for a change that
    no check judges (a fixture entry the task does not name, changed or gone, a new folder)."""

    path: str
    expected: str
    found: str
    checked: bool = True

    def as_dict(self) -> dict:
        return {"path": self.path, "expected": self.expected, "found": self.found, "checked": self.checked}


#: at most this many differences are listed; one more entry then counts the rest
DIFFERENCES = 20


def _show(data: bytes, limit: int = 60) -> str:
    if not isinstance(data, bytes):
        return str(data)  # bytes a model does not know, in its own words (qbcore.predict)
    text = data.decode("utf-8", "backslashreplace")
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _contrast(want: bytes, got: bytes) -> tuple[str, str]:
    """``want`` and ``got`` shown from the first line where they part (``line N: …`` past the first)."""
    wanted, held = want.splitlines(keepends=True), got.splitlines(keepends=True)
    line = next((n for n, (a, b) in enumerate(zip(wanted, held)) if a != b), min(len(wanted), len(held)))
    if line == 0:
        return _show(want), _show(got)
    lead = f"line {line + 1}: "
    return lead + _show(b"".join(wanted[line:])), lead + _show(b"".join(held[line:]))


def _expected_bytes(spec: Mapping) -> bytes:
    if "text" in spec:
        return spec["text"].encode("utf-8")
    import base64
    return base64.b64decode(spec["base64"])


def _file(after, path):
    """(the bytes of the regular file ``path`` leads to, or None; the check's words when None;
    what is there instead, for a Difference)."""
    entry = resolve(after, path)
    if entry is None:
        return None, f"{path} is missing", "missing"
    if entry.kind != "file":
        return None, f"{path} is a {entry.kind}, not a regular file", f"a {entry.kind}"
    return entry.data, "", ""


# Each check returns (its problem, "" when it holds; the differences it found, [] when it holds).

def _check_file_bytes(spec, after, **_):
    path, want = spec["path"], _expected_bytes(spec)
    data, problem, there = _file(after, path)
    if data is None:
        return problem, [Difference(path, _show(want), there)]
    if data != want:
        return f"{path} holds {_show(data)} instead of {_show(want)}", [Difference(path, *_contrast(want, data))]
    return "", []


def _check_json(spec, after, **_):
    path = spec["path"]
    wanted = "the JSON value " + json.dumps(spec["value"], ensure_ascii=False)[:80]
    data, problem, there = _file(after, path)
    if data is None:
        return problem, [Difference(path, wanted, there)]
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"{path} is not valid JSON ({exc}): {_show(data)}", \
            [Difference(path, wanted, f"not JSON ({exc}): {_show(data)}")]
    if value != spec["value"]:
        held = json.dumps(value, ensure_ascii=False)[:80]
        return f"{path} holds the JSON value {held} instead of {json.dumps(spec['value'], ensure_ascii=False)[:80]}", \
            [Difference(path, wanted, "the JSON value " + held)]
    return "", []


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


class GitRepository:
    """The questions the git check asks of a repository, answered by git itself on the real
    directory ``root``. The git model answers the same questions from its virtual tree
    (``qbcore.model.utilities.gitstore.StoredRepository``): one check, two trees."""

    def __init__(self, root: str):
        self.root = root

    def __enter__(self):
        self._home = tempfile.TemporaryDirectory(prefix="qbcore-git-home-")
        self.home = self._home.name
        return self

    def __exit__(self, *exc):
        self._home.cleanup()
        return False

    def history(self) -> tuple[list | None, str]:
        """The commit ids reachable from HEAD, newest first; or (None, git's complaint)."""
        done = _git_read(self.root, self.home, "rev-list", "HEAD")
        if done.returncode != 0:
            return None, done.stderr.decode(errors="replace").strip()
        return done.stdout.decode().split(), ""

    def head_commit(self) -> bytes | None:
        """The raw HEAD commit object."""
        return _git_objects(self.root, self.home, ["HEAD"])[0]

    def tracked(self) -> set:
        """The paths in the index."""
        listing = _git_read(self.root, self.home, "ls-files", "-z").stdout
        return {name.decode("utf-8", "surrogateescape") for name in listing.split(b"\0") if name}


def _check_git(spec, root, after, repository=None, **_):
    problem, path, expected, found = _git_problem(spec, root, after, repository)
    return problem, [Difference(path, expected, found)] if problem else []


def _git_problem(spec, root, after, repository) -> tuple:
    """(the git check's problem, "" when it holds; the path, expectation and finding it concerns)."""
    # the benchmark reads the last commit's message, the index and the commit count
    if after.get(".git", Entry("missing")).kind != "dir":
        return ".git is not a directory any more", ".git", "a repository", "no folder"
    with (repository or GitRepository(root)) as repo:
        history, problem = repo.history()
        if history is None:
            return "no commit was made: " + problem, ".git", "a commit", "no commit: " + problem[:120]
        raw = (repo.head_commit() or b"").decode("utf-8", "surrogateescape")
        message = raw.split("\n\n", 1)[1] if "\n\n" in raw else ""
        want = spec["message"]
        if message.rstrip("\n") != want.rstrip("\n"):
            held = _show(message.encode(errors="surrogateescape"))
            return f"the commit message is {held} instead of {_show(want.encode())}", ".git", \
                "the commit message " + _show(want.encode()), "the commit message " + held
        indexed = repo.tracked()
        for path in spec.get("tracked", ()):
            if path not in indexed:
                return f"{path} was not committed", path, "committed", "not committed"
        commits = len(history)
        if commits != spec.get("commits", 1):
            return f"the branch holds {commits} commits instead of {spec.get('commits', 1)}", ".git", \
                f"{spec.get('commits', 1)} commits", f"{commits} commits"
    return "", "", "", ""


def _check_file_set(spec, after, **_):
    # every file outside .git, directories aside: exactly these names, with these bytes
    want = spec["files"]
    got = regular_files(after)
    missing, extra = sorted(set(want) - got), sorted(got - set(want))
    problem = f"the files differ from the expected set: missing {missing}, unexpected {extra}" \
        if missing or extra else ""
    found = [Difference(path, "a file" if want[path] is None else _show(want[path].encode()), "missing")
             for path in missing]
    found += [Difference(path, "absent", _describe(resolve(after, path))) for path in extra]
    for path, text in want.items():
        if text is not None and path in got:
            data = _file(after, path)[0] or b""
            if data != text.encode("utf-8"):
                problem = problem or f"{path} holds {_show(data)} instead of {_show(text.encode())}"
                found.append(Difference(path, *_contrast(text.encode("utf-8"), data)))
    return problem, found


def _check_path_list(spec, after, **_):
    # lines as Python's text reading splits them; a leading prefix (./) is dropped from each
    path, want = spec["path"], spec["text"].encode("utf-8")
    data, problem, there = _file(after, path)
    if data is None:
        return problem, [Difference(path, _show(want), there)]
    try:
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError:
        return f"{path} is not UTF-8 text: {_show(data)}", [Difference(path, _show(want), "not UTF-8: " + _show(data))]
    prefix = spec.get("strip_prefix", "")
    got = "".join((line[len(prefix):] if prefix and line.startswith(prefix) else line) + "\n"
                  for line in text.splitlines())
    if got != spec["text"]:
        return f"{path} lists {_show(got.encode())} instead of {_show(want)}", \
            [Difference(path, *_contrast(want, got.encode("utf-8")))]
    return "", []


_CHECKS = {"file-bytes": _check_file_bytes, "file-set": _check_file_set, "path-list": _check_path_list,
           "json-value": _check_json, "git": _check_git}


def _run(spec: Mapping, **given) -> tuple:
    try:
        run = _CHECKS[spec["kind"]]
    except KeyError:
        raise ValueError(f"unknown check kind {spec.get('kind')!r}") from None
    return run(spec, **given)


_HOLDS = "the final state is the one the task asks for"


def check(checks: Sequence[Mapping], root: str, before: Mapping[str, Entry], after: Mapping[str, Entry],
          info: FixtureInfo = FixtureInfo(), repository=None) -> Verdict:
    """Run every check; the verdict fails at the first that does not hold and says why.
    ``repository`` answers the git check's questions (default: git on ``root``)."""
    for spec in checks:
        problem, _ = _run(spec, root=root, before=before, after=after, info=info, repository=repository)
        if problem:
            return Verdict(False, problem)
    return Verdict(True, _HOLDS)


def judge(checks: Sequence[Mapping], root: str, before: Mapping[str, Entry], after: Mapping[str, Entry],
          allowed_new: Sequence[str] = (), info: FixtureInfo = FixtureInfo(), repository=None,
          limit: int = DIFFERENCES) -> tuple:
    """``(verdict, stray, differences)``: ``check``'s verdict, the new files the task does not
    allow (``disallowed_new``) and ``differences``, with each check run once (a git check asks
    its repository once)."""
    found, judged, problem = [], {".git"}, ""
    for spec in checks:
        failed, listed = _run(spec, root=root, before=before, after=after, info=info, repository=repository)
        problem, found = problem or failed, found + listed
        if "path" in spec:
            judged.add(spec["path"])
        if spec["kind"] == "file-set":
            judged |= regular_files(before) | regular_files(after)
    stray = disallowed_new(before, after, allowed_new)
    found += [Difference(path, "absent (not a new file the task allows)", _describe(after[path])) for path in stray]
    judged.update(stray)
    for path in sorted(set(before) | set(after)):
        if path not in judged and path.split("/", 1)[0] != ".git" and before.get(path) != after.get(path):
            found.append(Difference(path, *_change(before.get(path), after.get(path)), checked=False))
    if len(found) > limit:
        found[limit:] = [Difference("", "", f"{len(found) - limit} more differences", checked=False)]
    return Verdict(not problem, problem or _HOLDS), stray, tuple(found)


def differences(checks: Sequence[Mapping], root: str, before: Mapping[str, Entry], after: Mapping[str, Entry],
                allowed_new: Sequence[str] = (), info: FixtureInfo = FixtureInfo(), repository=None,
                limit: int = DIFFERENCES) -> tuple[Difference, ...]:
    """Every way ``after`` differs from the state the task asks for, as ``check`` judges it: what
    each check finds (every check, not only the first that fails), then the new files the task
    does not allow, then the changes from ``before`` that no check judges (``checked`` False).
    Past ``limit`` entries one more says how many were left out."""
    return judge(checks, root, before, after, allowed_new, info, repository, limit)[2]


def _describe(entry: Entry | None) -> str:
    if entry is None:
        return "missing"
    if entry.kind == "file":
        return "a file " + _show(entry.data)
    if entry.kind == "symlink":
        return f"a symlink to {entry.target!r}"
    return "a folder" if entry.kind == "dir" else "a special file"


def _change(old: Entry | None, new: Entry | None) -> tuple[str, str]:
    """(expected, found) for an entry that changed: its mode alone, its bytes from the first line
    that differs, or what it was and is."""
    if old is not None and new is not None and old.kind == new.kind:
        if old.kind in ("file", "dir") and old.data == new.data and old.mode != new.mode:
            return f"mode {old.mode:04o}", f"mode {new.mode:04o}"
        if old.kind == "file" and old.mode == new.mode:
            return _contrast(old.data, new.data)
    return _describe(old), _describe(new)
