"""The ICANN top-level domains for the backends (their TLD lists and trie patterns).

The data and its functions live in :mod:`uts58_adapt.public_suffixes`, below the
refinement stage; this module re-exports what the backends use.
"""

from __future__ import annotations

from ..public_suffixes import (
    IcannSuffixes,
    build_tld_pattern,
    icann_suffixes,
    icann_tlds,
    parse_snapshot,
    parse_version,
    read_snapshot,
    snapshot_version,
    tld_initials,
    tld_pattern,
)

__all__ = [
    "IcannSuffixes",
    "build_tld_pattern",
    "icann_suffixes",
    "icann_tlds",
    "parse_snapshot",
    "parse_version",
    "read_snapshot",
    "snapshot_version",
    "tld_initials",
    "tld_pattern",
]
