#!/usr/bin/env python3
"""Fuzz campaigns over the entry points that take untrusted text (issues 13, 21 and 32).

**The differential campaign** (issue 32, the default): every integration configuration
users have (``CONFIGS``: bleach's ``Linker`` with and without ``parse_email`` or its own
TLDs, a ``Cleaner`` with ``LinkifyFilter``; Django's function, ``nofollow``, ``mark_safe``
input, ``autoescape`` off and the template filter; Jinja2 with ``|safe``, ``rel``/``target``
options and extra schemes; mistune with and without ``escape``; magiclink with its options;
markdown-it with and without ``html`` and with ``fuzzy_link`` off; ``linkify_html``; the
spans of ``wrap(LinkifyIt())`` and ``wrap(URLExtract())``) against the library alone, on
the same generated text (``generate``: links with Markdown emphasis, link and image
syntax around them, character references of every class, ideographic full stops,
comments, CDATA, raw text elements, bidi controls, mailto header fields, fullwidth hosts,
IDNs).  Both outputs are parsed with html5lib's DOM builder and compared (``compare_pages``,
``compare_spans``): the upgrade may only add, move or shorten ``a`` elements as UTS #58
requires; the checks are listed in ``CHECKS`` and explained below.  Each finding class
gets one reproducer, minimized.

    python tools/fuzz.py                      # 2000 inputs per configuration, seed 0
    python tools/fuzz.py --seconds 300 --seed 7 --config "mistune escape=False" --report findings.md

The run is deterministic for a seed; ``--examples`` and ``--seconds`` bound it; the exit
status is 1 when there is a finding.  ``tests/test_fuzz.py`` runs a short screen of every
configuration in the suite, with the findings not yet fixed listed there.

**The crash targets** (issue 13, ``--targets N``): hypothesis-generated text (all planes,
lone surrogates, Bidi_Control characters, random schemes) through ``detect``, ``linkify``,
``linkify_html``, the wrappers and ``minimal_escape``: no exception, no scheme the caller
did not allow (``tests/test_fuzz_campaign.py``).  ``run_differential`` is issue 21's check
on hypothesis text (``tests/test_differential_integrations.py``).  No network, no example
database on disk.
"""

from __future__ import annotations

import argparse
import html
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


# Issue 21's hypothesis strategy for the HTML integrations (``run_differential``).
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


# ---------------------------------------------------------------------------
# Differential campaign (issues 21 and 32): each integration configuration against the
# library it upgrades, on the same generated text.
# ---------------------------------------------------------------------------
# Both outputs are parsed with html5lib's DOM builder (``treebuilder="dom"``: its etree
# builder loses foster-parented text).  The upgrade may only add, move or shorten ``a``
# elements, as UTS #58 requires (``compare_pages``):
#
# - "new element": an element other than ``a`` (tag and attribute names) that the
#   library's output does not have (nor, for Markdown, the renderer without a linkifier,
#   nor, for markup the caller vouches for, the input itself);
# - "new anchor attribute": an attribute name no anchor of the library carries;
# - "new href scheme": an href scheme the library does not link (on this input, on the
#   vocabulary text, or when asked with ``scheme://example.com/``);
# - "nested anchor": an ``a`` inside an ``a``, more often than in the library's output;
# - "bidi control in link text": a live Bidi_Control character in the text of an anchor
#   the library does not make with that text (UTS #58 §8, docs/hostile-input.md);
# - "raw character in href": a control, a Bidi_Control, or a raw ``<`` or ``>`` in an href,
#   where the library's hrefs (also those it writes with the ideographic full stops written
#   ``.``) hold none;
# - "visible text": the text a browser shows (every text node) differs from the library's
#   (for Markdown: from the library's and from the renderer's without a linkifier; for
#   markdown-it: from its rendering with linkify-it's links ended where the upgrade ends
#   them, ``EndedLinkify``: Markdown the library swallowed, read once UTS #58 ends the link);
# - "invented link": an anchor whose text overlaps no anchor of the library, nor one the
#   library makes when the ideographic full stops (。．｡) are written ``.`` (the library
#   decides what is a host: it is asked with the ``.`` form);
# - "raises", "hang": the upgrade raises, or takes more than ``HANG_SECONDS``, where the
#   library does not.
#
# The span configurations (``wrap(LinkifyIt())``, ``wrap(URLExtract())``) compare the
# spans: "new href scheme", "invented link", and "starts inside the library's link" (a
# URL may only end earlier; only an email's local part may start later, §3.6).

HANG_SECONDS = 10.0
IDEOGRAPHIC_DOTS = str.maketrans("。．｡", "...")
#: The forms in which the upgrade shows a Bidi_Control character (UTS #58 §8): percent-encoded in a
#: link (in markdown-it, which decodes ``%E2%80%AE`` in a link's text but never ``%25``, as
#: ``%25E2%2580%25AE``: docs/hostile-input.md), ``⟨U+202E⟩`` outside one (``linkify_html``).
#: Compared as the character itself.
_BIDI_SHOWN = re.compile(
    "|".join(re.escape("".join(f"%25{b:02X}" for b in c.encode())) for c in sorted(BIDI_CONTROLS))
    + "|"
    + "|".join(re.escape("".join(f"%{b:02X}" for b in c.encode())) for c in sorted(BIDI_CONTROLS))
    + r"|\u27e8U\+(?:061C|200[EF]|202[A-E]|206[6-9])\u27e9",
    re.IGNORECASE,
)


#: The ``⟨U+202E⟩`` form alone: read as the character in a literal page too, where no element's
#: boundary can split it as it splits a ``%E2%80%AE`` (linkify_html: ``%E2%80</>%AE.рф*\u200f``, seed 19).
_BIDI_ANGLED = re.compile(r"\u27e8U\+(?:061C|200[EF]|202[A-E]|206[6-9])\u27e9")


def _bidi_escaped(text: str) -> str:
    """``text`` with each Bidi_Control character percent-encoded, as the upgrade shows one (UTS #58 §8)."""
    return "".join("".join(f"%{b:02X}" for b in c.encode()) if c in BIDI_CONTROLS else c for c in text)


def _some_bidi_escaped(upgraded: str, library: str) -> bool:
    """Whether ``upgraded`` is ``library`` with some of its Bidi_Control characters percent-encoded, as
    the upgrade shows one in a link (or ``%25``-encoded, markdown-it): never the other way round."""
    pattern = "".join(
        f"(?:{re.escape(c)}|{re.escape(_bidi_escaped(c))}|{re.escape(_bidi_escaped(c).replace('%', '%25'))})"
        if c in BIDI_CONTROLS
        else re.escape(c)
        for c in library
    )
    return re.fullmatch(pattern, upgraded) is not None


def _bidi_character(m: re.Match[str]) -> str:
    shown = m.group(0)
    if shown.startswith("\u27e8"):
        return chr(int(shown[3:-1], 16))
    return bytes.fromhex(shown.replace("%25", "%").replace("%", "")).decode()


_RAW_TEXT_ELEMENTS = frozenset(
    {"script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext", "textarea", "title"}
)
_RAW_TEXT_START = re.compile("<(?=(?:" + "|".join(sorted(_RAW_TEXT_ELEMENTS)) + r")[\s/>])", re.IGNORECASE)
#: The start of a tag other than an anchor's: a sanitizer that does not allow it (bleach's Cleaner) writes
#: it as text, so an anchor inside it (``<select><a href=…>``, which a parser drops) is the author's anchor.
_OTHER_TAG_START = re.compile(r"<(?!/?a[\s/>])(?=/?[A-Za-z])")
#: What an href the upgrade writes may not hold where the library's hrefs do not (issue 32 items 11 and 12):
#: in the parsed value, a control (a browser strips or removes some) or a Bidi_Control character;
#: in the markup, a raw ``<`` or ``>``.
_HREF_UNSAFE = {
    "a control": frozenset(map(chr, [*range(0x20), *range(0x7F, 0xA0)])),
    "a Bidi_Control": BIDI_CONTROLS,
}
_RAW_HREF = re.compile(r"""\bhref=(?:"([^"]*)"|'([^']*)')""")
#: What may come just before a link that starts inside a token (issue 32 item 5).
_TOKEN = re.compile(r"[\w\-/.@%+~]")
#: The run before an "@" in which an email's local part is (its Link_Email characters, ``_local_part``).
_LOCAL_PART = re.compile(r"[^\s@<>]+(?=@)")
#: The same where character references are decoded: the "@" may be written "&#x40;" or "&#64;".
_LOCAL_PART_REFERENCES = re.compile(r"[^\s@<>]+?(?=@|&#[xX]0*40;|&#0*64;)")
#: A hexadecimal character reference left open before a local part's character: written "a", the
#: character would complete it ("&#xς" is asked as "&#xz", not as "&#xa", a line feed).
_OPEN_HEX_REFERENCE = re.compile(r"&#[xX][0-9A-Fa-f]*$")


#: An ideographic full stop written as a character reference (markup and Markdown decode it):
#: ``library_form(text, references=True)`` writes it ``&#00046;``, a "." of the same length.
_DOT_REFERENCE = re.compile(r"&#(?:[xX]0*(?:3002|[fF][fF]0[eE]|[fF][fF]61)|0*(?:12290|65294|65377));")


#: A character reference, or one character (:func:`_ascii_local`).
_REFERENCE_OR_CHARACTER = re.compile(r"&#[xX][0-9A-Fa-f]+;|&#[0-9]+;|&[A-Za-z][A-Za-z0-9]*;|.", re.DOTALL)


def _ascii_local(run: str, references: bool) -> str:
    """``run`` (the text before an "@") with each non-ASCII character of its local part written
    ``a``.  The local part is the end of ``run`` that UTS #58 §5.2 reads as one: its Link_Email
    characters (``\u202eftp://x#@…`` has the local part ``//x#``: ":" and U+202E are no Link_Email
    characters).  With ``references`` (markup or Markdown, which decode them), each reference is
    read as the character it decodes to, and one to a non-ASCII character is written as a
    reference to ``a`` of the same length (``/&#xc3;@e.m`` is asked as ``/&#x61;@e.m``: cmark-gfm
    reads the local part ``/Ã``, seeds 30-33)."""
    from uts58_adapt.properties import is_link_email

    tokens = _REFERENCE_OR_CHARACTER.findall(run) if references and "&" in run else list(run)
    start = len(tokens)
    while start:
        token = tokens[start - 1]
        decoded = html.unescape(token) if len(token) > 1 else token
        if len(decoded) != 1 or not is_link_email(decoded):
            break
        start -= 1
    written = "".join(tokens[:start])
    for token in tokens[start:]:
        if len(token) > 1:
            written += token if html.unescape(token).isascii() else "&#x" + "61".zfill(len(token) - 4) + ";"
        else:
            # (a hexadecimal reference left open before it: "&#xς" is asked as "&#xz", not "&#xa")
            written += token if token < "\x80" else "z" if _OPEN_HEX_REFERENCE.search(written) else "a"
    return written


def library_form(text: str, references: bool = False) -> str:
    """``text`` as the library is asked about it (same length): ideographic full stops next to a host
    character written ``.`` (the library decides the host in its ``.`` form, issue 32 item 4) and the non-ASCII characters
    of an email's local part written ``a`` (UTS #58 §3.6 refines local parts; the library decides
    the domain).  With ``references`` (an input in which character references are decoded: markup,
    Markdown), an ideographic full stop written as one (``&#xff61;``) is written ``&#00046;``."""

    def ascii_local(m: re.Match[str]) -> str:
        return _ascii_local(m.group(0), references)

    if references:
        text = _DOT_REFERENCE.sub(lambda m: "&#" + "0" * (len(m.group()) - 5) + "46;", text)
    # (the "." form as the backends are given it: a full stop with no host character on either
    # side belongs to no domain and stays as written, ``refine.hosts.normalize_separators``; seed 28)
    from uts58_adapt.refine.hosts import normalize_separators

    return (_LOCAL_PART_REFERENCES if references else _LOCAL_PART).sub(ascii_local, normalize_separators(text))


#: Every check of ``compare_pages`` and ``compare_spans``.
CHECKS = (
    "raises",
    "hang",
    "new element",
    "new anchor attribute",
    "new href scheme",
    "nested anchor",
    "bidi control in link text",
    "href points elsewhere",
    "raw character in href",
    "visible text",
    "invented link",
    "starts inside the library's link",
)
#: The checks of issue 21's promise (no new markup, no new scheme): ``check_differential``'s default.
ISSUE_21_CHECKS = ("new element", "new anchor attribute", "new href scheme")


def _scheme(href: str) -> str:
    """The scheme a browser reads in ``href`` (WHATWG URL: controls and spaces trimmed, tabs and newlines removed)."""
    url = href.strip("".join(map(chr, range(0x21)))).replace("\t", "").replace("\n", "").replace("\r", "")
    m = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", url)
    return m.group(1).lower() if m else ""


class Page:
    """One output parsed with html5lib's DOM builder: what ``compare_pages`` compares.

    ``text`` is the concatenation of the text nodes a reader sees: comments excluded, and
    the content of raw text elements (``script``, ``style``, ``textarea``, ``title``...),
    where a library that does not parse HTML writes its anchors as text, excluded; a
    Bidi_Control character shown percent-encoded or as ``⟨U+202E⟩`` (UTS #58 §8) is read as
    the character itself.  ``anchors`` are the ``(start, end, href, text)`` of the ``a``
    elements (offsets in ``text``, ``text`` as parsed; ``href`` None without one),
    ``hrefs`` their hrefs, ``nested`` the number of ``a`` elements inside another.
    With ``literal``, ``text`` is the text nodes as they are (a Bidi_Control character shown
    percent-encoded stays so): ``compare_pages`` reads both outputs so where an element's
    boundary splits a ``%E2%80%AE`` on one side only (then not read as U+202E there).
    """

    def __init__(self, html: str, literal: bool = False) -> None:
        import html5lib

        fragment = html5lib.parseFragment(html, treebuilder="dom")
        self.elements: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self.anchor_attributes: set[str] = set()
        self.schemes: set[str] = set()
        self.hrefs: list[str] = []
        self.anchors: list[tuple[int, int, str | None, str]] = []
        self.nested = 0
        parts: list[str] = []  # the text shown, Bidi_Control characters percent-encoded
        raw: list[str] = []  # the text of the text nodes as they are
        length = raw_length = 0
        stack: list[tuple[Any, bool]] = [(child, False) for child in reversed(_merged_text(fragment))]
        #: (start, href, raw start, nested) of the anchors being walked
        open_anchors: list[tuple[int, str | None, int, bool]] = []
        self.nested_anchors: list[tuple[int, int, str | None, str]] = []  # those inside another
        # An iterative walk (deeply nested markup must not hit the recursion limit); an anchor
        # closes when the walk leaves its subtree, marked by a ``None`` node.
        while stack:
            node, hidden = stack.pop()
            if node is None:
                start, href, raw_start, inner = open_anchors.pop()
                self.anchors.append((start, length, href, "".join(raw)[raw_start:raw_length]))
                if inner:
                    self.nested_anchors.append(self.anchors[-1])
                continue
            if node.nodeType in (node.TEXT_NODE, node.CDATA_SECTION_NODE):
                if not hidden:
                    shown = _BIDI_ANGLED if literal else _BIDI_SHOWN
                    parts.append(shown.sub(_bidi_character, node.data))
                    length += len(parts[-1])
                raw.append(node.data)
                raw_length += len(node.data)
                continue
            if node.nodeType != node.ELEMENT_NODE:
                continue  # comments, doctypes
            name = node.localName or node.nodeName
            names = tuple(sorted(node.attributes.keys())) if node.attributes else ()
            if name == "a":  # an HTML anchor, or an SVG one (as live)
                self.anchor_attributes.update(names)
                href = node.getAttribute("href") if node.hasAttribute("href") else None
                if href is not None:
                    self.schemes.add(_scheme(href))
                    self.hrefs.append(href)
                if open_anchors:
                    self.nested += 1
                open_anchors.append((length, href, raw_length, bool(open_anchors)))
                stack.append((None, hidden))
            else:
                self.elements[(name, names)] += 1
            inside = hidden or name in _RAW_TEXT_ELEMENTS
            stack.extend((child, inside) for child in reversed(_merged_text(node)))
        self.anchors.sort(key=lambda anchor: anchor[:2])
        self.text = "".join(parts)


#: Compatibility name (issue 21's tests build signatures of vocabularies with it).
_Signature = Page


def _merged_text(node: Any) -> list[Any]:
    """``node``'s children, adjacent text nodes merged (html5lib's DOM keeps a character
    reference's text apart: ``%E2%80%&#x41;E`` is two nodes), one level only (no recursion)."""
    children: list[Any] = []
    for child in list(node.childNodes):
        if child.nodeType == child.TEXT_NODE and children and children[-1].nodeType == child.TEXT_NODE:
            children[-1].data += child.data
            node.removeChild(child)
        else:
            children.append(child)
    return children


def _overlaps(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


def compare_pages(
    text: str,
    upgraded_html: str,
    library_html: str,
    vocabulary: Page,
    links_scheme: Callable[[str], bool] = lambda scheme: False,
    markup_input: bool = False,
    author_html: str | None = None,
    normalized_library_html: str | None = None,
    invented: bool = True,
    links_alone: Callable[[str], bool] | None = None,
    shown: Callable[[str], str] | None = None,
    plain_text: bool = False,
    library_hrefs: Callable[[str], set[str]] | None = None,
    ended: Callable[[], str] | None = None,
    library_starts: Callable[[str, str], bool] | None = None,
) -> list[tuple[str, str]]:
    """The findings ``(check, detail)`` of the upgrade's output against the library's on ``text``.

    ``links_scheme(scheme)``: whether the library links ``scheme://example.com/`` (for
    ``""``, ``//example.com/``) with that scheme in its href (a scheme of its configuration
    that this input did not show).
    ``markup_input``: the input is markup the caller vouches for (marked safe, HTML in
    Markdown): its own elements may stay, where the library alone broke them up with a link.
    ``author_html``: for Markdown, the renderer's output without the linkifier.  Where the
    library swallowed Markdown into a link the upgrade does not make, that Markdown is
    rendered: its markup and text are what the author's source gives anyway.
    ``normalized_library_html``: the library's output on ``text`` with its ideographic full
    stops written ``.``: a link there is the library's link (the host in its ``.`` form), and the
    characters of its hrefs are the library's.
    ``invented``: whether to look for "invented link" (not where the "library" makes no link).
    ``links_alone(text)``: whether the library links ``text`` alone, whole.  A link the library
    did not make is no invented link when it starts at a token boundary and the library links
    its text alone: the upgrade cut it out of a word the library read whole (a ``/`` after an
    email for Django, markup before it for trusted markup), as UTS #58 ends it.
    ``shown``: applied to the visible text of both outputs (a configuration that hides schemes).
    ``library_hrefs(text)``: the hrefs the library writes for ``text`` alone.
    ``plain_text``: the input is text (escaped by the integration): showing it as it is is
    right even where the library's output does not (Django drops a "]" after a link).
    ``ended()``: the library's output on ``text`` with each of its links ended where the upgrade
    ends it, or not made where the upgrade makes none there (:class:`EndedLinkify`), asked only
    where the text shown differs otherwise: the text it shows is the library's own rendering of
    the text once UTS #58 ends the link (Markdown the library swallowed into its link, read by
    the renderer's own syntax; a host the upgrade rejects, then a link the library makes after
    it), so it is no finding; its anchors are then the library's for the checks by offset.
    ``library_starts(rest, prefix)``: whether the library, given the text ``rest`` alone, starts a
    link at its start whose text begins with ``prefix``: a link the upgrade starts inside the
    library's link, where the upgrade ended the library's link before it, is the library's own
    link of the rest (ended earlier) when the library starts one there.
    """
    findings: list[tuple[str, str]] = []
    up, lib = Page(upgraded_html), Page(library_html)
    author = Page(author_html) if author_html is not None else None
    given = Page(text) if markup_input else None
    elements, attributes, schemes = Counter(lib.elements), set(lib.anchor_attributes), set(lib.schemes)
    nested = lib.nested
    for reference in (author, given):
        if reference is not None:
            elements |= reference.elements
            attributes |= reference.anchor_attributes
            schemes |= reference.schemes
            nested = max(nested, reference.nested)
    if normalized_library_html is not None:
        # The library's rendering of the text's "." form is the library's (issue 32 item 4: it decides
        # the host in that form), with the elements it reads around that link: markdown-it's <em> once
        # its link takes the "__" of "__hTtP://l｡o/__ e_" (seed 14).
        elements |= Page(normalized_library_html).elements
    if given is not None:
        # The input's own elements, in any number: the parser reconstructs unclosed formatting
        # elements (a "<b>" of the input) after every block the output has, so counts differ.
        extra = Counter({key: n for key, n in up.elements.items() if key not in elements and key not in given.elements})
    else:
        extra = up.elements - elements
    for tag, names in sorted(extra):
        findings.append(("new element", f"<{tag}{''.join(' ' + n for n in names)}>"))
    for name in sorted(up.anchor_attributes - attributes - vocabulary.anchor_attributes):
        findings.append(("new anchor attribute", name))
    for scheme in sorted(up.schemes - schemes - vocabulary.schemes):
        if not links_scheme(scheme):
            findings.append(("new href scheme", scheme or "(none)"))
    if up.nested > nested and normalized_library_html is not None:
        # The library nests its own link in an author's unclosed anchor (markdown-it with ``html``):
        # on the ``.`` form it nests the link the upgrade makes of a domain written with ``。``.
        nested = max(nested, Page(normalized_library_html).nested)
    up_nested = up.nested
    if up_nested > nested and links_alone is not None and ended is not None:
        # markdown-it nests its own link in an author's unclosed anchor too: a link it makes alone,
        # starting at a token boundary, is the library's (as for "invented link" below).
        up_nested -= sum(_alone_at_boundary(a, up.text, links_alone) for a in up.nested_anchors)
    if up_nested > nested and library_starts is not None and up.text == lib.text:
        # The library's own link of the rest of its link (the upgrade's ends earlier: mistune's
        # "http://tx" after "http://t(", seed 15), nested in an author's unclosed anchor as the
        # library nests its own.
        up_nested -= sum(
            any(ls < s < le and library_starts(up.text[s:le], shown) for ls, le, h, _ in lib.anchors if h is not None)
            for s, _, href, shown in up.nested_anchors
            if href is not None
        )
    if up_nested > nested and up.text == lib.text:
        # The library's own link, at the same place, nested in the author's unclosed anchor that the
        # library's link before it closed, which the upgrade rejects (markdown-it with html:
        # '<a f="">HTTP://u@<svg>e.co', seed 27): the library nests it so on text without that link.
        theirs = {(s, e, h) for s, e, h, _ in lib.anchors if h is not None}
        up_nested -= sum((s, e, h) in theirs for s, e, h, _ in up.nested_anchors)
    if up_nested > nested:
        findings.append(("nested anchor", "a in a"))
    # The promise (docs/hostile-input.md, UTS #58 §8) is about every link the upgrade shows, the
    # library's own included; only the author's anchors (in the input, or Markdown links) keep what they have.
    # An anchor with the author's href is the author's, whatever text it has in the output (cut short
    # by a link the parser closes it for, or holding one when an out-of-scope "</a>" is ignored):
    # an href the upgrade writes holds a Bidi_Control character of its text percent-encoded.
    written = [Page(text)]
    if _RAW_TEXT_START.search(text):
        # The input as a sanitizer reads it (bleach): a raw text element it does not allow is text,
        # so the author's anchors after a "<plaintext>" are anchors.
        written.append(Page(_RAW_TEXT_START.sub("&lt;", text)))
    if _OTHER_TAG_START.search(text):
        written.append(Page(_OTHER_TAG_START.sub("&lt;", text)))  # (seed 18: "<select><a href=http:>\u202e")
    author_hrefs = {href for page in (*written, author) if page for _, _, href, _ in page.anchors}
    # The library's own anchors with a relative href, as the library shows them: Markdown link syntax
    # (no linkifier writes a relative href), the author's where the renderer without the linkifier reads
    # the brackets otherwise (mistune's url plugin makes "[![http://[]\u202e]()" one link).
    library_relative = {(h, t) for _, _, h, t in lib.anchors if h is not None and _relative(h)}
    for _, _, href, anchor_text in up.anchors:
        if (
            href is not None
            and BIDI_CONTROLS.intersection(anchor_text)
            and href not in author_hrefs
            and (href, anchor_text) not in library_relative
        ):
            findings.append(("bidi control in link text", "live"))
            break
    # Not the author's anchors (unless a URL is shown in one), nor where the library's link at the same place does the same
    # (Jinja2 writes "https://HTTP://x" for "HTTP://x", Django "http://tel:.com" for "tel:.com").
    own_hrefs = author_hrefs
    theirs_elsewhere = {
        start
        for page in (lib, author)
        if page
        for start, _, h, t in page.anchors
        if h is not None and _points_elsewhere(h, t)
    }
    their_links = {_as_shown(h, t) for page in (lib, author, given) if page for _, _, h, t in page.anchors}
    # The author's anchors as the renderer without a linkifier has them: an anchor of the same href
    # within one is still the author's, cut into pieces by the parser at the upgrade's link nested in it
    # (magiclink's "<a href="">http://w@\n\nmailto:b@c.c": the unclosed anchor reopened over
    # "\nmailto:b@c.c" and cut at the email's link, seed 19).
    authors = [(s, e, h) for s, e, h, _ in author.anchors] if author and up.text == author.text else []
    for start, end, href, anchor_text in up.anchors:
        if href is None or start in theirs_elsewhere or _as_shown(href, anchor_text) in their_links:
            continue
        if any(h == href and s <= start and end <= e for s, e, h in authors):
            continue
        if href in own_hrefs and not _SHOWN_SCHEME.match(anchor_text):
            continue
        if library_hrefs is not None and href in library_hrefs(anchor_text):
            continue  # the library's own href for that text (Jinja2: "https://hTtP://x")
        if _points_elsewhere(href, anchor_text):
            findings.append(("href points elsewhere", ""))
            break
    normalized = Page(normalized_library_html) if normalized_library_html is not None else None
    # The library's hrefs on the text with its ideographic full stops written "." count as its own:
    # a link of the host's "." form is the library's, written as the library writes it.
    theirs = {c for page in (lib, author, given, normalized) if page for href in page.hrefs for c in href}
    ours = {c for href in up.hrefs for c in href} - theirs
    for kind, characters in _HREF_UNSAFE.items():
        if ours & characters:
            findings.append(("raw character in href", kind))
    if _raw_brackets(upgraded_html) - _raw_brackets(library_html) - _raw_brackets(author_html or ""):
        findings.append(("raw character in href", "a raw < or > in the markup"))
    show = shown or (lambda t: t)
    # The input as it is: for markup, where the library broke it up (not Markdown, whose source is no text shown).
    as_written = given.text if given is not None and author is None else None
    if plain_text:
        # (an HTML parser reads a CR, or CR LF, as LF: html5lib shows the escaped text so)
        # (and drops a NUL in text: the tree builder ignores it)
        shown_text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
        as_written = _BIDI_SHOWN.sub(_bidi_character, shown_text)
    # What the library shows on the text with its ideographic full stops written "." (the full stops
    # compared as "."): the library's rendering of a link of the host's "." form (markdown-it shows
    # "&amp" of "…/&amp;" in its link, "?_" in it, and every label separator as "." in a host).
    dotted = normalized is not None and _library_form_of(
        show(up.text).translate(IDEOGRAPHIC_DOTS), show(normalized.text).translate(IDEOGRAPHIC_DOTS)
    )
    up_text = _separators_restored(up, author.text if author is not None else lib.text)
    as_ended: Page | None = None  # the library's rendering with its links ended as the upgrade ends them
    if (
        not _same_text(
            show(up_text),
            show(lib.text),
            # (for markup input without a renderer, the input as a page shows it: the author's text)
            show(author.text) if author else show(given.text) if given is not None else None,
            show(normalized.text) if normalized is not None else None,
            show(_swallowed_references(lib)) if author is not None else None,
        )
        and (as_written is None or show(up.text) != show(as_written))
        and not dotted
    ):
        literal = Page(upgraded_html, literal=True), Page(library_html, literal=True)
        # The library's pages with their Bidi_Control characters percent-encoded, as the upgrade shows them.
        escape = _bidi_escaped if show(literal[0].text) == show(_bidi_escaped(literal[1].text)) else None
        if escape is not None or show(literal[0].text) == show(literal[1].text):
            # The same text nodes, but a "%E2%80%AE" split by an element's boundary on one side only (not
            # read as U+202E there): compared as written, every page so (the offsets hold).
            up = literal[0]
            lib, author, given, normalized = (
                None if html_ is None else Page(escape(html_) if escape else html_, literal=True)
                for html_ in (library_html, author_html, text if given is not None else None, normalized_library_html)
            )
            assert lib is not None
        elif _some_bidi_escaped(show(literal[0].text), show(literal[1].text)):
            # The library's text nodes as written, some of their Bidi_Control characters percent-encoded
            # (in the upgrade's link) and others not (after it), where a "%E2%80%AE" written in the text is
            # split on one side only (bleach's "x.cc/\u2066)%E2%8</a>&#48;%AE\u202c", seed 19): the
            # offsets differ, so the anchors are not compared (rare; the checks above ran).
            return findings
        else:
            as_ended = Page(ended()) if ended is not None else None
            if as_ended is None or as_ended.text != up.text:
                findings.append(("visible text", _text_change(show(up_text), show(lib.text))))
                return findings  # the offsets below compare the same text only
    if as_ended is None and up.text != lib.text and (author is None or up.text != author.text) and not dotted:
        return findings  # the same text once shown (a hidden scheme, say), at other offsets
    # The library's anchors at their offsets in the upgrade's text (the same text once shown: a
    # hidden scheme the upgrade shows where the library's link hid it, magiclink's hide_protocol).
    if as_ended is not None:
        lib_anchors = as_ended.anchors
    else:
        lib_anchors = lib.anchors if up.text == lib.text else _moved(lib.anchors, lib.text, up.text)
    spans = [(s, e) for s, e, _, _ in lib_anchors]
    if author is not None and up.text == author.text:
        spans += [(s, e) for s, e, _, _ in author.anchors]
    if given is not None and up.text == given.text:
        spans += [(s, e) for s, e, _, _ in given.anchors]
    # The library's anchors on the text's "." form, at the offsets of the same characters in the
    # upgrade's text (its full stops compared as "."): where the texts differ in length elsewhere
    # (Django with autoescape off splits "'i<bt.com" at "<" and links "bt.com", which the upgrade
    # reads as a tag "<bt。com", seed 33), a link starting with the library's "." form link is its.
    normalized_anchors = (
        []
        if normalized is None
        else normalized.anchors
        if len(normalized.text) == len(up.text)
        else _moved(
            normalized.anchors, normalized.text.translate(IDEOGRAPHIC_DOTS), up.text.translate(IDEOGRAPHIC_DOTS)
        )
    )
    spans += [(s, e) for s, e, _, _ in normalized_anchors]
    if not invented:
        return findings
    ended_page: list[Page] = [as_ended] if as_ended is not None else []

    def ended_anchors() -> list[tuple[int, int, str | None, str]]:
        """The anchors of the ``ended`` rendering, where it shows the upgrade's text (none otherwise)."""
        if ended is None:
            return []
        if not ended_page:
            ended_page.append(Page(ended()))
        return ended_page[0].anchors if ended_page[0].text == up.text else []

    # The author's own anchors where the upgrade shows the author's text: a Markdown link the library
    # swallowed into its link, left to the author once the upgrade's link ends before it.
    authors = (
        {(s, e, h, t) for s, e, h, t in author.anchors} if author is not None and up.text == author.text else set()
    )
    # (by start and href: the parser cuts the author's anchor short where a link starts inside it)
    authored = {(s, h) for s, _, h, _ in author.anchors} if author is not None and lib.text == author.text else set()
    # (and, where the texts differ, by href and text: the author's anchor cut short in the library's
    # page by the library's link nested in it, "`c`<a href="">:l·l.co" in markdown-it, seed 25)
    # (the author's anchors of markup input as the input itself has them: bleach's "<a href><table>…")
    authored_texts = [(h, t) for page in (author, given) if page is not None for _, _, h, t in page.anchors]
    for s, e, href, anchor_text in up.anchors:
        if (s, e, href, anchor_text) in authors:
            continue
        inside = [
            (ls, le)
            for ls, le, lib_href, shown in lib_anchors
            if ls < s < le
            and lib_href is not None
            and "@" not in shown
            and not set(up.text[ls:s]) <= BIDI_CONTROLS
            # (not the author's own anchor around it: markdown-it with html on '<a href="">[l·l.co')
            and (ls, lib_href) not in authored
            and not any(h == lib_href and show(t).startswith(show(shown)) for h, t in authored_texts)
        ]
        fresh = (
            re.match(r"[A-Za-z][A-Za-z0-9+.\-]*://", anchor_text)
            and (
                (links_alone is not None and links_alone(anchor_text))
                # the library's link of the rest of its link starts there (the upgrade's ends earlier):
                # mistune's url rule on "http://x&" after "http://e!" that UTS #58 ends at "http://e"
                or (library_starts is not None and any(library_starts(up.text[s:le], anchor_text) for _, le in inside))
            )
        )
        # The library's link starts there too (the upgrade's may only end earlier, or be the library's own):
        # the library's "inside" is then an enclosing anchor of the author's, not a start moved in.
        # So does a link the library makes there on the text's "." form (its anchors at the same offsets).
        theirs_too = any(ls == s and h is not None for ls, _, h, _ in lib_anchors) or any(
            ls == s and h is not None for ls, _, h, _ in normalized_anchors
        )
        if href is not None and _scheme(href) != "mailto" and inside and not fresh and not theirs_too:
            # So does the library's link once its link before ends where the upgrade ends it.
            if any(ls == s and h is not None for ls, _, h, _ in ended_anchors()):
                continue
            findings.append(("starts inside the library's link", ""))
            break
    # Where the library's link ends, markdown-it's core rule reads the rest as a text of its own
    # (the configurations with an ``ended`` rendering: markdown-it's).
    ends = {le for _, le, lib_href, _ in lib_anchors if lib_href is not None}
    # The author's anchors (href and text) as the renderer without a linkifier, or the input, has them,
    # as often: the parser reconstructs the author's open anchor after a block ("<a href=''>…</p>\n").
    up_pairs = Counter((h, t) for _, _, h, t in up.anchors)
    authors_pairs = Counter[tuple[str | None, str]]()
    for page in (author, given):
        if page is not None:
            authors_pairs |= Counter((h, t) for _, _, h, t in page.anchors)
    authors_hrefs = {h for h, _ in authors_pairs}
    piece_ends = {(e, h) for _, e, h, _ in up.anchors}
    for s, e, href, anchor_text in up.anchors:
        if up_pairs[href, anchor_text] <= authors_pairs[href, anchor_text]:
            continue
        if href in authors_hrefs and (not anchor_text.strip() or (s, href) in piece_ends):
            # the author's unclosed anchor, reopened by the parser over the white space after a block
            # (seed 26), and on from there, cut short by a link nested in it (cmark-gfm: "]" before
            # "http://e", seed 28): a piece of the anchor before it, with its href, ends where it starts
            continue
        if href is not None and s < e and not _overlaps(s, e, spans):
            if links_alone is not None and (
                (ended is not None and s in ends and links_alone(anchor_text))
                or _alone_at_boundary((s, e, href, anchor_text), up.text, links_alone)
            ):
                continue
            # the library's own link once its link before ends where the upgrade ends it
            if _overlaps(s, e, [(a, b) for a, b, h, _ in ended_anchors() if h is not None]):
                continue
            findings.append(("invented link", _link_kind(href, anchor_text)))
    return sorted(set(findings), key=findings.index)


def _alone_at_boundary(
    anchor: tuple[int, int, str | None, str], shown: str, links_alone: Callable[[str], bool]
) -> bool:
    """Whether ``anchor`` (offsets in the text ``shown``) starts at a token boundary and the library
    links its text alone: a link the library did not make where the upgrade cut it out of a word
    the library read whole, as UTS #58 ends it."""
    s, _, href, anchor_text = anchor
    return href is not None and (s == 0 or not _TOKEN.match(shown[s - 1])) and links_alone(anchor_text)


def _library_form_of(text: str, form: str) -> bool:
    """Whether ``form`` is ``text`` as :func:`library_form` writes it: the same, but for non-ASCII
    characters written ``a`` (an email's local part)."""
    return len(text) == len(form) and all(c == f or (f == "a" and c >= "\x80") for c, f in zip(text, form))


def _separators_restored(page: Page, source: str) -> str:
    """``page.text`` with a ``.`` inside one of its anchors written as the ideographic full stop
    that ``source`` (the library's or the renderer's text) has at the same place (``difflib``):
    markdown-it shows a host's label separators as ``.`` (``normalizeLinkText``), in every link."""
    import difflib

    text = page.text
    if not any(c in source for c in "。．｡") or "." not in text:
        return text
    inside = {i for s, e, _, _ in page.anchors for i in range(s, e)}
    chars = list(text)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, source, text, autojunk=False).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            for k in range(i2 - i1):
                if chars[j1 + k] == "." and source[i1 + k] in "。．｡" and j1 + k in inside:
                    chars[j1 + k] = source[i1 + k]
    return "".join(chars)


def _moved(
    anchors: list[tuple[int, int, str | None, str]], source: str, target: str
) -> list[tuple[int, int, str | None, str]]:
    """``anchors`` (offsets in ``source``) at the offsets of the same characters in ``target``
    (``difflib``'s matching blocks); an anchor none of whose characters is in ``target`` is dropped."""
    import difflib

    blocks = difflib.SequenceMatcher(None, source, target, autojunk=False).get_matching_blocks()

    def where(p: int, end: bool) -> int | None:
        for a, b, size in blocks:
            if a <= p < a + size or (end and size and p == a + size):
                return b + p - a
        return None

    out = []
    for s, e, href, shown in anchors:
        first = next((where(p, False) for p in range(s, e) if where(p, False) is not None), None)
        last = next((where(p, True) for p in range(e, s, -1) if where(p, True) is not None), None)
        if first is not None and last is not None and first < last:
            out.append((first, last, href, shown))
    return out


def _link_kind(href: str | None, shown: str) -> str:
    """How an invented link is classed: an email (whatever its domain), a host with an ideographic
    full stop, other."""
    if "@" in shown and not re.match(r"[A-Za-z][A-Za-z0-9+.\-]*://", shown):
        return "email"
    if "。" in shown or "．" in shown or "｡" in shown:
        return "ideographic full stop"
    return "url"


_SHOWN_SCHEME = re.compile(r"(?i)([a-z][a-z0-9+.\-]*)://|(tel|sms|mailto|data|javascript|file|ftp):")


def _host(url: str) -> str:
    """The host of ``url`` (scheme, userinfo and port dropped) as IDNA ASCII, where it can be encoded."""
    from urllib.parse import unquote

    authority = re.split(r"[/?#\\]", re.sub(r"^(?:[A-Za-z][A-Za-z0-9+.\-]*:)?//", "", url), maxsplit=1)[0]
    host = unquote(authority.rpartition("@")[2]).translate(IDEOGRAPHIC_DOTS)
    host = re.sub(r":\d*$", "", host)
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return host.lower()


def _as_shown(href: str | None, text: str) -> tuple[str | None, str]:
    """An anchor's href and text as a reader follows and reads them: the href percent-decoded, a
    Bidi_Control character shown percent-encoded read as itself (Django's href encodes a U+200B
    that the upgrade's keeps, and its text shows U+2066 live: the same link, seed 24)."""
    from urllib.parse import unquote

    return (None if href is None else unquote(href)), _BIDI_SHOWN.sub(_bidi_character, text)


def _points_elsewhere(href: str, shown: str) -> bool:
    """Whether an anchor shows one URL and points to another (issue 32 items 3 and 13): a
    scheme shown that the href does not have, or a host a browser would read otherwise."""
    if _scheme(href) == "mailto" or ("@" in shown.partition("/")[0] and "://" not in shown):
        return False  # an email
    m = _SHOWN_SCHEME.match(shown)
    if m and (m.group(1) or m.group(2)).lower() != _scheme(href):
        return True
    if not _SHOWN_SCHEME.match(href) and not href.startswith("//"):
        return False  # a relative href (Markdown link syntax): no host to compare
    return _host(href) != _host(shown)


def _relative(href: str) -> bool:
    """Whether ``href`` is a relative reference a browser resolves on the page (no scheme, no ``//``)."""
    url = href.strip("".join(map(chr, range(0x21)))).replace("\t", "").replace("\n", "").replace("\r", "")
    return not _scheme(url) and not re.match(r"[/\\]{2}", url)


def _raw_brackets(markup: str) -> set[str]:
    """The ``<`` and ``>`` written raw in the quoted href values of ``markup``."""
    return {c for m in _RAW_HREF.finditer(markup) for c in (m.group(1) or m.group(2) or "") if c in "<>"}


def _swallowed_references(page: Page) -> str:
    """``page``'s text with the character references shown in its links' text decoded (a ``;`` just
    after a link with them): Markdown
    whose reference the library swallowed into a link (``http://*&#82``) shows it decoded once the
    link ends earlier or is not made (mistune ``escape=False``: ``*http://*R``)."""
    text, end = page.text, len(page.text) + 1
    for start, stop, _, _ in sorted(page.anchors, reverse=True):
        if stop <= end:  # the outermost of nested anchors only; a reference's ";" just after the link with it
            stop += text.startswith(";", stop) and stop + 1 < end
            # (decoded as the renderer writes it, and an HTML parser reads a CR, or CR LF, as LF)
            decoded = html.unescape(text[start:stop]).replace("\r\n", "\n").replace("\r", "\n")
            text = text[:start] + decoded + text[stop:]
            end = start
    return text


def _same_text(
    upgraded: str, library: str, author: str | None, dotted: str | None = None, swallowed: str | None = None
) -> bool:
    """Whether the upgrade shows the library's text, where it differs the text of the renderer
    without a linkifier (Markdown the library swallowed into a link the upgrade ends earlier)
    or the library's text on the input with its ideographic full stops written ``.`` (``dotted``:
    a link of the host's ``.`` form shown as the library shows it, ``&quot;`` or ``%E2%`` as
    markdown-it shows them in its link), each difference one of the two: a link of a ``。`` host
    then a link of an invalid host the upgrade rejects, where the renderer shows ``&lt;`` as ``<``
    (issue 32, new N2), or the link of a ``。`` host after a code span the library swallowed (new: open)."""
    import difflib

    if upgraded == library:
        return True
    if author is None and dotted is None:
        return False
    if upgraded in (author, swallowed):
        return True
    references = []
    if author is not None:
        references.append((len(author), difflib.SequenceMatcher(None, author, upgraded, autojunk=False)))
    if dotted is not None:
        # compared with the upgrade's text in the same form (same length: the offsets hold)
        up_dotted, dotted = upgraded.translate(IDEOGRAPHIC_DOTS), dotted.translate(IDEOGRAPHIC_DOTS)
        references.append((len(dotted), difflib.SequenceMatcher(None, dotted, up_dotted, autojunk=False)))
    end = len(upgraded)

    def as_reference(j1: int, j2: int) -> bool:
        # upgraded[j1:j2] is a reference's text with the characters on each side of it, no gap
        # inside (a deletion: both sides); at the start or end of the text, the reference's too.
        lo, hi = max(j1 - 1, 0), min(j2 + 1, end)
        for length, matcher in references:
            for a, b, size in matcher.get_matching_blocks():
                if b <= lo and hi <= b + size and (j1 or a == b == 0) and (j2 < end or a + hi - b == length):
                    return True
        return False

    for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, library, upgraded, autojunk=False).get_opcodes():
        if tag != "equal" and not as_reference(j1, j2):
            return False
    return True


def _text_change(upgraded: str, library: str) -> str:
    """How the visible text changed, at the first difference: the class of a "visible text" finding."""
    import difflib

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, library, upgraded, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        before, after = library[i1:i2], upgraded[j1:j2]
        if "&" in after and "&" not in before:
            return "a character reference shown as text"
        if "<" in after and "<" not in before:
            return "markup shown as text"
        if set(after) & set("*_~`[]!") and not set(before) & set("*_~`[]!"):
            return "Markdown shown as text"
        if set(before) & set("。．｡"):
            return "an ideographic full stop changed"
        if not after:
            return "characters lost"
        if not before:
            return "characters added"
        return "characters changed"
    return "characters changed"


def check_differential(
    text: str,
    upgraded_html: str,
    library_html: str,
    vocabulary: Page,
    links_scheme: Callable[[str], bool] = lambda scheme: False,
    markup_input: bool = False,
    author_html: str | None = None,
    checks: Iterable[str] = ISSUE_21_CHECKS,
) -> None:
    """Raise AssertionError when ``compare_pages`` finds one of ``checks`` (issue 21's by default)."""
    findings = compare_pages(text, upgraded_html, library_html, vocabulary, links_scheme, markup_input, author_html)
    chosen = set(checks)
    found = [f for f in findings if f[0] in chosen]
    assert not found, (found, text, upgraded_html, library_html)


Span = tuple[int, int, str]  # start, end, href


def _located(text: str, start: int, end: int, url: str) -> tuple[int, int]:
    """A library's span where its text is: urlextract's indices can be off (a start below 0
    where a URL begins the text); the URL is then looked for near them."""
    if text[start:end] == url or (start >= 0 and not url):
        return start, end
    if 0 <= start < end and url.endswith(text[start:end]):
        return start, end  # (the url the library normalized: "http://" before a fuzzy "www.evil.com/", seed 35)
    found = text.find(url, max(0, start - len(url)))
    return (found, found + len(url)) if found >= 0 else (max(0, start), max(0, end))


def _moved_over_non_host(prefix: str) -> bool:
    """Whether the library's span starts with ``prefix``, characters no host holds (urlextract's
    ``**`` of Markdown emphasis in ``**www.x.com``), that the refinement moves the start over
    (docs/decisions.md); not a label separator: ``~.e.io`` is rejected, not cut to ``e.io``."""
    from uts58_adapt.refine.hosts import SEPARATORS, is_host_char

    return not any(is_host_char(ch) or ch in SEPARATORS for ch in prefix)


def compare_spans(
    text: str,
    upgraded: Sequence[Span],
    library: Sequence[Span],
    normalized: Sequence[Span],
    schemes: set[str],
    links_scheme: Callable[[str], bool] = lambda scheme: False,
    links_alone: Callable[[str], bool] | None = None,
) -> list[tuple[str, str]]:
    """The findings of the upgrade's spans against the library's (``normalized``: the library's
    spans on ``text`` with its ideographic full stops written ``.``; ``schemes``: the library's)."""
    findings: list[tuple[str, str]] = []
    library_schemes = schemes | {_scheme(href) for _, _, href in library}
    own = [_located(text, s, e, href) for s, e, href in library]
    # (located in the text they were found in: "//例え。jp/" is "//例え.jp/" there, not the later one)
    dotted = library_form(text)
    spans = own + [_located(dotted, s, e, href) for s, e, href in normalized]
    for start, end, href in upgraded:
        scheme = _scheme(href)
        if scheme not in library_schemes and not links_scheme(scheme):
            findings.append(("new href scheme", scheme or "(none)"))
        if not _overlaps(start, end, spans):
            boundary = start == 0 or not _TOKEN.match(text[start - 1])
            if not (boundary and links_alone is not None and links_alone(text[start:end])):
                findings.append(("invented link", _link_kind(href, text[start:end])))
        elif (
            scheme != "mailto"
            and any(
                s < start < e
                and "@" not in text[s:e]
                and not set(text[s:start]) <= BIDI_CONTROLS
                and not _moved_over_non_host(text[s:start])
                for s, e in own
            )
            # (the library's link on the text's "." form starts there: "．l.io#e.co", "e.co" on ".l.io#e.co")
            and not any(s == start for s, _, _ in normalized)
        ):
            findings.append(("starts inside the library's link", ""))
    return sorted(set(findings))


# ---------------------------------------------------------------------------
# The integration configurations users have
# ---------------------------------------------------------------------------
Render = Callable[[str], str]
Spans = Callable[[str], list[Span]]


@dataclass
class Config:
    """One integration configuration: the upgrade and the library alone, built on first use.

    ``make()`` returns ``(upgraded, alone)``, two renders (text → HTML) or, for
    ``kind="spans"``, two span finders; ``author``: the Markdown renderer without a
    linkifier; ``markup_input``: the input stays markup in the output (trusted input).
    ``vocabulary``: text on which the library shows its schemes and attributes.
    """

    make: Callable[[], tuple[Callable[[str], Any], Callable[[str], Any]]]
    kind: str = "html"
    markup_input: bool = False
    author: Callable[[], Render] | None = None
    library: str = ""  # the module the configuration needs (skipped without it)
    vocabulary: str = (
        "see http://example.com/a https://example.com/b www.example.com a@example.com mailto:b@example.com"
    )
    vocabulary_render: Callable[[str], str] | None = None  # the vocabulary's links, when not the library's
    invented: bool = True  # whether the library makes links (not linkify_html's input as it is)
    shown: Callable[[str], str] | None = None  # applied to the visible text of both outputs
    plain_text: bool = False  # the input is text the integration escapes
    #: The library with its links ended where the upgrade ends them (``compare_pages``'s ``ended``).
    #: Whether the integration asks the library about an email's non-ASCII domain in its ``xn--`` form
    #: (UTS #58 §10.1; docs/decisions.md, cmark-gfm): ``links_alone`` asks so too.
    ascii_email_domain: bool = False
    ended: Callable[[], Render] | None = None
    #: The library shortens links (magiclink's ``*_url_shortener``): its shortened anchors are compared
    #: as the links they shorten (:func:`_unshortened`), on both sides.
    unshorten: bool = False
    built: tuple[Callable[[str], Any], Callable[[str], Any], Any, Render | None] | None = field(
        default=None, repr=False
    )
    probes: dict[str, bool] = field(default_factory=dict, repr=False)
    renders: dict[str, Render] = field(default_factory=dict, repr=False)

    def build(self) -> tuple[Callable[[str], Any], Callable[[str], Any], Any, Render | None]:
        if self.built is None:
            upgraded, alone = self.make()
            if self.kind == "spans":
                vocabulary: Any = {_scheme(href) for _, _, href in alone(self.vocabulary)}
            else:
                vocabulary = Page((self.vocabulary_render or alone)(self.vocabulary))
            self.built = (upgraded, alone, vocabulary, self.author() if self.author else None)
        return self.built

    def ended_render(self) -> Render | None:
        """The renderer of ``ended``, built on first use (None without one)."""
        if self.ended is None:
            return None
        if "ended" not in self.renders:
            self.renders["ended"] = self.ended()
        return self.renders["ended"]


def _bleach(parse_email: bool = False, tlds: list[str] | None = None) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from bleach.linkifier import Linker, build_url_re

        options: dict[str, Any] = {"parse_email": parse_email}
        if tlds is not None:
            options["url_re"] = build_url_re(tlds=tlds)
        return uts58_adapt.wrap(Linker(**options)).linkify, Linker(**options).linkify

    return make


def _bleach_cleaner(parse_email: bool = False) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from functools import partial

        from bleach.linkifier import LinkifyFilter
        from bleach.sanitizer import Cleaner

        tags = {"a", "b", "p", "abbr", "pre", "code", "em", "strong"}
        attributes = {"a": ["href", "rel", "title"], "abbr": ["title"]}
        upgraded = Cleaner(
            tags=tags,
            attributes=attributes,
            filters=[partial(uts58_adapt.wrap(LinkifyFilter), parse_email=parse_email)],
        )
        alone = Cleaner(tags=tags, attributes=attributes, filters=[partial(LinkifyFilter, parse_email=parse_email)])
        return upgraded.clean, alone.clean

    return make


def _django_settings() -> None:
    from django.conf import settings

    if not settings.configured and not os.environ.get("DJANGO_SETTINGS_MODULE"):
        settings.configure(URLIZE_ASSUME_HTTPS=True)


def _django(safe: bool = False, autoescape: bool = True, nofollow: bool = False) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from django.utils.html import urlize as django_urlize
        from django.utils.safestring import mark_safe

        from uts58_adapt.integrations.django import urlize

        _django_settings()
        wrap_input: Callable[[str], Any] = mark_safe if safe else str
        return (
            lambda t: str(urlize(wrap_input(t), nofollow=nofollow, autoescape=autoescape)),
            lambda t: str(django_urlize(wrap_input(t), nofollow=nofollow, autoescape=autoescape)),
        )

    return make


def _django_filter(autoescape: bool = True) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from django.template import Context, Engine

        _django_settings()
        engine = Engine(libraries={"uts58": "uts58_adapt.integrations.django.templatetags.uts58"})
        body = "{{ v|urlize }}" if autoescape else "{% autoescape off %}{{ v|urlize }}{% endautoescape %}"
        upgraded, alone = engine.from_string("{% load uts58 %}" + body), engine.from_string(body)
        return (lambda t: upgraded.render(Context({"v": t}))), (lambda t: alone.render(Context({"v": t})))

    return make


def _jinja2(
    safe: bool = False, arguments: str = "", policies: dict[str, Any] | None = None
) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from jinja2 import Environment

        from uts58_adapt.integrations.jinja2 import install

        source = "{{ v" + ("|safe" if safe else "") + "|urlize" + arguments + " }}"
        alone_env, env = Environment(autoescape=True), Environment(autoescape=True)
        for e in (alone_env, env):
            e.policies.update(policies or {})
        install(env)
        alone, upgraded = alone_env.from_string(source), env.from_string(source)
        return (lambda t: upgraded.render(v=t)), (lambda t: alone.render(v=t))

    return make


def _mistune(escape: bool = True) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        import mistune

        from uts58_adapt.integrations import mistune as integration

        upgraded = mistune.create_markdown(escape=escape, plugins=[integration.url])
        alone = mistune.create_markdown(escape=escape, plugins=["url"])
        return (lambda t: str(upgraded(t))), (lambda t: str(alone(t)))

    return make


def _mistune_author(escape: bool = True) -> Callable[[], Render]:
    def make() -> Render:
        import mistune

        plain = mistune.create_markdown(escape=escape)
        return lambda t: str(plain(t))

    return make


def _magiclink(**config: Any) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        import markdown

        ours, theirs = "uts58_adapt.integrations.magiclink", "pymdownx.magiclink"
        upgraded = markdown.Markdown(extensions=[ours], extension_configs={ours: config})
        alone = markdown.Markdown(extensions=[theirs], extension_configs={theirs: config})
        return (lambda t: upgraded.reset().convert(t)), (lambda t: alone.reset().convert(t))

    return make


#: docutils' settings for the differential runs: no file, no raw HTML, no message as an exception.
DOCUTILS_SETTINGS = {
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "halt_level": 5,
    "report_level": 5,
    "line_length_limit": 1 << 30,
    "_disable_config": True,
}


def _docutils() -> tuple[Render, Render]:
    from docutils.core import publish_parts
    from docutils.parsers.rst import Parser as RstParser
    from docutils.writers.html5_polyglot import Writer

    from uts58_adapt.integrations.docutils import Parser

    def render(parser: Callable[[], Any]) -> Render:
        return lambda t: str(
            publish_parts(t, writer=Writer(), parser=parser(), settings_overrides=DOCUTILS_SETTINGS)["body"]
        )

    return render(Parser), render(RstParser)


def _cmarkgfm(options: int = 0) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        import cmarkgfm

        from uts58_adapt.integrations import cmarkgfm as integration

        return (
            lambda t: integration.github_flavored_markdown_to_html(t, options),
            lambda t: str(cmarkgfm.github_flavored_markdown_to_html(t, options)),
        )

    return make


def _cmarkgfm_author(options: int = 0) -> Callable[[], Render]:
    """cmark-gfm with the GitHub extensions but ``autolink``."""

    def make() -> Render:
        import cmarkgfm

        extensions = ["table", "tagfilter", "strikethrough", "tasklist"]
        return lambda t: str(cmarkgfm.markdown_to_html_with_extensions(t, options | 1 << 11, extensions))

    return make


def _markdown_author() -> Render:
    import markdown

    plain = markdown.Markdown()
    return lambda t: plain.reset().convert(t)


def _magiclink_author(hide_protocol: bool = False) -> Callable[[], Render]:
    """Python-Markdown with magiclink's angle-bracket autolink (``<http://…>``, ``<ftp://…>`` only)
    in place of Python-Markdown's (any scheme): the author's explicit links as magiclink reads them,
    so ``<e://@x>`` is the author's ``mailto:`` anchor (Python-Markdown's automail) on both sides."""

    def make() -> Render:
        import markdown
        from pymdownx.magiclink import RE_AUTOLINK, MagiclinkAutoPattern

        plain = markdown.Markdown()
        autolink = MagiclinkAutoPattern(RE_AUTOLINK, plain)
        autolink.config = {"hide_protocol": hide_protocol, "repo_url_shortener": False}
        plain.inlinePatterns.register(autolink, "autolink", 120)
        return lambda t: plain.reset().convert(t)

    return make


def _marko() -> tuple[Render, Render]:
    import marko

    upgraded = marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"])
    alone = marko.Markdown(extensions=["gfm"])
    return upgraded.convert, alone.convert


def _marko_author() -> Render:
    """marko's GFM without its extended autolinks (the ``Url`` element)."""
    import marko
    from marko.ext.gfm import GFM, elements
    from marko.helpers import MarkoExtension

    without = [e for e in GFM.elements if e is not elements.Url]
    plain = marko.Markdown(extensions=[MarkoExtension(elements=without, renderer_mixins=GFM.renderer_mixins)])
    return plain.convert


def _markdown_it(html: bool, fuzzy_link: bool = True) -> Callable[[], tuple[Render, Render]]:
    def make() -> tuple[Render, Render]:
        from markdown_it import MarkdownIt

        options = {"linkify": True, "html": html}
        alone = MarkdownIt("commonmark", options).enable("linkify")
        upgraded = MarkdownIt("commonmark", options).enable("linkify")
        if not fuzzy_link:
            alone.linkify.set({"fuzzy_link": False})
            upgraded.linkify.set({"fuzzy_link": False})
        upgraded.linkify = uts58_adapt.wrap(upgraded.linkify)
        return upgraded.render, alone.render

    return make


#: The characters that start Markdown syntax in markdown-it's CommonMark inline rules (inline HTML
#: and autolinks, emphasis and strikethrough, links and images, code spans, escapes, references)
#: and a line break: a link of the inline rule (in the Markdown source) that the upgrade takes past
#: the library's end over none of them shows the characters the library would show there.
_MARKDOWN_SYNTAX = frozenset("<*_~[]!`\\&\n\r")


class EndedLinkify:
    """linkify-it as markdown-it asks it, each of its links ended where the upgrade ends it.

    ``library`` is linkify-it alone (configured as in the upgrade), asked about the text's
    :func:`library_form` (the library decides the host in its ``.`` form), ``upgraded`` the wrapped
    instance, asked about the text.  Each link the library finds (``match``, ``match_at_start``)
    is, by what the upgrade answers on the same text: not made where the upgrade makes no link
    over it; ended earlier where the upgrade's link starts at the same place and ends earlier;
    ended later where the upgrade's ends later, before the library's next link, and (for
    ``match_at_start``, which reads Markdown source, not a text token) over no character that
    starts Markdown syntax (``_MARKDOWN_SYNTAX``); kept as it is otherwise (a link the upgrade
    starts elsewhere).  Each link is the library's match on the text, normalized by the library
    (its ``url`` and ``text``): markdown-it with this linkifier renders the text as the library
    would with its links ended as UTS #58 ends them, and never makes a link the library does not
    start, nor shows a link as the upgrade writes it.  ``pretest`` and ``test`` are the library's.
    """

    def __init__(self, library: Any, upgraded: Any) -> None:
        self.library, self.upgraded = library, upgraded

    def pretest(self, text: str) -> bool:
        return bool(self.library.pretest(library_form(text)))

    def test(self, text: str) -> bool:
        return bool(self.library.test(library_form(text)))

    def match_at_start(self, text: str) -> Any:
        found = self.library.match_at_start(library_form(text))
        if found is None:
            return None
        theirs = self.upgraded.match_at_start(text)
        return self._ended(text, found, [theirs] if theirs is not None else [], len(text), source=True)

    def match(self, text: str) -> list[Any] | None:
        found = self.library.match(library_form(text)) or []
        theirs = self.upgraded.match(text) or []
        out = []
        for i, m in enumerate(found):
            following = found[i + 1].index if i + 1 < len(found) else len(text)
            ended = self._ended(text, m, theirs, following, source=False)
            if ended is not None:
                out.append(ended)
        return out or None

    def _ended(self, text: str, m: Any, theirs: list[Any], following: int, source: bool) -> Any:
        """The library's link ``m`` ended as the upgrade ends it (``theirs``: its links), or None."""
        start, end = int(m.index), int(m.last_index)
        if not any(t.index < end and start < t.last_index for t in theirs):
            return None  # the upgrade makes no link over it
        same = next((t for t in theirs if t.index == start), None)
        if same is None:
            return self.library._create_match(text, m.schema, start, end)
        upgraded_end, schema = int(same.last_index), m.schema
        if upgraded_end > end and (
            upgraded_end > following or (source and _MARKDOWN_SYNTAX.intersection(text[end:upgraded_end]))
        ):
            upgraded_end = end  # (the upgrade's longer link is compared with the library's as it is)
        elif same.schema != m.schema:
            # the library's span read as UTS #58 reads it ("x.com:@b.om": no local part, the URL x.com)
            schema = same.schema
        try:
            return self.library._create_match(text, schema, start, upgraded_end)
        except KeyError:  # (a schema the library's compiled table names otherwise: "" for a fuzzy link)
            match = type(m)(text, schema, start, upgraded_end)
            self.library.normalize(match)
            return match


def _markdown_it_ended(html: bool, fuzzy_link: bool = True) -> Callable[[], Render]:
    """markdown-it with linkify-it's links ended where the upgrade ends them (:class:`EndedLinkify`)."""

    def make() -> Render:
        from linkify_it import LinkifyIt
        from markdown_it import MarkdownIt

        options = {} if fuzzy_link else {"fuzzy_link": False}
        ended = MarkdownIt("commonmark", {"linkify": True, "html": html}).enable("linkify")
        ended.linkify = EndedLinkify(LinkifyIt().set(options), uts58_adapt.wrap(LinkifyIt().set(options)))
        return ended.render

    return make


def _markdown_it_author(html: bool) -> Callable[[], Render]:
    def make() -> Render:
        from markdown_it import MarkdownIt

        return MarkdownIt("commonmark", {"html": html}).render

    return make


def _linkify_html() -> tuple[Render, Render]:
    # The "library alone" of linkify_html is the fragment as it is: only anchors may be added.
    return uts58_adapt.linkify_html, lambda t: t


def _linkify_it_spans(**options: Any) -> Callable[[], tuple[Spans, Spans]]:
    def make() -> tuple[Spans, Spans]:
        from linkify_it import LinkifyIt

        def spans(linkify: Any) -> Spans:
            return lambda t: [(m.index, m.last_index, m.url) for m in linkify.match(t) or ()]

        return spans(uts58_adapt.wrap(LinkifyIt().set(options))), spans(LinkifyIt().set(options))

    return make


def _urlextract_spans() -> tuple[Spans, Spans]:
    from urlextract import URLExtract

    def spans(extractor: Any) -> Spans:
        return lambda t: [(s, e, url) for url, (s, e) in extractor.find_urls(t, get_indices=True)]

    return spans(uts58_adapt.wrap(URLExtract())), spans(URLExtract())


_HIDDEN_SCHEME = re.compile(r"(?i)(?:https?|ftp)://")  # what magiclink's hide_protocol hides
_MARKDOWN_VOCABULARY = "see http://example.com/a https://example.com/b www.example.com a@example.com <https://x.com/>"
_JINJA2_VOCABULARY = (
    "see http://example.com/a https://example.com/b www.example.com a@example.com tel:+1-555 ftp://x.com/"
)

#: Every integration configuration the campaign covers.
CONFIGS: dict[str, Config] = {
    "bleach": Config(_bleach(), library="bleach", markup_input=True),
    "bleach parse_email": Config(_bleach(parse_email=True), library="bleach", markup_input=True),
    "bleach tlds=com": Config(_bleach(tlds=["com"]), library="bleach", markup_input=True),
    "bleach Cleaner": Config(_bleach_cleaner(), library="bleach"),
    "bleach Cleaner parse_email": Config(_bleach_cleaner(parse_email=True), library="bleach"),
    "django": Config(_django(), library="django", plain_text=True),
    "django nofollow": Config(_django(nofollow=True), library="django", plain_text=True),
    "django safe": Config(_django(safe=True), markup_input=True, library="django"),
    "django autoescape off": Config(_django(autoescape=False), markup_input=True, library="django"),
    "django filter": Config(_django_filter(), library="django", plain_text=True),
    "django filter autoescape off": Config(_django_filter(autoescape=False), markup_input=True, library="django"),
    "jinja2": Config(_jinja2(), library="jinja2", plain_text=True),
    "jinja2 safe": Config(_jinja2(safe=True), markup_input=True, library="jinja2"),
    "jinja2 options": Config(
        _jinja2(arguments='(rel="me noopener", target="_blank", nofollow=true)'), library="jinja2", plain_text=True
    ),
    "jinja2 extra_schemes": Config(
        _jinja2(arguments='(extra_schemes=["tel:", "ftp:", "ms-msdt:"])'),
        library="jinja2",
        plain_text=True,
        vocabulary=_JINJA2_VOCABULARY,
    ),
    "jinja2 safe extra_schemes policy": Config(
        _jinja2(safe=True, policies={"urlize.extra_schemes": ["tel:", "ftp:"], "urlize.rel": "nofollow"}),
        markup_input=True,
        library="jinja2",
        vocabulary=_JINJA2_VOCABULARY,
    ),
    "mistune": Config(_mistune(), author=_mistune_author(), library="mistune", vocabulary=_MARKDOWN_VOCABULARY),
    "mistune escape=False": Config(
        _mistune(escape=False),
        author=_mistune_author(escape=False),
        markup_input=True,
        library="mistune",
        vocabulary=_MARKDOWN_VOCABULARY,
    ),
    "magiclink": Config(
        _magiclink(), author=_magiclink_author(), markup_input=True, library="pymdownx", vocabulary=_MARKDOWN_VOCABULARY
    ),
    "magiclink options": Config(
        _magiclink(hide_protocol=True, repo_url_shortener=True, social_url_shortener=True, repo_url_shorthand=True),
        shown=lambda t: _HIDDEN_SCHEME.sub("", t),
        unshorten=True,
        author=_magiclink_author(hide_protocol=True),
        markup_input=True,
        library="pymdownx",
        vocabulary=_MARKDOWN_VOCABULARY,
    ),
    "docutils": Config(_docutils, library="docutils", plain_text=True),
    "markdown-it": Config(
        _markdown_it(False),
        author=_markdown_it_author(False),
        library="markdown_it",
        vocabulary=_MARKDOWN_VOCABULARY,
        ended=_markdown_it_ended(False),
    ),
    "markdown-it html": Config(
        _markdown_it(True),
        author=_markdown_it_author(True),
        markup_input=True,
        library="markdown_it",
        vocabulary=_MARKDOWN_VOCABULARY,
        ended=_markdown_it_ended(True),
    ),
    "markdown-it fuzzy_link off": Config(
        _markdown_it(False, fuzzy_link=False),
        author=_markdown_it_author(False),
        library="markdown_it",
        vocabulary=_MARKDOWN_VOCABULARY,
        ended=_markdown_it_ended(False, fuzzy_link=False),
    ),
    "marko": Config(_marko, author=_marko_author, markup_input=True, library="marko", vocabulary=_MARKDOWN_VOCABULARY),
    "cmarkgfm": Config(
        _cmarkgfm(),
        author=_cmarkgfm_author(),
        library="cmarkgfm",
        vocabulary=_MARKDOWN_VOCABULARY,
        ascii_email_domain=True,
    ),
    "cmarkgfm unsafe": Config(
        _cmarkgfm(1 << 17),
        author=_cmarkgfm_author(1 << 17),
        markup_input=True,
        library="cmarkgfm",
        vocabulary=_MARKDOWN_VOCABULARY,
        ascii_email_domain=True,
    ),
    "linkify_html": Config(
        _linkify_html, markup_input=True, library="html5lib", vocabulary_render=uts58_adapt.linkify, invented=False
    ),
    "wrap(LinkifyIt())": Config(_linkify_it_spans(), kind="spans", library="linkify_it"),
    "wrap(LinkifyIt()) fuzzy_link off": Config(_linkify_it_spans(fuzzy_link=False), kind="spans", library="linkify_it"),
    "wrap(URLExtract())": Config(_urlextract_spans, kind="spans", library="urlextract"),
}

#: Issue 21's configuration names (``tests/test_differential_integrations.py``).
DIFFERENTIAL: dict[str, Config] = {
    name: CONFIGS[name]
    for name in (
        "bleach", "bleach Cleaner", "django", "django safe", "jinja2", "jinja2 safe", "mistune", "magiclink",
        "markdown-it", "markdown-it html", "marko", "linkify_html",
    )
}  # fmt: skip


class _Hang(Exception):
    pass


def _timed(call: Callable[[], Any], seconds: float) -> Any:
    """``call()``, raising ``_Hang`` after ``seconds`` (SIGALRM, where the platform has it)."""
    if not hasattr(signal, "SIGALRM"):
        return call()

    def alarm(signum: int, frame: Any) -> None:
        raise _Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


#: What starts a character reference in Markdown source (CommonMark §2.5), after its "&".
_MARKDOWN_REFERENCE = re.compile(r"&(?=([A-Za-z][A-Za-z0-9]{0,31};|#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};))")


def _markdown_ampersand(m: re.Match[str]) -> str:
    """A reference's "&" written so that it shows as text: "&amp;" before a numeric reference or an
    HTML5 entity name; as it is before any other name ("&q;" is text in CommonMark, and in a link
    mistune shows "&amp;q;" as written)."""
    import html.entities

    return "&amp;" if m.group(1)[0] == "#" or m.group(1) in html.entities.html5 else "&"


def _written(shown: str, config: Config) -> str:
    """``shown`` (text as a page shows it) as the configuration's input that shows it: as it is for
    plain text the integration escapes; escaped for markup and Markdown, with controls (CR, ``&#1;``)
    written as references in markup, where a raw CR would be white space to the library."""
    if config.plain_text:
        return shown
    if config.author is not None:
        # Markdown source, with HTML or not: "&" is text unless it starts a character reference, and
        # one written "&amp;" is an entity token, before which markdown-it links nothing at the start
        # of a text (markdown-it with ``html`` links "&@c.org" written so, not "&amp;@c.org").
        written = _MARKDOWN_REFERENCE.sub(_markdown_ampersand, shown).replace("<", "&lt;").replace(">", "&gt;")
        if not config.markup_input:
            return written
    else:
        written = html.escape(shown, quote=False)
    return _CONTROL.sub(lambda m: f"&#{ord(m.group())};", written) if config.markup_input else written


def findings_of(name: str, text: str, checks: Iterable[str] = CHECKS) -> list[tuple[str, str]]:
    """The findings ``(check, detail)`` of configuration ``name`` on ``text`` (none where the library itself fails)."""
    config = CONFIGS[name]
    upgraded, alone, vocabulary, author = config.build()
    try:
        library_out = alone(text)
        # (character references are decoded in markup and Markdown: "&#xff61;" is asked as a ".")
        normalized = library_form(text, references=not config.plain_text and config.kind != "spans")
        normalized_out = alone(normalized) if normalized != text else None
    except Exception:
        return []  # the library alone fails: nothing to compare with
    try:
        upgraded_out = _timed(lambda: upgraded(text), HANG_SECONDS)
    except _Hang:
        return [("hang", f"over {HANG_SECONDS:g} s")]
    except Exception as exc:
        return [("raises", type(exc).__name__)]
    if config.unshorten:
        library_out, upgraded_out = _unshortened(library_out, alone), _unshortened(upgraded_out, alone)
        normalized_out = None if normalized_out is None else _unshortened(normalized_out, alone)

    def links_alone(shown: str) -> bool:
        return _links_alone(config, shown)

    def library_starts(rest: str, prefix: str) -> bool:
        return _library_starts(config, rest, prefix)

    def library_hrefs(shown: str) -> set[str]:
        return {href for _, _, href, _ in Page(alone(_written(shown, config))).anchors if href is not None}

    def links_scheme(scheme: str) -> bool:  # "" is a scheme-relative link, //example.com/
        if scheme not in config.probes:
            probe = f"see {scheme}{':' if scheme else ''}//example.com/ ok"
            if config.kind == "spans":
                config.probes[scheme] = scheme in {_scheme(href) for _, _, href in alone(probe)}
            else:
                config.probes[scheme] = scheme in Page(alone(probe)).schemes
        return config.probes[scheme]

    try:
        author_out = author(text) if author and config.kind != "spans" else None
    except Exception:
        return []  # the author's renderer fails (cmark-gfm on some references): nothing to compare with
    if config.kind == "spans":
        found = compare_spans(
            text, upgraded_out, library_out, normalized_out or [], vocabulary, links_scheme, links_alone
        )
    else:
        found = compare_pages(
            text,
            upgraded_out,
            library_out,
            vocabulary,
            links_scheme,
            config.markup_input,
            author_out,
            normalized_out,
            config.invented,
            links_alone,
            config.shown,
            config.plain_text,
            library_hrefs,
            _ended_output(config, text),
            library_starts,
        )
    if found and config.kind != "spans" and _is_ended_rendering(config, text, upgraded_out):
        # The upgrade's output is, byte for byte, the library's own rendering once UTS #58 ends its
        # links (``ended``): what the renderer makes of the rest of a link it swallowed is its own
        # reading of the author's Markdown (markdown-it's "][r]" after "ftp://c/![?", a reference
        # link to the author's definition, seed 31). Only the checks about every link shown stay.
        found = [f for f in found if f[0] in EVERY_LINK_CHECKS]
    chosen = set(checks)
    return [f for f in found if f[0] in chosen]


#: The checks that hold for every link shown, the library's own included (docs/hostile-input.md):
#: kept where the upgrade's output is the library's ``ended`` rendering (:func:`findings_of`).
EVERY_LINK_CHECKS = frozenset({"bidi control in link text", "raw character in href"})


def _is_ended_rendering(config: Config, text: str, upgraded_out: str) -> bool:
    """Whether ``upgraded_out`` is the ``ended`` rendering of ``text`` (:class:`EndedLinkify`), byte for byte."""
    render = config.ended_render()
    if render is None:
        return False
    try:
        return bool(render(text) == upgraded_out)
    except Exception:
        return False


#: An anchor of magiclink's link shorteners, as it writes one (class, href, title; its text shortened).
_SHORTENED = re.compile(r'<a class="magiclink[^"]*" href="([^"]*)" title="[^"]*">([^<]*)</a>')


def _unshortened(html_: str, alone: Render) -> str:
    """``html_`` with each of magiclink's shortened anchors written as the link it shortens: its href,
    shown without the scheme (``hide_protocol``), where the library alone renders that href, as
    its whole text, to that very anchor (so the shortening is the library's own, with its class
    and title: magiclink shows the upgrade's ``https://x.com/a``, ended before ``>``, as the
    mention ``@a``).  Any other anchor is left as it is, and compared as the library writes it."""

    def plain(m: re.Match[str]) -> str:
        href = m.group(1)
        try:
            theirs = alone(html.unescape(href))
        except Exception:
            return m.group()
        if theirs != f"<p>{m.group()}</p>":
            return m.group()
        return f'<a href="{href}">{_HIDDEN_SCHEME.sub("", href)}</a>'

    return _SHORTENED.sub(plain, html_) if "magiclink" in html_ else html_


def _links_alone(config: Config, shown: str) -> bool:
    """Whether the library of ``config`` links ``shown`` alone, whole (asked with :func:`library_form`;
    an email with a non-ASCII domain also with the domain's ``xn--`` form, where the integration asks so)."""
    _, alone, _, _ = config.build()
    probe = library_form(shown)
    if config.kind == "spans":
        return any(s == 0 and e == len(probe) for s, e, _ in alone(probe))
    if any(anchor_text == probe for _, _, _, anchor_text in Page(alone(_written(probe, config))).anchors):
        return True
    ascii_probe = _ascii_email(probe) if config.ascii_email_domain else None
    if ascii_probe is None:
        return False
    # (whole, or its end: the library's local part may start later, where UTS #58 §5.2 reads a longer
    # one, as on the text's "." form for an ASCII domain: cmark-gfm's "a@xn--4db.m" in "/a@xn--4db.m")
    return any(
        t == ascii_probe or (ascii_probe.endswith(t) and t.find("@") > 0)
        for _, _, _, t in Page(alone(_written(ascii_probe, config))).anchors
    )


def _library_starts(config: Config, rest: str, prefix: str) -> bool:
    """Whether the library of ``config``, given ``rest`` alone, starts a link at its start whose text
    begins with ``prefix`` (``compare_pages``'s ``library_starts``).  In Markdown also with its
    references as they are: ``rest`` is the text of the library's link, where mistune shows the
    source as written ("&quot;" of "…/&quot;*", which ``_written`` would write "&amp;quot;")."""
    _, alone, _, _ = config.build()
    probe = library_form(rest)
    sources = [_written(probe, config)]
    if config.author is not None:
        sources.append(probe.replace("<", "&lt;").replace(">", "&gt;"))
        # (and a control the page shows as the reference it was written as: mistune escape=False
        # shows "&#xd;" as a CR, which the page reads as LF, and raw would end the line; seed 29)
        sources.append(
            re.sub(
                "[\x00-\x08\x0a-\x1f\x7f]",
                lambda m: f"&#{13 if m.group() == chr(10) else ord(m.group())};",
                sources[-1],
            )
        )
    # (the texts as shown: a Bidi_Control the upgrade's link shows percent-encoded is the character, seed 25)
    shown = _BIDI_SHOWN.sub(_bidi_character, library_form(prefix))
    return any(
        s == 0 and h is not None and _BIDI_SHOWN.sub(_bidi_character, t).startswith(shown)
        for source in dict.fromkeys(sources)
        for s, _, h, t in Page(alone(source)).anchors
    )


def _ascii_email(probe: str) -> str | None:
    """``probe``, an email whose domain is not ASCII, with the domain in its ``xn--`` form (None otherwise)."""
    from uts58_adapt.refine.acceptance import ascii_host

    m = re.fullmatch(r"([^@\s]+)@([^@\s]*[^\x00-\x7f][^@\s]*)", probe)
    if m is None:
        return None
    try:
        return m.group(1) + "@" + ascii_host(m.group(2))
    except (UnicodeError, ValueError):
        return None


def _ended_output(config: Config, text: str) -> Callable[[], str] | None:
    """``compare_pages``'s ``ended`` for ``text``: the configuration's ``ended`` renderer on it, if any."""
    render = config.ended_render()
    return None if render is None else lambda: render(text)


def check_integration(name: str, text: str, checks: Iterable[str] = ISSUE_21_CHECKS) -> None:
    """Raise AssertionError when configuration ``name`` has a finding of ``checks`` on ``text``."""
    found = findings_of(name, text, checks)
    assert not found, (name, found, text)


# ---------------------------------------------------------------------------
# The generator: links in the syntax and the references users write around them
# ---------------------------------------------------------------------------
GEN_SCHEMES = [
    "", "", "", "http://", "https://", "HTTPS://", "hTtP://", "ftp://", "mailto:", "tel:", "javascript:",
    "jav&#x61;script:", "ms-msdt://", "file://", "//", "www.", "http://www.",
]  # fmt: skip
GEN_HOSTS = [
    "x.com", "example.com", "a.co", "evil.io", "example.org", "t.example", "example.io", "x.cc",
    # ideographic full stops, fullwidth hosts, IDNs, punycode
    "ex。com", "evil｡io", "evil．com", "example｡io", "ｅｘａｍｐｌｅ.ｃｏｍ", "ｅｘａｍｐｌｅ．ｃｏｍ", "ｘ．ｃｏｍ",
    "bücher.de", "xn--bcher-kva.de", "例え.jp", "例え。jp", "пример.рф", "xn--80ak6aa92e.com", "uile.io",
    "127.0.0.1", "localhost:8000", "[::1]", "x.com:8080", "l·l.com", "evilhost", "a_b.com",
    # hosts UTS #58 or UTS #46 rejects: the upgrade leaves the library's link as text
    "", "@x", "-a.com", "a..com", "_", "x_.com",
    # emails and mailto-like header fields (RFC 6068)
    "a@b.com", "user.name+tag@example.com", "σωκράτης@example.com", "support@example.com", "σ@example.com",
    "?subject=Urgent&body=Pay_now&bcc=boss@corp.com", "σ?cc=boss@corp.com", "a%b@c.com", "x#y@z.com",
    "a&b@c.org", "to?bcc=x@y.com", "a@b.com?subject=hi", "a@b.com&cc=c@d.com",
]  # fmt: skip
GEN_TAILS = [
    "", "", "", "/", "/a", "/a.b", "/path/to.html", "?q=1&r=2", "#frag", "#:~:text=a,b", "/a(b)c", "/(x", ")",
    ".", ",", "!", "/a_b_", "/*a*", "/a**", "/`c`", "/~x~", "/]", "/a>b", "/<1", "/<!--", "/<b>x</b>", "/'\"",
    "/。me", "/מיזם。me", "/%E2%80%AE", "/\u202egpj.exe", "/&#x202e;x", "/a&amp;b", "/?a=1&amp;b=2",
    "/Hawai'i&amp;x", "/a&#6;b", "/a&#x7f;b", "/a&#xfdd0;b", "/a&#13;b", "/a\rb", "/\u200b", "/\u2066x\u2069",
    "/&lt;img&gt;", "/&quot;x", "/a&#46;b", "/a&#x2e;b", "/methods/rsh.cc", "/foo_unittest.cc",
]  # fmt: skip
#: Markdown around a link ``L``: emphasis, code, link and image syntax, autolinks, blocks.
GEN_MARKDOWN = [
    "**L**", "*L*", "_L_", "__L__", "~~L~~", "`L`", "[L](https://t.example/)", "[x](L)", "![L](https://t.example/p.png)",
    "![x](L)", "<L>", "[L]", "(L)", "![L<[y](https://t.example/p.png)", "[L<[y](https://t.example/)", "> L",
    "- L", "# L", "[L][r]\n\n[r]: https://t.example/", "**L** ok", "Contact **L** today", "*L*.", "_L_,", "\\L",
    "    L", "```\nL\n```", "[![L](https://t.example/i.png)](https://t.example/)",
]  # fmt: skip
#: Character references of every class: named (with and without ``;``), decimal, hex, controls,
#: noncharacters, the C1 replacement table, CR, NUL, surrogates, out of range.
GEN_REFERENCES = [
    "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&nbsp;", "&copy;", "&not;", "&notin;", "&amp", "&AMP;", "&lta;",
    "&ampx", "&unknown;", "&#38;", "&#60;", "&#46;", "&#47;", "&#58;", "&#64;", "&#6;", "&#0;", "&#9;", "&#10;",
    "&#13;", "&#x0d;", "&#xD;", "&#127;", "&#x7f;", "&#128;", "&#x80;", "&#x82;", "&#150;", "&#x85;", "&#x9f;",
    "&#159;", "&#8238;", "&#x202e;", "&#X202E;", "&#x2066;", "&#x200f;", "&#x61c;", "&#xfdd0;", "&#xfffe;",
    "&#xffff;", "&#x10ffff;", "&#x1fffe;", "&#xd800;", "&#x110000;", "&#1114112;", "&#x3002;", "&#xff0e;",
    "&#xff61;", "&#x40;", "&#x2f;", "&#", "&#x", "&#;", "&#x;",
]  # fmt: skip
GEN_MARKUP = [
    "<!--", "-->", "<!-- <img src=x onerror=alert(1)> -->", "<![CDATA[", "]]>", "<textarea>", "</textarea>",
    "<title>", "</title>", "<script>", "</script>", "<style>", "</style>", "<xmp>", "<plaintext>", "<noscript>",
    "<svg>", "<math>", '<a href="https://good.com/">', "</a>", "<table><tr><td>", "<object>", "<marquee>",
    "<applet>", "<caption>", "<th>",
    # the author's anchor left open by an end tag out of scope (issue 32 item 9)
    '<a href="https://good.com/"><table><tr><td></a>', '<a href="https://good.com/"><object></a>',
    '<a href="https://good.com/"><marquee></a>', '<a href="https://good.com/"><table><caption></a>', "<b>", "</b>", '<b title="', '">', "<img src=x onerror=alert(1)>", "<p>",
    "</p>", "<br>", "<select>", "<option>", "<abbr title='", "'>", "<code>", "</code>",
]  # fmt: skip
GEN_BIDI = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
]
GEN_LOOSE = [
    " ", " ", " ", "\n", "\n\n", "see ", " ok", "x", "日本語", "(", ")", "[", "]", "@", "?", "&", "=", "#", "%",
    "%0a", "\t", "\x00", "\ufeff", "\u200b", "\u00a0", "\u3000", "。", "．", "｡", "*", "**", "_", "`", "!", "<", ">",
    '"', "'", "\r", "\r\n", "\\", "|", "methods/", "foo_", "a",
]  # fmt: skip


def _gen_link(rng: random.Random) -> str:
    link = rng.choice(GEN_SCHEMES) + rng.choice(GEN_HOSTS) + rng.choice(GEN_TAILS)
    roll = rng.random()
    if roll < 0.25:  # a reference, a bidi control or markup inside the link
        cut = rng.randrange(len(link) + 1)
        inside = rng.choice((GEN_REFERENCES, GEN_BIDI, GEN_MARKUP, ["。", "．", "｡"]))
        link = link[:cut] + rng.choice(inside) + link[cut:]
    elif roll < 0.35:  # a character of the link written as a reference
        cut = rng.randrange(len(link)) if link else 0
        if link:
            link = link[:cut] + rng.choice((f"&#{ord(link[cut])};", f"&#x{ord(link[cut]):x};")) + link[cut + 1 :]
    if rng.random() < 0.4:
        link = rng.choice(GEN_MARKDOWN).replace("L", link)
    return link


def generate(rng: random.Random) -> list[str]:
    """One input, as the list of pieces it is made of (``minimize`` removes whole pieces first)."""
    pieces: list[str] = []
    for _ in range(rng.randint(1, 8)):
        roll = rng.random()
        if roll < 0.45:
            pieces.append(_gen_link(rng))
        elif roll < 0.6:
            pieces.append(rng.choice(GEN_REFERENCES))
        elif roll < 0.72:
            pieces.append(rng.choice(GEN_MARKUP))
        elif roll < 0.78:
            pieces.append(rng.choice(GEN_BIDI))
        else:
            pieces.append(rng.choice(GEN_LOOSE))
        if rng.random() < 0.5:
            pieces.append(" ")
    return pieces


# ---------------------------------------------------------------------------
# The campaign: findings grouped by class, each with a minimized reproducer
# ---------------------------------------------------------------------------
@dataclass
class Finding:
    """One class of finding: a configuration, a check and its detail, how often, the smallest input."""

    config: str
    check: str
    detail: str
    count: int = 0
    example: str = ""
    minimized: str = ""


def minimize(name: str, pieces: list[str], key: tuple[str, str], budget: int = 400) -> str:
    """The smallest input found (by removing pieces, then characters) that still has the finding ``key``."""
    calls = 0

    def keeps(candidate: list[str]) -> bool:
        nonlocal calls
        calls += 1
        return key in findings_of(name, "".join(candidate))

    changed = True
    while changed and calls < budget:  # whole pieces first
        changed = False
        for i in range(len(pieces)):
            if i < len(pieces) and calls < budget and keeps(pieces[:i] + pieces[i + 1 :]):
                pieces = pieces[:i] + pieces[i + 1 :]
                changed = True
    chars = list("".join(pieces))
    size = max(1, len(chars) // 2)
    while size >= 1 and calls < budget:  # then runs of characters, halving
        i, removed = 0, False
        while i < len(chars) and calls < budget:
            if keeps(chars[:i] + chars[i + size :]):
                chars = chars[:i] + chars[i + size :]
                removed = True
            else:
                i += size
        if not removed:
            size //= 2
    return "".join(chars)


def available(name: str) -> bool:
    """Whether the libraries of configuration ``name`` are installed."""
    import importlib.util

    library = CONFIGS[name].library
    return not library or importlib.util.find_spec(library) is not None


def run_config(
    name: str,
    examples: int,
    seed: int = 0,
    seconds: float | None = None,
    minimize_budget: int = 400,
    checks: Iterable[str] = CHECKS,
) -> tuple[int, list[Finding]]:
    """Run ``examples`` generated inputs (seeded, within ``seconds``) through configuration ``name``.

    Return how many ran and the findings, one per class ``(check, detail)``, each with the
    first input that showed it and that input minimized (``minimize_budget`` calls).
    """
    rng = random.Random(f"{seed}:{name}")
    chosen = tuple(checks)
    classes: dict[tuple[str, str], Finding] = {}
    firsts: dict[tuple[str, str], list[str]] = {}
    start = time.monotonic()
    ran = 0
    for _ in range(examples):
        if seconds is not None and time.monotonic() - start > seconds:
            break
        pieces = generate(rng)
        ran += 1
        for key in findings_of(name, "".join(pieces), chosen):
            if key not in classes:
                classes[key] = Finding(name, key[0], key[1], example="".join(pieces))
                firsts[key] = pieces
            classes[key].count += 1
    for key, finding in classes.items():
        finding.minimized = minimize(name, firsts[key], key, minimize_budget) if minimize_budget else finding.example
    return ran, list(classes.values())


def run_differential(name: str, examples: int) -> int:
    """Issue 21's check (``ISSUE_21_CHECKS``) on ``examples`` hypothesis examples of hostile text; return how many ran."""
    CONFIGS[name].build()  # import errors before hypothesis
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


def campaign(
    names: Sequence[str], examples: int, seed: int = 0, seconds: float | None = None, minimize_budget: int = 400
) -> dict[str, tuple[int, list[Finding]]]:
    """Run every configuration of ``names`` (``examples`` each, ``seconds`` in all shared evenly)."""
    share = None if seconds is None else seconds / max(1, len(names))
    return {name: run_config(name, examples, seed, share, minimize_budget) for name in names}


def format_findings(results: dict[str, tuple[int, list[Finding]]], seed: int) -> str:
    """The campaign's results as Markdown: examples per configuration, then one reproducer per finding class."""
    lines = [f"Seed {seed}.", "", "| configuration | examples | finding classes |", "| --- | ---: | ---: |"]
    lines += [f"| {name} | {ran} | {len(found)} |" for name, (ran, found) in results.items()]
    for name, (ran, found) in results.items():
        if not found:
            continue
        lines += ["", f"## {name} ({ran} examples)", ""]
        for f in sorted(found, key=lambda f: (CHECKS.index(f.check), f.detail)):
            detail = f" {f.detail}" if f.detail else ""
            lines.append(f"- **{f.check}**{detail}: {f.count} of {ran}; minimized `{f.minimized!r}`")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=2000, help="generated inputs per configuration (default 2000)")
    parser.add_argument("--seconds", type=float, default=None, help="time for all configurations (default: no limit)")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (default 0): a run is repeatable")
    parser.add_argument("--config", action="append", metavar="NAME", help="only this configuration (repeatable)")
    parser.add_argument("--minimize", type=int, default=400, metavar="CALLS", help="calls per minimized reproducer")
    parser.add_argument(
        "--targets", type=int, default=0, metavar="N", help="also N hypothesis examples per crash target"
    )
    parser.add_argument("--report", type=Path, help="also write the findings as Markdown to this file")
    parser.add_argument("--list", action="store_true", help="list the configurations and exit")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(f"{name}{'' if available(name) else ' (not installed)'}" for name in CONFIGS))
        return 0
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    unknown = [name for name in args.config or () if name not in CONFIGS]
    if unknown:
        parser.error(f"unknown configuration {unknown[0]!r} (see --list)")
    names = [name for name in args.config or CONFIGS if available(name)]
    start = time.monotonic()
    failed = False
    for target in TARGETS if args.targets else ():
        try:
            run_target(target, args.targets)
        except Exception as exc:  # the failing example is in hypothesis's report above
            print(f"fuzz: {target}: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
            failed = True
    results = campaign(names, args.examples, args.seed, args.seconds, args.minimize)
    report = format_findings(results, args.seed)
    print(report, end="")
    if args.report:
        args.report.write_text(report, encoding="utf-8")
    classes = sum(len(found) for _, found in results.values())
    total = sum(ran for ran, _ in results.values())
    print(f"fuzz: {total} examples, {classes} finding classes, {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 1 if classes or failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
