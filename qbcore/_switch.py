"""The one place that reads QBCORE_NO_EXTENSIONS.

Both setup.py (whether to compile) and the package import (which engine to
load) ask this module, so the two can never disagree about the variable.
"""

import os

VARIABLE = "QBCORE_NO_EXTENSIONS"


def extensions_disabled(environ=None) -> bool:
    """True when the pure-Python engine is requested (any non-empty value but 0)."""
    value = (os.environ if environ is None else environ).get(VARIABLE, "")
    return value.strip() not in ("", "0")
