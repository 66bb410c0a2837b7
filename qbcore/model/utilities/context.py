"""What a command model receives and returns: plain data, so models stay pure functions."""

from __future__ import annotations

from dataclasses import dataclass, field

from .vfs import VirtualTree

__all__ = ["CommandContext", "CommandResult", "unknown"]


@dataclass
class CommandContext:
    """One invocation: ``argv[0]`` is the command name; ``tree`` is changed in place."""

    argv: list
    stdin: bytes
    cwd: str
    env: dict
    tree: VirtualTree = field(repr=False)

    @property
    def files(self) -> VirtualTree:
        """The tree seen from ``cwd`` (relative paths resolve there)."""
        return self.tree.at(self.cwd)


@dataclass
class CommandResult:
    """Exit status and output; when ``unknown`` is set it names what was not modelled
    and the other fields mean nothing. ``status_unknown`` and ``stdout_unknown`` name one
    part that is not known while the files are; ``stderr_unknown``: stderr holds more than
    ``stderr`` (which starts it, or is empty), named there."""

    status: int
    stdout: bytes = b""
    stderr: bytes = b""
    unknown: str | None = None
    status_unknown: str | None = None
    stdout_unknown: str | None = None
    stderr_unknown: str | None = None


def unknown(what: str) -> CommandResult:
    """A result saying the model does not cover ``what``."""
    return CommandResult(status=0, stdout=b"", stderr=b"", unknown=what)
