"""Command substitutions the outer shell runs, for simulate's fast path.

``outerwords`` finds a plain ``$(…)`` or backquote among the outer shell's
words; this module runs its body as the general path would: parsed alone,
evaluated by the model's ``substitute`` in the outer shell's starting state
(the executor's environment, the same view of the files, line 1), with one
budget for the reply. It keeps what the general path reports of it: the
substitution as an outer effect, and the name of an unknown output. A body
whose run the general path would note (a shell or a launcher it starts),
one that nears the budget, and one that reads ``$LINENO`` are left to the
general path.
"""

from __future__ import annotations

import re

__all__ = ["OuterSubstitutions"]


class _Model:
    loaded = False

    @classmethod
    def load(cls):
        from ..model.budget import BudgetExceeded, Meter
        from ..model.commands.directories import working_directory
        from ..model.commands.external import PURE_READERS, READERS, reads_only
        from ..model.commands.output import printf_text
        from ..model.commands.registry import BUILTINS
        from ..model.evaluate import static, substitute
        from ..model.expand import Env, script_text
        from ..model.files import FileView
        from ..model.utilities.shellbuiltins import PrintUnknown, echo_text
        from ..model.values import Opaque, concat, unknown_text
        from ..syntax.errors import NestedTooDeep
        from ..syntax.parser import RESERVED, parse_prefix

        cls.Meter, cls.static, cls.substitute, cls.Env, cls.script_text = Meter, static, substitute, Env, script_text
        cls.FileView, cls.Opaque, cls.concat = FileView, Opaque, concat
        cls.unknown_text, cls.parse_prefix = unknown_text, parse_prefix
        cls.BUILTINS, cls.RESERVED, cls.working_directory = BUILTINS, RESERVED, working_directory
        cls.echo_text, cls.printf_text = echo_text, printf_text
        cls.READERS, cls.PURE_READERS, cls.reads_only = READERS, PURE_READERS, reads_only
        cls.failures = (BudgetExceeded, RecursionError, NestedTooDeep)
        cls.print_failures = cls.failures + (PrintUnknown,)
        cls.loaded = True
        return cls


# a body of simple commands, maybe in a pipeline, whose words no expansion can fail
# or multiply: literal text, single quotes, and double quotes around literal text
# and parameters by name; the command names literal
_LITERAL = r"[A-Za-z0-9_./:+%,@=-]"
_WORD = (r"(?:" + _LITERAL + r"|'[^'|\n]*'"
         r"|\"(?:[A-Za-z0-9_./:+%,@= -]|\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\})*\")+")
_COMMAND = _LITERAL + r"+(?:[ ]+" + _WORD + r")*"
_PLAIN_WORD = re.compile(_LITERAL + r"+")
_LITERAL_BODY = re.compile(r"[ ]*" + _COMMAND + r"(?:[ ]*\|[ ]*" + _COMMAND + r")*[ ]*")
# what the walk of such a body charges at most: steps per command, bytes per character
# of the body and per command, and per expansion, bytes per character of the longest
# value in the environment (tests/harness/test_outersubst.py measures them)
_STEPS_AT_MOST = 2
_BYTES_AT_MOST = 32
_VALUE_BYTES_AT_MOST = 4

# a lone echo or printf whose words hold no expansion: literal text, single quotes, and
# double quotes around text that no backslash or `$` changes (the model's builtins
# then print them, as the walk would have them print)
_PRINTED_WORD = r"(?:[A-Za-z0-9_./:+%,@=-]|'[^'\n]*'|\"[A-Za-z0-9_./:+%,@= ]*\")+"
_PRINTING_BODY = re.compile(r"[ ]*(echo|printf)((?:[ ]+" + _PRINTED_WORD + r")*)[ ]*")
_PRINTED_WORDS = re.compile(_PRINTED_WORD)
_PIECES = re.compile(r"'([^'\n]*)'|\"([^\"]*)\"|([^'\"]+)")  # a word's quoted and unquoted runs

_SHELLS: dict = {}  # (working directory, host) -> the outer shell at its start


def _starting_shell(model, cwd: str, host: bool, environ):
    """The outer shell as the general path starts it (``simulate._through_bash``, with
    ``environ(cwd)``, the executor's environment), with substitutions evaluated
    statically; each run takes a copy."""
    key = (cwd, host)
    env = _SHELLS.get(key)
    if env is None:
        files = model.FileView(cwd, None, host=host)
        env = model.static(model.Env.from_environ(environ(cwd), cwd, invoked_as="bash",
                                                  files=files, meter=model.Meter()))
        if len(_SHELLS) >= 64:
            _SHELLS.clear()
        _SHELLS[key] = env
    return env


class OuterSubstitutions:
    """The substitutions of one reply's outer words (the ``substitute`` of
    ``outerwords.words``), run in a shell started in ``cwd`` (an absolute path) with the
    executor's environment ``environ(cwd)`` (simulate.default_environ), whose files
    are read from this machine when ``host``; a body that runs one of ``noted`` is
    left to the general path.

    ``effects`` receives the text of each substitution run, in order (the general
    path's ``$(…)`` outer effects); ``names`` the names of unknown outputs, once each.
    """

    __slots__ = ("cwd", "host", "noted", "environ", "meter", "files", "status", "effects", "names")

    def __init__(self, cwd: str, host: bool, noted: frozenset, environ):
        self.cwd = cwd
        self.host = host
        self.environ = environ
        self.noted = noted  # commands whose run the general path notes: left to it
        self.meter = None
        self.files = None
        self.status = 0
        self.effects: list = []
        self.names: list = []

    def run(self, body: str, backquoted: bool):
        """The value of the substitution of ``body`` as a piece of a word, or None."""
        if "\n" in body or "LINENO" in body:
            return None  # (the line a body's commands report is the general path's)
        model = _Model if _Model.loaded else _Model.load()
        if _LITERAL_BODY.fullmatch(body):
            piece = self._programs(body, model)
            if piece is not None:
                return piece
        printing = _PRINTING_BODY.fullmatch(body)
        if printing is not None:
            piece = self._printed(body, printing.group(1), printing.group(2), model)
            if piece is not None:
                return piece
        script = model.parse_prefix(body)
        if script.error is not None or not script.chunks:
            return None
        meter = self._meter(model)
        env = _starting_shell(model, self.cwd, self.host, self.environ).copy()
        env.files = self._view(model)
        env.meter = meter
        env.lineno = 1
        env.status = self.status  # the status of the substitution before: `$?` reads it
        try:
            result = model.substitute(script, env)
        except model.failures:
            return None
        self.status = result.status
        if self._near_limit(meter):
            return None
        for record in result.commands:
            if record.argv and record.argv[0] in self.noted:
                return None
        return self._kept(model, result.stdout, "$(" + model.script_text(script) + ")")

    def _meter(self, model):
        """One budget for all of the reply's substitutions."""
        if self.meter is None:
            self.meter = model.Meter()
        return self.meter

    def _view(self, model):
        """One view of the files for all of the reply's substitutions (made when one
        asks: echo and printf of plain words read none)."""
        if self.files is None:
            self.files = model.FileView(self.cwd, None, host=self.host)
        return self.files

    @staticmethod
    def _near_limit(meter) -> bool:
        # the general path spends some of the same budget on the outer words: leave it any
        # substitution that comes near the limit
        budget = meter.budget
        return meter.exceeded is not None or meter.steps * 2 > budget.steps or meter.bytes * 2 > budget.bytes

    def _kept(self, model, stdout, effect: str):
        """The piece a substitution's ``stdout`` makes, noted as the general path notes it."""
        if isinstance(stdout, model.Opaque):
            if stdout.name not in self.names:
                self.names.append(stdout.name)
            piece = model.unknown_text(stdout)
        elif type(stdout) is str:
            # bash drops NUL bytes from the output, then all trailing newlines
            piece = stdout.replace("\0", "").rstrip("\n")
        else:
            return None
        self.effects.append(effect)
        return piece

    def _programs(self, body: str, model):
        """The closed form of ``run`` for a body of programs the model does not run, named
        literally, with words no expansion can fail (``date +%s``, ``ls | wc -l``,
        ``basename "$PWD"``): their output and status are unknown, named after the
        substitution whatever their arguments, and they may change any file (but for
        readers of plain words, ``external.reads_only``). And for
        ``pwd`` (which ignores its words here): the starting shell's directory. None for
        another body.

        It charges the budget at least what the walk would (``_STEPS_AT_MOST``,
        ``_BYTES_AT_MOST``), so it gives a reply up no later than ``substitute`` would."""
        text = body.strip()
        commands = [command.strip() for command in text.split("|")]
        directory = None
        readers = 0  # the commands that change no file (external.reads_only)
        if text == "pwd":
            directory = model.working_directory(_starting_shell(model, self.cwd, self.host, self.environ))
        else:
            for command in commands:
                name = command.split(" ", 1)[0]
                if not name or "=" in name or model.BUILTINS.get(name) is not None or name in model.RESERVED \
                        or name in self.noted:
                    return None  # (a builtin, a keyword, an assignment, `||`, or a shell the general path notes)
                if name in model.PURE_READERS:
                    readers += 1
                elif name in model.READERS:
                    words = command.split()
                    if not all(_PLAIN_WORD.fullmatch(word) for word in words):
                        return None  # (whether it reads only depends on what its words expand to)
                    readers += model.reads_only(name, words)
        meter = self._meter(model)
        values = 0
        if directory is not None:
            values = _VALUE_BYTES_AT_MOST * len(directory)
        elif "$" in text:
            longest = max(map(len, self.environ(self.cwd).values()), default=0)
            values = text.count("$") * _VALUE_BYTES_AT_MOST * longest
        try:
            meter.step(_STEPS_AT_MOST * len(commands), "commands")
            meter.build(_BYTES_AT_MOST * (len(text) + len(commands)) + values, "records")
        except model.failures:
            return None
        if self._near_limit(meter):
            return None
        name = f"$({text})"
        if directory is not None:
            self.status = 0
            return self._kept(model, directory + "\n", name)
        # (a pipeline's commands run on copies of the view, which it takes back as a whole)
        if readers < len(commands):
            self._view(model).lose(f"the files after `{text}`" if len(commands) == 1
                                   else f"the files after the pipeline `{text}`")
        self.status = model.Opaque(f"status of {name}")
        return self._kept(model, model.Opaque(name), name)

    def unknown(self, name: str):
        """The piece of a parameter the outer shell holds no text for (``$HOSTNAME``),
        named as the general path names it."""
        model = _Model if _Model.loaded else _Model.load()
        if name not in self.names:
            self.names.append(name)
        return model.unknown_text(model.Opaque(name))

    def _printed(self, body: str, name: str, words: str, model):
        """The closed form of ``run`` for ``echo`` or ``printf`` with words no expansion
        changes (``_PRINTING_BODY``), printf's first not an option: what the model's
        builtin prints, status 0, the files as they were. None when it fails, writes to
        stderr or prints what the model does not follow."""
        args = [word if "'" not in word and '"' not in word else
                "".join([a or b or c for a, b, c in _PIECES.findall(word)]) for word in _PRINTED_WORDS.findall(words)]
        if name == "printf" and (not args or args[0].startswith("-")):
            return None  # (its usage error, an option, -v, or `--`)
        meter = self._meter(model)
        text = body.strip()
        try:
            meter.step(_STEPS_AT_MOST, "commands")
            meter.build(_BYTES_AT_MOST * (len(text) + 1), "records")
            if name == "echo":
                output = model.echo_text(args)  # (no longer than its words)
                meter.build(_VALUE_BYTES_AT_MOST * len(output), "records")
            else:
                shell = _starting_shell(model, self.cwd, self.host, self.environ)
                printed, output = model.printf_text(args, shell.locale_is_c, meter)
                if printed.status != 0 or printed.errors:
                    return None
        except model.print_failures:
            return None
        if self._near_limit(meter):
            return None
        self.status = 0
        return self._kept(model, output, f"$({text})")

    def join(self, pieces: list) -> str:
        """The word of ``pieces``, the spans of unknown outputs kept."""
        return (_Model if _Model.loaded else _Model.load()).concat(pieces)

