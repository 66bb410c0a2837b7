"""``qbcore escape``: the payload that a transport delivers as the given reply, byte for byte."""

import sys

from ._reply import add_reply_arguments, read_reply

NAME = "escape"
HELP = "print the payload P such that transport T delivers the reply to the inner shell unchanged"


def configure(parser):
    from ..harness.transports import NAMES

    parser.add_argument("-t", "--transport", required=True, choices=NAMES, metavar="T",
                        help="the harness layer: " + ", ".join(NAMES))
    add_reply_arguments(parser)
    parser.epilog = ("P is written exactly, with no newline added (one is added when standard output is a "
                     "terminal). For heredoc-ssh and stdin the inner shell reads the reply plus a final "
                     "newline. Exit status 2 when no payload exists (a NUL character).")


def run(args):
    from ..harness.transports import escape

    try:
        reply = read_reply(args)
    except OSError as exc:
        sys.stderr.write(f"qbcore escape: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    try:
        payload = escape(reply, args.transport)
    except ValueError as exc:
        sys.stderr.write(f"qbcore escape: no payload for {args.transport}: {exc}\n")
        return 2
    out = sys.stdout.buffer
    out.write(payload.encode("utf-8", "surrogateescape"))
    if sys.stdout.isatty():
        out.write(b"\n")
    out.flush()
    return 0
