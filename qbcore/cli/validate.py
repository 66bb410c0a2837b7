"""``qbcore validate``: prove the suite against real bash (qbcore.realbash.validation)."""

from __future__ import annotations

import sys

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


def run(args) -> int:
    from ..realbash import realssh, sandbox
    from ..realbash.validation import validate

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
