"""The host stage with every supported idna: its private table read in both layouts, or the fallback.

``hosts._uts46_mapped`` reads idna's UTS #46 table from the private module
``idna.uts46data``, whose layout changed in idna 3.17 (rows before, parallel arrays
since).  These tests feed it both layouts built from the installed table, and a layout
it does not know, which must fall back to the public ``idna.uts46_remap``.  ``.ci/run``
runs this file with the oldest supported idna (3.13, rows) and the newest (arrays).

Tests marked "IDNA data version" depend on the Unicode version of idna's tables
(17.0 up to idna 3.19, 18.0 from idna 3.20) and say what they expect for each.
"""

from __future__ import annotations

import importlib.metadata
import warnings
from types import SimpleNamespace

import idna
import pytest
from idna import uts46data

from uts58_adapt.detection import detect
from uts58_adapt.refine import hosts


def _rows() -> tuple[tuple[int, str] | tuple[int, str, str], ...]:
    """The installed table in the row layout of idna < 3.17, whatever the installed layout."""
    if hasattr(uts46data, "uts46data"):
        return tuple(uts46data.uts46data)
    out: list[tuple[int, str] | tuple[int, str, str]] = []
    for start, status, mapping in zip(uts46data.uts46_starts, uts46data.uts46_statuses, uts46data.uts46_replacements):
        out.append((start, chr(status), mapping) if mapping is not None else (start, chr(status)))
    return tuple(out)


def _arrays() -> SimpleNamespace:
    """The installed table in the array layout of idna >= 3.17."""
    rows = _rows()
    return SimpleNamespace(
        uts46_starts=[row[0] for row in rows],
        uts46_statuses=bytes(ord(row[1]) for row in rows),
        uts46_replacements=tuple(row[2] if len(row) > 2 else None for row in rows),
    )


def _idna_unicode_major() -> int:
    return int(uts46data.__version__.split(".")[0])


def test_both_layouts_give_the_same_mapped_ranges() -> None:
    from_rows = list(hosts._uts46_mapped(SimpleNamespace(uts46data=_rows())))
    from_arrays = list(hosts._uts46_mapped(_arrays()))
    assert from_rows == from_arrays
    assert list(hosts._uts46_mapped()) == from_rows
    # Hand-checked entries of UTS #46 (the same in Unicode 17 and 18).
    mapped = {first: m for first, last, m in from_rows if first == last}
    assert mapped[ord("Ö")] == "ö"
    assert mapped[0xFF21] == "a"  # FULLWIDTH LATIN CAPITAL LETTER A
    assert mapped[0x2160] == "i"  # ROMAN NUMERAL ONE
    assert mapped[0x03A3] == "σ"


def _expanded(ranges: list[tuple[int, int, str]], lo: int, hi: int) -> dict[int, str]:
    return {cp: m for first, last, m in ranges for cp in range(max(first, lo), min(last, hi - 1) + 1)}


@pytest.mark.parametrize(
    "table",
    [
        SimpleNamespace(),  # no table at all
        SimpleNamespace(uts46data=[(0, "V")]),  # rows, but not a tuple
        SimpleNamespace(uts46data=((5, "V"), (3, "M", "x"))),  # starts not from 0, not rising
        SimpleNamespace(uts46_starts=[0, 1], uts46_statuses=b"V", uts46_replacements=(None, None)),  # lengths differ
    ],
)
def test_an_unknown_layout_falls_back_to_the_public_api(table: object) -> None:
    lo, hi = 0x80, 0x600  # Latin-1, Latin Extended, IPA, Greek, Cyrillic, Armenian, Hebrew
    with pytest.warns(RuntimeWarning, match=r"unknown layout .*idna\.uts46_remap"):
        fallback = list(hosts._uts46_mapped(table, fallback_range=range(lo, hi)))
    expected = _expanded(list(hosts._uts46_mapped()), lo, hi)
    assert {first: m for first, _, m in fallback} == expected
    assert all(first == last for first, last, _ in fallback)
    assert len(expected) > 300  # the range has real mappings (upper case letters, compatibility forms)


def test_the_installed_layout_is_read_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert next(iter(hosts._uts46_mapped()))


def test_idna_unicode_version_matches_the_package_version() -> None:
    """IDNA data version: idna 3.13-3.19 carry Unicode 17.0 tables, 3.20 and later 18.0 or newer."""
    release = tuple(int(x) for x in importlib.metadata.version("idna").split(".")[:2])
    assert release >= (3, 13), "pyproject.toml requires idna>=3.13"
    if release < (3, 20):
        assert uts46data.__version__ == "17.0.0"
    else:
        assert _idna_unicode_major() >= 18


def test_a_character_new_in_unicode_18_follows_the_idna_data() -> None:
    """IDNA data version: U+0558 (unassigned in 17.0) is mapped to U+0567 in Unicode 18's UTS #46.

    The host stage takes idna's tables as they are: with Unicode 18 data the character is a
    host character, with 17.0 data it ends the host.  Detection of Unicode 17.0 text is the
    same with both (the next test).
    """
    if _idna_unicode_major() >= 18:
        assert idna.uts46_remap("\u0558") == "\u0567"
        assert hosts.is_host_char("\u0558")
    else:
        with pytest.raises(idna.IDNAError):
            idna.uts46_remap("\u0558")
        assert not hosts.is_host_char("\u0558")


@pytest.mark.parametrize(
    ("text", "links"),
    [
        ("see bücher.de/ö. now", ["bücher.de/ö"]),
        ("ＥＸＡＭＰＬＥ．ｃｏｍ and παράδειγμα.δοκιμή/α", ["ＥＸＡＭＰＬＥ．ｃｏｍ"]),
        ("mail σωκράτης@example.com.", ["σωκράτης@example.com"]),
        ("東京。jp/道 or 例え.テスト", []),
    ],
)
def test_detection_is_the_same_with_every_supported_idna(text: str, links: list[str]) -> None:
    """Unicode 17.0 text: the same links with idna 3.13 and the newest (run by .ci/run with both)."""
    assert [link.text for link in detect(text)] == links
