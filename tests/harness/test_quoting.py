"""The escaping filters, each checked against the parser it targets: bash, GNU sed, json."""

import json
import random
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from qbcore.harness.quoting import QuotingError, double_quote, json_string, sed_pattern, sed_replacement, single_quote

HAZARDS = ["", "'", "''", '"', "\\", "\\'", "$HOME", "`id`", "$(id)", "a b", "  lead", "trail  ", "*", "?",
           "[a]", "~", "~/x", "!", "!!", "{a,b}", "a\nb", "\n", "\t", "-n", "--", "#c", "a#b", "&&", ";", "|",
           "é ü 日本", "\x01\x7f", "%s%d", "$'x'", '"$@"', "\\n", "&", "/", ".*", "^$", "]", "[", "a.b", "\\1",
           "x\\", "{}", "a/b/c", "@", "${x:-y}", "\r\n"]


def _corpus(count=300, seed=4):
    rng = random.Random(seed)
    alphabet = "ab '\"\\$`!*?[]{}~#&;|<>()\n\t/.^&é日-%@="
    return HAZARDS + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(count)]


def _bash_printf_each(words):
    """Run one bash that prints each word NUL-terminated; returns the decoded list."""
    script = "".join(f"printf '%s\\0' {w}\n" for w in words)
    out = subprocess.run(["bash", "-c", script], capture_output=True, check=True).stdout
    return out.decode("utf-8").split("\0")[:-1]


@pytest.mark.bash
@pytest.mark.parametrize("quote", [single_quote, double_quote], ids=["single", "double"])
def test_shell_quote_round_trips_through_bash(quote):
    corpus = _corpus()
    assert _bash_printf_each([quote(s) for s in corpus]) == corpus


@pytest.mark.bash
@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=30))
def test_single_quote_round_trips_arbitrary_text(text):
    assert _bash_printf_each([single_quote(text)]) == [text]


def test_single_quote_keeps_quote_free_text_in_one_pair():
    assert single_quote("a b$c") == "'a b$c'"
    assert single_quote("it's") == "'it'\\''s'"


@pytest.mark.parametrize("quote", [single_quote, double_quote, sed_pattern, sed_replacement])
def test_nul_byte_is_refused_with_a_reason(quote):
    with pytest.raises(QuotingError, match="NUL"):
        quote("a\0b")


def _sed(script, data):
    return subprocess.run(["sed", "-e", script], input=data.encode(), capture_output=True, check=True).stdout.decode()


@pytest.mark.bash
def test_sed_pattern_matches_only_the_literal_text():
    lines = [s for s in _corpus(120, seed=7) if "\n" not in s and "\r" not in s and s]
    for text in lines:
        data = f"<{text}>\nX{text[::-1]}Y\n"
        got = _sed(f"s/{sed_pattern(text)}/@/", data)
        want = data.replace(text, "@", 1) if text in data.split("\n")[0] else data
        assert got.split("\n")[0] == want.split("\n")[0], text


@pytest.mark.bash
def test_sed_pattern_regex_characters_do_not_act_as_regex():
    assert _sed(f"s/{sed_pattern('a.c')}/X/g", "abc a.c\n") == "abc X\n"
    assert _sed(f"s/{sed_pattern('^x$')}/Y/", "^x$ x\n") == "Y x\n"
    assert _sed(f"s|{sed_pattern('a|b', '|')}|Z|", "a|b\n") == "Z\n"


@pytest.mark.bash
def test_sed_replacement_inserts_the_literal_text():
    for text in _corpus(120, seed=9):
        if "\r" in text:
            continue
        got = _sed(f"s/MARK/{sed_replacement(text)}/", "<MARK>\n")
        assert got == f"<{text}>\n", text


def test_sed_pattern_refuses_a_newline():
    with pytest.raises(QuotingError, match="line by line"):
        sed_pattern("a\nb")


def test_sed_filters_refuse_an_unusable_delimiter():
    with pytest.raises(QuotingError, match="delimiter"):
        sed_pattern("x", delimiter="a")


@pytest.mark.parametrize("text", _corpus(60, seed=11))
def test_json_string_parses_back_to_the_text(text):
    assert json.loads(json_string(text)) == text


def test_json_string_keeps_non_ascii_as_text():
    assert json_string("é") == '"é"'


def test_json_string_refuses_lone_surrogates():
    with pytest.raises(QuotingError, match="valid Unicode"):
        json_string("a\udcff")


@pytest.mark.bash
def test_single_quoted_json_reaches_a_program_intact():
    for text in _corpus(80, seed=13):
        document = "{\"v\": " + json_string(text) + "}"
        [echoed] = _bash_printf_each([single_quote(document)])
        assert json.loads(echoed)["v"] == text
