"""The wrapped Linker's own work (spans, anchors, rendering) against bleach itself.

Where the refined links of a text node are exactly the spans bleach links, the wrapped
Linker must give bleach's HTML byte for byte: same hrefs (``http://`` added, the local
part of a ``mailto:`` quoted), same callbacks, same tokens.  bleach is the oracle, on the
official test lines, the sample corpus, the dense benchmark corpus and generated text,
through configured Linkers (callbacks that drop or rewrite links, ``parse_email``, custom
``url_re``/``email_re``).  The fast path's own cases (long text nodes given in one pass,
the trailing search skipped) are checked against the plain path.
"""

from __future__ import annotations

import html

import pytest

bleach = pytest.importorskip("bleach")

import re  # noqa: E402

from bleach.linkifier import TLDS, Linker, LinkifyFilter, build_email_re, build_url_re  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import uts58_adapt  # noqa: E402
from uts58_adapt.backends.bleach import _trie, bleach_find, linker_anchors  # noqa: E402
from uts58_adapt.html import BIDI_CONTROLS  # noqa: E402
from uts58_adapt.integrations._common import refine  # noqa: E402
from uts58_adapt.integrations.bleach import UTS58LinkifyFilter  # noqa: E402
from uts58_adapt.refine.acceptance import HostProbe  # noqa: E402

from conftest import dense_paragraphs, detection_cases, plain_text, sample_lines  # noqa: E402


def _target_blank(attrs: dict, new: bool = False) -> dict:  # type: ignore[type-arg]
    attrs[(None, "target")] = "_blank"
    return attrs


def _drop_or_shout(attrs: dict, new: bool = False) -> dict | None:  # type: ignore[type-arg]
    href = attrs[(None, "href")]
    if len(href) % 3 == 0:
        return None
    if len(href) % 3 == 1:
        attrs["_text"] = str(attrs["_text"]).upper()
    return attrs


_URL_RE = build_url_re(tlds=["com", "org", "net", "de", "рф", "jp"], protocols=["http", "https", "ftp"])
_EMAIL_RE = build_email_re(tlds=["com", "org", "de"])
LINKERS = [
    Linker(),
    Linker(parse_email=True),
    Linker(callbacks=[_target_blank, _drop_or_shout], parse_email=True),
    Linker(url_re=_URL_RE, email_re=_EMAIL_RE, parse_email=True, callbacks=[]),
    Linker(skip_tags={"pre"}, parse_email=True),
]


def _same_links(linker: Linker, node: str) -> bool:
    """Whether the refined links of the text node ``node`` are exactly bleach's spans."""
    flt = UTS58LinkifyFilter(
        source=iter(()), url_re=linker.url_re, email_re=linker.email_re, parse_email=linker.parse_email
    )
    raw = bleach_find(flt, node, linker.parse_email, fast=False)
    links = refine(
        node, raw, flt._accepts_email if linker.parse_email else None, scheme_probe=HostProbe(flt._accepts_scheme)
    )
    if any(node[r.start : r.start + 7].lower() == "mailto:" for r in raw):
        return False  # bleach links the address after "mailto:", UTS #58 the whole (§5)
    return [(link.start, link.end) for link in links] == [(r.start, r.end) for r in raw]


def _check(text: str) -> int:
    """Compare with bleach where the links agree; the number of such (linker, text) pairs."""
    if any(ch in BIDI_CONTROLS for ch in text) or "\x00" in text:
        return 0  # the wrapper escapes bidi controls in links, bleach does not
    node = html.escape(text, quote=False)
    # The <pre> text node is ``node`` too (the parser drops one newline after <pre>); the
    # skip_tags Linker leaves it as it is, the others link it.
    fragment = f"<p>{node}</p><pre>\n{node}</pre>"
    agreed = 0
    for linker in LINKERS:
        if "&" in node or not _same_links(linker, node):
            continue  # (an "&amp;" ends a link differently: §3.5.1 against bleach's regex)
        assert uts58_adapt.wrap(linker).linkify(fragment) == linker.linkify(fragment), text
        agreed += 1
    return agreed


def test_official_lines_as_bleach_renders_them(detection_test_file: object) -> None:
    agreed = sum(_check(plain_text(line)) for _, line in detection_cases())
    assert agreed > 100


def test_sample_corpus_as_bleach_renders_it() -> None:
    agreed = sum(_check(line) for line in sample_lines() if line.strip())
    assert agreed > 50


def test_dense_corpus_as_bleach_renders_it() -> None:
    lines = [line for p in dense_paragraphs(30_000) for line in p.split("\n")]
    agreed = sum(_check(line) for line in lines)
    assert agreed > 50


def test_rendering_cases() -> None:
    # Each branch of the rendering, with bleach's own output as the expected one.
    for text in [
        "see example.com and https://example.org/a?b=c#d, then x.de.",
        "mail bob@example.com or alice@example.org now",
        "ftp://files.example.net/x and (www.example.com)",
        "a@b.com, c.d@example.org; e-f@example.de",
        "write a+b@example.com, {x}@example.org or o'neil%20x@example.de",  # local parts bleach quotes
    ]:
        assert _check(text) >= 2, text


_ASCII = [
    "x", "com", "org", "de", "example", ".", "..", "@", "+", "{", "%", "//", ":", "http:", "https:", "ftp:", "mailto:",
    "www.", "-", "_", "(", ")", "'", "?", "#", "!", ",", ";", "=", "/p", "0", "user", " ", "\n", "\t",
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_ASCII), max_size=40).map("".join))
def test_generated_text_as_bleach_renders_it(text: str) -> None:
    _check(text)


@pytest.mark.parametrize("parse_email", [False, True])
def test_long_text_nodes_in_one_pass(parse_email: bool) -> None:
    # Longer than one window of bleach_find: windows cut at white space give one pass.
    flt = LinkifyFilter(source=iter(()), parse_email=parse_email)
    texts = [
        " ".join(p.replace("\n", " ") for p in dense_paragraphs(20_000)),
        ("word " * 300) + '"a b"@example.com x.com ' + ("w " * 400) + '\n"c d"@example.org y.com',
        ("x" * 700) + " a.com " + ("y" * 700) + " b.com",  # runs cut inside: the windowed path
        ("z.com/" * 400) + " q.com",
    ]
    for text in texts:
        assert bleach_find(flt, text, parse_email) == bleach_find(flt, text, parse_email, fast=False)


def test_clear_memo_forgets_the_scheme_probes() -> None:
    from uts58_adapt.integrations import bleach as integration

    linker = uts58_adapt.wrap(Linker())
    out = linker.linkify("see https://example.com/x and https://пример.com/y")
    assert out.count("<a ") == 2
    assert integration._PROBES
    integration.clear_memo()
    assert not integration._PROBES
    assert linker.linkify("see https://example.com/x and https://пример.com/y") == out


# --- The anchor of a list of TLD names: "." before one of them, then no word character ------------

_NAME_CHARS = "acdeomsxz-0рфKſİıé"
_names = st.lists(
    st.text(alphabet=_NAME_CHARS, min_size=1, max_size=4).filter(lambda w: re.fullmatch(r"[\w-]*\w", w) is not None),
    min_size=1,
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(_names, st.text(alphabet=_NAME_CHARS + ".", max_size=6))
def test_trie_matches_exactly_the_names(names: list[str], text: str) -> None:
    alternation = re.compile("(?:" + "|".join(names) + ")", re.IGNORECASE)
    trie = re.compile("(?:" + _trie(names) + ")", re.IGNORECASE)
    assert (alternation.fullmatch(text) is None) == (trie.fullmatch(text) is None)


_LINK_PIECES = ["x", "a-b", ".", "..", "@", "//", ":", ":80", "/p", "?q", "http://", "(", ")", " ", "é", "_", "0"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_names, st.lists(st.sampled_from(_LINK_PIECES + list(_NAME_CHARS)), max_size=30).map("".join))
def test_every_link_holds_an_anchor(names: list[str], text: str) -> None:
    url_re = build_url_re(tlds=names)
    anchors = linker_anchors(url_re, None)
    assert anchors is not None and "(?!\\w)" in anchors.url.pattern
    for m in url_re.finditer(text):
        found = anchors.url.search(text, m.start())
        assert found is not None and found.start() < m.end(), (names, text, m.group())


def test_names_anchor_skips_tokens_without_a_listed_tld() -> None:
    anchors = linker_anchors(build_url_re(tlds=sorted(TLDS)), None)
    assert anchors is not None
    assert anchors.url.search("x.com") and anchors.url.search("x.COM:80") and anchors.url.search("x.de/y")
    for text in ["shop.nuge.app/a.html", "x.dev", "x.comx", "x.de_"]:
        assert anchors.url.search(text) is None, text


def _linked_with(url_re: re.Pattern[str], scheme: str, url: str) -> bool:
    m = url_re.match(url)
    return m is not None and m.group(0).lower().startswith(scheme)


def _label_forms(host: str) -> tuple[str, str]:
    """The host with its non-ASCII labels as ``xn--`` labels, and with its ``xn--`` labels decoded
    (a label that is no Punycode kept), written out here as the probe's reference."""
    ascii_labels, unicode_labels = [], []
    for label in host.split("."):
        ascii_labels.append(label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii"))
        try:
            decoded = label[4:].encode("ascii").decode("punycode") if label[:4].lower() == "xn--" else label
        except (UnicodeError, ValueError):
            decoded = label
        unicode_labels.append(decoded)
    return ".".join(ascii_labels), ".".join(unicode_labels)


@pytest.mark.parametrize(
    "url_re",
    [
        build_url_re(),
        _URL_RE,
        build_url_re(tlds=["xn--p1ai", "com"]),
        build_url_re(tlds=["рф"], protocols=["https"]),
        build_url_re(tlds=["com", "xn--90ae"], protocols=["http", "git"]),
    ],
    ids=["default", "custom", "xn--p1ai", "рф-https", "git"],
)
def test_scheme_probe_asks_both_forms_of_the_host(url_re: re.Pattern[str]) -> None:
    """``_accepts_scheme`` (the Unicode form first, Punycode only when needed) answers what
    asking bleach with both forms of the host answers: linked when either is."""
    hosts = [
        "example.com", "пример.рф", "пример.com", "example.рф", "xn--e1afmkfd.xn--p1ai", "xn--e1afmkfd.com",
        "xn--zz.com", "пример.xn--p1ai", "例え.jp", "bücher.de", "a-b.bg", "xn--90ae",
    ]  # fmt: skip
    flt = UTS58LinkifyFilter(source=[], url_re=url_re)
    for scheme in ("http:", "https:", "ftp:", "git:"):
        for host in hosts:
            ascii_form, unicode_form = _label_forms(host)
            expected = any(_linked_with(url_re, scheme, f"{scheme}//{h}/") for h in (ascii_form, unicode_form))
            uts58_adapt.integrations.bleach.clear_memo()
            assert flt._accepts_scheme(scheme, host) is expected, (scheme, host)
