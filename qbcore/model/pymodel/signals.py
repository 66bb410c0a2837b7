"""Control signals of the python3 model: what stops interpretation, and why.

They derive from ``BaseException`` through ``ModelSignal`` so that no handler
of the interpreted program (which only ever sees ``PyRaise``) can swallow them.
"""


class ModelSignal(BaseException):
    """Base of everything the interpreter raises to steer itself."""


class NotModelled(ModelSignal):
    """The program reached something outside the modelled subset; ``what`` names it."""

    def __init__(self, what):
        super().__init__(what)
        self.what = what


class PyRaise(ModelSignal):
    """A Python exception raised by the interpreted program (``exc`` is a real exception value)."""

    def __init__(self, exc):
        super().__init__(exc)
        self.exc = exc
        self.where = {}  # {depth of the frame: the innermost node it was running} (the traceback's carets)
        self.callee = None  # what the innermost call that failed called, when one did


def written_in_c(function):
    """Mark the model of a function python3 has in C: an exception it raises adds no frame of
    its own to a traceback (one written in Python adds its file's lines, not followed)."""
    function.written_in_c = True
    return function


def models_own(exc: BaseException) -> bool:
    """Whether ``exc`` is the model's own (a path outside the bounded tree, a budget, a tree
    error that no tree operation turned into python3's), never the program's: python3 raises
    no such thing, so it must not become the program's exception."""
    return type(exc).__module__.startswith("qbcore.")


class ProgramExit(ModelSignal):
    """``sys.exit`` / ``exit()``: carries the SystemExit argument."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


class Limits:
    """Bounds that keep a hostile or runaway program from exhausting the model."""

    def __init__(self, steps=1_000_000, text=32 * 1024 * 1024, items=2_000_000, output=32 * 1024 * 1024):
        self.steps = steps      # statements and expressions evaluated
        self.text = text        # longest str/bytes the program may build
        self.items = items      # longest sequence / range a builtin may consume
        self.output = output    # bytes written to stdout + stderr
