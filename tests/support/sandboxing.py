"""Shared helpers for the tests that start sandboxes: skip only when bubblewrap truly cannot run.

With QBCORE_REQUIRE_SANDBOX=1 (CI sets it) a missing or broken bubblewrap,
or a machine without a writable cgroup, fails these tests instead of skipping them.
"""

import os

import pytest

from qbcore.realbash import sandbox

REQUIRE = os.environ.get("QBCORE_REQUIRE_SANDBOX", "") not in ("", "0")


def need_sandbox():
    reason = sandbox.unavailable_reason()
    if reason:
        if REQUIRE:
            pytest.fail(f"QBCORE_REQUIRE_SANDBOX is set but the sandbox cannot run: {reason}")
        pytest.skip(f"bubblewrap cannot run here: {reason}")


def need_cgroup():
    """The tests of the cgroup's memory and task caps (without one only the rlimits hold)."""
    from qbcore.realbash import cgroups

    need_sandbox()
    if cgroups.layout() is None:
        reason = "no writable cgroup (v1 memory+pids or v2 with both) here: only the per-process rlimits hold"
        if REQUIRE:
            pytest.fail(f"QBCORE_REQUIRE_SANDBOX is set but {reason}")
        pytest.skip(reason)


def need_real_ssh():
    from qbcore.realbash import realssh

    need_sandbox()
    reason = realssh.available()
    if reason:
        if REQUIRE:
            pytest.fail(f"QBCORE_REQUIRE_SANDBOX is set but the real ssh server cannot run: {reason}")
        pytest.skip(reason)


BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
