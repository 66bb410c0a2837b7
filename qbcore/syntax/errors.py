"""Errors that qbcore reports with bash's own position and wording."""


class ShellSyntaxError(ValueError):
    """Input that bash would reject while parsing.

    ``offset`` is the byte offset into the UTF-8 input, ``line`` and
    ``column`` are 1-based (column counts bytes), ``message`` is bash's wording,
    e.g. "unexpected EOF while looking for matching `\\"'". ``tokens``: for a
    compound command left open at the end of the input, the lexer's tokens
    (bash's parser may have met an unexpected token before the end); else None.
    """

    tokens = None
    #: an error of bash's ``[[ ]]`` grammar (parse.y reports it with parser_error alone):
    #: "line" where the line does not run and the status stays what it was, "end" at the
    #: newline that ends the input (the status stays, but 2 for 0), "substitution" inside a
    #: ``$( )`` body (bash recovers from it in ways not modelled), else None; ``message`` is
    #: empty where bash prints nothing
    conditional = None

    def __init__(self, message: str, offset: int, line: int, column: int):
        super().__init__(f"line {line}, column {column}: {message}")
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column

    def __reduce__(self):
        return (type(self), (self.message, self.offset, self.line, self.column), {"conditional": self.conditional})

    def __eq__(self, other):
        if not isinstance(other, ShellSyntaxError):
            return NotImplemented
        return (self.message, self.offset, self.line, self.column) == (
            other.message, other.offset, other.line, other.column)

    __hash__ = ValueError.__hash__


class NestedTooDeep(ValueError):
    """Input nested deeper than the parser follows: not a syntax error (bash may well
    read it), only beyond the model, which then says unknown."""
