"""What the tree notes while a program's model runs (vfs.WITHHELD_ACCESS), against the kernel: for
each owner mode a folder may have, each call that the kernel fails with EACCES for the folder's
owner (not root: the sandbox never runs a reply as root) is one the tree notes, and no other;
a refusing log (vfs.Refusing) fails the same calls with EACCES itself."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from qbcore.model.utilities import vfs
from qbcore.model.utilities.vfs import VfsError, VirtualTree

NOBODY = 65534
MODES = range(0, 0o1000, 0o100)  # the owner's bits of the folder d; group and others have none

# each call, named, on a tree holding d/a, d/e/ (empty) and beside d: x, s/ (all the owner's)
CALLS = {
    "list": ("os.listdir('d')", lambda t: t.listdir("d")),
    "read": ("open('d/a', 'rb').read()", lambda t: t.read_bytes("d/a")),
    "read the folder": ("open('d', 'rb').read()", lambda t: t.read_bytes("d")),
    "stat": ("os.stat('d/a')", lambda t: t.kind("d/a")),
    "write in place": ("open('d/a', 'r+b').write(b'z')", lambda t: t.write_bytes("d/a", b"z", append=True)),
    "create": ("open('d/n', 'wb').close()", lambda t: t.write_bytes("d/n", b"")),
    "unlink": ("os.unlink('d/a')", lambda t: t.remove("d/a")),
    "mkdir": ("os.mkdir('d/n')", lambda t: t.mkdir("d/n")),
    "rmdir": ("os.rmdir('d/e')", lambda t: t.rmdir("d/e")),
    "rename within": ("os.rename('d/a', 'd/b')", lambda t: t.rename("d/a", "d/b")),
    "rename out": ("os.rename('d/a', 'b')", lambda t: t.rename("d/a", "b")),
    "rename in": ("os.rename('x', 'd/x')", lambda t: t.rename("x", "d/x")),
    "move the folder": ("os.rename('d', 's/d')", lambda t: t.rename("d", "s/d")),
    "rename the folder": ("os.rename('d', 'd2')", lambda t: t.rename("d", "d2")),
    "symlink": ("os.symlink('x', 'd/l')", lambda t: t.symlink("x", "d/l")),
    "chmod": ("os.chmod('d/a', 0o600)", lambda t: t.chmod("d/a", 0o600)),
    "walk": ("[os.listdir(p) for p in ('d', 'd/e')]", lambda t: list(t.walk("d"))),
}

_REAL = """
import errno, json, os, shutil, sys
root, mode = sys.argv[1], int(sys.argv[2], 8)
calls = json.loads(sys.argv[3])
found = {}
for name, call in calls.items():
    place = os.path.join(root, str(len(found)))
    os.makedirs(place + "/d/e"); os.mkdir(place + "/s")
    open(place + "/d/a", "w").close(); open(place + "/x", "w").close()
    os.chmod(place + "/d", mode)
    os.chdir(place)
    try:
        eval(call)
        found[name] = "ok"
    except OSError as exc:
        found[name] = errno.errorcode[exc.errno]
    os.chdir(root)
print(json.dumps(found))
"""


def _kernel(mode):
    """{call: "ok" or the errno name} as the owner of d meets each, run as nobody."""
    top = tempfile.mkdtemp(prefix="qbcore-withheld-")  # (pytest's own folders are root's alone)
    try:
        os.chmod(top, 0o755)
        root = os.path.join(top, "root")
        os.mkdir(root)
        os.chown(root, NOBODY, NOBODY)
        run = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                              sys.executable, "-c", _REAL, root, f"{mode:o}",
                              json.dumps({n: c for n, (c, _) in CALLS.items()})], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr[-2000:]
        return json.loads(run.stdout)
    finally:
        shutil.rmtree(top)  # (the owner may have left folders it cannot remove: root can)


def _tree(mode):
    tree = VirtualTree.from_listing({"/t/d/a": b"", "/t/d/e": None, "/t/x": b"", "/t/s": None})
    tree.chmod("/t/d", mode)
    return tree.at("/t")


def _noted(call, mode):
    """The canonical paths the tree notes while ``call`` runs, as under a program's model."""
    log: set = set()
    vfs.WITHHELD_ACCESS.append(log)
    try:
        call(_tree(mode))
    except VfsError as exc:
        assert exc.errno_name != "EACCES"
    finally:
        vfs.WITHHELD_ACCESS.remove(log)
    return log


def _refused(call, mode):
    log = vfs.Refusing()
    vfs.WITHHELD_ACCESS.append(log)
    try:
        call(_tree(mode))
        return "ok"
    except VfsError as exc:
        return exc.errno_name
    finally:
        vfs.WITHHELD_ACCESS.remove(log)


needs_root = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                                reason="runs the kernel's side as another user (root and setpriv)")


@needs_root
@pytest.mark.parametrize("mode", MODES, ids=lambda m: f"{m:o}")
def test_the_tree_notes_what_the_kernel_refuses_the_owner(mode):
    kernel = _kernel(mode)
    for name, (_, call) in CALLS.items():
        noted = _noted(call, mode)
        assert (kernel[name] == "EACCES") == bool(noted), (name, oct(mode), kernel[name], noted)
        assert noted <= {"/t/d"}, (name, noted)


@needs_root
@pytest.mark.parametrize("mode", MODES, ids=lambda m: f"{m:o}")
def test_a_refusing_log_fails_those_calls_with_eacces(mode):
    kernel = _kernel(mode)
    for name, (_, call) in CALLS.items():
        assert (_refused(call, mode) == "EACCES") == (kernel[name] == "EACCES"), (name, oct(mode), kernel[name])


def test_nothing_is_noted_outside_a_program_and_replace_bytes_asks_the_folder():
    tree = _tree(0o500)
    assert tree.listdir("d") == ["a", "e"] and not vfs.WITHHELD_ACCESS
    # sed -i and perl -i: a new file renamed over the old one keeps its mode, whatever its write bit
    tree.chmod("/t/x", 0o444)
    assert _noted(lambda t: t.replace_bytes("x", b"y"), 0o500) == set()
    assert _noted(lambda t: t.replace_bytes("d/a", b"y"), 0o500) == {"/t/d"}
    tree.replace_bytes("x", b"y")
    assert tree.read_bytes("x") == b"y" and tree.mode("x") == 0o444
