"""The python3 model against the real python3: programs in the styles replies use.

Each case runs through the model on a virtual tree and through python3 in a
temporary directory built from the same files; stdout, exit status, the last
line of stderr and the final tree must agree.
"""

import pytest

from pymodel_ref import differences, run_model, run_real

FILES = {
    "notes.txt": b"alpha\nbeta\ngamma\n",
    "data.json": b'{"name": "x", "n": 1, "tags": ["a", "b"]}\n',
    "logs": None,
    "logs/a.log": b"one\n",
    "logs/b.log": b"two\r\nthree\n",
    "logs/.hidden.log": b"secret\n",
    "cfg.ini": b"key=value\nmode=fast\n",
    "src": None,
    "src/main.py": b"print('hi')\n",
    "r1.txt": b"1",
    "r2.txt": b"2",
    "utf.txt": "café ☕\n".encode(),
    "empty": None,
}

PROGRAMS = [
    # writing exact bytes
    'open("out.txt", "w").write("price: $5 \\"quoted\\" \'single\' back\\\\slash\\n")',
    'with open("out.txt", "w") as f:\n    f.write("line1\\nline2\\n")\n    f.write("$HOME stays literal\\n")',
    'with open("out.txt", "wb") as f:\n    f.write(b"\\x00\\xff raw\\r\\n")',
    'with open("out.txt", "w", newline="\\r\\n") as f:\n    f.write("a\\nb\\n")',
    'open("notes.txt", "a").write("delta\\n")',
    'with open("new.txt", "x") as f:\n    f.write("fresh")',
    'with open("notes.txt", "x") as f:\n    f.write("clash")',
    'f = open("out.txt", "w")\nf.writelines(["a\\n", "b\\n"])\nf.close()\nprint(f.closed)',
    'f = open("out.txt", "w")\nf.close()\nf.write("late")',
    'open("notes.txt").write("x")',
    'open("out.txt", "w").write(b"bytes")',
    'open("out.txt", "wb").write("text")',
    'open("out.txt", "q")',
    # print to a file
    'with open("out.txt", "w") as f:\n    print("a", "b", 3, sep=",", end="!\\n", file=f)\n    print(file=f)',
    'import sys\nprint("to err", file=sys.stderr)\nprint("to out")\nsys.stdout.write("raw\\n")',
    'print("x", sep=1)',
    'print(*["a", "b"], sep="\\t")',
    # reading
    'print(open("notes.txt").read().upper(), end="")',
    'for line in open("logs/b.log"):\n    print(repr(line))',
    'print(open("logs/b.log", "rb").read())',
    'print(open("notes.txt").readlines())',
    'with open("notes.txt") as f:\n    print(f.readline(), f.readline().strip(), len(f.read()))',
    'print(open("utf.txt").read().strip(), len(open("utf.txt", "rb").read()))',
    'print(open("missing.txt").read())',
    'open("logs")',
    'open("notes.txt/x", "w")',
    'open("nodir/x.txt", "w")',
    # json
    'import json\njson.dump({"b": 1, "a": [1, 2, {"c": None}], "s": "caf\\u00e9"}, open("out.json", "w"), indent=2, sort_keys=True)',
    'import json\nwith open("out.json", "w") as f:\n    json.dump({"x": "é"}, f, ensure_ascii=False)\n    f.write("\\n")',
    'import json\nd = json.load(open("data.json"))\nd["n"] += 1\nd["tags"].append("c")\njson.dump(d, open("data.json", "w"))',
    'import json\nprint(json.dumps([1, 2.5, True, None, "q\\"uote"]))',
    'import json\nprint(json.dumps({"a": 1}, separators=(",", ":")))',
    'import json\njson.loads("{bad")',
    'import json\njson.dumps({"a": {1, 2}})',
    'import json\nfrom pathlib import Path\njson.dumps(Path("x"))',
    'import json\nprint(json.load(open("data.json"))["missing"])',
    # renames over globs
    'import glob, os\nfor p in glob.glob("logs/*.log"):\n    os.rename(p, p.replace(".log", ".txt"))',
    'import glob, os\nfor p in sorted(glob.glob("*.txt")):\n    base, ext = os.path.splitext(p)\n    os.replace(p, base + ".bak")\nprint(sorted(os.listdir(".")))',
    'import glob\nprint(sorted(glob.glob("**/*.log", recursive=True)), glob.glob("nothing*"))',
    'import glob\nprint(sorted(glob.glob("logs/*")), sorted(glob.glob("logs/.*")))',
    'from pathlib import Path\nfor p in sorted(Path("logs").glob("*.log")):\n    p.rename(p.with_suffix(".old"))\nprint(sorted(x.name for x in Path("logs").iterdir()))',
    'from pathlib import Path\nprint(sorted(str(p) for p in Path(".").rglob("*.py")))',
    # pathlib selects from a folder only: one that is not there (or a file) finds nothing, even for **
    'from pathlib import Path\n'
    'print([list(Path(d).glob(p)) for d in ("gone", "r1.txt", "logs") for p in ("**", "*")][:4])',
    'import os\nos.rename("missing", "other")',
    'import os\nos.rename("r1.txt", "logs")',
    'import os\nos.rename("r1.txt", "r2.txt")\nprint(open("r2.txt").read())',
    'import shutil\nshutil.move("r1.txt", "logs")\nshutil.copy("r2.txt", "copy.txt")\nprint(shutil.move("cfg.ini", "cfg.bak"))',
    'import shutil\nshutil.copy("r2.txt", "empty")\nshutil.copyfile("notes.txt", "n2.txt")',
    'import shutil\nshutil.rmtree("logs")\nshutil.move("nothere", "x")',
    # read-modify-write
    'p = "cfg.ini"\ns = open(p).read()\ns = s.replace("fast", "slow")\nopen(p, "w").write(s)',
    'import re\ntext = open("cfg.ini").read()\ntext = re.sub(r"^mode=.*$", "mode=safe", text, flags=re.M)\nopen("cfg.ini", "w").write(text)\nprint(re.search(r"key=(\\w+)", text).group(1))',
    'lines = open("notes.txt").read().splitlines()\nlines.insert(1, "inserted")\nopen("notes.txt", "w").write("\\n".join(lines) + "\\n")',
    'from pathlib import Path\np = Path("notes.txt")\nprint(p.write_text(p.read_text().replace("beta", "BETA")), p.name, p.stem, p.suffix, p.parent)',
    # files and dirs
    'import os\nos.makedirs("a/b/c", exist_ok=True)\nopen("a/b/c/f.txt", "w").write("deep")\nprint(os.path.exists("a/b"), os.path.isfile("a/b"), os.path.isdir("a/b"))',
    'import os\nos.makedirs("logs")',
    'import os\nos.mkdir("newdir")\nos.rmdir("empty")\nos.remove("r1.txt")\nprint(sorted(os.listdir()))',
    'import os\nos.remove("logs")',
    'import os\nos.listdir("nowhere")',
    'import os\nprint(os.path.join("a", "b", "c.txt"), os.path.basename("/x/y.z"), os.path.dirname("/x/y.z"), os.path.splitext("t.tar.gz"))',
    'import os\nprint(os.path.getsize("notes.txt"), os.getcwd() == os.path.abspath("."))',
    'import os\nfor root, dirs, files in os.walk("."):\n    dirs.sort()\n    for name in sorted(files):\n        print(os.path.join(root, name))',
    'import os\nos.chdir("logs")\nprint(sorted(os.listdir(".")))\nopen("c.log", "w").write("3")',
    'from pathlib import Path\nd = Path("out") / "sub"\nd.mkdir(parents=True)\n(d / "f.txt").write_text("x")\nprint(d.exists(), (d / "f.txt").is_file(), Path("out/nope").exists())',
    'from pathlib import Path\nPath("logs").mkdir()',
    'from pathlib import Path\nPath("r1.txt").unlink()\nPath("r1.txt").unlink(missing_ok=True)\nPath("r1.txt").unlink()',
    # strings and control flow
    'name = "world"\nn = 3\nprint(f"hello {name!r} {n:03d} {n*1.5:.2f} {name.upper():>8}|{{braces}}")',
    'print("{}-{:>4}-{name}".format("a", "b", name="c"), "%s=%d" % ("k", 5), "%-5s|" % "ab")',
    'words = "the quick  brown fox".split()\nprint(len(words), ",".join(w.capitalize() for w in words), " x ".strip(), "a,b,,c".split(","))',
    'print("é".encode(), b"caf\\xc3\\xa9".decode(), "abc".encode("ascii"), "x".center(7, "*"))',
    'b"\\xff".decode()',
    'def slug(s, sep="-"):\n    return sep.join(s.lower().split())\nprint(slug("Hello Big World"), slug("A B", sep="_"))',
    'total = 0\nfor i in range(10):\n    if i % 2:\n        continue\n    if i > 6:\n        break\n    total += i\nelse:\n    total = -1\nprint(total)',
    'i = 0\nwhile i < 5:\n    i += 1\nprint(i, [x * x for x in range(5) if x % 2], {k: len(k) for k in ["a", "bb"]})',
    'd = {"b": 2, "a": 1}\nfor k, v in sorted(d.items()):\n    print(k, v)\nprint(d.get("z", 0), list(d), sorted(d, key=lambda k: d[k]))',
    'try:\n    open("missing")\nexcept FileNotFoundError as e:\n    print("caught", e.errno, e.filename, e)\nfinally:\n    print("done")',
    'try:\n    int("x")\nexcept (KeyError, ValueError) as e:\n    print("bad:", e)\nelse:\n    print("no")',
    'x = [1, 2]\nprint(x[5])',
    'd = {}\nprint(d["key"])',
    'def f():\n    return undefined_name\nf()',
    'prnt("typo")',
    'print(__doc__, __spec__, __package__, __name__)\nprint(__file__)',
    'def f():\n    return __fil__\nf()',
    'import sys\nif len(sys.argv) < 3:\n    sys.exit("usage: prog A B")\nprint(sys.argv[1:])',
    'import sys\nsys.exit(4)',
    'raise SystemExit(0)',
    'raise ValueError("custom message")',
    'assert 1 == 2, "numbers differ"',
    'a, *rest = [1, 2, 3]\nprint(a, rest)\nx, y = (1, 2, 3)',
    'print(sum(range(101)), max([3, 9, 2]), min("bca"), abs(-2), round(2.675, 2), 7 // 2, 7 / 2, 2 ** 10, divmod(7, 3))',
    'print(sorted(["b", "A", "c"], key=str.lower, reverse=True), list(map(str, [1, 2])), list(zip("ab", [1, 2])), list(enumerate("xy", 1)))',
    'items = ["x"]\nitems.extend(["y", "z"])\nitems.remove("y")\nprint(items.pop(), items, "y" in items, items.index("x"))',
    'print("a\\tb".expandtabs(4), "Title Case".swapcase(), "x".join("abc"), "  pad".lstrip(), "ab".startswith(("a", "z")))',
    '"abc".uper()',
    'import os\nos.path.joinn("a")',
    'import textwrap\nopen("t.txt", "w").write(textwrap.dedent("""\\\n    a $x\n      b\n    """))\nprint(textwrap.indent("x\\ny", "> "), textwrap.fill("aa bb cc", width=5))',
    'import string\nprint(string.ascii_lowercase[:3], string.digits, string.capwords("hello big world"))',
    # damaged programs: quotes eaten by a shell layer
    'print(hello world)',
    'open(out.txt, w).write(hi)',
    'print("unterminated)',
    'with open("f") as f\n    pass',
    'def f(:\n    pass',
    'if True:\nprint("x")',
    'print("a")\n  print("b")',
    'return 5',
    'x = (1,\n',
    'print(f"{x!}")',
    'for i in range(3):\n    pass\n  else:\n    pass',
    # a written file reaches readers when CPython frees, closes or flushes it
    'open("a", "w").write("x")\nprint(open("a").read())',
    'import json\njson.dump({"a": 1}, open("c.json", "w"))\nprint(open("c.json").read())',
    'f = open("a", "w")\nf.write("x")\nf.flush()\nprint(open("a").read())',
    'f = open("a", "w")\nf.write("x")\ndel f\nprint(open("a").read())',
    'f = open("a", "w")\nf.write("x")\nf = None\nprint(open("a").read())',
    'def w():\n    f = open("a", "w")\n    f.write("x")\nw()\nprint(open("a").read())',
    'print(open("a", "w").write("x"), open("a").read())',
    'f = open("a", "w")\nfor i in range(3):\n    f.write(str(i))\nf.close()\nprint(open("a").read())',
    # what does not depend on the order of a directory listing or of a set of strings
    'import os\nprint(sorted(os.listdir(".")), len(os.listdir(".")))',
    'import glob, os\nfor name in glob.glob("*.txt"):\n    os.rename(name, name + ".bak")\nprint(sorted(os.listdir(".")))',
    'print(sorted({"b", "a"}), len({"a", "b"}), "a" in {"a", "b"}, max({"a", "b"}), {1, 2, 3}, list({3, 1}))',
    'print(sorted(set("hello")), set("ab") - {"a"}, {"a", "b"} | {"c"} == {"a", "b", "c"})',
    'import json\nprint(json.dumps([len]))',
]


@pytest.mark.parametrize("program", PROGRAMS, ids=range(len(PROGRAMS)))
def test_python3_c_agrees(program):
    assert differences(program, FILES, "c") == []


STDIN_PROGRAMS = [
    'print(__name__)\nimport os\nprint(os.path.basename(__file__))',
    'import sys\nprint(sys.argv)\nopen("out.txt", "w").write("from stdin\\n")',
    'import json, sys\ncfg = {"args": sys.argv[1:], "n": len(sys.argv)}\njson.dump(cfg, sys.stdout, indent=1)\nprint()',
    'print("broken',
    'x = 1\nprint(x +)',
]


@pytest.mark.parametrize("program", STDIN_PROGRAMS, ids=range(len(STDIN_PROGRAMS)))
@pytest.mark.parametrize("how", ["stdin", "file"])
def test_python3_stdin_and_file_agree(program, how):
    assert differences(program, FILES, how, args=("one", "two words")) == []


def test_input_reads_stdin():
    program = 'a = input()\nb = input("prompt> ")\nprint(a.upper(), b)\ninput()'
    assert differences(program, FILES, "c", stdin=b"first\nsecond\n") == []


def test_sys_stdin_read():
    program = 'import sys\ndata = sys.stdin.read()\nopen("out.txt", "w").write(data[::-1])\nprint(len(data))'
    assert differences(program, FILES, "c", stdin=b"abc\ndef\n") == []


@pytest.mark.parametrize("program", [
    'print("x")\n)',
    'print("a)',
    'def f(:\n    pass',
    'print(hello world)',
    'if True:\nprint(1)',
    'return 1',
    'x = "\\N{nope}"',
    'print("a")\n  print("b")',
    'if True:\n        x = 1\n    y = 2',
    'if True:\n\tx = 1\n        y = 2',
    'for x in y\n    pass',
    'f(a b c d)',
    'x = 1 +* 2',
])
def test_syntax_errors_print_what_python3_prints(program):
    """Not only the last line: the whole SyntaxError report matches."""
    modelled = run_model(program, FILES, "c")
    real = run_real(program, FILES, "c")
    assert modelled.unknown is None
    assert (modelled.status, modelled.stderr, modelled.stdout) == (real.status, real.stderr, real.stdout)


def test_missing_script_file():
    modelled = run_model("", FILES, "c")
    assert modelled.status == 0
    from pymodel_ref import ROOT, environ
    from qbcore.model.pymodel import model
    from qbcore.model.utilities.context import CommandContext
    from qbcore.model.utilities.vfs import VirtualTree
    tree = VirtualTree.from_listing({ROOT: None})
    result = model(CommandContext(["python3", "nope.py"], b"", ROOT, environ(ROOT), tree))
    assert result.status == 2
    assert result.stderr == b"python3: can't open file '/task/nope.py': [Errno 2] No such file or directory\n"


@pytest.mark.parametrize("program", [
    'from pathlib import Path\nprint(Path("notes.txt").stat)',
    'print(len)',
    'print(type(1).__name__)',
    'x = getattr("a", "upper")()',
    'eval("1 + 1")',
    'import time\nprint(time.time())',
    'import requests',
    'class A:\n    pass',
    'import subprocess\nsubprocess.run(["ls", "-l"])',
    'print(open("notes.txt", "r+").read())',
    'import os\nprint(os.popen("ls").read())',
    'x = 1\nx.real = 2',
    'print("a".__class__)',
    'import re\nre.match(r"(a+)+$", "a" * 30 + "b")',
    # the tree used while a file still held has output in CPython's buffer (readers see none of it)
    'f = open("a", "w")\nf.write("x")\nprint(open("a").read())',
    'files = [open("a", "w")]\nfiles[0].write("x")\nprint(open("a").read())',
    'w = open("a", "w").write\nw("x")\nprint(open("a").read())',
    'def g():\n    f = open("a", "w")\n    f.write("x")\n    return open("a").read()\nprint(g())',
    'try:\n    f = open("a", "w")\n    f.write("x")\n    1 / 0\nexcept ZeroDivisionError:\n    print(open("a").read())',
    # files that depend on the order of a directory listing (the file system's) or of a set
    # of strings (hashes python3 salts in each process)
    'import glob\nwith open("all.txt", "w") as out:\n    for name in glob.glob("*"):\n        out.write(name + "\\n")',
    'import os\nos.rename(os.listdir(".")[1], "second")',
    'with open("o", "w") as out:\n    for x in {"x", "y"}:\n        out.write(x)',
    # a set's order where the model cannot choose it
    'print({"b", "a", "c"})', 'x = []\nx += {"a", "b"}', 's = {"a", "b"}\nprint(s.pop())',
    # a function's text: the model's own stand-ins would show the model's names
    'print(str(open))', 'print("%s" % open)', 'print("{}".format(open))', 'print(repr([open]))',
    'import json\njson.dumps(open)', 'def f():\n    pass\nimport json\njson.dumps(f)',
])
def test_outside_the_subset_is_unknown(program):
    """Never a guess: what is not modelled is reported by name."""
    assert run_model(program, FILES, "c").unknown.startswith("python3: ")


@pytest.mark.parametrize("program, unordered", [
    ('import os\nfor name in os.listdir("."):\n    print(name)', True),
    ('from pathlib import Path\nfor p in Path(".").glob("*.txt"):\n    print(p)\n    p.rename(p.with_suffix(".md"))', True),
    ('import os\nfor root, dirs, files in os.walk("."):\n    print(root, files)', False),
    ('import os\nprint(os.listdir("."))', False),
    ('for x in {"x", "y"}:\n    print(x)', True),
    ('print(" ".join(set("ab")))', False), ('print([*{"a", "b"}])', False),
])
def test_output_in_a_listing_order_is_known_only_as_such(program, unordered):
    """The files a program leaves do not depend on the order it lists a directory (or goes
    through a set of strings) in, what it prints does: lines in no known order, or unknown."""
    modelled = run_model(program, FILES, "c")
    assert modelled.unknown is None
    assert (modelled.stdout_unordered is not None) is unordered
    assert (modelled.stdout_unknown is not None) is not unordered
    assert differences(program, FILES, "c") == []


@pytest.mark.parametrize("how", ["c", "file"])
def test_a_module_of_the_programs_own_folder_is_not_followed(how):
    """python3 looks in the program's folder (the working one for -c) before the library."""
    for shadow in ({"json.py": b"x = 1\n"}, {"json/__init__.py": b""}):
        ran = run_model("import json\nprint(json.dumps(1))\n", {**FILES, **shadow}, how)
        assert ran.unknown is not None and "own folder" in ran.unknown, ran
    assert run_model("import sys\nprint(1)\n", {**FILES, "sys.py": b""}, how).unknown is None  # (built in)


def test_script_file_is_shown_by_its_absolute_path():
    """python3 >= 3.9 gives __main__ an absolute __file__; tracebacks and SyntaxErrors show it."""
    ran = run_model("print(__file__)\nraise ValueError('no')\n", FILES, "file")
    assert ran.stdout == b"/task/prog.py\n"
    assert ran.stderr.startswith(b'Traceback (most recent call last):\n  File "/task/prog.py", line 2, in <module>\n')
    broken = run_model("x = (\n", FILES, "file")
    assert broken.stderr.startswith(b'  File "/task/prog.py", line 1\n')


PHOTOS = {"photos": None, "photos/a.jpeg": b"a\n", "photos/b.jpeg": b"b\n", "in.txt": b"x=1\ny=2\n",
          "package.json": b'{"version": "1.2.3", "deps": {"a": "^1"}}'}

MORE_PROGRAMS = [
    'import sys\nfor line in sys.stdin:\n    print(line.strip()[::-1])',
    'import json\nd = json.load(open("package.json"))\nd["version"] = "2.0.0"\nwith open("package.json", "w") as f:\n    json.dump(d, f, indent=2)\n    f.write("\\n")',
    'import os\nprint(os.environ.get("HOME") is not None, os.environ.get("NOPE", "dflt"))',
    'import os\nos.environ["X"] = "1"\nprint(os.getenv("X"))',
    'pairs = dict(l.split("=") for l in open("in.txt").read().split())\nprint(pairs)',
    'print(open(in.txt).read())',
    'print(f"{1/3:.3f} {10:,} {255:#x} {3.0} {1e20} {-0.0} {2**70}")',
    'print(0.1+0.2, 1/3, 2.5 == 5/2, int("  42 "), float("1e3"), str(True), None)',
    'print(sorted({3, 1, 2}), {"a", "b"} - {"a"}, tuple([1]), list(reversed([1, 2])))',
    'x = 5\ndef g():\n    global x\n    x += 1\ng(); g()\nprint(x)',
    'def outer():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n    inc(); return inc()\nprint(outer())',
    'def f(*a, **k):\n    return a, sorted(k.items())\nprint(f(1, 2, x=3))',
    'def f(a, b):\n    pass\nf(1)',
    'def f():\n    print(v)\n    v = 1\nf()',
    'print("a" + 1)',
    'print([1][2:], "abc"[-1], "abc"[::2], "a,b".partition(","))',
    'import sys\nprint("err", file=sys.stderr)\nsys.exit(2)',
    'import os\nfor name in sorted(os.listdir("photos")):\n    base, ext = os.path.splitext(name)\n    if ext == ".jpeg":\n        os.rename(f"photos/{name}", f"photos/{base}.jpg")\nprint(os.listdir("photos") and "done")',
    'with open("out.txt", "w") as f:\n    for i in range(3):\n        f.write(f"{i}\\n")\nprint(open("out.txt").read().count("\\n"))',
    'import pathlib\np = pathlib.Path("photos")\nprint([x.name for x in sorted(p.iterdir())], p / "a.jpeg" in list(p.iterdir()))',
    'b = bytearray(b"ab")\nb += b"c"\nprint(b, bytes(b).decode(), b.hex())',
    'print(repr("tab\\there"), ascii("é"), "é".encode("utf-8"), len("☕".encode()))',
    'print("%5.2f|%-4d|%x|%r" % (3.14159, 7, 255, "q"))',
    'try:\n    raise KeyError("k")\nexcept KeyError as e:\n    raise ValueError("v") from e',
    'try:\n    1/0\nexcept ZeroDivisionError:\n    raise',
    'import json\nprint(json.dumps({"b": [1, {"c": None}]}, indent=4, sort_keys=True))',
    'import json\nprint(json.dumps("é☕\\n\\t\\\\"), json.dumps("é", ensure_ascii=False))',
    'import json\njson.load(open("in.txt"))',
    'print(max([]))',
    'print(*range(3), sep="-")',
    'l = [3, 1]\nl.sort()\nprint(l, l.count(1), l * 2, [0] * 3)',
    'print("x" if 0 else "y", not [], [] or "z", 1 < 2 < 3, 1 == 1.0, "a" in "abc")',
    'n = 10\nwhile n:\n    n -= 3\n    if n < 0: break\nprint(n)',
    'import os\nos.makedirs("a/b")\nos.makedirs("a/b")',
    'import shutil, os\nos.makedirs("bk")\nfor f in ["in.txt", "package.json"]:\n    shutil.copy(f, "bk")\nprint(sorted(os.listdir("bk")))',
]


@pytest.mark.parametrize("program", MORE_PROGRAMS, ids=range(len(MORE_PROGRAMS)))
def test_more_python3_c_agrees(program):
    assert differences(program, PHOTOS, "c", stdin=b"abc\ndef\n") == []
