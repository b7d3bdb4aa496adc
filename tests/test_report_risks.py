"""``uts58-adapt report --reject-risky`` (issue 22.2): the audit of ``detect(..., reject_risky=True)``.

The "before" side stays the backend's own links (the library rejects nothing), the "after"
side is what ``reject_risky=True`` links: a link with a §8 risk is a ``removed`` change with
the reason ``risky`` (for ``ideographic-boundary`` alone, ``start-moved``), every row carries
the ``risks`` of its refined link, and the summary's ``risky`` counts the refined links with
a risk, listed or not, by code in ``RISK_CODES`` order.  Without the flag, nothing changes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from uts58_adapt import RISK_CODES, detect, link_risks
from uts58_adapt.report import merge, render
from uts58_adapt.report.classify import REASONS, RISKS
from uts58_adapt.report.core import ChunkTask, audit_chunk
from uts58_adapt.report.runner import iter_tasks
from uts58_adapt.report.stream import StreamingMerge, audit_to_rows

REPO = Path(__file__).resolve().parent.parent

PAYPAL = "Visit pаypal.com now"  # a Cyrillic а
IDEOGRAPHIC = "ウェブサイトはexample.com です。"
CONFUSABLE = "Mail ab@аррӏе.com today"  # all Cyrillic
PLAIN = "See https://example.com/a(b/c)d ok"  # a change that is no risk
ADDED = "詳しくはhttps://pаypal.com/ページ を見て"  # only the refinement finds it (a scheme after a word)
LINES = [PAYPAL, IDEOGRAPHIC, CONFUSABLE, PLAIN, ADDED, "no link here"]


def _run(*args: str, input: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "-q", *args],
        input=input,
        capture_output=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )


def _report(lines: list[str], reject_risky: bool = True, backend: str = "linkify-it") -> dict:
    result = audit_chunk(ChunkTask("t.txt", 1, lines, backend, reject_risky))
    return merge([result], risks=reject_risky)


def test_vocabularies() -> None:
    assert "risky" in REASONS and REASONS["risky"].startswith("§8")
    assert tuple(RISKS) == RISK_CODES  # every code, in link_risks' order


def test_the_examples_as_the_auditor_sees_them() -> None:
    report = _report(LINES)
    rows = {(c["line"], c["kind"], c["reason"]): c for c in report["changes"]}
    paypal = rows[(1, "removed", "risky")]
    assert (paypal["before_text"], paypal["after"], paypal["risks"]) == ("pаypal.com", None, ["mixed-script"])
    moved = rows[(2, "start-moved", "risky")]
    assert (moved["before_text"], moved["after_text"], moved["risks"]) == (
        "ウェブサイトはexample.com",
        "example.com",
        ["ideographic-boundary"],
    )
    confusable = rows[(3, "removed", "risky")]
    assert (confusable["before_text"], confusable["risks"]) == ("ab@аррӏе.com", ["whole-script-confusable"])
    plain = rows[(4, "trimmed", "bracket-across-separator")]
    assert plain["risks"] == []  # every row has the key
    assert all("risks" in c for c in report["changes"])
    assert {c["line"] for c in report["changes"]} == {1, 2, 3, 4}  # the rejected added link is not listed
    # ... but counted: every refined link with a risk, listed or not.
    assert report["summary"]["risky"] == {
        "links": 4,
        "by_code": {"mixed-script": 2, "whole-script-confusable": 1, "ideographic-boundary": 1},
    }
    assert list(report["summary"])[-1] == "risky"


def test_the_after_side_is_detect_with_reject_risky() -> None:
    """The kept and moved links are those of detect(reject_risky=True); the links before are the backend's."""
    report = _report(LINES)
    s = report["summary"]
    assert s["links_after"] == sum(len(detect(line, reject_risky=True)) for line in LINES)
    assert s["links_before"] == sum(len(detect(line, refine=False)) for line in LINES)
    assert s["links_before"] == s["unchanged"] + sum(c["before"] is not None for c in report["changes"])
    assert s["links_after"] == s["unchanged"] + sum(c["after"] is not None for c in report["changes"])
    for c in report["changes"]:
        if c["after"] is not None:
            assert c["after_text"] in [link.text for link in detect(LINES[c["line"] - 1], reject_risky=True)]


def test_risks_are_the_refined_links_risks() -> None:
    for c in _report(LINES)["changes"]:
        refined = [link for link in detect(LINES[c["line"] - 1]) if c["before"] and link.original == tuple(c["before"])]
        expected = list(link_risks(refined[0])) if refined else []
        assert c["risks"] == expected, c


def test_without_reject_risky_nothing_changes() -> None:
    report = _report(LINES, reject_risky=False)
    assert "risky" not in report["summary"]
    assert all("risks" not in c for c in report["changes"])
    assert "risky" not in report["summary"]["by_reason"]
    assert any(c["before_text"] == "pаypal.com" for c in _report([PAYPAL], reject_risky=True)["changes"])
    assert not any(c["before_text"] == "pаypal.com" for c in report["changes"])  # unchanged: not listed


def test_streaming_merge_writes_what_merge_returns() -> None:
    tasks = [ChunkTask("a.txt", 1, LINES[:3], "linkify-it", True), ChunkTask("a.txt", 4, LINES[3:], "linkify-it", True)]
    with StreamingMerge("linkify-it", risks=True) as merged:
        for task in reversed(tasks):
            merged.add(audit_to_rows(task))
        streamed = b"".join(merged.json_chunks())
    assert json.loads(streamed) == merge([audit_chunk(t) for t in tasks], risks=True)
    assert streamed.decode("utf-8") == render(merge([audit_chunk(t) for t in tasks], risks=True), "json")


def test_tasks_carry_the_flag(tmp_path: Path) -> None:
    from uts58_adapt.report.runner import RangeTask, iter_report_tasks, read_range

    path = tmp_path / "a.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    for flag in (True, False):
        (chunk,) = iter_tasks([("a", str(path))], "linkify-it", problems=[], reject_risky=flag)
        assert chunk.reject_risky is flag
        for ranges in (True, False):
            (task,) = iter_report_tasks([str(path)], False, "linkify-it", ranges=ranges, reject_risky=flag)
            assert task.reject_risky is flag
            if isinstance(task, RangeTask):
                assert read_range(task).reject_risky is flag


def test_markdown_view() -> None:
    md = render(_report(LINES), "md")
    assert "| links with a §8 risk | 4 |" in md
    assert "| §8 risk | links | meaning |" in md
    assert "| mixed-script | 2 | " in md
    assert "| line:col | change | reason | before | after | risks |" in md
    assert "| 1:7 | removed | risky | " in md and md.split("| 1:7 | removed | risky | ")[1].split("\n")[0].endswith(
        "| mixed-script |"
    )
    plain = render(_report(LINES, reject_risky=False), "md")
    assert "risk" not in plain


def test_terminal_view() -> None:
    from uts58_adapt.report.render_text import render_text

    text = render_text(_report(LINES), 200)
    assert "4 links with a §8 risk (2 mixed-script, 1 whole-script-confusable, 1 ideographic-boundary)" in text
    assert "removed, risky (risks: mixed-script)" in text
    assert "risk" not in render_text(_report(LINES, reject_risky=False), 200)


def test_html_view() -> None:
    page = render(_report(LINES), "html")
    assert '<select id="risk-filter">' in page
    assert all(f'<option value="{code}">{code}</option>' in page for code in RISK_CODES)
    assert "<th>Risks (§8)</th>" in page and '<col class="risks">' in page
    assert '<td class="risks">mixed-script</td>' in page  # the rows without JavaScript
    data = json.loads(page.split('<script type="application/json" id="report-data">')[1].split("</script>")[0])
    assert [row[9] for row in data["rows"]] == [c["risks"] for c in _report(LINES)["changes"]]
    assert list(data["risks"]) == list(RISK_CODES)
    assert '<td>links with a §8 risk</td><td class="num">4</td>' in page
    plain = render(_report(LINES, reject_risky=False), "html")
    assert 'id="risk-filter"' not in plain and "Risks (§8)" not in plain and 'class="risks">' not in plain
    plain_data = json.loads(plain.split('id="report-data">')[1].split("</script>")[0])
    assert all(len(row) == 9 for row in plain_data["rows"]) and "risks" not in plain_data


def test_hostile_risk_cells_stay_text() -> None:
    """The risks cell holds codes only; the line around them is escaped as before."""
    line = "<img src=x onerror=alert(1)> pаypal.com/<b>"
    page = render(_report([line]), "html")
    assert "<img src=x" not in page and "<b>" not in page.split("</style>")[1].split("<script")[0]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """Several files, one longer than a task of the local engine (2,000 lines)."""
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "a.txt").write_text("\n".join(LINES) + "\n", encoding="utf-8")
    (root / "b.txt").write_text("\n".join(LINES * 500) + "\n", encoding="utf-8")
    (root / "c.txt").write_text("plain example.com/x.\n" + IDEOGRAPHIC + "\n", encoding="utf-8")
    return root


def test_cli_reject_risky_is_the_same_with_any_jobs(corpus: Path) -> None:
    one = _run(str(corpus), "--reject-risky", "--detect", "--jobs", "1", "--format", "json")
    two = _run(str(corpus), "--reject-risky", "--detect", "--jobs", "2", "--format", "json")
    assert one.returncode == two.returncode == 0, (one.stderr, two.stderr)
    assert one.stdout == two.stdout
    report = json.loads(one.stdout)
    assert report["summary"]["risky"]["links"] == 4 * 501 + 1
    assert report["summary"]["by_reason"]["risky"] == 3 * 501 + 1
    # stdin (lines read by the main process) gives the same rows as the file (byte ranges).
    piped = _run("-", "--reject-risky", "--detect", "--format", "json", input=(corpus / "a.txt").read_bytes())
    file = _run(str(corpus / "a.txt"), "--reject-risky", "--detect", "--format", "json")
    assert json.loads(piped.stdout)["changes"] == [
        {**c, "source": "<stdin>"} for c in json.loads(file.stdout)["changes"]
    ]


def test_cli_without_the_flag_is_unchanged(corpus: Path) -> None:
    proc = _run(str(corpus / "a.txt"), "--format", "json")
    report = json.loads(proc.stdout)
    assert "risky" not in report["summary"] and all("risks" not in c for c in report["changes"])


def test_cli_reject_risky_on_dask_is_the_same(corpus: Path) -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'uts58_adapt[dask]'")
    local = _run(str(corpus), "--reject-risky", "--detect", "--jobs", "1", "--format", "json")
    dask = _run(str(corpus), "--reject-risky", "--detect", "--engine", "dask", "--jobs", "2", "--format", "json")
    assert dask.returncode == 0, dask.stderr.decode()
    assert dask.stdout == local.stdout


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract", "bleach", "django", "jinja2", "mistune", "magiclink"])
def test_counts_add_up_with_every_backend(backend: str) -> None:
    """links_before and links_after are the unchanged links plus the listed changes' sides, with every backend."""
    from uts58_adapt.report.runner import sample_inputs

    try:
        from uts58_adapt.backends import get_backend

        get_backend(backend)
    except ImportError:
        pytest.skip(f"the {backend} extra is not installed")
    sample = Path(sample_inputs()[0][1]).read_text(encoding="utf-8").splitlines()
    lines = LINES + sample + [f"({line})" for line in LINES]
    report = _report(lines, backend=backend)
    s, changes = report["summary"], report["changes"]
    assert s["links_before"] == s["unchanged"] + sum(c["before"] is not None for c in changes)
    assert s["links_after"] == s["unchanged"] + sum(c["after"] is not None for c in changes)
    assert s["links_after"] == sum(len(detect(line, backend, reject_risky=True)) for line in lines)
    assert s["risky"]["links"] == sum(1 for line in lines for link in detect(line, backend) if link_risks(link))
    for c in changes:
        assert (c["reason"] == "risky") == (c["before"] is not None and bool(c["risks"]) and c["kind"] != "added"), c


def test_docs_list_the_reasons_and_codes() -> None:
    """docs/audit.md has a row for every reason (risky too), docs/security.md one for every code."""
    audit = (REPO / "docs" / "audit.md").read_text(encoding="utf-8")
    security = (REPO / "docs" / "security.md").read_text(encoding="utf-8")
    assert [reason for reason in REASONS if f"| `{reason}` |" not in audit] == []
    assert [code for code in RISK_CODES if f"| `{code}` |" not in security] == []


def test_risk_column_and_filter_in_a_browser(chromium_browser, tmp_path: Path) -> None:
    """What the auditor sees: the risks of each row, and the Risk filter and the search box on them."""
    path = tmp_path / "risks.html"
    path.write_text(render(_report(LINES), "html"), encoding="utf-8")
    page = chromium_browser.new_page(viewport={"width": 1300, "height": 900})
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")

        def visible() -> list[str]:
            return [row.query_selector("td.risks").inner_text() for row in page.query_selector_all("tr.change")]

        assert visible() == ["mixed-script", "ideographic-boundary", "whole-script-confusable", ""]
        assert page.inner_text("table.changes thead").split("\t")[-1].strip() == "Risks (§8)"
        page.select_option("#risk-filter", "*")
        assert visible() == ["mixed-script", "ideographic-boundary", "whole-script-confusable"]
        page.select_option("#risk-filter", "whole-script-confusable")
        assert visible() == ["whole-script-confusable"]
        page.select_option("#risk-filter", "bidi-control")
        assert visible() == [] and page.is_visible("#none-shown")
        page.select_option("#risk-filter", "")
        page.fill("#search", "ideographic")
        _wait = 0
        while len(visible()) != 1 and _wait < 200:
            page.wait_for_timeout(20)
            _wait += 1
        assert visible() == ["ideographic-boundary"]
    finally:
        page.close()
