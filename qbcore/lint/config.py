"""Lint settings from `[tool.qbcore.lint]` in pyproject.toml or `.qbcore.toml`, found upward."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Optional

from .findings import severity_rank
from .rules import REGISTRY


class ConfigError(ValueError):
    """A configuration file or option that cannot be used."""


@dataclass(frozen=True)
class Settings:
    select: tuple = ("ALL",)
    ignore: tuple = ()
    severity: str = "style"
    transports: tuple = ()
    source: Optional[str] = None  # the file the settings came from

    def enabled(self, code: str) -> bool:
        return _enabled(self.select, self.ignore, code)

    def reports(self, severity: str) -> bool:
        return severity_rank(severity) >= severity_rank(self.severity)


@lru_cache(maxsize=4096)
def _enabled(select: tuple, ignore: tuple, code: str) -> bool:
    from .rules import matches

    return matches(code, select) and not matches(code, ignore)


def _codes(value, where) -> tuple:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of codes or prefixes")
    out = tuple(v.strip().upper() for v in value if v.strip())
    for code in out:
        if code != "ALL" and not any(c.startswith(code) for c in REGISTRY):
            raise ConfigError(f"{where}: {code!r} matches no rule code")
    return out


def from_table(table: dict, where: str, base: Settings = Settings()) -> Settings:
    known = {"select", "ignore", "severity", "transports"}
    unknown = set(table) - known
    if unknown:
        raise ConfigError(f"{where}: unknown setting(s) {', '.join(sorted(unknown))}")
    settings = replace(base, source=where)
    if "select" in table:
        settings = replace(settings, select=_codes(table["select"], f"{where}: select"))
    if "ignore" in table:
        settings = replace(settings, ignore=_codes(table["ignore"], f"{where}: ignore"))
    if "severity" in table:
        try:
            severity_rank(table["severity"])
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"{where}: {exc}") from None
        settings = replace(settings, severity=table["severity"])
    if "transports" in table:
        from ..harness.transports import get

        values = table["transports"]
        if not isinstance(values, list):
            raise ConfigError(f"{where}: transports must be a list")
        try:
            settings = replace(settings, transports=tuple(get(v).name for v in values))
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    return settings


def _table_in(path: str) -> Optional[dict]:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if os.path.basename(path) == "pyproject.toml":
        return data.get("tool", {}).get("qbcore", {}).get("lint")
    return data.get("tool", {}).get("qbcore", {}).get("lint", data.get("lint"))


def find_config(start: str) -> Optional[tuple[str, dict]]:
    """The nearest `.qbcore.toml` or pyproject.toml with a lint table, from ``start`` upward."""
    here = os.path.abspath(start)
    if not os.path.isdir(here):
        here = os.path.dirname(here)
    while True:
        for name in (".qbcore.toml", "pyproject.toml"):
            path = os.path.join(here, name)
            if os.path.isfile(path):
                table = _table_in(path)
                if table is not None:
                    return path, table
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def settings_for(start: str, cache: dict) -> Settings:
    """The settings that apply to a file or directory (cached per directory)."""
    directory = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(os.path.abspath(start)))
    if directory not in cache:
        found = find_config(directory)
        cache[directory] = from_table(found[1], found[0]) if found else Settings()
    return cache[directory]
