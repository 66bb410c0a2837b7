"""Mode 1: what each transport's layer does to a reply, as events in the reply's own text.

A reply is flagged under a transport exactly when ``screen`` would not call
it delivered intact; the events name the cause (quote closed early,
expansion by the outer shell, …) and the fix is the escaped payload from
``transports.escape``, marked safe only when the simulator proves that the
payload delivers the reply intact.
"""

from __future__ import annotations

import difflib
import re
from typing import Optional

from ..harness import transports
from ..batch.screen import delivery
from ..harness.simulate import simulate
from ..syntax.parser import parse_prefix
from .findings import Fix, SourceText
from .outer import Spans, iter_simple_commands, parse, word_events
from .rules import Event, Layer

_MARK = "\x01"
_JSON_OFFSET = re.compile(r"at offset (\d+)")
_JSON_PREFIX = len('{"command": "')


def layer_for(reply: str, transport: str, source: Optional[SourceText] = None) -> Optional[Layer]:
    """The Layer of ``reply`` under ``transport``, or None when it is delivered intact
    and nothing in it reads the stdin its script arrives on."""
    spec = transports.get(transport)
    if "\0" in reply:
        at = reply.index("\0")
        _, no_fix = payload_fix(reply, spec.name)
        return Layer("reply", [Event("changed", at, at + 1, {
            "message": "a NUL character: no argv, file or pipe through bash carries it"})],
            (spec.name,), spec.name, None, no_fix)
    simulation = simulate(reply, spec.name)
    verdict = delivery(reply, spec.name, simulation)
    events: list = []
    if verdict != "intact":
        source = source or SourceText("-", reply)
        events = _damage(reply, spec, simulation, source)
        if not events:
            events = [_changed(reply, simulation)]
    if spec.inner == "stdin":
        events += stdin_readers(reply)
    if not events:
        return None
    fix, no_fix = (None, None) if verdict == "intact" else payload_fix(reply, spec.name)
    return Layer("reply", events, (spec.name,), spec.name, fix, no_fix, simulation.inner_script)


def payload_fix(reply: str, transport: str) -> tuple[Optional[Fix], Optional[str]]:
    """The escaped payload as a whole-reply fix, safe when the simulator proves it intact."""
    try:
        payload = transports.escape(reply, transport)
    except ValueError as exc:
        return None, f"no payload exists: {exc}"
    proof = simulate(payload, transport)
    safe = _proven(reply, transport, proof)
    how = ("the simulator proves the inner shell then receives the reply byte for byte" if safe else
           "the simulator cannot prove the payload delivers the reply: " + ("; ".join(proof.opaque) or
                                                                           "it is rewritten"))
    return Fix(0, len(reply), payload, "safe" if safe else "unsafe",
               f"send the payload escaped for {transport}: {how}"), None


def _proven(reply, transport, proof) -> bool:
    """The payload delivers the reply intact; the heredoc payload's own empty `$()`
    (which keeps a line equal to the delimiter from ending the document) is no damage."""
    if delivery(reply, transport, proof) == "intact":
        return True
    expected = reply + "\n" if transports.get(transport).adds_final_newline else reply
    return (proof.exact and proof.outer_error is None and not proof.inner_args
            and proof.inner_script == expected
            and all(e.kind == "substitution" and e.text == "$()" for e in proof.outer_effects))


def _damage(reply, spec, simulation, source):
    if spec.outer == "json":
        return _json_events(reply, simulation)
    if spec.outer == "shlex":
        return _shlex_events(reply, simulation)
    if spec.outer in ("bash", "bash-twice"):
        return _bash_events(reply, spec, simulation, source)
    if reply[:1] in ("-", "+"):
        return [Event("option", 0, 1, {"message": "bash reads a script that starts with - or + as options"})]
    return []


def _bash_events(reply, spec, simulation, source):
    outer = transports.wrap(reply, spec.name).argv[2]
    prefix = transports.wrap(_MARK, spec.name).argv[2].index(_MARK)
    prefix_bytes = len(outer[:prefix].encode("utf-8", "surrogateescape"))
    reply_bytes = len(source.raw())
    tree, remap = parse(outer)
    spans = Spans(outer, prefix_bytes, reply_bytes, source.char_of_byte, remap=remap)
    events: list = []
    emit = events.append
    for at in getattr(remap, "removed", ()):
        if prefix_bytes <= at < prefix_bytes + reply_bytes:
            start = source.char_of_byte(at - prefix_bytes)
            emit(Event("backslash", start, start + 2, {"text": "\\\n"}))  # a line continuation the outer removes
    commands = iter_simple_commands(tree.chunks)
    harness = next(commands, None)
    if harness is not None:
        if spec.inner == "stdin":
            _heredoc_events(reply, harness, spans, emit)
        else:
            script_at = 2
            words = harness.words
            for index, word in enumerate(words[script_at:], script_at):
                word_events(word.parts, spans, reply, emit, mode="reply")
                if index > script_at:
                    gap_start, gap_end = spans.char(words[index - 1].end), spans.char(word.start)
                    if gap_start is not None and gap_end is not None:
                        gap = reply[gap_start:gap_end]
                        if spec.remote and gap == " ":
                            continue  # ssh joins its words with exactly this space
                        message = ("ssh joins these words with one space" if spec.remote else
                                   "the outer shell splits the text here; what follows becomes the inner "
                                   "shell's $0, $1, …")
                        blanks = len(gap) - len(gap.lstrip(" \t\n"))
                        emit(Event("split", gap_start, gap_start + max(blanks, 1), {"message": message}))
            for redirect in harness.redirects:
                start, end = spans.char(redirect.start), spans.char(redirect.end)
                if start is not None and end is not None:
                    emit(Event("operator", start, end, {"text": reply[start:end]}))
        end = spans.char(harness.end)
        if end is not None and spec.inner != "stdin":
            rest = len(reply) - len(reply[end:].lstrip(" \t"))
            if rest < len(reply) and any(c.start > harness.end for c in commands):  # the rest, lazily
                emit(Event("operator", rest, len(reply), {"text": reply[rest:rest + 1]}))
    if tree.error is not None:
        at = spans.char(tree.error.offset)
        at = len(reply) - 1 if at is None or at >= len(reply) else at
        for quote in "'\"":
            if f"matching `{quote}'" in tree.error.message and quote in reply:
                at = reply.rindex(quote)  # the quote left open
        emit(Event("syntax-outer", max(at, 0), max(at, 0) + 1,
                   {"message": f"the outer shell fails: {simulation.outer_error or tree.error.message}"}))
    elif simulation.outer_error:
        emit(Event("syntax-outer", 0, len(reply), {"message": f"the outer shell fails: {simulation.outer_error}"}))
    if reply[:1] in ("-", "+") and simulation.inner_script is None and not simulation.outer_error:
        emit(Event("option", 0, 1, {"message": "the script word starts with - or +: read as options"}))
    return _unique(events)


def _heredoc_events(reply, harness, spans, emit):
    from ..syntax.parser import CmdSub, Escaped, Param

    for redirect in harness.redirects:
        doc = redirect.heredoc
        if doc is None:
            continue
        for part in doc.parts:
            start, end = spans.char(part.start), spans.char(part.end)
            if start is None or end is None or end <= start:
                continue
            if isinstance(part, Escaped):
                emit(Event("heredoc-backslash", start, end, {"text": reply[start:end]}))
            elif not isinstance(part, type(None)) and part.__class__.__name__ != "Lit":
                emit(Event("heredoc-expansion", start, end, {"text": reply[start:end]}))
        end = spans.char(doc.end)
        if end is not None and end < len(reply):
            line_end = reply.find("\n", end)
            line_end = len(reply) if line_end == -1 else line_end
            emit(Event("heredoc-end", end, max(line_end, end + 1), {"delimiter": doc.delimiter}))


def _json_events(reply, simulation):
    error = simulation.outer_error
    if error:
        found = _JSON_OFFSET.search(error)
        at = int(found.group(1)) - _JSON_PREFIX if found else len(reply) - 1
        at = min(max(at, 0), max(len(reply) - 1, 0))
        if at > 0 and reply[at - 1] == '"':
            at -= 1  # the quote that ended the JSON string; the parser complains one later
        return [Event("json-invalid", at, at + 1, {"message": error})]
    value = simulation.inner_script or ""
    events = []
    for start, end in changed_spans(reply, value):
        at = reply.rfind("\\", 0, start + 1)
        at = start if at == -1 or start - at > 6 else at
        events.append(Event("json-escape", at, max(end, at + 2), {"text": reply[at:max(end, at + 2)]}))
    return _unique(events)


def _shlex_events(reply, simulation):
    error = simulation.outer_error
    if error and error.startswith("shlex"):
        quotes = [i for i, c in enumerate(reply) if c in "'\""]
        at = quotes[-1] if quotes else 0
        return [Event("shlex-error", at, len(reply), {"message": f"the harness fails: {error}"})]
    if error:
        return [Event("option", 0, min(len(reply), 1), {"message": f"ssh fails: {error}"})]
    value = simulation.inner_script
    if value is None:
        return [Event("option", 0, min(len(reply), 1), {"message": "ssh runs no remote command"})]
    return [Event("join", s, e, {"text": reply[s:e], "by": "the harness's split and ssh",
                                "message": "the harness splits the reply into words and ssh joins them with "
                                           "spaces: the quoting here is lost"})
            for s, e in changed_spans(reply, value)][:1] or []


def _changed(reply, simulation):
    spans = changed_spans(reply, simulation.inner_script or "")
    start, end = spans[0] if spans else (0, len(reply))
    why = []
    if simulation.inner_args:
        why.append("extra arguments " + " ".join(map(repr, simulation.inner_args)))
    if simulation.outer_effects:
        why.append("effects in the outer shell")
    if simulation.opaque:
        why.append("not statically known: " + "; ".join(simulation.opaque))
    message = "the inner shell receives something else" + (f" ({', '.join(why)})" if why else "")
    return Event("changed", start, max(end, start + 1) if reply else 0, {"message": message})


def changed_spans(before: str, after: str) -> list:
    """Character spans of ``before`` that differ in ``after`` (an insertion is a span of one)."""
    found = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op != "equal":
            found.append((min(i1, max(len(before) - 1, 0)), max(i2, i1 + 1)))
    return found


_READS_FILES = frozenset("cat head tail wc sort uniq tac base64 md5sum sha256sum sha1sum less more nl od xxd".split())
_READS_ALWAYS = frozenset("read mapfile readarray tr".split())
_SHELLS = frozenset("bash sh dash zsh ksh".split())
_INTERPRETERS = frozenset("python python3 perl ruby node php".split())


def stdin_readers(script: str, offset: int = 0) -> list:
    """Events for top-level commands that read the stdin the script itself arrives on."""
    from ..syntax.parser import Pipeline

    tree, remap = parse(script)
    source = SourceText("-", script)
    found = []
    items = [item for chunk in tree.chunks for item in chunk.items]
    raw_len = len(source.raw())
    for item in items:
        for pipeline in item.command.pipelines:
            if not isinstance(pipeline, Pipeline) or not pipeline.commands:
                continue
            command = pipeline.commands[0]
            if not hasattr(command, "words") or not command.words:
                continue
            if any(r.op.startswith("<") and (r.fd in (None, "0")) for r in command.redirects):
                continue
            words = [_static(w) for w in command.words]
            if not reads_stdin(words):
                continue
            command_end = remap(command.end)
            if command_end >= raw_len or not source.raw()[command_end:].strip(b" \t\n;&|\\"):
                continue  # nothing after it to swallow
            start, end = source.char_of_byte(remap(command.start)), source.char_of_byte(command_end)
            found.append(Event("stdin-read", start + offset, end + offset, {"text": script[start:end]}))
    return found


def reads_stdin(words) -> bool:
    """Whether a command (static words, None for unknown) reads its standard input."""
    if not words or words[0] is None:
        return False
    name = words[0].rsplit("/", 1)[-1]
    operands = [w for w in words[1:] if w is None or not w.startswith("-") or w == "-"]
    if name in _READS_ALWAYS:
        return True
    if name in _READS_FILES:
        return not operands or "-" in operands
    if name == "ssh":
        return not any(w and w.startswith("-") and ("n" in w[1:] or "f" in w[1:]) and not w.startswith("--")
                       for w in words[1:])
    if name in _SHELLS:
        return not any(w and w.startswith("-") and "c" in w[1:] for w in words[1:]) and not operands
    if name in _INTERPRETERS:
        return not operands or operands == ["-"]
    return False


def _static(word):
    """The value of a word without expansions, or None (an array assignment of a declaration
    builtin, `declare a=(…)`, has none)."""
    from ..syntax.parser import DoubleQuoted, Escaped, Lit, SingleQuoted, Word

    if not isinstance(word, Word):
        return None
    out = []
    for part in word.parts:
        if isinstance(part, (Lit, SingleQuoted)):
            out.append(part.text)
        elif isinstance(part, Escaped):
            out.append(part.char)
        elif isinstance(part, DoubleQuoted) and all(isinstance(p, (Lit, Escaped)) for p in part.parts):
            out.extend(p.text if isinstance(p, Lit) else p.char for p in part.parts)
        else:
            return None
    return "".join(out)


def _unique(events):
    seen, out = set(), []
    for e in events:
        key = (e.kind, e.start, e.end)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out
