"""The one place that reads QBCORE_NO_EXTENSIONS, and the loader of the model's compiled modules.

Both setup.py (whether to compile) and the package import (which engine to
load) ask this module, so the two can never disagree about the variable.

The model's hot modules (``COMPILED``) are plain Python source that the build
also compiles, with Cython, into extension modules of the same name beside
it. Python prefers an extension to a source file of the same name, so a
finder placed first on ``sys.meta_path`` makes the choice instead: the
extension only when the compiled engine is chosen and the extension was built
from the source as it is now (the build records the SHA-256 of the source, and
of its .pxd if it has one, beside the extension); the source otherwise, so an
edited module never runs stale code and ``QBCORE_NO_EXTENSIONS=1`` runs the
source everywhere.
"""

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings

VARIABLE = "QBCORE_NO_EXTENSIONS"

#: pure-Python modules the build compiles from the same source (the lexer and the fast path are .pyx)
COMPILED = (
    "qbcore.syntax.parser",
    "qbcore.model.budget",
    "qbcore.model.files",
    "qbcore.model.patterns",
    "qbcore.model.commandenv",
    "qbcore.model.expand",
    "qbcore.model.evaluate",
    "qbcore.model.values",
    "qbcore.model.commands.registry",
    "qbcore.model.commands.calls",
    "qbcore.model.commands.conditions",
    "qbcore.model.commands.control",
    "qbcore.model.commands.directories",
    "qbcore.model.commands.external",
    "qbcore.model.commands.output",
    "qbcore.model.commands.programs",
    "qbcore.model.commands.variables",
    "qbcore.harness.quoting",
    "qbcore.harness.transports",
    "qbcore.harness.simulate",
    "qbcore.harness.outerwords",
    "qbcore.harness.outersubst",
    # predict's own share: the effect walker, the virtual tree, the utilities most replies use
    "qbcore.predict",
    "qbcore.model.effects",
    "qbcore.model.utilities.vfs",
    "qbcore.model.utilities.common",
    "qbcore.model.utilities.shellbuiltins",
    "qbcore.model.utilities.fileops",
    "qbcore.model.utilities.hostfacts",
    "qbcore.model.utilities.context",
    "qbcore.model.commands.search",
    "qbcore.model.utilities.git",
    "qbcore.model.utilities.gitstore",
    "qbcore.realbash.validators",
    # the text utilities and the Python subset: a reply's awk, sed, grep or python3 runs here
    "qbcore.model.utilities.awk",
    "qbcore.model.utilities.sed",
    "qbcore.model.utilities.grep",
    "qbcore.model.utilities.find",
    "qbcore.model.utilities.posixre",
    "qbcore.model.utilities.textutils",
    "qbcore.model.pymodel.command",
    "qbcore.model.pymodel.files",
    "qbcore.model.pymodel.interp",
    "qbcore.model.pymodel.modules",
)
#: what the build writes beside an extension compiled from a .py: source_sha256 of its source
STAMP_SUFFIX = ".source-sha256"


def extensions_disabled(environ=None) -> bool:
    """True when the pure-Python engine is requested (any non-empty value but 0)."""
    value = (os.environ if environ is None else environ).get(VARIABLE, "")
    return value.strip() not in ("", "0")


def source_sha256(path) -> str:
    """The SHA-256 of the source an extension is compiled from: the .py, then the
    .pxd beside it when there is one (its declarations shape the extension too)."""
    path = os.fspath(path)
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read())
    declarations = path[:-len(".py")] + ".pxd"
    if path.endswith(".py") and os.path.exists(declarations):
        with open(declarations, "rb") as handle:
            digest.update(b"\0" + handle.read())
    return digest.hexdigest()


def extension_of(source_path):
    """(extension path, None) when a build of ``source_path`` as it is now sits beside it,
    else (None, why not)."""
    folder, name = os.path.split(source_path)
    stem = name[:-len(".py")]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = os.path.join(folder, stem + suffix)
        if os.path.exists(candidate):
            break
    else:
        return None, "not built"
    try:
        with open(candidate + STAMP_SUFFIX, encoding="ascii") as handle:
            stamp = handle.read().strip()
    except OSError:
        return None, "built without a record of its source"
    if stamp != source_sha256(source_path):
        return None, "built from an older source (rebuild: python3 setup.py build_ext --inplace)"
    return candidate, None


class _Finder:
    """Finds the modules of ``COMPILED``: their extension or their source, as chosen."""

    def __init__(self, compiled: bool):
        self.compiled = compiled
        self.loaded = {}  # module name -> "cython" or "python", as each was imported
        self.checked = {}  # source path -> extension_of(source path): each source is hashed once
        self.warned = False

    def extension_of(self, source):
        if source not in self.checked:
            self.checked[source] = extension_of(source)
        return self.checked[source]

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in COMPILED or not path:
            return None
        stem = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, stem + ".py")
            if os.path.isfile(source):
                break
        else:
            return None
        extension = None
        if self.compiled:
            extension, why = self.extension_of(source)
            if extension is None and not self.warned:
                self.warned = True  # once: the other modules are most likely in the same state
                warnings.warn(f"qbcore: compiled {fullname} unavailable ({why}); running its source",
                              RuntimeWarning, stacklevel=2)
        if extension is not None:
            self.loaded[fullname] = "cython"
            loader = importlib.machinery.ExtensionFileLoader(fullname, extension)
            return importlib.util.spec_from_file_location(fullname, extension, loader=loader)
        self.loaded[fullname] = "python"
        loader = importlib.machinery.SourceFileLoader(fullname, source)
        return importlib.util.spec_from_file_location(fullname, source, loader=loader)

    def engine_of(self, fullname, folder) -> str:
        """Which form of ``fullname`` (whose source sits in ``folder``) is or would be loaded."""
        if fullname in self.loaded:
            return self.loaded[fullname]
        if not self.compiled:
            return "python"
        source = os.path.join(folder, fullname.rpartition(".")[2] + ".py")
        return "cython" if self.extension_of(source)[0] is not None else "python"


_FINDER = None


def install(compiled: bool) -> "_Finder":
    """Put the finder first on ``sys.meta_path`` (once): the compiled modules load only
    when ``compiled`` (the lexer's engine is the compiled one)."""
    global _FINDER
    if _FINDER is None:
        _FINDER = _Finder(compiled)
        sys.meta_path.insert(0, _FINDER)
    return _FINDER


def model_engines(package_folder) -> dict:
    """module name -> "cython" or "python" for every module of ``COMPILED``, without importing them."""
    finder = _FINDER or _Finder(not extensions_disabled())
    found = {}
    for name in COMPILED:
        parts = name.split(".")[1:-1]
        found[name] = finder.engine_of(name, os.path.join(package_folder, *parts))
    return found

