"""Directory content as data: what is read is what gets written, and writing never goes through a link."""

import os
import stat
import sys

import pytest

from qbcore import dirtree


def test_round_trip_keeps_bytes_modes_links_fifos_and_read_only_directories(tmp_path):
    src, dest = tmp_path / "src", tmp_path / "dest"
    src.mkdir()
    dest.mkdir()
    (src / "d" / "e").mkdir(parents=True)
    (src / "d" / "e" / "f").write_bytes(b"\x00\xff")
    (src / "d" / "e" / "f").chmod(0o640)
    (src / "link").symlink_to("/etc/passwd")
    os.mkfifo(src / "pipe", 0o600)
    (src / "d").chmod(0o500)
    try:
        dirtree.write(dirtree.read(str(src)), str(dest))
        assert dirtree.read(str(dest)) == dirtree.read(str(src))
        assert stat.S_IMODE((dest / "d").stat().st_mode) == 0o500
        assert os.readlink(dest / "link") == "/etc/passwd"
    finally:
        (src / "d").chmod(0o700)
        (dest / "d").chmod(0o700)


def test_set_id_bits_are_dropped(tmp_path):
    node = dirtree.Node("f", "file", 0o4755, b"x")
    dirtree.write([node], str(tmp_path))
    assert stat.S_IMODE((tmp_path / "f").stat().st_mode) == 0o755


def test_nothing_is_written_through_an_existing_symlink(tmp_path):
    outside = tmp_path / "outside"
    root = tmp_path / "root"
    root.mkdir()
    (root / "f").symlink_to(outside)
    with pytest.raises(FileExistsError):
        dirtree.write([dirtree.Node("f", "file", 0o644, b"x")], str(root))
    notes = []
    dirtree.write([dirtree.Node("f", "file", 0o644, b"x")], str(root), notes)
    assert not outside.exists() and notes and "f" in notes[0]


def test_special_files_are_named_not_written(tmp_path):
    notes = []
    dirtree.write([dirtree.Node("dev", "other", 0o600)], str(tmp_path), notes)
    assert os.listdir(tmp_path) == [] and notes == ["special file not returned: dev"]


def test_a_deep_tree_does_not_exhaust_the_stack(tmp_path):
    path = tmp_path
    for _ in range(300):
        path = path / "d"
        path.mkdir()
    # deeper than recursion would allow, in a tree small enough for pytest to remove
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100)
    try:
        nodes = dirtree.read(str(tmp_path))
    finally:
        sys.setrecursionlimit(limit)
    assert len(nodes) == 300


def test_clear_empties_read_only_directories(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f").write_text("x")
    (tmp_path / "a" / "b").chmod(0o500)
    (tmp_path / "a").chmod(0o500)
    dirtree.clear(str(tmp_path))
    assert os.listdir(tmp_path) == []
