"""The optional compiled refinement (docs/compiled.md); everything else is in pyproject.toml.

``uts58_adapt/refine/_compiled.pyx`` is compiled with Cython (a build requirement, from the
package index) when a C compiler is present.  The extension is optional: when Cython is
missing, or cythonizing or compiling fails (no compiler), the build prints a warning and
goes on, and the package runs its pure-Python refinement, the reference.  With
``UTS58_ADAPT_REQUIRE_COMPILED=1`` such a failure fails the build instead (the release
workflow sets it, so that no wheel ships without the extension by accident).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PYX = "uts58_adapt/refine/_compiled.pyx"
REQUIRE = os.environ.get("UTS58_ADAPT_REQUIRE_COMPILED") == "1"


def _warn(message: str) -> None:
    if REQUIRE:
        raise SystemExit(f"uts58_adapt: {message} (UTS58_ADAPT_REQUIRE_COMPILED=1)")
    print(f"WARNING: uts58_adapt: {message}; the refinement runs in pure Python.", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` whose failure leaves the pure-Python package (a warning, not an error)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            _warn(f"the compiled refinement was not built ({type(error).__name__}: {error})")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            _warn(f"{ext.name} was not compiled ({type(error).__name__}: {error})")


def _extensions() -> list[Extension]:
    if os.environ.get("UTS58_ADAPT_PURE_BUILD") == "1":
        return []  # build the pure package only (a build option, unlike UTS58_ADAPT_PURE)
    try:
        from Cython.Build import cythonize
    except ImportError:
        _warn("Cython is not installed")
        return []
    try:
        return cythonize(
            [Extension("uts58_adapt.refine._compiled", [PYX])],
            compiler_directives={"language_level": "3"},
            quiet=True,
        )
    except Exception as error:
        _warn(f"cythonize failed ({type(error).__name__}: {error})")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
