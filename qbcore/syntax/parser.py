"""The bash syntax tree and the parser that builds it from qbcore.lex tokens.

One job: turn the lexer's flat token stream into commands and words, so that
expansion and evaluation work on structure and never re-read text. Every node
carries the byte span (``start``, ``end``) of the source it came from. Nodes
are dataclasses, slotted in the pure engine; the compiled build makes them
extension types with typed fields (parser.pxd), whose constructor runs in C
instead of a generated Python ``__init__``. Frozen ones cost a third of the
parse time on the simulator's hot path; treat them as read-only all the same.

``parse`` raises ShellSyntaxError the way ``bash -n`` would; ``parse_prefix``
never raises and says which top-level lines parsed before the error, because
``bash -c`` reads and runs its script one complete line at a time.
"""

from __future__ import annotations

import bisect
import re
import sys
import threading
from dataclasses import dataclass
from typing import Optional, Union

try:
    import cython
except ImportError:  # the pure engine does not need Cython: its dataclass is the standard one
    from types import SimpleNamespace

    cython = SimpleNamespace(compiled=False, dataclasses=SimpleNamespace(dataclass=dataclass))

from . import escapes
from .errors import NestedTooDeep, ShellSyntaxError
from .lexdef import descriptor_number

# ---------------------------------------------------------------- word parts
#
# One source, two engines: compiled, ``cython.dataclasses.dataclass`` builds each
# node as an extension type whose fields parser.pxd types; pure, it is the
# standard dataclass, and the ``__slots__`` written out make it the slotted
# dataclass that ``slots=True`` would (Cython's decorator takes no ``slots``).
# Either way the nodes have ``__dataclass_fields__``, dataclass equality, repr
# and ``__match_args__``, and no attribute beyond their fields.


@cython.dataclasses.dataclass
class Lit:
    """Literal text; unquoted unless it sits inside DoubleQuoted or a heredoc body."""
    __slots__ = ("text", "start", "end")
    text: str
    start: int
    end: int


@cython.dataclasses.dataclass
class Escaped:
    """A backslash-escaped character (``\\x`` unquoted, ``\\$`` in double quotes): ``char`` is quoted."""
    __slots__ = ("char", "start", "end")
    char: str
    start: int
    end: int

    def __init__(self, character: str, start: int, end: int):
        # written out: `char` names a C type to Cython, so the generated one cannot take it
        self.char = character
        self.start = start
        self.end = end


@cython.dataclasses.dataclass
class SingleQuoted:
    """``'…'``: ``text`` is the content without the quotes."""
    __slots__ = ("text", "start", "end")
    text: str
    start: int
    end: int


@cython.dataclasses.dataclass
class AnsiC:
    """``$'…'``: ``text`` is the decoded content (bash cuts it at a NUL)."""
    __slots__ = ("text", "start", "end")
    text: str
    start: int
    end: int


@cython.dataclasses.dataclass
class DoubleQuoted:
    """``"…"`` or ``$"…"`` (``locale``); ``parts`` are Lit, Escaped and expansions."""
    __slots__ = ("parts", "locale", "start", "end")
    parts: tuple
    locale: bool
    start: int
    end: int


@cython.dataclasses.dataclass
class Param:
    """A parameter expansion, ``$x`` or ``${…}``.

    ``name`` is the parameter (``x``, ``1``, ``@``, ``#``…); ``index`` the array
    subscript text (``@``, ``*``, ``0``…) or None; ``length`` for ``${#x}``;
    ``indirect`` for ``${!x}``; ``op`` is the operator (``:-``, ``#``, ``//``,
    ``:`` for substrings, ``@Q``, ``^^``…) or None; ``arg`` and ``arg2`` are its
    words (pattern and replacement, offset and length), already split.
    """
    __slots__ = ("name", "index", "length", "indirect", "op", "arg", "arg2", "braced", "start", "end")
    name: str
    index: Optional[str]
    length: bool
    indirect: bool
    op: Optional[str]
    arg: Optional["Word"]
    arg2: Optional["Word"]
    braced: bool
    start: int
    end: int


@cython.dataclasses.dataclass
class CmdSub:
    """``$(…)`` or backticks; ``script`` is the parsed body.

    For backticks the body was re-parsed after removing the backslashes that
    backticks treat as special, so the spans inside ``script`` are offsets into
    ``script.source``, not into the outer source.
    """
    __slots__ = ("script", "backtick", "start", "end")
    script: "Script"
    backtick: bool
    start: int
    end: int


@cython.dataclasses.dataclass
class Arith:
    """``$((…))`` or ``$[…]``: ``parts`` are Lit expression text and nested expansions."""
    __slots__ = ("parts", "start", "end")
    parts: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class ProcSub:
    """``<(…)`` or ``>(…)``."""
    __slots__ = ("direction", "script", "start", "end")
    direction: str
    script: "Script"
    start: int
    end: int


Part = Union[Lit, Escaped, SingleQuoted, AnsiC, DoubleQuoted, Param, CmdSub, Arith, ProcSub]


@cython.dataclasses.dataclass
class Word:
    """One shell word: adjacent parts with no blank between them."""
    __slots__ = ("parts", "start", "end")
    parts: tuple
    start: int
    end: int


class BraceRefusedWord(Word):
    """A word whose brace expansion bash refuses (see ``_brace_refusal``): ``refusal`` is
    bash's message, or None where the model does not follow bash's reading. Where bash
    brace-expands a word (a command's words, ``for`` words, array elements, redirection
    targets) it abandons the line there; an assignment or a ``case`` word expands as usual."""
    __slots__ = ("refusal",)


# ---------------------------------------------------------------- commands


@cython.dataclasses.dataclass
class Heredoc:
    """A here-document body attached to its ``<<`` redirection.

    ``quoted`` means the delimiter had a quoted part: ``raw`` is then the exact
    body and ``parts`` is empty; otherwise ``parts`` (Lit, Escaped, expansions)
    is the body to expand with ``expand.document``. ``<<-`` tab stripping is
    already applied to both.
    """
    __slots__ = ("delimiter", "quoted", "strip_tabs", "raw", "parts", "terminated", "start", "end")
    delimiter: str
    quoted: bool
    strip_tabs: bool
    raw: str
    parts: tuple
    terminated: bool
    start: int
    end: int


@cython.dataclasses.dataclass
class Redirect:
    """``[fd]op target``; ``fd`` is the prefix (``2``, ``{name}``) or None."""
    __slots__ = ("op", "fd", "target", "heredoc", "start", "end")
    op: str
    fd: Optional[str]
    target: Optional[Word]
    heredoc: Optional[Heredoc]
    start: int
    end: int


@cython.dataclasses.dataclass
class Assignment:
    """``name=value``, ``name+=value``, ``name[i]=value`` or ``name=(…)``.

    ``array`` holds the element words of ``name=(…)``. When text follows the
    ``)`` in the same word (``a=(1 2)x``) bash assigns a string instead: the
    elements joined by single spaces inside the parentheses, then the rest
    (``(1 2)x``), so ``array`` is None and ``value`` is that rebuilt word.
    """
    __slots__ = ("name", "index", "append", "value", "array", "start", "end")
    name: str
    index: Optional[str]
    append: bool
    value: Optional[Word]
    array: Optional[tuple]
    start: int
    end: int


@cython.dataclasses.dataclass
class SimpleCommand:
    """``words`` are Words, except that a ``name=(…)`` argument of a command named
    ``declare``, ``typeset``, ``local``, ``export``, ``readonly``, ``alias``, ``eval``
    or ``let`` is an Assignment (bash parses those as compound assignments;
    ``compound_word`` gives the single word other commands receive).

    ``line`` is bash's line for it (``$LINENO``): where the parser had read to once
    the token after the first element was in, which may be past the command's start."""
    __slots__ = ("assignments", "words", "redirects", "start", "end", "line")
    assignments: tuple
    words: tuple
    redirects: tuple
    start: int
    end: int
    line: int


@cython.dataclasses.dataclass
class Pipeline:
    """``[time] [!] cmd | cmd |& cmd``; ``stderr[i]`` is True when link i is ``|&``."""
    __slots__ = ("commands", "negated", "timed", "stderr", "start", "end")
    commands: tuple
    negated: bool
    timed: bool
    stderr: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class AndOr:
    """``p1 && p2 || p3``: ``ops[i]`` joins ``pipelines[i]`` and ``pipelines[i+1]``."""
    __slots__ = ("pipelines", "ops", "start", "end")
    pipelines: tuple
    ops: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class ListItem:
    """One and/or list with its terminator: ``background`` for ``&``."""
    __slots__ = ("command", "background", "start", "end")
    command: AndOr
    background: bool
    start: int
    end: int


@cython.dataclasses.dataclass
class Group:
    __slots__ = ("body", "redirects", "start", "end")
    body: tuple
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class Subshell:
    __slots__ = ("body", "redirects", "start", "end")
    body: tuple
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class If:
    """``clauses`` is ((condition, body), …) for if and each elif."""
    __slots__ = ("clauses", "else_body", "redirects", "start", "end")
    clauses: tuple
    else_body: Optional[tuple]
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class While:
    __slots__ = ("condition", "body", "until", "redirects", "start", "end")
    condition: tuple
    body: tuple
    until: bool
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class For:
    """``for name [in items]; do body; done``; ``items`` None means ``"$@"``. Also ``select``."""
    __slots__ = ("name", "items", "body", "select", "redirects", "start", "end")
    name: str
    items: Optional[tuple]
    body: tuple
    select: bool
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class ArithFor:
    """``for ((init; test; step))``: each is an Arith (possibly with no parts)."""
    __slots__ = ("init", "test", "step", "body", "redirects", "start", "end")
    init: Arith
    test: Arith
    step: Arith
    body: tuple
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class CaseArm:
    __slots__ = ("patterns", "body", "terminator", "start", "end")
    patterns: tuple
    body: tuple
    terminator: str
    start: int
    end: int


@cython.dataclasses.dataclass
class Case:
    __slots__ = ("word", "arms", "redirects", "start", "end")
    word: Word
    arms: tuple
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class CondOp:
    """An operator inside ``[[ ]]``: ``&&`` ``||`` ``!`` ``(`` ``)`` ``<`` ``>``."""
    __slots__ = ("op", "start", "end")
    op: str
    start: int
    end: int


@cython.dataclasses.dataclass
class Cond:
    """``[[ … ]]``: ``items`` are Words and CondOps in source order."""
    __slots__ = ("items", "redirects", "start", "end")
    items: tuple
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class ArithCommand:
    """``(( … ))``."""
    __slots__ = ("expr", "redirects", "start", "end")
    expr: Arith
    redirects: tuple
    start: int
    end: int


@cython.dataclasses.dataclass
class FunctionDef:
    __slots__ = ("name", "body", "start", "end")
    name: str
    body: object
    start: int
    end: int


@cython.dataclasses.dataclass
class Coproc:
    __slots__ = ("name", "command", "start", "end")
    name: Optional[str]
    command: object
    start: int
    end: int


Command = Union[SimpleCommand, Group, Subshell, If, While, For, ArithFor, Case, Cond,
                ArithCommand, FunctionDef, Coproc]


@cython.dataclasses.dataclass
class Chunk:
    """What bash -c reads and runs in one go: the complete commands that end on one line."""
    __slots__ = ("items", "start", "end", "first_line", "last_line")
    items: tuple
    start: int
    end: int
    first_line: int
    last_line: int


class Script:
    """A parsed script.

    ``chunks`` are the top-level units in the order bash -c runs them;
    ``body`` is all their list items. ``error`` is None for a script that
    parsed completely; otherwise (``parse_prefix`` only) it is the
    ShellSyntaxError and ``parsed_until`` the byte offset where the chunks
    that ran before it end.
    """

    __slots__ = ("source", "chunks", "error", "parsed_until", "_newlines")

    def __init__(self, source: str, chunks: tuple, error: Optional[ShellSyntaxError],
                 parsed_until: int, newlines: list):
        self.source = source
        self.chunks = chunks
        self.error = error
        self.parsed_until = parsed_until
        self._newlines = newlines

    @property
    def body(self) -> tuple:
        return tuple(item for chunk in self.chunks for item in chunk.items)

    def line_of(self, offset: int) -> int:
        """The 1-based line number of a byte offset in ``source``."""
        return bisect.bisect_right(self._newlines, offset - 1) + 1 if offset > 0 else 1

    def text(self, node) -> str:
        """The source text of a node (its span)."""
        return self.source.encode("utf-8", "surrogateescape")[node.start:node.end].decode(
            "utf-8", "surrogateescape")

    def __repr__(self):
        return f"Script(chunks={self.chunks!r}, error={self.error!r})"


# ---------------------------------------------------------------- parser

RESERVED = frozenset("if then elif else fi case esac for select while until do done in "
                     "function time coproc ! { } [[ ]]".split())
# Words that end a compound list: meeting one of them in command position is
# either the expected closer or bash's "unexpected token".
CLOSERS = frozenset("then elif else fi do done esac } in".split())

# a byte asked of bytes as an int: given bytes, `in` first tries it as an int and builds
# (and drops) a TypeError each time, a cost the parser would pay on every word
_LBRACE = ord("{")

_WORD_PARTS = frozenset((
    "lit", "escape", "line-cont", "sq", "ansi-sq", "dq-open", "locale-open", "var", "param-open",
    "cmdsub-open", "backtick-open", "arith-open", "procsub-open", "assign"))

_ASSIGN_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?)=")
# an `assign` token is the whole head the lexer matched: its subscript runs to the last `]`
# (`a[${#a[@]}]=`, `a[x[1]]=`)
_ASSIGN_TOKEN_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[.*\])?(\+?)=\Z", re.S)
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SPECIAL_PARAMS = "@*#?-$!0123456789"
# the quoting context of an unquoted here-document body: like double quotes,
# except that `"` is not special (nor, then, `\"` inside backticks)
_DOCUMENT = "document"


# a redirection operator that starts with its descriptor: a number, or `{name}`
_REDIRECTION_PREFIXES = frozenset((b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9", b"{"))
_BLANKS = (32, 9, 10)  # the bytes of a blank or a newline
_TEXT_STOPS = _BLANKS + (59, 124, 38)  # and of `;`, `|` and `&`


def _io_number_token(text: str) -> str:
    """bash's token for the descriptor of ``2>`` and the like, when the redirection is
    unexpected (``lexdef.descriptor_number``), or the digits as the word they are."""
    end = 0
    while "0" <= text[end] <= "9":
        end += 1
    return descriptor_number(text[:end]) or text[:end]


class _Failure(Exception):
    """Internal: a syntax error found by the parser, turned into ShellSyntaxError."""

    conditional = None  # ShellSyntaxError.conditional

    def __init__(self, message: str, offset: int, end: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.end = end  # the end of the unexpected token, when there is one


class _CondFailure(_Failure):
    """Internal: an error of bash's [[ ]] grammar (ShellSyntaxError.conditional)."""

    conditional = "line"
    cause_end = 0  # the end of the token bash could not take


def _newline_offsets(raw: bytes) -> list:
    """The offsets of the newlines in ``raw``, in order."""
    found = []
    at = raw.find(b"\n")
    while at >= 0:
        found.append(at)
        at = raw.find(b"\n", at + 1)
    return found


class _Parser:
    def __init__(self, source: str, tokens, raw: bytes):
        self.source = source
        self.raw = raw
        # the lexer's own stream gives the parser's tokens at once when offsets index the text
        ready = None if type(tokens) is list or len(source) != len(raw) else tokens.grammar_tokens(source)
        if ready is not None:
            if not raw.endswith(b"\n"):
                ready.append(("newline", len(raw), len(raw), ""))  # (as below)
            self.toks = ready
            self.n = len(ready)
        else:
            self.toks = tokens if isinstance(tokens, list) else list(tokens)
            if not raw.endswith(b"\n"):
                # bash -c ends the script with a newline of its own: a construct cut
                # short by the end meets that newline first (`echo >` -> `newline')
                self.toks = self.toks + [("newline", len(raw), len(raw))]
            self._prepare()
        self.i = 0
        self.nesting = 0  # lists and substitutions open around the current token
        self.newlines = _newline_offsets(raw) if "\n" in source else []
        self.pending_heredocs = []

    # -- token access ------------------------------------------------

    def text(self, tok) -> str:
        if len(tok) > 3:
            return tok[3]
        return self.raw[tok[1]:tok[2]].decode("utf-8", "surrogateescape")

    def _prepare(self):
        """Drop what the grammar never sees and attach each token's text, once.

        Comments are always followed by a newline or the end; a line
        continuation that joins no word is a blank.
        """
        toks, raw = self.toks, self.raw
        # byte offsets are character offsets when the text is ASCII: slice the str
        text = self.source if len(self.source) == len(raw) else None
        kept = []
        for i, tok in enumerate(toks):
            kind, start, end = tok[0], tok[1], tok[2]
            if kind == "comment" or (kind == "line-cont" and not self._joins_word(i)):
                continue
            kept.append((kind, start, end, text[start:end] if text is not None else
                         raw[start:end].decode("utf-8", "surrogateescape")))
        self.toks = kept
        self.n = len(kept)

    def _joins_word(self, i) -> bool:
        toks = self.toks
        j = i
        while j + 1 < len(toks) and toks[j + 1][1] == toks[j][2]:
            j += 1
            if toks[j][0] != "line-cont":
                return toks[j][0] in _WORD_PARTS
        # a continuation glued to the end of a word belongs to that word
        return i > 0 and toks[i - 1][2] == toks[i][1] and toks[i - 1][0] not in (
            "op", "(", ")", "newline", "redir", "heredoc-op", "reserved", "cond-op", "comment")

    def peek(self):
        return self.toks[self.i] if self.i < self.n else None

    def kind(self):
        return self.toks[self.i][0] if self.i < self.n else None

    def take(self):
        tok = self.toks[self.i] if self.i < self.n else None
        self.i += 1
        return tok

    def fail(self, tok=None):
        if tok is None:
            tok = self.peek()
        if tok is None:
            raise _Failure("syntax error: unexpected end of file", len(self.raw))
        if tok[0] == "newline":
            text = "newline"
        elif tok[0] in ("redir", "heredoc-op") and self.raw[tok[1]:tok[1] + 1] in _REDIRECTION_PREFIXES:
            text = self.text(tok)
            if text[0] == "{":
                raise _Failure(f"syntax error near `{self._text_before(tok[1] + text.index('}') + 2)}'",
                               self._report_offset(tok), tok[2])
            text = _io_number_token(text)
        else:
            text = self._word_text_at(tok)
        raise _Failure(f"syntax error near unexpected token `{text}'", self._report_offset(tok),
                       None if tok[0] == "newline" else tok[2])

    def _text_before(self, end: int) -> str:
        """What bash names when its token says nothing (a ``{name}`` before a redirection,
        read with the operator's first character): the line's text before ``end`` back
        to a blank or one of ``;|&`` (that one kept), leading blanks dropped."""
        raw = self.raw
        start = raw.rfind(b"\n", 0, end - 1) + 1
        i = end - 1
        while i > start and raw[i] not in _TEXT_STOPS:
            i -= 1
        while i < end and raw[i] in _BLANKS:
            i += 1
        return raw[i:end].decode("utf-8", "surrogateescape")

    def _word_text_at(self, tok) -> str:
        """bash quotes the whole word an unexpected token starts (`esac"y"`, `then$x`)."""
        if tok[0] not in _WORD_PARTS or tok[0] == "line-cont":
            return self.text(tok)
        try:
            j = self.toks.index(tok)
        except ValueError:
            return self.text(tok)
        end = tok[2]
        depth = 0
        while j + 1 < self.n:
            nxt = self.toks[j + 1]
            if nxt[1] != end and depth == 0:
                break
            if depth == 0 and nxt[0] in ("op", "newline", "(", ")", "redir", "heredoc-op", "cond-op"):
                break
            if nxt[0].endswith("-open") or nxt[0] == "locale-open":
                depth += 1
            elif nxt[0].endswith("-close"):
                depth -= 1
            end = nxt[2]
            j += 1
        return self.raw[tok[1]:end].decode("utf-8", "surrogateescape")

    def _report_offset(self, tok) -> int:
        # bash reads the heredoc bodies of the line before it reports an error
        # on that line, so the error lands on the last delimiter line
        if not self.pending_heredocs:
            return tok[1]
        j = self.i
        while j < self.n and self.toks[j][0] != "newline":
            j += 1
        remaining = len(self.pending_heredocs)
        offset = tok[1]
        while j < self.n and remaining:
            if self.toks[j][0] == "heredoc-end":
                remaining -= 1
                offset = self.toks[j][1]
            j += 1
        return offset

    def reserved(self) -> Optional[str]:
        """The reserved word at the cursor, if the token here is one in command position."""
        if self.i >= self.n:
            return None
        tok = self.toks[self.i]
        kind = tok[0]
        if kind == "reserved":
            return tok[3]
        if kind == "lit":
            text = tok[3]
            # the lexer alone knows where `time` is due (not after `|`: `x | time y`)
            if text in RESERVED and text != "time" and not self._adjacent_part(self.i):
                return text
        return None

    def _adjacent_part(self, i) -> bool:
        return i + 1 < self.n and self.toks[i + 1][1] == self.toks[i][2] and \
            self.toks[i + 1][0] in _WORD_PARTS

    def expect_reserved(self, word: str):
        if self.reserved() != word:
            self.fail()
        return self.take()

    def is_op(self, ops: tuple) -> bool:
        """Whether the token here is one of the operators ``ops``."""
        tok = self.peek()
        return tok is not None and tok[0] == "op" and self.text(tok) in ops

    # -- newlines and heredoc bodies ----------------------------------

    def newline(self):
        """Consume one newline token, then the bodies of the heredocs it completes."""
        tok = self.take()
        pending, self.pending_heredocs = self.pending_heredocs, []
        for redirect in pending:
            body = self._heredoc_body(redirect.op == "<<-", redirect.target)
            # the body is only known once the line has ended; the node was
            # built before, so it is completed in place (nothing else saw it yet)
            object.__setattr__(redirect, "heredoc", body)
        return tok

    def linebreak(self):
        while self.kind() == "newline":
            self.newline()

    def _heredoc_body(self, strip, delim_word):
        delimiter, quoted = _delimiter(delim_word)
        start = self.toks[self.i][1] if self.i < self.n else len(self.raw)
        raw_parts, parts = [], []
        terminated = False
        end = start
        while self.i < self.n:
            tok = self.toks[self.i]
            kind = tok[0]
            if kind == "heredoc-end":
                self.i += 1
                terminated = True
                # the delimiter line's own newline belongs to the body, not to the commands
                if self.i < self.n and self.toks[self.i][0] == "newline" and \
                        self.toks[self.i][1] == tok[2]:
                    self.i += 1
                break
            if kind == "heredoc-body":
                raw_parts.append(self.text(tok))
                end = tok[2]
                self.i += 1
            elif kind == "doc-lit":
                parts.append(Lit(self.text(tok), tok[1], tok[2]))
                end = tok[2]
                self.i += 1
            elif kind == "doc-escape":
                parts.append(Escaped(self.text(tok)[1:], tok[1], tok[2]))
                end = tok[2]
                self.i += 1
            elif kind == "line-cont":
                end = tok[2]
                self.i += 1
            elif kind in ("var", "param-open", "cmdsub-open", "backtick-open", "arith-open"):
                mark, pending = self.i, self.pending_heredocs
                try:
                    part = self.part(_DOCUMENT)
                except _Failure:
                    # bash parses a substitution in a body only when it expands the body:
                    # a grammar error there fails the expansion, from this construct on
                    self.i, self.pending_heredocs = mark, pending
                    part = self._unparsed_rest_of_body()
                parts.append(part)
                end = part.end
            else:
                break
        raw = "".join(raw_parts)
        if quoted:
            if strip:
                raw = re.sub(r"(?m)^\t+", "", raw)
            parts = []
        else:
            raw = ""
            if strip:
                parts = _strip_doc_tabs(parts)
            parts = _recover_body(parts)
        return Heredoc(delimiter, quoted, strip, raw, tuple(parts), terminated, start, end)

    def _unparsed_rest_of_body(self) -> Lit:
        """The body's text from the cursor to its end, as one literal (expansion fails there)."""
        first = last = self.toks[self.i]
        depth = 0
        while self.i < self.n:
            tok = self.toks[self.i]
            kind = tok[0]
            if depth == 0 and not (kind.endswith("-open") or kind in ("doc-lit", "doc-escape", "line-cont", "var")):
                break
            if kind.endswith("-open"):
                depth += 1
            elif kind.endswith("-close"):
                depth -= 1
            last = tok
            self.i += 1
        text = self.raw[first[1]:last[2]].decode("utf-8", "surrogateescape")
        return Lit(text, first[1], last[2])

    # -- lists ---------------------------------------------------------

    def script_chunks(self, chunks: list):
        """Top level: parse chunk after chunk; each ends at a newline or the end."""
        while True:
            self.linebreak()
            tok = self.peek()
            if tok is None:
                return
            start = tok[1]
            items = self.line_items()
            end = items[-1].end
            end_offset = len(self.raw)
            if self.kind() == "newline":
                self.newline()
                end_offset = self._end()
            chunks.append((tuple(items), start, end, end_offset))

    def line_items(self) -> list:
        """The and/or lists of one line: `a; b & c` (separators included)."""
        items = []
        while True:
            andor = self.and_or()
            background = False
            end = andor.end
            if self.is_op((";", "&")):
                sep = self.take()
                background = self.text(sep) == "&"
                end = sep[2]
                items.append(ListItem(andor, background, andor.start, end))
                tok = self.peek()
                if tok is None or tok[0] == "newline":
                    return items
                continue
            items.append(ListItem(andor, background, andor.start, end))
            tok = self.peek()
            if tok is None or tok[0] == "newline":
                return items
            self.fail()

    def compound_list(self, closers: tuple) -> tuple:
        """A list inside a compound command, ended by one of ``closers`` (not consumed)."""
        self.enter()
        try:
            return self._compound_list(closers)
        finally:
            self.nesting -= 1

    def enter(self):
        """One level deeper. The compiled parser would exhaust the C stack long before
        Python's recursion limit notices, so the depth is counted here and refused as
        RecursionError, the way the pure parser meets it."""
        if self.nesting >= NESTING:
            raise RecursionError("nested deeper than the parser follows")
        self.nesting += 1

    def _compound_list(self, closers: tuple) -> tuple:
        items = []
        self.linebreak()
        while True:
            tok = self.peek()
            if tok is None:
                self.fail()
            word = self.reserved()
            if word in closers or (tok[0] in (")", "cmdsub-close", "procsub-close") and ")" in closers):
                break
            if tok[0] == "op" and self.text(tok) in (";;", ";&", ";;&") and ";;" in closers:
                break
            andor = self.and_or()
            background = False
            end = andor.end
            if self.is_op((";", "&")):
                sep = self.take()
                background = self.text(sep) == "&"
                end = sep[2]
                items.append(ListItem(andor, background, andor.start, end))
                self.linebreak()
                continue
            items.append(ListItem(andor, background, andor.start, end))
            if self.kind() == "newline":
                self.linebreak()
                continue
            tok = self.peek()
            word = self.reserved()
            if tok is None:
                self.fail()
            if word in closers or tok[0] in (")", "cmdsub-close", "procsub-close") and ")" in closers:
                break
            if tok[0] == "op" and self.text(tok) in (";;", ";&", ";;&") and ";;" in closers:
                break
            self.fail()
        if not items:
            self.fail()
        return tuple(items)

    def and_or(self) -> AndOr:
        pipelines = [self.pipeline()]
        ops = []
        while self.is_op(("&&", "||")):
            ops.append(self.text(self.take()))
            self.linebreak()
            pipelines.append(self.pipeline())
        return AndOr(tuple(pipelines), tuple(ops), pipelines[0].start, pipelines[-1].end)

    def pipeline(self) -> Pipeline:
        start_tok = self.peek()
        if start_tok is None:
            self.fail()
        timed = negated = False
        if self.reserved() == "time":
            self.take()
            timed = True
            tok = self.peek()
            if tok is not None and tok[0] == "lit" and self.text(tok) == "-p" and \
                    not self._adjacent_part(self.i):
                self.take()
        while self.reserved() == "!":
            self.take()
            negated = not negated
        tok = self.peek()
        if (timed or negated) and (tok is None or tok[0] == "newline" or
                                   (tok[0] == "op" and self.text(tok) == ";")):
            # bash accepts a bare `time` or `!` as a null pipeline, ended only by
            # a newline, `;` or the end (its list_terminator): `! &` is an error
            return Pipeline((), negated, timed, (), start_tok[1], start_tok[2])
        commands = [self.command()]
        stderr = []
        while self.is_op(("|", "|&")):
            stderr.append(self.text(self.take()) == "|&")
            self.linebreak()
            commands.append(self.command())
        return Pipeline(tuple(commands), negated, timed, tuple(stderr), start_tok[1], commands[-1].end)

    # -- commands ------------------------------------------------------

    def command(self):
        tok = self.peek()
        if tok is None:
            self.fail()
        word = self.reserved()
        if word is not None:
            if word == "{":
                return self.group()
            if word == "if":
                return self.if_clause()
            if word == "while" or word == "until":
                return self.while_clause()
            if word == "for" or word == "select":
                return self.for_clause()
            if word == "case":
                return self.case_clause()
            if word == "[[":
                return self.cond()
            if word == "function":
                return self.function_keyword()
            if word == "coproc":
                return self.coproc()
            self.fail()
        kind = tok[0]
        if kind == "(":
            return self.subshell()
        if kind == "arith-cmd-open":
            start = tok[1]
            expr = self.arith_body("arith-cmd-open", "arith-cmd-close")
            return ArithCommand(expr, self.redirects(), start, self._end())
        return self.simple_command()

    def _end(self) -> int:
        return self.toks[self.i - 1][2] if self.i else 0

    def redirects(self) -> tuple:
        out = []
        while True:
            kind = self.kind()
            if kind == "redir":
                out.append(self.redirect())
            elif kind == "heredoc-op":
                out.append(self.heredoc_redirect())
            else:
                return tuple(out)

    def redirect(self) -> Redirect:
        tok = self.take()
        op, fd = _split_redir(self.text(tok))
        target = self.word()
        if target is None:
            self.fail()
        return Redirect(op, fd, target, None, tok[1], target.end)

    def heredoc_redirect(self) -> Redirect:
        tok = self.take()
        op, fd = _split_redir(self.text(tok))
        delim = self.word()
        if delim is None:
            self.fail()
        redirect = Redirect(op, fd, delim, None, tok[1], delim.end)
        self.pending_heredocs.append(redirect)
        return redirect

    def simple_command(self) -> SimpleCommand:
        assignments, words, redirects = [], [], []
        start = self.peek()[1]
        elements = 0
        # where bash had read to when it numbered the command: after a first word,
        # the end of the token after it (it looks for a function's `(`); after a
        # first assignment or redirection, the end of that element
        lookahead = None
        while True:
            tok = self.peek()
            if tok is None:
                break
            kind = tok[0]
            if elements == 1 and lookahead is None and kind in ("redir", "heredoc-op"):
                lookahead = tok[2]
            elements += 1
            if kind == "redir" or kind == "heredoc-op":
                redirects.append(self.redirect() if kind == "redir" else self.heredoc_redirect())
                if elements == 1:
                    lookahead = redirects[-1].end  # bash numbers it without reading further
                continue
            if kind not in _WORD_PARTS:
                elements -= 1
                break
            if not words and (kind == "assign" or kind == "lit" and "=" in tok[3]):
                assignment = self.assignment()
                if assignment is not None:
                    assignments.append(assignment)
                    if elements == 1 or lookahead is None:
                        lookahead = assignment.end  # as for a redirection
                    continue
            if words and kind == "assign" and self.i + 1 < self.n and \
                    self.toks[self.i + 1][0] == "(" and self.toks[self.i + 1][1] == tok[2]:
                # the lexer emits `name=` plus `(` in an argument only after a
                # command name for which bash reads compound assignments
                words.append(self.assignment())
                if elements == 2 and lookahead is None:
                    lookahead = words[-1].end
                continue
            word = self.word()
            if word is None:
                elements -= 1
                break
            words.append(word)
            if elements == 2 and lookahead is None:
                lookahead = word.end
            if len(words) == 1 and not assignments and self.kind() == "(":
                return self.function_def(word, start)
        if not (assignments or words or redirects):
            self.fail()
        end = self._end()
        return SimpleCommand(tuple(assignments), tuple(words), tuple(redirects), start, end,
                             self._line_after(lookahead))

    def _line_after(self, offset: Optional[int]) -> int:
        """bash's line once it has read up to ``offset`` (None: the terminator after the
        command; a newline there is not yet counted, the end of input adds none)."""
        if offset is None:
            tok = self.peek()
            offset = len(self.raw) if tok is None else tok[1] if tok[0] == "newline" else tok[2]
        return bisect.bisect_right(self.newlines, offset - 1) + 1 if offset > 0 else 1

    def assignment(self) -> Optional[Assignment]:
        tok = self.peek()
        if tok[0] not in ("assign", "lit"):
            return None
        text = self.text(tok)
        match = (_ASSIGN_TOKEN_RE if tok[0] == "assign" else _ASSIGN_RE).match(text)
        if not match:
            return None
        if tok[0] == "lit" and match.end() < len(text):
            pass  # value continues in the same literal token
        name, index, plus = match.group(1), match.group(2), match.group(3)
        start = tok[1]
        prefix_len = len(match.group(0).encode("utf-8", "surrogateescape"))
        # Array assignment: `name=(` with the paren glued to the `=`, where the
        # lexer found bash would read one (an `assign` token, not a `lit`).
        if tok[0] == "assign" and match.end() == len(text) and self.i + 1 < self.n \
                and self.toks[self.i + 1][0] == "(" \
                and self.toks[self.i + 1][1] == tok[2]:
            open_tok = self.toks[self.i + 1]
            self.i += 2
            elements = []
            while True:
                self.linebreak()
                kind = self.kind()
                if kind == ")":
                    close = self.take()
                    break
                if kind is None or kind not in _WORD_PARTS:
                    self.fail()
                elements.append(self.word())
            tok = self.peek()
            if tok is not None and tok[1] == close[2] and tok[0] in _WORD_PARTS:
                tail = self.word()
                value = _joined_elements(elements, open_tok, close, tail)
                return Assignment(name, index[1:-1] if index else None, bool(plus), value, None,
                                  start, tail.end)
            return Assignment(name, index[1:-1] if index else None, bool(plus), None,
                              tuple(elements), start, close[2])
        word = self.word()
        rest = _drop_prefix(word, prefix_len)
        return Assignment(name, index[1:-1] if index else None, bool(plus), rest, None, start, word.end)

    def function_def(self, name_word: Word, start: int) -> FunctionDef:
        self.take()  # (
        if self.kind() != ")":
            self.fail()
        self.take()
        self.linebreak()
        body = self.function_body()
        name = "".join(p.text for p in name_word.parts if isinstance(p, Lit))
        return FunctionDef(name, body, start, body.end)

    def function_body(self):
        word = self.reserved()
        tok = self.peek()
        if tok is None:
            self.fail()
        if word in ("{", "if", "while", "until", "for", "select", "case", "[[") or \
                tok[0] in ("(", "arith-cmd-open"):
            return self.command()
        self.fail()

    def function_keyword(self):
        start = self.take()[1]
        name_word = self.word()
        if name_word is None:
            self.fail()
        name = "".join(getattr(p, "text", "") for p in name_word.parts)
        if self.kind() == "(":
            self.take()
            if self.kind() != ")":
                self.fail()
            self.take()
        self.linebreak()
        body = self.function_body()
        return FunctionDef(name, body, start, body.end)

    def coproc(self):
        start = self.take()[1]
        name = None
        tok = self.peek()
        if tok is not None and tok[0] == "lit" and _NAME_RE.match(self.text(tok)) and \
                not self._adjacent_part(self.i):
            nxt = self.toks[self.i + 1] if self.i + 1 < self.n else None
            if nxt is not None and nxt[0] == "reserved" and self.text(nxt) in ("{",) or \
                    nxt is not None and nxt[0] in ("(",):
                name = self.text(self.take())
        command = self.command()
        return Coproc(name, command, start, command.end)

    def group(self) -> Group:
        start = self.take()[1]
        body = self.compound_list(("}",))
        self.expect_reserved("}")
        return Group(body, self.redirects(), start, self._end())

    def subshell(self) -> Subshell:
        start = self.take()[1]
        body = self.compound_list((")",))
        if self.kind() != ")":
            self.fail()
        self.take()
        return Subshell(body, self.redirects(), start, self._end())

    def if_clause(self) -> If:
        start = self.take()[1]
        clauses = []
        cond = self.compound_list(("then",))
        self.expect_reserved("then")
        body = self.compound_list(("elif", "else", "fi"))
        clauses.append((cond, body))
        else_body = None
        while True:
            word = self.reserved()
            if word == "elif":
                self.take()
                cond = self.compound_list(("then",))
                self.expect_reserved("then")
                body = self.compound_list(("elif", "else", "fi"))
                clauses.append((cond, body))
            elif word == "else":
                self.take()
                else_body = self.compound_list(("fi",))
            else:
                break
        self.expect_reserved("fi")
        return If(tuple(clauses), else_body, self.redirects(), start, self._end())

    def while_clause(self) -> While:
        tok = self.take()
        until = self.text(tok) == "until"
        cond = self.compound_list(("do",))
        body = self.do_group()
        return While(cond, body, until, self.redirects(), tok[1], self._end())

    def do_group(self) -> tuple:
        word = self.reserved()
        if word == "{":
            self.take()
            body = self.compound_list(("}",))
            self.expect_reserved("}")
            return body
        self.expect_reserved("do")
        body = self.compound_list(("done",))
        self.expect_reserved("done")
        return body

    def for_clause(self):
        tok = self.take()
        select = self.text(tok) == "select"
        if self.kind() == "arith-cmd-open" and not select:
            return self.arith_for(tok[1])
        name_word = self.word()
        if name_word is None:
            self.fail()
        # an invalid name (`for 1 in …`) is a runtime error in bash, not a syntax error
        name = self.text((None, name_word.start, name_word.end))
        items = None
        self.linebreak()
        if self.reserved() == "in":
            self.take()
            items = []
            while True:
                kind = self.kind()
                if kind in _WORD_PARTS:
                    items.append(self.word())
                else:
                    break
            items = tuple(items)
            if self.is_op((";",)):
                self.take()
            elif self.kind() == "newline":
                pass
            else:
                self.fail()
            self.linebreak()
        elif self.is_op((";",)):
            self.take()
            self.linebreak()
        body = self.do_group()
        return For(name, items, body, select, self.redirects(), tok[1], self._end())

    def arith_for(self, start) -> ArithFor:
        expr = self.arith_body("arith-cmd-open", "arith-cmd-close")
        pieces = _split_arith(expr)
        if len(pieces) != 3:
            raise _Failure("syntax error: arithmetic expression required", expr.start)
        if self.is_op((";",)):
            self.take()
        self.linebreak()
        body = self.do_group()
        return ArithFor(pieces[0], pieces[1], pieces[2], body, self.redirects(), start, self._end())

    def case_clause(self) -> Case:
        start = self.take()[1]
        word = self.word()
        if word is None:
            self.fail()
        self.linebreak()
        self.expect_reserved("in")
        self.linebreak()
        arms = []
        while self.reserved() != "esac":
            tok = self.peek()
            if tok is None:
                self.fail()
            arm_start = tok[1]
            if tok[0] == "(":
                self.take()
            patterns = []
            while True:
                pattern = self.word()
                if pattern is None:
                    self.fail()
                patterns.append(pattern)
                if self.is_op(("|",)):
                    self.take()
                    continue
                break
            if self.kind() != ")":
                self.fail()
            self.take()
            self.linebreak()
            body = ()
            if not (self.reserved() == "esac" or self.is_op((";;", ";&", ";;&"))):
                body = self.compound_list(("esac", ";;"))
            terminator = ";;"
            if self.is_op((";;", ";&", ";;&")):
                terminator = self.text(self.take())
                self.linebreak()
                arms.append(CaseArm(tuple(patterns), body, terminator, arm_start, self._end()))
                continue
            arms.append(CaseArm(tuple(patterns), body, terminator, arm_start, self._end()))
            if self.reserved() != "esac":
                self.fail()
        self.take()
        return Case(word, tuple(arms), self.redirects(), start, self._end())

    def cond(self) -> Cond:
        start = self.take()[1]
        items = []
        # the tokens as bash's [[ ]] grammar reads them (_CondGrammar): (kind, text, start, end)
        tokens = []
        bangs = {}  # token index -> item index of each `!`
        while True:
            tok = self.peek()
            if tok is None:
                # (the lexer refuses a `[[` left open first: _error_in_open_cond finds what bash meets)
                self.fail()
            if tok[0] == "reserved" and self.text(tok) == "]]" or \
                    tok[0] == "lit" and self.text(tok) == "]]" and not self._adjacent_part(self.i):
                close = self.take()
                tokens.append(("end", "]]", close[1], close[2]))
                break
            if tok[0] == "newline":
                tokens.append(("newline", "newline", tok[1], tok[2]))
                self.newline()
            elif tok[0] in _WORD_PARTS:
                word = self.word()
                items.append(word)
                tokens.append(("word", self.raw[word.start:word.end].decode("utf-8", "surrogateescape"),
                               word.start, word.end))
            elif tok[0] in ("cond-op", "(", ")") or tok[0] == "op" and self.text(tok) in ("&&", "||") or \
                    tok[0] == "redir" and self.text(tok) in ("<", ">"):
                items.append(CondOp(self.text(tok), tok[1], tok[2]))
                # (bash reads `!` as a word, and takes it for negation where a term starts)
                tokens.append(("word" if self.text(tok) == "!" else "op", self.text(tok), tok[1], tok[2]))
                self.take()
                if tokens[-1][0] == "word":
                    bangs[len(tokens) - 1] = len(items) - 1
            else:
                # any other token ends what bash reads of the expression: the grammar says where it fails
                tokens.append(("other", self.text(tok), tok[1], tok[2]))
                break
        grammar = _CondGrammar(tokens, start)
        grammar.check()
        for at in grammar.operands:
            if at in bangs:  # a `!` where an operand is read is the word `!`
                bang = items[bangs[at]]
                items[bangs[at]] = Word((Lit("!", bang.start, bang.end),), bang.start, bang.end)
        return Cond(tuple(items), self.redirects(), start, self._end())

    # -- words ---------------------------------------------------------

    def word(self) -> Optional[Word]:
        i = self.i
        if i >= self.n:
            return None
        tok = self.toks[i]
        kind = tok[0]
        if kind not in _WORD_PARTS:
            return None
        if kind == "lit" and (i + 1 >= self.n or self.toks[i + 1][1] != tok[2]):
            # fast path: a word that is one literal token
            self.i = i + 1
            return Word((Lit(tok[3], tok[1], tok[2]),), tok[1], tok[2])
        parts = []
        start = tok[1]
        end = start
        while self.i < self.n:
            tok = self.toks[self.i]
            if tok[1] != end and parts or tok[0] not in _WORD_PARTS:
                break
            part = self.part(False)
            if part is not None:
                parts.append(part)
            end = self._end()
        raw = self.raw
        text = raw[start:end]
        if _LBRACE in text:
            refusal = _brace_refusal(raw, parts, start, end) if text.find(b"$(") >= 0 else False
            if refusal is False and _may_brace(text) and _brace_quoting_differs(raw, parts, start, end):
                refusal = None
            if refusal is not False:
                word = BraceRefusedWord(tuple(parts), start, end)
                word.refusal = refusal
                return word
        return Word(tuple(parts), start, end)

    def part(self, quoted_context):
        """One word part at the cursor (consumes nested tokens up to its close).

        ``quoted_context`` is False, True (double quotes, arithmetic) or
        ``_DOCUMENT`` (an unquoted here-document body, and ``${…}`` in it)."""
        tok = self.toks[self.i]
        kind = tok[0]
        text = self.text(tok)
        if kind in ("lit", "assign", "dq-lit", "param-lit", "arith-lit", "doc-lit"):
            self.i += 1
            return Lit(text, tok[1], tok[2])
        if kind == "escape" or kind == "dq-escape" or kind == "doc-escape":
            self.i += 1
            return Escaped(text[1:], tok[1], tok[2])
        if kind == "line-cont":
            self.i += 1
            return None
        if kind == "sq":
            self.i += 1
            return SingleQuoted(text[1:-1], tok[1], tok[2])
        if kind == "ansi-sq":
            self.i += 1
            return AnsiC(decode_ansi_c(text[2:-1]), tok[1], tok[2])
        if kind in ("dq-open", "locale-open"):
            self.i += 1
            parts = []
            while True:
                if self.i >= self.n:
                    self.fail(None)
                inner = self.toks[self.i]
                if inner[0] == "dq-close":
                    self.i += 1
                    break
                part = self.part(True)
                if part is not None:
                    parts.append(part)
            return DoubleQuoted(tuple(parts), kind == "locale-open", tok[1], self._end())
        if kind == "var":
            self.i += 1
            return Param(text[1:], None, False, False, None, None, None, False, tok[1], tok[2])
        if kind == "param-open":
            return self.param(quoted_context)
        if kind == "cmdsub-open":
            if self.raw[tok[2]:tok[2] + 1] == b"(":
                return self.unarithmetic_substitution(tok)
            self.i += 1
            script = self.nested_script("cmdsub-close")
            return CmdSub(script, False, tok[1], self._end())
        if kind == "procsub-open":
            self.i += 1
            script = self.nested_script("procsub-close")
            return ProcSub(text[0], script, tok[1], self._end())
        if kind == "backtick-open":
            return self.backtick(quoted_context)
        if kind == "arith-open":
            return self.arith_body("arith-open", "arith-close")
        self.fail(tok)

    def nested_script(self, close_kind: str) -> "Script":
        self.enter()
        try:
            return self._nested_script(close_kind)
        except _CondFailure as exc:
            exc.conditional = "substitution"
            raise
        finally:
            self.nesting -= 1

    def _nested_script(self, close_kind: str) -> "Script":
        start = self.toks[self.i][1] if self.i < self.n else len(self.raw)
        items = []
        saved_pending, self.pending_heredocs = self.pending_heredocs, []
        while True:
            self.linebreak()
            tok = self.peek()
            if tok is None:
                self.fail()
            if tok[0] == close_kind:
                break
            andor = self.and_or()
            background = False
            end = andor.end
            if self.is_op((";", "&")):
                sep = self.take()
                background = self.text(sep) == "&"
                end = sep[2]
            elif self.kind() not in ("newline", close_kind):
                self.fail()
            items.append(ListItem(andor, background, andor.start, end))
        close = self.take()
        self.pending_heredocs = saved_pending + self.pending_heredocs
        chunk = Chunk(tuple(items), start, close[1], 0, 0)
        return Script(self.source, (chunk,) if items else (), None, close[1], self.newlines)

    def unarithmetic_substitution(self, open_tok) -> CmdSub:
        """A `$((` that is no arithmetic: bash matches it as a command substitution by
        its parentheses and parses the body only when it expands it, so a syntax error
        there fails that substitution at run time (measured: `echo "$(()<nl>)" next`
        prints " next"), as in a backtick body."""
        start, saved = self.i, list(self.pending_heredocs)
        self.i += 1
        try:
            script = self.nested_script("cmdsub-close")
            return CmdSub(script, False, open_tok[1], self._end())
        except _Failure:
            pass
        self.i, self.pending_heredocs = start + 1, saved
        depth = 1
        while self.i < self.n and depth:
            kind = self.toks[self.i][0]
            depth += 1 if kind == "cmdsub-open" else -1 if kind == "cmdsub-close" else 0
            self.i += 1
        if depth:
            self.fail(None)
        close = self.toks[self.i - 1]
        body = self.raw[open_tok[2]:close[1]].decode("utf-8", "surrogateescape")
        try:
            script = parse_prefix(body)
        except (RecursionError, ValueError):
            raise _Failure("the substitution nesting is deeper than the parser follows", open_tok[1]) from None
        return CmdSub(script, False, open_tok[1], close[2])

    def backtick(self, quoted_context) -> CmdSub:
        open_tok = self.toks[self.i]
        self.i += 1
        body = ""
        if self.i < self.n and self.toks[self.i][0] == "backtick-body":
            body = self.text(self.toks[self.i])
            self.i += 1
        if self.i >= self.n or self.toks[self.i][0] != "backtick-close":
            self.fail(None)
        self.i += 1
        # in a here-document body `"` is an ordinary character, so `\"` keeps its
        # backslash in a backtick there (measured: `echo \"q\"` in backticks prints "q")
        inner = unescape_backticks(body, quoted_context is True)
        try:
            # bash parses a backtick body only when it expands it: a syntax
            # error there is a runtime error of that substitution (script.error)
            script = parse_prefix(inner)
        except (RecursionError, ValueError):
            raise _Failure("the backtick nesting is deeper than the parser follows", open_tok[1]) from None
        return CmdSub(script, True, open_tok[1], self._end())

    def arith_body(self, open_kind: str, close_kind: str) -> Arith:
        open_tok = self.toks[self.i]
        self.i += 1
        parts = []
        while True:
            if self.i >= self.n:
                self.fail(None)
            tok = self.toks[self.i]
            if tok[0] == close_kind:
                self.i += 1
                break
            part = self.part(True)
            if part is not None:
                if type(part) is Lit and "${" in part.text and open_tok[3] == "$[":
                    parts.extend(_expanded_in_brackets(part))
                else:
                    parts.append(part)
        return Arith(tuple(parts), open_tok[1], self._end())

    def param(self, quoted_context) -> Param:
        open_tok = self.toks[self.i]
        self.i += 1
        items = []
        while True:
            if self.i >= self.n:
                self.fail(None)
            tok = self.toks[self.i]
            if tok[0] == "param-close":
                self.i += 1
                break
            if tok[0] == "param-lit":
                items.append(Lit(self.text(tok), tok[1], tok[2]))
                self.i += 1
                continue
            part = self.part(quoted_context)
            if part is not None:
                items.append(part)
        try:
            return _build_param(tuple(items), open_tok[1], self._end(), self.raw)
        except _BadSubstitution:
            # bash reports it only when it expands the word: a runtime error
            inner = self.raw[open_tok[2]:self.toks[self.i - 1][1]].decode("utf-8", "surrogateescape")
            return Param(inner, None, False, False, "bad substitution", None, None, True,
                         open_tok[1], self._end())


# ---------------------------------------------------------------- helpers

_REDIR_RE = re.compile(r"(\{[A-Za-z_][A-Za-z0-9_]*\}|[0-9]+)?(.*)\Z", re.S)


def _split_redir(text: str):
    match = _REDIR_RE.match(text)
    return match.group(2), match.group(1)


def _delimiter(word: Word):
    """The heredoc delimiter (quotes removed) and whether any part was quoted."""
    out, quoted = [], False
    for part in word.parts:
        if isinstance(part, Lit):
            out.append(part.text)
        elif isinstance(part, Escaped):
            out.append(part.char)
            quoted = True
        elif isinstance(part, (SingleQuoted, AnsiC)):
            # for $'…' bash uses the decoded text (<<$'E\x41' ends at a line EA)
            out.append(part.text)
            quoted = True
        elif isinstance(part, DoubleQuoted):
            quoted = True
            for inner in part.parts:
                out.append(getattr(inner, "text", None) or getattr(inner, "char", ""))
        elif isinstance(part, Param) and not part.braced:
            out.append("$" + part.name)
        else:
            out.append("")
    return "".join(out), quoted


_DOC_OPENER = re.compile(r"\$[({[]|`")


# How many prefixes of one body recovery parses at most (each parse is linear).
RECOVERY_PROBES = 64
_probing = False  # inside a probe: a prefix that needs recovery is rejected without recursing


def _recover_body(parts: list) -> list:
    """An unquoted body the lexer left literal (an expansion in it does not close):
    the parts bash expands before it meets the first that fails, then that text.

    Each candidate prefix is parsed once, without recovering inside it (a
    prefix that would need it is rejected anyway), so the work is linear in
    the number of probes, never exponential in the nesting.
    """
    global _probing
    if _probing or len(parts) != 1 or not isinstance(parts[0], Lit) or not _DOC_OPENER.search(parts[0].text):
        return parts
    text = parts[0].text
    for probe, match in enumerate(reversed(list(_DOC_OPENER.finditer(text)))):
        if probe >= RECOVERY_PROBES:
            return parts
        prefix = text[:match.start()]
        if not _DOC_OPENER.search(prefix):
            return parts  # nothing expands before the construct that fails
        end = "END"
        while end in prefix:
            end += "_"
        _probing = True
        try:
            script = parse_prefix(f": <<{end}\n{prefix}\n{end}\n")
        finally:
            _probing = False
        if script.error is not None or not script.chunks:
            continue
        body = script.chunks[0].items[0].command.pipelines[0].commands[0].redirects[0].heredoc
        if any(isinstance(p, Lit) and _DOC_OPENER.search(p.text) for p in body.parts):
            continue  # the prefix holds a construct that does not close either
        # once more with recovery on, for the here-documents inside its substitutions
        script = parse_prefix(f": <<{end}\n{prefix}\n{end}\n")
        body = script.chunks[0].items[0].command.pipelines[0].commands[0].redirects[0].heredoc
        return list(body.parts) + [Lit(text[match.start():], parts[0].start, parts[0].end)]
    return parts


def _strip_doc_tabs(parts: list) -> list:
    out = []
    at_line_start = True
    for part in parts:
        if isinstance(part, Lit):
            text = part.text
            pieces = text.split("\n")
            stripped = []
            for n, piece in enumerate(pieces):
                if n > 0 or at_line_start:
                    piece = piece.lstrip("\t")
                stripped.append(piece)
            new_text = "\n".join(stripped)
            at_line_start = text.endswith("\n")
            if new_text:
                out.append(Lit(new_text, part.start, part.end))
        else:
            at_line_start = False
            out.append(part)
    return out


def _joined_elements(elements: list, open_tok, close, tail: Optional[Word]) -> Word:
    """``(e1 e2 …)`` plus ``tail`` as the one word bash makes of it: the element
    words joined by single spaces (newlines and comments between them dropped)."""
    parts = [Lit("(", open_tok[1], open_tok[2])]
    for n, element in enumerate(elements):
        if n:
            parts.append(Lit(" ", element.start, element.start))
        parts.extend(element.parts)
    parts.append(Lit(")", close[1], close[2]))
    end = close[2]
    if tail is not None:
        parts.extend(tail.parts)
        end = tail.end
    for word in (*elements, tail):
        if type(word) is BraceRefusedWord:
            # brace expansion reads the one word as it reads its pieces, each from outside quotes
            joined = BraceRefusedWord(tuple(parts), open_tok[1], end)
            joined.refusal = word.refusal
            return joined
    return Word(tuple(parts), open_tok[1], end)


def compound_word(assignment: Assignment) -> Word:
    """The word a command other than a declaration builtin receives for a
    ``name=(…)`` argument (``let i=(3+4)`` passes ``i=(3+4)``, ``eval`` likewise)."""
    prefix = f"{assignment.name}{'' if assignment.index is None else '[' + assignment.index + ']'}" \
        f"{'+' if assignment.append else ''}="
    head = Lit(prefix, assignment.start, assignment.start + len(prefix.encode("utf-8", "surrogateescape")))
    if assignment.array is None:
        rest = assignment.value.parts if assignment.value is not None else ()
        return Word((head,) + tuple(rest), assignment.start, assignment.end)
    elements = assignment.array
    open_at = head.end
    value = _joined_elements(list(elements), ("(", open_at, open_at + 1),
                             (")", assignment.end - 1, assignment.end), None)
    return Word((head,) + value.parts, assignment.start, assignment.end)


def _expanded_in_brackets(lit: Lit) -> list:
    """The parts of ``$[…]`` text holding ``${``: bash matches ``$[`` by its brackets
    alone and expands ``${…}`` in it only when it expands the whole, as it expands
    an unquoted here-document body (a malformed one stays text and fails then)."""
    delimiter = "QBCORE_BRACKET_END"
    while delimiter in lit.text:
        delimiter += "_"
    header = "cat <<" + delimiter + "\n"
    try:
        script = parse(header + lit.text + "\n" + delimiter + "\n")
    except (ShellSyntaxError, RecursionError, ValueError):
        return [lit]
    (redirect,) = script.chunks[0].items[0].command.pipelines[0].commands[0].redirects
    body = redirect.heredoc.parts
    if len(body) == 1 and type(body[0]) is Lit and body[0].text == lit.text + "\n":
        # a `${` that does not parse: bash fails the expansion there ("bad substitution")
        cut = lit.text.index("${")
        at = lit.start + len(lit.text[:cut].encode("utf-8", "surrogateescape"))
        bad = Param(lit.text[cut + 2:], None, False, False, "bad substitution", None, None, True, at, lit.end)
        return ([Lit(lit.text[:cut], lit.start, at)] if cut else []) + [bad]
    shift = lit.start - len(header.encode())
    parts = []
    for part in redirect.heredoc.parts:
        part.start, part.end = part.start + shift, min(part.end + shift, lit.end)
        if type(part) is Lit and part.end == lit.end and part.text.endswith("\n"):
            part.text = part.text[:-1]  # the body's own final newline
            if not part.text:
                continue
        parts.append(part)
    return parts


def _drop_prefix(word: Word, nbytes: int) -> Word:
    """The word without its first ``nbytes`` bytes (the ``name=`` of an assignment)."""
    parts = list(word.parts)
    while parts and nbytes > 0:
        first = parts[0]
        if not isinstance(first, Lit):
            break
        size = len(first.text.encode("utf-8", "surrogateescape"))
        if size <= nbytes:
            parts.pop(0)
            nbytes -= size
        else:
            rest = first.text.encode("utf-8", "surrogateescape")[nbytes:].decode("utf-8", "surrogateescape")
            parts[0] = Lit(rest, first.start + nbytes, first.end)
            nbytes = 0
    start = parts[0].start if parts else word.end
    return Word(tuple(parts), start, word.end)


def _split_arith(expr: Arith) -> list:
    """Split ``init; test; step`` of an arithmetic for at top-level semicolons."""
    pieces, current = [], []
    start = expr.start
    for part in expr.parts:
        if isinstance(part, Lit) and ";" in part.text:
            chunks = part.text.split(";")
            for n, chunk in enumerate(chunks):
                if chunk:
                    current.append(Lit(chunk, part.start, part.end))
                if n < len(chunks) - 1:
                    pieces.append(Arith(tuple(current), start, part.end))
                    current = []
                    start = part.end
        else:
            current.append(part)
    pieces.append(Arith(tuple(current), start, expr.end))
    return pieces


_COND_BINARY = frozenset("== = != =~ < > -eq -ne -lt -le -gt -ge -ef -nt -ot".split())
# bash's unary test operators (test_unop): in [[ ]] each takes exactly one argument
_COND_UNARY = frozenset("-a -b -c -d -e -f -g -h -k -n -o -p -r -s -t -u -v -w -x -z -G -L -N -O -R -S".split())


class _CondGrammar:
    """bash's ``[[ ]]`` grammar (parse.y: cond_expr, cond_or, cond_and, cond_term) over the
    tokens of one conditional command, for its errors alone: the first one raises
    _CondFailure with the message bash prints first. A ``]]`` where a term must start is
    refused without a word (measured: `[[ ]]`, `[[ a && ]]`, `[[ ! ]]` print nothing, and
    the line does not run); each ``(`` left open by an error adds "expected `)'"."""

    def __init__(self, tokens: list, start: int):
        self.tokens = tokens
        self.opening = ("[[", "[[", start, start + 2)
        self.i = 0
        self.current = None  # bash's cond_token: the token after the last term read
        self.messages = []
        self.failed_at = self.cause = None
        self.operands = []  # the indexes of the tokens read as an operator's argument

    def read(self):
        tok = self.tokens[min(self.i, len(self.tokens) - 1)]
        self.i += 1
        return tok

    def skip_newlines(self):
        tok = self.read()
        while tok[0] == "newline":
            tok = self.read()
        return tok

    def fail(self, message: str, tok, cause=None):
        """Record bash's ``message``, named at ``tok``; ``cause`` the token bash could not take
        (``tok`` itself unless given)."""
        self.messages.append(message)
        if self.failed_at is None:
            self.failed_at, self.cause = tok, cause or tok
        self.current = _COND_ERROR
        return False

    def check(self):
        if self.expression() and self.current[0] != "end":
            # parse.y cond_error: a token left after a whole expression
            # (named at the line of the `[[`, as bash does)
            text = _cond_token_text(self.current)
            self.fail("syntax error in conditional expression" +
                      (f": unexpected token `{text}'" if text is not None else ""), self.opening, self.current)
        if self.failed_at is not None:
            tok = self.failed_at
            failure = _CondFailure(next((m for m in self.messages if m), ""), tok[2], tok[3])
            failure.cause_end = self.cause[3]
            raise failure

    def expression(self) -> bool:  # cond_or
        if not self.conjunction():
            return False
        if self.current[:2] == ("op", "||"):
            return self.expression()
        return True

    def conjunction(self) -> bool:  # cond_and
        if not self.term():
            return False
        if self.current[:2] == ("op", "&&"):
            return self.conjunction()
        return True

    def term(self) -> bool:
        tok = self.skip_newlines()
        kind, text = tok[0], tok[1]
        if kind == "end":
            return self.fail("", tok)
        if tok[:2] == ("op", "("):
            inner = self.expression()
            if self.current[:2] != ("op", ")"):
                after = None if self.current is _COND_ERROR else _cond_token_text(self.current)
                # (named at the line of its `(`, as bash does)
                return self.fail(f"unexpected token `{after}', expected `)'" if after is not None
                                 else "expected `)'", tok, self.current)
            self.current = self.skip_newlines()
            return True
        if kind == "word" and text == "!":
            return self.term()
        if kind == "word" and text in _COND_UNARY:
            argument = self.read()
            self.operands.append(self.i - 1)
            if argument[0] != "word":
                return self.fail(f"unexpected argument `{_cond_token_text(argument)}' to conditional unary operator",
                                 argument)
            self.current = self.skip_newlines()
            return True
        if kind == "word":
            op = self.read()
            if op[0] == "word" and op[1] in _COND_BINARY or op[:2] in (("op", "<"), ("op", ">")):
                right = self.read()
                self.operands.append(self.i - 1)
                if right[0] != "word":
                    return self.fail(f"unexpected argument `{_cond_token_text(right)}' to conditional binary "
                                     "operator", right)
                self.current = self.skip_newlines()
                return True
            if op[0] == "end" or op[:2] in (("op", "&&"), ("op", "||"), ("op", ")")):
                self.current = op  # `[[ x ]]` tests that x is not empty
                return True
            text = _cond_token_text(op)
            return self.fail(f"unexpected token `{text}', conditional binary operator expected" if text is not None
                             else "conditional binary operator expected", op)
        return self.fail(f"unexpected token `{_cond_token_text(tok)}' in conditional command", tok)


_COND_ERROR = ("error", None, 0, 0)


def _cond_token_text(tok) -> Optional[str]:
    """How bash names a token in a [[ ]] message (error_token_from_token): words have no name."""
    return None if tok[0] in ("word", "error") else tok[1]


class _BadSubstitution(Exception):
    pass


_PARAM_OPS = (":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%", "//", "/#", "/%", "/",
              "^^", "^", ",,", ",", "~~", "~", "@", ":")


def _build_param(items: tuple, start: int, end: int, raw: bytes = b"") -> Param:
    """Interpret the contents of ``${…}``: name, subscript, and operator with its words
    (``raw``: the source, for a subscript that holds expansions)."""
    if items and isinstance(items[0], Param) and not items[0].braced and items[0].name[:1] in _SPECIAL_PARAMS:
        # the lexer reads `${$#}` as `${` `$#` `}`; bash reads the name `$`, then the operator `#`
        first = items[0]
        head = Lit("$" + first.name, first.start, first.end)
        if len(items) > 1 and isinstance(items[1], Lit):
            head = Lit(head.text + items[1].text, first.start, items[1].end)
            items = items[1:]
        items = (head,) + tuple(items[1:])
    if not items or not isinstance(items[0], Lit):
        raise _BadSubstitution()
    head = items[0].text
    rest_items = list(items[1:])
    length = indirect = False
    pos = 0
    if head.startswith("#") and len(head) == 2 and not rest_items and head[1] in "%:=+/^,~":
        raise _BadSubstitution()  # ${#%}, ${#:}, ${#=}, ${#+}, ${#/}: errors in bash, as the case operators
    if head.startswith("#") and len(head) > 1 and _name_at(head, 1) is not None and not (
            head[1] in "-?#@" and (len(head) > 2 or rest_items)):
        # ${#-} is the length of $-; but ${#-x}, ${##p}, ${#@Q} are $# and an operator
        length, pos = True, 1
    elif head.startswith("!") and len(head) > 1 and _name_at(head, 1) is not None:
        indirect, pos = True, 1
    name_len = _name_at(head, pos)
    if name_len is None:
        raise _BadSubstitution()
    name = head[pos:pos + name_len]
    pos += name_len
    index = None
    if pos < len(head) and head[pos] == "[":
        if name[0] in _SPECIAL_PARAMS:
            raise _BadSubstitution()  # bash subscripts a variable's name only (`${#[0]}`, `${1[0]}`)
        close = _subscript_close(head, pos + 1, 1)
        if close >= 0:
            index = head[pos + 1:close]
            pos = close + 1
        else:
            # expansions in the subscript (`${a[$i]}`, `${a[$(f)+1]}`): it runs on through the
            # parts to the literal that closes it; bash expands it when it reads the element
            depth = _subscript_depth(head, pos + 1, 1)
            for n, item in enumerate(rest_items):
                if isinstance(item, Lit):
                    close = _subscript_close(item.text, 0, depth)
                    if close >= 0:
                        # the name before `[` is ASCII: its characters are its bytes
                        upto = item.start + len(item.text[:close].encode("utf-8", "surrogateescape"))
                        index = raw[items[0].start + pos + 1:upto].decode("utf-8", "surrogateescape")
                        head, pos, rest_items = item.text, close + 1, rest_items[n + 1:]
                        items = (item,)
                        break
                    depth = _subscript_depth(item.text, 0, depth)
            else:
                raise _BadSubstitution()
    tail = head[pos:]
    if length:
        if tail or rest_items:
            raise _BadSubstitution()
        return Param(name, index, True, False, None, None, None, True, start, end)
    if indirect and tail in ("*", "@") and not rest_items and index is None:
        # ${!prefix*} and ${!prefix@}: the names that start with prefix
        return Param(name, None, False, True, "names" + tail, None, None, True, start, end)
    if not tail and not rest_items:
        return Param(name, index, False, indirect, None, None, None, True, start, end)
    op = None
    for candidate in _PARAM_OPS:
        if tail.startswith(candidate):
            op = candidate
            break
    if op is None:
        raise _BadSubstitution()
    arg_text = tail[len(op):]
    arg_parts = ([Lit(arg_text, items[0].start, items[0].end)] if arg_text else []) + rest_items
    if op == "@":
        if rest_items or len(arg_text) != 1 or arg_text not in "QEPAKaUuLk":
            raise _BadSubstitution()
        return Param(name, index, False, indirect, "@" + arg_text, None, None, True, start, end)
    if op[0] in "^,~" and name in "#?-":
        raise _BadSubstitution()  # bash does not change the case of $#, $? or $- (measured)
    arg2 = None
    if op in ("/", "//", "/#", "/%"):
        arg_parts, arg2_parts = _split_at(arg_parts, "/")
        arg2 = Word(tuple(arg2_parts), start, end) if arg2_parts is not None else None
    elif op == ":":
        arg_parts, arg2_parts = _split_at(arg_parts, ":")
        arg2 = Word(tuple(arg2_parts), start, end) if arg2_parts is not None else None
    arg = Word(tuple(arg_parts), start, end)
    return Param(name, index, False, indirect, op, arg, arg2, True, start, end)


def _subscript_close(text: str, pos: int, depth: int) -> int:
    """Where in ``text`` from ``pos`` the subscript open ``depth`` brackets deep closes, or -1."""
    for at in range(pos, len(text)):
        if text[at] == "[":
            depth += 1
        elif text[at] == "]":
            depth -= 1
            if not depth:
                return at
    return -1


def _subscript_depth(text: str, pos: int, depth: int) -> int:
    """How many brackets deep a subscript is after ``text`` from ``pos``."""
    return depth + text.count("[", pos) - text.count("]", pos)


def _split_at(parts: list, sep: str):
    """Split word parts at the first ``sep`` in a literal part (not after a backslash)."""
    for n, part in enumerate(parts):
        if isinstance(part, Lit):
            pos = part.text.find(sep)
            if pos >= 0:
                before = part.text[:pos]
                after = part.text[pos + 1:]
                left = parts[:n] + ([Lit(before, part.start, part.end)] if before else [])
                right = ([Lit(after, part.start, part.end)] if after else []) + parts[n + 1:]
                return left, right
    return parts, None


_NAME_START_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _name_at(text: str, pos: int) -> Optional[int]:
    """Length of the parameter name starting at ``pos``, or None."""
    if pos >= len(text):
        return None
    ch = text[pos]
    if ch.isdigit():
        end = pos
        while end < len(text) and text[end].isdigit():
            end += 1
        return end - pos
    if ch in "@*#?-$!":
        return 1
    match = _NAME_START_RE.match(text, pos)
    return match.end() - pos if match else None


def decode_ansi_c(body: str) -> str:
    """Decode the inside of ``$'…'`` as bash does (UTF-8 for ``\\u``; a NUL ends the string)."""
    text = escapes.decode(body, escapes.ANSI_C)[0]
    cut = text.find("\0")
    return text if cut < 0 else text[:cut]


def _gobbler_passes(raw: bytes, i: int, end: int, quoted: int) -> bool:
    """Whether brace_gobbler passes over ``raw[i]`` and the byte after it unread: a
    backslash, or the brace of a ``${``, outside single quotes."""
    if quoted == 0x27:
        return False
    c = raw[i]
    return c == 0x5C or c == 0x24 and i + 1 < end and raw[i + 1] == 0x7B


def _brace_refusal(raw: bytes, parts: list, start: int, end: int):
    """Whether bash's brace expansion refuses the word ``raw[start:end]``: bash's message,
    None where the model does not follow bash's reading, False when it does not refuse.

    Looking for braces in a word that holds a `{` (braces.c, brace_gobbler), bash reads
    each `$(` it meets in double quotes, or unquoted, as a command substitution again,
    up to the end of the word. One the reader had already read (``parts``) reads the
    same; one it had taken as text, inside backquotes or inside single quotes within
    `${…}`, may not parse. bash then reports it and abandons the line (measured). An
    unclosed `$((` is matched by text instead of parsed, which the model does not follow.
    """
    if _refusals.active:
        return False  # a parse that only asks where a `$(` closes: no word of it is expanded
    read: dict = {}
    _substitution_spans(parts, read)
    tries = [_CLOSE_TRIES]
    quoted = 0
    i = start
    while i < end:
        if _gobbler_passes(raw, i, end, quoted):
            i += 2
            continue
        c = raw[i]
        following = raw[i + 1] if i + 1 < end else 0
        if quoted:
            if c == quoted:
                quoted = 0
            if not (quoted == 0x22 and c == 0x24 and following == 0x28):
                i += 1
                continue
        elif c == 0x22 or c == 0x27 or c == 0x60:
            quoted = c
            i += 1
            continue
        elif not (c in (0x24, 0x3C, 0x3E) and following == 0x28):
            i += 1
            continue
        # `$(` (or `<(`, `>(`): read as a command substitution
        if i in read:
            i = read[i]
            continue
        if raw[i + 2:i + 3] == b"(":
            return None
        if end - i > _CLOSE_SPAN:
            return None
        _refusals.active = True
        try:
            closed = _substitution_close(raw[i:end].decode("utf-8", "surrogateescape"), tries)
        finally:
            _refusals.active = False
        if closed is None:
            return None
        if isinstance(closed, str):
            return closed
        i += closed
    return False


_BRACE_CHARS = frozenset(b"{},.")


def _may_brace(text: bytes) -> bool:
    """Whether the word ``text`` holds a `{` that is not a `${`, a `,` or `..`, and a
    quote: what a brace expansion that may read its quotes differently needs."""
    return text.count(b"{") > text.count(b"${") and (b"," in text or b".." in text) and (
        b'"' in text or b"'" in text or b"`" in text)


def _brace_quoting_differs(raw: bytes, parts: list, start: int, end: int) -> bool:
    """Whether bash's brace expansion would read a `{`, `}`, `,` or `.` of the word
    ``raw[start:end]`` as quoted where the reader did not, or the reverse.

    brace_gobbler (braces.c) follows quotes by text, one level deep: a `"` inside
    backquotes within double quotes, or inside `${…}` within double quotes, closes
    its quote. There bash expands braces the reader saw quoted (``"`"{,}`"`` is two
    words). The model's brace expansion follows the reader's parts, so such a word is
    not followed. (A `$'…'` is single-quoted text by then, its quotes escaped.)
    """
    quoted_at = bytearray(end - start)  # 1 where the reader's parts quote the byte, 2 where a `$(` hides it
    ansi_c: dict = {}
    _mark_quoting(parts, quoted_at, start, 0, ansi_c)
    read: dict = {}
    _substitution_spans(parts, read)
    quoted = 0
    i = start
    while i < end:
        if _gobbler_passes(raw, i, end, quoted):
            i += 2
            continue
        c = raw[i]
        following = raw[i + 1] if i + 1 < end else 0
        if (c == 0x24 and quoted in (0, 0x22) or c in (0x3C, 0x3E) and quoted == 0) and following == 0x28:
            if i not in read:
                return True
            i = read[i]
            continue
        if quoted == 0 and i in ansi_c:
            i = ansi_c[i]
            continue
        if quoted:
            if c == quoted:
                quoted = 0
            elif c in _BRACE_CHARS and quoted_at[i - start] == 0:
                return True
            i += 1
            continue
        if c == 0x22 or c == 0x27 or c == 0x60:
            quoted = c
        elif c in _BRACE_CHARS and quoted_at[i - start] == 1:
            return True
        i += 1
    return False


def _mark_quoting(parts, marks: bytearray, base: int, quoted: int, ansi_c: dict):
    """Mark in ``marks`` (from byte ``base``) the bytes of ``parts`` the reader read as
    quoted (1) or as the inside of a `$(…)`, `$((…))` or process substitution (2);
    note in ``ansi_c`` where each `$'…'` starts and ends."""
    for part in parts:
        kind = type(part)
        if kind is Lit:
            if quoted:
                marks[part.start - base:part.end - base] = bytes([quoted]) * (part.end - part.start)
        elif kind is Param:
            for word in (part.arg, part.arg2):
                if word is not None:
                    _mark_quoting(word.parts, marks, base, quoted, ansi_c)
        elif kind is DoubleQuoted:
            marks[part.start - base:part.end - base] = b"\1" * (part.end - part.start)
            _mark_quoting(part.parts, marks, base, 1, ansi_c)
        elif kind is CmdSub and not part.backtick or kind is Arith or kind is ProcSub:
            marks[part.start - base:part.end - base] = b"\2" * (part.end - part.start)
        else:  # quoted text, an escape, backquotes
            if kind is AnsiC:
                ansi_c[part.start] = part.end
            marks[part.start - base:part.end - base] = b"\1" * (part.end - part.start)


#: `)` bytes tried as the end of a `$(` the reader had not read, in one word at most,
#: and the most of a word read after such a `$(`: past either, the model does not follow
_CLOSE_TRIES = 32
_CLOSE_SPAN = 4096


class _Refusals(threading.local):
    """Per thread: whether a parse only asks where a `$(` closes."""
    active = False


_refusals = _Refusals()


def _substitution_close(text: str, tries: list):
    """Where the command substitution ``text`` starts with closes (its length in bytes),
    or the parser's message when it does not close; None when ``tries`` runs out."""
    raw = text.encode("utf-8", "surrogateescape")
    at = raw.find(b")", 2)
    while at >= 0:
        if tries[0] <= 0:
            return None
        tries[0] -= 1
        prefix = raw[:at + 1].decode("utf-8", "surrogateescape")
        try:
            _lex(prefix)
        except ShellSyntaxError:
            pass  # still open there (or broken before): a later `)`
        else:
            if parse_prefix(prefix).error is None:
                return at + 1
        at = raw.find(b")", at + 1)
    if tries[0] <= 0:
        return None
    tries[0] -= 1
    error = parse_prefix(text).error
    return error.message if error is not None else None


def _substitution_spans(parts, spans: dict):
    """{start: end} of the substitutions the reader read in ``parts`` (not inside backquotes)."""
    for part in parts:
        kind = type(part)
        if kind is CmdSub:
            if not part.backtick:
                spans[part.start] = part.end
        elif kind is Arith or kind is ProcSub:
            spans[part.start] = part.end
        elif kind is DoubleQuoted:
            _substitution_spans(part.parts, spans)
        elif kind is Param:
            for word in (part.arg, part.arg2):
                if word is not None:
                    _substitution_spans(word.parts, spans)


def unescape_backticks(body: str, in_double_quotes: bool) -> str:
    """The backtick body bash re-parses: ``\\`` dropped before ``$``, backtick, ``\\`` (and ``"`` in quotes)."""
    special = "$`\\\"" if in_double_quotes else "$`\\"
    out = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "\\" and i + 1 < n and body[i + 1] in special:
            out.append(body[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


# ---------------------------------------------------------------- entry points


_LEX = None


def _lex(source: str):
    global _LEX
    if _LEX is None:
        # the engine is chosen when qbcore is imported; look it up once
        from ._engine import lex
        _LEX = lex
    return _LEX(source)


def _position(raw: bytes, offset: int):
    offset = max(0, min(offset, len(raw)))
    line = raw.count(b"\n", 0, offset) + 1
    column = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
    return line, column


def _syntax_error(raw: bytes, failure: "_Failure") -> ShellSyntaxError:
    line, column = _position(raw, failure.offset)
    if failure.offset >= len(raw) and failure.message.endswith("unexpected end of file"):
        # bash -c ends the script with a newline of its own, then reports
        # end of file on the line after it
        line = raw.count(b"\n") + 1 + (0 if raw.endswith(b"\n") else 1)
        column = 1
    error = ShellSyntaxError(failure.message, failure.offset, line, column)
    error.conditional = failure.conditional
    return error


def _parse_tokens(source: str, raw: bytes, tokens, newlines: Optional[list] = None):
    parser = _Parser(source, tokens, raw)
    if newlines is not None:
        parser.newlines = newlines
    chunks: list = []
    failure = None
    try:
        parser.script_chunks(chunks)
    except _Failure as exc:
        failure = exc
    # a heredoc whose line never ended (end of input) has an empty body, as in bash
    for redirect in parser.pending_heredocs:
        delimiter, quoted = _delimiter(redirect.target)
        object.__setattr__(redirect, "heredoc", Heredoc(
            delimiter, quoted, redirect.op == "<<-", "", (), False, redirect.end, redirect.end))
    return chunks, failure


def _script(source: str, raw: bytes, chunks: list, error, parsed_until: int,
            newlines: Optional[list] = None) -> Script:
    if newlines is None:
        newlines = _newline_offsets(raw) if "\n" in source else []
    script = Script(source, (), error, parsed_until, newlines)
    script.chunks = tuple(
        Chunk(items, start, end_offset, script.line_of(start), script.line_of(max(start, end_offset - 1)))
        for items, start, end, end_offset in chunks)
    return script


def parse(source: str) -> Script:
    """Parse a whole script; raises ShellSyntaxError with bash's wording, line and column."""
    script = parse_prefix(source)
    if script.error is not None:
        raise script.error
    return script


def parse_prefix(source: str) -> Script:
    """Parse as ``bash -c`` reads: the chunks before the first syntax error, and that error.

    Never raises ShellSyntaxError: ``error`` carries it and ``chunks`` hold
    the complete lines that bash would have run before reaching it.
    """
    if not isinstance(source, str):
        raise TypeError(f"parse expects str, not {type(source).__name__}")
    raw = source.encode("utf-8", "surrogateescape")
    if "\\\n" in source:
        joined = _joined_script(source, raw)
        if joined is not None:
            return joined
    try:
        tokens = _lex(source)
    except ShellSyntaxError as exc:
        earlier = _error_before_the_end(source, raw, exc) or _earlier_parse_error(raw, exc) or \
            _error_in_open_substitution(raw, exc) or _error_in_open_cond(source, raw, exc)
        return _prefix_after_lex_error(source, raw, earlier or exc)
    try:
        chunks, failure = _parse_tokens(source, raw, tokens)
    except RecursionError:
        raise _too_deep() from None
    if failure is None:
        return _script(source, raw, chunks, None, len(raw))
    error = _syntax_error(raw, failure)
    until = chunks[-1][3] if chunks else 0
    return _script(source, raw, chunks, error, until)


#: Compound lists and substitutions open inside one another at most.
NESTING = 100


def _too_deep() -> NestedTooDeep:
    return NestedTooDeep("the script nests constructs deeper than the parser follows "
                      f"(about {sys.getrecursionlimit() // 12} levels)")


# ---------------------------------------------------------------- line continuations
#
# bash drops a backslash-newline pair while it reads its input, before any
# token is formed (except inside single quotes, $'…', comments and the bodies
# of quoted here-documents): `$E\<newline>F` is `$EF`, `[\<newline>[` is `[[`.
# The lexer keeps the pairs (its spans are lossless), so a script that has
# them is parsed a second time with them removed; the joined text becomes the
# Script's source, and its line map still counts the removed newlines.


_OPENS = {"dq-open": "dq", "locale-open": "dq", "param-open": "param", "arith-open": "arith",
          "cmdsub-open": "cmd", "procsub-open": "cmd"}
_CLOSES = frozenset(("dq-close", "param-close", "arith-close", "cmdsub-close", "procsub-close"))


def _continuations(raw: bytes, tokens) -> list:
    """Byte offsets of the backslash-newline pairs bash removes while reading ``raw``."""
    found = []
    frames = []  # what encloses the token: quotes, ${…}, arithmetic, a command context
    for tok in tokens:
        kind, start, end = tok[0], tok[1], tok[2]
        if kind == "line-cont":
            found.append(start)
        elif kind in _OPENS:
            frames.append(_OPENS[kind])
        elif kind in _CLOSES:
            if frames:
                frames.pop()
        elif kind == "backtick-body" or kind in ("sq", "ansi-sq") and _inside_double_quotes(frames):
            # bash reads a backtick body, and quotes inside ${…} within double quotes, as
            # text in which only its pairs count: `\\` keeps its second backslash
            if b"\\\n" in raw[start:end]:
                _pairs(raw, start, end, found)
    return sorted(found)


def _inside_double_quotes(frames: list) -> bool:
    for frame in reversed(frames):
        if frame == "dq":
            return True
        if frame == "cmd":
            return False
    return False


def _pairs(raw: bytes, start: int, end: int, found: list):
    i = start
    while i < end - 1:
        if raw[i] == 0x5C:
            if raw[i + 1] == 0x0A:
                found.append(i)
            i += 2
        else:
            i += 1


def _continuations_before(raw: bytes, offset: int) -> list:
    """The pairs bash removes from a script the lexer stops in at ``offset``: those of
    the text before it, then every unescaped pair after it (bash stops there, but
    counts the lines it reads up to the end of the unexpected token). When the text
    before it does not lex either (the lexer stopped at the end of input), every
    unescaped pair after the longest run of whole lines that does: there, quotes and
    comments are not told apart in a script that fails."""
    ends = [offset] + [m.end() for m in re.finditer(b"\n", raw[:offset])][::-1][:64]
    found, start = [], 0
    for end in ends:
        try:
            found = _continuations(raw[:end], _lex(raw[:end].decode("utf-8", "surrogateescape")))
        except ShellSyntaxError:
            continue
        start = end
        break
    _pairs(raw, start, len(raw), found)
    return found


class _Joined:
    """``raw`` without the removed pairs, and the way back to the original offsets and lines."""

    def __init__(self, raw: bytes, removed: list):
        self.original = raw
        pieces, last = [], 0
        for offset in removed:
            pieces.append(raw[last:offset])
            last = offset + 2
        pieces.append(raw[last:])
        self.raw = b"".join(pieces)
        self.source = self.raw.decode("utf-8", "surrogateescape")
        # where each removed pair sat in the joined text
        self.cuts = [offset - 2 * n for n, offset in enumerate(removed)]
        # the line map counts a removed newline for every offset at or after its cut
        real = _newline_offsets(self.raw)
        self.newlines = sorted(real + [cut - 1 for cut in self.cuts])

    def original_offset(self, offset: int) -> int:
        return offset + 2 * bisect.bisect_right(self.cuts, offset)

    def error(self, failure: "_Failure") -> ShellSyntaxError:
        """The error at its place in the original text; bash names the line it has read
        up to, which includes the pairs right after the unexpected token."""
        mapped = _Failure(failure.message, self.original_offset(failure.offset))
        mapped.conditional = failure.conditional
        error = _syntax_error(self.original, mapped)
        if failure.end is not None:
            line, _ = _position(self.original, self.original_offset(failure.end))
            if line > error.line:
                error = ShellSyntaxError(error.message, error.offset, line, error.column)
                error.conditional = failure.conditional
        return error

    def lex_error(self, exc: ShellSyntaxError) -> ShellSyntaxError:
        if exc.offset >= len(self.raw):
            return ShellSyntaxError(exc.message, len(self.original), exc.line + len(self.cuts), exc.column)
        token = re.search(r"unexpected token `(.*)'\Z", exc.message, re.S)
        end = None
        if token and token.group(1) != "newline":
            end = exc.offset + len(token.group(1).encode("utf-8", "surrogateescape"))
        failure = _Failure(exc.message, exc.offset, end)
        return self.error(failure)


def _joined_script(source: str, raw: bytes) -> Optional[Script]:
    """The script parsed with its continuations removed, or None when bash removes none."""
    try:
        removed = _continuations(raw, _lex(source))
    except ShellSyntaxError as exc:
        removed = _continuations_before(raw, exc.offset)
    return _parse_joined(source, raw, _Joined(raw, removed)) if removed else None


def _parse_joined(source: str, raw: bytes, joined: _Joined) -> Script:
    try:
        tokens = _lex(joined.source)
    except ShellSyntaxError as exc:
        exc = _error_before_the_end(joined.source, joined.raw, exc) or _earlier_parse_error(joined.raw, exc) or \
            _error_in_open_substitution(joined.raw, exc) or exc
        return _prefix_after_lex_error(source, raw, joined.lex_error(exc))
    try:
        chunks, failure = _parse_tokens(joined.source, joined.raw, tokens, joined.newlines)
    except RecursionError:
        raise _too_deep() from None
    error = None if failure is None else joined.error(failure)
    until = len(joined.raw) if failure is None else chunks[-1][3] if chunks else 0
    return _script(joined.source, joined.raw, chunks, error, until, joined.newlines)


def _error_before_the_end(source: str, raw: bytes, error: ShellSyntaxError) -> Optional[ShellSyntaxError]:
    """The unexpected token bash meets inside a compound command the input leaves open
    (``for x in a; echo``: no ``do``). The lexer reads to the end and reports that;
    bash parses as it reads, so the parser's error over the same tokens, before the
    end, is the one it reports."""
    if error.tokens is None:
        return None
    try:
        _, failure = _parse_tokens(source, raw, error.tokens)
    except RecursionError:
        return None
    if failure is None or failure.offset >= len(raw) or "end of file" in failure.message or \
            failure.message.endswith("`newline'") and failure.offset >= len(raw) - 1:
        return None
    return _syntax_error(raw, failure)


def _earlier_parse_error(raw: bytes, error: ShellSyntaxError) -> Optional[ShellSyntaxError]:
    """A grammar error bash meets before the one the lexer reported, if any.

    The lexer stops at the first construct it cannot finish (often at the
    end of input), but bash reports the first unexpected token in reading
    order. Parse the longest prefix that lexes, cut at a blank or separator:
    an error strictly inside it, away from the cut, is the one bash reports.
    """
    limit = min(error.offset, len(raw))
    # cut at blanks, at the start of an operator run (never inside `&&` or `;;`), after
    # a `(` that opens no substitution (`E(` is an unexpected token there) and at the
    # start of a redirection operator (`f (y)>#` fails at `y` before its target)
    cuts = [m.start() for m in re.finditer(rb"[ \t\n]|(?<![;&|])[;&|]|(?<=[;&|])(?![;&|])|(?<=[^$(]\()|"
                                           rb"(?<![<>&0-9])[<>]", raw[:limit])]
    if limit < len(raw):
        cuts.append(limit)  # everything before the token the lexer rejected
    for cut in reversed(cuts[-40:]):
        prefix = raw[:cut]
        if prefix.endswith(b"("):
            prefix += b")"  # the lexer wants the `(` closed; the parser judges the `(` itself
        try:
            tokens = _lex(prefix.decode("utf-8", "surrogateescape"))
        except ShellSyntaxError:
            continue
        try:
            _, failure = _parse_tokens(prefix.decode("utf-8", "surrogateescape"), prefix, tokens)
        except RecursionError:
            return None
        if failure is None or failure.offset >= cut or "end of file" in failure.message:
            return None
        if failure.message.endswith("`newline'") and failure.offset >= cut - 1:
            return None
        if failure.offset < error.offset and not _SEPARATORS.search(raw, failure.offset, error.offset):
            return None  # bash is still reading that token (`a[…`, `x=(…`) when it meets the lexer's error
        return _syntax_error(raw, failure)
    return None


_SEPARATORS = re.compile(rb"[ \t\n;&|<>()]")
_OPEN_SUBSTITUTION = re.compile(rb"\$\((?!\()")
# bodies inside bodies: the depth and the number of bodies parsed for one
# script are bounded, so deep nesting and long scripts stay linear
# (per thread: simulate may run in several threads at once)
_bodies = threading.local()


def _error_in_open_substitution(raw: bytes, error: ShellSyntaxError) -> Optional[ShellSyntaxError]:
    """A grammar error inside a ``$(`` that never closes, which bash meets first.

    bash parses a command substitution's body as commands when it reads the
    ``$(``, so ``E$(||"`` fails at ``||``; the lexer only sees the ``$(``
    run to the end of input. The bodies are parsed on their own in reading
    order: one that fails at the ``)`` closing it is skipped; the first
    other unexpected token is the error bash reports.
    """
    limit = min(error.offset, len(raw))
    depth = getattr(_bodies, "depth", 0)
    if depth == 0:
        _bodies.budget = 32
    elif depth >= 4:
        return None
    starts = [m.start() for m in _OPEN_SUBSTITUTION.finditer(raw, 0, limit)]
    for start in starts[:32]:
        if _bodies.budget <= 0:
            return None
        _bodies.budget -= 1
        try:
            _lex(raw[:start + 2].decode("utf-8", "surrogateescape"))
        except ShellSyntaxError as opened:
            if not opened.message.endswith("matching `)'"):
                continue  # the `$(` sits in quotes or a comment: not a substitution
        else:
            continue
        body = raw[start + 2:]
        _bodies.depth = depth + 1
        try:
            inner = parse_prefix(body.decode("utf-8", "surrogateescape")).error
        except ValueError:
            inner = None
        finally:
            _bodies.depth = depth
        if inner is not None and inner.message.endswith("`)'"):
            continue  # this one closes: bash goes on reading after it
        if inner is None or "unexpected EOF" in inner.message or "end of file" in inner.message \
                or start + 2 + inner.offset >= limit:
            return None
        offset = start + 2 + inner.offset
        line, column = _position(raw, offset)
        found = ShellSyntaxError(inner.message, offset, line, column)
        found.conditional = inner.conditional and "substitution"
        return found
    return None


def _error_in_open_cond(source: str, raw: bytes, error: ShellSyntaxError) -> Optional[ShellSyntaxError]:
    """A ``[[ ]]`` grammar error before the end of a ``[[`` that never closes, which bash meets
    first (it reads the expression token by token: `[[ a` then a newline and more lines fails
    at the newline). The lexer only sees the ``]]`` missing; the text parsed with one added
    on a line of its own fails where bash does, if before the end."""
    if error.message != "unexpected EOF while looking for `]]'":
        return None
    closed = source + "\n]]"
    try:
        _, failure = _parse_tokens(closed, closed.encode("utf-8", "surrogateescape"), _lex(closed))
    except (ShellSyntaxError, RecursionError):
        return None
    if failure is None or failure.conditional is None or failure.offset > len(raw):
        return None  # (at len(raw): the newline bash adds to the input, as the one added here)
    if failure.cause_end >= len(raw):
        failure.conditional = "end"
    return _syntax_error(raw, failure)


def _prefix_after_lex_error(source: str, raw: bytes, error: ShellSyntaxError) -> Script:
    # The lexer reads the whole input; bash reads line by line, so the lines
    # before the unterminated construct ran. Walk forward from one chunk
    # boundary to the next: a slice that ends at a newline and parses
    # completely on its own ran. The next newline is tried first, then a
    # few more one by one, then doubling distances, so a long unterminated
    # tail costs O(n log n) instead of a quadratic search.
    limit = min(error.offset, len(raw))
    newlines = _newline_offsets(raw[:limit])
    start, k = 0, 0
    while k < len(newlines):
        candidates = sorted(set(list(range(k, min(k + 64, len(newlines)))) +
                                [k + (1 << i) - 1 for i in range(40) if k + (1 << i) - 1 < len(newlines)]))
        for j in candidates:
            if _complete(raw[start:newlines[j] + 1]):
                start, k = newlines[j] + 1, j + 1
                break
        else:
            break
    if start == 0:
        return _script(source, raw, [], error, 0)
    prefix = raw[:start]
    ran = parse_prefix(prefix.decode("utf-8", "surrogateescape"))
    # the lines that ran, as parsed (continuations removed), then the rest as it is
    ran_raw = ran.source.encode("utf-8", "surrogateescape")
    shift = len(prefix) - len(ran_raw)
    rest = [start + at - shift for at in _newline_offsets(raw[start:])]
    script = Script(ran.source + raw[start:].decode("utf-8", "surrogateescape"), ran.chunks, error,
                    len(ran_raw), ran._newlines + rest)
    return script


def _complete(piece: bytes) -> bool:
    """Whether ``piece`` (starting at a chunk boundary, ending at a newline) parses completely."""
    text = piece.decode("utf-8", "surrogateescape")
    try:
        tokens = _lex(text)
    except ShellSyntaxError:
        return False
    if tokens and tuple(tokens[-1])[0] == "line-cont":
        return False  # `\` + newline joins this line to the next: bash had not run it yet
    kinds = [tok[0] for tok in tokens]
    if kinds.count("heredoc-op") != kinds.count("heredoc-end"):
        return False  # a here-document body goes on after the piece: its line is not over
    removed = _continuations(piece, tokens) if b"\\\n" in piece else ()
    if removed:
        joined = _Joined(piece, removed)
        piece, text = joined.raw, joined.source
        try:
            tokens = _lex(text)
        except ShellSyntaxError:
            return False
    try:
        _, failure = _parse_tokens(text, piece, tokens)
    except RecursionError:
        return False
    return failure is None
