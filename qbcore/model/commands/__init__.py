"""The command registry: every command the evaluator models, by name.

An entry is ``model(ctx) -> Outcome`` (``ctx`` an Invocation: argv, the shell
state, stdin, the file view); the walker dispatches to it and keeps only
control flow. Builtins live here grouped by domain; models of utilities plug
in as further entries.
"""

from . import calls, conditions, control, directories, external, output, reading, variables  # noqa: F401  (they register)
from .registry import BUILTINS, Invocation, Outcome, lookup
from .registry import MODELLED as _MODELLED

# builtins whose only effect the model knows completely
MODELLED = frozenset(_MODELLED)

__all__ = ["BUILTINS", "MODELLED", "Invocation", "Outcome", "lookup"]
