"""Validation of the task suite against real bash: each oracle passes, the naive commands fail as they should.

For each transport the escaped oracle of every task must pass; under raw the
naive command must pass every control and no hostile task; with real_ssh the
ssh transports also run against a private OpenSSH server, where the oracle
must pass and every oracle and naive outcome must match the stand-in's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import suite
from ..harness import transports
from . import executor

__all__ = ["Report", "validate"]


@dataclass
class Report:
    """What validation found: summary lines, the surprises, and whether everything held."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    attempts: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def validate(transport_names, *, real_ssh=False, workers=None, unsafe_no_sandbox=False) -> Report:
    """Run every task's oracle (and under raw its naive command) through each transport
    in the sandbox, and say what held; raises SandboxUnavailable or RealSSHUnavailable."""
    tasks = suite.load()
    remote = [t for t in transport_names if transports.get(t).remote] if real_ssh else []
    jobs = []
    for name in transport_names:
        for task in tasks:
            oracle = transports.escape(task.oracle, name)
            jobs.append(executor.Job(task.id, oracle, name, "oracle"))
            if name == "raw":
                jobs.append(executor.Job(task.id, task.naive, name, "naive"))
            if name in remote:
                jobs.append(executor.Job(task.id, oracle, name, "oracle", real_ssh=True))
                jobs.append(executor.Job(task.id, task.naive, name, "naive", real_ssh=True))
                jobs.append(executor.Job(task.id, task.naive, name, "naive"))
    results = {}
    report = Report()
    for job, attempt in executor.run_many(jobs, workers=workers, unsafe_no_sandbox=unsafe_no_sandbox):
        results[(job.task_id, job.transport, job.label, job.real_ssh)] = attempt
        report.attempts.append((job, attempt))
    by_id = {t.id: t for t in tasks}
    total = len(tasks)
    for name in transport_names:
        oracle = [results[(t.id, name, "oracle", False)] for t in tasks]
        passed = sum(a.passed for a in oracle)
        report.lines.append(f"{name}: oracle: {passed}/{total} passed")
        report.problems += [f"{name}: oracle failed {a.task_id}: {a.class_}: {a.reason}" for a in oracle if not a.passed]
        if name == "raw":
            naive = [results[(t.id, name, "naive", False)] for t in tasks]
            controls = [a for a in naive if by_id[a.task_id].control]
            hostile = [a for a in naive if not by_id[a.task_id].control]
            report.lines.append(f"{name}: naive: controls {sum(a.passed for a in controls)}/{len(controls)}, "
                                f"hostile {sum(a.passed for a in hostile)}/{len(hostile)}")
            report.problems += [f"raw: naive failed the control {a.task_id}: {a.class_}: {a.reason}"
                                for a in controls if not a.passed]
            report.problems += [f"raw: naive passed the hostile task {a.task_id}" for a in hostile if a.passed]
        if name in remote:
            real = [results[(t.id, name, "oracle", True)] for t in tasks]
            report.lines.append(f"{name} (real server): oracle: {sum(a.passed for a in real)}/{total} passed")
            report.problems += [f"{name} (real server): oracle failed {a.task_id}: {a.class_}: {a.reason}"
                                for a in real if not a.passed]
            agree = 0
            for task in tasks:
                for label in ("oracle", "naive"):
                    stand_in = results[(task.id, name, label, False)]
                    server = results[(task.id, name, label, True)]
                    if (stand_in.passed, stand_in.class_) == (server.passed, server.class_):
                        agree += 1
                    else:
                        report.problems.append(
                            f"{name}: stand-in and real server disagree on the {label} of {task.id}: "
                            f"{stand_in.class_} ({stand_in.reason}) vs {server.class_} ({server.reason})")
            report.lines.append(f"{name}: stand-in vs real server: {agree}/{2 * total} outcomes agree")
    return report
