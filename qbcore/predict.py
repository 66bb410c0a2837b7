"""Predict whether a reply passes a task under a transport, without running anything.

One job: run the transport's harness command (``transports.wrap``), outer
shell and inner shell alike, over a virtual copy of the task's fixture
(``qbcore.model.effects``),
and judge the final virtual state with the executor's own validator
(``realbash.validators``), mapped to the executor's failure classes. Where
any part is not known the prediction is unknown, and ``why`` names it.
"""

from __future__ import annotations

import base64
import datetime
import os
import shlex
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Mapping, Optional

from . import suite
from .harness import transports
from .harness.simulate import default_environ
from .model.effects import SHELL_RUNS, forget_parses, run_effects
from .model.expand import Opaque
from .model.files import dirname
from .model.utilities import gitfixture
from .model.utilities.gitstore import Unreadable
from .model.utilities.hostfacts import SLEPT, Facts, stated, system_programs, system_unrunnable
from .model.utilities.vfs import UnknownContent, UnknownData, VirtualTree
from .realbash import validators
from .realbash.executor import CLASSES
from .realbash.fixture import FixtureError, program_text
from .realbash.sandbox import HOSTNAME, LOGIN

__all__ = ["Prediction", "predict", "clear_caches", "TASK_DIR", "SUPPORTED"]

# The task directory as the sandbox names it, but for its random part: a value
# that reaches the final state, or the inner script, makes the prediction unknown.
_RANDOM = "5eed5eed5eed5eed"
TASK_DIR = f"/tmp/qbcore-attempt-{_RANDOM}/task"

# transports whose inner shell runs on this machine: `bash -c SCRIPT` reading /dev/null,
# `bash FILE` (script) or `bash -s` reading the script from stdin
SUPPORTED = frozenset({"raw", "json", "nested", "single", "double-nested", "json-naive", "script", "stdin",
                       "ssh", "ssh-argv", "heredoc-ssh"})

# the executor's stderr marks (realbash.executor._classify)
_SYNTAX_MARKS = ("unexpected EOF while looking for matching", "syntax error", "unterminated quoted string",
                 "bad substitution", "unexpected end of file")
_TOOL_MARKS = ("sed:", "awk:", "grep:", "find:", "mv:", "rm:", "printf:", "usage:", "No such file or directory")


@dataclass(frozen=True)
class Prediction:
    """``passed`` True/False, or None when unknown; ``failure_class`` one of the executor's
    classes (``pass`` when passed), None when not known; ``certain`` when ``passed`` is known;
    ``why`` a short reason; ``diff`` how the final state differs from the one the task asks for
    (``validators.differences``, as the executor reads it from the real state), None when not
    known. A file there whose bytes the model does not know is shown as such (UNKNOWN_FILE);
    ``diff_holds`` compares a diff with the executor's."""

    passed: Optional[bool]
    failure_class: Optional[str]
    certain: bool
    why: str
    diff: Optional[tuple] = None

    def as_dict(self) -> dict:
        return {"passed": self.passed, "class": self.failure_class, "certain": self.certain, "why": self.why,
                "diff": None if self.diff is None else [d.as_dict() for d in self.diff]}

    def diff_holds(self, executed: tuple) -> bool:
        """Whether ``diff`` (not None) says what the executor's differences say: the same, where
        a file whose bytes the model does not know stands for a file with any bytes."""
        return len(self.diff) == len(executed) and all(
            mine == theirs or mine.found.startswith(UNKNOWN_FILE) and theirs.found.startswith("a file ")
            and (mine.path, mine.expected, mine.checked) == (theirs.path, theirs.expected, theirs.checked)
            for mine, theirs in zip(self.diff, executed))


def _unknown(why: str) -> Prediction:
    return Prediction(None, None, False, why)


def _fixture_bytes(spec: Mapping) -> bytes:
    if "text" in spec:
        return spec["text"].encode("utf-8")
    return base64.b64decode(spec["base64"])


def fixture_tree(fixture: Mapping, root: str = TASK_DIR) -> VirtualTree:
    """The task's starting directory as a virtual tree under ``root``: what fixture.build lays down."""
    tree = VirtualTree()
    tree.mkdir(root, parents=True, exist_ok=True)
    tree.chmod(root, 0o755)
    _sandbox_tmp(tree, root)
    for rel in fixture.get("dirs", ()):
        tree.mkdir(f"{root}/{rel}", parents=True, exist_ok=True)
    for spec in fixture.get("programs", ()):
        _write(tree, f"{root}/{spec['path']}", program_text(spec).encode("utf-8"), 0o755)
    for spec in fixture.get("files", ()):
        _write(tree, f"{root}/{spec['path']}", _fixture_bytes(spec), int(spec.get("mode", "0644"), 8))
    if fixture.get("git"):
        gitfixture.lay(tree, root, fixture["git"])
    return tree


def _sandbox_tmp(tree: VirtualTree, root: str):
    """The sandbox's /tmp above ``root``, a tmpfs open to all with the sticky bit (sandbox.py)."""
    if root.startswith("/tmp/"):
        tree.chmod("/tmp", 0o1777)


def _write(tree: VirtualTree, path: str, data: bytes, mode: int):
    tree.mkdir(os.path.dirname(path), parents=True, exist_ok=True)
    tree.write_bytes(path, data)
    tree.chmod(path, mode)


def entries(tree: VirtualTree, root: str = TASK_DIR) -> dict:
    """The validators' snapshot (``{relative path: Entry}``) of the tree under ``root``."""
    out = {}
    nodes = tree.nodes()
    prefix = root.rstrip("/") + "/"
    known = _ENTRIES
    for path in tree.walk(root):
        if path == root:
            continue
        node = nodes[path]  # walk yields canonical paths: the node is the entry itself
        found = known.get(id(node))
        if found is not None and found[0] is node:
            out[path[len(prefix):]] = found[1]
            continue
        if node.kind == "l":
            entry = validators.Entry("symlink", target=node.target)
        elif node.kind == "d":
            entry = validators.Entry("dir", node.mode)
        elif type(node.data) is UnknownData:
            entry = validators.Entry("file", node.mode, _UnknownFileBytes(node.data.why))
        else:
            entry = validators.Entry("file", node.mode, node.data)
        if len(known) >= _ENTRIES_SIZE:
            known.clear()
        known[id(node)] = (node, entry)
        out[path[len(prefix):]] = entry
    return out


_NOT_KNOWN = "whose bytes are not known"
#: how a difference shows a file whose bytes the model does not know (validators._describe)
UNKNOWN_FILE = f"a file {_NOT_KNOWN} ("


def _unknown_use(self, *_args, **_kwargs):
    raise UnknownContent(self.why)


class _UnknownFileBytes:
    """The bytes of a final file the model does not know (vfs.UnknownData), as the validators
    meet them: a check that reads, compares or measures them raises UnknownContent, and the
    prediction is unknown; one that asks only for the file's name or kind (a stray file) is not
    stopped. Shown (validators._show), it says what wrote them."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why

    def __str__(self) -> str:
        return f"{_NOT_KNOWN} ({self.why})"

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __len__ = __bool__ = __iter__ = __contains__ = \
        __getitem__ = __add__ = __radd__ = __mul__ = __bytes__ = _unknown_use
    __hash__ = object.__hash__

    def __getattr__(self, name):  # decode, splitlines, startswith…
        raise UnknownContent(self.why)


# id(node) -> (the node, its Entry): nodes are replaced, never changed, and the trees of one
# task share those they did not change, so each is described once; the node is held, so its
# id names no other while it is here
_ENTRIES: dict = {}
_ENTRIES_SIZE = 1 << 16


# task id -> (its fixture, the tree, the validators' snapshot of it): built once, cloned per run
_STARTS: dict = {}
# (task id, harness script, arguments) -> (task, prediction): raw and json hand bash the same
# command, and a reply seen again is not walked again; bounded, oldest out first
_PREDICTED: OrderedDict = OrderedDict()
_PREDICTED_SIZE = 4096


def clear_caches(shell_runs: bool = True):
    """Forget every prediction made so far, every final state judged and node described, every
    script parsed, and every shell run unless ``shell_runs`` is False (each task's starting
    tree, at both places, and each shell's starting environment are kept)."""
    _PREDICTED.clear()
    _FINALS.clear()
    _ENTRIES.clear()
    forget_parses()
    if shell_runs:
        SHELL_RUNS.clear()


def _starting_state(task):
    cached = _STARTS.get(task.id)
    if cached is None or cached[0] is not task.fixture:
        tree = fixture_tree(task.fixture)
        cached = _STARTS[task.id] = (task.fixture, tree, entries(tree))
    return cached[1], cached[2]


def _task(task):
    return suite.get(task) if isinstance(task, str) else task


def predict(task, reply: str, transport: str = "raw") -> Prediction:
    """Whether ``reply`` passes ``task`` (a Task or an id) under ``transport``, as the executor
    would judge it. Raises suite.UnknownTask for an unknown id, ValueError for an unknown transport."""
    task = _task(task)
    spec = transports.get(transport)
    if not isinstance(reply, str):
        raise TypeError(f"reply must be str, not {type(reply).__name__}")
    if spec.name not in SUPPORTED:
        return _unknown(f"the {spec.name} transport is not modelled")
    try:
        start, before = _starting_state(task)
    except FixtureError as exc:
        return _unknown(f"the fixture: {exc}")
    try:
        invocation = transports.wrap(reply, spec.name)
    except ValueError as exc:
        # the harness refuses the reply (json-naive, a NUL character): the executor runs nothing
        return Prediction(False, "contract-error", True, f"the harness cannot pass this reply on: {exc}")
    found = _harness_script(invocation)
    if found is None:
        return _unknown(f"the harness command of {spec.name} is not modelled")
    script, args, source = found
    key = (task.id, script, tuple(args), source, spec.remote)
    known = _PREDICTED.get(key) if SHELL_RUNS.enabled else None
    if known is not None and known[0] is task and known[1] is task.fixture:
        _PREDICTED.move_to_end(key)
        return known[2]
    found = _predict_run(task, start, before, script, args, source, spec.remote)
    _PREDICTED[key] = (task, task.fixture, found)
    if len(_PREDICTED) > _PREDICTED_SIZE:
        _PREDICTED.popitem(last=False)
    return found


def _harness_script(invocation) -> Optional[tuple]:
    """``(script, [$0, $1, ...], source)`` of the bash a harness command starts (the
    ``source`` of ``effects.run_effects``), None for a command the model does not follow."""
    argv = list(invocation.argv)
    if argv[:2] == ["bash", "-c"] and len(argv) > 2 and not invocation.files and invocation.stdin is None:
        return argv[2], argv[3:] or ["bash"], "-c"
    if argv == ["bash", transports.SCRIPT_PATH] and invocation.stdin is None and \
            set(invocation.files) == {transports.SCRIPT_PATH}:
        return invocation.files[transports.SCRIPT_PATH].decode("utf-8", "surrogateescape"), argv[1:], "file"
    if argv == ["bash", "-s"] and not invocation.files and invocation.stdin is not None:
        return invocation.stdin.decode("utf-8", "surrogateescape"), ["bash"], "stdin"
    if argv[:1] == ["ssh"] and not invocation.files and invocation.stdin is None:
        # the harness starts the stand-in itself; a bash that runs the same argv starts it with
        # the same environment (bash exports the PWD it sets; SHLVL is back where it was)
        return "ssh " + " ".join(shlex.quote(word) for word in argv[1:]), ["bash"], "-c"
    return None


def _predict_run(task, start, before, script, args, source, remote) -> Prediction:
    # the task directory's path and the time differ on every run: two runs that differ in both must agree
    with stated(Facts(_NOW, LOGIN, programs=_programs(TASK_DIR, remote), unrunnable=_unrunnable(TASK_DIR, remote),
                      standins=_standins(TASK_DIR, remote), host=HOSTNAME, temp=_TEMP, pid=_PID,
                      mounts=frozenset({TASK_DIR}))) as facts:
        first, read_path = _run(task, start, before, script, args, source, remote, TASK_DIR)
    differ = facts.read - {SLEPT}
    if first.certain and SLEPT in facts.read and "the time" in facts.read:
        # the model's clock stands still: a time read after a sleep is later than one before
        return _unknown("the time, read by a run that sleeps")
    # the stand-in's folder on PATH holds the random part too: a reply that read PATH (not the
    # stand-in finding itself there) may depend on it
    if first.certain and (first.why.startswith(_DEPENDS) or differ or remote and read_path):
        with stated(Facts(_OTHER_NOW, LOGIN, programs=_programs(_OTHER_DIR, remote),
                          unrunnable=_unrunnable(_OTHER_DIR, remote), standins=_standins(_OTHER_DIR, remote),
                          host=HOSTNAME, temp=_OTHER_TEMP, pid=_OTHER_PID, mounts=frozenset({_OTHER_DIR}))):
            second, _ = _run(task, start, before, script, args, source, remote, _OTHER_DIR)
        if not second.certain or (second.passed, second.failure_class) != (first.passed, first.failure_class):
            return _unknown("the outcome depends on the task directory's path, the time, the names mktemp "
                            "gives or the shell's process id, which differ on every run")
        # the state may hold what differs between the runs (the time, a name mktemp gave): a
        # difference listed is one both runs made
        return replace(first, why=first.why.replace(_DEPENDS, "", 1), diff=first.diff if first.diff == second.diff
                       else None)
    return first


_DEPENDS = "\0path\0"
_OTHER_DIR = f"/tmp/qbcore-attempt-{_RANDOM[::-1].upper()}/task"
# two times as unlike as two times get: every field of the date's default format differs
_NOW = datetime.datetime(2031, 12, 31, 23, 59, 58, tzinfo=datetime.timezone.utc)
_OTHER_NOW = datetime.datetime(2104, 2, 1, 1, 2, 3, tzinfo=datetime.timezone.utc)
# how the names mktemp gives start (hostfacts.Facts.temp), unlike in each letter in the two runs
_TEMP = "/tmp/tmp." + _RANDOM[:6]
_OTHER_TEMP = "/tmp/tmp." + _RANDOM[::-1][:6].upper()
# the harness bash's process id ($$), as unlike in the two runs as process ids get: the
# smallest a process other than the namespace's first has, and the largest pid_max allows
_PID, _OTHER_PID = 2, 4194303


def _programs(root: str, remote: bool) -> dict:
    """The folders whose names a run states: the system's (hostfacts.system_programs), and the
    attempt's folder the sandbox makes around the task directory ``root`` (executor.run:
    the task directory, and the stand-ins' folder for the ssh transports)."""
    key = (root, remote)
    known = _PROGRAMS.get(key)
    if known is None:
        known = _PROGRAMS[key] = {**system_programs(),
                                  dirname(root): frozenset({"task", "bin"} if remote else {"task"})}
    return known


_PROGRAMS: dict = {}


def _unrunnable(root: str, remote: bool) -> dict:
    """The names of ``_programs(root, remote)`` that are no program: the system's that are not
    (hostfacts.system_unrunnable), and the attempt's folder's, which holds only folders."""
    key = (root, remote)
    known = _UNRUNNABLE.get(key)
    if known is None:
        known = _UNRUNNABLE[key] = {**system_unrunnable(), dirname(root): _programs(root, remote)[dirname(root)]}
    return known


_UNRUNNABLE: dict = {}


def _standins(root: str, remote: bool) -> Optional[str]:
    """The folder of the stand-in ssh beside the task directory ``root`` (executor._tool_dir)."""
    return dirname(root) + "/bin" if remote else None


def _run(task, start, before, script, args, source, remote, root) -> tuple:
    """The harness script run over a copy of the fixture placed at ``root``: the prediction, and
    whether the run read PATH for the reply's sake."""
    tree = start.clone() if root == TASK_DIR else _moved_start(task, start, root).clone()
    environ = default_environ(root)
    if remote:
        # what executor.harness_env adds for the ssh transports
        environ["PATH"] = f"{_standins(root, True)}:{environ['PATH']}"
        environ["QBCORE_REMOTE_DIR"] = root
    run = run_effects(script, tree, root, environ, args=args, source=source)
    if run.unknown:
        return _unknown(run.unknown), False
    if run.files.lost:
        return _unknown(run.files.lost), False
    if "SHLVL" in run.reads:
        # bash lowers SHLVL before it execs the last simple command of a -c string (so a
        # `bash -c` under nested starts at the level raw's shell has): not modelled
        return _unknown("the shell level ($SHLVL), which bash lowers before it execs a last command"), False
    read_path = "PATH" in run.reads and "PATH" not in run.plumbing
    final = _final_state(task, before, tree, root)
    found = _judge(task, final, run.status,
                   None if run.effects.stderr_unknown else run.effects.stderr, run.effects.stderr_unknown, "")
    if final.marked:
        # the task directory's path reached the final state: it differs on every run, and so would a diff
        return Prediction(found.passed, found.failure_class, found.certain, _DEPENDS + found.why), read_path
    if found.certain:
        found = replace(found, diff=final.differences)
    return found, read_path


class _Final:
    """What the validator makes of a final tree: ``stray`` the new files it does not allow,
    ``verdict`` its check (or ``unreadable``, why the checks cannot read the final state: its
    repository, or the bytes of a file the model does not know),
    ``marked`` whether the task directory's path reached a name or the bytes of an entry;
    ``differences`` from the state the task asks for (``validators.judge`` gives all three)."""

    __slots__ = ("stray", "verdict", "unreadable", "marked", "differences")


# (task id, its fixture, where it lies, the tree's version) -> _Final: a final tree the same as
# one judged before (a run that changed nothing, or the same run reused) is not judged again;
# the validators read only the entries, and a version names them (vfs._Store.version)
_FINALS: OrderedDict = OrderedDict()
_FINALS_SIZE = 4096


def _final_state(task, before, tree, root) -> _Final:
    key = (task.id, id(task.fixture), root, tree._store.version)
    known = _FINALS.get(key)
    if known is not None and known[0] is task.fixture:
        return known[1]
    after = entries(tree, root)
    final = _Final()
    final.unreadable = final.verdict = final.stray = final.differences = None
    try:
        # the git check asks the virtual .git; the host never runs git on what the model built
        repository = gitfixture.stored_repository(after) if any(c["kind"] == "git" for c in task.checks) \
            else gitfixture.NO_REPOSITORY
        final.verdict, final.stray, final.differences = validators.judge(
            task.checks, TASK_DIR, before, after, task.allowed_new, repository=repository)
    except Unreadable as exc:
        final.unreadable = f"the final repository: {exc}"
    except UnknownContent as exc:
        final.unreadable = exc.why
    marks = (root, root.encode())
    final.marked = any(marks[0] in rel or type(e.data) is bytes and marks[1] in e.data or marks[0] in e.target
                       for rel, e in after.items())
    _FINALS[key] = (task.fixture, final)
    if len(_FINALS) > _FINALS_SIZE:
        _FINALS.popitem(last=False)
    return final


def _moved_start(task, start: VirtualTree, root: str) -> VirtualTree:
    """The fixture ``start`` placed at ``root``, built once per task and place."""
    key = (task.id, root)
    known = _MOVED.get(key)
    if known is None or known[0] is not start:
        known = _MOVED[key] = (start, _moved(start, root))
    return known[1]


_MOVED: dict = {}


def _moved(source: VirtualTree, root: str) -> VirtualTree:
    """A copy of the fixture ``source`` (at TASK_DIR) placed at ``root`` instead."""
    tree = VirtualTree()
    tree.mkdir(root, parents=True, exist_ok=True)
    _sandbox_tmp(tree, root)
    links = source.symlinks()
    for path in source.walk(TASK_DIR):
        moved = root + path[len(TASK_DIR):]
        if path in links:
            tree.symlink(links[path], moved)
        elif source.is_dir(path):
            tree.mkdir(moved, parents=True, exist_ok=True)
            tree.chmod(moved, source.mode(path))
        else:
            tree.write_bytes(moved, source.read_bytes(path))
            tree.chmod(moved, source.mode(path))
    return tree


def _judge(task, final: _Final, status, stderr, stderr_unknown, note) -> Prediction:
    """The executor's verdict and failure class (realbash.executor._classify) on a virtual state."""
    if final.unreadable is not None:
        return _unknown(final.unreadable)
    stray, verdict = final.stray, final.verdict
    lead = f"{note}; " if note else ""
    if verdict.ok and not stray:
        return Prediction(True, "pass", True, lead + verdict.reason)
    if verdict.ok:
        return Prediction(False, "environment-invalid", True, lead + f"unexpected extra files: {', '.join(stray[:5])}")
    return Prediction(False, _failure_class(status, stderr, stderr_unknown), True, lead + verdict.reason)


def _failure_class(status, stderr, stderr_unknown) -> Optional[str]:
    text = "\n".join(stderr or ())
    if any(mark in text for mark in _SYNTAX_MARKS):
        if "bash:" in text:
            return "shell-syntax"
        # a script's own messages start with its path, not `bash:`; a warning the model does not
        # spell (an inner bash's here-document warning) would add the `bash:` the executor looks for
        return None
    if stderr_unknown is not None or isinstance(status, Opaque):
        return None
    if status != 0:
        return "tool-error" if any(mark in text for mark in _TOOL_MARKS) else "runtime-error"
    return "silent-wrong"


assert set(CLASSES) >= {"pass", "shell-syntax", "tool-error", "runtime-error", "silent-wrong",
                        "environment-invalid", "contract-error"}
