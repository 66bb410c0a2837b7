"""Reading the lexer corpora in tests/support/corpus/ (agent commands, scripts, malformed input)."""

import json
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"


def agent_commands():
    """The agent-style commands: one a line, a trailing backslash continues onto the next line."""
    commands, pending = [], None
    for line in (CORPUS / "agent_commands.txt").read_text(encoding="utf-8").splitlines():
        if pending is None and (not line or line.startswith("#")):
            continue
        if line.endswith("\\") and not line.endswith("\\\\"):
            pending = (pending or "") + line[:-1] + "\n"
            continue
        commands.append((pending or "") + line)
        pending = None
    return commands


def scripts():
    """{name: bytes} of the real-world-style scripts."""
    return {path.name: path.read_bytes() for path in sorted((CORPUS / "scripts").iterdir())}


def malformed():
    """Tricky, unterminated and malformed sources (JSON strings, one a line)."""
    with open(CORPUS / "malformed.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
