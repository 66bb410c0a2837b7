"""Build qbcore, compiling its engine unless QBCORE_NO_EXTENSIONS is set.

The engine is the lexer and the fast path (.pyx) and the model's hot modules
(qbcore/_switch.py: COMPILED), compiled by Cython from their Python source as
it is, into extension modules of the same name. The variable is read through
qbcore/_switch.py, the same function the package uses at import time. A
failed compile does not fail the install: the module concerned then runs
from its source, and the package says so when imported.
"""

import importlib.util
import os
import shutil
import sys
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _switch():
    spec = importlib.util.spec_from_file_location("_qbcore_switch", HERE / "qbcore" / "_switch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class OptionalBuildExt(build_ext):
    """Compile the engine, but fall back to pure Python when no compiler works."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1  # a dozen modules: compile them side by side

    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any build failure means "no extension"
            self._warn(exc)
        if not _switch().extensions_disabled():
            self._build_attempt_init()

    def _build_attempt_init(self):
        """The sandbox's libc-free pid 1 (x86_64 only); without it the sandbox uses a Python one."""
        import platform

        if platform.machine() != "x86_64":
            return
        folder = HERE / "qbcore" / "realbash" if self.inplace else Path(self.build_lib) / "qbcore" / "realbash"
        try:
            from setuptools._distutils.ccompiler import new_compiler
            from setuptools._distutils.sysconfig import customize_compiler

            compiler = new_compiler()
            customize_compiler(compiler)
            objects = compiler.compile(["qbcore/realbash/attemptinit.c"], output_dir=self.build_temp,
                                       extra_postargs=["-Os", "-ffreestanding", "-fno-stack-protector",
                                                       "-fno-builtin", "-fno-pie", "-fcf-protection=none"])
            folder.mkdir(parents=True, exist_ok=True)
            compiler.link_executable(objects, "_attemptinit", output_dir=str(folder),
                                     extra_postargs=["-static", "-nostdlib", "-no-pie"])
        except Exception as exc:  # noqa: BLE001 - the sandbox falls back to its Python pid 1
            sys.stderr.write(f"qbcore: could not build the sandbox's attempt init ({exc}); "
                             f"the sandbox will use its Python one\n")

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._warn(exc)
            return
        source = _python_source(ext)
        if source is not None:
            # the package loads the extension only while its source is the one compiled here
            stamp = self.get_ext_fullpath(ext.name) + _switch().STAMP_SUFFIX
            Path(stamp).write_text(_switch().source_sha256(source) + "\n", encoding="ascii")

    def copy_extensions_to_source(self):
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            if _python_source(ext) is None:
                continue
            inplace, regular = self._get_inplace_equivalent(build_py, ext)
            stamp = _switch().STAMP_SUFFIX
            if Path(regular + stamp).exists() and Path(regular).exists():
                shutil.copyfile(regular + stamp, inplace + stamp)

    @staticmethod
    def _warn(exc):
        sys.stderr.write(f"qbcore: could not compile the engine ({exc}); installing the pure-Python engine\n")


def _python_source(ext):
    """The .py an extension is compiled from, or None (a .pyx)."""
    sources = [s for s in getattr(ext, "qbcore_sources", ()) if s.endswith(".py")]
    return sources[0] if sources else None


# Python semantics kept exactly: annotations are not C types, no variable is
# inferred to be a C integer (`1 << i` must not overflow), negative indexes and
# zero divisions behave as in Python
_PURE_DIRECTIVES = {"language_level": "3", "annotation_typing": False, "infer_types": False, "binding": True,
                    "always_allow_keywords": True}


def _extensions():
    if _switch().extensions_disabled():
        return []
    from Cython.Build import cythonize
    from setuptools import Extension

    extensions = cythonize(
        [Extension("qbcore.syntax._fastquote", ["qbcore/syntax/_fastquote.pyx"]),
         Extension("qbcore.harness._quickpath", ["qbcore/harness/_quickpath.pyx"])],
        compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False,
                             "cdivision": True, "initializedcheck": False},
    )
    for name in _switch().COMPILED:
        source = name.replace(".", "/") + ".py"
        try:
            (ext,) = cythonize([Extension(name, [source])], compiler_directives=_PURE_DIRECTIVES, quiet=True)
        except Exception as exc:  # noqa: BLE001 - Cython refused the module: it runs from its source
            sys.stderr.write(f"qbcore: could not compile {source} ({exc}); it runs from its source\n")
            continue
        ext.qbcore_sources = [source]
        extensions.append(ext)
    return extensions


setup(
    packages=find_packages(include=["qbcore", "qbcore.*"]) + ["qbcore.suite"],
    package_dir={"qbcore": "qbcore", "qbcore.suite": "tasks"},
    package_data={"": ["*.pyi", "*.pyx", "*.pxd", "attemptinit.c", "py.typed", "data/*", "standins/*", "standins/task/*"], "qbcore.suite": ["**/*"]},
    ext_modules=_extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
)
