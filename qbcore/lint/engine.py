"""Running the rules over layers and turning their hits into findings, one text at a time.

Selection, severity filtering and suppression comments are applied here, in
one place, so a rule only ever says what it sees.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Optional

from . import suppress
from .config import Settings
from .findings import SourceText
from .rules import Event, Layer, rules_for


def findings_of(layer: Layer, source: SourceText, settings: Settings, *, reply_id=None, record_line=None) -> list:
    """The findings of every enabled rule on one layer."""
    found = []
    for rule in rules_for(frozenset(e.kind for e in layer.events)):
        if not settings.enabled(rule.code):
            continue
        for hit in rule.check(layer):
            severity = hit.severity or rule.severity
            if not settings.reports(severity):
                continue
            found.append(source.finding(rule, hit.start, hit.end, hit.message, severity=severity,
                                        layers=layer.layers, transport=layer.transport,
                                        fix=hit.fix or layer.fix, no_fix=None if (hit.fix or layer.fix) else layer.no_fix,
                                        reply_id=reply_id, record_line=record_line,
                                        inner_script=layer.inner_script))
    return found


def _finish(findings: list, source: SourceText, settings: Settings, *, reply_id=None, record_line=None) -> list:
    kept, unused = suppress.apply(findings, source)
    if settings.enabled("QB001"):
        for directive, codes in unused:
            layer = Layer("script", [Event("unused-suppression", directive.start, directive.end,
                                           {"code": ",".join(codes)})])
            kept += findings_of(layer, source, settings, reply_id=reply_id, record_line=record_line)
    return sorted(kept, key=lambda f: f.sort_key())


@lru_cache(maxsize=1 << 16)
def reply_layer(reply: str, transport: str):
    """The layer of one reply under one transport; stored replies repeat across trials and
    models, so a batch computes each distinct (reply, transport) once."""
    from .replies import layer_for

    return layer_for(reply, transport)


def lint_reply(reply: str, transports: Iterable[str], settings: Settings = Settings(), *, path: str = "-",
               reply_id: Optional[str] = None, record_line: Optional[int] = None) -> list:
    """Mode 1: the damage each transport does to ``reply``, with the escaped payload as fix."""
    source = SourceText(path, reply)
    found = []
    for transport in transports:
        layer = reply_layer(reply, transport)
        if layer is not None:
            found += findings_of(layer, source, settings, reply_id=reply_id, record_line=record_line)
    return _finish(found, source, settings, reply_id=reply_id, record_line=record_line)


def lint_text(text: str, path: str = "-", settings: Settings = Settings(), *, depth: int = 3) -> list:
    """Mode 2: the nested invocations a script or command holds, linted layer by layer."""
    from .scripts import layers_of

    source = SourceText(path, text)
    found = []
    for layer in layers_of(text, depth=depth):
        found += findings_of(layer, source, settings)
    return _finish(found, source, settings)
