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
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from . import transports
from .transports import SCRIPT_PATH, HarnessError, Invocation

__all__ = ["Received", "ProbeResult", "ProbeError", "probe", "probe_many", "base_environ", "SYSTEM_PATH"]

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
JOB_TIMEOUT_S = 10.0
BATCH_SIZE = 400
OUTPUT_KEPT = 64 * 1024


class ProbeError(RuntimeError):
    """The probe itself could not run (no sandbox and no permission to go without one, a broken batch)."""


def base_environ(workdir: str, bin_dir: str | None = None) -> dict[str, str]:
    """The executor's environment for a run in ``workdir`` (issue 3's default Env),
    with ``bin_dir`` first on PATH when given."""
    path = f"{bin_dir}:{SYSTEM_PATH}" if bin_dir else SYSTEM_PATH
    return {"HOME": workdir, "PATH": path, "LC_ALL": "C", "LANG": "C", "TERM": "dumb",
            "GIT_CONFIG_NOSYSTEM": "1"}


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
    exactly the same world.
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
        if where == "file" and self.invocation is not None:
            content = self.invocation.files.get(SCRIPT_PATH)
            if content is not None and argv[0] in (SCRIPT_PATH, self._script_path):
                return _text(content), argv[1:]
        return None

    _script_path: str = field(default=SCRIPT_PATH, repr=False, compare=False)


# --- running batches --------------------------------------------------------

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
    fixture: Mapping[str, bytes]
    invocation: Invocation | None = None
    harness_error: str | None = None


def _install_bin(batch: str) -> str:
    # copies, not the package's own files: inside the sandbox the package
    # directory may not be readable by the unprivileged user
    bin_dir = os.path.join(batch, "bin")
    os.makedirs(bin_dir)
    for source, name in (("recorder", "bash"), ("ssh", "ssh"), ("probe-batch", "probe-batch")):
        target = os.path.join(bin_dir, name)
        shutil.copyfile(transports.standin(source), target)
        os.chmod(target, 0o755)
    return bin_dir


def _job_spec(batch: str, bin_dir: str, job: _Job, sandboxed: bool, real_bash: str, timeout: float):
    root = os.path.join(batch, "p", str(job.index))
    work = os.path.join(root, "w")
    os.makedirs(work)
    os.makedirs(os.path.join(root, "rec"))
    for rel, data in job.fixture.items():
        path = os.path.join(work, rel)
        if os.path.isabs(rel) or os.path.relpath(path, work).startswith(".."):
            raise ValueError(f"fixture path {rel!r} leaves the working directory")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    inv = job.invocation
    argv, files = list(inv.argv), dict(inv.files)
    if not sandboxed and files:
        # without a private /tmp, parallel batches would race on the fixed path
        private = os.path.join(root, "tmp", os.path.basename(SCRIPT_PATH))
        argv = [private if a == SCRIPT_PATH else a for a in argv]
        files = {private if p == SCRIPT_PATH else p: d for p, d in files.items()}
    outer = transports.TRANSPORTS[job.transport].outer
    if outer.startswith("bash"):
        executable = real_bash  # the outer shell runs for real; `bash` on PATH is the recorder
    else:
        executable = shutil.which(argv[0], path=bin_dir) or argv[0]
    return {
        "id": job.index, "argv": argv, "executable": executable,
        "env": base_environ(work, bin_dir),
        "stdin": base64.b64encode(inv.stdin).decode() if inv.stdin is not None else None,
        "files": {p: base64.b64encode(d).decode() for p, d in files.items()},
        "passes": 1 if outer == "bash-twice" else 0,
        "real_bash": real_bash, "timeout": timeout,
    }


def _read(path: str, limit: int | None = None) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read() if limit is None else handle.read(limit)
    except FileNotFoundError:
        return b""


def _received(rec: str) -> tuple[Received, ...]:
    numbers = sorted(int(name[:-5]) for name in os.listdir(rec) if name.endswith(".argv"))
    found = []
    for n in numbers:
        raw = _read(os.path.join(rec, f"{n}.argv"))
        argv = tuple(_text(a) for a in raw.split(b"\0")[:-1]) if raw else ()
        found.append(Received(argv, _read(os.path.join(rec, f"{n}.stdin")),
                              _text(_read(os.path.join(rec, f"{n}.cwd")))))
    return tuple(found)


def _run_batch(jobs: list[_Job], *, sandbox, timeout: float, keep: bool) -> list[ProbeResult]:
    sandboxed = sandbox is not None
    batch = tempfile.mkdtemp(prefix="qbcore-probe-")
    try:
        bin_dir = _install_bin(batch)
        real_bash = _real_bash()
        runnable = [j for j in jobs if j.invocation is not None]
        specs = [_job_spec(batch, bin_dir, j, sandboxed, real_bash, timeout) for j in runnable]
        with open(os.path.join(batch, "jobs.json"), "w", encoding="utf-8") as handle:
            json.dump(specs, handle)
        python = shutil.which("python3", path=SYSTEM_PATH) or sys.executable
        driver = [python, "-I", "-S", os.path.join(bin_dir, "probe-batch"), batch]
        budget = 30.0 + timeout * max(1, len(specs)) if specs else 0.0
        outcome = {}
        if specs:
            _execute(driver, batch, sandbox, budget)
            try:
                with open(os.path.join(batch, "results.json"), encoding="utf-8") as handle:
                    outcome = {r["id"]: r for r in json.load(handle)}
            except (FileNotFoundError, json.JSONDecodeError):
                raise ProbeError(f"the probe batch in {batch} ended without results") from None
        results = []
        for job in jobs:
            root = os.path.join(batch, "p", str(job.index))
            work = os.path.join(root, "w")
            if job.invocation is None:
                results.append(ProbeResult(job.reply, job.transport, None, job.harness_error, (), None,
                                           b"", b"", False, work, MappingProxyType(base_environ(work)),
                                           sandboxed))
                continue
            done = outcome[job.index]
            spec_env = base_environ(work, os.path.join(batch, "bin"))
            results.append(ProbeResult(
                job.reply, job.transport, job.invocation, None, _received(os.path.join(root, "rec")),
                done["status"], _read(os.path.join(root, "stdout"), OUTPUT_KEPT),
                _read(os.path.join(root, "stderr"), OUTPUT_KEPT), done["timed_out"], work,
                MappingProxyType(spec_env), sandboxed,
                _script_path=SCRIPT_PATH if sandboxed else os.path.join(root, "tmp",
                                                                        os.path.basename(SCRIPT_PATH))))
        return results
    finally:
        if not keep:
            shutil.rmtree(batch, ignore_errors=True)


def _execute(driver: list[str], batch: str, sandbox, budget: float) -> None:
    env = {"PATH": SYSTEM_PATH, "LC_ALL": "C", "LANG": "C"}
    if sandbox is None:
        done = subprocess.run(driver, env=env, cwd=batch, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=budget)
        code, stderr = done.returncode, done.stderr
    else:
        limits = sandbox.Limits(wall_s=budget)
        done = sandbox.run(driver, workdir=batch, env=env, limits=limits)
        code, stderr = done.exit_code, done.stderr
        if done.timed_out:
            raise ProbeError(f"the probe batch exceeded {budget:.0f} s")
    if code != 0:
        raise ProbeError(f"the probe batch failed with status {code}: {stderr[-2000:].decode(errors='replace')}")


def probe_many(items: Iterable[tuple[str, str]], *, fixture: Mapping[str, bytes] | None = None,
               workers: int | None = None, timeout: float = JOB_TIMEOUT_S,
               unsafe_no_sandbox: bool = False, keep: bool = False) -> list[ProbeResult]:
    """Probe every ``(reply, transport)`` pair; results in the same order.

    Each probe gets a fresh working directory holding ``fixture`` (relative
    paths to bytes). Batches run in a bubblewrap sandbox (``qbcore.sandbox``);
    without one, ProbeError unless ``unsafe_no_sandbox`` — replies are
    untrusted and a wrapped reply can leak commands into the outer shell.
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
        job = _Job(index, reply, name, dict(fixture or {}))
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
    if len(chunks) == 1:
        return _run_batch(chunks[0], sandbox=sandbox, timeout=timeout, keep=keep)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = pool.map(lambda c: _run_batch(c, sandbox=sandbox, timeout=timeout, keep=keep), chunks)
        return [result for part in parts for result in part]


def probe(reply: str, transport: str, **options) -> ProbeResult:
    """Probe one reply under one transport (see ``probe_many`` for the options)."""
    return probe_many([(reply, transport)], **options)[0]
