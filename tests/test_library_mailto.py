"""A ``mailto:`` link the library makes with its emails switched off stays linked (the drop-in contract).

bleach's ``url_re`` has ``mailto`` among its protocols and reads ``info@`` as userinfo, so
``Linker()`` (``parse_email=False``) links ``MAILTO:info@example.com``.  UTS #58 reads it as an
email (§5.2: ``mailto:`` before the local part is part of the link); the upgrade dropped it,
as it drops every email with emails off, though the library linked it (the audit showed it
"removed", reason "other").  Found by the audit of the bundled sample, 2026-12-02.
"""

from __future__ import annotations

import pytest

bleach = pytest.importorskip("bleach")

from bleach.linkifier import Linker, LinkifyFilter  # noqa: E402
from bleach.sanitizer import Cleaner  # noqa: E402

import uts58_adapt  # noqa: E402
from uts58_adapt.integrations.bleach import LinkifyFilter as UpgradedFilter  # noqa: E402

TEXTS = [
    "write to MAILTO:info@example.com today",
    "or mailto:σωκράτης@example.gr today",
    "both mailto:a@example.org and mailto:b@example.net",
]


@pytest.mark.parametrize("text", TEXTS)
def test_bleach_mailto_url_stays_linked(text: str) -> None:
    # Nothing here is changed by a UTS #58 rule: the upgrade gives bleach's own output.
    assert uts58_adapt.wrap(Linker()).linkify(text) == Linker().linkify(text)
    assert "<a " in Linker().linkify(text)


def test_bleach_mailto_url_in_a_cleaner() -> None:
    text = TEXTS[0]
    mine = Cleaner(filters=[UpgradedFilter]).clean(text)
    theirs = Cleaner(filters=[LinkifyFilter]).clean(text)
    assert mine == theirs


def test_bleach_mailto_url_ends_after_its_domain() -> None:
    # §5.2: an email link ends after its domain; bleach took the path too.
    text = "write to MAILTO:info@example.com/x today"
    assert 'href="MAILTO:info@example.com/x"' in Linker().linkify(text)
    assert uts58_adapt.wrap(Linker()).linkify(text) == (
        'write to <a href="MAILTO:info@example.com" rel="nofollow">MAILTO:info@example.com</a>/x today'
    )


def test_emails_stay_off_where_the_library_linked_no_mailto() -> None:
    # Without mailto: bleach (parse_email=False) links no email, and neither does the upgrade.
    text = "write to info@example.com or σωκράτης@example.gr"
    assert Linker().linkify(text) == text
    assert uts58_adapt.wrap(Linker()).linkify(text) == text
