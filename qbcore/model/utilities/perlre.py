"""grep -P's patterns (PCRE2, as GNU grep 3.8 compiles them) where Python's ``re`` reads
them alike: a whitelist, not a translation.

Inside the subset both engines are backtracking matchers with the same leftmost-first
alternation, so a line matches, and -o prints, the same spans. The subset: ASCII
literals; ``.``; ``^`` and ``$``; escaped punctuation; ``\\d \\w \\s \\D \\W \\S \\b \\B``
(ASCII in both for ASCII lines, the only lines it is used on); ``\\t \\n \\r`` and
``\\xHH``; backreferences ``\\1``–``\\9``; bracket expressions without POSIX classes or
nested brackets; groups ``( )``, ``(?: )`` and the lookarounds; ``* + ?`` with their lazy
and possessive forms, and ``{n}``, ``{n,}``, ``{n,m}`` up to 1000; ``\\K`` once, outside
every group and beside no top-level ``|`` or backreference. Anything else (``\\Q``,
``\\p``, ``\\h``, ``\\z``, named groups, inline flags, ``{,m}``…) is unknown: the two
engines read it differently or one of them refuses it.

Why bounded: a backtracking matcher can take time exponential in a line's length. A
quantified group may hold no quantifier and no ``|``, and the work a line may take
(``work``) is checked before it is matched.
"""

from __future__ import annotations

import re

__all__ = ["PerlPattern", "NotPerlSubset"]

_CLASS_ESCAPES = frozenset(b"dwsDWStnr")
_ESCAPES = frozenset(b"dwsDWSbBtnr")
_QUANTIFIER = re.compile(rb"\{([0-9]{1,4})(,([0-9]{0,4}))?\}")
_LOOKAROUNDS = (b"?:", b"?=", b"?!", b"?<=", b"?<!")
_MAX_REPEAT = 1000
#: the most steps a line may take, as (length + 1) ** (variable quantifiers) * 2 ** (optional items)
_MAX_WORK = 10_000_000


class NotPerlSubset(Exception):
    """The pattern lies outside the subset both engines read alike."""


class PerlPattern:
    """One grep -P pattern checked against the subset: ``regex`` its bytes pattern, compiled
    by ``re``; ``work(line)`` raises NotPerlSubset when a line may take too long."""

    __slots__ = ("source", "variable", "optional", "keeps")

    def __init__(self, source: bytes):
        self.variable, self.optional, self.source = _check(source)
        self.keeps = _KEEP in self.source

    def reported(self, found) -> tuple:
        """The span grep reports of a match: from ``\\K`` on, when the pattern holds one."""
        return (found.start("K") if self.keeps else found.start()), found.end()

    def compile(self, prefix: bytes, suffix: bytes, icase: bool):
        try:
            return re.compile(prefix + self.source + suffix, re.IGNORECASE if icase else 0)
        except re.error as exc:
            raise NotPerlSubset(f"a pattern Python's re refuses ({exc})") from None

    def work(self, line: bytes):
        if not line.isascii():
            raise NotPerlSubset("a line past ASCII (PCRE reads it in the locale's encoding)")
        if (len(line) + 1) ** self.variable * 2 ** self.optional > _MAX_WORK:
            raise NotPerlSubset("a line longer than the pattern's backtracking is bounded for here")


#: PCRE's \K (the match reported from here on), spelled for re: an empty group that marks where
_KEEP = b"(?P<K>)"
#: PCRE's \B, spelled for re, whose \B never matches an empty line (PCRE's does)
_NOT_BOUNDARY = rb"(?:(?<=\w)(?=\w)|(?<!\w)(?!\w))"


def _check(p: bytes) -> tuple:
    """(variable quantifiers, optional items, the pattern for re) of ``p``; NotPerlSubset
    outside the subset."""
    if not p.isascii():
        raise NotPerlSubset("a pattern past ASCII")
    n = len(p)
    i = 0
    variable = optional = 0
    # each open group: [whether it holds a quantifier or |, whether it is a lookaround]
    groups: list = []
    out: list = []  # (start, end, replacement) of what re spells otherwise
    keep, backreference, alternation = None, False, False
    quantifiable = False  # whether the item just read may take a quantifier
    last_group = None  # the group just closed, when that is the item just read
    while i < n:
        c = p[i]
        if c == 0x5C:  # backslash
            if i + 1 >= n:
                raise NotPerlSubset("a backslash at the end")
            e = p[i + 1]
            if e == 0x42:  # \B
                out.append((i, i + 2, _NOT_BOUNDARY))
                quantifiable, i = False, i + 2
            elif e == 0x4B:  # \K: once, outside every group (no | around it: checked at the end)
                if groups or keep is not None:
                    raise NotPerlSubset("\\K inside a group or twice")
                keep = i
                out.append((i, i + 2, _KEEP))
                quantifiable, i = False, i + 2
            elif e in _ESCAPES:
                quantifiable = e != 0x62
                i += 2
            elif e == 0x78:  # \xHH
                if re.fullmatch(rb"[0-9A-Fa-f]{2}", p[i + 2:i + 4]) is None:
                    raise NotPerlSubset("\\x without two hex digits")
                quantifiable, i = True, i + 4
            elif 0x31 <= e <= 0x39 and not (i + 2 < n and 0x30 <= p[i + 2] <= 0x39):
                quantifiable, i, backreference = True, i + 2, True
            elif not (0x30 <= e <= 0x39 or 0x41 <= e <= 0x5A or 0x61 <= e <= 0x7A):
                quantifiable, i = True, i + 2  # an escaped punctuation character or blank
            else:
                raise NotPerlSubset(f"the escape \\{chr(e)}")
            last_group = None
            continue
        if c == 0x5B:  # [
            i = _bracket(p, i)
            quantifiable, last_group = True, None
            continue
        if c == 0x28:  # (
            kind = None
            if p[i + 1:i + 2] == b"?":
                kind = next((k for k in _LOOKAROUNDS if p.startswith(k, i + 1)), None)
                if kind is None:
                    raise NotPerlSubset("a group of a kind outside (?: (?= (?! (?<= (?<!")
                i += len(kind)
            groups.append([False, kind not in (None, b"?:")])
            quantifiable, last_group = False, None
            i += 1
            continue
        if c == 0x29:  # )
            if not groups:
                raise NotPerlSubset("an unmatched )")
            last_group = groups.pop()
            if groups and last_group[0]:
                groups[-1][0] = True
            quantifiable = not last_group[1]
            i += 1
            continue
        if c == 0x7C:  # |
            if groups:
                groups[-1][0] = True
            else:
                alternation = True
            quantifiable, last_group = False, None
            i += 1
            continue
        if c in b"*+?{":
            if c == 0x7B:
                m = _QUANTIFIER.match(p, i)
                if m is None:
                    raise NotPerlSubset("a { that is no {n}, {n,} or {n,m}")
                low, comma, high = int(m.group(1)), m.group(2), m.group(3)
                if low > _MAX_REPEAT or high and int(high) > _MAX_REPEAT or high and int(high) < low:
                    raise NotPerlSubset("a repeat count past 1000, or one whose bounds are out of order")
                fixed = comma is None or high and int(high) == low
                end = m.end()
            else:
                fixed, end = False, i + 1
            if not quantifiable:
                raise NotPerlSubset("a quantifier after nothing a quantifier may follow")
            if last_group is not None and last_group[0]:
                raise NotPerlSubset("a quantified group that holds a quantifier or |")
            if c == 0x3F:
                optional += 1
            elif not fixed:
                variable += 1
            if groups:
                groups[-1][0] = True
            if p[end:end + 1] in (b"?", b"+"):
                end += 1  # lazy or possessive
            i = end
            quantifiable, last_group = False, None
            continue
        quantifiable, last_group = c not in b"^$", None
        i += 1
    if groups:
        raise NotPerlSubset("an unclosed (")
    if keep is not None and (alternation or backreference):
        # (the group that marks \K would move the numbers of the groups after it)
        raise NotPerlSubset("\\K beside a | outside every group, or beside a backreference")
    spelled, at = [], 0
    for start, end, replacement in out:
        spelled += [p[at:start], replacement]
        at = end
    return variable, optional, b"".join(spelled) + p[at:]


def _bracket(p: bytes, i: int) -> int:
    """The end of the bracket expression starting at ``p[i]`` (``[``)."""
    n = len(p)
    j = i + 1
    if p[j:j + 1] == b"^":
        j += 1
    if p[j:j + 1] == b"]":
        j += 1  # a ] first is a member
    while j < n:
        c = p[j]
        if c == 0x5D:
            return j + 1
        if c == 0x5B:
            raise NotPerlSubset("a [ inside a bracket expression (POSIX classes)")
        if c == 0x5C:
            e = p[j + 1:j + 2]
            if not e:
                break
            if e[0] in _CLASS_ESCAPES or not e.isalnum():
                j += 2
                continue
            raise NotPerlSubset(f"the escape \\{e.decode()} in a bracket expression")
        j += 1
    raise NotPerlSubset("an unclosed [")
