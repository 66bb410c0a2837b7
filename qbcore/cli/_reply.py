"""Reading a reply from the command line: ``-- REPLY``, ``--file F`` or ``-`` (stdin)."""

import sys


def add_reply_arguments(parser):
    parser.add_argument("--file", metavar="F", help="read the reply from file F (bytes kept as they are)")
    parser.add_argument("reply", nargs="*", metavar="REPLY",
                        help="the reply after --, or - to read it from standard input")


def read_reply(args) -> str:
    """The reply text; raises SystemExit(2) with a message when the choice is ambiguous or missing."""
    given = [bool(args.file), bool(args.reply)]
    if sum(given) != 1:
        sys.stderr.write("qbcore: give exactly one of: -- REPLY, --file F, or - (standard input)\n")
        raise SystemExit(2)
    if args.file:
        with open(args.file, "rb") as handle:
            data = handle.read()
    elif args.reply == ["-"]:
        data = sys.stdin.buffer.read()
    elif len(args.reply) == 1:
        return args.reply[0]
    else:
        sys.stderr.write("qbcore: give the reply as one argument after -- (quote it)\n")
        raise SystemExit(2)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # keep undecodable bytes round-trippable rather than refusing the reply
        sys.stderr.write(f"qbcore: reply is not valid UTF-8 (byte {exc.start}); undecodable bytes kept as surrogates\n")
        return data.decode("utf-8", "surrogateescape")
