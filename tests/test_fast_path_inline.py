"""The inline parsers' fast paths give exactly what their plain paths give (issue 20).

- ``detect(backend="magiclink")``: ``MagiclinkBackend.find`` runs magiclink's processors
  only on the white-space-delimited tokens that hold an anchor (its ``RE_LINK``, ``@``);
  the reference is one pass over the whole text (``plain``, ``magiclink_spans``).  A
  configured ``Markdown`` instance gets the anchor when its processors are magiclink's
  own, the plain pass otherwise.
- ``detect(backend="mistune")``: ``MistuneBackend.find`` against the url plugin's pattern.
- ``detect()`` with both backends: its early return for a text with no span and its look
  for schemes after a letter, against the refinement of the plain spans.
- The magiclink integration: Python-Markdown searches its link pattern only from the
  anchors (``link_matches``); the reference is the pattern's own ``finditer``, and the
  HTML of the integration with the pattern searched everywhere.
- The integrations (mistune's url plugin, magiclink): ``refine_at`` memoizes each span's
  refinement by its window; the HTML with the memo cold, warm and switched off must be
  the same, for every configuration that shares the memo.

Texts: the official test lines, the bundled sample corpus, both benchmark corpora (the
Debian documents when the machine has them) and generated text dense in what the
anchors and the patterns care about, and in white space of every kind.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uts58_adapt import detect
from uts58_adapt.detection import with_schemes_after_letters
from uts58_adapt.integrations import _common
from uts58_adapt.link import Link
from uts58_adapt.refine.initiation import schemes_after_letters
from uts58_adapt.refine.migration import refine_links

from conftest import dense_paragraphs, detection_cases, long_texts, piece_texts, plain_text, sample_lines

markdown = pytest.importorskip("markdown")
pytest.importorskip("pymdownx")
mistune = pytest.importorskip("mistune")

from mistune.plugins.url import URL_LINK_PATTERN  # noqa: E402

from uts58_adapt.backends import get_backend  # noqa: E402
from uts58_adapt.backends.base import RawLink  # noqa: E402
from uts58_adapt.backends.magiclink import (  # noqa: E402
    anchored_spans,
    link_matches,
    magiclink_anchor,
    magiclink_spans,
)
from uts58_adapt.integrations.mistune import url, url_plugin  # noqa: E402

_URL_RE = re.compile(URL_LINK_PATTERN)


def _debian_texts(limit: int = 60_000) -> list[str]:
    """Paragraphs of the Debian documents the benchmark reads (/usr/share/doc: changelogs, gzipped
    or not, and copyright files), at most 4,000 characters a file, up to ``limit`` characters."""
    root = Path("/usr/share/doc")
    out: list[str] = []
    total = 0
    changelogs = sorted(root.glob("*/changelog*"))
    copyrights = sorted(root.glob("*/copyright"))
    for path in [p for pair in zip(changelogs, copyrights) for p in pair]:
        try:
            raw = path.read_bytes()
            text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8", "replace")[:4000]
        except (OSError, EOFError, gzip.BadGzipFile):
            continue
        out += text.split("\n\n")
        total += len(text)
        if total > limit:
            break
    return out


def _texts() -> Iterator[str]:
    """Every text the corpus tests use: official lines, sample corpus, both benchmark corpora."""
    yield from (plain_text(line) for _, line in detection_cases())
    yield from sample_lines()
    yield "\n".join(sample_lines())
    yield from dense_paragraphs(30_000)
    yield from _debian_texts()


# --- detect(backend="magiclink") -----------------------------------------------------------


def _check_magiclink(text: str) -> None:
    backend = get_backend("magiclink")
    plain = backend.plain(text)  # type: ignore[attr-defined]
    assert backend.find(text) == plain, text
    assert detect(text, backend="magiclink", max_length=None) == refine_links(
        text, with_schemes_after_letters(text, plain)
    ), text


def test_magiclink_corpora() -> None:
    n = 0
    for text in _texts():
        _check_magiclink(text)
        n += 1
    assert n > 300


def test_magiclink_debian_as_one_text() -> None:
    texts = _debian_texts(20_000)
    if not texts:
        pytest.skip("no Debian documents in /usr/share/doc on this machine")
    _check_magiclink("\n\n".join(texts))


# Pieces magiclink's patterns and the anchors care about, and white space of every kind.
PIECES = [
    "http://",
    "https://",
    "ftp://",
    "ftps://",
    "HTTP://",
    "httpſ://",  # "ſ" matches "s" without regard to case
    "www.",
    "WWW.",
    "ww.",
    "w",
    "@",
    "a",
    "x_y",
    "é",
    "b.com",
    "com",
    ".",
    "..",
    "-",
    "+",
    "_",
    "/",
    "*",
    "~",
    "^",
    "[",
    "]",
    "(",
    ")",
    "'",
    '"',
    "<",
    ">",
    ";",
    "&amp;",
    "?",
    "!",
    ",",
    ":",
    "\x02",
    "\x03",
    "例",
    "。",
    "mailto:",
]
SEPARATORS = [" ", "\n", "\t", "\r", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85", "\x0b", "\u200b"]
_texts_st = piece_texts(PIECES, SEPARATORS, max_size=50)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts_st)
def test_magiclink_generated_text(text: str) -> None:
    backend = get_backend("magiclink")
    assert backend.find(text) == backend.plain(text)  # type: ignore[attr-defined]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_texts(_texts_st, SEPARATORS, max_parts=30, max_filler=70))
def test_magiclink_generated_long_text(text: str) -> None:
    backend = get_backend("magiclink")
    assert backend.find(text) == backend.plain(text)  # type: ignore[attr-defined]


_CONFIGS: list[dict[str, object]] = [
    {"hide_protocol": True},
    {"repo_url_shortener": True, "social_url_shortener": True, "user": "facelessuser", "repo": "pymdown-extensions"},
    {"repo_url_shorthand": True, "social_url_shorthand": True, "provider": "gitlab"},
    {"custom": {"ghe": {"host": "git.example.com", "label": "GHE", "type": "github"}}, "repo_url_shortener": True},
]


def _configured(config: dict[str, object]) -> object:
    md = markdown.Markdown(extensions=["pymdownx.magiclink"], extension_configs={"pymdownx.magiclink": config})
    md.treeprocessors["inline"].stashed_nodes = {}
    return md


@pytest.mark.parametrize("config", range(len(_CONFIGS)))
def test_magiclink_configured_instances(config: int) -> None:
    md = _configured(_CONFIGS[config])
    anchor = magiclink_anchor(md)
    assert anchor is not None  # magiclink's options change its elements, not its spans
    for text in [*sample_lines(), *dense_paragraphs(10_000), "see @facelessuser/repo#1 and x@y.com www.a.b"]:
        assert anchored_spans(md, text, anchor) == magiclink_spans(md, text), text


def test_magiclink_one_processor() -> None:
    text = "\n".join([*sample_lines(), *dense_paragraphs(10_000)])
    for name in ("magic-link", "magic-mail"):
        md = _configured({})
        md.inlinePatterns.deregister(name)  # type: ignore[attr-defined]
        anchor = magiclink_anchor(md)
        assert anchor is not None
        spans = anchored_spans(md, text, anchor)
        assert spans == magiclink_spans(md, text)
        assert spans and all(r.kind == ("email" if name == "magic-link" else "url") for r in spans)


def test_magiclink_foreign_processor_takes_the_plain_pass() -> None:
    """A processor that is not magiclink's own: no anchor, one pass over the text."""
    from pymdownx.magiclink import MagiclinkPattern

    class Longer(MagiclinkPattern):  # type: ignore[misc]
        def handleMatch(self, m: re.Match[str], data: str) -> tuple[object, int | None, int | None]:
            el, start, end = super().handleMatch(m, data)
            return el, start, (len(data) if end is not None else end)  # runs over white space

    md = _configured({})
    pattern = md.inlinePatterns["magic-link"]  # type: ignore[attr-defined]
    longer = Longer(pattern.pattern, md)
    longer.config = pattern.config
    md.inlinePatterns.register(longer, "magic-link", 85)  # type: ignore[attr-defined]
    assert magiclink_anchor(md) is None


# --- the magiclink integration's link pattern, searched from its anchors ------------------------


def _link_re() -> re.Pattern[str]:
    from pymdownx.magiclink import RE_LINK

    return re.compile(RE_LINK, re.DOTALL | re.UNICODE)  # as Python-Markdown compiles it


def _matches(found: Iterator[re.Match[str]]) -> list[tuple[tuple[int, int], str | None]]:
    return [(m.span(), m.group("www")) for m in found]


def _check_link_matches(regex: re.Pattern[str], text: str) -> None:
    for pos in {0, 1, 5, len(text) // 2, len(text) - 1, len(text), len(text) + 3}:
        if pos >= 0:
            assert _matches(link_matches(regex, text, pos)) == _matches(regex.finditer(text, pos)), (text, pos)


def test_link_matches_is_finditer_on_the_corpora() -> None:
    regex = _link_re()
    n = 0
    for text in _texts():
        _check_link_matches(regex, text)
        n += 1
    assert n > 300


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts_st)
def test_link_matches_is_finditer_on_generated_text(text: str) -> None:
    _check_link_matches(_link_re(), text)


def test_magiclink_integration_searches_from_the_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    """The integration's HTML with the anchored search is its HTML with the pattern searched
    everywhere (as Python-Markdown does alone), for each configuration, on the corpora and on
    texts dense in the patterns' pieces."""
    texts = [plain_text(line) for _, line in detection_cases()] + sample_lines() + dense_paragraphs(20_000)
    texts += _debian_texts(15_000)
    texts += ["".join(PIECES), " ".join(PIECES), "(www.a.com)*https://b.org*\x03ftp://c.de 'WWW.D.EU'"]
    anchored = _magiclink_mds()
    assert all(type(md.inlinePatterns["magic-link"].getCompiledRegExp()) is not re.Pattern for md in anchored)
    want = _render_all([_converter(md) for md in anchored], texts)
    plain = _magiclink_mds()
    for md in plain:
        pattern = md.inlinePatterns["magic-link"]
        monkeypatch.setattr(pattern, "getCompiledRegExp", lambda p=pattern: p.compiled_re)
    assert _render_all([_converter(md) for md in plain], texts) == want


# --- detect(backend="mistune") ----------------------------------------------------------------


def test_mistune_backend_is_the_plugins_pattern() -> None:
    backend = get_backend("mistune")
    for text in [*_texts(), "http:/ /x https//x.com HTTP://X.COM http://a.co:/"]:
        assert [(r.start, r.end) for r in backend.find(text)] == [m.span() for m in _URL_RE.finditer(text)], text


def _independent_reference(text: str, name: str) -> list[Link]:
    """``detect(text, name, max_length=None)`` from its parts: the backend's plain spans and every
    scheme after a non-ASCII letter (``refine.initiation``), refined; emails dropped for mistune.
    Not ``detect``'s early return nor its ``with_schemes_after_letters``, whose shortcuts this checks."""
    backend = get_backend(name)
    raw = backend.plain(text) if name == "magiclink" else backend.find(text)  # type: ignore[attr-defined]
    raw = [*raw, *(RawLink(s, e, "url", e - s - 2) for s, e in schemes_after_letters(text))]
    links = refine_links(text, raw)
    return [link for link in links if link.kind != "email"] if name == "mistune" else links


@pytest.mark.parametrize("name", ["mistune", "magiclink"])
def test_detect_shortcuts_on_the_corpora(name: str) -> None:
    """``detect``'s early return (no span, nothing the refinement links on its own) and its
    look for schemes after a letter give what the refinement of every span gives."""
    n = 0
    for text in [*_texts(), "a@example。com", "メール 田中@example.jp", "詳しくはhttps://例え.jp/パス"]:
        assert detect(text, backend=name, max_length=None) == _independent_reference(text, name), text
        n += 1
    assert n > 300


# --- the integrations' memo of refined spans --------------------------------------------------

Render = Callable[[str], str]


def _mistune_renderers() -> list[Render]:
    return [
        mistune.create_markdown(plugins=[url]),
        mistune.create_markdown(plugins=[url_plugin(strict_hosts=True)]),
        mistune.create_markdown(plugins=[url_plugin(reject_risky=True)]),
        mistune.create_markdown(escape=False, plugins=["strikethrough", url, "footnotes", "table"]),
    ]


def _magiclink_mds() -> list[Any]:
    """The magiclink integration, with each of its configurations (``markdown.Markdown`` instances)."""
    return [
        markdown.Markdown(
            extensions=["uts58_adapt.integrations.magiclink"],
            extension_configs={"uts58_adapt.integrations.magiclink": config},
        )
        for config in [{}, {"hide_protocol": True}, {"strict_hosts": True}, {"reject_risky": True}]
    ]


def _magiclink_renderers() -> list[Render]:
    return [_converter(md) for md in _magiclink_mds()]


def _converter(md: object) -> Render:
    def convert(text: str) -> str:
        return str(md.reset().convert(text))  # type: ignore[attr-defined]

    return convert


def _render_all(renderers: list[Render], texts: list[str]) -> list[list[str]]:
    return [[render(text) for text in texts] for render in renderers]


@pytest.mark.parametrize("library", ["mistune", "magiclink"])
def test_memo_gives_the_plain_paths_html(library: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memo off (the plain path), cold, then warm with every configuration interleaved: same HTML."""
    renderers = _mistune_renderers() if library == "mistune" else _magiclink_renderers()
    texts = [plain_text(line) for _, line in detection_cases()] + sample_lines() + dense_paragraphs(20_000)
    texts += _debian_texts(15_000)
    texts += [t + " " + t for t in texts[::7]]  # a link seen again in the same text
    _common.clear_memo()
    with monkeypatch.context() as patch:
        patch.setattr(_common, "MEMO_TEXT", -1)  # nothing is memoized
        plain = _render_all(renderers, texts)
        assert not _common._memo
    _common.clear_memo()
    cold = _render_all(renderers, texts)
    assert _common._memo
    warm = _render_all(renderers[::-1], texts)[::-1]
    assert cold == plain
    assert warm == plain


def test_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_common, "MEMO_SIZE", 8)
    _common.clear_memo()
    render = mistune.create_markdown(plugins=[url])
    for i in range(50):
        render(f"see https://example.com/{i} and https://example.org/{'x' * 600}")
    assert len(_common._memo) <= 8
    assert all(len(key[0]) <= _common.MEMO_TEXT for key in _common._memo)
    _common.clear_memo()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES + SEPARATORS + ["x.com", "/a(b)", "例え。"]), max_size=40).map("".join))
def test_memo_generated_text(text: str) -> None:
    renders: list[Render] = [mistune.create_markdown(plugins=[url]), *_magiclink_renderers()[:1]]
    _common.clear_memo()
    cold = [render(text + " " + text) for render in renders]
    warm = [render(text + " " + text) for render in renders]
    assert cold == warm


def test_magiclink_long_tokens() -> None:
    """Runs without white space longer than a window of the other backends: never cut here."""
    pieces = ["http://a.example.com/" + "x" * 700, "y" * 600 + ",www.b.example.org/" + "z" * 600, "a" * 900 + "@c.de"]
    for text in [*pieces, "".join(pieces), " ".join(pieces), "(".join(pieces) + "\n" + "'".join(pieces)]:
        _check_magiclink(text)


def test_magiclink_rejected_match_leaves_its_text_to_the_email_processor() -> None:
    """As in Python-Markdown: a link match that magiclink rejects (``http://`` without a
    domain) keeps the text before it for the email processor.  The one pass used to start
    the email processor's text after the rejected match, dropping the email."""
    html = markdown.markdown("w@b.com http://", extensions=["pymdownx.magiclink"])
    assert html.count("<a ") == 1
    backend = get_backend("magiclink")
    for text in ["w@b.com http://", "w@b.com " + "w" * 40 + " http://x_y.z_w x@c.de www."]:
        spans = [(r.start, r.end, r.kind) for r in backend.plain(text)]  # type: ignore[attr-defined]
        assert (0, 7, "email") in spans, text
        _check_magiclink(text)
