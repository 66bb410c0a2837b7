"""Values the static model cannot know, and text that holds some.

One job: make unknown-ness a property of a value, never of its characters. An
Opaque is a whole value not statically known; a Partial is text some spans of
which are not, each shown as ``⟨name⟩`` where records are printed. A script
holding a literal ``⟨`` is therefore read as what it is: plain text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Opaque:
    """A value the static model cannot know; ``name`` says which (``$RANDOM``, ``$(date)``…)."""
    name: str

    def render(self) -> str:
        return f"⟨{self.name}⟩"


class UnorderedLines(Opaque):
    """Output whose lines are known but not their order (find lists a directory in the order
    its file system keeps): ``lines`` holds them in one order. Everything else reads it as
    unknown; a reader that sorts or counts the lines may take them."""

    @staticmethod
    def of(name: str, lines: str) -> "UnorderedLines":
        value = UnorderedLines(name)
        object.__setattr__(value, "lines", lines)
        return value


class Partial(str):
    """Text with unknown spans. The string is what a record prints (each unknown
    span as ``⟨name⟩``); ``spans`` holds (start, end, name) for each of them."""

    spans: tuple

    def __new__(cls, text: str, spans: tuple = ()):
        value = super().__new__(cls, text)
        value.spans = tuple(spans)
        return value

    def __repr__(self) -> str:
        return f"Partial({str.__repr__(self)}, {self.spans!r})"


def unknown_text(value: Opaque) -> Partial:
    """The text standing for an unknown value inside a word: ``⟨name⟩``, marked unknown."""
    text = value.render()
    return Partial(text, ((0, len(text), value.name),))


def concat(pieces: Iterable[str]) -> str:
    """Join texts; the result is a Partial (spans moved to their new place) when any piece is one."""
    pieces = list(pieces)
    for piece in pieces:
        if type(piece) is Partial and piece.spans:
            break
    else:
        return "".join(pieces)
    spans, offset = [], 0
    for piece in pieces:
        if type(piece) is Partial:
            spans.extend((start + offset, end + offset, name) for start, end, name in piece.spans)
        offset += len(piece)
    return Partial("".join(pieces), tuple(spans))


def has_opaque(value) -> bool:
    """Whether a value (Opaque, text, or a tuple or list of them) holds any unknown part."""
    if type(value) is str:
        return False  # most values: plain text
    if isinstance(value, Opaque):
        return True
    if isinstance(value, Partial):
        return bool(value.spans)
    if isinstance(value, (tuple, list)):
        for item in value:
            if has_opaque(item):
                return True
    return False


def opaque_names(value) -> tuple:
    """The names of the unknown parts of a value, in order, each once."""
    if isinstance(value, Opaque):
        return (value.name,)
    names: list = []
    if isinstance(value, Partial):
        names = [name for _, _, name in value.spans]
    elif isinstance(value, (tuple, list)):
        names = [name for item in value for name in opaque_names(item)]
    return tuple(dict.fromkeys(names))
