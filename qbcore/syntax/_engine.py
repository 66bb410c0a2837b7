"""Choose the engine: the compiled one unless disabled or missing.

The one engine switch: ``QBCORE_NO_EXTENSIONS`` (read by ``_switch``) selects
the pure-Python twin; a compiled lexer that fails to import falls back to it
with one warning. Every other compiled twin (the simulate fast path, and the
model's modules compiled from their source, see ``_switch``) follows
``engine`` here.
"""

import warnings

from .._switch import VARIABLE, extensions_disabled, install

if extensions_disabled():
    from ._purequote import Tokens, lex
    engine = "python"
else:
    try:
        from ._fastquote import Tokens, lex
        engine = "cython"
    except Exception as exc:  # noqa: BLE001 - not built, or built from a stale table
        warnings.warn(
            f"qbcore: compiled engine unavailable ({exc}); using the pure-Python "
            f"engine (set {VARIABLE}=1 to choose it explicitly)",
            RuntimeWarning, stacklevel=2)
        from ._purequote import Tokens, lex
        engine = "python"

# the model's modules compiled from their own source follow the lexer's engine
install(compiled=engine == "cython")

__all__ = ["Tokens", "lex", "engine"]
