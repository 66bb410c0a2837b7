"""``qbcore score``: QuoteBench's metrics over result records (the artifact's or ``qbcore replay``'s)."""

import json
import sys

NAME = "score"
HELP = "control and hostile pass rates, Quoting Gap with 95% Wilson intervals, crossover cells, per family"


def configure(parser):
    parser.add_argument("files", nargs="+", metavar="FILE.jsonl", help="QuoteBench result records")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args):
    from ..batch.score import load, render_text, score

    try:
        outcomes, bad = load(args.files)
    except OSError as exc:
        sys.stderr.write(f"qbcore score: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    for path, number, reason in bad:
        sys.stderr.write(f"qbcore score: {path}: line {number}: {reason}\n")
    report = score(outcomes)
    if args.format == "json":
        json.dump(dict(report, bad_lines=[{"file": p, "line": n, "reason": r} for p, n, r in bad]), sys.stdout)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_text(report))
    return 1 if bad or not outcomes else 0
