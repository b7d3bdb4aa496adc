#!/usr/bin/env python3
"""Regenerate the compatibility reports in ``compat_reports/`` (or check that they are current).

    python tools/regenerate_reports.py            # rewrite the stale ones
    python tools/regenerate_reports.py --check    # exit 1 if any is stale, write nothing

Each report is exactly what ``uts58-adapt report --sample --backend B --format F`` prints:
the bundled sample corpus audited with each backend, as Markdown and as JSON.
``tests/test_compat_reports.py`` fails when a committed report differs from this output.

Every report is built before any is written.  When a dependency is missing, a line
fails (the report's ``problems``: detection raised on a line) or the audit finds no link
at all, the tool names the cause on stderr, writes nothing and exits 2; the committed
reports stay as they are.  ``--check`` names what differs in each stale report.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

OUT_DIR = REPO / "compat_reports"
BACKENDS = ("linkify-it", "urlextract", "bleach", "django", "jinja2", "mistune", "magiclink")
FORMATS = ("md", "json")
#: Modules the audit needs, with the distribution that provides each (pyproject.toml).
REQUIRED_MODULES = {
    "idna": "idna",
    "tldextract": "tldextract",
    "linkify_it": "linkify-it-py",
    "urlextract": "urlextract",
    "tqdm": "tqdm",
}
#: How much of a differing line ``--check`` shows.
SHOWN = 100


class RegenerationError(RuntimeError):
    """A report could not be built; the message names the cause."""


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def report_files() -> list[tuple[str, str, Path]]:
    """``(backend, format, path)`` of every committed report."""
    return [(b, f, OUT_DIR / f"{b}.{f}") for b in BACKENDS for f in FORMATS]


def check_dependencies() -> None:
    """Raise :class:`RegenerationError` naming every module this Python cannot import."""
    missing = []
    for module, distribution in REQUIRED_MODULES.items():
        try:
            importlib.import_module(module)
        except ImportError as exc:
            missing.append(f"{module} (pip install {distribution}: {exc})")
    if missing:
        raise RegenerationError(
            f"{sys.executable} lacks dependencies of uts58_adapt: {'; '.join(missing)}. "
            "Run the tool with the project's environment, e.g. .venv/bin/python tools/regenerate_reports.py "
            "after pip install -e ."
        )


def build(backend: str, fmt: str) -> bytes:
    """The bytes of one report, as the CLI writes them (one process, so it is quick).

    Raises :class:`RegenerationError` when a dependency is missing, an input cannot be
    read, a chunk has failures, or no link is found at all (the sample has many).
    """
    check_dependencies()
    data, stderr = _cli(backend, "json")
    if not data:
        raise RegenerationError(f"{backend}: " + (stderr.strip() or "no report"))
    report = json.loads(data)
    problems = report.get("problems") or []
    failures = [p for p in problems if ": detect failed: " in p]
    if failures:
        raise RegenerationError(
            f"{backend}: detection failed on {len(failures)} line(s) of the sample corpus; first: {failures[0]}"
        )
    if problems:
        raise RegenerationError(f"{backend}: " + "; ".join(problems))
    s = report["summary"]
    if s["links_before"] + s["links_after"] == 0:
        raise RegenerationError(f"{backend}: the sample corpus gave no link at all; the backend is not working")
    return data if fmt == "json" else _cli(backend, fmt)[0]


def _cli(backend: str, fmt: str) -> tuple[bytes, str]:
    """What ``uts58-adapt report --sample --backend BACKEND --format FMT`` writes (in this process),
    and its stderr; empty bytes when it writes nothing."""
    import contextlib
    import io
    import tempfile

    from uts58_adapt.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"report.{fmt}"
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            main(["report", "--sample", "--backend", backend, "--format", fmt, "--quiet", "-o", str(out)])
        return (out.read_bytes() if out.is_file() else b""), err.getvalue()


def difference(committed: bytes | None, fresh: bytes) -> str:
    """Why a committed report is stale: missing, or its first differing line, both versions shown."""
    if committed is None:
        return "missing"
    old = committed.decode("utf-8", "replace").splitlines()
    new = fresh.decode("utf-8", "replace").splitlines()
    for number, (a, b) in enumerate(zip(old, new), 1):
        if a != b:
            return f"line {number} differs:\n    committed: {a[:SHOWN]}\n    fresh:     {b[:SHOWN]}"
    if len(old) != len(new):
        return f"{len(old)} lines committed, {len(new)} in a fresh build"
    return "line endings or the final newline differ"


def stale() -> list[Path]:
    """The reports whose committed bytes differ from a fresh build (raises RegenerationError)."""
    return [path for path, _ in stale_reasons()]


def stale_reasons() -> list[tuple[Path, str]]:
    """``(path, why)`` of every stale report (raises RegenerationError when one cannot be built)."""
    out = []
    for backend, fmt, path in report_files():
        fresh = build(backend, fmt)
        committed = path.read_bytes() if path.is_file() else None
        if committed != fresh:
            out.append((path, difference(committed, fresh)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 when a report is stale")
    args = parser.parse_args(argv)
    try:
        if args.check:
            reasons = stale_reasons()
            for path, why in reasons:
                print(f"stale: {_shown(path)}: {why}", file=sys.stderr)
            if reasons:
                print("run: python tools/regenerate_reports.py", file=sys.stderr)
            return 1 if reasons else 0
        built = [(path, build(backend, fmt)) for backend, fmt, path in report_files()]
    except RegenerationError as exc:
        action = "cannot check the reports" if args.check else "no report written"
        print(f"regenerate_reports: {action}: {exc}", file=sys.stderr)
        return 2
    from uts58_adapt.commands.report import write_atomic

    OUT_DIR.mkdir(exist_ok=True)
    for path, data in built:
        if path.is_file() and path.read_bytes() == data:
            print(f"unchanged: {_shown(path)}")
            continue
        write_atomic(str(path), data)
        print(f"written:   {_shown(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
