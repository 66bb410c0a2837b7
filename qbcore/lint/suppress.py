"""`# qbcore: disable=CODES` comments: which findings they silence, and which silence nothing.

A comment alone on a line silences the listed codes (or code prefixes) in
the command that starts on the next line; placed before the first command
of the text and parted from it by a blank line, it silences them in the
whole text. Rules never see these
comments: the engine filters their findings here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..syntax.parser import ListItem
from .findings import SourceText

_DIRECTIVE = re.compile(r"#\s*qbcore:\s*disable\s*=\s*([A-Za-z0-9]+(?:\s*,\s*[A-Za-z0-9]+)*)")


@dataclass
class Directive:
    codes: tuple
    first_line: int
    last_line: int
    start: int  # character span of the directive in the text
    end: int
    used: set = field(default_factory=set)

    def covers(self, finding) -> str | None:
        if not self.first_line <= finding.line <= self.last_line:
            return None
        return next((c for c in self.codes if c == "ALL" or finding.code.startswith(c)), None)


def directives(source: SourceText) -> list:
    """The suppression comments of a text, each with the lines it covers."""
    text = source.text
    if "qbcore:" not in text:
        return []
    lines = text.split("\n")
    extents = _command_extents(text, source)
    first_command = min((start for start, _ in extents), default=len(lines) + 1)
    found = []
    offset = 0
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        match = _DIRECTIVE.search(line) if stripped.startswith("#") else None
        if match:
            codes = tuple(c.strip().upper() for c in match.group(1).split(","))
            start, end = offset + match.start(), offset + match.end()
            blank_before_command = any(not lines[n - 1].strip() for n in range(number + 1, first_command))
            if number < first_command and blank_before_command:
                found.append(Directive(codes, 1, len(lines), start, end))
            else:
                following = next((n for n in range(number + 1, len(lines) + 1)
                                  if lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#")), None)
                if following is not None:
                    last = max((stop for begin, stop in extents if begin == following), default=following)
                    found.append(Directive(codes, following, last, start, end))
                else:
                    found.append(Directive(codes, 0, -1, start, end))
        offset += len(line) + 1
    return found


def _command_extents(text, source):
    """(first line, last line) of every command list item, at every depth."""
    from .outer import parse

    tree, remap = parse(text)
    extents = []

    def walk(node):
        if isinstance(node, ListItem):
            first = source.position(source.char_of_byte(remap(node.start)))[0]
            last = source.position(source.char_of_byte(remap(max(node.start, node.end - 1))))[0]
            extents.append((first, last))
        if isinstance(node, (list, tuple)):
            for child in node:
                walk(child)
        elif hasattr(node, "__dataclass_fields__"):
            for name in node.__dataclass_fields__:
                child = getattr(node, name, None)
                if isinstance(child, (list, tuple)) or hasattr(child, "__dataclass_fields__"):
                    walk(child)

    walk(tree.chunks)
    if tree.error is not None:
        line = tree.error.line
        extents.append((line, line))
    return extents


def apply(findings: list, source: SourceText, found_directives=None) -> tuple[list, list]:
    """(the findings no directive silences, the directives with the codes that silenced nothing)."""
    found_directives = directives(source) if found_directives is None else found_directives
    if not found_directives:
        return findings, []
    kept = []
    for f in findings:
        silenced = False
        for d in found_directives:
            code = d.covers(f)
            if code is not None:
                d.used.add(code)
                silenced = True
        if not silenced:
            kept.append(f)
    unused = [(d, [c for c in d.codes if c not in d.used]) for d in found_directives]
    return kept, [(d, codes) for d, codes in unused if codes]
