"""What a command model receives and returns: plain data, so models stay pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .vfs import VirtualTree

__all__ = ["CommandContext", "CommandResult", "Environ", "OwnOutput", "STDIN_NAMES", "unknown"]


class Environ(Mapping):
    """The environment a utility starts with, over the shell's exported variables.

    A value is read from its variable only when the utility asks for it, so a
    cache of runs that watches which variables a run read (qbcore.model.effects)
    learns that ``python3 -c 'import os; os.environ["N"]'`` read ``N`` and no
    other; listing the names reads no value. A variable whose class says
    ``text_known`` holds plain text, so it is never a hidden value.
    """

    __slots__ = ("_variables",)

    def __init__(self, variables: Mapping):
        self._variables = variables

    def __getitem__(self, name):
        return self._variables[name].value

    def __iter__(self):
        return iter(self._variables)

    def __len__(self) -> int:
        return len(self._variables)

    def __contains__(self, name) -> bool:
        return name in self._variables

    def hidden(self, unknown) -> list:
        """The names whose values are not plain text (``unknown(value)`` says so), sorted."""
        return sorted(name for name, var in self._variables.items()
                      if not getattr(var, "text_known", False) and unknown(var.value))

    def variables(self) -> Mapping:
        """The variables themselves, their values unread: for a caller that passes them on and
        tells the watchers afterwards which were read (a child bash)."""
        return self._variables

    def quiet(self) -> dict:
        """Every name and value, read without telling any watcher: for a program that is
        known never to look at its environment, yet carries it."""
        return {name: var.peek() if getattr(var, "text_known", False) else var.value
                for name, var in self._variables.items()}


@dataclass(frozen=True)
class OwnOutput:
    """The regular file a utility's stdout goes to: its ``path``, whether its stderr goes there
    too (``with_stderr``), and whether its stdin was opened on it (``on_stdin``). A reader that
    writes as it reads may meet its own output there (GNU cat refuses it)."""

    path: str
    with_stderr: bool
    on_stdin: bool


@dataclass
class CommandContext:
    """One invocation: ``argv[0]`` is the command name; ``tree`` is changed in place.
    ``stdin_unordered``: stdin's lines are known, not their order (find's output); only a
    model that says it takes such input (xargs) is given it. ``bash``: where the shell model
    runs this one, how a child ``bash -c`` it starts runs (``bash(argv, stdin, cwd, env,
    tree, stream=None) -> CommandResult``, ``stream`` a stdin stream of the shell's to read
    instead of ``stdin``; effects.EffectWalker.utility_bash), else None. ``output``: the
    regular file its stdout goes to (OwnOutput), for a utility that writes as it reads (cat);
    None otherwise. ``stdin_regular``: whether stdin reads a regular file from its start (its
    size the bytes it holds), as fstat tells a utility (wc pads its counts otherwise); None
    where that is not known."""

    argv: list
    stdin: bytes
    cwd: str
    env: dict
    tree: VirtualTree = field(repr=False)
    stdin_unordered: bool = False
    bash: object = field(default=None, repr=False, compare=False)
    output: OwnOutput | None = field(default=None, repr=False, compare=False)
    stdin_regular: bool | None = field(default=None, compare=False)

    @property
    def files(self) -> VirtualTree:
        """The tree seen from ``cwd`` (relative paths resolve there)."""
        return self.tree.at(self.cwd)


@dataclass
class CommandResult:
    """Exit status and output; when ``unknown`` is set it names what was not modelled
    and the other fields mean nothing. ``status_unknown`` and ``stdout_unknown`` name one
    part that is not known while the files are; ``stderr_unknown``: stderr holds more than
    ``stderr`` (which starts it, or is empty), named there. ``stdout_unordered``: stdout's
    lines are known, not their order (named there); ``stdout`` holds one order. ``merged``:
    stdout and stderr as they read where both go to one place (a file, a pipe), None when the
    model does not follow their order; it means nothing where either is not wholly known."""

    status: int
    stdout: bytes = b""
    stderr: bytes = b""
    unknown: str | None = None
    status_unknown: str | None = None
    stdout_unknown: str | None = None
    stderr_unknown: str | None = None
    stdout_unordered: str | None = None
    merged: bytes | None = None


def unknown(what: str) -> CommandResult:
    """A result saying the model does not cover ``what``."""
    return CommandResult(status=0, stdout=b"", stderr=b"", unknown=what)


# A model that goes through things in an order it does not know (a directory listing, a
# hash table's keys) runs in one order, then again in each of these: reversed, and rotated
# by one (a program that takes an item by its place gets another one).
OTHER_ORDERS = ("reverse", "rotate")

#: the names by which a program opens its own stdin again: a pipe's bytes from where stdin
#: stands, or a regular file from its start (CommandContext.stdin_regular says which)
STDIN_NAMES = ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


def in_order(items: list, turn: str) -> list:
    """``items`` in the run's ``turn``: as given, or one of OTHER_ORDERS."""
    if turn == "reverse":
        return items[::-1]
    if turn == "rotate":
        return items[1:] + items[:1]
    return items


def mark_other_order(result: CommandResult, again: CommandResult, why: str) -> None:
    """What a run in another order (``again``) changed, marked in ``result``; the caller has
    already refused a change of files or of stderr. A status that differs is unknown; stdout
    that differs is lines in no known order when it holds the same lines, else unknown."""
    if again.status != result.status:
        result.status_unknown = why
    if again.stdout != result.stdout and result.stdout_unknown is None:
        if sorted(again.stdout.split(b"\n")) == sorted(result.stdout.split(b"\n")):
            result.stdout_unordered = why
        else:
            result.stdout_unordered, result.stdout_unknown = None, why
