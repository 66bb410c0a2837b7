"""Type stubs for the compiled lexing engine (qbcore/syntax/_fastquote.pyx)."""

from typing import Iterator, Sequence, overload

__all__ = ["lex", "Tokens"]

Token = tuple[str, int, int]

class Tokens(Sequence[Token]):
    """The token stream: (kind, start, end) tuples, byte offsets into the UTF-8 input."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Token: ...
    @overload
    def __getitem__(self, index: slice) -> list[Token]: ...
    def __iter__(self) -> Iterator[Token]: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...

def lex(source: str | bytes) -> Tokens:
    """Lex bash source; raises qbcore.ShellSyntaxError where bash would stop reading it."""
