"""``qbcore validate``: prove the suite against real bash.

For each transport the escaped oracle of every task must pass; under raw the
naive command must pass every control and no hostile task; with --real-ssh
the ssh transports also run against a private OpenSSH server, where the
oracle must pass and every oracle and naive outcome must match the stand-in's.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

NAME = "validate"
HELP = "check every task's oracle (all transports) and naive command (raw) against real bash"


def configure(parser):
    from ..harness.transports import NAMES

    parser.add_argument("-t", "--transport", action="append", metavar="T",
                        help="a transport to validate (repeatable), or 'all'; default raw. "
                             "Choices: " + ", ".join(NAMES))
    parser.add_argument("--real-ssh", action="store_true",
                        help="also run the ssh transports against a private OpenSSH server and compare")
    parser.add_argument("--unsafe-no-sandbox", action="store_true",
                        help="run without bubblewrap (only the suite's own commands are run)")
    parser.add_argument("-j", "--jobs", type=_positive, default=None, metavar="N",
                        help="parallel attempts (default: the number of CPUs)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every attempt, not only surprises")


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("needs at least 1 parallel attempt")
    return value


@dataclass
class Report:
    """What validation found: summary lines, the surprises, and whether everything held."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    attempts: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def selected_transports(chosen) -> list[str]:
    from ..harness.transports import NAMES, get

    if not chosen:
        return ["raw"]
    if "all" in chosen:
        return list(NAMES)
    names = []
    for name in chosen:
        names.append(get(name).name)
    return list(dict.fromkeys(names))


def validate(transport_names, *, real_ssh=False, workers=None, unsafe_no_sandbox=False) -> Report:
    from ..realbash import executor
    from .. import suite
    from ..harness import transports

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


def run(args) -> int:
    from ..realbash import realssh, sandbox

    try:
        names = selected_transports(args.transport)
    except ValueError as exc:
        sys.stderr.write(f"qbcore validate: {exc}\n")
        return 2
    if args.real_ssh and args.unsafe_no_sandbox:
        sys.stderr.write("qbcore validate: the real ssh server runs inside the sandbox; --real-ssh cannot be "
                         "combined with --unsafe-no-sandbox\n")
        return 2
    try:
        report = validate(names, real_ssh=args.real_ssh, workers=args.jobs,
                          unsafe_no_sandbox=args.unsafe_no_sandbox)
    except sandbox.SandboxUnavailable as exc:
        sys.stderr.write(f"qbcore validate: cannot run the suite: {exc}\n")
        return 3
    except realssh.RealSSHUnavailable as exc:
        sys.stderr.write(f"qbcore validate: --real-ssh: {exc}\n")
        return 3
    if args.verbose:
        for job, attempt in sorted(report.attempts, key=lambda r: (r[0].transport, r[0].task_id, r[0].label)):
            where = " (real server)" if job.real_ssh else ""
            sys.stdout.write(f"  {job.transport}{where} {job.label:6} {job.task_id:32} {attempt.class_}\n")
    for line in report.lines:
        sys.stdout.write(line + "\n")
    for problem in report.problems:
        sys.stdout.write("PROBLEM " + problem + "\n")
    sys.stdout.write("validation holds\n" if report.ok else f"validation FAILED: {len(report.problems)} problems\n")
    return 0 if report.ok else 1
