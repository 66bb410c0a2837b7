"""Readers of find's lines, which come in no known order, against bash over real files.

The model runs such a reader in every order of the lines (four lines at most)
over forks of the files: where it decides the final files, real bash must
leave the same files (whatever order its find listed them in), and shapes
whose result depends on the order stay unknown.
"""

import datetime

import pytest
from hypothesis import given, settings, strategies as st

import bashref
from tests_settings import examples
from utilities_diff import real_tree, virtual_tree
from qbcore.model.effects import run_effects
from qbcore.model.utilities.hostfacts import Facts, stated, system_programs
from qbcore.model.utilities.vfs import VirtualTree

ROOT = "/work/task"

FINDS = ["find . -name '*.txt'", "find . -type f", "find d -type f", "find . -maxdepth 1 -name '*.txt'"]
BODIES = [
    'cp "$f" "$f.bak"', 'echo "$f" >> list', 'grep -c a "$f" >> counts', 'rm "$f"', 'mv "$f" "$f.old"',
    'cat "$f" >> all', '[ -s "$f" ] && touch "$f.full"', 'n=$((n+1)); [ $n = 2 ] && cp "$f" second',
    'sed -i "s/a/A/" "$f"', 'wc -l < "$f"', 'echo "$f"', 'basename "$f"',
]
TAILS = ["", " > out", " | sort > out", " | wc -l > out", " | head -1 > out"]
NAMES = st.sampled_from(["a.txt", "b.txt", "c.log", "d/x.txt", "d/y", "zz.txt"])
FILES = st.dictionaries(NAMES, st.sampled_from([b"", b"a\n", b"ab\nb\n", b"b"]), min_size=1, max_size=5)


def _model(script, files):
    tree = VirtualTree.from_listing({f"{ROOT}/{path}": data for path, data in files.items()})
    facts = Facts(datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "qbuser", programs=system_programs())
    with stated(facts):
        run = run_effects(script, tree, ROOT, bashref.executor_environ(ROOT))
    return run, tree


def _real(script, files, folder):
    for path, data in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    (folder / "d").mkdir(exist_ok=True)
    bashref.run(script, cwd=str(folder))
    return real_tree(str(folder), ROOT)


def _with_d(files):
    return {**files, "d/.keep": b""} if not any(p.startswith("d/") for p in files) else files


@pytest.mark.bash
@settings(max_examples=examples(120), deadline=None)
@given(FILES, st.sampled_from(FINDS), st.sampled_from(BODIES), st.sampled_from(TAILS), st.booleans())
def test_read_loops_over_find_match_bash(tmp_path_factory, files, find, body, tail, nul):
    files = _with_d(files)
    loop = f"{find} -print0 | while IFS= read -r -d '' f; do {body}; done" if nul else \
        f"{find} | while IFS= read -r f; do {body}; done"
    script = f"n=0; {loop}{tail}"
    run, tree = _model(script, files)
    if run.unknown or run.files.lost:
        return
    assert virtual_tree(tree, ROOT) == _real(script, files, tmp_path_factory.mktemp("loop")), script


@pytest.mark.parametrize("script", [
    "find . -type f | while read -r f; do echo \"$f\" >> list; done",
    "find . -name '*.txt' | { read a; read b; cp \"$b\" second; }",
    "find . -name '*.txt' | while read -r f; do cp \"$f\" last; done",
    "find . -type f | head -1 > out",
])
def test_readers_that_depend_on_the_order_are_unknown(script):
    run, _ = _model(script, {"a.txt": b"a\n", "b.txt": b"b\n", "c.txt": b"c\n"})
    reason = run.unknown or run.files.lost
    assert reason is not None and "no known order" in reason, reason


@pytest.mark.parametrize("script", [
    "find . -name '*.txt' | while read -r f; do test -e first || cp \"$f\" first; done",
    "find . -name '*.txt' | xargs -I{} cp -n {} first",
])
def test_the_first_of_three_lines_is_each_of_them(script):
    # a and c agree: run up and down only, `first` would be x in both; find may list b first
    run, _ = _model(script, {"a.txt": b"x", "b.txt": b"y", "c.txt": b"x"})
    assert run.files.lost is not None and "no known order" in run.files.lost


def test_more_lines_than_are_run_in_every_order_are_unknown():
    files = {f"{name}.txt": b"x\n" for name in "abcde"}
    run, _ = _model("find . -name '*.txt' | while read -r f; do cp \"$f\" \"$f.bak\"; done", files)
    assert run.files.lost is not None


def test_readers_that_do_not_depend_on_the_order_are_decided():
    files = {"a.txt": b"a\n", "b.txt": b"b\n", "c.txt": b"c\n"}
    for script in ["find . -name '*.txt' | while read -r f; do cp \"$f\" \"$f.bak\"; done",
                   "find . -name '*.txt' | while read -r f; do echo \"$f\"; done | sort > out"]:
        run, tree = _model(script, files)
        assert run.unknown is None and run.files.lost is None, (script, run.files.lost)
    assert tree.read_bytes(f"{ROOT}/out") == b"./a.txt\n./b.txt\n./c.txt\n"
