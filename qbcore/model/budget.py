"""How much work one static evaluation may do on an untrusted reply.

One job: a ``Budget`` (plain limits with safe defaults) and the ``Meter`` that
one evaluation shares between everything the evaluator and expansion do, so
that no reply can hang the model or exhaust memory. Every cost is charged
before the work is done; past a limit the meter raises ``BudgetExceeded``
naming what ran out, and ``simulate`` turns that into an ``unknown`` result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ["Budget", "Meter", "BudgetExceeded", "DEFAULT"]


@dataclass(frozen=True)
class Budget:
    """Limits for one evaluation (one ``simulate`` call: every shell layer it models).

    ``steps``: commands run (so loop iterations), function calls, ``eval``s,
    command substitutions and arithmetic variable lookups, one step each;
    pattern matching costs one step per ``MATCH_CHARS_PER_STEP`` characters
    scanned. ``bytes``: characters of values, words, outputs and records
    built, summed over the evaluation (a piece of a word, a command record
    and a name of an unknown part also count a few bytes of their own). ``brace_words``: words one brace
    expansion may make. ``field_width``: a printf width or precision.
    ``arith_depth``: variables an arithmetic expression may follow inside one
    another (bash stops at 1024 with "expression recursion level exceeded";
    the model gives up sooner, as unknown). ``nesting``: function calls,
    ``eval``s and command substitutions running inside one another (bash goes
    on until its stack runs out; the model stops well before its own stack,
    which compiled code uses faster than Python's recursion limit can see).
    ``reply_bytes``: the size of a reply the model looks at all.
    """

    steps: int = 25_000
    bytes: int = 1 << 20
    brace_words: int = 65_536
    field_width: int = 1 << 20
    arith_depth: int = 64
    nesting: int = 64
    reply_bytes: int = 1 << 20

    def __post_init__(self):
        for name in ("steps", "bytes", "brace_words", "field_width", "arith_depth", "nesting", "reply_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"budget {name} must be a non-negative int, not {value!r}")


DEFAULT = Budget()

#: Characters a pattern matcher scans for one step.
MATCH_CHARS_PER_STEP = 256


class BudgetExceeded(Exception):
    """The evaluation would go past its budget; ``reason`` names the limit and what hit it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Meter:
    """The running count of one evaluation against its Budget (shared by subshells,
    command substitutions and the layers of one simulation)."""

    __slots__ = ("budget", "steps", "bytes", "exceeded", "nesting", "shells")

    def __init__(self, budget: Optional[Budget] = None):
        self.budget = budget if budget is not None else DEFAULT
        self.steps = 0
        self.bytes = 0
        self.nesting = 0  # code running inside other code now (calls, evals, substitutions)
        # new shells running inside each other now; apart from ``nesting``, which keys kept
        # shell runs: a script's run is the same whichever layer starts it
        self.shells = 0
        self.exceeded: Optional[str] = None  # the first reason, kept even when caught on the way

    def _fail(self, reason: str):
        if self.exceeded is None:
            self.exceeded = reason
        raise BudgetExceeded(self.exceeded)

    def step(self, count: int = 1, what: str = "evaluation"):
        """Charge ``count`` steps for ``what`` before doing it."""
        self.steps += count
        if self.steps > self.budget.steps:
            self._fail(f"budget: more than {self.budget.steps} steps ({what})")

    def scan(self, chars: int, what: str = "pattern matching"):
        """Charge a pattern matcher for scanning ``chars`` characters."""
        self.step(1 + chars // MATCH_CHARS_PER_STEP, what)

    def build(self, size: int, what: str = "values"):
        """Charge ``size`` characters about to be built."""
        self.bytes += size
        if self.bytes > self.budget.bytes:
            self._fail(f"budget: more than {self.budget.bytes} bytes built ({what})")

    def words(self, count: int, what: str = "brace expansion"):
        """Check the number of words one brace expansion would make."""
        if count > self.budget.brace_words:
            self._fail(f"budget: {what} makes more than {self.budget.brace_words} words")

    def width(self, value: int, what: str = "printf"):
        """Check a field width or precision before padding to it."""
        if value > self.budget.field_width:
            self._fail(f"budget: {what} field width {value} over {self.budget.field_width}")

    def enter(self, what: str):
        """Start running ``what`` inside the code running now; pair with ``leave``."""
        if self.nesting >= self.budget.nesting:
            self._fail(f"budget: {what} nested more than {self.budget.nesting} deep")
        self.nesting += 1

    def nested(self, value: int, what: str):
        """Check how deep one grammar's recursion (``what``) runs in itself."""
        if value > self.budget.nesting:
            self._fail(f"budget: {what} nested more than {self.budget.nesting} deep")

    def enter_shell(self):
        """A new shell starts inside the code running now; pair with ``leave_shell``."""
        if self.shells >= self.budget.nesting:
            self._fail(f"budget: shells nested more than {self.budget.nesting} deep")
        self.shells += 1

    def leave_shell(self):
        self.shells -= 1

    def leave(self):
        """``what`` entered last has ended."""
        self.nesting -= 1

    def depth(self, value: int, what: str = "arithmetic"):
        """Check how deep an arithmetic expression follows variables."""
        if value > self.budget.arith_depth:
            self._fail(f"budget: {what} follows variables more than {self.budget.arith_depth} deep")
