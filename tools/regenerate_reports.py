#!/usr/bin/env python3
"""Regenerate the compatibility reports in ``compat_reports/`` (or check that they are current).

    python tools/regenerate_reports.py            # rewrite the stale ones
    python tools/regenerate_reports.py --check    # exit 1 if any is stale, write nothing

Each report is exactly what ``uts58-adapt report --sample --backend B --format F`` prints:
the bundled sample corpus audited with each backend, as Markdown and as JSON.
``tests/test_compat_reports.py`` fails when a committed report differs from this output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

OUT_DIR = REPO / "compat_reports"
BACKENDS = ("linkify-it", "urlextract", "bleach", "django", "jinja2", "mistune", "magiclink")
FORMATS = ("md", "json")


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def report_files() -> list[tuple[str, str, Path]]:
    """``(backend, format, path)`` of every committed report."""
    return [(b, f, OUT_DIR / f"{b}.{f}") for b in BACKENDS for f in FORMATS]


def build(backend: str, fmt: str) -> bytes:
    """The bytes of one report, as the CLI writes them (one process, so it is quick)."""
    from uts58_adapt.report import merge, render
    from uts58_adapt.report.runner import iter_tasks, map_local, resolve_inputs

    problems: list[str] = []
    tasks = iter_tasks(resolve_inputs([], True, problems), backend, problems=problems)
    results = map_local(tasks, jobs=1)
    if problems:
        raise RuntimeError("; ".join(problems))
    return render(merge(results, backend=backend), fmt).encode("utf-8", "replace")


def stale() -> list[Path]:
    """The reports whose committed bytes differ from a fresh build."""
    out = []
    for backend, fmt, path in report_files():
        if not path.is_file() or path.read_bytes() != build(backend, fmt):
            out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 when a report is stale")
    args = parser.parse_args(argv)
    if args.check:
        paths = stale()
        for path in paths:
            print(f"stale: {_shown(path)}", file=sys.stderr)
        if paths:
            print("run: python tools/regenerate_reports.py", file=sys.stderr)
        return 1 if paths else 0
    from uts58_adapt.commands.report import write_atomic

    OUT_DIR.mkdir(exist_ok=True)
    for backend, fmt, path in report_files():
        data = build(backend, fmt)
        if path.is_file() and path.read_bytes() == data:
            print(f"unchanged: {_shown(path)}")
            continue
        write_atomic(str(path), data)
        print(f"written:   {_shown(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
