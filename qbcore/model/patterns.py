"""Bash glob patterns matched in linear time, without backtracking.

One job: compile a pattern (``*``, ``?``, bracket expressions, quoted
characters) into a position automaton and run it as a bit-parallel state set
over the text, so matching costs O(len(text) × len(pattern) / 64) whatever
the pattern (``*a*a*a*a*b`` included). The string operations of ``${x#…}``,
``${x%…}`` and ``${x/…}`` are built on the same scans: a removal is one pass,
a replacement one backward pass to find every place a match starts plus one
forward pass from each start it uses.
"""

from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

__all__ = ["Automaton"]

# element kinds
_LIT, _ONE, _STAR, _SET = range(4)


class Automaton:
    """A pattern as a sequence of elements; state ``k`` means "the first k elements matched".

    ``elements`` holds (kind, arg): a literal character, any one character,
    ``*`` (any run), or a one-character set given as a predicate. In a
    ``pathname`` pattern ``*`` and ``?`` do not match ``/``.
    """

    __slots__ = ("elements", "pathname", "size", "accept", "_stars", "_masks", "_start", "_reverse")

    def __init__(self, elements: List[Tuple[int, object]], pathname: bool = False):
        merged: list = []
        for element in elements:
            if element[0] == _STAR and merged and merged[-1][0] == _STAR:
                continue  # `**` is `*`
            merged.append(element)
        self.elements = merged
        self.pathname = pathname
        self.size = len(merged)
        self.accept = 1 << self.size
        stars = 0
        for k, (kind, _) in enumerate(merged):
            if kind == _STAR:
                stars |= 1 << k
        self._stars = stars
        self._masks: dict = {}
        self._start = self._closure(1)
        self._reverse: Optional[Automaton] = None

    # -- construction --------------------------------------------------------

    @staticmethod
    def literal(ch: str):
        return (_LIT, ch)

    @staticmethod
    def one():
        return (_ONE, None)

    @staticmethod
    def star():
        return (_STAR, None)

    @staticmethod
    def char_set(test: Callable[[str], bool]):
        return (_SET, test)

    def reversed(self) -> "Automaton":
        """The automaton of the pattern read backwards (matches the reversed texts)."""
        if self._reverse is None:
            self._reverse = Automaton(self.elements[::-1], self.pathname)
        return self._reverse

    # -- stepping -------------------------------------------------------------

    def _closure(self, states: int) -> int:
        # a `*` may match nothing: being before it is also being after it (no two stars are adjacent)
        return states | ((states & self._stars) << 1)

    def _mask(self, ch: str) -> int:
        """States whose element consumes ``ch`` and moves on (a `*` consumes and stays)."""
        found = self._masks.get(ch)
        if found is not None:
            return found
        mask = 0
        slash = self.pathname and ch == "/"
        for k, (kind, arg) in enumerate(self.elements):
            if kind == _LIT:
                hit = arg == ch
            elif kind == _ONE:
                hit = not slash
            elif kind == _SET:
                hit = arg(ch)
            else:
                continue
            if hit:
                mask |= 1 << k
        stay = 0 if slash else self._stars
        found = (mask, stay)
        self._masks[ch] = found
        return found

    def _advance(self, states: int, ch: str) -> int:
        mask, stay = self._mask(ch)
        return self._closure(((states & mask) << 1) | (states & stay))

    # -- questions ---------------------------------------------------------------

    def fullmatch(self, text: str) -> bool:
        states = self._start
        for ch in text:
            states = self._advance(states, ch)
            if not states:
                return False
        return bool(states & self.accept)

    def prefix_ends(self, text: str, start: int = 0, longest: bool = True) -> Optional[int]:
        """The end of the longest (or shortest) match of a prefix of ``text[start:]``, or None."""
        states = self._start
        accept = self.accept
        found = start if states & accept else None
        if found is not None and not longest:
            return found
        advance = self._advance
        for i in range(start, len(text)):
            states = advance(states, text[i])
            if not states:
                break
            if states & accept:
                found = i + 1
                if not longest:
                    break
        return found

    def match_starts(self, text: str) -> bytearray:
        """``starts[i]`` is 1 when some match of the pattern begins at ``i`` (0 ≤ i ≤ len(text)):
        one pass of the reversed pattern from the end, starting a thread at every place."""
        rev = self.reversed()
        n = len(text)
        starts = bytearray(n + 1)
        begin = rev._start
        accept = rev.accept
        states = begin
        if states & accept:
            starts[n] = 1
        advance = rev._advance
        for j in range(n - 1, -1, -1):
            states = advance(states, text[j]) | begin
            if states & accept:
                starts[j] = 1
        return starts


# ---------------------------------------------------------------- string operations


def remove(auto: Automaton, value: str, op: str, charge=None) -> str:
    """``${x#p}``, ``${x##p}``, ``${x%p}``, ``${x%%p}`` in one scan each."""
    if charge is not None:
        charge(len(value))
    if op in ("#", "##"):
        end = auto.prefix_ends(value, 0, longest=op == "##")
        return value if end is None else value[end:]
    back = value[::-1]
    end = auto.reversed().prefix_ends(back, 0, longest=op == "%%")
    return value if end is None else value[:len(value) - end]


def replace(auto: Automaton, value: str, literal_text: bool, render: Callable[[str], str], op: str,
            charge=None, build=None) -> str:
    """``${x/p/r}``, ``${x//p/r}``, ``${x/#p/r}``, ``${x/%p/r}`` with bash's leftmost-longest rule.

    ``literal_text`` is whether the pattern has any characters (an empty
    match of a non-empty pattern is replaced, as bash does); ``render`` makes
    the replacement for a matched text; ``charge`` pays for scanning and
    ``build`` for the characters produced, each before the work.
    """
    n = len(value)
    if charge is not None:
        charge(n)
    if op == "/#":
        end = auto.prefix_ends(value, 0, longest=True)
        if end is None:
            return value
        rendered = render(value[:end])
        if build is not None:
            build(len(rendered) + n - end)
        return rendered + value[end:]
    if op == "/%":
        end = auto.reversed().prefix_ends(value[::-1], 0, longest=True)
        if end is None:
            return value
        start = n - end
        rendered = render(value[start:])
        if build is not None:
            build(len(rendered) + start)
        return value[:start] + rendered
    starts = auto.match_starts(value)
    out: list = []
    i = 0
    copied_from = 0
    # bash looks for a match at each place before the end, and at the end only of an empty value
    last = n if n == 0 else n - 1
    while i <= last:
        if not starts[i]:
            nxt = starts.find(1, i + 1, last + 1)
            if nxt < 0:
                break
            i = nxt
            continue
        if charge is not None:
            charge(n - i)
        end = auto.prefix_ends(value, i, longest=True)
        if end is None or (end == i and not literal_text):
            i += 1
            continue
        rendered = render(value[i:end])
        if build is not None:
            build(len(rendered) + i - copied_from)
        out.append(value[copied_from:i])
        out.append(rendered)
        if end == i:
            # an empty match: the character after it is kept and the search goes on past it
            if i < n:
                out.append(value[i])
            i += 1
        else:
            i = end
        copied_from = min(i, n)
        if op == "/":
            break
    if not out:
        return value
    if build is not None:
        build(n - copied_from)
    out.append(value[copied_from:])
    return "".join(out)


# ---------------------------------------------------------------- from bash pattern syntax


def compile_chars(chars: list, pathname: bool, bracket: Callable) -> Automaton:
    """The automaton of a pattern given as (char, active) pairs (inactive = quoted).

    ``bracket(chars, i)`` translates the bracket expression after ``[`` at
    ``i`` into (regex character class, next index), or None when unclosed.
    """
    elements = []
    i, n = 0, len(chars)
    while i < n:
        ch, active = chars[i]
        if not active:
            elements.append((_LIT, ch))
            i += 1
            continue
        if ch == "\\" and i + 1 < n:
            elements.append((_LIT, chars[i + 1][0]))
            i += 2
            continue
        if ch == "*":
            elements.append((_STAR, None))
            i += 1
            continue
        if ch == "?":
            elements.append((_ONE, None))
            i += 1
            continue
        if ch == "[":
            parsed = bracket(chars, i + 1)
            if parsed is not None:
                regex, i = parsed
                # one character against one character class: no backtracking is possible
                elements.append((_SET, _class_test(regex)))
                continue
        elements.append((_LIT, ch))
        i += 1
    return Automaton(elements, pathname)


def _class_test(regex: str) -> Callable[[str], bool]:
    compiled = re.compile(regex, re.S)
    return lambda ch: compiled.fullmatch(ch) is not None
