#!/usr/bin/env python3
"""A fuzz campaign over the entry points that take untrusted text (issue 13).

Every target gets hypothesis-generated text: all planes, lone surrogates, Bidi_Control
characters, random schemes before host-like runs, brackets, ``@`` and the separators the
host stage knows.  A target must not raise, and every link it makes must have a scheme
the caller allowed:

- ``detect`` (linkify-it, urlextract): ``http://``, ``https://``, ``ftp://`` or ``mailto:``;
- ``linkify`` and ``linkify_html``: anchors only for http, https and mailto, none holding
  a Bidi_Control character or an unescaped ``<`` or ``"``;
- ``wrap(LinkifyIt())`` (``match``), ``wrap(URLExtract())`` (``find_urls``) and a
  markdown-it render with the wrapper: never a scheme the instance does not know;
- ``minimal_escape``: any ``str`` in, a ``str`` out.

Run ``python tools/fuzz.py --examples 100000`` (spread over the targets) or with a time
budget, ``--seconds 600``; the first failure stops the run with the input that caused it
(hypothesis shrinks it) and exit status 1.  ``tests/test_fuzz_campaign.py`` runs a short
version in the suite.  No network, no example database on disk.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(REPO))

import uts58_adapt  # noqa: E402  (after the sys.path line above)
from uts58_adapt.html import BIDI_CONTROLS  # noqa: E402

DETECT_SCHEMES = ("http://", "https://", "ftp://", "mailto:")
ANCHOR = re.compile(r'<a href="([^"]*)"[^>]*>(.*?)</a>', re.DOTALL)

SCHEMES = st.from_regex(r"\A[A-Za-z][A-Za-z0-9+.\-]{0,10}\Z") | st.sampled_from(
    ["javascript", "JavaScript", "vbscript", "data", "ms-msdt", "file", "http", "https", "ftp", "mailto"]
)
PIECES = st.sampled_from(
    [
        "example.com", "l·l", "xn--", "。", "．", "@", "/", "?", "#", ":~:", "(", ")", "[", "]", "<", ">",
        "{", "}", "「", "」", " ", "\n", ".", ",", "'", '"', "%", "%0a", "&", "=", "\u202e", "\u2066",
        "\u200f", "\u061c", "\ud800", "\udfff", "\x00", "αβ", "日本", "bücher", "localhost", "[::1]",
        "1.2.3.4", "www.", ".co", ".香港", "mailto:", "user@", "\U0001d51e", "\U00010a50", "\ufffd",
    ]
)  # fmt: skip
ANY_CHAR = st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)  # every plane, surrogates too


@st.composite
def hostile_text(draw: st.DrawFn) -> str:
    """Text mixing random code points, link-like pieces and ``scheme://`` prefixes."""
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        choice = draw(st.integers(0, 3))
        if choice == 0:
            parts.append(draw(st.text(ANY_CHAR, max_size=8)))
        elif choice == 1:
            parts.append(draw(SCHEMES) + draw(st.sampled_from(["://", ":", ":/", "://l·l"])))
        else:
            parts.append(draw(PIECES))
    return "".join(parts)


def _check_detect(text: str) -> None:
    for backend in ("linkify-it", "urlextract"):
        for link in uts58_adapt.detect(text, backend):
            assert link.href.lower().startswith(DETECT_SCHEMES), (backend, link)
            assert text[link.start : link.end] == link.text, (backend, link)


def _check_anchors(html: str) -> None:
    for href, shown in ANCHOR.findall(html):
        assert href.lower().startswith(("http://", "https://", "mailto:")), href
        assert not BIDI_CONTROLS.intersection(href + shown), (href, shown)
        assert "<" not in shown and '"' not in href, (href, shown)


def _check_linkify(text: str) -> None:
    _check_anchors(uts58_adapt.linkify(text))


def _check_linkify_html(text: str) -> None:
    _check_anchors(uts58_adapt.linkify_html(text))


_WRAPPED: dict[str, object] = {}


def _check_wrappers(text: str) -> None:
    if not _WRAPPED:
        from linkify_it import LinkifyIt
        from markdown_it import MarkdownIt
        from urlextract import URLExtract

        md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
        md.linkify = uts58_adapt.wrap(md.linkify)
        _WRAPPED.update(linkify=uts58_adapt.wrap(LinkifyIt()), urlextract=uts58_adapt.wrap(URLExtract()), md=md)
    linkify = _WRAPPED["linkify"]
    for m in linkify.match(text) or ():  # type: ignore[attr-defined]
        assert m.url.lower().startswith(("http://", "https://", "ftp://", "mailto:", "//")), m
    _WRAPPED["urlextract"].find_urls(text)  # type: ignore[attr-defined]
    _check_anchors_md(_WRAPPED["md"].render(text))  # type: ignore[attr-defined]


def _check_anchors_md(html: str) -> None:
    for href in re.findall(r'<a href="([^"]*)"', html):
        assert href.lower().startswith(("http://", "https://", "ftp://", "mailto:", "//")), href


def _check_minimal_escape(text: str) -> None:
    assert isinstance(uts58_adapt.minimal_escape(text), str)


TARGETS: dict[str, Callable[[str], None]] = {
    "detect": _check_detect,
    "linkify": _check_linkify,
    "linkify_html": _check_linkify_html,
    "wrappers": _check_wrappers,
    "minimal_escape": _check_minimal_escape,
}


def run_target(name: str, examples: int) -> int:
    """Run ``examples`` hypothesis examples against one target; return how many ran (raises on a failure)."""
    check = TARGETS[name]
    ran = 0

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(hostile_text() | st.text(ANY_CHAR, max_size=64))
    def target(text: str) -> None:
        nonlocal ran
        ran += 1
        check(text)

    target()
    return ran


def campaign(examples: int, seconds: float | None = None, batch: int = 1000) -> dict[str, int]:
    """Run about ``examples`` examples in all, spread over the targets in batches, until done or
    ``seconds`` have passed; return the examples run per target.  A failure raises."""
    per_target = dict.fromkeys(TARGETS, 0)
    goal = max(1, examples // len(TARGETS))
    start = time.monotonic()
    while any(n < goal for n in per_target.values()):
        for name in TARGETS:
            if per_target[name] < goal:
                per_target[name] += run_target(name, min(batch, goal - per_target[name]))
            if seconds is not None and time.monotonic() - start > seconds:
                return per_target
    return per_target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=100_000, help="examples in all (default 100000)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long (default: no limit)")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    start = time.monotonic()
    try:
        done = campaign(args.examples, args.seconds)
    except Exception as exc:  # the failing example is in hypothesis's report above
        print(f"fuzz: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    total = sum(done.values())
    print(", ".join(f"{name} {n}" for name, n in done.items()))
    print(f"fuzz: {total} examples, no failure, {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
