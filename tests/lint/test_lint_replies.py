"""Mode 1 of qbcore lint: a reply under the transports that carry it.

The specification: a reply is flagged under a transport exactly when screen
says it is not delivered intact (stdin swallowing, QB6xx, is about what runs
after delivery and is kept apart); the findings name the cause at the right
span of the reply; the fix is the escaped payload, safe only when the
simulator proves it, and real bash confirms the safe ones.
"""

import json
from importlib import resources

import pytest
from probing import draw, hostile_replies, probe_workers, sandbox_ready

from qbcore.lint import lint_reply
from qbcore.realbash.probe import probe_many
from qbcore.batch.screen import delivery
from qbcore.harness.simulate import simulate
from qbcore.harness.transports import NAMES, TRANSPORTS

__all__ = ["sandbox_ready"]


def _sample_replies():
    with resources.files("qbcore.batch").joinpath("data", "sample_replies.jsonl").open("rb") as handle:
        return [json.loads(line)["reply"] for line in handle if line.strip()]


def _flagged(reply, transport):
    return any(not f.code.startswith("QB6") for f in lint_reply(reply, [transport]))


def _intact(reply, transport):
    return delivery(reply, transport, simulate(reply, transport)) == "intact"


def _disagreements(replies):
    return [(r, t) for r in replies for t in NAMES if _flagged(r, t) == _intact(r, t)]


def test_flags_exactly_the_sample_replies_screen_finds_damaged():
    assert _disagreements(_sample_replies()) == []


def test_flags_exactly_the_generated_replies_screen_finds_damaged():
    replies = draw(hostile_replies(), 400, "lint-agreement")
    assert _disagreements(replies) == []


@pytest.mark.parametrize("reply", ["declare a=({)", "declare -a a=(1 2) b; read x", "export A=(1) && cat"])
def test_array_arguments_of_declaration_builtins_are_linted(reply):
    # `declare a=(…)` parses as an assignment among the words: no static value, no crash
    assert _disagreements([reply]) == []


def test_the_samples_hold_both_verdicts():
    # the agreement test means little unless some replies pass and some fail
    verdicts = {_intact(r, "nested") for r in _sample_replies()}
    assert verdicts == {True, False}


def _codes(reply, transport):
    return [(f.code, reply[f.start:f.end]) for f in lint_reply(reply, [transport])]


@pytest.mark.parametrize("reply, transport, expected", [
    ('echo "a b"', "nested", ("QB101", '"')),
    ("echo $HOME", "nested", ("QB103", "$HOME")),
    ("echo $1", "nested", ("QB102", "$1")),
    ("echo $(date)", "ssh", ("QB104", "$(date)")),
    ("printf '%s\\n' \\$x", "nested", ("QB105", "\\$")),
    ("echo it's", "single", ("QB901", "'")),
    ("echo 'a' b", "single", ("QB201", "'")),
    ("printf 'a\\nb'", "json-naive", ("QB502", "\\n")),
    ('echo "x"', "json-naive", ("QB501", '"')),
    ("echo \"x", "ssh-argv", ("QB302", '"x')),
    ("echo $x", "heredoc-ssh", ("QB402", "$x")),
    ("echo a\nEOF\necho b", "heredoc-ssh", ("QB401", "EOF")),
    ("cat\necho gone", "stdin", ("QB601", "cat")),
    ("echo $x", "double-nested", ("QB103", "$x")),
    ('echo "a; ls; echo "', "nested", ("QB108", '; ls; echo "')),
    ('echo "x > f "', "nested", ("QB108", "> f")),
    ('echo "*.txt"', "nested", ("QB107", "*")),
    ('echo "a b"', "nested", ("QB106", " ")),
    ('ls "a b"', "ssh-argv", ("QB301", '"')),
    ("-n", "nested", ("QB303", "-")),
])
def test_names_the_cause_at_its_span(reply, transport, expected):
    assert expected in _codes(reply, transport)


def test_intact_reply_gets_no_finding():
    assert lint_reply("ls -l /tmp | wc -l", list(NAMES)) == []


def test_span_counts_characters_and_bytes():
    (f,) = [f for f in lint_reply("echo é $x", ["nested"]) if f.code == "QB103"]
    assert (f.start, f.end, f.column, f.end_column) == (7, 9, 8, 10)
    assert (f.byte_start, f.byte_end) == (8, 10)


def test_every_finding_carries_transport_and_layer():
    for f in lint_reply('echo "$x"', ["nested", "ssh"]):
        assert f.transport in ("nested", "ssh") and f.layers == (f.transport,)


@pytest.mark.parametrize("transport", NAMES)
def test_a_nul_is_flagged_with_no_payload(transport):
    (found,) = lint_reply("echo a\0b", [transport])
    assert found.code == "QB900" and found.fix is None and "no payload exists" in found.no_fix


FIX_REPLIES = ['echo "a b" $x', "printf '%s\\n' \\$HOME `id`", "it's \"q\"", "a\nEOF\nb $(c)",
               "x=1; echo ${x:-\"y\"} > f", "-n"]


@pytest.mark.parametrize("transport", [t for t in NAMES if TRANSPORTS[t].outer != "none"])
def test_safe_fixes_are_proven_by_the_simulator(transport):
    for reply in FIX_REPLIES + draw(hostile_replies(), 100, "lint-fix", transport):
        for f in lint_reply(reply, [transport]):
            if f.fix is not None and f.fix.applicability == "safe":
                assert _intact_payload(reply, transport, f.fix.replacement)


def _intact_payload(reply, transport, payload):
    from qbcore.lint.replies import _proven

    return _proven(reply, transport, simulate(payload, transport))


@pytest.mark.bash
def test_safe_fixes_deliver_the_reply_through_real_bash(sandbox_ready, tmp_path):
    pairs = []
    for transport in ("nested", "single", "ssh", "double-nested", "heredoc-ssh", "json-naive", "ssh-argv"):
        for reply in FIX_REPLIES + draw(hostile_replies(), 40, "lint-fix-bash", transport):
            fixes = {f.fix.replacement for f in lint_reply(reply, [transport])
                     if f.fix is not None and f.fix.applicability == "safe"}
            pairs += [(reply, transport, payload) for payload in fixes]
    assert len(pairs) > 100  # about 150-200 on a draw: enough that a wrong fix shows
    results = probe_many([(payload, t) for _, t, payload in pairs], root=str(tmp_path), workers=probe_workers())
    wrong = []
    for (reply, transport, payload), got in zip(pairs, results):
        expected = reply + "\n" if TRANSPORTS[transport].adds_final_newline else reply
        if got.inner_script != expected or got.inner_args or len(got.received) != 1:
            wrong.append((reply, transport, payload, got.inner_script))
    assert wrong == []
