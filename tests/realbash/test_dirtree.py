"""Directory content as data: what is read is what gets written, and writing never goes through a link."""

import os
import stat
import sys

import pytest

from qbcore.realbash import dirtree


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


# --- reading what a reply left: by descriptors, under caps ---------------------------

def _open(path):
    return os.open(path, os.O_RDONLY | os.O_DIRECTORY)


def test_read_at_matches_read_and_follows_no_symlink(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("host secret")
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    (root / "a" / "f").write_bytes(b"data")
    (root / "dirlink").symlink_to(outside)
    (root / "filelink").symlink_to(outside / "secret")
    fd = _open(root)
    try:
        nodes = dirtree.read_at(fd)
    finally:
        os.close(fd)
    assert nodes == dirtree.read(str(root))
    assert [n.path for n in nodes] == ["a", "dirlink", "filelink", "a/f"]
    assert all(b"host secret" not in n.data for n in nodes)
    assert {n.path: n.kind for n in nodes}["dirlink"] == "symlink"


def test_read_at_reads_the_directory_it_was_opened_on_even_after_a_swap(tmp_path):
    # the descriptor is the task directory; renaming it away and putting a link in its place changes nothing
    task = tmp_path / "task"
    task.mkdir()
    (task / "mine").write_text("mine")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "theirs").write_text("theirs")
    fd = _open(task)
    try:
        task.rename(tmp_path / "moved")
        (tmp_path / "task").symlink_to(outside)
        assert [n.path for n in dirtree.read_at(fd)] == ["mine"]
    finally:
        os.close(fd)


@pytest.mark.parametrize("cap, make, message", [
    (dirtree.Caps(depth=50), lambda p: os.makedirs(os.path.join(p, *["d"] * 60)), "nested deeper than 50"),
    (dirtree.Caps(entries=100), lambda p: [open(os.path.join(p, str(i)), "w").close() for i in range(101)],
     "more than 100 entries"),
    (dirtree.Caps(data_bytes=1 << 20), lambda p: os.truncate(_touch(p, "sparse"), 1 << 40), "bytes of file content"),
])
def test_read_at_stops_at_each_cap(tmp_path, cap, make, message):
    make(str(tmp_path))
    fd = _open(tmp_path)
    try:
        with pytest.raises(dirtree.TooLarge, match=message):
            dirtree.read_at(fd, cap)
    finally:
        os.close(fd)


def _touch(folder, name):
    path = os.path.join(folder, name)
    open(path, "w").close()
    return path


def test_read_at_walks_thousands_deep_without_recursion(tmp_path):
    fd = _open(tmp_path)
    chain = [_open(tmp_path)]
    try:
        for _ in range(3000):
            os.mkdir("d", dir_fd=chain[-1])
            chain.append(os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=chain[-1]))
        nodes = dirtree.read_at(fd, dirtree.Caps(depth=5000, name_bytes=64 << 20))
        assert len(nodes) == 3000 and nodes[-1].path.count("/") == 2999
    finally:
        os.close(fd)
        # removed from the deepest up, by descriptors (the paths are too long to name)
        while len(chain) > 1:
            os.close(chain.pop())
            os.rmdir("d", dir_fd=chain[-1])
        os.close(chain[0])


def test_dump_and_load_round_trip_and_load_checks_what_it_gets():
    nodes = [dirtree.Node("a", "dir", 0o755), dirtree.Node("a/f", "file", 0o644, b"\x00x"),
             dirtree.Node("l", "symlink", target="/etc"), dirtree.Node("p", "fifo", 0o600)]
    data = dirtree.dump(nodes)
    assert dirtree.load(data) == nodes
    for bad in (["../x"], ["/abs"], ["a/../../x"], ["b/orphan"], ["a", "a"], [""]):
        crafted = dirtree.dump([dirtree.Node("a", "dir", 0o755)] + [dirtree.Node(p, "file") for p in bad])
        with pytest.raises(ValueError):
            dirtree.load(crafted)
    with pytest.raises(ValueError):
        dirtree.load(data[:-1])
    with pytest.raises(dirtree.TooLarge):
        dirtree.load(data, dirtree.Caps(entries=3))
