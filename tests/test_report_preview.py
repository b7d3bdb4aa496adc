"""Issue 33: the audit is the migration preview, and it never clobbers or misreports its inputs.

The differential test (33.7): for linkify-it and urlextract, on the sample corpus, a dense
multilingual corpus and intranet-style lines, each line's report "before" is exactly the
default instance's spans and its "after" exactly ``wrap(instance)``'s.  The report lists
only changed links, so the test checks, line by line, that the listed "before" spans are
the instance's, the listed "after" spans are the upgrade's, and that what is left of each
(the unchanged links, counted and not listed) is the same; the summary's totals close it.
The expected spans come from the libraries' own public calls, not from the report's code.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from importlib import resources
from pathlib import Path

import pytest
from linkify_it import LinkifyIt
from urlextract import URLExtract

from uts58_adapt import wrap
from uts58_adapt.cli import main

from conftest import REPO, dense_paragraphs, require_data

INTRANET = [
    "Admin at http://localhost:8000/admin and the wiki at http://intranet/wiki/Home today.",
    "Log in: https://app.staging.internal/login (VPN) or check http://printer.local/status.",
    "Mirrors: svn://svn.example.org/repo/trunk git://git.example.org/project.git ssh://git@example.com/x.git",
    "Files: methods/rsh.cc",
    "see net/base/escape.cc and foo_unittest.cc",
    "uile.io/מיזם。me and example.com/a).",
]


def _linkify_it_spans(line: str) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    before = {(m.index, m.last_index) for m in LinkifyIt().match(line) or ()}
    after = {(m.index, m.last_index) for m in wrap(LinkifyIt()).match(line) or ()}
    return before, after


def _urlextract_spans(line: str) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    def spans(found: list) -> set[tuple[int, int]]:
        out = set()
        for url, (start, end) in found:
            if line[start:end] != url:  # urlextract's indices can be off: its string decides
                start = line.find(url, max(0, start - len(url)))
                end = start + len(url)
            out.add((start, end))
        return out

    return spans(URLExtract().find_urls(line, get_indices=True)), spans(
        wrap(URLExtract()).find_urls(line, get_indices=True)
    )


SPANS = {"linkify-it": _linkify_it_spans, "urlextract": _urlextract_spans}


def _corpora(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    sample = resources.files("uts58_adapt") / "corpora" / "sample.txt"
    (corpus / "sample.txt").write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    (corpus / "dense.txt").write_text("\n".join(dense_paragraphs(20_000)) + "\n", encoding="utf-8")
    (corpus / "intranet.txt").write_text("\n".join(INTRANET) + "\n", encoding="utf-8")
    return corpus


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_report_before_is_the_instance_and_after_is_wrap(tmp_path: Path, backend: str) -> None:
    require_data("17.0.0", "linkification", "LinkDetectionTest.txt")
    corpus = _corpora(tmp_path)
    out = tmp_path / "r.json"
    assert main(["report", str(corpus), "--backend", backend, "-q", "-j", "1", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["audit"]["mode"] == "upgrade"
    listed: dict[tuple[str, int], tuple[set, set]] = defaultdict(lambda: (set(), set()))
    for c in report["changes"]:
        b, a = listed[(c["source"], c["line"])]
        if c["before"] is not None:
            b.add(tuple(c["before"]))
        if c["after"] is not None:
            a.add(tuple(c["after"]))
    totals = [0, 0, 0]
    lines_seen = 0
    for path in sorted(corpus.iterdir()):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n")[:-1], 1):
            lines_seen += 1
            before, after = SPANS[backend](line)
            b, a = listed.get((str(path), lineno), (set(), set()))
            where = f"{path.name}:{lineno}: {line!r}"
            assert b <= before, where  # every listed "before" is the instance's own link
            assert a <= after, where  # every listed "after" is the upgrade's
            assert before - b == after - a, where  # the rest: the same links, unchanged
            totals[0] += len(before)
            totals[1] += len(after)
            totals[2] += len(before - b)
    s = report["summary"]
    assert s["lines"] == lines_seen
    assert (s["links_before"], s["links_after"], s["unchanged"]) == tuple(totals)


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_intranet_links_the_library_keeps_are_not_reported_removed(tmp_path: Path, backend: str) -> None:
    (tmp_path / "intranet.txt").write_text("\n".join(INTRANET) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", str(tmp_path / "intranet.txt"), "--backend", backend, "-q", "-o", str(out)]) == 0
    changes = json.loads(out.read_text(encoding="utf-8"))["changes"]
    texts = {c["before_text"] for c in changes if c["kind"] == "removed"}
    for kept in ("http://localhost:8000/admin", "http://intranet/wiki/Home", "https://app.staging.internal/login"):
        assert kept not in texts
    # Nothing starts inside a token where the library linked nothing (issue 26.5 / 33.3).
    assert not [
        c for c in changes if c["kind"] == "added" and c["after_text"] in ("rsh.cc", "escape.cc", "unittest.cc")
    ]
    # detect()'s audit, now an option, still reports them.
    assert main(["report", str(tmp_path / "intranet.txt"), "--backend", backend, "--detect", "-q", "-o", str(out)]) == 0
    strict = json.loads(out.read_text(encoding="utf-8"))
    assert strict["audit"]["mode"] == "detect" and strict["audit"]["strict_hosts"] is True
    assert "http://localhost:8000/admin" in {c["before_text"] for c in strict["changes"] if c["kind"] == "removed"}


def test_strict_hosts_is_an_option_and_recorded(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("see http://localhost:8000/admin\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", str(tmp_path / "a.txt"), "--strict-hosts", "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["audit"]["after"] == "wrap(LinkifyIt(), strict_hosts=True).match(line)"
    assert report["options"]["strict_hosts"] is True
    (change,) = report["changes"]
    assert (change["kind"], change["reason"]) == ("removed", "invalid-host")


def test_linkifier_audits_the_team_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "team_links.py").write_text(
        "from linkify_it import LinkifyIt\n"
        "from markdown_it import MarkdownIt\n"
        "linkifier = LinkifyIt().set({'fuzzy_email': False})\n"
        "def make_md():\n"
        "    return MarkdownIt('commonmark', {'linkify': True}).enable('linkify')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "a.txt").write_text("Mail anna@example.com or see example.com/a.\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", str(tmp_path / "a.txt"), "--linkifier", "team_links:linkifier", "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["configuration"]["options"]["fuzzy_email"] is False
    assert report["audit"]["linkifier"] == "team_links:linkifier"
    # fuzzy_email off: the email is linked neither before nor after (the upgrade keeps the switch).
    assert report["summary"]["links_before"] == report["summary"]["links_after"] == 1
    assert main(["report", str(tmp_path / "a.txt"), "--linkifier", "team_links:make_md", "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["configuration"]["options"]["fuzzy_email"] is True
    assert report["summary"]["links_before"] == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nocolon", "expected MODULE:ATTR"),
        ("no_such_module_x:y", "cannot import no_such_module_x"),
        ("json:nope", "json has no attribute nope"),
        ("json:dumps", "calling it failed"),
        ("json:JSONDecoder", "not a LinkifyIt, MarkdownIt, URLExtract, bleach Linker or Cleaner, or Jinja2"),
    ],
)
def test_a_bad_linkifier_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    assert main(["report", "--sample", "--linkifier", spec, "-q", "-o", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "r.json").exists()


def test_provenance_in_every_format(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("see example.com/a).\n", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"x.com \xff\n")
    paths = [str(tmp_path / "good.txt"), str(tmp_path / "bad.txt")]
    assert main(["report", *paths, "-q", "-o", str(tmp_path / "r.json")]) == 1
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    from importlib.metadata import version

    import idna

    assert report["tool"]["name"] == "uts58-adapt"
    assert report["libraries"] == {"linkify-it-py": version("linkify-it-py")}
    assert report["data"]["idna"] == idna.__version__ and report["data"]["unicode"] == "17.0.0"
    assert report["inputs"] == [{"source": paths[0], "lines": 1}]
    assert len(report["problems"]) == 1 and report["problems"][0].startswith(f"{paths[1]}: cannot decode line 1")
    assert report["summary"]["documents"] == 1
    for fmt in ("md", "html"):
        out = tmp_path / f"r.{fmt}"
        assert main(["report", *paths, "-q", "-o", str(out)]) == 1
        text = out.read_text(encoding="utf-8")
        for needed in ("wrap(LinkifyIt()).match(line)", "linkify-it-py", "idna", "good.txt (1 lines)", "cannot decode"):
            assert needed in text, (fmt, needed)
    # Byte-stable: the same inputs give the same bytes.
    again = tmp_path / "again.json"
    assert main(["report", *paths, "-q", "-o", str(again)]) == 1
    assert again.read_bytes() == (tmp_path / "r.json").read_bytes()


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "-q", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("contents", ["empty", "hidden", "binary"])
def test_no_document_read_keeps_the_output_and_exits_2(tmp_path: Path, contents: str) -> None:
    src = tmp_path / "src"
    src.mkdir()
    if contents == "hidden":
        (src / ".notes.txt").write_text("see example.com\n", encoding="utf-8")
    elif contents == "binary":
        (src / "blob.bin").write_bytes(b"\x00\x01example.com\n")
    previous = tmp_path / "audit.html"
    previous.write_text("<p>the good report</p>\n", encoding="utf-8")
    proc = _run("src", "-o", "audit.html", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "no document was read" in proc.stderr
    assert previous.read_text(encoding="utf-8") == "<p>the good report</p>\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.html", "src"]


@pytest.mark.parametrize("how", ["same", "dotted", "symlink", "in-directory"])
def test_output_naming_an_input_is_refused_before_any_work(tmp_path: Path, how: str) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("see example.com/a).\n", encoding="utf-8")
    inputs, output = ["notes.txt"], "notes.txt"
    if how == "dotted":
        output = "./notes.txt"
    elif how == "symlink":
        (tmp_path / "link.txt").symlink_to(notes)
        output = "link.txt"
    elif how == "in-directory":
        inputs = ["."]
    proc = _run(*inputs, "-o", output, "--format", "json", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "is the input" in proc.stderr and proc.stderr.count("\n") == 1
    assert notes.read_text(encoding="utf-8") == "see example.com/a).\n"


def test_a_file_that_shrinks_while_it_is_read_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58_adapt.report import runner

    big = tmp_path / "big.txt"
    big.write_bytes(b"see example.com/a). and more text here\n" * 60_000)  # ~2.3 MB: several blocks
    real = runner._ranges

    def cut_while_read(name: str, path: str, *args: object):  # type: ignore[no-untyped-def]
        for n, item in enumerate(real(name, path, *args)):  # type: ignore[arg-type]
            if n == 0:
                os.truncate(path, os.path.getsize(path) // 3)  # cut to a third mid-run
            yield item

    monkeypatch.setattr(runner, "_ranges", cut_while_read)
    out = tmp_path / "r.json"
    status = main(["report", str(big), "-q", "-j", "1", "-o", str(out)])
    assert status != 0
    assert not out.exists()  # the only input failed: no report


def test_ranges_raise_for_a_file_cut_during_the_read(tmp_path: Path) -> None:
    from uts58_adapt._io import InputError
    from uts58_adapt.report.runner import _ranges

    big = tmp_path / "big.txt"
    big.write_bytes(b"x.com line\n" * 300_000)  # 3.3 MB: more than one read block
    ranges = _ranges("big.txt", str(big), 500, 1 << 20, 1 << 22)
    next(ranges)
    os.truncate(big, big.stat().st_size // 3)
    with pytest.raises(InputError, match=r"big\.txt: changed during the audit"):
        list(ranges)


def test_detect_error_lines_escape_control_characters(tmp_path: Path) -> None:
    name = "a\x1b[2Jb\rforged: ok"
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "detect", name],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert "\x1b" not in proc.stderr and "\r" not in proc.stderr
    assert "a⟨U+001B⟩[2Jb⟨U+000D⟩forged: ok" in proc.stderr


def _anchor_spans(rendered: str) -> tuple[str, set[tuple[int, int]]]:
    """The text content of ``rendered`` and the spans of its ``<a>`` elements in it (html.parser)."""
    from html.parser import HTMLParser

    class Collector(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.text = ""
            self.spans: set[tuple[int, int]] = set()
            self.start: int | None = None

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "a":
                self.start = len(self.text)

        def handle_endtag(self, tag: str) -> None:
            if tag == "a" and self.start is not None:
                self.spans.add((self.start, len(self.text)))
                self.start = None

        def handle_data(self, data: str) -> None:
            self.text += data

    collector = Collector()
    collector.feed(rendered)
    collector.close()
    return collector.text, collector.spans


def _urlize_pair(backend: str):  # type: ignore[no-untyped-def]
    if backend == "mistune":
        mistune = pytest.importorskip("mistune")
        from uts58_adapt.integrations.mistune import url_plugin

        own, up = mistune.create_markdown(plugins=["url"]), mistune.create_markdown(plugins=[url_plugin()])
        return (lambda s: own(s)), (lambda s: up(s))
    if backend == "magiclink":
        markdown = pytest.importorskip("markdown")
        pytest.importorskip("pymdownx")
        own_md = markdown.Markdown(extensions=["pymdownx.magiclink"])
        up_md = markdown.Markdown(extensions=["uts58_adapt.integrations.magiclink"])
        return (lambda s: own_md.reset().convert(s)), (lambda s: up_md.reset().convert(s))
    if backend == "django":
        pytest.importorskip("django")
        from django.utils.html import urlize

        from uts58_adapt.backends.django import standalone_settings
        from uts58_adapt.integrations.django import urlize as upgraded

        standalone_settings()
        return (lambda s: urlize(s, autoescape=True)), (lambda s: upgraded(s, autoescape=True))
    jinja2 = pytest.importorskip("jinja2")
    from uts58_adapt.integrations.jinja2 import install

    env = jinja2.Environment()
    install(env)
    before, after = jinja2.Environment().from_string("{{ t|urlize }}"), env.from_string("{{ t|urlize }}")
    return (lambda s: before.render(t=s)), (lambda s: after.render(t=s))


@pytest.mark.parametrize("backend", ["django", "jinja2", "mistune", "magiclink"])
def test_report_agrees_with_the_integration_rendered_links(tmp_path: Path, backend: str) -> None:
    """33.7: the report's before and after are the links of the library's and the integration's HTML."""
    render_before, render_after = _urlize_pair(backend)
    corpus = _corpora(tmp_path)
    (corpus / "dense.txt").write_text("\n".join(dense_paragraphs(6_000)) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", str(corpus), "--backend", backend, "-q", "-j", "1", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    listed: dict[tuple[str, int], tuple[set, set]] = defaultdict(lambda: (set(), set()))
    for c in report["changes"]:
        b, a = listed[(c["source"], c["line"])]
        if c["before"] is not None:
            b.add(tuple(c["before"]))
        if c["after"] is not None:
            a.add(tuple(c["after"]))
    compared = total = 0
    for path in sorted(corpus.iterdir()):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n")[:-1], 1):
            total += 1
            text_b, before = _anchor_spans(render_before(line))
            text_a, after = _anchor_spans(render_after(line))
            if text_b.rstrip("\n") != line or text_a.rstrip("\n") != line:
                continue  # a display text the library shortened or rewrote: not placed by this simple reading
            compared += 1
            b, a = listed.get((str(path), lineno), (set(), set()))
            where = f"{path.name}:{lineno}: {line!r}"
            assert b <= before and a <= after and before - b == after - a, where
    assert compared >= 0.8 * total, (compared, total)


def test_bleach_preview_and_linkifier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """bleach: before is the Linker's own output, after wrap(Linker)'s; a Linker or Cleaner by --linkifier."""
    pytest.importorskip("bleach")
    import html

    from bleach.linkifier import Linker

    lines = [*INTRANET, "see example.com/a). <b>x</b> & anna@example.com?x=1&y=2", "Mail jürgen.müller@example.de now"]
    (tmp_path / "a.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "team_bleach.py").write_text(
        "from functools import partial\n"
        "from bleach.linkifier import Linker, LinkifyFilter\n"
        "from bleach.sanitizer import Cleaner\n"
        "linker = Linker(parse_email=True)\n"
        "cleaner = Cleaner(filters=[partial(LinkifyFilter, parse_email=True)])\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for extra, linker in (([], Linker()), (["--linkifier", "team_bleach:linker"], Linker(parse_email=True))):
        out = tmp_path / "r.json"
        assert main(["report", str(tmp_path / "a.txt"), "--backend", "bleach", *extra, "-q", "-o", str(out)]) == 0
        report = json.loads(out.read_text(encoding="utf-8"))
        assert report["audit"]["mode"] == "upgrade" and report["configuration"]["class"] == "bleach.linkifier.Linker"
        listed = _listed(report)
        for lineno, line in enumerate(lines, 1):
            escaped = html.escape(line, quote=False)
            text_b, before = _anchor_spans(linker.linkify(escaped))
            text_a, after = _anchor_spans(wrap(linker).linkify(escaped))
            assert text_b == text_a == line
            b, a = listed.get(lineno, (set(), set()))
            assert b <= before and a <= after and before - b == after - a, (lineno, line)
    out = tmp_path / "c.json"
    assert main(["report", str(tmp_path / "a.txt"), "--linkifier", "team_bleach:cleaner", "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["backend"] == "bleach" and report["configuration"]["class"] == "bleach.sanitizer.Cleaner"
    assert report["summary"]["links_before"] > 0


HTML_PAGE = (
    '<html><head><title>see example.com/t</title><script>var u="http://x.com/s";</script></head>\n'
    '<body><p>See <a href="http://x.com/a">http://x.com/a</a> and http://example.com/b<br></span> ok</p>\n'
    "<textarea>http://example.com/ta</textarea><!-- http://example.com/c -->\n"
    '<p class="http://example.com/attr">Mira ejemplo.es/página?año=2024&región=señal:</p></body></html>\n'
)
MARKDOWN_DOC = (
    "# Title\n"
    "\n"
    "See `http://example.com/code` and [x](http://example.com/l) and <https://example.com/auto> ok\n"
    "\n"
    "```\n"
    "Mira ejemplo.es/fence?año=2024&región=señal:\n"
    "```\n"
    "\n"
    "    Mira ejemplo.es/indented?año=2024&región=señal:\n"
    "\n"
    "[ref]: http://example.com/def\n"
    "Text: Mira ejemplo.es/página?año=2024&región=señal: end\n"
)


def test_markup_html_and_markdown_are_audited_over_their_text(tmp_path: Path) -> None:
    """33.6: by suffix, HTML over its text nodes and Markdown without code, links and inline
    HTML; the change's line, column and line text are the source's."""
    (tmp_path / "page.html").write_text(HTML_PAGE, encoding="utf-8")
    (tmp_path / "doc.md").write_text(MARKDOWN_DOC, encoding="utf-8")
    (tmp_path / "page.txt").write_text(HTML_PAGE, encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", str(tmp_path), "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    by_source: dict[str, list[dict]] = defaultdict(list)
    for c in report["changes"]:
        by_source[Path(c["source"]).name].append(c)
    # As text, the page's links run into its markup ("bracket-kept" into </title, <br></span …).
    assert any("<br></span" in (c["after_text"] or "") for c in by_source["page.txt"])
    html_line = HTML_PAGE.split("\n")[3]
    md_line = MARKDOWN_DOC.split("\n")[11]
    for name, line, lineno in (("page.html", html_line, 4), ("doc.md", md_line, 12)):
        (change,) = by_source[name]
        start = line.index("ejemplo.es/página")
        assert (change["line"], change["column"], change["kind"]) == (lineno, start + 1, "trimmed")
        assert change["before_text"] == "ejemplo.es/página?año=2024&región=señal:"
        assert change["line_text"] == line  # the source line, markup included
    # --markup text audits them as plain text again.
    assert main(["report", str(tmp_path / "page.html"), "--markup", "text", "-q", "-o", str(out)]) == 0
    as_text = json.loads(out.read_text(encoding="utf-8"))
    assert any("<br></span" in (c["after_text"] or "") for c in as_text["changes"])
    assert as_text["options"]["markup"] == "text"


@pytest.mark.parametrize("markup", ["html", "markdown"])
def test_mask_keeps_every_offset(markup: str) -> None:
    from uts58_adapt.report.markup import mask

    for text in (HTML_PAGE, MARKDOWN_DOC, HTML_PAGE + MARKDOWN_DOC, "<a href='x'>\nunclosed", "```\nno end", "`a`b``c"):
        masked = mask(text, markup)
        assert len(masked) == len(text)
        assert [i for i, ch in enumerate(masked) if ch == "\n"] == [i for i, ch in enumerate(text) if ch == "\n"]
        assert all(m in (t, " ") for m, t in zip(masked, text))


def test_linkifier_jinja2_environment_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """33.2: a Jinja2 Environment factory; its urlize policies decide the links, the upgrade is installed
    on an overlay (the team's Environment is left as it is)."""
    jinja2 = pytest.importorskip("jinja2")
    (tmp_path / "team_env.py").write_text(
        "import jinja2\n"
        "def make_env():\n"
        "    env = jinja2.Environment()\n"
        "    env.policies['urlize.extra_schemes'] = ['svn://']\n"
        "    return env\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    lines = ["get svn://svn.example.org/repo) now", "see http://localhost:8000/admin and example.com/a)."]
    (tmp_path / "a.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", str(tmp_path / "a.txt"), "--linkifier", "team_env:make_env", "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["backend"] == "jinja2"
    assert report["configuration"]["policies"]["urlize.extra_schemes"] == ["svn://"]
    import team_env  # type: ignore[import-not-found]

    from uts58_adapt.integrations.jinja2 import install

    env = team_env.make_env()
    upgraded = team_env.make_env()
    install(upgraded)
    listed = _listed(report)
    for lineno, line in enumerate(lines, 1):
        text_b, before = _anchor_spans(env.from_string("{{ t|urlize }}").render(t=line))
        text_a, after = _anchor_spans(upgraded.from_string("{{ t|urlize }}").render(t=line))
        assert text_b == text_a == line
        b, a = listed.get(lineno, (set(), set()))
        assert b <= before and a <= after and before - b == after - a, line
    assert report["summary"]["links_before"] >= 3  # the svn:// link of the extra scheme is one
    assert jinja2 is not None


MARKDOWN_LINES = [
    "see https://en.wikipedia.org/wiki/Antenna_(radio). ok",
    "詳細は https://example.com/パス」です and http://x.com/a」b",
    "mail bug@例え.jp or anna@example.com today",
    "x ~~https://x.com/a~~ y and www.example.com/(β)",
]


def _listed(report: dict) -> dict[int, tuple[set, set]]:
    listed: dict[int, tuple[set, set]] = defaultdict(lambda: (set(), set()))
    for c in report["changes"]:
        if c["before"] is not None:
            listed[c["line"]][0].add(tuple(c["before"]))
        if c["after"] is not None:
            listed[c["line"]][1].add(tuple(c["after"]))
    return listed


@pytest.mark.parametrize("backend", ["mistune", "magiclink"])
def test_linkifier_markdown_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """33.2: a mistune or Python-Markdown factory; the team's plugins and options stay, the
    integration replaces only the link rule.  The expected links come from renderers built here
    as the migration guides say (the integration named in place of the library's plugin)."""
    if backend == "mistune":
        mistune = pytest.importorskip("mistune")
        source = (
            "import mistune\n"
            "def make_md():\n"
            "    return mistune.create_markdown(plugins=['strikethrough', 'url'])\n"
            "def plain_md():\n"
            "    return mistune.create_markdown(plugins=['strikethrough'])\n"
            "instance = mistune.create_markdown(plugins=['url'])\n"
        )
        from uts58_adapt.integrations.mistune import url

        team = mistune.create_markdown(plugins=["strikethrough", "url"])
        guide = mistune.create_markdown(plugins=["strikethrough", url])
        render_b, render_a = team, guide
    else:
        markdown = pytest.importorskip("markdown")
        pytest.importorskip("pymdownx")
        options = "{'repo_url_shortener': True, 'user': 'team', 'repo': 'site'}"
        source = (
            "import markdown\n"
            "def make_md():\n"
            "    return markdown.Markdown(extensions=['pymdownx.magiclink', 'tables'],\n"
            f"        extension_configs={{'pymdownx.magiclink': {options}}})\n"
            "def plain_md():\n"
            "    return markdown.Markdown(extensions=['tables'])\n"
            "instance = markdown.Markdown()\n"
        )
        team_md = markdown.Markdown(
            extensions=["pymdownx.magiclink", "tables"], extension_configs={"pymdownx.magiclink": eval(options)}
        )
        guide_md = markdown.Markdown(
            extensions=["uts58_adapt.integrations.magiclink", "tables"],
            extension_configs={"uts58_adapt.integrations.magiclink": eval(options)},
        )

        def render_b(line: str) -> str:
            return str(team_md.reset().convert(line))

        def render_a(line: str) -> str:
            return str(guide_md.reset().convert(line))

    module = f"team_{backend}_md"
    (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "a.txt").write_text("\n".join(MARKDOWN_LINES) + "\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["report", str(tmp_path / "a.txt"), "--linkifier", f"{module}:make_md", "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["backend"] == backend and report["audit"]["linkifier"] == f"{module}:make_md"
    assert report["configuration"]["factory"] == "make_md"
    listed = _listed(report)
    total_before = total_after = 0
    for lineno, line in enumerate(MARKDOWN_LINES, 1):
        text_b, before = _anchor_spans(render_b(line))
        text_a, after = _anchor_spans(render_a(line))
        text_b, text_a = text_b.strip(), text_a.strip()
        assert text_b == text_a and text_b in (line, line.replace("~~", ""))
        if text_b != line:  # mistune's strikethrough took four characters away: no offsets to compare
            continue
        total_before, total_after = total_before + len(before), total_after + len(after)
        b, a = listed.get(lineno, (set(), set()))
        assert b <= before and a <= after and before - b == after - a, line
    assert total_before >= 3 and report["changes"]
    # The team's renderer without a link plugin links nothing bare: its upgrade invents nothing.
    assert main(["report", str(tmp_path / "a.txt"), "--linkifier", f"{module}:plain_md", "-q", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"]["links_before"] == report["summary"]["links_after"] == 0
    # An instance cannot be audited (its upgrade would change it): one line naming the remedy.
    assert main(["report", str(tmp_path / "a.txt"), "--linkifier", f"{module}:instance", "-q", "-o", str(out)]) == 2


def test_django_settings_module_is_recorded(tmp_path: Path) -> None:
    """33.2: Django reads the team's settings (DJANGO_SETTINGS_MODULE); the report names them."""
    pytest.importorskip("django")
    (tmp_path / "team_settings.py").write_text("URLIZE_ASSUME_HTTPS = False\nUSE_TZ = True\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("see example.com/a). ok\n", encoding="utf-8")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "team_settings", "PYTHONPATH": str(tmp_path)}
    out = tmp_path / "r.json"
    done = subprocess.run(
        [sys.executable, "-m", "uts58_adapt", "report", "a.txt", "--backend", "django", "-q", "-o", str(out)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    config = json.loads(out.read_text(encoding="utf-8"))["configuration"]
    assert config["settings"] == "team_settings" and config["URLIZE_ASSUME_HTTPS"] is False


@pytest.mark.parametrize(
    ("html", "audited"),
    [
        # a ">" inside a quoted attribute value does not end the tag (the regex reading leaked the value)
        ('<p title="a > see http://x.com/b">ok</p> after http://y.com/c', ["ok", " after http://y.com/c"]),
        # linkify_html's skip_tags: pre and code content is never linked
        ("<pre>http://x.com/code</pre> <code>http://x.com/c</code>!", [" ", "!"]),
        # CDATA, foreign content and select are not text a linkifier links
        ("<![CDATA[ http://x.com/a ]]> z", [" z"]),
        ("<svg><text>http://x.com/svg</text></svg> t", [" t"]),
        ("<select><option>http://x.com/o</option></select>", []),
        # an anchor's content, inline elements included
        ('<a href="/"><b>http://x.com/in</b></a> out', [" out"]),
    ],
)
def test_html_is_audited_over_the_text_linkify_html_links(html: str, audited: list[str]) -> None:
    """33.6: the HTML reading is linkify_html's (the HTML5 tokenizer and tree rules), not a pattern's."""
    from uts58_adapt.report.markup import mask

    masked = mask(html, "html")
    assert len(masked) == len(html)
    assert masked.split() == " ".join(audited).split()
    assert all(p in masked for p in audited)


@pytest.mark.parametrize(
    ("markdown", "audited"),
    [
        # an HTML block (CommonMark kind 6) runs to the blank line: markdown-it links nothing in it
        ("<div>\nsee http://x.com/in」\n</div>\n\nafter http://y.com/out", ["after http://y.com/out"]),
        # kinds 1 to 5 run to their end marker, over blank lines
        ("<!--\nhttp://x.com/c\n\nhttp://x.com/d\n-->\nok http://y.com/", ["ok http://y.com/"]),
        ("<script>\nvar u = 'http://x.com/s';\n</script>\nok", ["ok"]),
        # kind 7 (a lone tag) cannot interrupt a paragraph: there it is inline HTML
        ("text http://y.com/a\n<span>\nmore", ["text http://y.com/a", "more"]),
        ("<span>\nhttp://x.com/in\n\nout", ["out"]),
        # a code span and a link read over the paragraph's lines
        ("a `code\nhttp://x.com/c` b", ["a", "b"]),
        ("[see\nhttp://x.com/l](http://x.com/t) c", ["c"]),
    ],
)
def test_markdown_blocks_and_paragraphs(markdown: str, audited: list[str]) -> None:
    """33.6: the Markdown reading follows CommonMark's HTML blocks and reads inline syntax over
    a paragraph, as markdown-it does (the expected text is written by hand from CommonMark)."""
    from uts58_adapt.report.markup import mask

    masked = mask(markdown, "markdown")
    assert len(masked) == len(markdown) and masked.count("\n") == markdown.count("\n")
    assert masked.split() == " ".join(audited).split()


def test_markdown_reading_agrees_with_markdown_it() -> None:
    """33.6: on a document of every block kind, the links the audit reads (linkify-it over the
    masked lines) are the links markdown-it with linkify renders."""
    markdown_it = pytest.importorskip("markdown_it")
    doc = (
        "# See http://x.com/h\n\n"
        "<div>\nhttp://x.com/div\n</div>\n\n"
        "<!-- http://x.com/comment -->\n\n"
        "Para http://x.com/p1 and `http://x.com/code\nspan` then [t\nhttp://x.com/lt](http://x.com/t).\n"
        "Line two www.example.com/two\n\n"
        "```\nhttp://x.com/fence\n```\n\n"
        "    http://x.com/indented\n\n"
        "[ref]: http://x.com/def\n\n"
        "- item http://x.com/item\n"
        "> quote http://x.com/quote\n\n"
        "<span>\nhttp://x.com/span-block\n\n"
        "end <b>http://x.com/inline-html</b> ok\n"
    )
    from uts58_adapt.report.markup import mask

    audited = {m.url for line in mask(doc, "markdown").split("\n") for m in LinkifyIt().match(line) or ()}
    rendered = markdown_it.MarkdownIt("commonmark", {"linkify": True}).enable("linkify").render(doc)
    anchors = re.findall(r'<a href="([^"]+)">([^<]*)</a>', rendered)
    linked = {href for href, text in anchors if href in (text, "http://" + text)}  # not [t](http://x.com/t)
    assert len(linked) == 6 and audited == linked, (audited, rendered)
