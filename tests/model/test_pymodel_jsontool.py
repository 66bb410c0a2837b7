"""``python3 -m json.tool`` against the real one run by bash: the files it leaves (what it
prints, into them) and the status, for valid and broken JSON texts, and what stays unknown."""

import pytest

from utilities_diff import compare_script, script_model

pytestmark = pytest.mark.bash

FIXTURE = {"c.json": b'{"b": [1, 2.50, "\\u00e9x"], "a": {"z": null, "y": true}}\n', "bad.json": b'{"a": 1,}\n',
           "bom.json": b'\xef\xbb\xbf{"a": 1}', "crlf.json": b'{"a":\r\n 1}\r\n', "bin.json": b'"\xff"',
           "nan.json": b'[NaN, Infinity, -0.0, 1e400, 12345678901234567890]', "empty.json": b"", "d/x": b"x",
           "dup.json": b'{"a":1,"a":2}', "uni.json": '{"k": "caf\u00e9 \u2603"}'.encode()}

SCRIPTS = [
    "python3 -m json.tool c.json > o; echo $? > st",
    "python3 -m json.tool --sort-keys c.json > o 2> e; echo $? > st",
    "python3 -m json.tool --indent 2 c.json o2; echo $? > st",
    "python3 -m json.tool --compact --sort-keys < c.json > o",
    "python3 -m json.tool --tab c.json > o; python3 -m json.tool --no-indent c.json >> o",
    "python3 -m json.tool --no-ensure-ascii uni.json > o; python3 -m json.tool uni.json >> o",
    "python3 -mjson.tool c.json > o; python3 -m json.tool --indent=3 c.json >> o",
    "echo '{\"message\": \"hello\"}' | python3 -m json.tool > o",
    "python3 -m json.tool c.json d/new.json 2> e; echo $? > st",
    "python3 -m json.tool dup.json c.json; echo $? > st; python3 -m json.tool c.json | cat > o",
    "python3 -m json.tool c.json c.json; echo $? > st",
    # what it refuses: its message and status 1; a file it cannot open: argparse's, status 2
    "python3 -m json.tool bad.json > o 2> e; echo $? > st",
    "python3 -m json.tool bom.json > o 2> e; echo $? > st",
    "python3 -m json.tool crlf.json > o 2> e; echo $? > st",
    "python3 -m json.tool bin.json > o 2> e; echo $? > st",
    "python3 -m json.tool nan.json > o 2> e; echo $? > st",
    "python3 -m json.tool empty.json > o 2> e; echo $? > st",
    "printf '[1,' | python3 -m json.tool - > o 2> e; echo $? > st",
    "python3 -m json.tool nofile.json > o 2> e; echo $? > st",
    "python3 -m json.tool d > o 2> e; echo $? > st",
    "python3 -m json.tool '' > o 2> e; echo $? > st",
    "python3 -m json.tool c.json/x > o 2> e; echo $? > st",  # [Errno 20] Not a directory
    "python3 -m > o 2> e; echo $? > st",
    "echo '{\"message\": \"hello\"}' > config.json && python3 -m json.tool config.json > o && echo ok > st",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_json_tool_matches_python(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True, status=True)


@pytest.mark.parametrize("script", [
    "python3 -m json.tool c.json nodir/new.json 2> e",  # a traceback of json.tool's own
    "python3 -m json.tool --json-lines c.json > o", "python3 -m json.tool --sort c.json > o",
    "python3 -m json.tool --tab --compact c.json > o", "python3 -m json.tool -h > o",
    "python3 -m json.tool a b c > o", "python3 -m json.tool c.json - > o",
    "python3 -m http.server > o",
    "COLUMNS=20 python3 -m json.tool nofile > o 2> e",
])
def test_what_json_tool_does_not_follow_is_unknown(script):
    run, _ = script_model(script, FIXTURE)
    assert run.unknown is not None or run.files.lost is not None
