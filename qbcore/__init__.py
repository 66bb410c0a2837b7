"""qbcore: predict how a harness layer rewrites a bash command, and check it against bash."""

__version__ = "0.1.0"

from .syntax._engine import Tokens, engine, lex
from ._switch import model_engines as _model_engines

# "cython" only when the lexer and every module the build compiles from its source
# run compiled; "partial" when the lexer is compiled but a model module runs its source
if engine == "cython" and "python" in _model_engines(__path__[0]).values():
    engine = "partial"
from .syntax.errors import ShellSyntaxError
# the function, not the submodule of the same name: bound once here, so a later
# `from .simulate import ...` elsewhere never turns qbcore.simulate into the module
from .harness.simulate import simulate
from .harness.transports import escape

__all__ = ["__version__", "engine", "lex", "Tokens", "ShellSyntaxError", "simulate", "escape"]

