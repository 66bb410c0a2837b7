"""The syntax layer: the text of a command to tokens and to a tree.

Two lexing engines over one table (lexdef), the engine choice (_engine), the
parser (parser). Nothing here evaluates anything. The names below are loaded
on first use, so that importing the lexer never loads the parser.
"""

import importlib

_EXPORTS = {
    "lex": "_engine", "Tokens": "_engine", "engine": "_engine",
    "ShellSyntaxError": "errors",
    "parse": "parser", "parse_prefix": "parser",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
