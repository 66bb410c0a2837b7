"""python3's csv module against the real one run by bash: the files a program leaves (what it
writes, and what it prints into them) and the status, for readers and writers over the
task's files, and what stays unknown."""

import pytest

from pymodel_ref import python3_c as program
from utilities_diff import compare_script, script_model

pytestmark = pytest.mark.bash

FIXTURE = {"data.tsv": b"alpha\t1\no'brien\t2\n\"q\"\tx\"y\nback\\slash \"q\"\t3\n",
           "data.csv": b'name,score\n"Smith, J",10\nDoe,"a ""b"""\n\nlast,\n',
           "multi.csv": b'a,"two\nlines"\nb,c\n', "open.csv": b'a,"never closed\n', "d/x": b"x"}


SCRIPTS = [
    # reader: the delimiter, quoted fields, doubled quotes, a field over two lines, line_num
    program('import csv\nfor r in csv.reader(open("data.tsv"), delimiter="\\t"):\n    print(r)') + " > o",
    program('import csv\nwith open("data.csv", newline="") as f:\n    for r in csv.reader(f):\n        print(len(r), r)')
    + " > o",
    program('import csv\nr = csv.reader(open("multi.csv"))\nfor row in r:\n    print(r.line_num, row)') + " > o",
    program('import csv\nr = csv.reader(open("data.tsv"), delimiter="\\t", quoting=csv.QUOTE_NONE)\n'
            'print(list(r))') + " > o",
    program('import csv\nrows = csv.reader(open("data.tsv"), dialect="excel-tab")\nprint(next(rows), next(rows))') + " > o",
    # the lookup a field-lookup reply makes
    program('import csv\nwith open("data.tsv") as f, open("out.txt", "w") as o:\n'
            '    for r in csv.reader(f, delimiter="\\t"):\n        if r[0] == "alpha":\n            o.write(r[1] + "\\n")'),
    # DictReader: the first row names the fields
    program('import csv\nfor d in csv.DictReader(open("data.csv", newline="")):\n    print(sorted(d.items()))') + " > o",
    program('import csv\nr = csv.DictReader(open("data.csv"))\nprint(r.fieldnames)') + " > o",
    program('import csv\nr = csv.DictReader(open("data.tsv"), fieldnames=["k", "v"], delimiter="\\t")\n'
            'print([d["v"] for d in r if d["k"] == "alpha"])') + " > o",
    # writer: \r\n line ends, quoting where needed, numbers by str
    program('import csv\nw = csv.writer(open("w.csv", "w", newline=""))\nw.writerow(["a", "b,c", "d\\"e", 1, 2.5, None])\n'
            'w.writerows([["x"], [], ["y", True]])'),
    program('import csv, sys\ncsv.writer(sys.stdout, delimiter="\\t", lineterminator="\\n").writerow(["k", "v w"])') + " > o",
    program('import csv\nwith open("w.csv", "w") as f:\n    w = csv.writer(f, quoting=csv.QUOTE_ALL)\n'
            '    w.writerow(["a", 1])'),
    program('import csv\nwith open("w.csv", "w", newline="") as f:\n    w = csv.DictWriter(f, fieldnames=["n", "s"])\n'
            '    w.writeheader()\n    w.writerow({"n": "x", "s": 1})\n    w.writerows([{"n": "y"}])'),
    # errors the C code raises: python3's message and status 1; a closed file fails when the
    # reader is made, not when it is read
    program('import csv\nf = open("data.tsv")\nf.close()\ntry:\n    r = csv.reader(f)\nexcept ValueError:\n'
            '    print("closed")') + " > o 2> e; echo $? > st",
    program('import csv\nf = open("data.tsv")\nf.close()\nr = csv.reader(f)\nprint(1)') + " > o 2> e; echo $? > st",
    program('import csv\nprint(list(csv.reader(open("open.csv"), strict=True)))') + " > o 2> e; echo $? > st",
    program('import csv\ncsv.writer(open("w.csv", "w")).writerow(["a"], 2)') + " 2> e; echo $? > st",
    program('import csv\nprint(list(csv.reader(open("nope.csv"))))') + " 2> e; echo $? > st",
    program('import csv\ncsv.writer(open("w.csv", "w"), quoting=csv.QUOTE_NONE).writerow(["a,b"])') + " 2> e; echo $? > st",
]

UNKNOWN = [
    # an error inside csv.py (DictWriter, DictReader): python3's traceback shows its frames
    program('import csv\ncsv.DictWriter(open("w.csv", "w"), fieldnames=["a"]).writerow({"b": 1})') + " 2> e",
    # the program's own error met inside csv.py (a closed file DictReader reads)
    program('import csv\nf = open("data.csv")\nf.close()\nprint(list(csv.DictReader(f)))') + " 2> e",
    # a dialect object, a field that is a stand-in of the model
    program('import csv\ncsv.reader(open("data.csv"), dialect=csv.excel)') + " > o",
    program('import csv\ncsv.reader(open("data.csv"), dialect=["excel"])') + " > o",
    program('import csv, pathlib\ncsv.writer(open("w.csv", "w")).writerow([pathlib.Path("x")])'),
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_csv_programs_match_python3(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", UNKNOWN)
def test_what_csv_does_not_follow_is_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None
