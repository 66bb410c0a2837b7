"""Utility models (qbcore.model.utilities: cat, sed, grep, mv, …) as registry entries.

An entry runs its model over the file view when that view is a virtual tree
and stdin is known, or read from a stream only when the model asks for it (a
command with file operands leaves its stdin to the next one); otherwise the
command is not modelled, as today. Nothing
here is registered by default: the evaluator's answers stay what they are
until a caller (outcome prediction) adds these entries to its table.
"""

from __future__ import annotations

from ..expand import Opaque, Variable
from ..values import UnorderedLines, has_opaque
from ..utilities.common import OptionUnknown, UnknownBytes
from ..utilities.context import CommandContext, Environ
from ..utilities.registry import MODELS
from ..utilities import vfs
from ..utilities.vfs import VfsError, VirtualTree
from .external import unmodelled
from .registry import Invocation, Model, Outcome

__all__ = ["entry", "entries"]

# bash runs these as builtins: the registry's own entries model them
_BUILTINS = frozenset({"printf", "echo", "pwd"})
# the models given stdin whose lines are known but not their order (CommandContext.stdin_unordered)
_TAKE_UNORDERED = frozenset({"xargs"})


class _ScriptStdinContext(CommandContext):
    """A utility's context whose stdin is bash's own script input (``effects.ScriptInput``):
    a model that reads ``stdin`` takes the rest of the script, or, where that is not known
    (a utility that may read only a part of it), makes the run unknown."""

    script_input = None
    _data = None

    @property
    def stdin(self) -> bytes:
        if self._data is None:
            data = None if _reads_a_part(self.argv) else self.script_input.take()
            if data is None:
                self.script_input.spoil()
                raise OptionUnknown("its stdin, bash's own, which holds the rest of the script")
            self._data = data
        return self._data

    @stdin.setter
    def stdin(self, value):
        pass


#: utilities that may read less than a pipe holds, leaving the rest of a script bash reads from
#: the same stdin where bash reads on from
_PARTIAL_READERS = frozenset({"dd", "line"})


def _reads_a_part(argv) -> bool:
    """Whether a utility may read less than the pipe holds: ``head -c N`` reads N bytes
    (head with lines reads a buffer at a time); any word that may be a -c or --bytes counts."""
    if argv[0] in _PARTIAL_READERS:
        return True
    return argv[0] == "head" and any(
        isinstance(word, str) and (word.startswith("--b") or word[:1] == "-" and word[1:2] != "-" and "c" in word)
        for word in argv[1:])


class _StreamStdinContext(CommandContext):
    """A utility's context whose stdin is a descriptor's stream (``Invocation.input``): the
    model takes it when it first reads ``stdin``, and one that never does leaves it to the
    next reader. Bytes that are not known make the model unknown then, not before."""

    input = None
    _data = None

    @property
    def stdin(self) -> bytes:
        if self._data is None:
            data = self.input.take()
            if data is None:
                if self.input.readable:
                    raise UnknownBytes(self.input.why or "its stdin, whose bytes are not known")
                raise OptionUnknown(self.input.why or "its stdin, which is not known")
            self._data = data
        return self._data

    @stdin.setter
    def stdin(self, value):
        pass

    @property
    def stdin_regular(self):
        regular = self.input.regular
        return None if regular and self.input.pos else regular  # (its size: the whole file's)

    @stdin_regular.setter
    def stdin_regular(self, value):
        pass


#: the programs whose models word a use of a file or folder its owner may not make as the program
#: does (vfs.Refusing), measured against each run as a user, not root, for every owner mode of a
#: folder (tests/predict/test_predict_permissions.py); cp -r, find and du word such failures
#: their own way
_REFUSING = frozenset({"mv", "rm", "touch", "mkdir", "rmdir", "ln", "cat", "ls", "tee", "head", "wc", "grep", "chmod",
                       "stat"})


_UTILITY_PATH = Variable(Opaque("$_ (the utility's own path)"), True)


def entry(model) -> Model:
    """The registry entry for a utility model ``model(CommandContext) -> CommandResult``."""

    def run(ctx: Invocation) -> Outcome:
        # a file view over a virtual tree (qbcore.model.effects) lends it as ``tree``
        tree = getattr(ctx.files, "tree", ctx.files)
        script_input = getattr(ctx, "script_input", None)
        stream = ctx.input if script_input is None and ctx.stdin is None else None
        if not isinstance(tree, VirtualTree) or not ctx.env.cwd_known or \
                script_input is None and ctx.stdin is None and stream is None or \
                ctx.stdin_unordered and ctx.name not in _TAKE_UNORDERED:
            return unmodelled(ctx)
        # values are read when the model asks for them (a run cache learns which were)
        exported = {name: var for name, var in ctx.env.vars.items() if var.exported}
        if "_" in exported:
            # bash gives a utility its own path as $_, whatever the shell's $_ holds: a model
            # that reads it is unknown (printenv and env refuse it, python3 and awk stop at it)
            exported["_"] = _UTILITY_PATH
        environ = Environ(exported)
        hidden = [name for name in environ.hidden(lambda value: has_opaque(value) or not isinstance(value, str))
                  if name != "_"]
        if has_opaque(ctx.argv):
            # a word with an unknown part ($RANDOM, an unmodelled substitution) would reach the
            # model as its printed form and name a file that is not the one bash names
            unknown = "an argument the shell model does not know"
        elif hidden:
            # the model would read such a variable as unset, or as its printed form
            unknown = f"an exported value the shell model does not know (${hidden[0]})"
        else:
            if script_input is not None:
                command = _ScriptStdinContext(list(ctx.argv), b"", ctx.env.cwd, environ, tree)
                command.script_input = script_input
            elif stream is not None:
                command = _StreamStdinContext(list(ctx.argv), b"", ctx.env.cwd, environ, tree)
                command.input = stream
            else:
                command = CommandContext(list(ctx.argv), ctx.stdin, ctx.env.cwd, environ, tree, ctx.stdin_unordered)
            # a child `bash -c` it starts (find -exec, xargs) runs in the shell model
            command.bash = getattr(ctx.shell, "utility_bash", None)
            command.output = ctx.output
            withheld: set = vfs.Refusing() if ctx.name in _REFUSING else set()
            vfs.WITHHELD_ACCESS.append(withheld)
            try:
                unknown = model(command)
            except OptionUnknown as exc:  # (a model that is not guarded read unknown stdin)
                unknown = str(exc)
            except vfs.UnknownContent as exc:  # it read a file whose bytes are not known
                unknown = exc.why
            except VfsError as exc:
                # a call its model did not expect to fail (a refusal it does not word, a path
                # that a symlink leads through and is gone): what the program does then is unknown
                unknown = f"{exc.at or exc.path}: {exc.strerror}, a failure its model does not follow"
            finally:
                del vfs.WITHHELD_ACCESS[next(n for n, log in enumerate(vfs.WITHHELD_ACCESS) if log is withheld)]
            if withheld and not isinstance(unknown, str):
                unknown = f"{min(withheld)}, used in a way its mode withholds from its owner"
        result, unknown = (None, unknown) if isinstance(unknown, str) else (unknown, unknown.unknown)
        if unknown is not None:
            why = f"{ctx.name} ({unknown})"
            return Outcome(Opaque(f"status of {why}"), Opaque(f"output of {why}"), modelled=False)
        stderr = result.stderr.decode("utf-8", "surrogateescape")
        if result.stderr_unknown is not None:
            stderr = Opaque(f"stderr of {ctx.name} ({result.stderr_unknown})")
        stdout = result.stdout.decode("utf-8", "surrogateescape")
        if result.stdout_unknown:
            stdout = Opaque(result.stdout_unknown)
        elif result.stdout_unordered and stdout:
            stdout = UnorderedLines.of(f"output of {ctx.name} ({result.stdout_unordered})", stdout)
        merged = None
        if result.merged is not None and type(stdout) is str and type(stderr) is str:
            merged = result.merged.decode("utf-8", "surrogateescape")
        return Outcome(Opaque(result.status_unknown) if result.status_unknown else result.status, stdout,
                       stderr=stderr, merged=merged)

    run.__name__ = getattr(model, "__name__", "utility")
    run.__doc__ = getattr(model, "__doc__", None)
    return run


def entries() -> dict:
    """name -> registry entry for every utility model bash does not run as a builtin."""
    return {name: entry(model) for name, model in MODELS.items() if name not in _BUILTINS}
