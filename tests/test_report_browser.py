"""The HTML report in a real headless Chromium, driven by Playwright.

Checks what a reader sees: every change is a row, the filters hide rows, text from the
input shows literally (nothing in it runs or renders as markup), the page loads nothing
but itself; the changed characters are marked, the hrefs shown, the charts filter, and a
report of 120,000 changes loads, searches, sorts and pages quickly (issue 24.5).
Screenshots are written to each test's temporary directory, and to
``$UTS58_SCREENSHOT_DIR`` when it is set (for the documentation).  The browser is found by ``conftest.find_chromium``
(``$UTS58_CHROMIUM``, a Chromium on PATH, or Playwright's own); without one the tests
skip, except under ``UTS58_REQUIRE_BROWSER=1`` (set by ``.ci/run``), where they fail.
"""

from __future__ import annotations

import os
import shutil
import time
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
        "before_href": "https://" + line[before[0] : before[1]] if before else None,
        "after_href": "https://" + line[after[0] : after[1]] if after else None,
        "kind": kind,
        "reason": reason,
        "line_text": line,
    }


def _screenshot(page, tmp_path: Path, name: str, full_page: bool = False) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=full_page)
    assert path.stat().st_size > 1000
    keep = os.environ.get("UTS58_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)


def _until(page, selector: str, expected: str, timeout: float = 10.0) -> float:
    """Wait until ``selector``'s text is ``expected``; return the seconds it took (the page's
    Content-Security-Policy forbids eval, so Playwright's wait_for_function cannot be used)."""
    t0 = time.monotonic()
    while True:
        text = page.inner_text(selector)
        if text == expected:
            return time.monotonic() - t0
        assert time.monotonic() - t0 < timeout, f"{selector}: {text!r}, not {expected!r}"
        time.sleep(0.02)


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
        assert page.evaluate("[...document.scripts].filter(s => s.type !== 'application/json').length") == 1

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

        _screenshot(page, tmp_path, "report-escaping.png", full_page=True)
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
        page.select_option("#reason-filter", "")
        _screenshot(page, tmp_path, "report-summary.png")
        page.eval_on_selector("#search", "el => el.scrollIntoView()")
        _screenshot(page, tmp_path, "report-changes.png")
    finally:
        page.close()
    assert requests == [html_path.as_uri()]


def test_changed_characters_and_hrefs(browser, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(render_html(REPORT), encoding="utf-8")
    page, requests = _open(browser, path)
    try:
        rows = page.query_selector_all("tr.change")
        trimmed, _, _, added, removed = rows
        # trimmed: the dropped "." struck through in the before cell; nothing struck or added after
        assert [d.inner_text() for d in trimmed.query_selector_all("td.before del")] == ["."]
        assert trimmed.query_selector("td.after del") is None and trimmed.query_selector("td.after ins") is None
        struck = "el => getComputedStyle(el).textDecorationLine"
        assert trimmed.eval_on_selector("td.before del", struck) == "line-through"
        # added: the whole address underlined; removed: the whole link struck through
        assert added.eval_on_selector("td.after ins", "el => el.textContent") == "σωκράτης@example.gr"
        assert added.eval_on_selector("td.after ins", struck) == "underline"
        assert removed.eval_on_selector("td.before del", "el => el.textContent") == "http://ana@example.com/p"
        # the hrefs, before and after
        assert [h.inner_text() for h in trimmed.query_selector_all(".href")] == [
            "https://example.com/p.",
            "https://example.com/p",
        ]
        assert len(added.query_selector_all("td.before .href")) == 0
        # Changes by kind, by reason, by file: three inline SVG charts; a bar filters the changes
        assert page.eval_on_selector_all("svg.chart", "els => els.length") == 3
        page.click('svg.chart g.bar[data-kind="added"]')
        assert _visible_rows(page) == 1 and page.inner_text("#shown-count") == "1"
        page.select_option("#kind-filter", "")
        page.click('svg.chart g.bar[data-reason="soft-trailing"]')
        assert _visible_rows(page) == 2
        _screenshot(page, tmp_path, "report-filtered.png", full_page=True)
    finally:
        page.close()
    assert requests == [path.as_uri()]


KIND_REASONS = [
    ("trimmed", "soft-trailing"),
    ("added", "missed-email"),
    ("extended", "part-initiator"),
    ("removed", "userinfo"),
    ("trimmed", "unmatched-close"),
]


def big_report(n: int) -> dict:
    """A report of ``n`` changes in ``n // 1000`` files, of five kinds and reasons in turn."""
    changes = []
    for i in range(n):
        kind, reason = KIND_REASONS[i % 5]
        line = f"line {i} see example.com/p{i}. and ü{i}@example.de x"
        s = line.index("example.com")
        e = s + len(f"example.com/p{i}.")
        before, after = {
            "trimmed": ((s, e), (s, e - 1)),
            "added": (None, (line.index("ü"), line.index(" x"))),
            "extended": ((s, e - 1), (s, e)),
            "removed": ((s, e), None),
        }[kind]
        changes.append(_change(line, before, after, kind, reason, f"dir/file{i // 1000:03d}.txt", i % 1000 + 1))
    by_kind: dict[str, int] = {}
    by_reason: dict[str, int] = {}
    for c in changes:
        by_kind[c["kind"]] = by_kind.get(c["kind"], 0) + 1
        by_reason[c["reason"]] = by_reason.get(c["reason"], 0) + 1
    summary = {"documents": n // 1000, "lines": n, "links_before": n, "links_after": n, "unchanged": 0}
    summary |= {"changed": n, "by_kind": by_kind, "by_reason": by_reason}
    return {"backend": "linkify-it", "unicode_version": "17.0.0", "summary": summary, "changes": changes}


def test_120000_changes_stay_responsive(browser, tmp_path: Path) -> None:
    """Only a page of rows is in the document; search, sort and paging take well under a second
    here (the bounds are loose for a loaded machine)."""
    n = 120_000
    path = tmp_path / "big.html"
    path.write_text(render_html(big_report(n)), encoding="utf-8")
    t0 = time.monotonic()
    page, requests = _open(browser, path)
    try:
        load = time.monotonic() - t0
        assert load < 30, f"{load:.1f} s to load"
        assert page.inner_text("#shown-count") == str(n)
        assert len(page.query_selector_all("tr.change")) == 100
        assert page.inner_text("#page-info") == "page 1 of 1200 (changes 1–100)"
        # Search: file name and line
        page.fill("#search", "dir/file007.txt:5")
        assert _until(page, "#shown-count", "111") < 5  # lines 5, 50-59, 500-599
        assert page.inner_text("tr.change td.where") == "dir/file007.txt:5:15"
        page.fill("#search", "ü119999@")  # a link text, on the last page in file order
        assert _until(page, "#shown-count", "1") < 5
        page.fill("#search", "")
        _until(page, "#shown-count", str(n))
        # Sorting by reason, then backwards
        t0 = time.monotonic()
        page.click("th[data-sort=reason]")
        assert page.inner_text("tr.change td.reason") == "soft-trailing"
        page.click("th[data-sort=reason]")
        assert page.inner_text("tr.change td.reason") == "missed-email"  # the vocabulary's order, backwards
        assert page.get_attribute("th[data-sort=reason]", "aria-sort") == "descending"
        page.click("th[data-sort=where]")
        assert page.inner_text("tr.change td.where") == "dir/file000.txt:1:12"  # "line 0 see example…"
        # Paging
        page.click("#next")
        assert page.inner_text("#page-info") == "page 2 of 1200 (changes 101–200)"
        page.click("#last")
        assert page.inner_text("#page-info") == "page 1200 of 1200 (changes 119901–120000)"
        page.select_option("#page-size", "1000")
        assert len(page.query_selector_all("tr.change")) == 1000
        assert page.inner_text("#page-info") == "page 1 of 120 (changes 1–1000)"
        assert time.monotonic() - t0 < 20
        _screenshot(page, tmp_path, "report-120000-changes.png")
    finally:
        page.close()
    assert requests == [path.as_uri()]
