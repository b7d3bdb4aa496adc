"""Shared fixtures: the official Unicode data directory, and a headless Chromium.

Official data: tests that need the official files call ``require_data``.  The data
directory is ``$UTS58_DATA_DIR`` when set (and only it: no fallback), else
``../shared/unicode`` beside the repository.  When it is missing the tests skip with
the reason, unless ``UTS58_REQUIRE_CONFORMANCE=1`` (set by ``.ci/run``), in which case
they fail.  The run then starts with one line saying so, with the number of official
cases that are not tested, and ends with the number of tests skipped because of it.

Browser: see :func:`find_chromium` and the ``chromium_executable`` fixture.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
OPEN_MARK, CLOSE_MARK = "\u2e20", "\u2e21"
#: The start of every skip reason given for missing official data (counted at the end of the run).
DATA_MISSING = "official Unicode data file"
#: The cases the official 17.0.0 files (and the corrected dev/ file) hold, which the tests
#: parametrize over: lines of LinkDetectionTest.txt, cases of each LinkFormattingTest.txt,
#: and the three property files (every code point each).
OFFICIAL_CASES = {"detection lines": 344, "formatting cases": 2 * 55, "property files": 3}


def _find_data_dir() -> Path | None:
    env = os.environ.get("UTS58_DATA_DIR")
    path = Path(env) if env else REPO.parent / "shared" / "unicode"
    return path if (path / "17.0.0" / "linkification").is_dir() else None


def _data_missing_line() -> str | None:
    """The line printed at the start of a run without the official data (None when it is there)."""
    if _find_data_dir() is not None:
        return None
    env = os.environ.get("UTS58_DATA_DIR")
    where = f"UTS58_DATA_DIR={env}" if env else f"{REPO.parent / 'shared' / 'unicode'} (UTS58_DATA_DIR unset)"
    cases = sum(OFFICIAL_CASES.values())
    consequence = "FAIL" if os.environ.get("UTS58_REQUIRE_CONFORMANCE") == "1" else "are SKIPPED"
    return (
        f"UTS #58 conformance data MISSING (no 17.0.0/linkification/ in {where}): {cases} official cases "
        f"not tested ({', '.join(f'{n} {what}' for what, n in OFFICIAL_CASES.items())}); tests that need them "
        f"{consequence}"
    )


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    line = _data_missing_line()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if line and reporter is not None:
        reporter.write_line(line, yellow=True, bold=True)


_data_skips: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not report.skipped or not isinstance(report.longrepr, tuple):
        return
    reason = str(report.longrepr[2])
    # Without the data, parametrizations over its lines are empty: pytest skips them too.
    if DATA_MISSING in reason or ("got empty parameter set" in reason and _find_data_dir() is None):
        _data_skips.append(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _data_skips:
        terminalreporter.write_line(
            f"{len(_data_skips)} tests skipped because the UTS #58 conformance data is missing "
            "(set UTS58_DATA_DIR; UTS58_REQUIRE_CONFORMANCE=1 makes them fail)",
            yellow=True,
            bold=True,
        )


def require_data(*relative: str) -> Path:
    """Return the path of an official file under the data directory, or skip/fail."""
    base = _find_data_dir()
    path = base.joinpath(*relative) if base else None
    if path is None or not path.is_file():
        reason = (
            f"{DATA_MISSING} {'/'.join(relative)} not found "
            "(set UTS58_DATA_DIR or put ../shared/unicode beside the repository)"
        )
        if os.environ.get("UTS58_REQUIRE_CONFORMANCE") == "1":
            pytest.fail(reason + "; UTS58_REQUIRE_CONFORMANCE=1 forbids skipping")
        pytest.skip(reason)
    return path


def plain_text(line: str) -> str:
    """A line of LinkDetectionTest.txt without the marks around its expected links."""
    return line.replace(OPEN_MARK, "").replace(CLOSE_MARK, "")


def sample_lines() -> list[str]:
    """Every line of the bundled sample corpus (uts58_adapt/corpora/*.txt), in file order."""
    return [
        line
        for path in sorted((REPO / "uts58_adapt" / "corpora").glob("*.txt"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def dense_paragraphs(size: int = 40_000, seed: int = 58) -> list[str]:
    """The paragraphs of the benchmark's generated dense multilingual corpus
    (benchmarks/corpus_dense.py: deterministic, 18 scripts, a link per ~110 characters)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("corpus_dense", REPO / "benchmarks" / "corpus_dense.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("corpus_dense", module)
    spec.loader.exec_module(module)
    lines, _links = module.dense_lines(size, seed)
    return [p for p in "\n".join(lines).split("\n\n") if p]


def detection_cases() -> list[tuple[int, str]]:
    """(line number, line) for every test line of LinkDetectionTest.txt (read at collection)."""
    base = _find_data_dir()
    if base is None:
        return []
    path = base / "17.0.0" / "linkification" / "LinkDetectionTest.txt"
    out = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                out.append((lineno, line))
    return out


@pytest.fixture(scope="session")
def detection_test_file() -> Path:
    return require_data("17.0.0", "linkification", "LinkDetectionTest.txt")


# --- Headless Chromium, for tests that look at pages in a real browser ---------------------------

#: Names of a Chromium-family browser looked for on PATH, in order.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
#: Arguments for a headless run in a container, with no network chatter of the browser's own.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


class BrowserUnavailable(Exception):
    """No usable browser (or no Playwright); the message says what to install or set."""


def _playwright_chromium() -> str | None:
    """The Chromium that Playwright downloaded (``playwright install chromium``), if it is there."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        path = p.chromium.executable_path
    return path if path and os.path.isfile(path) else None


def find_chromium() -> str | None:
    """The browser executable to launch, in order of preference:

    1. ``$UTS58_CHROMIUM`` (a path, or a name on PATH), when set; an error if it is not found;
    2. the first of :data:`CHROMIUM_NAMES` on PATH (Debian's ``chromium`` among them);
    3. Playwright's own Chromium: ``None`` is returned, meaning "launch without an
       executable path".

    Raises :class:`BrowserUnavailable` when there is none.
    """
    explicit = os.environ.get("UTS58_CHROMIUM")
    if explicit:
        found = explicit if os.path.isfile(explicit) and os.access(explicit, os.X_OK) else shutil.which(explicit)
        if not found:
            raise BrowserUnavailable(f"UTS58_CHROMIUM={explicit} is not an executable file nor a command on PATH")
        return found
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    if _playwright_chromium() is not None:
        return None
    raise BrowserUnavailable(
        f"no Chromium found: none of {', '.join(CHROMIUM_NAMES)} on PATH, no Playwright browser "
        "(python -m playwright install chromium), UTS58_CHROMIUM unset"
    )


def browser_unavailable(reason: str) -> NoReturn:
    """Skip the test, or fail it when ``UTS58_REQUIRE_BROWSER=1`` (as ``.ci/run`` sets)."""
    if os.environ.get("UTS58_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}; UTS58_REQUIRE_BROWSER=1 requires a browser")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    """A headless Chromium launched through Playwright (a ``playwright.sync_api.Browser``), shared by the session.

    Usage: ``def test_x(chromium_browser): page = chromium_browser.new_page(); ...; page.close()``.
    Skips (or fails under ``UTS58_REQUIRE_BROWSER=1``) when Playwright or a browser is missing.
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        browser_unavailable("playwright is not installed (pip install -e '.[test]')")
    try:
        executable = find_chromium()
    except BrowserUnavailable as exc:
        browser_unavailable(str(exc))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


#: Words that make link-dense text (links, brackets, separators, emails), for the windowing
#: tests of both backends, which draw random texts from them.
LINK_WORDS = [
    "see",
    "example.com/αβ(γ)",
    "x.co",
    "a@b.com",
    "http://foo.example.com./x",
    "普遍适用测试。我爱你",
    "(",
    "),",
    "Lista_ta'_artikli",
    "xn--bcher-kva.de/b",
    "σωκράτης@example.com",
    "https://en.wikipedia.org/wiki/A_(b)",
    "mailto:john.doe@example.org",
    "x.com/a.",
    "?q=1&b=(2)",
    "#:~:text=a,b",
]

# --- Shared by the fast-path tests: the corpora, pieces of generated text --------------------------

# Runs of pieces that several piece lists (``PIECES`` of the fast-path tests) hold, in this order.
#: ASCII brackets, in pairs.
BRACKETS = ["(", ")", "[", "]", "{", "}", "<", ">"]
#: Quotes, a query's and a fragment's start, and punctuation a link may end before.
LINK_PUNCTUATION = ["'", '"', "?", "#", "!", ",", ";", "%"]
#: ASCII punctuation urlextract stops at or takes into a link (after :data:`BRACKETS`).
URLEXTRACT_PUNCTUATION = ["|", "'", '"', "`", "\\", "=", ";", ",", "?", "#", "!"]
#: What urlextract's anchors look for: a TLD (both forms, any case), a host's dot, an email's
#: ``@``, a scheme's separators, ``localhost``.
URLEXTRACT_ANCHOR_PIECES = ["рф", "COM", ".", "@", "a@b", "//", "/", ":", "http://", "localhost"]


def piece_texts(pieces: list[str], separators: list[str], max_size: int) -> st.SearchStrategy[str]:
    """Texts of up to ``max_size`` pieces and separators, drawn at random."""
    return st.lists(st.sampled_from(pieces + separators), max_size=max_size).map("".join)


def long_texts(
    texts: st.SearchStrategy[str], separators: list[str], max_parts: int, max_filler: int
) -> st.SearchStrategy[str]:
    """Tokens far apart and close together (joined windows), over several windows: up to
    ``max_parts`` texts joined by a separator, a run of up to ``max_filler`` ``w`` and the
    separator again."""
    return st.builds(
        lambda parts, sep, filler: (sep + "w" * filler + sep).join(parts),
        st.lists(texts, min_size=1, max_size=max_parts),
        st.sampled_from(separators),
        st.integers(0, max_filler),
    )


class CorpusChecks:
    """A fast path against its plain pass on every corpus: the official test lines (one by one,
    and as one text), the bundled sample corpus (line by line, and as one text) and the
    benchmark's dense multilingual corpus (benchmarks/corpus_dense.py, generated and
    deterministic: links in brackets, quotes and before CJK punctuation, IDN hosts, non-ASCII
    emails, text without spaces), paragraph by paragraph and as one text.

    Usage: ``class TestCorpora(CorpusChecks): check = staticmethod(_check)``, where
    ``_check(text)`` asserts that the fast path gives exactly what the plain pass gives.
    """

    @staticmethod
    def check(text: str) -> None:
        raise NotImplementedError("a subclass sets check")

    @pytest.mark.parametrize("lineno", [n for n, _ in detection_cases()] or [0])
    def test_official_lines(self, lineno: int, detection_test_file: object) -> None:
        line = dict(detection_cases())[lineno]
        self.check(plain_text(line))

    def test_official_file_as_one_text(self, detection_test_file: object) -> None:
        lines = [plain_text(line) for _, line in detection_cases()]
        self.check("\n".join(lines))

    def test_sample_corpus_lines(self) -> None:
        lines = sample_lines()
        assert len(lines) >= 50
        for line in lines:
            self.check(line)

    def test_sample_corpus_as_one_text(self) -> None:
        from uts58_adapt.backends._windows import WINDOW

        text = "\n".join(sample_lines())
        assert len(text) > 2 * WINDOW
        self.check(text)

    def test_dense_corpus_paragraphs(self) -> None:
        paragraphs = dense_paragraphs()
        assert len(paragraphs) > 40
        for paragraph in paragraphs:
            self.check(paragraph)

    def test_dense_corpus_as_one_text(self) -> None:
        from uts58_adapt.backends._windows import WINDOW

        text = "\n\n".join(dense_paragraphs())
        assert len(text) > 20 * WINDOW
        self.check(text)


# --- Markers: the fast subset, and a reversed order ----------------------------------------------

#: Test files marked ``slow`` as a whole: each takes from several seconds to minutes (timing
#: ratios, fuzzing campaigns, worker pools and Dask clusters, 10 MB inputs, every official
#: line through several backends).  The fast subset, ``pytest -m "not slow and not browser"``,
#: runs the rest in under two minutes on 2 cores (docs/development.md gives the figure).
SLOW_FILES = frozenset(
    {
        "test_linear_time.py",
        "test_fuzz.py",
        "test_fuzz_campaign.py",
        "test_dask.py",
        "test_dask_cli_cluster.py",
        "test_report_pool.py",
        "test_bad_input.py",
        "test_fast_path.py",
        "test_urlextract_fast_path.py",
        "test_regenerate_reports.py",
        "test_alignment_properties.py",
        "test_urlextract_email_candidates.py",
        "test_conftest_data.py",
        "test_wrap_typing.py",
    }
)
#: Test files about tools/upstream_compat.py (marked ``upstream``).
UPSTREAM_FILES = frozenset({"test_upstream_compat.py"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--reverse-order",
        action="store_true",
        help="run the collected tests in reverse order (tests must not depend on the order; .ci/run checks the browser tests)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``slow``, ``browser`` (a test that uses :func:`chromium_browser`) and ``upstream``."""
    for item in items:
        name = item.path.name
        if name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
        if name in UPSTREAM_FILES:
            item.add_marker(pytest.mark.upstream)
        if "chromium_browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    if config.getoption("--reverse-order"):
        items.reverse()
