"""The probe: what the inner shell really receives, measured with real bash.

The harness's command runs for real (its outer bash included) in a fresh
directory with a controlled environment, but the inner shell is replaced by a
recorder of its arguments and standard input. This is the ground truth that
``simulate`` is checked against. Many probes share one sandboxed batch, and
batches run in parallel, because a probe should cost a bash process, not a
sandbox.
"""

from __future__ import annotations

import base64
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping

from ..harness import transports
from ..harness.transports import SCRIPT_PATH, HarnessError, Invocation
from ..model.commandenv import COMMAND_PATH, command_environ

__all__ = ["Received", "ProbeResult", "ProbeError", "probe", "probe_many", "base_environ", "SYSTEM_PATH"]

SYSTEM_PATH = COMMAND_PATH
JOB_TIMEOUT_S = 10.0
BATCH_SIZE = 400


class ProbeError(RuntimeError):
    """The probe itself could not run (no sandbox and no permission to go without one, a broken batch)."""


def base_environ(workdir: str, bin_dir: str | None = None) -> dict[str, str]:
    """The executor's environment for a run in ``workdir`` (qbcore.model.commandenv), with
    ``bin_dir`` first on PATH when given."""
    environ = command_environ(workdir)
    if bin_dir:
        environ["PATH"] = f"{bin_dir}:{environ['PATH']}"
    return environ


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


@dataclass(frozen=True)
class Received:
    """One start of the inner shell: its arguments (after the program name), stdin and directory."""

    argv: tuple[str, ...]
    stdin: bytes
    cwd: str


@dataclass(frozen=True)
class ProbeResult:
    """What real bash did with one reply under one transport.

    ``received`` lists every start of the inner shell, in order; the first is
    the one the harness meant (later ones come from commands that leaked into
    the outer shell). ``harness_error`` is set when the harness could not
    build a command at all (a JSON contract error, a shlex split error); then
    nothing ran. ``cwd`` and ``environ`` are the outer shell's working
    directory and complete exported environment, so a simulation can be given
    exactly the same world (``cwd`` exists on the host, holding the fixture,
    as long as the ``root`` given to ``probe_many`` does).
    """

    reply: str
    transport: str
    invocation: Invocation | None
    harness_error: str | None
    received: tuple[Received, ...]
    exit_code: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool
    cwd: str
    environ: Mapping[str, str]
    sandboxed: bool

    @property
    def inner_script(self) -> str | None:
        """The script the inner shell got: its ``-c`` text, its stdin, or its file."""
        parsed = self._parsed()
        return parsed[0] if parsed else None

    @property
    def inner_args(self) -> list[str]:
        """The inner shell's ``$0``, ``$1``, … after its script."""
        parsed = self._parsed()
        return list(parsed[1]) if parsed else []

    def _parsed(self) -> tuple[str, tuple[str, ...]] | None:
        if not self.received:
            return None
        first = self.received[0]
        argv = first.argv
        where = transports.TRANSPORTS[self.transport].inner
        if where == "stdin" or not argv or argv[0] == "-s":
            # the stand-in ssh starts `bash` on stdin when the command is empty
            return _text(first.stdin), ()
        if argv[0] == "-c":
            return (argv[1], argv[2:]) if len(argv) > 1 else None
        if where == "file" and self.invocation is not None and not argv[0].startswith("-"):
            # the harness's one file (its path differs when the probe ran unsandboxed)
            (content,) = self.invocation.files.values()
            return _text(content), argv[1:]
        return None


# --- running batches --------------------------------------------------------

# Inside the sandbox the control files live in its private /tmp, at a fixed
# place, so every probe sees the same PATH.
SANDBOX_CONTROL = "/tmp/qbcore-probe"


def _real_bash() -> str:
    found = shutil.which("bash", path=SYSTEM_PATH)
    if not found:
        raise ProbeError(f"no bash on {SYSTEM_PATH}")
    return found  # the path a PATH search gives, which is what bash puts in `_`


def _sandbox_module():
    try:
        from . import sandbox
    except ImportError:
        return None
    return sandbox


@dataclass
class _Job:
    index: int
    reply: str
    transport: str
    invocation: Invocation | None = None
    harness_error: str | None = None


def _control_files() -> dict[str, bytes]:
    """bin/bash (the recorder), bin/ssh (the stand-in) and the batch driver, by relative path."""
    found = {}
    for source, name in (("recorder", "bin/bash"), ("ssh", "bin/ssh"), ("probe-batch", "probe-batch")):
        with open(transports.standin(source), "rb") as handle:
            found[name] = handle.read()
    return found


def _job_spec(job: _Job, control: str, work: str, sandboxed: bool, real_bash: str, timeout: float) -> dict:
    inv = job.invocation
    argv, files = list(inv.argv), dict(inv.files)
    if not sandboxed and files:
        # without a private /tmp, parallel batches would race on the fixed path
        private = os.path.join(control, "tmp", os.path.basename(SCRIPT_PATH))
        argv = [private if a == SCRIPT_PATH else a for a in argv]
        files = {private if p == SCRIPT_PATH else p: d for p, d in files.items()}
    transport = transports.TRANSPORTS[job.transport]
    bin_dir = os.path.join(control, "bin")
    if transport.outer.startswith("bash"):
        executable = real_bash  # the outer shell runs for real; `bash` on PATH is the recorder
    else:
        executable = os.path.join(bin_dir, argv[0])
    return {
        "id": job.index, "argv": argv, "executable": executable,
        "env": base_environ(work, bin_dir),
        "stdin": base64.b64encode(inv.stdin).decode() if inv.stdin is not None else None,
        "files": {p: base64.b64encode(d).decode() for p, d in files.items()},
        "passes": 1 if transport.outer == "bash-twice" else 0,
        "record_stdin": 1 if transport.inner == "stdin" else 0,
        "real_bash": real_bash, "timeout": timeout,
    }


def _write_fixture(work: str, fixture: Mapping[str, bytes]) -> None:
    for rel, data in fixture.items():
        path = os.path.normpath(os.path.join(work, rel))
        if os.path.isabs(rel) or not path.startswith(work + os.sep):
            raise ValueError(f"fixture path {rel!r} leaves the working directory")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)


def _decode_received(entries) -> tuple[Received, ...]:
    b = base64.b64decode
    return tuple(Received(tuple(_text(b(a)) for a in e["argv"]), b(e["stdin"]), _text(b(e["cwd"])))
                 for e in entries)


def _run_batch(jobs: list[_Job], *, fixture, root, sandbox, timeout: float) -> list[ProbeResult]:
    sandboxed = sandbox is not None
    batch = tempfile.mkdtemp(prefix="qbcore-probe-", dir=root)
    work = os.path.join(batch, "w")
    os.mkdir(work)
    _write_fixture(work, fixture)
    control = SANDBOX_CONTROL if sandboxed else os.path.join(batch, "control")
    real_bash = _real_bash()
    specs = [_job_spec(j, control, work, sandboxed, real_bash, timeout) for j in jobs if j.invocation]
    outcome = {}
    if specs:
        files = {f"{control}/{name}": data for name, data in _control_files().items()}
        files[f"{control}/jobs.json"] = json.dumps(specs).encode()
        python = shutil.which("python3", path=SYSTEM_PATH) or sys.executable
        driver = [python, "-I", "-S", f"{control}/probe-batch", control, work]
        budget = 30.0 + timeout * len(specs)
        outcome = {r["id"]: r for r in _execute(driver, work, files, sandbox, budget)}
    environ = MappingProxyType(base_environ(work, os.path.join(control, "bin")))
    results = []
    for job in jobs:
        if job.invocation is None:
            results.append(ProbeResult(job.reply, job.transport, None, job.harness_error, (), None, b"", b"",
                                       False, work, environ, sandboxed))
            continue
        done = outcome[job.index]
        results.append(ProbeResult(
            job.reply, job.transport, job.invocation, None, _decode_received(done["received"]),
            done["status"], base64.b64decode(done["stdout"]), base64.b64decode(done["stderr"]),
            done["timed_out"], work, environ, sandboxed))
    return results


def _execute(driver: list[str], work: str, files: Mapping[str, bytes], sandbox, budget: float) -> list[dict]:
    env = {"PATH": SYSTEM_PATH, "LC_ALL": "C", "LANG": "C"}
    if sandbox is None:
        for path, data in files.items():
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)
        try:
            done = subprocess.run(driver, env=env, cwd=work, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=budget)
        except subprocess.TimeoutExpired:
            raise ProbeError(f"the probe batch exceeded {budget:.0f} s") from None
        code, stdout, stderr = done.returncode, done.stdout, done.stderr
    else:
        # the batch's results come back on stdout: allow for every job's capped output
        limits = sandbox.Limits(wall_s=budget, output_bytes=256 << 20)
        done = sandbox.run(driver, workdir=work, env=env, limits=limits, files=files)
        if done.timed_out:
            raise ProbeError(f"the probe batch exceeded {budget:.0f} s")
        code, stdout, stderr = done.exit_code, done.stdout, done.stderr
    if code != 0:
        raise ProbeError(f"the probe batch failed with status {code}: {stderr[-2000:].decode(errors='replace')}")
    try:
        return json.loads(stdout)
    except json.JSONDecodeError:
        raise ProbeError(f"the probe batch returned no results: {stderr[-2000:].decode(errors='replace')}") from None


def probe_many(items: Iterable[tuple[str, str]], *, fixture: Mapping[str, bytes] | None = None,
               root: str | None = None, workers: int | None = None, timeout: float = JOB_TIMEOUT_S,
               unsafe_no_sandbox: bool = False) -> list[ProbeResult]:
    """Probe every ``(reply, transport)`` pair; results in the same order.

    Every probe starts in a working directory holding exactly ``fixture``
    (relative paths to bytes). Batch directories are made under ``root`` and
    kept there (a simulation of a result needs its ``cwd``); without ``root``
    they are temporary and removed before returning. Batches run in a
    bubblewrap sandbox (``qbcore.realbash.sandbox``); without one, ProbeError unless
    ``unsafe_no_sandbox`` -- replies are untrusted, and a wrapped reply can
    leak commands into the outer shell.
    """
    sandbox = _sandbox_module()
    if sandbox is not None and not sandbox.available():
        sandbox = None
    if sandbox is None and not unsafe_no_sandbox:
        raise ProbeError("no bubblewrap sandbox is available (install bwrap); probing untrusted "
                         "replies without it needs unsafe_no_sandbox=True")
    jobs = []
    for index, (reply, name) in enumerate(items):
        transports.get(name)
        job = _Job(index, reply, name)
        try:
            job.invocation = transports.wrap(reply, name)
        except HarnessError as exc:
            job.harness_error = str(exc)
        jobs.append(job)
    if not jobs:
        return []
    workers = workers or os.cpu_count() or 1
    size = min(BATCH_SIZE, math.ceil(len(jobs) / workers))
    chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    temporary = tempfile.mkdtemp(prefix="qbcore-probes-") if root is None else None
    try:
        run = lambda chunk: _run_batch(chunk, fixture=dict(fixture or {}), root=root or temporary,  # noqa: E731
                                       sandbox=sandbox, timeout=timeout)
        if len(chunks) == 1:
            return run(chunks[0])
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return [result for part in pool.map(run, chunks) for result in part]
    finally:
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)


def probe(reply: str, transport: str, **options) -> ProbeResult:
    """Probe one reply under one transport (see ``probe_many`` for the options)."""
    return probe_many([(reply, transport)], **options)[0]
