"""The host stage that UTS #58 §1.4 leaves to WHATWG URL parsing and the registrable domain.

A facade: the stage is split by job into the modules below, and this module re-exports
their names for the code that imports them from here.

- :mod:`.host_chars`: host characters and host runs (UTS #46 §4, IDNA2008 categories);
- :mod:`.labels`: label validation (UTS #46 §4.1, IDNA2008 RFC 5891-5893);
- :mod:`.whatwg`: WHATWG URL's IPv4 and IPv6 parsers, port and userinfo;
- :mod:`.domains`: the registrable-domain policy (§1.4, Public Suffix List);
- :mod:`.authority`: :func:`url_host`, where a URL's scheme, host and port are (start repair).
"""

from __future__ import annotations

from .authority import DEFAULT_SCHEMES, HostMatch, SchemeCheck, default_scheme_ok, url_host
from .domains import _sep_label_re, _tld_ok, domain_unicode, email_domain_end, lenient_domain, separator_tld_hits
from .host_chars import (
    _HOST_CHAR,
    _HOST_RUN,
    _HOST_RUN_BACK,
    ASCII_HOST_CHARS,
    MAX_HOST,
    SEPARATORS,
    host_run_end,
    host_run_start,
    is_host_char,
    normalize_separators,
)
from .host_chars import SEP_TABLE as _SEP_TABLE
from .labels import contexto_cut as _contexto_cut
from .labels import lenient_char as _lenient_char
from .labels import lenient_label as _lenient_label
from .labels import strict_label as _label
from .whatwg import _USERINFO_END, has_userinfo_after, has_userinfo_before, port_end
from .whatwg import MAX_AUTHORITY as _MAX_AUTHORITY
from .whatwg import whatwg_ipv4 as _whatwg_ipv4

__all__ = [
    "ASCII_HOST_CHARS",
    "DEFAULT_SCHEMES",
    "MAX_HOST",
    "SEPARATORS",
    "HostMatch",
    "SchemeCheck",
    "default_scheme_ok",
    "domain_unicode",
    "email_domain_end",
    "has_userinfo_after",
    "has_userinfo_before",
    "host_run_end",
    "host_run_start",
    "is_host_char",
    "lenient_domain",
    "normalize_separators",
    "port_end",
    "separator_tld_hits",
    "url_host",
]

# Private names that tests and other modules reach for (kept importable from here).
_PRIVATE = (
    _HOST_CHAR,
    _HOST_RUN,
    _HOST_RUN_BACK,
    _USERINFO_END,
    _SEP_TABLE,
    _MAX_AUTHORITY,
    _contexto_cut,
    _label,
    _lenient_char,
    _lenient_label,
    _sep_label_re,
    _tld_ok,
    _whatwg_ipv4,
)
