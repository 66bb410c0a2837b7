"""How a harness carries a reply to a shell: one Transport per harness layer.

``wrap(R, T)`` builds exactly what the harness executes for reply R;
``escape(R, T)`` builds the payload P whose wrapping delivers R byte for byte
to the inner shell. Everything here is plain data and string work: nothing is
run, so the executor, the probe and the simulator share one definition.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ..model.sshcall import SshCall, ssh_call
from .quickpath import shlex_words

__all__ = [
    "HOST", "HEREDOC_DELIMITER", "HEREDOC_COMMAND", "SCRIPT_PATH", "TRANSPORTS", "NAMES",
    "Transport", "Invocation", "HarnessError", "ContractError", "SplitError",
    "get", "wrap", "escape", "standins_dir", "standin", "SshCall", "ssh_call", "bash_c_script",
    "json_naive_value", "ssh_argv_words",
]

HOST = "qbhost"
HEREDOC_DELIMITER = "EOF"
# heredoc-ssh's first line: the command that reads the reply as its here-document
HEREDOC_COMMAND = f"ssh {HOST} bash <<{HEREDOC_DELIMITER}"
# A fixed name: the sandbox gives every attempt a private /tmp, and a stable
# path keeps `$0` of the script transport predictable.
SCRIPT_PATH = "/tmp/qbcore-reply.sh"


@dataclass(frozen=True)
class Transport:
    """One harness layer.

    ``outer`` names who parses the text before the inner shell sees it:
    ``none`` (the reply is handed over as it is), ``bash`` (one bash parse),
    ``bash-twice`` (two nested bash parses), ``shlex`` (Python's
    ``shlex.split``) or ``json`` (a strict JSON parser). ``inner`` says how the
    inner shell gets its script: ``argv`` (``bash -c SCRIPT``), ``stdin`` or
    ``file``. ``remote`` is true when ssh sits between the layers.
    """

    name: str
    harness: str
    outer: str
    inner: str
    remote: bool = False

    @property
    def adds_final_newline(self) -> bool:
        """The inner shell reads the reply plus a newline (stdin-fed transports)."""
        return self.inner == "stdin"


_ALL = (
    Transport("raw", "argv `bash -c R`", "none", "argv"),
    Transport("nested", "argv `bash -c 'bash -c \"R\"'`: R spliced unescaped into double quotes",
              "bash", "argv"),
    Transport("single", "argv `bash -c \"bash -c 'R'\"`: R spliced unescaped into single quotes",
              "bash", "argv"),
    Transport("double-nested", "the text `bash -c \"bash -c \\\"R\\\"\"` run by bash: two double-quoted layers",
              "bash-twice", "argv"),
    Transport("ssh", f"the text `ssh {HOST} \"R\"` run by bash; ssh joins its arguments after the host "
              "with spaces and the remote shell runs `bash -c JOINED`", "bash", "argv", remote=True),
    Transport("ssh-argv", f"R split into words by Python's `shlex.split`, then argv `ssh {HOST} WORD...`; "
              "ssh joins the words with spaces and the remote shell reparses them", "shlex", "argv", remote=True),
    Transport("heredoc-ssh", f"the text `ssh {HOST} bash <<{HEREDOC_DELIMITER}` + newline + R + newline + "
              f"`{HEREDOC_DELIMITER}` run by bash (unquoted delimiter: the local shell expands the body)",
              "bash", "stdin", remote=True),
    Transport("json-naive", "the text `{\"command\": \"` + R + `\"}` parsed by a strict JSON parser, "
              "then argv `bash -c VALUE`", "json", "argv"),
    Transport("json", "a correct JSON serializer, then argv `bash -c R`", "none", "argv"),
    Transport("script", f"R written to {SCRIPT_PATH}, then argv `bash {SCRIPT_PATH}`", "none", "file"),
    Transport("stdin", "R and a final newline piped to argv `bash -s`", "none", "stdin"),
)

TRANSPORTS: Mapping[str, Transport] = MappingProxyType({t.name: t for t in _ALL})
NAMES: tuple[str, ...] = tuple(TRANSPORTS)


@dataclass(frozen=True)
class Invocation:
    """What a harness executes: ``argv`` (``bash``/``ssh`` resolved on PATH),
    bytes on ``stdin``, and ``files`` (absolute paths under /tmp) written first."""

    argv: tuple[str, ...]
    stdin: bytes | None = None
    files: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}))


class HarnessError(ValueError):
    """The harness cannot build a command from this reply; nothing is executed."""


class ContractError(HarnessError):
    """json-naive: the text a harness built is not the JSON object it promised."""


class SplitError(HarnessError):
    """ssh-argv: Python's ``shlex.split`` rejects the reply (e.g. an unbalanced quote)."""


def get(name: str) -> Transport:
    """The transport called ``name``; ValueError listing the valid names otherwise."""
    try:
        return TRANSPORTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown transport {name!r}; choose one of: {', '.join(NAMES)}") from None


def _encode(text: str) -> bytes:
    # surrogateescape keeps undecodable reply bytes as they were read
    return text.encode("utf-8", "surrogateescape")


def _check_no_nul(text: str, what: str) -> None:
    if "\0" in text:
        raise ValueError(f"{what} contains a NUL character at offset {text.index(chr(0))}: "
                         "no shell argument, file or pipe carries it through bash intact")
    try:
        _encode(text)
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} holds a lone surrogate at offset {exc.start} that stands for "
                         "no byte, so no harness can pass it on") from None


# --- the harness side -------------------------------------------------------

JSON_NAIVE_START, JSON_NAIVE_END = '{"command": "', '"}'


def invalid_json(message: str, offset: int) -> ContractError:
    """The harness's error for a JSON text a strict parser rejects (its message and offset)."""
    return ContractError(f"the JSON text is invalid: {message} at offset {offset}")


def json_naive_value(reply: str) -> str:
    """The command a json-naive harness extracts from ``{"command": "R"}``.

    Raises ContractError when a strict parser rejects the text or finds no
    string ``command`` in an object (duplicate keys: the last one wins).
    """
    text = JSON_NAIVE_START + reply + JSON_NAIVE_END
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise invalid_json(exc.msg, exc.pos) from None
    except RecursionError:
        raise ContractError("the JSON text nests too deeply to parse") from None
    if not isinstance(value, dict):
        raise ContractError(f"the JSON text is a {type(value).__name__}, not an object")
    if "command" not in value:
        raise ContractError("the JSON object has no \"command\" key")
    command = value["command"]
    if not isinstance(command, str):
        raise ContractError(f"\"command\" is a JSON {type(command).__name__}, not a string")
    if "\0" in command:
        raise ContractError("\"command\" contains a NUL character, which no argv can carry")
    try:
        _encode(command)
    except UnicodeEncodeError as exc:
        raise ContractError(f"\"command\" holds a lone surrogate (\\u{ord(command[exc.start]):04x}), "
                            "which no argv can carry") from None
    return command


def ssh_argv_words(reply: str) -> list[str]:
    """The words an ssh-argv harness passes after the host (``shlex.split``, comments off;
    its one-pass twin first, shlex itself for the error where that gives up)."""
    words = shlex_words(reply)
    if words is not None:
        return words
    try:
        return shlex.split(reply)
    except ValueError as exc:
        raise SplitError(f"shlex.split: {exc}") from None


def wrap(reply: str, transport: str) -> Invocation:
    """Exactly what the harness executes for ``reply`` under ``transport``.

    Raises ContractError (json-naive), SplitError (ssh-argv) when the harness
    itself fails, and ValueError for an unknown transport or a NUL character.
    """
    if not isinstance(reply, str):
        raise TypeError(f"reply must be str, not {type(reply).__name__}")
    name = get(transport).name
    if name == "json-naive":
        return Invocation(("bash", "-c", json_naive_value(reply)))
    _check_no_nul(reply, "the reply")
    if name in ("raw", "json"):
        return Invocation(("bash", "-c", reply))
    if name == "nested":
        return Invocation(("bash", "-c", 'bash -c "' + reply + '"'))
    if name == "single":
        return Invocation(("bash", "-c", "bash -c '" + reply + "'"))
    if name == "double-nested":
        return Invocation(("bash", "-c", 'bash -c "bash -c \\"' + reply + '\\""'))
    if name == "ssh":
        return Invocation(("bash", "-c", f'ssh {HOST} "' + reply + '"'))
    if name == "ssh-argv":
        return Invocation(("ssh", HOST, *ssh_argv_words(reply)))
    if name == "heredoc-ssh":
        return Invocation(("bash", "-c", HEREDOC_COMMAND + "\n" + reply + f"\n{HEREDOC_DELIMITER}\n"))
    if name == "script":
        return Invocation(("bash", SCRIPT_PATH), files=MappingProxyType({SCRIPT_PATH: _encode(reply)}))
    if name == "stdin":
        return Invocation(("bash", "-s"), stdin=_encode(reply + "\n"))
    raise AssertionError(f"transport {name} has no wrap rule")  # the table and this function disagree


# --- what the programs at the end of a layer make of their arguments ----------

def bash_c_script(args: "list[str] | tuple[str, ...]") -> "tuple[str, list[str]] | None":
    """``(script, [$0, $1, ...])`` for the arguments of ``bash -c SCRIPT ...``.

    None when bash would read the word after ``-c`` as options (it starts
    with ``-`` or ``+``): which script runs then is a question of bash's
    option parser, not of quoting.
    """
    if len(args) < 2 or args[0] != "-c" or args[1][:1] in ("-", "+"):
        return None
    return args[1], list(args[2:])


# --- the payload side -------------------------------------------------------

def _dq(text: str) -> str:
    """Text that bash's double quotes turn back into ``text``."""
    return (text.replace("\\", "\\\\").replace('"', '\\"')
            .replace("$", "\\$").replace("`", "\\`"))


def _heredoc_body(text: str) -> str:
    """Lines of an unquoted-delimiter heredoc that expand back to ``text``.

    A backslash is removed before ``$``, backtick and ``\\``; a line equal to the
    delimiter would end the document, so it gets an empty command
    substitution, which bash matches against the raw line but expands to
    nothing.
    """
    body = text.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`")
    d = HEREDOC_DELIMITER
    return "\n".join(f"{d[:-1]}$(){d[-1]}" if line == d else line for line in body.split("\n"))


def escape(reply: str, transport: str) -> str:
    """The payload P such that ``wrap(P, transport)`` delivers ``reply`` byte for byte.

    For heredoc-ssh and stdin the inner shell reads ``reply`` plus a final
    newline. Raises ValueError (with the reason) when no payload exists: a NUL
    character, which no argv, file or pipe through bash carries intact.
    """
    if not isinstance(reply, str):
        raise TypeError(f"reply must be str, not {type(reply).__name__}")
    name = get(transport).name
    _check_no_nul(reply, "the reply")
    if name in ("raw", "json", "script", "stdin"):
        return reply
    if name == "nested":
        return _dq(reply)
    if name == "single":
        return reply.replace("'", "'\\''")
    if name == "double-nested":
        return _dq(_dq(reply))
    if name == "ssh":
        # ssh reads options after the host too: `--` keeps a leading dash a command
        return ('--" "' if reply.startswith("-") else "") + _dq(reply)
    if name == "ssh-argv":
        return ("-- " if reply.startswith("-") else "") + shlex.quote(reply)
    if name == "heredoc-ssh":
        return _heredoc_body(reply)
    if name == "json-naive":
        return json.dumps(reply, ensure_ascii=False)[1:-1]
    raise AssertionError(f"transport {name} has no escape rule")


# --- stand-in programs ------------------------------------------------------

def standins_dir() -> str:
    """The directory holding the stand-in programs (``ssh``); put it first on PATH."""
    from importlib import resources  # pathlib is costly to import; only needed here

    return str(resources.files("qbcore.realbash") / "standins")


def standin(name: str) -> str:
    """Absolute path of one stand-in program, e.g. ``standin("ssh")``."""
    from importlib import resources

    path = resources.files("qbcore.realbash") / "standins" / name
    if not path.is_file():
        raise ValueError(f"no stand-in program called {name!r}")
    return str(path)
