"""Linear time on adversarial inputs: doubling ratios, never absolute times.

For each (function, input shape) the size ``n`` is doubled until one run takes at
least ``TARGET / 2`` seconds (or the text reaches ``MAX_CHARS / 2`` code points).  The
function is then timed at four consecutive sizes, ``n/4, n/2, n, 2n`` (runs interleaved,
the minimum of ``REPEATS`` runs at each), which gives three doubling ratios
``time(2m) / time(m)``; their median is asserted to be ``< LIMIT``.  Linear code gives
about 2, quadratic code about 4.  Times are CPU times of this process
(``time.process_time``), so other processes on the machine do not count.  A cache step,
a noisy neighbour or a page-fault storm can still inflate one measurement: the median
drops one bad ratio, and a median over the limit is measured again, up to ``RETRIES``
times, each time at the next size up (within ``MAX_CHARS``) with ``RETRY_REPEATS`` runs,
the smallest median being asserted.  (A shared CI machine once gave 2.73 twice in a row at
the same size for code that measures 1.95-2.07 here.)  Quadratic code is over the limit at
every size, so it fails every time (``test_doubling_ratio_detects_quadratic_code``).  The
garbage collector is off while a call is timed (as in ``timeit``), so a collection
cannot land in one run and not the other.

Shapes where a backend itself (not the adapter) is quadratic are marked
``xfail(strict=True)`` with the place in the backend's code: the test still
measures them, and fails (XPASS) if the behaviour goes away, e.g. once the adapter
guards against it.
"""

from __future__ import annotations

import gc
import itertools
import statistics
import time
from collections.abc import Callable

import pytest

from uts58_adapt import email_start, terminate

LIMIT = 2.6
TARGET = 0.04  # seconds: a run at size n takes TARGET/2 to ~TARGET (less at the MAX_CHARS cap)
REPEATS = 3
RETRIES = 2
RETRY_REPEATS = 5
MAX_CHARS = 1 << 21  # the longest text timed (code points): 2 M, a sane range for memory and caches
FLOOR = 1e-4  # seconds; see _ratios

Builder = Callable[[int], str]


def _times(unit: str) -> Builder:
    return lambda n: unit * n


def repeated(*units: str) -> dict[str, Builder]:
    """The shapes ``unit * n``, each named after its unit (quoted where it holds a space)."""
    return {(f"'{unit}'" if " " in unit else unit) + " * n": _times(unit) for unit in units}


def _time(fn: Callable[[str], object], text: str) -> float:
    """CPU time of one call: other processes competing for the cores do not count."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.process_time()
        fn(text)
        return time.process_time() - t0
    finally:
        gc.enable()


def _ratios(fn: Callable[[str], object], build: Builder, n: int, repeats: int) -> list[float]:
    """The doubling ratios ``time(2m) / time(m)`` for ``m`` in ``n/4, n/2, n``."""
    texts = [build(m) for m in (n // 4, n // 2, n, 2 * n)]
    best = [float("inf")] * len(texts)
    for _ in range(repeats):  # interleaved, so a slow spell hits every size
        for k, text in enumerate(texts):
            best[k] = min(best[k], _time(fn, text))
    # Below the floor a time is clock noise: a function that is still that fast at the cap
    # (e.g. one that stops early) counts as constant time.
    floored = [max(t, FLOOR) for t in best]
    return [b / a for a, b in itertools.pairwise(floored)]


def doubling_ratio(fn: Callable[[str], object], build: Builder, min_chars: int = 0) -> tuple[int, float]:
    """Return ``(n, ratio)``: the calibrated size and the median doubling ratio around it.

    ``min_chars`` is the shortest text measured (the smallest of the four sizes): code
    that is linear only beyond a bound (a backend run on windows of bounded length) is
    measured beyond it.
    """
    fn(build(4))  # warm-up: lazily built tables and compiled patterns
    n = 12  # (sizes 12 * 2**k: less overshoot above min_chars than 16 * 2**k for most shapes)
    while len(build(n // 4)) < min_chars and len(build(2 * n)) <= MAX_CHARS:
        n *= 2
    while len(build(4 * n)) <= MAX_CHARS and _time(fn, build(n)) < TARGET / 2:
        n *= 2
    ratio = statistics.median(_ratios(fn, build, n, REPEATS))
    for _ in range(RETRIES):
        if ratio < LIMIT:
            break
        # One slow spell per ratio is already dropped by the median; a new measurement at
        # another size, with more repeats, drops a longer one or a cache step at one size.
        # Quadratic code is over the limit at every size.
        if len(build(4 * n)) <= MAX_CHARS:
            n *= 2
        ratio = min(ratio, statistics.median(_ratios(fn, build, n, RETRY_REPEATS)))
    return n, ratio


def check_linear(fn: Callable[[str], object], build: Builder, min_chars: int = 0) -> None:
    n, ratio = doubling_ratio(fn, build, min_chars)
    assert ratio < LIMIT, f"median time(2m)/time(m) = {ratio:.2f} around n={n} (linear ~2, quadratic ~4)"


# ---------------------------------------------------------------------------
# Shapes (the brief's list, plus shapes aimed at each function's loops)
# ---------------------------------------------------------------------------
DETECT_SHAPES: dict[str, Builder] = {
    **repeated("a@", "see a.co "),
    "x.com/ + ( * n": lambda n: "x.com/" + "(" * n,
    "x.com/a + . * n + b": lambda n: "x.com/a" + "." * n + "b",
    "mixed brackets": lambda n: "x.com/" + "([{<a" * n + ">}])" * n + " " + "(]a[)" * n,
    "emails and domains": lambda n: "a@b.com x.co mailto:c.d@e.org, https://f.net/g " * n,
    "long Soft run": lambda n: "see x.com/a" + ".,;:!?'\"。」" * n + " b",
    "a. * n + @x.com": lambda n: "a." * n + "@x.com",
}

# Each backend alone is quadratic on some long runs of text without white space.
# urlextract 1.10.0, on a run without any of its stop characters that holds many TLD
# matches: URLExtract.gen_urls (urlextract_core.py:862) calls _complete_url (line 455) for
# each TLD match, which walks to the nearest stop character (the whole run), so k matches
# in a run of length L cost O(k*L).  linkify-it-py 2.2, on a run of fuzzy links each with
# an unclosed bracket in its path: LinkifyIt.match (main.py:518) runs one finditer of its
# fuzzy-link regex, whose path part (``src_path``) looks for the closing bracket to the
# end of the run at every link (issue 13, point 5).  The adapter gives both backends long
# texts in bounded windows (backends/_windows.py), which makes detection linear; these
# shapes check that, on texts of at least two windows (below one window the run is handed
# to the backend whole, and its cost grows quadratically up to that bound; from two on,
# the number of windows doubles with the text).
BACKEND_QUADRATIC_SHAPES: dict[str, Builder] = {
    "a@b.co.x.com@ * n (no space)": lambda n: "a@b.co.x.com@" * n,
    "a.com, * n (comma list, no space)": lambda n: "a.com," * n,
    **repeated("x.co/(", "x.co/[", "x.co/{", "x.com/αβ(γ"),
}


def _detect(backend: str, refine: bool) -> Callable[[str], object]:
    from uts58_adapt import detect

    return lambda text: detect(text, backend=backend, refine=refine)


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
@pytest.mark.parametrize("shape", list(DETECT_SHAPES))
def test_detect_linear(backend: str, shape: str) -> None:
    check_linear(_detect(backend, True), DETECT_SHAPES[shape])


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
@pytest.mark.parametrize("shape", list(BACKEND_QUADRATIC_SHAPES))
def test_detect_linear_on_long_tokens(backend: str, shape: str) -> None:
    from uts58_adapt.backends._windows import WINDOW

    check_linear(_detect(backend, True), BACKEND_QUADRATIC_SHAPES[shape], min_chars=2 * WINDOW)


# linkify-it's find() is the windowed pass too, so the unrefined view (detect(refine=False),
# the audit's "before") is linear on its quadratic shapes.  urlextract's find() is the
# library as it is (its search is not local): not covered here.
@pytest.mark.parametrize("shape", ["x.co/( * n", "x.co/[ * n", "x.com/αβ(γ * n"])
def test_detect_unrefined_linear_with_linkify_it(shape: str) -> None:
    from uts58_adapt.backends._windows import WINDOW

    check_linear(_detect("linkify-it", False), BACKEND_QUADRATIC_SHAPES[shape], min_chars=2 * WINDOW)


# The HTML and markdown-it entry points on the same shapes, plus the one the wrapper's
# ``match_at_start`` met: markdown-it calls it with the rest of the paragraph at every
# ``://``, and ``_window_end`` used to walk to the next Hard character (none here).
RENDER_SHAPES: dict[str, Builder] = repeated("http://a.co/x>", "x.co/(", "x.com/αβ(γ", "see a.co ")


@pytest.mark.parametrize("shape", list(RENDER_SHAPES))
def test_linkify_html_linear(shape: str) -> None:
    from uts58_adapt import linkify
    from uts58_adapt.backends._windows import WINDOW

    check_linear(linkify, RENDER_SHAPES[shape], min_chars=2 * WINDOW)


def _markdown_it_render() -> Callable[[str], object]:
    from markdown_it import MarkdownIt

    import uts58_adapt

    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = uts58_adapt.wrap(md.linkify)
    return md.render


# markdown-it's core linkify rule hands each text token (a whole paragraph) to the
# wrapper's test() and match(): LinkifyItWrapper._windowed_matches bounds what linkify-it
# is given in one call, so its own quadratic path regex cannot show here.
@pytest.mark.parametrize("shape", list(RENDER_SHAPES))
def test_markdown_it_render_linear(shape: str) -> None:
    from uts58_adapt.backends._windows import WINDOW

    check_linear(_markdown_it_render(), RENDER_SHAPES[shape], min_chars=2 * WINDOW)


TERMINATE_SHAPES: dict[str, Builder] = {
    "( * n (stack limit)": lambda n: "x.com/" + "(" * n,
    "(a) * n": lambda n: "x.com/" + "(a)" * n,
    "mixed brackets": lambda n: "x.com/" + "([{<a>}])「x」" * n,
    "a + . * n + b": lambda n: "x.com/a" + "." * n + "b",
    "a. * n": lambda n: "x.com/" + "a." * n,
    "Soft run": lambda n: "x.com/a" + ".,;:!?'\"。" * n + "b",
    "structural": lambda n: "x.com/" + "a/b?c=d&e(f)#g:~:h,i&(j)" * n,
    "astral": lambda n: "x.com/" + "\U00010000\U0001f600." * n + "b",
}


@pytest.mark.parametrize("shape", list(TERMINATE_SHAPES))
def test_terminate_linear(shape: str) -> None:
    check_linear(lambda text: terminate(text, 5), TERMINATE_SHAPES[shape])


EMAIL_SHAPES: dict[str, Builder] = {
    **repeated("a@"),
    "a. * n + @x.com": lambda n: "a." * n + "@x.com",
    "emails and domains": lambda n: "a.b@c.com x.co " * n,
    "no space": lambda n: "a@b.co.x.com@" * n,
    "long local part, many @": lambda n: "a" * n + "@" * n,
}


def _email_starts(text: str) -> None:
    """email_start at every '@' of a line, as a detector does."""
    at = text.find("@")
    while at != -1:
        email_start(text, at)
        at = text.find("@", at + 1)


@pytest.mark.parametrize("shape", list(EMAIL_SHAPES))
def test_email_start_linear(shape: str) -> None:
    check_linear(_email_starts, EMAIL_SHAPES[shape])


ESCAPE_SHAPES: dict[str, Builder] = {
    "encoded path": lambda n: "https://example.com/" + "%CE%B1%2E" * n,
    "trailing Soft": lambda n: "https://example.com/a" + "." * n,
    "brackets": lambda n: "https://example.com/" + "(" * n + "a" + ")" * n,
    "query": lambda n: "https://example.com/?" + "a=%26&b=%3D" * n + "#f.",
    "fragment directive": lambda n: "https://example.com/#a:~:text=" + "x,-y&" * n,
    # the ASCII shortcut's regex failing late: after a long run, at a bracket, at a final
    # Soft run, at a colon after upper-case letters
    "ASCII then bracket": lambda n: "https://example.com/" + "a" * (4 * n) + "(",
    "ASCII Soft run": lambda n: "example.com/a" + "a." * (2 * n),
    "upper case before a colon": lambda n: "X" * (2 * n) + ":" + "b" * (2 * n) + "[",
}


@pytest.mark.parametrize("shape", list(ESCAPE_SHAPES))
def test_minimal_escape_linear(shape: str) -> None:
    from uts58_adapt import minimal_escape

    check_linear(minimal_escape, ESCAPE_SHAPES[shape])


def test_doubling_ratio_detects_quadratic_code() -> None:
    """The harness itself: a quadratic function must come out well above the limit."""

    def quadratic(text: str) -> None:
        steps = len(text) // 64
        for i in range(steps):
            for _ in range(i // 8):
                pass

    n, ratio = doubling_ratio(quadratic, lambda n: "x" * n)
    assert ratio >= LIMIT, f"a quadratic function measured {ratio:.2f} at n={n}"


# ---------------------------------------------------------------------------
# Every integration, timed beside the library it upgrades (issue 21)
# ---------------------------------------------------------------------------
# Each entry builds ``(upgrade, library)``: the upgraded entry point and the library alone,
# on the same text.  The upgrade must be linear; where the library alone is not (its own
# code is super-linear on that shape), the upgrade may not be worse than it.

Pair = tuple[Callable[[str], object], Callable[[str], object]]


def _bleach() -> Pair:
    pytest.importorskip("bleach")
    from bleach.linkifier import Linker

    from uts58_adapt import wrap

    return wrap(Linker()).linkify, Linker().linkify


def _django(safe: bool) -> Callable[[], Pair]:
    def make() -> Pair:
        pytest.importorskip("django")
        from django.utils.html import urlize as django_urlize
        from django.utils.safestring import mark_safe

        from uts58_adapt.integrations.django import urlize

        if safe:
            return (lambda t: urlize(mark_safe(t))), (lambda t: django_urlize(mark_safe(t)))
        return (lambda t: urlize(t, autoescape=True)), (lambda t: django_urlize(t, autoescape=True))

    return make


def _jinja2(safe: bool) -> Callable[[], Pair]:
    def make() -> Pair:
        pytest.importorskip("jinja2")
        from jinja2 import Environment

        from uts58_adapt.integrations.jinja2 import install

        source = "{{ v|safe|urlize }}" if safe else "{{ v|urlize }}"
        alone = Environment(autoescape=True).from_string(source)
        env = Environment(autoescape=True)
        install(env)
        upgraded = env.from_string(source)
        return (lambda t: upgraded.render(v=t)), (lambda t: alone.render(v=t))

    return make


def _mistune() -> Pair:
    mistune = pytest.importorskip("mistune")
    from uts58_adapt.integrations import mistune as integration

    return mistune.create_markdown(plugins=[integration.url]), mistune.create_markdown(plugins=["url"])


def _magiclink() -> Pair:
    markdown = pytest.importorskip("markdown")
    pytest.importorskip("pymdownx")
    upgraded = markdown.Markdown(extensions=["uts58_adapt.integrations.magiclink"])
    alone = markdown.Markdown(extensions=["pymdownx.magiclink"])
    return (lambda t: upgraded.reset().convert(t)), (lambda t: alone.reset().convert(t))


def _marko() -> Pair:
    marko = pytest.importorskip("marko")
    upgraded = marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"])
    return upgraded.convert, marko.Markdown(extensions=["gfm"]).convert


def _markdown_it() -> Pair:
    from markdown_it import MarkdownIt

    alone = MarkdownIt("commonmark", {"linkify": True, "html": True}).enable("linkify")
    return _markdown_it_render(), alone.render


def _linkify_html() -> Pair:
    import html

    from uts58_adapt import linkify_html

    # No library: html.escape stands for "a linear pass over the fragment".
    return linkify_html, html.escape


def _urlextract_wrapper() -> Pair:
    from urlextract import URLExtract

    from uts58_adapt import wrap

    return wrap(URLExtract()).find_urls, URLExtract().find_urls


def _urlextract_audit() -> Pair:
    from uts58_adapt.backends import get_backend
    from uts58_adapt.report.core import _detect, audit_line

    backend = get_backend("urlextract")

    def audit(text: str) -> object:
        backend.clear_memo()  # type: ignore[attr-defined]  # time the work, not the memo
        return audit_line(text, "urlextract", _detect)

    return audit, lambda text: get_backend("urlextract").plain(text)  # type: ignore[attr-defined]


INTEGRATIONS: dict[str, Callable[[], Pair]] = {
    "bleach": _bleach,
    "django": _django(False),
    "django safe": _django(True),
    "jinja2": _jinja2(False),
    "jinja2 safe": _jinja2(True),
    "mistune": _mistune,
    "magiclink": _magiclink,
    "markdown-it": _markdown_it,
    "marko": _marko,
    "linkify_html": _linkify_html,
    "wrap(URLExtract()).find_urls": _urlextract_wrapper,
    "report --backend urlextract": _urlextract_audit,
}

#: The shapes of issue 21 and the render shapes, for every integration.
INTEGRATION_SHAPES: dict[str, Builder] = {
    "a + @ * n + b.com": lambda n: "a" + "@" * n + "b.com",
    **repeated("x@", "a@b.com,", "http://", "a.com,", "see a.co ", "http://a.co/x>", "x.co/("),
    "markup around links": lambda n: '<b title="a.com">see https://a.com/x&amp;</b> ' * n,
    "unclosed markup": lambda n: '<p title=">' + "see http://a.com/ <!-- " * n,
}

# urlextract alone is quadratic on long runs without white space; these two entry points
# must be linear all the same (they give it bounded windows).
_ALWAYS_LINEAR = {"wrap(URLExtract()).find_urls", "report --backend urlextract"}


@pytest.mark.parametrize("shape", list(INTEGRATION_SHAPES))
@pytest.mark.parametrize("integration", list(INTEGRATIONS))
def test_integration_linear(integration: str, shape: str) -> None:
    from uts58_adapt.backends._windows import WINDOW

    upgrade, library = INTEGRATIONS[integration]()
    build = INTEGRATION_SHAPES[shape]
    # urlextract is given windows only beyond one window: measured from two on (as above).
    min_chars = 2 * WINDOW if integration in _ALWAYS_LINEAR else 0
    n, ratio = doubling_ratio(upgrade, build, min_chars)
    if ratio < LIMIT:
        return
    assert integration not in _ALWAYS_LINEAR, f"{integration} on {shape!r}: {ratio:.2f} around n={n}"
    # Over the limit: allowed only where the library alone is super-linear too, and no worse.
    _, alone = doubling_ratio(library, build, min_chars)
    assert alone >= LIMIT and ratio <= alone + 0.5, (
        f"{integration} on {shape!r}: median time(2m)/time(m) = {ratio:.2f} around n={n}, library alone {alone:.2f}"
    )
