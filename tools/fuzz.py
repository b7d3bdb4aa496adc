#!/usr/bin/env python3
"""A fuzz campaign over the entry points that take untrusted text (issue 13).

Every target gets hypothesis-generated text: all planes, lone surrogates, Bidi_Control
characters, random schemes before host-like runs, brackets, ``@`` and the separators the
host stage knows.  A target must not raise, and every link it makes must have a scheme
the caller allowed:

- ``detect`` (linkify-it, urlextract): ``http://``, ``https://``, ``ftp://`` or ``mailto:``;
- ``linkify`` and ``linkify_html``: anchors only for http, https and mailto, none holding
  a Bidi_Control character or an unescaped ``<`` or ``"``;
- ``wrap(LinkifyIt())`` (``match``), ``wrap(URLExtract())`` (``find_urls``) and a
  markdown-it render with the wrapper: never a scheme the instance does not know;
- ``minimal_escape``: any ``str`` in, a ``str`` out;
- ``diff:<integration>`` (issue 21): every integration (bleach, its ``Cleaner`` filter,
  Django and Jinja2 urlize on text and on markup marked safe, mistune, magiclink,
  markdown-it with and without ``html``, ``linkify_html``) against the library alone on
  the same hostile text, both outputs parsed with html5lib: the upgrade may add no
  element, attribute, event handler or href scheme (``check_differential``; for Markdown,
  none that the library or the renderer without a linkifier does not produce).

Run ``python tools/fuzz.py --examples 100000`` (spread over the targets) or with a time
budget, ``--seconds 600``; the first failure stops the run with the input that caused it
(hypothesis shrinks it) and exit status 1.  ``tests/test_fuzz_campaign.py`` runs a short
version in the suite.  No network, no example database on disk.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(REPO))

import uts58_adapt  # noqa: E402  (after the sys.path line above)
from uts58_adapt.html import BIDI_CONTROLS  # noqa: E402

DETECT_SCHEMES = ("http://", "https://", "ftp://", "mailto:")
ANCHOR = re.compile(r'<a href="([^"]*)"[^>]*>(.*?)</a>', re.DOTALL)

SCHEMES = st.from_regex(r"\A[A-Za-z][A-Za-z0-9+.\-]{0,10}\Z") | st.sampled_from(
    ["javascript", "JavaScript", "vbscript", "data", "ms-msdt", "file", "http", "https", "ftp", "mailto"]
)
PIECES = st.sampled_from(
    [
        "example.com", "l·l", "xn--", "。", "．", "@", "/", "?", "#", ":~:", "(", ")", "[", "]", "<", ">",
        "{", "}", "「", "」", " ", "\n", ".", ",", "'", '"', "%", "%0a", "&", "=", "\u202e", "\u2066",
        "\u200f", "\u061c", "\ud800", "\udfff", "\x00", "αβ", "日本", "bücher", "localhost", "[::1]",
        "1.2.3.4", "www.", ".co", ".香港", "mailto:", "user@", "\U0001d51e", "\U00010a50", "\ufffd",
    ]
)  # fmt: skip
ANY_CHAR = st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)  # every plane, surrogates too


@st.composite
def hostile_text(draw: st.DrawFn) -> str:
    """Text mixing random code points, link-like pieces and ``scheme://`` prefixes."""
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        choice = draw(st.integers(0, 3))
        if choice == 0:
            parts.append(draw(st.text(ANY_CHAR, max_size=8)))
        elif choice == 1:
            parts.append(draw(SCHEMES) + draw(st.sampled_from(["://", ":", ":/", "://l·l"])))
        else:
            parts.append(draw(PIECES))
    return "".join(parts)


def _check_detect(text: str) -> None:
    for backend in ("linkify-it", "urlextract"):
        for link in uts58_adapt.detect(text, backend):
            assert link.href.lower().startswith(DETECT_SCHEMES), (backend, link)
            assert text[link.start : link.end] == link.text, (backend, link)


def _check_anchors(html: str) -> None:
    for href, shown in ANCHOR.findall(html):
        assert href.lower().startswith(("http://", "https://", "mailto:")), href
        assert not BIDI_CONTROLS.intersection(href + shown), (href, shown)
        assert "<" not in shown and '"' not in href, (href, shown)


def _check_linkify(text: str) -> None:
    _check_anchors(uts58_adapt.linkify(text))


def _check_linkify_html(text: str) -> None:
    _check_anchors(uts58_adapt.linkify_html(text))


_WRAPPED: dict[str, object] = {}


def _check_wrappers(text: str) -> None:
    if not _WRAPPED:
        from linkify_it import LinkifyIt
        from markdown_it import MarkdownIt
        from urlextract import URLExtract

        md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
        md.linkify = uts58_adapt.wrap(md.linkify)
        _WRAPPED.update(linkify=uts58_adapt.wrap(LinkifyIt()), urlextract=uts58_adapt.wrap(URLExtract()), md=md)
    linkify = _WRAPPED["linkify"]
    for m in linkify.match(text) or ():  # type: ignore[attr-defined]
        assert m.url.lower().startswith(("http://", "https://", "ftp://", "mailto:", "//")), m
    _WRAPPED["urlextract"].find_urls(text)  # type: ignore[attr-defined]
    _check_anchors_md(_WRAPPED["md"].render(text))  # type: ignore[attr-defined]


def _check_anchors_md(html: str) -> None:
    for href in re.findall(r'<a href="([^"]*)"', html):
        assert href.lower().startswith(("http://", "https://", "ftp://", "mailto:", "//")), href


def _check_minimal_escape(text: str) -> None:
    assert isinstance(uts58_adapt.minimal_escape(text), str)


TARGETS: dict[str, Callable[[str], None]] = {
    "detect": _check_detect,
    "linkify": _check_linkify,
    "linkify_html": _check_linkify_html,
    "wrappers": _check_wrappers,
    "minimal_escape": _check_minimal_escape,
}


# ---------------------------------------------------------------------------
# Differential targets (issue 21): each integration against the library it upgrades
# ---------------------------------------------------------------------------
# The same hostile text goes through the upgrade and through the library alone; both
# outputs are parsed with html5lib (an HTML5 parser).  The upgrade may not produce an
# element, an attribute, an event handler or an href scheme that the library alone does
# not produce: every element other than ``a`` (with its attribute names) must be in the
# library's output as often; an ``a`` may only carry attribute names, and an href only a
# scheme, that the library's own anchors carry on the same input or on ``VOCABULARY``
# (the library's links of a plain URL and email: the schemes it links at all).

HOSTILE_PIECES = [
    # URL-ish tokens and schemes, in mixed case, with character references and controls inside
    "http://", "HtTpS://", "https://", "ftp://", "mailto:", "javascript:", "JaVaScRiPt:", "java&#x09;script:",
    "jav&#97;script:", "java\tscript:", "java\x00script:", "data:", "vbscript:", "ms-msdt:", "ms-msdt://",
    "file://", "search-ms:", "tel:", "ssh://", "example.com", "x.com", "a.co", "www.x.com", "127.0.0.1",
    "evilhost", "l·l", "[::1]", "localhost:8000", "a@b.com", "σωκράτης@example.com", "user@", "@", "/", "//",
    "?", "#", ":", "(", ")", "[", "]", ".", ",", " ", "\n", "αβ", "bücher",
    # markup and references
    "<", ">", "<b>", "</b>", '<b title="', "<b title='", '">', "'>", '"', "'", "`", "=", "<!--", "-->", "--!>",
    "<![CDATA[", "]]>", "<script>", "</script>", "<style>", "</style>", "<xmp>", "<textarea>", "<title>",
    "<svg>", "<math>", "<noscript>", "<select>", "<plaintext>", '<a href="/x">', "</a>", "<p>", "</p>",
    "<img src=x onerror=alert(1)>", "onmouseover=alert(1)", "/onmouseover=alert(1)//", "&amp;", "&lt;", "&gt;",
    "&quot;", "&#x27;", "&#38;", "&", ";", "&#", "*", "_", "**", "`", "\\", "![", "](", "~~",
    # bidi, zero width, and their percent-encoded forms
    "\u202e", "\u2066", "\u200f", "\u061c", "\u200b", "\u200d", "\ufeff", "%E2%80%AE", "%e2%81%a6", "%D8%9C",
]  # fmt: skip


LINK_SCHEMES = [
    "", "", "http://", "https://", "HtTpS://", "hTtP://", "ftp://", "mailto:", "javascript:", "JaVaScRiPt://",
    "java&#x09;script:", "jav&#x61;script://", "ms-msdt://", "ms-msdt://evilhost://", "file://", "FILE://",
    "file://127.0.0.1%", "search-ms://", "ms-officecmd://", "tel:", "ssh://", "data:", "x-y+z.w://", "//",
]  # fmt: skip
LINK_HOSTS = [
    "x.com", "www.x.com", "example.com", "a@b.com", "mail:a@b.com", "x/onmouseover=alert`1`//@b.com",
    "σωκράτης@example.com", "%E2%80%AEmoc.evil@bank.com", "127.0.0.1", "l·lx.com", "bücher.de", "evilhost",
    "[::1]", "localhost:8000", "x.com:100000", "a.co",
]  # fmt: skip
LINK_TAILS = [
    "", "", "/", "/a", ".", ",", "/onmouseover=alert(1)//", "/?a=1&amp;", "/?a=1&amp", "&gt;", "&quot;", "&#38;",
    "/a<b>c</b>d", "/<img src=x onerror=alert(1)>", '/"onmouseover=alert(1)', "/a'b", ")", "(x)", "]", "/%E2%80%AE",
    "/\u202e", "/\u2066x", "/\u200b", "/a)**b**", "/*a*", "/`c`", "/a_b_", "/<script>alert(1)</script>",
]  # fmt: skip


@st.composite
def hostile_link(draw: st.DrawFn) -> str:
    """A link-shaped token: a scheme (mixed case, smuggled, with references), a host, a hostile tail."""
    return draw(st.sampled_from(LINK_SCHEMES)) + draw(st.sampled_from(LINK_HOSTS)) + draw(st.sampled_from(LINK_TAILS))


@st.composite
def html_hostile_text(draw: st.DrawFn) -> str:
    """Hostile text for the HTML integrations: link-shaped tokens among markup, references, bidi controls."""
    parts = draw(st.lists(st.one_of(hostile_link(), st.sampled_from(HOSTILE_PIECES)), max_size=10))
    return "".join(parts)


_VOCABULARY_TEXT = "see http://example.com/a https://example.com/b www.example.com a@example.com mailto:b@example.com"


def _scheme(href: str) -> str:
    """The scheme a browser reads in ``href`` (WHATWG URL: controls and spaces trimmed, tabs and newlines removed)."""
    url = href.strip("".join(map(chr, range(0x21)))).replace("\t", "").replace("\n", "").replace("\r", "")
    m = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", url)
    return m.group(1).lower() if m else ""


class _Signature:
    """What the differential check compares in one output: elements, anchor attributes, href schemes."""

    def __init__(self, html: str) -> None:
        import html5lib

        root = html5lib.parseFragment(html, namespaceHTMLElements=False)
        self.elements: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self.anchor_attributes: set[str] = set()
        self.schemes: set[str] = set()
        for el in root.iter():
            if el is root or not isinstance(el.tag, str):
                continue  # the fragment itself, comments
            names = tuple(sorted(str(name) for name in el.attrib))
            if el.tag.rpartition("}")[2] == "a":  # an HTML anchor, or an SVG one (as live)
                self.anchor_attributes.update(names)
                if "href" in el.attrib:
                    self.schemes.add(_scheme(el.attrib["href"]))
            else:
                self.elements[(el.tag, names)] += 1


def check_differential(
    text: str,
    upgraded_html: str,
    library_html: str,
    vocabulary: _Signature,
    links_scheme: Callable[[str], bool] = lambda scheme: False,
    markup_input: bool = False,
    author_html: str | None = None,
) -> None:
    """Raise AssertionError when ``upgraded_html`` has markup ``library_html`` (or the vocabulary) does not.

    ``links_scheme(scheme)``: whether the library links ``scheme://example.com/`` (for
    ``""``, ``//example.com/``) with that scheme in its href (a scheme of its configuration
    that this input did not show).
    ``markup_input``: the input is markup the caller vouches for (marked safe, HTML in
    Markdown): its own elements may stay, where the library alone broke them up with a link.
    ``author_html``: for Markdown, the renderer's output without the linkifier.  Where the
    library swallowed Markdown into a link the upgrade does not make (a URL with userinfo,
    say), that Markdown is rendered: its markup is what the author's source gives anyway.
    """
    up, lib = _Signature(upgraded_html), _Signature(library_html)
    references = [_Signature(author_html)] if author_html is not None else []
    if markup_input:
        references.append(_Signature(text))  # the input's own anchors
    for reference in references:
        lib.elements |= reference.elements
        lib.anchor_attributes |= reference.anchor_attributes
        lib.schemes |= reference.schemes
    if markup_input:
        # The input's own elements, in any number: the parser reconstructs unclosed formatting
        # elements (a "<b>" of the input) after every block the output has, so counts differ.
        allowed = set(lib.elements) | set(_Signature(text).elements)
        extra = Counter({key: n for key, n in up.elements.items() if key not in allowed})
    else:
        extra = up.elements - lib.elements
    assert not extra, ("new elements", dict(extra), text, upgraded_html, library_html)
    attributes = up.anchor_attributes - lib.anchor_attributes - vocabulary.anchor_attributes
    assert not attributes, ("new anchor attributes", attributes, text, upgraded_html, library_html)
    schemes = {s for s in up.schemes - lib.schemes - vocabulary.schemes if not links_scheme(s)}
    assert not schemes, ("new href schemes", schemes, text, upgraded_html, library_html)


Render = Callable[[str], str]


def _pair_bleach() -> tuple[Render, Render]:
    from bleach.linkifier import Linker

    return uts58_adapt.wrap(Linker()).linkify, Linker().linkify


def _pair_bleach_cleaner() -> tuple[Render, Render]:
    from bleach.linkifier import LinkifyFilter
    from bleach.sanitizer import Cleaner

    tags = {"a", "b", "p", "abbr", "pre"}
    attributes = {"a": ["href", "rel", "title"], "abbr": ["title"]}
    upgraded = Cleaner(tags=tags, attributes=attributes, filters=[uts58_adapt.wrap(LinkifyFilter)])
    alone = Cleaner(tags=tags, attributes=attributes, filters=[LinkifyFilter])
    return upgraded.clean, alone.clean


def _pair_django(safe: bool) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from django.utils.html import urlize as django_urlize
        from django.utils.safestring import mark_safe

        from uts58_adapt.integrations.django import urlize

        if safe:
            return (lambda t: urlize(mark_safe(t))), (lambda t: str(django_urlize(mark_safe(t))))
        return (lambda t: urlize(t, autoescape=True)), (lambda t: str(django_urlize(t, autoescape=True)))

    return make


def _pair_jinja2(safe: bool) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from jinja2 import Environment

        from uts58_adapt.integrations.jinja2 import install

        source = "{{ v|safe|urlize }}" if safe else "{{ v|urlize }}"
        alone = Environment(autoescape=True).from_string(source)
        env = Environment(autoescape=True)
        install(env)
        upgraded = env.from_string(source)
        return (lambda t: upgraded.render(v=t)), (lambda t: alone.render(v=t))

    return make


def _pair_mistune() -> tuple[Render, Render]:
    import mistune

    from uts58_adapt.integrations import mistune as integration

    upgraded = mistune.create_markdown(plugins=[integration.url])
    alone = mistune.create_markdown(plugins=["url"])
    return (lambda t: str(upgraded(t))), (lambda t: str(alone(t)))


def _pair_magiclink() -> tuple[Render, Render]:
    import markdown

    upgraded = markdown.Markdown(extensions=["uts58_adapt.integrations.magiclink"])
    alone = markdown.Markdown(extensions=["pymdownx.magiclink"])
    return (lambda t: upgraded.reset().convert(t)), (lambda t: alone.reset().convert(t))


def _pair_markdown_it(html: bool) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from markdown_it import MarkdownIt

        options = {"linkify": True, "html": html}
        alone = MarkdownIt("commonmark", options).enable("linkify")
        upgraded = MarkdownIt("commonmark", options).enable("linkify")
        upgraded.linkify = uts58_adapt.wrap(upgraded.linkify)
        return upgraded.render, alone.render

    return make


def _pair_linkify_html() -> tuple[Render, Render]:
    # The "library alone" of linkify_html is the fragment as it is: only anchors may be added.
    return uts58_adapt.linkify_html, lambda t: t


#: Each integration's (upgrade, library alone) pair, built on first use.
DIFFERENTIAL: dict[str, Callable[[], tuple[Render, Render]]] = {
    "bleach": _pair_bleach,
    "bleach Cleaner": _pair_bleach_cleaner,
    "django": _pair_django(False),
    "django safe": _pair_django(True),
    "jinja2": _pair_jinja2(False),
    "jinja2 safe": _pair_jinja2(True),
    "mistune": _pair_mistune,
    "magiclink": _pair_magiclink,
    "markdown-it": _pair_markdown_it(False),
    "markdown-it html": _pair_markdown_it(True),
    "linkify_html": _pair_linkify_html,
}
_PAIRS: dict[str, tuple[Render, Render, _Signature]] = {}


def _differential_pair(name: str) -> tuple[Render, Render, _Signature]:
    if name not in _PAIRS:
        upgraded, alone = DIFFERENTIAL[name]()
        if name == "linkify_html":
            vocabulary = _Signature(uts58_adapt.linkify(_VOCABULARY_TEXT))
        else:
            vocabulary = _Signature(alone(_VOCABULARY_TEXT))
        _PAIRS[name] = (upgraded, alone, vocabulary)
    return _PAIRS[name]


def _author_mistune() -> Render:
    import mistune

    plain = mistune.create_markdown()
    return lambda t: str(plain(t))


def _author_markdown() -> Render:
    import markdown

    plain = markdown.Markdown()
    return lambda t: plain.reset().convert(t)


def _author_markdown_it(html: bool) -> Callable[[], Render]:
    def make() -> Render:
        from markdown_it import MarkdownIt

        return MarkdownIt("commonmark", {"html": html}).render

    return make


#: For the Markdown integrations: the renderer without the linkifier (the author's own markup).
AUTHOR: dict[str, Callable[[], Render]] = {
    "mistune": _author_mistune,
    "magiclink": _author_markdown,
    "markdown-it": _author_markdown_it(False),
    "markdown-it html": _author_markdown_it(True),
}
_AUTHORS: dict[str, Render] = {}
#: Integrations whose input is markup that stays markup (the library alone may break it up).
MARKUP_INPUT = frozenset({"django safe", "jinja2 safe", "markdown-it html", "magiclink", "linkify_html"})


def check_integration(name: str, text: str) -> None:
    """The differential check of one integration on ``text``."""
    upgraded, alone, vocabulary = _differential_pair(name)

    def links_scheme(scheme: str) -> bool:  # "" is a scheme-relative link, //example.com/
        probe = f"see {scheme}{':' if scheme else ''}//example.com/ ok"
        return scheme in _Signature(alone(probe)).schemes

    author_html = None
    if name in AUTHOR:
        if name not in _AUTHORS:
            _AUTHORS[name] = AUTHOR[name]()
        author_html = _AUTHORS[name](text)
    check_differential(text, upgraded(text), alone(text), vocabulary, links_scheme, name in MARKUP_INPUT, author_html)


def run_differential(name: str, examples: int) -> int:
    """Run ``examples`` hypothesis examples of the differential check of one integration; return how many ran."""
    _differential_pair(name)  # import errors before hypothesis
    ran = 0

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(html_hostile_text())
    def target(text: str) -> None:
        nonlocal ran
        ran += 1
        check_integration(name, text)

    target()
    return ran


def run_target(name: str, examples: int) -> int:
    """Run ``examples`` hypothesis examples against one target; return how many ran (raises on a failure)."""
    check = TARGETS[name]
    ran = 0

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(hostile_text() | st.text(ANY_CHAR, max_size=64))
    def target(text: str) -> None:
        nonlocal ran
        ran += 1
        check(text)

    target()
    return ran


def campaign(examples: int, seconds: float | None = None, batch: int = 1000) -> dict[str, int]:
    """Run about ``examples`` examples in all, spread over the targets in batches, until done or
    ``seconds`` have passed; return the examples run per target.  A failure raises."""
    names = [*TARGETS, *(f"diff:{name}" for name in DIFFERENTIAL)]
    per_target = dict.fromkeys(names, 0)
    goal = max(1, examples // len(names))
    start = time.monotonic()
    while any(n < goal for n in per_target.values()):
        for name in names:
            if per_target[name] < goal:
                size = min(batch, goal - per_target[name])
                if name.startswith("diff:"):
                    per_target[name] += run_differential(name[5:], size)
                else:
                    per_target[name] += run_target(name, size)
            if seconds is not None and time.monotonic() - start > seconds:
                return per_target
    return per_target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=100_000, help="examples in all (default 100000)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long (default: no limit)")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    start = time.monotonic()
    try:
        done = campaign(args.examples, args.seconds)
    except Exception as exc:  # the failing example is in hypothesis's report above
        print(f"fuzz: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    total = sum(done.values())
    print(", ".join(f"{name} {n}" for name, n in done.items()))
    print(f"fuzz: {total} examples, no failure, {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
