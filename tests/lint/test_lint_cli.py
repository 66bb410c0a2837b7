"""``qbcore lint`` on the command line: formats, exit codes, selection, suppression, config, fixes, bad input."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAZARD = 'sh -c "echo $1" _ x\n'
WARNING_ONLY = 'ssh host "rm -r $dir"\n'


def lint(*args, cwd=None, stdin=None):
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-m", "qbcore", "lint", *args], cwd=cwd or ROOT, env=env,
                          capture_output=True, input=stdin)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.fixture
def script(tmp_path):
    def write(text, name="s.sh"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return str(path)
    return write


def test_exit_codes_follow_severity(script):
    assert lint(script("echo fine\n"))[0] == 0
    assert lint(script(HAZARD))[0] == 1
    warning = script(WARNING_ONLY)
    assert lint(warning)[0] == 1
    assert lint("--severity", "error", warning)[0] == 0
    assert lint("--select", "QB999", warning)[0] == 2
    assert lint()[0] == 2


def test_explain_prints_the_rule_page():
    code, out, _ = lint("--explain", "qb104")
    assert code == 0 and out.startswith("QB104 outer-substitution") and "Example (hazard)" in out
    assert lint("--explain", "QB000")[0] == 2


def test_text_format_shows_the_source_line_and_a_caret(script):
    _, out, _ = lint(script(HAZARD))
    assert 'sh -c "echo $1" _ x\n' in out and "\n" + " " * 14 + "^^\n" in out


def test_gcc_format(script):
    path = script(HAZARD)
    _, out, _ = lint("--format", "gcc", path)
    assert out.startswith(f"{path}:1:13: error: ") and out.rstrip().endswith("[QB102]")


def test_json_format_carries_every_field(script):
    _, out, _ = lint("--format", "json", script(HAZARD))
    (found,) = json.loads(out)["findings"]
    assert {"code", "severity", "message", "file", "line", "column", "end_line", "end_column", "layers",
            "fix"} <= set(found)
    assert (found["line"], found["column"], found["end_column"], found["layers"]) == (1, 13, 15, ["sh -c"])
    assert found["fix"]["applicability"] == "safe"


def test_sarif_is_what_github_code_scanning_reads(script, tmp_path):
    path = script(HAZARD + WARNING_ONLY)
    _, out, _ = lint("--format", "sarif", os.path.relpath(path, ROOT))
    doc = json.loads(out)
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-2.1.0.json")
    run = doc["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert run["tool"]["driver"]["name"] == "qbcore" and rules == ["QB102", "QB103"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        location = result["locations"][0]["physicalLocation"]
        assert not location["artifactLocation"]["uri"].startswith("/")
        assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(location["region"])
        assert result["partialFingerprints"]


def test_github_annotations_escape_as_the_toolkit_does(script):
    path = script('ssh host "echo $a,b"\n', "odd,name%.sh")
    _, out, _ = lint("--format", "github", path)
    line = out.splitlines()[0]
    assert line.startswith("::warning file=") and "odd%2Cname%25.sh" in line
    assert ",line=1,col=16,endLine=1,endColumn=18,title=QB103 outer-expansion::" in line


def test_github_escaping_of_messages():
    from qbcore.lint.formatters import github_escape_data, github_escape_property

    assert github_escape_data("a%b\r\nc") == "a%25b%0D%0Ac"
    assert github_escape_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_select_and_ignore_on_the_command_line(script):
    path = script(HAZARD + WARNING_ONLY)
    _, out, _ = lint("--format", "json", "--select", "QB1", "--ignore", "QB102", path)
    assert {f["code"] for f in json.loads(out)["findings"]} == {"QB103"}


def test_suppression_on_the_line_before_a_command(script):
    path = script("# qbcore: disable=QB102\n" + 'sh -c "echo $1" _ x\n' + HAZARD)
    code, out, _ = lint("--format", "json", path)
    assert [f["line"] for f in json.loads(out)["findings"]] == [3]


def test_file_wide_suppression_and_unused_ones(script):
    path = script("#!/bin/sh\n# qbcore: disable=QB1\n\necho start\n" + HAZARD + WARNING_ONLY)
    assert lint(path)[0] == 0
    path = script("echo start\n# qbcore: disable=QB301\necho plain\n")
    code, out, _ = lint("--format", "json", path)
    (found,) = json.loads(out)["findings"]
    assert code == 1 and found["code"] == "QB001" and found["line"] == 2


def test_config_found_upward(tmp_path, script):
    (tmp_path / "pyproject.toml").write_text('[tool.qbcore.lint]\nignore = ["QB103"]\n')
    path = script(WARNING_ONLY, "deep/er/s.sh")
    assert lint(path)[0] == 0
    (tmp_path / "deep" / ".qbcore.toml").write_text('[lint]\nseverity = "error"\nselect = ["QB1"]\n')
    assert lint(script(HAZARD + WARNING_ONLY, "deep/er/t.sh"))[0] == 1
    (tmp_path / "deep" / ".qbcore.toml").write_text('[lint]\nselect = ["QB12345"]\n')
    assert lint(path)[0] == 2


def test_fix_rewrites_the_file_with_safe_fixes_only(script):
    path = script(HAZARD + WARNING_ONLY)
    code, _, err = lint("--fix", path)
    assert open(path).read() == "sh -c 'echo $1' _ x\n" + WARNING_ONLY
    assert code == 1 and "applied 1 fix" in err
    lint("--fix", "--unsafe-fixes", path)
    assert open(path).read() == "sh -c 'echo $1' _ x\nssh host 'rm -r $dir'\n"


def test_fix_with_c_prints_the_fixed_text():
    code, out, _ = lint("--fix", "-c", HAZARD.strip())
    assert (code, out) == (0, "sh -c 'echo $1' _ x\n")
    code, out, _ = lint("--fix", "-t", "nested", "-c", 'echo "$x"')
    assert (code, out) == (0, 'echo \\"\\$x\\"\n')


def test_diff_format_applies_with_git_apply(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "run.sh").write_text("echo hi\n" + HAZARD + "ssh h ls 'a b'\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    diff = subprocess.run([sys.executable, "-m", "qbcore", "lint", "--format", "diff", "run.sh"], cwd=tmp_path,
                          env=env, capture_output=True).stdout
    assert diff.startswith(b"--- a/run.sh\n+++ b/run.sh\n")
    subprocess.run(["git", "apply"], input=diff, cwd=tmp_path, check=True)
    assert (tmp_path / "run.sh").read_text() == "echo hi\nsh -c 'echo $1' _ x\nssh h \"ls 'a b'\"\n"


def test_bad_inputs_get_an_error_each_and_the_rest_is_linted(tmp_path, script):
    good = script(HAZARD)
    nul = tmp_path / "nul.sh"
    nul.write_bytes(b"echo a\0b\n")
    latin = tmp_path / "latin.sh"
    latin.write_bytes(b"echo \xe9\n")
    big = tmp_path / "big.sh"
    big.write_bytes(b"#" * (10 * 1024 * 1024 + 1))
    dangling = tmp_path / "gone.sh"
    dangling.symlink_to(tmp_path / "nowhere")
    code, out, err = lint("--format", "gcc", str(nul), str(latin), str(big), str(tmp_path), str(dangling), good)
    assert code == 2
    assert "nul.sh: binary file (a NUL byte at offset 6)" in err
    assert "latin.sh: not valid UTF-8 (byte 5)" in err
    assert "big.sh: larger than 10 MB" in err
    assert "is a directory" in err and "gone.sh: cannot read" in err
    assert "[QB102]" in out  # the good file was still linted


def test_replies_file_findings_carry_id_and_transport(tmp_path):
    replies = tmp_path / "r.jsonl"
    replies.write_text(json.dumps({"id": "r1", "task_id": "t", "reply": 'echo "$HOME"'}) + "\n"
                       + json.dumps({"id": "r2", "task_id": "t", "reply": "ls"}) + "\nnot json\n")
    code, out, err = lint("--format", "json", "--replies", str(replies), "-t", "nested", "-t", "ssh")
    found = json.loads(out)["findings"]
    assert code == 2 and "line 3" in err
    assert {(f["reply_id"], f["transport"]) for f in found} == {("r1", "nested"), ("r1", "ssh")}


def test_bundled_samples_lint_through_the_command_line():
    code, out, _ = lint("--format", "json", "--replies", os.path.join(ROOT, "qbcore", "batch", "data", "sample_replies.jsonl"))
    assert code == 1 and json.loads(out)["findings"]


def test_all_transports_at_once():
    code, out, _ = lint("--format", "json", "-t", "all", "-c", 'echo "$x"')
    assert code == 1
    assert {f["transport"] for f in json.loads(out)["findings"]} == {"nested", "double-nested", "ssh", "ssh-argv",
                                                                    "heredoc-ssh", "json-naive"}


def test_pre_commit_hook_runs_this_command():
    text = open(os.path.join(ROOT, ".pre-commit-hooks.yaml")).read()
    assert "id: qbcore-lint" in text and "entry: qbcore lint" in text and "types: [shell]" in text
