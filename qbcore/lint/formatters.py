"""Formatters for findings, all behind one interface: start, handle each finding, stop.

text (source line and caret), gcc, json, sarif (2.1.0 as GitHub code scanning
reads it), github (workflow commands with the toolkit's escaping) and diff
(the fixes as a unified diff that `git apply` takes).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os

from .findings import Finding
from .rules import REGISTRY

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note", "style": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice", "style": "notice"}


class Formatter:
    """Collects findings for one run and renders them; ``sources`` maps a path to its SourceText."""

    def __init__(self, stream, sources=None, *, unsafe_fixes: bool = False):
        self.stream = stream
        self.sources = sources if sources is not None else {}
        self.unsafe_fixes = unsafe_fixes

    def start(self):
        pass

    def handle(self, finding: Finding):
        raise NotImplementedError

    def stop(self):
        pass


def _where(f: Finding) -> str:
    at = f"{f.path}:{f.record_line}" if f.record_line is not None else f"{f.path}:{f.line}"
    return at


class TextFormatter(Formatter):
    def handle(self, f):
        head = f"{f.path}:{f.line}:{f.column}" if f.reply_id is None else \
            f"{f.path}:{f.record_line}: reply {f.reply_id} {f.line}:{f.column}"
        layers = f" [{f.layer_path}]" if f.layers else ""
        self.stream.write(f"{head}: {f.severity} {f.code} {f.message}{layers}\n")
        source = self.sources.get((f.path, f.reply_id))
        if source is not None:
            line = source.line_text(f.line)
            width = (f.end_column - f.column) if f.end_line == f.line else len(line) - f.column + 1
            self.stream.write(f"  {line}\n  {' ' * (f.column - 1)}{'^' * max(1, width)}\n")
        if f.inner_script is not None:
            shown = f.inner_script if len(f.inner_script) < 300 else f.inner_script[:300] + "…"
            unset = "" if f.transport else " (the outer shell's variables taken as unset)"
            self.stream.write(f"  the inner shell receives{unset}: {shown!r}\n")
        if f.fix is not None:
            shown = f.fix.replacement if len(f.fix.replacement) < 300 else f.fix.replacement[:300] + "…"
            self.stream.write(f"  fix ({f.fix.applicability}): {f.fix.description}\n    {shown}\n")
        elif f.no_fix:
            self.stream.write(f"  no fix: {f.no_fix}\n")


class GccFormatter(Formatter):
    def handle(self, f):
        line = f.record_line if f.record_line is not None else f.line
        column = 1 if f.record_line is not None else f.column
        where = (f" (reply {f.reply_id}, {f.transport})" if f.reply_id is not None else
                 f" ({f.transport})" if f.transport else "")
        self.stream.write(f"{f.path}:{line}:{column}: {f.severity}: {f.message}{where} [{f.code}]\n")


class JsonFormatter(Formatter):
    def start(self):
        self.found = []

    def handle(self, f):
        self.found.append(f.as_dict())

    def stop(self):
        json.dump({"findings": self.found}, self.stream, ensure_ascii=False, indent=2)
        self.stream.write("\n")


def _uri(path: str) -> str:
    if path in ("-", "<command>"):
        return path
    rel = os.path.relpath(os.path.abspath(path)) if os.path.isabs(path) else os.path.normpath(path)
    return rel.replace(os.sep, "/")


class SarifFormatter(Formatter):
    def start(self):
        self.results = []
        self.used = {}

    def handle(self, f):
        rule_index = self.used.setdefault(f.code, len(self.used))
        line = f.record_line if f.record_line is not None else f.line
        region = ({"startLine": line} if f.record_line is not None else
                  {"startLine": f.line, "startColumn": f.column, "endLine": f.end_line, "endColumn": f.end_column})
        text = f.message + (f" [{f.layer_path}]" if f.layers else "")
        fingerprint = hashlib.sha256("\0".join(
            [f.code, _uri(f.path), f.layer_path, f.reply_id or "", f.transport or "", f.message]).encode(
            "utf-8", "surrogateescape")).hexdigest()
        result = {"ruleId": f.code, "ruleIndex": rule_index, "level": _SARIF_LEVEL[f.severity],
                  "message": {"text": text},
                  "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(f.path),
                                                                            "uriBaseId": "%SRCROOT%"},
                                                      "region": region}}],
                  "partialFingerprints": {"qbcoreFinding/v1": fingerprint}}
        if f.fix is not None:
            result["properties"] = {"fix": f.fix.as_dict()}
        self.results.append(result)

    def stop(self):
        from .. import __version__

        rules = []
        for code in sorted(self.used, key=self.used.get):
            r = REGISTRY[code]
            rules.append({"id": r.code, "name": r.name, "shortDescription": {"text": r.summary},
                          "fullDescription": {"text": r.rationale},
                          "help": {"text": r.explain()},
                          "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]}})
        document = {"$schema": SARIF_SCHEMA, "version": "2.1.0",
                    "runs": [{"tool": {"driver": {"name": "qbcore", "version": __version__,
                                                  "informationUri": "https://github.com/qbcore/qbcore",
                                                  "rules": rules}},
                              "results": self.results}]}
        json.dump(document, self.stream, ensure_ascii=False, indent=2)
        self.stream.write("\n")


def github_escape_data(text: str) -> str:
    """The toolkit's escaping of a workflow command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    """The toolkit's escaping of a workflow command's property value."""
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubFormatter(Formatter):
    def handle(self, f):
        line = f.record_line if f.record_line is not None else f.line
        props = [f"file={github_escape_property(_uri(f.path))}", f"line={line}"]
        if f.record_line is None:
            props += [f"col={f.column}", f"endLine={f.end_line}", f"endColumn={f.end_column}"]
        props.append(f"title={github_escape_property(f'{f.code} {f.name}')}")
        message = f.message + (f" [{f.layer_path}]" if f.layers else "")
        self.stream.write(f"::{_GITHUB_LEVEL[f.severity]} {','.join(props)}::{github_escape_data(message)}\n")


class DiffFormatter(Formatter):
    """The applicable fixes of each file as one unified diff (``git apply`` takes it)."""

    def start(self):
        self.by_path = {}

    def handle(self, f):
        if f.reply_id is None:
            self.by_path.setdefault(f.path, []).append(f)

    def stop(self):
        from .fixes import apply_fixes

        for path in sorted(self.by_path):
            source = self.sources.get((path, None))
            if source is None or path in ("-", "<command>"):
                continue
            fixed, applied = apply_fixes(source.text, self.by_path[path], unsafe=self.unsafe_fixes)
            if not applied:
                continue
            name = _uri(path)
            diff = difflib.unified_diff(source.text.splitlines(keepends=True), fixed.splitlines(keepends=True),
                                        f"a/{name}", f"b/{name}")
            for line in diff:
                self.stream.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")


FORMATTERS = {"text": TextFormatter, "gcc": GccFormatter, "json": JsonFormatter, "sarif": SarifFormatter,
              "github": GithubFormatter, "diff": DiffFormatter}
