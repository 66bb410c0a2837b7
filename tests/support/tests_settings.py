"""Example counts for the utilities' property tests: modest in CI, larger with QBCORE_LONG=1."""

import os


def examples(n: int) -> int:
    return n * 10 if os.environ.get("QBCORE_LONG", "") not in ("", "0") else n
