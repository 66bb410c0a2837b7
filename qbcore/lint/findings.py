"""One finding of the nesting linter: an immutable record with its span, layer path and fix.

Spans are kept three ways because their readers differ: byte offsets for
tools that patch files, 1-based line and column counted in characters for
people and for SARIF/GitHub (end column exclusive), and the layer path that
says through which nested invocations the span was reached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

SEVERITIES = ("style", "info", "warning", "error")
APPLICABILITY = ("safe", "unsafe")


def severity_rank(name: str) -> int:
    """Order of severities, lowest first; ValueError for an unknown name."""
    try:
        return SEVERITIES.index(name)
    except ValueError:
        raise ValueError(f"unknown severity {name!r}; choose one of: {', '.join(SEVERITIES)}") from None


@dataclass(frozen=True)
class Fix:
    """Replace the characters ``start:end`` of the linted text with ``replacement``.

    ``applicability`` is ``safe`` when the simulator proved that the inner
    shell then receives exactly what the author meant, ``unsafe`` when the
    meaning may change. ``payload`` is False for a fix that is no text edit
    (there is none to apply), with ``description`` saying why.
    """

    start: int
    end: int
    replacement: str
    applicability: str
    description: str

    def __post_init__(self):
        if self.applicability not in APPLICABILITY:
            raise ValueError(f"applicability must be safe or unsafe, not {self.applicability!r}")

    def as_dict(self) -> dict:
        return {"start": self.start, "end": self.end, "replacement": self.replacement,
                "applicability": self.applicability, "description": self.description}


@dataclass(frozen=True)
class Finding:
    """A nesting hazard at one span of one input.

    ``start``/``end`` are character offsets into the linted text,
    ``byte_start``/``byte_end`` the same span in its UTF-8 bytes; ``line``,
    ``column``, ``end_line``, ``end_column`` are 1-based, in characters, the
    end column exclusive. ``layers`` names each nested invocation from the
    outside in; ``transport`` is set for a reply linted against a transport,
    ``reply_id`` and ``record_line`` for one read from a replies file.
    ``no_fix`` says why there is no fix when one was looked for;
    ``inner_script`` is what the simulator predicts the inner shell receives.
    """

    code: str
    name: str
    severity: str
    message: str
    path: str
    start: int
    end: int
    byte_start: int
    byte_end: int
    line: int
    column: int
    end_line: int
    end_column: int
    layers: tuple = ()
    transport: Optional[str] = None
    fix: Optional[Fix] = None
    no_fix: Optional[str] = None
    reply_id: Optional[str] = None
    record_line: Optional[int] = None
    inner_script: Optional[str] = None  # what the simulator says the inner shell receives

    def __post_init__(self):
        severity_rank(self.severity)

    @property
    def layer_path(self) -> str:
        return " > ".join(self.layers)

    def sort_key(self):
        return (self.path, self.record_line or 0, self.line, self.column, self.code, self.transport or "")

    def as_dict(self) -> dict:
        found = {"code": self.code, "name": self.name, "severity": self.severity, "message": self.message,
                 "file": self.path, "line": self.line, "column": self.column, "end_line": self.end_line,
                 "end_column": self.end_column, "start": self.start, "end": self.end,
                 "byte_start": self.byte_start, "byte_end": self.byte_end, "layers": list(self.layers),
                 "transport": self.transport, "fix": self.fix.as_dict() if self.fix else None}
        if self.no_fix:
            found["no_fix"] = self.no_fix
        if self.inner_script is not None:
            found["inner_script"] = self.inner_script
        if self.reply_id is not None:
            found["reply_id"] = self.reply_id
            found["record_line"] = self.record_line
        return found


class SourceText:
    """A linted text with the conversions between characters, bytes and lines."""

    __slots__ = ("path", "text", "_line_starts", "_ascii", "_raw")

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self._ascii = text.isascii()
        self._raw = None
        starts = [0]
        find = text.find
        at = find("\n")
        while at != -1:
            starts.append(at + 1)
            at = find("\n", at + 1)
        self._line_starts = starts

    def raw(self) -> bytes:
        if self._raw is None:
            self._raw = self.text.encode("utf-8", "surrogateescape")
        return self._raw

    def char_of_byte(self, offset: int) -> int:
        if self._ascii:
            return offset
        return len(self.raw()[:max(0, offset)].decode("utf-8", "surrogateescape"))

    def byte_of_char(self, offset: int) -> int:
        if self._ascii:
            return offset
        return len(self.text[:offset].encode("utf-8", "surrogateescape"))

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column), 1-based, of a character offset."""
        from bisect import bisect_right

        line = bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end == -1 else self.text[start:end]

    def finding(self, rule, start: int, end: int, message: str, *, severity: Optional[str] = None,
                layers: tuple = (), transport: Optional[str] = None, fix: Optional[Fix] = None,
                no_fix: Optional[str] = None, reply_id=None, record_line=None,
                inner_script: Optional[str] = None) -> Finding:
        """A Finding of ``rule`` for the characters ``start:end`` of this text."""
        start = max(0, min(start, len(self.text)))
        end = max(start, min(end, len(self.text)))
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Finding(rule.code, rule.name, severity or rule.severity, message, self.path, start, end,
                       self.byte_of_char(start), self.byte_of_char(end), line, column, end_line, end_column,
                       tuple(layers), transport, fix, no_fix, reply_id, record_line, inner_script)
