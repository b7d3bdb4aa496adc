"""The linkify-it backend's fast path gives exactly the links of one plain backend pass.

``LinkifyItBackend.find`` gives linkify-it only the white-space-delimited tokens
that hold an anchor (``//``, ``@``, a dot before a TLD's first letter); the reference is
one ``LinkifyIt.match`` call on the whole text (``plain``).  Both the raw spans and the
refined links must be the same, on the official test lines, the bundled sample corpus
and generated text (dense in the characters the backend and the anchors care about, and
in white space of every kind, since the windows are cut there).

urlextract's ``gen_urls`` is not local (it relocates each TLD hit with ``str.find``
from a cursor, which can drift past a URL's end, and can report a hit twice), so its
fast path also checks each window's run and falls back to one plain pass where the
check fails: tests/test_urlextract_fast_path.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from linkify_it import LinkifyIt

from uts58_adapt import detect
from uts58_adapt.backends import get_backend
from uts58_adapt.backends._windows import GAP, WINDOW
from uts58_adapt.backends.linkify_it import anchored_matches, instance_anchor
from uts58_adapt.detection import with_schemes_after_letters
from uts58_adapt.refine.migration import refine_links

from conftest import BRACKETS, LINK_PUNCTUATION, CorpusChecks, dense_paragraphs, long_texts, piece_texts, sample_lines


def _check(text: str) -> None:
    backend = get_backend("linkify-it")
    plain = backend.plain(text)  # one call on the whole text
    assert backend.find(text) == plain, text
    assert detect(text, max_length=None) == refine_links(text, with_schemes_after_letters(text, plain)), text


class TestCorpora(CorpusChecks):
    check = staticmethod(_check)


# Pieces the backend and the anchors care about, and separators of every kind.
PIECES = [
    "x",
    "com",
    "co",
    "org",
    "xn--p1ai",
    "рф",
    "香港",
    "COM",
    ".",
    "..",
    "@",
    "//",
    "/",
    ":",
    "http:",
    "https:",
    "ftp:",
    "mailto:",
    "www.",
    "localhost",
    "-",
    "_",
    *BRACKETS,
    "|",
    "｜",
    *LINK_PUNCTUATION,
    "&",
    "=",
    "+",
    "*",
    "~",
    "a.b",
    "1.2.3.4",
    ":8080",
    "。",
    "．",
    "ǅ",
    "\u0301",
    "K",
    "ſ",
    "\u200b",
    "\u00ad",
    "é",
    "ß",
    "0",
    "LOCALHOST",
    "255",
    ".1",
    "=",
    "\\",
]
SEPARATORS = [" ", "\n", "\t", "\r", "\u00a0", "\u3000", "\u2028", "\u2029", "\x1c", "\x85", "\u200a", "\x0b"]

_texts = piece_texts(PIECES, SEPARATORS, max_size=60)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts)
def test_generated_text(text: str) -> None:
    _check(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_texts(_texts, SEPARATORS, max_parts=40, max_filler=2 * GAP))
def test_generated_long_text(text: str) -> None:
    _check(text)


def test_tokens_joined_across_windows() -> None:
    rng = random.Random(58)
    words = ["see", "x.com/a(b)", "a@b.org", "http://h.net/p?q#f", "e.g.", "foo.c", "word", "-", "(x.co)", "10.0.0.1"]
    text = " ".join(rng.choice(words) for _ in range(3000))
    assert len(text) > 10 * WINDOW
    _check(text)


# --- Anchors of a configured LinkifyIt instance (backends.linkify_it.instance_anchor) ------------


def _nothing() -> LinkifyIt:
    """An instance with no schema and no fuzzy links (aliases disabled first, as linkify-it needs)."""
    linkify = LinkifyIt(options={"fuzzy_link": False, "fuzzy_email": False})
    for schema in ("https:", "ftp:", "http:", "//", "mailto:"):  # aliases first (linkify-it)
        linkify.add(schema, None)
    return linkify


def _configured() -> list[tuple[str, LinkifyIt]]:
    """Instances as users configure them: each must get anchors, and its own links from them."""
    return [
        ("default", LinkifyIt()),
        ("tlds replaced", LinkifyIt().tlds(["com", "org", "рф", "香港", "xn--p1ai"])),
        ("tlds kept and added", LinkifyIt().tlds(["onion", "ελ"], True)),
        ("fuzzy link off", LinkifyIt(options={"fuzzy_link": False})),
        ("fuzzy email off", LinkifyIt(options={"fuzzy_email": False})),
        ("fuzzy ip on", LinkifyIt(options={"fuzzy_ip": True})),
        ("schema alias, ftp off", LinkifyIt().add("git:", "http:").add("ftp:", None)),
        ("// off, mailto off", LinkifyIt().add("//", None).add("mailto:", None)),
        ("---", LinkifyIt(options={"---": True})),
    ]


def _fields(m: object) -> tuple[object, ...]:
    return tuple(getattr(m, k) for k in ("schema", "index", "last_index", "raw", "text", "url"))


def _anchored_check(linkify: LinkifyIt, text: str) -> None:
    anchor = instance_anchor(linkify)
    assert anchor is not None
    expected = [_fields(m) for m in linkify.match(text) or []]
    assert [_fields(m) for m in anchored_matches(linkify, text, anchor)] == expected, text


def _configured_texts() -> list[str]:
    """Texts for the configured instances: the sample corpus, the dense corpus, generated text, edge cases."""
    texts = [
        *sample_lines(),
        "\n".join(sample_lines()),
        *dense_paragraphs(20_000),
        "\n\n".join(dense_paragraphs(20_000)),
    ]
    rng = random.Random(58)
    texts += ["".join(rng.choice(PIECES + SEPARATORS) for _ in range(400)) for _ in range(20)]
    texts += [
        "git://x.org/a b",
        "GIT://X.ORG",
        "1.2.3.4/x 10.0.0.1",
        "x.onion/a λ.ελ/β",
        "a---b.com/c---d",
        "see HTTPS://A.COM",
    ]
    return texts


@pytest.mark.parametrize("name", [name for name, _ in _configured()])
def test_configured_instance_anchors_give_one_calls_matches(name: str) -> None:
    linkify = dict(_configured())[name]
    for text in _configured_texts():
        _anchored_check(linkify, text)


# --- The same anchors in wrap(LinkifyIt(...)) (wrapping.LinkifyItWrapper._windowed_matches) ------


def _without_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wrapper's plain path: every window given to the instance (as before issue 20)."""
    from uts58_adapt import wrapping

    monkeypatch.setattr(wrapping, "instance_anchor", lambda linkify: None)


def _wrapped_fields(linkify: LinkifyIt, texts: list[str]) -> list[list[tuple[object, ...]]]:
    from uts58_adapt import wrap

    wrapped = wrap(linkify)
    return [[_fields(m) for m in wrapped.match(text) or []] for text in texts]


@pytest.mark.parametrize("name", [name for name, _ in _configured()])
def test_wrapped_instance_anchors_give_the_plain_paths_links(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    linkify = dict(_configured())[name]
    assert instance_anchor(linkify) is not None
    texts = _configured_texts() + ["\n\n".join(dense_paragraphs())]
    anchored = _wrapped_fields(linkify, texts)
    assert any(anchored)
    _without_anchors(monkeypatch)
    plain = _wrapped_fields(linkify, texts)
    for text, got, expected in zip(texts, anchored, plain):
        assert got == expected, text


def test_wrapped_markdown_it_renders_as_on_the_plain_path(monkeypatch: pytest.MonkeyPatch) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    from uts58_adapt import wrap

    def render(text: str) -> str:
        md = markdown_it.MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
        md.linkify = wrap(md.linkify)
        return str(md.render(text))

    texts = ["\n\n".join(dense_paragraphs(40_000)), "\n".join(sample_lines())]
    anchored = [render(text) for text in texts]
    assert all("<a href" in out for out in anchored)
    _without_anchors(monkeypatch)
    assert [render(text) for text in texts] == anchored


@given(_texts)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_configured_instance_anchors_on_generated_text(text: str) -> None:
    for _name, linkify in _configured():
        _anchored_check(linkify, text)


def test_instances_without_anchors() -> None:
    """A validator of the user's own (a pattern, a function) may take white space into a
    link, and a TLD entry may be a pattern: then there are no anchors (one plain call)."""
    assert instance_anchor(LinkifyIt().add("skype:", {"validate": r"^\w+"})) is None
    assert instance_anchor(LinkifyIt().add("x:", {"validate": lambda self, text, pos: 0})) is None
    assert instance_anchor(LinkifyIt().tlds(["co.uk", "com"])) is None
    assert instance_anchor(LinkifyIt().tlds(["(?:com|net)"])) is None
    assert instance_anchor(LinkifyIt()) is not None


def test_anchors_follow_the_configuration() -> None:
    """What the anchor pattern accepts follows the instance's options, schemas and TLDs."""
    default = instance_anchor(LinkifyIt())
    assert default is not None and default.search("a.b") and default.search("x@y") and default.search("HTTP:")
    no_email = instance_anchor(LinkifyIt(options={"fuzzy_email": False}))
    assert no_email is not None and not no_email.search("x@y")
    tlds = instance_anchor(LinkifyIt().tlds(["com"]))
    assert tlds is not None and tlds.search("a.COM") and not tlds.search("a.de") and tlds.search("a.xn--p1ai")
    ip = instance_anchor(LinkifyIt(options={"fuzzy_ip": True}))
    assert ip is not None and ip.search("1.2") and not default.search("1.2")
    # No schema and nothing fuzzy: no link, no window (linkify-it's own match() fails there).
    nothing = instance_anchor(_nothing())
    assert nothing is not None and not nothing.search("http://a.com x@y.org a.com //a.com")
    git = instance_anchor(LinkifyIt(options={"fuzzy_link": False}).add("git:", "http:"))
    assert git is not None and git.search("Git:") and not git.search("a.com")


def test_anchor_is_kept_until_the_configuration_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    from uts58_adapt.backends import linkify_it as backend_module

    computed: list[object] = []
    compute = backend_module._instance_anchor
    monkeypatch.setattr(backend_module, "_instance_anchor", lambda li: computed.append(li) or compute(li))
    linkify = LinkifyIt()
    first = instance_anchor(linkify)
    assert first is not None and instance_anchor(linkify) is first
    linkify.match("see http://a.com/x")  # linkify-it compiles patterns lazily, in place
    assert instance_anchor(linkify) is first
    assert len(computed) == 1  # computed once for an unchanged instance
    linkify.set({"fuzzy_email": False})  # set() changes the options in place
    second = instance_anchor(linkify)
    assert second is not None and not second.search("x@y")
    linkify.add("git:", "http:")  # add() recompiles
    third = instance_anchor(linkify)
    assert third is not None and third.search("git:")
    linkify.tlds(["com"])
    fourth = instance_anchor(linkify)
    assert fourth is not None and not fourth.search("a.de") and fourth.search("a.com")
    linkify.add("skype:", {"validate": r"^\w+"})
    assert instance_anchor(linkify) is None
    assert len(computed) == 5
