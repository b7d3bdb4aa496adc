"""Issue 9: wrap() is a drop-in: the wrapped instance's configuration decides scheme and host,
no link is lost to the userinfo rule, no stale state, and the wrapper has the wrapped type.

Every expected value is written by hand: what the library links by itself, with the end
UTS #58 gives (§3.5.1), or nothing where the configuration or the standard says so.
"""

from __future__ import annotations

import pytest
from linkify_it import LinkifyIt
from markdown_it import MarkdownIt
from urlextract import URLExtract

from uts58_adapt import detect
from uts58_adapt.wrapping import LinkifyItWrapper, URLExtractWrapper, wrap


def texts(w: LinkifyIt, text: str) -> list[tuple[str, str]]:
    return [(m.schema, m.text) for m in (w.match(text) or [])]


# --- 1. the configuration decides scheme and host ----------------------------------------


def test_fuzzy_ip_hosts_are_kept():
    w = wrap(LinkifyIt(options={"fuzzy_ip": True}))
    assert texts(w, "go 192.168.1.1/x now") == [("", "192.168.1.1/x")]


def test_fuzzy_ip_off_gives_no_ip_link():
    assert texts(wrap(LinkifyIt()), "go 192.168.1.1/x now") == []


def test_custom_tld_added_with_tlds_is_kept():
    w = wrap(LinkifyIt().tlds("onion", True))
    assert texts(w, "go example.onion/x now") == [("", "example.onion/x")]


def test_custom_schema_with_a_validator():
    w = wrap(LinkifyIt().add("my:", {"validate": r"^//[a-z]+"}))
    assert texts(w, "go my://asdf now") == [("my:", "my://asdf")]


def test_custom_schema_alias():
    w = wrap(LinkifyIt().add("foo-bar:", "http:"))
    assert texts(w, "go foo-bar://example.com/a(b) now") == [("foo-bar:", "foo-bar://example.com/a(b)")]


def test_custom_schema_given_to_the_constructor():
    w = wrap(LinkifyIt({"git:": "http:"}))
    assert texts(w, "see git://x.com/a") == [("git:", "git://x.com/a")]


@pytest.mark.parametrize("url", ["http://localhost:8000/x", "http://intranet/x"])
def test_single_label_hosts_after_an_explicit_scheme(url):
    assert texts(wrap(LinkifyIt()), f"go {url} now") == [("http:", url)]


def test_urlextract_localhost_after_a_scheme():
    assert wrap(URLExtract()).find_urls("go http://localhost:8000/x now") == ["http://localhost:8000/x"]
    assert wrap(URLExtract(extract_localhost=False)).find_urls("go http://localhost:8000/x now") == []


@pytest.mark.parametrize("url", ["http://✪df.ws/123", "http://xn--df-oiy.ws/123"])
def test_hosts_browsers_open_stay_linked(url):
    assert texts(wrap(LinkifyIt()), f"go {url} now") == [("http:", url)]


@pytest.mark.parametrize("url", ["http://localhost:8000/x", "http://✪df.ws/123", "http://xn--df-oiy.ws/123"])
def test_strict_hosts_applies_the_registrable_domain_rule(url):
    assert texts(wrap(LinkifyIt(), strict_hosts=True), f"go {url} now") == []
    assert detect(f"go {url} now") == []
    assert [link.text for link in detect(f"go {url} now", strict_hosts=False)] == [url]


@pytest.mark.parametrize(
    "url",
    ["http://foo..example.com/x", "http://-foo.example.com/x", "http://foo-.example.com/x", "http://xn--a.com/x"],
)
def test_invalid_hosts_are_rejected_without_strict_hosts(url):
    assert texts(wrap(LinkifyIt()), f"go {url} now") == []


def test_urlextract_bare_ipv4_and_localhost():
    w = wrap(URLExtract())
    assert w.find_urls("go 192.168.1.1/x now") == ["192.168.1.1/x"]
    assert w.find_urls("go http://localhost/x now") == ["http://localhost/x"]


def test_urlextract_user_stop_char_right_ends_the_link():
    w = wrap(URLExtract())
    w.set_stop_chars_right(w.get_stop_chars_right() | {","})
    assert w.find_urls("a example.com/x,y b") == ["example.com/x"]
    assert wrap(URLExtract()).find_urls("a example.com/x,y b") == ["example.com/x,y"]


def test_urlextract_user_stop_char_left_is_not_crossed():
    w = wrap(URLExtract())
    w.set_stop_chars_left(w.get_stop_chars_left() | {"+"})
    assert w.find_urls("a ab+example.com b") == ["example.com"]


def test_urlextract_ignore_list_and_permit_list():
    w = wrap(URLExtract())
    w.ignore_list = {"example.com"}
    assert w.find_urls("a example.com/x b example.org") == ["example.org"]
    assert w.wrapped.ignore_list == {"example.com"}
    p = wrap(URLExtract())
    p.permit_list = {"example.com"}
    assert p.find_urls("a example.com/x b example.org") == ["example.com/x"]


def test_email_switches_stay_off():
    text = "σωκράτης@example.com me@example.org"
    assert wrap(URLExtract(extract_email=False)).find_urls(text) == []
    assert texts(wrap(LinkifyIt().set({"fuzzy_email": False})), text) == []


def test_disabled_schema_is_never_linked():
    w = wrap(LinkifyIt().add("ftp:", None))
    assert texts(w, "get ftp://example.com/x now") == []
    assert texts(w, "get ftp://l·lexample.com/x now") == []


# --- 2. no link lost to the userinfo rule -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "links"),
    [
        (
            "[https](https://www.ibm.com)[mailto](mailto:someone@ibm.com)",
            ["https://www.ibm.com", "mailto:someone@ibm.com"],
        ),
        ("(https://example.com),me@example.org", ["https://example.com", "me@example.org"]),
        ("<https://example.com>,<me@example.org>", ["https://example.com", "me@example.org"]),
        ("http://john.smith@example.com", []),
    ],
)
def test_userinfo_is_only_a_run_that_can_be_one(text, links):
    assert [link.text for link in detect(text)] == links
    assert [link.text for link in detect(text, "urlextract")] == links
    assert [m.text for m in wrap(LinkifyIt()).match(text) or []] == links
    assert wrap(URLExtract(extract_email=True)).find_urls(text) == links


# --- 3. host-stage bugs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "link", "href"),
    [
        ("a𐩐b.com", "b.com", "https://b.com"),  # U+10A50 KHAROSHTHI PUNCTUATION DOT
        ("a𑁍b.com", "b.com", "https://b.com"),  # U+1104D BRAHMI PUNCTUATION LOTUS
        ("𝔞𝔟.com", "𝔞𝔟.com", "https://ab.com"),  # UTS #46 maps the Fraktur letters to a, b
        ("a·b.com", "b.com", "https://b.com"),  # a middle dot not between two l ends the host
        ("l·l.cat", "l·l.cat", "https://l·l.cat"),  # Catalan: it is part of the label
    ],
)
@pytest.mark.parametrize("backend", ["linkify-it", "urlextract"])
def test_host_boundaries(backend, text, link, href):
    assert [(x.text, x.href) for x in detect(f"go {text} now", backend)] == [(link, href)]


def test_urlextract_start_on_a_non_host_char_is_moved_forward():
    text = "*eo.wikipedia.org/wiki/Vikipedio:Listo*"
    assert wrap(URLExtract()).find_urls(text) == ["eo.wikipedia.org/wiki/Vikipedio:Listo*"]
    assert [link.text for link in detect(text, "urlextract")] == ["eo.wikipedia.org/wiki/Vikipedio:Listo*"]


@pytest.mark.parametrize(
    "text", ["~.e.io", "see ~.e.io ok", "*.e.io", "~..e.io", "~\u3002e.io", "~\uff0ee.io", "~\uff61e.io"]
)
def test_urlextract_span_on_an_empty_first_label_is_rejected(text):
    """Issue 32 (fuzz): urlextract returns ``.e.io`` on ``~.e.io``, a host whose first label is
    empty, which UTS #46 rejects: the span is rejected (no link), not cut to ``e.io`` inside it
    (as Django's ``\uff61e.org`` and linkify-it's ``~x.co`` are).  The ideographic full stops are
    label separators: urlextract is asked with them written ``.``."""
    assert URLExtract().find_urls(text.translate(str.maketrans("\u3002\uff0e\uff61", "...")))
    assert wrap(URLExtract()).find_urls(text) == []
    assert wrap(URLExtract()).find_urls(text, get_indices=True) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("see .e.io ok", [("e.io", (5, 9))]),  # urlextract drops the "." itself, after a space
        (".e.io", [("e.io", (1, 5))]),
        ("a.e.io ~.e.io", [("a.e.io", (0, 6))]),
    ],
)
def test_urlextract_leading_dot_it_drops_itself_is_kept(text, found):
    assert URLExtract().find_urls(text, get_indices=True)[: len(found)] == found
    assert wrap(URLExtract()).find_urls(text, get_indices=True) == found


# --- 4. no stale state ----------------------------------------------------------------------


def test_change_on_the_wrapped_instance_between_test_and_match():
    w = wrap(LinkifyIt())
    text = "see example.com"
    assert w.test(text)
    w.wrapped.set({"fuzzy_link": False})
    assert w.match(text) is None


def test_schema_added_on_the_wrapped_instance_between_test_and_match():
    w = wrap(LinkifyIt())
    text = "see git://example.com"
    assert not w.test(text)
    w.wrapped.add("git:", "http:")
    assert [m.text for m in w.match(text)] == ["git://example.com"]


def test_attribute_set_through_the_wrapper_between_test_and_match():
    w = wrap(LinkifyIt())
    text = "see example.com"
    assert w.test(text)
    w._opts = {"fuzzy_link": False, "fuzzy_email": True, "fuzzy_ip": False}
    assert w.wrapped._opts["fuzzy_link"] is False
    assert w.match(text) is None


def test_urlextract_property_set_through_the_wrapper():
    w = wrap(URLExtract())
    assert w.find_urls("me@example.org") == []
    w.extract_email = True
    assert w.wrapped.extract_email is True
    assert w.find_urls("me@example.org") == ["me@example.org"]


# --- 5. same type -------------------------------------------------------------------------


def test_wrapper_is_an_instance_of_the_wrapped_class():
    lk, ux = LinkifyIt(), URLExtract()
    assert isinstance(wrap(lk), LinkifyIt) and isinstance(wrap(lk), LinkifyItWrapper)
    assert isinstance(wrap(ux), URLExtract) and isinstance(wrap(ux), URLExtractWrapper)
    assert wrap(lk).wrapped is lk and wrap(ux).wrapped is ux


def test_wrapper_of_a_subclass_is_an_instance_of_that_subclass():
    class MyLinkify(LinkifyIt):
        def shout(self) -> str:
            return "hi"

    mine = MyLinkify()
    w = wrap(mine)
    assert isinstance(w, MyLinkify)
    assert w.shout() == "hi"
    assert [m.text for m in w.match("see example.com/αβ(γ/δ)ρς")] == ["example.com/αβ(γ/δ"]


def test_wrapper_state_is_the_wrapped_instances():
    w = wrap(URLExtract())
    w.wrapped.ignore_list = {"example.com"}
    assert w.ignore_list == {"example.com"}  # not URLExtract's class-level default
    assert "_opts" not in vars(wrap(LinkifyIt()))


def test_rewrapping_with_another_strict_hosts():
    lk = LinkifyIt()
    w = wrap(lk)
    assert wrap(w) is w
    strict = wrap(w, strict_hosts=True)
    assert strict is not w and strict.wrapped is lk and strict.strict_hosts and not w.strict_hosts


# --- markdown-it-py ------------------------------------------------------------------------


def test_markdown_it_keeps_localhost_after_a_scheme():
    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = wrap(md.linkify)
    assert md.render("go http://localhost:8000/x now") == (
        '<p>go <a href="http://localhost:8000/x">http://localhost:8000/x</a> now</p>\n'
    )


# --- what the upstream suites showed (linkify-it-py 2.2.0 tests, expected values hand-copied) --


def test_triple_minus_option_ends_links():
    w = wrap(LinkifyIt(None, {"---": True}))
    assert [m.text for m in w.match("http://e.com/foo---bar")] == ["http://e.com/foo"]
    assert [m.text for m in w.match("text@example.com---foo")] == ["text@example.com"]
    assert [m.text for m in wrap(LinkifyIt()).match("http://e.com/foo---bar")] == ["http://e.com/foo---bar"]


@pytest.mark.parametrize(
    "link",
    ["http://999", "//localhost", "http://a---b.com/", "mailto:foo@bar", "➡.ws/䨹"],
)
def test_links_the_wrapped_linkify_it_keeps(link):
    assert [m.text for m in wrap(LinkifyIt()).match(f"go {link} now")] == [link]


@pytest.mark.parametrize("schema", ["foo?bar:", "foo$bar:", "foo(bar:", "foo|bar:"])
def test_schema_names_with_regex_characters(schema):
    w = wrap(LinkifyIt().add(schema, "http:"))
    assert w.test(f"Check {schema}//test") is True
    assert [m.text for m in w.match(f"Check {schema}//test")] == [f"{schema}//test"]


def test_without_strict_hosts_a_fuzzy_single_label_or_a_number_is_no_host():
    assert texts(wrap(LinkifyIt()), "//test.123 and .ws") == []
