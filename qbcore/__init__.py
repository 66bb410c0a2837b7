"""qbcore: predict how a harness layer rewrites a bash command, and check it against bash."""

__version__ = "0.1.0"

from ._engine import Tokens, engine, lex
from .errors import ShellSyntaxError

__all__ = ["__version__", "engine", "lex", "Tokens", "ShellSyntaxError"]
