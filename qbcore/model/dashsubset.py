"""Whether dash (Debian's /bin/sh, 0.5.12) reads a ``sh -c`` script as bash 5.2 does.

find -exec and xargs start ``sh -c SCRIPT`` as often as ``bash -c``. The effect model
runs the bash it knows; it stands for dash only over scripts both shells read alike, a
whitelist checked here on the parse before anything runs (``refusal``), the rest checked
as the script runs (``EffectWalker`` in dash mode: echo, printf, test, set and the
builtins dash lacks; any message of the shell's own, whose words and status differ).

Statically refused: what dash does not have or reads otherwise (``[[``, ``((``,
arithmetic, arrays, ``$'…'``, brace expansion, ``function``, ``&>``, ``<<<`` here-strings,
a here-document the end of the script ends, ``|&``, ``;&``), a background job, parameter
operators beyond the POSIX ones, ``${#x}`` and patterns with ``?`` or brackets (dash counts
bytes, bash characters), ``[^…]``, bash's own variables, a prefix assignment before a
builtin (dash keeps it after a special builtin), ``$?`` in a command with a command
substitution (in its words or here-documents), and text past ASCII.
"""

from __future__ import annotations

from typing import Optional

from ..syntax import parser as S

__all__ = ["refusal", "BUILTINS", "REFUSED_NAMES"]

#: the builtins a dash script may run here, as bash's model runs them (checked further as
#: they run: EffectWalker.dash_refusal)
BUILTINS = frozenset({"true", "false", ":", "exit", "test", "[", "echo", "printf", "export", "unset", "shift",
                      "set", "cd"})
#: names dash has no builtin for, or runs otherwise
REFUSED_NAMES = frozenset({
    "local", "declare", "typeset", "let", "source", ".", "eval", "exec", "trap", "wait", "alias", "unalias", "type",
    "command", "builtin", "pushd", "popd", "dirs", "shopt", "mapfile", "readarray", "read", "enable", "hash",
    "help", "history", "jobs", "kill", "disown", "suspend", "times", "ulimit", "umask", "getopts", "return",
    "break", "continue", "readonly", "caller", "compgen", "complete", "fc", "fg", "bg", "logout", "coproc",
    "select", "function", "time", "sh", "dash", "pwd"})
#: the operators of ${name OP word} POSIX gives, which dash reads as bash does
_OPERATORS = frozenset({":-", "-", ":=", "=", ":+", "+", ":?", "?", "#", "##", "%", "%%"})
#: variables bash sets or reads for itself (dash has none of them, or other values)
_BASH_VARIABLES = frozenset({
    "_", "-", "!", "SHLVL", "RANDOM", "SRANDOM", "LINENO", "SECONDS", "PIPESTATUS", "FUNCNAME", "HOSTNAME",
    "HOSTTYPE", "OSTYPE", "MACHTYPE", "EUID", "UID", "GROUPS", "DIRSTACK", "SHELLOPTS", "BASHOPTS", "PS4",
    "OPTIND", "OPTARG", "OPTERR", "EPOCHSECONDS", "EPOCHREALTIME", "COLUMNS", "LINES", "HISTFILE", "PPID",
    "REPLY", "MAPFILE", "COMP_WORDS", "TIMEFORMAT", "GLOBIGNORE", "CDPATH", "ENV", "POSIXLY_CORRECT"})
_REDIRECTS = frozenset({">", ">>", "<"})


def refusal(text: str) -> Optional[str]:
    """Why dash may read ``text`` otherwise than bash, or None when it reads it alike."""
    if not text.isascii():
        return "text past ASCII"
    script = S.parse_prefix(text)
    if script.error is not None:
        return "a syntax error (dash's message and where it stops differ)"
    try:
        _script(script)
    except _Refused as exc:
        return str(exc)
    return None


class _Refused(Exception):
    pass


def _script(script):
    for chunk in script.chunks:
        _items(chunk.items)


def _items(items):
    for item in items:
        if item.background:
            raise _Refused("a background job")
        _and_or(item.command)


def _and_or(node):
    for pipeline in node.pipelines:
        if pipeline.timed or any(pipeline.stderr):
            raise _Refused("time or |&")
        for command in pipeline.commands:
            _command(command)


def _command(node):
    kind = type(node)
    if kind is S.SimpleCommand:
        _simple(node)
        return
    for redirect in getattr(node, "redirects", ()):
        _redirect(redirect)
    if kind in (S.Group, S.Subshell):
        _items(node.body)
    elif kind is S.If:
        for condition, body in node.clauses:
            _items(condition)
            _items(body)
        if node.else_body is not None:
            _items(node.else_body)
    elif kind is S.While:
        _items(node.condition)
        _items(node.body)
    elif kind is S.For and not node.select:
        if node.name in _BASH_VARIABLES:
            raise _Refused(f"a loop over {node.name}")
        for word in node.items or ():
            _word(word)
        _status_after_substitution(node.items or ())
        _items(node.body)
    elif kind is S.Case:
        _word(node.word)
        _status_after_substitution([node.word])
        for arm in node.arms:
            if arm.terminator != ";;":
                raise _Refused(f"the case terminator {arm.terminator}")
            for pattern in arm.patterns:
                _word(pattern)
            _items(arm.body)
    else:
        raise _Refused(f"a {kind.__name__} command")


def _simple(node):
    name = None
    if node.words:
        first = node.words[0]
        name = "".join(p.text for p in first.parts) if all(type(p) in (S.Lit, S.SingleQuoted) for p in first.parts) \
            else None
        if name is None:
            raise _Refused("a command name built by an expansion")
        if name in REFUSED_NAMES:
            raise _Refused(f"the command {name}")
        if node.assignments and name in BUILTINS:
            raise _Refused("an assignment before a builtin (dash keeps it after a special one)")
    for assignment in node.assignments:
        if assignment.index is not None or assignment.array is not None or assignment.append:
            raise _Refused("an array or += assignment")
        if assignment.name in _BASH_VARIABLES:
            raise _Refused(f"an assignment to {assignment.name}")
        if assignment.value is not None:
            _word(assignment.value)
    for word in node.words:
        _word(word)
    for redirect in node.redirects:
        _redirect(redirect)
    _status_after_substitution([a.value for a in node.assignments if a.value is not None] + list(node.words) +
                               [r.target for r in node.redirects if r.target is not None] +
                               [r.heredoc for r in node.redirects if r.heredoc is not None])


def _status_after_substitution(words):
    """dash sets $? from a command substitution once the command is done (as the status of a
    line of assignments), not as it expands the next word: `$?` in the same command (or in a
    for loop's words, or a case's word) reads the command before's status there (measured:
    `echo "$(false)$?"` is 0 in dash, 1 in bash)."""
    kinds = {type(part) if type(part) is not S.Param else part.name for word in words for part in _shallow(word.parts)}
    if S.CmdSub in kinds and "?" in kinds:
        raise _Refused("$? in a command with a command substitution")


def _shallow(parts):
    """``parts`` and the parts inside them, but for a command substitution's own body."""
    for part in parts:
        yield part
        kind = type(part)
        if kind is S.DoubleQuoted:
            yield from _shallow(part.parts)
        elif kind is S.Param:
            for word in (part.arg, part.arg2):
                if word is not None and hasattr(word, "parts"):
                    yield from _shallow(word.parts)


def _redirect(redirect):
    fd = redirect.fd
    if fd is not None and not (len(fd) == 1 and fd.isdigit()):
        raise _Refused(f"the descriptor {fd}")
    if redirect.op in _REDIRECTS:
        _word(redirect.target)
        return
    if redirect.op in ("<<", "<<-"):
        _document(redirect.heredoc)
        return
    if redirect.op in (">&", "<&"):
        target = "".join(p.text for p in redirect.target.parts) \
            if all(type(p) is S.Lit for p in redirect.target.parts) else None
        if target is not None and (target.isdigit() and len(target) == 1 or target == "-"):
            return
    raise _Refused(f"the redirection {redirect.op}")


def _document(heredoc):
    """A here-document's body: dash reads and expands it as bash does (measured: quoted and
    unquoted delimiters, ``<<-``, escapes, expansions, one in a command substitution), but for
    one the end of the script ends (bash warns and ends the body with a newline, dash neither)."""
    if not heredoc.terminated:
        raise _Refused("a here-document the end of the script ends")
    _parts([part for part in heredoc.parts if type(part) is not S.Lit])  # (its text is not a pattern)
    _status_after_substitution([heredoc])


def _word(word):
    if type(word) is S.BraceRefusedWord:
        raise _Refused("a brace expansion bash refuses")
    text = "".join(p.text for p in word.parts if type(p) is S.Lit)
    if "{" in text and ("," in text or ".." in text):
        raise _Refused("a brace expansion (dash has none)")
    _parts(word.parts)


def _parts(parts):
    for part in parts:
        kind = type(part)
        if kind is S.Lit:
            if "[^" in part.text:
                raise _Refused("a bracket negated with ^")
        elif kind in (S.SingleQuoted, S.Escaped):
            continue
        elif kind is S.DoubleQuoted:
            if part.locale:
                raise _Refused('$"…"')
            _parts(part.parts)
        elif kind is S.Param:
            _param(part)
        elif kind is S.CmdSub:
            if part.script.error is not None:
                raise _Refused("a command substitution that does not parse")
            if part.backtick and not part.script.chunks:
                raise _Refused("a backtick body without commands")  # (dash forks for none of them)
            _script(part.script)
        else:
            raise _Refused(f"a {kind.__name__} expansion")


def _param(part):
    name = part.name
    if part.index is not None or part.length or part.indirect:
        raise _Refused("an array, ${#…} or ${!…}")
    if name in _BASH_VARIABLES or name.startswith("BASH"):
        raise _Refused(f"${name}, which bash sets for itself")
    if part.op is None:
        return
    if part.op not in _OPERATORS:
        raise _Refused(f"the parameter operator {part.op}")
    if part.arg is not None:
        if part.op in ("#", "##", "%", "%%"):
            text = "".join(p.text for p in part.arg.parts if type(p) is S.Lit)
            if "?" in text or "[" in text:
                raise _Refused("a pattern with ? or brackets (dash matches bytes, bash characters)")
        _parts(part.arg.parts)
