"""``qbcore run``: run one reply for one task in real bash (sandboxed) and print the outcome."""

import json
import sys

from ._reply import add_reply_arguments, read_reply

NAME = "run"
HELP = "run a reply for a task under a transport in a sandbox and judge the final state"


def configure(parser):
    from ..harness.transports import NAMES

    parser.add_argument("--task", metavar="ID", help="the task id, e.g. sed-replace/t2-slashes")
    parser.add_argument("-t", "--transport", default=None, choices=NAMES, metavar="T",
                        help="the harness layer (default raw, or the one a --record's contract implies): "
                             + ", ".join(NAMES))
    parser.add_argument("--record", metavar="RESULTS.jsonl:LINE",
                        help="take the task and the reply from line LINE of a QuoteBench result file")
    parser.add_argument("--attempt", type=int, default=0, metavar="N",
                        help="with --record: which attempt (0 = first, -1 = last)")
    parser.add_argument("--real-ssh", action="store_true",
                        help="send the ssh transports to a private OpenSSH server instead of the stand-in")
    parser.add_argument("--unsafe-no-sandbox", action="store_true",
                        help="run without bubblewrap, directly on this host (only for replies you trust)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--show-output", action="store_true", help="also print the command's stdout and stderr")
    add_reply_arguments(parser)


def run(args) -> int:
    from ..realbash import executor, realssh, sandbox
    from .. import suite

    if args.record:
        try:
            args.task, reply, implied = _from_record(args.record, args.attempt)
        except (OSError, ValueError) as exc:
            sys.stderr.write(f"qbcore run: --record {args.record}: {exc}\n")
            return 2
        args.transport = args.transport or implied
    elif not args.task:
        sys.stderr.write("qbcore run: give --task ID (or --record RESULTS.jsonl:LINE)\n")
        return 2
    args.transport = args.transport or "raw"
    try:
        task = suite.get(args.task)
    except suite.UnknownTask as exc:
        sys.stderr.write(f"qbcore run: {exc.args[0]}\n")
        return 2
    if not args.record:
        try:
            reply = read_reply(args)
        except OSError as exc:
            sys.stderr.write(f"qbcore run: cannot read the reply: {exc.strerror}: {exc.filename}\n")
            return 2
    try:
        attempt = executor.run(task, reply, args.transport, real_ssh=args.real_ssh,
                               unsafe_no_sandbox=args.unsafe_no_sandbox)
    except sandbox.SandboxUnavailable as exc:
        sys.stderr.write(f"qbcore run: refusing to run the reply: {exc}\n")
        return 3
    except realssh.RealSSHUnavailable as exc:
        sys.stderr.write(f"qbcore run: --real-ssh: {exc}\n")
        return 3
    except ValueError as exc:
        sys.stderr.write(f"qbcore run: {exc}\n")
        return 2
    if args.format == "json":
        json.dump(attempt.as_dict(output=args.show_output), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        status = "PASS" if attempt.passed else "FAIL"
        sys.stdout.write(f"{status} {attempt.task_id} via {attempt.transport}: {attempt.class_}\n")
        sys.stdout.write(f"  reason:    {attempt.reason}\n")
        sys.stdout.write(f"  exit code: {attempt.exit_code}\n")
        sys.stdout.write(f"  new files: {', '.join(attempt.new_files) or '(none)'}\n")
        sys.stdout.write(f"  duration:  {attempt.duration_s:.3f} s\n")
        if args.show_output:
            sys.stdout.write("  stdout:\n" + _indent(attempt.stdout) + "  stderr:\n" + _indent(attempt.stderr))
    return 0 if attempt.passed else 1


def _from_record(spec: str, attempt: int):
    """(task id, reply, transport the artifact ran it under) from ``FILE:LINE`` of a result file."""
    from ..batch import qbfiles

    path, sep, line = spec.rpartition(":")
    if not sep or not line.isdigit() or int(line) < 1:
        raise ValueError("expected RESULTS.jsonl:LINE with a line number from 1")
    number, raw = 0, b""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == int(line):
                break
        else:
            raise ValueError(f"the file has only {number} lines")
    try:
        record = json.loads(raw)
    except ValueError as exc:
        raise ValueError(f"line {line} is not JSON: {exc}") from None
    if not isinstance(record, dict) or not qbfiles.is_result_record(record):
        raise ValueError(f"line {line} is not a QuoteBench result record")
    return record.get("task_id"), qbfiles.attempt_reply(record, attempt), \
        qbfiles.execution_transport(record.get("contract"))


def _indent(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    return "".join(f"    {line}\n" for line in text.split("\n")) if text else ""
