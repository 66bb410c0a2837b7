"""git's model against git 2.39: the same commands in a real directory and in the virtual tree.

Both sides run with HOME at the directory (as the executor's harness does),
no system or global config, and the model's fixed date, so commit ids match
too. Compared after each command: status, and stdout and stderr where the
model claims them; at the end every file (``.git`` included, the index as
its entries) and the validator's three answers (HEAD's message, the tracked
files, the commit count) from both implementations of the git check's
interface.
"""

import datetime
import os
import shutil
import subprocess
import tempfile

import pytest
from hypothesis import example, HealthCheck, given, settings, strategies as st

from tests_settings import examples
from qbcore.model.utilities import gitstore
from qbcore.model.utilities.context import CommandContext
from qbcore.model.utilities.git import BUILTINS_WITHOUT_PROGRAM, cleanup_message, git
from qbcore.model.utilities.gitfixture import stored_repository
from qbcore.model.utilities.hostfacts import GIT_EXEC_PATH, Facts, stated, system_programs
from qbcore.model.utilities.vfs import VirtualTree
from qbcore.realbash import validators

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

DATE = "946684800 +0000"
ROOT = "/task"
IDENTITY = [["git", "config", "user.name", "QuoteBench"], ["git", "config", "user.email", "qb@example.com"]]
START = [["git", "init", "-q", "-b", "master", "--template="], *IDENTITY]


def _env(home):
    return {"PATH": "/usr/bin:/bin", "HOME": home, "LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE}


def _write(path, data):
    with open(path, "wb") as handle:
        handle.write(data)


# steps that change the work tree between git commands: ["write", path] with the bytes as stdin, ["remove", path]
_EDITS = {"write": _write, "remove": lambda path, _: os.remove(path)}


def _real(steps, files, modes, links):
    """[(status, stdout, stderr)] per step and the final {path: bytes|None|("link", target)}."""
    base = tempfile.mkdtemp(prefix="qbcore-gitdiff-")
    root = os.path.join(base, "task")
    os.mkdir(root)
    try:
        for path, data in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as handle:
                handle.write(data)
            os.chmod(full, modes.get(path, 0o644))
        for path, target in links.items():
            os.symlink(target, os.path.join(root, path))
        results = []
        for argv, stdin, cwd in steps:
            if argv[0] in _EDITS:
                _EDITS[argv[0]](os.path.join(root, argv[1]), stdin)
                results.append(None)
                continue
            done = subprocess.run(argv, cwd=os.path.join(root, cwd), env=_env(root), input=stdin,
                                  capture_output=True, timeout=30)
            results.append((done.returncode, done.stdout, done.stderr))
        final = {}
        for current, dirs, names in os.walk(root):
            for name in dirs + names:
                full = os.path.join(current, name)
                rel = os.path.relpath(full, root)
                if os.path.islink(full):
                    final[rel] = ("link", os.readlink(full))
                elif os.path.isdir(full):
                    final[rel] = None
                else:
                    with open(full, "rb") as handle:
                        final[rel] = handle.read()
        answers = None
        if os.path.isdir(os.path.join(root, ".git")):
            with validators.GitRepository(root) as repo:
                history, _ = repo.history()
                answers = (history, repo.head_commit() if history else None, repo.tracked())
        return results, final, answers
    finally:
        shutil.rmtree(base)


def _model(steps, files, modes, links):
    tree = VirtualTree()
    tree.mkdir(ROOT)
    for path, data in files.items():
        tree.mkdir(os.path.dirname(f"{ROOT}/{path}"), parents=True, exist_ok=True)
        tree.write_bytes(f"{ROOT}/{path}", data)
        tree.chmod(f"{ROOT}/{path}", modes.get(path, 0o644))
    for path, target in links.items():
        tree.symlink(target, f"{ROOT}/{path}")
    results = []
    for argv, stdin, cwd in steps:
        if argv[0] == "write":
            tree.write_bytes(f"{ROOT}/{argv[1]}", stdin)
            results.append(None)
            continue
        if argv[0] == "remove":
            tree.remove(f"{ROOT}/{argv[1]}")
            results.append(None)
            continue
        done = git(CommandContext(list(argv), stdin, f"{ROOT}/{cwd}".rstrip("/").replace("/.", "") or ROOT,
                                  _env(ROOT), tree, stdin_regular=False))  # (the real run's stdin: a pipe)
        if done.unknown is not None:
            return None, done.unknown, None
        results.append(done)
    links_now = tree.symlinks()
    final = {}
    for path in tree.walk(ROOT):
        if path == ROOT:
            continue
        rel = path[len(ROOT) + 1:]
        final[rel] = ("link", links_now[path]) if path in links_now else (
            None if tree.is_dir(path) else tree.read_bytes(path))
    answers = None
    if ".git" in final:
        entries = {rel: validators.Entry("file", 0o644, data) for rel, data in final.items()
                   if isinstance(data, bytes)}
        repo = stored_repository(entries)
        history, _ = repo.history()
        answers = (history, repo.head_commit() if history else None, repo.tracked())
    return results, final, answers


def compare(steps, files=None, modes=None, links=None, must_model=True):
    """Run ``steps`` ([argv] or (argv, stdin, cwd)) both ways; returns the model's results."""
    steps = [(s, b"", "") if isinstance(s, list) else s for s in steps]
    files, modes, links = files or {}, modes or {}, links or {}
    model, final, answers = _model(steps, files, modes, links)
    if model is None:
        assert not must_model, f"not modelled: {final}"
        return None
    real, real_final, real_answers = _real(steps, files, modes, links)
    for (argv, _, _), got, ran in zip(steps, model, real):
        if got is None:
            continue
        status, out, err = ran
        if got.status_unknown is None:
            assert got.status == status, (argv, got, err)
        if got.stdout_unknown is None:
            assert got.stdout == out, argv
        if got.stderr_unknown is None:
            assert got.stderr == err, argv
    assert answers == real_answers
    # the index's stat data differs: compare its entries
    for side in (final, real_final):
        for path, data in side.items():
            if path.endswith(".git/index") and isinstance(data, bytes):
                side[path] = gitstore.parse_index(data)
    assert final == real_final
    return model


# -- tables ----------------------------------------------------------------------

FILES = {"newfile.txt": b"payload data\n", "sub/a.txt": b"a\n", "sub/deep/b.txt": b"b"}


@pytest.mark.parametrize("steps", [
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "add feature"]],
    [*START, ["git", "add", "."], ["git", "commit", "-m", "all of it"]],
    [*START, ["git", "stage", "newfile.txt"], ["git", "commit", "-q", "-m", "staged"]], [*START, ["git", "stage", "nope"]],
    [*START, ["git", "add", "-A"], ["git", "commit", "-qm", "dash qm"]],
    [*START, ["git", "add", "--all"], ["git", "commit", "--quiet", "--message=long form"]],
    [*START, ["git", "add", "--", "sub"], ["git", "commit", "-q", "-m", "a", "-m", "b", "-m", "", "-m", "c"]],
    [*START, ["git", "add", "sub/deep"], ["git", "commit", "-q", "-mjoined"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "one"],
     ["git", "add", "sub"], ["git", "commit", "-q", "-m", "two"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "one"],
     ["git", "commit", "-q", "--allow-empty", "-m", "empty"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "one"],
     ["git", "commit", "-q", "-m", "nothing"]],
    [*START, ["git", "commit", "-q", "-m", "nothing staged"]],
    [*START, ["git", "commit", "-q", "--allow-empty", "-m", "empty root"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", ""]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", " \n\t\n"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "--allow-empty-message", "-m", ""]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "x", "-F", "newfile.txt"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-F", "missing.txt"]],
    [*START, ["git", "commit", "-q", "-F", "missing.txt"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-F", "newfile.txt"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "--file=newfile.txt"]],
    [*START, ["git", "add"]],
    # a value left out: parse-options' error, status 129; a pathspec is checked before any editor
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-qF"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-m", "x", "--message"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "--file"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "--", "-m"]],
    [*START, ["git", "commit", "--amend"]],
    [*START, ["git", "add", "missing"]],
    [*START, ["git", "add", "newfile.txt", "missing"], ["git", "commit", "-q", "-m", "x"]],
    [*START, ["git", "add", "-u"], ["git", "commit", "-q", "-m", "x"]],
    [["git", "init", "-q", "-b", "master", "--template="], ["git", "add", "newfile.txt"],
     ["git", "commit", "-q", "-m", "no identity"]],
    [["git", "init", "-q", "-b", "master", "--template="], ["git", "config", "user.email", "e@x"],
     ["git", "add", "newfile.txt"], ["git", "-c", "user.name=Somebody", "commit", "-q", "-m", "via -c"]],
    [["git", "init", "-q", "-b", "master", "--template="], ["git", "add", "newfile.txt"],
     ["git", "-c", "user.name=A B", "-c", "user.email=a@b", "commit", "-q", "-m", "via -c"]],
    [["git", "init", "-q", "-b", "master", "--template="], ["git", "config", "--global", "user.name", "G"],
     ["git", "config", "--global", "user.email", "g@h"], ["git", "add", "newfile.txt"],
     ["git", "commit", "-q", "-m", "global identity"]],
    [["git", "init", "-q", "-b", "main"], *IDENTITY, ["git", "add", "."], ["git", "commit", "-q", "-m", "template"]],
    [["git", "init", "--template="], ["git", "init", "-q", "--template="]],
    [*START, ["git", "add", "."], ["git", "init", "-q"], ["git", "init", "-b", "other"],
     ["git", "commit", "-q", "-m", "after a second init"]],
    [*START, ["git", "init", "-q", "-b", "main", "--template="], (["git", "init", "-q"], b"", "sub")],
    [["git", "init", "-q", "--template=", "repo"], ["git", "-C", "repo", "config", "user.name", "N"],
     ["git", "-C", "repo", "config", "user.email", "n@m"], ["git", "-C", "repo", "commit", "-q", "--allow-empty",
                                                            "-m", "in a directory"]],
    [["git", "init", "-q", "-b", "trunk", "--template=", "sub"], ["git", "-C", "sub", "add", "a.txt"],
     ["git", "-C", "sub", "status"]],
    [["git", "add", "newfile.txt"]],
    [["git", "commit", "-m", "x"]],
    [["git", "commit", "-m", "x", "-F", "newfile.txt"]],
    [*START, ["git", "config", "user.name", "Changed Name"], ["git", "config", "user.name"],
     ["git", "config", "user.email"], ["git", "config", "core.bare"], ["git", "config", "user.nothing"],
     ["git", "config", "user.email", " spaced # value "], ["git", "config", "--get", "user.email"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "one"],
     ["git", "log", "--oneline"], ["git", "commit", "-aqm", "nothing changed"]],
    [*START, ["git", "status"], ["git", "log"], ["git", "show", "--stat"], ["git", "ls-files", "-s"],
     ["git", "status", "--porcelain"], ["git", "add", "."], ["git", "status", "-s"], ["git", "log", "-1"],
     ["git", "commit", "-q", "-m", "one"], ["git", "log", "--oneline", "-1"], ["git", "show", "--format=%s", "-s"],
     ["git", "status", "-sb"], ["git", "diff", "HEAD"], ["git", "rev-parse", "HEAD"]],
    [["git", "status"], ["git", "log", "--oneline"], ["git", "show"], ["git", "ls-files"]],
    [*START, ["git", "diff"], ["git", "add", "."], ["git", "diff", "--cached", "--stat"], ["git", "diff", "--staged"],
     ["git", "diff", "--name-only"], ["git", "commit", "-qm", "one"], (["write", "newfile.txt"], b"changed\n", ""),
     ["git", "diff", "--stat"], ["git", "diff", "--exit-code"], ["git", "diff", "--", "newfile.txt"]],
    [*START, ["git", "commit", "-q", "--amend", "-m", "nothing yet"]],
    [*START, ["git", "branch", "-M", "main"], ["git", "add", "."], ["git", "commit", "-qm", "on main"],
     ["git", "branch", "-m", "trunk"], ["git", "commit", "-q", "--allow-empty", "-m", "on trunk"],
     ["git", "branch", "-m", "master", "other"], ["git", "branch", "-m", "trunk", "main"], ["git", "log"]],
    [*START, ["git", "commit", "-q", "-m", "untracked", "newfile.txt"], ["git", "commit", "-qm", "x", "--", "a", "b"]],
    [*START, ["git", "add", "."], (["write", "newfile.txt"], b"changed\n", ""),
     ["git", "commit", "-q", "-m", "only one", "newfile.txt"],
     ["git", "commit", "-q", "-m", "the rest", "sub"], ["git", "commit", "-q", "-m", "again", "sub"],
     ["remove", "sub/a.txt"], ["git", "commit", "-q", "-m", "removed", "--", "sub/a.txt"]],
    [*START, ["git", "add", "."], ["git", "commit", "-q", "-a", "-m", "paths with -a", "newfile.txt"]],
    [*START, ["git", "add", "sub"], (["git", "commit", "-q", "-m", "from sub", "."], b"", "sub")],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "wrong"],
     ["git", "commit", "-q", "--amend", "-m", "right"], ["git", "add", "sub"],
     ["git", "commit", "-q", "-m", "second"], ["git", "commit", "--amend", "-q", "--no-edit"],
     ["git", "commit", "--amend", "-q", "-m", "second, again", "-m", "body"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "one"],
     ["git", "commit", "-q", "--allow-empty", "-m", "empty"], ["git", "commit", "-q", "--amend", "-m", "still empty"],
     ["git", "commit", "-q", "--amend", "--allow-empty", "-m", "still empty"]],
    [*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "-m", "one"],
     ["git", "config", "user.name", "Later"], ["git", "commit", "-q", "--amend", "--no-edit"]],
    # a one-letter option add does not have, anywhere among its words: 129 before it adds anything
    # (a reply's lines joined on one line hand add the commit's options)
    [*START, ["git", "add", "-q", "newfile.txt"], ["git", "add", "newfile.txt", "git", "commit", "-q", "-m", "x"],
     ["git", "add", "-Aq"], ["git", "add", "-A", "--", "-q"]],
    [["git", "add", "-q", "newfile.txt"]],  # no repository: that is said first (128)
])
def test_command_sequences_match_git(steps):
    compare(steps, FILES)


@pytest.mark.parametrize("argv", [["git"], ["git", "-P"], ["git", "--no-pager"], ["git", "-C", "sub"],
                                  ["git", "-c", "user.name=x"]])
def test_git_without_a_command_matches_git(argv):
    # its usage goes to stdout (the installed git's words, not spelled): status 1, nothing changed
    (done,) = compare([argv], FILES)
    assert done.status == 1 and done.stdout_unknown and done.stderr == b""
    (after,) = compare([*START, argv], FILES)[len(START):]
    assert after.status == 1


def test_every_builtin_but_a_few_has_a_program_in_the_exec_path():
    # what tells a command git does not have from a builtin (git.BUILTINS_WITHOUT_PROGRAM)
    listed = subprocess.run(["git", "--list-cmds=builtins"], capture_output=True, text=True, check=True).stdout.split()
    programs = {name[4:] for name in system_programs()[GIT_EXEC_PATH] if name.startswith("git-")}
    assert set(listed) - programs == BUILTINS_WITHOUT_PROGRAM


@pytest.mark.parametrize("name", ["commit -q", "a&b", "Commit x", "add\n", "commi", "co", "", "COMMIT"])
def test_a_command_git_does_not_have_matches_git(name):
    # no builtin, alias or git-NAME program in the stated folders: status 1, its guesses on
    # stderr (not spelled); an unstated folder on PATH leaves it unknown
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "root",
                      programs=system_programs())):
        (*_, done) = compare([*START, ["git", "add", "newfile.txt"], ["git", name, "-m", "x"]], FILES)
        assert done.status == 1 and done.stderr_unknown and done.stdout == b""
    assert compare([*START, ["git", name]], FILES, must_model=False) is None


def test_an_alias_is_not_followed():
    with stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "root",
                      programs=system_programs())):
        assert compare([*START, ["git", "config", "alias.co", "commit"], ["git", "co", "-m", "x"]], FILES,
                       must_model=False) is None


def test_modes_links_and_deletions_match_git():
    files = {"run.sh": b"#!/bin/sh\n", "plain": b"x", "gone": b"soon gone\n"}
    compare([*START, ["git", "add", "-A"], ["git", "commit", "-q", "-m", "first"],
             ["git", "add", "-A"], ["git", "commit", "-q", "-m", "unchanged"]],
            files, {"run.sh": 0o755}, {"link": "plain", "dangling": "nowhere"})


def test_commit_all_and_subdirectory_pathspecs_match_git():
    compare([*START, ["git", "add", "."], ["git", "commit", "-q", "-m", "first"],
             (["git", "add", "../newfile.txt", "."], b"", "sub"), (["git", "commit", "-qam", "from sub"], b"", "sub")],
            FILES)


def test_stdin_message_matches_git():
    compare([*START, ["git", "add", "newfile.txt"],
             (["git", "commit", "-q", "-F", "-"], b"from stdin\n\n\n# kept\nsecond  \n", "")], FILES)
    # /dev/stdin opens the pipe: the same bytes
    for name in ("/dev/stdin", "/dev/fd/0"):
        compare([*START, ["git", "add", "newfile.txt"], (["git", "commit", "-q", "-F", name], b"fix: it's\n", "")],
                FILES)
        compare([*START, ["git", "add", "newfile.txt"], (["git", "commit", "-q", f"--file={name}"], b"x\n", "")], FILES)


def test_unmodelled_shapes_are_unknown():
    for argv in (["git", "add", "*.txt"], ["git", "commit", "-q"], ["git", "commit", "-i", "-m", "x", "sub"],
                 ["git", "push"], ["git", "--git-dir=x", "status"]):
        assert compare([*START, argv], FILES, must_model=False) is None, argv
    # a pathspec that matches: the editor opens
    assert compare([*START, ["git", "add", "newfile.txt"], ["git", "commit", "-q", "newfile.txt"]], FILES,
                   must_model=False) is None
    ignored = {**FILES, ".gitignore": b"*.txt\n"}
    assert compare([*START, ["git", "add", "."]], ignored, must_model=False) is None


# -- generated messages ----------------------------------------------------------

LINES = st.text(st.sampled_from(list("ab #\t\r\x0b\x0c") + ["é", "✓", "\\", "'", '"']), max_size=8)
MESSAGES = st.lists(LINES, max_size=6).map("\n".join)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=st.lists(MESSAGES, min_size=1, max_size=3),
       cleanup=st.sampled_from([None, "default", "whitespace", "strip", "verbatim"]))
def test_messages_by_dash_m_match_git(messages, cleanup):
    argv = ["git", "commit", "-q"] + ([f"--cleanup={cleanup}"] if cleanup else [])
    for message in messages:
        argv += ["-m", message]
    compare([*START, ["git", "add", "newfile.txt"], argv], FILES)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(message=MESSAGES, trailing=st.sampled_from(["", "\n", "\n\n"]), stdin=st.booleans(),
       cleanup=st.sampled_from([None, "strip", "verbatim"]))
def test_messages_by_dash_f_match_git(message, trailing, stdin, cleanup):
    data = (message + trailing).encode()
    argv = ["git", "commit", "-q"] + ([f"--cleanup={cleanup}"] if cleanup else [])
    if stdin:
        step = (argv + ["-F", "-"], data, "")
        files = FILES
    else:
        step = (argv + ["-F", "msg"], b"", "")
        files = {**FILES, "msg": data}
    compare([*START, ["git", "add", "newfile.txt"], step], files)


def _step(draw_name, message):
    return st.one_of(
        st.sampled_from([["git", "add", "newfile.txt"], ["git", "add", "."], ["git", "add", "-A"], ["git", "add", "-u"],
                         ["git", "add", "sub"], ["git", "add", "missing"], ["git", "status"], ["git", "log", "-1"],
                         ["git", "init", "-q"], ["remove", "newfile.txt"], ["remove", "sub/a.txt"],
                         ["git", "branch", "-M", "main"], ["git", "branch", "-m", "trunk"]]),
        st.tuples(st.sampled_from(["newfile.txt", "sub/a.txt", "new.txt"]), st.binary(max_size=6)).map(
            lambda pair: (["write", pair[0]], pair[1], "")),
        st.tuples(st.lists(st.sampled_from(["-a", "--allow-empty", "--amend", "-q"]), unique=True), message,
                  st.sampled_from([[], [], ["newfile.txt"], ["--", "sub"], ["."]])).map(
            lambda parts: ["git", "commit", *parts[0], "-m", parts[1], *parts[2]]),
        draw_name.map(lambda name: ["git", "config", "user.name", name]),
    )


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(_step(st.sampled_from(["A", "B C", "x#y", "Ünï"]), MESSAGES), max_size=8))
# a partial commit with nothing to commit writes no tree of its own (here the empty tree)
@example(steps=[["git", "add", "."], ["remove", "newfile.txt"], ["git", "commit", "-m", "", "newfile.txt"]])
def test_generated_sequences_match_git(steps):
    # a removed file may be removed again: the real run and the model both raise on it
    seen, kept = set(), []
    for step in steps:
        argv = step[0] if isinstance(step, tuple) else step
        if argv[0] == "remove":
            if argv[1] in seen:
                continue
            seen.add(argv[1])
        elif argv[0] == "write":
            seen.discard(argv[1])
        kept.append(step)
    commit_paths = any(a[:2] == ["git", "commit"] and ("--amend" in a) and a[-1] in ("newfile.txt", "sub", ".")
                       for a in (step[0] if isinstance(step, tuple) else step for step in kept))
    compare([*START, *kept], FILES, must_model=not commit_paths)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.text(st.sampled_from(list(" ab#;\"\\\t\n=[]") + ["é"]), max_size=8),
       key=st.sampled_from(["user.name", "user.email", "init.defaultBranch"]), scope=st.sampled_from([[], ["--global"]]))
def test_config_values_match_git(value, key, scope):
    # git config's quoting and escapes when it writes a value, and its reading of them back
    compare([*START, ["git", "config", *scope, key, value], ["git", "config", key], ["git", "config", key, "plain"],
             ["git", "config", key]], FILES)


@settings(max_examples=examples(60), deadline=None)
@given(text=MESSAGES)
def test_cleanup_is_idempotent_and_trimmed(text):
    once = cleanup_message(text)
    assert cleanup_message(once) == once
    assert not once.startswith("\n") and "\n\n\n" not in once and (once == "" or once.endswith("\n"))


def test_the_stored_reader_refuses_what_rewires_history():
    entries = {".git/HEAD": validators.Entry("file", 0o644, b"ref: refs/heads/master\n")}
    for path in (".git/info/grafts", ".git/shallow", ".git/refs/replace/" + "0" * 40, ".git/packed-refs"):
        with pytest.raises(gitstore.Unreadable):
            stored_repository({**entries, path: validators.Entry("file", 0o644, b"")})
    assert stored_repository(entries).history()[0] is None


def test_the_stored_reader_answers_as_git_on_a_real_repository():
    # the validator's second implementation over a repository real git wrote (stat data, extensions)
    base = tempfile.mkdtemp(prefix="qbcore-gitread-")
    try:
        env = _env(base)
        for argv in START + [["git", "add", "."], ["git", "commit", "-q", "-m", "one\n\ntwo"],
                             ["git", "commit", "-q", "--allow-empty", "-m", "three"]]:
            if argv == ["git", "add", "."]:
                with open(os.path.join(base, "f.txt"), "w") as handle:
                    handle.write("x\n")
            subprocess.run(argv, cwd=base, env=env, check=True, capture_output=True)
        after = validators.snapshot(base)
        with validators.GitRepository(base) as real:
            want = (real.history(), real.head_commit(), real.tracked())
        stored = stored_repository(after)
        assert (stored.history(), stored.head_commit(), stored.tracked()) == want
    finally:
        shutil.rmtree(base)


def test_a_fixture_with_a_first_commit_is_laid_as_the_executor_builds_it():
    # realbash.fixture with real git beside predict's fixture tree with the model: same files, same answers
    from qbcore.predict import entries, fixture_tree
    from qbcore.realbash import fixture
    description = {"dirs": ["empty"], "files": [{"path": "a.txt", "text": "one\n"},
                                                {"path": "bin/run", "text": "#!/bin/sh\n", "mode": "0755"}],
                   "git": {"identity": {"name": "QuoteBench", "email": "qb@example.com"},
                           "initial_message": "first\n\n  body  \n",
                           "after_commit": [{"path": "a.txt", "text": "two\n"}]}}
    base = tempfile.mkdtemp(prefix="qbcore-gitfixture-")
    try:
        fixture.build(description, base)
        real = validators.snapshot(base)
        with validators.GitRepository(base) as repo:
            want = (repo.history(), repo.head_commit(), repo.tracked())
    finally:
        shutil.rmtree(base)
    virtual = entries(fixture_tree(description, "/task"), "/task")
    stored = stored_repository(virtual)
    assert (stored.history(), stored.head_commit(), stored.tracked()) == want

    def comparable(snapshot):
        return {path: gitstore.parse_index(e.data) if path == ".git/index" else (e.kind, e.data)
                for path, e in snapshot.items()}

    assert comparable(virtual) == comparable(real)
