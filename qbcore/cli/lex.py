"""``qbcore lex``: print the token stream of a reply, so a user can see how bash will read it."""

import json
import sys

from ._reply import add_reply_arguments, read_reply

NAME = "lex"
HELP = "print the tokens of a reply (kind, byte span, line:column, text), as text or JSON"


def configure(parser):
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format (default: %(default)s)")
    parser.add_argument("--engine", choices=("auto", "cython", "python"), default="auto",
                        help="lexing engine (default: the one qbcore loaded)")
    add_reply_arguments(parser)


def _engine(name):
    if name == "python":
        from ..syntax import _purequote
        return _purequote
    if name == "cython":
        from ..syntax import _fastquote  # ImportError reported by run()
        return _fastquote
    from ..syntax import _engine as chosen
    return chosen


def _line_starts(data):
    starts = [0]
    index = data.find(b"\n")
    while index >= 0:
        starts.append(index + 1)
        index = data.find(b"\n", index + 1)
    return starts


def run(args):
    from bisect import bisect_right

    from .. import ShellSyntaxError
    from ..syntax.lexdef import source_bytes

    try:
        engine = _engine(args.engine)
    except ImportError as exc:
        sys.stderr.write(f"qbcore lex: the compiled engine is not available ({exc})\n")
        return 2
    try:
        reply = read_reply(args)
    except OSError as exc:
        sys.stderr.write(f"qbcore lex: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    data = source_bytes(reply)
    try:
        tokens = engine.lex(reply)
    except ShellSyntaxError as exc:
        if args.format == "json":
            json.dump({"error": {"message": exc.message, "offset": exc.offset, "line": exc.line,
                                 "column": exc.column}}, sys.stdout)
            sys.stdout.write("\n")
        sys.stderr.write(f"qbcore lex: line {exc.line}, column {exc.column} (byte {exc.offset}): {exc.message}\n")
        return 1
    starts = _line_starts(data)
    rows = []
    for kind, start, end in tokens:
        line = bisect_right(starts, start)
        rows.append({"kind": kind, "start": start, "end": end, "line": line,
                     "column": start - starts[line - 1] + 1,
                     "text": data[start:end].decode("utf-8", "backslashreplace")})
    if args.format == "json":
        json.dump({"tokens": rows}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    for row in rows:
        span = f"{row['start']}-{row['end']}"
        where = f"{row['line']}:{row['column']}"
        sys.stdout.write(f"{row['kind']:<16} {span:<12} {where:<8} {json.dumps(row['text'], ensure_ascii=False)}\n")
    return 0
