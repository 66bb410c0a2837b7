"""``qbcore rewrite``: what a transport's inner shell receives for a reply, predicted statically."""

import difflib
import json
import os
import shlex
import sys

from ._reply import add_reply_arguments, read_reply

NAME = "rewrite"
HELP = "predict what the inner shell receives when transport T carries the reply (nothing is run)"
OPEN, CLOSE = "⟦", "⟧"


def configure(parser):
    from ..harness.transports import NAMES

    parser.add_argument("-t", "--transport", required=True, choices=NAMES, metavar="T",
                        help="the harness layer: " + ", ".join(NAMES))
    parser.add_argument("--cwd", metavar="DIR", help="the outer shell's working directory (default: this one)")
    parser.add_argument("--env", action="append", default=[], metavar="K=V",
                        help="an exported variable of the outer shell, repeatable (added to the executor's "
                             "environment, or the whole environment with --clean-env)")
    parser.add_argument("--clean-env", action="store_true",
                        help="the outer shell's environment is exactly the --env pairs")
    parser.add_argument("--listing", metavar="FILE",
                        help="the files under the working directory before the harness runs, one path a line "
                             "(relative, directories ending in /; default: the real directory when it exists)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_reply_arguments(parser)


def _listing(path):
    """The paths of a --listing file (empty lines skipped), or None without one."""
    if path is None:
        return None
    with open(path, "rb") as handle:
        lines = handle.read().decode("utf-8", "surrogateescape").split("\n")
    return [line for line in lines if line]


def _environ(args, cwd):
    from ..harness.simulate import default_environ

    environ = {} if args.clean_env else default_environ(cwd)
    for pair in args.env:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--env takes NAME=VALUE, not {pair!r}")
        environ[name] = value
    return environ


def run(args):
    from ..harness.simulate import simulate

    try:
        reply = read_reply(args)
    except OSError as exc:
        sys.stderr.write(f"qbcore rewrite: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    cwd = os.path.abspath(args.cwd or os.getcwd())
    try:
        listing = _listing(args.listing)
    except OSError as exc:
        sys.stderr.write(f"qbcore rewrite: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    try:
        simulation = simulate(reply, args.transport, cwd=cwd, environ=_environ(args, cwd), listing=listing)
    except (ValueError, TypeError) as exc:
        sys.stderr.write(f"qbcore rewrite: {exc}\n")
        return 2
    if args.format == "json":
        # an undecodable reply byte stays a \udcXX escape, so the JSON is valid UTF-8
        data = json.dumps(simulation.as_dict(), ensure_ascii=False).encode("utf-8", "backslashreplace")
    else:
        data = render(simulation).encode("utf-8", "surrogateescape")  # the reply's own bytes
    sys.stdout.buffer.write(data + b"\n")
    return 0


def marked(before: str, after: str) -> tuple[str, str]:
    """``before`` and ``after`` with the spans that differ between them wrapped in ⟦…⟧."""
    left, right = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op == "equal":
            left.append(before[i1:i2])
            right.append(after[j1:j2])
            continue
        if i2 > i1:
            left.append(OPEN + before[i1:i2] + CLOSE)
        if j2 > j1:
            right.append(OPEN + after[j1:j2] + CLOSE)
    return "".join(left), "".join(right)


def _block(text: str) -> str:
    return "\n".join("  " + line for line in text.split("\n"))


def render(simulation) -> str:
    """The text report: the reply and the inner script with the changed spans marked."""
    lines = [f"transport: {simulation.transport}"]
    if simulation.inner_script is None:
        lines += ["reply:", _block(simulation.reply), "inner script: none (the inner shell does not start)"]
    elif simulation.inner_script == simulation.reply:
        lines += ["reply:", _block(simulation.reply), "inner script: the reply, unchanged"]
    else:
        before, after = marked(simulation.reply, simulation.inner_script)
        lines += [f"reply ({OPEN}…{CLOSE}: what the transport removes or changes):", _block(before),
                  f"inner script ({OPEN}…{CLOSE}: what the transport adds or changes):", _block(after)]
    if simulation.inner_args:
        names = ", ".join(f"${n}={shlex.quote(a)}" for n, a in enumerate(simulation.inner_args))
        lines.append(f"inner args: {names}")
    if simulation.exact:
        lines.append("exact: yes")
    else:
        lines.append("exact: no; not statically known: " + "; ".join(simulation.opaque))
    if simulation.outer_effects:
        lines.append("outer effects:")
        for effect in simulation.outer_effects:
            what = (" ".join(shlex.quote(a) for a in effect.argv) if effect.kind == "command"
                    else effect.path if effect.kind == "file" else effect.text)
            maybe = "" if effect.certain else " (maybe)"
            layer = " [middle shell]" if effect.layer == 2 else ""
            lines.append(f"  {effect.kind}: {what}{maybe}{layer}")
    else:
        lines.append("outer effects: none")
    lines.append(f"outer error: {simulation.outer_error or 'none'}")
    return "\n".join(lines)
