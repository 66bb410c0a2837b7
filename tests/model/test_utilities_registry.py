"""The utilities package stands alone (it will move in the package tree) and its registry is whole."""

import ast
import pathlib

from qbcore.model.utilities.context import CommandContext
from qbcore.model.utilities.registry import MODELS, lookup
from qbcore.model.utilities.vfs import VirtualTree

PACKAGE = pathlib.Path(__file__).resolve().parent.parent.parent / "qbcore" / "model" / "utilities"


# the syntax layer's escape decoder is shared with the parser (bash's escapes, defined once)
BELOW = {"syntax.escapes", "syntax"}


def test_imports_nothing_from_the_rest_of_qbcore_but_the_syntax_layer():
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 3 and node.module in BELOW:
                    assert node.module == "syntax.escapes" or [a.name for a in node.names] == ["escapes"]
                    continue
                assert node.level <= 1, f"{path.name} reaches outside the package"
                assert node.level == 1 or not (node.module or "").startswith("qbcore"), path.name
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("qbcore") for a in node.names), path.name


def test_every_model_answers_an_unknown_option_with_unknown():
    for name, model in MODELS.items():
        if name in ("echo", "printf", "pwd", "basename", "dirname"):
            continue  # these print words that look like options
        ctx = CommandContext([name, "--no-such-option-zz"], b"", "/", {}, VirtualTree())
        res = model(ctx)
        if name == "find":
            # find reads it as a predicate, and knows them all (test_utilities_find checks the message)
            assert res.status == 1 and b"unknown predicate" in res.stderr
            continue
        assert res.unknown is not None, name
    assert lookup("cat") is MODELS["cat"] and lookup("no-such-command") is None
