"""The fast path's command substitutions (qbcore.harness.outersubst): the closed form
for programs the model does not run reports what the model's walk of the body does."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probing import LONG

import qbcore.harness.outersubst as outersubst
from qbcore.harness import simulate as simulate_module

CWD = "/nonexistent/qbcore"
# programs the model does not run, and literal words
PROGRAMS = ["date", "ls", "wc", "lsof", "git", "./x", "mktemp", "seq", "a-b.c", "x_1", "/usr/bin/env", "python3",
            "sort", "uname", "%1", "a:b", "@x", "+x", "a,b"]
LITERAL = st.text(alphabet="abcXYZ019_./:+%,@=-", min_size=1, max_size=12)
# known, unset, unknown and long values, by name, in double quotes; single quotes hold anything
PARAMETER = st.sampled_from(["$PWD", "$HOME", "${PATH}", "$x", "$SHELL", "$RANDOM", "$_", "${PWD}", "$SHLVL"])
QUOTED = st.lists(st.one_of(LITERAL, PARAMETER, st.just(" ")), max_size=4).map(lambda parts: '"' + "".join(parts) + '"')
SINGLE = st.text(alphabet="a $*?{},;&<>()`\\\"#~[]!", max_size=6).map(lambda text: f"'{text}'")
WORD = st.lists(st.one_of(LITERAL, QUOTED, SINGLE), min_size=1, max_size=3).map("".join)
command = st.builds(lambda name, args, gap: gap.join([name, *args]), st.sampled_from(PROGRAMS),
                    st.lists(WORD, max_size=5), st.sampled_from([" ", "  "]))
bodies = st.one_of(
    st.builds(lambda commands, bar, lead, trail: lead + bar.join(commands) + trail,
              st.lists(command, min_size=1, max_size=4), st.sampled_from(["|", " | ", "  |"]),
              st.sampled_from(["", " "]), st.sampled_from(["", "  "])),
    st.sampled_from(["pwd", " pwd ", "pwd  "]))
# echo and printf with words no expansion changes; formats of every kind, some not closed
FORMAT = st.lists(st.sampled_from(["%s", "%%", "\\n", "\\t", "\\\\", "%d", "\\x41", "%5s", "a b", "-", "é", "x",
                                   "%c", "%q", "%b", "%-3.1s", "%x", "%f", "\\c", "%", "\\0101"]),
                  max_size=5).map(lambda parts: "'" + "".join(parts) + "'")
PRINTED = st.one_of(LITERAL, SINGLE, st.text(alphabet="ab1 %,=", max_size=5).map(lambda text: f'"{text}"'),
                    st.sampled_from(["-n", "-e", "-neE", "'a\\tb'", "12", "0x1f", "'é'"]))
printing = st.builds(lambda name, words, gap, lead: lead + gap.join([name, *words]),
                     st.sampled_from(["echo", "printf"]),
                     st.one_of(st.lists(PRINTED, max_size=4), st.builds(lambda f, rest: [f, *rest], FORMAT,
                                                                          st.lists(PRINTED, max_size=5))),
                     st.sampled_from([" ", "  "]), st.sampled_from(["", " "]))


# a path as long as a task directory's, and one a value of which would glob if unquoted
# (and one that ends in a newline, which reading pwd's output drops)
CWDS = [CWD, "/nonexistent/" + "d" * 200 + "/x*", "/nonexistent/nl\n"]


def _run(bodies, closed: bool, lost=None, cwd=CWD):
    """The substitutions of ``bodies`` run in order by one OuterSubstitutions (the closed
    form allowed or not; ``lost`` the files after each): what it keeps, and its meter."""
    substitutions = outersubst.OuterSubstitutions(cwd, False, simulate_module._NOTED, simulate_module.default_environ)
    literal, printing_body = outersubst._LITERAL_BODY, outersubst._PRINTING_BODY
    if not closed:
        outersubst._LITERAL_BODY = outersubst._PRINTING_BODY = re.compile(r"(?!)")
    try:
        pieces = []
        for body in bodies:
            pieces.append(substitutions.run(body, False))
            if lost:
                substitutions._view(outersubst._Model.load()).lose(lost)
    finally:
        outersubst._LITERAL_BODY, outersubst._PRINTING_BODY = literal, printing_body
    meter = substitutions.meter
    files = substitutions.files  # (none made: the files as they were)
    return (pieces, substitutions.effects, substitutions.names, substitutions.status,
            (files.lost, files.created) if files is not None else (None, set())), meter


@settings(max_examples=4000 if LONG else 300, deadline=None, database=None)
@given(st.lists(st.one_of(bodies, printing), min_size=1, max_size=3), st.sampled_from([None, "an earlier loss"]),
       st.sampled_from(CWDS))
def test_the_closed_form_reports_what_the_walk_does(bodies, lost, cwd):
    assert all(outersubst._LITERAL_BODY.fullmatch(body) or outersubst._PRINTING_BODY.fullmatch(body)
               for body in bodies)
    closed, closed_meter = _run(bodies, True, lost, cwd)
    walked, walked_meter = _run(bodies, False, lost, cwd)
    assert closed == walked
    # charged at least what the walk charges: it never keeps a reply the walk would give up
    assert closed_meter.steps >= walked_meter.steps and closed_meter.bytes >= walked_meter.bytes


@pytest.mark.parametrize("body", ["date +%s", "ls | wc -l", " lsof -t -i:8080 ", "git rev-parse HEAD", "mktemp",
                                  'basename "$PWD"', "dirname \"${HOME}/a b\" 'x;*'", "pwd"])
def test_programs_with_literal_words_skip_the_walk(body, monkeypatch):
    outersubst._Model.load()
    monkeypatch.setattr(outersubst._Model, "substitute", lambda *a, **k: pytest.fail("walked"))
    monkeypatch.setattr(outersubst._Model, "parse_prefix", lambda *a, **k: pytest.fail("parsed"))
    substitutions = outersubst.OuterSubstitutions(CWD, False, simulate_module._NOTED, simulate_module.default_environ)
    expected = CWD if body == "pwd" else f"⟨$({body.strip()})⟩"
    assert str(substitutions.run(body, False)) == expected


@pytest.mark.parametrize("body, printed", [
    ("printf '%s' hi", "hi"), ("echo a  'b  c' \"d e\"", "a b  c d e"), ("printf '[%s]\\n' a b", "[a]\n[b]"),
    ("printf 'x%%\\t'", "x%\t"), ("echo", ""), (" printf %s%s 1 ", "1"), ("printf '%03d|%x' 7 255", "007|ff"),
    ("echo -e 'a\\tb'", "a\tb"), ("echo -n a", "a")])
def test_echo_and_printf_of_plain_words_skip_the_walk(body, printed, monkeypatch):
    outersubst._Model.load()
    monkeypatch.setattr(outersubst._Model, "substitute", lambda *a, **k: pytest.fail("walked"))
    monkeypatch.setattr(outersubst._Model, "parse_prefix", lambda *a, **k: pytest.fail("parsed"))
    substitutions = outersubst.OuterSubstitutions(CWD, False, simulate_module._NOTED, simulate_module.default_environ)
    assert substitutions.run(body, False) == printed and substitutions.status == 0


@pytest.mark.parametrize("body", ["printf -v x y", "printf", "printf '%d' x", "printf '%z'", "printf -- a",
                                  "echo $HOME", "printf '%s' \"$x\"", "echo a; echo b", "echo a | cat",
                                  "echo \"a\\b\"", "echo *", "echo {a,b}", "echo ~", "x=1 echo a",
                                  "echo a >f",
                                  "x=1", "a || b", "time ls", "do", "true | ls",
                                  "bash -c x", "ssh h", "ls |", "ls | | wc", "ls $HOME", 'ls "$(pwd)"', "pwd -P",
                                  "pwd | cat", 'ls "${x:-a}"', 'ls *', "ls ~", '"ls" x', 'ls "a|b"', "$x a",
                                  'cat "$1"'])
def test_builtins_keywords_assignments_and_noted_programs_are_walked(body, monkeypatch):
    outersubst._Model.load()
    walked = []
    real = outersubst._Model.parse_prefix
    monkeypatch.setattr(outersubst._Model, "parse_prefix", lambda text: walked.append(text) or real(text))
    substitutions = outersubst.OuterSubstitutions(CWD, False, simulate_module._NOTED, simulate_module.default_environ)
    substitutions.run(body, False)
    assert walked == [body]


def test_a_reply_of_many_substitutions_is_given_up_no_later_than_the_walk():
    # each closed form charges the budget at least what its walk would
    bodies = ["date +%s"] * 8000
    closed, _ = _run(bodies, True)
    walked, _ = _run(bodies, False)
    first_closed = closed[0].index(None)
    first_walked = walked[0].index(None)
    assert first_closed <= first_walked
    assert closed[0][:first_closed] == walked[0][:first_closed]
