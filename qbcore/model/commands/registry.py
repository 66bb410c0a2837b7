"""The table of command models and what one receives and returns.

``lookup(name)`` gives the model of a command: a builtin registered by one of
the domain modules, or the fallback for commands the model does not run
(their effects become unknown, never guessed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol, Union

from ..expand import Env, Opaque

__all__ = ["Outcome", "Invocation", "Shell", "register", "lookup", "said", "BUILTINS", "MODELLED", "SEVERAL_MESSAGES"]


@dataclass(frozen=True)
class Outcome:
    """What running one command did.

    ``status`` the exit status; ``stdout`` what it wrote to its stdout (text,
    an Opaque when unknown, None for nothing); ``error`` bash's message on
    stderr (without the ``bash: line N:`` prefix); ``stderr`` what a utility
    itself wrote there, whole; ``modelled`` is False when
    the command's effects are not known (then ``unknown`` says why);
    ``transfer`` is the exit, break or return the walker performs once the
    command is recorded.
    """

    status: Union[int, Opaque]
    stdout: Union[str, Opaque, None] = None
    error: Optional[str] = None
    modelled: bool = True
    stderr: Optional[str] = None
    transfer: Optional[BaseException] = field(default=None, compare=False)
    #: bash wrote ``error`` before ``stdout`` (printf: its messages as it meets them, its output
    #: when it ends): where both reach one place, the walker does not follow their order
    error_first: bool = field(default=False, compare=False)
    #: a utility's ``stdout`` and ``stderr`` as they read where both reach one place, when its
    #: model follows their order (CommandResult.merged); None when it does not
    merged: Optional[str] = field(default=None, compare=False)

    @property
    def unknown(self) -> Optional[str]:
        """Why the outcome is not known, or None when it is."""
        if self.modelled:
            return None
        for part in (self.status, self.stdout):
            if isinstance(part, Opaque):
                return part.name
        return "the command's effects"


#: how the ``error`` of a builtin that said several messages starts: the walker spells none of
#: them (each line has bash's prefix of its own, which it adds to one)
SEVERAL_MESSAGES = "several messages of "


def said(name: str, messages: list) -> Optional[str]:
    """The ``error`` of the builtin ``name`` that said each of ``messages`` (without bash's
    prefix): None, the one message, or several not spelled (SEVERAL_MESSAGES)."""
    if len(messages) < 2:
        return messages[0] if messages else None
    return f"{SEVERAL_MESSAGES}{name} ({messages[0]}, …)"


class Shell(Protocol):
    """What a command model may ask of the shell running it (the evaluator's walker)."""

    in_condition: bool
    scope: object  # the Scope of the function running, or None at top level
    certain: bool

    def note(self, names) -> None:
        """Name parts of the evaluation that are not statically known."""

    def text(self, node) -> str:
        """The source text of a syntax node."""

    def run(self, name: str, argv: list, node, stdout_away: bool, own_stdout: bool = False) -> Outcome:
        """Dispatch a command (functions first, then the registry)."""

    def run_script(self, script) -> None:
        """Run a parsed script here, in the current scope (``eval``)."""

    def run_body(self, body, scope, stdout_away: bool, own_stdout: bool) -> Union[int, Opaque]:
        """Run a function body in a new scope; its status."""

    def run_sourced(self, script, name: str) -> Union[int, Opaque]:
        """Run a sourced file's parsed script here, in the current scope (``source``); its status."""


@dataclass
class Invocation:
    """One command as a model receives it.

    ``argv[0]`` is the name; ``env`` the shell state (variables, options, the
    file view ``env.files``), changed in place; ``stdin`` the bytes on its
    stdin, or None when the model does not know them (the walker does not
    follow pipes); ``stdout_away`` when its stdout does not reach the
    shell's; ``own_stdout`` when the command itself redirects stdout;
    ``input`` the stream on its stdin that a builtin reading a line at a time
    takes from (``read``), when the walker follows one, else None;
    ``stdin_unordered`` when stdin's lines are known but not their order;
    ``output`` the regular file its stdout goes to (utilities.context.OwnOutput), for a
    utility that writes as it reads (cat), else None.
    """

    argv: list
    env: Env
    shell: Shell = field(repr=False)
    node: object = field(repr=False)
    stdout_away: bool = False
    own_stdout: bool = False
    stdin: Optional[bytes] = None
    input: Optional["LineInput"] = None
    stdin_unordered: bool = False
    output: object = None

    def __init__(self, argv: list, env: Env, shell: Shell, node: object, stdout_away: bool = False,
                 own_stdout: bool = False, stdin: Optional[bytes] = None):
        # written out (the dataclass keeps it): one is made per command, and a generated
        # __init__ would run as interpreted code in the compiled build
        self.argv = argv
        self.env = env
        self.shell = shell
        self.node = node
        self.stdout_away = stdout_away
        self.own_stdout = own_stdout
        self.stdin = stdin
        self.input = None
        self.stdin_unordered = False
        self.output = None

    @property
    def name(self) -> str:
        return self.argv[0]

    @property
    def args(self) -> list:
        return self.argv[1:]

    @property
    def files(self):
        """The file view commands read and change."""
        return self.env.files

    def note(self, names) -> None:
        self.shell.note(names)

    def source(self) -> str:
        """The command as written."""
        return self.shell.text(self.node)


class LineInput(Protocol):
    """A descriptor's bytes as the builtins that read a line at a time take them."""

    why: str  # why its bytes are not known, when they are not

    def read_until(self, delim: bytes) -> Optional[tuple]:
        """``(bytes up to and without delim, whether delim ended them)``, taken; None when unknown."""

    def take(self) -> Optional[bytes]:
        """All the bytes left, taken; None when unknown."""

    def spoil(self) -> None:
        """An unknown share of the bytes was taken: what is left is unknown."""


Model = Callable[[Invocation], Outcome]

# name -> model; the key None holds the fallback for commands not modelled
BUILTINS: dict = {}
# builtins whose whole effect the model knows once their arguments are known
MODELLED: set = set()


def register(*names: Optional[str], modelled: bool = True):
    """Register the decorated model under ``names`` (None: the fallback); ``modelled``
    says the model knows the builtin's whole effect whenever its arguments are known."""

    def add(model: Model) -> Model:
        for name in names:
            BUILTINS[name] = model
            if modelled and name is not None:
                MODELLED.add(name)
        return model

    return add


def lookup(name: str) -> Model:
    """The model of ``name``: its entry, or the fallback for a command not modelled."""
    return BUILTINS.get(name) or BUILTINS[None]
