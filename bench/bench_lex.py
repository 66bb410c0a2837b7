"""Lexing throughput of qbcore's two engines against tree-sitter-bash, bashlex and shlex.

Run: python -m pytest bench/   (the table is printed at the end of the session)
"""

import shlex

import bashlex
import pytest
import tree_sitter
import tree_sitter_bash

from qbcore.syntax import _purequote

try:
    from qbcore.syntax import _fastquote
except ImportError:  # measured only when built
    _fastquote = None

PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
needs_compiled = pytest.mark.skipif(_fastquote is None, reason="compiled engine not built")


def each(function, items):
    def run():
        for item in items:
            function(item)
    return run


def shlex_tokens(text):
    # shlex's closest thing to a shell lexer: words and punctuation runs
    return list(shlex.shlex(text, posix=True, punctuation_chars=True))


# ---------------------------------------------------------------- (a) short commands
@needs_compiled
def bench_commands_qbcore_compiled(benchmark, inputs, record):
    benchmark(each(_fastquote.lex, inputs.commands))
    record("commands", "qbcore-compiled", sum(map(len, inputs.commands_bytes)), len(inputs.commands))


def bench_commands_qbcore_pure(benchmark, inputs, record):
    benchmark(each(_purequote.lex, inputs.commands))
    record("commands", "qbcore-pure", sum(map(len, inputs.commands_bytes)), len(inputs.commands))


def bench_commands_tree_sitter(benchmark, inputs, record):
    benchmark(each(PARSER.parse, inputs.commands_bytes))
    record("commands", "tree-sitter-bash", sum(map(len, inputs.commands_bytes)), len(inputs.commands))


def bench_commands_bashlex(benchmark, inputs, record):
    benchmark.pedantic(each(bashlex.parse, inputs.commands), rounds=5, iterations=1)
    record("commands", "bashlex", sum(map(len, inputs.commands_bytes)), len(inputs.commands))


def bench_commands_shlex(benchmark, inputs, record):
    benchmark(each(shlex_tokens, inputs.commands))
    record("commands", "shlex", sum(map(len, inputs.commands_bytes)), len(inputs.commands))


# ---------------------------------------------------------------- (b) a large script
@needs_compiled
def bench_script_qbcore_compiled(benchmark, inputs, record):
    benchmark(_fastquote.lex, inputs.script)
    record("script", "qbcore-compiled", len(inputs.script_bytes), 1)


def bench_script_qbcore_pure(benchmark, inputs, record):
    benchmark.pedantic(_purequote.lex, (inputs.script,), rounds=5, iterations=1)
    record("script", "qbcore-pure", len(inputs.script_bytes), 1)


def bench_script_tree_sitter(benchmark, inputs, record):
    benchmark.pedantic(PARSER.parse, (inputs.script_bytes,), rounds=10, iterations=1)
    record("script", "tree-sitter-bash", len(inputs.script_bytes), 1)


def bench_script_shlex(benchmark, inputs, record):
    benchmark.pedantic(shlex_tokens, (inputs.script,), rounds=3, iterations=1)
    record("script", "shlex", len(inputs.script_bytes), 1)


# ---------------------------------------------------------------- (b') what bashlex can read
@needs_compiled
def bench_bashlex_script_qbcore_compiled(benchmark, inputs, record):
    benchmark(_fastquote.lex, inputs.bashlex_script)
    record("bashlex-script", "qbcore-compiled", len(inputs.bashlex_script_bytes), 1)


def bench_bashlex_script_tree_sitter(benchmark, inputs, record):
    benchmark.pedantic(PARSER.parse, (inputs.bashlex_script_bytes,), rounds=10, iterations=1)
    record("bashlex-script", "tree-sitter-bash", len(inputs.bashlex_script_bytes), 1)


def bench_bashlex_script_bashlex(benchmark, inputs, record):
    benchmark.pedantic(bashlex.parse, (inputs.bashlex_script,), rounds=2, iterations=1)
    record("bashlex-script", "bashlex", len(inputs.bashlex_script_bytes), 1)


def bench_bashlex_cannot_read_the_large_script(inputs):
    with pytest.raises(bashlex.errors.ParsingError):
        bashlex.parse(inputs.script)
