"""The HTML report in a real headless Chromium, driven by Playwright.

Checks what a reader sees: every change is a row, the filters hide rows, text from the
input shows literally (nothing in it runs or renders as markup), and the page loads
nothing but itself.  The browser is found by ``conftest.find_chromium``
(``$UTS58_CHROMIUM``, a Chromium on PATH, or Playwright's own); without one the tests
skip, except under ``UTS58_REQUIRE_BROWSER=1`` (set by ``.ci/run``), where they fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from uts58_adapt.cli import main
from uts58_adapt.report.render_html import render_html


@pytest.fixture(scope="module")
def browser(chromium_browser):
    """The session's headless Chromium (conftest.chromium_browser)."""
    return chromium_browser


# Both fit in the excerpt shown around the change (40 code points each side).
NASTY = '<img src=x onerror="pwned=2">example.com/p. <script>pwned=1</script>'
P = NASTY.index("example.com/p.")
NASTY2 = '<b id="pwn">&amp;</b> example.com/q. x'
Q = NASTY2.index("example.com/q.")


def _change(line: str, before, after, kind: str, reason: str, source: str = "t.txt", lineno: int = 1) -> dict:
    starts = [s[0] for s in (before, after) if s]
    return {
        "source": source,
        "line": lineno,
        "column": min(starts) + 1,
        "before": list(before) if before else None,
        "after": list(after) if after else None,
        "before_text": line[before[0] : before[1]] if before else None,
        "after_text": line[after[0] : after[1]] if after else None,
        "kind": kind,
        "reason": reason,
        "line_text": line,
    }


CHANGES = [
    _change(NASTY, (P, P + 14), (P, P + 13), "trimmed", "soft-trailing"),
    _change(NASTY2, (Q, Q + 14), (Q, Q + 13), "trimmed", "soft-trailing", lineno=2),
    _change("see (example.com/a) x", (5, 19), (5, 18), "trimmed", "unmatched-close", lineno=3),
    _change("mail σωκράτης@example.gr ok", None, (5, 24), "added", "missed-email", lineno=4),
    _change("x http://ana@example.com/p y", (2, 26), None, "removed", "userinfo", lineno=5),
]
REPORT = {
    "backend": "linkify-it",
    "unicode_version": "17.0.0",
    "summary": {
        "documents": 1,
        "lines": 5,
        "links_before": 4,
        "links_after": 4,
        "unchanged": 0,
        "changed": 5,
        "by_kind": {"trimmed": 3, "added": 1, "removed": 1},
        "by_reason": {"soft-trailing": 2, "unmatched-close": 1, "userinfo": 1, "missed-email": 1},
    },
    "changes": CHANGES,
}


def _open(browser, path: Path):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, requests


def _visible_rows(page) -> int:
    return sum(1 for row in page.query_selector_all("tr.change") if row.is_visible())


def test_rows_filters_and_escaping(browser, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(render_html(REPORT), encoding="utf-8")
    page, requests = _open(browser, path)
    try:
        # Every change is a visible row, and the count says so.
        assert _visible_rows(page) == 5
        assert page.inner_text("#shown-count") == "5"
        assert page.is_hidden("#none-shown")

        # Filter by kind: only the added row stays.
        page.select_option("#kind-filter", "added")
        assert _visible_rows(page) == 1
        visible = [r for r in page.query_selector_all("tr.change") if r.is_visible()]
        assert "σωκράτης@example.gr" in visible[0].inner_text()
        assert page.inner_text("#shown-count") == "1"

        # Kind and reason together: trimmed + soft-trailing is two rows; added + userinfo none.
        page.select_option("#kind-filter", "trimmed")
        page.select_option("#reason-filter", "soft-trailing")
        assert _visible_rows(page) == 2
        page.select_option("#kind-filter", "added")
        page.select_option("#reason-filter", "userinfo")
        assert _visible_rows(page) == 0
        assert page.is_visible("#none-shown")

        # Back to all.
        page.select_option("#kind-filter", "")
        page.select_option("#reason-filter", "")
        assert _visible_rows(page) == 5

        # Text from the input is shown literally: no element made of it, no script run.
        first, second = page.query_selector_all("tr.change")[:2]
        before_cell = first.query_selector("td.before").inner_text()
        assert '<img src=x onerror="pwned=2">' in before_cell
        assert "<script>pwned=1</script>" in before_cell
        assert '<b id="pwn">&amp;</b>' in second.query_selector("td.after").inner_text()
        assert page.query_selector("#pwn") is None
        assert page.query_selector("img") is None
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert page.evaluate("document.images.length") == 0
        assert page.evaluate("document.scripts.length") == 1

        # Before and after are highlighted side by side.
        assert first.query_selector("td.before mark.before").inner_text() == "example.com/p."
        assert first.query_selector("td.after mark.after").inner_text() == "example.com/p"
        # Each highlighted link and file name is a bidi isolate (issue 13.2).
        isolated = "el => getComputedStyle(el).unicodeBidi"
        assert first.eval_on_selector("td.before mark.before", isolated) == "isolate"
        assert first.eval_on_selector("td.where", isolated) == "isolate"
        assert first.eval_on_selector("td.before mark.before", "el => getComputedStyle(el).direction") == "ltr"
        removed = page.query_selector_all("tr.change")[4]
        assert "no link" in removed.query_selector("td.after").inner_text()

        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    finally:
        page.close()
    # Nothing but the page itself was requested.
    assert requests == [path.as_uri()]


def test_sample_report_page(browser, tmp_path: Path) -> None:
    """The real report on the sample corpus: one visible row per change, filters populated."""
    html_path, json_path = tmp_path / "sample.html", tmp_path / "sample.json"
    assert main(["report", "--sample", "--quiet", "--backend", "urlextract", "-o", str(html_path)]) == 0
    assert main(["report", "--sample", "--quiet", "--backend", "urlextract", "-o", str(json_path)]) == 0
    import json

    report = json.loads(json_path.read_text(encoding="utf-8"))
    page, requests = _open(browser, html_path)
    try:
        assert _visible_rows(page) == report["summary"]["changed"]
        kinds = page.eval_on_selector_all("#kind-filter option", "els => els.map(e => e.value)")
        assert kinds == ["", *report["summary"]["by_kind"]]
        reasons = page.eval_on_selector_all("#reason-filter option", "els => els.map(e => e.value)")
        assert reasons == ["", *report["summary"]["by_reason"]]
        page.select_option("#reason-filter", "soft-trailing")
        assert _visible_rows(page) == report["summary"]["by_reason"]["soft-trailing"]
    finally:
        page.close()
    assert requests == [html_path.as_uri()]
