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
from .domains import _sep_label_re as _sep_label_re
from .domains import _tld_ok as _tld_ok
from .domains import ascii_form, domain_unicode, email_domain_end, lenient_domain, separator_tld_hits, strict_domain
from .host_chars import _HOST_CHAR as _HOST_CHAR
from .host_chars import _HOST_RUN as _HOST_RUN
from .host_chars import _HOST_RUN_BACK as _HOST_RUN_BACK
from .host_chars import (
    ASCII_HOST_CHARS,
    MAX_HOST,
    SEP_TABLE,
    SEPARATORS,
    host_run_end,
    host_run_start,
    is_host_char,
    normalize_separators,
)
from .labels import contexto_cut, lenient_char, lenient_label, strict_label
from .whatwg import (
    MAX_AUTHORITY,
    USERINFO_END,
    has_userinfo_after,
    has_userinfo_before,
    port_end,
    userinfo_end,
    whatwg_ipv4,
)

# The private names of the single module this stage used to be, for the tests and helpers
# written against it.
_SEP_TABLE = SEP_TABLE
_USERINFO_END = USERINFO_END
_MAX_AUTHORITY = MAX_AUTHORITY
_label = strict_label
_lenient_label = lenient_label
_lenient_char = lenient_char
_contexto_cut = contexto_cut
_whatwg_ipv4 = whatwg_ipv4
__all__ = [
    "ASCII_HOST_CHARS",
    "DEFAULT_SCHEMES",
    "MAX_HOST",
    "SEPARATORS",
    "HostMatch",
    "SchemeCheck",
    "ascii_form",
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
    "strict_domain",
    "url_host",
    "userinfo_end",
]
