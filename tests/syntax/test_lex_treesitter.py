"""Word and command boundaries agree with tree-sitter-bash on ordinary commands.

For every command tree-sitter finds at the top level (outside substitutions,
strings and tests), each of its words (assignments, name, arguments) must be
exactly one word of the token stream, and the commands must start at the
same words. Inputs where tree-sitter reports a parse error are left out; the
corpus is tests/support/corpus/agent_commands.txt and the scripts.
"""

import pytest

from lexcorpus import agent_commands, scripts

tree_sitter = pytest.importorskip("tree_sitter")
tree_sitter_bash = pytest.importorskip("tree_sitter_bash")

PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))

OPENERS = {"dq-open", "locale-open", "param-open", "cmdsub-open", "arith-open", "procsub-open",
           "backtick-open", "arith-cmd-open"}
CLOSERS = {"dq-close", "param-close", "cmdsub-close", "arith-close", "procsub-close",
           "backtick-close", "arith-cmd-close"}
WORD_PARTS = {"lit", "escape", "sq", "ansi-sq", "var", "assign", "dq-open", "locale-open", "param-open",
              "cmdsub-open", "arith-open", "procsub-open", "backtick-open"}
# tree-sitter nodes inside which commands are not compared
NESTED = {"command_substitution", "process_substitution", "string", "expansion", "test_command",
          "arithmetic_expansion", "heredoc_body", "heredoc_redirect"}
REDIRECT_NODES = {"file_redirect", "herestring_redirect", "heredoc_redirect"}


def top_level_items(tokens):
    """(kind, start, end) for each construct at nesting depth 0, its nested tokens folded in."""
    items, depth, current = [], 0, None
    for kind, start, end in tokens:
        if depth == 0:
            current = [kind, start, end]
            items.append(current)
        if kind in OPENERS:
            depth += 1
        elif kind in CLOSERS:
            depth -= 1
        current[2] = end
    return items


def lexer_words_and_commands(lexer, data):
    """The top-level word spans, and the start offsets of words that begin a simple command."""
    words, starts = [], set()
    at_command_start = True
    skip_next_word = False  # a redirection target, loop variable, case subject or function name
    in_test = in_array = in_body = in_pattern = case_subject = False
    pending_bodies = 0
    previous = None
    for kind, start, end in top_level_items(lexer.lex(data)):
        text = data[start:end]
        if in_body:  # here-document bodies hold no commands
            if kind == "heredoc-end":
                pending_bodies -= 1
                in_body = pending_bodies > 0
            previous = (kind, start, end)
            continue
        if kind in WORD_PARTS:
            if previous is not None and previous[0] in WORD_PARTS and previous[2] == start:
                words[-1] = (words[-1][0], end)
            else:
                words.append((start, end))
                if skip_next_word:
                    skip_next_word = False
                elif at_command_start and not (in_test or in_array or in_pattern):
                    starts.add(start)
                at_command_start = False
        elif kind in ("redir", "heredoc-op"):
            skip_next_word = True
            pending_bodies += kind == "heredoc-op"
        elif kind == "reserved":
            in_test = (in_test or text == b"[[") and text != b"]]"
            at_command_start = text not in (b"in", b"[[", b"]]", b"esac", b"done", b"fi", b"}")
            skip_next_word = text in (b"for", b"select", b"case", b"function")
            in_pattern = (in_pattern or (text == b"in" and case_subject)) and text != b"esac"
            case_subject = text == b"case" or (case_subject and text != b"in")
        elif kind == "(" and previous is not None and previous[0] in WORD_PARTS and previous[2] == start:
            if data[previous[1]:previous[2]].endswith(b"="):
                in_array = True  # a=( … ): array elements, not commands
            else:
                starts.discard(words[-1][0])  # f() { … }: a function name, not a command
                at_command_start = True
        elif kind == ")" and in_array:
            in_array = False
        elif in_pattern and kind in ("op", "newline", "(", ")"):
            # case patterns: `a|b)` ends with `)`, then a command may start
            in_pattern = kind != ")"
            at_command_start = kind == ")"
        elif kind in ("op", "newline", "(", ")"):
            at_command_start = True
            in_pattern = kind == "op" and text in (b";;", b";&", b";;&")
            if kind == "newline" and pending_bodies:
                in_body = True
        previous = (kind, start, end)
    return set(words), starts


def tree_sitter_words_and_commands(data):
    words, starts, errors = set(), set(), False
    stack = [(PARSER.parse(data).root_node, None)]
    while stack:
        node, parent = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            errors = True
        if node.type in NESTED:
            if node.type == "test_command" and node.children[0].type == "[":
                starts.add(node.start_byte)  # `[ … ]` is the command `[` for bash
            continue
        children = [c for c in node.children if c.type not in REDIRECT_NODES]
        if node.type in ("command", "declaration_command", "unset_command", "variable_assignments") or (
                node.type == "variable_assignment" and parent not in (
                    "command", "declaration_command", "variable_assignments", "c_style_for_statement")):
            if node.type == "variable_assignment":
                children = [node]
            if children and children[0].type == "command_name" and children[0].text == b"time":
                children = children[1:]  # bash: `time` is a reserved word; tree-sitter: a command name
            if children:
                starts.add(children[0].start_byte)
            for child in children:
                if child.type == "command_name" and child.child_count == 1:
                    child = child.children[0]
                if child.type == "variable_assignment" and child.children[-1].type == "array":
                    continue
                words.add((child.start_byte, child.end_byte))
        stack.extend((child, node.type) for child in node.children)
    return words, starts, errors


def ordinary(sources):
    for source in sources:
        data = source if isinstance(source, bytes) else source.encode()
        if not tree_sitter_words_and_commands(data)[2]:
            yield data


CORPUS = list(ordinary(agent_commands() + list(scripts().values())))


def test_most_of_the_corpus_is_ordinary():
    assert len(CORPUS) >= 150


@pytest.mark.parametrize("data", CORPUS, ids=[f"entry-{i}" for i in range(len(CORPUS))])
def test_boundaries_agree_with_tree_sitter(lexer, data):
    ts_words, ts_starts, _ = tree_sitter_words_and_commands(data)
    our_words, our_starts = lexer_words_and_commands(lexer, data)
    assert {(s, e, data[s:e]) for s, e in ts_words - our_words} == set()
    assert sorted(ts_starts ^ our_starts) == []
