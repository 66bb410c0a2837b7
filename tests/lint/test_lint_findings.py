"""The finding, rule and fix records of qbcore lint, on their own."""

import dataclasses

import pytest

from qbcore.lint import REGISTRY, Finding, Fix, SourceText
from qbcore.lint.fixes import apply_fixes
from qbcore.lint.rules import matches

LAYER_KINDS = {"0": "housekeeping", "1": "double-quoted", "2": "single-quoted", "3": "argv join",
               "4": "here-document", "5": "JSON", "6": "stdin", "7": "dialect", "9": "syntax"}


def test_every_rule_has_its_page():
    for code, rule in REGISTRY.items():
        assert code == rule.code and code[:2] == "QB" and len(code) == 5 and code[2] in LAYER_KINDS
        assert rule.severity in ("error", "warning", "info", "style")
        assert rule.name and rule.summary and rule.rationale and rule.bad and rule.good and rule.kinds
        page = rule.explain()
        assert page.startswith(f"{code} {rule.name} ({rule.severity})") and rule.bad in page and rule.good in page


def test_positions_count_characters_and_lines():
    source = SourceText("f", "é\nab 𝄞 cd\n")
    rule = REGISTRY["QB103"]
    found = source.finding(rule, 5, 8, "m")  # "𝄞 c"
    assert (found.line, found.column, found.end_line, found.end_column) == (2, 4, 2, 7)
    assert (found.byte_start, found.byte_end) == (6, 12)
    assert source.line_text(2) == "ab 𝄞 cd"


def test_a_span_across_lines():
    source = SourceText("f", "a\nbc\nd")
    found = source.finding(REGISTRY["QB401"], 1, 5, "m")
    assert (found.line, found.column, found.end_line, found.end_column) == (1, 2, 3, 1)


def test_findings_are_immutable_and_checked():
    found = SourceText("f", "x").finding(REGISTRY["QB101"], 0, 1, "m")
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.code = "QB102"
    with pytest.raises(ValueError):
        dataclasses.replace(found, severity="fatal")
    with pytest.raises(ValueError):
        Fix(0, 1, "y", "maybe", "d")


def test_as_dict_is_plain_data():
    fix = Fix(0, 1, "y", "safe", "d")
    found = SourceText("f", "x").finding(REGISTRY["QB101"], 0, 1, "m", layers=("bash -c",), fix=fix)
    data = found.as_dict()
    assert data["fix"] == {"start": 0, "end": 1, "replacement": "y", "applicability": "safe", "description": "d"}
    assert data["layers"] == ["bash -c"] and "reply_id" not in data


def _with_fix(start, end, text, applicability="safe"):
    return SourceText("f", "abcdef").finding(REGISTRY["QB101"], start, end, "m",
                                             fix=Fix(start, end, text, applicability, "d"))


def test_fixes_apply_back_to_front_and_skip_overlaps():
    findings = [_with_fix(0, 2, "X"), _with_fix(1, 3, "Y"), _with_fix(4, 5, "Z"), _with_fix(5, 6, "W", "unsafe")]
    assert apply_fixes("abcdef", findings)[0] == "XcdZf"
    assert apply_fixes("abcdef", findings, unsafe=True)[0] == "XcdZW"


def test_the_same_fix_on_several_findings_applies_once():
    assert apply_fixes("abcdef", [_with_fix(0, 6, "Q"), _with_fix(0, 6, "Q")])[0] == "Q"


def test_selection_by_code_or_prefix():
    assert matches("QB101", ["QB1"]) and matches("QB101", ["ALL"]) and not matches("QB101", ["QB2", "QB10 "])
