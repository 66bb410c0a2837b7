"""Predict what a transport's inner shell receives, without running anything.

One job: build the harness's command (``transports.wrap``), evaluate its outer
layer statically (``syntax.parse_prefix`` and ``evaluate``, as ``bash -c``
reads: line by line), and report the inner script, its positional
arguments, what ran in the outer shell on the way, and the outer error.
``exact`` is claimed only when every reported part was statically known.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from dataclasses import dataclass, field
from json.decoder import JSONDecodeError
from json.decoder import scanstring as _json_string
from typing import Iterable, Mapping, Optional

from . import transports
from ..model.budget import DEFAULT as DEFAULT_BUDGET
from ..model.budget import Budget, BudgetExceeded, Meter
from ..model.files import FileView, absolute, checked_listing, is_directory, normpath
from ..model.commands.external import script_runs_nothing
from ..model.commands.registry import MODELLED
from ..model.values import Partial
from ..syntax.errors import NestedTooDeep
from ..syntax.parser import RESERVED as parser_reserved
from . import quickpath
from .outerwords import KnownShell
from .outerwords import document as outer_document
from .outerwords import words as outer_words
from .outersubst import OuterSubstitutions
from .quickpath import dq_words, shlex_words
from .transports import HarnessError

__all__ = ["Simulation", "PureSimulation", "OuterEffect", "PureOuterEffect", "simulate", "simulate_general",
           "default_environ"]


class _Model:
    """The model's entry points, imported at first use (importing qbcore stays light) and
    kept: an import statement in a function costs a module lookup at every call."""

    loaded = False

    @classmethod
    def load(cls):
        from ..model.evaluate import GOES_ON_AFTER_ERROR, evaluate
        from ..model.expand import EXECUTOR_ENVIRON, Env, unexpandable_document_error
        from ..syntax.parser import ListItem, Pipeline, SimpleCommand, parse_prefix

        cls.evaluate, cls.Env, cls.parse_prefix, cls.EXECUTOR_ENVIRON = evaluate, Env, parse_prefix, EXECUTOR_ENVIRON
        cls.GOES_ON_AFTER_ERROR = GOES_ON_AFTER_ERROR
        cls.unexpandable_document_error = unexpandable_document_error
        cls.ListItem, cls.Pipeline, cls.SimpleCommand = ListItem, Pipeline, SimpleCommand
        cls.loaded = True
        return cls


def _model():
    return _Model if _Model.loaded else _Model.load()


def default_environ(cwd: str) -> dict[str, str]:
    """The executor's environment for a run in ``cwd`` (HOME is the working directory)."""
    return dict(_model().EXECUTOR_ENVIRON, HOME=cwd)


@dataclass(frozen=True)
class PureOuterEffect:
    """Something that happened in the outer shell besides handing the script over.

    ``kind``: ``command`` (a command that leaked out of the quotes and ran
    there), ``substitution`` (a command substitution the outer shell ran
    client-side), ``file`` (a file the outer shell created or truncated).
    ``text`` is the source text, ``argv`` the expanded command (``⟨name⟩``
    for unknown parts), ``path`` the file, ``certain`` False when it runs
    only under a condition the model cannot decide, ``layer`` 1 for the
    outer shell and 2 for the middle one of double-nested.
    """

    kind: str
    text: str
    argv: tuple = ()
    path: Optional[str] = None
    certain: bool = True
    layer: int = 1

    def as_dict(self) -> dict:
        found = {"kind": self.kind, "text": self.text, "certain": self.certain, "layer": self.layer}
        if self.argv:
            found["argv"] = list(self.argv)
        if self.path is not None:
            found["path"] = self.path
        return found


@dataclass(slots=True)  # not frozen: a frozen dataclass costs a microsecond to build
class PureSimulation:
    """What the inner shell receives for one reply under one transport.

    ``inner_script`` is None when the outer layer fails before starting the
    inner shell; ``inner_args`` are its ``$0``, ``$1``, …; ``opaque`` names
    every part not statically known (``exact`` when there is none);
    ``outer_error`` is the outer shell's syntax or expansion error, a JSON
    contract error, a shlex split error or an ssh usage error.
    ``inner_starts`` counts the times the inner program (bash, or ssh for
    the ssh transports) is started, the harness's own start included.
    """

    transport: str
    reply: str
    inner_script: Optional[str]
    inner_args: list = field(default_factory=list)
    opaque: list = field(default_factory=list)
    outer_effects: list = field(default_factory=list)
    outer_error: Optional[str] = None
    inner_starts: int = 0

    @property
    def exact(self) -> bool:
        return not self.opaque

    def as_dict(self) -> dict:
        """The JSON shape of ``qbcore rewrite --format json``."""
        return {"transport": self.transport, "reply": self.reply, "inner_script": self.inner_script,
                "inner_args": list(self.inner_args), "exact": self.exact, "opaque": list(self.opaque),
                "outer_effects": [e.as_dict() for e in self.outer_effects], "outer_error": self.outer_error}


# The compiled engine brings twins of the two records that are cheaper to build,
# and the quick readings of nested and double-nested in C; both engines give the
# same fields and methods.
if quickpath.engine == "cython":
    from ._quickpath import OuterEffect, Simulation
    from ._quickpath import nested as _nested_fast, double_nested as _double_nested_fast
else:
    Simulation, OuterEffect = PureSimulation, PureOuterEffect
    _nested_fast = _double_nested_fast = None


class _Outcome:
    """Accumulates a simulation's parts while the layers are walked."""

    def __init__(self):
        self.opaque: list[str] = []
        self.noted: set = set()
        self.effects: list[OuterEffect] = []
        self.starts = 0

    def note(self, names):
        for name in names:
            if name not in self.noted:
                self.noted.add(name)
                self.opaque.append(name)


def simulate(reply: str, transport: str, *, cwd: Optional[str] = None,
             environ: Optional[Mapping[str, str]] = None,
             listing: Optional[Iterable[str]] = None, budget: Optional[Budget] = None) -> "Simulation":
    """Predict what ``transport`` makes of ``reply``.

    ``environ`` is the complete exported environment of the outer shell (as
    with ``env -i``; default: the executor's, HOME = ``cwd``), ``cwd`` its
    working directory (default: the current one's path, whose files are not
    read), ``listing`` the files under it before the harness runs (paths
    relative to ``cwd``, directories ending in ``/``). This machine's files
    are read only when ``cwd`` is given (the real directory, when there is
    no listing, and everything outside it); otherwise globs and file tests
    are unknown and named. ``budget`` bounds the work (default: ``Budget()``):
    past it the result is not exact and its ``opaque`` names the limit.
    Raises ValueError for an unknown transport or a reply with a NUL
    character, TypeError or ValueError for a bad listing or budget.
    """
    if listing is not None:
        listing = checked_listing(listing)  # the fast paths need no files, but the caller erred
    if budget is not None and not isinstance(budget, Budget):
        raise TypeError(f"budget must be a Budget, not {type(budget).__name__}")
    if type(reply) is str and len(reply) > (budget or DEFAULT_BUDGET).reply_bytes and \
            transport not in _VERBATIM:
        # a leaked reply becomes a word list many times its size: refused before any of it is made
        return _beyond(transports.get(transport).name, reply,
                       f"budget: a reply of more than {(budget or DEFAULT_BUDGET).reply_bytes} characters")
    if type(reply) is str:
        # the fast path, inlined for the most common transport: every call costs here
        if transport == "nested":
            if _nested_fast is not None:
                found = _nested_fast(reply)
                if found is not None:
                    return found
            else:
                words = dq_words(reply)
                if words is not None and words[0][:1] not in _OPTION_STARTS:
                    return Simulation("nested", reply, words[0], words[1:], [], [], None, 1)
        else:
            quick = _QUICK.get(transport)
            if quick is not None and "\0" not in reply:
                found = quick(reply)
                if found is not None:
                    return found
        if environ is None and budget is None and transport in _EXPANDING and len(reply) <= _EXPANDING_SIZE \
                and "\0" not in reply:
            expanding = _EXPANDING[transport]
            found = None
            if not cwd and "$(" not in reply and "`" not in reply:
                # first without the working directory's path, which costs a system call
                # to learn: most replies never look at it (one that names a value that
                # depends on it, or reads arithmetic, is read with the path at once)
                shells, names = _shells_without_cwd()
                if shells[0] is not None:
                    for name in names:
                        if name in reply:
                            break
                    else:
                        found = expanding(reply, None, listing, shells)
            if found is None:
                found = expanding(reply, cwd, listing, _known_shells(cwd))
            if found is not None:
                return found
    return simulate_general(reply, transport, cwd=cwd, environ=environ, listing=listing, budget=budget)


def simulate_general(reply: str, transport: str, *, cwd: Optional[str] = None,
                     environ: Optional[Mapping[str, str]] = None,
                     listing: Optional[Iterable[str]] = None, budget: Optional[Budget] = None) -> "Simulation":
    """``simulate`` without the fast path: always the parser and the evaluator."""
    if not isinstance(reply, str):
        raise TypeError(f"reply must be str, not {type(reply).__name__}")
    if budget is not None and not isinstance(budget, Budget):
        raise TypeError(f"budget must be a Budget, not {type(budget).__name__}")
    spec = transports.get(transport)
    host = bool(cwd)
    # (the current directory, a system call away, only once a shell may read it)
    cwd = os.path.abspath(cwd) if cwd else None
    if environ is not None:
        environ = dict(environ)
    if listing is not None:
        cwd = cwd or os.getcwd()
        files = FileView(cwd, listing, host=host)  # before anything runs: a bad listing is the caller's error
    try:
        invocation = transports.wrap(reply, spec.name)
    except HarnessError as exc:
        return Simulation(spec.name, reply, None, outer_error=str(exc))
    outcome = _Outcome()
    if spec.outer in ("none", "json", "shlex"):
        # no shell reads the reply on this side: no environment, no files to build
        script, args, error, trouble = _direct(invocation, spec)
        if trouble:
            outcome.note([_OPTIONS_NOTE])
        runs = spec.name != "ssh-argv" or transports.ssh_call(invocation.argv[1:]).command is not None
        outcome.starts = 0 if error or not runs else 1
    else:
        meter = Meter(budget)
        if len(reply) > meter.budget.reply_bytes:
            return _beyond(spec.name, reply, f"budget: a reply of more than {meter.budget.reply_bytes} characters")
        try:
            script_tree = _model().parse_prefix(invocation.argv[2])
        except (RecursionError, NestedTooDeep):
            return _beyond(spec.name, reply, "the reply nests deeper than the model follows")
        _note_unsure_syntax_error(script_tree, outcome)
        if script_tree.error is not None and not script_tree.chunks:
            # bash refuses the harness's first line: nothing runs, no inner shell starts,
            # and neither the environment nor the files are needed
            return Simulation(spec.name, reply, None, [], outcome.opaque, [],
                              _syntax_error_message(script_tree.error), 0)
        cwd = cwd or os.getcwd()
        if environ is None:
            environ = default_environ(cwd)
        if listing is None:
            files = FileView(cwd, None, host=host)
        try:
            script, args, error = _through_bash(script_tree, invocation, spec, cwd, environ, outcome, files, meter)
        except BudgetExceeded as exc:
            return _beyond(spec.name, reply, exc.reason)
        except (RecursionError, NestedTooDeep):
            return _beyond(spec.name, reply, "the reply nests deeper than the model follows")
        if meter.exceeded is not None:  # caught on the way, yet the result depends on it
            return _beyond(spec.name, reply, meter.exceeded)
    return Simulation(spec.name, reply, script, args, outcome.opaque, outcome.effects, error, outcome.starts)


def _beyond(transport, reply, reason):
    """The result of an evaluation that went past its budget: unknown, the limit named."""
    return Simulation(transport, reply, None, [], [reason], [], None, 0)


_OPTION_STARTS = ("-", "+")
# transports whose harness hands the reply over as it is (or decodes it once): no size limit
_VERBATIM = frozenset({"raw", "json", "json-naive", "script", "stdin"})


def _quick_single(reply):
    if "'" in reply or reply[:1] in ("-", "+"):
        return None
    return Simulation("single", reply, reply, [], [], [], None, 1)


def _quick_argv(name):
    """raw and json: the reply is the script word of ``bash -c`` as it is (ASCII: no
    lone surrogate for the harness to refuse)."""
    def quick(reply):
        if reply[:1] in _OPTION_STARTS or not reply.isascii():
            return None
        return Simulation(name, reply, reply, [], [], [], None, 1)
    return quick


def _quick_file(name, suffix):
    """script and stdin: the reply's bytes are read back as they were written
    (ASCII: no encoding question to decide)."""
    def quick(reply):
        if not reply.isascii():
            return None
        return Simulation(name, reply, reply + suffix, [], [], [], None, 1)
    return quick


def _quick_ssh_argv(reply):
    """ssh-argv: ``shlex.split`` in one pass (None where it would raise: the general
    path then reports the harness's error)."""
    if not reply.isascii() and not _encodable(reply):
        return None
    words = shlex_words(reply)
    if words is None:
        return None
    if words and words[0][:1] not in ("", "-", "+"):
        # no option for ssh, none for bash -c: ssh runs the words joined with spaces
        return Simulation("ssh-argv", reply, " ".join(words), [], [], [], None, 1)
    call = transports.ssh_call([transports.HOST, *words])
    script, args, error, trouble = _remote(call, None)
    if trouble:
        return None
    starts = 0 if error or call.command is None else 1
    return Simulation("ssh-argv", reply, script, args, [], [], error, starts)


def _quick_json_naive(reply):
    """json-naive: the reply read as the inside of one JSON string that ends exactly
    where the harness's closing quote stands, or the strict parser's first error when
    it meets one in or just after that string (any other shape: the general path)."""
    text = _JSON_START + reply + _JSON_END
    try:
        value, end = _json_string(text, len(_JSON_START))
    except JSONDecodeError as exc:  # met inside the string, where json.loads meets it first too
        return _json_refused(reply, exc.msg, exc.pos)
    if end != len(text) - len(_JSON_END) + 1:
        # a quote of the reply closed the string: a strict parser wants `,` or `}` next
        while text[end] in " \t\n\r":
            end += 1
        return None if text[end] in ",}" else _json_refused(reply, "Expecting ',' delimiter", end)
    if value[:1] in _OPTION_STARTS or "\0" in value or not value.isascii() and not _encodable(value):
        return None
    return Simulation("json-naive", reply, value, [], [], [], None, 1)


def _json_refused(reply, message, offset):
    return Simulation("json-naive", reply, None, [], [], [], str(transports.invalid_json(message, offset)), 0)


_JSON_START, _JSON_END = transports.JSON_NAIVE_START, transports.JSON_NAIVE_END


def _encodable(text):
    """Whether ``text`` holds no lone surrogate, which stands for no byte of an argv."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _quick_ssh(reply):
    words = dq_words(reply)
    if words is None:
        return None
    if words[0][:1] not in ("", "-", "+"):
        return Simulation("ssh", reply, " ".join(words), [], [], [], None, 1)  # as _quick_ssh_argv
    call = transports.ssh_call([transports.HOST, *words])
    script, args, error, trouble = _remote(call, None)
    if trouble:
        return None
    starts = 0 if error or call.command is None else 1
    return Simulation("ssh", reply, script, args, [], [], error, starts)


def _quick_double_nested(reply):
    """double-nested when neither the outer nor the middle shell meets an expansion or an
    operator: quote removal twice (the middle shell reads ``bash -c "…"`` from the one
    word the outer shell hands it). A reply with a `$` or a backquote nearly always
    meets an expansion: it goes to the expanding reading at once."""
    if "$" in reply or "`" in reply:
        return None
    words = dq_words('bash -c \\"' + reply + '\\"')
    if words is None or len(words) != 1:
        return None
    script = words[0]  # `bash -c "…`: what follows `bash -c ` are the middle shell's words
    if len(script) < 10 or script[8] != '"' or script[-1] != '"':
        return None
    words = dq_words(script[9:-1])
    if words is None or words[0][:1] in _OPTION_STARTS:
        return None
    return Simulation("double-nested", reply, words[0], words[1:], [], [], None, 1)


# Replies that meet no expansion and no operator on their way through the
# outer layer skip the parser: quote removal alone gives the outer words
# (the differential test holds these to the general path).
_QUICK = {"single": _quick_single, "ssh": _quick_ssh, "ssh-argv": _quick_ssh_argv,  # nested: inlined above
          "double-nested": _double_nested_fast or _quick_double_nested,
          "json-naive": _quick_json_naive,
          "raw": _quick_argv("raw"), "json": _quick_argv("json"),
          "script": _quick_file("script", ""), "stdin": _quick_file("stdin", "\n")}

# Replies whose outer layer is one simple command of quoted words and known
# parameters skip the parser too: outerwords reads them in the outer shell's
# starting environment (the default one: no environ or budget given; short
# replies, whose expansions stay far inside any budget).
_EXPANDING_SIZE = 4096
_SHELLS: dict = {}  # working directory -> (outer shell, middle shell of double-nested)


def _known_shells(cwd):
    """The outer shell of a transport started in ``cwd`` with the executor's environment,
    and the middle shell double-nested's outer one starts (``_through_bash``, ``_middle_layer``)."""
    # (an absolute path names the same directory from anywhere: looked up as it is)
    key = cwd if cwd and cwd[0] == "/" else os.path.abspath(cwd) if cwd else os.getcwd()
    shells = _SHELLS.get(key)
    if shells is None:
        Env = _model().Env
        cwd = os.path.abspath(key)
        files = FileView(cwd, (), host=False)  # no file is looked at: the values depend on none
        env = Env.from_environ(default_environ(cwd), cwd, invoked_as="bash", files=files)
        exported = {name: var.value for name, var in env.vars.items()
                    if var.exported and isinstance(var.value, str)}
        # a lone simple command: bash -c execs it, so the middle shell counts the same level
        exported["SHLVL"] = str(int(exported.get("SHLVL", "1")) - 1)
        exported["_"] = _real_bash_path()
        middle = Env.from_environ(exported, cwd, invoked_as="bash", arg0="bash", positional=[], files=files)
        outer, inner = KnownShell.of(env), KnownShell.of(middle)
        shells = (outer, inner) if _plain_ifs(outer) and _plain_ifs(inner) else (None, None)
        if len(_SHELLS) >= 64:
            _SHELLS.clear()
        _SHELLS[key] = shells
    return shells


_WITHOUT_CWD: list = []  # once built: the pair of shells _shells_without_cwd gives


def _shells_without_cwd():
    """The two shells of ``_known_shells`` for a working directory whose path is not
    known, and the names of the values that depend on the path (HOME, PWD: those that
    differ between two unrelated paths), plus ``$((``. In the shells those values are
    unknown and arithmetic is left to the reading with the path, so a reply read with
    them never needs the path; one that does is read again with it."""
    if not _WITHOUT_CWD:
        pairs = zip(_known_shells("/nonexistent/qbcore-a"), _known_shells("/b"))
        shells = []
        names = {"$(("}
        for one, other in pairs:
            if one is None or other is None:
                shells = [None, None]
                break
            values = {name: value if other.values.get(name, _ABSENT) == value else None
                      for name, value in one.values.items()}
            values.update((name, None) for name in other.values if name not in one.values)
            names.update(name for name, value in values.items()
                         if value is None and one.values.get(name) is not None)
            named = {name: value for name, value in one.named.items() if other.named.get(name) == value}
            shells.append(KnownShell(values, one.arg0, one.positional, None, named))
        _WITHOUT_CWD.append((tuple(shells), tuple(sorted(names))))
    return _WITHOUT_CWD[0]


_ABSENT = object()


def _plain_ifs(shell):
    return shell is not None and shell.values.get("IFS") == " \t\n"


def _bash_c_words(reply, words, transport, opaque):
    """The Simulation of an outer ``bash -c WORDS`` that starts the inner shell, or None."""
    if not words or words[0][:1] in _OPTION_STARTS:
        return None
    return Simulation(transport, reply, words[0], words[1:], opaque, [], None, 1)


def _glob_notes(globbed, cwd, listing):
    """The names of the globs (``globbed``: the words that held a pattern) that the
    model leaves as they are because no file can be looked at (no working directory,
    or one missing here; no listing), as the expansion names them; None when the
    files are known, or a pattern may reach files outside the working directory (an
    absolute one, or one that climbs out with ``..``): the general path's."""
    if not globbed:
        return []
    if listing is not None or cwd and is_directory(absolute(cwd)):
        return None
    notes = []
    for word in globbed:
        if "/" in word and (word[0] == "/" or ".." in word.split("/")):
            return None
        note = f"glob {word}" if cwd else f"glob {word} (this machine's files are not read)"
        if note not in notes:
            notes.append(note)
    return notes


def _refused(reply, transport, text, refused):
    """The Simulation of an outer shell whose one-line script bash refuses with the
    syntax error ``refused`` holds, or None (no error, the script holds another line,
    or a `$[` before which bash's parse may differ)."""
    if not refused or "\n" in text or "$[" in text:
        return None
    return Simulation(transport, reply, None, [], [], [], f"bash: -c: line 1: {refused[0]}'", 0)


def _expanding_nested(reply, cwd, listing, shells):
    return _expanding_bash_c(reply, '"' + reply + '"', cwd, listing, "nested", shells)


def _expanding_single(reply, cwd, listing, shells):
    return _expanding_bash_c(reply, "'" + reply + "'", cwd, listing, "single", shells)


def _substitutions(text, cwd, listing, shell):
    """What runs the outer shell's command substitutions in ``text`` on the fast path and
    marks the values ``shell`` holds no text for (``$HOSTNAME``), or None (there are
    none, or a listing stands for the files)."""
    if listing is not None or "$" not in text and "`" not in text or "$(" not in text and "`" not in text and \
            not shell.mentions_named(text):
        return None
    return OuterSubstitutions(absolute(cwd) if cwd else os.getcwd(), bool(cwd), _NOTED, default_environ)


def _outer_reading(reply, transport, text, shell, cwd, listing, substitutions=None, commands=None,
                   redirects=None):
    """``(words, notes)`` of the outer shell ``shell`` reading ``text`` (the notes: the
    unknown outputs of ``substitutions``, or the globs); else the Simulation of the
    syntax error bash refuses the line with, or None when the general path must decide.
    With ``commands`` and ``redirects`` lists, the text may go on with later commands
    (see ``_later``) or redirect the command's output (see ``_redirected``)."""
    globbed = []
    refused = []
    words = outer_words(text, shell, globbed, refused, substitutions, commands, redirects)
    if words is None:
        return _refused(reply, transport, text, refused)
    notes = _glob_notes(globbed, cwd, listing)
    if notes is None:
        return None
    if substitutions is not None and substitutions.names:
        if notes:
            return None  # (the general path notes both in the order of the words)
        notes = substitutions.names
    return words, notes


def _later(commands, typed, text, words, shell):
    """``(effects, notes)`` of the commands a leak adds after the harness command, the
    outer shell's list ``harness OP command OP command…`` (``commands``: what the words
    reader gave of ``text``; ``words`` the harness's arguments after ``typed``, its text
    before the reply's), or None when the general path must decide.

    Each later command here is one the model does not run (never a builtin, a
    launcher, a keyword or an assignment) with literal words, or with none (the
    words expanded to nothing): it runs, its status unknown, so everything after
    an ``&&`` or ``||`` in the same list may not run (the harness's own status is
    the inner shell's, unknown as well). A harness command run in the background
    may start its shell after the outer one has exited. Once the harness (or the
    pipeline it starts) has run a shell that may change any file, a later pattern
    is left as it stands and named after that change."""
    effects = []
    notes = []
    unsure = False
    lost = None  # what made the files unknown if the harness may change them, once it has run
    piped = -1  # where the pipeline the harness starts ends so far, while it goes on
    for index, (operator, argv, source, end, globs) in enumerate(commands):
        if argv is None:  # the harness command
            if operator == "&":
                notes.append(f"whether the background job `{typed}{source}` starts before the shell exits")
                lost = f"the files after `{typed}{source}`"
            else:
                piped = end
            continue
        if piped >= 0:
            if operator == "|":
                piped = end
            else:
                whole = f"{typed}{text[:piped]}"
                lost = f"the files after `{whole}`" if piped == commands[0][3] else \
                    f"the files after the pipeline `{whole}`"
                piped = -1
        if not argv:
            # a command with no name succeeds: what an `&&` or `||` after it runs is known
            if index + 1 < len(commands) and commands[index + 1][0] in ("&&", "||"):
                return None
        else:
            name = argv[0]
            if name in _NOT_LATER or name in MODELLED or "=" in name:
                return None
        if operator == ";":
            unsure = False
        elif operator != "|":
            unsure = True
        if globs:
            if lost is None or not _harness_changes_files(typed, words, shell):
                return None  # a pattern matched against files the model may know
            for word in globs:
                note = f"glob {word} ({lost})"
                if note not in notes:
                    notes.append(note)
        effects.append(OuterEffect("command", source, tuple(argv), certain=not unsure, layer=1))
        if unsure:
            note = f"whether `{source}` runs"
            if note not in notes:
                notes.append(note)
    return effects, notes


def _harness_changes_files(typed, words, shell) -> bool:
    """Whether the harness command (``typed`` and its arguments ``words``) may change
    any file, as the general path's model of a command it does not run decides: a
    ``bash -c`` whose script runs nothing changes none."""
    if typed != "bash -c " or "BASH_ENV" in shell.values:
        return True
    return not (words and type(words[0]) is str and script_runs_nothing(words[0]))


def _outer_effects(substitutions) -> list:
    """The outer effects of the fast path: the command substitutions it ran."""
    if substitutions is None:
        return []
    return [OuterEffect("substitution", text, certain=True, layer=1) for text in substitutions.effects]


def _outer_list(reply, transport, text, shell, cwd, listing, typed):
    """``(words, notes, effects, lone)`` of the outer shell ``shell`` reading ``text``,
    the harness command (``typed`` and ``text``) with the redirections or the later
    commands a leak may add (see ``_redirected`` and ``_later``; ``lone`` when there are
    none); else what ``_outer_reading`` gives instead."""
    substitutions = _substitutions(text, cwd, listing, shell)
    commands = []
    redirects = []
    found = _outer_reading(reply, transport, text, shell, cwd, listing, substitutions, commands, redirects)
    if type(found) is not tuple:
        return found
    if commands or redirects:
        if substitutions is not None and (substitutions.effects or substitutions.names) or found[1]:
            return None  # (the general path interleaves those with the commands or the files)
        later = _later(commands, typed, text, found[0], shell) if commands else \
            _redirected(typed + text, redirects, cwd, listing)
        return None if later is None else (found[0], later[1], later[0], False)
    return found[0], found[1], _outer_effects(substitutions), True


def _redirected(harness, redirects, cwd, listing):
    """``(effects, notes)`` of the harness command (its text ``harness``) redirecting its
    input or output (``redirects``: what the words reader gave) before it starts the
    inner shell, as the general path's walker performs them on the same view of the
    files (``FileQuestions.open_target``); or None (a redirection that fails, or a
    comment that ends the command early)."""
    if "#" in harness:
        return None
    root = absolute(cwd) if cwd else os.getcwd()
    view = FileView(root, listing, host=bool(cwd))
    paths = []
    notes = []
    for operator, target, source in redirects:
        writes = operator != "<"
        # (os.path.join and normpath, without their interpreted work: the root is normal)
        path = target if target[0] == "/" else normpath((root if root == "/" else root + "/") + target)
        failure, doubt = view.open_target(path, target, writes, source)
        if failure:
            return None  # the command fails: no inner shell starts
        if doubt is not None and doubt not in notes:
            notes.append(doubt)
        if writes and not target.startswith("/dev/"):
            if doubt is None:
                view.create(path)
            paths.append(path)
    # where a redirection may fail the command runs on a copy: what it does is not certain
    return [OuterEffect("file", harness, path=path, certain=not notes, layer=1) for path in paths], notes


def _expanding_bash_c(reply, text, cwd, listing, transport, shells):
    outer = shells[0]
    if outer is None:
        return None
    found = _outer_list(reply, transport, text, outer, cwd, listing, "bash -c ")
    if type(found) is not tuple:
        return found
    words, notes, effects, _ = found
    simulation = _bash_c_words(reply, words, transport, notes)
    if simulation is not None:
        simulation.outer_effects = effects
    return simulation


def _expanding_ssh(reply, cwd, listing, shells):
    outer = shells[0]
    if outer is None:
        return None
    found = _outer_list(reply, "ssh", '"' + reply + '"', outer, cwd, listing, _SSH_TYPED)
    if type(found) is not tuple:
        return found
    words, notes, effects, _ = found
    if words and words[0][:1] not in ("", "-", "+"):
        # no option for ssh, none for bash -c: ssh runs the words joined with spaces
        return Simulation("ssh", reply, " ".join(words), [], notes, effects, None, 1)
    if effects or notes:
        return None  # ssh's options, then substitutions, unknowns, globs or later commands: the general path
    call = transports.ssh_call([transports.HOST, *words])
    script, args, error, trouble = _remote(call, None)
    if trouble:
        return None
    return Simulation("ssh", reply, script, args, notes, [], error, 0 if error or call.command is None else 1)


_MIDDLE_START = "bash -c "
_SSH_TYPED = f"ssh {transports.HOST} "  # the ssh harness's command before the reply's text


def _expanding_double_nested(reply, cwd, listing, shells):
    outer, middle = shells
    if outer is None:
        return None
    text = '"bash -c \\"' + reply + '\\""'
    read = _outer_list(reply, "double-nested", text, outer, cwd, listing, "bash -c ")
    if type(read) is not tuple:
        return read
    found, notes, effects, lone = read
    if not found or not found[0].startswith(_MIDDLE_START):
        return None
    script = found[0]
    for word in found[1:]:
        if type(word) is Partial:
            return None  # an unknown $0 or $1 of the middle shell: the general path's
    if type(script) is Partial:
        # the middle shell parses an unknown output as its source: not followed
        return Simulation("double-nested", reply, None, [], notes + [_MIDDLE_SCRIPT], effects, None, 0)
    # the outer words after the script are the middle shell's $0, $1, …
    arg0 = found[1] if len(found) > 1 else "bash"
    if not lone:
        # bash -c execs only a lone simple command: beside others, or redirected, it
        # starts the middle shell one level deeper (its arithmetic: the general path's)
        values = middle.values
        level = values.get("SHLVL")
        if level is not None:
            values = dict(values)
            values["SHLVL"] = str(int(level) + 1)
        middle = KnownShell(values, arg0, found[2:], None, middle.named)
    elif len(found) > 1:
        middle = KnownShell(middle.values, arg0, found[2:], middle.variables, middle.named)
    middle_globbed = []
    refused = []
    words = outer_words(script[len(_MIDDLE_START):], middle, middle_globbed, refused)
    if words is None:
        error = _refused(reply, "double-nested", script, refused)
        if error is None:
            return None
        # bash names the shell by $0, and drops the name when $0 is the input's own name
        rest = error.outer_error[len("bash: "):]
        error.outer_error = rest if arg0 == "-c" else f"{arg0}: {rest}"
        error.opaque = notes
        error.outer_effects = effects
        return error
    if middle_globbed:
        if not lone:
            return None  # (the harness's redirections may have made files the pattern matches)
        more = _glob_notes(middle_globbed, cwd, listing)
        if more is None:
            return None
        notes += [note for note in more if note not in notes]
    simulation = _bash_c_words(reply, words, "double-nested", notes)
    if simulation is not None:
        simulation.outer_effects = effects
    return simulation


def _expanding_heredoc_ssh(reply, cwd, listing, shells):
    outer = shells[0]
    if outer is None or "\n" in reply or reply == transports.HEREDOC_DELIMITER or reply.endswith("\\"):
        return None  # (a body line that is the delimiter, or joins it, ends the document elsewhere)
    body = reply + "\n"
    substitutions = _substitutions(body, cwd, listing, outer)
    unexpandable = []
    body = outer_document(body, outer, substitutions, unexpandable)
    if body is None:
        if not unexpandable:
            return None
        # the outer shell fails the ssh command with the body's error, after the
        # substitutions before the break have run
        broken = reply[unexpandable[0]:]
        error = f"bash: line 1: {_model().unexpandable_document_error(broken)}"
        return Simulation("heredoc-ssh", reply, None, [], [], _outer_effects(substitutions), error, 0)
    notes = []
    if substitutions is not None and substitutions.names:
        # an unknown output leaves the document, and so the redirection, not exact
        notes = [_HEREDOC_REDIRECTION, *substitutions.names, _HEREDOC_BODY]
    return Simulation("heredoc-ssh", reply, body, [], notes, _outer_effects(substitutions), None, 1)


_HEREDOC_REDIRECTION = f"redirection in `{transports.HEREDOC_COMMAND}`"
_HEREDOC_BODY = f"heredoc body of `{transports.HEREDOC_COMMAND}`"


_EXPANDING = {"nested": _expanding_nested, "single": _expanding_single, "ssh": _expanding_ssh,
              "double-nested": _expanding_double_nested, "heredoc-ssh": _expanding_heredoc_ssh}

_OPTIONS_NOTE = "bash reads the script word as options (it starts with - or +)"
# commands that can start another program named by their arguments
_LAUNCHERS = frozenset("exec command env nohup xargs time nice timeout setsid sh dash eval builtin".split())
# commands that, run by a command substitution, start a shell client-side: noted, not followed
_NOTED = _LAUNCHERS | {"bash", "ssh"}
# what a later command's name must not be for _later to decide it (nor one the model
# runs, MODELLED): a word bash reads as syntax, a command that starts a shell or another
# program (the general path notes those), or a builtin that may change the shell's state
_NOT_LATER = _NOTED | parser_reserved | frozenset(
    "source . read mapfile readarray getopts pushd popd enable trap alias unalias hash wait".split())


def _direct(invocation, spec):
    """The transports whose harness hands the text over without a shell."""
    argv = invocation.argv
    if spec.name == "ssh-argv":
        script, args, error, trouble = _remote(transports.ssh_call(argv[1:]), None)
        return script, args, error, trouble
    if spec.inner == "stdin":
        return invocation.stdin.decode("utf-8", "surrogateescape"), [], None, False
    if spec.inner == "file":
        (content,) = invocation.files.values()
        return content.decode("utf-8", "surrogateescape"), [], None, False
    start = transports.bash_c_script(argv[1:])
    return (start[0], start[1], None, False) if start else (None, [], None, True)


def _remote(call, stdin_body):
    """(script, args, error, options_trouble) for one ssh call: the remote shell runs
    ``bash -c JOINED``, or reads stdin when the command is empty."""
    if call.error:
        return None, [], f"ssh: {call.error}", False
    if call.command is None:
        return None, [], None, False  # -N or -V: nothing runs remotely
    if call.command == "" or (call.command == "bash" and stdin_body is not None):
        # a shell that reads its script from stdin (-n: from /dev/null)
        return ("" if stdin_body is None or call.null_stdin else stdin_body), [], None, False
    start = transports.bash_c_script(["-c", call.command])
    if start is None:
        return None, [], None, True
    return start[0], start[1], None, False


@functools.lru_cache(maxsize=1)
def _real_bash_path() -> str:
    # looked up once: a PATH search costs several stats on every double-nested reply
    return shutil.which("bash", path="/usr/local/bin:/usr/bin:/bin") or "/usr/bin/bash"


def _through_bash(script_tree, invocation, spec, cwd, environ, outcome, files, meter):
    """The outer shell runs the harness line (``script_tree``, parsed; bash runs its first line)."""
    model = _model()
    evaluate, Env = model.evaluate, model.Env

    env = Env.from_environ(environ, cwd, invoked_as="bash", files=files, meter=meter)
    start_files = files.fork()  # what the middle shell of double-nested starts with, refined below
    start_env = {name: var.value for name, var in env.vars.items()
                 if var.exported and isinstance(var.value, str)}
    evaluation = evaluate(script_tree, env)
    _note_goes_on(evaluation, outcome)
    program = "ssh" if spec.remote else "bash"
    harness, error = _harness_command(evaluation, program)
    _collect_effects(evaluation, harness or _failed_first(evaluation, program), outcome, layer=1, cwd=cwd,
                     tree=script_tree, started=harness is not None)
    if harness is None:
        return None, [], error
    outcome.note(harness.opaque)
    if spec.remote:
        body = None
        if spec.inner == "stdin":
            heredocs = [r for r in harness.redirects if r.op in ("<<", "<<-")]
            if heredocs:
                body = heredocs[-1].body
                if not heredocs[-1].exact:
                    outcome.note([f"heredoc body of `{harness.text}`"])
        script, args, remote_error, trouble = _remote(transports.ssh_call(harness.argv[1:]), body)
        if trouble:
            outcome.note([_OPTIONS_NOTE])
        return script, args, error or remote_error
    start = transports.bash_c_script(harness.argv[1:])
    if start is None:
        if not _without_script(harness.argv):
            outcome.note([_OPTIONS_NOTE])
        return None, [], error
    script, args = start
    if spec.outer == "bash-twice":
        lone = _lone_simple_command(script_tree)
        return _middle_layer(script, args, start_env, lone, cwd, outcome, error,
                             _files_at_start(harness, start_files), meter)
    return script, args, error


def _note_unsure_syntax_error(tree, outcome):
    """bash matches `$[…]` by its brackets and parses what it holds only when it expands
    it (`$[${]` is a bad substitution, not a syntax error); the lexer reads the `${` at
    once, so an error it finds after a `$[` may be no error to bash."""
    error = tree.error
    if error is not None and b"$[" in tree.source.encode("utf-8", "surrogateescape")[:error.offset]:
        outcome.note(["a syntax error after `$[` (bash parses `$[…]` when it expands it)"])


def _note_goes_on(evaluation, outcome):
    """A shell that goes on reading after a syntax error in a compound assignment may run
    anything after it (a second harness command, another bash): not followed."""
    goes_on = _model().GOES_ON_AFTER_ERROR
    if evaluation.syntax_error is not None and goes_on in evaluation.opaque:
        outcome.note([goes_on])


def _syntax_error_message(error) -> str:
    """bash's report of a syntax error in the script of ``bash -c``."""
    return f"bash: -c: line {error.line}: {error.message}"


def _harness_command(evaluation, program):
    """The command the harness typed (the first one run), and the shell's error, if any."""
    error = None
    if evaluation.syntax_error is not None:
        error = _syntax_error_message(evaluation.syntax_error)
    first = evaluation.commands[0] if evaluation.commands else None
    if first is None or not first.argv or first.argv[0] != program:
        return None, error
    if first.error:
        return None, error or f"bash: line {first.line}: {first.error}"
    return first, error


def _starts(record) -> int:
    """How many inner programs a leaked or harness command starts (0 or 1)."""
    if not record.argv:
        return 0
    if record.argv[0] == "bash":
        return 1
    if record.argv[0] == "ssh":
        # ssh starts the remote shell only when it has something to run
        call = transports.ssh_call(record.argv[1:])
        return 0 if call.error or call.command is None else 1
    return 0


def _failed_first(evaluation, program):
    """The harness's own command when it failed before starting anything (it is no leak)."""
    first = evaluation.commands[0] if evaluation.commands else None
    return first if first is not None and first.argv[:1] == (program,) else None


# an `&` that may end a background job: not one of `&&`, `|&` or the redirections `&>`, `>&`, `<&`
# (but after an escaped `&`, `<`, `>` or `|`, which is a word's: `\&&` is `\&` then `&`)
_LONE_AMPERSAND = re.compile(r"(?:(?<![&<>|])|(?<=\\[&<>|]))&(?![&>])")


def _collect_effects(evaluation, harness, outcome, *, layer, cwd, tree, started=True):
    # the spans matter only for commands that start a shell, and the walks are skipped
    # when the source holds no lone `&` (no background job) or no `|` (no pipeline of
    # two): most replies have neither
    starters = [record for record in evaluation.commands if _starts(record)]
    starting = {id(record) for record in starters}
    # the harness's own command in the background too: whether it runs, or says why it
    # cannot (ssh's usage), before the shell exits is the same race
    racing = starting | {id(harness)} if harness is not None else starting
    background = _background_spans(tree.chunks) if racing and _LONE_AMPERSAND.search(tree.source) else ()
    if harness is not None and started and "|" in tree.source and id(harness) in starting:
        # the commands of a pipeline start together: which shell the recorder (or the
        # remote side) sees first is a race when another one in it starts a shell too
        others = [record for record in starters if record is not harness and not record.error]
        shared = [(start, end) for start, end in _pipeline_spans(tree.chunks)
                  if start <= harness.start < end] if others else ()
        if any(start <= record.start < end for record in others for start, end in shared):
            outcome.note([f"which shell the pipeline with `{harness.text}` starts first"])
    for record in evaluation.commands:
        if background and id(record) in racing and any(start <= record.start < end for start, end in background):
            # the shell may exit, and the sandbox end it, before the job starts anything
            outcome.note([f"whether the background job `{record.text}` starts before the shell exits"])
        for sub in record.substitutions:
            outcome.effects.append(OuterEffect("substitution", f"$({sub.text})", certain=record.certain,
                                               layer=layer))
            for inner in sub.commands:
                if inner.argv and inner.argv[0] in _NOTED:
                    # a shell started client-side: its effects are not modelled here
                    outcome.note([f"`{inner.text}` run by `$({sub.text})`"])
        for redirect in record.redirects:
            if (redirect.creates or redirect.truncates) and redirect.path:
                outcome.effects.append(OuterEffect("file", record.text, path=redirect.path,
                                                   certain=record.certain, layer=layer))
            if not redirect.exact:
                outcome.note([f"redirection in `{record.text}`"])
        if record is harness:
            outcome.starts += _starts(record) if started else 0
            continue
        outcome.effects.append(OuterEffect("command", record.text, tuple(record.argv), certain=record.certain,
                                           layer=layer))
        outcome.note(record.opaque)
        if not record.certain:
            outcome.note([f"whether `{record.text}` runs"])
        if record.argv and record.argv[0] in ("bash", "ssh"):
            # a command that failed on the way (a redirection, an expansion) starts nothing
            if not record.error:
                outcome.starts += _starts(record)
        elif record.argv and record.argv[0] in _LAUNCHERS and not record.modelled:
            outcome.note([f"what `{record.text}` starts"])


def _files_at_start(harness, files):
    """The files when the harness command starts: the starting tree, plus what its
    redirections and command substitutions made (the outer shell's later commands
    run while the started shell runs)."""
    records = [harness]
    while records:
        record = records.pop()
        for redirect in record.redirects:
            if redirect.creates and redirect.path and redirect.exact:
                files.create(redirect.path)
            elif redirect.creates:
                files.lose(f"the files after `{record.text}`")
        for sub in record.substitutions:
            for inner in sub.commands:
                if not inner.modelled:
                    files.lose(f"the files after `{inner.text}`")
                records.append(inner)
    return files


def _middle_layer(script, args, start_env, lone, cwd, outcome, error, files, meter):
    """double-nested: the middle bash runs ``script``; the innermost is the first bash it starts."""
    model = _model()
    evaluate, Env, parse_prefix = model.evaluate, model.Env, model.parse_prefix

    outcome.starts -= 1  # the middle shell is no inner start: only the one it starts is
    if type(script) is Partial and script.spans:
        # an unknown output of the outer shell is part of the middle shell's source:
        # what that shell parses, runs and starts is not known
        outcome.note([_MIDDLE_SCRIPT])
        return None, [], error
    arg0 = args[0] if args else "bash"
    middle_tree = parse_prefix(script)
    _note_unsure_syntax_error(middle_tree, outcome)
    if middle_tree.error is not None and not middle_tree.chunks:
        # the middle shell refuses its first line: nothing runs there
        return None, [], error or _middle_named(_syntax_error_message(middle_tree.error), arg0)
    exported = dict(start_env)
    # bash -c execs a lone simple command after lowering SHLVL, so the middle
    # shell then counts the outer one's level again; otherwise one more
    level = int(exported.get("SHLVL", "1"))
    exported["SHLVL"] = str(level - 1 if lone else level)
    exported["_"] = _real_bash_path()  # bash exports the path it found on PATH
    env = Env.from_environ(exported, cwd, invoked_as="bash", arg0=arg0, positional=args[1:], files=files,
                           meter=meter)
    middle = evaluate(middle_tree, env)
    _note_goes_on(middle, outcome)
    inner, middle_error = _harness_command(middle, "bash")
    skip = inner or _failed_first(middle, "bash")
    if middle_error and middle_error.startswith("bash: -c:"):
        middle_error = _middle_named(middle_error, arg0)
    _collect_effects(middle, skip, outcome, layer=2, cwd=cwd, tree=middle_tree, started=inner is not None)
    if inner is None:
        return None, [], error or middle_error
    outcome.note(inner.opaque)
    start = transports.bash_c_script(inner.argv[1:])
    if start is None:
        if not _without_script(inner.argv):
            outcome.note([_OPTIONS_NOTE])
        return None, [], error or middle_error
    return start[0], start[1], error or middle_error


_MIDDLE_SCRIPT = "the middle shell's script"


def _middle_named(message, arg0):
    """The middle shell's report of a syntax error in its ``-c`` script: bash names the
    shell by $0, and drops the name when $0 is the input's own name."""
    rest = message[len("bash: "):]
    return rest if arg0 == "-c" else f"{arg0}: {rest}"


def _background_spans(node) -> list:
    """Byte spans of every list item run with ``&`` anywhere in ``node``."""
    ListItem = _model().ListItem

    _bind_leaves()

    return _spans(node, lambda n: isinstance(n, ListItem) and n.background)


def _pipeline_spans(node) -> list:
    """Byte spans of every pipeline of two or more commands anywhere in ``node``."""
    Pipeline = _model().Pipeline

    _bind_leaves()

    return _spans(node, lambda n: isinstance(n, Pipeline) and len(n.commands) > 1)


def _spans(node, wanted, found=None) -> list:
    found = [] if found is None else found
    if wanted(node):
        found.append((node.start, node.end))
    if isinstance(node, (list, tuple)):
        for child in node:
            if type(child) not in _LEAVES:  # (a leaf is never wanted)
                _spans(child, wanted, found)
    elif type(node) not in _LEAVES:
        for name in _fields_of(type(node)):
            child = getattr(node, name, None)
            if isinstance(child, (list, tuple)) or hasattr(child, "__dataclass_fields__"):
                _spans(child, wanted, found)
    return found


def _leaves():
    """Node types that hold no list item or pipeline of the same source (a command
    substitution's body is a Script of its own, which the walk does not enter), and are
    neither: a simple command holds only words, assignments and redirections."""
    from ..syntax import parser

    return frozenset((parser.Word, parser.BraceRefusedWord, parser.Redirect, parser.Assignment, parser.Heredoc,
                      parser.Lit, parser.CondOp, parser.SimpleCommand))


_FIELDS: dict = {}
_LEAVES: frozenset = frozenset()


def _bind_leaves():
    global _LEAVES
    if not _LEAVES:
        _LEAVES = _leaves()


def _fields_of(kind) -> tuple:
    """The names of a node type's fields, worked out once per type."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(getattr(kind, "__dataclass_fields__", ()))
    return names


def _lone_simple_command(script) -> bool:
    """One line holding one simple command without redirections: the case where
    bash -c execs it in place (measured: a pipeline, a redirection or a later
    command keeps bash around)."""
    SimpleCommand = _model().SimpleCommand

    if script.error is not None or len(script.chunks) != 1:
        return False
    items = script.chunks[0].items
    if len(items) != 1 or items[0].background:
        return False
    and_or = items[0].command
    if len(and_or.pipelines) != 1:
        return False
    pipeline = and_or.pipelines[0]
    if len(pipeline.commands) != 1 or pipeline.negated or pipeline.timed:
        return False
    command = pipeline.commands[0]
    return isinstance(command, SimpleCommand) and not command.redirects


def _without_script(argv) -> bool:
    """``bash -c`` and nothing after it (an unquoted empty expansion vanished): bash
    starts, says "-c: option requires an argument" and runs no script."""
    return len(argv) == 2 and argv[1] == "-c"
