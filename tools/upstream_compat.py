#!/usr/bin/env python3
"""Run the linkifiers' own test suites raw and wrapped by ``uts58_adapt.wrap``, and explain each difference.

For every library in ``LIBRARIES`` (linkify-it-py, urlextract, markdown-it-py, bleach, Django, Jinja2,
mistune, pymdown-extensions' magiclink, docutils, marko's GFM, cmarkgfm), the sdist of the
*installed* version is downloaded with ``pip download --no-deps --no-binary :all:`` into a cache
directory (the only network access of the project; never at import or unit-test time), unpacked
into a temporary directory, and its tests are run twice with pytest:

* raw: the library as installed;
* wrapped: every instance the tests build is replaced by ``uts58_adapt.wrap(instance)``
  (for markdown-it-py, ``md.linkify``), or the library's function by its upgrade (Django's
  ``urlize``, mistune's ``url`` plugin, magiclink's ``makeExtension``, marko's GFM extension,
  cmarkgfm's two rendering functions; Jinja2 gets ``install(env)``), by the plugin
  ``tools/uts58_upstream_plugin.py``.

A suite the sdist does not carry whole is completed from the repository before it runs
(``LibrarySpec.copies`` and ``writes``): the cmarkgfm sdist has its binding's tests but not
cmark-gfm's specs, so the autolink examples of those specs (``tests/data/cmark-gfm-autolinks.txt``)
and a runner for them (``CMARK_SPEC_RUNNER``, what cmark-gfm's ``test/spec_tests.py`` does with
them) are written into it.

A test that passes raw and fails wrapped (or the reverse) is a *change*. Each change should be
required by UTS #58; ``tools/upstream_expected.toml`` says which rule changes it. ``--check``
exits 1 when a change has no row there (an unexplained difference, i.e. a regression), when a
row's test no longer changes (a stale row), or when a test fails raw.

uts58_adapt is imported as this interpreter finds it, so ``PYTHONPATH=/other/checkout`` tests
that checkout; the path used is printed.

Exit status: 0 done (and, with --check, everything explained); 1 --check found unexplained
differences, stale rows or raw failures; 2 the suites could not be run (pip download failed,
a library or a test dependency is missing, pytest crashed, bad table).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

TOOLS = Path(__file__).resolve().parent
PLUGIN = TOOLS / "uts58_upstream_plugin.py"
DEFAULT_TABLE = TOOLS / "upstream_expected.toml"
PASSING = frozenset({"passed", "xfailed", "xpassed"})
FAILING = frozenset({"failed", "error"})
NOT_RUN = frozenset({"skipped", "missing"})


@dataclass(frozen=True)
class LibrarySpec:
    """How to fetch, wrap and test one linkifier's own suite.

    ``patches`` are the plugin's patch strings (``construct:MODULE:CLASS``,
    ``attribute:MODULE:CLASS.ATTR``, ``replace:MODULE:ATTR=MODULE:ATTR``,
    ``init:MODULE:CLASS=MODULE:FUNCTION``); ``modules`` are imported
    before the tests so that the installed library, not the sdist's copy, is the one tested.
    ``test_args`` are pytest arguments relative to the unpacked sdist (paths, ``--ignore``,
    ``--deselect``). ``requires`` are import names the suite needs, with the pip names to install;
    ``env`` are environment variables the suite needs (a settings module, say); ``pythonpath`` are
    directories of the sdist put on ``PYTHONPATH`` (where that settings module is).
    ``copies`` (a path in the sdist -> a file of this repository) and ``writes`` (a path in the
    sdist -> its text) add upstream test files that the sdist lacks.
    """

    name: str
    modules: tuple[str, ...]
    patches: tuple[str, ...]
    test_args: tuple[str, ...]
    requires: Mapping[str, str] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    pythonpath: tuple[str, ...] = ()
    copies: Mapping[str, str] = field(default_factory=dict)
    writes: Mapping[str, str] = field(default_factory=dict)
    note: str = ""


REPO = TOOLS.parent

#: cmark-gfm's autolink spec examples (copied into the cmarkgfm sdist as
#: ``tests/cmark-gfm-autolinks.txt``) as a pytest module: each example rendered by
#: ``cmarkgfm.cmark.github_flavored_markdown_to_html`` (the GFM extensions, which cmark-gfm's spec
#: tests enable for these examples) and compared with its HTML; ``<IGNORE>`` only has to render.
CMARK_SPEC_RUNNER = r'''"""cmark-gfm's autolink spec examples (written here by uts58_adapt's tools/upstream_compat.py)."""
import re
from pathlib import Path

import pytest
from cmarkgfm import cmark

FENCE = "`" * 32
SPEC = (Path(__file__).parent / "cmark-gfm-autolinks.txt").read_text(encoding="utf-8")
PARTS = re.split(r"^=== test/(\S+)\n", SPEC, flags=re.MULTILINE)
EXAMPLES = []
for name, body in zip(PARTS[1::2], PARTS[2::2]):
    found = re.findall(rf"^{FENCE} example[^\n]*\n(.*?)^\.\n(.*?)^{FENCE}$", body, re.MULTILINE | re.DOTALL)
    for number, (markdown, html) in enumerate(found, 1):
        EXAMPLES.append(pytest.param(markdown.replace("\u2192", "\t"), html, id=f"{name}-{number}"))


def test_the_examples_are_read():
    assert len(EXAMPLES) == 14


@pytest.mark.parametrize(("markdown", "html"), EXAMPLES)
def test_autolink_example(markdown, html):
    rendered = cmark.github_flavored_markdown_to_html(markdown)
    if html.strip() != "<IGNORE>":
        assert rendered == html
'''


LIBRARIES: tuple[LibrarySpec, ...] = (
    LibrarySpec(
        name="linkify-it-py",
        modules=("linkify_it",),
        patches=("construct:linkify_it:LinkifyIt",),
        test_args=("test",),
    ),
    LibrarySpec(
        name="urlextract",
        modules=("urlextract",),
        patches=("construct:urlextract:URLExtract",),
        test_args=("tests/unit", "--ignore=tests/unit/test_dns.py"),
        requires={"dns": "dnspython"},
        note="unit tests; tests/unit/test_dns.py left out (needs network)",
    ),
    LibrarySpec(
        name="markdown-it-py",
        modules=("markdown_it", "linkify_it"),
        patches=("attribute:markdown_it.main:MarkdownIt.linkify",),
        test_args=("tests",),
        requires={"pytest_regressions": "pytest-regressions", "linkify_it": "linkify-it-py"},
        note="md.linkify wrapped",
    ),
    LibrarySpec(
        name="bleach",
        modules=("bleach",),
        patches=("construct:bleach.linkifier:Linker", "construct:bleach:Linker"),
        test_args=("tests/test_linkify.py",),
        note="tests/test_linkify.py, every Linker wrapped",
    ),
    LibrarySpec(
        name="Django",
        modules=("django.utils.html", "django.template.defaultfilters"),
        patches=(
            "replace:django.utils.html:urlize=uts58_adapt.integrations.django:urlize",
            "replace:django.template.defaultfilters:_urlize=uts58_adapt.integrations.django:urlize",
        ),
        test_args=(
            "tests/utils_tests/test_html.py",
            "tests/template_tests/filter_tests/test_urlize.py",
            "tests/template_tests/filter_tests/test_urlizetrunc.py",
            "-k",
            "urlize",
            # These two mock Urlizer.handle_word and assert its calls: Django's internals, not its links.
            "--deselect=tests/template_tests/filter_tests/test_urlize.py::FunctionTests::test_caching_repeated_words",
            "--deselect=tests/template_tests/filter_tests/test_urlize.py::FunctionTests::test_caching_repeated_calls",
        ),
        requires={"pytest_django": "pytest-django"},
        env={"DJANGO_SETTINGS_MODULE": "test_sqlite"},
        pythonpath=("tests",),
        note="the urlize and urlizetrunc tests, urlize replaced by the upgrade; two tests of Urlizer's internal "
        "calls (mocked handle_word) left out",
    ),
    LibrarySpec(
        name="Jinja2",
        modules=("jinja2",),
        patches=("init:jinja2.environment:Environment=uts58_adapt.integrations.jinja2:install",),
        test_args=("tests/test_filters.py", "-k", "urlize"),
        note="the urlize filter tests, install(env) on every Environment",
    ),
    LibrarySpec(
        name="mistune",
        modules=("mistune", "mistune.plugins.url"),
        patches=("replace:mistune.plugins.url:url=uts58_adapt.integrations.mistune:url",),
        test_args=("tests/test_plugins.py", "-k", "url"),
        note="the url plugin's tests (tests/fixtures/url.txt)",
    ),
    LibrarySpec(
        name="pymdown-extensions",
        modules=("pymdownx.magiclink",),
        patches=("replace:pymdownx.magiclink:makeExtension=uts58_adapt.integrations.magiclink:makeExtension",),
        test_args=("tests/test_extensions/test_magiclink.py",),
        requires={"markdown": "markdown"},
        note="magiclink's tests, the extension replaced by the upgrade",
    ),
    LibrarySpec(
        name="docutils",
        modules=("docutils.parsers.rst",),
        patches=("replace:docutils.parsers.rst:Parser=uts58_adapt.integrations.docutils:Parser",),
        test_args=(
            "test/test_parsers/test_rst/test_inline_markup.py",
            "test/test_parsers/test_rst/test_character_level_inline_markup.py",
            "test/test_parsers/test_rst/test_east_asian_text.py",
        ),
        note="the reST inline markup tests (standalone URIs and emails among them), the parser replaced by the upgrade",
    ),
    LibrarySpec(
        name="marko",
        modules=("marko", "marko.ext.gfm"),
        patches=("replace:marko.ext.gfm:make_extension=uts58_adapt.integrations.marko:gfm_extension",),
        test_args=("tests/test_spec.py", "-k", "gfm"),
        note="the GFM spec tests (tests/spec/gfm.txt and marko's own GFM cases), "
        'extensions=["gfm"] given the upgraded GFM extension',
    ),
    LibrarySpec(
        name="cmarkgfm",
        modules=("cmarkgfm", "cmarkgfm.cmark"),
        patches=(
            "replace:cmarkgfm.cmark:github_flavored_markdown_to_html="
            "uts58_adapt.integrations.cmarkgfm:github_flavored_markdown_to_html",
            "replace:cmarkgfm.cmark:markdown_to_html_with_extensions="
            "uts58_adapt.integrations.cmarkgfm:markdown_to_html_with_extensions",
        ),
        test_args=("tests/test_cmark.py", "tests/test_uts58_cmark_autolinks.py"),
        copies={"tests/cmark-gfm-autolinks.txt": "tests/data/cmark-gfm-autolinks.txt"},
        writes={"tests/test_uts58_cmark_autolinks.py": CMARK_SPEC_RUNNER},
        note="the binding's tests (tests/test_cmark.py) and the autolink examples of cmark-gfm's specs "
        "(not in the sdist: copied from tests/data/cmark-gfm-autolinks.txt), the two rendering functions "
        "replaced by the upgrade",
    ),
)


class ToolError(Exception):
    """A reason the suites could not be run; printed without a traceback, exit status 2."""


@dataclass(frozen=True)
class Rule:
    """One row of the explanation table: these tests change when wrapped, because of ``rule``."""

    library: str
    rule: str
    tests: tuple[str, ...]
    direction: str = "fails"  # "fails": raw pass -> wrapped fail; "passes": raw fail -> wrapped pass


@dataclass
class Change:
    test: str
    raw: str
    wrapped: str
    direction: str
    message: str = ""
    rule: str | None = None
    seconds: tuple[str, str] = ("", "")  # the call phase's duration, raw and wrapped


@dataclass
class LibraryResult:
    name: str
    version: str
    note: str
    raw_passed: int
    raw_total: int
    wrapped_passed: int
    wrapped_total: int
    changes: list[Change]
    raw_failures: list[str]
    stale: list[Rule]


# --- the explanation table -------------------------------------------------------------------


def load_rules(path: Path) -> list[Rule]:
    """Parse the TOML table: ``[[change]]`` rows with ``library``, ``rule``, ``tests`` (and ``direction``)."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ToolError(f"cannot read the explanation table {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ToolError(f"{path}: {exc}") from None
    return parse_rules(data, str(path))


def parse_rules(data: Mapping[str, Any], source: str = "table") -> list[Rule]:
    """Validate the parsed table; every test may appear in one row only."""
    rows = data.get("change", [])
    if not isinstance(rows, list):
        raise ToolError(f"{source}: 'change' must be an array of tables ([[change]])")
    rules: list[Rule] = []
    seen: dict[tuple[str, str], int] = {}
    for number, row in enumerate(rows, 1):
        where = f"{source}: [[change]] #{number}"
        if not isinstance(row, dict):
            raise ToolError(f"{where} is not a table")
        unknown = set(row) - {"library", "rule", "tests", "direction"}
        if unknown:
            raise ToolError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        library, rule, tests = row.get("library"), row.get("rule"), row.get("tests")
        direction = row.get("direction", "fails")
        if not isinstance(library, str) or not library:
            raise ToolError(f"{where}: 'library' must be a non-empty string")
        if not isinstance(rule, str) or not re.search(r"§\s*\d", rule):
            raise ToolError(f"{where}: 'rule' must be a string citing a section of UTS #58 (§…)")
        if not isinstance(tests, list) or not tests or not all(isinstance(t, str) and t for t in tests):
            raise ToolError(f"{where}: 'tests' must be a non-empty list of pytest node ids")
        if direction not in ("fails", "passes"):
            raise ToolError(f'{where}: \'direction\' must be "fails" or "passes"')
        for test in tests:
            if (library, test) in seen:
                raise ToolError(f"{where}: {test!r} is already in row #{seen[library, test]}")
            seen[library, test] = number
        rules.append(Rule(library, rule, tuple(tests), direction))
    return rules


# --- classification --------------------------------------------------------------------------


def _count(outcomes: Mapping[str, Mapping[str, str]]) -> tuple[int, int]:
    """(passed, total): skipped tests are not counted; xfailed counts as passed."""
    ran = [o["outcome"] for o in outcomes.values() if o["outcome"] not in NOT_RUN]
    return sum(o in PASSING for o in ran), len(ran)


def classify(
    spec_name: str,
    version: str,
    raw: Mapping[str, Mapping[str, str]],
    wrapped: Mapping[str, Mapping[str, str]],
    rules: Sequence[Rule],
    note: str = "",
) -> LibraryResult:
    """Compare the two runs' outcomes (node id -> {"outcome", "message"}) and attach the table's rules."""
    explained: dict[str, Rule] = {}
    for rule in rules:
        if rule.library == spec_name:
            for test in rule.tests:
                explained[test] = rule
    changes: list[Change] = []
    raw_failures: list[str] = []
    for test in sorted(set(raw) | set(wrapped)):
        before = raw.get(test, {}).get("outcome", "missing")
        after = wrapped.get(test, {}).get("outcome", "missing")
        if before in FAILING:
            raw_failures.append(test)
        if (before in PASSING and after not in PASSING) or (before == "missing" and after in FAILING):
            direction = "fails"  # also a test that only the wrapped run has, failing (a collection error)
        elif before in FAILING and after in PASSING:
            direction = "passes"
        else:
            continue
        row = explained.get(test)
        changes.append(
            Change(
                test=test,
                raw=before,
                wrapped=after,
                direction=direction,
                message=wrapped.get(test, {}).get("message", "") if direction == "fails" else "",
                seconds=(raw.get(test, {}).get("seconds", ""), wrapped.get(test, {}).get("seconds", "")),
                rule=row.rule if row is not None and row.direction == direction else None,
            )
        )
    changed = {c.test for c in changes if c.rule is not None}
    stale_tests: dict[Rule, list[str]] = {}
    for test, rule in explained.items():
        if test not in changed:
            stale_tests.setdefault(rule, []).append(test)
    stale = [Rule(r.library, r.rule, tuple(sorted(tests)), r.direction) for r, tests in stale_tests.items()]
    raw_passed, raw_total = _count(raw)
    wrapped_passed, wrapped_total = _count(wrapped)
    return LibraryResult(
        spec_name, version, note, raw_passed, raw_total, wrapped_passed, wrapped_total, changes, raw_failures, stale
    )


def problems(results: Sequence[LibraryResult]) -> list[str]:
    """Everything ``--check`` fails on, one line each, naming the test."""
    out: list[str] = []
    for result in results:
        for test in result.raw_failures:
            out.append(f"{result.name}: fails raw (environment or upstream, not the wrapper): {test}")
        for change in result.changes:
            if change.rule is None:
                verb = "fails only when wrapped" if change.direction == "fails" else "passes only when wrapped"
                out.append(f"{result.name}: unexplained, {verb}: {change.test}")
        for rule in result.stale:
            for test in rule.tests:
                out.append(f"{result.name}: stale table row (the test does not change any more): {test}")
    return out


# --- fetching and running --------------------------------------------------------------------


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def find_sdist(directory: Path, name: str, version: str) -> Path | None:
    """The cached sdist of ``name==version`` in ``directory``, if there is one."""
    if not directory.is_dir():
        return None
    for path in sorted(directory.iterdir()):
        for ext in (".tar.gz", ".zip"):
            if path.name.endswith(ext):
                dist, _, found_version = path.name[: -len(ext)].rpartition("-")
                if _normalized(dist) == _normalized(name) and found_version == version:
                    return path
    return None


def fetch_sdist(python: str, name: str, version: str, cache: Path) -> Path:
    """Return the sdist of ``name==version``, downloading it with pip into ``cache`` when needed."""
    found = find_sdist(cache, name, version)
    if found is not None:
        return found
    cache.mkdir(parents=True, exist_ok=True)
    print(f"downloading the sdist of {name}=={version} with pip into {cache} ...", file=sys.stderr)
    cmd = [python, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q", "-d", str(cache)]
    proc = subprocess.run([*cmd, f"{name}=={version}"], capture_output=True, text=True)
    found = find_sdist(cache, name, version)
    if proc.returncode != 0 or found is None:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-5:])
        raise ToolError(f"pip download of the sdist of {name}=={version} failed:\n{tail}")
    return found


def unpack(archive: Path, into: Path) -> Path:
    """Unpack an sdist (tar.gz or zip) into ``into`` and return its top directory."""
    into.mkdir(parents=True, exist_ok=True)
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                zf.extractall(into)
        else:
            with tarfile.open(archive) as tf:
                if hasattr(tarfile, "data_filter"):
                    tf.extractall(into, filter="data")
                else:  # pragma: no cover - Python without PEP 706
                    tf.extractall(into)
    except (OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
        raise ToolError(f"cannot unpack {archive}: {exc} (delete it to download it again)") from None
    tops = [p for p in into.iterdir() if p.is_dir()]
    if len(tops) != 1:
        raise ToolError(f"{archive} does not unpack to one directory")
    return tops[0]


def add_files(spec: LibrarySpec, source: Path) -> None:
    """Write ``spec``'s ``copies`` (from this repository) and ``writes`` into the unpacked sdist ``source``."""
    for dest, source_file in spec.copies.items():
        try:
            text = (REPO / source_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise ToolError(f"cannot read {source_file} for the {spec.name} suite: {exc.strerror}") from None
        (source / dest).parent.mkdir(parents=True, exist_ok=True)
        (source / dest).write_text(text, encoding="utf-8")
    for dest, text in spec.writes.items():
        (source / dest).parent.mkdir(parents=True, exist_ok=True)
        (source / dest).write_text(text, encoding="utf-8")


def installed_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        raise ToolError(f"{name} is not installed in this environment ({sys.executable})") from None


def check_requirements(spec: LibrarySpec) -> None:
    missing = [pip for module, pip in spec.requires.items() if importlib.util.find_spec(module) is None]
    if missing:
        raise ToolError(
            f"the {spec.name} test suite needs {', '.join(missing)}: "
            f"pip install -e '.[upstream]' (or pip install {' '.join(missing)})"
        )


def uts58_import_root() -> Path:
    """The directory this interpreter imports ``uts58_adapt`` from (PYTHONPATH and sys.path respected)."""
    spec = importlib.util.find_spec("uts58_adapt")
    if spec is None or not spec.submodule_search_locations:
        raise ToolError("uts58_adapt cannot be imported: install it (pip install -e .) or set PYTHONPATH")
    return Path(next(iter(spec.submodule_search_locations))).resolve().parent


def describe_checkout(import_root: Path) -> str:
    """``import_root``, with its git commit and whether it has uncommitted changes, when it is a git checkout."""
    try:
        head = subprocess.run(
            ["git", "-C", str(import_root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=30
        )
        dirty = subprocess.run(
            ["git", "-C", str(import_root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return str(import_root / "uts58_adapt")
    if head.returncode != 0:
        return str(import_root / "uts58_adapt")
    state = ", with uncommitted changes" if dirty.stdout.strip() else ""
    return f"{import_root / 'uts58_adapt'} (git {head.stdout.strip()}{state})"


def run_suite(
    python: str,
    spec: LibrarySpec,
    source: Path,
    mode: str,
    work: Path,
    import_root: Path,
    timeout: float,
    timeout_scale: float = 1.0,
) -> dict[str, Any]:
    """Run ``spec``'s tests in ``source`` in ``mode`` ("raw" or "wrapped"); return the plugin's report."""
    report = work / f"{_normalized(spec.name)}-{mode}.json"
    config = {
        "mode": mode,
        "modules": list(spec.modules),
        "patches": list(spec.patches),
        "import_root": str(import_root),
        "timeout_scale": timeout_scale,
        "report": str(report),
    }
    plugin_dir = work / "plugin"
    plugin_dir.mkdir(exist_ok=True)
    shutil.copy2(PLUGIN, plugin_dir / PLUGIN.name)
    env = dict(os.environ)
    env.update(spec.env)
    paths = [str(plugin_dir), *(str(source / p) for p in spec.pythonpath), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    env["UTS58_UPSTREAM_CONFIG"] = json.dumps(config)
    env.pop("PYTEST_ADDOPTS", None)
    # -P: the sdist's own copy of the library (the working directory) must not shadow the installed one.
    cmd = [python, "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN.stem, *spec.test_args]
    try:
        proc = subprocess.run(cmd, cwd=source, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ToolError(f"the {spec.name} suite ({mode}) did not finish in {timeout:.0f} s") from None
    if not report.is_file() or proc.returncode not in (0, 1):
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-12:])
        raise ToolError(f"pytest could not run the {spec.name} suite ({mode}), exit {proc.returncode}:\n{tail}")
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return data


def run_library(
    python: str,
    spec: LibrarySpec,
    cache: Path,
    work: Path,
    import_root: Path,
    rules: Sequence[Rule],
    timeout: float,
    timeout_scale: float = 1.0,
) -> tuple[LibraryResult, str | None]:
    version = installed_version(spec.name)
    check_requirements(spec)
    archive = fetch_sdist(python, spec.name, version, cache)
    source = unpack(archive, work / _normalized(spec.name))
    add_files(spec, source)
    print(f"running the {spec.name} {version} suite raw and wrapped ...", file=sys.stderr)
    raw = run_suite(python, spec, source, "raw", work, import_root, timeout, timeout_scale)
    wrapped = run_suite(python, spec, source, "wrapped", work, import_root, timeout, timeout_scale)
    if not wrapped["meta"].get("wraps"):
        raise ToolError(f"no {spec.name} instance was wrapped: the patches {', '.join(spec.patches)} matched nothing")
    result = classify(spec.name, version, raw["tests"], wrapped["tests"], rules, spec.note)
    return result, wrapped["meta"].get("uts58_adapt")


# --- output ----------------------------------------------------------------------------------


def _ratio(passed: int, total: int) -> str:
    return f"{passed}/{total}"


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _markdown_code(text: str) -> str:
    """``text`` as a code span in a table cell (a text with backticks gets a double-backtick span)."""
    cell = _markdown_cell(text)
    return f"`` {cell} ``" if "`" in cell else f"`{cell}`"


def render_text(results: Sequence[LibraryResult], uts58_path: str) -> str:
    lines = [f"uts58_adapt imported from: {uts58_path}", ""]
    width = max([len(r.name) for r in results] + [7])
    lines.append(f"{'library':<{width}}  {'version':<8}  {'raw':>9}  {'wrapped':>9}  changed  unexplained")
    for r in results:
        unexplained = sum(c.rule is None for c in r.changes)
        lines.append(
            f"{r.name:<{width}}  {r.version:<8}  {_ratio(r.raw_passed, r.raw_total):>9}  "
            f"{_ratio(r.wrapped_passed, r.wrapped_total):>9}  {len(r.changes):>7}  {unexplained:>11}"
        )
    for r in results:
        if not r.changes and not r.stale and not r.raw_failures:
            continue
        lines += ["", f"{r.name} {r.version}" + (f" ({r.note})" if r.note else "")]
        for c in r.changes:
            arrow = "raw pass -> wrapped FAIL" if c.direction == "fails" else "raw FAIL -> wrapped pass"
            lines.append(f"  {arrow}: {c.test}")
            lines.append(f"      rule: {c.rule}" if c.rule else "      UNEXPLAINED (no row in the table)")
            if c.message:
                lines.append(f"      error: {c.message}")
            if "timeout" in c.message.lower() and all(c.seconds):
                lines.append(f"      took {c.seconds[0]} s raw, {c.seconds[1]} s wrapped")
        for rule in r.stale:
            for test in rule.tests:
                lines.append(f"  STALE row (does not change any more): {test}\n      row: {rule.rule}")
        for test in r.raw_failures:
            lines.append(f"  FAILS RAW: {test}")
    return "\n".join(lines) + "\n"


def render_markdown(results: Sequence[LibraryResult], uts58_path: str) -> str:
    lines = [
        "| library | version | tests | passed raw | passed wrapped |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in results:
        lines.append(
            f"| {r.name} | {r.version} | {_markdown_cell(r.note or 'all')} | "
            f"{_ratio(r.raw_passed, r.raw_total)} | {_ratio(r.wrapped_passed, r.wrapped_total)} |"
        )
    rows: dict[tuple[str, str], list[str]] = {}
    for r in results:
        for c in r.changes:
            key = (r.name, c.rule or "**not required by UTS #58 (regression)**")
            rows.setdefault(key, []).append(c.test.split("::", 1)[-1])
    if rows:
        lines += ["", "| library | tests | what changes, and the rule |", "| --- | --- | --- |"]
        for (name, rule), tests in rows.items():
            shown = ", ".join(_markdown_code(t) for t in tests[:3])
            more = f" and {len(tests) - 3} more" if len(tests) > 3 else ""
            lines.append(f"| {name} | {len(tests)}: {shown}{more} | {_markdown_cell(rule)} |")
    return "\n".join(lines) + "\n"


def render_json(results: Sequence[LibraryResult], uts58_path: str) -> str:
    payload = {
        "uts58_adapt": uts58_path,
        "libraries": [asdict(r) for r in results],
        "problems": problems(results),
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


# --- command line ----------------------------------------------------------------------------


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "uts58_adapt" / "upstream"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="upstream_compat.py",
        description=(
            "Download the sdists of the installed linkify-it-py, urlextract, markdown-it-py, bleach, Django, "
            "Jinja2, mistune, pymdown-extensions, docutils, marko and cmarkgfm with pip, run each library's own (linkify) tests raw and with "
            "every instance replaced by uts58_adapt.wrap(instance) (or the library's upgrade), and "
            "list every test whose outcome changes with the UTS #58 rule (from the explanation table) that "
            "changes it. uts58_adapt is imported as this interpreter finds it: PYTHONPATH=/other/checkout "
            "tests that checkout."
        ),
        epilog=(
            "Exit status: 0 ok; 1 with --check, an unexplained difference, a stale table row or a test "
            "failing raw; 2 the suites could not be run (pip download failed, missing test dependency, ...)."
        ),
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 on a change without a table row, a table row whose test no longer changes, or a raw failure",
    )
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the results as JSON")
    fmt.add_argument("--markdown", action="store_true", help="print the README tables (Markdown)")
    parser.add_argument(
        "--cache-dir", type=Path, default=None, help=f"where sdists are kept (default: {default_cache()})"
    )
    parser.add_argument("--table", type=Path, default=DEFAULT_TABLE, help="the explanation table (TOML)")
    parser.add_argument(
        "--library",
        action="append",
        choices=[spec.name for spec in LIBRARIES],
        help="run only this library (repeatable; default: all)",
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per pytest run")
    parser.add_argument(
        "--timeout-scale",
        type=float,
        default=1.0,
        metavar="FACTOR",
        help="multiply the suites' own per-test time limits (pytest-timeout marks) by FACTOR, in both runs, "
        "on a busy machine (default: 1)",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="DIR",
        help="unpack the sdists and keep the runs' reports in DIR (new or empty) instead of a temporary directory",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    specs = [s for s in LIBRARIES if not args.library or s.name in args.library]
    cache: Path = args.cache_dir or default_cache()
    try:
        rules = load_rules(args.table)
        import_root = uts58_import_root()
        results: list[LibraryResult] = []
        used: set[str] = set()
        with tempfile.TemporaryDirectory(prefix="uts58-upstream-") as tmp:
            work = args.keep or Path(tmp)
            if args.keep and work.exists() and (not work.is_dir() or any(work.iterdir())):
                raise ToolError(f"--keep {work}: give a new or empty directory")
            work.mkdir(parents=True, exist_ok=True)
            for spec in specs:
                result, path = run_library(
                    sys.executable, spec, cache, work, import_root, rules, args.timeout, args.timeout_scale
                )
                results.append(result)
                if path:
                    used.add(path)
        expected = str(import_root / "uts58_adapt")
        if used - {expected}:
            raise ToolError(f"the suites imported uts58_adapt from {', '.join(sorted(used))}, not {expected}")
    except ToolError as exc:
        print(f"upstream_compat: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("upstream_compat: interrupted", file=sys.stderr)
        return 130
    where = describe_checkout(import_root)
    if args.json:
        sys.stdout.write(render_json(results, where))
    elif args.markdown:
        sys.stdout.write(render_markdown(results, where))
    else:
        sys.stdout.write(render_text(results, where))
    if args.check:
        found = problems(results)
        for line in found:
            print(f"upstream_compat --check: {line}", file=sys.stderr)
        if found:
            print(f"upstream_compat --check: {len(found)} problem(s)", file=sys.stderr)
            return 1
        print("upstream_compat --check: every difference is explained by a UTS #58 rule", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
