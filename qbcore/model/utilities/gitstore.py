"""Git's on-disk repository format, read and written in pure Python over any file view.

The git model keeps its repository where git does, in ``.git`` of the tree
(loose objects, the index, refs, the config file), so a script that reads or
changes ``.git`` sees what it would see, and a validator reads the final
state from the same bytes. Anything this format reader does not follow
(packs, packed refs, index versions or extensions it cannot skip) raises
:class:`Unreadable`; it never guesses.
"""

from __future__ import annotations

import hashlib
import re
import struct
import zlib
from typing import Callable, Optional

__all__ = ["Unreadable", "object_id", "encode_object", "decode_object", "parse_index", "format_index",
           "tree_entries", "parse_tree", "flatten_tree", "parse_commit", "parse_config", "set_config", "StoredRepository",
           "ZERO", "FILE", "EXECUTABLE", "SYMLINK"]

ZERO = "0" * 40
FILE, EXECUTABLE, SYMLINK, DIRECTORY = 0o100644, 0o100755, 0o120000, 0o40000


class Unreadable(Exception):
    """A part of a repository the format reader does not follow."""


# -- objects -----------------------------------------------------------------

def _framed(kind: str, body: bytes) -> bytes:
    return f"{kind} {len(body)}\0".encode() + body


def object_id(kind: str, body: bytes) -> str:
    return hashlib.sha1(_framed(kind, body)).hexdigest()


def encode_object(kind: str, body: bytes) -> tuple[str, bytes]:
    """(id, the loose object file's bytes)."""
    framed = _framed(kind, body)
    return hashlib.sha1(framed).hexdigest(), zlib.compress(framed, 1)  # git's core.compression default


def decode_object(data: bytes) -> tuple[str, bytes]:
    """(kind, body) of a loose object file."""
    try:
        framed = zlib.decompress(data)
    except zlib.error as exc:
        raise Unreadable(f"a damaged loose object ({exc})") from None
    head, sep, body = framed.partition(b"\0")
    kind, _, size = head.partition(b" ")
    if not sep or not size.isdigit() or int(size) != len(body):
        raise Unreadable("a damaged loose object header")
    return kind.decode("ascii", "replace"), body


def tree_entries(index: dict) -> list[tuple[str, bytes]]:
    """The tree objects of an index ``{path: (mode, id)}``: [(id, body)], the root's last."""
    out: list = []

    def build(prefix: str, paths: list) -> str:
        children: dict = {}
        for path in paths:
            rest = path[len(prefix):]
            head, slash, _ = rest.partition("/")
            children.setdefault((head, bool(slash)), []).append(path)
        # git sorts a directory as its name with a trailing slash
        rows = []
        for (name, is_dir), members in children.items():
            if is_dir:
                rows.append((name.encode("utf-8", "surrogateescape") + b"/", DIRECTORY,
                             build(prefix + name + "/", members)))
            else:
                mode, oid = index[members[0]]
                rows.append((name.encode("utf-8", "surrogateescape"), mode, oid))
        rows.sort(key=lambda row: row[0])
        body = b"".join(b"%o %s\0" % (mode, name.rstrip(b"/")) + bytes.fromhex(oid) for name, mode, oid in rows)
        oid = object_id("tree", body)
        out.append((oid, body))
        return oid

    build("", sorted(index))
    return out


def parse_tree(body: bytes) -> list[tuple[int, str, str]]:
    """[(mode, name, id)] of a tree object."""
    rows, pos = [], 0
    while pos < len(body):
        space = body.index(b" ", pos)
        nul = body.index(b"\0", space)
        rows.append((int(body[pos:space], 8), body[space + 1:nul].decode("utf-8", "surrogateescape"),
                     body[nul + 1:nul + 21].hex()))
        pos = nul + 21
    return rows


def flatten_tree(store: "StoredRepository", oid: str, prefix: str = "") -> dict:
    """``{path: (mode, id)}`` of every file under the tree ``oid``, as an index holds them."""
    kind, body = store.object(oid)
    if kind != "tree":
        raise Unreadable(f"{oid} is a {kind}, not a tree")
    out: dict = {}
    for mode, name, child in parse_tree(body):
        if mode == DIRECTORY:
            out.update(flatten_tree(store, child, f"{prefix}{name}/"))
        elif mode in (FILE, EXECUTABLE, SYMLINK):
            out[prefix + name] = (mode, child)
        else:
            raise Unreadable(f"a tree entry of mode {mode:o}")
    return out


def parse_commit(body: bytes) -> tuple[dict, bytes]:
    """(headers {name: [values]}, message) of a commit object."""
    head, _, message = body.partition(b"\n\n")
    headers: dict = {}
    for line in head.split(b"\n"):
        name, _, value = line.partition(b" ")
        headers.setdefault(name.decode("ascii", "replace"), []).append(value.decode("utf-8", "surrogateescape"))
    return headers, message


# -- the index ---------------------------------------------------------------

def parse_index(data: bytes) -> dict:
    """``{path: (mode, id)}`` of an index file (versions 2 and 3, stage 0 only)."""
    if len(data) < 32 or data[:4] != b"DIRC":
        raise Unreadable("an index file that does not start as git's does")
    if hashlib.sha1(data[:-20]).digest() != data[-20:]:
        raise Unreadable("an index file whose checksum does not match")
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3):
        raise Unreadable(f"index version {version}")
    entries, pos = {}, 12
    for _ in range(count):
        mode = struct.unpack(">I", data[pos + 24:pos + 28])[0]
        oid = data[pos + 40:pos + 60].hex()
        flags = struct.unpack(">H", data[pos + 60:pos + 62])[0]
        if flags & 0x3000:
            raise Unreadable("an index with merge stages")
        fixed = 62
        if flags & 0x4000:
            if version < 3 or struct.unpack(">H", data[pos + 62:pos + 64])[0]:
                raise Unreadable("index entries with extended flags")
            fixed = 64
        end = data.index(b"\0", pos + fixed)
        entries[data[pos + fixed:end].decode("utf-8", "surrogateescape")] = (mode, oid)
        # each entry is padded with 1 to 8 NULs to a multiple of 8 bytes
        pos += (end - pos) // 8 * 8 + 8
    return entries


def format_index(entries: dict) -> bytes:
    """An index file (version 2, no extensions, zero stat data) holding ``{path: (mode, id)}``."""
    parts = [b"DIRC", struct.pack(">II", 2, len(entries))]
    for path in sorted(entries, key=lambda p: p.encode("utf-8", "surrogateescape")):
        mode, oid = entries[path]
        name = path.encode("utf-8", "surrogateescape")
        entry = struct.pack(">10I", 0, 0, 0, 0, 0, 0, mode, 0, 0, 0) + bytes.fromhex(oid) + \
            struct.pack(">H", min(len(name), 0xFFF)) + name
        parts.append(entry + b"\0" * (8 - len(entry) % 8))
    body = b"".join(parts)
    return body + hashlib.sha1(body).digest()


# -- the config file ---------------------------------------------------------

_SECTION = re.compile(r'\s*\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\]\s*(?:[#;].*)?\Z')
_KEY = re.compile(r"\s*([A-Za-z][A-Za-z0-9-]*)\s*(=?)(.*)\Z", re.S)


def _value(raw: str) -> str:
    out, quoted, i = [], False, 0
    raw = raw.strip(" \t") if not raw.startswith('"') else raw.lstrip(" \t")
    spaces = ""
    while i < len(raw):
        c = raw[i]
        i += 1
        if c == '"':
            quoted = not quoted
            continue
        if c in "#;" and not quoted:
            break
        if c == "\\":
            if i >= len(raw):
                raise Unreadable("a config value ending in a line continuation")
            esc = raw[i]
            i += 1
            mapped = {"n": "\n", "t": "\t", "b": "\b", "\\": "\\", '"': '"'}.get(esc)
            if mapped is None:
                raise Unreadable(f"a config value with the escape \\{esc}")
            out.append(spaces + mapped)
            spaces = ""
            continue
        if c in " \t" and not quoted:
            spaces += c
            continue
        out.append(spaces + c)
        spaces = ""
    if quoted:
        raise Unreadable("a config value with an open quote")
    return "".join(out)


def parse_config(text: str) -> list[tuple[str, Optional[str]]]:
    """[(``section.key`` lowercased, value or None for a bare boolean)] in file order."""
    out: list = []
    section = None
    for line in text.split("\n"):
        stripped = line.strip(" \t\r")
        if not stripped or stripped[0] in "#;":
            continue
        if stripped.startswith("["):
            found = _SECTION.match(stripped)
            if not found:
                raise Unreadable(f"a config line git may read differently: {line!r}")
            section = found.group(1).lower() + (f".{found.group(2)}" if found.group(2) is not None else "")
            if found.group(2) is not None and "\\" in found.group(2):
                raise Unreadable("a config subsection with escapes")
            continue
        found = _KEY.match(stripped)
        if section is None or not found or (found.group(3) and not found.group(2)):
            raise Unreadable(f"a config line git may read differently: {line!r}")
        value = _value(found.group(3)) if found.group(2) else None
        out.append((f"{section}.{found.group(1).lower()}", value))
    return out


def _quoted_value(value: str) -> str:
    # git's config writer (write_pair): quotes around a value with edge spaces, ';' or '#'
    quote = '"' if value.startswith(" ") or value.endswith(" ") or ";" in value or "#" in value else ""
    body = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return quote + body + quote


def set_config(text: str, key: str, value: str) -> str:
    """The config file ``text`` with ``section.name`` set to ``value`` as ``git config`` writes it
    (for a plain lowercase section; the name keeps the case it is given)."""
    section, _, name = key.rpartition(".")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", name) or not re.fullmatch(r"[a-z0-9-]+", section):
        raise Unreadable(f"setting the config key {key!r}")
    parse_config(text)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    current, last_in_section, existing = None, None, None
    for n, line in enumerate(lines):
        stripped = line.strip(" \t\r")
        if stripped.startswith("["):
            found = _SECTION.match(stripped)
            current = (found.group(1).lower() if found and found.group(2) is None else None)
            if current == section:
                last_in_section = n
            continue
        if current == section and stripped and stripped[0] not in "#;":
            last_in_section = n
            found = _KEY.match(stripped)
            if found and found.group(1).lower() == name.lower():
                if existing is not None:
                    raise Unreadable(f"a config key set more than once: {key}")
                existing = n
    pair = f"\t{name} = {_quoted_value(value)}"
    if existing is not None:
        if lines[existing].strip(" \t").startswith("[") or "[" in lines[existing].split("=")[0]:
            raise Unreadable("a config key on its section's line")
        lines[existing] = pair
    elif last_in_section is not None:
        lines.insert(last_in_section + 1, pair)
    else:
        lines += [f"[{section}]", pair]
    return "\n".join(lines) + "\n"


# -- reading a stored repository ---------------------------------------------

Reader = Callable[[str], Optional[bytes]]
# files under .git through which git reads other history or objects than the refs and loose objects show
_REWIRING = frozenset({"packed-refs", "info/grafts", "shallow", "objects/info/alternates", "commondir"})


class StoredRepository:
    """The questions a validator asks of a repository, answered from its files alone.

    ``read(relative path under .git)`` gives a file's bytes, or None when it
    is missing. This is the validator's view of the git model's final state
    (``realbash.validators.GitRepository`` asks git itself on a real one).
    """

    def __init__(self, read: Reader, paths=None):
        self.read = read
        # with the paths under .git known, what changes git's answers without changing these files is refused
        for path in paths or ():
            if path in _REWIRING or path.startswith("refs/replace/"):
                raise Unreadable(f".git/{path}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def object(self, oid: str) -> tuple[str, bytes]:
        data = self.read(f"objects/{oid[:2]}/{oid[2:]}")
        if data is None:
            raise Unreadable(f"object {oid} is not a loose object")
        kind, body = decode_object(data)
        if object_id(kind, body) != oid:
            raise Unreadable(f"object {oid} does not hold what its name says")
        return kind, body

    def head(self) -> tuple[Optional[str], Optional[str]]:
        """(the branch HEAD names or None when detached, the commit id or None when unborn)."""
        if self.read("packed-refs") is not None:
            raise Unreadable("packed refs")
        data = self.read("HEAD")
        if data is None:
            raise Unreadable("a repository without HEAD")
        text = data.decode("utf-8", "surrogateescape")
        if re.fullmatch(r"[0-9a-f]{40}\n?", text):
            return None, text.strip()
        found = re.fullmatch(r"ref: (refs/heads/[^\s]+)\n?", text)
        if not found:
            raise Unreadable(f"a HEAD of the form {text[:40]!r}")
        ref = self.read(found.group(1))
        if ref is None:
            return found.group(1), None
        text = ref.decode("ascii", "replace")
        if not re.fullmatch(r"[0-9a-f]{40}\n", text):
            raise Unreadable(f"a branch file of the form {text[:50]!r}")
        return found.group(1), text.strip()

    def history(self) -> tuple[list | None, str]:
        """The commit ids reachable from HEAD, newest first, or (None, the problem git names)."""
        _, oid = self.head()
        if oid is None:
            return None, ("fatal: ambiguous argument 'HEAD': unknown revision or path not in the working tree.\n"
                        "Use '--' to separate paths from revisions, like this:\n"
                        "'git <command> [<revision>...] -- [<file>...]'")
        seen, todo = [], [oid]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            kind, body = self.object(current)
            if kind != "commit":
                raise Unreadable(f"HEAD names a {kind}")
            headers, _ = parse_commit(body)
            seen.append(current)
            parents = headers.get("parent", [])
            if len(parents) > 1:
                raise Unreadable("a merge commit")
            todo.extend(parents)
        return seen, ""

    def head_commit(self) -> Optional[bytes]:
        """The raw HEAD commit object, None without one."""
        _, oid = self.head()
        return None if oid is None else self.object(oid)[1]

    def tracked(self) -> set:
        """The paths the index holds (``git ls-files``)."""
        data = self.read("index")
        return set() if data is None else set(parse_index(data))
