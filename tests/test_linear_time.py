"""Linear time on adversarial inputs: doubling ratios, never absolute times.

For each (function, input shape) the size ``n`` is doubled until one run takes at
least ``TARGET / 2`` seconds, then ``time(2n) / time(n)`` is measured (runs interleaved, the
minimum of several repeats).  Linear code gives about 2, quadratic code about 4;
the test asserts ``< LIMIT``.  Times are CPU times of this process
(``time.process_time``), so other processes on the machine do not count.  A cache
step or a noisy neighbour can still inflate one measurement, so a ratio over
the limit is measured again one doubling lower and one higher, with more repeats, and
the smallest ratio is asserted: a quadratic function fails at every size.  The garbage
collector is off while a call is timed (as in ``timeit``), so a collection cannot land in
one run and not the other.

Shapes where a backend itself (not the adapter) is quadratic are marked
``xfail(strict=True)`` with the place in the backend's code: the test still
measures them, and fails (XPASS) if the behaviour goes away, e.g. once the adapter
guards against it.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import pytest

from uts58_adapt import email_start, terminate

LIMIT = 2.6
TARGET = 0.1  # seconds: a run at size n takes TARGET/2 to ~2*TARGET
REPEATS = 3
RETRY_REPEATS = 5
CAP = 1 << 22  # the largest n tried
FLOOR = 1e-4  # seconds; see _ratio_at

Builder = Callable[[int], str]


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


def _ratio_at(fn: Callable[[str], object], build: Builder, n: int, repeats: int) -> float:
    small, big = build(n), build(2 * n)
    t_small = t_big = float("inf")
    for _ in range(repeats):  # interleaved, so a slow spell hits both sizes
        t_small = min(t_small, _time(fn, small))
        t_big = min(t_big, _time(fn, big))
    # Below the floor a time is clock noise: a function that is still that fast at CAP
    # (e.g. one that stops early) counts as constant time.
    return max(t_big, FLOOR) / max(t_small, FLOOR)


def doubling_ratio(
    fn: Callable[[str], object], build: Builder, min_chars: int = 0
) -> tuple[int, float]:
    """Return ``(n, ratio)``: the calibrated size and the (re-measured if needed) doubling ratio.

    ``min_chars`` is the shortest text measured: code that is linear only beyond a bound
    (a backend run on windows of bounded length) is measured beyond it.
    """
    fn(build(4))  # warm-up: lazily built tables and compiled patterns
    n = 16
    while n < CAP and len(build(n)) < min_chars:
        n *= 2
    while n < CAP and _time(fn, build(n)) < TARGET / 2:
        n *= 2
    ratio = _ratio_at(fn, build, n, REPEATS)
    for other in (n // 2, 2 * n):
        if ratio < LIMIT:
            break
        # A step of the memory hierarchy (the string outgrowing a cache) or a noisy
        # neighbour can inflate one ratio; quadratic code is over the limit at every size.
        ratio = min(ratio, _ratio_at(fn, build, other, RETRY_REPEATS))
    return n, ratio


def check_linear(fn: Callable[[str], object], build: Builder, min_chars: int = 0) -> None:
    n, ratio = doubling_ratio(fn, build, min_chars)
    assert ratio < LIMIT, f"time(2n)/time(n) = {ratio:.2f} at n={n} (linear ~2, quadratic ~4)"


# ---------------------------------------------------------------------------
# Shapes (the brief's list, plus shapes aimed at each function's loops)
# ---------------------------------------------------------------------------
DETECT_SHAPES: dict[str, Builder] = {
    "a@ * n": lambda n: "a@" * n,
    "'see a.co ' * n": lambda n: "see a.co " * n,
    "x.com/ + ( * n": lambda n: "x.com/" + "(" * n,
    "x.com/a + . * n + b": lambda n: "x.com/a" + "." * n + "b",
    "mixed brackets": lambda n: "x.com/" + "([{<a" * n + ">}])" * n + " " + "(]a[)" * n,
    "emails and domains": lambda n: "a@b.com x.co mailto:c.d@e.org, https://f.net/g " * n,
    "long Soft run": lambda n: "see x.com/a" + ".,;:!?'\"。」" * n + " b",
    "a. * n + @x.com": lambda n: "a." * n + "@x.com",
}

# urlextract 1.10.0 alone is quadratic on a long run without any of its stop characters
# that holds many TLD matches: URLExtract.gen_urls (urlextract_core.py:862) calls
# _complete_url (line 455) for each TLD match, which walks to the nearest stop character
# (the whole run), so k matches in a run of length L cost O(k*L).  The adapter gives
# urlextract long texts in bounded windows (backends/urlextract.py, ``_windows``), which
# makes detection linear; these shapes check that, on texts of several windows (below one
# window the run is handed to urlextract whole, and its cost grows quadratically up to
# that bound).
BACKEND_QUADRATIC_SHAPES: dict[str, Builder] = {
    "a@b.co.x.com@ * n (no space)": lambda n: "a@b.co.x.com@" * n,
    "a.com, * n (comma list, no space)": lambda n: "a.com," * n,
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
    from uts58_adapt.backends.urlextract import _WINDOW

    check_linear(_detect(backend, True), BACKEND_QUADRATIC_SHAPES[shape], min_chars=4 * _WINDOW)


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
    "a@ * n": lambda n: "a@" * n,
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
