"""Pytest plugin that ``tools/upstream_compat.py`` injects (``-p uts58_upstream_plugin``) into an upstream suite.

It is configured by the JSON in ``$UTS58_UPSTREAM_CONFIG``::

    {
        "mode": "raw" | "wrapped",
        "modules": ["linkify_it"],  # imported before any test module
        "patches": ["construct:linkify_it:LinkifyIt"],
        "import_root": "/path/containing/uts58_adapt",  # or null
        "timeout_scale": 1.0,  # multiplies pytest-timeout's timeout marks
        "report": "/tmp/.../wrapped.json",
    }

In ``wrapped`` mode, and before pytest imports a conftest or test module, each patch is applied:

* ``construct:MODULE:CLASS``: ``MODULE.CLASS`` becomes a stand-in whose construction returns
  ``uts58_adapt.wrap(CLASS(...))``.  ``isinstance(x, MODULE.CLASS)`` and ``issubclass`` still
  answer for the real class, and class attributes are the real ones.
* ``attribute:MODULE:CLASS.ATTR``: after ``CLASS.__init__`` runs, ``self.ATTR`` is replaced by
  ``uts58_adapt.wrap(self.ATTR)`` (markdown-it-py's ``md.linkify``).
* ``replace:MODULE:ATTR=OTHER_MODULE:OTHER_ATTR``: ``MODULE.ATTR`` becomes ``OTHER_MODULE.OTHER_ATTR``
  (for upgrades that are functions, such as a ``urlize`` filter, or classes, such as docutils'
  ``Parser``); each call of it (each instance) counts as a wrap.
* ``init:MODULE:CLASS=OTHER_MODULE:FUNCTION``: after ``CLASS.__init__`` runs, ``FUNCTION(self)`` is
  called (Jinja2's ``install(env)`` on every ``Environment``).

Each test's outcome (passed, failed, error, skipped, xfailed, xpassed) and, for a failure, the
first line of its error, are written to ``report`` as JSON when the session ends, with the paths
of ``uts58_adapt`` and of the imported modules.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG_ENV = "UTS58_UPSTREAM_CONFIG"
_MESSAGE_LIMIT = 300
_CONFIG: dict[str, Any] = json.loads(os.environ.get(CONFIG_ENV) or "{}")
_OUTCOMES: dict[str, dict[str, str]] = {}
_META: dict[str, Any] = {"mode": _CONFIG.get("mode", "raw"), "modules": {}, "uts58_adapt": None, "wraps": 0}


def _import_uts58(import_root: str | None) -> Any:
    """Import ``uts58_adapt`` from ``import_root`` (when given) without leaving that root on sys.path."""
    if import_root:
        sys.path.insert(0, import_root)
        try:
            module = importlib.import_module("uts58_adapt")
        finally:
            sys.path.remove(import_root)
    else:
        module = importlib.import_module("uts58_adapt")
    return module


def _split_target(target: str) -> tuple[Any, str]:
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise ValueError(f"patch target {target!r} is not MODULE:ATTR")
    return importlib.import_module(module_name), attr


def standin_class(real: type, wrap: Callable[[Any], Any]) -> type:
    """A subclass of ``real`` whose instances come back as ``wrap(real(...))``.

    A reentrancy guard makes constructions done inside ``wrap`` (or inside ``real.__init__``)
    build plain instances, so a wrapper that copies its backend never wraps twice.
    """
    guard = threading.local()

    class _StandinMeta(type(real)):  # type: ignore[misc]
        def __call__(cls, *args: Any, **kwargs: Any) -> Any:
            if getattr(guard, "active", False):
                return real(*args, **kwargs) if cls is standin else super().__call__(*args, **kwargs)
            guard.active = True
            try:
                instance = real(*args, **kwargs) if cls is standin else super().__call__(*args, **kwargs)
                return wrap(instance)
            finally:
                guard.active = False

        def __instancecheck__(cls, obj: Any) -> bool:
            return isinstance(obj, real) if cls is standin else super().__instancecheck__(obj)

        def __subclasscheck__(cls, sub: type) -> bool:
            return issubclass(sub, real) if cls is standin else super().__subclasscheck__(sub)

    namespace = {"__module__": real.__module__, "__qualname__": real.__qualname__, "__doc__": real.__doc__}
    standin: type = _StandinMeta(real.__name__, (real,), namespace)
    return standin


def wrap_attribute_after_init(cls: type, attr: str, wrap: Callable[[Any], Any]) -> None:
    """Make ``cls.__init__`` end with ``self.attr = wrap(self.attr)`` (when the attribute is not None)."""
    original = cls.__init__  # type: ignore[misc]

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        value = getattr(self, attr, None)
        if value is not None:
            setattr(self, attr, wrap(value))

    cls.__init__ = __init__  # type: ignore[misc]


def call_after_init(cls: type, function: Callable[[Any], Any], count: Callable[[], None] | None = None) -> None:
    """Make ``cls.__init__`` end with ``function(self)`` (and ``count()``)."""
    original = cls.__init__  # type: ignore[misc]

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        function(self)
        if count is not None:
            count()

    cls.__init__ = __init__  # type: ignore[misc]


def counted_function(function: Callable[..., Any], count: Callable[[], None] | None) -> Callable[..., Any]:
    """``function``, calling ``count()`` on each call (so the tool can tell a replacement never used)."""
    if count is None:
        return function
    if isinstance(function, type):  # a class (docutils' Parser): a subclass counting its instances
        counter = count

        class Counted(function):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                counter()
                super().__init__(*args, **kwargs)

        Counted.__name__, Counted.__qualname__ = function.__name__, function.__qualname__
        Counted.__module__ = function.__module__
        return Counted

    @functools.wraps(function)
    def counted(*args: Any, **kwargs: Any) -> Any:
        count()
        return function(*args, **kwargs)

    return counted


def apply_patch(patch: str, wrap: Callable[[Any], Any], count: Callable[[], None] | None = None) -> None:
    """Apply one ``KIND:...`` patch (see the module docstring); ``count`` is called on each use of an upgrade."""
    kind, _, target = patch.partition(":")
    if kind == "construct":
        module, name = _split_target(target)
        setattr(module, name, standin_class(getattr(module, name), wrap))
    elif kind == "attribute":
        module, dotted = _split_target(target)
        class_name, _, attr = dotted.rpartition(".")
        if not class_name:
            raise ValueError(f"attribute patch {patch!r} needs CLASS.ATTR")
        wrap_attribute_after_init(getattr(module, class_name), attr, wrap)
    elif kind == "replace":
        left, _, right = target.partition("=")
        module, name = _split_target(left)
        source, source_name = _split_target(right)
        setattr(module, name, counted_function(getattr(source, source_name), count))
    elif kind == "init":
        left, _, right = target.partition("=")
        module, name = _split_target(left)
        source, source_name = _split_target(right)
        call_after_init(getattr(module, name), getattr(source, source_name), count)
    else:
        raise ValueError(f"unknown patch kind {kind!r} in {patch!r}")


def _count() -> None:
    _META["wraps"] += 1


def _counting(wrap: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``wrap`` that counts its calls, so the tool can tell a patch that wrapped nothing."""

    def counted(obj: Any) -> Any:
        _META["wraps"] += 1
        return wrap(obj)

    return counted


def _setup() -> None:
    for name in _CONFIG.get("modules", []):
        module = importlib.import_module(name)
        _META["modules"][name] = str(Path(module.__file__ or name).resolve().parent)
    if _META["mode"] != "wrapped":
        return
    uts58 = _import_uts58(_CONFIG.get("import_root"))
    _META["uts58_adapt"] = str(Path(uts58.__file__).resolve().parent)
    wrap = _counting(uts58.wrap)
    for patch in _CONFIG.get("patches", []):
        apply_patch(patch, wrap, _count)


def _first_line(report: pytest.TestReport | pytest.CollectReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr or "")
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line[:_MESSAGE_LIMIT]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Scale pytest-timeout's ``timeout`` marks by ``timeout_scale`` (the same in both runs)."""
    scale = float(_CONFIG.get("timeout_scale", 1.0))
    if scale == 1.0:
        return
    for item in items:
        mark = item.get_closest_marker("timeout")
        if mark is not None and mark.args and isinstance(mark.args[0], (int, float)):
            item.add_marker(pytest.mark.timeout(mark.args[0] * scale, *mark.args[1:], **mark.kwargs), append=False)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    entry = _OUTCOMES.setdefault(report.nodeid, {"outcome": "passed"})
    if report.when == "call":
        entry["seconds"] = f"{report.duration:.2f}"
    if entry["outcome"] != "passed":
        return  # the first non-passing phase decides (a teardown error after a failure stays a failure)
    if hasattr(report, "wasxfail"):
        entry["outcome"] = "xfailed" if report.skipped else "xpassed"
    elif report.failed:
        entry["outcome"] = "failed" if report.when == "call" else "error"
        entry["message"] = _first_line(report)
    elif report.skipped:
        entry["outcome"] = "skipped"


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        _OUTCOMES[report.nodeid or "<collection>"] = {"outcome": "error", "message": _first_line(report)}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = _CONFIG.get("report")
    if not path:
        return
    data = {"meta": {**_META, "exitstatus": int(exitstatus)}, "tests": _OUTCOMES}
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


_setup()
