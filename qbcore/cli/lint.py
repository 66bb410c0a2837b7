"""``qbcore lint``: nesting hazards in replies (per transport) and in scripts (nested invocations)."""

import os
import sys

NAME = "lint"
HELP = "find nesting hazards: a reply under transports (-t), or the nested invocations in scripts"
NUL = b"\0"
MAX_BYTES = 10 * 1024 * 1024
DEFAULT_TRANSPORTS = ("nested",)


def configure(parser):
    from ..lint.findings import SEVERITIES
    from ..lint.formatters import FORMATTERS

    parser.add_argument("paths", nargs="*", metavar="FILE", help="scripts to lint (- reads standard input)")
    parser.add_argument("-c", "--command", metavar="TEXT",
                        help="lint this text: a reply when -t is given, else a command line")
    parser.add_argument("--replies", metavar="FILE.jsonl", help="stored replies (the files screen reads)")
    parser.add_argument("-t", "--transport", action="append", metavar="T",
                        help="a transport the reply travels through, repeatable, or 'all' (replies; default: nested)")
    parser.add_argument("--format", choices=sorted(FORMATTERS), default="text")
    parser.add_argument("--severity", choices=SEVERITIES, default=None,
                        help="report and fail on findings at or above this severity (default: style)")
    parser.add_argument("--select", action="append", default=[], metavar="CODES",
                        help="only these codes or prefixes, comma-separated (e.g. QB1,QB301)")
    parser.add_argument("--ignore", action="append", default=[], metavar="CODES",
                        help="leave out these codes or prefixes, comma-separated")
    parser.add_argument("--fix", action="store_true", help="apply safe fixes in place (-c: print the fixed text)")
    parser.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --format diff: unsafe fixes too")
    parser.add_argument("--explain", metavar="CODE", help="print the page of one rule and exit")
    parser.add_argument("--depth", type=int, default=3, metavar="N", help="nested layers to follow (default: 3)")


class InputError(Exception):
    """A file that cannot be linted; the others still are."""


def read_text(path: str) -> str:
    """A script's text, or InputError saying clearly why it cannot be linted."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    else:
        if os.path.isdir(path):
            raise InputError("is a directory (give the script files)")
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise InputError(f"larger than {MAX_BYTES // (1024 * 1024)} MB; not linted")
    if b"\0" in data:
        raise InputError(f"binary file (a NUL byte at offset {data.index(NUL)}); not linted")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 (byte {exc.start}); not linted") from None


def _codes(values):
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


def _settings(args, start, cache):
    from dataclasses import replace

    from ..lint.config import settings_for
    from ..lint.rules import REGISTRY

    settings = settings_for(start, cache)
    for option, codes in (("select", _codes(args.select)), ("ignore", _codes(args.ignore))):
        for code in codes:
            if code != "ALL" and not any(c.startswith(code) for c in REGISTRY):
                raise ValueError(f"--{option}: {code!r} matches no rule code")
        if codes:
            settings = replace(settings, **{option: codes})
    if args.severity:
        settings = replace(settings, severity=args.severity)
    return settings


def _transports(args, settings):
    from ..harness.transports import NAMES, get

    chosen = args.transport or settings.transports or DEFAULT_TRANSPORTS
    if "all" in chosen:
        return list(NAMES)
    return [get(t).name for t in chosen]


def run(args):
    from ..lint import SourceText, lint_reply, lint_text
    from ..lint.config import ConfigError
    from ..lint.fixes import apply_fixes
    from ..lint.formatters import FORMATTERS
    from ..lint.rules import REGISTRY

    err = sys.stderr.write
    if args.explain:
        rule = REGISTRY.get(args.explain.strip().upper())
        if rule is None:
            err(f"qbcore lint: no rule {args.explain!r}; the codes are {', '.join(sorted(REGISTRY))}\n")
            return 2
        sys.stdout.write(rule.explain())
        return 0
    if not (args.paths or args.command is not None or args.replies):
        err("qbcore lint: give FILE..., -c TEXT or --replies FILE.jsonl\n")
        return 2
    if args.transport and args.paths:
        err("qbcore lint: -t applies to -c and --replies, not to script files\n")
        return 2
    if args.depth < 1:
        err("qbcore lint: --depth must be at least 1\n")
        return 2
    cache, findings, sources, failed = {}, [], {}, False
    fixed_commands = []
    try:
        if args.command is not None:
            settings = _settings(args, os.getcwd(), cache)
            text = args.command
            if "\0" in text:
                raise InputError("the command contains a NUL character")
            source_key = ("<command>", None)
            sources[source_key] = SourceText("<command>", text)
            if args.transport:
                transports = _transports(args, settings)
                found = lint_reply(text, transports, settings, path="<command>")
                if args.fix:
                    for transport in transports:
                        fix = next((f.fix for f in found if f.transport == transport and f.fix is not None
                                    and (f.fix.applicability == "safe" or args.unsafe_fixes)), None)
                        fixed_commands.append((transport, fix.replacement if fix else text))
                    found = [f for f in found if not (f.fix and (f.fix.applicability == "safe" or args.unsafe_fixes))]
            else:
                found = lint_text(text, "<command>", settings, depth=args.depth)
                if args.fix:
                    fixed, applied = apply_fixes(text, found, unsafe=args.unsafe_fixes)
                    fixed_commands.append((None, fixed))
                    if applied:
                        found = lint_text(fixed, "<command>", settings, depth=args.depth)
                        sources[source_key] = SourceText("<command>", fixed)
            findings += found
        if args.replies:
            findings_r, failed_r = _lint_replies(args, cache, sources)
            findings += findings_r
            failed = failed or failed_r
        for path in args.paths:
            try:
                text = read_text(path)
            except InputError as exc:
                err(f"qbcore lint: {path}: {exc}\n")
                failed = True
                continue
            settings = _settings(args, path if path != "-" else os.getcwd(), cache)
            found = lint_text(text, path, settings, depth=args.depth)
            if args.fix and path != "-":
                fixed, applied = apply_fixes(text, found, unsafe=args.unsafe_fixes)
                if applied:
                    with open(path, "w", encoding="utf-8", newline="") as handle:
                        handle.write(fixed)
                    err(f"qbcore lint: {path}: applied {len(applied)} fix{'es' if len(applied) != 1 else ''}\n")
                    text = fixed
                    found = lint_text(text, path, settings, depth=args.depth)
            sources[(path, None)] = SourceText(path, text)
            findings += found
    except (ConfigError, ValueError) as exc:
        err(f"qbcore lint: {exc}\n")
        return 2
    except InputError as exc:
        err(f"qbcore lint: {exc}\n")
        return 2
    for transport, text in fixed_commands:
        if transport is not None and len(fixed_commands) > 1:
            sys.stdout.write(f"# {transport}\n")
        sys.stdout.write(text + "\n")
    out = sys.stderr if fixed_commands else sys.stdout
    formatter = FORMATTERS[args.format](out, sources, unsafe_fixes=args.unsafe_fixes)
    formatter.start()
    for finding in findings:
        formatter.handle(finding)
    formatter.stop()
    if failed:
        return 2
    return 1 if findings else 0


def _lint_replies(args, cache, sources):
    from ..lint import SourceText, lint_reply
    from ..batch.replies import BadLine, iter_replies

    err = sys.stderr.write
    path = args.replies
    if os.path.isdir(path):
        err(f"qbcore lint: {path}: is a directory (give a JSONL file)\n")
        return [], True
    settings = _settings(args, path, cache)
    transports = _transports(args, settings)
    findings, failed = [], False
    try:
        handle = open(path, "rb")
    except OSError as exc:
        err(f"qbcore lint: {path}: cannot read: {exc.strerror}\n")
        return [], True
    with handle:
        for item in iter_replies(handle):
            if isinstance(item, BadLine):
                err(f"qbcore lint: {path}: {item}\n")
                failed = True
                continue
            try:
                found = lint_reply(item.reply, transports, settings, path=path, reply_id=item.id,
                                   record_line=item.line)
            except ValueError as exc:
                err(f"qbcore lint: {path}: line {item.line} (reply {item.id}): {exc}\n")
                failed = True
                continue
            if found:
                sources[(path, item.id)] = SourceText(path, item.reply)
            findings += found
    if args.fix:
        err("qbcore lint: --fix leaves replies files as they are; the fixes are in the findings\n")
    return findings, failed
