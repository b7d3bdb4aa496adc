"""wrap(): an already configured linkify-it-py or urlextract instance, upgraded to UTS #58.

Expected values are written by hand from the standard: ``example.com/αβ(γ/δ)ρς``
ends before ``)`` because the ``/`` before ``δ`` empties the bracket stack (§3.5.1),
so that ``)`` closes nothing.
"""

from __future__ import annotations

import types

import pytest
from linkify_it import LinkifyIt
from linkify_it.main import Match
from markdown_it import MarkdownIt
from urlextract import URLExtract
from urlextract.urlextract_core import URLExtractError

from uts58_adapt import wrapping
from uts58_adapt.wrapping import LinkifyItWrapper, URLExtractWrapper, wrap

GREEK = "see example.com/αβ(γ/δ)ρς end"
GREEK_LINK = "example.com/αβ(γ/δ"  # 18 code points, at offset 4
WIKI = "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta'_artikli_li_kull_Wikipedija"


def fields(m: Match) -> tuple[str, int, int, str, str, str]:
    return (m.schema, m.index, m.last_index, m.raw, m.text, m.url)


@pytest.fixture(scope="module")
def extractor() -> URLExtract:
    return URLExtract()


# --- linkify-it-py ------------------------------------------------------------------------


def test_match_returns_linkify_it_match_objects_with_the_refined_end():
    found = wrap(LinkifyIt()).match(GREEK)
    assert isinstance(found, list) and len(found) == 1
    assert type(found[0]) is Match
    assert fields(found[0]) == ("", 4, 22, GREEK_LINK, GREEK_LINK, "http://" + GREEK_LINK)


def test_unwrapped_instance_is_left_alone():
    plain = LinkifyIt()
    wrap(plain)
    assert [fields(m) for m in plain.match(GREEK)] == [
        ("", 4, 25, "example.com/αβ(γ/δ)ρς", "example.com/αβ(γ/δ)ρς", "http://example.com/αβ(γ/δ)ρς")
    ]


def test_apostrophe_inside_a_path_is_kept():
    found = wrap(LinkifyIt()).match(WIKI)
    assert [fields(m) for m in found] == [("https:", 0, 77, WIKI, WIKI, WIKI)]


def test_no_link_gives_none_like_the_original():
    assert wrap(LinkifyIt()).match("nothing to see") is None
    assert wrap(LinkifyIt()).match("") is None


def test_non_ascii_email_is_added_with_the_mailto_schema():
    found = wrap(LinkifyIt()).match("write to σωκράτης@example.com today")
    assert [fields(m) for m in found] == [
        ("mailto:", 9, 29, "σωκράτης@example.com", "σωκράτης@example.com", "mailto:σωκράτης@example.com")
    ]


def test_custom_schema_added_before_wrapping_is_kept():
    linkify = LinkifyIt().add("git:", "http:")
    found = wrap(linkify).match("see git://x.com/a(b")
    assert [fields(m) for m in found] == [("git:", 4, 19, "git://x.com/a(b", "git://x.com/a(b", "git://x.com/a(b")]


def test_custom_schema_added_through_the_wrapper_and_chaining():
    wrapped = wrap(LinkifyIt())
    assert wrapped.add("git:", "http:") is wrapped
    assert [m.last_index for m in wrapped.match("see git://x.com/a(b")] == [19]
    assert wrapped.set({"fuzzy_link": True}) is wrapped
    assert wrapped.tlds("com", True) is wrapped


def test_schema_without_a_host_is_passed_through():
    # A twitter-style mention schema: UTS #58 has nothing to refine in it.
    linkify = LinkifyIt().add(
        "@",
        {
            "validate": r"^[a-z0-9_]{1,15}(?![a-z0-9_])",
            # linkify-it-py calls a plain-function normalizer as a method: (self, match).
            "normalize": lambda self, m: setattr(m, "url", "https://twitter.com/" + m.url[1:]),
        },
    )
    found = wrap(linkify).match("ping @alice about example.com/αβ(γ/δ)ρς")
    assert [fields(m) for m in found] == [
        ("@", 5, 11, "@alice", "@alice", "https://twitter.com/alice"),
        ("", 18, 36, GREEK_LINK, GREEK_LINK, "http://" + GREEK_LINK),
    ]


def test_fuzzy_email_off_is_kept():
    wrapped = wrap(LinkifyIt().set({"fuzzy_email": False}))
    assert wrapped.match("σωκράτης@example.com or bob@example.com") is None
    # An explicit mailto: is the mailto: schema, which stays on.
    found = wrapped.match("mailto:σωκράτης@example.com")
    assert [fields(m) for m in found] == [
        (
            "mailto:",
            0,
            27,
            "mailto:σωκράτης@example.com",
            "mailto:σωκράτης@example.com",
            "mailto:σωκράτης@example.com",
        )
    ]


def test_fuzzy_email_switched_off_through_the_wrapper_after_test():
    wrapped = wrap(LinkifyIt())
    assert wrapped.test("σωκράτης@example.com") is True
    wrapped.set({"fuzzy_email": False})
    assert wrapped.match("σωκράτης@example.com") is None
    assert wrapped.test("σωκράτης@example.com") is False


def test_fuzzy_link_off_is_kept():
    wrapped = wrap(LinkifyIt({}, {"fuzzy_link": False}))
    assert wrapped.match(GREEK) is None
    assert [m.last_index for m in wrapped.match("see http://example.com/αβ(γ/δ)ρς")] == [29]


def test_the_instances_tlds_are_kept():
    wrapped = wrap(LinkifyIt().tlds(["org"]))
    text = "example.com/αβ(γ/δ)ρς example.org/αβ(γ/δ)ρς σωκράτης@example.com σωκράτης@example.org"
    assert [(m.index, m.last_index, m.raw) for m in wrapped.match(text)] == [
        (22, 40, "example.org/αβ(γ/δ"),
        (65, 85, "σωκράτης@example.org"),
    ]


def test_test_and_pretest():
    wrapped = wrap(LinkifyIt())
    assert LinkifyIt().test("σωκράτης@example.com") is False
    assert wrapped.test("σωκράτης@example.com") is True
    assert wrapped.pretest("σωκράτης@example.com") is True
    assert wrapped.test("no links here") is False
    assert wrapped.pretest("no links here") is False
    # A URL with userinfo is not linked (the domain is not an email's either).
    assert wrapped.test("http://user@example.com/x") is False


def test_match_after_test_on_another_text_is_not_stale():
    wrapped = wrap(LinkifyIt())
    assert wrapped.test(GREEK) is True
    assert wrapped.match("nothing") is None
    assert wrapped.match(GREEK)[0].last_index == 22


def test_match_at_start():
    wrapped = wrap(LinkifyIt())
    m = wrapped.match_at_start("http://example.com/αβ(γ/δ)ρς and more")
    assert type(m) is Match
    assert fields(m) == (
        "http:",
        0,
        25,
        "http://example.com/αβ(γ/δ",
        "http://example.com/αβ(γ/δ",
        "http://example.com/αβ(γ/δ",
    )
    assert wrapped.match_at_start(WIKI + " x").last_index == 77
    assert wrapped.match_at_start("example.com/x") is None  # fuzzy links have no schema at start
    assert wrapped.match_at_start("http://user@example.com/") is None


def test_test_schema_at_gives_the_refined_tail_length():
    text = "see http://example.com/αβ(γ/δ)ρς"
    assert LinkifyIt().test_schema_at(text, "http:", 9) == 23
    assert wrap(LinkifyIt()).test_schema_at(text, "http:", 9) == 20  # "//example.com/αβ(γ/δ"
    assert wrap(LinkifyIt()).test_schema_at(text, "foo:", 9) == 0  # not a schema of the instance


def test_other_attributes_are_delegated():
    linkify = LinkifyIt()
    wrapped = wrap(linkify)
    assert isinstance(wrapped, LinkifyItWrapper)
    assert wrapped.wrapped is linkify
    assert wrapped.re is linkify.re
    assert wrapped.normalize == linkify.normalize
    with pytest.raises(AttributeError):
        wrapped.no_such_attribute  # noqa: B018


def test_wrap_is_idempotent_and_rejects_other_objects():
    wrapped = wrap(LinkifyIt())
    assert wrap(wrapped) is wrapped
    with pytest.raises(TypeError, match="obj"):
        wrap("example.com")  # type: ignore[call-overload]


def test_wrapping_a_markdown_it_instance_says_to_wrap_its_linkify():
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    with pytest.raises(TypeError, match=r"md\.linkify = uts58_adapt\.wrap\(md\.linkify\)"):
        wrap(md)  # type: ignore[call-overload]


def test_non_str_text_raises_type_error_naming_it():
    with pytest.raises(TypeError, match="text"):
        wrap(LinkifyIt()).match(b"example.com")  # type: ignore[arg-type]


# --- urlextract -----------------------------------------------------------------------


def test_find_urls_returns_refined_strings(extractor):
    wrapped = wrap(extractor)
    assert isinstance(wrapped, URLExtractWrapper)
    assert extractor.find_urls(GREEK) == ["example.com/αβ(γ/δ)ρς"]
    assert wrapped.find_urls(GREEK) == [GREEK_LINK]
    assert wrapped.find_urls(WIKI) == [WIKI]


def test_find_urls_get_indices(extractor):
    text = "example.com/αβ(γ/δ)ρς and example.com/αβ(γ/δ)x"
    found = wrap(extractor).find_urls(text, get_indices=True)
    assert found == [(GREEK_LINK, (0, 18)), (GREEK_LINK, (26, 44))]
    assert all(type(item) is tuple and type(item[1]) is tuple for item in found)


def test_find_urls_only_unique_after_refinement(extractor):
    text = "example.com/αβ(γ/δ)ρς and example.com/αβ(γ/δ)x"
    assert extractor.find_urls(text, only_unique=True) == ["example.com/αβ(γ/δ)ρς", "example.com/αβ(γ/δ)x"]
    assert wrap(extractor).find_urls(text, only_unique=True) == [GREEK_LINK]


def test_gen_urls_is_a_generator(extractor):
    gen = wrap(extractor).gen_urls(GREEK)
    assert isinstance(gen, types.GeneratorType)
    assert list(gen) == [GREEK_LINK]
    assert list(wrap(extractor).gen_urls(GREEK, get_indices=True)) == [(GREEK_LINK, (4, 22))]


def test_has_urls(extractor):
    wrapped = wrap(extractor)
    assert wrapped.has_urls(GREEK) is True
    assert wrapped.has_urls("no links here") is False
    # urlextract finds this URL, but UTS #58 does not link a URL with userinfo.
    assert extractor.has_urls("http://user@example.com/x") is True
    assert wrapped.has_urls("http://user@example.com/x") is False


def test_extract_email_setting_is_kept():
    text = "write σωκράτης@example.com"
    off = wrap(URLExtract(extract_email=False))
    on = wrap(URLExtract(extract_email=True))
    assert off.find_urls(text) == []
    assert URLExtract(extract_email=True).find_urls(text) == []
    assert on.find_urls(text, get_indices=True) == [("σωκράτης@example.com", (6, 26))]
    # A property set on the wrapper configures the wrapped instance.
    off.extract_email = True
    assert off.wrapped.extract_email is True
    assert off.find_urls(text) == ["σωκράτης@example.com"]


def test_limit_raises_urlextract_error_with_refined_data():
    wrapped = wrap(URLExtract(limit=1))
    with pytest.raises(URLExtractError) as info:
        wrapped.find_urls("example.com/αβ(γ/δ)ρς and example.org/x(y/z)w")
    assert info.value.data == [GREEK_LINK]


def test_urlextract_delegation(extractor):
    wrapped = wrap(extractor)
    assert wrap(wrapped) is wrapped
    assert wrapped.get_stop_chars_right() == extractor.get_stop_chars_right()


def test_windowed_matches_equal_one_call_on_long_text() -> None:
    """The wrapper gives linkify-it long texts in windows cut at white space (linear time,
    issue 13.5); the matches are those of one call, offsets into the whole text."""
    from uts58_adapt.backends._windows import WINDOW

    words = ["see", "example.com/αβ(γ/δ)ρς", "http://a.co/x>y", "mail", "jane@example.org.", "x.co/((", "www.a.com"]
    text = "\n".join(" ".join(words[(i + j) % len(words)] for j in range(9)) for i in range(200))
    assert len(text) > 8 * WINDOW
    plain = LinkifyIt()
    wrapped = wrap(LinkifyIt())
    got = [(m.index, m.last_index, m.schema, m.raw) for m in wrapped._windowed_matches(text)]
    want = [(m.index, m.last_index, m.schema, m.raw) for m in plain.match(text) or []]
    assert len(want) > 1000
    assert got == want


# --- the benchmark's dense multilingual corpus (benchmarks/corpus_dense.py) -----------------------


def test_dense_corpus_windowed_match_is_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """wrap(LinkifyIt()).match on a long link-dense multilingual text (given to linkify-it in
    windows) gives the Match objects of the wrapper given the whole text in one call."""
    from uts58_adapt import wrapping

    from conftest import dense_paragraphs

    text = "\n\n".join(dense_paragraphs(30_000))
    assert len(text) > 10 * wrapping.WINDOW
    windowed = wrap(LinkifyIt()).match(text) or []
    monkeypatch.setattr(wrapping, "WINDOW", len(text) + 1)
    whole = wrap(LinkifyIt()).match(text) or []
    assert [fields(m) for m in windowed] == [fields(m) for m in whole]
    assert len(whole) > len(text) // 200


def test_dense_corpus_paragraphs_match_test_and_pretest_agree() -> None:
    """Per paragraph of the dense corpus: match() after test() is match() alone, and pretest()
    is True wherever match() finds a link; every match is a span of the paragraph."""
    from conftest import dense_paragraphs

    linkify = wrap(LinkifyIt())
    fresh = wrap(LinkifyIt())
    for text in dense_paragraphs(20_000):
        found = fresh.match(text) or []
        assert linkify.test(text) == bool(found)
        assert [fields(m) for m in linkify.match(text) or []] == [fields(m) for m in found]
        if found:
            assert linkify.pretest(text)
        for m in found:
            assert text[m.index : m.last_index] == m.raw


def test_dense_corpus_backend_matches_are_those_of_one_call() -> None:
    """What the wrapper refines on a long link-dense multilingual text: the Match objects of one
    ``LinkifyIt().match`` call on the whole text (however the wrapper cuts it for linkify-it)."""
    from conftest import dense_paragraphs

    text = "\n\n".join(dense_paragraphs(30_000))
    wrapper = wrap(LinkifyIt())
    one_call = LinkifyIt().match(text) or []
    assert len(one_call) > len(text) // 200
    assert [fields(m) for m in wrapper._windowed_matches(text)] == [fields(m) for m in one_call]


def _configured_linkifiers() -> list[LinkifyIt]:
    """Instances whose anchors differ: default, TLDs replaced, fuzzy options off, IPs on, added schemas."""
    return [
        LinkifyIt(),
        LinkifyIt().tlds(["onion", "рф"]),
        LinkifyIt().tlds("museum", True),
        LinkifyIt(options={"fuzzy_link": False}),
        LinkifyIt(options={"fuzzy_email": False, "fuzzy_ip": True}),
        LinkifyIt().add("git:", "http:").add("ftp:", None),
    ]


@pytest.mark.parametrize("index", range(6))
def test_pretest_is_true_wherever_match_finds_a_link(index: int, detection_test_file: object) -> None:
    """The wrapper's pretest (one search of the instance's anchor when it has one) never says
    False where ``match`` links something: official file lines, sample corpus, dense corpus,
    and texts whose only link is one the refinement finds (``。`` domains, emails)."""
    from conftest import dense_paragraphs, detection_cases, plain_text, sample_lines

    linkify = wrap(_configured_linkifiers()[index])
    texts = [plain_text(line) for _, line in detection_cases()] + sample_lines() + dense_paragraphs(20_000)
    texts += ["見て example。com を", "σωκράτης@example.com", "x git://example.com/y", "1.2.3.4/x", "a.onion/b"]
    linked = 0
    for text in texts:
        if linkify.match(text):
            linked += 1
            assert linkify.pretest(text), text
    assert linked > 100


def test_pretest_is_false_on_text_without_anchor_or_at() -> None:
    """The cheap pretest still says False on text no link can be found in."""
    linkify = wrap(LinkifyIt())
    assert linkify.pretest("no links here, none at all") is False
    assert linkify.pretest("see example.com") is True
    assert wrap(LinkifyIt(options={"fuzzy_link": False})).pretest("see example.com") is False


@pytest.mark.parametrize(
    ("text", "linked"),
    [
        ("see ?@p.co ok", []),
        ("see «jürgen@example.de» ok", ["jürgen@example.de"]),
        ("see x/jürgen@example.de ok", []),
        ("see @c@b.jec ok", []),
        ("see ?subject=Urgent&body=Pay_now&bcc=boss@corp.com ok", []),
        ("see jürgen@example.de ok", ["jürgen@example.de"]),
        ("see (σωκράτης@example.gr) ok", ["σωκράτης@example.gr"]),
    ],
)
def test_an_email_linkify_it_does_not_find_is_asked_in_its_word(text: str, linked: list[str]) -> None:
    """Issue 32 "new N1": linkify-it links no email in ``?@p.co``, ``x/jurgen@example.de`` or
    ``@c@b.jec``, so the upgrade links none there; where it links the ASCII form of the run of
    Link_Term=Include characters around the address, the non-ASCII local part is linked, and a
    quotation mark or bracket before it is a boundary UTS #58 decides at (``«jürgen@…»``)."""
    from linkify_it import LinkifyIt

    raw = LinkifyIt()
    run = text.split()[1].strip("«»()")
    ascii_form = "".join(c if c < "\x80" else "a" for c in run)
    assert bool(raw.match(ascii_form)) == bool(linked)
    assert [m.text for m in wrap(LinkifyIt()).match(text) or []] == linked


@pytest.mark.parametrize("text", ["x.com<", "see l·l.om< ok", "xn--her-kva.de<", "word " * 300 + "x.com<"])
def test_test_is_false_where_the_librarys_test_is(text: str) -> None:
    """markdown-it links a text token only when ``test`` is True; linkify-it's test() is False where
    its match() finds a fuzzy host before "<" (issue 32): the wrapper's test() says so too, and its
    match() still gives the refined link, as the library's does."""
    assert LinkifyIt().test(text) is False
    assert LinkifyIt().match(text)
    wrapped = wrap(LinkifyIt())
    assert wrapped.test(text) is False
    assert wrapped.match(text)


@pytest.mark.parametrize(
    "text",
    ["1.2.3.4 x.com<", "localhost x.com<", "www. x.com<", "1.2.3.4 " + "word " * 300 + "x.com<", "σ@example.com<"],
)
def test_test_is_true_where_the_library_sees_a_host_in_another_word(text: str) -> None:
    assert wrap(LinkifyIt()).test(text) is True


def test_test_on_a_long_host_run_is_the_librarys_answer() -> None:
    """On a run longer than a match window (issue 32 item 1), test() is asked in the same bounded
    windows; here the run has one host, and the answer is the library's own."""
    for after, expected in (("/", True), ("<", False), ("</x<", False), ("/x<", True)):
        text = "see x.com" + after + "a" * 1100 + " ok"
        assert LinkifyIt().test(text) is expected
        assert wrap(LinkifyIt()).test(text) is expected
    # the shape that made every entry point hang (issue 32 item 1) is answered (no link: a host
    # of over 253 octets, UTS #46)
    assert wrap(LinkifyIt()).test("see " + "xn--80ak6aa92e." * 69 + "com now") is False


@pytest.mark.parametrize("text", ["/.emailto:a@e.om", "/。emailto:σ@e.om", "see /.emailto:σ@e.om ok"])
def test_an_email_the_library_starts_earlier_in_its_word_is_not_linked(text: str) -> None:
    """Issue 32 (fuzz): linkify-it links nothing in ``/.emailto:a@e.om``; asked about the run
    ``emailto:a@e.om`` it links an email from ``e``, before the refined ``mailto:a@e.om``: the
    refined link would start inside the library's email, so it is not linked (``⸠john.doe@…⸡``,
    where the library's email starts where UTS #58's does, stays linked)."""
    from linkify_it import LinkifyIt

    assert not LinkifyIt().match(text.replace("σ", "a").replace("。", "."))
    assert wrap(LinkifyIt()).match(text) is None
    assert [m.text for m in wrap(LinkifyIt()).match("⸠john.doe@example.com⸡") or []] == ["john.doe@example.com"]
    # Where the library links the whole run (its local part "x.emailto:a"), §5.2's local part is kept.
    assert [m.text for m in wrap(LinkifyIt()).match("x.emailto:a@e.om") or []] == ["mailto:a@e.om"]


@pytest.mark.parametrize("text", ["~x.co", "see ~e.org ok", "~xn--82e.co", "¨x.co"])
def test_a_link_whose_library_host_starts_with_an_invalid_character_is_rejected(text: str) -> None:
    """Issue 32 (fuzz): linkify-it links ``~x.co`` with the host ``~x`` (``~`` taken into its first
    label), which UTS #46 rejects: the link is rejected, as ``a~x.co`` is, not cut to ``x.co`` (a
    refined link never starts inside the library's; Django's ``｡e.org`` is rejected likewise)."""
    from linkify_it import LinkifyIt

    found = LinkifyIt().match(text)
    assert found and found[0].text[0] in "~¨"
    assert wrap(LinkifyIt()).match(text) is None
    assert wrap(LinkifyIt()).match("a~x.co") is None
    assert [m.text for m in wrap(LinkifyIt()).match("(x.co) a·b.com") or []] == ["x.co", "b.com"]


@pytest.mark.parametrize("text", ["1http://l·l.om", "see 1http://l·l.com/x ok", "_http://l·l.com"])
def test_a_scheme_is_taken_in_only_where_the_library_starts_it(text: str) -> None:
    """Fuzz (seed 5): linkify-it links ``l.om`` after the middle dot of ``1http://l·l.om``, and never
    a scheme right after a letter, digit or ``_``; the refined host ``l·l.om`` starts earlier, and the
    ``http://`` before it is not taken in after the ``1``: nothing is linked there, as in
    ``xhttp://l·l.om`` (a scheme the library does not link).  After a space or ``(`` it is."""
    found = LinkifyIt().match(text)
    assert found and not found[0].text.startswith("http")
    assert wrap(LinkifyIt()).match(text) is None
    assert wrap(LinkifyIt()).match("xhttp://l·l.om") is None
    assert [m.text for m in wrap(LinkifyIt()).match(text[text.index("http") :]) or []] == [
        text[text.index("http") :].split(" ")[0]
    ]
    assert [m.text for m in wrap(LinkifyIt()).match("(http://l·l.om) x http://l·l.cat") or []] == [
        "http://l·l.om",
        "http://l·l.cat",
    ]
    if "1" in text:  # (markdown-it reads "_" as emphasis, then starts a link at "http")
        md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
        md.linkify = wrap(md.linkify)
        assert "<a " not in md.render(text)


@pytest.mark.parametrize("text", ["hTtP://\u200fl·l.om", "ftp://\u202al·l.co", "see http://\u2066l·l.com/x ok"])
def test_a_host_moved_back_never_starts_inside_the_librarys_other_link(text: str) -> None:
    """Fuzz (seed 6): linkify-it links ``hTtP://\\u200fl`` (a host starting with a Bidi_Control
    character, rejected) and ``l.om`` after the middle dot; the refined host ``l·l.om`` would start
    inside the first: nothing is linked there (a refined link never starts inside the library's)."""
    found = LinkifyIt().match(text)
    assert found and len(found) == 2 and found[0].last_index > text.index("l·l")
    assert wrap(LinkifyIt()).match(text) is None
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = wrap(md.linkify)
    assert "xn--ll-0ea" not in md.render(text)


def test_a_scheme_probe_answered_from_the_librarys_own_match_is_the_librarys_answer() -> None:
    """Issue 36: the scheme check of issue 21.1 asks linkify-it about ``scheme//host/``; where one of
    its own matches in the text is ``scheme://host`` then a port, path, query or fragment, the
    answer is read from it (``_linked_probes``).  Each such answer is the one linkify-it gives
    when asked (on the dense corpora and on hostile shapes); a match with userinfo or an IP
    literal answers nothing."""
    import random

    from uts58_adapt.wrapping import _linked_probes

    from conftest import REPO, load_module

    corpus_dense = load_module("corpus_dense", REPO / "benchmarks" / "corpus_dense.py")
    texts = []
    for point in ("scheme-idn", "very-dense", "cjk-arabic"):
        texts += corpus_dense.dense_lines(20_000, 7, corpus_dense.POINTS[point])[0]
    rng = random.Random(36)
    pieces = ["http://", "HTTPS://", "ftp://", "//", "a.com", "пример.рф", "ｘ.com", ":80", "/p", "?q", "#f",
              "@", "[::1]", "u:p@", ".", "-", "_", "。", "\u202e", "&amp;", "*", ")", " ", "xn--80ak6aa92e.com"]  # fmt: skip
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(2, 9))) for _ in range(3000)]
    linkify = LinkifyIt()
    wrapper = wrap(LinkifyIt())
    answered = 0
    for text in texts:
        for url in _linked_probes(linkify.match(text) or [], text):
            scheme = url[: url.index("//")]
            assert wrapper._accepts_scheme(scheme, url), (text, url)
            answered += 1
    assert answered > 500
    assert _linked_probes(linkify.match("see http://u:p@a.com/ and http://[::1]/") or [], "") == set()
    text = "see http://u:p@a.com/ and http://[::1]/"
    assert _linked_probes(linkify.match(text) or [], text) == set()


def test_a_validator_of_the_users_is_always_asked() -> None:
    """A schema with a validator of the user's own may read the text around a match: its scheme
    check is asked of the instance, never read from a match in context."""
    linkify = LinkifyIt().add("git:", {"validate": lambda self, text, pos: 5 if text[pos - 5 : pos] == " git:" else 0})
    text = "see http://a.com/ ok"
    users, default = wrap(linkify), wrap(LinkifyIt())
    # (a probe the text's own match answers: asked of the instance only where the validators are not its own)
    kept = wrapping._SCHEME_ANSWERS
    for wrapper in (users, default):
        assert wrapper._scheme_probe(linkify.match(text) or [], text)("http:", "http://a.com/")
    assert kept.get(linkify) is not None and "http://a.com/" in kept[linkify][1]
    assert kept.get(default._wrapped) is None or "http://a.com/" not in kept[default._wrapped][1]
