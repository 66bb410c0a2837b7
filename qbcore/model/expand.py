"""A model of bash 5.2 word expansion over an Env, without running anything.

One job: turn syntax-tree words into what bash would make of them, in the
order bash expands: brace, tilde, parameter/arithmetic/command substitution,
word splitting, pathname expansion, quote removal. One entry point,
``expand(words, env, context)``: the Context (argv words, array elements, a
redirection target, a declaration argument, an assignment value, a
here-string, a case word, a here-document body) says which steps apply.
What cannot be known statically (``$$``, a command substitution the static
hook cannot evaluate, a glob against an unknown directory) becomes an Opaque
value, or a Partial text, with a name (qbcore.model.values); every result
reports the names of all opaque parts, so nothing is silently guessed.

Side effects go through hooks on the Env, as in mvdan/sh's ``expand.Config``:
``substitute`` runs a command substitution (by default its output and status
are unknown, named after it; qbcore.model.evaluate installs the static one)
and ``list_dir`` lists a directory for
pathname expansion (by default from the Env's ``files``, a qbcore.model.files.FileView).
"""

from __future__ import annotations

import functools
import os
import pwd
import re
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Optional, Union

from . import patterns
from ..syntax import parser as S
from .budget import BudgetExceeded, Meter
from .commandenv import command_environ
from .files import FileView, absolute as _absolute
from .patterns import compile_chars
from .values import Opaque, Partial, concat, has_opaque, opaque_names, unknown_text

# the word parts expansion dispatches on, looked up once
_Lit, _Escaped, _SingleQuoted, _AnsiC = S.Lit, S.Escaped, S.SingleQuoted, S.AnsiC
_DoubleQuoted, _Param, _CmdSub, _Arith, _ProcSub = S.DoubleQuoted, S.Param, S.CmdSub, S.Arith, S.ProcSub
_BraceRefusedWord = S.BraceRefusedWord

# ---------------------------------------------------------------- values


Value = Union[str, Opaque]


class ExpansionError(Exception):
    """An expansion bash reports as an error (``${x:?}``, division by 0, bad substitution).

    In ``bash -c`` such an error abandons the rest of the current line (the
    lines after it still run) with status 1; ``${x:?}`` is ``fatal``: it ends
    the whole shell with status 127 (measured with bash 5.2).
    """

    def __init__(self, message: str, status: int = 1, fatal: bool = False):
        super().__init__(message)
        self.message = message
        self.status = status
        self.fatal = fatal


@dataclass(frozen=True)
class Fields:
    """The fields words expand to. ``opaque`` names every part not statically known
    (a value holding one is a Partial, printed with ``⟨name⟩`` in its place);
    ``exact`` when there is none."""
    values: tuple
    opaque: tuple

    @property
    def exact(self) -> bool:
        return not self.opaque


@dataclass(frozen=True)
class Text:
    """One string (assignment value, heredoc body); ``opaque`` as in Fields."""
    value: str
    opaque: tuple

    @property
    def exact(self) -> bool:
        return not self.opaque


@dataclass(frozen=True, slots=True)
class Substitution:
    """What a command substitution produced: its stdout (before trailing newlines are
    removed) or an Opaque, its exit status (int or Opaque), and the opaque names inside."""
    stdout: Value
    status: Union[int, Opaque]
    opaque: tuple = ()


@dataclass(slots=True)
class Variable:
    """A shell variable: a string, an indexed array (dict index -> str), or Opaque.

    A plain class in both engines: the effect model watches reads of a new shell's
    start values through a subclass whose ``value`` is a property, which a typed
    field would bypass."""
    value: object
    exported: bool = False


# Values bash itself gives to these under `bash -c`, measured with 5.2.15
# under `env -i`; dynamic ones are opaque by nature, and so are the ones bash keeps
# about its own state (the call stack, the command running, the directory stack, its
# version as an array), which the model does not. The last pipeline's statuses
# (PIPESTATUS) are known where Env.pipestatus says.
DYNAMIC = ("RANDOM", "SRANDOM", "BASHPID", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME", "PPID",
           "BASH_ARGC", "BASH_ARGV", "BASH_ARGV0", "BASH_COMMAND", "BASH_EXECUTION_STRING", "BASH_LINENO",
           "BASH_LOADABLES_PATH", "BASH_SOURCE", "BASH_SUBSHELL", "BASH_VERSINFO", "COMP_WORDBREAKS",
           "DIRSTACK", "FUNCNAME", "HISTCMD", "PIPESTATUS")
_DYNAMIC_NAMES = frozenset(DYNAMIC)

# how many times a pipeline of any shell set its statuses (Env.pipeline_ran): a shell's
# record of the last one holds only while no other was set since, in it or in a copy that
# may or may not stand for it (a branch run on a copy, a background job)
_PIPESTATUS_SETS = [0]
_MACHINE = ("HOSTNAME", "UID", "EUID", "GROUPS")
_BASH_SETS = {
    "IFS": " \t\n", "OPTIND": "1", "OPTERR": "1", "PS4": "+ ",
    "BASH": "/usr/bin/bash", "BASH_VERSION": "5.2.15(1)-release",
    "HOSTTYPE": "x86_64", "MACHTYPE": "x86_64-pc-linux-gnu", "OSTYPE": "linux-gnu",
    "SHELLOPTS": "braceexpand:hashall:interactive-comments",
    "BASHOPTS": ("checkwinsize:cmdhist:complete_fullquote:extquote:force_fignore:globasciiranges:"
                 "globskipdots:hostcomplete:interactive_comments:patsub_replacement:progcomp:"
                 "promptvars:sourcepath"),
}
# the variables bash sets for itself, whose attributes (readonly, integer) the model does not keep
_BASH_OWN = frozenset(DYNAMIC) | frozenset(_BASH_SETS) | frozenset(_MACHINE) | frozenset(
    "UID EUID PPID GROUPS SHELLOPTS BASHOPTS OPTIND OPTARG OPTERR LINENO HISTCMD _".split())
# The PATH bash 5.2 (Debian build) gives itself when the environment has none.
_DEFAULT_PATH = "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."
# the executor's environment but HOME, which is the working directory (qbcore.model.commandenv)
EXECUTOR_ENVIRON = {name: value for name, value in command_environ("").items() if name != "HOME"}

#: a shell variable's name
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# the variables a shell starts with, by (environ items, cwd, invoked_as, host): worked out once
# per start (a regex per variable and a stat), then shared; a few starts are kept at a time
_STARTING_VARIABLES: dict = {}
_STARTING_VARIABLES_KEPT = 64

SubstituteHook = Callable[["S.Script", "Env"], Substitution]
ListDirHook = Callable[[str, "Env"], Optional[list]]


def script_text(script: "S.Script") -> str:
    """The source text of a (substitution's) script, blanks around it removed."""
    if not script.chunks:
        return ""
    raw = script.source.encode("utf-8", "surrogateescape")
    return raw[script.chunks[0].start:script.chunks[-1].end].decode("utf-8", "surrogateescape").strip()


def unknown_substitution(script: "S.Script", env: "Env") -> Substitution:
    """The default command-substitution hook: expansion alone runs nothing, so the
    output and the status are unknown, named after the substitution."""
    text = script_text(script)
    return Substitution(Opaque(f"$({text})"), Opaque(f"status of $({text})"), (f"$({text})",))


class Env:
    """The state word expansion reads: variables, positional parameters, ``$0``,
    ``$?``, the working directory, shell options, and the two side-effect hooks.

    ``listing``: None to list the real ``cwd`` when it exists (opaque
    otherwise), or an iterable of relative paths (``sub/`` or ``sub/f`` make
    ``sub`` a directory) standing for the whole tree under ``cwd``; ``files``
    an existing FileView to share instead (a shell started by another).
    ``meter`` counts the work of the evaluation against its Budget (a fresh
    one with the default budget when not given). ``host``: whether the model
    may read this machine's files and user database (default: only when
    ``cwd`` is given); without, those answers are unknown.
    """

    # ``vars`` maps names to Variables, which are replaced, never changed in place: shells
    # started the same way share them

    def __init__(self, variables: Optional[Mapping[str, object]] = None, *, cwd: Optional[str] = None,
                 positional: Iterable[str] = (), arg0: str = "bash", status: Union[int, Opaque] = 0,
                 listing: Optional[Iterable[str]] = None, substitute: Optional[SubstituteHook] = None,
                 list_dir: Optional[ListDirHook] = None, files: Optional[FileView] = None,
                 meter: Optional[Meter] = None, host: Optional[bool] = None):
        self.vars: dict = {}
        for name, value in (variables or {}).items():
            self.vars[name] = value if isinstance(value, Variable) else Variable(value, True)
        self.cwd = _absolute(cwd) if cwd else os.getcwd()
        self.cwd_known = True  # False after a cd the model could not follow
        self.positional = list(positional)
        self.arg0 = arg0
        self.status: Union[int, Opaque] = status
        self.flags = "hBc"
        self.noglob = False
        # the pathname options the model follows that are on (shopt's nullglob, dotglob, globstar)
        self.globopts: frozenset = frozenset()
        # the value of GLOBIGNORE whose effect on dotglob the model followed (``set``, ``unset``):
        # where the variable holds another (restored after a command or a function), globs
        # are not known
        self.globignore = None
        self.pipefail = False  # set -o pipefail: a pipeline's status is its last failure's
        self.lineno = 1
        self.last_bg: Optional[Value] = None
        # what $$ is: a hook giving the shell's process id as text (read as a fact of the run,
        # effects.run_effects), or None where it is not known
        self.pid: Optional[Callable[[], Value]] = None
        if files is None:
            files = FileView(self.cwd, listing, host=cwd is not None if host is None else host)
        self.files = files
        self.substitute: SubstituteHook = substitute or unknown_substitution
        self.list_dir: ListDirHook = list_dir or _default_list_dir
        self.functions: dict = {}
        # descriptors above 2 that `exec` opened (True) or closed (False) in this shell
        self.descriptors: dict = {}
        # pushd's directory stack below the working directory, top first (None: not known)
        self.dirstack: Optional[list] = []
        self.readonly: set = set()  # names made readonly (`readonly`, `declare -r`)
        # names exported while unset (`export MSG` before `MSG=…`): the assignment that makes
        # one exports it, as bash keeps the attribute on the variable it has no value for
        self.export_pending: set = set()
        self.meter = meter if meter is not None else Meter()
        # (the count of _PIPESTATUS_SETS, the statuses) of the pipeline that last set
        # PIPESTATUS in this shell; None where not known (a new shell's is empty)
        self.pipestatus: Optional[tuple] = None
        # the file `source` runs now, as it was named: bash's messages name it, not $0
        self.sourcing: Optional[str] = None
        self.calls = 0  # how many function calls are running now (BASH_SOURCE)

    # -- construction ---------------------------------------------------

    @classmethod
    def default(cls, cwd: Optional[str] = None, **kwargs) -> "Env":
        """The executor's environment: HOME = the working directory, PATH, LC_ALL=C…"""
        kwargs.setdefault("host", bool(cwd))
        cwd = os.path.abspath(cwd) if cwd else os.getcwd()
        environ = dict(EXECUTOR_ENVIRON, HOME=cwd)
        return cls.from_environ(environ, cwd, **kwargs)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], cwd: Optional[str] = None, *,
                     invoked_as: str = "bash", **kwargs) -> "Env":
        """The shell state of ``bash -c`` started with exactly ``environ`` in ``cwd``:
        the exported variables plus what bash sets itself (PWD, SHLVL, ``_``, IFS…).

        ``invoked_as`` is how bash was named when started (``$_`` when the
        environment has no ``_``: ``bash`` when exec'd by that name, a full path
        when another shell found it on PATH).
        """
        kwargs.setdefault("host", bool(cwd))
        cwd = _absolute(cwd) if cwd else os.getcwd()
        env = cls({}, cwd=cwd, **kwargs)
        host = env.files.host
        try:
            key = (tuple(environ.items()), cwd, invoked_as, host)
            template = _STARTING_VARIABLES.get(key)
        except TypeError:  # unhashable: not a map of str to str, said below
            key = template = None
        if template is not None:
            # checked when it was first seen; its Variables are shared: nothing changes one in place
            env.vars = dict(template)
            return env
        for name, value in environ.items():
            if not isinstance(name, str) or not isinstance(value, str):
                raise TypeError("environ must map str to str")
            if "\0" in value or "\0" in name:
                raise ValueError(f"environment variable {name!r} contains a NUL byte")
        for name, value in environ.items():
            if _NAME.fullmatch(name):
                env.vars[name] = Variable(value, True)
        for name, value in _BASH_SETS.items():
            env.vars.setdefault(name, Variable(value, False))
        pwd_value = environ.get("PWD")
        if not (pwd_value and pwd_value.startswith("/") and
                (pwd_value == cwd or _same_dir(pwd_value, cwd, host))):
            pwd_value = cwd
        env.vars["PWD"] = Variable(pwd_value, True)
        oldpwd = environ.get("OLDPWD")
        if oldpwd is not None and not (os.path.isdir(oldpwd) if host else oldpwd.startswith("/")):
            env.vars.pop("OLDPWD", None)  # bash keeps an inherited OLDPWD only when it is a directory
        if "PATH" not in environ:
            env.vars["PATH"] = Variable(_DEFAULT_PATH, False)
        try:
            level = int(environ.get("SHLVL", "0").strip() or "0") + 1
        except ValueError:
            level = 1
        env.vars["SHLVL"] = Variable(str(max(level, 0)), True)
        env.vars["_"] = Variable(environ.get("_", invoked_as), True)
        if "SHELL" not in environ:
            env.vars["SHELL"] = Variable(Opaque("$SHELL"), False)
        for name in _MACHINE:
            if name not in environ:
                env.vars[name] = Variable(Opaque("$" + name), False)
        if not host or environ.get("PWD", cwd) == cwd and oldpwd is None:
            # the same answer for the same start, unless this machine's directories decided it
            if len(_STARTING_VARIABLES) >= _STARTING_VARIABLES_KEPT:
                _STARTING_VARIABLES.clear()
            _STARTING_VARIABLES[key] = dict(env.vars)
        return env

    def copy(self) -> "Env":
        """A subshell's copy: changes to it never reach this Env."""
        other = Env.__new__(Env)
        # Variables are replaced, never changed in place: the copy shares them, but an
        # array's elements are its own; a Variable of a subclass (a watched start value,
        # qbcore.model.effects) holds text and is shared unread: reading it notes a read
        other.vars = dict(self.vars)
        for name, var in self.vars.items():
            if type(var) is Variable and isinstance(var.value, dict):
                other.vars[name] = Variable(dict(var.value), var.exported)
        other.cwd = self.cwd
        other.cwd_known = self.cwd_known
        other.positional = list(self.positional)
        other.arg0 = self.arg0
        other.status = self.status
        other.flags = self.flags
        other.noglob = self.noglob
        other.globopts = self.globopts
        other.globignore = self.globignore
        other.pipefail = self.pipefail
        other.lineno = self.lineno
        other.last_bg = self.last_bg
        other.pipestatus = self.pipestatus
        other.pid = self.pid  # a subshell's $$ is its shell's
        other.sourcing = self.sourcing
        other.calls = self.calls
        other.files = self.files  # one file system for the shell and its subshells
        other.substitute = self.substitute
        other.list_dir = self.list_dir
        other.functions = dict(self.functions)
        other.descriptors = dict(self.descriptors)
        other.dirstack = None if self.dirstack is None else list(self.dirstack)
        other.readonly = set(self.readonly)
        other.export_pending = set(self.export_pending)
        other.meter = self.meter  # one budget for the shell, its subshells and substitutions
        return other

    # -- variables ------------------------------------------------------

    def get(self, name: str) -> Optional[object]:
        """The value of a variable (str, dict for arrays, Opaque) or None when unset."""
        if name in _DYNAMIC_NAMES:
            if name == "PIPESTATUS":
                return self._pipestatus()
            return self._bash_source() if name == "BASH_SOURCE" else Opaque("$" + name)
        if name == "LINENO":
            return Opaque("$LINENO") if self.lineno is None else str(self.lineno)
        var = self.vars.get(name)
        return None if var is None else var.value

    def pipeline_ran(self, statuses):
        """A pipeline of this shell ended, its commands' statuses ``statuses`` (before ``!``):
        bash sets PIPESTATUS to them (measured: after a simple command, ``( )``, ``(( ))`` or
        ``[[ ]]`` alone, or a pipeline of several; a compound command alone leaves what the
        last pipeline inside it set, and one that ran none what was there)."""
        _PIPESTATUS_SETS[0] += 1
        self.pipestatus = (_PIPESTATUS_SETS[0], tuple(statuses))

    def pipestatus_empty(self):
        """This is a new shell: PIPESTATUS is empty until its first pipeline (measured)."""
        self.pipestatus = (_PIPESTATUS_SETS[0], ())

    def pipestatus_unknown(self):
        """Something ran that may have set PIPESTATUS in ways not followed (a line cut short)."""
        _PIPESTATUS_SETS[0] += 1

    def _bash_source(self):
        """BASH_SOURCE outside functions and sourced files: empty where bash reads its script
        from -c or stdin, the script's path as bash was given it where it reads a file ($0
        there); in a function or a sourced file, bash's call stack, not followed (measured)."""
        if self.calls or self.sourcing is not None or not isinstance(self.flags, str):
            return Opaque("$BASH_SOURCE")
        if "c" in self.flags or "s" in self.flags:
            return {}
        return {0: self.arg0} if isinstance(self.arg0, str) else Opaque("$BASH_SOURCE")

    def _pipestatus(self):
        known = self.pipestatus
        if known is None or known[0] != _PIPESTATUS_SETS[0] or any(type(s) is not int for s in known[1]):
            return Opaque("$PIPESTATUS")
        return {n: str(status) for n, status in enumerate(known[1])}

    def set(self, name: str, value: object, *, exported: Optional[bool] = None):
        """Assign a variable, keeping its export flag unless ``exported`` is given; under
        allexport (set -a) every assignment exports."""
        old = self.vars.get(name)
        if old is not None:
            flag = old.exported
        else:
            flag = name in self.export_pending
            self.export_pending.discard(name)
        if exported is None and "a" in self.flags:
            exported = True
        self.vars[name] = Variable(value, flag if exported is None else exported)
        if name == "GLOBIGNORE":
            self._globignore_changed(value)

    def unset(self, name: str):
        self.vars.pop(name, None)
        self.export_pending.discard(name)
        if name == "GLOBIGNORE":
            self._globignore_changed(None)

    def _globignore_changed(self, value):
        """bash turns dotglob on where GLOBIGNORE gets a pattern, and off where it is unset; an
        empty value leaves dotglob as it was (variables.c's sv_globignore)."""
        if value is None:
            self.globopts = self.globopts.difference(("dotglob",))
        elif type(value) is not str:
            self.noglob = None  # an unknown value or an array: what bash made of it is not followed
        elif value:
            self.globopts = self.globopts.union(("dotglob",))
        self.globignore = value

    @property
    def locale_is_c(self) -> bool:
        """True when bash runs in the C locale (bytes, not characters; ASCII case mapping)."""
        for name in ("LC_ALL", "LC_CTYPE", "LANG"):
            value = self.get(name)
            if isinstance(value, str) and value:
                return value in ("C", "POSIX")
        return True

    def ifs(self) -> Value:
        value = self.get("IFS")
        if value is None:
            return " \t\n"
        if isinstance(value, dict):
            return value.get(0, "")
        return value


def _same_dir(a: str, b: str, host: bool = True) -> bool:
    if not host:
        return os.path.normpath(a) == os.path.normpath(b)
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.normpath(a) == os.path.normpath(b)


def _default_list_dir(path: str, env: "Env") -> Optional[list]:
    """The names in directory ``path`` (relative to cwd or absolute); None when unknowable."""
    if not env.cwd_known and not path.startswith("/"):
        return None
    return env.files.names(os.path.join(env.cwd, path) if path else env.cwd)


# ---------------------------------------------------------------- contexts

# How far tilde expansion reaches in a word: nowhere; at its start only; at its
# start and, when the word starts as `name=`, after that `=` and each later `:`;
# at its start and after each `:` (an assignment's value, a here-string).
TILDE_NONE, TILDE_START, TILDE_WORD, TILDE_VALUE = "none", "start", "word", "value"


@dataclass(frozen=True)
class Context:
    """Where a word stands, and so which of bash's expansions it undergoes, in bash's
    order: brace, tilde, parameter/command/arithmetic, splitting, pathname, quote removal.

    Parameter, command and arithmetic expansion and quote removal happen in every
    context. Without ``split`` the word is one string and bash joins ``"$@"`` with
    spaces in it. ``one_field``: more than one field, or none, is an error.
    ``quoted``: the text expands as inside double quotes (a here-document body).
    Each context's steps are checked against bash 5.2 in tests/model/test_expand_contexts.py.
    """
    name: str
    brace: bool
    tilde: str
    split: bool
    glob: bool
    one_field: bool = False
    quoted: bool = False


# a command's words; in `arr=(…)`, elements (`[k]=v` takes its value as ASSIGNMENT_VALUE)
ARGV = Context("argv words", brace=True, tilde=TILDE_WORD, split=True, glob=True)
ARRAY_ELEMENTS = Context("array elements", brace=True, tilde=TILDE_START, split=True, glob=True)
# `> word`: split and globbed, but it must come to one field ("ambiguous redirect")
REDIRECT_TARGET = Context("redirection target", brace=True, tilde=TILDE_WORD, split=True, glob=True,
                          one_field=True)
# the arguments of declare, local, export, readonly, typeset: a word that starts as
# `name=` or `name+=` and stays one word after brace expansion is taken like an
# assignment (no splitting, no globbing, tilde after `=` and `:`); any other like ARGV
DECLARATION_ARGUMENT = Context("declaration arguments", brace=True, tilde=TILDE_WORD, split=True, glob=True)
ASSIGNMENT_VALUE = Context("assignment value", brace=False, tilde=TILDE_VALUE, split=False, glob=False)
HERE_STRING = Context("here-string", brace=False, tilde=TILDE_VALUE, split=False, glob=False)
# the word of `case`, an operand of `[[ ]]`
CASE_WORD = Context("case word", brace=False, tilde=TILDE_WORD, split=False, glob=False)
HEREDOC_BODY = Context("here-document body", brace=False, tilde=TILDE_NONE, split=False, glob=False,
                       quoted=True)


def unbound(name: str) -> ExpansionError:
    """set -u: expanding an unset parameter ends the shell (status 127, measured)."""
    shown = f"${name}" if name.isdigit() or name == "!" else name
    return ExpansionError(f"{shown}: unbound variable", status=127, fatal=True)


# the forms of ${…} that test whether the parameter is set (set -u allows them on an unset one)
_DEFAULT_OPS = frozenset((":-", "-", ":=", "=", ":?", "?", ":+", "+"))


class UnfollowedExpansion(ExpansionError):
    """An expansion the model does not follow, where bash may report an error and abandon
    the line: what the line does from there is unknown."""


def _negative_length(p: "S.Param") -> ExpansionError:
    """A substring's length below 0 where bash refuses it: its message shows the length as
    written (`${x:1: -5}` is ` -5`, `${x:1:"-5"}` is `"-5"`: measured), which the
    parser keeps for literal text alone."""
    if all(type(part) is _Lit for part in p.arg2.parts):
        return ExpansionError(f"{''.join(part.text for part in p.arg2.parts)}: substring expression < 0")
    return UnfollowedExpansion("a substring length below 0 written with quotes or expansions")


def _single_quotes_kept(parts, quoted) -> tuple:
    """``parts`` with the quotes bash 5.2 keeps in an arithmetic expression (`$(( '1' + 1 ))`,
    `(( i == $'1' ))`, `${a['1']}`, `${x:'1'}`), where double quotes go: bash expands the
    expression as inside double quotes, where a single quote is text, and $'…' is
    decoded and quoted again first (`$'a\\'b'` is `'a'\\''b'`), all measured. The evaluator then
    meets the quote (its syntax error). Where the text inside would expand there once
    more (`$`, a backtick, a backslash, a double quote), UnfollowedExpansion; so too for
    $'…' where the expression is ``quoted`` (inside double quotes or a here-document:
    bash keeps the quotes in `"$((…))"` but not in `"$[…]"`, `"${a[…]}"`, `"${x:…}"`)."""
    if not any(type(part) is _SingleQuoted or type(part) is _AnsiC for part in parts):
        return parts
    kept = []
    for part in parts:
        kind = type(part)
        if kind is _AnsiC and quoted:
            raise UnfollowedExpansion("$'…' in an arithmetic expression inside double quotes")
        if kind is _SingleQuoted or kind is _AnsiC:
            if _EXPANDS_IN_DOUBLE_QUOTES.search(part.text):
                raise UnfollowedExpansion("single quotes around an expansion in an arithmetic expression, "
                                          "which bash 5.2 keeps")
            text = "'" + part.text.replace("'", "'\\''") + "'" if kind is _AnsiC else f"'{part.text}'"
            part = _Lit(text, part.start, part.end)
        kept.append(part)
    return tuple(kept)


# what a double-quoted text reads as more than text
_EXPANDS_IN_DOUBLE_QUOTES = re.compile(r'[$`\\"]')


def _rereads_ansi_c(p: "S.Param") -> bool:
    """Whether a word of ``p`` holds a $'…' whose decoded text bash reads as more than text."""
    for word in (p.arg, p.arg2):
        if word is not None:
            for part in word.parts:
                if type(part) is _AnsiC and _REREAD.search(part.text):
                    return True
    return False


# what bash would read as more than text where it reads a decoded $'…' again
_REREAD = re.compile(r"[$`'\"\\{}]")


def brace_refusal(word: "S.BraceRefusedWord") -> ExpansionError:
    """The error of a word whose brace expansion bash refuses: bash reports the `$(` it
    could not read and abandons the line (UnfollowedExpansion where the model does not
    follow bash's reading of the word)."""
    if word.refusal is None:
        return UnfollowedExpansion("a word whose brace expansion the model does not follow (bash reads its "
                                   "quotes, or an unclosed `$((`, by text)")
    return ExpansionError(word.refusal)


def refuse_braces(words, context: "Context"):
    """bash brace-expands all the words of a list (a command's words, ``for`` words, array
    elements) before it expands any further: a word it refuses stops the list before
    any of it expands (``brace_refusal``)."""
    if context.brace:
        for word in words:
            if type(word) is _BraceRefusedWord:
                raise brace_refusal(word)


class AmbiguousWord(ExpansionError):
    """A word that must expand to one field (a redirection target) came to another number."""

    def __init__(self, count: int):
        super().__init__("ambiguous redirect")
        self.count = count


class UnexpandableDocument(ExpansionError):
    """An unquoted here-document body bash cannot expand (an unterminated ``$(`` or backtick):
    the command fails, the line goes on."""


# ---------------------------------------------------------------- entry points


def expand(words, env: Env, context: Context = ARGV) -> Fields:
    """Expand words (here-documents, in HEREDOC_BODY) as bash does in ``context``.

    The values are the fields, or for a context without splitting one string
    per word; an ARRAY_ELEMENTS value ``(index, append, text)`` stands for a
    ``[k]=v`` element. Raises ExpansionError as bash fails (AmbiguousWord,
    UnexpandableDocument).
    """
    refuse_braces(words, context)
    exp = Expander(env)
    out: list = []
    for word in words:
        out.extend(exp.expand(word, context))
    return Fields(tuple(out), tuple(exp.opaque))


def fields(words, env: Env) -> Fields:
    """Expand words as bash expands a command's arguments; returns Fields (argv values)."""
    return expand(words, env, ARGV)


def literal(word: Optional["S.Word"], env: Env, *, assignment: bool = True) -> Text:
    """Expand one word without splitting or globbing: as an assignment value (tilde
    after ``=``/``:``), or else as the word of ``case``."""
    if word is None:
        return Text("", ())
    result = expand([word], env, ASSIGNMENT_VALUE if assignment else CASE_WORD)
    return Text(result.values[0], result.opaque)


def unexpandable_in_document(heredoc: "S.Heredoc") -> Optional[str]:
    """The unterminated ``$(``, ``${``, ``$[`` or backtick an unquoted heredoc body holds, if any.

    The lexer leaves such text literal so the body still ends at its
    delimiter; bash then fails the command when it expands the body.
    """
    for part in heredoc.parts:
        if isinstance(part, S.Lit):
            match = re.search(r"\$[({[]|`", part.text)
            if match:
                return part.text[match.start():].split("\n", 1)[0]
    return None


def unexpandable_document_error(broken: str) -> str:
    """The error the model records for a body bash cannot expand (its own words:
    bash prints none it could match), ``broken`` the text from the construct to the line's end."""
    return f"here-document: cannot expand {broken!r}"


UNJOINED_DOCUMENT = Opaque("here-document body with a backslash-newline before an unclosed construct")


def joined_before_failure(heredoc: "S.Heredoc") -> bool:
    """Whether an unexpandable body holds a backslash-newline: bash joins the lines
    before it expands, which can close or open constructs (``$\\<nl>$(`` is ``$$(``);
    the literal body the lexer kept cannot say which."""
    return any(isinstance(part, S.Lit) and "\\\n" in part.text for part in heredoc.parts)


# `${?#$(())}`, `${$%…$(…)}`, `${-/…}`: in a here-document body bash 5.2 cuts the
# last `)` off a substitution in the word of `?`, `$` or `-` and fails with "bad
# substitution: no closing `)'" (not in a word or in double quotes; `${x#…}`,
# `${@#…}` and `${?:-…}` expand); where such a word holds `$(`, not modelled.
# bash 5.2 reads the end of the script after a body's last backslash as the byte 0xff
# (`bash -c $'cat <<EOF\nabc\\'` prints `abc\`, 0xff and a newline, measured)
BACKSLASH_AT_END_DOCUMENT = Opaque("here-document body whose script ends in a backslash")
SPECIAL_WORD_DOCUMENT = Opaque("here-document body with `$(` in the word of ${?…}, ${$…} or ${-…}")


def misread_in_document(heredoc: "S.Heredoc") -> bool:
    """Whether bash may misread a substitution inside ``${?…}``, ``${$…}`` or ``${-…}`` in this body."""
    return _special_word_with_substitution(heredoc.parts, False)


def _special_word_with_substitution(parts, inside: bool) -> bool:
    for part in parts:
        if inside and (isinstance(part, S.Arith) or isinstance(part, S.CmdSub) and not part.backtick):
            return True
        if isinstance(part, S.Param):
            special = part.braced and part.name in ("?", "$", "-") and part.op not in (None, ":-")
            for word in (part.arg, part.arg2):
                if isinstance(word, S.Word) and _special_word_with_substitution(word.parts, inside or special):
                    return True
        elif isinstance(getattr(part, "parts", None), tuple) and \
                _special_word_with_substitution(part.parts, inside):
            return True
    return False


def expanded_before_failure(heredoc: "S.Heredoc") -> tuple:
    """The parts of an unexpandable body that bash expands before it meets the one that fails."""
    for n, part in enumerate(heredoc.parts):
        if isinstance(part, S.Lit) and re.search(r"\$[({[]|`", part.text):
            return heredoc.parts[:n]
    return heredoc.parts


_LAST_NEWLINE = "\n"


def _unended_line(heredoc: "S.Heredoc") -> bool:
    """Whether the script ends inside the body's last line: bash reads that line as a whole one,
    its newline added (``bash -c $'cat <<EOF\\nabc'`` prints ``abc`` and a newline, measured)."""
    if heredoc.terminated:
        return False
    if heredoc.quoted:
        return heredoc.raw != "" and not heredoc.raw.endswith("\n")
    last = heredoc.parts[-1] if heredoc.parts else None
    return last is not None and not (isinstance(last, S.Lit) and last.text.endswith("\n"))


def document(heredoc: "S.Heredoc", env: Env) -> Text:
    """The body an unquoted-delimiter heredoc delivers (a quoted one is returned raw).

    Raises UnexpandableDocument when bash could not expand it (an unterminated
    ``$(`` or backtick in the body).
    """
    result = expand([heredoc], env, HEREDOC_BODY)
    return Text(result.values[0], result.opaque)


def pattern(word: "S.Word", env: Env) -> "Pattern":
    """Expand a word as a pattern (``case``, ``[[ == ]]``): quoted characters match themselves."""
    exp = Expander(env)
    return exp.pattern_of(word, TILDE_WORD)


def regex_pieces(word: "S.Word", env: Env) -> tuple:
    """The right side of ``[[ … =~ word ]]`` expanded: ``([(text, quoted)], opaque names)``;
    bash matches quoted text literally and reads the rest as an extended regular expression."""
    exp = Expander(env)
    pieces = exp.parts(exp.tilde(list(word.parts), TILDE_WORD), quoted=False)
    return ([(" ", True) if split == "break" else (text, quoted) for text, quoted, split in pieces],
            opaque_names([text for text, _, _ in pieces]))


# ---------------------------------------------------------------- patterns


class Pattern:
    """A bash glob pattern compiled from (char, active) pairs; ``opaque`` names unknown parts.

    Matching runs a position automaton (qbcore.model.patterns): linear in the text
    whatever the pattern; ``meter`` (optional) is charged for every scan.
    """

    __slots__ = ("automaton", "opaque", "has_magic", "text", "byte_mode", "meter", "whole_only")

    def __init__(self, chars: list, opaque: tuple = (), pathname: bool = False, byte_mode: bool = False,
                 meter: Optional[Meter] = None):
        if byte_mode:
            # the C locale matches bytes: `?` is one byte of a multi-byte character
            chars = [(b, active) for ch, active in chars for b in to_bytes(ch)]
        self.automaton = compile_chars(chars, pathname, _bracket)
        self.opaque = opaque
        self.has_magic = any(active and ch in "*?[" for ch, active in chars)
        self.text = "".join(ch for ch, _ in chars)
        self.byte_mode = byte_mode
        self.meter = meter
        # bash's pattern substitution first tests whether a match exists at all, by
        # matching `*P*` (`P*`, `*P`) against the whole value, but it matches P itself
        # when P starts with `*` and ends with `*`: a quoted last `*` makes that test
        # demand that the whole value match (`v='x*y'; echo "${v/*'*'/X}"` prints `x*y`)
        self.whole_only = len(chars) >= 2 and chars[0] == ("*", True) and chars[-1] == ("*", False)

    def matches(self, text: str) -> bool:
        """Whether the whole of ``text`` matches (converted to bytes in byte mode)."""
        if self.meter is not None:
            self.meter.scan(len(text))
        return self.automaton.fullmatch(to_bytes(text) if self.byte_mode else text)

    def charge(self, chars: int):
        if self.meter is not None:
            self.meter.scan(chars)

    def build(self, chars: int):
        if self.meter is not None:
            self.meter.build(chars, "pattern substitution")


def to_bytes(text: str) -> str:
    """Text as one character per UTF-8 byte (latin-1), how bash sees it in the C locale."""
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def from_bytes(text: str) -> str:
    return text.encode("latin-1").decode("utf-8", "surrogateescape")


_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "xdigit": "0-9A-Fa-f", "cntrl": "\\x00-\\x1f\\x7f", "print": "\\x20-\\x7e", "graph": "\\x21-\\x7e",
    "word": "a-zA-Z0-9_",
}


def _bracket(chars: list, i: int):
    """Translate ``[...]`` starting after ``[``; None when it is not closed."""
    n = len(chars)
    negate = False
    if i < n and chars[i][1] and chars[i][0] in "!^":
        negate = True
        i += 1
    items = []
    last = None  # the character the last item matches, when it is a single one
    first = True
    while i < n:
        ch, active = chars[i]
        if ch == "]" and active and not first:
            if not items:  # only empty ranges: nothing matches (or, negated, anything)
                return ("(?s:.)" if negate else "(?!)"), i + 1
            body = "".join(items)
            return ("[^" if negate else "[") + body + "]", i + 1
        first = False
        if active and ch == "[" and i + 1 < n and chars[i + 1][0] == ":":
            j = i + 2
            name = ""
            while j < n and chars[j][0].isalpha():
                name += chars[j][0]
                j += 1
            if j + 1 < n and chars[j][0] == ":" and chars[j + 1][0] == "]" and name in _CLASSES:
                items.append(_CLASSES[name])
                last = None
                i = j + 2
                continue
        if active and ch == "\\" and i + 1 < n:
            items.append(re.escape(chars[i + 1][0]))
            last = chars[i + 1][0]
            i += 2
            continue
        if active and ch == "-" and items and i + 1 < n and chars[i + 1][0] != "]":
            end = chars[i + 2][0] if chars[i + 1] == ("\\", True) and i + 2 < n else chars[i + 1][0]
            if last is not None and last > end:
                # a range whose end comes before its start matches nothing (measured)
                items.pop()
                i += 3 if chars[i + 1] == ("\\", True) else 2
                last = None
                continue
            items.append("-")
            i += 1
            continue
        items.append(re.escape(ch) if ch not in "-" else "\\-")
        last = ch
        i += 1
    return None


# ---------------------------------------------------------------- arithmetic


class ArithError(ExpansionError):
    pass


_MASK = (1 << 64) - 1


def _wrap(value: int) -> int:
    value &= _MASK
    return value - (1 << 64) if value >> 63 else value


_ARITH_TOKEN = re.compile(r"""\s*(?:
    (?P<num>[0-9][0-9A-Za-z@_]*(?:\#[0-9A-Za-z@_]+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\*\*=|<<=|>>=|\+\+|--|\*\*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|[-+*/%<>=!~&^|?:,()\[\]])
)""", re.X)

_BINARY = [
    (",",), ("=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="), ("?",), ("||",),
    ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<=", ">=", "<", ">"), ("<<", ">>"), ("+", "-"),
    ("*", "/", "%"), ("**",),
]
# the binary operators' levels in _BINARY, from `||` (3) to `*` (12); `**` (13) binds tightest
_POWER = 13
_LEVEL = {op: level for level, ops in enumerate(_BINARY) if 3 <= level < _POWER for op in ops}
_ASSIGNMENTS = frozenset(_BINARY[1])


@functools.lru_cache(maxsize=512)
def _arith_tokens(text: str) -> tuple:
    """The tokens of an arithmetic expression, each (kind, text, offset) (a variable's
    value is read again and again).

    ``++`` and ``--`` are read as bash reads them: after a variable, its increment
    (``op``); before one, maybe past blanks, the variable's (``pre``); anywhere
    else two signs. Where bash's reader stops with an error, the last token is
    ``error`` with its message: bash reports it only when it reaches it, after
    any error in the tokens before.
    """
    toks = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        match = _ARITH_TOKEN.match(stripped, pos)
        if not match or match.end() == pos:
            start = len(stripped) - len(stripped[pos:].lstrip())
            # after an operand bash wanted an operator; at the start or after an operator, an
            # operand (expr.c's readtok). A subscript's `]` ends an operand, and so does a
            # variable's ++ or -- after it (bash reads on as after a number).
            wanted = "invalid arithmetic operator" if toks and (toks[-1][0] in ("num", "name") or
                                                                 toks[-1][1] in ("]", "++", "--")) \
                else "operand expected"
            toks.append(("error", f"{_shown(text)}: syntax error: {wanted} "
                                  f"(error token is \"{text[start:]}\")", start))
            break
        kind = match.lastgroup
        tok = match.group(kind)
        start = match.start(kind)
        if tok == "++" or tok == "--":
            before = toks[-1] if toks else None
            if before is not None and before[0] != "num" and _operand_start(toks) > 0 and \
                    toks[_operand_start(toks) - 1][0] == "pre":
                toks.append(("error", f"{_shown(text)}: {tok}: assignment requires lvalue "
                                      f"(error token is \"{text[start:]}\")", start))
                break
            if before is None or before[0] != "name" and before[1] != "]":
                if not _VARIABLE_AHEAD.match(stripped, start + 2):
                    toks.append(("op", tok[0], start))  # a sign; the next one is read again
                    pos = start + 1
                    continue
                kind = "pre"
        toks.append((kind, tok, start))
        pos = match.end()
    return tuple(toks)


def forget_arithmetic():
    """Forget the arithmetic expressions read so far."""
    _arith_tokens.cache_clear()
    _subscript_expression.cache_clear()


#: a subscript bash expands before it evaluates it: parameters, substitutions, quotes
EXPANDING_SUBSCRIPT = re.compile(r"[$`'\"\\]|[<>]\(")


@functools.lru_cache(maxsize=1024)
def _subscript_expression(text: str) -> Optional["S.Arith"]:
    """A subscript's text read as bash reads it before evaluating it: the expression of
    ``((text))``, whose expansion is the same (as if in double quotes, then quote removal);
    None when it does not read as one."""
    try:
        script = S.parse("((" + text + "))")
    except (S.ShellSyntaxError, S.NestedTooDeep, RecursionError, ValueError):
        return None
    if script.error is not None or len(script.chunks) != 1 or len(script.chunks[0].items) != 1:
        return None
    item = script.chunks[0].items[0]
    if item.background or len(item.command.pipelines) != 1:
        return None
    pipeline = item.command.pipelines[0]
    if len(pipeline.commands) != 1 or pipeline.negated or pipeline.timed:
        return None
    command = pipeline.commands[0]
    if type(command) is not S.ArithCommand or command.redirects or command.end != len(text) + 4:
        return None
    return command.expr


def _operand_start(toks) -> int:
    """Where the last token's operand starts: at its name for ``name[…]`` (bash reads the
    subscript as part of the name), else at the token itself."""
    j = len(toks) - 1
    if toks[j][1] != "]":
        return j
    depth = 0
    while j >= 0:
        if toks[j][1] == "]":
            depth += 1
        elif toks[j][1] == "[":
            depth -= 1
            if depth == 0:
                return j - 1 if j > 0 and toks[j - 1][0] == "name" else j
        j -= 1
    return 0


# what makes `++`/`--` the increment of the variable after it
_VARIABLE_AHEAD = re.compile(r"[ \t\n\r]*[A-Za-z_]")


def _shown(text: str) -> str:
    """An expression as bash's messages show it: from its first character that is not a blank."""
    return text.lstrip(" \t")


class Arithmetic:
    """Evaluate a bash arithmetic expression (64-bit, bash precedence, variables recursive).

    As bash does, a side it does not take (after a short circuit, the branch of
    a conditional not chosen) is parsed without being evaluated: it reads and
    assigns nothing and divides by 0 without complaint (``noeval``). A side
    taken under a condition the model does not know (``unsure``) leaves what
    it assigns unknown.
    """

    def __init__(self, text: str, env: Env, opaque: list, depth: int = 0):
        self.env = env
        self.text = text
        self.opaque = opaque
        self.depth = depth
        self.toks = _arith_tokens(text)
        self.i = 0
        self.nesting = 0
        self.noeval = 0
        self.unsure = None

    def run(self):
        if not self.toks:
            return 0
        value = self.comma()
        if self.i < len(self.toks):
            self.fail("syntax error in expression")
        return value

    def fail(self, message, at=-1):
        """Raise bash's error: the expression, and the text from token ``at`` on (by
        default the current token, or the last one at the end of the expression);
        the reader's own error when the current token is one."""
        toks = self.toks
        self.reached(self.i)
        index = self.i if at < 0 else at
        if index >= len(toks):
            index = _operand_start(toks) if toks else -1  # bash's last token: `name[…]` whole
        token = self.text[toks[index][2]:] if index >= 0 else ""
        raise ArithError(f"{_shown(self.text)}: {message} (error token is \"{token}\")")

    def reached(self, index):
        """Raise the reader's error if the token ``index`` is one (bash reads a token when
        the one before it is taken)."""
        if index < len(self.toks) and self.toks[index][0] == "error":
            raise ArithError(self.toks[index][1])

    def peek(self):
        if self.i >= len(self.toks):
            return None
        self.reached(self.i)
        return self.toks[self.i][1]

    def comma(self):
        value = self.assign()
        while self.peek() == ",":
            self.i += 1
            value = self.assign()
        return value

    def assign(self):
        toks = self.toks
        i = self.i
        if i + 1 < len(toks) and toks[i][0] == "name":
            following = toks[i + 1][1]
            if following in _ASSIGNMENTS:
                name = toks[i][1]
                self.i += 2
                # bash reads the variable's value (not for a plain `=`) before the right side
                lvalue = 0 if following == "=" else self.var(name)
                rhs = self._deeper(self.assign)
                if following != "=":
                    rhs = self.binop(following[:-1], lvalue, rhs, -1)
                self.store(name, rhs)
                return rhs
            if following == "[":
                end = self._subscript_end(i + 1)
                if end + 1 < len(toks) and toks[end + 1][1] in _ASSIGNMENTS:
                    return self.assign_element(toks[i][1], i + 1, end)
        value = self.ternary()
        if self.peek() in _ASSIGNMENTS:
            self.fail("attempted assignment to non-variable")
        return value

    def assign_element(self, name, opening, closing):
        """``name[sub] OP= value``: the element's new value."""
        op = self.toks[closing + 1][1]
        index = self.subscript(opening, closing)
        self.i = closing + 2
        lvalue = 0 if op == "=" or not _known(index) else self.element(name, index)
        rhs = self._deeper(self.assign)
        if not _known(index):
            if not self.noeval:
                self.env.set(name, Opaque(f"${name}"))  # which element changed is unknown
            return rhs if op == "=" else index
        if op != "=":
            rhs = self.binop(op[:-1], lvalue, rhs, -1)
        return self.store_element(name, index, rhs)

    def store_element(self, name, index, value):
        """``name[index]=value``: the value, or an unknown one where the array is not followed."""
        if self.noeval:
            return value
        current = self.env.get(name)
        if index < 0 or isinstance(current, Opaque) or \
                isinstance(current, dict) and any(type(key) is not int for key in current):
            # a subscript from the end, an unknown or associative array: not followed
            unknown = Opaque(f"${name}[{index}]")
            self._note(unknown.name)
            self.env.set(name, Opaque(f"${name}"))
            return unknown
        array = dict(current) if isinstance(current, dict) else ({0: current} if isinstance(current, str) else {})
        array[index] = Opaque(f"${name}[{index}]") if self.unsure is not None else str(value) if _known(value) else value
        self.env.set(name, array)
        return value

    def step_element(self, name, index, op, before):
        """``name[index]++`` (``before``: the old value is the result) or ``++name[index]``."""
        value = self.element(name, index)
        new = _wrap(value + (1 if op == "++" else -1)) if _known(value) else value
        stored = self.store_element(name, index, new)
        return stored if not _known(stored) else value if before else new

    def step_variable(self, name, op, before):
        """``name++`` (``before``: the old value is the result) or ``++name``."""
        value = self.var(name)
        new = _wrap(value + (1 if op == "++" else -1)) if _known(value) else value
        self.store(name, new)
        return value if before else new

    def take_subscript(self):
        """The value of the ``[…]`` at the current token, which is taken."""
        closing = self._subscript_end(self.i)
        index = self.subscript(self.i, closing)
        self.i = closing + 1
        return index

    def _subscript_end(self, opening):
        depth, j = 0, opening
        toks = self.toks
        while j < len(toks):
            if toks[j][1] == "[":
                depth += 1
            elif toks[j][1] == "]":
                depth -= 1
                if depth == 0:
                    return j
            j += 1
        return j

    def subscript(self, opening, closing):
        """The value of the subscript between the tokens ``opening`` and ``closing``."""
        toks = self.toks
        if closing >= len(toks):
            self.fail("bad array subscript", opening - 1)
        if self.noeval:
            return 0
        start = toks[opening][2] + 1
        end = toks[closing][2]
        return Arithmetic(self.text[start:end], self.env, self.opaque, self.depth + 1).run()

    def ternary(self):
        cond = self.binary(3)
        if self.peek() != "?":
            return cond
        self.i += 1
        if self.i >= len(self.toks) or self.peek() == ":":
            self.fail("expression expected")
        known = _known(cond)
        yes = self.side(self.comma, -1, (not cond) if known else None, cond)
        if self.peek() != ":":
            self.fail("`:' expected for conditional expression")
        self.i += 1
        if self.i >= len(self.toks):
            self.fail("expression expected")
        no = self.side(self._ternary_deeper, -1, bool(cond) if known else None, cond)
        return (yes if cond else no) if known else Opaque(cond.name)

    def _ternary_deeper(self):
        return self._deeper(self.ternary)

    def side(self, rule, level, skipped, cond):
        """One side of a conditional or a short circuit, ``rule()`` (``rule(level)`` for a
        level of operators): evaluated, parsed only (``skipped``), or evaluated as
        maybe not run (``skipped`` None: ``cond`` is unknown)."""
        if skipped:
            self.noeval += 1
        elif skipped is None:
            saved = self.unsure
            self.unsure = cond
        try:
            return rule() if level < 0 else rule(level)
        finally:
            if skipped:
                self.noeval -= 1
            elif skipped is None:
                self.unsure = saved

    def binary(self, level):
        """The operators of precedence ``level`` and tighter, by precedence climbing: one
        call an operand, not one a precedence level."""
        if level >= _POWER:
            return self.power()
        return self.climb(self.power(), level)

    def climb(self, left, level):
        toks = self.toks
        while self.i < len(toks):
            at = self.i
            self.reached(at)
            op = toks[at][1]
            found = _LEVEL.get(op, -1)
            if found < level:
                break
            self.i += 1
            if op == "||" or op == "&&":
                if _known(left):
                    # short circuit: the right side is parsed but not evaluated
                    skipped = bool(left) if op == "||" else not left
                    right = self.side(self.binary, found + 1, skipped, left)
                    left = (1 if op == "||" else 0) if skipped else int(bool(right)) if _known(right) else right
                else:
                    self.side(self.binary, found + 1, None, left)
                continue
            right = self.binary(found + 1)
            left = self.binop(op, left, right, at)
        return left

    def power(self):
        base = self.unary()
        if self.peek() == "**":
            at = self.i
            self.i += 1
            exponent = self.power()  # right associative
            return self.binop("**", base, exponent, at)
        return base

    def unary(self):
        # parentheses and prefix operators recurse through here; chains of assignments
        # and conditionals through _deeper
        return self._deeper(self._unary)

    def _deeper(self, rule):
        self.nesting += 1
        try:
            self.env.meter.nested(self.nesting, "arithmetic")
            return rule()
        finally:
            self.nesting -= 1

    def _unary(self):
        op = self.peek()
        if op in ("-", "+", "!", "~"):
            self.i += 1
            value = self.unary()
            if not _known(value) or op == "+":
                return value
            return _wrap(-value) if op == "-" else int(not value) if op == "!" else _wrap(~value)
        if op is not None and self.toks[self.i][0] == "pre":
            name = self.toks[self.i + 1][1]
            self.i += 2
            if self.peek() == "[":
                index = self.take_subscript()
                return index if not _known(index) else self.step_element(name, index, op, False)
            return self.step_variable(name, op, False)
        return self.postfix()

    def postfix(self):
        if self.i >= len(self.toks):
            self.fail("syntax error: operand expected")
        self.reached(self.i)
        kind, tok, start = self.toks[self.i]
        if tok == "(":
            self.i += 1
            value = self.comma()
            if self.peek() != ")":
                self.fail("missing `)'")
            self.i += 1
            return value
        if kind == "num":
            self.i += 1
            return _number(tok, self.text[:start + len(tok)])
        if kind == "name":
            self.i += 1
            name = tok
            if self.peek() == "[":
                index = self.take_subscript()
                if not _known(index):
                    return index
                if self.peek() in ("++", "--"):
                    op = self.toks[self.i][1]
                    self.i += 1
                    return self.step_element(name, index, op, True)
                return self.element(name, index)
            if self.peek() in ("++", "--"):
                op = self.toks[self.i][1]
                self.i += 1
                return self.step_variable(name, op, True)
            if self.peek() == "=":
                return 0  # bash does not read a variable an `=` follows: it is about to be assigned
            return self.var(name)
        self.fail("syntax error: operand expected")

    def element(self, name, index):
        if self.noeval:
            return 0
        value = self.env.get(name)
        if isinstance(value, dict):
            text = value.get(index)
        elif index == 0:
            text = value
        else:
            text = None
        return self._value_of(name, text)

    def var(self, name):
        if self.noeval:
            return 0  # bash reads no variable on a side it does not take
        return self._value_of(name, self.env.get(name))

    def _value_of(self, name, value):
        if isinstance(value, dict):
            value = value.get(0)
        if value is None and "u" in self.env.flags:
            raise unbound(name)
        if value is None or value == "":
            return 0
        if isinstance(value, Opaque):
            self._note(value.name)
            return value
        meter = self.env.meter
        meter.step(1, f"arithmetic on ${name}")
        meter.depth(self.depth + 1, f"arithmetic on ${name}")
        return Arithmetic(value, self.env, self.opaque, self.depth + 1).run()

    def _note(self, name):
        if name not in self.opaque:
            self.opaque.append(name)

    def store(self, name, value):
        if self.noeval:
            return
        if isinstance(self.env.get(name), dict):
            self.store_element(name, 0, value)  # an array's name stands for its element 0
            return
        if self.unsure is not None:
            value = Opaque(f"${name}")  # assigned or not, as the unknown condition goes
        self.env.set(name, str(value) if _known(value) else value)

    def binop(self, op, a, b, at):
        """``a op b``; ``at`` is the operator's token (bash's message about a division by 0
        points after it), -1 for an assignment's (its message points at the current token)."""
        if not _known(a):
            return a
        if not _known(b):
            return b
        if op == "/" or op == "%":
            if b == 0:
                if self.noeval:
                    return 0
                if self.unsure is not None:
                    # an error only if the side runs: the value, and whether the line goes on, unknown
                    failure = Opaque(f"whether `{_shown(self.text)}` divides by 0")
                    self._note(failure.name)
                    return failure
                self.fail("division by 0", at + 1 if at >= 0 else -1)
            quotient = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                quotient = -quotient
            return _wrap(quotient) if op == "/" else _wrap(a - b * quotient)
        if op == "**":
            if b < 0:
                self.fail("exponent less than 0")  # bash says so on a side it does not take, too
            return _wrap(pow(a, b, 1 << 64))
        if op == "<<":
            return _wrap(a << (b & 63))
        if op == ">>":
            return a >> (b & 63)
        if op == "+":
            return _wrap(a + b)
        if op == "-":
            return _wrap(a - b)
        if op == "*":
            return _wrap(a * b)
        if op == "&":
            return _wrap(a & b)
        if op == "|":
            return _wrap(a | b)
        if op == "^":
            return _wrap(a ^ b)
        if op == "==":
            return int(a == b)
        if op == "!=":
            return int(a != b)
        if op == "<":
            return int(a < b)
        if op == ">":
            return int(a > b)
        if op == "<=":
            return int(a <= b)
        return int(a >= b)  # >=


def _known(value) -> bool:
    return not isinstance(value, Opaque)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_"


def _number(tok: str, text: str) -> int:
    """The value of the number token ``tok``; ``text`` is the expression up to its end
    (bash's message shows no more of it)."""
    if "#" in tok:
        base_text, digits = tok.split("#", 1)
        base = int(base_text)
        if not 2 <= base <= 64:
            raise ArithError(f"{_shown(text)}: invalid arithmetic base (error token is \"{tok}\")")
    elif tok[:2] in ("0x", "0X"):
        base, digits = 16, tok[2:]
    elif tok.startswith("0") and len(tok) > 1:
        base, digits = 8, tok[1:]
    else:
        base, digits = 10, tok
    value = 0
    for ch in digits:
        if base <= 36:
            d = _DIGITS.find(ch.lower()) if ch.isalpha() else _DIGITS.find(ch)
        else:
            d = _DIGITS.find(ch)
        if d < 0 or d >= base:
            raise ArithError(f"{_shown(text)}: value too great for base (error token is \"{tok}\")")
        value = value * base + d
    return _wrap(value)


def arithmetic(text: str, env: Env) -> Union[int, Opaque]:
    """Evaluate arithmetic expression text over env (assignments inside change env)."""
    return Arithmetic(text, env, []).run()


# ---------------------------------------------------------------- the expander

# A piece of an expanded word: (text, quoted, split). `split` marks unquoted
# expansion results, which alone undergo word splitting; quoted text is never
# a glob. _BREAK separates the elements of "$@"; _BREAK_SOFT those of an
# unquoted $@, where empty elements disappear.
_BREAK = ("", True, "break")
_BREAK_SOFT = ("", False, "break")
_STARTED = ("", True, False)


# What the budget counts for one piece of a word besides its characters.
PIECE_BYTES = 32


def comments_alone(part: "S.CmdSub") -> bool:
    """Whether ``part`` is a backtick body of comments alone: bash runs its text as it stands,
    in a subshell that exits 0, where it runs nothing for a blank one and reads ``$( # … )``
    back as an empty command (measured: ``echo "`false``#`$?"`` prints 0, a `$(#…)` body 1)."""
    return part.backtick and not part.script.chunks and part.script.error is None and \
        part.script.source.strip(" \t\n") != ""


class Expander:
    """The expansion of one command's words over an Env: collects the opaque names
    met and the command substitutions run (the evaluator records both)."""

    def __init__(self, env: Env):
        self.env = env
        self.opaque: list = []
        self.substitutions: list = []
        self.in_document = False  # expanding a here-document body
        self.in_quotes = 0  # how many double quotes the part being expanded is inside

    def note(self, name: str):
        if name not in self.opaque:
            self.opaque.append(name)

    def opaque_text(self, value: Opaque) -> Partial:
        self.note(value.name)
        return unknown_text(value)

    # -- whole words ----------------------------------------------------

    def expand(self, word, context: Context = ARGV) -> list:
        """What one word (a here-document, in HEREDOC_BODY) becomes in ``context``: its
        fields, or one string when the context does not split (see ``expand``)."""
        if context.quoted:
            return [self.document(word)]
        if type(word) is _BraceRefusedWord and context.brace:
            raise brace_refusal(word)
        if context is ARRAY_ELEMENTS:
            return self.array_element(word)
        if context is DECLARATION_ARGUMENT and looks_like_assignment(word.parts):
            return self.declaration_assignment(word)
        if not context.split:
            return [self.word_text(word, context.tilde)]
        out = self.word_fields(word, context)
        if context.one_field and len(out) != 1:
            raise AmbiguousWord(len(out))
        return out

    def word_fields(self, word: "S.Word", context: Context = ARGV) -> list:
        parts = word.parts
        if len(parts) == 1:
            # fast path: a plain literal or a single-quoted string expands to itself
            part = parts[0]
            kind = type(part)
            if kind is _Lit and not _SPECIAL_LITERAL.search(part.text) or kind is _SingleQuoted:
                text = part.text
                if len(text) > 64:
                    self.env.meter.build(PIECE_BYTES + len(text), "words")  # as Expander.parts
                return [text]
        text = _literal_word(parts, self.env.meter)
        if text is not None:
            return [text]
        if context.brace and _braces_in_brackets(parts):
            return [self.opaque_text(Opaque("a $[…] holding a brace, which bash's brace expansion reaches into"))]
        expansions = brace_expand(parts, self.env.meter) if context.brace else [list(parts)]
        braced = len(expansions) > 1 or len(expansions[0]) != len(parts)
        return self.fields_of(expansions, braced, context)

    def fields_of(self, expansions: list, braced: bool, context: Context) -> list:
        """Tilde, parameter/command/arithmetic expansion, splitting and globbing of the
        part lists brace expansion made of one word."""
        tilde = context.tilde
        if braced and tilde == TILDE_WORD:
            tilde = TILDE_START  # a word made by brace expansion is no longer assignment-like
        out = []
        for parts in expansions:
            parts = self.tilde(parts, tilde)
            pieces = self.parts(parts, quoted=False)
            if self.suppresses_splitting(parts):
                pieces = [(t, q, False if sp is True else sp) for t, q, sp in pieces]
            glob = context.glob
            for chars in self.split(pieces):
                if glob:
                    out.extend(self.glob(chars))
                else:
                    out.append(concat([text for text, _ in chars]))
        return out

    def declaration_assignment(self, word: "S.Word") -> list:
        """A ``name=value`` argument of a declaration builtin: taken like an assignment
        (one field, tilde after ``=`` and ``:``) unless brace expansion makes it several
        words, which are then argv words (`declare {a,b}=$x` splits $x)."""
        expansions = brace_expand(word.parts, self.env.meter)
        if len(expansions) > 1 or len(expansions[0]) != len(word.parts):
            return self.fields_of(expansions, True, ARGV)
        return [self.word_text(word, TILDE_WORD)]

    def array_element(self, word: "S.Word") -> list:
        """The elements one word of ``name=(…)`` makes: strings, or ``(index, append, text)``
        for ``[k]=v`` / ``[k]+=v``, whose value is neither split nor globbed."""
        expansions = brace_expand(word.parts, self.env.meter)
        first = word.parts[0] if word.parts else None
        if len(expansions) == 1 and isinstance(first, S.Lit) and first.text.startswith("["):
            match = _ELEMENT_INDEX.match(first.text)
            if match is None:
                if "]" in "".join(p.text for p in word.parts if isinstance(p, S.Lit)):
                    raise _UnmodelledArray("a subscript built by an expansion")
            else:
                rest = S._drop_prefix(word, len(match.group(0).encode("utf-8", "surrogateescape")))
                sub = Arithmetic(match.group(1), self.env, []).run()
                if not isinstance(sub, int) or sub < 0:
                    raise _UnmodelledArray("a subscript not statically known")
                return [(sub, bool(match.group(2)), self.word_text(rest, TILDE_VALUE))]
        braced = len(expansions) > 1 or len(expansions[0]) != len(word.parts)
        return self.fields_of(expansions, braced, ARRAY_ELEMENTS)

    def assignment(self, node: "S.Assignment"):
        """The value ``name=word`` or ``name=(…)`` assigns: a string, a tuple of array
        elements (see ``array_element``), or an Opaque when any of it is unknown."""
        if node.array is not None:
            refuse_braces(node.array, ARRAY_ELEMENTS)
            try:
                value = tuple(item for word in node.array for item in self.array_element(word))
            except _UnmodelledArray:
                return Opaque(f"${node.name}")
            known = not has_opaque([item if isinstance(item, str) else item[2] for item in value])
        elif node.value is None:
            return ""
        else:
            value = self.word_text(node.value, TILDE_VALUE)
            known = not has_opaque(value)
        return value if known else Opaque(f"${node.name}")

    def document(self, heredoc: "S.Heredoc") -> str:
        """The body a here-document delivers: raw when its delimiter is quoted, else
        expanded as inside double quotes (nothing split, globbed or tilde-expanded)."""
        if heredoc.quoted:
            return heredoc.raw + _LAST_NEWLINE if _unended_line(heredoc) else heredoc.raw
        if _unended_line(heredoc) and isinstance(heredoc.parts[-1], S.Lit) and heredoc.parts[-1].text.endswith("\\"):
            return self.opaque_text(BACKSLASH_AT_END_DOCUMENT)
        broken = unexpandable_in_document(heredoc)
        if broken and joined_before_failure(heredoc):
            return self.opaque_text(UNJOINED_DOCUMENT)
        if not broken and misread_in_document(heredoc):
            return self.opaque_text(SPECIAL_WORD_DOCUMENT)
        if broken:
            self.parts(expanded_before_failure(heredoc), quoted=True)  # what runs before it stops
            raise UnexpandableDocument(unexpandable_document_error(broken))
        self.in_document = True
        try:
            body = self.join_pieces(self.parts(heredoc.parts, quoted=True))
        finally:
            self.in_document = False
        return concat((body, _LAST_NEWLINE)) if _unended_line(heredoc) else body

    def suppresses_splitting(self, parts) -> bool:
        """bash 5.2 does not split a word whose last unquoted expansion is followed by a
        literal ``$`` (``$x$``, ``$x$.``) or an unset ``$!``, unless ``"$@"`` or an
        unquoted ``$@``/``$*`` appears in the word. Measured against bash, not documented."""
        for part in parts:
            if isinstance(part, _Lit) and "$" in part.text or isinstance(part, _Param) and part.name == "!":
                break
        else:
            return False  # most words: no literal `$` and no `$!`, so nothing to suppress it
        flag = False
        for part in parts:
            if isinstance(part, S.DoubleQuoted):
                if any(isinstance(p, S.Param) and (p.name == "@" or p.index == "@") for p in part.parts):
                    return False  # with "$@" in the word, bash splits as usual
            elif isinstance(part, S.Param) and (part.name in "@*" or part.index in ("@", "*")):
                return False  # likewise with an unquoted $@ or $*
            if isinstance(part, S.Lit):
                if "$" in part.text:
                    flag = True
            elif isinstance(part, S.Param) and part.name == "!" and part.op is None and \
                    self.env.last_bg is None:
                flag = True
            elif isinstance(part, (S.Param, S.CmdSub, S.Arith)):
                flag = False
        return flag

    def word_text(self, word: "S.Word", tilde: str = TILDE_START) -> str:
        """One word as one string: tilde as ``tilde`` says, no brace expansion, no
        splitting, no globbing; the fields of ``"$@"`` joined by spaces."""
        return self.parts_text(word.parts, tilde)

    def parts_text(self, parts, tilde: str = TILDE_START) -> str:
        """``word_text`` of a word's parts."""
        pieces = self.parts(self.tilde(list(parts), tilde), quoted=False)
        return self.join_pieces(pieces, glue=" ")

    def join_pieces(self, pieces: list, glue: str = " ") -> str:
        return concat(glue if split == "break" else text for text, quoted, split in pieces)

    # -- tilde ----------------------------------------------------------

    def tilde(self, parts: list, mode: str) -> list:
        """Tilde expansion as ``mode`` says (TILDE_…): at the word start; after ``=`` and
        each ``:`` in assignment-like words (``x=~/q``); after each ``:`` in values. A
        tilde-prefix that runs into a quoted or expanded part (``~"u"``, ``~$x``) is
        left alone, as bash does."""
        if mode == TILDE_NONE or not parts:
            return list(parts)
        parts = _merge_literals(parts)
        for part in parts:
            if isinstance(part, _Lit) and "~" in part.text:
                break
        else:
            return parts  # most words: no tilde-prefix anywhere
        value_only = mode == TILDE_VALUE
        assignment_like = mode == TILDE_WORD and looks_like_assignment(parts)
        colon_rule = assignment_like or value_only
        stops = "/:"  # bash ends a tilde-prefix at `:` too, in any word
        out = []
        after_eq = value_only
        for k, part in enumerate(parts):
            if not isinstance(part, S.Lit):
                out.append(part)
                continue
            text = part.text
            if k == 0:
                starts = [0]
                if assignment_like and not value_only:
                    starts.append(text.index("=") + 1)
            else:
                starts = []
            if colon_rule:
                first_colon = 0
                if assignment_like and not value_only and k == 0:
                    first_colon = text.index("=")
                colon = text.find(":", first_colon)
                while colon >= 0:
                    starts.append(colon + 1)
                    colon = text.find(":", colon + 1)
            if not after_eq and not starts:
                out.append(part)
                continue
            pos = 0
            pieces = []
            for start in sorted(set(starts)):
                if start < pos or start >= len(text) or text[start] != "~":
                    continue
                end = start + 1
                while end < len(text) and text[end] not in stops:
                    end += 1
                if not colon_rule:
                    slash = text.find("/", start)
                    prefix = text[start:slash if slash >= 0 else len(text)]
                    if ":" in prefix or "=" in prefix:
                        # bash's tilde code treats such words in ways not modelled here
                        self.note(f"tilde expansion of {prefix}")
                        continue
                if end == len(text) and k != len(parts) - 1:
                    continue  # the tilde-prefix runs into the next part: no expansion
                home = self.tilde_value(text[start + 1:end])
                if home is None:
                    continue
                if start > pos:
                    pieces.append(S.Lit(text[pos:start], part.start, part.end))
                pieces.append(home)
                pos = end
            if pieces:
                if pos < len(text):
                    pieces.append(S.Lit(text[pos:], part.start, part.end))
                out.extend(pieces)
            else:
                out.append(part)
        return out

    def tilde_value(self, user: str):
        env = self.env
        if user == "":
            home = env.get("HOME")
            if home is None and not env.files.host:
                return _OpaquePart(Opaque("~ (the user database is not read)"))
            if home is None:
                try:
                    home = pwd.getpwuid(os.getuid()).pw_dir
                except KeyError:
                    return None
        elif user == "+":
            home = env.get("PWD")
        elif user == "-":
            home = env.get("OLDPWD")
        elif not env.files.host:
            return _OpaquePart(Opaque(f"~{user} (the user database is not read)"))
        else:
            try:
                home = pwd.getpwnam(user).pw_dir
            except KeyError:
                return None
        if home is None:
            return None
        if isinstance(home, Opaque):
            return _OpaquePart(home)
        # the result of tilde expansion is not split or globbed
        return S.SingleQuoted(home if isinstance(home, str) else "", 0, 0)

    # -- parts → pieces ---------------------------------------------------

    def parts(self, parts, quoted: bool) -> list:
        pieces = []
        for part in parts:
            self.part(part, quoted, pieces)
        if len(pieces) > 1 or (pieces and len(pieces[0][0]) > 64):
            # what joining or splitting these pieces will build, paid before it is built
            # (each piece, and the field it may become, costs some bytes beside its text)
            size = PIECE_BYTES * len(pieces)
            for piece in pieces:
                size += len(piece[0])
            self.env.meter.build(size, "words")
        return pieces

    def part(self, part, quoted: bool, pieces: list):
        if isinstance(part, _Lit):
            pieces.append((part.text, quoted, False))
        elif isinstance(part, _DoubleQuoted):
            self.in_quotes += 1
            try:
                inner = self.parts(part.parts, True)
            finally:
                self.in_quotes -= 1
            if _vanishing_at(part.parts, inner, self):
                return  # its empty quoted pieces must not start a field either
            pieces.append(_STARTED)
            pieces.extend(inner)
        elif isinstance(part, _Param):
            self.param(part, quoted, pieces)
        elif isinstance(part, _Escaped):
            pieces.append((part.char, True, False))
        elif isinstance(part, (_SingleQuoted, _AnsiC)):
            pieces.append((part.text, True, False))
        elif isinstance(part, _CmdSub):
            self.add_value(self.command_substitution(part), quoted, pieces)
        elif isinstance(part, _Arith):
            self.add_value(self.arith(part), quoted, pieces)
        elif isinstance(part, _ProcSub):
            # the path of the pipe bash names in the word, where the shell's model follows it
            hook = getattr(self.env, "process_substitution", None)
            path = hook(part) if hook is not None else None
            self.add_value(Opaque("process substitution") if path is None else path, quoted, pieces)
        elif isinstance(part, _OpaquePart):
            pieces.append((self.opaque_text(part.value), True, False))
        else:
            raise TypeError(f"not a word part: {part!r}")

    def add_value(self, value, quoted: bool, pieces: list):
        if isinstance(value, Opaque):
            pieces.append((self.opaque_text(value), True, False))
        else:
            pieces.append((value, quoted, not quoted))

    def command_substitution(self, part: "S.CmdSub") -> Value:
        self.env.meter.step(1, "command substitution")
        result = self.env.substitute(part.script, self.env.copy())
        if comments_alone(part):
            result = replace(result, status=0)
        # bash sets $? as soon as a substitution ends: later expansions of the same command see it
        self.env.status = result.status
        for name in result.opaque:
            self.note(name)
        self.substitutions.append((part, result))
        if isinstance(result.stdout, Opaque):
            return result.stdout
        # bash drops NUL bytes from the output, then all trailing newlines
        return result.stdout.replace("\0", "").rstrip("\n")

    def arith(self, part: "S.Arith") -> Value:
        value = self.arith_value(part.parts)
        return value if isinstance(value, Opaque) else str(value)

    def arith_value(self, parts) -> Union[int, Opaque]:
        """An arithmetic expression (``$((…))``, ``((…))``): its parts expanded as inside
        double quotes, then evaluated; Opaque when any part is unknown."""
        return self.arith_of(self.arith_text(parts))

    def arith_text(self, parts):
        """The text of an arithmetic expression: its parts expanded as inside double quotes."""
        parts = _single_quotes_kept(parts, self.in_quotes or self.in_document)
        if self.in_document and any(type(part) is _DoubleQuoted and part.locale for part in parts):
            # in a here-document bash reads $"1" there as the text $1 (measured: its syntax error)
            raise UnfollowedExpansion('$"…" in an arithmetic expression of a here-document')
        return self.join_pieces(self.parts(parts, quoted=True))

    def arith_of(self, text) -> Union[int, Opaque]:
        """The value of an expression's expanded text (ArithError when bash refuses it)."""
        if has_opaque(text):
            return Opaque(f"$(({text}))")
        opaque: list = []
        value = Arithmetic(text, self.env, opaque).run()
        for name in opaque:
            self.note(name)
        return value

    # -- parameters -------------------------------------------------------

    def lookup(self, p: "S.Param"):
        """The raw value: str, list (for @/* forms), Opaque, or None when unset."""
        env = self.env
        name = p.name
        if name.isdigit():
            n = int(name)
            if n == 0:
                return _whole(env.arg0, "$0")
            return _whole(env.positional[n - 1], "$" + name) if n <= len(env.positional) else None
        if name in ("@", "*"):
            items = [_whole(item, f"${n}") for n, item in enumerate(env.positional, 1)]
            # in a here-document body bash 5.2 joins $* with spaces whatever IFS is (measured)
            return _Many(items, name == "*", " " if self.in_document else None)
        if name == "#":
            if any(isinstance(p, Opaque) for p in env.positional):
                return Opaque("$#")
            return str(len(env.positional))
        if name == "?":
            return env.status if isinstance(env.status, Opaque) else str(env.status)
        if name == "-":
            return env.flags
        if name == "$":
            return Opaque("$$") if env.pid is None else env.pid()
        if name == "!":
            return env.last_bg
        value = env.get(name)
        if p.index is not None:
            index = p.index
            if index in ("@", "*"):
                if value is None:
                    return _Many([], index == "*")
                if isinstance(value, Opaque):
                    return value  # an unknown value may be an array of any length
                if isinstance(value, dict):
                    return _Many([value[k] for k in sorted(value)], index == "*")
                return _Many([value], index == "*")
            sub = self.arith_index(index)
            if isinstance(sub, Opaque):
                return sub
            if isinstance(value, Opaque):
                return value  # an unknown value may be an array holding that element
            if isinstance(value, dict):
                if sub < 0:
                    sub += (max(value) + 1) if value else 0
                return value.get(sub)
            return value if sub == 0 else None
        if isinstance(value, dict):
            return value.get(0)
        return value

    def arith_index(self, text: str):
        """The value of an indexed array's subscript (ArithError when bash refuses it)."""
        if EXPANDING_SUBSCRIPT.search(text) is None:
            return Arithmetic(text, self.env, self.opaque).run()
        return self.arith_of(self.subscript_text(text))

    def subscript_text(self, text: str):
        """A subscript expanded as bash expands it before evaluating it."""
        expr = _subscript_expression(text)
        if expr is None:
            raise UnfollowedExpansion(f"the subscript [{text}]")
        return self.arith_text(expr.parts)

    def param(self, p: "S.Param", quoted: bool, pieces: list):
        if p.op == "bad substitution":
            raise ExpansionError(f"${{{p.name}}}: bad substitution")
        if quoted and p.op in _DEFAULT_OPS and p.arg is not None and _rereads_ansi_c(p):
            # bash decodes $'…' in the word of a double-quoted ${x:-…} as it reads the script,
            # and reads the decoded text again as part of the ${…}, whether or not the word
            # is used: a decoded quote is its bad substitution ("${TERM:-$'\x27'}" with TERM
            # set, measured)
            raise UnfollowedExpansion("$'…' in the word of a quoted ${…}, which bash reads again")
        if p.op == "names@" or p.op == "names*":
            names = sorted(n for n in self.env.vars if n.startswith(p.name))
            return self.emit(_Many(names, p.op == "names*"), quoted, pieces)
        if p.indirect and p.index in ("@", "*"):
            value = self.env.get(p.name)
            if isinstance(value, Opaque):
                return self.emit(Opaque(value.name), quoted, pieces)
            keys = [str(k) for k in sorted(value)] if isinstance(value, dict) else \
                ([] if value is None else ["0"])
            return self.emit(_Many(keys, p.index == "*"), quoted, pieces)
        value = self.lookup(p)
        if p.indirect:
            value = self.indirect(value, p.name)
        elif value is None and p.op not in _DEFAULT_OPS and "u" in self.env.flags and \
                p.index not in ("@", "*"):
            raise unbound(p.name if p.index is None else f"{p.name}[{p.index}]")
        if p.length:
            if isinstance(value, _Many):
                return self.emit(str(len(value.items)), quoted, pieces)
            if isinstance(value, Opaque):
                return self.emit(Opaque(value.name), quoted, pieces)
            return self.emit(str(self.length(value or "")), quoted, pieces)
        op = p.op
        if op in _DEFAULT_OPS:
            return self.default_op(p, value, quoted, pieces)
        if value is None:
            return self.emit("", quoted, pieces)
        if op is None:
            return self.emit(value, quoted, pieces)
        if isinstance(value, Opaque):
            self.parts_for_side_effects(p)
            return self.emit(value, quoted, pieces)
        if isinstance(value, _Many):
            if op == ":":
                items = self.slice_many(p, value)
            else:
                items = [self.apply_op(p, item) for item in value.items]
            return self.emit(_Many(items, value.star, value.glue), quoted, pieces)
        return self.emit(self.apply_op(p, value), quoted, pieces)

    def parts_for_side_effects(self, p):
        for word in (p.arg, p.arg2):
            if word is not None:
                self.parts(word.parts, quoted=True)

    def indirect(self, value, name=""):
        if value is None:
            raise ExpansionError(f"{name}: invalid indirect expansion")
        if isinstance(value, _Many):
            if isinstance(value, _Many):
                value = " ".join(value.items) if value.items else None
            if value is None:
                return None
        if isinstance(value, Opaque):
            return value
        match = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[(.*)\])?", value, re.S)
        if not match:
            raise ExpansionError(f"{value}: invalid indirect expansion")
        return self.lookup(S.Param(match.group(1), match.group(2), False, False, None, None, None,
                                   True, 0, 0))

    def length(self, value: str) -> int:
        if self.env.locale_is_c:
            return len(value.encode("utf-8", "surrogateescape"))
        return len(value)

    def emit(self, value, quoted: bool, pieces: list):
        if isinstance(value, Opaque):
            pieces.append((self.opaque_text(value), True, False))
        elif isinstance(value, _Many):
            if value.star and quoted:
                if value.glue is not None:
                    ifs = self.env.ifs()
                    blanks = set(" \t\n") | (set(ifs) if isinstance(ifs, str) else set())
                    if isinstance(ifs, Opaque) or any(not isinstance(item, str) or blanks.intersection(item)
                                                      for item in value.items):
                        # there bash may also split them at IFS characters and squeeze blanks,
                        # depending on IFS and the locale (measured, not modelled)
                        pieces.append((self.opaque_text(Opaque("$* in a here-document body")), True, False))
                        return
                    sep = value.glue
                else:
                    sep = self.env.ifs()
                    sep = self.opaque_text(sep) if isinstance(sep, Opaque) else sep[:1]
                joined = []
                for n, item in enumerate(value.items):
                    if n:
                        joined.append(sep)
                    joined.append(self.opaque_text(item) if isinstance(item, Opaque) else item)
                pieces.append((concat(joined), True, False))
                return
            for n, item in enumerate(value.items):
                if n:
                    pieces.append(_BREAK if quoted else _BREAK_SOFT)
                if isinstance(item, Opaque):
                    pieces.append((self.opaque_text(item), True, False))
                else:
                    pieces.append((item, quoted, "many" if not quoted else False))
        else:
            pieces.append((value, quoted, not quoted))

    def default_op(self, p, value, quoted, pieces):
        op = p.op
        if isinstance(value, Opaque):
            # whether an opaque value is empty is unknown
            pieces.append((self.opaque_text(value), True, False))
            return
        if isinstance(value, _Many):
            is_null = not value.items or (op.startswith(":") and all(v == "" for v in value.items)
                                          and (len(value.items) == 1 or value.star and quoted))
            is_unset = not value.items
        else:
            is_unset = value is None
            is_null = is_unset or value == ""
        missing = is_null if op.startswith(":") else is_unset
        base = op.lstrip(":")
        if base == "+":
            if not missing:
                pieces.extend(self.operand(p.arg, quoted))
            return
        if not missing:
            return self.emit(value, quoted, pieces)
        if base == "-":
            pieces.extend(self.operand(p.arg, quoted))
            return
        if base == "=":
            if not _NAME.fullmatch(p.name) or p.index in ("@", "*"):
                raise ExpansionError(f"${p.name}: cannot assign in this way")
            if quoted:
                new = self.join_pieces(self.operand(p.arg, True))
            else:
                new = self.word_text(p.arg)
            stored = Opaque(f"${p.name}") if has_opaque(new) else new
            if p.index is not None:
                sub = self.arith_index(p.index)
                current = self.env.get(p.name)
                array = dict(current) if isinstance(current, dict) else \
                    ({0: current} if isinstance(current, str) else {})
                array[sub] = stored
                self.env.set(p.name, array)
            else:
                self.env.set(p.name, stored)
            return self.emit(new, quoted, pieces)
        if base == "?":
            message = self.word_text(p.arg) if p.arg is not None and p.arg.parts else (
                "parameter null or not set" if op.startswith(":") else "parameter not set")
            raise ExpansionError(f"{p.name}: {message}", status=127, fatal=True)

    def operand(self, word, quoted: bool) -> list:
        """The word of ``${x:-w}``/``${x:+w}``: unquoted, its text is split like any expansion."""
        if quoted:
            out = []
            for part in word.parts:
                if isinstance(part, S.SingleQuoted) and ("$(" in part.text or "${" in part.text or
                                                         "`" in part.text):
                    # bash reads a substitution there as it expands the word, and one that does
                    # not parse abandons the line (measured: "${x-'$(a'}"): not followed
                    raise UnfollowedExpansion(f"'{part.text}' in a double-quoted ${{…}} word")
                if isinstance(part, S.SingleQuoted) and any(c in part.text for c in "$`\\"):
                    # the quotes stay, but bash expands what they hold there (measured:
                    # "${x-'$HOME'}" is '/home/…'); that expansion is not modelled
                    out.append((self.opaque_text(Opaque(f"'{part.text}' in a double-quoted ${{…}} word")),
                                True, False))
                elif isinstance(part, S.SingleQuoted):
                    # inside double quotes, single quotes in the word are literal
                    out.append(("'" + part.text + "'", True, False))
                elif isinstance(part, S.Escaped) and part.char not in '$`"\\}\n':
                    # and a backslash stays before a character it does not quote there
                    out.append(("\\" + part.char, True, False))
                elif isinstance(part, S.AnsiC) and (self.in_document or _REREAD.search(part.text)):
                    # in a here-document $'…' stays as it is; in double quotes bash decodes it and
                    # reads the result again as the word's text ("${x-$'\x24HOME'}" is /home/…,
                    # a decoded quote its bad substitution: measured): not followed
                    out.append((self.opaque_text(Opaque(f"$'…' in the word of a quoted ${{…}}")), True, False))
                elif isinstance(part, S.DoubleQuoted) and (part.locale and self.in_document or any(
                        isinstance(inner, S.Lit) and "\\" in inner.text for inner in part.parts)):
                    # bash 5.2 drops a backslash before any character in double quotes nested
                    # there ("${x-"a\ b"}" is `a b`), and reads $"…" in a here-document its own
                    # way (measured): not followed
                    out.append((self.opaque_text(Opaque(f"a nested \"…\" in the word of a quoted ${{…}}")),
                                True, False))
                else:
                    self.part(part, True, out)
            return out
        parts = self.tilde(list(word.parts), TILDE_START)
        return [(text, q, True if (split is False and not q) else split)
                for text, q, split in self.parts(parts, quoted=False)]

    def apply_op(self, p, value: str):
        op = p.op
        if isinstance(value, Opaque):
            return value
        if op in ("#", "##", "%", "%%"):
            pat = self.pattern_of(p.arg)
            if pat.opaque:
                return Opaque(f"${{{p.name}{op}…}}")
            return _remove(value, pat, op)
        if op in ("/", "//", "/#", "/%"):
            pat = self.pattern_of(p.arg)
            if pat.opaque:
                return Opaque(f"${{{p.name}{op}…}}")
            rep = self.replacement(p.arg2)
            if has_opaque([text for text, _ in rep]):
                return Opaque(f"${{{p.name}{op}…}}")
            return _replace(value, pat, rep, op)
        if op in ("^^", "^", ",,", ",", "~~", "~"):
            pat = self.pattern_of(p.arg) if p.arg is not None and p.arg.parts else None
            if pat is not None and pat.opaque:
                return Opaque(f"${{{p.name}{op}…}}")
            return _case(value, op, pat)
        if op == ":":
            return self.substring(value, p)
        if op.startswith("@"):
            return self.transform(value, op[1], p)
        raise ExpansionError(f"${{{p.name}{op}}}: bad substitution")

    def substring(self, value: str, p):
        offset, length = self.slice_bounds(p)
        if isinstance(offset, Opaque) or isinstance(length, Opaque):
            return Opaque(f"${{{p.name}:…}}")
        c_locale = self.env.locale_is_c
        data = value.encode("utf-8", "surrogateescape") if c_locale else value
        size = len(data)
        if offset < 0:
            offset += size
            if offset < 0:
                return ""
        if offset > size:
            return ""
        if length is None:
            end = size
        elif length < 0:
            end = size + length
            if end < offset:
                raise _negative_length(p)
        else:
            end = min(size, offset + length)
        out = data[offset:end]
        return out.decode("utf-8", "surrogateescape") if c_locale else out

    def slice_bounds(self, p):
        """A substring's offset and length (None when not given). bash names the parameter
        in an error of either expression (`x: 1/0: division by 0`, measured)."""
        quoted = self.in_quotes or self.in_document
        try:
            offset_text = self.parts_text(_single_quotes_kept(p.arg.parts, quoted)) if p.arg is not None else ""
            if has_opaque(offset_text):
                return Opaque(f"${{{p.name}:{offset_text}}}"), None
            offset = Arithmetic(offset_text, self.env, self.opaque).run() if offset_text.strip() else 0
            length = None
            if p.arg2 is not None:
                length_text = self.parts_text(_single_quotes_kept(p.arg2.parts, quoted))
                if has_opaque(length_text):
                    return offset, Opaque(f"${{{p.name}:…:{length_text}}}")
                length = Arithmetic(length_text, self.env, self.opaque).run() if length_text.strip() else 0
        except ArithError as exc:
            shown = ("!" if p.indirect else "") + (p.name if p.index is None else f"{p.name}[{p.index}]")
            raise ArithError(f"{shown}: {exc.message}", exc.status, exc.fatal) from None
        return offset, length

    def slice_many(self, p, value: "_Many") -> list:
        offset, length = self.slice_bounds(p)
        if isinstance(offset, Opaque) or isinstance(length, Opaque):
            return [Opaque(f"${{{p.name}:…}}")]
        items = list(value.items)
        if p.name in ("@", "*"):
            items = [self.env.arg0] + items  # ${@:0} starts at $0
        if offset < 0:
            offset += len(items)
            if offset < 0:
                return []
        if length is not None and length < 0:
            raise _negative_length(p)
        end = len(items) if length is None else offset + length
        return items[offset:end]

    def transform(self, value: str, letter: str, p):
        if letter == "Q":
            return quote_for_reuse(value)
        if letter == "E":
            return S.decode_ansi_c(value)
        if letter == "U":
            return _case(value, "^^", None)
        if letter == "u":
            return _case(value, "^", None)
        if letter == "L":
            return _case(value, ",,", None)
        if letter in "aA":
            return self.attributes(value, letter, p)
        if letter == "K":
            return quote_for_reuse(value)
        if letter == "k":
            return quote_for_reuse(value)
        return Opaque(f"${{{p.name}@{letter}}}")

    def attributes(self, value: str, letter: str, p):
        """``${name@a}``: the attributes bash lists (array, readonly, exported, in its order);
        ``${name@A}``: an assignment that would make the variable again. A variable bash sets
        for itself may carry others (UID: ir) and a prefix assignment exports for the command
        alone: not followed."""
        name, env = p.name, self.env
        if name in _BASH_OWN or name.startswith("BASH") or not _NAME.fullmatch(name):
            return Opaque(f"${{{name}@{letter}}}")
        var = env.vars.get(name)
        array = var is not None and isinstance(var.value, dict)
        found = ("a" if array else "") + ("r" if name in env.readonly else "") + \
            ("x" if var is not None and var.exported else "")
        if letter == "a":
            return found
        if array:
            return Opaque(f"${{{name}@A}}")  # (declare -a, an element's value as its own)
        return f"declare -{found} {name}={quote_for_reuse(value)}" if found else f"{name}={quote_for_reuse(value)}"

    # -- patterns -------------------------------------------------------

    def pattern_chars(self, pieces: list) -> list:
        """(char, active) pairs: unquoted pattern characters are active, quoted ones literal."""
        chars = []
        for text, quoted, split in pieces:
            if split == "break":
                chars.append((" ", False))
                continue
            for ch in text:
                chars.append((ch, not quoted))
        return chars

    def pattern_of(self, word: Optional["S.Word"], tilde: str = TILDE_START) -> Pattern:
        """A pattern word: tilde-expanded at its start (in a ``case`` or ``[[ ]]`` pattern
        as a word, TILDE_WORD), even inside double quotes, as bash 5.2 does."""
        pieces = self.parts(self.tilde(list(word.parts), tilde), quoted=False) if word is not None else []
        chars = self.pattern_chars(pieces)
        opaque = opaque_names([text for text, _, _ in pieces])
        if (self.env.noglob is None or "extglob" in self.env.globopts) and _extglob_group(chars):
            # under extglob, or after a shopt the model does not follow, `+(…)` may be a group
            opaque = (*opaque, f"the pattern {''.join(ch for ch, _ in chars)} (extglob may be on)")
        return Pattern(chars, opaque, byte_mode=self.env.locale_is_c, meter=self.env.meter)

    def replacement(self, word: Optional["S.Word"]) -> list:
        """The replacement of ``${x/p/r}`` as (text, quoted) pieces; unquoted ``&`` is the match."""
        if word is None:
            return []
        pieces = self.parts(self.tilde(list(word.parts), TILDE_START), quoted=False)
        return [(text, quoted) for text, quoted, split in pieces if split != "break"]

    # -- splitting --------------------------------------------------------

    def split(self, pieces: list) -> list:
        """Word splitting: a list of fields, each a list of (text, quoted) segments."""
        ifs = self.env.ifs()
        if isinstance(ifs, Opaque):
            if any(split and split != "break" and text for text, _, split in pieces):
                return [[(self.opaque_text(ifs), True)]]  # where and how many fields: not known
            ifs = " \t\n"  # nothing here is split
        # in the C locale bash splits at each byte of IFS, inside characters too (measured)
        byte_mode = not ifs.isascii() and self.env.locale_is_c
        if byte_mode:
            ifs = to_bytes(ifs)
        cut = from_bytes if byte_mode else str
        if ifs == " \t\n":
            ws, other = ifs, ""  # the default, nearly always
        else:
            ws = "".join(c for c in ifs if c in " \t\n")
            other = "".join(c for c in ifs if c not in " \t\n")
        fields = []
        cur: list = []
        started = False
        merge = False

        def emit():
            nonlocal cur, started
            fields.append(cur)
            cur = []
            started = False

        for text, quoted, split in pieces:
            if split == "break":
                if quoted or started:
                    emit()
                merge = False
                continue
            if not split or not ifs:
                if text or quoted:
                    cur.append((text, quoted))
                    started = True
                    merge = False
                continue
            buf = []
            for ch in (to_bytes(text) if byte_mode else text):
                if ch in ws:
                    if buf:
                        cur.append((cut("".join(buf)), False))
                        buf = []
                        started = True
                    if started:
                        emit()
                        merge = True
                elif ch in other:
                    if buf:
                        cur.append((cut("".join(buf)), False))
                        buf = []
                        started = True
                    if started:
                        emit()
                    elif merge:
                        pass
                    else:
                        emit()
                    merge = False
                else:
                    buf.append(ch)
                    merge = False
            if buf:
                cur.append((cut("".join(buf)), False))
                started = True
        if started:
            emit()
        return fields

    # -- pathname expansion ----------------------------------------------

    def glob(self, segments: list) -> list:
        for text, quoted in segments:
            if not quoted and (type(text) is not str or "*" in text or "?" in text or "[" in text):
                break
        else:
            return [concat([text for text, _ in segments])]  # most words: no pattern, no list of characters
        chars = [(ch, not quoted) for text, quoted in segments for ch in text]
        text = concat(text for text, _ in segments)
        extglob = "extglob" in self.env.globopts
        if not _glob_pattern(chars, self.env.noglob is None or extglob):
            return [text]  # no pattern to bash: the word stays as it is, whatever the options
        if self.env.noglob:
            return [text]
        if self.env.noglob is None:
            # shell options changed in ways the model does not follow
            return self._unknown_glob(text, f"glob {text}")
        if extglob and _extglob_group(chars):
            return self._unknown_glob(text, f"glob {text} (an extglob group)")
        ignored = None
        if self.env.vars.get("GLOBIGNORE") is not None or self.env.globignore is not None:
            value = self.env.get("GLOBIGNORE")
            if value is not None and type(value) is not str or value != self.env.globignore:
                return self._unknown_glob(text, f"glob {text} (GLOBIGNORE set where the model does not follow it)")
            if value:
                ignored = _ignore_patterns(value, self.env)
                if ignored is None:
                    return self._unknown_glob(text, f"glob {text} (GLOBIGNORE's patterns)")
        if has_opaque(text):
            self.note(f"glob {text}")
            return [text]
        result = self.pathname(chars)
        if result is None:
            files = self.env.files
            why = files.lost or (None if files.host else "this machine's files are not read")
            return self._unknown_glob(text, f"glob {text} ({why})" if why else f"glob {text}")
        if ignored is not None and result:
            if any("/" in name for name in result):
                # bash matches the whole name, where a `*` may reach past a slash: not followed
                return self._unknown_glob(text, f"glob {text} (GLOBIGNORE over names in folders)")
            result = [name for name in result
                      if name != "." and name != ".." and not any(pat.matches(name) for pat in ignored)]
        if not result and "nullglob" in self.env.globopts:
            return []  # nullglob: a pattern that matches nothing is no word at all
        return result or [text]

    def _unknown_glob(self, text, name: str) -> list:
        """A glob whose matches are not known: for a view that stands for the files a run
        changes (``exact_words``), an unknown word (what it matches, even how many words it
        makes, is not known); elsewhere its text, named, as a rewrite shows it."""
        if getattr(self.env.files, "exact_words", False):
            return [self.opaque_text(Opaque(name))]
        self.note(name)
        return [text]

    def pathname(self, chars: list) -> Optional[list]:
        components = []
        current: list = []
        for ch, active in chars:
            if ch == "/":
                components.append(current)
                current = []
            else:
                current.append((ch, active))
        components.append(current)
        absolute = not components[0] and len(components) > 1
        if absolute:
            components = components[1:]
        prefixes = ["/" if absolute else ""]
        globbed = False
        options = self.env.globopts
        dotglob = "dotglob" in options
        stars = [n for n, comp in enumerate(components) if comp == _STARS] if "globstar" in options else []
        if len(stars) > 1:
            return None  # several `**`: bash drops the matches they share, which is not followed
        for n, comp in enumerate(components):
            last = n == len(components) - 1
            has_magic = any(active and ch in "*?[" for ch, active in comp)
            new = []
            if not comp:
                # `a//b` or a trailing slash: keep it; bash matches directories only
                for prefix in prefixes:
                    if not prefix:
                        continue  # (`**/` matches no empty name for the current directory)
                    if globbed:  # after a glob, bash writes one slash however many there are
                        new.append(prefix if prefix.endswith("/") else prefix + "/")
                    else:  # before it, the slashes as written
                        new.append(prefix + "/" if prefix.endswith("/") else prefix + "//")
                prefixes = new
                continue
            if stars and n == stars[0]:
                # globstar's `**`: the folder itself, then every name below it, folders only
                # unless it is the last component; it never enters a symlink, which is not followed
                for prefix in prefixes:
                    if prefix:
                        is_dir = self.is_dir(prefix)
                        if is_dir is None:
                            return None
                        if not is_dir:
                            continue  # (a name before it that is no folder: no match)
                        # (as the last component, bash writes the folder with a slash where
                        # no glob came before it, as it was named: `tree/**` gives `tree/`)
                        new.append(prefix + "/" if last and not globbed and not prefix.endswith("/") else prefix)
                    elif not last:
                        new.append(prefix)
                    if not self._below(prefix, last, dotglob, new):
                        return None
                prefixes = new
                globbed = True
                if not prefixes:
                    return []
                continue
            if has_magic:
                pat = Pattern(comp, pathname=True, byte_mode=self.env.locale_is_c, meter=self.env.meter)
                leading_dot = comp[0][0] == "."
                for prefix in prefixes:
                    names = self.env.list_dir(_folder(prefix), self.env)
                    if names is None:
                        return None
                    self.env.files.listed(os.path.join(self.env.cwd, prefix), pat)
                    for name in names:
                        if name in (".", ".."):
                            continue
                        if name.startswith(".") and not leading_dot and not dotglob:
                            continue
                        if pat.matches(name):
                            if not last:
                                is_dir = self.is_dir(_join(prefix, name))
                                if is_dir is None:
                                    return None
                                if not is_dir:
                                    continue
                            new.append(_join(prefix, name))
                globbed = True
            else:
                name = "".join(ch for ch, _ in comp)
                for prefix in prefixes:
                    if globbed and name in (".", ".."):
                        # bash looks a name without glob characters up (lstat): every folder
                        # holds these two, which no listing shows, where it may be searched
                        if not last:
                            return None  # (bash finds `*/./f`, not `*/../f`: not followed)
                        searchable = self.env.files.file_test("-x", os.path.join(self.env.cwd, prefix))
                        if searchable is None:
                            return None
                        if searchable:
                            new.append(_join(prefix, name))
                        continue
                    if globbed:
                        names = self.env.list_dir(_folder(prefix), self.env)
                        if names is None:
                            return None
                        if name not in names:
                            continue
                    new.append(_join(prefix, name))
            prefixes = new
            if not prefixes:
                return []
        return sorted(prefixes, key=lambda s: s.encode("utf-8", "surrogateescape"))

    def is_dir(self, path: str) -> Optional[bool]:
        return self.env.files.is_dir(os.path.join(self.env.cwd, path))

    def _below(self, prefix: str, files: bool, dotglob: bool, found: list) -> bool:
        """Add to ``found`` the paths below folder ``prefix`` (a glob's prefix, "" for the
        current directory) that globstar's ``**`` matches, in no order: every folder, and every
        other name when ``files``; names starting with a dot only under dotglob. False when a
        listing is not known or a name is a symlink (bash lists one but does not enter it
        below the first level, which is not followed)."""
        env = self.env
        folders = [prefix]
        while folders:
            folder = folders.pop()
            names = env.list_dir(_folder(folder), env)
            if names is None:
                return False
            env.files.listed(os.path.join(env.cwd, folder), None)  # (every name)
            for name in names:
                if name in (".", "..") or name.startswith(".") and not dotglob:
                    continue
                path = _join(folder, name)
                full = os.path.join(env.cwd, path)
                if env.files.file_test("-L", full) is not False:
                    return False
                is_dir = self.is_dir(path)
                if is_dir is None:
                    return False
                if is_dir:
                    env.meter.step()
                    folders.append(path)
                if is_dir or files:
                    found.append(path)
        return True


#: globstar's `**` as a path component
_STARS = [("*", True), ("*", True)]


def _ignore_patterns(value: str, env) -> Optional[list]:
    """GLOBIGNORE's patterns: its value split at the colons outside brackets (pathexp.c's
    setup_ignore_patterns), each matched with no rule for a leading dot. None where the
    split or the match is not followed: a backslash, a colon in a bracket or after an
    unclosed one, an extglob group."""
    if "\\" in value or "(" in value and "extglob" in env.globopts:
        return None
    items, start, i, n = [], 0, 0, len(value)
    while i < n:
        if value[i] == "[":
            j = i + 1
            j += j < n and value[j] in "!^"
            j += j < n and value[j] == "]"  # a `]` first in a bracket is in it
            close = value.find("]", j)
            if ":" in (value[i:close] if close >= 0 else value[i:]):
                return None
            i = close + 1 if close >= 0 else n
            continue
        if value[i] == ":":
            items.append(value[start:i])
            start = i + 1
        i += 1
    items.append(value[start:])
    byte_mode = env.locale_is_c
    return [Pattern([(ch, True) for ch in item], byte_mode=byte_mode, meter=env.meter) for item in items]


def _glob_pattern(chars: list, extglob: bool) -> bool:
    """Whether a word's (char, active) pairs are a pattern to bash (``unquoted_glob_pattern_p``):
    a ``*`` or ``?``, a ``[`` with a ``]`` after it in the same path component, and where
    ``extglob`` may be on, ``+(``, ``@(`` or ``!(``."""
    bracket = False
    for n, (ch, active) in enumerate(chars):
        if not active:
            continue
        if ch in "*?" or ch == "]" and bracket:
            return True
        if ch == "[":
            bracket = True
        elif ch == "/":
            bracket = False
        elif extglob and ch in "+@!" and chars[n + 1:n + 2] == [("(", True)]:
            return True
    return False


def _extglob_group(chars: list) -> bool:
    """Whether (char, active) pairs open an extglob group: an active ``?(``, ``*(``, ``+(``,
    ``@(`` or ``!(``."""
    return any(active and ch in "?*+@!" and after == ("(", True) for (ch, active), after in zip(chars, chars[1:]))


def _folder(prefix: str) -> str:
    """The folder a glob's prefix names, for listing: "" (the current directory) for none."""
    return prefix.rstrip("/") or "/" if prefix else ""


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix + name if prefix.endswith("/") else prefix + "/" + name


@dataclass(frozen=True, slots=True)
class _OpaquePart:
    value: Opaque


def _whole(value, label: str):
    """A stored value with unknown parts (a function's argument) is unknown as a whole
    where it is expanded again: how it splits, globs or measures is not known."""
    if isinstance(value, Partial) and value.spans:
        return Opaque(f"{label} ({', '.join(opaque_names(value))})")
    return value


class _Many:
    """The elements of ``$@``, ``$*``, ``${a[@]}``; ``star`` joins them when quoted,
    with ``glue`` when set (else the first character of IFS)."""

    __slots__ = ("items", "star", "glue")

    def __init__(self, items: list, star: bool, glue: Optional[str] = None):
        self.items = items
        self.star = star
        self.glue = glue


_SPECIAL_LITERAL = re.compile(r"[{~*?\[$]")


def _literal_word(parts, meter) -> Optional[str]:
    """The one field of a word made only of literal text: unquoted text in which nothing
    expands (no brace, tilde, pattern or ``$``), quoted text, escapes, and double quotes
    around text and escapes; None for any other word. ``meter`` is charged what
    expanding the parts one by one charges (``Expander.parts``), so a budget ends
    where it would."""
    texts = []
    charges = []
    pieces = 0  # what Expander.parts would make of the word: one a part, and one a quote
    for part in parts:
        kind = type(part)
        if kind is _Lit:
            if _SPECIAL_LITERAL.search(part.text):
                return None
            texts.append(part.text)
        elif kind is _SingleQuoted or kind is _AnsiC:
            texts.append(part.text)
        elif kind is _Escaped:
            texts.append(part.char)
        elif kind is _DoubleQuoted:
            inner = part.parts
            size = 0
            for sub in inner:
                sub_kind = type(sub)
                if sub_kind is _Lit:
                    text = sub.text
                elif sub_kind is _Escaped:
                    text = sub.char
                else:
                    return None
                texts.append(text)
                size += len(text)
            if len(inner) > 1 or inner and size > 64:
                charges.append(PIECE_BYTES * len(inner) + size)
            pieces += len(inner)  # and its start, counted below
        else:
            return None
        pieces += 1
    if not pieces:
        return None
    word = "".join(texts)
    if pieces > 1 or len(word) > 64:
        charges.append(PIECE_BYTES * pieces + len(word))
    for size in charges:
        meter.build(size, "words")
    return word


def _vanishing_at(parts, pieces, expander=None) -> bool:
    # "$@" (or "${a[@]}") with no elements, alone in its quotes or beside
    # expansions that are empty ("$@$x"), produces no field at all, unlike ""
    # which produces an empty one (measured with bash 5.2).
    has_at = False
    for part in parts:
        if isinstance(part, S.Param):
            if part.op is None and not part.length and (part.name == "@" or part.index == "@"):
                value = expander.lookup(part) if expander is not None else None
                if isinstance(value, _Many) and value.items:
                    return False
                has_at = True
        elif not isinstance(part, (S.CmdSub, S.Arith)):
            return False
    return has_at and all(piece[0] == "" for piece in pieces if piece[2] != "break")


_ASSIGNMENT_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")


def looks_like_assignment(parts) -> bool:
    """Whether a word starts as ``name=``, ``name+=`` or ``name[k]=`` in its own text
    (bash then expands a tilde after ``=`` and ``:``, and a declaration builtin
    takes it as an assignment)."""
    text = []
    for part in parts:
        if not isinstance(part, S.Lit):
            break
        text.append(part.text)
    return _ASSIGNMENT_PREFIX.match("".join(text)) is not None


def _merge_literals(parts) -> list:
    """Parts with neighbouring literals joined (``name=`` and its value may come apart)."""
    out: list = []
    for part in parts:
        if isinstance(part, S.Lit) and out and isinstance(out[-1], S.Lit):
            out[-1] = S.Lit(out[-1].text + part.text, out[-1].start, part.end)
        else:
            out.append(part)
    return out


_ELEMENT_INDEX = re.compile(r"\[([^\]]*)\](\+?)=")


class _UnmodelledArray(Exception):
    """An element of ``name=(…)`` the model does not follow (its subscript is built at run time)."""


# ---------------------------------------------------------------- string operations


def _remove(value: str, pat: Pattern, op: str) -> str:
    if pat.byte_mode:
        return from_bytes(patterns.remove(pat.automaton, to_bytes(value), op, pat.charge))
    return patterns.remove(pat.automaton, value, op, pat.charge)


def _render_replacement(rep: list, match: str) -> str:
    out = []
    for text, quoted in rep:
        if quoted:
            out.append(text)
            continue
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\\" and i + 1 < len(text) and text[i + 1] in "&\\":
                out.append(text[i + 1])
                i += 2
            elif ch == "&":
                out.append(match)
                i += 1
            else:
                out.append(ch)
                i += 1
    return "".join(out)


def _replace(value: str, pat: Pattern, rep: list, op: str) -> str:
    if pat.byte_mode:
        rep = [(to_bytes(text), quoted) for text, quoted in rep]
        return from_bytes(_replace_in(to_bytes(value), pat, rep, op))
    return _replace_in(value, pat, rep, op)


def _replace_in(value: str, pat: Pattern, rep: list, op: str) -> str:
    if not pat.text and op != "/#" and op != "/%":
        return value
    if pat.whole_only:
        # then only a value the whole of which matches is replaced, and wholly
        pat.charge(len(value))
        if not pat.automaton.fullmatch(value):
            return value
        rendered = _render_replacement(rep, value)
        pat.build(len(rendered))
        return rendered
    return patterns.replace(pat.automaton, value, bool(pat.text), lambda match: _render_replacement(rep, match),
                            op, pat.charge, pat.build)


def _case(value: str, op: str, pat: Optional[Pattern]) -> str:
    """``^`` upper, ``,`` lower, ``~`` toggle (bash 5.2): the first character, or all when doubled."""
    change = {"^": str.upper, ",": str.lower, "~": str.swapcase}[op[0]]
    first_only = len(op) == 1
    out = []
    for n, ch in enumerate(value):
        if first_only and n > 0:
            out.append(value[n:])
            break
        if ch.isascii() and (pat is None or pat.matches(ch)):
            ch = change(ch)
        out.append(ch)
    return "".join(out)


def quote_for_reuse(value: str) -> str:
    """``${x@Q}``: single quotes, or ``$'…'`` when the value has non-printable bytes (C locale)."""
    data = value.encode("utf-8", "surrogateescape")
    if any(b < 0x20 or b >= 0x7f for b in data):
        out = ["$'"]
        names = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 27: "\\E",
                 39: "\\'", 92: "\\\\"}
        for b in data:
            if b in names:
                out.append(names[b])
            elif b < 0x20 or b >= 0x7f:
                out.append(f"\\{b:03o}")
            else:
                out.append(chr(b))
        out.append("'")
        return "".join(out)
    return "'" + value.replace("'", "'\\''") + "'"


# ---------------------------------------------------------------- brace expansion


def _braces_in_brackets(parts) -> bool:
    """Whether an unquoted ``$[…]`` among ``parts`` holds a ``{``: bash brace-expands its text
    (``$[1+{2,3}]`` is two words), where ``$((…))`` is one expression (measured, 5.2)."""
    for part in parts:
        if type(part) is _Arith and part.parts and part.parts[0].start == part.start + 2 and \
                any(type(inner) is _Lit and "{" in inner.text for inner in part.parts):
            return True
    return False


def brace_expand(parts, meter: Optional[Meter] = None) -> list:
    """Brace expansion over word parts: a list of part lists (one per resulting word).

    The number of words (and their size) is checked against ``meter`` before
    any of them is made.
    """
    for part in parts:
        if isinstance(part, _Lit) and "{" in part.text:
            break
    else:
        return [list(parts)]
    items = []
    for part in parts:
        if isinstance(part, S.Lit):
            items.extend(("c", ch, part.start, part.end) for ch in part.text)
        else:
            items.append(("p", part))
    meter = meter if meter is not None else Meter()
    results = _brace(items, meter)
    if len(results) == 1:
        return [list(parts)]
    return [_rejoin_names(_regroup(result)) for result in results]


_NAME_CHARS = re.compile(r"[A-Za-z0-9_]+")


def _rejoin_names(parts: list) -> list:
    """``$x{a,b}`` is ``$xa $xb`` in bash: brace expansion works on the text, so a
    name character after an unbraced ``$name`` extends the name."""
    out = []
    for part in parts:
        prev = out[-1] if out else None
        if isinstance(part, S.Lit) and isinstance(prev, S.Param) and not prev.braced and \
                _NAME.fullmatch(prev.name):
            match = _NAME_CHARS.match(part.text)
            if match:
                out[-1] = S.Param(prev.name + match.group(0), None, False, False, None, None, None,
                                  False, prev.start, part.end)
                rest = part.text[match.end():]
                if rest:
                    out.append(S.Lit(rest, part.start, part.end))
                continue
        out.append(part)
    return out


def _regroup(items) -> list:
    parts, buf, span = [], [], (0, 0)
    for item in items:
        if item[0] == "c":
            if not buf:
                span = (item[2], item[3])
            buf.append(item[1])
        else:
            if buf:
                parts.append(S.Lit("".join(buf), span[0], span[1]))
                buf = []
            parts.append(item[1])
    if buf:
        parts.append(S.Lit("".join(buf), span[0], span[1]))
    return parts


def _is(item, ch) -> bool:
    return item[0] == "c" and item[1] == ch


def _brace(items, meter: Meter) -> list:
    n = len(items)
    # one pass with a stack: the matching close of every `{` and its top-level commas
    close_of, commas_of, stack = {}, {}, []
    for j, item in enumerate(items):
        if item[0] != "c":
            continue
        ch = item[1]
        if ch == "{":
            stack.append(j)
            commas_of[j] = []
        elif ch == "}" and stack:
            close_of[stack.pop()] = j
        elif ch == "," and stack:
            commas_of[stack[-1]].append(j)
    for i in range(n):
        close = close_of.get(i)
        if close is None:
            continue
        pre, post = items[:i], items[close + 1:]
        commas = commas_of[i]
        if commas:
            bounds = [i] + commas + [close]
            alternatives = []
            for a, b in zip(bounds, bounds[1:]):
                alternatives.extend(_brace(items[a + 1:b], meter))
                meter.words(len(alternatives))
            posts = _brace(post, meter)
            _charge_product(meter, len(pre), alternatives, posts)
            return [pre + alt + p for alt in alternatives for p in posts]
        seq = _sequence(items[i + 1:close], meter)
        if seq is not None:
            posts = _brace(post, meter)
            _charge_product(meter, len(pre), seq, posts)
            return [pre + [("c", ch, 0, 0) for ch in s] + p for s in seq for p in posts]
    return [items]


def _charge_product(meter: Meter, pre: int, middles: list, posts: list):
    """Check and pay for every pre + middle + post word before making them."""
    count = len(middles) * len(posts)
    meter.words(count)
    size = len(middles) * (pre * len(posts) + sum(len(p) for p in posts)) + \
        len(posts) * sum(len(m) for m in middles)
    meter.build(size + PIECE_BYTES * count, "brace expansion")


_SEQ_NUM = re.compile(r"([-+]?[0-9]+)\.\.([-+]?[0-9]+)(?:\.\.([-+]?[0-9]+))?\Z")
_SEQ_CHR = re.compile(r"([^0-9])\.\.([^0-9])(?:\.\.([-+]?[0-9]+))?\Z")


def _sequence(items, meter: Meter) -> Optional[list]:
    if not items or any(item[0] != "c" for item in items):
        return None
    text = "".join(item[1] for item in items)
    match = _SEQ_NUM.match(text)
    if match:
        a_text, b_text, step_text = match.groups()
        a, b = int(a_text), int(b_text)
        step = abs(int(step_text)) if step_text else 1
        step = step or 1
        width = 0
        for t in (a_text, b_text):
            digits = t.lstrip("+-")
            if len(digits) > 1 and digits.startswith("0"):
                width = max(width, len(t))
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        meter.words(len(values))
        out = []
        for v in values:
            s = str(v)
            if width:
                s = ("-" + str(-v).zfill(width - 1)) if v < 0 else str(v).zfill(width)
            out.append(s)
        return out
    match = _SEQ_CHR.match(text)
    if match:
        a, b, step_text = match.groups()
        if not (a.isascii() and b.isascii() and a.isalpha() and b.isalpha()):
            return None
        step = abs(int(step_text)) if step_text else 1
        step = step or 1
        x, y = ord(a), ord(b)
        values = range(x, y + 1, step) if x <= y else range(x, y - 1, -step)
        meter.words(len(values))
        return [chr(v) for v in values]
    return None
