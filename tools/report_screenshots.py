#!/usr/bin/env python3
"""Screenshots of the HTML audit report for the docs (docs/audit.md, docs/audit-at-scale.md): docs/img/report-*.png.

Renders ``uts58-adapt report --sample`` as HTML and photographs it in a headless
Chromium through Playwright (the browser that the tests use: ``$UTS58_CHROMIUM``, else
one on PATH, else Playwright's own), 1280 px wide: the top of the page, and the list of
changes.  Beside them it writes ``report-screenshots.json``: the report's summary counts
(by kind, by reason) that the images show, which ``tests/test_newcomer.py`` compares with
today's report of the same corpus, so the images cannot silently grow stale.  Run it again
whenever the report's page or its counts change:

    python tools/report_screenshots.py            # rewrites docs/img/report-*.png and report-screenshots.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "img"
#: The images the docs show, and the file of the counts they show.
IMAGES = ("report-summary.png", "report-changes.png")
COUNTS = "report-screenshots.json"


def sample_counts(backend: str) -> dict[str, object]:
    """What the screenshots show: the backend, and the sample report's counts by kind and by reason."""
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "--sample", "--backend", backend, "-q", "--format", "json"],
        check=True, cwd=REPO, capture_output=True,
    )  # fmt: skip
    summary = json.loads(proc.stdout)["summary"]
    return {"backend": backend, "by_kind": summary["by_kind"], "by_reason": summary["by_reason"]}


BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="linkify-it", help="the backend audited (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=OUT, help="directory of the PNG files (default: docs/img)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("UTS58_CHROMIUM") or next(filter(None, map(shutil.which, BROWSERS)), None)
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "audit.html"
        subprocess.run(
            [sys.executable, "-m", "uts58_adapt.cli", "report", "--sample", "--backend", args.backend,
             "-q", "-o", str(page_file)],
            check=True, cwd=REPO,
        )  # fmt: skip
        args.out.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            if executable is None and os.path.isfile(p.chromium.executable_path):
                # Playwright's full Chromium: its headless shell (the default) may not be downloaded.
                executable = p.chromium.executable_path
            browser = p.chromium.launch(executable_path=executable, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.route(
                "**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_()
            )
            page.goto(page_file.as_uri())
            page.screenshot(path=str(args.out / IMAGES[0]))
            changes = page.locator("h2", has_text="Changes")
            if changes.count():
                changes.first.evaluate("e => e.scrollIntoView({block: 'start'})")
            else:
                page.evaluate("window.scrollBy(0, window.innerHeight)")
            # The first rows (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic lines of the sample):
            # a machine without CJK and Indic fonts shows the later ones as boxes.
            page.set_viewport_size({"width": 1280, "height": 560})
            page.screenshot(path=str(args.out / IMAGES[1]))
            browser.close()
    counts = json.dumps(sample_counts(args.backend), indent=2, sort_keys=True) + "\n"
    (args.out / COUNTS).write_text(counts, encoding="utf-8")
    for name in (*IMAGES, COUNTS):
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
