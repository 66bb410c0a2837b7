"""``python3 -m json.tool`` (Python 3.11's): its command line read as its argparse parser
reads it, then its ``main`` as a program the interpreter runs over the tree with the json
module it models (read, check and print a JSON text, or its error as ``SystemExit``).

Followed: ``[infile [outfile]]`` with ``--sort-keys``, ``--no-ensure-ascii``, ``--indent N``,
``--tab``, ``--no-indent`` and ``--compact``. Other options (argparse also takes their
prefixes), ``--json-lines``, help, and argparse's own errors but an infile it cannot open
are not followed.
"""

from __future__ import annotations

import errno
import re

from qbcore.model.utilities.vfs import VfsError

from .signals import NotModelled

__all__ = ["json_tool"]

# the usage argparse prints when it refuses the command line, in 80 columns (no terminal, no COLUMNS)
_USAGE = ("usage: python -m json.tool [-h] [--sort-keys] [--no-ensure-ascii]\n"
          "                           [--json-lines]\n"
          "                           [--indent INDENT | --tab | --no-indent | --compact]\n"
          "                           [infile] [outfile]\n")
_FLAGS = {"--sort-keys": ("sort_keys", True), "--no-ensure-ascii": ("ensure_ascii", False),
          "--tab": ("indent", "'\\t'"), "--no-indent": ("indent", None), "--compact": ("compact", True)}
_INDENT = re.compile(r"[0-9]{1,3}")


def json_tool(args: list, proc, environ):
    """``(program text, None)`` for json.tool's ``args`` (what follows ``-m json.tool``), or
    ``(None, (status, stderr))`` when argparse refuses them; NotModelled for the rest.
    ``environ``: the environment python3 gets, of which only COLUMNS is read."""
    if environ.get("COLUMNS") is not None:
        raise NotModelled("json.tool under COLUMNS (argparse's width)")
    options = {"sort_keys": False, "ensure_ascii": True, "indent": 4, "compact": False}
    grouped, names = [], []
    n = 0
    while n < len(args):
        word = args[n]
        if word in _FLAGS:
            key, value = _FLAGS[word]
            options[key] = value
            grouped += [word] if key in ("indent", "compact") else []
        elif word == "--indent" or word.startswith("--indent="):
            value = word[len("--indent="):] if "=" in word else (args[n + 1] if n + 1 < len(args) else None)
            if value is None or not _INDENT.fullmatch(value):
                raise NotModelled("json.tool --indent without a small number")
            options["indent"] = int(value)
            grouped.append("--indent")
            n += 0 if "=" in word else 1
        elif word.startswith("-") and word != "-":
            raise NotModelled(f"json.tool option {word}")
        else:
            names.append(word)
        n += 1
    if len(names) > 2 or len(grouped) > 1 or names[1:] == ["-"]:
        raise NotModelled("json.tool with more than two files, options that exclude each other, or - as outfile")
    infile = names[0] if names and names[0] != "-" else None
    if infile is not None:
        refused = _cannot_open(infile, proc)
        if refused is not None:
            return None, (2, (_USAGE + f"python -m json.tool: error: argument infile: can't open {infile!r}: "
                              f"{refused}\n").encode("utf-8", "surrogateescape"))
    dump = f"sort_keys={options['sort_keys']}, ensure_ascii={options['ensure_ascii']}, "
    dump += "indent=None, separators=(',', ':')" if options["compact"] else f"indent={options['indent']}"
    outfile = names[1] if len(names) == 2 else None
    # (main closes stdin and stdout as it ends, which nothing after it sees: left out here)
    opened = f"open({infile!r}, encoding='utf-8')" if infile is not None else None
    source = "import json, sys\n" + (f"infile = {opened}\n" if opened else "infile = sys.stdin\n") + (
        "try:\n"
        "    objs = (json.loads(infile.read()),)\n"  # (what json.load does)
        + (f"    outfile = open({outfile!r}, 'w', encoding='utf-8')\n" if outfile is not None else
           "    outfile = sys.stdout\n") +
        "    for obj in objs:\n"
        f"        json.dump(obj, outfile, {dump})\n"
        "        outfile.write('\\n')\n"
        + ("    outfile.close()\n" if outfile is not None else "") +
        "except ValueError as e:\n"
        "    raise SystemExit(e)\n")
    return source, None


def _cannot_open(name: str, proc):
    """argparse.FileType's message when ``name`` cannot be opened for reading, or None."""
    if not name:
        return "[Errno 2] No such file or directory: ''"
    path = proc.abs(name)
    tree = proc.tree
    if tree.is_file(path):
        if not tree.mode(path) & 0o444:
            raise NotModelled("json.tool's infile, which no one may read")
        return None
    if tree.is_dir(path):
        return f"[Errno 21] Is a directory: {name!r}"
    if tree.lexists(path):
        raise NotModelled("json.tool's infile, neither a file nor missing")
    try:
        tree.kind(path)
    except VfsError as exc:  # missing, or a name on the way that is no folder
        return f"[Errno {getattr(errno, exc.errno_name)}] {exc.strerror}: {name!r}"
    return f"[Errno 2] No such file or directory: {name!r}"
