"""POSIX BRE/ERE (GNU flavour, C locale) translated to Python ``re`` over bytes — exactly, or not at all.

Python's engine is leftmost-first; POSIX is leftmost-longest. The two agree
when no alternation offers a choice at one position and no group carries a
quantifier, so a pattern with a quantified group, or an alternation whose
branches are not plain literals none of which is a prefix of another, raises
:class:`Untranslatable` rather than risk a different match.
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["translate", "Untranslatable", "compile_posix"]


class Untranslatable(Exception):
    """The pattern uses something whose meaning Python's re would change."""


class ConfusingBracket(Exception):
    """gnulib's dfa (grep's and sed's second parse) refuses the pattern: a bracket expression
    spelled like a class's name, ``[:alpha:]`` where ``[[:alpha:]]`` was meant."""

    MESSAGE = "character class syntax is [[:space:]], not [:space:]"


_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "0-9a-zA-Z", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "xdigit": "0-9A-Fa-f",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), "cntrl": "\\x00-\\x1f\\x7f",
    "print": "\\x20-\\x7e", "graph": "\\x21-\\x7e",
}
_ESCAPES = {"w": r"[0-9A-Za-z_]", "W": r"[^0-9A-Za-z_]", "s": r"[ \t\n\r\f\v]",
            "S": r"[^ \t\n\r\f\v]", "b": r"\b", "B": r"\B", "n": r"\n", "t": r"\t",
            "`": r"\A", "'": r"\Z"}
# a backslash before a letter glibc's regex gives no meaning: the letter itself, to grep and
# to bash's =~ alike (unlike sed, \t and \n are no tab and newline there: measured)
GLIBC_LETTERS = {c: c for c in "acdefghijklmnopqrtuvxyzACDEFGHIJKLMNOPQRTUVXYZ"}
# glibc's word anchors (grep, sed, bash's =~); mawk reads \< and \> as the characters
_WORD_ANCHORS = {"<": r"\b(?=[0-9A-Za-z_])", ">": r"\b(?<=[0-9A-Za-z_])"}


def _bracket(p: str, i: int, plain_backslash: bool = False, confusing: Optional[list] = None) -> tuple[str, int]:
    """Translate the bracket expression starting at p[i] == '['; a backslash in it is itself
    only with ``plain_backslash`` (POSIX, as grep reads it; sed reads escapes there). When it
    is one dfa refuses, its text is appended to ``confusing``."""
    j = i + 1
    neg = j < len(p) and p[j] == "^"
    if neg:
        j += 1
    items = []
    first = True
    # dfa's colon_warning_state: 1 first member a colon, 2 last member a colon, 4 some other
    # member, 8 a class or range; 7 is the refused [:name:] shape
    colons = 1 if j < len(p) and p[j] == ":" else 0
    while True:
        if j >= len(p):
            raise Untranslatable("unterminated bracket expression")
        c = p[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        colons &= ~2
        if c == "[" and j + 1 < len(p) and p[j + 1] in ":.=":
            kind = p[j + 1]
            end = p.find(kind + "]", j + 2)
            if end < 0 or kind != ":":
                raise Untranslatable("bracket collating element or equivalence class")
            name = p[j + 2:end]
            if name not in _CLASSES:
                raise Untranslatable(f"character class [:{name}:]")
            items.append(_CLASSES[name])
            colons |= 8
            j = end + 2
            continue
        if c == "\\" and not plain_backslash:
            raise Untranslatable("backslash inside a bracket expression")
        if j + 2 < len(p) and p[j + 1] == "-" and p[j + 2] != "]":
            lo, hi = c, p[j + 2]
            if hi == "[" or ord(lo) > ord(hi):
                raise Untranslatable("bracket range")
            items.append(re.escape(lo) + "-" + re.escape(hi))
            colons |= 8
            j += 3
            continue
        items.append(re.escape(c))
        colons |= 2 if c == ":" else 4
        j += 1
    if colons == 7 and confusing is not None:
        confusing.append(p[i:j])
    body = "".join(items)
    return ("[^" if neg else "[") + body + "]", j


def _check_alternation(frame: dict) -> None:
    branches = ["".join(b) for b in frame["branches"]]
    if len(branches) < 2:
        return
    if not frame["literal"] or "" in branches or any(
            a != b and b.startswith(a) for a in branches for b in branches):
        raise Untranslatable("alternation (POSIX longest match differs from Python's)")


def translate(pattern: str, extended: bool, existence_only: bool = False, escapes: Optional[dict] = None,
              plain_backslash: bool = False, word_anchors: bool = True, confusing: Optional[list] = None) -> str:
    """The Python regex (for bytes decoded as latin-1) matching what GNU would match.

    ``existence_only``: the caller asks only *whether* a line matches (grep without -o),
    so match extents do not matter and longest-match worries vanish (unless backreferences
    tie a later part to what a group captured). ``escapes``: the character a backslash and
    a letter stand for outside brackets, where the caller's tool decides it (sed).
    ``plain_backslash``: a backslash inside brackets is itself, as POSIX has it (grep).
    ``word_anchors``: ``\\<`` and ``\\>`` begin and end a word (glibc), not the characters (mawk).
    ``confusing``: a list that gets the bracket expressions gnulib's dfa refuses (grep and sed
    parse with it after glibc: the caller raises ConfusingBracket once the rest is valid)."""
    has_backref = re.search(r"\\[1-9]", pattern) is not None
    lenient = existence_only and not has_backref
    out: list = []          # pieces; each quantifiable piece is one atom
    kinds: list = []        # per piece: "atom", "group", "anchor", "quant", "alt", "open"
    frames: list = [{"branches": [[]], "literal": True}]  # one per open group, for alternation
    depth = 0
    i = 0
    p = pattern

    def at_expression_start() -> bool:
        return not kinds or kinds[-1] in ("open", "alt") or (kinds[-1] == "anchor" and out[-1] == r"\A")

    def quantify(q: str) -> None:
        if not kinds or kinds[-1] in ("open", "alt", "anchor", "quant"):
            raise Untranslatable(f"quantifier {q!r} without an atom")
        if kinds[-1] == "group" and not lenient:
            raise Untranslatable("quantified group (POSIX longest match differs)")
        out.append(q)
        kinds.append("quant")

    while i < len(p):
        c = p[i]
        if c == "\\":
            if i + 1 >= len(p):
                raise Untranslatable("trailing backslash")
            d = p[i + 1]
            i += 2
            if not extended and d in "(){}|+?":
                c, special = d, True
            elif d.isdigit() and d != "0":
                out.append(f"(?:\\{d})")
                kinds.append("atom")
                frames[-1]["literal"] = False
                continue
            elif escapes and d in escapes:
                out.append(re.escape(escapes[d]))
                kinds.append("atom")
                frames[-1]["branches"][-1].append(escapes[d])
                continue
            elif d in _ESCAPES:
                out.append(_ESCAPES[d])
                kinds.append("anchor" if d in "bB`'" else "atom")
                frames[-1]["literal"] = False
                continue
            elif word_anchors and d in _WORD_ANCHORS:
                out.append(_WORD_ANCHORS[d])
                kinds.append("anchor")
                frames[-1]["literal"] = False
                continue
            elif d in ".*[]^$\\/" or (extended and d in "(){}|+?") or not d.isalnum():
                if ord(d) > 127:
                    raise Untranslatable("escaped non-ASCII byte")
                out.append(re.escape(d))
                kinds.append("atom")
                frames[-1]["branches"][-1].append(d)
                continue
            else:
                raise Untranslatable(f"escape \\{d}")
            if not special:
                continue
        else:
            special = extended and c in "(){}|+?"
            i += 1
        if special:
            if c == "(":
                out.append("(")
                kinds.append("open")
                depth += 1
                frames.append({"branches": [[]], "literal": True})
                continue
            if c == ")":
                if depth == 0:
                    raise Untranslatable("unmatched ) in a pattern")
                depth -= 1
                frame = frames.pop()
                if not lenient:
                    _check_alternation(frame)
                frames[-1]["literal"] = False
                # collapse the group into one atom
                k = len(kinds) - 1 - kinds[::-1].index("open")  # inner groups are atoms already
                inner = "".join(out[k + 1:])
                del out[k:]
                del kinds[k:]
                out.append("(" + inner + ")")
                kinds.append("group")
                continue
            if c == "|":
                out.append("|")
                kinds.append("alt")
                frames[-1]["branches"].append([])
                continue
            if c in "+?":
                if at_expression_start():
                    raise Untranslatable(f"{c!r} at the start of an expression")
                quantify(c)
                frames[-1]["literal"] = False
                continue
            if c == "{":
                close = p.find("\\}" if not extended else "}", i)
                body = p[i:close] if close >= 0 else ""
                if close < 0 or not re.fullmatch(r"[0-9]*(,[0-9]*)?", body) or body in ("", ","):
                    raise Untranslatable("interval expression")
                lo, _, hi = body.partition(",")
                if hi and int(hi) < int(lo or "0"):
                    raise Untranslatable("interval with max < min")
                if at_expression_start():
                    raise Untranslatable("interval at the start of an expression")
                quantify("{" + (lo or "0") + ("," + hi if "," in body else "") + "}")
                i = close + (2 if not extended else 1)
                frames[-1]["literal"] = False
                continue
            if c == "}":
                raise Untranslatable("unmatched interval close")
        if c == "*":
            if at_expression_start():
                if extended:
                    raise Untranslatable("'*' at the start of an ERE")
                out.append(re.escape("*"))
                kinds.append("atom")
                frames[-1]["branches"][-1].append("*")
                continue
            quantify("*")
            frames[-1]["literal"] = False
            continue
        if c == "^":
            if extended or not kinds or kinds[-1] in ("open", "alt"):
                out.append(r"\A")
                kinds.append("anchor")
                frames[-1]["literal"] = False
                continue
            out.append(re.escape(c))
            kinds.append("atom")
            frames[-1]["branches"][-1].append(c)
            continue
        if c == "$":
            rest = p[i:]
            at_end = rest == "" or rest.startswith("\\)") or rest.startswith("\\|") if not extended \
                else True
            if at_end:
                out.append(r"\Z")
                kinds.append("anchor")
                frames[-1]["literal"] = False
                continue
            out.append(re.escape(c))
            kinds.append("atom")
            frames[-1]["branches"][-1].append(c)
            continue
        if c == "[":
            piece, i = _bracket(p, i - 1, plain_backslash, confusing)
            out.append(piece)
            kinds.append("atom")
            frames[-1]["literal"] = False
            continue
        if c == ".":
            out.append(".")
            kinds.append("atom")
            frames[-1]["literal"] = False
            continue
        if ord(c) > 127:
            raise Untranslatable("non-ASCII byte in a pattern (locale-dependent)")
        out.append(re.escape(c))
        kinds.append("atom")
        frames[-1]["branches"][-1].append(c)
    if depth:
        raise Untranslatable("unmatched ( in a pattern")
    if not lenient:
        _check_alternation(frames[-1])
    return "".join(out)


def compile_posix(pattern: bytes, extended: bool, ignore_case: bool = False,
                  existence_only: bool = False, escapes: Optional[dict] = None, plain_backslash: bool = False,
                  word_anchors: bool = True, confusing: Optional[list] = None):
    """A compiled bytes regex, or Untranslatable; ``confusing`` as for translate."""
    text = translate(pattern.decode("latin-1"), extended, existence_only, escapes, plain_backslash, word_anchors,
                     confusing)
    flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
    try:
        return re.compile(text.encode("latin-1"), flags)
    except re.error as exc:
        raise Untranslatable(f"pattern Python cannot compile: {exc}") from None
