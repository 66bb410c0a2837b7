"""The nesting rules: each a small function over one layer's events, plus its metadata.

An analysis (``replies`` for a reply under a transport, ``scripts`` for a
file's nested invocations) turns one layer into events — facts with spans,
such as "the outer shell expands `$1` here". A rule reads the events it
cares about and words the finding; suppression and selection happen in the
engine, never here. Codes group by layer kind: QB1xx double-quoted layer,
QB2xx single-quoted, QB3xx ssh and other argument joins, QB4xx
here-document, QB5xx JSON, QB6xx stdin, QB7xx dialect, QB9xx syntax.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

from .findings import Fix


@dataclass(frozen=True)
class Event:
    """One fact about a layer: ``kind`` at characters ``start:end`` of the linted text."""

    kind: str
    start: int
    end: int
    detail: dict = field(default_factory=dict, hash=False, compare=False)


@dataclass
class Layer:
    """What one nesting layer does: its events, where it sits, and the fix for it.

    ``mode`` is ``reply`` (a reply linted against a transport: any change is
    damage) or ``script`` (a nested invocation written in a file: the
    author's escapes are intent, expansions are hazards).
    """

    mode: str
    events: list
    layers: tuple = ()
    transport: Optional[str] = None
    fix: Optional[Fix] = None
    no_fix: Optional[str] = None
    inner_script: Optional[str] = None

    def of(self, *kinds) -> Iterable[Event]:
        return [e for e in self.events if e.kind in kinds]


@dataclass(frozen=True)
class Hit:
    """What a rule says about one span; the engine turns it into a Finding."""

    start: int
    end: int
    message: str
    severity: Optional[str] = None
    fix: Optional[Fix] = None


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: str
    summary: str
    rationale: str
    bad: str
    good: str
    check: Callable[[Layer], Iterable[Hit]]
    kinds: frozenset = frozenset()  # the event kinds the check reads

    def explain(self) -> str:
        """The rule's page, as ``qbcore lint --explain`` prints it."""
        return (f"{self.code} {self.name} ({self.severity})\n\n{self.summary}\n\n"
                f"Why: {self.rationale}\n\nExample (hazard):\n    {self.bad}\n\nExample (correct):\n    {self.good}\n")


REGISTRY: dict[str, Rule] = {}


def rule(code, name, severity, summary, rationale, bad, good, *, kinds):
    """Register the decorated check function as rule ``code``; it reads events of ``kinds``."""
    def register(check):
        if code in REGISTRY:
            raise ValueError(f"rule {code} registered twice")
        REGISTRY[code] = Rule(code, name, severity, summary, rationale, bad, good, check, frozenset(kinds))
        return check
    return register


def rules_for(kinds) -> list:
    """The registered rules that read any of the event ``kinds``."""
    return [r for r in REGISTRY.values() if r.kinds & kinds]


def _reply(layer, default):
    """Damage to a reply's delivery is an error; a script hazard keeps the rule's severity."""
    return "error" if layer.mode == "reply" else default


def _snippet(e: Event) -> str:
    return e.detail.get("text", "")


# --- QB0xx: the linter's own housekeeping ------------------------------------

@rule("QB001", "unused-suppression", "warning",
      "A `# qbcore: disable=` comment suppresses nothing.",
      "A stale suppression hides the next real finding of that code at the same place.",
      "# qbcore: disable=QB101\necho plain", "echo plain",
      kinds=("unused-suppression",))
def unused_suppression(layer):
    for e in layer.of("unused-suppression"):
        yield Hit(e.start, e.end, f"`disable={e.detail['code']}` suppresses nothing here")


# --- QB1xx: a double-quoted layer --------------------------------------------

@rule("QB101", "quote-closed-early", "error",
      "A double quote in the text ends the outer double quotes; the rest is parsed by the outer shell.",
      "The harness or the author put the text inside \"…\"; a \" inside it closes that string, so "
      "blanks split it into several words, operators run in the outer shell, and the inner shell "
      "receives only the first piece.",
      "bash -c \"echo \"a b\"\"", "bash -c 'echo \"a b\"'",
      kinds=("quote",))
def quote_closed_early(layer):
    for e in layer.of("quote"):
        if e.detail.get("quote") == '"':
            if e.detail.get("role") == "close":
                yield Hit(e.start, e.end, "this `\"` ends the outer double quotes; the text after it is "
                                          "parsed by the outer shell")
            else:
                yield Hit(e.start, e.end, "this `\"` opens a new double-quoted string in the outer shell; "
                                          "the inner shell never sees it")


@rule("QB102", "outer-positional", "error",
      "A positional parameter inside a double-quoted script is expanded by the outer shell.",
      "`$1`, `$@`, `$#` meant for the inner shell's own arguments are replaced by the outer shell's "
      "before the inner shell starts; the arguments passed after the script are then unused.",
      "sh -c \"echo $1\" _ x", "sh -c 'echo \"$1\"' _ x",
      kinds=("expansion",))
def outer_positional(layer):
    for e in layer.of("expansion"):
        if e.detail.get("positional") and e.detail.get("quoted", True):
            severity = _reply(layer, "error" if e.detail.get("args_follow") else "warning")
            yield Hit(e.start, e.end, f"`{_snippet(e)}` is expanded by the outer shell, not by the inner one"
                      + (" (the arguments after the script are meant for it)" if e.detail.get("args_follow") else ""),
                      severity)


@rule("QB103", "outer-expansion", "warning",
      "A parameter expansion inside a double-quoted layer is done by the outer shell.",
      "The value is pasted into the inner script as code: blanks split it, quotes and `;` in it are "
      "parsed by the inner shell (injection), and the inner shell never sees the variable itself.",
      "ssh host \"rm -r $dir\"", "ssh host \"rm -r $(printf %q \"$dir\")\"",
      kinds=("expansion",))
def outer_expansion(layer):
    for e in layer.of("expansion"):
        if not e.detail.get("positional") and e.detail.get("quoted", True):
            severity = _reply(layer, "info" if e.detail.get("environment") else "warning")
            side = e.detail.get("side", "the outer shell")
            yield Hit(e.start, e.end, f"`{_snippet(e)}` is expanded by {side}; its value is parsed "
                                      "again as code by the inner shell", severity)


@rule("QB104", "outer-substitution", "warning",
      "A command substitution inside a double-quoted layer runs in the outer shell.",
      "`$(…)` and backticks run before the inner shell starts, on the outer side (client-side for "
      "ssh), and their output is pasted into the inner script as code.",
      "ssh host \"ls $(pwd)\"", "ssh host 'ls \"$(pwd)\"'",
      kinds=("substitution",))
def outer_substitution(layer):
    for e in layer.of("substitution"):
        if e.detail.get("quoted", True):
            side = e.detail.get("side", "the outer shell")
            yield Hit(e.start, e.end, f"`{_snippet(e)}` runs in {side}; its output becomes "
                                      "inner code", _reply(layer, "warning"))


@rule("QB105", "backslash-consumed", "error",
      "The outer double quotes remove a backslash before $, `, \", \\ or newline.",
      "Inside \"…\" bash drops the backslash of `\\$`, `\\\\`, `\\\"`, `` \\` `` and a backslash-newline, so "
      "the inner shell receives different text than the reply holds.",
      "printf 'a\\\\nb'   (under bash -c \"…\")", "printf 'a\\\\\\\\nb'   (escaped for the layer)",
      kinds=("backslash",))
def backslash_consumed(layer):
    for e in layer.of("backslash"):
        yield Hit(e.start, e.end, f"the outer layer removes this backslash (`{_snippet(e)}`)", _reply(layer, "error"))


@rule("QB106", "words-split", "error",
      "The text falls apart into several words of the outer command.",
      "Only the first word becomes the inner script; the others become the inner shell's $0, $1, … "
      "(or arguments of ssh), so most of the command never runs as written.",
      "bash -c $cmd", "bash -c \"$cmd\"",
      kinds=("split",))
def words_split(layer):
    for e in layer.of("split"):
        yield Hit(e.start, e.end, e.detail.get("message", "the outer shell splits the text into separate words "
                                                "here; only the first one is the inner script"),
                  _reply(layer, "error"))


@rule("QB107", "outer-glob", "warning",
      "A glob, brace or tilde is expanded by the outer shell.",
      "Unquoted in the outer layer, `*`, `?`, `[…]`, `{a,b}` and `~` expand against the outer "
      "side's files and home, before the inner shell sees them.",
      "bash -c \"echo \"*.txt", "bash -c 'echo *.txt'",
      kinds=("glob",))
def outer_glob(layer):
    for e in layer.of("glob"):
        yield Hit(e.start, e.end, f"`{_snippet(e)}` is expanded by the outer shell", _reply(layer, "warning"))


@rule("QB108", "operator-leak", "error",
      "An operator or redirection ends up in the outer shell.",
      "After the quotes close early, `;`, `|`, `&&`, `>` and the commands after them run in the outer "
      "shell (client-side for ssh), not in the inner one.",
      "bash -c \"echo \"hi\" > f\"   (R = echo \"hi\" > f)", "bash -c 'echo \"hi\" > f'",
      kinds=("operator",))
def operator_leak(layer):
    for e in layer.of("operator"):
        yield Hit(e.start, e.end, f"`{_snippet(e)}` is run by the outer shell, not sent to the inner one",
                  _reply(layer, "error"))


# --- QB2xx: a single-quoted layer ----------------------------------------------

@rule("QB201", "single-quote-closed-early", "error",
      "A single quote in the text ends the outer single quotes.",
      "Nothing escapes inside '…'; the first ' closes it and the outer shell parses the rest.",
      "bash -c 'echo 'it's''", "bash -c 'echo '\\''it'\\''s'\\'''",
      kinds=("quote",))
def single_quote_closed(layer):
    for e in layer.of("quote"):
        if e.detail.get("quote") == "'":
            if e.detail.get("role") == "close":
                yield Hit(e.start, e.end, "this `'` ends the outer single quotes; the text after it is parsed "
                                          "by the outer shell")
            else:
                yield Hit(e.start, e.end, "this `'` opens a new single-quoted string in the outer shell; "
                                          "the inner shell never sees it")


@rule("QB202", "value-spliced", "warning",
      "An outer value is spliced between single-quoted pieces of a script.",
      "`'…'\"$x\"'…'` pastes the value into the code: the inner shell parses quotes, `;` and `$(…)` "
      "inside it (injection), and unquoted it is also split into words.",
      "sh -c 'rm '\"$f\"", "sh -c 'rm -- \"$1\"' _ \"$f\"",
      kinds=("splice",))
def value_spliced(layer):
    for e in layer.of("splice"):
        severity = "error" if not e.detail.get("quoted", True) else "warning"
        yield Hit(e.start, e.end, f"`{_snippet(e)}` is pasted into the inner script as code; pass it as an "
                                  "argument instead", _reply(layer, severity))


@rule("QB203", "placeholder-spliced", "warning",
      "`{}` of find -exec or xargs -I is pasted into the inner script as code.",
      "A file name holding a quote, `$` or `;` becomes code in the inner shell (SC2156's hazard); "
      "pass it as an argument: `sh -c '… \"$1\"' _ {}`.",
      "find . -exec sh -c 'echo {}' \\;", "find . -exec sh -c 'echo \"$1\"' _ {} \\;",
      kinds=("placeholder",))
def placeholder_spliced(layer):
    for e in layer.of("placeholder"):
        yield Hit(e.start, e.end, f"`{_snippet(e)}` is replaced by {e.detail.get('by', 'the program')} "
                                  "before the inner shell parses it: its value becomes code")


# --- QB3xx: ssh and other joins of arguments -----------------------------------

@rule("QB301", "argv-joined", "error",
      "ssh (or eval, watch) joins its arguments with spaces; their quoting is lost.",
      "The remote (or re-reading) shell parses the joined string again, so a quoted argument with a "
      "blank or a shell character is split or interpreted there.",
      "ssh host ls \"my file\"", "ssh host \"ls 'my file'\"",
      kinds=("join",))
def argv_joined(layer):
    for e in layer.of("join"):
        yield Hit(e.start, e.end, e.detail.get("message") or f"`{_snippet(e)}` loses its quoting when "
                  f"{e.detail.get('by', 'ssh')} joins the arguments", _reply(layer, "error"))


@rule("QB302", "argv-unsplittable", "error",
      "The harness cannot split the reply into words (shlex: no closing quotation).",
      "An ssh-argv harness runs `shlex.split` on the reply; an unbalanced quote makes it fail and "
      "nothing runs.",
      "echo it's", "echo \"it's\"",
      kinds=("shlex-error",))
def argv_unsplittable(layer):
    for e in layer.of("shlex-error"):
        yield Hit(e.start, e.end, e.detail.get("message", "shlex.split fails"))


@rule("QB303", "read-as-option", "error",
      "The script word starts with - or + and is read as options.",
      "`bash -c -x…` or an ssh command word starting with `-` is taken as options, not as the command.",
      "ssh host -- -v   (R = -v)", "ssh host -- \"-v\"",
      kinds=("option",))
def read_as_option(layer):
    for e in layer.of("option"):
        yield Hit(e.start, e.end, e.detail.get("message", "this word is read as options, not as the script"))


# --- QB4xx: here-documents ---------------------------------------------------------

@rule("QB401", "heredoc-ended-early", "error",
      "A line of the text equals the here-document's delimiter and ends it early.",
      "The rest of the text is parsed as commands of the outer (local) shell.",
      "ssh host bash <<EOF ... a line EOF inside the script ... EOF", "use a delimiter that no line equals",
      kinds=("heredoc-end",))
def heredoc_ended_early(layer):
    for e in layer.of("heredoc-end"):
        yield Hit(e.start, e.end, f"this line ends the here-document (delimiter `{e.detail.get('delimiter')}`); "
                                  "the lines after it run in the outer shell")


@rule("QB402", "heredoc-expansion", "warning",
      "An unquoted here-document delimiter lets the local shell expand `$` and `$(…)` in the body.",
      "With `<<EOF` the local shell expands the body before ssh or bash reads it; quote the delimiter "
      "(`<<'EOF'`) to send the body as written.",
      "ssh host bash <<EOF\necho $HOSTNAME\nEOF", "ssh host bash <<'EOF'\necho $HOSTNAME\nEOF",
      kinds=("heredoc-expansion",))
def heredoc_expansion(layer):
    for e in layer.of("heredoc-expansion"):
        yield Hit(e.start, e.end, f"`{_snippet(e)}` is expanded by the local shell before the body is sent",
                  _reply(layer, "warning"), e.detail.get("fix"))


@rule("QB403", "heredoc-backslash", "error",
      "The local shell removes a backslash before $, ` or \\ in an unquoted here-document body.",
      "The inner shell then receives different text than the reply holds.",
      "printf '%s\\\\n' x   (in <<EOF)", "printf '%s\\\\\\\\n' x",
      kinds=("heredoc-backslash",))
def heredoc_backslash(layer):
    for e in layer.of("heredoc-backslash"):
        yield Hit(e.start, e.end, f"the local shell removes this backslash (`{_snippet(e)}`)")


# --- QB5xx: JSON -------------------------------------------------------------------

@rule("QB501", "json-invalid", "error",
      "Spliced into a JSON string, the text makes the JSON invalid.",
      "A naive harness builds `{\"command\": \"R\"}` by concatenation; a `\"`, a raw newline or a bad "
      "escape in R breaks the document, and the harness rejects it.",
      "echo \"hi\"   (into {\"command\": \"…\"})", "echo \\\"hi\\\"",
      kinds=("json-invalid",))
def json_invalid(layer):
    for e in layer.of("json-invalid"):
        yield Hit(e.start, e.end, e.detail.get("message", "the JSON text is invalid here"))


@rule("QB502", "json-escape-decoded", "error",
      "A backslash sequence is decoded by the JSON parser.",
      "`\\n`, `\\t`, `\\\\`, `\\\"`, `\\u…` in R are JSON escapes: the command receives the decoded "
      "character, not the two characters the reply holds.",
      "printf 'a\\nb'", "printf 'a\\\\nb'",
      kinds=("json-escape",))
def json_escape_decoded(layer):
    for e in layer.of("json-escape"):
        yield Hit(e.start, e.end, f"the JSON parser decodes `{_snippet(e)}`")


# --- QB6xx: stdin -------------------------------------------------------------------

@rule("QB601", "stdin-swallowed", "warning",
      "A command reads standard input while the script itself arrives on standard input.",
      "With `bash -s`, a here-document to ssh, or ssh in a `while read` loop, a command that reads "
      "stdin (`cat`, `read`, `ssh` without -n…) eats the rest of the script or of the loop's input.",
      "ssh host bash <<'EOF'\ncat\necho never\nEOF", "cat </dev/null   or   ssh -n host …",
      kinds=("stdin-read",))
def stdin_swallowed(layer):
    for e in layer.of("stdin-read"):
        yield Hit(e.start, e.end, e.detail.get("message", f"`{_snippet(e)}` reads standard input, which holds "
                                                "the rest of the script"))


# --- QB7xx: dialect -----------------------------------------------------------------

@rule("QB701", "bashism-in-sh", "warning",
      "A bash-only construct in a script run by sh (dash on Debian and Ubuntu).",
      "`sh -c`, `watch` and `su` without a bash login shell run dash, which rejects or misreads "
      "`[[`, arrays, `$'…'`, `{a,b}`, `==` in `[`, `<<<`, `&>`, `function`, `source`…",
      "sh -c '[[ -f x ]] && echo y'", "sh -c '[ -f x ] && echo y'   or   bash -c '[[ -f x ]] && echo y'",
      kinds=("bashism",))
def bashism(layer):
    for e in layer.of("bashism"):
        yield Hit(e.start, e.end, f"{e.detail.get('what')} is bash-only; {e.detail.get('shell', 'sh')} is dash here")


# --- QB9xx: syntax -------------------------------------------------------------------

@rule("QB900", "not-delivered-intact", "error",
      "The inner shell does not receive the text as written.",
      "The simulator predicts a different inner script, extra arguments or effects in the outer "
      "shell; this is the fallback when no more precise rule names the cause.",
      "a reply the transport rewrites", "the payload from `qbcore escape`",
      kinds=("changed",))
def not_intact(layer):
    for e in layer.of("changed"):
        yield Hit(e.start, e.end, e.detail.get("message", "the inner shell receives something else here"))


@rule("QB901", "outer-syntax-error", "error",
      "The outer shell cannot parse the command built around the text.",
      "A quote or parenthesis in the text unbalances the outer layer; bash reports a syntax error and "
      "the inner shell never starts (or only earlier lines run).",
      "bash -c \"echo (\"a\")\"", "bash -c 'echo \"(a)\"'",
      kinds=("syntax-outer",))
def outer_syntax(layer):
    for e in layer.of("syntax-outer"):
        yield Hit(e.start, e.end, e.detail.get("message", "syntax error in the outer shell"))


@rule("QB902", "inner-syntax-error", "error",
      "The script the inner shell receives does not parse.",
      "bash stops at the error (after running the complete lines before it).",
      "bash -c 'echo (x'", "bash -c 'echo \"(x\"'",
      kinds=("syntax-inner",))
def inner_syntax(layer):
    for e in layer.of("syntax-inner"):
        yield Hit(e.start, e.end, e.detail.get("message", "syntax error in the inner script"))


@rule("QB903", "not-parsed", "info",
      "The linted file does not parse; nested invocations after this point are not checked.",
      "A syntax error in the file itself is no nesting hazard (bash -n and other linters report it); "
      "it is reported so that a silent linter is not mistaken for a clean file.",
      "echo (", "echo '('",
      kinds=("syntax-file",))
def not_parsed(layer):
    for e in layer.of("syntax-file"):
        yield Hit(e.start, e.end, e.detail.get("message", "not parsed"))


def codes() -> list[str]:
    return sorted(REGISTRY)


def matches(code: str, patterns) -> bool:
    """True when ``code`` equals one of ``patterns`` or starts with one (``QB1``, ``QB10``, ``ALL``)."""
    return any(p == "ALL" or code.startswith(p) for p in patterns)
