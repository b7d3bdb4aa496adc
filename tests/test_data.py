"""The official Unicode files the repository carries (data/unicode/, issue 34): found with nothing
beside the checkout, shipped in the wheel (the linkification files), refreshed by tools/refresh_data.py."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from uts58_adapt import _data

from conftest import REPO, REPO_DATA, _find_data_dir, load_module

#: The files of one release directory that the tests, the conformance command and the generator read.
_RELEASE_FILES = [
    "17.0.0/linkification/LinkBracket.txt",
    "17.0.0/linkification/LinkDetectionTest.txt",
    "17.0.0/linkification/LinkEmail.txt",
    "17.0.0/linkification/LinkFormattingTest.txt",
    "17.0.0/linkification/LinkTerm.txt",
    "17.0.0/ucd/BidiBrackets.txt",
    "17.0.0/ucd/Blocks.txt",
    "17.0.0/ucd/DerivedCoreProperties.txt",
    "17.0.0/ucd/LineBreak.txt",
    "17.0.0/ucd/PropList.txt",
    "17.0.0/ucd/ScriptExtensions.txt",
    "17.0.0/ucd/Scripts.txt",
    "17.0.0/ucd/UnicodeData.txt",
    "17.0.0/ucd/extracted/DerivedGeneralCategory.txt",
    "17.0.0/idna/Idna2008.txt",
    "17.0.0/idna/IdnaMappingTable.txt",
    "17.0.0/idna/IdnaTestV2.txt",
    "17.0.0/security/IdentifierStatus.txt",
    "17.0.0/security/confusables.txt",
]
#: Every official file a test, the conformance command or tools/generate_tables.py reads: those
#: of 17.0.0 and of the 18.0.0 draft (issue 37.2), and the corrected 17.0.0 formatting test.
READ_FILES = [
    *_RELEASE_FILES,
    *(name.replace("17.0.0/", "18.0.0-draft/", 1) for name in _RELEASE_FILES),
    "dev/linkification/LinkFormattingTest.txt",
]


def test_the_repository_carries_every_file_read() -> None:
    missing = [name for name in READ_FILES if not (REPO_DATA / name).is_file()]
    assert not missing
    carried = sorted(p.relative_to(REPO_DATA).as_posix() for p in REPO_DATA.rglob("*.txt"))
    assert carried == sorted(READ_FILES)


def test_every_input_of_the_table_generator_is_carried() -> None:
    # CI once failed on a fresh clone: the security tables read ucd/UnicodeData.txt, which
    # data/unicode/ lacked (tools/generate_tables.py names its inputs; the list above must hold them).
    generator = load_module("generate_tables", REPO / "tools" / "generate_tables.py")
    assert set(generator.VERSIONS.values()) == {"17.0.0", "18.0.0-draft"}
    inputs: set[str] = set()
    for release in generator.VERSIONS.values():  # each data version the generator takes
        inputs |= {f"{release}/ucd/{name}" for name in generator.INPUT_FILES}
        inputs |= {f"{release}/{name}" for name in generator.SECURITY_INPUTS}
        inputs |= {f"{release}/idna/{name}" for name in generator.IDNA_INPUT_FILES}
    assert sorted(inputs - set(READ_FILES)) == []


def test_the_draft_files_are_the_official_ones_byte_for_byte() -> None:
    # Copied, not edited: each carried 18.0.0 draft file is the official one, byte for byte, when
    # the official copy is at tools/refresh_data.py's default source (beside the checkout).
    refresh = _refresh()
    source = refresh.DEFAULT_SOURCE
    if not (source / "18.0.0-draft").is_dir():
        pytest.skip(f"no official copy of the 18.0.0 draft at {source} to compare with")
    drafts = [name for name in READ_FILES if name.startswith("18.0.0-draft/")]
    assert len(drafts) == 19
    differ = [name for name in drafts if (source / name).read_bytes() != (REPO_DATA / name).read_bytes()]
    assert differ == []


def test_each_file_is_the_official_one_with_its_license() -> None:
    # The headers unicode.org gives its files; the license note beside them.
    for name in READ_FILES:
        head = (REPO_DATA / name).read_bytes()[:600]
        if name.endswith("UnicodeData.txt"):  # the one file without a header: its first record
            assert head.startswith(b"0000;<control>;Cc;0;BN;;;;;N;NULL;;;;\n"), name
        else:
            assert b"Unicode" in head, name
        assert b"\r\n" not in head, name
    assert (REPO_DATA / "LICENSE").read_text(encoding="utf-8").startswith("UNICODE LICENSE V3\n")


def test_the_tests_use_the_repository_data_without_an_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UTS58_DATA_DIR", raising=False)
    assert _find_data_dir() == REPO_DATA


def test_the_package_finds_the_checkout_data_and_honours_the_override(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("UTS58_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)  # nothing relative to the working directory
    assert _data.data_dir() == REPO_DATA
    (tmp_path / "17.0.0" / "linkification").mkdir(parents=True)
    monkeypatch.setenv("UTS58_DATA_DIR", str(tmp_path))
    assert _data.data_dir() == tmp_path.resolve()
    monkeypatch.setenv("UTS58_DATA_DIR", str(tmp_path / "nowhere"))
    assert _data.data_dir() is None  # a wrong override is reported, not replaced


def test_an_installed_wheel_finds_its_package_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("UTS58_DATA_DIR", raising=False)
    monkeypatch.setattr(_data, "CHECKOUT_DATA", tmp_path / "no-checkout")
    package = tmp_path / "_unicode_data"
    (package / "17.0.0" / "linkification").mkdir(parents=True)
    monkeypatch.setattr(_data, "PACKAGE_DATA", package)
    assert _data.data_dir() == package


def test_the_wheel_maps_the_linkification_files_into_the_package() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["uts58_adapt._unicode_data"] == "data/unicode"
    assert config["include-package-data"] is False
    patterns = config["package-data"]["uts58_adapt._unicode_data"]
    shipped = sorted({p.relative_to(REPO_DATA).as_posix() for pattern in patterns for p in REPO_DATA.glob(pattern)})
    assert shipped == sorted(["LICENSE"] + [n for n in READ_FILES if "/linkification/" in n])
    # The package list names every package directory (it is a list, not found, because of the mapping).
    on_disk = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "uts58_adapt").rglob("__init__.py")}
    assert on_disk | {"uts58_adapt._unicode_data"} == set(config["packages"])


def test_conformance_with_no_flags_and_no_override(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UTS58_")}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt", "conformance", "--backend", "urlextract"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"data directory: {REPO_DATA}\n")
    assert proc.stdout.endswith("OK: every score is the correct one\n")


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt", "detect", "--format", "marked"],
        input="see example.com/a.\n",
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "see ⸠example.com/a⸡.\n", "")


# --- tools/refresh_data.py ----------------------------------------------------------------------


def _refresh() -> object:
    return load_module("refresh_data", REPO / "tools" / "refresh_data.py")


def test_refresh_copies_what_changed_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, source = tmp_path / "data", tmp_path / "source"
    for root in (data, source):
        (root / "17.0.0" / "ucd").mkdir(parents=True)
        (root / "18.0.0-draft" / "linkification").mkdir(parents=True)
    (data / "LICENSE").write_text("ours\n")
    (data / "17.0.0" / "ucd" / "Same.txt").write_bytes(b"# Same.txt\n0041;x\n")
    (source / "17.0.0" / "ucd" / "Same.txt").write_bytes(b"# Same.txt\n0041;x\n")
    (data / "18.0.0-draft" / "linkification" / "LinkTerm.txt").write_bytes(b"# Date: 2025-01-01\n0041;Hard\n")
    (source / "18.0.0-draft" / "linkification" / "LinkTerm.txt").write_bytes(b"# Date: 2026-02-02\n0041;Soft\n")
    (source / "17.0.0" / "ucd" / "NotCarried.txt").write_bytes(b"x\n")
    refresh = _refresh()
    assert refresh.main([str(source), "--data", str(data), "--check"]) == 1
    assert (data / "18.0.0-draft" / "linkification" / "LinkTerm.txt").read_bytes().endswith(b"Hard\n")
    capsys.readouterr()
    assert refresh.main([str(source), "--data", str(data)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "changed  18.0.0-draft/linkification/LinkTerm.txt  29 -> 29 bytes; Date: 2025-01-01 -> 2026-02-02",
        f"2 files in 17.0.0, 18.0.0-draft: 1 changed, 0 missing from {source}",
    ]
    assert (data / "18.0.0-draft" / "linkification" / "LinkTerm.txt").read_bytes().endswith(b"Soft\n")
    assert not (data / "17.0.0" / "ucd" / "NotCarried.txt").exists()
    assert refresh.main([str(source), "--data", str(data)]) == 0
    (source / "17.0.0" / "ucd" / "Same.txt").unlink()
    capsys.readouterr()
    assert refresh.main([str(source), "--data", str(data)]) == 2
    assert f"missing  17.0.0/ucd/Same.txt  (not in {source})" in capsys.readouterr().out


# --- Where the data is said to be ------------------------------------------------------------------

#: The old default place of the data beside the checkout (spelled so that this file does not name it:
#: ``git grep`` for it finds only the files below).
OLD_PLACE = "/".join(("shared", "unicode"))
#: Files that may name it: the refresh script's default source, and the docs of the override.
MAY_NAME_SHARED = {"tools/refresh_data.py", "docs/data.md", "docs/development.md"}


def test_only_the_refresh_script_and_the_override_docs_name_shared_unicode() -> None:
    tracked = [REPO / "README.md", REPO / ".ci" / "run", REPO / "pyproject.toml"]
    for folder in ("docs", "tests", "tools", "uts58_adapt", "benchmarks"):
        tracked += [p for p in (REPO / folder).rglob("*") if p.suffix in {".py", ".md", ".toml", ".yml", ".txt"}]
    naming = {
        p.relative_to(REPO).as_posix()
        for p in tracked
        if p.is_file() and "__pycache__" not in p.parts and OLD_PLACE in p.read_text("utf-8", "replace")
    }
    assert naming <= MAY_NAME_SHARED, naming - MAY_NAME_SHARED
