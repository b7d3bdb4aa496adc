"""Issue 13.2: a Bidi_Control before a link cannot make Chromium show the link reversed.

``linkify("Pay here: \\u202e (evil.com/moc.knab)")`` used to display as
``bank.com/moc.live``: the RLO outside the anchor reversed it.  The test renders the
HTML in headless Chromium (Playwright) and reads the layout: the x position of each
character of the anchor, in logical order, must increase (left to right, as written).
A control case renders the old, non-isolated markup and checks that the same
measurement does see it reversed, so the measurement can fail.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from uts58_adapt import linkify

SPOOF = "Pay here: \u202e (evil.com/moc.knab)"

#: x of the left edge of each character of the first anchor, in logical order.
CHAR_LEFTS = """() => {
  const a = document.querySelector("a");
  const node = a.firstChild;
  const out = [];
  for (let i = 0; i < node.length; i++) {
    const r = document.createRange();
    r.setStart(node, i);
    r.setEnd(node, i + 1);
    out.push(r.getBoundingClientRect().left);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def page(chromium_browser: Any) -> Iterator[Any]:
    """A page of the session's one headless Chromium (``conftest.chromium_browser``).

    One Playwright instance per session: a second ``sync_playwright()`` started while the
    first is running fails with "using Playwright Sync API inside the asyncio loop", which
    made these tests fail when run after tests/test_report_browser.py.
    """
    pg = chromium_browser.new_page()
    pg.route("**/*", lambda route: route.abort())  # nothing from the network
    try:
        yield pg
    finally:
        pg.close()


def _lefts(page: Any, body: str) -> list[float]:
    page.set_content(f'<!DOCTYPE html><meta charset="utf-8"><p style="font: 24px monospace">{body}</p>')
    return list(page.evaluate(CHAR_LEFTS))


def _left_to_right(xs: list[float]) -> bool:
    return all(a < b for a, b in itertools.pairwise(xs))


def test_measurement_sees_the_old_markup_reversed(page: Any) -> None:
    old = 'Pay here: \u202e (<a href="https://evil.com/moc.knab">evil.com/moc.knab</a>)'
    xs = _lefts(page, old)
    assert len(xs) == len("evil.com/moc.knab")
    assert all(a > b for a, b in itertools.pairwise(xs)), xs  # displayed right to left: bank.com/moc.live


def test_linkify_anchor_reads_left_to_right(page: Any) -> None:
    html = linkify(SPOOF)
    assert "\u202e" not in html  # escaped around the link (the default)
    xs = _lefts(page, html)
    assert page.inner_text("a") == "evil.com/moc.knab"
    assert len(xs) == len("evil.com/moc.knab") and _left_to_right(xs), xs


@pytest.mark.parametrize("control", ["\u202e", "\u202b", "\u2067", "\u200f", "\u061c"])
def test_isolation_alone_protects_the_anchor(page: Any, control: str) -> None:
    html = linkify(SPOOF.replace("\u202e", control), escape_bidi=False)
    assert control in html  # kept as asked
    xs = _lefts(page, html)
    assert len(xs) == len("evil.com/moc.knab") and _left_to_right(xs), (control, xs)


def test_linkify_matches_a_reference_rendering(page: Any) -> None:
    """The anchor's rendered boxes are those of the same link with no control in the text."""
    safe = _lefts(page, linkify("Pay here: (evil.com/moc.knab)"))
    spoof = _lefts(page, linkify(SPOOF, escape_bidi=False))
    # Same glyph advances in the same order (the offset differs by the control's width, if any).
    assert [round(b - a, 1) for a, b in itertools.pairwise(safe)] == [
        round(b - a, 1) for a, b in itertools.pairwise(spoof)
    ]
