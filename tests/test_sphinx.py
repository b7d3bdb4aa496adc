"""``extensions = ["uts58_adapt.integrations.sphinx"]``: UTS #58 links in a Sphinx build (issue 35.2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

from sphinx.cmd.build import build_main

pytestmark = pytest.mark.slow  # each test runs a Sphinx build (about a second)

RST = "Title\n=====\n\nVisit https://例え.jp/テスト」です and https://en.wikipedia.org/wiki/Antenna_(radio).\n"
MD = "# Page\n\nVisit https://例え.jp/テスト」です and www.example.com/パス。\n"


def _build(tmp_path: Path, conf: str, files: dict[str, str]) -> dict[str, str]:
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / "conf.py").write_text(conf, encoding="utf-8")
    for name, text in files.items():
        (src / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert build_main(["-q", "-b", "html", "-E", str(src), str(out)]) == 0
    return {name: (out / (Path(name).stem + ".html")).read_text(encoding="utf-8") for name in files}


def _paragraph(page: str) -> str:
    m = re.search(r"<p>Visit.*?</p>", page, re.DOTALL)
    assert m is not None
    return m.group()


def test_rst_links_refined(tmp_path: Path) -> None:
    pages = _build(tmp_path, 'extensions = ["uts58_adapt.integrations.sphinx"]\n', {"index.rst": RST})
    # Written from the spec: 」 is a Close without its opener (§3.5.1 ends the path before it);
    # the ) closes the ( of the path and the final . is Soft.
    assert _paragraph(pages["index.rst"]) == (
        '<p>Visit <a class="reference external" href="https://例え.jp/テスト">https://例え.jp/テスト</a>」です and '
        '<a class="reference external" href="https://en.wikipedia.org/wiki/Antenna_(radio)">'
        "https://en.wikipedia.org/wiki/Antenna_(radio)</a>.</p>"
    )


def test_without_the_extension_sphinx_cuts_the_links(tmp_path: Path) -> None:
    pages = _build(tmp_path, "extensions = []\n", {"index.rst": RST})
    assert 'href="https:/"' in _paragraph(pages["index.rst"])  # docutils alone (the table)


def test_myst_linkify_wrapped(tmp_path: Path) -> None:
    pytest.importorskip("myst_parser")
    pytest.importorskip("linkify_it")
    conf = 'extensions = ["uts58_adapt.integrations.sphinx", "myst_parser"]\nmyst_enable_extensions = ["linkify"]\n'
    index = RST + "\n.. toctree::\n\n   page\n"
    pages = _build(tmp_path, conf, {"index.rst": index, "page.md": MD})
    # MyST writes the href through markdown-it's normalizeLink (punycode host, percent-escaped path).
    assert _paragraph(pages["page.md"]) == (
        '<p>Visit <a class="reference external" href="https://xn--r8jz45g.jp/%E3%83%86%E3%82%B9%E3%83%88">'
        "https://例え.jp/テスト</a>」です and "
        '<a class="reference external" href="http://www.example.com/%E3%83%91%E3%82%B9">www.example.com/パス</a>。</p>'
    )


def test_myst_alone_is_untouched_without_the_extension(tmp_path: Path) -> None:
    pytest.importorskip("myst_parser")
    pytest.importorskip("linkify_it")
    conf = 'extensions = ["myst_parser"]\nmyst_enable_extensions = ["linkify"]\n'
    pages = _build(tmp_path, conf, {"index.md": MD})
    # linkify-it-py alone takes the 」です and the final 。 (what the extension changes).
    assert _paragraph(pages["index.md"]) == (
        '<p>Visit <a class="reference external" href="https://xn--r8jz45g.jp/'
        '%E3%83%86%E3%82%B9%E3%83%88%E3%80%8D%E3%81%A7%E3%81%99">https://例え.jp/テスト」です</a> and '
        '<a class="reference external" href="http://www.example.com/%E3%83%91%E3%82%B9%E3%80%82">www.example.com/パス。</a></p>'
    )


def test_i18n_translated_messages(tmp_path: Path) -> None:
    """A translated message (a .po file of an i18n build) is parsed by the registered reST parser."""
    po = tmp_path / "src" / "locale" / "ja" / "LC_MESSAGES"
    po.mkdir(parents=True)
    (po / "index.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Visit the guide."\nmsgstr "Visit https://example.com/パス。次へ"\n',
        encoding="utf-8",
    )
    conf = 'extensions = ["uts58_adapt.integrations.sphinx"]\nlanguage = "ja"\nlocale_dirs = ["locale"]\n'
    pages = _build(tmp_path, conf, {"index.rst": "Title\n=====\n\nVisit the guide.\n"})
    # §3.5.1: 。 is Soft and followed by Include characters, so it is inside the link.
    assert _paragraph(pages["index.rst"]) == (
        '<p>Visit <a class="reference external" href="https://example.com/パス。次へ">https://example.com/パス。次へ</a></p>'
    )


def test_strict_hosts_option(tmp_path: Path) -> None:
    conf = 'extensions = ["uts58_adapt.integrations.sphinx"]\nuts58_strict_hosts = True\n'
    pages = _build(
        tmp_path, conf, {"index.rst": "Title\n=====\n\nVisit http://localhost:8000/x and https://例え.jp/a。\n"}
    )
    # §1.4's registrable-domain rule: localhost is no registrable domain (docutils alone links it).
    assert _paragraph(pages["index.rst"]) == (
        '<p>Visit http://localhost:8000/x and <a class="reference external" href="https://例え.jp/a">https://例え.jp/a</a>。</p>'
    )


def test_metadata() -> None:
    from uts58_adapt.integrations import sphinx as extension

    class App:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def add_config_value(self, *args: object, **kwargs: object) -> None:
            self.calls.append(f"config {args[0]}")

        def add_source_parser(self, parser: type, override: bool = False) -> None:
            self.calls.append(f"parser {parser.__name__} {override}")

        def connect(self, event: str, callback: object) -> None:
            self.calls.append(f"connect {event}")

    app = App()
    meta = extension.setup(app)  # type: ignore[arg-type]
    assert meta["parallel_read_safe"] is True and meta["parallel_write_safe"] is True
    assert "parser RSTParser True" in app.calls and "connect builder-inited" in app.calls
