"""find's model against GNU find 4.9. Entries are compared as sets per output: real find lists a
directory in file-system order, the model in name order (documented in docs/utilities.md)."""

import pytest
from hypothesis import given, settings, strategies as st

from tests_settings import examples
from utilities_diff import run_model, run_real

FILES = {"a.txt": b"", "b.log": b"", "d": None, "d/c.txt": b"", "d/e": None, "d/e/f.txt": b"",
         ".hid": b"", "D": None}
LINKS = {"l": "d", "dangling": "nowhere"}


def check(argv):
    model = run_model(argv, FILES, b"", LINKS)
    if model is None:
        return None
    real = run_real(argv, FILES, b"", LINKS)
    sep = b"\0" if "-print0" in argv else b"\n"
    norm = lambda r: (r[0], sorted(r[1].split(sep)), r[2], r[3])
    assert norm(model) == norm(real), f"{argv}\nmodel {model}\nreal {real}"
    return True


CASES = [
    ["find"], ["find", "."], ["find", "d"], ["find", "d/"], ["find", ".", "-name", "*.txt"],
    ["find", ".", "-type", "f"], ["find", ".", "-type", "d"], ["find", ".", "-type", "l"],
    ["find", ".", "-maxdepth", "1"], ["find", ".", "-maxdepth", "1", "-type", "f"],
    ["find", ".", "-mindepth", "2"], ["find", ".", "-name", "*.txt", "-print0"],
    ["find", ".", "!", "-name", "*.txt"], ["find", ".", "-not", "-type", "d"],
    ["find", ".", "-iname", "d"], ["find", "nope", "d"], ["find", ".", "-type", "x"],
    ["find", ".", "-name", "[ab]*"], ["find", "a.txt", "d/e"], ["find", "l"],
    ["find", ".", "-name", "*.txt", "-exec", "rm", "{}", ";"], ["find", ".", "-delete"],
    ["find", ".", "-name", "a*", "-o", "-name", "b*"],
    # a glob the shell expanded: a path after the expression, with find's hint when it exists
    ["find", "d", "-type", "f", "-name", "a.txt", "b.log"], ["find", "d", "-name", "x", "nope"],
    ["find", ".", "-maxdepth", "1", "a.txt"], ["find", ".", "!", "-name", "x", "d"],
    ["find", ".", "-print0", "l"], ["find", ".", "-type", "f", "dangling"],
    ["find", ".", "-na!me", "x"], ["find", "d", "-t*ype", "f"], ["find", ".", "-name", "x", "-foo"], ["find", "-x", "d"],
    ["find", "--no-such-option-zz"],
]
UNKNOWN = {("find", ".", "-name", "*.txt", "-exec", "rm", "{}", ";"), ("find", ".", "-delete"),
           ("find", ".", "-name", "a*", "-o", "-name", "b*")}


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c)[:60] for c in CASES])
def test_table(argv):
    assert check(argv) is (None if tuple(argv) in UNKNOWN else True)


PIECE = st.sampled_from([["-name", "*.txt"], ["-name", "?"], ["-type", "f"], ["-type", "d"],
                         ["-type", "l"], ["!"], ["-print"], ["-print0"], ["-iname", "D*"],
                         ["-name", "[a-c]*"], ["-maxdepth", "1"], ["-mindepth", "1"],
                         ["a.txt"], ["nope"], ["d"], ["-nam"], ["-ty*pe", "f"]])


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(st.sampled_from([".", "d", "d/e", "l", "a.txt", "nope"]), max_size=2),
       st.lists(PIECE, max_size=4))
def test_generated(starts, pieces):
    argv = ["find"] + starts + [x for p in pieces for x in p]
    if "-print" in argv and "-print0" in argv:
        return  # mixed separators do not split into comparable sets
    check(argv)
