"""Shared fixtures: every engine test runs on both engines (ids ``cython`` and ``python``).

The compiled engine is skipped only when it is not built; with
QBCORE_REQUIRE_EXTENSIONS=1 (set by CI's compiled run) a missing build fails.

Randomness: by default every run draws fresh examples. QBCORE_SEED=N (CI sets
one) makes a run reproducible: the probe batches draw from N (tests/support/probing.py)
and every other hypothesis test is derandomized, so a commit that passed once
passes again, and a failure message's seed replays it.
"""

import importlib
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# the shared test helpers (bashref, probing, sandboxing, lexcorpus, corpus_replies)
# live in tests/support/; the tests in every layer's folder import them by name
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

REPRODUCIBLE = os.environ.get("QBCORE_SEED", "") not in ("", "0")
settings.register_profile("reproducible", derandomize=True, database=None)
if REPRODUCIBLE:
    settings.load_profile("reproducible")

REQUIRE_EXTENSIONS = os.environ.get("QBCORE_REQUIRE_EXTENSIONS", "") not in ("", "0")


def _load(name):
    try:
        return importlib.import_module(f"qbcore.syntax.{name}")
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


@pytest.fixture
def cgroup_needed():
    """A test of the cgroup's caps: skipped without a writable cgroup, failed under
    QBCORE_REQUIRE_SANDBOX=1 (``sandboxing.need_cgroup``)."""
    import sandboxing

    sandboxing.need_cgroup()
