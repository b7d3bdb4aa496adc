"""The Django and Jinja2 fast path gives exactly the HTML (and links) of the plain path (issue 20).

Fast path: the library reads only the white-space-delimited tokens that can hold one of
its links, put end to end in one call (``_html_spans.windowed_markup``, anchors from the
library's own patterns: ``backends.django.django_anchor``, ``backends.jinja2.jinja2_anchor``),
and a refined link that is the library's own span takes the anchor the library rendered
for it instead of a second call.  Plain path: the library reads the whole text and renders
each link again (what a configuration without anchors gets).  The integrations' HTML and
``detect()``'s links must be the same on the official test lines, the bundled sample
corpus, both benchmark corpora, generated text dense in what the libraries and the anchors
care about and in white space of every kind, and configured calls (options, policies,
markup input, extra schemes, a Urlizer with other TLDs).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("django")
pytest.importorskip("jinja2")

import django
import jinja2.utils
from django.utils import html as django_html
from django.utils.safestring import mark_safe
from jinja2 import Environment

import uts58_adapt.backends.django as django_backend
import uts58_adapt.backends.jinja2 as jinja2_backend
import uts58_adapt.integrations._urlize as urlize_module
from uts58_adapt import detect
from uts58_adapt.backends.base import RawLink
from uts58_adapt.integrations.django import urlize, urlizetrunc
from uts58_adapt.integrations.jinja2 import install

from conftest import LINK_PUNCTUATION, dense_paragraphs, detection_cases, plain_text, sample_lines


@contextlib.contextmanager
def plain_path() -> Iterator[None]:
    """No anchors for any configuration (the plain path), and nothing kept from earlier calls."""
    saved = (django_backend._anchor, django_backend._CONFIGS, jinja2_backend._anchor, jinja2_backend._ANCHORS)
    django_backend._anchor = lambda urlizer: None
    jinja2_backend._anchor = lambda *args: None
    django_backend._CONFIGS, jinja2_backend._ANCHORS = {}, {}
    django_backend._LAST.clear()
    urlize_module.clear_memo()
    assert django_backend.django_configuration(django_html.urlizer).anchor is None
    try:
        yield
    finally:
        django_backend._anchor, django_backend._CONFIGS, jinja2_backend._anchor, jinja2_backend._ANCHORS = saved
        django_backend._LAST.clear()
        urlize_module.clear_memo()


def _jinja2(source: str, **policies: object) -> Callable[[str], str]:
    env = Environment(autoescape=True)
    env.policies.update(policies)
    install(env)
    template = env.from_string(source)
    return lambda text: template.render(v=text)


#: Every entry point and option set compared (the integrations' HTML, detect()'s links).
ENTRY_POINTS: dict[str, Callable[[str], object]] = {
    "django": lambda t: urlize(t),
    "django autoescape": lambda t: urlize(t, autoescape=True),
    "django nofollow trim": lambda t: urlize(t, trim_url_limit=24, nofollow=True, autoescape=True),
    "django safe input": lambda t: urlize(mark_safe(t), autoescape=True),
    "django urlizetrunc": lambda t: urlizetrunc(t, 30),
    "django strict_hosts": lambda t: urlize(t, autoescape=True, strict_hosts=True),
    "jinja2": _jinja2("{{ v|urlize }}"),
    "jinja2 options": _jinja2("{{ v|urlize(30, true, target='_blank', rel='me') }}"),
    "jinja2 trim": _jinja2("{{ v|urlize(12) }}"),
    "jinja2 markup": _jinja2("{{ v|safe|urlize }}"),
    "jinja2 policies": _jinja2(
        "{{ v|urlize }}",
        **{"urlize.rel": "noopener", "urlize.target": "_top", "urlize.extra_schemes": ["tel:", "git+ssh:"]},
    ),
    "jinja2 extra_schemes": _jinja2("{{ v|urlize(extra_schemes=['myapp:', 'xmpp:']) }}"),
    "jinja2 no autoescape": lambda t: Environment().from_string("{{ v|urlize }}").render(v=t),
    "detect django": lambda t: detect(t, backend="django"),
    "detect jinja2": lambda t: detect(t, backend="jinja2"),
}
_jinja2_plain_env = Environment()
install(_jinja2_plain_env)
ENTRY_POINTS["jinja2 no autoescape"] = lambda t: _jinja2_plain_env.from_string("{{ v|urlize }}").render(v=t)


def _check_all(texts: list[str], names: list[str] | None = None) -> None:
    assert django_backend.django_anchor(django_html.urlizer) is not None  # the fast path runs
    assert jinja2_backend.jinja2_anchor(("myapp:", "xmpp:")) is not None
    for name in names or list(ENTRY_POINTS):
        fn = ENTRY_POINTS[name]
        fast = [fn(text) for text in texts]
        with plain_path():
            plain = [fn(text) for text in texts]
        for text, a, b in zip(texts, fast, plain):
            assert a == b, (name, text)


#: The anchors as plain alternations matched without regard to case (what first_character_pattern speeds up).
_USER_END = "[-!#$%&'*+/=?^_`{}|~0-9A-Z]"
_DJANGO_TLDS = django_backend._simple_url_2_tlds(django_html.Urlizer.simple_url_2_re.pattern).group(1)  # type: ignore[union-attr]
_JINJA2_TLDS = jinja2_backend._BASIC_TLDS.search(jinja2.utils._http_re.pattern).group(1)  # type: ignore[union-attr]
#: No character other than the validator's, ".", a separator or "([" among the four before "@" (after the first).
_USER_OR_DOT = "(?i:[-!#$%&'*+/=?^_`{}|~0-9A-Z.])"
#: The run just before "@" holds no "'", which separates Django's words.
_IN_WORD = "(?i:[-!#$%&*+/=?^_`{}|~0-9A-Z.])"
_LOCAL_PART = "".join(rf"""(?<!(?!{_USER_OR_DOT})(?![\s<>"'(\[]).{_IN_WORD}{{{n}}}@)""" for n in (1, 2, 3))
REFERENCE_ANCHORS = [
    (
        lambda: django_backend.django_anchor(django_html.urlizer),
        re.compile(
            # http(s):// and www. start a word, or follow up to two of the brackets "([" that do.
            r"""(?<![^\s<>"'(\[])(?<![^\s<>"'(\[][(\[])(?<![^\s<>"'(\[][(\[][(\[])https?://|@(?<="""
            + _USER_END
            + "@)"
            + _LOCAL_PART
            + r"""|(?<![^\s<>"'(\[])(?<![^\s<>"'(\[][(\[])(?<![^\s<>"'(\[][(\[][(\[])www\.|\.(?:"""
            + _DJANGO_TLDS
            + r""")(?=[/)\].,:;!\s<>"']|\Z)""",
            re.IGNORECASE,
        ),
    ),
    (
        lambda: jinja2_backend.jinja2_anchor(("myapp:", "x]y")),
        re.compile(
            r"h(?<![^\s(<]h)ttps?://|www\.|@|mailto:|\.(?:"
            + _JINJA2_TLDS
            + r")(?=[:/?#)>.,\s]|\Z)|(?-i:myapp:)|(?-i:x\]y)",
            re.IGNORECASE,
        ),
    ),
]


def _check_anchors(text: str) -> None:
    for anchor, reference in REFERENCE_ANCHORS:
        fast = anchor()
        assert fast is not None
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in reference.finditer(text)], text


def _check_spans(text: str) -> None:
    _check_anchors(text)
    urlizer = django_html.urlizer
    assert django_backend.django_spans(urlizer, text) == django_backend.django_plain_spans(urlizer, text), text
    assert jinja2_backend.jinja2_spans(text) == jinja2_backend.jinja2_plain_spans(text), text
    schemes = ("myapp:", "tel:")
    assert jinja2_backend.jinja2_spans(text, schemes) == jinja2_backend.jinja2_plain_spans(text, schemes), text


def test_official_file(detection_test_file: object) -> None:
    lines = [plain_text(line) for _, line in detection_cases()]
    _check_all(["\n".join(lines)])
    _check_all(lines, ["django autoescape", "jinja2", "detect django", "detect jinja2"])
    for line in lines:
        _check_spans(line)


def test_sample_corpus() -> None:
    lines = sample_lines()
    assert len(lines) >= 50
    _check_all(["\n".join(lines)])
    _check_all(lines, ["django", "jinja2 options"])


def test_dense_corpus() -> None:
    paragraphs = dense_paragraphs(20_000)
    assert len(paragraphs) > 20
    _check_all(paragraphs)
    for paragraph in paragraphs:
        _check_spans(paragraph)


def _debian_text(limit: int = 60_000) -> str:
    parts: list[str] = []
    size = 0
    for path in sorted(Path("/usr/share/doc").glob("*/copyright")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        parts.append(text)
        size += len(text)
        if size > limit:
            break
    return "\n\n".join(parts)


def test_debian_docs_corpus() -> None:
    text = _debian_text()
    if len(text) < 10_000:
        pytest.skip("no Debian documentation in /usr/share/doc (the benchmark's other corpus)")
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    _check_all(paragraphs, ["django", "django autoescape", "jinja2", "jinja2 options", "detect django"])


EDGES = [
    "see https://e.com/ä」x and https://e.com/ö。次",  # the refined link ends inside the library's word
    "(https://e.com/ä),x https://e.com/a&b」 x@e.com」",
    "σωκράτης@example.com, ivan+ä@e.org and 里@docs.e.edu",  # emails the library does not link
    "x https://e.com/?a=1&b=2 'https://e.com/q' \"www.e.org\" <http://e.net/>",
    "https://e.com/\u202ex http://e.com/\ud800x mailto:a@b.com @a@b.com",
    "x myapp:,\ud8001.2.3.4xmpp:.com) y",  # a span Django links holds a lone surrogate: rendered with U+FFFD
    "https://example.com/" + "a" * 40 + " www.e.org/" + "b" * 30,  # trimmed display texts
    # 29 characters, 33 escaped: Jinja2 cuts the escaped text at 30 ("jinja2 options"), Django the text.
    "http://例え.jp/パス?q=値&r=1#frä and http://例え.jp/パス?q=値&r=1#frä」",
    "tel:123 myapp://x/y xmpp:a@b.org git+ssh://h.org/r",
    # Text that looks like the libraries' anchors, around their links.
    'see <a href="http://e.com">http://e.com</a> and <http://e.net/> x<y http://e.org <a href="x">y</a>',
    '<a href="a@b.com">a@b.com</a> <a href="http://e.com" rel="nofollow">www.e.org</a>www.e.net',
    # Brackets before a scheme or "www." (Django trims only "([" from the start of a word).
    "[x](https://e.com/a) x(https://e.com) ((https://e.org/) [x](www.e.com) foo.www.e.com (((www.e.org x[(www.e.net",
    "([https://e.com/a]) ]https://e.org (((https://e.net/ a(((https://e.com/ [[[www.e.org/x",
    # Characters before "@" that Django's validator does not take in a user part, or does (case folded).
    "xyấể.hvcể@e.ru ừj@e.org ([ab@e.org x(a@e.com ébcd@e.net a.b.c@e.com (((a@e.com ſ.k@e.com K@e.org 'a@e.com",
    # A "'" before a user part: it ends Django's word ("a@b.comx" is one, the anchor must find it).
    "  рф'a@b.comx x'ab@c.org ф'ab'c@d.net",
    # Refined links holding a character that separates Django's words: several words, never one anchor.
    "x 'νν.υξδ@shop.e.ru and \"σω\"@e.org 'www.e.org/a'b' a'b@e.com it's a@e.com",
]


@pytest.mark.parametrize("text", EDGES)
def test_edges(text: str) -> None:
    _check_spans(text)
    _check_all([text])


# Pieces the libraries and the anchors care about, and separators of every kind.
PIECES = [
    "x",
    "ab",
    "com",
    "COM",
    "org",
    "net",
    "info",
    "de",
    "рф",
    "例え",
    "é",
    "ı",
    "İ",
    ".",
    "..",
    "@",
    "a@b.com",
    "x@y.org",
    "σ@e.com",
    "//",
    "/",
    ":",
    "http://",
    "https://",
    "HTTP://",
    "ftp://",
    "mailto:",
    "www.",
    "WWW.",
    "tel:",
    "myapp:",
    "xmpp:",
    "javascript:",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "&",
    "&amp;",
    "&lt;",
    "&gt;",
    "&#39;",
    *LINK_PUNCTUATION,
    "=",
    "-",
    "_",
    "1.2.3.4",
    ":8080",
    "。",
    "」",
    "\u200e",
    "\u202e",
    "\u00ad",
    "\ud800",
    # The anchors' narrower pieces: a word's start, an email's user part, what may follow a TLD.
    "ſ",
    "\u212a",
    "«",
    "»",
    "“",
    "+",
    "~",
    "`",
    "$",
    "*",
    "|",
    "{",
    "σ",
    "(https://",
    "[http://",
    "com/",
    ".com)",
    "x]y",
    "myapp:",
    "MAILTO:",
    "Www.",
    "hTtPſ://",
]
SEPARATORS = [" ", "\n", "\t", "\r", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85", "\u200a", "\x0b", "\x0c"]

_texts = st.lists(st.sampled_from(PIECES + SEPARATORS), max_size=40).map("".join)
_QUICK = ["django", "django autoescape", "django nofollow trim", "jinja2 options", "jinja2 markup", "detect jinja2"]


def test_a_lone_surrogate_django_raises_on_is_read_as_u_fffd() -> None:
    """Hypothesis found (CI, 2026-12-02): on ``Www.myapp:\\u200e\\ud800`` Django's own ``urlize``
    raises (``smart_urlquote`` encodes to UTF-8), and so did the strict upgrade, which asked
    Django about the word as written; it reads U+FFFD there, as everywhere else."""
    from django.utils.html import urlize as django_urlize

    text = "Www.myapp:\u200e\ud800"
    with pytest.raises(UnicodeEncodeError):
        django_urlize(text, autoescape=True)
    for name in ("django strict_hosts", "django autoescape", "detect django"):
        ENTRY_POINTS[name](text)  # no exception
    _check_all([text], list(ENTRY_POINTS))


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts)
def test_generated_text(text: str) -> None:
    _check_spans(text)
    _check_all([text], _QUICK)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_texts, min_size=2, max_size=12), st.sampled_from(SEPARATORS), st.integers(0, 24))
def test_generated_long_text(parts: list[str], sep: str, filler: int) -> None:
    """Tokens far apart and close together (one window or several, put end to end)."""
    text = (sep + "w" * filler + sep).join(parts)
    _check_spans(text)
    _check_all([text], list(ENTRY_POINTS))


# --- Configurations: anchors from the library's own patterns, or the plain path -------------------


def test_djangos_anchor_is_read_from_its_patterns() -> None:
    anchor = django_backend.django_anchor(django_html.urlizer)
    assert anchor is not None
    for word in ("http://x", "www.x", "a@b", "x.com", "X.ORG/y", "y.gov"):
        assert anchor.search(word), word
    assert anchor.search("example.de") is None

    class MoreTLDs(django_html.Urlizer):  # type: ignore[misc]
        simple_url_2_re = re.compile(r"^www\.|^(?!http)\w[^@]+\.(com|de|io)($|/.*)$", re.IGNORECASE)

    more = MoreTLDs()
    mine = django_backend.django_anchor(more)
    assert mine is not None and mine.search("example.de") and mine.search("example.org") is None
    text = "see example.de/x, example.io and example.org or a@b.de."
    assert django_backend.django_spans(more, text) == django_backend.django_plain_spans(more, text)
    assert [text[s.start : s.end] for s in django_backend.django_spans(more, text)] == [
        "example.de/x",
        "example.io",
        "a@b.de",
    ]


def _django6_url_2(tlds: str) -> re.Pattern[str]:
    """``simple_url_2_re`` as Django 6 builds it (django/utils/html.py), from this Django's ``DomainNameValidator``."""
    from django.core.validators import DomainNameValidator

    return re.compile(
        rf"^www\.|^(?!http)(?:{DomainNameValidator.hostname_re})"
        rf"(?:{DomainNameValidator.domain_re})"
        rf"\.({tlds})($|/.*)$",
        re.IGNORECASE,
    )


def test_djangos_6_simple_url_2_re_gets_the_anchor() -> None:
    """Django 6 writes the host part of ``simple_url_2_re`` with ``DomainNameValidator``'s patterns:
    the anchor is read from it too, and the fast path gives the plain path's spans."""

    class Django6(django_html.Urlizer):  # type: ignore[misc]
        simple_url_2_re = _django6_url_2("com|edu|gov|int|mil|net|org")

    class Django6MoreTLDs(django_html.Urlizer):  # type: ignore[misc]
        simple_url_2_re = _django6_url_2("com|de|io")

    for urlizer, linked, unlinked in ((Django6(), "x.com", "x.de"), (Django6MoreTLDs(), "x.de", "x.org")):
        anchor = django_backend.django_anchor(urlizer)
        assert anchor is not None and anchor.search(linked) and anchor.search(unlinked) is None
        texts = [*sample_lines(), *dense_paragraphs()[:150], "see x.com/a, www.y.de and -bad-.com or é.com. ab.io!"]
        for text in texts:
            assert django_backend.django_spans(urlizer, text) == django_backend.django_plain_spans(urlizer, text), text
    # A host part of another shape is not read: the plain path.
    other = re.compile(r"^www\.|^(?!http)(?:[a-z0-9]+)(?:(?:\.[a-z0-9]+)*)\.(com)($|/.*)$", re.IGNORECASE)

    class Other(django_html.Urlizer):  # type: ignore[misc]
        simple_url_2_re = other

    assert django_backend.django_anchor(Other()) is None


def test_a_urlizer_that_changes_how_words_are_linked_takes_the_plain_path() -> None:
    class Shouting(django_html.Urlizer):  # type: ignore[misc]
        def handle_word(self, word: str, **kwargs: object) -> str:  # links "LINK" too
            if word == "LINK":
                return '<a href="http://example.com/">LINK</a>'
            return str(super().handle_word(word, **kwargs))

    class Splitter(django_html.Urlizer):  # type: ignore[misc]
        word_split_re = re.compile(r"([\s<>\"',]+)")

    class Unusual(django_html.Urlizer):  # type: ignore[misc]
        simple_url_2_re = re.compile(r"^[a-z]+\.(com)$", re.IGNORECASE)

    class OtherSchemes(django_html.Urlizer):  # type: ignore[misc]
        simple_url_re = re.compile(r"^https?://\[?\w|^ftp:", re.IGNORECASE)

    instance = django_html.Urlizer()
    instance.trim_punctuation = lambda word: ("", word, "")
    for urlizer in (Shouting(), Splitter(), Unusual(), OtherSchemes(), instance):
        assert django_backend.django_anchor(urlizer) is None, urlizer
        assert django_backend.django_config(urlizer) == (None, None)
    text = "a LINK to x.com,y.com and http://e.com/p"
    # Django 5 links "x.com,y.com" as one bare domain; Django 6's host pattern takes no ",".
    bare = [] if django.VERSION >= (6,) else ["x.com,y.com"]
    assert [text[s.start : s.end] for s in django_backend.django_spans(Shouting(), text)] == [
        "LINK",
        *bare,
        "http://e.com/p",
    ]


def test_a_changed_urlizer_gets_a_new_anchor(monkeypatch: pytest.MonkeyPatch) -> None:
    urlizer = django_html.Urlizer()
    before, key = django_backend.django_config(urlizer)
    assert before is not None and before.search("a.de") is None
    monkeypatch.setattr(
        urlizer, "simple_url_2_re", re.compile(r"^www\.|^(?!http)\w[^@]+\.(de)($|/.*)$", re.IGNORECASE), raising=False
    )
    after, new_key = django_backend.django_config(urlizer)
    assert after is not None and after.search("ab.de") and new_key != key
    monkeypatch.setattr(urlizer, "wrapping_punctuation", [("(", ")")], raising=False)
    assert django_backend.django_config(urlizer) == (None, None)


def test_a_urlizer_changed_in_place_between_calls_gets_a_new_configuration() -> None:
    """The configuration read last is reused only for the same objects and the same ``wrapping_punctuation``."""
    urlizer = django_html.Urlizer()
    urlizer.wrapping_punctuation = list(urlizer.wrapping_punctuation)
    assert django_backend.django_config(urlizer)[0] is not None
    assert django_backend.django_config(urlizer)[0] is not None  # the configuration read last
    urlizer.wrapping_punctuation.append(("<", ">"))  # the same list, changed
    assert django_backend.django_config(urlizer) == (None, None)
    urlizer.wrapping_punctuation.pop()
    assert django_backend.django_config(urlizer)[0] is not None
    other = django_html.Urlizer()
    other.url_template = '<a href="{href}"{attrs} class="x">{url}</a>'
    assert django_backend.django_config(other) == (None, None)  # another urlizer, read again


def test_jinja2_anchor_and_extra_schemes() -> None:
    anchor = jinja2_backend.jinja2_anchor()
    assert anchor is not None
    for word in ("http://x", "www.x", "a@b", "mailto:x", "x.com", "x.info", "X.MIL"):
        assert anchor.search(word), word
    schemes = jinja2_backend.jinja2_anchor(["myapp:"])
    assert schemes is not None and schemes.search("myapp:x") and schemes.search("MYAPP:x") is None
    # Schemes Jinja2 matches in ways anchors cannot follow: the plain path.
    for bad in ([""], [" x"], ["a&b"], ["x\u3000y"]):
        assert jinja2_backend.jinja2_anchor(bad) is None, bad
    text = "go x:1  x:2 and http://e.com"
    assert jinja2_backend.jinja2_spans(text, [" "]) == jinja2_backend.jinja2_plain_spans(text, [" "])


def test_a_changed_jinja2_pattern_takes_the_plain_path(monkeypatch: pytest.MonkeyPatch) -> None:
    import jinja2.utils

    monkeypatch.setattr(jinja2.utils, "_http_re", re.compile(r"^\w+\.\w+$"))
    assert jinja2_backend.jinja2_anchor() is None
    text = "see example.de and http://e.com"
    assert jinja2_backend.jinja2_spans(text) == jinja2_backend.jinja2_plain_spans(text)
    assert [text[s.start : s.end] for s in jinja2_backend.jinja2_spans(text)] == ["example.de"]


def test_a_filter_installed_over_another_renders_each_link() -> None:
    from jinja2 import pass_eval_context
    from jinja2.filters import do_urlize

    @pass_eval_context
    def classy(eval_ctx: object, value: str, *args: object) -> str:  # someone else's filter
        return str(do_urlize(eval_ctx, value, *args)).replace("<a ", '<a class="ext" ')  # type: ignore[arg-type]

    env = Environment()
    env.filters["urlize"] = classy
    install(env)
    text = "see http://example.com/a and www.example.org."
    out = env.from_string("{{ v|urlize }}").render(v=text)
    with plain_path():
        assert env.from_string("{{ v|urlize }}").render(v=text) == out
    assert out == (
        'see <a class="ext" href="http://example.com/a" rel="noopener">http://example.com/a</a> and '
        '<a class="ext" href="https://www.example.org" rel="noopener">www.example.org</a>.'
    )


def test_markup_input_reuses_only_what_escaping_does_not_change() -> None:
    text = 'a http://e.com/?a=1&amp;b=2 b http://e.com/x"y c https://e.com/ok'
    for name in ("jinja2 markup", "django safe input", "django"):
        fast = ENTRY_POINTS[name](text)
        with plain_path():
            assert ENTRY_POINTS[name](text) == fast, name


# --- Span recovery (_html_spans.anchor_markup) ---------------------------------------------------


def test_a_mailto_link_after_an_unlinked_copy_of_its_address() -> None:
    # Jinja2 shows mailto:a@b.com as a@b.com; the copy before it ("@a@b.com") is not linked.
    text = "@a@b.com mailto:a@b.com"
    assert jinja2_backend.jinja2_plain_spans(text) == [RawLink(9, 23, "email")]
    assert jinja2_backend.jinja2_spans(text) == [RawLink(9, 23, "email")]


def test_anchors_are_placed_with_the_html_parser_when_the_html_is_unusual() -> None:
    from uts58_adapt.backends._html_spans import anchor_markup

    text = "x http://e.com y"
    unusual = 'x <a title="t" href="http://e.com">http://e.com</a> y'  # href not first
    found = anchor_markup(text, unusual)
    assert [(f.link, f.href, f.markup) for f in found] == [(RawLink(2, 14, "url"), "http://e.com", None)]
    usual = 'x <a href="http://e.com" rel="nofollow">http://e.com</a> y'
    found = anchor_markup(text, usual)
    assert [(f.link, f.markup) for f in found] == [(RawLink(2, 14, "url"), usual[2:-2])]


def test_text_like_an_anchor_is_never_read_as_one() -> None:
    from uts58_adapt.backends._html_spans import _fast_parse

    # Rendered with escaping off, the text content must be the input: a fake anchor is not.
    text = 'x <a href="http://e.com">y</a> z'
    assert _fast_parse(text, False, text) is None
    source = '<a href="x">y</a> http://f.com'
    rendered = '<a href="x">y</a> <a href="http://f.com">http://f.com</a>'
    assert _fast_parse(rendered, False, source) is None
    assert _fast_parse(rendered[18:], False, source[18:]) == [(0, 12, "http://f.com", rendered[18:], "http://f.com")]


def test_an_option_that_cannot_be_a_key_is_not_kept() -> None:
    env = Environment()
    env.policies["urlize.target"] = ["_top"]  # not a string: Jinja2 writes its str()
    install(env)
    text = "see https://example.com/a"
    out = env.from_string("{{ v|urlize }}").render(v=text)
    with plain_path():
        assert env.from_string("{{ v|urlize }}").render(v=text) == out


def test_probe_answers_are_kept_per_configuration() -> None:
    urlize_module.clear_memo()
    urlize("see https://example.com/a and www.example.org", autoescape=True)
    keys = {entry[0] for entry in urlize_module._MEMO}
    assert keys and all(key is not None for key in keys)
    urlize("see https://example.com/a", autoescape=True, nofollow=True)
    assert len({entry[0] for entry in urlize_module._MEMO}) > len(keys)  # another rendering, another key
    assert len(urlize_module._TAILS) == 2  # what was read of each rendering's anchors, per rendering
    assert len(urlize_module._PROBES) == 1  # one configuration of the library: its probes made once
    urlize_module.clear_memo()
    assert not urlize_module._MEMO and not urlize_module._TAILS and not urlize_module._PROBES


# --- Django's anchors rendered with its own parts (issue 36) -----------------------------------------

_DJANGO_ENTRY_POINTS = [name for name in ENTRY_POINTS if name.startswith("django")]
#: Links Django links whole, and what Django keeps in a word after them (a refined link ends before it).
_LINKS = [
    "https://e.com/ä",
    "http://例え.jp/パス?q=値&r=1#frä",
    "HTTPS://e.org/a%20b/&amp;c",
    "https://e.net/" + "x" * 30,
    "www.e.com/ü",
    "e.org/p",
    "ivan@e.com",
    "σω@παράδειγμα.ελ",
    "a.b+c@e.org",
]
_AFTER = ["", "」", "。", "」。", "）", "』x", ".", ")", "&amp;", ";", "!」", "\u202e"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(["", "(", "[", "「", "x"]), st.sampled_from(_LINKS), st.sampled_from(_AFTER)),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([" ", "\n", " 次 "]),
)
def test_refined_links_in_the_librarys_words(links: list[tuple[str, str, str]], sep: str) -> None:
    """A refined link that ends inside the word the library linked (before a CJK closer) gets the anchor
    the library renders for it alone, as on the plain path, with every option set (Django and Jinja2)."""
    text = sep.join(before + link + after for before, link, after in links)
    _check_spans(text)
    _check_all([text], [name for name in ENTRY_POINTS if not name.startswith("detect")])


def test_a_refined_link_is_not_rendered_by_a_second_urlize_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36: Django reads the words once; the refined links' anchors are not asked of it one by one."""
    words = ["https://e.com/ä」", "http://例え.jp/パ。", "ivan@e.com」", "https://e.org/a)」", "(https://e.net/b」)."]
    text = " 文 ".join(words * 20)
    expected = {name: ENTRY_POINTS[name](text) for name in ("django", "django autoescape", "django nofollow trim")}
    calls: list[str] = []
    call = django_html.Urlizer.__call__

    def counted(self: object, text: str, *args: object, **kwargs: object) -> object:
        calls.append(str(text))
        return call(self, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(django_html.Urlizer, "__call__", counted)
    urlize("https://e.com/")  # a new configuration (the method changed): compared with Django once
    for name, html in expected.items():
        urlize_module.clear_memo()  # the probes' answers asked again, as on a first reading
        calls.clear()
        assert ENTRY_POINTS[name](text) == html
        # The words, those only Django can tell, a probe (the anchor's attributes): not one call per link.
        assert len(calls) <= 4, (name, calls)
    with plain_path():
        for name, html in expected.items():
            assert ENTRY_POINTS[name](text) == html


def test_a_django_that_renders_otherwise_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """DjangoWords is compared with Django at first use; one that differs is not used (Django renders)."""
    assert django_backend.django_configuration(django_html.urlizer).words.ready()  # type: ignore[union-attr]
    words = django_backend.DjangoWords(django_html.urlizer, django_html.MAX_URL_LENGTH, lambda url: url)
    assert not words.ready()  # no percent-encoding: not Django's href for "https://bücher.example/ä/…"
    text = "see https://e.com/ä」 and ivan@e.com」"
    with plain_path():
        expected = urlize(text, autoescape=True)
    monkeypatch.setattr(django_backend, "_CONFIGS", {})
    monkeypatch.setattr(django_backend.DjangoWords, "_renders_as_django", lambda self: False)
    django_backend._LAST.clear()
    try:
        assert not django_backend.django_configuration(django_html.urlizer).words.ready()  # type: ignore[union-attr]
        assert urlize(text, autoescape=True) == expected
    finally:
        django_backend._LAST.clear()


@pytest.mark.skipif(django.VERSION < (6,), reason="Django 6's setting (Django 5 runs here without settings)")
@pytest.mark.parametrize("assume_https", [False, True])
def test_schemeless_words_with_djangos_setting(assume_https: bool) -> None:
    """Django 6 puts ``https://`` before a schemeless word with ``URLIZE_ASSUME_HTTPS`` True, and warns
    with it False (then Django renders those words); Django 5 ignores the setting."""
    from django.test.utils import override_settings

    text = "see www.e.com/ä」 e.org/p。 (www.e.net/a). [bücher.org/x]」 https://e.com/x」 www.e.com"
    with override_settings(URLIZE_ASSUME_HTTPS=assume_https):
        _check_spans(text)
        _check_all([text], _DJANGO_ENTRY_POINTS)


def test_jinja2_does_not_render_each_refined_link_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36: the upgraded filter calls Jinja2's for the words and a probe or so, not once per refined link."""
    import jinja2.filters

    words = ["https://e.com/ä」", "http://例え.jp/パ。", "ivan@e.com」", "www.e.org/a」", "x「σω@e.com」"]
    text = " 文 ".join(words * 20)
    names = ["jinja2", "jinja2 options", "jinja2 trim", "jinja2 markup"]
    expected = {name: ENTRY_POINTS[name](text) for name in names}  # (the configurations checked once)
    calls: list[str] = []
    urlize = jinja2.filters.urlize

    def counted(text: str, *args: object, **kwargs: object) -> str:
        calls.append(text)
        return urlize(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.filters, "urlize", counted)
    for name in names:
        urlize_module.clear_memo()  # the probes' answers asked again, as on a first reading
        calls.clear()
        assert ENTRY_POINTS[name](text) == expected[name]
        assert len(calls) <= 4, (name, calls)  # the words, a probe (the anchor's attributes)
    monkeypatch.undo()
    with plain_path():
        for name in names:
            assert ENTRY_POINTS[name](text) == expected[name]
