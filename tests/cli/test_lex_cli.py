"""`qbcore lex`: the token stream of a reply on the command line, as text or JSON."""

import json
import subprocess
import sys

import pytest

from qbcore.cli import main


@pytest.fixture(params=["cython", "python"])
def engine(request):
    if request.param == "cython":
        pytest.importorskip("qbcore.syntax._fastquote")
    return request.param


def test_text_output_lists_kind_span_position_and_text(engine, capsys):
    assert main(["lex", "--engine", engine, "--", "echo 'a b'\nls"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["lit", "0-4", "1:1", '"echo"']
    assert lines[1].split(None, 3) == ["sq", "5-10", "1:6", '"\'a b\'"']
    assert lines[3].split() == ["lit", "11-13", "2:1", '"ls"']


def test_json_output(engine, capsys):
    assert main(["lex", "--engine", engine, "--format", "json", "--", "x=$(ls)"]) == 0
    tokens = json.loads(capsys.readouterr().out)["tokens"]
    assert [(t["kind"], t["text"]) for t in tokens] == [
        ("assign", "x="), ("cmdsub-open", "$("), ("lit", "ls"), ("cmdsub-close", ")")]


def test_syntax_error_exits_1_with_bash_wording(engine, capsys):
    assert main(["lex", "--engine", engine, "--format", "json", "--", 'echo "abc']) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["error"] == {
        "message": "unexpected EOF while looking for matching `\"'", "offset": 5, "line": 1, "column": 6}
    assert "line 1, column 6" in captured.err


def test_file_with_invalid_utf8_keeps_its_bytes(engine, tmp_path, capsys):
    path = tmp_path / "reply.sh"
    path.write_bytes(b"echo \xff\n")
    assert main(["lex", "--engine", engine, "--format", "json", "--file", str(path)]) == 0
    tokens = json.loads(capsys.readouterr().out)["tokens"]
    assert (tokens[1]["start"], tokens[1]["end"], tokens[1]["text"]) == (5, 6, "\\xff")


def test_reads_standard_input():
    proc = subprocess.run([sys.executable, "-m", "qbcore", "lex", "--format", "json", "-"],
                          input=b"cat <<E\nhi\nE\n", capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    kinds = [t["kind"] for t in json.loads(proc.stdout)["tokens"]]
    assert kinds == ["lit", "heredoc-op", "lit", "newline", "doc-lit", "heredoc-end", "newline"]


def test_missing_reply_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["lex"])
    assert info.value.code == 2
    assert "give exactly one of" in capsys.readouterr().err


def test_unreadable_file_is_a_clear_error(tmp_path, capsys):
    assert main(["lex", "--file", str(tmp_path / "missing.sh")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["lex", "--file", str(tmp_path)]) == 2
