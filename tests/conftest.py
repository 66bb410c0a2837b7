"""Shared fixtures: every engine test runs on both engines (ids ``cython`` and ``python``).

The compiled engine is skipped only when it is not built; with
QBCORE_REQUIRE_EXTENSIONS=1 (set by CI's compiled run) a missing build fails.
"""

import importlib
import os

import pytest

REQUIRE_EXTENSIONS = os.environ.get("QBCORE_REQUIRE_EXTENSIONS", "") not in ("", "0")


def _load(name):
    try:
        return importlib.import_module(f"qbcore.{name}")
    except ImportError as exc:
        if name == "_fastquote" and REQUIRE_EXTENSIONS:
            pytest.fail(f"compiled engine required but not importable: {exc}")
        pytest.skip(f"compiled engine not built: {exc}")


@pytest.fixture(params=["_fastquote", "_purequote"], ids=["cython", "python"])
def lexer(request):
    """The engine module under test: has ``lex`` and ``Tokens``."""
    return _load(request.param)


@pytest.fixture(scope="session")
def both_lexers():
    """(compiled, pure) for differential tests; skips when the compiled one is not built."""
    return _load("_fastquote"), _load("_purequote")
