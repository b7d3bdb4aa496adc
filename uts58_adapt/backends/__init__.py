"""Backends: existing linkifiers behind one protocol, and a registry.

``get_backend(name)`` returns one cached instance per name; building a backend
(compiling its TLD patterns) happens once per process.

Every backend has ``name`` and ``find(text) -> list[RawLink]`` (the library's own
links: the "before" view).  A backend may also have ``candidates(text)``: its own
links plus hits it found and then discarded, which ``detect(refine=True)`` gives to the
refinement stage instead (urlextract has one; see ``backends/urlextract.py``).
Both backends use the ICANN TLDs of tldextract's bundled PSL snapshot (``_tlds.py``)
and never touch the network.
"""

from __future__ import annotations

import importlib
import threading

from .base import Backend, RawLink

__all__ = ["BACKENDS", "Backend", "RawLink", "get_backend"]

#: Backend name -> (module, class).
BACKENDS: dict[str, tuple[str, str]] = {
    "linkify-it": (".linkify_it", "LinkifyItBackend"),
    "urlextract": (".urlextract", "UrlExtractBackend"),
    "bleach": (".bleach", "BleachBackend"),
    "django": (".django", "DjangoBackend"),
    "jinja2": (".jinja2", "Jinja2Backend"),
    "mistune": (".mistune", "MistuneBackend"),
    "magiclink": (".magiclink", "MagiclinkBackend"),
}

_instances: dict[str, Backend] = {}
_lock = threading.Lock()


def get_backend(name: str) -> Backend:
    """The shared instance of the backend called ``name`` (``"linkify-it"`` or ``"urlextract"``).

    Raises ValueError, listing the known names, for any other name.
    """
    backend = _instances.get(name)
    if backend is not None:
        return backend
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    with _lock:
        backend = _instances.get(name)
        if backend is None:
            module, cls = BACKENDS[name]
            backend = getattr(importlib.import_module(module, __name__), cls)()
            _instances[name] = backend
    return backend
