"""Mode 2: the nested invocations a script holds, each simulated and linted as a layer.

A command such as ``sudo sh -c "…"``, ``ssh -p 22 host cmd …``, ``find -exec
sh -c '…' \\;`` or ``ssh host bash <<EOF`` hands a string to another shell.
For each, this module reports what the outer shell does to that string
before the inner shell parses it (against the author's evident intent: the
string as one argument, their own escapes honoured), proposes a fix the
simulator proves, and lints the inner script in turn, with the layer path.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Optional

from ..harness import transports
from ..batch.screen import delivery
from ..harness.simulate import simulate
from ..syntax.parser import (AnsiC, Arith, ArithCommand, ArithFor, Assignment, CmdSub, Cond, Coproc, DoubleQuoted,
                      Escaped, For, FunctionDef, Lit, Param, Pipeline, ProcSub, Redirect, SimpleCommand,
                      SingleQuoted, parse_prefix)
from .findings import Fix, SourceText
from .outer import (POSITIONAL, Spans, parse, param_is_quoted_value, quotes_for_shell, simple_commands, substitution_body,
                    word_events)
from .replies import stdin_readers
from .rules import Event, Layer

SHELLS = {"bash": "bash", "sh": "sh", "dash": "sh", "ash": "sh", "zsh": "bash", "ksh": "bash", "mksh": "bash"}
_DYNAMIC = (Param, CmdSub, Arith, ProcSub)
_SHELL_CHARS = re.compile(r"[\s;&|<>()$`\\\"'*?\[\]#~{}!]")


@dataclass
class Nested:
    """One string handed to another shell: a script word, joined words, or a here-document."""

    kind: str  # script | join | stdin
    shell: str  # bash | sh (dash)
    label: str
    indices: tuple = ()
    args_follow: bool = False
    placeholder: Optional[str] = None
    by: str = ""


@dataclass
class _Text:
    """A text being linted with the map from its characters to the file's."""

    text: str
    offsets: Optional[list] = None  # file offset of each character, plus one past the end
    source: SourceText = field(init=False)
    remap: object = field(init=False, default=None)

    def __post_init__(self):
        self.source = SourceText("-", self.text)

    def char(self, offset: int) -> int:
        """The character of this text at a byte offset of its syntax tree."""
        return self.source.char_of_byte(self.remap(offset) if self.remap else offset)

    def char_end(self, offset: int) -> int:
        """Like ``char``, for the end of a span (it stops before a removed line continuation)."""
        end = getattr(self.remap, "end", None)
        return self.source.char_of_byte(end(offset) if end else offset)

    def to_file(self, start: int, end: int) -> tuple[int, int]:
        if self.offsets is None:
            return start, end
        last = len(self.text)
        s = self.offsets[min(start, last)]
        e = self.offsets[min(end - 1, last)] + 1 if end > start else s
        return s, max(e, s)


def layers_of(text: str, *, depth: int = 3) -> list:
    """Every layer of ``text`` and of the scripts nested in it, down to ``depth`` layers."""
    found: list = []
    _lint(_Text(text), (), depth, "bash", found, top=True)
    return found


# --- one text -------------------------------------------------------------------------

def _lint(t: _Text, path: tuple, depth: int, dialect: str, found: list, *, top: bool = False):
    tree, t.remap = parse(t.text)
    if tree.error is not None:
        at = t.char(tree.error.offset)
        at = min(at, max(len(t.text) - 1, 0))
        s, e = t.to_file(at, at + 1)
        kind = "syntax-file" if top else "syntax-inner"
        what = ("qbcore cannot parse past this point; nested invocations after it are not checked"
                if top else "the inner shell cannot parse the script it receives")
        found.append(Layer("script", [Event(kind, s, e, {"message": f"{what}: {tree.error.message}"})], path))
    if dialect == "sh":
        events = [Event("bashism", *t.to_file(s, e), {"what": what, "shell": "sh"}) for s, e, what in _bashisms(tree, t)]
        if events:
            found.append(Layer("script", events, path))
    loop_readers = [Event("stdin-read", *t.to_file(s, e), {"message": message}) for s, e, message in _loop_stdin(tree, t)]
    if loop_readers:
        found.append(Layer("script", loop_readers, path))
    known = _quoted_variables(tree)
    if depth < 1:
        return
    for command in simple_commands(tree.chunks):
        words = [_word(w, t) for w in command.words]
        values = [w.value if w.static else None for w in words]
        for nested in _resolve(values, 0, len(values), ()):
            _nested_layer(t, command, words, nested, path, depth, known, found)


@dataclass
class _Word:
    node: object
    value: str  # the intended text: quotes removed, escapes honoured, expansions as written
    offsets: list  # local character offset of each character of value
    static: bool
    quoted: bool
    start: int
    end: int


def _word(word, t: _Text) -> _Word:
    value, offsets = [], []
    state = {"static": True, "quoted": False}
    src = t.source

    def literal(text, start_char, span_chars):
        value.append(text)
        if len(text) == span_chars:
            offsets.extend(range(start_char, start_char + len(text)))
        else:
            offsets.extend([start_char] * len(text))

    def walk(parts):
        for part in parts:
            cs, ce = t.char(part.start), t.char_end(part.end)
            if isinstance(part, Lit):
                literal(part.text, cs, ce - cs)
            elif isinstance(part, Escaped):
                state["quoted"] = True
                literal(part.char, cs + 1, 1)
            elif isinstance(part, SingleQuoted):
                state["quoted"] = True
                literal(part.text, cs + 1, ce - cs - 2)
            elif isinstance(part, AnsiC):
                state["quoted"] = True
                literal(part.text, cs, -1)
            elif isinstance(part, DoubleQuoted):
                state["quoted"] = True
                walk(part.parts)
            else:
                state["static"] = False
                literal(t.text[cs:ce], cs, ce - cs)

    walk(word.parts)
    return _Word(word, "".join(value), offsets, state["static"], state["quoted"],
                 t.char(word.start), t.char_end(word.end))


# --- which words another shell parses ----------------------------------------------

_SSH_WITH_ARGUMENT = "BbcDEeFIiJLlmOoPpQRSWw"


def _base(word):
    return os.path.basename(word) if word else word


def _skip_options(values, i, end, with_argument=(), stop_at_operand=True):
    while i < end and values[i] is not None and values[i].startswith("-") and values[i] != "-":
        word = values[i]
        if word == "--":
            return i + 1
        i += 1
        if word in with_argument and "=" not in word:
            i += 1
    return i


def _resolve(values, i, end, via) -> list:
    """The nested invocations in the command words ``values[i:end]`` (None: not static)."""
    while i < end:
        word = values[i]
        if word is None:
            return []
        name = _base(word)
        if name in ("sudo", "doas"):
            i = _skip_options(values, i + 1, end, ("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T",
                                                  "--user", "--group", "--chdir"))
            via += (name,)
        elif name == "env":
            i += 1
            while i < end and values[i] is not None and (values[i].startswith("-") or "=" in values[i]):
                i += 2 if values[i] in ("-u", "-C", "-S", "--unset", "--chdir") else 1
            via += ("env",)
        elif name in ("nohup", "setsid", "exec", "command", "builtin", "time", "stdbuf", "unbuffer", "chronic"):
            i = _skip_options(values, i + 1, end, ("-o", "-e", "-i"))
        elif name in ("nice", "ionice", "chrt", "taskset"):
            i = _skip_options(values, i + 1, end, ("-n", "-c", "-p"))
        elif name == "timeout":
            i = _skip_options(values, i + 1, end, ("-s", "-k", "--signal", "--kill-after")) + 1
            via += ("timeout",)
        elif name == "xargs":
            i, placeholder = _xargs_options(values, i + 1, end)
            return [_with(n, placeholder=placeholder or n.placeholder, by="xargs")
                    for n in _resolve(values, i, end, via + ("xargs",))]
        elif name == "find":
            found = []
            for k in range(i + 1, end):
                if values[k] in ("-exec", "-execdir", "-ok", "-okdir"):
                    stop = next((m for m in range(k + 1, end) if values[m] in (";", "+")), end)
                    found += [_with(n, placeholder="{}", by="find")
                              for n in _resolve(values, k + 1, stop, via + ("find -exec",))]
            return found
        elif name in ("docker", "podman") and i + 1 < end and values[i + 1] == "exec":
            i = _skip_options(values, i + 2, end, ("-u", "-e", "-w", "--user", "--env", "--workdir",
                                                  "--env-file", "--detach-keys"))
            if i >= end or values[i] is None:
                return []
            via += (f"{name} exec {values[i]}",)
            i += 1
        elif name == "kubectl" and "exec" in values[i + 1:i + 3]:
            dashes = next((k for k in range(i + 1, end) if values[k] == "--"), None)
            if dashes is None:
                return []
            via += ("kubectl exec",)
            i = dashes + 1
        elif name == "su":
            return _su(values, i, end, via)
        elif name == "watch":
            k = i + 1
            exec_mode = False
            while k < end and values[k] is not None and values[k].startswith("-"):
                exec_mode = exec_mode or values[k] in ("-x", "--exec")
                k += 2 if values[k] in ("-n", "--interval", "-q", "--equexit") else 1
            if exec_mode:
                i = k
                continue
            return [Nested("join", "sh", " > ".join(via + ("watch",)), tuple(range(k, end)), by="watch")] \
                if k < end else []
        elif name == "eval":
            return [Nested("join", "bash", " > ".join(via + ("eval",)), tuple(range(i + 1, end)), by="eval")] \
                if i + 1 < end else []
        elif name == "ssh":
            return _ssh(values, i, end, via)
        elif name in SHELLS:
            return _shell(values, i, end, via)
        else:
            return []
    return []


def _with(nested, **changes):
    for key, value in changes.items():
        setattr(nested, key, value)
    return nested


def _xargs_options(values, i, end):
    placeholder = None
    while i < end and values[i] is not None and values[i].startswith("-"):
        word = values[i]
        if word == "--":
            return i + 1, placeholder
        if word == "-I" and i + 1 < end:
            placeholder, i = values[i + 1], i + 2
            continue
        if word.startswith("-I"):
            placeholder = word[2:]
        elif word.startswith("-i") or word.startswith("--replace"):
            placeholder = word.partition("=")[2] or word[2:] or "{}"
        if word in ("-n", "-P", "-d", "-L", "-s", "-E", "-a", "--max-args", "--max-procs", "--delimiter"):
            i += 1
        i += 1
    return i, placeholder


def _shell(values, i, end, via):
    shell = SHELLS[_base(values[i])]
    label = " > ".join(via + (_base(values[i]),))
    k, has_c, stdin = i + 1, False, False
    while k < end and values[k] is not None and values[k][:1] in ("-", "+") and len(values[k]) > 1:
        word = values[k]
        k += 1
        if word == "--":
            break
        if word in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            k += 1
            continue
        if not word.startswith("--"):
            has_c = has_c or "c" in word[1:]
            stdin = stdin or "s" in word[1:]
    if has_c:
        return [Nested("script", shell, label + " -c", (k,), args_follow=k + 1 < end)] if k < end else []
    if stdin or k >= end:
        return [Nested("stdin", shell, label)]
    return []


def _su(values, i, end, via):
    k = i + 1
    while k < end:
        word = values[k]
        if word in ("-c", "--command") and k + 1 < end:
            return [Nested("script", "bash", " > ".join(via + ("su -c",)), (k + 1,))]
        if word is not None and word.startswith("--command="):
            return []
        k += 2 if word in ("-s", "--shell", "-g", "-G", "-w") else 1
    return []


def _ssh(values, i, end, via):
    k, host = i + 1, None
    while k < end:
        word = values[k]
        if word is None:
            if host is not None:
                break
            host, k = "…", k + 1  # `ssh "$host" …`: a host the script computes
            continue
        if word == "--":
            k += 1
            if host is None and k < end:
                host, k = values[k], k + 1
            break
        if word.startswith("-") and len(word) > 1:
            k += 1
            for n, c in enumerate(word[1:], 1):
                if c in _SSH_WITH_ARGUMENT:
                    if n + 1 == len(word):
                        k += 1
                    break
            continue
        if host is not None:
            break
        host, k = word, k + 1
    if host is None:
        return []
    label = " > ".join(via + (f"ssh {host}",))
    if k >= end:
        return [Nested("stdin", "bash", label)]
    rest = values[k:end]
    if all(v is not None for v in rest):
        inner = _resolve(list(rest), 0, len(rest), ())
        if inner and inner[0].kind == "stdin":
            return [Nested("stdin", inner[0].shell, label)]
    return [Nested("join", "bash", label, tuple(range(k, end)), by="ssh")]


# --- one nested invocation -----------------------------------------------------------

def _nested_layer(t, command, words, nested, path, depth, known, found):
    layers = path + (nested.label,)
    events: list = []
    local_spans = Spans(t.text, 0, len(t.source.raw()), t.source.char_of_byte, remap=t.remap or (lambda o: o))
    fix = None
    inner: Optional[_Text] = None
    if nested.kind in ("script", "join"):
        chosen = [words[k] for k in nested.indices if k < len(words)]
        if not chosen:
            return
        if nested.kind == "script" or len(chosen) == 1:
            word = chosen[0]
            events += _script_word_events(word, t, local_spans, nested, known)
            inner_value, inner_offsets = word.value, word.offsets
        else:
            inner_value, inner_offsets = _joined(chosen, t)
            for word in chosen:
                events += _joined_word_events(word, t, local_spans, nested, known)
        fix = _word_fix(chosen, nested, events, t)
        if words[nested.indices[0]].value[:1] in ("-", "+") and nested.kind == "script":
            word = chosen[0]
            events.append(Event("option", word.start, word.start + 1,
                                {"message": "the script starts with - or +: bash reads it as options"}))
        inner = _Text(inner_value, [t.to_file(o, o + 1)[0] for o in inner_offsets] + [t.to_file(chosen[-1].end - 1, chosen[-1].end)[1]])
    else:
        doc_redirect = next((r for r in command.redirects if r.heredoc is not None), None)
        if doc_redirect is None:
            return
        events += _heredoc_events(doc_redirect, t, known)
        if t.offsets is not None:
            for e in events:
                e.detail.pop("fix", None)
        inner = _heredoc_text(doc_redirect.heredoc, t)
        for e in stdin_readers(inner.text):
            s, en = inner.to_file(e.start, e.end)
            events.append(Event("stdin-read", s, en, dict(e.detail)))
        events = [_local_to_file(e, t) if e.kind != "stdin-read" else e for e in events]
        if events:
            found.append(Layer("script", events, layers))
        _lint(inner, layers, depth - 1, nested.shell, found)
        return
    if nested.by == "ssh" or any(word in nested.label for word in ("ssh ", "exec", "su -c", "sudo")):
        for e in events:
            if e.kind == "expansion":
                # another host, container or user has its own $HOME, $USER, $PATH
                e.detail["environment"] = False
    if nested.by == "ssh":
        for e in events:
            e.detail["side"] = "the local shell, before ssh sends the command"
    events = [_local_to_file(e, t) for e in events]
    no_fix = None
    if fix is not None and t.offsets is not None:
        # the words sit inside an outer layer's string: a rewrite must be escaped for it too
        fix, no_fix = None, "fix the enclosing layer first: this text sits inside another layer's string"
    if events:
        found.append(Layer("script", events, layers, fix=fix, no_fix=no_fix,
                           inner_script=_simulated(chosen, nested, t)))
    if inner is not None:
        _lint(inner, layers, depth - 1, nested.shell, found)


def _simulated(chosen, nested, t) -> Optional[str]:
    """What the simulator says the inner shell receives for a lone quoted script word (the outer
    shell's own variables taken as unset): `bash -c "W"` is the nested transport, `bash -c 'W'`
    the single one, `ssh host "W"` the ssh one."""
    if len(chosen) != 1 or len(chosen[0].node.parts) != 1:
        return None
    part = chosen[0].node.parts[0]
    transport = {DoubleQuoted: "ssh" if nested.by == "ssh" else "nested",
                 SingleQuoted: "single"}.get(type(part))
    if transport is None or getattr(part, "locale", False):
        return None
    start, end = t.char(part.start) + 1, t.char(part.end) - 1
    try:
        simulation = simulate(t.text[start:end], transport)
    except ValueError:
        return None
    return simulation.inner_script if simulation.outer_error is None else None


def _local_to_file(e: Event, t: _Text) -> Event:
    s, en = t.to_file(e.start, e.end)
    return Event(e.kind, s, en, e.detail)


def _script_word_events(word, t, spans, nested, known):
    parts = word.node.parts
    events: list = []
    emit = events.append
    if len(parts) == 1 and isinstance(parts[0], DoubleQuoted) and len(parts[0].parts) == 1 \
            and isinstance(parts[0].parts[0], _DYNAMIC) and not (
                nested.args_follow and isinstance(parts[0].parts[0], Param) and parts[0].parts[0].name in POSITIONAL):
        return events  # `bash -c "$cmd"`, `eval "$(ssh-agent -s)"`: the value is meant as code
    has_single = any(isinstance(p, (SingleQuoted, AnsiC)) for p in parts)
    dynamic_top = [p for p in parts if isinstance(p, _DYNAMIC) or (
        isinstance(p, DoubleQuoted) and any(isinstance(q, _DYNAMIC) for q in p.parts))]
    if has_single and dynamic_top:
        # '…'"$x"'…': the author pastes a value into single-quoted code
        for p in dynamic_top:
            s, e = spans.char(p.start), spans.char(p.end)
            emit(Event("splice", s, e, {"text": t.text[s:e], "quoted": isinstance(p, DoubleQuoted)}))
        rest = [p for p in parts if p not in dynamic_top]
        word_events(rest, spans, t.text, emit, mode="script", known_quoted=known,
                    placeholder=nested.placeholder)
        return events
    for p, following in zip(parts, parts[1:]):
        if isinstance(p, (DoubleQuoted, SingleQuoted)) and isinstance(following, Lit):
            # `"echo "hi there"`: the quote meant to be inside the script ends it
            at = spans.char(p.end) - 1
            quote = '"' if isinstance(p, DoubleQuoted) else "'"
            emit(Event("quote", at, at + 1, {"quote": quote, "role": "close", "text": quote}))
    for p in parts:
        if isinstance(p, _DYNAMIC) and not (isinstance(p, Param) and (p.name in known or param_is_quoted_value(p))):
            s, e = spans.char(p.start), spans.char(p.end)
            by = "ssh joins" if nested.kind == "join" else "the outer shell splits"
            emit(Event("split", s, e, {"message": f"`{t.text[s:e]}` is unquoted: {by} its value into words "
                                                  "before the inner shell parses it"}))
    word_events(parts, spans, t.text, emit, mode="script", known_quoted=known, args_follow=nested.args_follow,
                placeholder=nested.placeholder)
    if nested.placeholder:
        for e in events:
            if e.kind == "placeholder":
                e.detail["by"] = nested.by or "the program"
    return events


def _joined_word_events(word, t, spans, nested, known):
    events: list = []
    if word.static and word.quoted and _SHELL_CHARS.search(word.value):
        text = t.text[word.start:word.end]
        events.append(Event("join", word.start, word.end, {
            "text": text, "by": nested.by,
            "message": f"{nested.by} joins its arguments with spaces: `{text}` reaches the "
                       f"{'remote ' if nested.by == 'ssh' else ''}shell as `{word.value}` and is parsed again"}))
    word_events(word.node.parts, spans, t.text, events.append, mode="script", known_quoted=known)
    for e in events:
        if e.kind == "expansion" and not e.detail.get("quoted"):
            e.detail["quoted"] = True  # unquoted or not, the value is joined and parsed again
    return events


def _joined(chosen, t):
    value, offsets = [], []
    for n, word in enumerate(chosen):
        if n:
            value.append(" ")
            offsets.append(chosen[n - 1].end)
        value.append(word.value)
        offsets.extend(word.offsets)
    return "".join(value), offsets


def _word_fix(chosen, nested, events, t) -> Optional[Fix]:
    """A rewrite of the words that delivers the intended script, proven by the simulator."""
    kinds = {e.kind for e in events}
    if not kinds & {"expansion", "substitution", "join", "placeholder"} or kinds & {"split", "splice"}:
        return None
    start, end = chosen[0].start, chosen[-1].end
    if nested.kind == "join" and len(chosen) > 1:
        if not all(w.static for w in chosen):
            return None
        intended = shlex.join(w.value for w in chosen)
    else:
        intended = chosen[0].value
    if "placeholder" in kinds:
        if nested.kind != "script" or nested.args_follow:
            return None
        intended = intended.replace(nested.placeholder, '"$1"')
        return _proven_word(intended, start, end, "unsafe", " _ " + nested.placeholder,
                            f"pass {nested.placeholder} as an argument instead of pasting it into the code")
    positional_only = all(e.kind == "expansion" and e.detail.get("positional") and e.detail.get("args_follow")
                          for e in events)
    if nested.kind == "join" and kinds == {"join"}:
        return _proven_word(intended, start, end, "safe", "", "quote the joined command once, for the shell that "
                            "parses it again", transport="ssh" if nested.by == "ssh" else "nested")
    return _proven_word(intended, start, end, "safe" if positional_only else "unsafe", "",
                        "single-quote the script so the inner shell receives it as written"
                        + ("" if positional_only else "; the outer values are no longer pasted in (pass "
                           "them as arguments)"))


def _proven_word(intended, start, end, applicability, suffix, description, transport="single"):
    """The replacement word for ``intended`` and the simulator's proof that it arrives intact."""
    try:
        payload = transports.escape(intended, transport)
    except ValueError:
        return None
    proof = simulate(payload, transport)
    if delivery(intended, transport, proof) != "intact":
        return None
    quote = "'" if transport == "single" else '"'
    return Fix(start, end, quote + payload + quote + suffix, applicability, description)


def _heredoc_events(redirect, t, known):
    doc = redirect.heredoc
    if doc.quoted:
        return []
    src = t.source
    events = []
    escaped = any(isinstance(p, Escaped) for p in doc.parts)
    fix = None
    if not escaped and redirect.target is not None:
        ts, te = t.char(redirect.target.start), t.char(redirect.target.end)
        fs, fe = t.to_file(ts, te)
        fix = Fix(fs, fe, "'" + doc.delimiter + "'", "unsafe",
                  "quote the delimiter so the body is sent as written (the local values are no longer pasted in)")
    for part in doc.parts:
        if isinstance(part, Param) and (part.name in known or param_is_quoted_value(part)):
            continue
        if isinstance(part, CmdSub) and quotes_for_shell(substitution_body(part)):
            continue
        if isinstance(part, _DYNAMIC):
            s, e = t.char(part.start), t.char(part.end)
            events.append(Event("heredoc-expansion", s, e, {"text": t.text[s:e], "fix": fix}))
    return events


def _heredoc_text(doc, t) -> _Text:
    src = t.source
    if doc.quoted or not doc.parts:
        start = t.char(doc.start)
        body = doc.raw
        offsets = list(range(start, start + len(body)))
        if src.text[start:start + len(body)] != body:
            offsets = [start] * len(body)
    else:
        pieces, offsets = [], []
        for part in doc.parts:
            cs, ce = t.char(part.start), t.char(part.end)
            text = part.text if isinstance(part, Lit) else part.char if isinstance(part, Escaped) else t.text[cs:ce]
            pieces.append(text)
            offsets.extend(range(cs, cs + len(text)) if len(text) == ce - cs else [cs] * len(text))
        body = "".join(pieces)
    file_offsets = [t.to_file(o, o + 1)[0] for o in offsets]
    end = t.to_file(offsets[-1], offsets[-1] + 1)[1] if offsets else t.to_file(0, 0)[0]
    return _Text(body, file_offsets + [end])


def _loop_stdin(tree, t):
    """Commands inside a `while read` loop that read the loop's own standard input (ssh without -n…)."""
    from ..syntax.parser import While
    from .replies import reads_stdin

    src = t.source
    found = []

    def walk(node):
        if isinstance(node, While):
            readers = [c for c in simple_commands(list(node.condition))
                       if c.words and _literal(c.words[0]) == "read"
                       and not any(r.op.startswith("<") and r.fd in (None, "0") for r in c.redirects)]
            if readers:
                for command in simple_commands(list(node.body)):
                    if any(r.op.startswith("<") and r.fd in (None, "0") for r in command.redirects):
                        continue
                    if any(r.heredoc is not None for r in command.redirects):
                        continue
                    words = [_word(w, t) for w in command.words]
                    values = [w.value if w.static else None for w in words]
                    if values and values[0] is not None and values[0] != "read" and reads_stdin(values):
                        s, e = t.char(command.start), t.char(command.end)
                        found.append((s, e, f"`{t.text[s:e]}` reads the loop's standard input and swallows the "
                                            "lines `read` was meant to get (ssh -n, or </dev/null)"))
        if isinstance(node, (list, tuple)):
            for child in node:
                walk(child)
        elif hasattr(node, "__dataclass_fields__"):
            for name in node.__dataclass_fields__:
                child = getattr(node, name, None)
                if isinstance(child, (list, tuple)) or hasattr(child, "__dataclass_fields__"):
                    walk(child)

    walk(tree.chunks)
    return found


# --- what only bash understands ------------------------------------------------------

_BASH_COMMANDS = frozenset("source declare typeset let shopt pushd popd mapfile readarray disown complete "
                           "bind enable caller compgen suspend".split())
_BASH_VARIABLES = frozenset("RANDOM SRANDOM SECONDS BASH BASHPID BASH_VERSION BASH_SOURCE BASH_REMATCH "
                            "PIPESTATUS FUNCNAME EPOCHSECONDS EPOCHREALTIME HOSTTYPE OSTYPE".split())
_BASH_OPS = {"/": "${x/…/…}", "//": "${x//…/…}", "/#": "${x/#…/…}", "/%": "${x/%…/…}", ":": "${x:offset}",
             "^": "${x^}", "^^": "${x^^}", ",": "${x,}", ",,": "${x,,}", "~": "${x~}", "~~": "${x~~}"}
_BRACE = re.compile(r"\{[^{}\s]*(,|\.\.)[^{}\s]*\}")


def _bashisms(tree, t):
    """(start, end, what) for each construct dash does not have, in the text's characters."""
    src = t.source
    found = []

    def add(node, what, length=None):
        s = t.char(node.start)
        e = t.char(node.end) if length is None else s + length
        found.append((s, max(e, s + 1), what))

    def walk(node, quoted=False):
        if isinstance(node, Cond):
            add(node, "`[[ … ]]`", 2)
        elif isinstance(node, (ArithCommand, ArithFor)):
            add(node, "`(( … ))`" if isinstance(node, ArithCommand) else "`for ((…))`", 2)
        elif isinstance(node, For) and node.select:
            add(node, "`select`", 6)
        elif isinstance(node, FunctionDef) and t.text[t.char(node.start):].startswith("function"):
            add(node, "the `function` keyword", 8)
        elif isinstance(node, Coproc):
            add(node, "`coproc`", 6)
        elif isinstance(node, ProcSub):
            add(node, "process substitution", 2)
        elif isinstance(node, AnsiC):
            add(node, "`$'…'`", 2)
        elif isinstance(node, DoubleQuoted) and node.locale:
            add(node, '`$"…"`', 2)
        elif isinstance(node, Assignment) and (node.array is not None or node.index is not None):
            add(node, "arrays")
        elif isinstance(node, Assignment) and node.append:
            add(node, "`+=`")
        elif isinstance(node, Param):
            if node.index is not None:
                add(node, "arrays")
            elif node.op in _BASH_OPS:
                add(node, f"`{_BASH_OPS[node.op]}`")
            elif node.op and node.op.startswith("@"):
                add(node, f"`${{x{node.op}}}`")
            elif node.indirect:
                add(node, "`${!x}`")
            elif node.name in _BASH_VARIABLES:
                add(node, f"`${node.name}`")
        elif isinstance(node, Redirect) and node.op in ("<<<", "&>", "&>>"):
            add(node, f"`{node.op}`", len(node.op) + (len(node.fd) if node.fd else 0))
        elif isinstance(node, Pipeline) and any(node.stderr):
            add(node, "`|&`")
        elif isinstance(node, SimpleCommand) and node.words:
            first = node.words[0]
            name = _literal(first)
            if name in _BASH_COMMANDS:
                add(first, f"`{name}`")
            elif name in ("[", "test") and any(_literal(w) == "==" for w in node.words[1:]):
                word = next(w for w in node.words[1:] if _literal(w) == "==")
                add(word, "`==` in `[ ]`")
            elif name == "echo" and len(node.words) > 1 and _literal(node.words[1]) in ("-e", "-n", "-en", "-ne"):
                add(node.words[1], f"`echo {_literal(node.words[1])}`")
        elif isinstance(node, Lit) and not quoted:
            for m in _BRACE.finditer(node.text):
                s = t.char(node.start) + len(node.text[:m.start()])
                found.append((s, s + len(m.group()), "brace expansion"))
        if isinstance(node, (list, tuple)):
            for child in node:
                walk(child, quoted)
        elif hasattr(node, "__dataclass_fields__"):
            inside = quoted or isinstance(node, DoubleQuoted)
            for name in node.__dataclass_fields__:
                child = getattr(node, name, None)
                if isinstance(child, (list, tuple)) or hasattr(child, "__dataclass_fields__"):
                    walk(child, inside)

    walk(tree.chunks)
    return sorted(set(found))


def _literal(word) -> Optional[str]:
    if len(word.parts) == 1 and isinstance(word.parts[0], Lit):
        return word.parts[0].text
    return None


def _quoted_variables(tree) -> frozenset:
    """Variables the script fills with shell-quoted text (`printf -v v %q`, `v=$(printf %q …)`, `${x@Q}`)."""
    names = set()
    for command in simple_commands(tree.chunks):
        literals = [_literal(w) for w in command.words]
        if literals[:2] == ["printf", "-v"] and len(literals) > 3:
            fmt = command.words[3]
            text = "".join(getattr(p, "text", "") for p in fmt.parts)
            if literals[2] and "%q" in text:
                names.add(literals[2])
        for assignment in command.assignments:
            value = assignment.value
            if value is None:
                continue
            parts = value.parts
            if len(parts) == 1 and isinstance(parts[0], DoubleQuoted):
                parts = parts[0].parts
            if parts and all((isinstance(p, CmdSub) and quotes_for_shell(substitution_body(p)))
                             or param_is_quoted_value(p) or (isinstance(p, Lit) and not p.text.strip())
                             for p in parts):
                names.add(assignment.name)
    return frozenset(names)
