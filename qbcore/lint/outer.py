"""What an outer shell does to the words that carry a script: events with spans.

Both analyses use it: a reply spliced into a transport's outer command, and
a script word written in a file. It walks the parser's word parts (byte
spans in the outer text) and reports, in the linted text's characters, the
expansions, substitutions, quote boundaries, removed backslashes and globs
the outer shell acts on.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..syntax.parser import (AnsiC, Arith, CmdSub, DoubleQuoted, Escaped, Lit, Param, ProcSub, SimpleCommand,
                      SingleQuoted)
from .rules import Event

POSITIONAL = frozenset("0123456789@*#")
# exported by every login: the inner shell sees the same value, so expanding early changes little
ENVIRONMENT = frozenset("HOME PATH USER LOGNAME SHELL PWD TERM LANG LC_ALL TMPDIR HOSTNAME UID".split())
_GLOB = re.compile(r"[*?]|\[[^\]]*\]|\{[^{}]*,[^{}]*\}|\{[^{}]*\.\.[^{}]*\}")
_PRINTF_Q = re.compile(r"""\s*printf\s+(-v\s+\S+\s+)?(['"]?)(%q ?)+\2(\s|$)""")


def quotes_for_shell(command: str) -> bool:
    """True for a command substitution whose output is already quoted for a shell (`printf %q`)."""
    return bool(_PRINTF_Q.match(command))


def substitution_body(part) -> str:
    """The command text inside ``$(…)`` or backticks."""
    if part.backtick:
        return part.script.source
    raw = part.script.source.encode("utf-8", "surrogateescape")
    return raw[part.start + 2:part.end - 1].decode("utf-8", "surrogateescape")


def param_is_quoted_value(part) -> bool:
    """``${x@Q}`` expands to a quoted word that the inner shell reads back as the value."""
    return isinstance(part, Param) and part.op == "@Q"


def parse(text: str):
    """(tree, to_text): the syntax tree of ``text`` and a map from the tree's byte offsets to
    byte offsets of ``text``. bash removes line continuations before parsing, and so does the
    parser: its spans then count in the joined text."""
    from ..syntax.parser import parse_prefix

    tree = parse_prefix(text)
    if tree.source == text:
        return tree, _same
    original = text.encode("utf-8", "surrogateescape")
    joined = tree.source.encode("utf-8", "surrogateescape")
    removed, i, j = [], 0, 0  # where the removed `\\\n` pairs sat, in joined offsets
    while i < len(original):
        if original[i:i + 2] == b"\\\n" and joined[j:j + 2] != b"\\\n":
            removed.append(j)  # a pair the joined text lacks here (one it kept, it shows as well)
            i += 2
        elif j < len(joined) and original[i] == joined[j]:
            i, j = i + 1, j + 1
        else:
            return tree, _same  # not a plain removal of continuations: keep the offsets as they are
    if not removed:
        return tree, _same

    def to_text(offset: int) -> int:
        from bisect import bisect_right

        return offset + 2 * bisect_right(removed, offset)

    def end_to_text(offset: int) -> int:
        """An end offset: a span that ends where a pair was removed ends before that pair."""
        from bisect import bisect_left

        return offset + 2 * bisect_left(removed, offset)

    to_text.removed = [at + 2 * n for n, at in enumerate(removed)]  # the pairs, in offsets of text
    to_text.end = end_to_text
    return tree, to_text


def _same(offset: int) -> int:
    return offset


class Spans:
    """Maps byte offsets of an outer text to characters of the linted text (None when outside it)."""

    def __init__(self, outer: str, base_byte: int, length_bytes: int, to_char: Callable[[int], int],
                 shift: int = 0, remap: Callable[[int], int] = _same):
        self.outer = outer
        self.base = base_byte
        self.length = length_bytes
        self.to_char = to_char
        self.shift = shift
        self.remap = remap  # the tree's offsets to the outer text's (see parse)

    def inside(self, offset: int) -> bool:
        return self.base <= self.remap(offset) < self.base + self.length

    def char(self, offset: int) -> Optional[int]:
        local = self.remap(offset) - self.base
        if local < 0 or local > self.length:
            return None
        return self.to_char(local) + self.shift


def word_events(parts, spans: Spans, text: str, emit, *, mode: str, quoted: bool = False,
                known_quoted=frozenset(), args_follow: bool = False, placeholder: Optional[str] = None):
    """Emit the events of one word's parts as the outer shell evaluates them."""
    for part in parts:
        start, end = spans.char(part.start), spans.char(part.end)
        if start is None or end is None:
            if isinstance(part, DoubleQuoted):
                # the wrapper's own quotes: only what lies inside the text matters
                _quote_event(part, spans, text, emit, mode, '"')
                word_events(part.parts, spans, text, emit, mode=mode, quoted=True, known_quoted=known_quoted,
                            args_follow=args_follow, placeholder=placeholder)
            elif isinstance(part, SingleQuoted) and mode == "reply":
                _quote_event(part, spans, text, emit, mode, "'")
            continue
        snippet = text[start:end]
        if isinstance(part, Lit):
            if not quoted:
                for m in _GLOB.finditer(part.text):
                    s = spans.char(part.start + len(part.text[:m.start()].encode("utf-8", "surrogateescape")))
                    if s is not None:
                        emit(Event("glob", s, s + len(m.group()), {"text": m.group()}))
                if part.text.startswith("~") and part is parts[0]:
                    emit(Event("glob", start, start + 1, {"text": "~"}))
            if placeholder and placeholder in part.text:
                at = part.text.index(placeholder)
                s = spans.char(part.start + len(part.text[:at].encode("utf-8", "surrogateescape")))
                if s is not None:
                    emit(Event("placeholder", s, s + len(placeholder), {"text": placeholder}))
        elif isinstance(part, Escaped):
            if mode == "reply":
                emit(Event("backslash", start, end, {"text": snippet}))
        elif isinstance(part, SingleQuoted):
            if mode == "reply":
                _quote_event(part, spans, text, emit, mode, "'")
            elif placeholder and placeholder in part.text:
                at = part.text.index(placeholder)
                emit(Event("placeholder", start + 1 + at, start + 1 + at + len(placeholder), {"text": placeholder}))
        elif isinstance(part, AnsiC):
            continue
        elif isinstance(part, DoubleQuoted):
            if mode == "reply":
                _quote_event(part, spans, text, emit, mode, '"')
            word_events(part.parts, spans, text, emit, mode=mode, quoted=True, known_quoted=known_quoted,
                        args_follow=args_follow, placeholder=placeholder)
        elif isinstance(part, Param):
            if part.name in known_quoted or param_is_quoted_value(part):
                continue
            emit(Event("expansion", start, end, {
                "text": snippet, "name": part.name, "quoted": quoted or mode == "reply",
                "positional": part.name in POSITIONAL or part.name.isdigit(),
                "environment": part.name in ENVIRONMENT and mode == "script", "args_follow": args_follow}))
        elif isinstance(part, (CmdSub, ProcSub)):
            body = substitution_body(part) if isinstance(part, CmdSub) else ""
            if mode == "script" and quotes_for_shell(body):
                continue
            emit(Event("substitution", start, end, {"text": snippet, "quoted": quoted or mode == "reply"}))
        elif isinstance(part, Arith):
            emit(Event("expansion", start, end, {"text": snippet, "name": "((", "quoted": True,
                                                 "positional": False}))


def _quote_event(part, spans, text, emit, mode, quote):
    if mode != "reply":
        return
    for offset, role in ((part.start, "open"), (part.end - 1, "close")):
        if spans.inside(offset):
            at = spans.char(offset)
            if at is not None and text[at:at + 1] == quote:
                emit(Event("quote", at, at + 1, {"quote": quote, "role": role, "text": quote}))


def iter_simple_commands(node):
    """The SimpleCommands of a syntax tree, lazily, in source order."""
    if isinstance(node, SimpleCommand):
        yield node
    if isinstance(node, (list, tuple)):
        for child in node:
            yield from iter_simple_commands(child)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            child = getattr(node, name, None)
            if isinstance(child, (list, tuple)) or hasattr(child, "__dataclass_fields__"):
                yield from iter_simple_commands(child)


def simple_commands(node, found=None):
    """Every SimpleCommand in a syntax tree, outside-in, in source order, those inside `$(…)` and
    `<(…)` included (backtick bodies are re-parsed text with their own offsets, so they are not)."""
    found = [] if found is None else found
    if isinstance(node, SimpleCommand):
        found.append(node)
    if isinstance(node, (CmdSub, ProcSub)) and not getattr(node, "backtick", False):
        simple_commands(node.script.chunks, found)
    if isinstance(node, (list, tuple)):
        for child in node:
            simple_commands(child, found)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            child = getattr(node, name, None)
            if isinstance(child, (list, tuple)) or hasattr(child, "__dataclass_fields__"):
                simple_commands(child, found)
    return found
