"""Shared fixtures: the official Unicode data directory, and a headless Chromium.

Official data: tests that need the official files call ``require_data``.  The data
directory is ``$UTS58_DATA_DIR`` when set (and only it: no fallback), else the
repository's own ``data/unicode`` (docs/data.md).  When it is missing (an override
naming a wrong directory) the tests skip with the reason, unless
``UTS58_REQUIRE_CONFORMANCE=1`` (set by ``.ci/run``), in which case they fail.  The run then starts with one line saying so, with the number of official
cases that are not tested, and ends with the number of tests skipped because of it.

Browser: see :func:`find_chromium` and the ``chromium_browser`` fixture.

Helpers the test files share (imported with ``from conftest import ...``), each written once:
the corpora (:func:`sample_lines`, :func:`dense_paragraphs`, :func:`detection_cases`, the
UCD-style parser :func:`ucd_data_lines`), the fast-path tests' :class:`CorpusChecks`, piece runs
and text strategies, and subprocesses (:func:`run_report`, :func:`dask_cli_cluster`, the
process tree read from /proc).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn

import pytest

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

REPO = Path(__file__).resolve().parent.parent
# The tests check the default Unicode data version (17.0.0); the 18.0.0 draft is tested in
# subprocesses that set the variable (tests/test_unicode_versions.py), so none inherits it.
os.environ.pop("UTS58_UNICODE_VERSION", None)
OPEN_MARK, CLOSE_MARK = "\u2e20", "\u2e21"
#: The start of every skip reason given for missing official data (counted at the end of the run).
DATA_MISSING = "official Unicode data file"
#: The cases the official 17.0.0 files (and the corrected dev/ file) hold, which the tests
#: parametrize over: lines of LinkDetectionTest.txt, cases of each LinkFormattingTest.txt,
#: and the three property files (every code point each).
OFFICIAL_CASES = {"detection lines": 344, "formatting cases": 2 * 55, "property files": 3}


#: The official files the repository carries (tools/refresh_data.py refreshes them).
REPO_DATA = REPO / "data" / "unicode"


def _find_data_dir() -> Path | None:
    env = os.environ.get("UTS58_DATA_DIR")
    path = Path(env) if env else REPO_DATA
    return path if (path / "17.0.0" / "linkification").is_dir() else None


def _data_missing_line() -> str | None:
    """The line printed at the start of a run without the official data (None when it is there)."""
    if _find_data_dir() is not None:
        return None
    env = os.environ.get("UTS58_DATA_DIR")
    where = f"UTS58_DATA_DIR={env}" if env else f"{REPO_DATA} (UTS58_DATA_DIR unset)"
    cases = sum(OFFICIAL_CASES.values())
    consequence = "FAIL" if os.environ.get("UTS58_REQUIRE_CONFORMANCE") == "1" else "are SKIPPED"
    return (
        f"UTS #58 conformance data MISSING (no 17.0.0/linkification/ in {where}): {cases} official cases "
        f"not tested ({', '.join(f'{n} {what}' for what, n in OFFICIAL_CASES.items())}); tests that need them "
        f"{consequence}"
    )


def pytest_configure(config: pytest.Config) -> None:
    """Django 6's urlize reads ``URLIZE_ASSUME_HTTPS``, so in-process Django needs settings: the
    test session is the program, and configures them as a Django project would (``False``:
    Django 5's ``http://`` for a bare domain, which the expected outputs have).  Django 5 runs
    without settings, and the tests of the backend's own configuration run in fresh processes."""
    if importlib.util.find_spec("django") is None:
        return
    import django

    if django.VERSION >= (6,) and not os.environ.get("DJANGO_SETTINGS_MODULE"):
        from django.conf import settings

        if not settings.configured:
            settings.configure(URLIZE_ASSUME_HTTPS=False)


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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under ``UTS58_REQUIRE_CONFORMANCE=1`` a skip for lack of data fails the run, even one pytest
    made itself (an empty parametrization over the official lines)."""
    if _data_skips and os.environ.get("UTS58_REQUIRE_CONFORMANCE") == "1" and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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
            "(UTS58_DATA_DIR names another directory, or the repository's data/unicode is incomplete)"
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


#: The module whose presence makes each integration testable (its extra's library).
INTEGRATION_MODULES = {
    "bleach": "bleach",
    "django": "django",
    "jinja2": "jinja2",
    "mistune": "mistune",
    "magiclink": "pymdownx",
    "marko": "marko",
}


def load_module(name: str, path: Path) -> ModuleType:
    """The module of the file ``path`` (tools/ and benchmarks/ are no packages), loaded once
    and kept in ``sys.modules`` as ``name``."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def dense_paragraphs(size: int = 40_000, seed: int = 58) -> list[str]:
    """The paragraphs of the benchmark's generated dense multilingual corpus
    (benchmarks/corpus_dense.py: deterministic, 18 scripts, a link per ~110 characters)."""
    module = load_module("corpus_dense", REPO / "benchmarks" / "corpus_dense.py")
    lines, _links = module.dense_lines(size, seed)
    return [p for p in "\n".join(lines).split("\n\n") if p]


def ucd_data_lines(path: Path) -> Iterator[tuple[int, int, int, list[str]]]:
    """(line number, first, last, fields) for each data line of a UCD-style file, parsed here,
    independently of the generator and of ``uts58_adapt.conformance``."""
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            data = line.split("#", 1)[0].strip()
            if data:
                fields = [f.strip() for f in data.split(";")]
                first, _, last = fields[0].partition("..")
                yield lineno, int(first, 16), int(last or first, 16), fields[1:]


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


def piece_texts(pieces: list[str], separators: list[str], max_size: int) -> SearchStrategy[str]:
    """Texts of up to ``max_size`` pieces and separators, drawn at random."""
    from hypothesis import strategies as st

    return st.lists(st.sampled_from(pieces + separators), max_size=max_size).map("".join)


def long_texts(
    texts: SearchStrategy[str], separators: list[str], max_parts: int, max_filler: int
) -> SearchStrategy[str]:
    """Tokens far apart and close together (joined windows), over several windows: up to
    ``max_parts`` texts joined by a separator, a run of up to ``max_filler`` ``w`` and the
    separator again."""
    from hypothesis import strategies as st

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


# --- Subprocesses: the report command of this checkout, Dask clusters, process trees ------------

#: The bundled sample corpus.
SAMPLE = REPO / "uts58_adapt" / "corpora" / "sample.txt"


def repo_env() -> dict[str, str]:
    """This process's environment with the repository first on ``PYTHONPATH``: a subprocess
    (a Dask worker too) imports this checkout even where it is not installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


def run_report(
    *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[bytes]:
    """``python -m uts58_adapt.cli report ARGS`` run from the repository, its output captured
    (``env``: :func:`repo_env` unless given)."""
    return subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", *args],
        capture_output=True,
        env=repo_env() if env is None else env,
        cwd=REPO,
        timeout=timeout,
    )


def stop_group(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a process started with ``start_new_session=True``, and its group: ``sig``, then
    SIGKILL after 20 seconds."""
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(20)


@contextlib.contextmanager
def dask_cli_cluster(
    root: Path, workers: int, *worker_args: str, env: dict[str, str], logs: bool = False, timeout: float = 120
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``dask scheduler`` and ``dask worker`` (``workers`` processes of one thread, then
    ``worker_args``) on 127.0.0.1 without a dashboard, started in ``root`` (the scheduler
    file, and with ``logs`` ``scheduler.log`` and ``worker.log``): ``(address, the dask
    worker process)``.  Each start is bounded by ``timeout``; both are stopped at the end."""
    info = root / "scheduler.json"
    common = ["--host", "127.0.0.1", "--no-dashboard"]
    procs: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "dask", *args],
            env=env,
            cwd=root,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=(root / f"{args[0]}.log").open("wb") if logs else subprocess.DEVNULL,
        )
        procs.append(proc)
        return proc

    try:
        start("scheduler", *common, "--port", "0", "--scheduler-file", str(info))
        deadline = time.monotonic() + timeout
        while not info.exists() or not info.read_text():
            assert time.monotonic() < deadline, (root / "scheduler.log").read_text() if logs else "no scheduler file"
            time.sleep(0.2)
        time.sleep(0.2)  # the file is written whole, but give a partial write a moment
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:"), address
        worker = start(
            "worker",
            "--scheduler-file",
            str(info),
            *common,
            "--nworkers",
            str(workers),
            "--nthreads",
            "1",
            *worker_args,
        )
        from distributed import Client

        with Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=timeout)
        yield address, worker
    finally:
        for proc in reversed(procs):
            stop_group(proc)


def _parents() -> dict[int, list[int]]:
    """Every process's children (read from /proc), by parent."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    return children


def child_processes(pid: int) -> list[int]:
    """The processes ``pid`` started (read from /proc)."""
    return _parents().get(pid, [])


def descendant_processes(pid: int) -> set[int]:
    """The processes started, directly or not, by ``pid`` (read from /proc)."""
    children = _parents()
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def process_alive(pid: int) -> bool:
    """Whether ``pid`` runs (exists and is no zombie)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes_left(pids: set[int], timeout: float, step: float) -> list[int]:
    """The processes of ``pids`` still alive after waiting up to ``timeout`` seconds (looking
    every ``step``) for all of them to exit."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(process_alive(pid) for pid in pids):
        time.sleep(step)
    return [pid for pid in pids if process_alive(pid)]


# --- Markers: the fast subset, and a reversed order ----------------------------------------------

#: Test files marked ``slow`` as a whole: each takes from several seconds to minutes (timing
#: ratios, fuzzing campaigns, worker pools and Dask clusters, 10 MB inputs, every official
#: line through several backends).  The fast subset, ``pytest -m "not slow and not browser"``,
#: runs the rest in under two minutes on 2 cores (docs/development.md gives the figure).
SLOW_FILES = frozenset(
    {
        "test_linear_time.py",
        "test_terminate_properties.py",
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
        "test_timing_screen.py",
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
