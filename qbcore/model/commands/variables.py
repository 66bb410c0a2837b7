"""Builtins that change variables and shell options: declare and its kin (export, local,
readonly, typeset), unset, set, shift, shopt, let; and assignment itself."""

from __future__ import annotations

import re

from .. import expand as X
from ..expand import ExpansionError, Opaque
from ..values import has_opaque
from .control import numeric_operand, too_many_operands
from .external import unmodelled
from .registry import Invocation, Outcome, register, said

#: a shell variable's name, and `name=value` / `name+=value` as one argument
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME_VALUE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)\Z", re.S)
#: how the name of a variable's unknown value ends when declare gave it attributes not followed
_ATTRIBUTES_UNKNOWN = ", attributes unknown"
_ELEMENT_VALUE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[.*\]\+?=", re.S)

DECLARATION = frozenset("export local declare typeset readonly".split())
# a word a declaration builtin reads as an assignment (name=, name+=)
_ASSIGN_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
# Glob-related shopt options and their values under bash -c (measured).
GLOB_DEFAULTS = {"nullglob": False, "dotglob": False, "failglob": False, "extglob": False, "globstar": False,
                 "nocaseglob": False, "nocasematch": False, "globasciiranges": True, "globskipdots": True}
# those of them whose effect on pathname expansion the model follows (qbcore.model.expand;
# extglob: a pattern with a group is unknown, and so are the lines bash reads after it turned
# on that may hold one, which it reads otherwise: evaluate._walk_script)
FOLLOWED_GLOB_OPTIONS = frozenset({"nullglob", "dotglob", "globstar", "extglob"})
#: every name bash 5.2's shopt knows (another is its error, "invalid shell option name")
SHOPT_NAMES = frozenset("""
autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist compat31 compat32 compat40
compat41 compat42 compat43 compat44 complete_fullquote direxpand dirspell dotglob execfail expand_aliases extdebug
extglob extquote failglob force_fignore globasciiranges globskipdots globstar gnu_errfmt histappend histreedit
histverify hostcomplete huponexit inherit_errexit interactive_comments lastpipe lithist localvar_inherit
localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob nocasematch noexpand_translation nullglob
patsub_replacement progcomp progcomp_alias promptvars restricted_shell shift_verbose sourcepath varredir_close
xpg_echo""".split())
_LONG_FLAGS = {"errexit": "e", "noglob": "f", "noclobber": "C", "nounset": "u", "allexport": "a"}
# set's letters by the names $SHELLOPTS lists them under
_OPTION_NAMES = {"a": "allexport", "e": "errexit", "f": "noglob", "u": "nounset", "C": "noclobber", "x": "xtrace",
                 "v": "verbose", "h": "hashall", "B": "braceexpand"}


def _list_option(env, variable: str, name: str, on: bool):
    """$SHELLOPTS and $BASHOPTS name the options that are on, in alphabetical order (measured);
    bash keeps them in step, without the export allexport would give them."""
    old = env.vars.get(variable)
    if old is None or type(old.value) is not str:
        return
    names = set(old.value.split(":")) - {""}
    names = names | {name} if on else names - {name}
    env.set(variable, ":".join(sorted(names)), exported=old.exported)


class CompoundArgument(str):
    """A ``name=(…)`` argument of a declaration builtin, expanded: the string is
    the name (what ``$_`` shows afterwards); ``assignment`` is what to assign."""

    assignment: tuple

    def __new__(cls, name: str, assignment: tuple):
        arg = super().__new__(cls, name)
        arg.assignment = assignment
        return arg


def assign(env, note, name, value, append=False, index=None):
    """``name=value`` (``+=`` with ``append``, ``name[index]=``, ``name=(…)`` for a tuple
    of elements) in ``env``; ``note`` names what becomes unknown."""
    if name in env.readonly:
        # bash refuses it; whether the shell then goes on depends on the context
        note([f"assignment to the readonly variable {name}"])
        return
    current = env.get(name)
    if isinstance(current, Opaque) and (isinstance(value, tuple) or index is not None or
                                        current.name.endswith(_ATTRIBUTES_UNKNOWN)):
        # an unknown value may be an associative array (`declare -A`, not followed), whose
        # elements a subscript or `=(…)` names by string; attributes the model did not
        # follow (-i, -l, -u, -n) change every value assigned
        env.set(name, Opaque(current.name if current.name.endswith(_ATTRIBUTES_UNKNOWN) else f"${name}"))
        return
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
        if has_opaque(index):
            env.set(name, Opaque(f"${name}"))
            return
        sub = X.Arithmetic(index, env, []).run() if index not in ("@", "*") else 0
        array = dict(current) if isinstance(current, dict) else ({0: current} if isinstance(current, str) else {})
        if isinstance(sub, Opaque):
            env.set(name, Opaque(f"${name}"))
            return
        if sub < 0:
            # bash counts back from the end, or refuses it ("bad array subscript")
            raise X.UnfollowedExpansion(f"{name}[{index}]: a negative subscript")
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


def taint(env, note, name, argv):
    """A modelled builtin run with arguments that are not known: what it changes becomes unknown."""
    if name == "cd":
        env.cwd_known = False
        env.set("PWD", Opaque("$PWD (cd to an unknown directory)"))
        note(["working directory (cd to an unknown directory)"])
    elif name in ("set", "shift"):
        env.positional = [Opaque(f"positional parameters (after {name})")]
    elif name in DECLARATION or name == "unset":
        for arg in argv[1:]:
            match = _NAME.match(arg)
            if match and not arg.startswith("-"):
                env.set(match.group(0), Opaque(f"${match.group(0)} (after {name}){_ATTRIBUTES_UNKNOWN}"))
    elif name in ("read", "mapfile", "readarray"):
        # the names it sets are not known: every variable may have changed
        for var in list(env.vars):
            env.set(var, Opaque(f"${var} (after {name} with unknown arguments)"))
        note([f"the variables {name} sets"])
    elif name == "eval":
        env.files.lose("the files after eval of an unknown string")
        note(["eval of an unknown string"])


@register("export", "local", "declare", "typeset", "readonly")
def declare(ctx: Invocation) -> Outcome:
    env, name, args, note = ctx.env, ctx.name, ctx.args, ctx.note
    scope = ctx.shell.scope
    if name == "local" and scope is None:
        return _local_outside_a_function(ctx)
    options = _options(args)
    flags = _flags(options)
    # declare and typeset in a function make locals too, but with -g, or where they print (-p -f -F)
    if (name == "local" or name in ("declare", "typeset") and scope is not None and "-g" not in flags) and \
            not any(letter in o for o in options if o.startswith("-") for letter in "pfF"):
        for arg in args:
            match = _NAME.match(arg)
            if match and scope.shadow(env, match.group(0)) and "=" not in arg:
                _start_local(env, match.group(0))
    modelled = ("-x", "--", "-g", "-r", "+x")
    if not any("=" in a for a in args if not isinstance(a, CompoundArgument)):
        modelled += ("-a",)  # `declare -a a=(…)`; `-a a="(1 2)"` parses its string
    if any(o not in modelled for o in flags) or any(
            isinstance(a, CompoundArgument) and (a.assignment[3] is not None or
                                                 isinstance(a.assignment[1], Opaque))
            for a in args):
        if any("n" in o for o in options if o.startswith("-")):
            # a name reference: assigning one name assigns another, any other
            status = Opaque(f"status of {name} {' '.join(options)}")
            ctx.shell.unknown_from_here(f"the variables after {name} -n (name references)", status)
            return Outcome(status, modelled=False)
        # attributes (-A, -i, -l…) change what is stored: the names become unknown
        taint(env, note, name, [name] + [a for a in args if a not in options])
        # -p, -f and -F print declarations, which the model does not spell
        prints = any(letter in o for o in options for letter in "pfF")
        return Outcome(Opaque(f"status of {name} {' '.join(options)}"),
                       Opaque(f"output of {name} {' '.join(options)}") if prints else None, modelled=False)
    if len(options) == len(args):
        # without names it lists variables: output the model does not produce
        return Outcome(0, Opaque(f"output of {name}"), modelled=False)
    for arg in args:
        if arg in options:
            continue
        target = _NAME.match(arg)
        if target and target.group(0) in env.readonly and (
                "=" in arg or isinstance(arg, CompoundArgument)):
            note([f"assignment to the readonly variable {target.group(0)}"])
            return Outcome(Opaque(f"status of {name} {target.group(0)} (readonly)"), modelled=False)
        if isinstance(arg, CompoundArgument):
            var, value, append, index = arg.assignment
            assign(env, note, var, value, append, index)
            if name == "export" or "-x" in flags or "+x" in flags:
                env.set(var, env.vars[var].value, exported="+x" not in flags)
            if name == "readonly" or "-r" in flags:
                env.readonly.add(var)
            continue
        match = _NAME_VALUE.match(arg)
        if match is None and _ELEMENT_VALUE.match(arg):
            # `declare a[1]=x`: an element, which the model does not follow here
            taint(env, note, name, [name, arg])
            return Outcome(Opaque(f"status of {name} {arg}"), modelled=False)
        if match:
            var, plus, value = match.groups()
            if plus:
                current = env.get(var)
                value = (current if isinstance(current, str) else "") + value
            env.set(var, value, exported=False if "+x" in flags else
                    True if name == "export" or "-x" in flags else None)
            if name == "readonly" or "-r" in flags:
                env.readonly.add(var)
        elif _NAME.fullmatch(arg):
            if name == "readonly" or "-r" in flags:
                env.readonly.add(arg)
            exporting = name == "export" or "-x" in flags
            var = env.vars.get(arg)
            if var is None and exporting:
                env.export_pending.add(arg)  # exported while unset: the assignment that sets it exports
            elif var is None and name not in ("export", "readonly"):
                env.set(arg, "")
                _unset_keeping_export(env, arg) if name in ("local", "declare", "typeset") else None
            elif var is not None and (exporting or "+x" in flags):
                env.set(arg, var.value, exported="+x" not in flags)
        else:
            return Outcome(1, error=f"{name}: `{arg}': not a valid identifier")
    return Outcome(0)


def _unset_keeping_export(env, name: str):
    """Unset ``name``, keeping its export attribute for the assignment that sets it."""
    var = env.vars.get(name)
    exported = var.exported if var is not None else name in env.export_pending
    env.unset(name)
    if exported:
        env.export_pending.add(name)


def _options(args) -> list:
    """A declaration builtin's options: its -x and +x words that are no assignment."""
    return [a for a in args if a.startswith(("-", "+")) and not _ASSIGN_WORD.match(a)
            and not isinstance(a, CompoundArgument)]


def _start_local(env, name: str):
    """``local name``: unset, exported where the name it shadows is (bash's make_local_variable;
    an assignment then exports it). Where that one has a value, a program bash starts still
    finds it in its environment until the local is assigned (measured), which the model does
    not follow."""
    var = env.vars.get(name)
    if var is not None and var.exported:
        env.set(name, Opaque(f"${name}, a local over an exported variable"), exported=True)
    else:
        _unset_keeping_export(env, name)


def _flags(options: list) -> set:
    """``options`` a letter at a time: ``-gx`` is ``-g`` and ``-x``."""
    return {option if option == "--" else option[0] + letter for option in options for letter in option[1:]}


def _local_outside_a_function(ctx: Invocation) -> Outcome:
    """``local`` outside a function fails, but bash has already assigned its ``name=(…)``
    words, globally, as it expanded them (measured: ``local a=(1) b=2`` sets a, not b)."""
    env, args, note = ctx.env, ctx.args, ctx.note
    compounds = [a for a in args if isinstance(a, CompoundArgument)]
    options = _options(args)
    if compounds and (any(o != "-a" for o in options) or any(
            a.assignment[3] is not None or isinstance(a.assignment[1], Opaque) or a.assignment[0] in env.readonly
            for a in compounds)):
        taint(env, note, "local", ["local"] + compounds)
        return Outcome(Opaque("status of local outside a function"), modelled=False)
    for arg in compounds:
        var, value, append, index = arg.assignment
        assign(env, note, var, value, append, index)
    return Outcome(1, error="local: can only be used in a function")


@register("unset")
def unset(ctx: Invocation) -> Outcome:
    """``unset [-f|-v] NAME…``: with neither, a name that holds no variable unsets the function
    of that name; with -v, a name that is not an identifier is refused (status 1). An option
    other than -f -v -n is bash's usage error; -n (a nameref itself) is not modelled."""
    env, names = ctx.env, list(ctx.args)
    options = ""
    while names and type(names[0]) is str and names[0][:1] == "-" and names[0] != "-":
        word = names.pop(0)
        if word == "--":
            break
        for letter in word[1:]:
            if letter not in "fnv":
                # (the usage line follows bash's message, as it is written)
                return Outcome(2, error=f"unset: -{letter}: invalid option\n"
                                        "unset: usage: unset [-f] [-v] [-n] [name ...]")
        options += word[1:]
    if "n" in options or any(type(var) is not str or has_opaque(var) for var in names):
        return unmodelled(ctx)
    functions, variables = "f" in options, "v" in options
    if functions and variables:
        return Outcome(1, error="unset: cannot simultaneously unset a function and a variable")
    if any(_ELEMENT.sub(r"\1", var) in env.readonly for var in names) and not functions:
        ctx.note([f"unset of a readonly variable ({' '.join(names)})"])
        return Outcome(Opaque("status of unset (readonly)"), modelled=False)
    refused = [var for var in names if variables and not _NAME.fullmatch(var) and not _ELEMENT.fullmatch(var)]
    if len(refused) > 1:
        return unmodelled(ctx)  # (a message for each)
    for var in names:
        if functions:
            env.functions.pop(var, None)
        elif var in refused:
            continue
        elif _ELEMENT.fullmatch(var):
            if not _unset_element(env, var):
                ctx.note([f"unset {var}"])
                return Outcome(Opaque(f"status of unset {var}"), modelled=False)
        elif not variables and var not in env.vars and var in env.functions:
            env.functions.pop(var)
        elif _NAME.fullmatch(var):
            env.unset(var)
    if refused:
        return Outcome(1, error=f"unset: `{refused[0]}': not a valid identifier")
    return Outcome(0)


#: `name[subscript]`: an element to unset
_ELEMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\[.*\]\Z", re.S)


def _unset_element(env, arg: str) -> bool:
    """``unset 'name[sub]'`` on an indexed array (``@``/``*``: all of it), as bash does;
    False where the model does not follow it (an unknown value, a subscript to expand,
    one bash refuses), the variable then unknown."""
    name, _, sub = arg[:-1].partition("[")
    value = env.get(name)
    if value is None:
        return True  # nothing to unset: status 0
    if isinstance(value, dict) and sub in ("@", "*"):
        env.set(name, {})
        return True
    if not isinstance(value, Opaque) and not X.EXPANDING_SUBSCRIPT.search(sub):
        try:
            at = X.Arithmetic(sub, env, []).run()
        except ExpansionError:
            at = None
        if isinstance(at, int) and isinstance(value, dict):
            if at < 0 and value:
                at += max(value) + 1
            if at >= 0:
                array = dict(value)
                array.pop(at, None)
                env.set(name, array)
                return True
        elif at == 0 and isinstance(value, str):
            env.unset(name)
            return True
    env.set(name, Opaque(f"${name}"))
    return False


@register("set")
def set_builtin(ctx: Invocation) -> Outcome:
    env, args, shell = ctx.env, ctx.args, ctx.shell
    if not args:
        # every variable and function, not spelled (written to a closed stdout, it leaves the
        # files unknown as any unknown output there does)
        return Outcome(0, Opaque("output of set"))
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            env.positional = list(args[i + 1:])
            return Outcome(0)
        if arg in ("-", "+"):
            env.positional = list(args[i + 1:]) if args[i + 1:] else env.positional
            return Outcome(0)
        if arg[:1] in "-+" and len(arg) > 1:
            on = arg[0] == "-"
            for letter in arg[1:]:
                if letter == "f":
                    env.noglob = on
                    _list_option(env, "SHELLOPTS", _OPTION_NAMES[letter], on)
                elif letter == "B" and not on:
                    # no brace expansion after: not followed
                    return Outcome(Opaque(f"status of set {arg}"), modelled=False)
                elif letter in "euxvhBCa":
                    # errexit, nounset, noclobber and allexport live in $- (below), where the
                    # walker and expansion read them; tracing and hashing change nothing
                    _list_option(env, "SHELLOPTS", _OPTION_NAMES[letter], on)
                elif letter == "o" and i + 1 < len(args):
                    i += 1
                    if args[i] in ("noglob",):
                        env.noglob = on
                    if args[i] in (*_LONG_FLAGS, "pipefail", "xtrace", "verbose"):
                        _list_option(env, "SHELLOPTS", args[i], on)
                    if args[i] in _LONG_FLAGS:
                        short = _LONG_FLAGS[args[i]]
                        env.flags = _order_flags(env.flags.replace(short, "") + (short if on else ""))
                    elif args[i] == "pipefail":
                        env.pipefail = on
                    elif args[i] not in ("xtrace", "verbose"):
                        return Outcome(Opaque(f"status of set -o {args[i]}"), modelled=False)
                else:
                    return Outcome(Opaque(f"status of set {arg}"), modelled=False)
            flags = env.flags
            for letter in arg[1:]:
                if letter in "efuCa":
                    flags = flags.replace(letter, "")
                    if on:
                        flags = _order_flags(flags + letter)
            env.flags = flags
            i += 1
            continue
        env.positional = list(args[i:])
        return Outcome(0)
    return Outcome(0)


def _order_flags(flags: str) -> str:
    # bash lists $- in a fixed order: the option letters first, then h, B, C, c (measured: aefhuBCc)
    order = "aefhuBCc"
    return "".join(sorted(set(flags), key=lambda c: order.index(c) if c in order else 99))


@register("shift")
def shift(ctx: Invocation) -> Outcome:
    env = ctx.env
    found = numeric_operand(ctx)
    too_many = too_many_operands(ctx) if type(found) is str else None
    if too_many is not None:
        return too_many
    if type(found) is str or found is not None and found[1] is not None and found[1] < 0:
        return unmodelled(ctx)  # (bash's message for a count below 0 has a form of its own)
    if found is not None and found[1] is None:
        return Outcome(1, error=f"shift: {found[0]}: numeric argument required")
    count = 1 if found is None else found[1]
    if count > len(env.positional):
        return Outcome(1)
    env.positional = env.positional[count:]
    return Outcome(0)


@register("shopt")
def shopt(ctx: Invocation) -> Outcome:
    env, args = ctx.env, ctx.args
    options = [a for a in args if not a.startswith("-")]
    flags = [a for a in args if a.startswith("-")]
    plain = all(type(o) is str for o in options)  # (a name with a part not known may be any)
    invalid = [o for o in options if o not in SHOPT_NAMES] if plain else []
    if flags in (["-s"], ["-u"]) and options and plain and \
            all(o in GLOB_DEFAULTS for o in options if o not in invalid):
        # a name bash does not have is said, the others set all the same (measured)
        options = [o for o in options if o not in invalid]
        on = flags == ["-s"]
        followed = {o for o in options if o in FOLLOWED_GLOB_OPTIONS}
        if followed:
            env.globopts = env.globopts.union(followed) if on else env.globopts.difference(followed)
        for option in options:
            _list_option(env, "BASHOPTS", option, on)
        if any(GLOB_DEFAULTS[o] != on for o in options if o not in followed):
            # the model globs with these options at bash's defaults only: after a change,
            # globs are opaque
            env.noglob = None
            ctx.note([f"globbing after shopt {' '.join(args)}"])
        if invalid:
            return Outcome(1, error=said("shopt", [f"shopt: {o}: invalid shell option name" for o in invalid]))
        return Outcome(0)
    if not options and flags in ([], ["-p"], ["-q"], ["-s"], ["-u"]):
        # every option (or every one set, or unset) listed, in a form the model does not spell,
        # or none with -q: status 0 (measured)
        return Outcome(0, None if flags == ["-q"] else Opaque(f"output of shopt {' '.join(flags)}".rstrip()))
    if flags in (["-q"], ["-p"], []):
        return Outcome(Opaque("status of shopt"), None if flags == ["-q"] else Opaque("output of shopt"),
                       modelled=False)
    env.noglob = None
    ctx.note([f"shell options after shopt {' '.join(args)}"])
    return Outcome(Opaque("status of shopt"), modelled=False)


#: the file-creation mask the model's files are made under (vfs: 0644 files, 0755 folders)
_UMASK = ("0022", "u=rwx,g=rx,o=rx")
_SAME_UMASK = re.compile(r"0{0,2}22|u=rwx,g=rx,o=rx")


@register("umask")
def umask(ctx: Invocation) -> Outcome:
    """Printing the mask, or setting the one the model's files are made under already (what
    agents write: ``umask 022``). Another mask changes the modes of what is made after: not
    followed."""
    args = ctx.args
    if not args:
        return Outcome(0, _UMASK[0] + "\n")
    if args == ["-S"]:
        return Outcome(0, _UMASK[1] + "\n")
    if args == ["-p"]:
        return Outcome(0, f"umask {_UMASK[0]}\n")
    if len(args) == 1 and isinstance(args[0], str) and _SAME_UMASK.fullmatch(args[0]):
        return Outcome(0)
    ctx.env.files.lose(f"the files after `umask {' '.join(map(str, args))}` (another file-creation mask)")
    return Outcome(Opaque("status of umask"), Opaque("output of umask"), modelled=False)


@register("let")
def let(ctx: Invocation) -> Outcome:
    value = 0
    for expression in ctx.args:
        try:
            value = X.arithmetic(expression, ctx.env)
        except ExpansionError as exc:
            return Outcome(1, error=f"let: {exc.message}")
        if isinstance(value, Opaque):
            return Outcome(Opaque(f"status of let {expression}"))
    return Outcome(int(value == 0))
