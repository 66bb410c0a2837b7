"""Static evaluation of a parsed script: what the shell would do, without running anything.

One job: walk a script in execution order, as the outer shell of a transport
would, and record every command it executes — expanded argv, assignments,
redirections (files created or truncated), the command substitutions it ran —
each marked exact or opaque. Builtins that change what later words expand to
(assignment, export, cd, set, shift, unset, eval, functions) and the output
builtins (echo, printf, pwd) are modelled; control flow is followed where it
is statically decidable. Anything else is an executed command with unknown
effects and an opaque exit status, never a guess.
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
from .budget import BudgetExceeded, Meter
from .expand import Env, ExpansionError, Opaque
from .values import has_opaque

# How far loops and function recursion are followed before the rest is opaque.
LOOP_LIMIT = 10_000
CALL_DEPTH = 25

# Builtins whose only effect the model knows completely.
MODELLED = frozenset(":", ) | frozenset(
    "true false echo printf pwd cd export unset set shift exit eval local declare typeset readonly "
    "break continue return test [ let command builtin shopt".split())
# Builtins the model does not run but that set the variables named in their
# arguments: afterwards those variables are opaque, never their old value.
_SETS_VARIABLES = {"read": "REPLY", "mapfile": "MAPFILE", "readarray": "MAPFILE", "getopts": None}
# Commands after which anything in the shell may have changed.
_CHANGES_ANYTHING = frozenset("source . pushd popd enable trap".split())
# Glob-related shopt options and their values under bash -c (measured).
_GLOB_DEFAULTS = {"nullglob": False, "dotglob": False, "failglob": False, "extglob": False, "globstar": False,
                  "nocaseglob": False, "nocasematch": False, "globasciiranges": True, "globskipdots": True}
_DECLARATION = frozenset("export local declare typeset readonly".split())
# a word a declaration builtin reads as an assignment (name=, name+=)
_ASSIGN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
# Builtins the model does not run that change no file (every other command may).
_NO_FILE_EFFECTS = (MODELLED - {"command", "builtin"}) | frozenset(
    "read mapfile readarray getopts type hash alias unalias wait jobs kill umask ulimit times help dirs "
    "disown caller compgen complete compopt".split())
_CREATING = {">": True, ">|": True, ">>": False, "&>": True, "&>>": False, "<>": False}


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


class _AbortLine(Exception):
    """An expansion error: bash abandons the rest of the current line (chunk)."""


class _Exit(Exception):
    def __init__(self, status):
        super().__init__(status)
        self.status = status


class _Break(Exception):
    def __init__(self, levels: int, kind: str):
        super().__init__(levels)
        self.levels = levels
        self.kind = kind


class _Return(Exception):
    def __init__(self, status):
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


def evaluate(script: "S.Script", env: Optional[Env] = None) -> Evaluation:
    """Evaluate ``script`` over ``env`` (changed in place; default: Env.default()).

    Command substitutions are evaluated statically (see ``static``). Returns
    an Evaluation; a script with a syntax error (from parse_prefix)
    is evaluated up to the chunk before the error, as bash -c does, and then
    ends with status 2. An evaluation that goes past the budget of
    ``env.meter`` stops there: its status is opaque and ``opaque`` names the
    limit (``env.meter.exceeded`` says so too).
    """
    env = static(env if env is not None else Env.default())
    result = Evaluation(env=env)
    walker = _Walker(env, result, script)
    try:
        for chunk in script.chunks:
            try:
                walker.items(chunk.items)
            except _AbortLine:
                env.status = 1
        if script.error is not None:
            result.syntax_error = script.error
            result.status = _syntax_error_status(script)
            return result
        result.status = env.status
    except _Exit as done:
        result.exited = True
        result.status = done.status
    except _Break:
        result.status = env.status
    except _Return as ret:
        result.status = ret.status
    except RecursionError:
        # deeper than the model follows (bash itself would recurse until it crashes)
        result.opaque.append("evaluation nested too deeply")
        result.status = Opaque("evaluation nested too deeply")
    except BudgetExceeded as exc:
        result.opaque.append(exc.reason)
        result.status = Opaque(exc.reason)
    return result


_INPUT_FIRST = re.compile(r"[ \t\n]*<(?![<&>])")
_ARRAY_OPEN = re.compile(rb"=\(")


def _syntax_error_status(script: "S.Script"):
    """The status bash leaves after a syntax error: 2, but 1 when the error is met
    inside a compound assignment `name=(` (bash's parse_compound_assignment
    fails with EXECUTION_FAILURE); where `=(` follows the last chunk that ran,
    which of the two is not modelled."""
    rest = script.source.encode("utf-8", "surrogateescape")[script.parsed_until:]
    if _ARRAY_OPEN.search(rest):
        return Opaque("status after a syntax error near a compound assignment")
    return 2


def _unmodelled_backtick_error(script: "S.Script") -> Optional[str]:
    """Why bash's handling of a backtick body that does not parse is not modelled, if it is not.

    bash reports such a body when it expands it, in the subshell, and the line
    goes on (measured, and modelled); but a body that starts with `<` takes the
    `$(<file)` path, and one that bash reads as an unclosed backtick (an open
    `$(`, in double quotes that hold a `{`) abandons more than the substitution.
    """
    if script.error is None:
        return None
    if _INPUT_FIRST.match(script.source):
        return "syntax error in a backtick body read as `<file`"
    if script.error.message == S.UNCLOSED_BACKTICK and S.has_open_substitution(script.source):
        return "syntax error in a backtick body bash reads as unclosed"
    return None


def substitute(script: "S.Script", env: Env) -> X.Substitution:
    """The static command-substitution hook: evaluate the body in a subshell (``env`` is
    already a copy) and return its stdout, or an Opaque named after the substitution."""
    result = Evaluation(env=env)
    walker = _Walker(env, result, script)
    walker.substitution_lines = _substitution_lines(script, env.lineno)
    try:
        for chunk in script.chunks:
            walker.items(chunk.items)
        status = env.status
        if script.error is not None:
            # a backtick body that does not parse: bash reports it and goes on
            status = _syntax_error_status(script)
    except _Exit as done:
        status = done.status
    except _AbortLine:
        status = 1
    except (_Break, _Return):
        status = env.status
    text = X.script_text(script)
    stdout = result.stdout
    unmodelled = _unmodelled_backtick_error(script)
    if unmodelled:
        text = script.source.strip()
        stdout = Opaque(f"`{text}` ({unmodelled})")
        status = Opaque(f"status of `{text}`")
    elif isinstance(stdout, Opaque) or not all(c.certain for c in result.commands) or (
            status == 0 and _reads_a_file(script)):
        stdout = Opaque(f"$({text})")
    if isinstance(status, Opaque):
        status = Opaque(f"status of $({text})")
    opaque = (stdout.name,) if isinstance(stdout, Opaque) else ()
    return _Substitution(stdout, status, opaque, tuple(result.commands))


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
                isinstance(c, S.SimpleCommand) and b"\n" not in raw[c.start:c.end] and
                not any(r.heredoc is not None for r in c.redirects) for c in commands):
            return {"base": None, "span": (script.chunks[0].start, script.chunks[-1].end)}
        if previous is not None and b"\n" in raw[previous.end:item.start]:
            printed += 1
        for command in commands:
            lines[id(command)] = base + printed - 1
        previous = item
    return lines


def _runs_nothing(argv, env) -> bool:
    """``bash -c SCRIPT`` whose script runs no command (blank, comments, or a syntax
    error on its first line): a shell that changes no file."""
    if len(argv) < 3 or argv[0] != "bash" or argv[1] != "-c" or env.get("BASH_ENV"):
        return False  # BASH_ENV names a file bash -c would source first
    try:
        script = S.parse_prefix(argv[2])
    except ValueError:
        return False
    return not any(chunk.items for chunk in script.chunks)


def _reads_a_file(script: "S.Script") -> bool:
    """``$(<file)``: bash substitutes the file's contents, which the model does not know."""
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
    def __init__(self, env: Env, result: Evaluation, script: "S.Script", certain: bool = True,
                 depth: int = 0):
        self.env = env
        self.result = result
        self.script = script
        self.raw = script.source.encode("utf-8", "surrogateescape")
        self.certain = certain
        self.depth = depth
        self.errexit = False
        self.stdout_redirected = 0
        self.stdout_closed = False  # fd 1 closed here (>&-): a builtin that writes to it fails
        self._pending = None  # exit/break/return, raised once the command is recorded
        # inside a command substitution: $LINENO of its commands (see _substitution_lines)
        self.substitution_lines = None
        self.scope = None  # inside a function: the variables `local` shadows, to restore

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

    def items(self, items):
        for item in items:
            self.item(item)

    def item(self, item: "S.ListItem"):
        if item.background:
            # a background job runs in a subshell; its effects never come back
            self.uncertain_copy(lambda walker: walker.and_or(item.command), certain=self.certain)
            self.env.status = 0
            self.env.last_bg = Opaque("$!")
            return
        self.and_or(item.command)

    def and_or(self, node: "S.AndOr"):
        self.pipeline(node.pipelines[0], checked=bool(node.ops))
        for n, op in enumerate(node.ops):
            status = self.env.status
            last = n == len(node.ops) - 1
            if isinstance(status, Opaque):
                # whether the rest runs depends on a status the model cannot know
                rest = node.pipelines[n + 1:]
                self.uncertain_copy(lambda walker: [walker.pipeline(p, checked=True) for p in rest])
                self.env.status = Opaque(status.name)
                return
            if (op == "&&") == (status == 0):
                self.pipeline(node.pipelines[n + 1], checked=not last)

    def pipeline(self, node: "S.Pipeline", checked: bool = False):
        if not node.commands:
            status = 0
        elif len(node.commands) == 1:
            self.command(node.commands[0])
            status = self.env.status
        else:
            statuses = []
            views = []
            for n, command in enumerate(node.commands):
                sub = self.env.copy()
                # the commands of a pipeline run at the same time: none sees another's files for sure
                sub.files = self.env.files.fork()
                views.append(sub.files)
                walker = self.child(sub)
                if n < len(node.commands) - 1:
                    walker.stdout_redirected += 1  # its stdout feeds the pipe
                    walker.stdout_closed = False
                try:
                    walker.command(command)
                except _Exit as done:
                    sub.status = done.status
                except _AbortLine:
                    sub.status = 1
                except (_Break, _Return):
                    pass
                statuses.append(sub.status)
            for view in views:
                self.env.files.absorb(view, f"the pipeline `{self.text(node)}`")
            status = statuses[-1]
        if node.negated:
            status = Opaque(status.name) if isinstance(status, Opaque) else int(status == 0)
        self.env.status = status
        if self.errexit and not checked and not node.negated:
            if isinstance(status, Opaque):
                self.note([f"set -e after {status.name}"])
            elif status != 0:
                raise _Exit(status)

    def child(self, env: Env, certain: Optional[bool] = None) -> "_Walker":
        walker = _Walker(env, self.result, self.script, self.certain if certain is None else certain,
                         self.depth)
        walker.errexit = self.errexit
        walker.stdout_redirected = self.stdout_redirected
        walker.stdout_closed = self.stdout_closed
        walker.scope = self.scope
        walker.substitution_lines = self.substitution_lines
        return walker

    def uncertain_copy(self, run, certain: bool = False):
        """Run something that may or may not happen on a copy; what it could change becomes opaque."""
        sub = self.env.copy()
        sub.files = self.env.files.fork()
        walker = self.child(sub, certain=certain)
        try:
            run(walker)
        except (_Exit, _Break, _Return, _AbortLine):
            pass
        # files it may have made, or a background job may make at any time
        self.env.files.absorb(sub.files, "a command that may not run, or runs in the background")
        if certain:
            return
        for name, var in sub.vars.items():
            old = self.env.vars.get(name)
            if old is None or old.value != var.value:
                self.env.set(name, Opaque(f"${name} (set conditionally)"))
        for name in list(self.env.vars):
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
            # the body does not run
            self.record(argv=(), node=node, modelled=True, status=1, output=None, error=failure,
                        redirects=records)
            self.env.status = 1
            return
        if doubts:
            self.note(doubts)
            self.uncertain_copy(lambda walker: walker.redirected_compound(node, records))
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
        if not any(_redirects_stdout(r) for r in records):
            self.compound(node)  # an `exec >f` inside lasts
            return
        saved = self.stdout_redirected, self.stdout_closed
        self.stdout_redirected += 1
        self.stdout_closed = _closes_stdout(records, self.stdout_closed)
        try:
            self.compound(node)
        finally:
            # the compound's own redirections end with it, undoing an `exec >f` inside
            self.stdout_redirected, self.stdout_closed = saved

    def compound(self, node):
        kind = type(node)
        env = self.env
        if kind is S.Group:
            self.items(node.body)
        elif kind is S.Subshell:
            sub = env.copy()
            walker = self.child(sub)
            try:
                walker.items(node.body)
            except _Exit as done:
                sub.status = done.status
            except _AbortLine:
                sub.status = 1
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
            env.status = Opaque(f"(({self.text(node.expr)}))") if isinstance(value, Opaque) else \
                int(value == 0)
        elif kind is S.Cond:
            env.status = self.cond(node)
        else:
            self.unknown_compound(node)

    def unknown_compound(self, node):
        name = type(node).__name__.lower()
        self.env.files.lose(f"the files after `{self.text(node)}`")
        self.record(argv=(name,), node=node, modelled=False, status=Opaque(f"status of {name}"),
                    output=None if self.stdout_redirected else Opaque(f"output of {name}"))

    def arith(self, expr: "S.Arith"):
        exp = X.Expander(self.env)
        try:
            value = exp.arith_value(expr.parts)
        except ExpansionError as exc:
            self.fatal(exc, expr)
        self.note(exp.opaque)
        return value

    def fatal(self, exc: ExpansionError, node):
        self.record(argv=(), node=node, modelled=True, status=exc.status, output=None, error=exc.message)
        if exc.fatal:
            raise _Exit(exc.status)
        raise _AbortLine()

    def condition(self, body) -> Union[int, Opaque]:
        saved = self.errexit
        self.errexit = False  # set -e does not apply inside a condition
        try:
            self.items(body)
        finally:
            self.errexit = saved
        return self.env.status

    def if_clause(self, node: "S.If"):
        for n, (cond, body) in enumerate(node.clauses):
            status = self.condition(cond)
            if isinstance(status, Opaque):
                rest_clauses = node.clauses[n:]
                # both ways are possible: everything after the condition is uncertain
                self.uncertain_copy(lambda w: w.items(body))
                for _, other in rest_clauses[1:]:
                    self.uncertain_copy(lambda w, other=other: w.items(other))
                if node.else_body:
                    self.uncertain_copy(lambda w: w.items(node.else_body))
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
        try:
            self.items(body)
        except _Break as brk:
            if brk.levels > 1:
                raise _Break(brk.levels - 1, brk.kind) from None
            return brk.kind == "continue"
        return True

    def while_loop(self, node: "S.While"):
        last = 0
        for _ in range(LOOP_LIMIT):
            status = self.condition(node.condition)
            if isinstance(status, Opaque):
                self.uncertain_copy(lambda w: w.items(node.body))
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
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", node.name):
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
            self.uncertain_copy(lambda w: w.items(node.body))
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
        self.taint_everything("a loop beyond the evaluation limit")
        self.env.status = Opaque("loop beyond the evaluation limit")
        self.certain = False

    def arith_for(self, node: "S.ArithFor"):
        self.arith(node.init)
        for _ in range(LOOP_LIMIT):
            value = self.arith(node.test) if node.test.parts else 1
            if isinstance(value, Opaque):
                self.uncertain_copy(lambda w: w.items(node.body))
                self.env.status = Opaque("status after loop")
                return
            if value == 0:
                self.env.status = 0
                return
            if not self.loop_body(node.body):
                return
            self.arith(node.step)
        self.beyond_limit()

    def case(self, node: "S.Case"):
        try:
            word = X.expand([node.word], self.env, X.CASE_WORD)
        except ExpansionError as exc:
            self.fatal(exc, node)
        if not word.exact:
            self.note(word.opaque)
            for arm in node.arms:
                self.uncertain_copy(lambda w, arm=arm: w.items(arm.body))
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
                        for later in node.arms[n:]:
                            self.uncertain_copy(lambda w, later=later: w.items(later.body))
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
        items = list(node.items)
        try:
            value = _CondEval(self, items).run()
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
            for assignment in node.assignments:
                assignments.append(self.assignment_value(assignment, exp_names, substitutions))
        except ExpansionError as exc:
            self.fatal(exc, node)
        redirects, failure, doubts = self.redirections(node.redirects, node, exp_names, substitutions)
        if failure is not None:
            # the command does not run; without a command name the assignments still happen
            if name is None:
                for (var, value, append, index) in assignments:
                    self.assign(var, value, append, index)
            self.record(argv=tuple(argv), node=node, modelled=True, status=1, output=None,
                        error=failure, assignments=assignments, redirects=redirects, opaque=exp_names,
                        substitutions=substitutions)
            env.status = 1
            return
        if doubts:
            # whether the command runs depends on a redirection the model cannot decide
            exp_names.extend(d for d in doubts if d not in exp_names)
            self.uncertain_copy(lambda walker: walker.execute(node, argv, assignments, redirects, exp_names,
                                                              substitutions))
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
            return
        self.execute(node, argv, assignments, redirects, exp_names, substitutions)

    def execute(self, node, argv, assignments, redirects, exp_names, substitutions):
        """Run a simple command whose words and redirections are expanded and performed."""
        env = self.env
        name = argv[0] if argv else None
        display = name
        if name is None:
            for (var, value, append, index) in assignments:
                self.assign(var, value, append, index)
            status = self.last_substitution_status(substitutions)
            env.status = status
            env.set("_", "")
            self.record(argv=(), node=node, modelled=True, status=status, output=None,
                        assignments=assignments, redirects=redirects, opaque=exp_names,
                        substitutions=substitutions)
            return
        stdout_away = self.stdout_redirected or any(_redirects_stdout(r) for r in redirects)
        unknown = has_opaque(name)
        if exp_names and not unknown and name not in ("echo", "printf", ":", "true", "false") \
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
        # its own redirections of stdout hold while it runs
        own_stdout = any(_redirects_stdout(r) for r in redirects)
        closed_before = self.stdout_closed
        self.stdout_closed = closed = _closes_stdout(redirects, closed_before)
        # prefix assignments are visible to the command only
        saved = {}
        if assignments:
            for (var, value, append, index) in assignments:
                saved[var] = env.vars.get(var)
                self.assign(var, value, append, index)
        # a command's own descriptors are restored after it (an `exec` inside a function too)
        held = env.descriptors
        before = {} if name == "exec" else {
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
        modelled, status, output, error = outcome
        if modelled and isinstance(output, str) and output and closed:
            # a builtin that writes to a closed stdout fails (and writes nothing)
            status, output, error = 1, None, f"{name}: write error: Bad file descriptor"
        if exp_names and isinstance(output, str):
            output = Opaque(f"output of {name} ({', '.join(exp_names)})")
        self.record(argv=tuple(argv), node=node, modelled=modelled, status=status,
                    output=None if stdout_away else output, error=error, assignments=assignments,
                    redirects=redirects, opaque=exp_names, substitutions=substitutions)
        if output is not None and not stdout_away:
            self.result.output.append(output)
            if isinstance(output, Opaque):
                self.note([output.name])
        if isinstance(status, Opaque):
            self.note([status.name]) if not modelled else None
        env.status = status
        self.set_last_argument(argv)
        pending = self._pending
        if pending is not None:
            self._pending = None
            raise pending

    def taint(self, name, argv):
        env = self.env
        if name == "cd":
            env.cwd_known = False
            env.set("PWD", Opaque("$PWD (cd to an unknown directory)"))
            self.note(["working directory (cd to an unknown directory)"])
        elif name in ("set", "shift"):
            env.positional = [Opaque(f"positional parameters (after {name})")]
        elif name in _DECLARATION or name == "unset":
            for arg in argv[1:]:
                match = re.match(r"([A-Za-z_][A-Za-z0-9_]*)", arg)
                if match and not arg.startswith("-"):
                    env.set(match.group(1), Opaque(f"${match.group(1)} (after {name})"))
        elif name == "eval":
            self.env.files.lose("the files after eval of an unknown string")
            self.note(["eval of an unknown string"])

    def set_last_argument(self, argv):
        """``$_``: the last argument of the last simple command run in this shell."""
        last = argv[-1]
        self.env.set("_", Opaque("$_") if has_opaque(last) else last)

    def last_substitution_status(self, substitutions):
        if substitutions:
            return substitutions[-1].status
        return 0

    def expand_words(self, words, names: list, substitutions: list) -> list:
        """argv; the arguments of a declaration builtin are expanded as such (X.DECLARATION_ARGUMENT)."""
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
            if n == 0 and len(word.parts) == 1 and type(word.parts[0]) is S.Lit and \
                    word.parts[0].text in _DECLARATION:
                # only the name as written: `"declare" y=$x` and `$c y=$x` split $x (bash 5.2)
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

    def assignment_value(self, node: "S.Assignment", names, substitutions):
        exp = X.Expander(self.env)
        value = exp.assignment(node)
        self.collect(exp, names, substitutions)
        return (node.name, value, node.append, node.index)

    def assign(self, name, value, append=False, index=None):
        env = self.env
        if name in env.readonly:
            # bash refuses it; whether the shell then goes on depends on the context
            self.note([f"assignment to the readonly variable {name}"])
            return
        current = env.get(name)
        if isinstance(value, tuple):
            array = dict(current) if append and isinstance(current, dict) else (
                {0: current} if append and isinstance(current, str) else {})
            following = (max(array) + 1) if array else 0
            for item in value:
                if isinstance(item, str):
                    array[following] = item
                    following += 1
                    continue
                at, plus, text = item  # `[k]=v`: later plain elements follow k
                old = array.get(at, "")
                if plus and not isinstance(old, str):
                    env.set(name, Opaque(f"${name}"))
                    return
                array[at] = old + text if plus else text
                following = at + 1
            env.set(name, array)
            return
        if index is not None:
            sub = X.Arithmetic(index, env, []).run() if index not in ("@", "*") else 0
            array = dict(current) if isinstance(current, dict) else ({0: current} if isinstance(current, str) else {})
            if isinstance(sub, Opaque):
                env.set(name, Opaque(f"${name}"))
                return
            old = array.get(sub, "")
            array[sub] = (old + value) if append and isinstance(value, str) and isinstance(old, str) else value
            env.set(name, array)
            return
        if append:
            if isinstance(current, dict):
                current = current.get(0)
            if isinstance(current, Opaque) or isinstance(value, Opaque):
                value = Opaque(f"${name}")
            else:
                value = (current or "") + value
            if isinstance(env.get(name), dict):
                array = dict(env.get(name))
                array[0] = value
                env.set(name, array)
                return
        env.set(name, value)

    def redirections(self, redirects, node, names=None, substitutions=None):
        """Perform redirections left to right, as bash does: (records, failure, doubts).

        ``failure`` is bash's error when one cannot be performed (those before
        it were: their files exist); ``doubts`` names those that may fail.
        """
        names = [] if names is None else names
        substitutions = [] if substitutions is None else substitutions
        out, doubts, opened = [], [], set()
        for redirect in redirects:
            exp = X.Expander(self.env)
            try:
                record, doubt = self.redirection(redirect, exp, opened)
            except (_Ambiguous, X.UnexpandableDocument) as failure:
                self.collect(exp, names, substitutions)
                return out, failure.message, doubts
            except ExpansionError as exc:
                self.fatal(exc, node)
            self.collect(exp, names, substitutions)
            out.append(record)
            if doubt:
                doubts.append(doubt)
            if redirect.fd is not None:
                opened.add(redirect.fd)
        return out, None, doubts

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
        failure = view.open_failure(path, writes=op != "<", trailing_slash=target.endswith("/"))
        if failure is None:
            why = view.unknown(path) or "permissions outside the working tree"
            if op != "<":
                view.lose(f"the files after `{self.text(redirect)}`")
            return record, f"whether {target} can be opened ({why})"
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
        shown = tuple((name, value.render() if isinstance(value, Opaque) else value)
                      for name, value, *_ in assignments)
        opaque_names = list(opaque)
        for _, value, *_ in assignments:
            if isinstance(value, Opaque) and value.name not in opaque_names:
                opaque_names.append(value.name)
        self.note(opaque_names)
        # a record is kept (and reported) for the whole evaluation: pay for its size
        self.env.meter.build(32 + (node.end - node.start) + sum(len(a) for a in argv if isinstance(a, str)) +
                             (len(output) if isinstance(output, str) else 0), "command records")
        self.result.commands.append(CommandRecord(
            tuple(argv), shown, tuple(redirects), tuple(substitutions), tuple(opaque_names),
            modelled, self.certain, status, output, error, self.text(node), node.start, node.end, line))

    # -- builtins ----------------------------------------------------------

    def run(self, name, argv, node, stdout_away, own_stdout=False):
        """(modelled, status, output, error) of running argv."""
        env = self.env
        args = argv[1:]
        if name in env.functions and self.depth < CALL_DEPTH:
            return self.call(name, args, stdout_away, own_stdout)
        if name in (":", "true"):
            return True, 0, None, None
        if name == "false":
            return True, 1, None, None
        if name == "echo":
            return (True, 0) + (_echo(args), None)
        if name == "printf":
            return self.printf(args)
        if name == "pwd":
            return True, 0, self.pwd() + "\n", None
        if name == "cd":
            return self.cd(args)
        if name in _DECLARATION:
            return self.declare(name, args)
        if name == "unset":
            names = [a for a in args if not a.startswith("-")]
            if any(var in env.readonly for var in names) and "-f" not in args:
                self.note([f"unset of a readonly variable ({' '.join(names)})"])
                return False, Opaque("status of unset (readonly)"), None, None
            functions = "-f" in args
            for var in names:
                if functions:
                    env.functions.pop(var, None)
                else:
                    env.unset(var)
            return True, 0, None, None
        if name == "set":
            return self.set_builtin(args)
        if name == "shift":
            count = int(args[0]) if args and args[0].isdigit() else 1
            if count > len(env.positional):
                return True, 1, None, None
            env.positional = env.positional[count:]
            return True, 0, None, None
        if name == "exit":
            status = env.status
            if args:
                status = int(args[0]) & 0xFF if re.fullmatch(r"-?[0-9]+", args[0]) else 2
            self._pending = _Exit(status)
            return True, status, None, None
        if name in ("break", "continue"):
            levels = int(args[0]) if args and args[0].isdigit() else 1
            self._pending = _Break(max(levels, 1), name)
            return True, 0, None, None
        if name == "return":
            status = int(args[0]) & 0xFF if args and re.fullmatch(r"-?[0-9]+", args[0]) else env.status
            self._pending = _Return(status)
            return True, status, None, None
        if name == "eval":
            return self.eval(" ".join(args))
        if name in ("test", "["):
            return self.test(name, args)
        if name == "let":
            return self.let(args, node)
        if name in ("command", "builtin") and args and not args[0].startswith("-"):
            if name == "command" or args[0] in MODELLED:
                saved = env.functions
                env.functions = {}  # `command f` skips functions
                try:
                    return self.run(args[0], args, node, stdout_away, own_stdout)
                finally:
                    env.functions = saved
        if name == "shopt":
            return self.shopt(args)
        if name == "exec":
            if args:
                env.files.lose(f"the files after `{self.text(node)}`")
                # the shell is replaced: nothing after this runs (or it exits if exec fails)
                self._pending = _Exit(Opaque(f"status of exec {args[0]}"))
                return False, Opaque(f"status of exec {args[0]}"), Opaque(f"output of {args[0]}"), None
            return True, 0, None, None
        if name in _SETS_VARIABLES:
            self.taint_variables(name, args)
        elif name in _CHANGES_ANYTHING:
            self.taint_everything(name)
        if name not in _NO_FILE_EFFECTS and not _runs_nothing(argv, env):
            env.files.lose(f"the files after `{self.text(node)}`")
        return False, Opaque(f"status of {name}"), Opaque(f"output of {name}"), None

    def taint_variables(self, name, args):
        names = []
        if name == "getopts":
            names = args[1:2] + ["OPTIND", "OPTARG"]
        else:
            options_with_value = {"read": "adeinNpt", "mapfile": "dnOstuC", "readarray": "dnOstuC"}[name]
            i = 0
            while i < len(args):
                arg = args[i]
                if arg.startswith("-") and len(arg) > 1:
                    if arg[-1] in options_with_value:
                        if arg[-1] == "a" and name == "read" and i + 1 < len(args):
                            names.append(args[i + 1])
                        i += 2
                    else:
                        i += 1
                    continue
                names.append(arg)
                i += 1
            if not names:
                names = [_SETS_VARIABLES[name]]
        for var in names:
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", var):
                self.env.set(var, Opaque(f"${var} (set by {name})"))

    def taint_everything(self, name):
        env = self.env
        for var in list(env.vars):
            env.set(var, Opaque(f"${var} (after {name})"))
        env.positional = [Opaque(f"positional parameters (after {name})")]
        env.noglob = None  # unknown shell options: globbing is no longer predictable
        env.cwd_known = False
        env.files.lose(f"the files after {name}")
        self.note([f"shell state after {name}"])

    def shopt(self, args):
        options = [a for a in args if not a.startswith("-")]
        flags = [a for a in args if a.startswith("-")]
        if flags in (["-s"], ["-u"]) and options and all(o in _GLOB_DEFAULTS for o in options):
            if any(_GLOB_DEFAULTS[o] != (flags == ["-s"]) for o in options):
                # the model globs with bash's defaults only: after a change, globs are opaque
                self.env.noglob = None
                self.note([f"globbing after shopt {' '.join(args)}"])
            return True, 0, None, None
        if flags in (["-q"], ["-p"], []):
            return False, Opaque("status of shopt"), None if flags == ["-q"] else Opaque("output of shopt"), None
        self.env.noglob = None
        self.note([f"shell options after shopt {' '.join(args)}"])
        return False, Opaque("status of shopt"), None, None

    def let(self, args, node):
        value = 0
        for expression in args:
            try:
                value = X.arithmetic(expression, self.env)
            except ExpansionError as exc:
                return True, 1, None, f"let: {exc.message}"
            if isinstance(value, Opaque):
                return True, Opaque(f"status of let {expression}"), None, None
        return True, int(value == 0), None, None

    def test(self, name, args):
        if name == "[":
            if not args or args[-1] != "]":
                return True, 2, None, "[: missing `]'"
            args = args[:-1]
        try:
            value = _test(args, self.env)
        except _Unknown as unknown:
            return False, Opaque(f"status of {name} {' '.join(args)} ({unknown})"), None, None
        return True, value, None, None

    def call(self, name, args, stdout_away=False, own_stdout=False):
        env = self.env
        env.meter.step(1, "function calls")
        saved = env.positional
        env.positional = list(args)
        walker = self.child(env)
        walker.depth = self.depth + 1
        walker.stdout_redirected = self.stdout_redirected + (1 if stdout_away else 0)
        walker.scope = {}
        try:
            walker.command(env.functions[name])
            status = env.status
        except _Return as ret:
            status = ret.status
        finally:
            env.positional = saved
            for var, old in walker.scope.items():  # the function's locals end with it
                if old is None:
                    env.vars.pop(var, None)
                else:
                    env.vars[var] = old
        if not own_stdout:
            # an `exec >f` in the function lasts, unless the call redirected stdout itself
            self.stdout_redirected, self.stdout_closed = walker.stdout_redirected, walker.stdout_closed
        return True, status, None, None

    def eval(self, text):
        self.env.meter.step(1, "eval")
        self.env.meter.build(len(text), "eval")
        try:
            script = S.parse_prefix(text)
        except ValueError as exc:
            return False, Opaque("status of eval"), Opaque(f"output of eval ({exc})"), None
        walker = _Walker(self.env, self.result, script, self.certain, self.depth + 1)
        walker.errexit = self.errexit
        walker.stdout_redirected = self.stdout_redirected
        walker.stdout_closed = self.stdout_closed
        # like bash -c, eval runs the lines before a syntax error, then fails with 2
        walker.items(script.body)
        self.stdout_redirected, self.stdout_closed = walker.stdout_redirected, walker.stdout_closed
        if script.error is not None:
            return True, 2, None, f"eval: {script.error.message}"
        return True, self.env.status, None, None

    def pwd(self):
        value = self.env.get("PWD")
        return value if isinstance(value, str) else self.env.cwd

    def cd(self, args):
        env = self.env
        args = [a for a in args if a not in ("-L", "-P", "--")]
        output = None
        if not args:
            target = env.get("HOME")
        elif args[0] == "-":
            target = env.get("OLDPWD")
            if target is None:
                return True, 1, None, "cd: OLDPWD not set"
            output = f"{target}\n"
        else:
            target = args[0]
        if not isinstance(target, str):
            env.cwd_known = False
            return False, Opaque("status of cd"), None, None
        new = target if target.startswith("/") else os.path.join(env.cwd, target)
        failure = _dotdot_failure(new, self.env.files)
        new = os.path.normpath(new)  # as bash: a leading `//` stays, `///` is `/`
        if failure == "":
            failure = self.env.files.directory_failure(new)
        if failure is None:
            env.cwd_known = False  # it may or may not have changed
            return False, Opaque(f"status of cd {target}"), None, None
        if failure:
            return True, 1, None, f"cd: {target}: {failure}"
        env.set("OLDPWD", self.pwd())
        env.cwd = new
        env.set("PWD", new)
        return True, 0, output, None

    def declare(self, name, args):
        if name == "local":
            if self.scope is None:
                return True, 1, None, "local: can only be used in a function"
            for arg in args:
                match = re.match(r"[A-Za-z_][A-Za-z0-9_]*", arg)
                if match and match.group(0) not in self.scope:
                    var = match.group(0)
                    old = self.env.vars.get(var)
                    self.scope[var] = None if old is None else X.Variable(
                        dict(old.value) if isinstance(old.value, dict) else old.value, old.exported)
                    if "=" not in arg:
                        self.env.unset(var)  # `local x` starts unset
        options = [a for a in args if a.startswith(("-", "+")) and not _ASSIGN_WORD.match(a)
                   and not isinstance(a, _CompoundArgument)]
        modelled = ("-x", "--", "-g", "-r", "+x")
        if not any("=" in a for a in args if not isinstance(a, _CompoundArgument)):
            modelled += ("-a",)  # `declare -a a=(…)`; `-a a="(1 2)"` parses its string
        if any(o not in modelled for o in options) or any(
                isinstance(a, _CompoundArgument) and (a.assignment[3] is not None or
                                                      isinstance(a.assignment[1], Opaque))
                for a in args):
            # attributes (-A, -i, -l…) change what is stored: the names become unknown
            self.taint(name, [name] + [a for a in args if a not in options])
            return False, Opaque(f"status of {name} {' '.join(options)}"), None, None
        if len(options) == len(args):
            # without names it lists variables: output the model does not produce
            return False, 0, Opaque(f"output of {name}"), None
        for arg in args:
            if arg in options:
                continue
            target = re.match(r"[A-Za-z_][A-Za-z0-9_]*", arg)
            if target and target.group(0) in self.env.readonly and (
                    "=" in arg or isinstance(arg, _CompoundArgument)):
                self.note([f"assignment to the readonly variable {target.group(0)}"])
                return False, Opaque(f"status of {name} {target.group(0)} (readonly)"), None, None
            if isinstance(arg, _CompoundArgument):
                var, value, append, index = arg.assignment
                self.assign(var, value, append, index)
                if name == "export" or "-x" in options:
                    self.env.vars[var].exported = True
                if name == "readonly" or "-r" in options:
                    self.env.readonly.add(var)
                continue
            match = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)\Z", arg, re.S)
            if match:
                var, plus, value = match.groups()
                if plus:
                    current = self.env.get(var)
                    value = (current if isinstance(current, str) else "") + value
                self.env.set(var, value, exported=True if name == "export" or "-x" in options else None)
                if name == "readonly" or "-r" in options:
                    self.env.readonly.add(var)
            elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", arg):
                if name == "readonly" or "-r" in options:
                    self.env.readonly.add(arg)
                if self.env.get(arg) is None and name not in ("export", "readonly"):
                    self.env.set(arg, "")
                    self.env.unset(arg) if name in ("local", "declare", "typeset") else None
                if name == "export":
                    var = self.env.vars.get(arg)
                    if var is not None:
                        var.exported = True
            else:
                return True, 1, None, f"{name}: `{arg}': not a valid identifier"
        return True, 0, None, None

    def set_builtin(self, args):
        env = self.env
        if not args:
            return False, 0, Opaque("output of set"), None
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "--":
                env.positional = list(args[i + 1:])
                return True, 0, None, None
            if arg in ("-", "+"):
                env.positional = list(args[i + 1:]) if args[i + 1:] else env.positional
                return True, 0, None, None
            if arg[:1] in "-+" and len(arg) > 1:
                on = arg[0] == "-"
                for letter in arg[1:]:
                    if letter == "f":
                        env.noglob = on
                    elif letter == "e":
                        self.errexit = on
                    elif letter in "xvhBC":
                        pass  # tracing and hashing change nothing; -C (noclobber) lives in $-
                    elif letter == "o" and i + 1 < len(args):
                        i += 1
                        if args[i] in ("noglob",):
                            env.noglob = on
                        elif args[i] == "errexit":
                            self.errexit = on
                        if args[i] in _LONG_FLAGS:
                            letter = _LONG_FLAGS[args[i]]
                            env.flags = _order_flags(env.flags.replace(letter, "") + (letter if on else ""))
                        elif args[i] not in ("xtrace", "verbose", "pipefail") or args[i] == "pipefail":
                            return False, Opaque(f"status of set -o {args[i]}"), None, None
                    else:
                        return False, Opaque(f"status of set {arg}"), None, None
                flags = env.flags
                for letter in arg[1:]:
                    if letter in "efC":
                        flags = flags.replace(letter, "")
                        if on:
                            flags = _order_flags(flags + letter)
                env.flags = flags
                i += 1
                continue
            env.positional = list(args[i:])
            return True, 0, None, None
        return True, 0, None, None

    def printf(self, args):
        target = None
        if args[:1] == ["-v"] and len(args) >= 2:
            target, args = args[1], args[2:]
        if args[:1] == ["--"]:
            args = args[1:]
        if not args:
            return True, 2, None, "printf: usage: printf [-v var] format [arguments]"
        try:
            if self.env.locale_is_c:
                # the C locale counts bytes: widths, %c and %q work on single bytes
                as_bytes = [a.encode("utf-8", "surrogateescape").decode("latin-1") for a in args]
                text, status = _printf(as_bytes[0], as_bytes[1:], byte_mode=True, meter=self.env.meter)
                text = text.encode("latin-1").decode("utf-8", "surrogateescape")
            else:
                text, status = _printf(args[0], args[1:], meter=self.env.meter)
        except _Unknown as unknown:
            return False, Opaque(f"output of printf ({unknown})"), Opaque(f"output of printf ({unknown})"), None
        if target is not None:
            self.env.set(target, text)
            return True, status, None, None
        return True, status, text, None


def _dotdot_failure(path: str, view) -> Optional[str]:
    """bash's ``cd`` takes ``x/..`` away only when ``x`` is a directory (measured): the
    error for the first one that is not ("" for none, None when unknown)."""
    logical = "//" if path.startswith("//") and not path.startswith("///") else "/"
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if logical.strip("/"):
                kind = view.kind(logical)
                if kind is None:
                    return None
                if kind != "dir":
                    return files.NO_SUCH_FILE if kind == "missing" else files.NOT_A_DIRECTORY
            logical = os.path.dirname(logical.rstrip("/")) or logical
            continue
        logical = logical + part if logical.endswith("/") else logical + "/" + part
    return ""


class _Ambiguous(Exception):
    """A redirection bash cannot perform; the message says why."""

    def __init__(self, message: str = "ambiguous redirect"):
        super().__init__(message)
        self.message = message


_STRING_BINARY = {"=": lambda a, b: a == b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
                  "<": lambda a, b: a.encode("utf-8", "surrogateescape") < b.encode("utf-8", "surrogateescape"),
                  ">": lambda a, b: a.encode("utf-8", "surrogateescape") > b.encode("utf-8", "surrogateescape")}
_INT_BINARY = {"-eq": lambda a, b: a == b, "-ne": lambda a, b: a != b, "-lt": lambda a, b: a < b,
               "-le": lambda a, b: a <= b, "-gt": lambda a, b: a > b, "-ge": lambda a, b: a >= b}


def _test(args: list, env) -> int:
    """``test``/``[`` by argument count, as POSIX specifies; files and -a/-o are opaque."""
    if has_opaque(args):
        raise _Unknown("opaque operand")
    n = len(args)
    if n == 0:
        return 1
    if n == 1:
        return 0 if args[0] else 1
    if n == 2:
        if args[0] == "!":
            return 1 - _test(args[1:], env)
        if args[0] == "-n":
            return 0 if args[1] else 1
        if args[0] == "-z":
            return 0 if not args[1] else 1
        raise _Unknown(f"test {args[0]}")
    if n == 3:
        a, op, b = args
        if op in _STRING_BINARY:
            return 0 if _STRING_BINARY[op](a, b) else 1
        if op in _INT_BINARY:
            x, y = _test_int(a), _test_int(b)
            return 0 if _INT_BINARY[op](x, y) else 1
        if a == "!":
            return 1 - _test(args[1:], env)
        if a == "(" and b == ")":
            return _test([op], env)
        raise _Unknown(f"test {op}")
    if n == 4 and args[0] == "!":
        return 1 - _test(args[1:], env)
    raise _Unknown("test with more than four arguments")


def _test_int(text: str) -> int:
    if not re.fullmatch(r"\s*[-+]?[0-9]+\s*", text):
        raise _Unknown(f"integer expression expected: {text}")
    return int(text)


_EXTGLOB_GROUP = re.compile(r"[?*+@!]\(")


class _CompoundArgument(str):
    """A ``name=(…)`` argument of a declaration builtin, expanded: the string is
    the name (what ``$_`` shows afterwards); ``assignment`` is what to assign."""

    assignment: tuple

    def __new__(cls, name: str, assignment: tuple):
        arg = super().__new__(cls, name)
        arg.assignment = assignment
        return arg


class _Unknown(Exception):
    pass


_LONG_FLAGS = {"errexit": "e", "noglob": "f", "noclobber": "C"}


def _order_flags(flags: str) -> str:
    # bash lists $- in a fixed order: the option letters first, then h, B, C, c
    order = "efhBCc"
    return "".join(sorted(set(flags), key=lambda c: order.index(c) if c in order else 99))


def _redirects_stdout(record: RedirectRecord) -> bool:
    if record.op in ("&>", "&>>"):
        return True
    if record.op in (">", ">>", ">|", "<>") and record.fd in (None, "1"):
        return record.op != "<>" or record.fd == "1"
    if record.op == ">&" and record.fd in (None, "1") or record.op == "<&" and record.fd == "1":
        return True
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


# ---------------------------------------------------------------- [[ ]]


class _CondEval:
    """``[[ … ]]`` for what is decidable: strings, patterns, integers. Files are opaque."""

    def __init__(self, walker: _Walker, items: list):
        self.walker = walker
        self.items = items
        self.i = 0

    def run(self) -> bool:
        value = self.or_expr()
        if self.i != len(self.items):
            raise _Unknown("unsupported expression")
        return value

    def peek_op(self):
        if self.i < len(self.items) and isinstance(self.items[self.i], S.CondOp):
            return self.items[self.i].op
        return None

    def or_expr(self):
        value = self.and_expr()
        while self.peek_op() == "||":
            self.i += 1
            right = self.and_expr()
            value = value or right
        return value

    def and_expr(self):
        value = self.not_expr()
        while self.peek_op() == "&&":
            self.i += 1
            right = self.not_expr()
            value = value and right
        return value

    def not_expr(self):
        if self.peek_op() == "!":
            self.i += 1
            return not self.not_expr()
        if self.peek_op() == "(":
            self.i += 1
            value = self.or_expr()
            if self.peek_op() != ")":
                raise _Unknown("unbalanced parentheses")
            self.i += 1
            return value
        return self.primary()

    def word_text(self, word) -> str:
        text = X.expand([word], self.walker.env, X.CASE_WORD)
        if not text.exact:
            raise _Unknown(", ".join(text.opaque))
        return text.values[0]

    def raw(self, n):
        item = self.items[n] if n < len(self.items) else None
        if isinstance(item, S.Word) and len(item.parts) == 1 and isinstance(item.parts[0], S.Lit):
            return item.parts[0].text
        if isinstance(item, S.CondOp) and item.op in ("<", ">"):
            return item.op
        return None

    def primary(self):
        items = self.items
        i = self.i
        if i >= len(items) or not isinstance(items[i], S.Word):
            raise _Unknown("unsupported expression")
        op = self.raw(i + 1)
        if op in ("==", "=", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "=~") and \
                i + 2 < len(items):
            left = self.word_text(items[i])
            right_word = items[i + 2]
            self.i = i + 3
            if op in ("==", "=", "!="):
                if any(isinstance(p, S.Lit) and _EXTGLOB_GROUP.search(p.text) for p in right_word.parts):
                    # [[ ]] matches `@(a|b)`, `!(x)`… as extended globs: not modelled
                    raise _Unknown("extended glob pattern")
                pattern = X.pattern(right_word, self.walker.env)
                if pattern.opaque:
                    raise _Unknown(", ".join(pattern.opaque))
                return pattern.matches(left) == (op != "!=")
            right = self.word_text(right_word)
            if op == "<":
                return left.encode("utf-8", "surrogateescape") < right.encode("utf-8", "surrogateescape")
            if op == ">":
                return left.encode("utf-8", "surrogateescape") > right.encode("utf-8", "surrogateescape")
            if op == "=~":
                raise _Unknown("regular expression match")
            a = X.arithmetic(left, self.walker.env) if left.strip() else 0
            b = X.arithmetic(right, self.walker.env) if right.strip() else 0
            if isinstance(a, Opaque) or isinstance(b, Opaque):
                raise _Unknown("opaque operand")
            return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b,
                    "-ge": a >= b}[op]
        unary = self.raw(i)
        if unary in ("-n", "-z") and i + 1 < len(items) and isinstance(items[i + 1], S.Word):
            value = self.word_text(items[i + 1])
            self.i = i + 2
            return bool(value) == (unary == "-n")
        if unary and len(unary) == 2 and unary[0] == "-" and i + 1 < len(items) and \
                isinstance(items[i + 1], S.Word):
            raise _Unknown(f"test {unary}")
        value = self.word_text(items[i])
        self.i = i + 1
        return bool(value)


# ---------------------------------------------------------------- echo and printf


def _echo(args: list) -> str:
    newline, escapes = True, False
    i = 0
    while i < len(args) and re.fullmatch(r"-[neE]+", args[i]):
        for letter in args[i][1:]:
            if letter == "n":
                newline = False
            elif letter == "e":
                escapes = True
            else:
                escapes = False
        i += 1
    text = " ".join(args[i:])
    if escapes:
        text, stop = _backslash_escapes(text, echo=True)
        if stop:
            return text
    return text + ("\n" if newline else "")


def _backslash_escapes(text: str, echo: bool = False, byte_mode: bool = False):
    """Interpret echo -e / printf %b escapes; returns (text, stopped_by_backslash_c)."""
    out = []
    i, n = 0, len(text)
    simple = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
              "t": "\t", "v": "\v", "\\": "\\"}
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        esc = text[i + 1]
        i += 2
        if esc in simple:
            out.append(simple[esc])
        elif esc == "c":
            return "".join(out), True
        elif esc == "0" or (esc in "1234567" and not echo):
            digits = "" if esc == "0" else esc
            limit = 3
            while i < n and len(digits) < limit and text[i] in "01234567":
                digits += text[i]
                i += 1
            out.append(_byte(int(digits or "0", 8) & 0xFF, byte_mode))
        elif esc == "x":
            digits = ""
            while i < n and len(digits) < 2 and text[i] in "0123456789abcdefABCDEF":
                digits += text[i]
                i += 1
            out.append(_byte(int(digits, 16), byte_mode) if digits else "\\x")
        elif esc in "uU":
            limit = 4 if esc == "u" else 8
            digits = ""
            while i < n and len(digits) < limit and text[i] in "0123456789abcdefABCDEF":
                digits += text[i]
                i += 1
            if not digits:
                out.append("\\" + esc)
            else:
                raise _Unknown("\\u escape depends on the locale")
        else:
            out.append("\\" + esc)
    return "".join(out), False


_FORMAT = re.compile(r"%([-+ #0]*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?([diouxXcsbqeEfFgGaA%])")


def _printf(fmt: str, args: list, byte_mode: bool = False, meter: Optional[Meter] = None):
    """bash's printf: the format is reused while arguments remain. In ``byte_mode`` every
    character stands for one byte (latin-1), as bash sees text in the C locale. Widths,
    precisions and the output are checked against ``meter`` before they are made."""
    meter = meter if meter is not None else Meter()
    out = _MeteredList(meter, "printf output")
    status = 0
    index = 0
    first = True
    while first or index < len(args):
        consumed_before = index
        first = False
        i = 0
        n = len(fmt)
        while i < n:
            ch = fmt[i]
            if ch == "\\":
                piece, i, stop = _format_escape(fmt, i, byte_mode)
                out.append(piece)
                if stop:
                    return "".join(out), status
                continue
            if ch != "%":
                out.append(ch)
                i += 1
                continue
            match = _FORMAT.match(fmt, i)
            if not match:
                raise _Unknown(f"format {fmt[i:i + 3]!r}")
            flags, width, precision, conv = match.groups()
            i = match.end()
            if conv == "%":
                out.append("%")
                continue
            if width == "*":
                value, ok = _int_arg(_take(args, index))
                index += 1
                status = status if ok else 1
                if value < 0:
                    flags, value = flags + "-", -value
                width = str(value)
            if precision == "*":
                value, ok = _int_arg(_take(args, index))
                index += 1
                status = status if ok else 1
                precision = str(max(value, 0)) if value >= 0 else None
            if width:
                meter.width(int(width))
            if precision:
                meter.width(int(precision))
            arg = _take(args, index)
            if index < len(args):
                index += 1
            if conv in "eEfFgGaA":
                raise _Unknown("floating point format")
            if conv == "s":
                text = arg
            elif conv == "b":
                text, stop = _backslash_escapes(arg, byte_mode=byte_mode)
                if stop:
                    out.append(_pad(text, flags, width, precision))
                    return "".join(out), 0  # bash returns success after \c, whatever came before
            elif conv == "q":
                text = _printf_q(arg, byte_mode)
            elif conv == "c":
                text = arg[:1] or "\0"
            else:
                value, ok = _int_arg(arg)
                if not ok:
                    status = 1
                text = _format_int(value, conv, flags, precision)
                precision = None
            out.append(_pad(text, flags, width, precision if conv in "sbqc" else None))
        if index == consumed_before:
            break
    return "".join(out), status


class _MeteredList(list):
    """A list of output pieces whose every piece is paid for as it is added."""

    def __init__(self, meter: Meter, what: str):
        super().__init__()
        self.meter = meter
        self.what = what

    def append(self, piece):
        self.meter.build(len(piece), self.what)
        super().append(piece)


def _take(args, index):
    return args[index] if index < len(args) else ""


def _int_arg(arg: str):
    text = arg.strip()
    if not text:
        return 0, True
    if text[0] in "'\"" and len(text) > 1:
        return ord(text[1]), True
    try:
        if re.fullmatch(r"[-+]?0[xX][0-9a-fA-F]+", text):
            return int(text, 16), True
        if re.fullmatch(r"[-+]?0[0-7]*", text):
            return int(text, 8), True
        return int(text, 10), True
    except ValueError:
        match = re.match(r"[-+]?[0-9]+", text)
        return (int(match.group(0)) if match else 0), False


def _format_int(value, conv, flags, precision):
    if conv in "diu":
        if conv == "u" and value < 0:
            value += 1 << 64
        body = str(abs(value))
        if precision:
            body = body.zfill(int(precision))
        sign = "-" if value < 0 else ("+" if "+" in flags else (" " if " " in flags else ""))
        return sign + body
    if value < 0:
        value += 1 << 64
    body = {"o": "%o", "x": "%x", "X": "%X"}[conv] % value
    if precision:
        body = body.zfill(int(precision))
    if "#" in flags and value:
        body = {"o": "0", "x": "0x", "X": "0X"}[conv] + body
    return body


def _pad(text, flags, width, precision):
    if precision not in (None, ""):
        text = text[:int(precision)]
    elif precision == "":
        text = ""
    if width:
        size = int(width)
        if "-" in flags:
            text = text.ljust(size)
        elif "0" in flags and text.lstrip("-+").isdigit():
            sign = text[0] if text[:1] in "-+" else ""
            text = sign + text[len(sign):].zfill(size - len(sign))
        else:
            text = text.rjust(size)
    return text


def _format_escape(fmt: str, i: int, byte_mode: bool = False):
    """One backslash escape in a printf format: (text, next index, stop)."""
    if i + 1 >= len(fmt):
        return "\\", i + 1, False
    esc = fmt[i + 1]
    if esc in "01234567":
        j = i + 1
        digits = ""
        while j < len(fmt) and len(digits) < 3 and fmt[j] in "01234567":
            digits += fmt[j]
            j += 1
        return _byte(int(digits, 8) & 0xFF, byte_mode), j, False
    if esc in "'\"?":
        return esc, i + 2, False
    if esc not in "abeEfnrtv\\xuU":
        # not an escape (\c included: it stops output only in a %b argument);
        # the backslash stays and the next character is read normally
        return "\\", i + 1, False
    end = i + 2
    while end < len(fmt) and end - i < 10 and fmt[end] in "0123456789abcdefABCDEF" and esc in "xuU":
        end += 1
    text, stop = _backslash_escapes(fmt[i:end], byte_mode=byte_mode)
    return text, end, stop


def _byte(value: int, byte_mode: bool) -> str:
    return chr(value) if byte_mode else S._byte_char(value)


def _printf_q(value: str, byte_mode: bool = False) -> str:
    if value == "":
        return "''"
    if re.fullmatch(r"[A-Za-z0-9_@%+=:,./-]+", value):
        return value
    if any(ord(c) < 0x20 or ord(c) == 0x7f or (byte_mode and ord(c) >= 0x80) for c in value):
        original = value.encode("latin-1").decode("utf-8", "surrogateescape") if byte_mode else value
        quoted = X.quote_for_reuse(original)
        return quoted.encode("utf-8", "surrogateescape").decode("latin-1") if byte_mode else quoted
    return re.sub(r"([^A-Za-z0-9_@%+=:,./-])", r"\\\1", value)
