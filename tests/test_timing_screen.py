"""Timing screen (issue 32): every entry point against the library it upgrades, on repetitive shapes.

Each entry point is timed with its raw library on the same texts: repetitive units
(``repeated``, as in tests/test_linear_time.py) sized just past each window and chunk
boundary the code uses (512, 1,024, 2,048 and 4,096 code points: ``_windows.WINDOW`` and
its half, ``integrations._common.WINDOW``), plus the outside campaign's reproducers.  It
fails when the wrapped path is

- more than ``RATIO`` times slower than the library on one text (both times floored at
  ``FLOOR``: below it a time is the cost of a call, not of the text), or
- super-linear where the library is not: from the 2,048 size to the 4,096 one (twice the
  text; the smaller sizes straddle the step from one call to windows) its time grows by
  more than ``GROWTH`` and by more than 1.5 times the library's.

Each entry point runs in a subprocess with a time limit (``LIMIT``), so a hang fails
the test at once instead of stopping the suite.  Times are CPU times of that process, the
best of ``REPEATS`` runs; the shapes found slow are screened again, the best of
``CONFIRM_REPEATS`` runs, and fail only when found slow again (a timing near ``FLOOR`` on
a shared machine can be noise; a slow shape is slow both times).  Marked ``slow``
(tests/conftest.py); about a minute and a half on 2 cores.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from test_linear_time import repeated

from conftest import INTEGRATION_MODULES

RATIO = 10.0
FLOOR = 0.001  # seconds
GROWTH = 3.2  # linear time doubles with the text, quadratic time grows 4x
REPEATS = 2
#: Runs per text when a second screen confirms the shapes the first found slow.
CONFIRM_REPEATS = 5
LIMIT = 90  # seconds per entry point (all its shapes)

#: The window and chunk boundaries of the code (code points).
SIZES = (512, 1024, 2048, 4096)

UNITS = [
    "xn--a.",
    "xn--80ak6aa92e.",
    "a.",
    "x.co/(",
    "x.co/[",
    "x.com/αβ(γ",
    "a@",
    "a@b.co.x.com@",
    "a.com,",
    "http://a.co/x>",
    "see a.co ",
    "a-",
    "。a",
    "example。com/",
    "(",
    "&amp;",
    "<b>",
    "<p>x.com</p>",
    "<li>see www.a.com ok</li>\n",
    "**a.co**",
]
UNIT_SHAPES = repeated(*UNITS)

#: The outside campaign's reproducers (issue 32, item 1) and their variants, as they are.
FIXED = {
    "xn--a. * 200 + com": "xn--a." * 200 + "com",
    "see xn--80ak6aa92e. * 69 + com now": "see " + "xn--80ak6aa92e." * 69 + "com now",
    "http:// + xn--80ak6aa92e. * 69": "http://" + "xn--80ak6aa92e." * 69 + "com",
    "a@ + xn--80ak6aa92e. * 69": "a@" + "xn--80ak6aa92e." * 69 + "com",
    "/path + xn--80ak6aa92e. * 69": "x.com/path/" + "xn--80ak6aa92e." * 69 + "com/x",
}


def shapes() -> dict[str, list[str]]:
    """Each shape's texts, smallest first: one text per size of ``SIZES`` (just past it)."""
    out: dict[str, list[str]] = {}
    for name, build in UNIT_SHAPES.items():
        unit = len(build(1))
        out[name] = [build(size // unit + 1) for size in SIZES]
    for name, text in FIXED.items():
        out[name] = [text]
    return out


# --- Entry points: (wrapped, library alone), built in the subprocess ----------------------------

Call = Callable[[str], object]


def _linkify_it() -> Call:
    from linkify_it import LinkifyIt

    return LinkifyIt().match


def _urlextract() -> Call:
    from urlextract import URLExtract

    extractor = URLExtract()
    return lambda t: extractor.find_urls(t, get_indices=True)


def _wrap_linkify_it() -> tuple[Call, Call]:
    from linkify_it import LinkifyIt

    import uts58_adapt

    return uts58_adapt.wrap(LinkifyIt()).match, _linkify_it()


def _wrap_urlextract() -> tuple[Call, Call]:
    from urlextract import URLExtract

    import uts58_adapt

    wrapped = uts58_adapt.wrap(URLExtract())
    return (lambda t: wrapped.find_urls(t, get_indices=True)), _urlextract()


def _detect(backend: str, raw: Callable[[], Call]) -> Callable[[], tuple[Call, Call]]:
    def make() -> tuple[Call, Call]:
        from uts58_adapt import detect

        return (lambda t: detect(t, backend=backend)), raw()

    return make


def _linkify() -> tuple[Call, Call]:
    from uts58_adapt import linkify

    return linkify, _linkify_it()


def _linkify_html() -> tuple[Call, Call]:
    from uts58_adapt import linkify_html

    return linkify_html, _linkify_it()


def _markdown_it() -> tuple[Call, Call]:
    from markdown_it import MarkdownIt

    import uts58_adapt

    alone = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    upgraded = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    upgraded.linkify = uts58_adapt.wrap(upgraded.linkify)
    return upgraded.render, alone.render


def _bleach() -> tuple[Call, Call]:
    from bleach.linkifier import Linker

    import uts58_adapt

    return uts58_adapt.wrap(Linker()).linkify, Linker().linkify


def _django() -> tuple[Call, Call]:
    from django.utils.html import urlize as django_urlize

    from uts58_adapt.integrations.django import urlize

    return (lambda t: urlize(t, autoescape=True)), (lambda t: django_urlize(t, autoescape=True))


def _jinja2() -> tuple[Call, Call]:
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    alone = Environment(autoescape=True).from_string("{{ v|urlize }}")
    env = Environment(autoescape=True)
    install(env)
    upgraded = env.from_string("{{ v|urlize }}")
    return (lambda t: upgraded.render(v=t)), (lambda t: alone.render(v=t))


def _django_safe() -> tuple[Call, Call]:
    from django.utils.html import urlize as django_urlize
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    return (lambda t: urlize(mark_safe(t))), (lambda t: django_urlize(mark_safe(t)))


def _jinja2_safe() -> tuple[Call, Call]:
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    alone = Environment(autoescape=True).from_string("{{ v|safe|urlize }}")
    env = Environment(autoescape=True)
    install(env)
    upgraded = env.from_string("{{ v|safe|urlize }}")
    return (lambda t: upgraded.render(v=t)), (lambda t: alone.render(v=t))


def _mistune() -> tuple[Call, Call]:
    import mistune

    from uts58_adapt.integrations import mistune as integration

    return mistune.create_markdown(plugins=[integration.url]), mistune.create_markdown(plugins=["url"])


def _magiclink() -> tuple[Call, Call]:
    import markdown

    upgraded = markdown.Markdown(extensions=["uts58_adapt.integrations.magiclink"])
    alone = markdown.Markdown(extensions=["pymdownx.magiclink"])
    return (lambda t: upgraded.reset().convert(t)), (lambda t: alone.reset().convert(t))


def _marko() -> tuple[Call, Call]:
    import marko

    upgraded = marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"])
    return upgraded.convert, marko.Markdown(extensions=["gfm"]).convert


ENTRY_POINTS: dict[str, Callable[[], tuple[Call, Call]]] = {
    "wrap linkify-it": _wrap_linkify_it,
    "wrap urlextract": _wrap_urlextract,
    "detect linkify-it": _detect("linkify-it", _linkify_it),
    "detect urlextract": _detect("urlextract", _urlextract),
    "linkify": _linkify,
    "linkify_html": _linkify_html,
    "markdown-it": _markdown_it,
    "bleach": _bleach,
    "django": _django,
    "jinja2": _jinja2,
    "django safe": _django_safe,
    "jinja2 safe": _jinja2_safe,
    "mistune": _mistune,
    "magiclink": _magiclink,
    "marko": _marko,
}
#: Slow shapes found by the screen and not fixed yet: (entry point, shape) -> why.  Such a
#: shape is reported as an expected failure (xfail), never hidden; the others still fail.
KNOWN: dict[tuple[str, str], str] = {}
_MODULES = {**INTEGRATION_MODULES, "django safe": "django", "jinja2 safe": "jinja2"}


def _best(fn: Call, text: str, repeats: int = REPEATS) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn(text)
        best = min(best, time.process_time() - t0)
    return best


def screen(name: str, only: list[str] | None = None, repeats: int = REPEATS) -> dict[str, list[list[float]]]:
    """``{shape: [[wrapped, library] seconds, per size]}`` for one entry point (run in the subprocess):
    every shape, or the shapes ``only``, each text timed ``repeats`` times."""
    if name in ("django", "django safe"):
        from django.conf import settings

        if not settings.configured:
            settings.configure()
    wrapped, alone = ENTRY_POINTS[name]()
    wrapped("see a.co ok"), alone("see a.co ok")  # warm-up: lazily built tables
    return {
        shape: [[_best(wrapped, t, repeats), _best(alone, t, repeats)] for t in texts]
        for shape, texts in shapes().items()
        if only is None or shape in only
    }


def _screened(name: str, only: list[str] | None = None, repeats: int = REPEATS) -> dict[str, list[list[float]]]:
    """:func:`screen` in a subprocess (a hang fails the test after ``LIMIT`` seconds)."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    script = f"import json, test_timing_screen as s; print(json.dumps(s.screen({name!r}, {only!r}, {repeats!r})))"
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=LIMIT
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: the screen ran past {LIMIT} s (a hang on one of the shapes)")
    assert done.returncode == 0, done.stderr[-3000:]
    results: dict[str, list[list[float]]] = json.loads(done.stdout.strip().splitlines()[-1])
    return results


def slow_shapes(results: dict[str, list[list[float]]]) -> dict[str, list[str]]:
    """``{shape: [why]}`` for each shape of a screen's ``results`` where the wrapped path is too slow."""
    texts = shapes()
    out: dict[str, list[str]] = {}
    for shape, times in results.items():
        found = []
        for (w, lib), text in zip(times, texts[shape], strict=True):
            if max(w, FLOOR) > RATIO * max(lib, FLOOR):
                found.append(f"{shape} ({len(text)} cp): {w:.4f} s against {lib:.4f} s")
        if len(times) > 1:
            grown = max(times[-1][0], FLOOR) / max(times[-2][0], FLOOR)
            library = max(times[-1][1], FLOOR) / max(times[-2][1], FLOOR)
            if grown > GROWTH and grown > 1.5 * library:
                found.append(f"{shape}: grows {grown:.1f}x over 2x the text, the library {library:.1f}x")
        if found:
            out[shape] = found
    return out


def test_at_least_fifty_shapes_straddle_the_boundaries() -> None:
    texts = [t for ts in shapes().values() for t in ts]
    assert len(texts) >= 50
    for size in SIZES:
        assert any(size < len(t) <= size + 16 for t in texts)


def test_a_slow_shape_is_found() -> None:
    """The checks on made-up times: 11x the library, and quadratic growth where the library doubles."""
    texts = shapes()["a@ * n"]
    fast = [[0.002 * 2**k, 0.002 * 2**k] for k in range(len(texts))]
    assert slow_shapes({"a@ * n": fast}) == {}
    ratio = [[0.022, 0.002]] + fast[1:]
    assert list(slow_shapes({"a@ * n": ratio})) == ["a@ * n"]
    quadratic = fast[:-1] + [[fast[-2][0] * 4, fast[-1][1]]]
    assert "grows 4.0x" in slow_shapes({"a@ * n": quadratic})["a@ * n"][0]


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_entry_point_is_no_slower_than_its_library(name: str) -> None:
    module = _MODULES.get(name)
    if module:
        pytest.importorskip(module)
    found = slow_shapes(_screened(name))
    if found:
        # Confirmed by a second screen of those shapes, with more runs per text: on a shared
        # machine one timing near FLOOR can be noise, a slow shape is slow both times.
        found = slow_shapes(_screened(name, sorted(found), CONFIRM_REPEATS))
    slow = [why for shape, whys in found.items() if (name, shape) not in KNOWN for why in whys]
    known = [why for shape, whys in found.items() if (name, shape) in KNOWN for why in whys]
    assert not slow, f"{name}: " + "; ".join(slow)
    if known:
        pytest.xfail(f"{name}, known: " + "; ".join(known))
