"""uts58_adapt: make existing linkifiers conform to UTS #58, Unicode Link Detection and Formatting.

Everything is importable from here; only the properties are loaded with the package.
The algorithms (``terminate``, ``minimal_escape``, ...) and the detection front end
(``detect``, ``linkify``, ``wrap``) are loaded on first use, so ``import uts58_adapt``
stays cheap and a program pays only for what it calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .link import Link
from .properties import UNICODE_VERSION, LinkTerm, is_link_email, link_bracket, link_term

if TYPE_CHECKING:
    from .backends import BackendUnavailable, data_versions
    from .backends.base import Backend, RawLink
    from .detection import detect
    from .html import linkify
    from .html_fragment import linkify_html
    from .refine._dispatch import compiled
    from .refine.email import email_start, quote_local_part
    from .refine.escaping import format_url, minimal_escape
    from .refine.risks import RISK_CODES, link_risks
    from .refine.termination import terminate
    from .wrapping import wrap

#: A release is X.Y.Z (tagged vX.Y.Z); between releases, X.Y.Z.devN (docs/development.md).
__version__ = "0.3.0.dev0"

__all__ = [
    "RISK_CODES",
    "UNICODE_VERSION",
    "Backend",
    "BackendUnavailable",
    "Link",
    "LinkTerm",
    "RawLink",
    "compiled",
    "data_versions",
    "detect",
    "email_start",
    "format_url",
    "is_link_email",
    "link_bracket",
    "link_risks",
    "link_term",
    "linkify",
    "linkify_html",
    "minimal_escape",
    "quote_local_part",
    "terminate",
    "wrap",
]

# Loaded on first use: each compiles its character classes at import.
_LAZY = {
    "email_start": ".refine.email",
    "quote_local_part": ".refine.email",
    "format_url": ".refine.escaping",
    "minimal_escape": ".refine.escaping",
    "terminate": ".refine.termination",
    "link_risks": ".refine.risks",
    "RISK_CODES": ".refine.risks",
    "detect": ".detection",
    "linkify": ".html",
    "linkify_html": ".html_fragment",
    "wrap": ".wrapping",
    "Backend": ".backends.base",
    "RawLink": ".backends.base",
    "BackendUnavailable": ".backends",
    "data_versions": ".backends",
    "compiled": ".refine._dispatch",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
