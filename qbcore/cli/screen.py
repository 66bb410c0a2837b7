"""``qbcore screen``: every stored reply through every transport, a result line each."""

import json
import os
import sys
from importlib import resources

NAME = "screen"
HELP = "screen stored replies (JSONL) through transports; results are appended to a resumable JSONL file"
SAMPLE = "sample_replies.jsonl"
#: seconds a verified pair may take on top of --timeout, besides the executor's wall-clock limit: a sandbox start
SANDBOX_START_S = 15.0


def configure(parser):
    from ..batch.screen import MAX_TEXT, MEMORY_MB, TIMEOUT

    parser.add_argument("replies", nargs="?", metavar="REPLIES.jsonl",
                        help="stored replies, one JSON object a line, or - for standard input "
                             "(default: the bundled samples)")
    parser.add_argument("-t", "--transport", action="append", metavar="T",
                        help="a transport name, repeatable, or 'all' (default: all)")
    parser.add_argument("-o", "--output", default="screen-results.jsonl", metavar="OUT",
                        help="result file (default: %(default)s); an existing one is checked and resumed")
    parser.add_argument("--restart", action="store_true", help="start the result file afresh")
    parser.add_argument("--retry-errors", action="store_true",
                        help="screen again the pairs whose latest row is an error (a timeout or a crash)")
    parser.add_argument("-j", "--jobs", type=_positive(int), metavar="N",
                        help="worker processes (default: one per available core)")
    parser.add_argument("--timeout", type=_positive(float), default=TIMEOUT, metavar="S",
                        help="seconds one (reply, transport) pair may take before it is an error row "
                             "(default: %(default)g)")
    parser.add_argument("--memory", type=_positive(int), default=MEMORY_MB, metavar="MB",
                        help="address space of one worker in MiB (default: %(default)d)")
    parser.add_argument("--max-text", type=_positive(int), default=MAX_TEXT, metavar="N",
                        help="characters a row keeps of each reported field (default: %(default)d)")
    parser.add_argument("--cwd", metavar="DIR",
                        help="the outer shell's working directory, passed to the model (default: none given; "
                             "nothing of this machine is read)")
    parser.add_argument("--listing", metavar="FILE",
                        help="the files under the working directory before the harness runs, one path a line "
                             "(relative, directories ending in /)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="the summary's format on stdout")
    parser.add_argument("--dask", metavar="SCHEDULER_ADDRESS",
                        help="run the pairs on a Dask cluster (e.g. tcp://host:8786) instead of local workers; "
                             "needs pip install 'qbcore[dask]' here and qbcore on the cluster's workers")
    parser.add_argument("--no-predict", action="store_true",
                        help="only say what reaches the inner shell: no predicted pass or fail (faster)")
    parser.add_argument("--verify", nargs="?", const="all", choices=("all", "unknown"),
                        help="also run every pair of a suite task in the sandbox (--verify), or only the pairs "
                             "the prediction left unknown (--verify=unknown), and report whether they agree")
    parser.add_argument("--attempt", type=int, default=0, metavar="N",
                        help="for QuoteBench result records: which attempt to screen (0 = first, -1 = last)")


def _positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            import argparse

            raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
        return value
    return parse


def _transports(chosen):
    from ..harness.transports import NAMES, get

    if not chosen or "all" in chosen:
        return list(NAMES)
    return [get(name).name for name in chosen]


def _listing(path):
    from ..model.files import checked_listing

    with open(path, "rb") as handle:
        lines = handle.read().decode("utf-8", "surrogateescape").split("\n")
    return list(checked_listing([line for line in lines if line]))


def _fail(message) -> int:
    sys.stderr.write(f"qbcore screen: {message}\n")
    return 2


def run(args):
    from ..batch.cluster import ClusterError
    from ..batch.resultlog import OutputError
    from ..batch.screen import OUTCOMES, screen

    try:
        transports = _transports(args.transport)
    except ValueError as exc:
        return _fail(exc)
    listing = None
    if args.listing:
        try:
            listing = _listing(args.listing)
        except OSError as exc:
            return _fail(f"cannot read {exc.filename}: {exc.strerror}")
        except (TypeError, ValueError) as exc:
            return _fail(f"{args.listing}: {exc}")
    cwd = os.path.abspath(args.cwd) if args.cwd else None
    try:
        judge = _judge(args)
    except ValueError as exc:
        return _fail(exc)
    name = "standard input" if args.replies == "-" else args.replies or SAMPLE
    try:
        if args.replies == "-":
            source = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
        elif args.replies:
            source = open(args.replies, "rb")
        else:
            source = resources.files("qbcore.batch").joinpath("data", SAMPLE).open("rb")
    except OSError as exc:
        return _fail(f"cannot read {exc.filename or name}: {exc.strerror}")

    def bad_line(bad):
        progress.close()  # the message takes the line; the bar is drawn again below it
        sys.stderr.write(f"qbcore screen: {name}: skipped {bad}\n")
        sys.stderr.flush()

    def damaged(number, reason):
        progress.close()
        sys.stderr.write(f"qbcore screen: {args.output}: line {number}: {reason}; its work is redone\n")
        sys.stderr.flush()

    from ..batch.replies import read_lines
    from ._progress import Progress

    if args.dask:
        try:
            import distributed  # noqa: F401 - checked before any work starts
        except ImportError:
            source.close()
            return _fail("--dask needs the dask extra: pip install 'qbcore[dask]'")
    progress = Progress(source)
    with source:
        try:
            input_stat = os.fstat(source.fileno()) if hasattr(source, "fileno") else None
        except (OSError, ValueError):
            input_stat = None
        try:
            summary = screen(read_lines(source), transports, args.output, resume=not args.restart,
                             jobs=args.jobs, timeout=args.timeout, memory_mb=args.memory,
                             max_text=args.max_text, cwd=cwd, listing=listing, retry_errors=args.retry_errors,
                             input_stat=input_stat, on_bad_line=bad_line, on_damaged=damaged,
                             attempt=args.attempt, on_progress=progress.update, dask=args.dask, judge=judge)
        except (OutputError, ClusterError) as exc:
            return _fail(exc)
        except OSError as exc:
            return _fail(f"cannot read {name}: {exc.strerror}")
        finally:
            progress.close()
    counts = summary.counts
    status = 1 if summary.bad_lines else 0
    if args.format == "json":
        json.dump({"output": args.output, "screened": summary.screened, "resumed": summary.skipped,
                   "errors": summary.errors,
                   "bad_lines": [{"line": b.line, "reason": b.reason} for b in summary.bad_lines],
                   "damaged_lines": [{"line": n, "reason": r} for n, r in summary.damaged],
                   "superseded": summary.superseded, "delivery": counts, "verdicts": summary.verdicts},
                  sys.stdout)
        sys.stdout.write("\n")
        return status
    print(f"screened {summary.screened} (reply, transport) pairs ({summary.errors} errors), "
          f"{summary.skipped} already done; {len(summary.bad_lines)} bad lines; results in {args.output}")
    if summary.damaged or summary.superseded:
        print(f"result file: {len(summary.damaged)} damaged lines redone, "
              f"{summary.superseded} rows superseded by later rows (not counted)")
    width = max(len(t) for t in transports)
    print(f"{'transport':<{width}}  " + "  ".join(f"{d:>9}" for d in OUTCOMES))
    for transport in transports:
        print(f"{transport:<{width}}  " + "  ".join(f"{counts[transport][d]:>9}" for d in OUTCOMES))
    if summary.verdicts is not None:
        from ..batch.verdicts import render_text

        sys.stdout.write(render_text(summary.verdicts))
    return status


def _judge(args):
    """The predictor, and the sandboxed executor when verifying, as the options ask (ValueError: a bad mix)."""
    if args.no_predict:
        if args.verify:
            raise ValueError("--verify compares the prediction with the executor: it cannot go with --no-predict")
        return None
    from ..batch.verdicts import Judge
    from ..predict import predict

    if not args.verify:
        return Judge(predict)
    if args.dask:
        raise ValueError("--verify runs the sandbox on this machine's workers: it cannot go with --dask")
    from ..realbash import executor, sandbox

    if not sandbox.available():
        raise ValueError(f"--verify needs the sandbox: {sandbox.unavailable_reason()}")
    return Judge(predict, executor.run, args.verify, execute_seconds=sandbox.Limits().wall_s + SANDBOX_START_S)
