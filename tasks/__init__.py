"""The QuoteBench core suite as data, installed as ``qbcore.suite``: load it, look tasks up.

The task files are JSON (one per task, ``<family>/t<tier>-<name>.json``,
built by ``qbcore.suite.build``); this package turns them into immutable
Task records and never runs anything. The loader lives here, beside the data,
because ``qbcore.suite`` is the package name the data is installed under.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

__all__ = ["Task", "Hazard", "UnknownTask", "load", "get", "ids", "FAMILIES"]

FAMILIES = ("write-file", "sed-replace", "grep-count", "field-lookup", "hostile-filenames", "find-glob",
            "ssh-nested", "json-write", "git-commit", "env-passing", "argv-passing", "bulk-rename",
            "heredoc-write", "ssh-heredoc")


class UnknownTask(LookupError):
    """No task has this id; the message suggests the closest ones."""


@dataclass(frozen=True)
class Hazard:
    """A hazard tag as the benchmark writes it: ``apostrophe``, or ``SC2016:wrong-quote-type``
    for one that a ShellCheck code names."""

    name: str
    shellcheck: str | None = None

    @classmethod
    def parse(cls, tag: str) -> "Hazard":
        code, sep, name = tag.partition(":")
        if sep and code.startswith("SC") and code[2:].isdigit():
            return cls(name, code)
        return cls(tag)

    @property
    def tag(self) -> str:
        return f"{self.shellcheck}:{self.name}" if self.shellcheck else self.name

    def __str__(self):
        return self.tag


@dataclass(frozen=True)
class Task:
    """One task: what to do (instruction with payloads between ⟪ ⟫), where, how it is judged."""

    id: str
    family: str
    tier: int
    hazards: tuple[Hazard, ...]
    instruction: str
    payloads: Mapping[str, Any]
    fixture: Mapping[str, Any]
    checks: tuple[Mapping[str, Any], ...]
    allowed_new: tuple[str, ...]
    oracle: str
    naive: str

    @property
    def control(self) -> bool:
        """Tier 0 is the benign control: the naive command should pass it."""
        return self.tier == 0

    def summary(self) -> dict:
        return {"id": self.id, "family": self.family, "tier": self.tier,
                "hazards": [h.tag for h in self.hazards]}

    def as_dict(self) -> dict:
        return {**self.summary(), "instruction": self.instruction, "payloads": dict(self.payloads),
                "fixture": dict(self.fixture), "checks": [dict(c) for c in self.checks],
                "allowed_new": list(self.allowed_new), "oracle": self.oracle, "naive": self.naive}


def _from_json(data: Mapping) -> Task:
    return Task(id=data["id"], family=data["family"], tier=int(data["tier"]),
                hazards=tuple(Hazard.parse(h) for h in data["hazards"]),
                instruction=data["instruction"], payloads=data["payloads"], fixture=data["fixture"],
                checks=tuple(data["checks"]), allowed_new=tuple(data["allowed_new"]),
                oracle=data["oracle"], naive=data["naive"])


@lru_cache(maxsize=1)
def load() -> tuple[Task, ...]:
    """All tasks, ordered by family (the suite's order) then tier."""
    root = resources.files(__name__)
    tasks = []
    for family in FAMILIES:
        folder = root / family
        if not folder.is_dir():
            raise RuntimeError(f"the task suite is incomplete: no folder for family {family}")
        for entry in folder.iterdir():
            if entry.name.endswith(".json"):
                tasks.append(_from_json(json.loads(entry.read_text(encoding="utf-8"))))
    order = {f: i for i, f in enumerate(FAMILIES)}
    return tuple(sorted(tasks, key=lambda t: (order[t.family], t.tier, t.id)))


def ids() -> tuple[str, ...]:
    return tuple(t.id for t in load())


@lru_cache(maxsize=None)
def _index() -> dict[str, Task]:
    return {t.id: t for t in load()}


def get(task_id: str) -> Task:
    """The task with this id, e.g. ``sed-replace/t2-slashes``; UnknownTask otherwise."""
    try:
        return _index()[task_id]
    except (KeyError, TypeError):
        close = difflib.get_close_matches(str(task_id), _index(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `qbcore tasks list` shows them all"
        raise UnknownTask(f"no task with id {task_id!r}{hint}") from None
