"""Top-level domains and public suffixes from tldextract's bundled Public Suffix List snapshot.

The data behind the registrable-domain rule that UTS #58 §1.4 leaves to the list of
top-level domains: a data module, below the refinement stage (``refine/domains.py``)
and the backends (``backends/_tlds.py`` re-exports it for them).

Offline only: the snapshot file shipped inside the ``tldextract`` package is parsed
by its own parser (``tldextract.suffix_list.extract_tlds_from_suffix_list``); nothing
is fetched and no cache is written.  Only the ICANN section is used, so
``blogspot.com`` (a private-section suffix) stays an ordinary registrable domain.

Every name is given in both Unicode and ``xn--`` (A-label) form, lower case.

At run time the parsed sets and the TLD trie pattern come from ``_tld_data.py``,
generated from the snapshot by ``tools/generate_tlds.py`` (``tests/test_tld_data.py``
checks that it is current): importing tldextract (which imports ``requests``), parsing
the list and converting every name to both forms took most of a fresh process's
start-up.  :func:`parse_snapshot` and :func:`build_tld_pattern` are what the generator runs.
"""

from __future__ import annotations

import pkgutil
import re
from functools import lru_cache
from typing import Any

__all__ = [
    "IcannSuffixes",
    "build_tld_pattern",
    "icann_suffixes",
    "icann_tlds",
    "parse_snapshot",
    "read_snapshot",
    "snapshot_version",
    "tld_pattern",
]

_SNAPSHOT = ".tld_set_snapshot"


def read_snapshot() -> str:
    """The text of tldextract's bundled snapshot (imports tldextract: for the generator and tests)."""
    data = pkgutil.get_data("tldextract", _SNAPSHOT)
    if data is None:  # pragma: no cover - the package guarantees the file
        raise RuntimeError("tldextract's bundled Public Suffix List snapshot is missing")
    return data.decode("utf-8")


def _both_forms(name: str) -> tuple[str, ...]:
    """``name`` (lower case) in Unicode and A-label form, label by label."""
    uni, asc = [], []
    for label in name.lower().split("."):
        if label.startswith("xn--"):
            try:
                uni.append(label[4:].encode("ascii").decode("punycode"))
            except (UnicodeError, ValueError):
                uni.append(label)
            asc.append(label)
        elif label.isascii():
            uni.append(label)
            asc.append(label)
        else:
            uni.append(label)
            asc.append("xn--" + label.encode("punycode").decode("ascii"))
    return tuple({".".join(uni), ".".join(asc)})


class IcannSuffixes:
    """The ICANN section of the PSL: rules, wildcard parents and exceptions, both forms."""

    def __init__(self, rules: list[str]) -> None:
        plain: set[str] = set()
        wild: set[str] = set()
        exceptions: set[str] = set()
        tlds: set[str] = set()
        for rule in rules:
            rule = rule.strip().lower()
            if not rule:
                continue
            if rule.startswith("!"):
                exceptions.update(_both_forms(rule[1:]))
                continue
            if rule.startswith("*."):
                wild.update(_both_forms(rule[2:]))
                base = rule[2:]
            else:
                plain.update(_both_forms(rule))
                base = rule
            tlds.update(_both_forms(base.rsplit(".", 1)[-1]))
        self.rules = frozenset(plain)
        self.wildcards = frozenset(wild)
        self.exceptions = frozenset(exceptions)
        self.tlds = frozenset(tlds)

    @classmethod
    def from_sets(
        cls, rules: frozenset[str], wildcards: frozenset[str], exceptions: frozenset[str], tlds: frozenset[str]
    ) -> IcannSuffixes:
        """An instance from already parsed sets (both forms, lower case), as ``_tld_data`` holds them."""
        self = cls([])
        self.rules, self.wildcards, self.exceptions, self.tlds = rules, wildcards, exceptions, tlds
        return self

    def is_public_suffix(self, host: str) -> bool:
        """Whether the lower-case ``host`` (no trailing dot) is itself a public suffix."""
        if host in self.exceptions:
            return False
        if host in self.rules:
            return True
        parent = host.partition(".")[2]
        return bool(parent) and parent in self.wildcards


def parse_snapshot(text: str) -> IcannSuffixes:
    """The ICANN suffixes of a Public Suffix List text, parsed by tldextract's own parser."""
    from tldextract.suffix_list import extract_tlds_from_suffix_list

    public, _private = extract_tlds_from_suffix_list(text)
    return IcannSuffixes(public)


def parse_version(text: str) -> str:
    """The ``// VERSION:`` line of a Public Suffix List text."""
    for line in text.splitlines()[:40]:
        if line.startswith("// VERSION:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


@lru_cache(maxsize=1)
def icann_suffixes() -> IcannSuffixes:
    """The ICANN suffixes of the bundled snapshot (from the generated ``_tld_data``, built once)."""
    from . import _tld_data

    return IcannSuffixes.from_sets(
        frozenset(_tld_data.RULES.split()),
        frozenset(_tld_data.WILDCARDS.split()),
        frozenset(_tld_data.EXCEPTIONS.split()),
        frozenset(_tld_data.TLDS.split()),
    )


def icann_tlds() -> frozenset[str]:
    """Every ICANN top-level domain, lower case, in Unicode and ``xn--`` forms."""
    return icann_suffixes().tlds


def tld_initials() -> str:
    """The first characters of the ICANN TLDs (lower case, both forms), escaped for a regex character class."""
    return "".join(sorted({re.escape(tld[0]) for tld in icann_tlds()}))


def snapshot_version() -> str:
    """The ``// VERSION:`` line of the snapshot, for reports."""
    from . import _tld_data

    return _tld_data.SNAPSHOT_VERSION


def tld_pattern(tlds: frozenset[str] | None = None) -> str:
    """A regular expression (no group captures) matching any of ``tlds`` (default: every ICANN TLD),
    as a trie; the default one is precomputed in ``_tld_data``."""
    if tlds is None:
        from . import _tld_data

        return _tld_data.TLD_PATTERN
    return build_tld_pattern(tlds)


def build_tld_pattern(tlds: frozenset[str]) -> str:
    """A regular expression (no group captures) matching any of ``tlds``, as a trie.

    Python's ``re`` tries a flat alternation of 3,000 words one by one; the trie form
    (``c(?:o(?:m(?:m(?:unity)?)?...``) tries each character once, and still prefers the
    longest name at every step, as a length-sorted alternation does.
    """
    trie: dict[str, Any] = {}
    for tld in sorted(tlds):
        node = trie
        for ch in tld:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, Any]) -> str:
        alts = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not alts:
            return ""
        if "" in node:  # a name ends here: longer ones first (greedy), then this one
            return "(?:" + "|".join(alts) + ")?"
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return build(trie)
