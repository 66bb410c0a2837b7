"""The environment a reply's command runs with, defined once: the QuoteBench harness's own.

The executor starts the command with exactly this, the probe records under
it and the model's expansion assumes it, so all three see the same
``$PATH``, ``$HOME`` and locale (``LC_ALL=C``: bytes, C collation).
"""

from __future__ import annotations

__all__ = ["COMMAND_PATH", "command_environ"]

COMMAND_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"


def command_environ(home: str) -> dict[str, str]:
    """The variables the command starts with; ``home`` is the task directory it runs in."""
    return {"PATH": COMMAND_PATH, "HOME": home, "LC_ALL": "C", "LANG": "C", "TERM": "dumb",
            "GIT_CONFIG_NOSYSTEM": "1"}
