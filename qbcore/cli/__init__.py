"""The ``qbcore <verb>`` command line.

Each verb lives in its own module under ``qbcore.cli`` and exposes
``NAME``, ``HELP``, ``configure(parser)`` and ``run(args) -> int``; this module
only discovers them, so adding a verb never touches the others.
"""

import argparse
import importlib
import pkgutil
import sys

from .. import __version__, cli as commands


def _verbs():
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{commands.__name__}.{info.name}")


def build_parser() -> argparse.ArgumentParser:
    from .. import engine

    parser = argparse.ArgumentParser(
        prog="qbcore",
        description="Predict how a harness layer rewrites a bash command; check it against real bash.")
    parser.add_argument("--version", action="version",
                        version=f"qbcore {__version__} (engine: {engine})")
    sub = parser.add_subparsers(dest="verb", metavar="<verb>")
    for module in _verbs():
        # argparse %-formats a help string (for %(default)s): a verb's own % is text
        verb = sub.add_parser(module.NAME, help=module.HELP.replace("%", "%%"), description=module.HELP)
        module.configure(verb)
        verb.set_defaults(run=module.run)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except BrokenPipeError:  # `qbcore ... | head` is normal use
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
