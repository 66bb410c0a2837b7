"""Engine selection: the variable, the fallback with one warning, and what --version says."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


# -- the model's modules compiled from their own source -----------------------------

COMPILED_PROBE = ("import importlib, qbcore, qbcore._switch as s\n"
                  "print(qbcore.engine, *(importlib.import_module(m).__file__.rsplit('.', 1)[1]"
                  " for m in s.COMPILED))")


def test_the_variable_runs_the_source_of_every_compiled_module():
    from qbcore._switch import COMPILED

    assert python(COMPILED_PROBE, QBCORE_NO_EXTENSIONS="1").stdout.split() == ["python"] + ["py"] * len(COMPILED)


def test_the_compiled_engine_runs_every_compiled_module_as_an_extension():
    from conftest import REQUIRE_EXTENSIONS
    from qbcore._switch import COMPILED

    out = python(COMPILED_PROBE).stdout.split()
    if out[0] != "cython" and not REQUIRE_EXTENSIONS:
        pytest.skip(f"the model's modules are not all built (engine: {out[0]})")
    assert out == ["cython"] + ["so"] * len(COMPILED)


def test_a_missing_lexer_runs_the_source_of_every_compiled_module_too():
    from qbcore._switch import COMPILED

    blocked = "import sys; sys.modules['qbcore.syntax._fastquote'] = None\n"
    assert python(blocked + COMPILED_PROBE).stdout.split() == ["python"] + ["py"] * len(COMPILED)


def test_an_extension_built_from_another_source_is_not_loaded(tmp_path):
    from importlib.machinery import EXTENSION_SUFFIXES

    from qbcore._switch import STAMP_SUFFIX, extension_of, source_sha256

    source = tmp_path / "model.py"
    source.write_text("x = 1\n")
    assert extension_of(str(source)) == (None, "not built")
    built = tmp_path / ("model" + EXTENSION_SUFFIXES[0])
    built.write_bytes(b"")
    assert extension_of(str(source))[1] == "built without a record of its source"
    (tmp_path / (built.name + STAMP_SUFFIX)).write_text(source_sha256(source) + "\n")
    assert extension_of(str(source)) == (str(built), None)
    source.write_text("x = 2\n")  # edited after the build
    assert extension_of(str(source))[0] is None and "older source" in extension_of(str(source))[1]


def test_an_extension_whose_declarations_changed_is_not_loaded(tmp_path):
    # a .pxd beside the source types the extension: editing it makes the build stale too
    import hashlib
    from importlib.machinery import EXTENSION_SUFFIXES

    from qbcore._switch import STAMP_SUFFIX, extension_of, source_sha256

    source = tmp_path / "model.py"
    source.write_text("x = 1\n")
    assert source_sha256(source) == hashlib.sha256(b"x = 1\n").hexdigest()  # no .pxd: the source alone
    declarations = tmp_path / "model.pxd"
    declarations.write_text("cdef object x\n")
    built = tmp_path / ("model" + EXTENSION_SUFFIXES[0])
    built.write_bytes(b"")
    (tmp_path / (built.name + STAMP_SUFFIX)).write_text(source_sha256(source) + "\n")
    assert extension_of(str(source)) == (str(built), None)
    declarations.write_text("cdef int x\n")
    assert extension_of(str(source))[0] is None and "older source" in extension_of(str(source))[1]
    declarations.unlink()
    assert extension_of(str(source))[0] is None


def test_a_stale_extension_makes_the_engine_partial_with_one_warning(tmp_path):
    # a copy of the package whose parser source changed after the build
    import shutil

    copy = tmp_path / "qbcore"
    shutil.copytree(Path(qbcore.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    parser = copy / "syntax" / "parser.py"
    parser.write_text(parser.read_text() + "\n# edited\n")
    code = "import qbcore, qbcore.syntax.parser as p; print(qbcore.engine, p.__file__.rsplit('.', 1)[1])"
    done = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, env={k: v for k, v in os.environ.items()
                                             if k not in ("QBCORE_NO_EXTENSIONS", "PYTHONPATH")}, check=True)
    if python(COMPILED_PROBE).stdout.split()[0] != "cython":
        assert done.stdout.split()[1] == "py"
        return
    assert done.stdout.split() == ["partial", "py"]
    assert done.stderr.count("older source") == 1
