"""The task suite as shipped: its shape, its determinism, and that the JSON files are current."""

import json
import re
from importlib import resources

import pytest

from qbcore import suite
from qbcore.suite import build


def test_fourteen_families_by_four_tiers():
    tasks = suite.load()
    assert len(tasks) == 56
    assert [t.family for t in tasks[::4]] == list(suite.FAMILIES)
    for family in suite.FAMILIES:
        assert sorted(t.tier for t in tasks if t.family == family) == [0, 1, 2, 3]


def test_ids_name_family_and_tier():
    for task in suite.load():
        family, rest = task.id.split("/")
        assert family == task.family
        assert re.fullmatch(rf"t{task.tier}-[a-z0-9-]+", rest)


def test_generated_files_are_up_to_date():
    root = resources.files("qbcore.suite")
    expected = build.expected_files()
    shipped = {f"{d.name}/{f.name}" for d in root.iterdir() if d.is_dir() and d.name in suite.FAMILIES
               for f in d.iterdir() if f.name.endswith(".json")}
    assert shipped == set(expected), "run: python -m qbcore.suite.build"
    for rel, text in expected.items():
        assert (root / rel).read_text(encoding="utf-8") == text, f"{rel} is stale: python -m qbcore.suite.build"


def test_building_twice_gives_the_same_suite():
    assert build.build_all() == build.build_all()


def test_remote_tokens_come_from_the_task_id():
    for task in suite.load():
        if task.family.startswith("ssh-"):
            assert build.token(task.id) in json.dumps(task.as_dict(), ensure_ascii=False), task.id


def test_every_payload_appears_literally_between_the_markers():
    for task in suite.load():
        for name, value in task.payloads.items():
            values = value if isinstance(value, list) else [value]
            for text in values:
                assert f"⟪{text}⟫" in task.instruction, (task.id, name)


def test_hazards_are_tags_with_shellcheck_codes_in_their_form():
    codes = set()
    for task in suite.load():
        assert task.hazards, task.id
        assert ("control" in {h.name for h in task.hazards}) == task.control, task.id
        for hazard in task.hazards:
            assert re.fullmatch(r"[a-z0-9-]+", hazard.name)
            assert suite.Hazard.parse(hazard.tag) == hazard
            if hazard.shellcheck is not None:
                assert re.fullmatch(r"SC\d{4}", hazard.shellcheck)
                codes.add(hazard.shellcheck)
    assert {"SC2086", "SC2029", "SC2087", "SC2061", "SC2016"} <= codes


def test_controls_are_tier_zero():
    assert [t.id for t in suite.load() if t.control] == [t.id for t in suite.load() if t.tier == 0]


def test_unknown_task_suggests_close_ids():
    with pytest.raises(suite.UnknownTask, match="did you mean sed-replace/t2-slashes"):
        suite.get("sed-replace/t2-slash")
    with pytest.raises(suite.UnknownTask, match="tasks list"):
        suite.get("")


def test_build_check_reports_nothing_stale(capsys):
    assert build.main(["--check"]) == 0
    assert capsys.readouterr().out == ""
