"""Files whose bytes the model does not know (vfs.UnknownData): output the model cannot spell
(the environment in bash's order, ``ls -l``, a message of bash's own it does not word) written
to a file leaves that file there with its bytes unknown, and the rest of the tree followed. The
tree's own calls are checked here; the rest of the tree is checked against bash."""

import pytest

from utilities_diff import compare_script, script_model, unknown_why
from qbcore.model.utilities.vfs import UnknownContent, UnknownData, VfsError, VirtualTree


def _tree():
    tree = VirtualTree.from_listing({"/task/k": b"kk\n", "/task/d": None}, modes={"/task/k": 0o640})
    tree.write_unknown("/task/k", "the output of a program")
    return tree


def test_a_file_of_unknown_bytes_keeps_its_name_and_mode_but_not_its_bytes():
    tree = _tree()
    assert tree.is_file("/task/k") and tree.mode("/task/k") == 0o640 and tree.listdir("/task") == ["d", "k"]
    for ask in (tree.read_bytes, tree.size):
        with pytest.raises(UnknownContent, match="the output of a program"):
            ask("/task/k")
    tree.copy("/task/k", "/task/c")  # a copy holds the same bytes, not known either
    assert type(tree.nodes()["/task/c"].data) is UnknownData and tree.mode("/task/c") == 0o640


def test_bytes_appended_to_unknown_bytes_stay_unknown_and_a_truncating_write_knows_them_again():
    tree = _tree()
    tree.write_bytes("/task/k", b"more\n", append=True)
    assert type(tree.nodes()["/task/k"].data) is UnknownData
    tree.write_bytes("/task/k", b"new\n")
    assert tree.read_bytes("/task/k") == b"new\n"
    tree.write_unknown("/task/n", "the output of another")  # a new file, made as a write makes it
    assert tree.mode("/task/n") == 0o644 and type(tree.nodes()["/task/n"].data) is UnknownData


def test_a_file_of_unknown_bytes_moves_and_changes_mode_as_any_file():
    tree = _tree()
    tree.rename("/task/k", "/task/d/m")
    tree.chmod("/task/d/m", 0o600)
    node = tree.nodes()["/task/d/m"]
    assert type(node.data) is UnknownData and node.mode == 0o600 and not tree.exists("/task/k")
    tree.remove("/task/d/m")
    assert tree.listdir("/task/d") == []


def test_writing_unknown_bytes_fails_where_a_write_fails():
    tree = _tree()
    with pytest.raises(VfsError, match="Is a directory"):
        tree.write_unknown("/task/d", "x")
    with pytest.raises(VfsError, match="No such file"):
        tree.write_unknown("/task/nowhere/f", "x")


def test_a_script_that_writes_unknown_bytes_is_followed_past_them():
    run, tree = script_model("env > o; mv o p; echo ok > f", {"k": b"kk\n"})
    assert run.unknown is None and run.files.lost is None
    assert "the environment, in bash's order" in unknown_why(run, tree)
    assert type(tree.nodes()["/work/task/p"].data) is UnknownData


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "env > o; mv o p; echo ok > f",
    "stat k > s; echo $? >> s; mkdir d; mv s d/",
    "env >> k; cat k > c; ls > names",
    "{ env; echo end; } > o; echo after >> o; [ -f o ] && echo file > t",
    "exec 3> o; env >&3; echo x >&3; : > o; echo y >&3; echo z > f",
    "env > o; chmod 600 o; ln -s o p; [ -e p ] && echo there > t",
    "env > o; cp o p; rm o; cp -p p q; echo $? > st",
    "{ echo $((1/0)); } 2> err; echo \"st=$?\" > st",
    "{ x=; echo ${x:?empty}; } > e 2>&1; echo next > n",
])
def test_around_unknown_bytes_the_tree_is_bash_s(script):
    # compare_script holds every known file to bash's bytes and a file of unknown bytes to a
    # file; the run is undecided only because of such bytes
    run, tree = script_model(script, {"k": b"kk\n"})
    assert run.unknown is None and run.files.lost is None and unknown_why(run, tree) is not None
    assert not compare_script(script, {"k": b"kk\n"})


@pytest.mark.bash
@pytest.mark.parametrize("script", [
    "env > o; : > o; echo z >> o",  # a truncating open knows them again
    "env > o; rm o; echo gone > f",
    "ls -l > l; rm l; echo done > f",
    "{ env; echo x; } > o; echo y > o",
])
def test_unknown_bytes_removed_or_overwritten_leave_a_known_tree(script):
    assert compare_script(script, {"k": b"kk\n"}, certain=True)


@pytest.mark.parametrize("script", [
    "env > o; cat o > c", "env > o; [ -s o ] && echo x > t", "env > o; wc -c < o > n", "env > o; c=$(< o); echo \"$c\" > t",
    "env > o; source o", "env > o; bash o", "env > o; grep -q PATH o && echo y > t",
])
def test_what_reads_unknown_bytes_is_not_known(script):
    assert unknown_why(*script_model(script, {"k": b"kk\n"})) is not None
