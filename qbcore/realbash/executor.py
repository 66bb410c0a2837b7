"""Run one reply for one task under one transport in real bash, and judge the outcome.

Each attempt: a fresh directory, the task's fixture, the harness command the
transport builds (``qbcore.harness.transports``) run by real bash inside the sandbox,
the task's validator, and one failure class. This is the ground truth the
simulator is checked against; it knows nothing about prediction.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from . import dirtree
from . import fixture as fixtures
from . import sandbox, validators
from ..harness import transports
from ..model.commandenv import command_environ
from ..model.commands.search import STANDIN_PROGRAMS
from .sandbox import Limits

__all__ = ["CLASSES", "Attempt", "Job", "run", "run_many", "default_workers", "harness_env"]

CLASSES = ("pass", "shell-syntax", "tool-error", "runtime-error", "silent-wrong", "timeout",
           "environment-invalid", "contract-error")

# Linux's MAX_ARG_STRLEN: execve refuses any single argument this long (E2BIG)
_ARG_MAX = 32 * 4096

# the login name the harness runs as; the real-ssh server's account has the same name
LOGIN = "qbuser"

# stdout/stderr kept in an Attempt (the sandbox caps what it reads; this caps what we carry)
_KEEP = 64 * 1024

# the benchmark's stderr marks: a syntax mark counts only beside a "bash:" message (sed and awk
# report syntax errors too, and those are tool errors); a tool mark only with a non-zero status
_SYNTAX_MARKS = ("unexpected EOF while looking for matching", "syntax error", "unterminated quoted string",
                 "bad substitution", "unexpected end of file")
_TOOL_MARKS = ("sed:", "awk:", "grep:", "find:", "mv:", "rm:", "printf:", "usage:", "No such file or directory")


@dataclass(frozen=True)
class Attempt:
    """The outcome of one (task, reply, transport) run."""

    task_id: str
    transport: str
    passed: bool
    class_: str
    reason: str
    exit_code: int | None
    new_files: tuple[str, ...]
    duration_s: float
    stdout: bytes = field(default=b"", repr=False)
    stderr: bytes = field(default=b"", repr=False)
    # how the final state differs from the one the task asks for (validators.differences);
    # None when it could not be read back
    differences: tuple | None = field(default=None, repr=False)

    def as_dict(self, *, output: bool = False) -> dict:
        data = {"task_id": self.task_id, "transport": self.transport, "passed": self.passed,
                "class": self.class_, "reason": self.reason, "exit_code": self.exit_code,
                "new_files": list(self.new_files), "duration_s": round(self.duration_s, 4),
                "diff": None if self.differences is None else [d.as_dict() for d in self.differences]}
        if output:
            data["stdout"] = self.stdout.decode("utf-8", "replace")
            data["stderr"] = self.stderr.decode("utf-8", "replace")
        return data


def harness_env(task_dir: str, tool_dir: str, remote: bool = False) -> dict:
    """The environment the harness runs with: the benchmark's (``qbcore.model.commandenv``), the task
    directory as home, and for an ssh transport the stand-in ssh first on PATH.

    The remote directory is the task directory because that is where a real
    ssh login lands; the stand-in and the real server must agree.
    """
    env = command_environ(task_dir)
    if remote:
        env["PATH"] = f"{tool_dir}:{env['PATH']}"
        env["QBCORE_REMOTE_DIR"] = task_dir
    return env


def _tool_dir(base: str) -> str:
    """A private copy of the stand-in programs the harness finds first on PATH."""
    path = os.path.join(base, "bin")
    os.mkdir(path)
    for name in STANDIN_PROGRAMS:  # the model knows the folder holds these and nothing else
        shutil.copy(transports.standin(name), os.path.join(path, name))
        os.chmod(os.path.join(path, name), 0o755)
    return path


# each distinct fixture is built once per process (a git fixture costs half
# a dozen git processes) and laid down from this copy for every attempt
_templates: dict[str, tuple[list[dirtree.Node], fixtures.FixtureInfo]] = {}


def _template(description) -> tuple[list[dirtree.Node], fixtures.FixtureInfo]:
    key = json.dumps(description, sort_keys=True)
    if key not in _templates:
        with tempfile.TemporaryDirectory(prefix="qbcore-fixture-") as scratch:
            info = fixtures.build(description, scratch)
            _templates[key] = (dirtree.read(scratch), info)
    return _templates[key]


def _snapshot_of(template: list[dirtree.Node]) -> dict[str, validators.Entry]:
    """What ``validators.snapshot`` reads from a directory that holds exactly ``template``."""
    kinds = {"dir": "dir", "file": "file", "symlink": "symlink"}
    return {node.path: validators.Entry(kinds.get(node.kind, "other"), 0 if node.kind == "symlink" else node.mode,
                                        node.data, node.target) for node in template}


class _TaskDirectory:
    """The attempt's task directory, wherever it lives: the fixture goes in, the judged state comes out."""

    def __init__(self, task, template: list[dirtree.Node], info: fixtures.FixtureInfo):
        self.task, self.template, self.info = task, template, info
        self.before = _snapshot_of(template)

    def content(self) -> list[dirtree.Node]:
        """The fixture as nodes, for a sandbox that lays it down itself."""
        return self.template

    def populate(self, path: str):
        dirtree.write(self.template, path)

    def inspect_nodes(self, nodes: list[dirtree.Node]):
        """``inspect`` for the final directory as nodes: judged without a copy unless a check runs git."""
        if any(c["kind"] == "git" for c in self.task.checks):
            with tempfile.TemporaryDirectory(prefix="qbcore-judged-") as copy:
                dirtree.write(nodes, copy, [])
                return self.inspect(copy)
        return self._judged("", _snapshot_of(nodes))

    def inspect(self, path: str):
        """The final snapshot, the new files the task does not allow, the checks' verdict and the
        differences from the state the task asks for."""
        after = validators.snapshot(path)
        if os.path.realpath(path) != path and any(c["kind"] == "git" for c in self.task.checks):
            # git resolves the path it is given, and a directory seen through
            # the sandbox's /proc/PID/root is not where its path says: judge a copy
            with tempfile.TemporaryDirectory(prefix="qbcore-judged-") as copy:
                dirtree.write(dirtree.read(path), copy, [])
                return self._judged(copy, after)
        return self._judged(path, after)

    def _judged(self, root: str, after: dict) -> tuple:
        verdict, stray, differences = validators.judge(self.task.checks, root, self.before, after,
                                                       self.task.allowed_new, self.info)
        return after, stray, verdict, differences


def _failure(task_id, transport, class_, reason, started) -> Attempt:
    return Attempt(task_id, transport, False, class_, reason, None, (), time.monotonic() - started)


def run(task, reply: str, transport: str = "raw", *, real_ssh=False, limits: Limits = Limits(),
        unsafe_no_sandbox: bool = False, ssh_server=None) -> Attempt:
    """Run ``reply`` for ``task`` (a Task or a task id) as the harness ``transport`` would, and judge it.

    ``real_ssh`` sends the ssh transports to a private OpenSSH server
    (``ssh_server``: a ``realssh.Server`` to reuse; one is made if omitted).
    Raises SandboxUnavailable when bubblewrap cannot run, unless
    ``unsafe_no_sandbox``; ValueError for an unknown transport; UnknownTask.
    """
    from .. import suite

    if isinstance(task, str):
        task = suite.get(task)
    started = time.monotonic()
    if real_ssh and unsafe_no_sandbox and transports.get(transport).remote:
        raise ValueError("the real ssh server runs inside the sandbox; --real-ssh cannot be combined with "
                         "--unsafe-no-sandbox")
    transports.get(transport)
    if not isinstance(reply, str):
        raise TypeError(f"reply must be str, not {type(reply).__name__}")
    try:
        invocation = transports.wrap(reply, transport)
    except transports.ContractError as exc:
        return _failure(task.id, transport, "contract-error", str(exc), started)
    except transports.SplitError as exc:
        return _failure(task.id, transport, "contract-error", f"the ssh-argv harness cannot split the reply: {exc}",
                        started)
    except ValueError as exc:
        # a NUL or an unencodable character: no harness can hand this reply to bash
        return _failure(task.id, transport, "contract-error", f"the harness cannot pass this reply on: {exc}",
                        started)

    too_long = [len(os.fsencode(a)) for a in invocation.argv if len(os.fsencode(a)) >= _ARG_MAX]
    if too_long:
        return _failure(task.id, transport, "contract-error",
                        f"the harness cannot pass this reply as one argument: {too_long[0]} bytes, and Linux "
                        f"takes at most {_ARG_MAX - 1} in a single argument", started)

    workspace = _TaskDirectory(task, *_template(task.fixture))
    through_real_ssh = real_ssh and transports.get(transport).remote
    if not unsafe_no_sandbox and not through_real_ssh:
        # the whole attempt lives in the sandbox: its fresh tmpfs is the task
        # directory, and the stand-ins come in as read-only programs
        base = f"/tmp/qbcore-attempt-{secrets.token_hex(8)}"
        task_dir, tool_dir = f"{base}/task", f"{base}/bin"
        remote = transports.get(transport).remote
        # the stand-in ssh is on PATH only for the ssh transports; the others get no folder for it
        done = sandbox.run(list(invocation.argv), workdir=task_dir, env=harness_env(task_dir, tool_dir, remote),
                           stdin=invocation.stdin, limits=limits, files=dict(invocation.files),
                           programs={f"{tool_dir}/ssh": _standin_ssh()} if remote else {}, workspace=workspace)
        return _attempt(task, transport, workspace, done, started)
    base = tempfile.mkdtemp(prefix="qbcore-attempt-")
    try:
        os.chmod(base, 0o755)  # the sandbox may run as another uid and must reach the stand-ins
        task_dir = os.path.join(base, "task")
        os.mkdir(task_dir)
        tool_dir = _tool_dir(base)
        env = harness_env(task_dir, tool_dir, transports.get(transport).remote)
        argv, binds, files = list(invocation.argv), [tool_dir], dict(invocation.files)
        if through_real_ssh:
            argv, binds, files = _through_real_ssh(ssh_server, argv, binds, files, task_dir, base)
        done = sandbox.run(argv, workdir=task_dir, env=env, stdin=invocation.stdin, limits=limits,
                           ro_binds=binds, files=files, workspace=workspace, unsafe_no_sandbox=unsafe_no_sandbox)
        return _attempt(task, transport, workspace, done, started)
    finally:
        shutil.rmtree(base, ignore_errors=True)


_standin = None


def _standin_ssh() -> bytes:
    global _standin
    if _standin is None:
        with open(transports.standin("ssh"), "rb") as handle:
            _standin = handle.read()
    return _standin


def _attempt(task, transport, workspace, done: sandbox.Completed, started) -> Attempt:
    after, stray, verdict, differences = done.inspected or ({}, [], None, None)
    new = tuple(validators.new_paths(workspace.before, after)) if done.inspected else ()
    class_, reason = _classify(done, stray, verdict)
    return Attempt(task.id, transport, class_ == "pass", class_, reason, done.exit_code, new,
                   time.monotonic() - started, done.stdout[:_KEEP], done.stderr[:_KEEP], differences)


def _through_real_ssh(server, argv, binds, files, task_dir, base):
    from . import realssh

    if server is None:
        server = realssh.default_server()
    return server.wrap(argv, binds, files, home=task_dir, scratch=base)


def _classify(done: sandbox.Completed, stray: list[str], verdict) -> tuple[str, str]:
    """One failure class, in the benchmark's order: the verdict first (an exit status does not
    matter when the state is right), extra files, the time limit, then what stderr and the exit
    status say."""
    if done.state_lost or done.inspected is None:
        if done.timed_out:
            return "timeout", "the command was still running when the wall-clock limit ended it"
        return "environment-invalid", "; ".join(done.notes) or "the final directory could not be read back"
    if verdict.ok and not stray:
        return "pass", verdict.reason
    if verdict.ok:
        shown = ", ".join(stray[:5]) + (f" and {len(stray) - 5} more" if len(stray) > 5 else "")
        return "environment-invalid", f"unexpected extra files: {shown}"
    if done.timed_out:
        return "timeout", f"the command was still running when the wall-clock limit ended it; {verdict.reason}"
    if done.exit_code == 128 + 24 or done.exit_code == 128 + 9 and b"CPU" in done.stderr:
        return "timeout", f"the command used up its CPU-time limit; {verdict.reason}"
    stderr = done.stderr.decode("utf-8", "replace")
    if "bash:" in stderr and any(mark in stderr for mark in _SYNTAX_MARKS):
        line = next((line for line in stderr.split("\n") if any(mark in line for mark in _SYNTAX_MARKS)), "")
        return "shell-syntax", f"{verdict.reason}; bash reported a syntax problem: {line.strip()}"
    if done.exit_code != 0:
        mark = next((m for m in _TOOL_MARKS if m in stderr), None)
        first = stderr.strip().split("\n", 1)[0] if stderr.strip() else f"exit status {done.exit_code}"
        if mark:
            line = next((line for line in stderr.split("\n") if mark in line), first)
            return "tool-error", f"{verdict.reason}; {line.strip()}"
        return "runtime-error", f"{verdict.reason}; {first}"
    return "silent-wrong", f"exit status 0 but {verdict.reason}"


# --- batches ------------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    """One attempt to run in a batch; ``label`` is carried through to identify it (e.g. "oracle")."""

    task_id: str
    reply: str
    transport: str = "raw"
    label: str = ""
    real_ssh: bool = False


_worker_server = None


def _worker_init(real_ssh_keys, templates):
    global _worker_server
    _templates.update(templates)
    if real_ssh_keys is not None:
        from . import realssh
        _worker_server = realssh.Server.from_keys(real_ssh_keys)


def _run_job(job: Job, limits: Limits, unsafe: bool):
    try:
        attempt = run(job.task_id, job.reply, job.transport, real_ssh=job.real_ssh, limits=limits,
                      unsafe_no_sandbox=unsafe, ssh_server=_worker_server)
    except sandbox.SandboxUnavailable:
        raise
    except Exception as exc:  # noqa: BLE001 - one bad job must not end the batch; say what it was
        attempt = Attempt(job.task_id, job.transport, False, "environment-invalid",
                          f"the attempt could not be run: {exc.__class__.__name__}: {exc}", None, (), 0.0)
    return job, attempt


def default_workers(jobs: Iterable[Job]) -> int:
    """How many pool workers ``run_many`` uses unless told: one more than the CPUs.

    A local attempt is a chain of processes (worker, zygote, pid 1, shell,
    tools) of which one at a time mostly runs, so one chain per CPU nearly
    fills it and a spare one covers the hand-offs; each further worker only
    costs a sandbox start. Attempts through the real ssh server wait on its
    handshakes: twice as many workers as CPUs then.
    """
    cpus = os.cpu_count() or 1
    return 2 * cpus if any(job.real_ssh for job in jobs) else cpus + 1


def run_many(jobs: Iterable[Job], *, workers: int | None = None, limits: Limits = Limits(),
             unsafe_no_sandbox: bool = False) -> Iterator[tuple[Job, Attempt]]:
    """Run the jobs over a process pool and yield ``(job, attempt)`` as each one finishes.

    One private OpenSSH server's keys are made for the whole batch when any
    job asks for the real server.
    """
    jobs = list(jobs)
    if not unsafe_no_sandbox and not sandbox.available():
        raise sandbox.SandboxUnavailable(sandbox.unavailable_reason())
    server = None
    if any(job.real_ssh for job in jobs):
        from . import realssh
        server = realssh.Server.create()
    try:
        keys = server.keys if server else None
        workers = workers or default_workers(jobs)
        # build each fixture once here, not once per worker
        from .. import suite
        for task_id in sorted({job.task_id for job in jobs}):
            try:
                _template(suite.get(task_id).fixture)
            except (suite.UnknownTask, fixtures.FixtureError):
                pass  # the job reports it
        templates = dict(_templates)
        if workers == 1:
            _worker_init(keys, {})
            for job in jobs:
                yield _run_job(job, limits, unsafe_no_sandbox)
            return
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs) or 1), initializer=_worker_init,
                                 initargs=(keys, templates)) as pool:
            futures = [pool.submit(_run_job, job, limits, unsafe_no_sandbox) for job in jobs]
            try:
                for future in as_completed(futures):
                    yield future.result()
            finally:
                for future in futures:
                    future.cancel()
    finally:
        if server is not None:
            server.close()
