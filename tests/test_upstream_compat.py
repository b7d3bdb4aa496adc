"""tools/upstream_compat.py without the network: the table, the classification, the plugin's patches.

The end-to-end test runs the real pytest plugin on a tiny fabricated "sdist" and a stand-in
``uts58_adapt``, so no package is downloaded.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import REPO

TOOLS = REPO / "tools"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


compat = _load("upstream_compat")
plugin = _load("uts58_upstream_plugin")


def _outcomes(**tests: str) -> dict[str, dict[str, str]]:
    return {f"t.py::{name}": {"outcome": outcome, "message": f"{name} said no"} for name, outcome in tests.items()}


RULES = [
    compat.Rule("lib", "§3.5.1: a trailing Soft character is dropped", ("t.py::soft", "t.py::gone")),
    compat.Rule("lib", "§5.2: a local part may hold ';'", ("t.py::semi",), direction="passes"),
    compat.Rule("other", "§9: not this library", ("t.py::same",)),
]


def test_classify_counts_and_explains_each_change() -> None:
    raw = _outcomes(same="passed", soft="passed", regress="passed", semi="failed", skip="skipped", gone="passed")
    wrapped = _outcomes(same="passed", soft="failed", regress="error", semi="passed", skip="skipped", gone="passed")
    result = compat.classify("lib", "1.0", raw, wrapped, RULES)

    assert (result.raw_passed, result.raw_total) == (4, 5)  # the skipped test is not counted
    assert (result.wrapped_passed, result.wrapped_total) == (3, 5)
    by_test = {c.test: c for c in result.changes}
    assert set(by_test) == {"t.py::soft", "t.py::regress", "t.py::semi"}
    assert by_test["t.py::soft"].rule == RULES[0].rule and by_test["t.py::soft"].message == "soft said no"
    assert by_test["t.py::regress"].rule is None and by_test["t.py::regress"].wrapped == "error"
    assert by_test["t.py::semi"].direction == "passes" and by_test["t.py::semi"].rule == RULES[1].rule
    assert result.raw_failures == ["t.py::semi"]
    # "gone" is in the table but passes wrapped: the row is stale (and only that test of the row).
    assert [(r.rule, r.tests) for r in result.stale] == [(RULES[0].rule, ("t.py::gone",))]


def test_check_names_every_problem() -> None:
    raw = _outcomes(soft="passed", regress="passed", gone="passed", broken="failed")
    wrapped = _outcomes(soft="failed", regress="failed", gone="passed", broken="failed")
    found = compat.problems([compat.classify("lib", "1.0", raw, wrapped, RULES)])
    assert any("unexplained" in p and "t.py::regress" in p for p in found)
    assert any("stale" in p and "t.py::gone" in p for p in found)
    assert any("stale" in p and "t.py::semi" in p for p in found)  # a row for a test that does not exist
    assert any("fails raw" in p and "t.py::broken" in p for p in found)
    assert not any("t.py::soft" in p for p in found)


def test_a_row_with_the_wrong_direction_does_not_explain() -> None:
    rules = [compat.Rule("lib", "§5.2: x", ("t.py::a",), direction="passes")]
    result = compat.classify("lib", "1", _outcomes(a="passed"), _outcomes(a="failed"), rules)
    assert result.changes[0].rule is None


def test_a_test_missing_from_the_wrapped_run_is_a_change() -> None:
    result = compat.classify("lib", "1", _outcomes(a="passed"), {}, [])
    assert [(c.test, c.wrapped) for c in result.changes] == [("t.py::a", "missing")]


def test_a_collection_error_only_when_wrapped_is_a_change() -> None:
    wrapped = {"t.py": {"outcome": "error", "message": "ImportError"}, **_outcomes(a="passed")}
    result = compat.classify("lib", "1", _outcomes(a="passed"), wrapped, [])
    assert [(c.test, c.direction, c.message) for c in result.changes] == [("t.py", "fails", "ImportError")]


def test_the_committed_table_parses_and_cites_sections() -> None:
    rules = compat.load_rules(compat.DEFAULT_TABLE)
    names = {spec.name for spec in compat.LIBRARIES}
    assert all(rule.library in names for rule in rules)
    assert all("§" in rule.rule for rule in rules)


@pytest.mark.parametrize(
    ("row", "complaint"),
    [
        ({"library": "lib", "rule": "no section", "tests": ["a"]}, "citing a section"),
        ({"library": "lib", "rule": "§1", "tests": []}, "non-empty list"),
        ({"library": "lib", "rule": "§1", "tests": ["a"], "direction": "up"}, "direction"),
        ({"library": "lib", "rule": "§1", "tests": ["a"], "why": "x"}, "unknown key"),
        ({"rule": "§1", "tests": ["a"]}, "library"),
    ],
)
def test_bad_table_rows_are_named(row: dict[str, Any], complaint: str) -> None:
    with pytest.raises(compat.ToolError, match=complaint):
        compat.parse_rules({"change": [row]}, "t.toml")


def test_a_test_in_two_rows_is_refused() -> None:
    rows = [{"library": "lib", "rule": "§1", "tests": ["a"]}, {"library": "lib", "rule": "§2", "tests": ["a"]}]
    with pytest.raises(compat.ToolError, match="already in row #1"):
        compat.parse_rules({"change": rows})


def test_find_sdist_normalizes_names(tmp_path: Path) -> None:
    (tmp_path / "linkify_it_py-2.2.0.tar.gz").write_bytes(b"")
    (tmp_path / "urlextract-1.9.0.tar.gz").write_bytes(b"")
    assert compat.find_sdist(tmp_path, "linkify-it-py", "2.2.0") == tmp_path / "linkify_it_py-2.2.0.tar.gz"
    assert compat.find_sdist(tmp_path, "urlextract", "1.10.0") is None
    assert compat.find_sdist(tmp_path / "absent", "urlextract", "1.9.0") is None


def test_a_failed_download_names_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        assert "--no-binary" in cmd and ":all:" in cmd and "urlextract==1.10.0" in cmd
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: No matching distribution found")

    monkeypatch.setattr(compat.subprocess, "run", fake_run)
    with pytest.raises(compat.ToolError, match=r"urlextract==1\.10\.0 failed:\nERROR: No matching"):
        compat.fetch_sdist(sys.executable, "urlextract", "1.10.0", tmp_path)


def test_cli_reports_a_missing_table_without_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert compat.main(["--table", str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert "cannot read the explanation table" in err and "Traceback" not in err


def test_markdown_escapes_pipes_and_marks_regressions() -> None:
    raw = _outcomes(soft="passed", regress="passed")
    wrapped = _outcomes(soft="failed", regress="failed")
    rules = [compat.Rule("lib", "§3.4: '|' is Include", ("t.py::soft",))]
    text = compat.render_markdown([compat.classify("lib", "1", raw, wrapped, rules)], "/x")
    assert "'\\|' is Include" in text
    assert "regression" in text and "| lib | 1 | all | 2/2 | 0/2 |" in text


# --- the plugin's patches --------------------------------------------------------------------


class Backend:
    made = 0

    def __init__(self, option: int = 0) -> None:
        Backend.made += 1
        self.option = option
        self.helper: Backend | None = None


class Wrapper(Backend):
    def __init__(self, inner: Backend) -> None:  # a proxy: Backend.__init__ is not called
        self.inner = inner


def test_standin_builds_wrapped_instances_and_keeps_isinstance() -> None:
    inside: list[object] = []

    def wrap(obj: Backend) -> Wrapper:
        inside.append(Standin(7))  # built inside wrap(): a plain instance, not wrapped again
        return Wrapper(obj)

    Standin = plugin.standin_class(Backend, wrap)
    made = Standin(3)
    assert isinstance(made, Wrapper) and made.inner.option == 3
    assert type(inside[0]) is Backend
    assert isinstance(Backend(), Standin) and issubclass(Backend, Standin)
    assert Standin.__name__ == "Backend" and Standin.__module__ == Backend.__module__


def test_attribute_patch_wraps_after_init() -> None:
    class Owner:
        def __init__(self, with_helper: bool) -> None:
            self.helper = Backend() if with_helper else None

    plugin.wrap_attribute_after_init(Owner, "helper", Wrapper)
    assert isinstance(Owner(True).helper, Wrapper)
    assert Owner(False).helper is None


def test_replace_and_construct_patches_act_on_the_named_module(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = ModuleType("fake_linkifier")
    fake.urlize = lambda text: f"old {text}"  # type: ignore[attr-defined]
    fake.Backend = Backend  # type: ignore[attr-defined]
    upgrade = ModuleType("fake_upgrade")
    upgrade.urlize = lambda text: f"new {text}"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_linkifier", fake)
    monkeypatch.setitem(sys.modules, "fake_upgrade", upgrade)

    plugin.apply_patch("replace:fake_linkifier:urlize=fake_upgrade:urlize", Wrapper)
    plugin.apply_patch("construct:fake_linkifier:Backend", Wrapper)
    assert fake.urlize("x") == "new x"  # type: ignore[attr-defined]
    assert isinstance(fake.Backend(), Wrapper)  # type: ignore[attr-defined]
    assert Backend is not fake.Backend  # type: ignore[attr-defined]  # the real class is untouched


def test_replace_counts_each_call_and_init_calls_the_installer(monkeypatch: pytest.MonkeyPatch) -> None:
    class Environment:
        def __init__(self) -> None:
            self.filters = {"urlize": "old"}

    fake = ModuleType("fake_templates")
    fake.Environment = Environment  # type: ignore[attr-defined]
    fake.urlize = lambda text: f"old {text}"  # type: ignore[attr-defined]
    upgrade = ModuleType("fake_upgrade")
    upgrade.urlize = lambda text: f"new {text}"  # type: ignore[attr-defined]
    upgrade.install = lambda env: env.filters.update(urlize="new")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_templates", fake)
    monkeypatch.setitem(sys.modules, "fake_upgrade", upgrade)
    uses: list[int] = []

    plugin.apply_patch("replace:fake_templates:urlize=fake_upgrade:urlize", Wrapper, lambda: uses.append(1))
    plugin.apply_patch("init:fake_templates:Environment=fake_upgrade:install", Wrapper, lambda: uses.append(2))
    assert uses == []  # patching alone uses nothing
    assert fake.urlize("x") == "new x"  # type: ignore[attr-defined]
    assert fake.Environment().filters == {"urlize": "new"}  # type: ignore[attr-defined]
    assert Environment().filters == {"urlize": "new"}  # the class itself is patched (subclasses too)
    assert uses == [1, 2, 2]


def test_replace_with_a_class_keeps_a_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """docutils' ``Parser`` is replaced by a class: the stand-in is a subclass (its class attributes,
    such as ``settings_spec``, stay readable), and each instance counts as a use."""

    class Parser:
        settings_spec = ("options",)

        def __init__(self, rfc2822: bool = False) -> None:
            self.rfc2822 = rfc2822

    class Upgraded(Parser):
        pass

    fake = ModuleType("fake_parsers")
    fake.Parser = Parser  # type: ignore[attr-defined]
    upgrade = ModuleType("fake_parser_upgrade")
    upgrade.Parser = Upgraded  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_parsers", fake)
    monkeypatch.setitem(sys.modules, "fake_parser_upgrade", upgrade)
    uses: list[int] = []
    plugin.apply_patch("replace:fake_parsers:Parser=fake_parser_upgrade:Parser", Wrapper, lambda: uses.append(1))
    standin = fake.Parser  # type: ignore[attr-defined]
    assert isinstance(standin, type) and issubclass(standin, Upgraded)
    assert standin.settings_spec == ("options",) and standin.__name__ == "Upgraded"
    assert standin(rfc2822=True).rfc2822 is True
    assert uses == [1]


def test_unknown_patch_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown patch kind"):
        plugin.apply_patch("swap:os:path", lambda x: x)


def test_run_suite_end_to_end_with_the_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real plugin in a real pytest subprocess, on a fabricated library and a stand-in uts58_adapt."""
    lib = tmp_path / "site"
    (lib / "fakelib").mkdir(parents=True)
    (lib / "fakelib" / "__init__.py").write_text("class Thing:\n    wrapped = False\n")
    fake_root = tmp_path / "checkout"
    (fake_root / "uts58_adapt").mkdir(parents=True)
    (fake_root / "uts58_adapt" / "__init__.py").write_text("def wrap(obj):\n    obj.wrapped = True\n    return obj\n")
    source = tmp_path / "sdist"
    (source / "tests").mkdir(parents=True)
    (source / "tests" / "test_thing.py").write_text(
        textwrap.dedent(
            """
            import pytest
            from fakelib import Thing

            @pytest.mark.timeout(2.5)
            def test_time_limit_is_scaled(request):
                assert request.node.get_closest_marker("timeout").args[0] == 5.0

            def test_raw_behaviour():
                assert not Thing().wrapped

            def test_either():
                assert isinstance(Thing(), Thing)

            def test_skipped():
                pytest.skip("no")
            """
        )
    )
    spec = compat.LibrarySpec("fakelib", ("fakelib",), ("construct:fakelib:Thing",), ("tests",))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(lib))
    raw = compat.run_suite(sys.executable, spec, source, "raw", work, fake_root, 120, timeout_scale=2.0)
    wrapped = compat.run_suite(sys.executable, spec, source, "wrapped", work, fake_root, 120, timeout_scale=2.0)
    assert wrapped["meta"]["uts58_adapt"] == str((fake_root / "uts58_adapt").resolve())
    assert raw["meta"]["uts58_adapt"] is None
    assert (raw["meta"]["wraps"], wrapped["meta"]["wraps"]) == (0, 2)  # one Thing() per test that ran
    result = compat.classify("fakelib", "0", raw["tests"], wrapped["tests"], [])
    assert (result.raw_passed, result.raw_total, result.wrapped_passed) == (3, 3, 2)
    assert [(c.test, c.wrapped) for c in result.changes] == [("tests/test_thing.py::test_raw_behaviour", "failed")]
    assert "assert not True" in result.changes[0].message


def test_markdown_code_spans_survive_backticks() -> None:
    assert compat._markdown_code("test_x[`a|b`]") == "`` test_x[`a\\|b`] ``"
    assert compat._markdown_code("plain") == "`plain`"


def test_add_files_copies_and_writes_into_the_sdist(tmp_path: Path) -> None:
    spec = compat.LibrarySpec(
        "lib",
        (),
        (),
        (),
        copies={"t/data.txt": "tests/data/cmark-gfm-autolinks.txt"},
        writes={"t/test_x.py": "x = 1\n"},
    )
    compat.add_files(spec, tmp_path)
    assert (tmp_path / "t" / "data.txt").read_bytes() == (REPO / "tests/data/cmark-gfm-autolinks.txt").read_bytes()
    assert (tmp_path / "t" / "test_x.py").read_text() == "x = 1\n"
    missing = compat.LibrarySpec("lib", (), (), (), copies={"a.txt": "tests/data/absent.txt"})
    with pytest.raises(compat.ToolError, match=r"cannot read tests/data/absent\.txt for the lib suite"):
        compat.add_files(missing, tmp_path)


def test_cmark_gfm_autolink_examples_raw_and_wrapped(tmp_path: Path) -> None:
    """The cmarkgfm entry's added suite (cmark-gfm's autolink spec examples, not in the sdist) run
    by the real plugin, raw and wrapped, without the sdist: every example passes raw, and what
    fails wrapped is what the committed table explains (no problem for --check)."""
    pytest.importorskip("cmarkgfm")
    (spec,) = [s for s in compat.LIBRARIES if s.name == "cmarkgfm"]
    runner = "tests/test_uts58_cmark_autolinks.py"
    assert runner in spec.writes and runner in spec.test_args
    spec = compat.LibrarySpec(spec.name, spec.modules, spec.patches, (runner,), copies=spec.copies, writes=spec.writes)
    source = tmp_path / "sdist"
    compat.add_files(spec, source)
    work = tmp_path / "work"
    work.mkdir()
    raw = compat.run_suite(sys.executable, spec, source, "raw", work, REPO, 300)
    wrapped = compat.run_suite(sys.executable, spec, source, "wrapped", work, REPO, 300)
    assert wrapped["meta"]["wraps"] > 0
    rules = [r for r in compat.load_rules(compat.DEFAULT_TABLE) if r.library == "cmarkgfm"]
    result = compat.classify("cmarkgfm", "0", raw["tests"], wrapped["tests"], rules)
    assert (result.raw_passed, result.raw_total) == (15, 15)  # 14 examples and the count of them
    assert (result.wrapped_passed, len(result.changes)) == (13, 2)
    assert compat.problems([result]) == []
