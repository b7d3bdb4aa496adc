#!/usr/bin/env python3
"""Screenshots of the HTML audit report for the docs (docs/audit.md): docs/images/report-*.png.

Renders ``uts58-adapt report --sample`` as HTML and photographs it in a headless
Chromium through Playwright (the browser that the tests use: ``$UTS58_CHROMIUM``, else
one on PATH, else Playwright's own), 1280 px wide: the top of the page, and the list of
changes filtered to one reason.  Run it again whenever the report's page changes:

    python tools/report_screenshots.py            # rewrites docs/images/report-*.png
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "images"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="linkify-it", help="the backend audited (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=OUT, help="directory of the PNG files (default: docs/images)")
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
            browser = p.chromium.launch(executable_path=executable, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.route(
                "**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_()
            )
            page.goto(page_file.as_uri())
            page.screenshot(path=str(args.out / "report-top.png"))
            changes = page.locator("h2", has_text="Changes")
            if changes.count():
                changes.first.evaluate("e => e.scrollIntoView({block: 'start'})")
            else:
                page.evaluate("window.scrollBy(0, window.innerHeight)")
            # The first rows (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic lines of the sample):
            # a machine without CJK and Indic fonts shows the later ones as boxes.
            page.set_viewport_size({"width": 1280, "height": 560})
            page.screenshot(path=str(args.out / "report-changes.png"))
            browser.close()
    for name in ("report-top.png", "report-changes.png"):
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
