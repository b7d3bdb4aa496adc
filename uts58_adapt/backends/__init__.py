"""Backends: existing linkifiers behind one protocol, and a registry.

``get_backend(name)`` returns one cached instance per name; building a backend
(compiling its TLD patterns) happens once per process.

Every backend has ``name`` and ``find(text) -> list[RawLink]`` (the library's own
links: the "before" view).  A backend may also have ``candidates(text)``: its own
links plus hits it found and then discarded, which ``detect(refine=True)`` gives to the
refinement stage instead (urlextract has one; see ``backends/urlextract.py``).
Both backends use the ICANN TLDs of a Public Suffix List snapshot, a table generated at
build time (``_tlds.py``), and never touch the network.

The five backends over optional libraries need their extra (``pip install
'uts58_adapt[django]'``); without it ``get_backend`` raises :class:`BackendUnavailable`.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading

from .base import Backend, RawLink

__all__ = ["BACKENDS", "EXTRAS", "Backend", "BackendUnavailable", "RawLink", "data_versions", "get_backend"]

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

#: Backend name -> (the extra that installs its library, the top-level modules it imports).
#: linkify-it and urlextract are dependencies of the package itself.
EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bleach": ("bleach", ("bleach",)),
    "django": ("django", ("django",)),
    "jinja2": ("jinja2", ("jinja2",)),
    "mistune": ("mistune", ("mistune",)),
    "magiclink": ("magiclink", ("markdown", "pymdownx")),
}


class BackendUnavailable(ImportError):
    """A backend whose library is not installed: the message names the extra to install.

    An :class:`ImportError`, so ``except ImportError`` still catches it.  ``backend`` is the
    backend's name, ``extra`` the extra that installs its library, ``name`` (as for any
    ImportError) the module that is missing.
    """

    def __init__(self, backend: str, extra: str, missing: str) -> None:
        super().__init__(
            f"the {backend!r} backend needs {missing}, which is not installed: "
            f"pip install 'uts58_adapt[{extra}]' (from a checkout: pip install '.[{extra}]')",
            name=missing,
        )
        self.backend = backend
        self.extra = extra


def _missing_module(name: str) -> str | None:
    """The first module that backend ``name`` needs and that cannot be imported, if any."""
    for module in EXTRAS.get(name, ("", ()))[1]:
        try:
            if importlib.util.find_spec(module) is None:
                return module
        except (ImportError, ValueError):  # a broken install, or sys.modules[module] = None
            return module
    return None


_instances: dict[str, Backend] = {}
_lock = threading.Lock()


def get_backend(name: str) -> Backend:
    """The shared instance of the backend called ``name`` (one of :data:`BACKENDS`).

    Raises ValueError, listing the known names, for any other name, and
    :class:`BackendUnavailable` (an ImportError naming the extra to install) when the
    backend's library is not installed.
    """
    backend = _instances.get(name)
    if backend is not None:
        return backend
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    missing = _missing_module(name)
    if missing is not None:
        raise BackendUnavailable(name, EXTRAS[name][0], missing)
    with _lock:
        backend = _instances.get(name)
        if backend is None:
            module, cls = BACKENDS[name]
            try:
                backend = getattr(importlib.import_module(module, __name__), cls)()
            except ModuleNotFoundError as exc:
                # The library is there but a module it imports is not (e.g. pymdownx without markdown).
                top = (exc.name or "").partition(".")[0]
                if name in EXTRAS and top in EXTRAS[name][1]:
                    raise BackendUnavailable(name, EXTRAS[name][0], top) from exc
                raise
            _instances[name] = backend
    return backend


def data_versions() -> dict[str, str]:
    """The versions of the data this package applies, as ``uts58-adapt --version`` prints them.

    - ``unicode``: the Unicode version of the Link_Term, Link_Bracket and Link_Email tables
      (UTS #58 revision 2): 17.0.0, or 18.0.0 (the draft's data) when ``$UTS58_UNICODE_VERSION``
      chose it (docs/data.md);
    - ``public_suffix_list``, ``public_suffix_list_date``: the Public Suffix List snapshot
      that the TLD table was generated from (``tools/generate_tlds.py``; a release
      regenerates it, as §8 asks of a TLD list);
    - ``host_characters``: the Unicode version of the UTS #46 and IDNA2008 tables that decide
      which characters can make a host (generated from the official files, §1.4);
    - ``idna``: the installed idna, whose public API the host stage calls for UTS #46
      processing and ToASCII / ToUnicode.

    Nothing is read from the network.
    """
    import idna

    from .._unicode_version import MODULE_SUFFIX
    from ..properties import UNICODE_VERSION
    from ._tlds import snapshot_version

    host_tables = importlib.import_module(f".._idna_tables{MODULE_SUFFIX}", __name__)
    host_characters: str = host_tables.UNICODE_VERSION
    psl = snapshot_version()
    return {
        "unicode": UNICODE_VERSION,
        "public_suffix_list": psl,
        "public_suffix_list_date": psl[:10],
        "host_characters": host_characters,
        "idna": idna.__version__,
    }
