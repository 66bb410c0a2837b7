"""Nesting lint: hazards in the strings another shell will parse, with fixes the simulator proves.

``lint_reply`` checks a reply against the transports that will carry it;
``lint_text`` checks a script or command for the nested invocations it holds.
"""

from .config import Settings
from .engine import lint_reply, lint_text
from .findings import Finding, Fix, SourceText
from .rules import REGISTRY

__all__ = ["Settings", "lint_reply", "lint_text", "Finding", "Fix", "SourceText", "REGISTRY"]
