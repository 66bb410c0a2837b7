"""The virtual tree: protocol behaviour, budgets, and POSIX calls checked against the real kernel."""

import os
import tempfile

import pytest
from hypothesis import example, given, strategies as st

from utilities_diff import real_tree, virtual_tree
from qbcore.model.utilities.context import CommandContext, CommandResult, unknown
from qbcore.model.utilities.vfs import Budget, VfsBudgetExceeded, VfsError, VirtualTree


def make():
    return VirtualTree.from_listing(
        {"/task/a.txt": b"alpha\n", "/task/sub": None, "/task/sub/b": b"b", "/task/empty": None},
        modes={"/task/a.txt": 0o600})


def test_listing_implies_parents_and_keeps_modes():
    t = make()
    assert t.is_dir("/task") and t.is_file("/task/a.txt")
    assert t.mode("/task/a.txt") == 0o600 and t.mode("/task/sub/b") == 0o644
    assert t.listdir("/task") == ["a.txt", "empty", "sub"]
    assert t.snapshot() == {"/task": None, "/task/a.txt": b"alpha\n", "/task/empty": None,
                            "/task/sub": None, "/task/sub/b": b"b"}


def test_paths_normalise_and_views_resolve_relative_paths():
    t = make()
    assert t.read_bytes("//task/./sub/../a.txt") == b"alpha\n"
    view = t.at("/task/sub")
    assert view.read_bytes("../a.txt") == b"alpha\n"
    view.write_bytes("new", b"x")
    assert t.read_bytes("/task/sub/new") == b"x"  # a view shares the tree


def test_errors_carry_errno_and_wording():
    t = make()
    with pytest.raises(VfsError) as e:
        t.read_bytes("/task/missing")
    assert e.value.errno_name == "ENOENT"
    assert str(e.value) == "/task/missing: No such file or directory"
    with pytest.raises(VfsError, match="Is a directory"):
        t.read_bytes("/task/sub")
    with pytest.raises(VfsError, match="Not a directory"):
        t.read_bytes("/task/a.txt/x")
    with pytest.raises(VfsError, match="No such file"):
        t.write_bytes("/task/nodir/x", b"")
    with pytest.raises(VfsError, match="Directory not empty"):
        t.rmdir("/task/sub")


def test_write_append_and_mkdir_parents():
    t = make()
    t.write_bytes("/task/a.txt", b"more\n", append=True)
    assert t.read_bytes("/task/a.txt") == b"alpha\nmore\n"
    assert t.mode("/task/a.txt") == 0o600  # rewriting keeps the mode
    t.mkdir("/task/x/y/z", parents=True)
    assert t.is_dir("/task/x/y/z")
    t.mkdir("/task/x", parents=True)  # mkdir -p: existing is fine
    with pytest.raises(VfsError, match="File exists"):
        t.mkdir("/task/x")
    with pytest.raises(VfsError, match="File exists"):
        t.mkdir("/task/a.txt", parents=True)
    with pytest.raises(VfsError, match="Not a directory"):
        t.mkdir("/task/a.txt/q", parents=True)


def test_symlinks_inside_the_tree():
    t = make()
    t.symlink("sub", "/task/link")
    t.symlink("/task/a.txt", "/task/sub/abs")
    t.symlink("nowhere", "/task/dangling")
    assert t.is_symlink("/task/link") and t.is_dir("/task/link")
    assert t.read_bytes("/task/link/b") == b"b"
    assert t.read_bytes("/task/sub/abs") == b"alpha\n"
    assert t.readlink("/task/link") == "sub"
    assert not t.exists("/task/dangling") and t.lexists("/task/dangling")
    t.write_bytes("/task/dangling", b"made")  # open(O_CREAT) creates the target
    assert t.read_bytes("/task/nowhere") == b"made"
    t.symlink("loop2", "/task/loop1")
    t.symlink("loop1", "/task/loop2")
    with pytest.raises(VfsError) as e:
        t.read_bytes("/task/loop1")
    assert e.value.errno_name == "ELOOP"
    t.remove("/task/link")  # removes the link, not the directory
    assert t.is_dir("/task/sub") and not t.lexists("/task/link")
    assert "/task/dangling" in t.symlinks()


def test_clone_is_independent():
    t = make()
    c = t.clone()
    c.write_bytes("/task/a.txt", b"changed")
    c.mkdir("/task/new")
    c.rename("/task/sub", "/task/moved")
    assert t.read_bytes("/task/a.txt") == b"alpha\n"
    assert t.is_dir("/task/sub") and not t.exists("/task/new")
    assert c.read_bytes("/task/moved/b") == b"b"


def test_budget_is_checked_before_the_write():
    t = VirtualTree.from_listing({"/t/f": b"12345"}, budget=Budget(max_bytes=8, max_entries=4))
    with pytest.raises(VfsBudgetExceeded):
        t.write_bytes("/t/f", b"xxxx")
    assert t.read_bytes("/t/f") == b"12345"  # unchanged
    t.write_bytes("/t/f", b"xyz")
    with pytest.raises(VfsBudgetExceeded):
        t.mkdir("/t/d")  # root, /t, /t/f + one more = 4 is fine
        t.mkdir("/t/e")
    assert t.is_dir("/t/d") and not t.exists("/t/e")
    assert not isinstance(VfsBudgetExceeded("x", 1), VfsError)


def test_copy_keeps_mode_of_new_file_only():
    t = make()
    t.copy("/task/a.txt", "/task/c.txt")
    assert t.mode("/task/c.txt") == 0o600 and t.read_bytes("/task/c.txt") == b"alpha\n"
    t.copy("/task/sub/b", "/task/c.txt")
    assert t.mode("/task/c.txt") == 0o600 and t.read_bytes("/task/c.txt") == b"b"


def test_context_dataclasses():
    t = make()
    ctx = CommandContext(argv=["cat", "a.txt"], stdin=b"", cwd="/task", env={}, tree=t)
    assert ctx.files.read_bytes("a.txt") == b"alpha\n"
    assert CommandResult(1, b"o", b"e").unknown is None
    assert unknown("cat -Z").unknown == "cat -Z"


# -- the POSIX calls against the real kernel, on generated sequences ---------------

NAMES = st.sampled_from(["a", "b", "d", "d/x", "e", "e/y", "nope/z", "a/q", "d/", "a/", "l", "l/x", "d/../b"])
OPS = st.lists(st.tuples(st.sampled_from(["write", "append", "mkdir", "remove", "rmdir",
                                            "rename", "symlink", "read", "listdir"]),
                         NAMES, NAMES), max_size=12)


def _real(root, op, p, q):
    rp, rq = os.path.join(root, p), os.path.join(root, q)
    if op in ("write", "append"):
        with open(rp, "ab" if op == "append" else "wb") as f:
            f.write(q.encode())
    elif op == "mkdir":
        os.mkdir(rp)
    elif op == "remove":
        os.unlink(rp)
    elif op == "rmdir":
        os.rmdir(rp)
    elif op == "rename":
        os.rename(rp, rq)
    elif op == "symlink":
        os.symlink(q.rstrip("/"), rp)  # link targets ending in "/": not modelled exactly
    elif op == "read":
        with open(rp, "rb") as f:
            return f.read()
    elif op == "listdir":
        return sorted(os.listdir(rp))


def _virtual(tree, op, p, q):
    if op in ("write", "append"):
        tree.write_bytes(p, q.encode(), append=op == "append")
    elif op == "mkdir":
        tree.mkdir(p)
    elif op == "remove":
        tree.remove(p)
    elif op == "rmdir":
        tree.rmdir(p)
    elif op == "rename":
        tree.rename(p, q)
    elif op == "symlink":
        tree.symlink(q.rstrip("/"), p)
    elif op == "read":
        return tree.read_bytes(p)
    elif op == "listdir":
        return tree.listdir(p)


@given(OPS)
@example([("write", "a", "a"), ("write", "d", "a"), ("rename", "a", "d/")])  # a file onto "file/"
@example([("write", "a", "a"), ("rename", "a/", "x/y")])  # the missing parent is found first
@example([("mkdir", "d", "d"), ("write", "d/c", "d"), ("rename", "d/c", "d")])  # onto its own parent
def test_posix_calls_match_the_kernel(ops):
    with tempfile.TemporaryDirectory() as root:
        tree = VirtualTree().at("/")
        for op, p, q in ops:
            try:
                want = ("ok", _real(root, op, p, q))
            except OSError as exc:
                import errno
                want = ("err", errno.errorcode[exc.errno])
            try:
                got = ("ok", _virtual(tree, op, p, q))
            except VfsError as exc:
                got = ("err", exc.errno_name)
            assert got == want, (op, p, q)
        assert virtual_tree(tree, "/") == real_tree(root, "/")


# -- the version token: same token, same entries ---------------------------------

def _entries(tree):
    return (tree.snapshot(), tree.modes(), tree.symlinks(), {p: tree.listdir(p) for p in tree.walk("/")
                                                             if tree.is_dir(p)})


@given(OPS)
def test_a_version_names_the_entries(ops):
    # a clone carries its origin's token until either changes; any change takes a new token, so
    # two trees with one token hold the same entries (the cache of shell runs relies on it)
    origin = VirtualTree().at("/")
    origin.write_bytes("/seed", b"x")
    clone = origin.clone()
    assert clone._store.version is origin._store.version
    for op, p, q in ops:
        before, token = _entries(clone), clone._store.version
        try:
            _virtual(clone, op, p, q)
        except VfsError:
            pass
        if _entries(clone) != before:
            assert clone._store.version is not token, (op, p, q)
        if clone._store.version is origin._store.version:
            assert _entries(clone) == _entries(origin)
    assert _entries(origin)[0] == {"/seed": b"x"}  # the clone's changes never reach its origin


def test_a_chmod_and_an_append_take_a_new_version():
    tree = VirtualTree()
    tree.write_bytes("/f", b"a")
    for change in (lambda: tree.chmod("/f", 0o600), lambda: tree.write_bytes("/f", b"b", append=True)):
        token = tree._store.version
        change()
        assert tree._store.version is not token


def test_clones_share_directory_listings_until_one_changes():
    tree = VirtualTree()
    tree.mkdir("/d")
    tree.write_bytes("/d/a", b"")
    copy = tree.clone()
    copy.write_bytes("/d/b", b"")
    copy.remove("/d/a")
    assert tree.listdir("/d") == ["a"] and copy.listdir("/d") == ["b"]


def test_a_missing_name_resolves_alike_by_every_spelling():
    """A canonical name missing from a directory entry is answered without walking from the
    root; through a symlink, a file or a missing directory it is walked, as before."""
    t = make()
    t.symlink("sub", "/task/link")
    assert t._lookup("/task/sub/new") == ("/task/sub/new", None, False) == t._lookup("/task/./sub/new")
    assert t._lookup("/task/link/new") == ("/task/sub/new", None, False)
    assert t._lookup("/task/new/") == ("/task/new", None, True)
    for path, errno in (("/task/a.txt/new", "ENOTDIR"), ("/task/gone/new", "ENOENT")):
        with pytest.raises(VfsError) as caught:
            t._lookup(path)
        assert caught.value.errno_name == errno


@given(st.text(alphabet="/a.", max_size=10))
def test_the_path_helpers_are_the_standard_ones(path):
    from qbcore.model.files import absolute, dirname, normpath
    from qbcore.model.utilities.vfs import _parent

    assert normpath(path) == os.path.normpath(path)
    assert dirname(path) == os.path.dirname(path)
    assert _parent(path) == (os.path.dirname(path) or "/")
    assert absolute(path) == os.path.abspath(path)
