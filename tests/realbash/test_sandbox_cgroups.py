"""The cgroup that caps a sandbox's memory and tasks: made, limited, joined, emptied and removed."""

import os
import subprocess

import pytest

import sandboxing
from qbcore.realbash import cgroups


@pytest.fixture
def group():
    sandboxing.need_cgroup()
    made = cgroups.Group.create(64 << 20, 10)
    assert made is not None
    yield made
    made.close()


def _read(path):
    with open(path) as handle:
        return handle.read().strip()


def test_the_caps_are_written(group):
    if group.kind == "v2":
        assert _read(os.path.join(group.memory_dir, "memory.max")) == str(64 << 20)
    else:
        assert _read(os.path.join(group.memory_dir, "memory.limit_in_bytes")) == str(64 << 20)
    assert _read(os.path.join(group.pids_dir, "pids.max")) == "10"
    assert group.limit(32 << 20, 5) and _read(os.path.join(group.pids_dir, "pids.max")) == "5"


def test_the_task_cap_holds_for_a_member_and_its_children(group):
    child = subprocess.Popen(["sh", "-c", "read x; for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 5 & done 2>&1; "
                              "echo started; wait"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    try:
        assert group.add(child.pid) and child.pid in group.pids()
        child.stdin.write(b"go\n")
        child.stdin.flush()
        out = child.stdout.readline() + child.stdout.readline()
        # sh and four sleeps fill the cap of 5 (set by limit) or 10: the rest cannot fork
        assert b"fork" in out.lower() or b"resource" in out.lower(), out
    finally:
        group.close()
        child.wait(timeout=10)
    assert group.directories == []


def test_close_kills_what_is_left_and_removes_the_group(group):
    directories = list(group.directories)
    sleeper = subprocess.Popen(["sleep", "60"])
    group.add(sleeper.pid)
    group.close()
    assert sleeper.wait(timeout=10) != 0
    assert not any(os.path.exists(d) for d in directories)
