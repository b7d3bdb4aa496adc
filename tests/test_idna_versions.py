"""The host stage with every supported idna (3.13, the oldest, to the newest).

The host characters come from the official Unicode 17.0.0 files through
``tools/generate_tables.py`` (``uts58_adapt/_idna_tables.py``), not from idna's private
tables (whose layout changed in idna 3.17 and whose Unicode version is idna's: 17.0 up
to idna 3.19, 18.0 from 3.20).  idna serves through its public API only (``uts46_remap``,
``alabel``, ``ulabel``, ``check_bidi``, ``valid_contextj``, ``valid_contexto``).  So which
characters make a host does not depend on the installed idna, and detection of Unicode
17.0 text is the same with every supported release.  ``.ci/run`` runs this file with the
oldest supported idna and with the newest.
"""

from __future__ import annotations

import importlib.metadata
import itertools

import idna
import pytest

from uts58_adapt import _idna_tables
from uts58_adapt.detection import detect
from uts58_adapt.refine import hosts


def _release() -> tuple[int, int]:
    major, minor = importlib.metadata.version("idna").split(".")[:2]
    return int(major), int(minor)


def test_the_supported_range() -> None:
    assert _release() >= (3, 13), "pyproject.toml requires idna>=3.13"


def test_the_host_characters_are_unicode_17_whatever_idna_carries() -> None:
    """U+0558 is unassigned in Unicode 17.0 and mapped to U+0567 in Unicode 18's UTS #46.

    idna 3.20 and later (Unicode 18 data) map it; older releases reject it.  Either way
    it is no host character: the host stage follows the Unicode 17.0.0 files.
    """
    assert _idna_tables.UNICODE_VERSION == "17.0.0"
    try:
        mapped: str | None = idna.uts46_remap("\u0558")
    except idna.IDNAError:
        mapped = None
    assert mapped in (None, "\u0567")
    assert not hosts.is_host_char("\u0558")
    assert hosts.host_run_end("ab\u0558cd.com", 0) == 2
    assert hosts.is_host_char("\u0567")  # its Unicode 17 lower case form is PVALID


def test_the_generated_table_is_plain_data() -> None:
    """Sorted, disjoint, non-ASCII ranges: what the regex classes and the bisect read."""
    ranges = _idna_tables.HOST_CHAR_RANGES
    assert ranges[0][0] >= 0x80 and ranges[-1][1] <= 0x10FFFF
    assert all(a <= b for a, b in ranges)
    assert all(b + 1 < c for (_, b), (c, _) in itertools.pairwise(ranges))


@pytest.mark.parametrize(
    ("text", "links"),
    [
        ("see bücher.de/ö. now", ["bücher.de/ö"]),
        ("ＥＸＡＭＰＬＥ．ｃｏｍ and παράδειγμα.δοκιμή/α", ["ＥＸＡＭＰＬＥ．ｃｏｍ"]),
        ("mail σωκράτης@example.com.", ["σωκράτης@example.com"]),
        ("東京。jp/道 or 例え.テスト", []),
        ("FOO.VERMÖGEN.com/x and faß.de/y", ["FOO.VERMÖGEN.com/x", "faß.de/y"]),
        ("x.xn--11b4c3d/a and abc.कॉम", ["x.xn--11b4c3d/a", "abc.कॉम"]),
    ],
)
def test_detection_is_the_same_with_every_supported_idna(text: str, links: list[str]) -> None:
    """Unicode 17.0 text: the same links with idna 3.13 and the newest (run by .ci/run with both)."""
    assert [link.text for link in detect(text)] == links


def test_label_checks_go_through_idnas_public_api() -> None:
    """A label idna's public functions reject (hyphens, joiners, bidi) is no host with any release."""
    assert hosts.domain_unicode("a-.example.com") is None  # trailing hyphen (RFC 5891 §4.2.3.1)
    assert hosts.domain_unicode("xn--a.example.com") is None  # an invalid A-label
    assert hosts.domain_unicode("a\u200db.example.com") is None  # ZWJ out of context (CONTEXTJ)
    assert hosts.domain_unicode("\u05d0a.example.com") is None  # bidi rule
    assert hosts.domain_unicode("bücher.example.com") == "bücher.example.com"


def test_std3_rules_after_mapping_with_every_release() -> None:
    """``⑷`` maps to ``(4)``: UseSTD3ASCIIRules rejects it (U1).  idna 3.13 returned the mapping
    from ``uts46_remap(..., std3_rules=True)``; the host stage checks the mapped ASCII itself."""
    assert hosts.lenient_domain("⑷.four", True) is None
    assert hosts.lenient_domain("foo_bar.example") == "foo_bar.example"  # "_": the one lenient exception
    assert hosts.domain_unicode("⑷.example.com") is None
