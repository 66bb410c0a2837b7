"""``qbcore screen``: every stored reply through every transport, a result line each."""

import json
import sys
from importlib import resources

NAME = "screen"
HELP = "screen stored replies (JSONL) through transports; results are appended to a resumable JSONL file"
SAMPLE = "sample_replies.jsonl"


def configure(parser):
    parser.add_argument("replies", nargs="?", metavar="REPLIES.jsonl",
                        help="stored replies, one JSON object a line (default: the bundled samples)")
    parser.add_argument("-t", "--transport", action="append", metavar="T",
                        help="a transport name, repeatable, or 'all' (default: all)")
    parser.add_argument("-o", "--output", default="screen-results.jsonl", metavar="OUT",
                        help="result file (default: %(default)s); an existing one is resumed")
    parser.add_argument("--restart", action="store_true", help="start the result file afresh")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="the summary's format on stdout")
    parser.add_argument("--attempt", type=int, default=0, metavar="N",
                        help="for QuoteBench result records: which attempt to screen (0 = first, -1 = last)")


def _transports(chosen):
    from ..transports import NAMES, get

    if not chosen or "all" in chosen:
        return list(NAMES)
    return [get(name).name for name in chosen]


def _counts(out_path, transports):
    from ..screen import DELIVERY

    counts = {t: dict.fromkeys(DELIVERY, 0) for t in transports}
    with open(out_path, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row.get("transport") in counts and row.get("delivered") in DELIVERY:
                counts[row["transport"]][row["delivered"]] += 1
    return counts


def run(args):
    from ..screen import DELIVERY, screen

    try:
        transports = _transports(args.transport)
    except ValueError as exc:
        sys.stderr.write(f"qbcore screen: {exc}\n")
        return 2
    try:
        if args.replies:
            source = open(args.replies, "rb")
        else:
            source = resources.files("qbcore").joinpath("data", SAMPLE).open("rb")
    except OSError as exc:
        sys.stderr.write(f"qbcore screen: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    with source:
        summary = screen(source, transports, args.output, resume=not args.restart, attempt=args.attempt)
    for bad in summary.bad_lines:
        sys.stderr.write(f"qbcore screen: {args.replies or SAMPLE}: skipped {bad}\n")
    counts = _counts(args.output, transports)
    if args.format == "json":
        json.dump({"output": args.output, "screened": summary.screened, "resumed": summary.skipped,
                   "bad_lines": [{"line": b.line, "reason": b.reason} for b in summary.bad_lines],
                   "delivery": counts}, sys.stdout)
        sys.stdout.write("\n")
        return 1 if summary.bad_lines else 0
    print(f"screened {summary.screened} (reply, transport) pairs, {summary.skipped} already done; "
          f"{len(summary.bad_lines)} bad lines; results in {args.output}")
    width = max(len(t) for t in transports)
    print(f"{'transport':<{width}}  " + "  ".join(f"{d:>9}" for d in DELIVERY))
    for transport in transports:
        print(f"{transport:<{width}}  " + "  ".join(f"{counts[transport][d]:>9}" for d in DELIVERY))
    # the good lines are done; a file with bad lines still ends in failure
    return 1 if summary.bad_lines else 0
