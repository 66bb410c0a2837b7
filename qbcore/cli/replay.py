"""``qbcore replay``: re-run the commands of QuoteBench result records under a transport, sandboxed."""

import sys

NAME = "replay"
HELP = "re-execute QuoteBench result records (JSONL) under a transport in the sandbox; resumable"


def configure(parser):
    from ..harness.transports import NAMES

    parser.add_argument("results", metavar="RESULTS.jsonl", help="result records written by quotebench run")
    parser.add_argument("-t", "--transport", default="raw", choices=NAMES, metavar="T",
                        help="the harness layer to run each reply under (default raw): " + ", ".join(NAMES))
    parser.add_argument("-o", "--output", required=True, metavar="OUT.jsonl",
                        help="replayed records (the artifact's schema plus 'transport'); an existing file is resumed")
    parser.add_argument("--restart", action="store_true", help="start the output afresh")
    parser.add_argument("-j", "--jobs", type=int, default=None, metavar="N", help="parallel attempts")
    parser.add_argument("--real-ssh", action="store_true", help="the ssh transports against a private OpenSSH server")


def run(args):
    from ..realbash import realssh, sandbox
    from ..realbash.replay import progress_bar, replay

    try:
        source = open(args.results, "rb")
    except OSError as exc:
        sys.stderr.write(f"qbcore replay: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    bar = progress_bar() if sys.stderr.isatty() else None
    try:
        with source:
            summary = replay(source, args.transport, args.output, resume=not args.restart, workers=args.jobs,
                             real_ssh=args.real_ssh, on_progress=bar)
    except sandbox.SandboxUnavailable as exc:
        sys.stderr.write(f"qbcore replay: refusing to run the replies: {exc}\n")
        return 3
    except realssh.RealSSHUnavailable as exc:
        sys.stderr.write(f"qbcore replay: --real-ssh: {exc}\n")
        return 3
    for number, reason in summary.bad_lines:
        sys.stderr.write(f"qbcore replay: {args.results}: line {number}: {reason}\n")
    print(f"replayed {summary.records} records ({summary.attempts} attempts) under {args.transport}, "
          f"{summary.resumed} already done, {len(summary.bad_lines)} bad lines -> {args.output}")
    return 1 if summary.bad_lines else 0
