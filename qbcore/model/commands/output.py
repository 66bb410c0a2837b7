"""echo and printf as the evaluator runs them: bash's one implementation of both
(utilities.shellbuiltins), in the shell's locale, under the evaluation's budget,
with ``printf -v``."""

from __future__ import annotations

from ..expand import Opaque
from ..utilities.shellbuiltins import PrintUnknown, echo_text, format_printf
from .registry import Invocation, Outcome, register, said
from .variables import _NAME


@register("echo")
def echo(ctx: Invocation) -> Outcome:
    try:
        return Outcome(0, echo_text(ctx.args))
    except PrintUnknown as unknown:
        return Outcome(0, Opaque(f"output of echo ({unknown})"), modelled=False)


@register("printf")
def printf(ctx: Invocation) -> Outcome:
    env = ctx.env
    args = ctx.args
    target = None
    if args[:1] == ["-v"] and len(args) >= 2:
        target, args = args[1], args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    elif args and args[0].startswith("-") and args[0] != "-":
        # an option bash does not take: its usage error is not modelled
        return Outcome(Opaque(f"status of printf {args[0]}"), Opaque(f"output of printf {args[0]}"),
                       modelled=False)
    if not args:
        return Outcome(2, stderr="printf: usage: printf [-v var] format [arguments]\n")  # (no `bash:` before it)
    try:
        printed, text = printf_text(args, env.locale_is_c, env.meter)
    except PrintUnknown as unknown:
        return Outcome(Opaque(f"output of printf ({unknown})"), Opaque(f"output of printf ({unknown})"),
                       modelled=False)
    error = said("printf", printed.errors)
    if target is not None:
        if not _NAME.fullmatch(target):
            # an array element (`-v 'a[1]'`), or a name bash refuses: not followed
            name = target.partition("[")[0]
            if _NAME.fullmatch(name):
                env.set(name, Opaque(f"${name} (after printf -v {target})"))
            ctx.note([f"printf -v {target}"])
            return Outcome(Opaque(f"status of printf -v {target}"), modelled=False)
        env.set(target, text)
        return Outcome(printed.status, error=error)
    return Outcome(printed.status, text, error=error, error_first=True)


def printf_text(args: list, locale_is_c: bool, meter):
    """``(Printed, text)`` of ``printf FORMAT ARGS…`` in the shell's locale, charged to
    ``meter``; raises PrintUnknown for what is not modelled."""
    if locale_is_c:
        # the C locale counts bytes: widths, %c and %q work on single bytes
        as_bytes = [a.encode("utf-8", "surrogateescape").decode("latin-1") for a in args]
        printed = format_printf(as_bytes[0], as_bytes[1:], byte_mode=True, meter=meter)
        return printed, printed.text.encode("latin-1").decode("utf-8", "surrogateescape")
    printed = format_printf(args[0], args[1:], meter=meter)
    return printed, printed.text
