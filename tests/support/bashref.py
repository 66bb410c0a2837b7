"""Ask real bash, the referee: run scripts in a controlled environment, many per process.

Tests compare the model with what bash 5.2 really does. Starting one bash per
case would dominate the test time, so ``run_many`` feeds a batch of scripts
to one bash, each run by ``eval`` in its own subshell (same parser, isolated
state, ``$0`` = ``bash`` as under ``bash -c``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional

from qbcore.model.commandenv import command_environ
from qbcore.model.utilities.hostfacts import Facts, stated, system_programs, system_unrunnable

BASH = shutil.which("bash") or "/bin/bash"
# the executor's command environment but HOME (qbcore.model.commandenv: defined once)
EXECUTOR_ENVIRON = {name: value for name, value in command_environ("").items() if name != "HOME"}


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    stderr: bytes
    status: int

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", "surrogateescape")

    @property
    def error(self) -> str:
        return self.stderr.decode("utf-8", "surrogateescape")

    def nul_fields(self) -> list:
        """stdout as the fields printed by ``printf '%s\\0'`` (the last NUL ends the last field)."""
        if not self.stdout:
            return []
        parts = self.stdout.split(b"\0")
        return [p.decode("utf-8", "surrogateescape") for p in parts[:-1]]


def quote(text: str) -> str:
    """A bash word that expands to exactly ``text``."""
    return "'" + text.replace("'", "'\\''") + "'"


def executor_environ(cwd: str) -> dict:
    """The executor's environment: HOME is the working directory."""
    return dict(EXECUTOR_ENVIRON, HOME=cwd)


def host_facts():
    """``stated`` facts of this machine, where these tests run bash: the programs in its system
    PATH folders (a utility model runs only where PATH leads to the system's program), a
    fixed time and user."""
    import datetime

    return stated(Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser",
                        programs=system_programs(), unrunnable=system_unrunnable()))


def make_tree(root: str, paths: Iterable[str]):
    """Create files (and ``dir/`` directories) under root with Python, never with a shell."""
    for path in paths:
        full = os.path.join(root, path)
        if path.endswith("/"):
            os.makedirs(full, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w"):
                pass


def run(script: str, *, cwd: str, environ: Optional[Mapping[str, str]] = None, args: Iterable[str] = (),
        flags: Iterable[str] = (), timeout: float = 20) -> Outcome:
    """``bash [flags] -c script args…`` with exactly ``environ`` (default: the executor's)."""
    environ = dict(executor_environ(cwd) if environ is None else environ)
    # argv[0] "bash", as when a shell finds bash on PATH: $0 and $_ say "bash"
    # its own process group: a script that loops forever in a subshell is killed with it
    with subprocess.Popen(["bash", *flags, "-c", script, *args], executable=BASH, cwd=cwd, env=environ,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          start_new_session=True) as proc:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
    return Outcome(stdout, stderr, proc.returncode)


_DRIVER = r"""
__qb_i=0
while IFS= read -r -d '' -u 3 __qb_s; do
  ( eval "unset __qb_s __qb_i __qb_d; $__qb_s" ) 3<&- </dev/null >"$__qb_d/$__qb_i.out" 2>"$__qb_d/$__qb_i.err"
  echo $? >"$__qb_d/$__qb_i.status"
  __qb_i=$((__qb_i+1))
done 3<"$__qb_d/scripts"
"""


def run_many(scripts: list, *, cwd: str, environ: Optional[Mapping[str, str]] = None,
             timeout: float = 120) -> list:
    """Run each script in a fresh subshell of one ``bash -c``; one Outcome per script."""
    for script in scripts:
        if "\0" in script:
            raise ValueError("a script cannot contain a NUL byte")
    with tempfile.TemporaryDirectory(prefix="qbref-") as work:
        with open(os.path.join(work, "scripts"), "wb") as handle:
            for script in scripts:
                handle.write(script.encode("utf-8", "surrogateescape") + b"\0")
        driver = "__qb_d=" + quote(work) + "\n" + _DRIVER
        run(driver, cwd=cwd, environ=environ, timeout=timeout)
        out = []
        for n in range(len(scripts)):
            base = os.path.join(work, str(n))
            try:
                with open(base + ".out", "rb") as f:
                    stdout = f.read()
                with open(base + ".err", "rb") as f:
                    stderr = f.read()
                with open(base + ".status") as f:
                    status = int(f.read().strip() or "-1")
            except FileNotFoundError:
                stdout, stderr, status = b"", b"driver did not reach this script", -1
            out.append(Outcome(stdout, stderr, status))
        return out


def fields_script(setup: str, words: str) -> str:
    """A script that prints the fields ``words`` expand to, NUL-terminated, after ``setup``."""
    return f"{setup}\n__qb_f() {{ for __qb_a; do printf '%s\\0' \"$__qb_a\"; done; }}\n__qb_f {words}"


def fields_of(words: str, *, setup: str = "", cwd: str, environ=None) -> list:
    """The argv fields bash makes of ``words`` (one process)."""
    return run_many([fields_script(setup, words)], cwd=cwd, environ=environ)[0].nul_fields()


def setup_for(variables: Mapping[str, object] = (), positional: Iterable[str] = ()) -> str:
    """Bash text that sets variables (str or list for arrays) and positional parameters."""
    lines = []
    for name, value in dict(variables).items():
        if isinstance(value, (list, tuple)):
            lines.append(f"{name}=(" + " ".join(quote(v) for v in value) + ")")
        else:
            lines.append(f"{name}={quote(value)}")
    positional = list(positional)
    lines.append("set -- " + " ".join(quote(p) for p in positional) if positional else "set --")
    return "\n".join(lines)


def tempdir():
    """A fresh temporary directory (the caller removes it, or uses tmp_path instead)."""
    return tempfile.mkdtemp(prefix="qbref-cwd-")


def stdout_disagreements(scripts, *, cwd: str) -> list:
    """(script, model stdout, bash stdout) for each script whose statically known
    output differs from what bash prints; scripts the model cannot parse or whose
    output is opaque are not compared."""
    from qbcore import ShellSyntaxError
    from qbcore.model.evaluate import evaluate
    from qbcore.model.expand import Env, Opaque
    from qbcore.syntax.parser import parse

    cases = []
    for script in scripts:
        try:
            result = evaluate(parse(script), Env.default(cwd))
        except ShellSyntaxError:
            continue
        if not isinstance(result.stdout, Opaque):
            cases.append((script, result.stdout))
    outcomes = run_many([script for script, _ in cases], cwd=cwd)
    return [(s, m, o.text) for (s, m), o in zip(cases, outcomes) if m != o.text]


def model_stderr(commands) -> str:
    """What bash writes to stderr for the model's command records (substitutions first)."""
    return "".join(_errors_of(commands))


def _errors_of(commands):
    for command in commands:
        for sub in command.substitutions:
            yield from _errors_of(sub.commands)
        if command.error:
            yield f"bash: line {command.line}: {command.error}\n"
