"""A tree-walking interpreter for the subset of Python that shell replies use.

It walks the ``ast`` of the program and never hands program text to ``exec``,
``eval`` or ``compile``. Values are plain Python values (str, bytes, int, list,
dict ...) plus the runtime's stand-ins for files, paths and modules; every
attribute and callable the program can reach is whitelisted, so whatever the
program does, only modelled operations run. Anything else raises
``NotModelled``.
"""

import ast
import builtins
import gc
import operator
import re
import string
import subprocess
import types

from .signals import NotModelled, ProgramExit, PyRaise, models_own

_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_,
          ast.Invert: operator.invert}
_COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}

# Plain value types whose public attributes the program may use directly.
SAFE_TYPES = (str, bytes, bytearray, int, float, bool, list, tuple, dict, set, frozenset,
              type(None), complex, range, type({}.keys()), type({}.values()), type({}.items()),
              re.Pattern, re.Match, BaseException, subprocess.CompletedProcess)
_SIZED_METHODS = {"ljust", "rjust", "center", "zfill", "expandtabs"}
# what Interpreter.holds never looks into: values that hold no references, and classes
_ATOMS = frozenset({str, bytes, int, float, bool, complex, type(None), type, range})
_REACH_BUDGET, _REACH_BUDGET_RUN = 20_000, 1_000_000
_BUILTIN_ONLY_ATTRS = {"with_traceback", "add_note"}


class _Undefined:
    """Marks a local name that has not been bound yet."""


UNBOUND = _Undefined()


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Return(Exception):
    def __init__(self, value):
        super().__init__()
        self.value = value


class Scope:
    """One function activation (or the module): its names and the enclosing scope."""

    def __init__(self, names, parent=None, local_names=(), declared_global=(), nonlocal_names=()):
        self.names = names
        self.parent = parent
        self.local_names = set(local_names)
        self.declared_global = set(declared_global)
        self.nonlocal_names = set(nonlocal_names)


def _assigned_names(body, args=None):
    """Names a function body binds (its locals), and its global / nonlocal declarations."""
    bound, globals_, nonlocals = set(), set(), set()
    if args is not None:
        for a in args.posonlyargs + args.args + args.kwonlyargs:
            bound.add(a.arg)
        if args.vararg:
            bound.add(args.vararg.arg)
        if args.kwarg:
            bound.add(args.kwarg.arg)

    def visit(node):
        if isinstance(node, ast.Global):
            globals_.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            nonlocals.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            for d in getattr(node, "decorator_list", []):
                visit(d)
            return
        elif isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.NamedExpr):
            bound.add(node.target.id)
        for child in ast.iter_child_nodes(node):
            visit(child)

    for stmt in body:
        visit(stmt)
    return bound - globals_ - nonlocals, globals_, nonlocals


class Function:
    """A ``def`` or ``lambda`` of the program; callable so that sorted(key=f) and map(f, …) work."""

    def __init__(self, interp, name, args, body, scope, defaults, kw_defaults, is_lambda=False):
        self.interp = interp
        self.__name__ = name
        self.args = args
        self.body = body
        self.scope = scope
        self.defaults = defaults
        self.kw_defaults = kw_defaults
        self.is_lambda = is_lambda
        if is_lambda:
            self.locals, self.globals_, self.nonlocals = _assigned_names([ast.Expr(body)], args)
        else:
            self.locals, self.globals_, self.nonlocals = _assigned_names(body, args)

    def __repr__(self):
        raise NotModelled("the text of a function object")

    __str__ = __repr__

    def __call__(self, *args, **kwargs):
        return self.interp.call_function(self, list(args), kwargs)


class Interpreter:
    """Runs a parsed module over a ``Runtime`` (the virtual process around the program)."""

    def __init__(self, runtime, filename):
        self.rt = runtime
        self.filename = filename
        self.steps = 0
        self.limits = runtime.limits
        self.frames = []          # [name, lineno] per active call, for tracebacks
        self.globals = {"__name__": "__main__", "__doc__": None, "__spec__": None, "__package__": None}
        self.module_scope = Scope(self.globals)
        self.scopes = [self.module_scope]  # the module's and each active call's
        self.reach_left = _REACH_BUDGET_RUN  # what holds() may still look at in this run
        self.handling = []        # exceptions being handled (for bare raise)

    # -- bookkeeping -------------------------------------------------------

    def tick(self, n=1):
        self.steps += n
        if self.steps > self.limits.steps:
            raise NotModelled(f"step budget of {self.limits.steps} exceeded (a loop that may not end)")

    def holds(self, target) -> bool:
        """Whether the program can still reach ``target``: from a name of the module or of
        an active call, through containers, closures, bound methods, or an exception being
        handled. CPython frees what it cannot reach (a file freed is closed). A search
        longer than its budget, or past the run's, answers True, the cautious answer."""
        blocked = (id(self), id(self.rt), id(self.rt.proc))  # they reach every file, not the program
        seen = set(blocked)
        todo = list(self.scopes) + list(self.handling)
        budget = min(_REACH_BUDGET, self.reach_left)
        try:
            while todo:
                budget -= 1  # every value looked at counts, numbers in a long list too
                if budget < 0:
                    return True
                obj = todo.pop()
                if obj is target:
                    return True
                if type(obj) in _ATOMS or id(obj) in seen:
                    continue
                seen.add(id(obj))
                todo.extend(_referents(obj))
            return False
        finally:
            self.reach_left -= min(_REACH_BUDGET, self.reach_left) - max(budget, 0)

    def real(self, func, *args, **kwargs):
        """Call a whitelisted real callable; its exceptions become the program's exceptions."""
        try:
            return func(*args, **kwargs)
        except (NotModelled, ProgramExit, PyRaise, _Return, _Break, _Continue):
            raise
        except RecursionError:
            raise NotModelled("recursion deeper than the model follows") from None
        except MemoryError:
            raise NotModelled("a value larger than the model builds") from None
        except Exception as exc:  # the program's own error, as python3 would raise it
            if models_own(exc):
                raise NotModelled(f"the model's own bounds ({exc})") from None
            raise PyRaise(exc) from None

    def raise_(self, exc):
        raise PyRaise(exc)

    def check_text(self, size):
        if size > self.limits.text:
            raise NotModelled(f"a value of {size} characters (beyond the model's {self.limits.text})")

    # -- running -----------------------------------------------------------

    def run_module(self, module):
        self.frames.append(["<module>", 1])
        self.exec_body(module.body, self.module_scope)

    def exec_body(self, body, scope):
        for stmt in body:
            self.exec_stmt(stmt, scope)

    def exec_stmt(self, node, scope):
        self.tick()
        self.frames[-1][1] = node.lineno
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None:
            raise NotModelled(f"the {_describe(node)} statement")
        try:
            method(node, scope)
        except PyRaise as raised:
            raised.where.setdefault(len(self.frames), node)
            if getattr(raised, "frames", None) is None:
                raised.frames = [tuple(f) for f in self.frames]
            raise

    def s_Expr(self, node, scope):
        self.eval(node.value, scope)

    def s_Pass(self, node, scope):
        pass

    def s_Break(self, node, scope):
        raise _Break()

    def s_Continue(self, node, scope):
        raise _Continue()

    def s_Return(self, node, scope):
        raise _Return(None if node.value is None else self.eval(node.value, scope))

    def s_Global(self, node, scope):
        pass

    def s_Nonlocal(self, node, scope):
        pass

    def s_Assign(self, node, scope):
        value = self.eval(node.value, scope)
        for target in node.targets:
            self.assign(target, value, scope)

    def s_AnnAssign(self, node, scope):
        if node.value is not None:
            self.assign(node.target, self.eval(node.value, scope), scope)

    def s_AugAssign(self, node, scope):
        op = _BINOPS.get(type(node.op))
        target = node.target
        if isinstance(target, ast.Name):
            current = self.load_name(target.id, scope)
            self.store_name(target.id, self.binop(op, current, self.eval(node.value, scope), inplace=True), scope)
        elif isinstance(target, ast.Subscript):
            container = self.eval(target.value, scope)
            key = self.eval_slice(target.slice, scope)
            current = self.real(operator.getitem, container, key)
            result = self.binop(op, current, self.eval(node.value, scope), inplace=True)
            self.real(operator.setitem, container, key, result)
        else:
            raise NotModelled("augmented assignment to an attribute")

    def s_If(self, node, scope):
        if self.truth(self.eval(node.test, scope)):
            self.exec_body(node.body, scope)
        else:
            self.exec_body(node.orelse, scope)

    def s_While(self, node, scope):
        while self.truth(self.eval(node.test, scope)):
            self.tick()
            try:
                self.exec_body(node.body, scope)
            except _Break:
                return
            except _Continue:
                continue
        self.exec_body(node.orelse, scope)

    def s_For(self, node, scope):
        iterable = self.iterate(self.eval(node.iter, scope))
        while True:
            self.tick()
            try:
                item = next(iterable)
            except StopIteration:
                break
            except (NotModelled, ProgramExit, PyRaise):
                raise
            except Exception as exc:
                if models_own(exc):
                    raise NotModelled(f"the model's own bounds ({exc})") from None
                raise PyRaise(exc) from None
            self.assign(node.target, item, scope)
            try:
                self.exec_body(node.body, scope)
            except _Break:
                return
            except _Continue:
                continue
        self.exec_body(node.orelse, scope)

    def s_FunctionDef(self, node, scope):
        if node.decorator_list:
            raise NotModelled("function decorators")
        fn = self.make_function(node.name, node.args, node.body, scope)
        self.store_name(node.name, fn, scope)

    def s_Delete(self, node, scope):
        for target in node.targets:
            if isinstance(target, ast.Name):
                names = self.scope_for_store(target.id, scope).names
                if target.id not in names or names[target.id] is UNBOUND:
                    self.raise_(NameError(f"name '{target.id}' is not defined"))
                del names[target.id]
            elif isinstance(target, ast.Subscript):
                container = self.eval(target.value, scope)
                self.real(operator.delitem, container, self.eval_slice(target.slice, scope))
            else:
                raise NotModelled("del of an attribute")

    def s_Assert(self, node, scope):
        if not self.truth(self.eval(node.test, scope)):
            msg = () if node.msg is None else (self.eval(node.msg, scope),)
            self.raise_(AssertionError(*msg))

    def s_Raise(self, node, scope):
        if node.exc is None:
            if not self.handling:
                self.raise_(RuntimeError("No active exception to reraise"))
            raise PyRaise(self.handling[-1])
        exc = self.eval(node.exc, scope)
        if isinstance(exc, type) and issubclass(exc, BaseException):
            exc = self.real(exc)
        if not isinstance(exc, BaseException):
            self.raise_(TypeError("exceptions must derive from BaseException"))
        if isinstance(exc, SystemExit):
            raise ProgramExit(exc.code)
        if node.cause is not None:
            self.eval(node.cause, scope)
        raise PyRaise(exc)

    def s_Try(self, node, scope):
        try:
            try:
                self.exec_body(node.body, scope)
            except PyRaise as raised:
                exc = raised.exc
                for handler in node.handlers:
                    if handler.type is not None:
                        wanted = self.eval(handler.type, scope)
                        classes = wanted if isinstance(wanted, tuple) else (wanted,)
                        if not all(isinstance(c, type) and issubclass(c, BaseException) for c in classes):
                            self.raise_(TypeError("catching classes that do not inherit from BaseException is not allowed"))
                        if not isinstance(exc, classes):
                            continue
                    if handler.name:
                        self.store_name(handler.name, exc, scope)
                    self.handling.append(exc)
                    try:
                        self.exec_body(handler.body, scope)
                    finally:
                        self.handling.pop()
                        if handler.name:
                            self.scope_for_store(handler.name, scope).names.pop(handler.name, None)
                    break
                else:
                    raise
            except ProgramExit as leaving:
                # sys.exit inside try: only `except SystemExit` / BaseException / bare except see it
                handled = False
                for handler in node.handlers:
                    wanted = None if handler.type is None else self.eval(handler.type, scope)
                    classes = wanted if isinstance(wanted, tuple) else (wanted,)
                    if handler.type is None or any(c in (SystemExit, BaseException) for c in classes):
                        exc = SystemExit(leaving.code)
                        if handler.name:
                            self.store_name(handler.name, exc, scope)
                        self.handling.append(exc)
                        try:
                            self.exec_body(handler.body, scope)
                        finally:
                            self.handling.pop()
                        handled = True
                        break
                if not handled:
                    raise
            else:
                self.exec_body(node.orelse, scope)
        finally:
            if node.finalbody:
                self.exec_body(node.finalbody, scope)

    def s_With(self, node, scope):
        entered = []
        try:
            for item in node.items:
                manager = self.eval(item.context_expr, scope)
                enter = getattr(manager, "model_enter", None)
                if enter is None:
                    raise NotModelled(f"a with-statement over {_typename(manager)}")
                value = self.real(enter)
                entered.append(manager)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, value, scope)
            self.exec_body(node.body, scope)
        finally:
            for manager in reversed(entered):
                manager.model_exit()

    def s_Import(self, node, scope):
        for alias in node.names:
            module = self.rt.import_module(alias.name)
            if alias.asname:
                self.store_name(alias.asname, module, scope)
            else:
                top = alias.name.split(".")[0]
                self.store_name(top, self.rt.import_module(top), scope)

    def s_ImportFrom(self, node, scope):
        if node.level:
            raise NotModelled("a relative import")
        module = self.rt.import_module(node.module)
        for alias in node.names:
            if alias.name == "*":
                raise NotModelled(f"from {node.module} import *")
            value = self.rt.import_from(module, node.module, alias.name)
            self.store_name(alias.asname or alias.name, value, scope)

    # -- names -------------------------------------------------------------

    def scope_for_store(self, name, scope):
        if name in scope.declared_global:
            return self.module_scope
        if name in scope.nonlocal_names:
            s = scope.parent
            while s is not None and s is not self.module_scope:
                if name in s.local_names:
                    return s
                s = s.parent
            raise NotModelled(f"nonlocal {name}")
        return scope

    def store_name(self, name, value, scope):
        self.scope_for_store(name, scope).names[name] = value

    def load_name(self, name, scope):
        s = scope
        if name in s.declared_global:
            s = self.module_scope
        while s is not None:
            if name in s.names:
                value = s.names[name]
                if value is UNBOUND:
                    break
                return value
            if s is not self.module_scope and name in s.local_names and name not in s.nonlocal_names:
                self.raise_(UnboundLocalError(
                    f"cannot access local variable '{name}' where it is not associated with a value"))
            s = s.parent if s.parent is not None else (self.module_scope if s is not self.module_scope else None)
        value = self.rt.builtin(name)
        if value is not None:
            return value
        if hasattr(builtins, name) or name in ("__loader__", "__builtins__", "__annotations__"):
            raise NotModelled(f"the builtin {name}")   # exists in python3, outside the subset
        exc = NameError(f"name '{name}' is not defined", name=name)
        exc.model_hint = self.name_hint(name, scope)
        self.raise_(exc)

    def name_hint(self, name, scope):
        """python3's suggestion: the frame's locals, else its globals, else the builtins."""
        from .suggest import closest
        if scope is not self.module_scope:
            hint = closest(name, [k for k, v in scope.names.items() if v is not UNBOUND])
            if hint:
                return hint
        hint = closest(name, [k for k, v in self.globals.items() if v is not UNBOUND] + ["__loader__", "__annotations__", "__builtins__"])
        return hint or closest(name, dir(builtins))

    def visible_names(self, scope):
        names = set()
        s = scope
        while s is not None:
            names.update(k for k, v in s.names.items() if v is not UNBOUND)
            s = s.parent
        return names

    # -- assignment --------------------------------------------------------

    def assign(self, target, value, scope):
        if isinstance(target, ast.Name):
            self.store_name(target.id, value, scope)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target.elts, value, scope)
        elif isinstance(target, ast.Subscript):
            container = self.eval(target.value, scope)
            key = self.eval_slice(target.slice, scope)
            setter = getattr(container, "model_setitem", None)
            if setter is not None:
                setter(key, value)
            else:
                self.real(operator.setitem, container, key, value)
        elif isinstance(target, ast.Attribute):
            raise NotModelled("assignment to an attribute")
        else:
            raise NotModelled(f"assignment to {_describe(target)}")

    def unpack(self, targets, value, scope):
        items = list(self.iterate(value))
        starred = [i for i, t in enumerate(targets) if isinstance(t, ast.Starred)]
        if starred:
            i = starred[0]
            after = len(targets) - i - 1
            if len(items) < len(targets) - 1:
                self.raise_(ValueError(
                    f"not enough values to unpack (expected at least {len(targets) - 1}, got {len(items)})"))
            for t, v in zip(targets[:i], items[:i]):
                self.assign(t, v, scope)
            self.assign(targets[i].value, items[i:len(items) - after], scope)
            for t, v in zip(targets[i + 1:], items[len(items) - after:]):
                self.assign(t, v, scope)
            return
        if len(items) > len(targets):
            self.raise_(ValueError(f"too many values to unpack (expected {len(targets)})"))
        if len(items) < len(targets):
            self.raise_(ValueError(f"not enough values to unpack (expected {len(targets)}, got {len(items)})"))
        for t, v in zip(targets, items):
            self.assign(t, v, scope)

    def iterate(self, value):
        """A Python iterator over a program value, refusing huge ranges."""
        if isinstance(value, range) and len(value) > self.limits.items:
            raise NotModelled(f"a range of {len(value)} items")
        if salted(value):  # a loop over a set goes in an order the run takes, as a listing's
            return iter(self.rt.proc.in_listing_order(sorted(value, key=repr)))
        iterator = getattr(value, "model_iter", None)
        if iterator is not None:
            return iterator()
        if not isinstance(value, SAFE_TYPES) and not hasattr(value, "__next__"):
            if isinstance(value, type) or callable(value) or hasattr(value, "model_attr"):
                self.raise_(TypeError(f"'{_typename(value)}' object is not iterable"))
        return self.real(iter, value)

    # -- functions ---------------------------------------------------------

    def make_function(self, name, args, body, scope, is_lambda=False):
        defaults = [self.eval(d, scope) for d in args.defaults]
        kw_defaults = [None if d is None else self.eval(d, scope) for d in args.kw_defaults]
        return Function(self, name, args, body, scope, defaults, kw_defaults, is_lambda)

    def call_function(self, fn, args, kwargs):
        if len(self.frames) > 60:
            raise NotModelled("recursion deeper than the model follows")
        spec = fn.args
        names = {}
        positional = spec.posonlyargs + spec.args
        fname = fn.__name__
        for i, a in enumerate(positional):
            if i < len(args):
                names[a.arg] = args[i]
        extra = args[len(positional):]
        if extra:
            if spec.vararg is None:
                self.raise_(TypeError(
                    f"{fname}() takes {len(positional)} positional argument{'s' if len(positional) != 1 else ''} "
                    f"but {len(args)} {'were' if len(args) != 1 else 'was'} given"))
            names[spec.vararg.arg] = tuple(extra)
        elif spec.vararg is not None:
            names[spec.vararg.arg] = ()
        rest = {}
        kwonly = {a.arg for a in spec.kwonlyargs}
        posonly = {a.arg for a in spec.posonlyargs}
        for k, v in kwargs.items():
            if k in names and k not in posonly:
                self.raise_(TypeError(f"{fname}() got multiple values for argument '{k}'"))
            if (k in {a.arg for a in spec.args}) or k in kwonly:
                names[k] = v
            elif spec.kwarg is not None:
                rest[k] = v
            else:
                self.raise_(TypeError(f"{fname}() got an unexpected keyword argument '{k}'"))
        if spec.kwarg is not None:
            names[spec.kwarg.arg] = rest
        first_default = len(positional) - len(fn.defaults)
        missing = []
        for i, a in enumerate(positional):
            if a.arg not in names:
                if i >= first_default:
                    names[a.arg] = fn.defaults[i - first_default]
                else:
                    missing.append(a.arg)
        if missing:
            quoted = [f"'{m}'" for m in missing]
            listed = quoted[0] if len(quoted) == 1 else (
                ", ".join(quoted[:-1]) + (" and " if len(quoted) == 2 else ", and ") + quoted[-1])
            self.raise_(TypeError(
                f"{fname}() missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: {listed}"))
        for a, d in zip(spec.kwonlyargs, fn.kw_defaults):
            if a.arg not in names:
                if d is None:
                    self.raise_(TypeError(f"{fname}() missing 1 required keyword-only argument: '{a.arg}'"))
                names[a.arg] = d
        local = Scope(names, fn.scope, fn.locals, fn.globals_, fn.nonlocals)
        self.frames.append([fname, self.frames[-1][1]])
        self.scopes.append(local)
        try:
            if fn.is_lambda:
                return self.eval(fn.body, local)
            try:
                self.exec_body(fn.body, local)
            except _Return as ret:
                return ret.value
            return None
        finally:
            self.frames.pop()
            self.scopes.pop()

    def call(self, func, args, kwargs):
        if isinstance(func, Function):
            return self.call_function(func, args, kwargs)
        if not callable(func):
            self.raise_(TypeError(f"'{_typename(func)}' object is not callable"))
        owner = getattr(func, "__self__", None)
        if isinstance(owner, (str, bytes)) and getattr(func, "__name__", "") == "join" and args \
                and not isinstance(args[0], (list, tuple)):
            args = [list(self.iterate(args[0]))] + list(args[1:])   # so its size can be checked first
        guard = getattr(self.rt, "guard_call", None)
        if guard is not None:
            guard(func, args, kwargs)
        return self.real(func, *args, **kwargs)

    # -- expressions -------------------------------------------------------

    def eval(self, node, scope):
        self.tick()
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is None:
            raise NotModelled(f"the {_describe(node)} expression")
        try:
            return method(node, scope)
        except PyRaise as raised:
            raised.where.setdefault(len(self.frames), node)  # (the innermost expression of this frame)
            raise

    def e_Constant(self, node, scope):
        if node.value is Ellipsis:
            return Ellipsis
        return node.value

    def e_Name(self, node, scope):
        return self.load_name(node.id, scope)

    def e_JoinedStr(self, node, scope):
        parts = []
        for v in node.values:
            parts.append(v.value if isinstance(v, ast.Constant) else self.eval(v, scope))
        self.check_text(sum(len(p) for p in parts))
        return "".join(parts)

    def e_FormattedValue(self, node, scope):
        value = self.eval(node.value, scope)
        if node.conversion == ord("r"):
            value = self.repr(value)
        elif node.conversion == ord("s"):
            value = self.str(value)
        elif node.conversion == ord("a"):
            value = self.real(ascii, value)
        self.check_printable(value)
        spec = "" if node.format_spec is None else self.eval(node.format_spec, scope)
        self.check_width(spec)
        return self.real(format, value, spec)

    def check_width(self, spec):
        digits = re.findall(r"\d+", spec or "")
        if any(len(d) > 9 or int(d) > self.limits.text for d in digits):
            raise NotModelled("a format width beyond the model's bounds")

    def str(self, value):
        self.check_printable(value)
        return self.real(str, value)

    def repr(self, value):
        self.check_printable(value)
        return self.real(repr, value)

    def check_size(self, value):
        """Refuse to render a container whose text would pass the model's bounds."""
        if not isinstance(value, (list, tuple, dict, set, frozenset)):
            return
        total = 0
        for seen, v in enumerate(nested(value), 1):
            if isinstance(v, (str, bytes, bytearray, list, tuple, set, frozenset, dict)):
                total += len(v)
            if total > self.limits.text or seen > self.limits.items:
                raise NotModelled("rendering a value larger than the model's bounds")

    def check_printable(self, value):
        """Functions and methods print with addresses and internal names (the model's own
        for its stand-ins), also inside a container: not modelled."""
        self.check_size(value)
        for v in nested(value):
            if callable(v) and not isinstance(v, (type, Function)) and not hasattr(v, "model_fspath") \
                    and not hasattr(type(v), "model_name"):
                raise NotModelled("the text of a function or method")
            check_order(v)

    def truth(self, value):
        return self.real(bool, value)

    def binop(self, op, a, b, inplace=False):
        if op is None:
            raise NotModelled("the matrix-multiplication operator")
        if op is operator.mul:
            for seq, n in ((a, b), (b, a)):
                if isinstance(seq, (str, bytes, list, tuple, bytearray)) and isinstance(n, int):
                    self.check_text(len(seq) * max(n, 0))
        elif op is operator.add and isinstance(a, (str, bytes, list, tuple)) and isinstance(b, type(a)):
            self.check_text(len(a) + len(b))
        elif op is operator.pow and isinstance(a, int) and isinstance(b, int) and b > 0:
            if abs(a) > 1 and b * max(abs(a).bit_length(), 1) > 1_000_000:
                raise NotModelled("an integer power beyond the model's bounds")
        elif op is operator.lshift and isinstance(b, int) and b > 1_000_000:
            raise NotModelled("a shift beyond the model's bounds")
        elif op is operator.mod and isinstance(a, (str, bytes)):
            self.check_printable(b)
            if isinstance(a, str):
                self.check_width(a)
        if inplace and isinstance(a, list) and op is operator.add:
            check_order(b)
            return self.real(operator.iadd, a, b)
        if inplace and isinstance(a, (dict, set, list)) and op in (operator.or_, operator.and_, operator.sub, operator.xor):
            inplace_op = {operator.or_: operator.ior, operator.and_: operator.iand,
                          operator.sub: operator.isub, operator.xor: operator.ixor}[op]
            return self.real(inplace_op, a, b)
        return self.real(op, a, b)

    def e_BinOp(self, node, scope):
        left = self.eval(node.left, scope)
        right = self.eval(node.right, scope)
        return self.binop(_BINOPS.get(type(node.op)), left, right)

    def e_UnaryOp(self, node, scope):
        value = self.eval(node.operand, scope)
        if isinstance(node.op, ast.Not):
            return not self.truth(value)
        return self.real(_UNARY[type(node.op)], value)

    def e_BoolOp(self, node, scope):
        is_and = isinstance(node.op, ast.And)
        value = None
        for v in node.values:
            value = self.eval(v, scope)
            if self.truth(value) != is_and:
                return value
        return value

    def e_Compare(self, node, scope):
        left = self.eval(node.left, scope)
        for op, comp in zip(node.ops, node.comparators):
            right = self.eval(comp, scope)
            if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, range) is False:
                contains = getattr(right, "model_contains", None)
                if contains is not None:
                    result = contains(left)
                    result = result if isinstance(op, ast.In) else not result
                else:
                    result = self.real(_COMPARE[type(op)], left, right)
            else:
                result = self.real(_COMPARE[type(op)], left, right)
            if not self.truth(result):
                return result
            left = right
        return result

    def e_IfExp(self, node, scope):
        if self.truth(self.eval(node.test, scope)):
            return self.eval(node.body, scope)
        return self.eval(node.orelse, scope)

    def e_NamedExpr(self, node, scope):
        value = self.eval(node.value, scope)
        self.store_name(node.target.id, value, scope)
        return value

    def e_List(self, node, scope):
        return self.elements(node.elts, scope)

    def e_Tuple(self, node, scope):
        return tuple(self.elements(node.elts, scope))

    def e_Set(self, node, scope):
        return self.real(set, self.elements(node.elts, scope))

    def elements(self, elts, scope):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                out.extend(self.iterate(self.eval(e.value, scope)))
            else:
                out.append(self.eval(e, scope))
        return out

    def e_Dict(self, node, scope):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                mapping = self.eval(v, scope)
                if not isinstance(mapping, dict):
                    self.raise_(TypeError(f"'{_typename(mapping)}' object is not a mapping"))
                out.update(mapping)
            else:
                key = self.eval(k, scope)
                self.real(operator.setitem, out, key, self.eval(v, scope))
        return out

    def comprehension(self, generators, scope, emit):
        inner = Scope({}, scope, local_names=(), declared_global=())
        # comprehension targets are local to the comprehension
        for g in generators:
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    inner.local_names.add(n.id)

        def loop(i):
            if i == len(generators):
                yield emit(inner)
                return
            g = generators[i]
            if g.is_async:
                raise NotModelled("async comprehensions")
            source = self.eval(g.iter, scope if i == 0 else inner)
            for item in self.iterate(source):
                self.tick()
                self.assign(g.target, item, inner)
                if all(self.truth(self.eval(cond, inner)) for cond in g.ifs):
                    yield from loop(i + 1)

        return loop(0)

    def e_ListComp(self, node, scope):
        return list(self.comprehension(node.generators, scope, lambda s: self.eval(node.elt, s)))

    def e_SetComp(self, node, scope):
        return self.real(set, list(self.comprehension(node.generators, scope, lambda s: self.eval(node.elt, s))))

    def e_DictComp(self, node, scope):
        out = {}
        for k, v in self.comprehension(node.generators, scope,
                                       lambda s: (self.eval(node.key, s), self.eval(node.value, s))):
            self.real(operator.setitem, out, k, v)
        return out

    def e_GeneratorExp(self, node, scope):
        # evaluated lazily, as Python does: any()/next() may stop early
        return Generator(self.comprehension(node.generators, scope, lambda s: self.eval(node.elt, s)))

    def e_Lambda(self, node, scope):
        return self.make_function("<lambda>", node.args, node.body, scope, is_lambda=True)

    def e_Attribute(self, node, scope):
        value = self.eval(node.value, scope)
        return self.attribute(value, node.attr)

    def attribute(self, value, name):
        getter = getattr(value, "model_attr", None)
        if getter is not None and not isinstance(value, type):
            return getter(name)
        if isinstance(value, SAFE_TYPES) or (isinstance(value, type) and value in self.rt.safe_classes):
            if name.startswith("_") or name in _BUILTIN_ONLY_ATTRS:
                if name == "__name__" and isinstance(value, type):
                    return value.__name__
                raise NotModelled(f"the attribute {name}")
            if not hasattr(value, name):
                from .suggest import closest
                exc = AttributeError(
                    f"'{_typename(value)}' object has no attribute '{name}'"
                    if not isinstance(value, type) else f"type object '{value.__name__}' has no attribute '{name}'",
                    name=name, obj=value)
                exc.model_hint = closest(name, [n for n in dir(value)])
                self.raise_(exc)
            attr = getattr(value, name)
            if name in ("format", "format_map") and isinstance(value, str):
                self.check_format(value)
            return attr
        raise NotModelled(f"the attribute {name} of {_typename(value)}")

    def check_format(self, text):
        try:
            fields = list(string.Formatter().parse(text))
        except ValueError:
            return
        for _, field, spec, _ in fields:
            if field and ("." in field or "[" in field and "_" in field.split("[")[0]):
                raise NotModelled("attribute lookups inside a format string")
            self.check_width(spec)

    def e_Subscript(self, node, scope):
        value = self.eval(node.value, scope)
        key = self.eval_slice(node.slice, scope)
        getter = getattr(value, "model_getitem", None)
        if getter is not None:
            return getter(key)
        if isinstance(value, type) and value in (list, dict, tuple, set, type):
            raise NotModelled("type subscripts")
        return self.real(operator.getitem, value, key)

    def eval_slice(self, node, scope):
        if isinstance(node, ast.Slice):
            return slice(*(None if p is None else self.eval(p, scope) for p in (node.lower, node.upper, node.step)))
        return self.eval(node, scope)

    def e_Call(self, node, scope):
        func = self.eval(node.func, scope)
        args = self.elements(node.args, scope)
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                mapping = self.eval(kw.value, scope)
                if not isinstance(mapping, dict):
                    self.raise_(TypeError("argument after ** must be a mapping"))
                for k, v in mapping.items():
                    if k in kwargs:
                        self.raise_(TypeError(f"got multiple values for keyword argument '{k}'"))
                    kwargs[k] = v
            else:
                if kw.arg in kwargs:
                    self.raise_(TypeError(f"got multiple values for keyword argument '{kw.arg}'"))
                kwargs[kw.arg] = self.eval(kw.value, scope)
        try:
            return self.call(func, args, kwargs)
        except PyRaise as raised:
            if raised.callee is None:
                raised.callee = func
            raise


def nested(value):
    """``value`` and every value inside it: the items of lists, tuples and sets, the keys and
    values of dicts (callers bound the walk with Interpreter.check_size)."""
    stack = [value]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, (list, tuple, set, frozenset)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())


def salted(value) -> bool:
    """Whether ``value`` is a set whose order python3 does not fix: one of strings (or of
    anything but numbers) goes in the order of hashes python3 salts afresh in each process."""
    return isinstance(value, (set, frozenset)) and len(value) > 1 and \
        not all(type(v) in (int, bool, float) for v in value)


def check_order(value) -> None:
    """Refuse to go through a set in the order python3 would (see salted)."""
    if salted(value):
        raise NotModelled("the order of a set, which python3's salted hashes decide")


def _referents(obj) -> list:
    """What ``obj`` refers to that a program value could be among (for Interpreter.holds):
    not the globals of the model's own functions, nor code, frames, modules or syntax."""
    kind = type(obj)
    if kind is Scope:
        return [obj.names, obj.parent]
    if kind is Function:
        return [obj.scope, obj.defaults, obj.kw_defaults]
    if isinstance(obj, types.FunctionType):
        return [*(obj.__closure__ or ()), obj.__defaults__, obj.__kwdefaults__]
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType)):
        return [obj.__self__, getattr(obj, "__func__", None)]
    if isinstance(obj, BaseException):
        return [obj.args, getattr(obj, "__dict__", None), obj.__context__, obj.__cause__]
    if isinstance(obj, _OPAQUE) or getattr(kind, "model_name", None) == "module":
        return []  # (a module of the model holds no value of the program: it cannot set attributes)
    return gc.get_referents(obj)


_OPAQUE = (types.ModuleType, types.FrameType, types.CodeType, types.TracebackType, ast.AST)


class Generator:
    """A lazily evaluated generator expression of the program."""

    __slots__ = ("_it",)

    def __init__(self, it):
        self._it = it

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def __repr__(self):
        raise NotModelled("the text of a generator object")


def _typename(value):
    name = getattr(type(value), "model_name", None)
    return name or type(value).__name__


def _describe(node):
    return type(node).__name__
