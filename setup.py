"""Build qbcore, compiling qbcore.syntax._fastquote unless QBCORE_NO_EXTENSIONS is set.

The variable is read through qbcore/_switch.py, the same function the package
uses at import time. A failed compile does not fail the install: the package
then runs on its pure-Python engine and says so when imported.
"""

import importlib.util
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

    @staticmethod
    def _warn(exc):
        sys.stderr.write(f"qbcore: could not compile the engine ({exc}); installing the pure-Python engine\n")


def _extensions():
    if _switch().extensions_disabled():
        return []
    from Cython.Build import cythonize
    from setuptools import Extension

    return cythonize(
        [Extension("qbcore.syntax._fastquote", ["qbcore/syntax/_fastquote.pyx"]),
         Extension("qbcore.harness._quickpath", ["qbcore/harness/_quickpath.pyx"])],
        compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False,
                             "cdivision": True, "initializedcheck": False},
    )


setup(
    packages=find_packages(include=["qbcore", "qbcore.*"]) + ["qbcore.suite"],
    package_dir={"qbcore": "qbcore", "qbcore.suite": "tasks"},
    package_data={"": ["*.pyi", "*.pyx", "attemptinit.c", "py.typed", "data/*", "standins/*", "standins/task/*"], "qbcore.suite": ["**/*"]},
    ext_modules=_extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
)
