"""How ssh reads its arguments: the destination, the remote command it joins, ``-n``, usage errors.

One job, below the transports (which wrap replies in ssh) and the effect
model (which runs the stand-in ssh over a virtual tree): both read an ssh
argv the same way, as OpenSSH and the stand-in (realbash/standins/ssh) do.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SshCall", "ssh_call"]

_SSH_WITH_ARGUMENT = "BbcDEeFIiJLlmOoPpQRSWw"
_SSH_FLAGS = "1246AaCfGgKkMNnqsTtVvXxYy"


@dataclass(frozen=True)
class SshCall:
    """What ssh (and the stand-in) does with its arguments.

    ``command`` is the remote command (the arguments after the destination
    joined with single spaces; None when nothing runs remotely), ``error`` a
    usage error (status 255, nothing runs), ``null_stdin`` for ``-n``.
    """

    host: str | None
    command: str | None
    null_stdin: bool = False
    error: str | None = None


def ssh_call(args: "list[str] | tuple[str, ...]") -> SshCall:
    """Read ssh's arguments as OpenSSH does: options before and after the
    destination until the first other word or ``--`` (mirrors standins/ssh)."""
    host, null_stdin, no_command, i = None, False, False, 0
    args = list(args)
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            if host is None and i < len(args):
                host, i = args[i], i + 1
            break
        if not (word.startswith("-") and len(word) > 1):
            if host is not None:
                break
            host, i = word, i + 1
            continue
        i += 1
        for n, c in enumerate(word[1:], 1):
            if c in _SSH_WITH_ARGUMENT:
                if n + 1 == len(word):
                    if i >= len(args):
                        return SshCall(host, None, null_stdin, f"option requires an argument -- {c}")
                    i += 1
                break
            if c not in _SSH_FLAGS:
                return SshCall(host, None, null_stdin, f"unknown option -- {c}")
            if c == "V":
                return SshCall(host, None, null_stdin)
            if c == "N":
                no_command = True
            if c == "n":
                null_stdin = True
    if host is None:
        return SshCall(None, None, null_stdin, "no destination")
    return SshCall(host, None if no_command else " ".join(args[i:]), null_stdin)
