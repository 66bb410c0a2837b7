"""``qbcore rewrite``: the stable JSON shape, the environment options, the text report, bad input."""

import json
import subprocess
import sys

import pytest

KEYS = ["transport", "reply", "inner_script", "inner_args", "exact", "opaque", "outer_effects", "outer_error"]


def rewrite(*args, stdin=b"", cwd=None):
    return subprocess.run([sys.executable, "-m", "qbcore", "rewrite", *args], input=stdin,
                          capture_output=True, timeout=60, cwd=cwd)


def as_json(*args, **kw):
    done = rewrite("--format", "json", *args, **kw)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_json_has_exactly_the_documented_keys_and_the_prediction(tmp_path):
    got = as_json("-t", "nested", "--cwd", str(tmp_path), "--", 'echo "a b" x')
    assert list(got) == KEYS
    assert got["inner_script"] == "echo a" and got["inner_args"] == ["b x"] and got["exact"] is True
    assert got["outer_effects"] == [] and got["outer_error"] is None


def test_cwd_is_home_and_env_pairs_join_the_executors_environment(tmp_path):
    got = as_json("-t", "nested", "--cwd", str(tmp_path), "--env", "X=1", "--", "echo $HOME $X $LC_ALL")
    assert got["inner_script"] == f"echo {tmp_path} 1 C"


def test_clean_env_keeps_only_the_given_pairs(tmp_path):
    got = as_json("-t", "nested", "--clean-env", "--env", "X=a=b", "--cwd", str(tmp_path), "--",
                  "echo [$HOME] [$X] [$LC_ALL]")
    assert got["inner_script"] == "echo [] [a=b] []"


def test_leaks_and_unknowns_are_reported(tmp_path):
    got = as_json("-t", "nested", "--cwd", str(tmp_path), "--", 'x"; touch f; bash -c "$(date)')
    assert got["exact"] is False and "$(date)" in got["opaque"]
    assert {"kind": "command", "text": "touch f", "certain": True, "layer": 1, "argv": ["touch", "f"]} \
        in got["outer_effects"]


def test_listing_gives_the_files_before_the_harness_runs(tmp_path):
    listing = tmp_path / "listing"
    listing.write_text("b.txt\nsub/a.txt\n\nempty/\n")
    got = as_json("-t", "nested", "--cwd", "/nonexistent/qbcore-cli", "--listing", str(listing), "--",
                  '" * */*.txt "')
    assert got["exact"] is True and got["inner_args"] == ["b.txt", "empty", "sub", "sub/a.txt", ""]


@pytest.mark.parametrize("content, message", [(None, "cannot read"), ("../up\n", "leaves the working directory")])
def test_a_bad_listing_is_a_usage_error(tmp_path, content, message):
    listing = tmp_path / "listing"
    if content is not None:
        listing.write_text(content)
    done = rewrite("-t", "nested", "--listing", str(listing), "--", "echo hi")
    assert done.returncode == 2 and message in done.stderr.decode() and b"Traceback" not in done.stderr


def test_outer_and_harness_errors_are_in_outer_error():
    assert as_json("-t", "single", "--", "it's")["outer_error"].startswith("bash: -c: line 1: unexpected EOF")
    assert as_json("-t", "json-naive", "--", 'a"b')["outer_error"].startswith("the JSON text is invalid")


def test_text_marks_the_changed_spans(tmp_path):
    done = rewrite("-t", "nested", "--cwd", str(tmp_path), "--", 'echo "a b" x')
    text = done.stdout.decode()
    assert "  echo ⟦\"⟧a⟦ b\" x⟧" in text and "  echo a" in text and "$0='b x'" in text
    assert "exact: yes" in text


def test_reply_from_stdin_keeps_its_bytes():
    got = as_json("-t", "raw", "-", stdin=b"echo \xff")
    assert got["inner_script"] == "echo \udcff"  # an undecodable byte, kept


@pytest.mark.parametrize("args, stdin, message", [
    (("-t", "raw", "-"), b"a\0b", b"NUL"),
    (("-t", "raw", "--env", "NOEQUALS", "--", "x"), b"", b"NAME=VALUE"),
    (("-t", "nope", "--", "x"), b"", b"invalid choice"),
    (("-t", "raw", "--file", "/nonexistent/r"), b"", b"cannot read"),
])
def test_bad_input_exits_2_with_a_message(args, stdin, message):
    done = rewrite(*args, stdin=stdin)
    assert done.returncode == 2 and message in done.stderr and b"Traceback" not in done.stderr
