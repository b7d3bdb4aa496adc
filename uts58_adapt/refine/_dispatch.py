"""Which refinement runs: the optional compiled extension, or pure Python (docs/compiled.md).

The pure-Python functions of the refine modules are the reference.  When the package was
built with a C compiler, ``_compiled`` (``_compiled.pyx``, Cython) holds typed twins of a
few hot loops; each module then binds its name to the twin, at import, through
:func:`choose`, which records the pure function in :data:`PURE` for the differential test
(tests/test_compiled.py).  ``$UTS58_ADAPT_PURE=1`` (read once, at import) keeps pure Python.

The extension holds no table: :func:`_load` gives it the properties of the Unicode version
in use (``properties.FLAGS`` and ``BRACKET``, from ``$UTS58_UNICODE_VERSION``'s tables).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar, cast

from ..properties import BRACKET, CLOSE, EMAIL_BIT, FLAGS, HARD, INCLUDE, OPEN, SOFT, TERM_MASK

__all__ = ["ENV", "PURE", "choose", "compiled", "description", "extension"]

#: Set to ``1`` to run the pure-Python refinement even where the extension is built.
ENV = "UTS58_ADAPT_PURE"

F = TypeVar("F", bound=Callable[..., Any])

#: The ABI of ``_compiled.pyx`` this code calls (a stale build of another is not used).
_ABI = 2


def _load() -> ModuleType | None:
    """The extension, its tables installed; None when pure Python runs."""
    if os.environ.get(ENV, "").strip() == "1":
        return None
    try:
        from . import _compiled
    except ImportError:
        return None
    # The Link_Term codes and FLAGS bits; the extension's other constants (the parts of
    # termination.py, MAX_LOCAL_PART, MAX_HOST) are checked by tests/test_compiled.py.
    codes = (INCLUDE, HARD, SOFT, OPEN, CLOSE, TERM_MASK, EMAIL_BIT)
    if getattr(_compiled, "ABI", None) != _ABI or tuple(getattr(_compiled, "CONSTANTS", ())[:7]) != codes:
        return None  # built from another version of _compiled.pyx
    _compiled.set_tables(FLAGS, BRACKET)
    return _compiled


#: The extension in use, or None (pure Python).
extension: ModuleType | None = None
#: Whether the refinement's hot loops run compiled (``uts58-adapt --version`` says which runs).
compiled = False
#: ``"module.name"`` -> the pure-Python function that :func:`choose` was given.
PURE: dict[str, Callable[..., Any]] = {}


def choose(pure: F, name: str = "") -> F:
    """``pure``'s compiled twin (the extension's function of that name), or ``pure`` itself.

    Called at the end of the module that defines ``pure``, as ``f = choose(f)``, so every
    caller (in the module, or importing it after) gets the one that runs.
    """
    name = name or pure.__name__.lstrip("_")
    PURE[f"{pure.__module__.rsplit('.', 1)[-1]}.{pure.__name__}"] = pure
    if extension is None:
        return pure
    return cast("F", getattr(extension, name))


def description() -> str:
    """``"compiled (Cython)"`` or ``"pure Python"`` (with the reason), for ``uts58-adapt --version``."""
    if compiled:
        return "compiled (Cython)"
    if os.environ.get(ENV, "").strip() == "1":
        return f"pure Python (${ENV}=1)"
    return "pure Python (the compiled extension is not built)"


extension = _load()
compiled = extension is not None
