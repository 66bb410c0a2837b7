"""``python3`` as a command model: argv, program source, exit status, stdout and stderr.

The program is parsed with ``ast`` (a program that does not parse is a sure
failure with python3's own message) and interpreted over the virtual tree by
``Interpreter``; whatever falls outside the modelled subset makes the result
``unknown``.
"""

import ast
import errno
import posixpath
import re
import builtins
import sys
import traceback
import types

from qbcore.model.utilities.context import (OTHER_ORDERS, STDIN_NAMES, CommandContext, CommandResult, in_order,
                                           mark_other_order)
from qbcore.model.utilities.common import OptionUnknown
from qbcore.model.utilities.vfs import VfsError, same_entries

from .files import Process, open_file
from .interp import SAFE_TYPES, Function, Interpreter, check_order
from .jsontool import json_tool
from .modules import Module, PosixPath, make_modules
from .signals import Limits, NotModelled, ProgramExit, PyRaise, written_in_c
from .suggest import closest

_FLAGS_WITHOUT_VALUE = set("BEIsSOqbuR")
_PURE_BUILTINS = (
    "len", "range", "str", "int", "float", "bool", "list", "tuple", "dict", "set", "frozenset",
    "sorted", "reversed", "enumerate", "zip", "map", "filter", "sum", "min", "max", "abs", "round",
    "repr", "ascii", "chr", "ord", "hex", "oct", "bin", "format", "any", "all", "divmod", "pow",
    "iter", "next", "bytes", "bytearray", "callable", "slice",
)
_EXCEPTIONS = {name: value for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException)}
_SIZED_METHODS = {"ljust", "rjust", "center", "zfill", "expandtabs"}


class Usage:
    """What the command line asks for: where the program comes from and its argv."""

    def __init__(self, source=None, filename=None, script=None, argv=None, unbuffered=False, module=None):
        self.module = module  # -m MODULE: its name, ``argv[1:]`` its arguments
        self.source = source
        self.filename = filename
        self.script = script
        self.argv = argv
        self.unbuffered = unbuffered


def parse_command_line(argv):
    """python3's own option parsing, for the options a reply may pass."""
    args = list(argv[1:])
    usage = Usage()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-c":
            if i + 1 >= len(args):
                return None, "Argument expected for the -c option"
            usage.source, usage.filename = args[i + 1], "<string>"
            usage.argv = ["-c"] + args[i + 2:]
            return usage, None
        if arg == "-":
            usage.filename, usage.argv = "<stdin>", ["-"] + args[i + 1:]
            return usage, None
        if arg == "--":
            i += 1
            break
        if arg.startswith("--"):
            raise NotModelled(f"python3 option {arg}")
        if arg.startswith("-") and len(arg) > 1:
            j = 1
            while j < len(arg):
                flag = arg[j]
                if flag == "c":
                    code = arg[j + 1:] or (args[i + 1] if i + 1 < len(args) else None)
                    if code is None:
                        return None, "Argument expected for the -c option"
                    rest = args[i + 1:] if arg[j + 1:] else args[i + 2:]
                    usage.source, usage.filename, usage.argv = code, "<string>", ["-c"] + rest
                    return usage, None
                if flag == "m":
                    name = arg[j + 1:] or (args[i + 1] if i + 1 < len(args) else None)
                    if name is None:
                        return None, "Argument expected for the -m option"
                    rest = args[i + 1:] if arg[j + 1:] else args[i + 2:]
                    usage.module, usage.argv = name, [name] + rest
                    return usage, None
                if flag in ("X", "W"):
                    if not arg[j + 1:]:
                        i += 1
                    break
                if flag not in _FLAGS_WITHOUT_VALUE:
                    raise NotModelled(f"python3 option -{flag}")
                if flag == "u":
                    usage.unbuffered = True
                j += 1
            i += 1
            continue
        break
    if i < len(args):
        usage.script, usage.argv = args[i], args[i:]
    else:
        usage.filename, usage.argv = "<stdin>", [""]
    return usage, None


class Runtime:
    """What the interpreter asks of the world: builtins, modules, size guards."""

    def __init__(self, proc, run_command):
        self.proc = proc
        self.limits = proc.limits
        self.run_command = run_command
        self.interp = None
        self.modules = None
        self.builtins = {}
        self.safe_classes = set()
        self.first_path = proc.cwd  # sys.path[0]: the script's folder, or the working directory

    def attach(self, interp):
        self.interp = interp
        self.proc.tick = interp.tick
        self.proc.holds = interp.holds
        self.modules = make_modules(self.proc, interp, self.run_command)
        self.builtins = self._builtins()
        self.safe_classes = {v for v in self.builtins.values() if isinstance(v, type)}

    def builtin(self, name):
        return self.builtins.get(name)

    def import_module(self, name):
        top = name.split(".")[0]
        if top not in sys.builtin_module_names and self.first_path is not None and any(
                self.proc.tree.exists(posixpath.join(self.first_path, top + end)) for end in (".py", "")):
            # (python3 finds the program's own folder first: its json.py is the json imported)
            raise NotModelled(f"import {top}, whose name the program's own folder holds")
        if name in self.modules:
            return self.modules[name]
        if top in sys.stdlib_module_names:
            return Module(name, {}, None)
        raise NotModelled(f"import {name}")

    def import_from(self, module, module_name, name):
        submodule = f"{module_name}.{name}"
        if submodule in self.modules:
            return self.modules[submodule]
        if module.real is not None and not hasattr(module.real, name) and name not in module.attrs:
            raise PyRaise(ImportError(f"cannot import name '{name}' from '{module_name}'"))
        return module.model_attr(name)

    def guard_call(self, func, args, kwargs):
        """Refuse calls whose size or running time the model cannot bound."""
        for a in list(args) + list(kwargs.values()):
            if isinstance(a, range) and len(a) > self.limits.items:
                raise NotModelled(f"a range of {len(a)} items")
        owner = getattr(func, "__self__", None)
        name = getattr(func, "__name__", "")
        if isinstance(owner, (str, bytes, bytearray)):
            if name in _SIZED_METHODS:
                for a in args:
                    if isinstance(a, int) and a > self.limits.text:
                        raise NotModelled(f"str.{name} to {a} characters")
            elif name == "join" and args and isinstance(args[0], (list, tuple)):
                total = sum(len(x) for x in args[0] if isinstance(x, (str, bytes)))
                self.interp.check_text(total + len(owner) * len(args[0]))
            elif name == "replace" and len(args) >= 2 and isinstance(args[0], type(owner)) \
                    and isinstance(args[1], type(owner)):
                count = owner.count(args[0]) if args[0] else len(owner) + 1
                self.interp.check_text(len(owner) + count * len(args[1]))
        if func in (bytes, bytearray) and args and isinstance(args[0], int) and args[0] > self.limits.text:
            raise NotModelled(f"{func.__name__}({args[0]})")
        if func is iter and len(args) == 2:
            raise NotModelled("iter() with a sentinel")
        if func in (str, repr, ascii, format) and args:
            self.interp.check_printable(args[0])
        if func not in _ORDER_BLIND and not (isinstance(owner, (set, frozenset)) and name != "pop"):
            for a in list(args) + list(kwargs.values()):
                check_order(a)
        if isinstance(owner, (set, frozenset)) and name == "pop":
            check_order(owner)
        elif isinstance(owner, str) and name in ("format", "format_map"):
            for a in list(args) + list(kwargs.values()):
                self.interp.check_printable(a)

    def _builtins(self):
        proc, interp = self.proc, self.interp
        table = {name: getattr(builtins, name) for name in _PURE_BUILTINS}
        table.update(_EXCEPTIONS)

        def print_(*args, sep=" ", end="\n", file=None, flush=False):
            for what, value in (("sep", sep), ("end", end)):
                if value is not None and not isinstance(value, str):
                    raise PyRaise(TypeError(f"{what} must be None or a string, not {type(value).__name__}"))
            sep = " " if sep is None else sep
            end = "\n" if end is None else end
            text = sep.join(interp.str(a) for a in args) + end
            if file is None:
                self.modules["sys"].attrs["stdout"].write(text)
            else:
                writer = getattr(file, "model_attr", None)
                if writer is None:
                    raise PyRaise(AttributeError(f"'{type(file).__name__}' object has no attribute 'write'"))
                writer("write")(text)
                if flush:
                    writer("flush")()
            if flush and file is None:
                proc.flush_out()

        def input_(prompt=""):
            if prompt:
                self.modules["sys"].attrs["stdout"].write(interp.str(prompt))
            line = proc.readline_stdin()
            if not line:
                raise PyRaise(EOFError("EOF when reading a line"))
            text = line.decode("utf-8", "strict")
            return text[:-1] if text.endswith("\n") else text

        def exit_(code=None):
            raise ProgramExit(code)

        def isinstance_(value, classinfo):
            classes = classinfo if isinstance(classinfo, tuple) else (classinfo,)
            for c in classes:
                check = getattr(c, "model_isinstance", None)
                if check is not None and not isinstance(c, type):
                    if check(value):
                        return True
                elif not isinstance(c, type):
                    raise PyRaise(TypeError(
                        "isinstance() arg 2 must be a type, a tuple of types, or a union"))
                elif isinstance(value, c):
                    return True
            return False

        def open_(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True,
                  opener=None):
            return open_file(proc, file, mode, buffering, encoding, errors, newline, closefd, opener)

        table.update({"print": written_in_c(print_), "input": written_in_c(input_), "exit": exit_, "quit": exit_,
                      "isinstance": written_in_c(isinstance_), "open": written_in_c(open_)})
        return table


def _os_error_line(exc):
    return traceback.format_exception_only(type(exc), exc)[-1].rstrip("\n")


def exception_text(raised, filename, source_lines):
    """The traceback python3 prints for the uncaught exception ``raised`` (a PyRaise); None
    where the model does not know it: the innermost call that failed is to a library function
    written in Python (which adds frames of its own), or a line of the program it shows may
    carry carets (python3.11 marks the part of a line that failed) as far as PyRaise.where tells."""
    exc, frames, where = raised.exc, getattr(raised, "frames", None) or [("<module>", 1)], raised.where
    if raised.callee is not None and not _adds_no_frames(raised.callee):
        return None
    lines = ["Traceback (most recent call last):"]
    for depth, (name, lineno) in enumerate(frames, 1):
        node = where.get(depth)
        lineno = getattr(node, "lineno", lineno)  # (the line the part that failed starts on)
        lines.append(f'  File "{filename}", line {lineno}, in {name}')
        if source_lines is not None and 0 < lineno <= len(source_lines):
            line = source_lines[lineno - 1]
            if not _plain_line(line, node):
                return None
            lines.append("    " + line.strip())
    last = _os_error_line(exc)
    hint = getattr(exc, "model_hint", None)
    if hint:
        last += f". Did you mean: '{hint}'?"
    lines.append(last)
    return "\n".join(lines) + "\n"


def _plain_line(line: str, node) -> bool:
    """Whether python3.11 shows ``line`` with no carets under it for an error at ``node``: the
    part that failed is the whole line (its blanks aside; offsets in UTF-8 bytes) or spans
    lines, and is no binary operation or subscript (whose operator or brackets it marks)."""
    if node is None or getattr(node, "end_lineno", None) is None:
        return False
    if node.lineno != node.end_lineno:
        return True
    raw = line.encode("utf-8")
    return node.col_offset == len(raw) - len(raw.lstrip()) and \
        node.end_col_offset == len(raw.rstrip()) and not isinstance(_expression(node), (ast.BinOp, ast.Subscript))


def _expression(node):
    """The expression a statement holds, if it is one (its line is that expression's)."""
    return node.value if isinstance(node, ast.Expr) else node


def _adds_no_frames(callee) -> bool:
    """Whether an exception from calling ``callee`` shows no frame of the callee's own: a
    function of the program (its frames are the model's), one of python3's written in C, or
    the model of one (signals.written_in_c)."""
    if isinstance(callee, Function) or isinstance(callee, _C_TYPES) or \
            isinstance(callee, type) and callee.__module__ == "builtins":
        return True
    # a model function so marked, or a method of a model object so marked (a file, a csv writer)
    return getattr(getattr(callee, "__func__", callee), "written_in_c", False) or \
        getattr(getattr(callee, "__self__", None), "written_in_c", False) is True


_C_TYPES = (types.BuiltinFunctionType, types.BuiltinMethodType, types.MethodDescriptorType,
            types.WrapperDescriptorType, types.MethodWrapperType, types.ClassMethodDescriptorType)


def syntax_error_text(exc):
    """python3's report of a program that does not parse (its C printer, not ``traceback``'s:
    an IndentationError gets a single caret)."""
    if isinstance(exc, IndentationError) and exc.offset is not None:
        exc = type(exc)(exc.msg, (exc.filename, exc.lineno, exc.offset, exc.text, exc.lineno, exc.offset + 1))
    return "".join(traceback.format_exception_only(type(exc), exc))


# the names through which the modelled library reaches the process's environment (os.environ,
# getenv, expanduser and Path.home read HOME, a subprocess inherits it all), and the ways a
# program reaches a name without spelling it
_ENVIRONMENT_NAMES = frozenset({
    "environ", "environb", "getenv", "getenvb", "putenv", "unsetenv", "expanduser", "expandvars", "home",
    "subprocess", "system", "popen", "spawn", "execv", "execve", "execvp", "execvpe", "execl", "execle",
    "execlp", "execlpe", "which", "getattr", "vars", "globals", "locals", "__dict__", "eval", "exec",
    "__import__", "importlib", "import_module", "__builtins__", "builtins", "getuser", "getpass",
    "tempfile", "gettempdir", "mkstemp", "mkdtemp"})


def reaches_environment(module: ast.AST) -> bool:
    """Whether a program may read its environment: it names (as a name, an attribute, an
    imported name or a string) something in _ENVIRONMENT_NAMES. A program that does not
    never depends on the values of its environment, so a run cache need not key it by them."""
    for node in ast.walk(module):
        if isinstance(node, ast.Name):
            word = node.id
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.alias):
            if any(part in _ENVIRONMENT_NAMES for part in node.name.split(".")):
                return True
            word = node.asname
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if any(part in _ENVIRONMENT_NAMES for part in re.findall(r"\w+", node.value)):
                return True
            continue
        else:
            continue
        if word in _ENVIRONMENT_NAMES:
            return True
    return False


# builtins whose result does not depend on the order they go through a set in
_ORDER_BLIND = frozenset({sorted, len, min, max, any, all, set, frozenset, bool, isinstance, type, id, hash})


class ListingOrder:
    """The order one run of the model lists directories in (and loops over a set of strings
    in). python3 lists them in the file system's order (and hashes strings with a salt of
    each process), which no static model knows; so a run that listed one with two entries
    or more (``used``) is run again from the same starting tree in each of the other orders
    (``context.OTHER_ORDERS``), and the files it leaves must not change; its output may,
    then it is known only as lines in no known order, or not at all."""

    __slots__ = ("turn", "used")

    def __init__(self, turn: str):
        self.turn = turn        # "name" or one of OTHER_ORDERS
        self.used = False

    def apply(self, names: list) -> list:
        self.used = True
        return in_order(names, self.turn)


def python3_model(ctx, run_command=None, limits=None):
    """Model one ``python3`` invocation over ``ctx.tree``."""
    run_command = run_command or getattr(ctx, "run_command", None)
    limits = limits or Limits()
    try:
        spare = ctx.tree.clone()
        order = ListingOrder("name")
        ran: list = []

        def counted(*args, **kwargs):
            ran.append(args)
            return run_command(*args, **kwargs)

        result = _run(ctx, counted if run_command is not None else None, limits, order)
        if order.used and result.unknown is None:
            if ran:  # the commands it ran would run again, and their effects beyond the tree twice
                raise NotModelled("the order of a directory listing (the file system's) in a program "
                                  "that runs commands")
            for turn in OTHER_ORDERS:
                tree = spare.clone()
                # the stdin the first run took (a stream's or the script's is taken once)
                # (what the first run left of a stdin it never read is not taken now either)
                stdin = ctx.stdin if getattr(ctx, "_data", b"") is not None else b""
                again = _run(CommandContext(list(ctx.argv), stdin, ctx.cwd, ctx.env, tree, ctx.stdin_unordered,
                                            bash=ctx.bash),
                             None, limits, ListingOrder(turn))
                _judge_order(result, again, ctx.tree, tree)
        return result
    except NotModelled as missing:
        return CommandResult(status=0, stdout=b"", stderr=b"", unknown=f"python3: {missing.what}")
    except RecursionError:
        return CommandResult(status=0, stdout=b"", stderr=b"",
                             unknown="python3: a program nested deeper than the model follows")


def _judge_order(result, again, tree, again_tree):
    """Mark in ``result`` what another listing order changed (``again``, which left
    ``again_tree``): the files or stderr make the run unknown; the rest as mark_other_order."""
    why = "the order python3 lists a directory (the file system's) or goes through a set of strings (salted) in"
    if again.unknown is not None or again.stderr != result.stderr or not same_entries(tree, again_tree):
        raise NotModelled(f"{why}, which changes the files or what the program says")
    mark_other_order(result, again, why)


def _taken_stdin(ctx) -> bytes:
    """The program's stdin, taken as it first reads it; one the shell model does not know makes
    the run unknown there, never an exception the program could catch."""
    try:
        return ctx.stdin
    except OptionUnknown as exc:
        raise NotModelled(str(exc)) from None


def _run(ctx, run_command, limits, order):
    usage, problem = parse_command_line(ctx.argv)
    if usage is None:
        return CommandResult(status=2, stdout=b"", stderr=(
            f"{problem}\nusage: {ctx.argv[0]} [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
            f"Try `python -h' for more information.\n").encode())
    unbuffered = usage.unbuffered or bool(ctx.env.get("PYTHONUNBUFFERED"))
    # its stdin is taken when the program first reads it: `python3 -c` that never does leaves a
    # stream, or the rest of bash's own script (the stdin transport), where it was
    proc = Process(ctx.tree, ctx.cwd, ctx.env, lambda: _taken_stdin(ctx), limits, unbuffered)
    proc.stdin_regular = ctx.stdin_regular
    proc.listing = order
    if usage.module is not None:
        if usage.module != "json.tool":
            raise NotModelled(f"python3 -m {usage.module}")
        source, refused = json_tool(usage.argv[1:], proc, ctx.env)
        if refused is not None:
            return CommandResult(status=refused[0], stdout=b"", stderr=refused[1])
        usage.source, usage.filename = source, "<json.tool>"
    from_stdin = bool(usage.script) and posixpath.normpath(proc.abs(usage.script)) in STDIN_NAMES
    if from_stdin:
        # `python3 /dev/stdin <<EOF`: the program is the pipe's bytes, as with `-`, but named as
        # a file; its traceback reads the lines again from the pipe, drained by then
        if ctx.stdin_regular is not False:
            raise NotModelled(f"python3 {usage.script} on a stdin that is no pipe, or not known")
        path = filename = posixpath.normpath(proc.abs(usage.script))
        raw, proc.stdin = proc.stdin, b""
    elif usage.script is not None:
        if not usage.script:  # python3 runs the current folder then (measured)
            raise NotModelled("running a directory (an empty name)")
        path = proc.abs(usage.script)
        if ctx.tree.is_dir(path):
            raise NotModelled("running a directory")
        try:
            raw = ctx.tree.read_bytes(path)  # (a regular file, or /dev/null: empty)
        except VfsError as exc:  # missing, or a name on the way that is no folder
            return CommandResult(status=2, stdout=b"", stderr=(
                f"{ctx.argv[0]}: can't open file {path!r}: "
                f"[Errno {getattr(errno, exc.errno_name)}] {exc.strerror}\n").encode())
        # python3 >= 3.9 shows __main__'s file as an absolute path: the name joined to the working
        # folder as it is spelled, not normalised (measured: `python3 ./a/../x.py`, `python3 nope/`)
        filename = path
    elif usage.source is not None:
        raw = usage.source.encode("utf-8", "surrogateescape")
        filename = usage.filename
    else:
        raw, proc.stdin = proc.stdin, b""
        filename = usage.filename
    proc.argv = list(usage.argv)

    try:
        module = compile(raw, filename, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        # symbol-table and compiler checks ('return' outside function, ...); the
        # code object is discarded, never run
        compile(module, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        if from_stdin:  # (its message shows the line read again from the pipe, drained by then)
            return CommandResult(status=1, stdout=b"", stderr=b"",
                                 stderr_unknown=f"python3's syntax error in a program read from {filename}")
        return CommandResult(status=1, stdout=b"", stderr=syntax_error_text(exc).encode())
    except (ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, ValueError) and "null bytes" in str(exc):
            return CommandResult(status=1, stdout=b"", stderr=(
                "SyntaxError: source code string cannot contain null bytes\n").encode())
        raise NotModelled("a program that is not valid UTF-8") from None
    except (RecursionError, MemoryError):
        raise NotModelled("a program too deeply nested to parse") from None
    if not reaches_environment(module):
        proc.quiet_environ()

    source_lines = None
    if usage.script is not None and not from_stdin:
        source_lines = raw.decode("utf-8", "replace").splitlines()
    runtime = Runtime(proc, run_command)
    if usage.script is not None:
        # (/dev holds no module: its folders, fd pts shm mqueue, are no name imported)
        runtime.first_path = None if from_stdin else posixpath.dirname(posixpath.normpath(path))
    interp = Interpreter(runtime, filename)
    runtime.attach(interp)
    if usage.script is not None or filename == "<stdin>":
        interp.globals["__file__"] = filename   # python3 -c defines no __file__
    status = 0
    traceback_unknown = False
    try:
        interp.run_module(module)
    except PyRaise as raised:
        if usage.module is not None:
            raise NotModelled(f"the traceback of python3 -m {usage.module}") from None
        # (an exception raised while another is handled chains both, and a re-raised one shows
        # where it was first raised: with try or with, the model claims no traceback)
        text = None if _handles_exceptions(module) or from_stdin else \
            exception_text(raised, filename, source_lines)
        # (where the rest is not known, the traceback's first line is)
        proc.write_err((text or "Traceback (most recent call last):\n").encode())
        traceback_unknown = text is None
        status = 1
    except ProgramExit as leaving:
        status = _exit_status(leaving.code, proc, interp)
    proc.flush_out()
    proc.close_all()
    return CommandResult(status=status, stdout=bytes(proc.out), stderr=bytes(proc.err),
                         stderr_unknown="the rest of python3's traceback (its carets, a library's frames, a chain)"
                         if traceback_unknown else None)


def _handles_exceptions(module) -> bool:
    """Whether the program handles exceptions (try, with): a traceback may then chain two, or
    show where one was first raised, which the model does not keep."""
    return any(isinstance(node, (ast.Try, ast.With)) for node in ast.walk(module))


def _exit_status(code, proc, interp):
    if code is None:
        return 0
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int):
        return code & 0xFF
    proc.write_err((interp.str(code) + "\n").encode("utf-8", "backslashreplace"))
    return 1


def model(ctx, run_command=None):
    """The registry entry point: ``model(ctx) -> CommandResult``."""
    return python3_model(ctx, run_command=run_command)


__all__ = ["model", "python3_model", "Limits", "SAFE_TYPES", "PosixPath"]
