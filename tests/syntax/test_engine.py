"""Engine selection: the variable, the fallback with one warning, and what --version says."""

import os
import subprocess
import sys

import qbcore

PROBE = "import qbcore; print(qbcore.engine)"


def python(code, **env):
    full = {**os.environ, **env}
    if "QBCORE_NO_EXTENSIONS" not in env:
        full.pop("QBCORE_NO_EXTENSIONS", None)
    return subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True,
                          text=True, env=full, check=True)


def test_the_variable_selects_the_pure_engine():
    assert python(PROBE, QBCORE_NO_EXTENSIONS="1").stdout.strip() == "python"


def test_zero_or_empty_does_not_disable_extensions():
    from qbcore._switch import extensions_disabled

    assert not extensions_disabled({}) and not extensions_disabled({"QBCORE_NO_EXTENSIONS": "0"})
    assert extensions_disabled({"QBCORE_NO_EXTENSIONS": "yes"})


def test_a_missing_compiled_module_falls_back_with_one_warning():
    blocked = "import sys; sys.modules['qbcore.syntax._fastquote'] = None\n"
    result = python(blocked + "import qbcore, qbcore.cli, qbcore.syntax._engine; print(qbcore.engine)")
    assert result.stdout.strip() == "python"
    assert result.stderr.count("compiled engine unavailable") == 1


def test_version_names_the_version_and_the_engine():
    for argv in (["qbcore", "--version"], [sys.executable, "-m", "qbcore", "--version"]):
        out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()
        assert out == f"qbcore {qbcore.__version__} (engine: {qbcore.engine})"


def test_lex_is_the_selected_engines_function():
    module = "qbcore.syntax._fastquote" if qbcore.engine == "cython" else "qbcore.syntax._purequote"
    assert qbcore.lex.__module__ == module or qbcore.Tokens.__module__ == module


def test_every_compiled_twin_follows_the_one_switch():
    # the simulate fast path and its Simulation class never disagree with the lexer's engine
    code = ("import qbcore; from qbcore.harness import quickpath, simulate\n"
            "print(qbcore.engine, quickpath.engine, simulate.Simulation.__module__)")
    pure = ["python", "python", "qbcore.harness.simulate"]
    assert python(code, QBCORE_NO_EXTENSIONS="1").stdout.split() == pure
    assert python("import sys; sys.modules['qbcore.syntax._fastquote'] = None\n" + code).stdout.split() == pure
