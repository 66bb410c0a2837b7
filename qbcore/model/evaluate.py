"""Static evaluation of a parsed script: what the shell would do, without running anything.

One job: walk a script in execution order, as the outer shell of a transport
would, and record every command it executes — expanded argv, assignments,
redirections (files created or truncated), the command substitutions it ran —
each marked exact or opaque. The walker keeps control flow (lists,
pipelines, and/or, if/while/for/case, redirections, expansion calls) and
follows it where it is statically decidable; a simple command is dispatched
to its model in the command registry (qbcore.model.commands). Anything not
modelled there is an executed command with unknown effects and an opaque
exit status, never a guess.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Optional, Union

from . import expand as X
from . import files
from ..syntax import parser as S
from ..syntax.errors import ShellSyntaxError
from .budget import BudgetExceeded
from .commands import MODELLED, Invocation, Outcome, lookup
from .commands.calls import Scope, call_function
from .commands.conditions import CondEval, Unknown as _Unknown
from .commands.control import Break as _Break, Discard, Exit as _Exit, Return as _Return
from .commands.external import taint_everything
from .commands.search import BASH_BUILTINS
from .commands.variables import DECLARATION as _DECLARATION, CompoundArgument as _CompoundArgument, assign, taint
from .expand import Env, ExpansionError, Opaque
from .utilities.sed import may_stop_early as sed_may_stop_early
from .values import has_opaque

# How far loops and function recursion are followed before the rest is opaque.
LOOP_LIMIT = 10_000
CALL_DEPTH = 25

_CREATING = {">": True, ">|": True, ">>": False, "&>": True, "&>>": False, "<>": False}
#: a shell variable's name
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class RedirectRecord:
    """One redirection as performed: ``target`` is the expanded word (None for a heredoc),
    ``path`` the file it names (None for fd duplication), ``creates``/``truncates`` say
    what happens to that file; ``body`` is the heredoc or here-string text."""
    op: str
    fd: Optional[str]
    target: Optional[str]
    path: Optional[str]
    creates: bool
    truncates: bool
    body: Optional[str]
    exact: bool


@dataclass(frozen=True)
class SubstitutionRecord:
    """A command substitution the shell ran while expanding (a side effect of its own)."""
    text: str
    stdout: Union[str, Opaque]
    status: Union[int, Opaque]
    commands: tuple


@dataclass(frozen=True)
class CommandRecord:
    """One simple command as executed.

    ``argv`` are the expanded fields (a field with unknown parts is a Partial,
    printed with ``⟨name⟩`` in their place);
    ``assignments`` (name, value) pairs; ``modelled`` is True when the model
    knows the command's whole effect (a modelled builtin, an assignment, a
    defined function); ``certain`` is False when it runs only under a
    condition the model cannot decide; ``output`` is what it wrote to the
    shell's stdout (str, Opaque, or None when nothing / redirected).
    ``start``/``end`` are byte offsets into ``source`` and ``line`` its line.
    """
    argv: tuple
    assignments: tuple
    redirects: tuple
    substitutions: tuple
    opaque: tuple
    modelled: bool
    certain: bool
    status: Union[int, Opaque]
    output: Union[str, Opaque, None]
    error: Optional[str]
    text: str
    start: int
    end: int
    line: int

    @property
    def exact(self) -> bool:
        return not self.opaque


@dataclass
class Evaluation:
    """What evaluating a script did.

    ``commands`` in execution order; ``output`` the pieces written to stdout
    (str or Opaque); ``status`` the exit status of the shell; ``exited`` when
    ``exit``, an expansion error or ``set -e`` ended it early;
    ``syntax_error`` the error bash -c stopped at (the chunks before it ran);
    ``opaque`` every name not statically known; ``env`` the final state.
    """
    commands: list = field(default_factory=list)
    output: list = field(default_factory=list)
    status: Union[int, Opaque] = 0
    exited: bool = False
    syntax_error: Optional[ShellSyntaxError] = None
    opaque: list = field(default_factory=list)
    env: Optional[Env] = None
    _noted: set = field(default_factory=set, repr=False, compare=False)  # ``opaque`` as a set

    def __init__(self, commands: Optional[list] = None, output: Optional[list] = None,
                 status: Union[int, Opaque] = 0, exited: bool = False,
                 syntax_error: Optional[ShellSyntaxError] = None, opaque: Optional[list] = None,
                 env: Optional[Env] = None, _noted: Optional[set] = None):
        # written out (the dataclass keeps it): one is made per evaluation and substitution,
        # and a generated __init__ would run as interpreted code in the compiled build
        self.commands = [] if commands is None else commands
        self.output = [] if output is None else output
        self.status = status
        self.exited = exited
        self.syntax_error = syntax_error
        self.opaque = [] if opaque is None else opaque
        self.env = env
        self._noted = set() if _noted is None else _noted

    @property
    def exact(self) -> bool:
        return not self.opaque

    @property
    def stdout(self) -> Union[str, Opaque]:
        """The whole stdout, or an Opaque when any part of it is unknown."""
        unknown = [p for p in self.output if isinstance(p, Opaque)]
        if unknown:
            return Opaque(unknown[0].name)
        return "".join(self.output)

    @property
    def files(self) -> tuple:
        """Paths of files created or truncated, in order (once each)."""
        seen = []
        for command in self.commands:
            for redirect in command.redirects:
                if (redirect.creates or redirect.truncates) and redirect.path and redirect.path not in seen:
                    seen.append(redirect.path)
        return tuple(seen)


class ChildFailure(str):
    """An expansion error in a redirection of a program bash runs in a child: the child reports
    it and exits with ``status`` (1, or 127 for set -u and ``${x:?}``; measured), the shell goes on."""

    def __new__(cls, message: str, status: int):
        failure = super().__new__(cls, message)
        failure.status = status
        return failure


class _FatalExpansion(_Exit):
    """An expansion error that ends the shell (``${x:?}``, set -u): the script's shell exits
    with its status (127); a subshell, a pipeline's command or a command substitution
    exits with 1 (measured)."""


def _matches_anything(arm) -> bool:
    """Whether one of a case arm's patterns is ``*`` as written (unquoted stars alone), which
    matches any word."""
    return any(len(word.parts) == 1 and type(word.parts[0]) is S.Lit and word.parts[0].text and
               not word.parts[0].text.strip("*") for word in arm.patterns)


def _exit_status(done: _Exit):
    """The status a subshell exits with after ``done``."""
    return 1 if isinstance(done, _FatalExpansion) else done.status


class _AbortLine(Exception):
    """An expansion error: bash abandons the rest of the current line (chunk), which ends
    with ``status`` (1; an Opaque where whether bash abandons it is not known)."""

    def __init__(self, status: Union[int, Opaque] = 1):
        super().__init__(status)
        self.status = status


def static(env: Env) -> Env:
    """``env`` with the evaluator installed as its command-substitution hook.

    The one place expansion and evaluation are joined (expand alone leaves a
    substitution unknown, named): the evaluator evaluates every substitution
    statically, in a copy of the shell. A hook the caller chose is kept.
    """
    if env.substitute is X.unknown_substitution:
        env.substitute = substitute
    return env


def evaluate(script: "S.Script", env: Optional[Env] = None, *, walker: Optional[type] = None) -> Evaluation:
    """Evaluate ``script`` over ``env`` (changed in place; default: Env.default()).

    Command substitutions are evaluated statically (see ``static``). Returns
    an Evaluation; a script with a syntax error (from parse_prefix)
    is evaluated up to the chunk before the error, as bash -c does, and then
    ends with status 2. An evaluation that goes past the budget of
    ``env.meter`` stops there: its status is opaque and ``opaque`` names the
    limit (``env.meter.exceeded`` says so too). ``walker`` is the walker class to
    use (a subclass that follows more of the effects, e.g. qbcore.model.effects).
    """
    env = static(env if env is not None else Env.default())
    env.exit_trap = None  # (a shell's own Env: its copies, its subshells', hold none)
    env.err_trap = None
    result = Evaluation(env=env)
    walker = (walker or _Walker)(env, result, script)
    walker.toplevel = True
    try:
        try:
            _walk_script(walker, env, script, result)
        except _Exit as done:
            result.exited = True
            result.status = done.status
        if env.exit_trap is not None:
            _exit_trap(walker, env, result)
    except _Exit as done:
        result.exited = True
        result.status = done.status
    except _Break:
        result.status = env.status
    except _Return as ret:
        result.status = ret.status
    except RecursionError:
        # deeper than the model follows (bash itself would recurse until it crashes): the rest of
        # the script did not run here, so what it would have done to the files is not known
        result.opaque.append("evaluation nested too deeply")
        result.status = Opaque("evaluation nested too deeply")
        result.output.append(result.status)  # what the rest would have printed is unknown too
        lose = getattr(env.files, "lose", None)
        if lose is not None:
            lose("the files after an evaluation nested deeper than the model follows")
    except BudgetExceeded as exc:
        result.opaque.append(exc.reason)
        result.status = Opaque(exc.reason)
        result.output.append(result.status)  # what the rest would have printed is unknown too
    return result


def _exit_trap(walker: "_Walker", env: Env, result: Evaluation):
    """Run the EXIT trap the shell holds as bash does when the shell ends: in this shell, with
    ``$?`` the status it ends with, which stays unless the trap calls exit (measured). Where
    bash's order is not followed (an exit inside a function, whose locals the trap sees; a
    script read from a file or stdin that ends at a syntax error, where the trap sees 0), or
    the trap does not parse, the files are lost."""
    action, env.exit_trap = env.exit_trap, None
    lose = getattr(env.files, "lose", None)
    why = None
    if getattr(env, "exit_in_function", False):
        why = "an EXIT trap run by an exit inside a function"
    elif result.syntax_error is not None and "c" not in (env.flags or ""):
        why = "an EXIT trap run after a syntax error in a script read from a file or stdin"
    script = S.parse_prefix(action) if why is None else None
    if script is not None and script.error is not None:
        why = "an EXIT trap that does not parse"
    if why is not None:
        result.opaque.append(why)
        result.status = Opaque(why)
        if lose is not None:
            lose(f"the files after {why}")
        return
    env.status = result.status
    try:
        _trap_action(walker, script)
    except _Exit as done:
        result.exited = True
        result.status = done.status


def _trap_action(walker: "_Walker", script: "S.Script"):
    """A trap's action, run in the shell ``walker`` walks, line by line as bash runs it (an
    error that aborts a line goes on with the next); break and return end it."""
    trap = walker.enter(script, None, inline=True)
    env, running = walker.env, getattr(walker.env, "in_trap", False)
    env.in_trap = True  # (what a builtin does there may differ: control.too_many_operands)
    try:
        for chunk in script.chunks:
            try:
                trap.items(chunk.items)
            except _AbortLine:
                pass
    except (_Break, _Return):
        pass
    finally:
        env.in_trap = running


def _walk_script(walker: "_Walker", env: Env, script: "S.Script", result: Evaluation):
    """The body of ``evaluate``: the script chunk by chunk, its status into ``result``."""
    if _read_otherwise(walker, env, script, 0):
        result.status = env.status
        return
    while True:
        moved = None
        for chunk in script.chunks:
            walker.begin_chunk(chunk)
            try:
                walker.items(chunk.items)
            except _AbortLine as abort:
                env.status = abort.status
            if _read_otherwise(walker, env, script, chunk.end):
                result.status = env.status
                return
            moved = walker.input_moved()
            if moved is not None:
                break
        if moved is None:
            break
        if moved is True:
            result.status = env.status  # bash reads its script from stdin, and a command took the rest
            return
        # bash reads on from where a command left its script's input
        script = walker.script = moved
        walker.raw = script.source.encode("utf-8", "surrogateescape")
    if script.error is not None:
        result.syntax_error = script.error
        result.status = _syntax_error_status(script, env.status, "e" in env.flags)
        _after_compound_error(walker, script, result.status)
        return
    result.status = env.status


def _after_compound_error(walker: "_Walker", script: "S.Script", status):
    """After a syntax error that may lie inside a compound assignment ``name=(``, bash 5.2
    drops the rest of the line the error is on and goes on reading with the next one
    (measured: `i=(<` then `echo after` on the next line prints after; a later error of
    another kind ends the script with 2): what the shell does from there, when anything
    follows that line, is not followed (GOES_ON_AFTER_ERROR among the names not known)."""
    if not (isinstance(status, Opaque) and status.name == _COMPOUND_ERROR):
        return
    raw = walker.raw  # (the script's own bytes: the walker reads ``script``)
    end = raw.find(b"\n", script.error.offset)
    if end >= 0 and raw[end:].strip():
        walker.note([GOES_ON_AFTER_ERROR])
        walker.unknown_from_here(GOES_ON_AFTER_ERROR, status)


#: what may open an extglob group: bash reads such a line otherwise under extglob
_EXTGLOB_OPEN = re.compile(rb"[?*+@!]\(")


def _read_otherwise(walker: "_Walker", env: Env, script: "S.Script", start: int) -> bool:
    """Whether bash, which reads each line of a script just before it runs it, reads the
    script's text from byte ``start`` on otherwise than the model parsed it (without extglob),
    the rest then unknown: extglob is on there and that text may open a group (``!(x)`` is
    one word under extglob, ``!`` and a subshell without; ``@(`` a syntax error without)."""
    if "extglob" not in env.globopts or not _EXTGLOB_OPEN.search(script.source.encode("utf-8", "surrogateescape"),
                                                                  start):
        return False
    walker.unknown_from_here("the lines read under extglob", Opaque("status of the lines read under extglob"))
    return True


_INPUT_FIRST = re.compile(r"[ \t\n]*<(?![<&>])")
#: where bash may start a compound assignment: a name (and a subscript) with `=(` or `+=(` at the
#: start of a word; `"a=("` is no assignment word, and its `=(` opens nothing
_ARRAY_OPEN = re.compile(rb"(?:^|[\s;&|()<>`])[A-Za-z_][A-Za-z0-9_]*(?:\[.*?\])?\+?=\(", re.DOTALL)


def _syntax_error_status(script: "S.Script", before, errexit: bool = False):
    """The status bash leaves after a syntax error: 2, but 1 when the error is met inside a
    compound assignment `name=(` (bash's parse_compound_assignment fails with
    EXECUTION_FAILURE); where such a `name=(` (``_ARRAY_OPEN``) follows the last chunk that
    ran, which of the two is not modelled. An error of the ``[[ ]]`` grammar leaves
    ``before``, the status of the chunks that ran (measured with `true` and `false` before
    `[[ == x ]]`, `[[ ]]`, `[[ ( a ]]`, `[[ a ) ]]`…, from -c, a file and stdin); one at the
    newline that ends the input leaves 2 after a status of 0 (`[[ a` and a newline: 2 after
    `true`, 1 after `false`), and one inside a ``$( )`` body is not modelled (measured: 127,
    or a quote reported open). With ``errexit`` (set -e on when the chunks before it ran)
    either leaves 2 where bash reports it (measured after `true`, `false || true` and
    `! true`; `set -e; [[ == x ]]` on one line is parsed before set -e runs); one refused
    without a word (``[[ ]]``) leaves ``before`` still."""
    error = script.error
    if error.conditional == "substitution":
        return Opaque("status after a [[ ]] error inside a command substitution")
    if error.conditional in ("line", "end") and errexit and error.message:
        return 2
    if error.conditional == "line":
        return before
    if error.conditional == "end":
        return 2 if before == 0 else before
    if error.message == "unexpected EOF while looking for `]]'":
        # bash's message there names the token it stopped at, not this one
        return Opaque("status after a [[ ]] left open at the end of the script")
    rest = script.source.encode("utf-8", "surrogateescape")[script.parsed_until:]
    if _ARRAY_OPEN.search(rest):
        return Opaque(_COMPOUND_ERROR)
    return 2


_COMPOUND_ERROR = "status after a syntax error near a compound assignment"
#: why what a shell does after such an error is not followed (_after_compound_error)
GOES_ON_AFTER_ERROR = "the lines after a syntax error near a compound assignment, which bash goes on reading"


def _unmodelled_backtick_error(script: "S.Script") -> Optional[str]:
    """Why bash's handling of a backtick body that does not parse is not modelled, if it is not.

    bash reports such a body when it expands it, in the subshell, and the line
    goes on (measured, and modelled); but a body that starts with `<` takes the
    `$(<file)` path. (A word whose brace expansion bash refuses for a `$(` in such a
    body never gets that far: S.BraceRefusedWord.)
    """
    if script.error is None:
        return None
    if _INPUT_FIRST.match(script.source):
        return "syntax error in a backtick body read as `<file`"
    return None


def substitute(script: "S.Script", env: Env, *, walker: Optional[type] = None) -> X.Substitution:
    """The static command-substitution hook: evaluate the body in a subshell (``env`` is
    already a copy) and return its stdout, or an Opaque named after the substitution.
    ``walker`` as for ``evaluate``."""
    result = Evaluation(env=env)
    walker = (walker or _Walker)(env, result, script)
    walker.in_subshell = True
    walker.substitution_lines = _substitution_lines(script, env.lineno)
    env.meter.enter("command substitutions")
    try:
        for chunk in script.chunks:
            walker.items(chunk.items)
        status = env.status
        if script.error is not None:
            # a backtick body that does not parse: bash reports it and goes on
            # (bash parses it as eval does: 2 after a [[ ]] error too, measured)
            status = _syntax_error_status(script, 2)
            _after_compound_error(walker, script, status)
    except _Exit as done:
        status = _exit_status(done)
    except _AbortLine as abort:
        status = abort.status
    except (_Break, _Return):
        status = env.status
    finally:
        env.meter.leave()
    text = X.script_text(script)
    stdout = result.stdout
    unmodelled = _unmodelled_backtick_error(script)
    if unmodelled:
        text = script.source.strip()
        stdout = Opaque(f"`{text}` ({unmodelled})")
        status = Opaque(f"status of `{text}`")
    elif isinstance(stdout, Opaque) or not all(c.certain for c in result.commands):
        stdout = Opaque(f"$({text})")
    elif status == 0 and _reads_a_file(script):
        # bash substitutes the file's contents: a walker that knows the files reads them
        read = getattr(walker, "file_substituted", None)
        found = read(result.commands[-1]) if read is not None and result.commands else None
        stdout = Opaque(f"$({text})") if found is None else found
    if isinstance(status, Opaque):
        status = Opaque(f"status of $({text})")
    opaque = (stdout.name,) if isinstance(stdout, Opaque) else ()
    return _Substitution(stdout, status, opaque, tuple(result.commands))


# asked of bytes as an int: a bytes argument makes `in` build and drop a TypeError first
_NEWLINE = ord("\n")


def _substitution_lines(script: "S.Script", base) -> dict:
    """$LINENO inside a command substitution, which bash numbers from the line of the
    command that expands it (``base``): {id(simple command): line}.

    A backtick body is numbered as written (key "base": base + its line - 1). bash 5.2
    re-prints a ``$(…)`` body before running it, dropping blank lines and comments and
    joining ``&&``/``|`` continuations: measured, its n-th printed line is base + n - 1.
    The model follows that printing for a body of one-line simple commands; for other
    bodies (compound commands, multi-line words, here-documents) $LINENO is unknown.
    """
    if not isinstance(base, int):
        return {"base": None}
    if any(chunk.first_line for chunk in script.chunks):
        return {"base": base}  # its own source (backticks): lines as written
    lines: dict = {"base": None}
    raw = script.source.encode("utf-8", "surrogateescape")
    printed, previous = 1, None
    for item in (item for chunk in script.chunks for item in chunk.items):
        commands = [c for p in item.command.pipelines for c in p.commands]
        if item.background or not all(
                isinstance(c, S.SimpleCommand) and _NEWLINE not in raw[c.start:c.end] and
                not any(r.heredoc is not None for r in c.redirects) for c in commands):
            return {"base": None, "span": (script.chunks[0].start, script.chunks[-1].end)}
        if previous is not None and _NEWLINE in raw[previous.end:item.start]:
            printed += 1
        for command in commands:
            lines[id(command)] = base + printed - 1
        previous = item
    return lines


_Assignment, _BraceRefusedWord, _Lit = S.Assignment, S.BraceRefusedWord, S.Lit


def _brace_refused(words) -> Optional["S.BraceRefusedWord"]:
    """The first of a command's words whose brace expansion bash refuses, if any: bash
    brace-expands them all before it expands any further. A declaration builtin's
    ``name=(…)`` argument is not among them: its elements are brace-expanded when it
    assigns them (X.Expander.assignment)."""
    declaration = False
    for n, word in enumerate(words):
        if type(word) is _Assignment:
            if word.array is None:
                if type(word.value) is _BraceRefusedWord:
                    return word.value
            elif not declaration:
                for element in word.array:
                    if type(element) is _BraceRefusedWord:
                        return element
            continue
        if type(word) is _BraceRefusedWord:
            return word
        if n == 0 and _names_a_declaration(word):
            declaration = True
    return None


def _names_a_declaration(word) -> bool:
    """A command name that makes the words after it declaration arguments: only the name as
    written (`"declare" y=$x` and `$c y=$x` split $x, bash 5.2)."""
    return len(word.parts) == 1 and type(word.parts[0]) is _Lit and word.parts[0].text in _DECLARATION


def _reads_a_file(script: "S.Script") -> bool:
    """``$(<file)``: bash substitutes the file's contents (``file_substituted`` of a walker
    that knows them; the others do not)."""
    if len(script.chunks) != 1 or len(script.chunks[0].items) != 1:
        return False
    item = script.chunks[0].items[0]
    pipelines = item.command.pipelines
    if item.background or len(pipelines) != 1 or len(pipelines[0].commands) != 1:
        return False
    command = pipelines[0].commands[0]
    return isinstance(command, S.SimpleCommand) and not command.words and not command.assignments and \
        len(command.redirects) == 1 and command.redirects[0].op == "<" and command.redirects[0].fd in (None, "0")


@dataclass(frozen=True)
class _Substitution(X.Substitution):
    commands: tuple = ()


class _Walker:
    #: whether this walker knows where each descriptor leads (the effect model's does)
    follows_descriptors = False

    def __init__(self, env: Env, result: Evaluation, script: "S.Script", certain: bool = True,
                 depth: int = 0):
        self.env = env
        self.result = result
        self.script = script
        self.raw = script.source.encode("utf-8", "surrogateescape")
        self.certain = certain
        self.depth = depth
        # in a condition, a non-final part of an && or || list, or a negated pipeline (or
        # code they call): where bash ignores `set -e`, whose option lives in $- (env.flags)
        self.in_condition = False
        self.stdout_redirected = 0
        self.stdout_closed = False  # fd 1 closed here (>&-): a builtin that writes to it fails
        # fd 2 leads to this shell's own output (`{ …; } 2>&1`): what goes to it is output
        self.stderr_to_stdout = False
        # inside a command substitution: $LINENO of its commands (see _substitution_lines)
        self.substitution_lines = None
        self.scope: Optional[Scope] = None  # inside a function: the variables `local` shadows
        self.loops = 0  # loops around this code in its function (or script): what break may leave
        self.outer_loops = 0  # loops around the subshell this code runs in (break there does nothing)
        self.toplevel = False  # the script's own code, outside any function: `return` is refused
        # in a subshell (a pipeline's command, `(…)`, a command substitution): an error that
        # abandons a line of eval'd code ends the subshell instead of that line
        self.in_subshell = False
        self.refused_compound = None  # the compound command whose redirections bash refused last

    def note(self, names):
        result = self.result
        noted = result._noted
        if len(noted) != len(result.opaque):
            noted.clear()
            noted.update(result.opaque)  # someone appended to the list directly
        for name in names:
            if name not in noted:
                self.env.meter.build(len(name), "names of unknown parts")
                noted.add(name)
                result.opaque.append(name)

    def text(self, node) -> str:
        return self.raw[node.start:node.end].decode("utf-8", "surrogateescape")

    # -- lists ------------------------------------------------------------

    def job_spec(self, node, argv, assignments, exp_names, substitutions) -> bool:
        """Whether the command, whose words and assignments are expanded, ran as a job spec
        (a name that starts with %: the effect walker follows it); False to go on."""
        return False

    def begin_chunk(self, chunk):
        """Before a chunk of the script runs (the walker of a shell that reads its script
        from its stdin follows where it is)."""

    def input_moved(self):
        """After a chunk: None to go on with the next; True when bash met the end of its
        script's input; else the script bash reads on with (the effect walker's ScriptInput)."""
        return None

    def items(self, items):
        for item in items:
            self.item(item)

    def item(self, item: "S.ListItem"):
        if item.background:
            self.background(item)
            return
        self.and_or(item.command)

    def background(self, item: "S.ListItem"):
        """``item &``: a subshell whose effects never come back, on a copy."""
        self.uncertain_copy(lambda walker: walker.and_or(item.command),
                            _Shown(self.raw, item.command, item.command, " in the background"), certain=self.certain,
                            background=True)
        self.env.status = 0
        self.env.last_bg = Opaque("$!")

    def and_or(self, node: "S.AndOr"):
        self.pipeline(node.pipelines[0], checked=bool(node.ops))
        for n, op in enumerate(node.ops):
            status = self.env.status
            last = n == len(node.ops) - 1
            if isinstance(status, Opaque):
                # whether the rest runs depends on a status the model cannot know
                rest = node.pipelines[n + 1:]
                self.uncertain_copy(lambda walker: [walker.pipeline(p, checked=True) for p in rest],
                                    self.may_not_run(rest[0], rest[-1], status.name))
                self.env.status = Opaque(status.name)
                return
            if (op == "&&") == (status == 0):
                self.pipeline(node.pipelines[n + 1], checked=not last)

    def pipeline(self, node: "S.Pipeline", checked: bool = False):
        # a pipeline whose status is tested (a non-final part of && or ||) or negated is
        # exempt from set -e, and so is everything it runs (a function, a subshell)
        exempt = (checked or node.negated) and not self.in_condition
        if exempt:
            self.in_condition = True
        try:
            if not node.commands:
                status = 0
            elif len(node.commands) == 1:
                self.command(node.commands[0])
                status = self.env.status
                if type(node.commands[0]) in _SETS_PIPESTATUS:
                    self.env.pipeline_ran((status,))
            else:
                status = self.concurrent(node)
        except BaseException:
            self.env.pipestatus_unknown()
            raise
        finally:
            if exempt:
                self.in_condition = False
        if node.negated:
            status = Opaque(status.name) if isinstance(status, Opaque) else int(status == 0)
        self.env.status = status
        if not checked and not node.negated and not self.in_condition and \
                (len(node.commands) != 1 or type(node.commands[0]) not in _ERREXIT_BY_PARTS or
                 self.refused_compound is node.commands[0]):
            if getattr(self.env, "err_trap", None) is not None and status != 0 and \
                    not getattr(self.env, "in_err_trap", False):
                self.err_trap(status)
            if "e" in self.env.flags:
                if isinstance(status, Opaque):
                    self.may_leave(f"set -e's exit after {status.name}")
                elif status != 0:
                    raise _Exit(status)

    def err_trap(self, status):
        """The ERR trap, where set -e would exit (bash runs it there, set -e or not): in this
        shell, with ``$?`` the status, which stays after it; never while it runs. A function,
        a subshell or a command substitution holds none (without ``set -E``, which is not
        followed): their callers run the trap on their status. Where it may or may not run,
        the files are lost."""
        action, env = self.env.err_trap, self.env
        why = None
        if not self.toplevel or self.in_subshell:
            if "E" not in (env.flags or ""):
                return  # not inherited there (measured)
            why = "an ERR trap that set -E lets into a function, subshell or substitution"
        elif isinstance(status, Opaque) or not self.certain:
            why = f"an ERR trap that may run ({status.name if isinstance(status, Opaque) else 'a branch'})"
        script = S.parse_prefix(action) if why is None else None
        if script is not None and script.error is not None:
            why = "an ERR trap that does not parse"
        if why is not None:
            self.note([why])
            lose = getattr(env.files, "lose", None)
            if lose is not None:
                lose(f"the files after {why}")
            return
        env.in_err_trap = True
        try:
            _trap_action(self, script)  # (a trap it sets or clears there stays so)
        finally:
            env.in_err_trap = False
        env.status = status

    def concurrent(self, node: "S.Pipeline"):
        """The commands of a pipeline of two or more, each in its subshell: the last one's status
        (with pipefail, the last one's that failed)."""
        statuses = []
        views = []
        for n, command in enumerate(node.commands):
            sub = self.env.copy()
            # the commands of a pipeline run at the same time: none sees another's files for sure
            sub.files = self.env.files.fork()
            views.append(sub.files)
            walker = self.child(sub)
            walker.into_subshell()
            if n < len(node.commands) - 1:
                walker.stdout_redirected += 1  # its stdout feeds the pipe
                walker.stdout_closed = False
            statuses.append(walker.subshell(command))
        what = f"the pipeline `{self.text(node)}`"  # its commands run at once: the pipeline is named
        for view in views:
            self.env.files.absorb(view, what, first_loss=False)
        return self.pipeline_status(node, statuses)

    def pipeline_status(self, node: "S.Pipeline", statuses: list, silent=frozenset(), killed=frozenset()):
        """A pipeline's status from its commands': the last one's, or with pipefail the last
        failure's (0 when none failed). The statuses are PIPESTATUS after it. ``silent``: the
        indexes of the commands known to have written nothing into their pipe; ``killed``:
        those SIGPIPE surely ended (status 141), which stop reading then."""
        for n in range(len(statuses) - 1):
            if n in killed:
                statuses[n] = 141
            elif statuses[n] == 0 and n not in silent and (n + 1 in killed or may_stop_reading(node.commands[n + 1])):
                # its reader may exit before it is done writing: SIGPIPE ends it with 141, which
                # PIPESTATUS shows with or without pipefail (measured: `seq 20000 | head -1`)
                statuses[n] = Opaque(f"status of `{self.text(node.commands[n])}` (its reader may stop early)")
        if not self.env.pipefail:
            self.env.pipeline_ran(statuses)
            return statuses[-1]
        self.env.pipeline_ran(statuses)
        for status in reversed(statuses):
            if isinstance(status, Opaque) or status != 0:
                return status  # an unknown one may or may not be the last failure
        return 0

    def subshell(self, command) -> Union[int, Opaque]:
        """Run ``command`` (or an and-or list, a background job's) as this (child) walker's
        whole subshell: its exit status."""
        try:
            if type(command) is S.AndOr:
                self.and_or(command)
            else:
                self.command(command)
        except _Exit as done:
            self.env.status = _exit_status(done)
        except _AbortLine as abort:
            self.env.status = abort.status
        except (_Break, _Return):
            pass
        return self.env.status

    def child(self, env: Env, certain: Optional[bool] = None) -> "_Walker":
        """A walker for code of this shell run on ``env`` (a subshell's copy, or a run that may
        not happen): of this walker's own class, so a subclass extends it, not repeats it."""
        walker = type(self)(env, self.result, self.script, self.certain if certain is None else certain,
                            self.depth)
        walker.in_condition = self.in_condition
        walker.stdout_redirected = self.stdout_redirected
        walker.stdout_closed = self.stdout_closed
        walker.stderr_to_stdout = self.stderr_to_stdout
        walker.scope = self.scope
        walker.substitution_lines = self.substitution_lines
        walker.loops, walker.outer_loops, walker.toplevel = self.loops, self.outer_loops, self.toplevel
        walker.in_subshell = self.in_subshell
        return walker

    def into_subshell(self):
        """This walker runs a subshell: the loops around it are out of break's reach."""
        self.outer_loops += self.loops
        self.loops = 0
        self.in_subshell = True
        if self.scope is not None:
            self.scope = self.scope.fork()  # its `local` shadows nothing the function restores

    def may_leave(self, why: str):
        """This shell may leave what it runs here (``why`` says how), or go on: what it does
        after is not followed."""
        self.unknown_from_here(f"what runs after {why}", Opaque(f"status after {why}"))

    def may_not_run(self, first, last, why: str) -> "_Shown":
        """How a loss names the commands from ``first`` to ``last`` that run or not by ``why``."""
        return _Shown(self.raw, first, last, f", which may not run ({why})" if why else ", which may not run")

    def uncertain_copy(self, run, what, certain: bool = False, background: bool = False):
        """Run something that may or may not happen on a copy; what it could change becomes
        opaque, named after the first thing the copy lost, or else after ``what`` it ran (a
        str, or a _Shown, spelled only if it names the loss). Where it may leave (exit,
        return, break, continue, a line abandoned), but for a job in the ``background``, which
        leaves only itself, what this shell does after it is not followed."""
        sub = self.env.copy()
        sub.files = self.env.files.fork()
        walker = self.child(sub, certain=certain)
        left = None
        try:
            run(walker)
        except (_Exit, _Break, _Return, _AbortLine) as leaving:
            left = leaving
        # files it may have made, or a background job may make at any time
        self.env.files.absorb(sub.files, what)
        if left is not None and not background:
            self.may_leave(next(why for kind, why in _LEAVING.items() if isinstance(left, kind)))
            return
        if certain:
            return
        changed = _state_changed(self.env, sub)
        if changed is not None:
            why = f"{changed}, which a command that may not run changed"
            self.unknown_from_here(f"the shell's {why}", Opaque(f"status after {why}"))
            return
        # the copy shares the Variables it did not replace (they are never changed in place),
        # so most compare by identity; only the replaced ones and arrays compare by value
        mine = self.env.vars
        for name, var in sub.vars.items():
            old = mine.get(name)
            if old is not var and (old is None or old.value != var.value):
                self.env.set(name, Opaque(f"${name} (set conditionally)"))
        if len(mine) != len(sub.vars):  # every name of the copy is now in mine: mine has more
            for name in list(mine):
                if name not in sub.vars:
                    self.env.set(name, Opaque(f"${name} (unset conditionally)"))
        if sub.positional != self.env.positional:
            self.env.positional = [Opaque("positional parameters (changed conditionally)")]
        if sub.cwd != self.env.cwd or not sub.cwd_known:
            self.env.cwd_known = False
            self.note(["working directory (changed conditionally)"])

    # -- commands -----------------------------------------------------------

    def command(self, node):
        self.env.meter.step(1, "commands")
        kind = type(node)
        if kind is S.SimpleCommand:
            return self.simple(node)
        if kind is S.FunctionDef:
            self.env.functions[node.name] = node.body
            self.env.status = 0
            return
        redirects = getattr(node, "redirects", ())
        records, failure, doubts = self.redirections(redirects, node) if redirects else ([], None, [])
        if failure is not None:
            # the body does not run; set -e and the ERR trap take this 1 as a simple command's
            # (measured: `set -e; { :; } < nope; echo after` prints nothing)
            self.record(argv=(), node=node, modelled=True, status=1, output=None, error=failure,
                        redirects=records)
            self.env.status = 1
            self.refused_compound = node
            return
        if doubts:
            self.note(doubts)
            self.uncertain_copy(lambda walker: walker.redirected_compound(node, records),
                                self.may_not_run(node, node, doubts[0]))
            self.env.status = Opaque(doubts[0])
            return
        self.redirected_compound(node, records)

    def redirected_compound(self, node, records):
        # the compound's own descriptors are restored after it, whatever `exec` did inside
        named = {str(int(r.fd)) for r in records if r.fd is not None and r.fd.isdigit() and int(r.fd) > 2}
        if not named:
            return self.stdout_compound(node, records)
        held = self.env.descriptors
        before = {fd: held.get(fd) for fd in named}
        try:
            self.stdout_compound(node, records)
        finally:
            for fd, state in before.items():
                if state is None:
                    held.pop(fd, None)
                else:
                    held[fd] = state

    def stdout_compound(self, node, records):
        merged, stdout_moved = self.stderr_to_stdout, False
        for record in records:  # where fd 2 leads after them: to this walker's output, or not
            if record.fd == "2" or record.op in ("&>", "&>>"):
                merged = record.op == ">&" and record.target == "1" and not stdout_moved and \
                    not self.stdout_redirected
            stdout_moved = stdout_moved or _redirects_stdout(record)
        if not stdout_moved:
            saved_merge, self.stderr_to_stdout = self.stderr_to_stdout, merged
            try:
                self.compound(node)  # an `exec >f` inside lasts
            finally:
                self.stderr_to_stdout = saved_merge
            return
        saved = self.stdout_redirected, self.stdout_closed, self.stderr_to_stdout
        self.stdout_redirected += 1
        self.stdout_closed = _closes_stdout(records, self.stdout_closed)
        self.stderr_to_stdout = merged
        try:
            self.compound(node)
        finally:
            # the compound's own redirections end with it, undoing an `exec >f` inside
            self.stdout_redirected, self.stdout_closed, self.stderr_to_stdout = saved

    def compound(self, node):
        kind = type(node)
        env = self.env
        if kind is S.Group:
            self.items(node.body)
        elif kind is S.Subshell:
            sub = env.copy()
            walker = self.child(sub)
            walker.into_subshell()
            try:
                walker.items(node.body)
            except _Exit as done:
                sub.status = _exit_status(done)
            except _AbortLine as abort:
                sub.status = abort.status
            except (_Break, _Return):
                pass
            env.status = sub.status
        elif kind is S.If:
            self.if_clause(node)
        elif kind is S.While:
            self.while_loop(node)
        elif kind is S.For:
            self.for_loop(node)
        elif kind is S.ArithFor:
            self.arith_for(node)
        elif kind is S.Case:
            self.case(node)
        elif kind is S.ArithCommand:
            value = self.arith(node.expr)
            env.status = 1 if value is None else Opaque(f"(({self.text(node.expr)}))") \
                if isinstance(value, Opaque) else int(value == 0)
        elif kind is S.Cond:
            env.status = self.cond(node)
        else:
            self.unknown_compound(node)

    def unknown_compound(self, node):
        """A compound command the model does not follow (``select``, whose body runs once for
        each line it reads): its output, and the shell from there on, are unknown."""
        name = "select" if type(node) is S.For else type(node).__name__.lower()
        status = Opaque(f"status of {name}")
        self.env.files.lose(f"the files after `{self.text(node)}`")
        self.record(argv=(name,), node=node, modelled=False, status=status,
                    output=None if self.stdout_redirected else Opaque(f"output of {name}"))
        self.unknown_output(Opaque(f"output of `{self.text(node)}`"))
        self.taint_everything(f"`{name}`, which the model does not follow")
        self.env.status = status
        self.certain = False

    def unknown_output(self, text: Opaque):
        """Output the model does not know, written where this walker's stdout goes."""
        if not self.stdout_redirected:
            self.result.output.append(text)
            self.note([text.name])

    def arith(self, expr: "S.Arith"):
        """The value of ``((…))``'s expression (or a part of ``for ((…))``); None when
        bash's arithmetic refuses it: the command fails with status 1 and the line
        goes on (an error of an expansion in it abandons the line, as ``$((…))`` does)."""
        exp = X.Expander(self.env)
        try:
            text = exp.arith_text(expr.parts)
        except ExpansionError as exc:
            self.fatal(exc, expr)
        try:
            value = exp.arith_of(text)
        except X.ArithError as exc:
            self.note(exp.opaque)
            self.record(argv=(), node=expr, modelled=True, status=1, output=None, error=f"((: {exc.message}")
            return None
        except ExpansionError as exc:  # set -u: an unset variable ends the shell
            self.fatal(exc, expr)
        self.note(exp.opaque)
        return value

    def fatal(self, exc: ExpansionError, node):
        if type(exc) is X.UnfollowedExpansion:
            # bash may abandon the line here, or go on: what it does from here is unknown
            reason = exc.message
            self.note([reason])
            self.env.files.lose(f"the files after `{self.text(node)}` ({reason})")
            status = Opaque(f"status of `{self.text(node)}` ({reason})")
            self.unknown_from_here(reason, status)
            self.record(argv=(), node=node, modelled=False, status=status, output=None)
            raise _AbortLine(status)
        self.record(argv=(), node=node, modelled=True, status=exc.status, output=None, error=exc.message)
        if exc.fatal:
            raise _FatalExpansion(exc.status)
        raise _AbortLine()

    def condition(self, body) -> Union[int, Opaque]:
        saved = self.in_condition
        self.in_condition = True  # set -e does not apply inside a condition
        try:
            self.items(body)
        finally:
            self.in_condition = saved
        return self.env.status

    def if_clause(self, node: "S.If"):
        for n, (cond, body) in enumerate(node.clauses):
            status = self.condition(cond)
            if isinstance(status, Opaque):
                rest_clauses = node.clauses[n:]
                # both ways are possible: everything after the condition is uncertain
                what = self.may_not_run(node, node, status.name)
                self.uncertain_copy(lambda w: w.items(body), what)
                for _, other in rest_clauses[1:]:
                    self.uncertain_copy(lambda w, other=other: w.items(other), what)
                if node.else_body:
                    self.uncertain_copy(lambda w: w.items(node.else_body), what)
                self.env.status = Opaque(f"status after if ({status.name})")
                return
            if status == 0:
                self.items(body)
                return
        if node.else_body:
            self.items(node.else_body)
        else:
            self.env.status = 0

    def loop_body(self, body) -> bool:
        """Run a loop body; False when the loop must stop (break)."""
        # an iteration pays through the commands it runs (a body holds one at least)
        self.loops += 1
        try:
            self.items(body)
        except _Break as brk:
            if brk.levels > 1:
                raise _Break(brk.levels - 1, brk.kind) from None
            return brk.kind == "continue"
        finally:
            self.loops -= 1
        return True

    def while_loop(self, node: "S.While"):
        last = 0
        for _ in range(LOOP_LIMIT):
            status = self.condition(node.condition)
            if isinstance(status, Opaque):
                self.uncertain_copy(lambda w: w.loop_body(node.body), self.may_not_run(node, node, status.name))
                self.env.status = Opaque(f"status after loop ({status.name})")
                return
            if (status == 0) == node.until:
                self.env.status = last
                return
            if not self.loop_body(node.body):
                return
            last = self.env.status
        self.beyond_limit()

    def for_loop(self, node: "S.For"):
        if node.items is None:
            values = list(self.env.positional)
            opaque = ()
        else:
            try:
                expansion = X.expand(node.items, self.env, X.ARGV)
            except ExpansionError as exc:
                self.fatal(exc, node)
            values, opaque = list(expansion.values), expansion.opaque
        self.note(opaque)
        if not _NAME.fullmatch(node.name):
            self.record(argv=("for",), node=node, modelled=True, status=1, output=None,
                        error=f"`{node.name}': not a valid identifier")
            self.env.status = 1
            return
        if node.select:
            self.unknown_compound(node)
            return
        if opaque:
            # the number of iterations is unknown: the body may run, with an unknown value
            self.env.set(node.name, Opaque(f"${node.name} (loop over {', '.join(opaque)})"))
            self.uncertain_copy(lambda w: w.loop_body(node.body),
                                self.may_not_run(node, node, f"loop over {', '.join(opaque)}"))
            self.env.status = Opaque("status after loop")
            return
        if not values:
            self.env.status = 0
            return
        # the body first sees the status of the last command substitution in the words
        for value in values[:LOOP_LIMIT]:
            self.env.set(node.name, value)
            if not self.loop_body(node.body):
                return
        if len(values) > LOOP_LIMIT:
            self.beyond_limit()

    def beyond_limit(self):
        """A loop runs longer than the model follows: whether and how it ends is unknown,
        so everything after it is uncertain and the shell state opaque."""
        self.unknown_from_here("a loop beyond the evaluation limit", Opaque("loop beyond the evaluation limit"))

    def unknown_from_here(self, reason: str, status: Opaque):
        """What this shell does from here on is not followed: its variables, its status
        (``status``) and what it goes on printing are unknown, and nothing after is certain."""
        self.taint_everything(reason)
        self.env.status = status
        self.certain = False
        if not self.stdout_redirected:
            self.result.output.append(status)

    def arith_for(self, node: "S.ArithFor"):
        if self.arith(node.init) is None:
            self.env.status = 1  # a refused expression ends the loop
            return
        for _ in range(LOOP_LIMIT):
            value = self.arith(node.test) if node.test.parts else 1
            if value is None:
                self.env.status = 1
                return
            if isinstance(value, Opaque):
                self.uncertain_copy(lambda w: w.loop_body(node.body), self.may_not_run(node, node, value.name))
                self.env.status = Opaque("status after loop")
                return
            if value == 0:
                self.env.status = 0
                return
            if not self.loop_body(node.body):
                return
            if self.arith(node.step) is None:
                self.env.status = 1
                return
        self.beyond_limit()

    def case(self, node: "S.Case"):
        try:
            word = X.expand([node.word], self.env, X.CASE_WORD)
        except ExpansionError as exc:
            self.fatal(exc, node)
        if not word.exact and node.arms and _matches_anything(node.arms[0]) and \
                (node.arms[0].terminator == ";;" or len(node.arms) == 1):
            # a first arm of `*` runs whatever the word is (`case $RANDOM in *) …`)
            if not node.arms[0].body:
                self.env.status = 0
            self.items(node.arms[0].body)
            return
        if not word.exact:
            self.note(word.opaque)
            what = self.may_not_run(node, node, ", ".join(word.opaque))
            for arm in node.arms:
                self.uncertain_copy(lambda w, arm=arm: w.items(arm.body), what)
            self.env.status = Opaque("status after case")
            return
        falling = ran = False
        for n, arm in enumerate(node.arms):
            matched = falling
            if not matched:
                for pattern_word in arm.patterns:
                    pattern = X.pattern(pattern_word, self.env)
                    if pattern.opaque:
                        self.note(pattern.opaque)
                        what = self.may_not_run(node, node, ", ".join(pattern.opaque))
                        for later in node.arms[n:]:
                            self.uncertain_copy(lambda w, later=later: w.items(later.body), what)
                        self.env.status = Opaque("status after case")
                        return
                    if pattern.matches(word.values[0]):
                        matched = True
                        break
            if not matched:
                continue
            # the body first sees the status the case word and patterns left
            if not arm.body:
                self.env.status = 0
            self.items(arm.body)
            ran = True
            if arm.terminator == ";;":
                return
            falling = arm.terminator == ";&"
        if not ran:
            self.env.status = 0  # no pattern matched

    def cond(self, node: "S.Cond") -> Union[int, Opaque]:
        evaluation = CondEval(self.env, list(node.items))
        try:
            try:
                value = evaluation.run()
            finally:
                for message in evaluation.errors:
                    self.record(argv=(), node=node, modelled=True, status=1, output=None, error=f"[[: {message}")
        except _Unknown as unknown:
            status = Opaque(f"[[ {self.text(node)[2:-2].strip()} ]] ({unknown})")
            self.note([status.name])  # what runs after it depends on it: not exact
            return status
        except ExpansionError as exc:
            self.fatal(exc, node)
        return 0 if value else 1

    # -- simple commands ------------------------------------------------------

    def simple(self, node: "S.SimpleCommand"):
        env = self.env
        exp_names: list = []
        substitutions: list = []
        lines = self.substitution_lines
        if lines is None:
            self.env.lineno = node.line or self.script.line_of(node.start)
        elif id(node) in lines:
            self.env.lineno = lines[id(node)]  # a command of this substitution's own body
        elif lines.get("base") is not None:
            self.env.lineno = lines["base"] + (node.line or self.script.line_of(node.start)) - 1
        elif lines.get("span") and lines["span"][0] <= node.start < lines["span"][1]:
            self.env.lineno = None  # how bash re-prints this body is not modelled
        else:
            self.env.lineno = node.line or self.script.line_of(node.start)  # a function's body
        try:
            argv_result = self.expand_words(node.words, exp_names, substitutions)
        except ExpansionError as exc:
            self.fatal(exc, node)
        argv = list(argv_result)
        name = argv[0] if argv else None
        # assignments are expanded after the words, left to right
        assignments = []
        try:
            assignments = self.assignment_values(node, exp_names, substitutions)
        except ExpansionError as exc:
            self.fatal(exc, node)
        if self.job_spec(node, argv, assignments, exp_names, substitutions):
            return
        forked = type(name) is str and name not in BASH_BUILTINS and name not in env.functions
        redirects, failure, doubts = self.redirections(node.redirects, node, exp_names, substitutions, forked)
        if failure is not None:
            # the command does not run; without a command name the assignments still happen
            if name is None:
                for (var, value, append, index) in assignments:
                    self.assign(var, value, append, index, node)
            status = failure.status if type(failure) is ChildFailure else 1
            self.record(argv=tuple(argv), node=node, modelled=True, status=status, output=None,
                        error=str(failure), assignments=assignments, redirects=redirects, opaque=exp_names,
                        substitutions=substitutions)
            env.status = status
            # bash sets $_ from the expanded words before it performs the redirections
            self.set_last_argument(argv)
            return
        if doubts:
            # whether the command runs depends on a redirection the model cannot decide
            exp_names.extend(d for d in doubts if d not in exp_names)
            self.uncertain_copy(lambda walker: walker.execute(node, argv, assignments, redirects, exp_names,
                                                              substitutions), self.may_not_run(node, node, doubts[0]))
            if name == "exec" and len(argv) == 1:
                for record in redirects:  # they may or may not have become the shell's own
                    if record.fd is not None and record.fd.isdigit():
                        env.descriptors.pop(str(int(record.fd)), None)
                if any(_redirects_stdout(r) for r in redirects) and not self.stdout_redirected:
                    # the rest of this shell's output goes to the file or, if it
                    # could not be opened, here: from now on it is unknown
                    self.result.output.append(Opaque(f"output after `{self.text(node)}` ({doubts[0]})"))
                    self.stdout_redirected += 1
            env.status = Opaque(doubts[0])
            self.note(doubts)
            self.set_last_argument(argv)  # set whether or not it runs
            return
        self.execute(node, argv, assignments, redirects, exp_names, substitutions)

    def execute(self, node, argv, assignments, redirects, exp_names, substitutions):
        """Run a simple command whose words and redirections are expanded and performed."""
        env = self.env
        name = argv[0] if argv else None
        display = name
        if name is None:
            for (var, value, append, index) in assignments:
                if var in env.readonly:
                    # bash refuses it and abandons the rest of the line (those before it stay)
                    self.record(argv=(), node=node, modelled=True, status=1, output=None,
                                error=f"{var}: readonly variable", assignments=assignments, redirects=redirects,
                                opaque=exp_names, substitutions=substitutions)
                    raise _AbortLine()
                self.assign(var, value, append, index, node)
            status = self.last_substitution_status(substitutions)
            env.status = status
            self.set_last_argument(argv)
            self.record(argv=(), node=node, modelled=True, status=status, output=None,
                        assignments=assignments, redirects=redirects, opaque=exp_names,
                        substitutions=substitutions)
            return
        # its own redirections of stdout hold while it runs
        own_stdout = _any_redirects_stdout(redirects)
        stdout_away = self.stdout_redirected or own_stdout
        unknown = has_opaque(name)
        if exp_names and not unknown and name not in _UNKNOWN_ARGUMENTS_FOLLOWED \
                and name not in env.functions and name in MODELLED:
            # a modelled builtin with unknown arguments: what it changes becomes unknown
            self.taint(name, argv)
            unknown = True
        if unknown:
            env.files.lose(f"the files after `{self.text(node)}`")
            self.record(argv=tuple(argv), node=node, modelled=False,
                        status=Opaque(f"status of {display}"),
                        output=None if stdout_away else Opaque(f"output of {display}"),
                        assignments=assignments, redirects=redirects, opaque=exp_names,
                        substitutions=substitutions)
            if not stdout_away:
                self.result.output.append(Opaque(f"output of {display}"))
            env.status = Opaque(f"status of {display}")
            self.note([f"status of {display}"])
            self.set_last_argument(argv)
            return
        closed_before = self.stdout_closed
        self.stdout_closed = closed = _closes_stdout(redirects, closed_before)
        # prefix assignments are visible to the command only
        saved = {}
        if assignments:
            for (var, value, append, index) in assignments:
                saved[var] = env.vars.get(var)
                self.assign(var, value, append, index, node)
        # a command's own descriptors are restored after it (an `exec` inside a function too)
        held = env.descriptors
        before = {} if name == "exec" or not redirects else {
            fd: held.get(fd) for fd in (str(int(r.fd)) for r in redirects
                                         if r.fd is not None and r.fd.isdigit() and int(r.fd) > 2)}
        try:
            outcome = self.run(name, argv, node, stdout_away, own_stdout)
        finally:
            for fd, state in before.items():
                if state is None:
                    held.pop(fd, None)
                else:
                    held[fd] = state
            for var, old in saved.items():
                if old is None:
                    env.vars.pop(var, None)
                else:
                    env.vars[var] = old
            if own_stdout:
                self.stdout_closed = closed_before
        if name == "exec" and len(argv) == 1 and own_stdout:
            # exec without a command makes its redirections the shell's own
            self.stdout_closed = closed
            self.stdout_redirected += 1
        if name == "exec" and len(argv) == 1:
            self.keep_descriptors(redirects)
        modelled, status, output, error = outcome.modelled, outcome.status, outcome.stdout, outcome.error
        if modelled and isinstance(output, str) and output and closed:
            # a builtin that writes to a closed stdout fails (and writes nothing)
            status, output, error = 1, None, f"{name}: write error: Bad file descriptor"
        if exp_names and isinstance(output, str):
            output = Opaque(f"output of {name} ({', '.join(exp_names)})")
        if own_stdout and output and not self.follows_descriptors and self.may_reach_output(redirects):
            # `>&3`: descriptor 3 may lead back to this stdout (`{ echo a >&3; } 3>&1`)
            self.result.output.append(Opaque(f"output of `{self.text(node)}` (to another descriptor)"))
            self.note([f"output of `{self.text(node)}` (to another descriptor)"])
        self.record(argv=tuple(argv), node=node, modelled=modelled, status=status,
                    output=None if stdout_away else output, error=error, assignments=assignments,
                    redirects=redirects, opaque=exp_names, substitutions=substitutions)
        if output is not None and not stdout_away:
            if not self.certain and isinstance(output, str) and output:
                output = Opaque(f"output of `{self.text(node)}`, which may not run")
            self.result.output.append(output)
            if isinstance(output, Opaque):
                self.note([output.name])
        if isinstance(status, Opaque):
            self.note([status.name]) if not modelled else None
        env.status = status
        self.set_last_argument(argv)
        if outcome.transfer is not None:
            if type(outcome.transfer) is Discard:
                raise _AbortLine()  # (a script read from a file or stdin goes on with the next line)
            raise outcome.transfer  # exit, break, continue or return, once the command is recorded

    def taint(self, name, argv):
        taint(self.env, self.note, name, argv)

    def set_last_argument(self, argv):
        """``$_``: the last argument of the last simple command run in this shell ("" when it
        had no words)."""
        last = argv[-1] if argv else ""
        self.env.set("_", Opaque("$_") if has_opaque(last) else last)

    def last_substitution_status(self, substitutions):
        if substitutions:
            return substitutions[-1].status
        return 0

    def expand_words(self, words, names: list, substitutions: list) -> list:
        """argv; the arguments of a declaration builtin are expanded as such (X.DECLARATION_ARGUMENT)."""
        refused = _brace_refused(words)
        if refused is not None:
            raise X.brace_refusal(refused)
        out = []
        exp = X.Expander(self.env)
        context = X.ARGV
        for n, word in enumerate(words):
            if isinstance(word, S.Assignment):
                if context is not X.DECLARATION_ARGUMENT or word.array is None:
                    # `let i=(3+4)`, `eval a=(…)`, `declare a=(1 2)x`: one plain word
                    word = S.compound_word(word)
                else:
                    assigned = (word.name, exp.assignment(word), word.append, word.index)
                    out.append(_CompoundArgument(word.name, assigned))
                    continue
            out.extend(exp.expand(word, context))
            if n == 0 and _names_a_declaration(word):
                context = X.DECLARATION_ARGUMENT
        self.collect(exp, names, substitutions)
        return out

    def collect(self, exp, names: list, substitutions: list):
        for name in exp.opaque:
            if name not in names:
                names.append(name)
        for part, result in exp.substitutions:
            text = X.script_text(part.script)
            substitutions.append(SubstitutionRecord(text, result.stdout, result.status,
                                                    getattr(result, "commands", ())))
        exp.substitutions = []

    def may_reach_output(self, redirects) -> bool:
        """Whether a command's stdout, moved by ``redirects`` to another descriptor, may lead
        back to this walker's output, which keeps no table of descriptors: ``>&N`` to one
        that `exec` did not open (``3>&1`` around it), or ``>&2`` under ``2>&1``."""
        for record in redirects:
            if record.op != ">&" or record.fd not in (None, "1") or record.path is not None:
                continue
            target = record.target or ""
            if target == "2" and self.stderr_to_stdout:
                return True
            if target.isdigit() and int(target) > 2 and str(int(target)) not in self.env.descriptors and \
                    not self.stdout_redirected:
                return True
        return False

    def assignment_values(self, node: "S.SimpleCommand", names, substitutions) -> list:
        """The assignments of ``node``, expanded in turn. bash assigns each (or puts it in the
        command's environment) before it expands the next: `a=1 b=$a` gives b the value 1. So
        each is made while the ones after it expand, then undone for the command's own order
        (one with a subscript or to a readonly name stands as unknown meanwhile)."""
        env = self.env
        last = len(node.assignments) - 1
        values, shadowed = [], {}
        try:
            for n, assignment in enumerate(node.assignments):
                item = self.assignment_value(assignment, names, substitutions)
                values.append(item)
                if n == last:
                    break
                var, value, append, index = item
                if var not in shadowed:
                    shadowed[var] = env.vars.get(var)
                if index is None and var not in env.readonly:
                    assign(env, self.note, var, value, append)
                else:
                    env.set(var, Opaque(f"${var}"))
        finally:
            for var, old in shadowed.items():
                if old is None:
                    env.vars.pop(var, None)
                else:
                    env.vars[var] = old
        return values

    def assignment_value(self, node: "S.Assignment", names, substitutions):
        exp = X.Expander(self.env)
        value = exp.assignment(node)
        index = node.index
        if index is not None and X.EXPANDING_SUBSCRIPT.search(index):
            index = exp.subscript_text(index)  # after the value, as bash expands them
        self.collect(exp, names, substitutions)
        return (node.name, value, node.append, index)

    def assign(self, name, value, append, index, node):
        try:
            assign(self.env, self.note, name, value, append, index)
        except ExpansionError as exc:
            # a subscript bash refuses (`x[1+]=`, `x[-9]=`): measured, bash ends the shell, or
            # only the command when the assignment prefixes one; not followed
            self.fatal(X.UnfollowedExpansion(f"the subscript of {name}[{index}]: {exc.message}"), node)

    def redirections(self, redirects, node, names=None, substitutions=None, forked=False):
        """Perform redirections left to right, as bash does: (records, failure, doubts).

        ``failure`` is bash's error when one cannot be performed (those before
        it were: their files exist); ``doubts`` names those that may fail.
        ``forked``: the command is a program bash runs in a child, which performs them: an
        expansion error there ends the child alone (ChildFailure), and the line goes on.
        """
        names = [] if names is None else names
        substitutions = [] if substitutions is None else substitutions
        out, doubts, opened = [], [], set()
        for n, redirect in enumerate(redirects):
            if n:
                self.before_redirection(out, redirect)
            exp = X.Expander(self.env)
            try:
                body = self.process_input(redirect, node, redirects[n + 1:])
                record, doubt = (RedirectRecord(redirect.op, redirect.fd, None, None, False, False, body, True), None) \
                    if body is not None else self.redirection(redirect, exp, opened)
            except (_Ambiguous, X.UnexpandableDocument) as failure:
                self.collect(exp, names, substitutions)
                return out, failure.message, doubts
            except ExpansionError as exc:
                if forked and type(exc) is not X.UnfollowedExpansion:
                    if self.in_subshell or "e" in self.env.flags:
                        # (measured: 1 where a subshell runs it itself, 127 in a pipeline; set -e
                        # then ends the shell with 1)
                        self.fatal(X.UnfollowedExpansion(
                            f"{exc.message}, in a redirection a child performs, in a subshell or under set -e"), node)
                    self.collect(exp, names, substitutions)
                    self.error_in_redirection(out)
                    return out, ChildFailure(exc.message, exc.status), doubts
                self.error_in_redirection(out)
                self.fatal(exc, node)
            self.collect(exp, names, substitutions)
            out.append(record)
            if doubt:
                doubts.append(doubt)
            if redirect.fd is not None:
                opened.add(redirect.fd)
        return out, None, doubts

    def before_redirection(self, records, redirect):
        """The redirections ``records`` of a command are in place, and the next, ``redirect``,
        is about to be expanded (a command substitution in it runs with them). This walker has
        no descriptors."""

    def error_in_redirection(self, records):
        """An expansion error met in a redirection is reported where the redirections before
        it, ``records``, put stderr. This walker has no descriptors."""

    def process_input(self, redirect: "S.Redirect", node, later) -> Optional[str]:
        """The bytes ``< <(…)`` gives ``node``, when the walker follows the process substitution
        (``later``: the redirections after it); None otherwise. This walker does not."""
        return None

    def redirection(self, redirect: "S.Redirect", exp, opened=()):
        """One redirection: (record, doubt); raises _Ambiguous when bash cannot perform it."""
        op = redirect.op
        if redirect.heredoc is not None:
            body = exp.expand(redirect.heredoc, X.HEREDOC_BODY)[0]
            return RedirectRecord(op, redirect.fd, None, None, False, False, body, not has_opaque(body)), None
        if op == "<<<":
            text = exp.expand(redirect.target, X.HERE_STRING)[0]
            return RedirectRecord(op, redirect.fd, text, None, False, False, text + "\n", not has_opaque(text)), None
        try:
            target = exp.expand(redirect.target, X.REDIRECT_TARGET)[0]
        except X.AmbiguousWord:
            fd = redirect.fd or ""
            named = fd[1:-1] if fd.startswith("{") else None  # bash names the variable then
            raise _Ambiguous(f"{named or self.text(redirect.target)}: ambiguous redirect") from None
        exact = not has_opaque(target) and (self.env.cwd_known or target.startswith("/"))
        if op in ("<&", ">&") and (target.isdigit() or target == "-" or target.endswith("-") and
                                   target[:-1].isdigit()):
            number = target.rstrip("-")
            doubt = None
            if number and int(number) > 2 and number not in opened:
                # 0, 1 and 2 are open in every harness; others only when this shell opened them
                state = self.env.descriptors.get(str(int(number)))
                if state is False:
                    raise _Ambiguous(f"{number}: Bad file descriptor")  # `exec N>&-` closed it
                if state is None:
                    doubt = f"whether descriptor {number} is open"
            return RedirectRecord(op, redirect.fd, target, None, False, False, None, exact), doubt
        if op == "<&" or (op == ">&" and redirect.fd is not None):
            if exact:
                raise _Ambiguous(f"{target}: ambiguous redirect")  # a file name where a descriptor goes
            return RedirectRecord(op, redirect.fd, target, None, False, False, None, exact), \
                f"whether {target} is a descriptor"
        if op == ">&":
            op = "&>"  # `>&file` is `&>file`
        if exact and target == "":
            raise _Ambiguous(f": {files.NO_SUCH_FILE}")
        path = target if target.startswith("/") else os.path.normpath(os.path.join(self.env.cwd, target))
        creates = op in _CREATING and not target.startswith("/dev/")
        truncates = creates and _CREATING[op]
        record = RedirectRecord(op, redirect.fd, target, path, creates, truncates, None, exact)
        view = self.env.files
        if not exact:
            if op != "<":
                view.lose(f"the files after `{self.text(redirect)}`")  # it may create any file
            return record, f"whether {target} can be opened"
        failure, doubt = view.open_target(path, target, op != "<", self.text(redirect))
        if doubt is not None:
            return record, doubt
        if failure:
            raise _Ambiguous(f"{target}: {failure}")
        if "C" in self.env.flags and op in (">", "&>") and path not in files.ALWAYS_OPENS:
            kind = view.kind(path)
            if kind == "file":
                raise _Ambiguous(f"{target}: cannot overwrite existing file")  # set -C; >| overrides
            if kind is None:
                return record, f"whether {target} exists (set -C)"
        if creates:
            view.create(path)
        fd = redirect.fd or ""
        if fd.startswith("{") and fd.endswith("}"):
            # bash stores the descriptor it picked (10 or more) in the variable
            self.env.set(fd[1:-1], Opaque(f"${fd[1:-1]} (a descriptor bash picks)"))
        return record, None

    def keep_descriptors(self, records):
        """``exec 3>f``, ``exec 3>&-``: which descriptors above 2 this shell holds open on a
        file for writing (True) or has closed (False); anything else stays unknown."""
        held = self.env.descriptors
        for record in records:
            fd = record.fd
            if fd is None or not fd.isdigit() or int(fd) < 3:
                continue
            fd = str(int(fd))
            target = record.target or ""
            state = None  # a duplicate of 0-2 or a read-only file: where writes go is not modelled
            if record.op in ("<&", ">&") and target.endswith("-"):
                source = target[:-1]  # `N>&-` closes N; `N>&M-` moves M to N
                if source and int(source) > 2:
                    state = held.get(str(int(source)))
                    held[str(int(source))] = False
                elif not source:
                    state = False
            elif record.op in ("<&", ">&") and target.isdigit():
                state = held.get(str(int(target))) if int(target) > 2 else None
            elif record.op in (">", ">>", ">|", "<>"):
                state = True
            if state is None:
                held.pop(fd, None)
            else:
                held[fd] = state

    def record(self, *, argv, node, modelled, status, output, error=None, assignments=(),
               redirects=(), opaque=(), substitutions=(), kind_only=False):
        if kind_only:
            return  # compound-command redirections are recorded with the commands inside
        line = self.script.line_of(node.start)
        opaque_names = list(opaque)
        shown = ()
        if assignments:
            shown = tuple((assigned[0], assigned[1].render() if isinstance(assigned[1], Opaque) else assigned[1])
                          for assigned in assignments)
            for assigned in assignments:
                value = assigned[1]
                if isinstance(value, Opaque) and value.name not in opaque_names:
                    opaque_names.append(value.name)
        if opaque_names:
            self.note(opaque_names)
        # a record is kept (and reported) for the whole evaluation: pay for its size
        size = 32 + (node.end - node.start) + (len(output) if isinstance(output, str) else 0)
        for arg in argv:
            if isinstance(arg, str):
                size += len(arg)
        self.env.meter.build(size, "command records")
        self.result.commands.append(CommandRecord(
            tuple(argv), shown, tuple(redirects), tuple(substitutions), tuple(opaque_names),
            modelled, self.certain, status, output, error, self.text(node), node.start, node.end, line))

    # -- dispatch: functions, then the command registry --------------------

    def run(self, name, argv, node, stdout_away, own_stdout=False) -> Outcome:
        """What running argv did: a defined function, else the command's model in the registry."""
        ctx = Invocation(argv, self.env, self, node, stdout_away, own_stdout)
        if name in self.env.functions and self.depth < CALL_DEPTH:
            return call_function(ctx)
        return lookup(name)(ctx)

    def run_body(self, body, scope, stdout_away=False, own_stdout=False):
        """Run a function's body in its own ``scope``; its status."""
        env = self.env
        walker = self.enter(self.script, scope)
        walker.stdout_redirected = self.stdout_redirected + (1 if stdout_away else 0)
        walker.substitution_lines = self.substitution_lines
        env.meter.enter("function calls")
        try:
            walker.command(body)
            status = env.status
        except _Return as ret:
            status = ret.status
        except _Exit:
            env.exit_in_function = True  # (an EXIT trap would see the function's locals)
            raise
        finally:
            env.meter.leave()
        if not own_stdout:
            # an `exec >f` in the function lasts, unless the call redirected stdout itself
            self.stdout_redirected, self.stdout_closed = walker.stdout_redirected, walker.stdout_closed
        return status

    def run_script(self, script: "S.Script"):
        """Run an eval'd script here, in the scope of the code that runs eval: line by line,
        as bash -c runs its script. An error that abandons a line abandons that line of the
        eval'd code only, and eval goes on; in a subshell it ends the subshell (measured)."""
        walker = self.enter(script, self.scope, inline=True)
        self.env.meter.enter("eval")
        try:
            for chunk in script.chunks:
                try:
                    walker.items(chunk.items)
                except _AbortLine as abort:
                    if self.in_subshell:
                        raise
                    self.env.status = abort.status
        finally:
            self.env.meter.leave()
        self.stdout_redirected, self.stdout_closed = walker.stdout_redirected, walker.stdout_closed

    def run_sourced(self, script: "S.Script", name: str):
        """Run a sourced file's script here, as ``run_script`` runs eval'd code, and return its
        status: ``return`` ends it, and bash's messages name ``name`` while it runs
        (Env.sourcing). A line bash abandons there (an expansion error) leaves the rest
        unknown: whether bash then goes on, abandons the file or exits is not followed."""
        walker = self.enter(script, self.scope, inline=True)
        walker.toplevel = False  # `return` ends the file
        env = self.env
        outer, env.sourcing = env.sourcing, name
        env.meter.enter("source")
        try:
            for chunk in script.chunks:
                walker.items(chunk.items)
            status = env.status
        except _Return as ret:
            status = ret.status
        except _AbortLine:
            why = f"the rest of {name}, sourced, after a line bash abandons"
            self.note([why])
            lose = getattr(env.files, "lose", None)
            if lose is not None:
                lose(f"the files after {why}")
            status = Opaque(f"status of source {name}")
        finally:
            env.meter.leave()
            env.sourcing = outer
        self.stdout_redirected, self.stdout_closed = walker.stdout_redirected, walker.stdout_closed
        return status

    def enter(self, script: "S.Script", scope: Optional[Scope], inline: bool = False) -> "_Walker":
        """The walker for code this shell runs one level deeper (a function body, an eval'd
        script): the one place its scope comes from. ``inline`` (eval'd code) runs where
        it stands, in its loops and outside or inside a function; a function's body starts
        outside any loop, inside a function."""
        walker = type(self)(self.env, self.result, script, self.certain, self.depth + 1)
        if inline:
            # not the loops outside a subshell: `( eval break )` in a loop is refused (measured)
            walker.loops, walker.toplevel = self.loops, self.toplevel
        walker.in_condition = self.in_condition
        walker.stdout_redirected = self.stdout_redirected
        walker.stdout_closed = self.stdout_closed
        walker.scope = scope
        walker.in_subshell = self.in_subshell
        return walker

    def taint_everything(self, name):
        taint_everything(self.env, self.note, name)


# compound commands whose own status never makes set -e exit: the commands inside
# them that fail do (measured: `{ ! true; }` goes on, `{ false; }` does not)
_ERREXIT_BY_PARTS = frozenset((S.Group, S.If, S.While, S.For, S.ArithFor, S.Case, S.FunctionDef))
# the commands that, alone in a pipeline, set PIPESTATUS to their status (Env.pipeline_ran)
_SETS_PIPESTATUS = frozenset((S.SimpleCommand, S.Subshell, S.ArithCommand, S.Cond))
# builtins that change nothing but their output and status: with unknown arguments they still
# run as modelled (their output and status become unknown; test's are its status and stderr)
_UNKNOWN_ARGUMENTS_FOLLOWED = frozenset({"echo", "printf", ":", "true", "false", "test", "["})


#: how a branch that may run leaves, by what it raised (a fatal expansion error is an exit)
_LEAVING = {_Exit: "an exit that may run", _Break: "a break or continue that may run",
            _Return: "a return that may run", _AbortLine: "an expansion error that may end the line"}


def _state_changed(env: "X.Env", sub: "X.Env") -> Optional[str]:
    """What of the shell's state beyond its variables' values, its positional parameters and
    its directory (which a merge makes unknown one by one) the copy ``sub`` of ``env``
    changed: its functions, options, descriptors, directory stack, the variables' attributes
    or IFS; None when none."""
    functions, theirs = env.functions, sub.functions
    if len(functions) != len(theirs) or any(theirs.get(name) is not body for name, body in functions.items()):
        return "functions"
    if (env.flags, env.noglob, env.globopts, env.pipefail) != (sub.flags, sub.noglob, sub.globopts, sub.pipefail):
        return "options"
    if env.descriptors != sub.descriptors or env.dirstack != sub.dirstack:
        return "descriptors or directory stack"
    mine = env.vars
    if env.readonly != sub.readonly or env.export_pending != sub.export_pending or \
            mine.get("IFS") is not sub.vars.get("IFS"):
        return "variables' attributes or IFS"
    for name, var in sub.vars.items():
        old = mine.get(name)
        if old is not var and (var.exported if old is None else old.exported != var.exported):
            return "variables' attributes or IFS"
    return None


class _Shown:
    """The source from ``first`` to ``last`` in backquotes, then ``tail``: a loss's name, spelled
    only when a loss takes it (a branch walked again and again does not copy its text each time)."""

    __slots__ = ("raw", "first", "last", "tail")

    def __init__(self, raw: bytes, first, last, tail: str):
        self.raw, self.first, self.last, self.tail = raw, first, last, tail

    def __str__(self) -> str:
        return f"`{self.raw[self.first.start:self.last.end].decode('utf-8', 'surrogateescape')}`{self.tail}"


class _Ambiguous(Exception):
    """A redirection bash cannot perform; the message says why."""

    def __init__(self, message: str = "ambiguous redirect"):
        super().__init__(message)
        self.message = message


# readers that take all of their standard input (when no file operand replaces it), and
# those that take it whatever their operands
_WHOLE_INPUT = frozenset("cat sort wc uniq rev nl base64 md5sum sha256sum od fold cut paste".split())
_ALWAYS_WHOLE_INPUT = frozenset(("tr", "tee"))


def ignores_order(command) -> bool:
    """Whether a pipeline's reader gives the same output whatever the order of its input's
    lines: ``sort`` comparing whole lines (-r, -n; -u without -n), ``wc`` of its stdin."""
    if type(command) is not S.SimpleCommand or not command.words or any(
            r.fd in (None, "0") and r.op[:1] == "<" or r.fd == "0" for r in command.redirects):
        return False  # not a plain command, or its stdin is not the pipe
    words = []
    for word in command.words:
        if len(word.parts) != 1 or type(word.parts[0]) is not S.Lit:
            return False
        words.append(word.parts[0].text)
    letters = "".join(w[1:] for w in words[1:] if w.startswith("-") and not w.startswith("--"))
    if any(not w.startswith("-") or w.startswith("--") or w == "-" for w in words[1:]):
        return False  # an operand, or a long option
    if words[0] == "sort":
        # (-z: its records end at NULs; -n with -z is not followed)
        return set(letters) <= set("rnuz") and not ("u" in letters and "n" in letters) and \
            not ("z" in letters and "n" in letters)
    return words[0] == "wc" and set(letters) <= set("lwc")


def plain_words(command) -> Optional[list]:
    """The words of a simple command when each is one literal or single-quoted part (what
    they say needs no expansion), else None."""
    words = []
    for word in command.words:
        if len(word.parts) != 1 or type(word.parts[0]) not in (S.Lit, S.SingleQuoted):
            return None
        words.append(word.parts[0].text)
    return words


def may_stop_reading(command) -> bool:
    """Whether a pipeline's reader may exit before its writer is done (head, grep -q, a file
    operand in place of stdin, anything not named by plain words): a writer still writing
    then dies of SIGPIPE, which pipefail reports."""
    if type(command) is not S.SimpleCommand or not command.words or any(
            r.fd in (None, "0") and r.op[:1] == "<" or r.fd == "0" for r in command.redirects):
        return True  # not a plain command, or its stdin is not the pipe
    words = plain_words(command)
    if words is None:
        return True
    name, operands = words[0], [w for w in words[1:] if not w.startswith("-")]
    options = "".join(w for w in words[1:] if w.startswith("-") and not w.startswith("--"))
    if name in _ALWAYS_WHOLE_INPUT:
        return False
    if name in _WHOLE_INPUT:
        return bool(operands)
    if name in ("grep", "egrep", "fgrep"):
        return len(operands) != 1 or any(letter in options for letter in "qmlLf") or \
            any(w.startswith("--") for w in words[1:])
    if name == "sed":
        return len(operands) != 1 or sed_may_stop_early(operands[0]) or \
            any(w.startswith("-") and w not in ("-n", "-E", "-r") for w in words[1:])
    if name == "awk":
        return len(operands) != 1 or "exit" in operands[0] or "nextfile" in operands[0] or \
            "getline" in operands[0] or any(w.startswith("-") and not w.startswith("-F") for w in words[1:])
    return True


def _any_redirects_stdout(records) -> bool:
    for record in records:
        if _redirects_stdout(record):
            return True
    return False


def _redirects_stdout(record: RedirectRecord) -> bool:
    if record.op in ("&>", "&>>"):
        return True
    if record.op in (">", ">>", ">|", "<>") and record.fd in (None, "1"):
        return record.op != "<>" or record.fd == "1"
    if record.op == ">&" and record.fd in (None, "1") or record.op == "<&" and record.fd == "1":
        return record.target != "1" or record.path is not None  # `>&1` leaves it where it is
    return False


def _closes_stdout(records, closed: bool = False) -> bool:
    """Whether stdout ends up closed (``>&-``, ``1<&-``) after ``records``, from ``closed`` before."""
    for record in records:
        if record.target == "-" and (record.op == ">&" and record.fd in (None, "1") or
                                     record.op == "<&" and record.fd == "1"):
            closed = True
        elif _redirects_stdout(record):
            closed = False
    return closed
