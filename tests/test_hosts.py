"""The host stage (refine/hosts.py): what §1.4 leaves to WHATWG URL, UTS #46 and the PSL."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58_adapt.backends._tlds import icann_suffixes, icann_tlds
from uts58_adapt.refine import hosts


@pytest.mark.parametrize(
    "host",
    [
        "example.com",
        "TEST.COM",
        "FOO.VERMÖGEN.com",
        "abc.XN--11B4C3D",
        "foo.香港",
        "普遍适用测试。我爱你",
        "普遍适用测试．我爱你",
        "普遍适用测试｡我爱你",
        "xn-----ctdbabcfhu9c2b9l1acccr4c.xn--mgbah1a3hjkrd",
        "ཡོངས་ཁྱབ་ངོས་ལེན་བརྟག་དཔྱད.com",
        "blogspot.com",
        "bat-smg.wikipedia.org",
    ],
)
def test_valid_domains(host):
    assert hosts.domain_unicode(host) is not None


@pytest.mark.parametrize(
    "host",
    [
        "",
        "com",
        "localhost",
        ".foo.example.com",
        "foo..example.com",
        "-foo.example.com",
        "foo.example-.com",
        "example.😎",
        "example.invalid",
        "موريتانيا.xn-----ctdbabcfhu9c2b9l1acccr4c",  # TLD with hyphens (as Unicode)
        "example.c0m",
        "example.c",
        "co.uk",  # a public suffix, not a registrable domain
        "in_valid.com",
        "a" * 64 + ".com",  # label too long
    ],
)
def test_invalid_domains(host):
    assert hosts.domain_unicode(host) is None


def test_unicode_form_is_lower_case_and_decoded():
    assert hosts.domain_unicode("FOO.VERMÖGEN.com") == "foo.vermögen.com"
    assert hosts.domain_unicode("abc.XN--11B4C3D") == "abc.कॉम"
    assert hosts.domain_unicode("普遍适用测试。我爱你") == "普遍适用测试.我爱你"


def test_ipv4_only_with_scheme():
    assert hosts.domain_unicode("127.0.0.1") is None
    assert hosts.domain_unicode("127.0.0.1", allow_ip=True) == "127.0.0.1"
    assert hosts.url_host("http://127.0.0.1:8080/x", 0).end == len("http://127.0.0.1:8080")
    assert hosts.url_host("see 127.0.0.1/x", 4) is None


def test_tld_list_is_icann_both_forms_offline():
    tlds = icann_tlds()
    assert {"com", "香港", "xn--j6w193g", "accountants", "我爱你", "xn--mgbah1a3hjkrd"} <= tlds
    assert len(tlds) > 1400
    suffixes = icann_suffixes()
    assert suffixes.is_public_suffix("co.uk")
    assert not suffixes.is_public_suffix("blogspot.com")  # private section: not used


def test_url_host_repairs_a_start_inside_the_host():
    text = "See FOO.VERMÖGEN.com on…"
    hm = hosts.url_host(text, text.index("GEN"))
    assert (hm.start, hm.host_end) == (4, 20)
    text = "Lorem épreuve-acceptation-universelle.org x"
    hm = hosts.url_host(text, text.index("preuve"))
    assert text[hm.start : hm.end] == "épreuve-acceptation-universelle.org"


def test_url_host_takes_in_a_scheme_before_a_repaired_start():
    text = "at https://ja.wikipedia.org/wiki"
    hm = hosts.url_host(text, text.index("wikipedia"))
    assert text[hm.start : hm.end] == "https://ja.wikipedia.org"
    assert hm.scheme == "https://"


def test_trailing_dot():
    text = "http://foo.example.com. on"
    hm = hosts.url_host(text, 0)
    assert text[hm.start : hm.end] == "http://foo.example.com"
    text = "http://foo.example.com./αβγ"
    hm = hosts.url_host(text, 0)
    assert text[hm.start : hm.end] == "http://foo.example.com."
    assert hosts.url_host("foo.example.com..", 0).end == len("foo.example.com")


def test_port():
    text = "example.com:443 b"
    assert hosts.url_host(text, 0).end == len("example.com:443")
    text = "example.com:65535/x"
    assert hosts.url_host(text, 0).end == len("example.com:65535")
    text = "http://example.com:000080/x"  # WHATWG URL reads every digit: port 80
    assert hosts.url_host(text, 0).end == len("http://example.com:000080")
    text = "example.com:abc"  # not a port: prose
    assert hosts.url_host(text, 0).end == len("example.com")
    text = "see example.com: it"
    assert hosts.url_host(text, 4).end == len("see example.com")


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com:100000/x",
        "https://example.com:65536",
        "example.com:99999 b",
        "http://example.com.:70000/",
        "http://[::1]:65536/x",
        "http://example.com:" + "9" * 5000,  # longer than int() converts: still just invalid
        "http://example.com:80abc/x",  # digits a letter continues: no port either
        "example.com:8080_x",
    ],
)
def test_a_port_above_65535_is_an_invalid_url(text):
    """WHATWG URL, port state: a port above 65535 is a failure, so there is no URL at all (issue 21, item 6)."""
    assert hosts.url_host(text, text.index("example") if "example" in text else 0) is None
    assert hosts.port_end(text, text.rindex(":")) is None


def test_userinfo_and_at_sign():
    assert hosts.url_host("http://john.smith@example.com", 0) is None
    assert hosts.url_host("http://u:p@example.com/x", 0) is None
    text = "john.smith@example.com"
    assert hosts.url_host(text, text.index("example")) is None  # domain right after '@'
    assert hosts.url_host(text, 0) is None  # a local part, not a host
    assert hosts.has_userinfo_before("http://john.smith@example.com", 17)
    assert not hosts.has_userinfo_before("http://x.com/a@example.com", 14)


def test_email_domain_end():
    text = "x@example.com. y"
    assert hosts.email_domain_end(text, 1) == (13, "example.com")
    assert hosts.email_domain_end("x@example.😎", 1) is None
    assert hosts.email_domain_end("x@", 1) is None
    assert hosts.email_domain_end("x@.com", 1) is None


def test_host_run_and_char():
    assert hosts.is_host_char("a") and hosts.is_host_char("Ö") and hosts.is_host_char("。")
    assert hosts.is_host_char("\u0f0b")  # Tibetan tsheg: PVALID
    for ch in " /?#@:_()[]<>\"'、，「」\u0f0d":
        assert not hosts.is_host_char(ch), ch
    assert hosts.host_run_end("ab.cd/ef", 0) == 5
    assert hosts.normalize_separators("a。b．c｡d") == "a.b.c.d"


def test_emoji_and_symbols_end_a_host():
    assert hosts.host_run_end("example.com😎/x", 0) == len("example.com")
    assert hosts.host_run_end("𠀀𠀁.com x", 0) == len("𠀀𠀁.com")  # CJK extension B is host text


def test_separator_tld_hits():
    text = "Lorem 普遍适用测试。我爱你 x。com。 y．我爱你。qqq z｡com/x 文。文。文"
    hits = hosts.separator_tld_hits(text)
    assert [text[i : i + 3] for i in hits] == ["我爱你", "com", "com"]


def test_backends_build_offline(monkeypatch, tmp_path):
    """Fresh backends load no remote list, open no socket and write no cache file."""
    import socket
    import urllib.request

    def refuse(*args, **kwargs):
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from uts58_adapt.backends.linkify_it import LinkifyItBackend
    from uts58_adapt.backends.urlextract import UrlExtractBackend

    for cls in (LinkifyItBackend, UrlExtractBackend):
        backend = cls()
        assert backend.find("see foo.accountants and foo.香港/x") != []
    ue = UrlExtractBackend()
    assert ue.candidates("deΩ.uk") != []
    assert list(tmp_path.iterdir()) == []


def test_runs_too_long_for_a_domain():
    text = "a." * 200 + "com x"
    assert hosts.url_host(text, 0) is None
    assert hosts.url_host(text, len(text) - 5) is None  # a start repair would stop mid-run
    assert hosts.email_domain_end("x@" + "a." * 200 + "com", 1) is None
    ok = "a." * 100 + "com"
    assert hosts.url_host(ok, 0).end == len(ok)


# refine_links skips url_host for a backend email span whose host characters run from its
# start up to an "@" (migration.refine_links); url_host must reject every such start.
_HOSTISH = ["a", "b.c", ".", "。", "@", "-", "ö", "x.com", "co.uk", ":", "//", "http://", "+", " ", "/", "1.2.3.4"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_HOSTISH), min_size=1, max_size=16), st.data())
def test_url_host_rejects_a_start_whose_host_run_reaches_an_at(pieces, data):
    text = "".join(pieces)
    start = data.draw(st.integers(0, len(text) - 1))
    if text.startswith("@", hosts.host_run_end(text, start)):
        assert hosts.url_host(text, start) is None


# Host characters and not, ASCII, BMP and astral (𝔞 maps to "a"; 𐩐 and 😀 are not host characters).
_RUN_PIECES = ["a", "Z", "9", "-", ".", "。", "ö", "普", "𝔞", "𐩐", "😀", "@", " ", "/", "_", "\ud800"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_RUN_PIECES), min_size=1, max_size=40), st.data())
def test_host_run_start_steps_back_as_is_host_char(pieces, data):
    """host_run_start (one regex on the reversed text) stops where stepping back one
    character at a time with is_host_char stops, never below its floor."""
    text = "".join(pieces)
    pos = data.draw(st.integers(0, len(text)))
    floor = data.draw(st.integers(0, pos))
    expected = pos
    while expected > floor and hosts.is_host_char(text[expected - 1]):
        expected -= 1
    assert hosts.host_run_start(text, pos, floor) == expected


# --- strict_hosts=False, scheme checks, exact astral host characters (issue 9, issue 13.1) ---


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("example.onion", "example.onion"),  # a TLD outside the PSL: the backend decides
        ("✪df.ws", "✪df.ws"),  # UTS #46 valid, IDNA2008 disallowed: browsers open it
        ("xn--df-oiy.ws", "✪df.ws"),
        ("a---b.com", "a---b.com"),  # WHATWG URL does not check hyphens
        ("EXAMPLE.com", "example.com"),
        ("999", "0.0.3.231"),  # WHATWG URL's IPv4 parser
        ("0x7f.1", "127.0.0.1"),
        ("192.168.1.1", "192.168.1.1"),
        ("test.123", None),  # ends in a number, no IPv4 address
        ("256.1.1.1", None),
        ("foo..example.com", None),
        ("-foo.example.com", None),
        ("foo.example-.com", None),
        ("xn--a.com", None),  # an A-label that does not decode to a valid label
        ("localhost", None),  # one label: only with single_label (after a scheme)
    ],
)
def test_lenient_domain(host, expected):
    assert hosts.lenient_domain(host) == expected


def test_lenient_domain_single_label():
    assert hosts.lenient_domain("localhost", True) == "localhost"
    assert hosts.lenient_domain("Intranet", True) == "intranet"


@pytest.mark.parametrize(
    ("ch", "expected"),
    [
        ("𐩐", False),  # U+10A50 KHAROSHTHI PUNCTUATION DOT
        ("𑁍", False),  # U+1104D BRAHMI PUNCTUATION LOTUS
        ("😀", False),
        ("𝔞", True),  # maps to "a"
        ("𐨀", True),  # U+10A00 KHAROSHTHI LETTER A
        ("𠀀", True),  # CJK Extension B
        ("\U000e0100", False),  # a variation selector (UTS #46 ignored)
    ],
)
def test_astral_host_chars_are_exact(ch, expected):
    assert hosts.is_host_char(ch) is expected
    assert hosts.host_run_end(f"a{ch}b.com", 0) == (7 if expected else 1)


def test_url_host_scheme_check():
    text = "javascript://l·lexample.com/x"
    assert hosts.url_host(text, 15) is None  # linkify-it starts after the "·"
    calls = []

    def ok(scheme, host, reported):
        calls.append((scheme, host, reported))
        return True

    hm = hosts.url_host(text, 15, len(text), scheme_ok=ok)
    assert hm is not None and hm.start == 0 and hm.scheme == "javascript://"
    assert calls == [("javascript:", "l·lexample.com", False)]
    calls.clear()
    assert hosts.url_host("http://example.com/x", 0, 20, scheme_ok=ok) is not None
    assert calls == [("http:", "example.com", True)]


def test_url_host_strict_and_lenient():
    text = "http://localhost:8000/x"
    assert hosts.url_host(text, 0, len(text)) is None
    hm = hosts.url_host(text, 0, len(text), strict=False)
    assert hm is not None and (hm.host, hm.end) == ("localhost", 21)


def test_url_host_moves_a_start_forward_within_the_span():
    text = "*eo.wikipedia.org/wiki*"
    hm = hosts.url_host(text, 0, len(text))
    assert hm is not None and (hm.start, hm.host_end) == (1, 17)
    assert hosts.url_host("** x", 0, 2) is None


@pytest.mark.parametrize(
    ("text", "start", "link_start"),
    [("a·b.com", 2, 2), ("l·l.cat", 2, 0), ("a͵b.com", 2, 2), ("α͵β.com", 2, 0)],
)
def test_contexto_characters_end_a_host_where_their_rule_fails(text, start, link_start):
    hm = hosts.url_host(text, start)
    assert hm is not None and hm.start == link_start


@pytest.mark.parametrize("strict", [True, False])
def test_bracketed_ipv6_after_a_scheme(strict: bool) -> None:
    """WHATWG URL accepts ``scheme://[IPv6]`` (as an IPv4 address, only after a scheme);
    the href has the address compressed and in lower case, and a port follows as usual."""
    url_host = hosts.url_host
    hm = url_host("http://[2001:DB8:0::2]:8080/x", 0, strict=strict)
    assert hm is not None
    assert (hm.start, hm.host_start, hm.host_end, hm.end) == (0, 7, 22, 27)
    assert (hm.scheme, hm.host) == ("http://", "[2001:db8::2]")
    assert url_host("http://[::1]/a", 0, strict=strict) == hosts.HostMatch(0, 7, 12, 12, "http://", "[::1]")
    assert url_host("http://[zz::1]/x", 0, strict=strict) is None  # not an IPv6 address
    assert url_host("http://[2001:db8::2/x", 0, strict=strict) is None  # no closing bracket
    assert url_host("http://[2001:db8::2]:99999/x", 0, strict=strict) is None  # port > 65535: an invalid URL
    assert url_host("http://[2001:db8::2]:8080/x", 0, strict=strict).end == 25  # type: ignore[union-attr]


def test_ascii_host_chars_are_the_host_class() -> None:
    """The ASCII set that is_host_char and host_run_start test first takes exactly what the
    host character class takes below U+0080, in both of its compiled forms."""
    ascii_form = hosts._HOST_CHAR.get("a")
    full_form = hosts._HOST_CHAR.get("é")
    for cp in range(0x80):
        ch = chr(cp)
        expected = ascii_form.match(ch) is not None
        assert (full_form.match(ch) is not None) is expected, hex(cp)
        assert (ch in hosts.ASCII_HOST_CHARS) is expected, hex(cp)
        assert hosts.is_host_char(ch) is expected, hex(cp)


_BAD_PORT = "go https://example.com:100000/x now, ok http://example.com:8080/y"
_GOOD_PORT = "http://example.com:8080/y"


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract", "bleach", "django", "jinja2", "mistune", "magiclink"])
@pytest.mark.parametrize("strict", [True, False])
def test_a_port_above_65535_gives_no_link_with_any_backend(backend: str, strict: bool) -> None:
    """Issue 21, item 6: urlextract, bleach and Django linked a shorter URL (``https://example.com``)."""
    from uts58_adapt import detect

    assert [link.text for link in detect(_BAD_PORT, backend, strict_hosts=strict)] == [_GOOD_PORT]
    # ":80abc" is no port: urlextract alone links nothing there, bleach http://example.com, Django the
    # whole run; the refinement linked http://example.com:80, a URL that is not in the text.
    text = "see http://example.com:80abc/x and example.com:8080abc, ok"
    assert [link.text for link in detect(text, backend, strict_hosts=strict)] == []


def test_a_port_above_65535_gives_no_link_in_the_integrations() -> None:
    """The integrations share the host stage (refine_links → url_host): no shorter link there either."""
    import uts58_adapt

    urlextract = pytest.importorskip("urlextract")
    assert uts58_adapt.wrap(urlextract.URLExtract()).find_urls(_BAD_PORT) == [_GOOD_PORT]
    linkifier = pytest.importorskip("bleach.linkifier")
    out = uts58_adapt.wrap(linkifier.Linker()).linkify(_BAD_PORT)
    assert out.count("<a ") == 1 and 'href="https://example.com"' not in out
    mistune = pytest.importorskip("mistune")
    from uts58_adapt.integrations.mistune import url_plugin

    out = mistune.create_markdown(plugins=[url_plugin()])(_BAD_PORT)
    assert isinstance(out, str) and out.count("<a ") == 1 and 'href="https://example.com"' not in out
    markdown = pytest.importorskip("markdown")
    out = markdown.markdown(_BAD_PORT, extensions=["uts58_adapt.integrations.magiclink"])
    assert out.count("<a ") == 1 and 'href="https://example.com"' not in out


def test_a_port_above_65535_gives_no_link_in_the_urlize_integrations() -> None:
    """Django's and Jinja2's upgraded urlize share the same path: no link to the bare host."""
    pytest.importorskip("django")
    from uts58_adapt.integrations.django import urlize

    out = urlize(_BAD_PORT)
    assert out.count("<a ") == 1 and 'href="https://example.com"' not in out
    jinja2 = pytest.importorskip("jinja2")
    from uts58_adapt.integrations.jinja2 import install

    env = jinja2.Environment(autoescape=True)
    install(env)
    out = env.from_string("{{ x|urlize }}").render(x=_BAD_PORT)
    assert out.count("<a ") == 1 and 'href="https://example.com"' not in out


def test_the_rtl_blocks_hold_every_right_to_left_code_point() -> None:
    """labels.RTL_BLOCKS is the first test of CheckBidi for a whole domain: no R, AL or AN
    code point of the unicodedata idna's check_bidi reads may be outside it."""
    import unicodedata

    from uts58_adapt.refine.labels import RTL_BLOCKS

    outside = [
        f"U+{cp:04X}"
        for cp in range(0x110000)
        if unicodedata.bidirectional(chr(cp)) in ("R", "AL", "AN") and not RTL_BLOCKS.match(chr(cp))
    ]
    assert not outside
    assert hosts.domain_unicode("0à.\u05d0.com") is None  # B1 in a Bidi domain name


def test_userinfo_with_astral_characters() -> None:
    """The userinfo scan's class takes astral code points coarsely; FLAGS sorts them out exactly."""
    assert hosts.url_host("http://\U00020000@example.com/x", 0) is None  # CJK Ext. B: Include, a userinfo
    assert hosts.url_host("http://\U0001f600x@example.com/x", 0) is None  # an emoji: Include too
    assert not hosts.has_userinfo_after("http://a\U0001fffe@b.com", 7)  # a noncharacter is Hard: no userinfo
    assert not hosts.has_userinfo_after("http://example.com\U000e0001@b.com", 7)  # a tag character is Hard
    assert hosts.has_userinfo_before("http://\U00020000x@example.com", 9)
    assert hosts.url_host("https://bücher.de\U0001f600/x", 0).host == "bücher.de"  # type: ignore[union-attr]


# --- The shortcuts of strict_label and _tld_ok against the plain idna path (issue 36) --------------


def _plain_tld_ok(label: str) -> bool:
    """_tld_ok as it was written before its set of valid TLDs: the rules, then the PSL."""
    if any(ch.isdigit() or ch == "-" for ch in label):
        return False
    if label.isascii() and len(label) < 2:
        return False
    return label in icann_suffixes().tlds


def _both_ways(host: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """domain_unicode(host) and strict_domain(host), with the shortcuts and the plain way
    (idna's alabel and ulabel on every label, the TLD rules character by character, the
    ASCII form encoded to measure it)."""
    from uts58_adapt.refine import domains, labels

    fast = [(domains.domain_unicode.__wrapped__(host, allow_ip), domains.strict_domain(host)) for allow_ip in (0, 1)]
    with monkeypatch.context() as m:
        m.setattr(domains, "strict_label", labels.plain_strict_label)
        m.setattr(domains, "_tld_ok", _plain_tld_ok)
        m.setattr(domains, "_ascii_length", lambda labels: len(domains.ascii_form(labels)))
        plain = [
            (domains.domain_unicode.__wrapped__(host, allow_ip), domains.strict_domain(host)) for allow_ip in (0, 1)
        ]
    return fast, plain


def _labels_of(text: str) -> set[str]:
    return {text} | set(text.translate(hosts.SEP_TABLE).split("."))


def test_strict_label_shortcuts_give_the_plain_answer_on_idnatestv2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every label of every IdnaTestV2.txt line (source, toUnicode and toASCII columns), and
    each whole line as a host: strict_label, domain_unicode and strict_domain answer as the
    plain idna path does (whatever idna is installed: .ci/run runs this with the oldest too)."""
    from test_idna_conformance import cases

    from uts58_adapt.refine.labels import plain_strict_label, strict_label

    differ = []
    seen: set[str] = set()
    for case in cases():
        for text in (case.source, case.to_unicode, case.to_ascii):
            for label in _labels_of(text) - seen:
                seen.add(label)
                if strict_label.__wrapped__(label) != plain_strict_label(label):
                    differ.append(f"line {case.line}: label {label!r}")
        fast, plain = _both_ways(case.source, monkeypatch)
        if fast != plain:
            differ.append(f"line {case.line}: host {case.source!r}: {fast} != {plain}")
        fast, plain = _both_ways(case.to_unicode + ".com", monkeypatch)
        if fast != plain:
            differ.append(f"line {case.line}: host {case.to_unicode + '.com'!r}: {fast} != {plain}")
    assert len(seen) > 5000
    assert not differ, "\n".join(differ[:50])


def test_tld_ok_is_the_rules_then_the_psl() -> None:
    from uts58_adapt.refine.domains import _tld_ok

    tlds = icann_suffixes().tlds
    probes = set(tlds) | {t.upper() for t in tlds} | {"a", "x", "1com", "co-m", "com1", "xn--p1ai", "рф", "٣com", "c²"}
    assert all(_tld_ok(t) == _plain_tld_ok(t) for t in probes)
    assert _tld_ok("com") and _tld_ok("рф") and not _tld_ok("xn--p1ai") and not _tld_ok("COM")


# Label pieces: plain LDH, upper case, the A-label prefix in both cases, hyphens in the 3rd and
# 4th positions, characters UTS #46 maps (fullwidth, ß, ⒈ maps to "1."), non-ASCII letters of
# several scripts, right-to-left and European digits together, joiners, combining marks,
# CONTEXTO characters, disallowed ones, and astral letters far apart (long Punycode deltas).
_LABEL_PIECES = [
    "a", "Z", "9", "-", "--", "xn--", "XN--", "ab", "ｘｎ－－", "Ａ", "ß", "⒈", "ö", "Ö", "é", "e\u0301",
    "\u0301", "普", "遍", "ア", "한", "ש", "\u05d0", "ب", "\u0663", "0", "\u200c", "\u200d", "\u094d", "क",
    "l·l", "\u00b7", "\u0375", "α", "\u30fb", "_", "!", "\U00020000", "\U0002a6d6", "\U00010400", "\U0001e900",
    "ͺ", "ς", "\u0640", "\u07fa", "\ufb1d",
]  # fmt: skip


@settings(max_examples=4000, deadline=None)
@given(st.lists(st.sampled_from(_LABEL_PIECES), min_size=1, max_size=14))
def test_strict_label_shortcuts_give_the_plain_answer_on_generated_labels(pieces: list[str]) -> None:
    from uts58_adapt.refine.labels import plain_strict_label, strict_label

    label = "".join(pieces)
    assert strict_label.__wrapped__(label) == plain_strict_label(label)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from([*_LABEL_PIECES, ".", "。", "com", "рф", "香港", "co.uk"]), min_size=1, max_size=12))
def test_domain_shortcuts_give_the_plain_answer_on_generated_hosts(pieces: list[str]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, plain = _both_ways("".join(pieces), monkeypatch)
    assert fast == plain


@pytest.mark.parametrize("length", range(1, 20))
@pytest.mark.parametrize("first", [0x80, 0x4E00, 0xAC00, 0x10000, 0x20000, 0x2A6D6, 0x31349, 0xE0100])
def test_the_short_ulabel_bound_holds_for_far_apart_code_points(length: int, first: int) -> None:
    """strict_label skips Punycode for a mapped label of at most 7 code points: its A-label
    always fits in 63 octets.  Labels of code points far apart, in descending order (the
    largest deltas), with and without ASCII, answer as the plain path does, and the longest
    such label of 7 code points is indeed within 63 octets."""
    from uts58_adapt.refine.labels import _SHORT_ULABEL, plain_strict_label, strict_label

    top = [chr(cp) for cp in (0x2FA1D, 0x3134A, 0x323AF, 0x2EBE0, 0x2B739, 0x20000, 0xE0100, 0x10FFFD)]
    for label in (
        "".join(chr(first + 97 * i) for i in range(length)),
        "".join(chr(first + 97 * i) for i in reversed(range(length))),
        "".join(top[i % len(top)] for i in range(length)),
        "a" + "".join(top[i % len(top)] for i in range(length)),
    ):
        assert strict_label.__wrapped__(label) == plain_strict_label(label), label
    worst = "".join(chr(0x10FFFD - 7919 * i) for i in range(_SHORT_ULABEL))
    assert len(b"xn--" + worst.encode("punycode")) <= 63


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Example", "example"),
        ("a" * 63, "a" * 63),
        ("a" * 64, None),
        ("-a", None),
        ("a-", None),
        ("ab--c", None),
        ("a--b", "a--b"),
        ("xn--", None),
        ("XN--BCHER-KVA", "bücher"),
        ("xn--bcher-kva", "bücher"),
        ("ｅｘａｍｐｌｅ", "example"),
        ("bücher", "bücher"),
        ("BÜCHER", "bücher"),
        ("a\u200db", None),
    ],
)
def test_strict_label_examples(label: str, expected: str | None) -> None:
    from uts58_adapt.refine.labels import plain_strict_label, strict_label

    assert strict_label.__wrapped__(label) == expected
    assert plain_strict_label(label) == expected


#: Code points of the three kinds a label's Punycode deltas come from: basic, near, far apart.
_PUNY_CHARS = st.one_of(st.integers(0x20, 0x7E), st.integers(0x80, 0x3000), st.integers(0x80, 0x10FFFF)).map(chr)


@settings(max_examples=3000, deadline=None)
@given(st.text(max_size=70) | st.lists(_PUNY_CHARS, max_size=64).map("".join))
def test_punycode_length_is_the_codecs(label: str) -> None:
    from uts58_adapt.refine.labels import punycode_length

    length = len(label.encode("punycode"))
    assert punycode_length(label) == length
    for stop in (0, 5, 20, 59):
        counted = punycode_length(label, stop)
        assert counted == length if length <= stop else counted > stop


def test_punycode_length_is_the_codecs_on_a_seeded_sample() -> None:
    """5,000 labels of 1 to 40 code points, each basic, near or far (every bias adaptation)."""
    import random

    from uts58_adapt.refine.labels import punycode_length

    rng = random.Random(58)
    ranges = [(0x20, 0x7E), (0x80, 0x3000), (0x80, 0x10FFFF)]
    differ = []
    for _ in range(5_000):
        label = "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(rng.randint(1, 40)))
        if punycode_length(label) != len(label.encode("punycode")):
            differ.append(label)
    assert not differ, differ[:5]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.text(st.sampled_from("aZ9-öß普遍ب\U00020000"), min_size=1, max_size=20), min_size=1, max_size=12))
def test_ascii_length_is_the_ascii_forms(labels: list[str]) -> None:
    from uts58_adapt.refine.domains import _ascii_length, ascii_form

    assert _ascii_length(labels) == len(ascii_form(labels))


@settings(max_examples=4000, deadline=None)
@given(st.lists(st.sampled_from([*_LABEL_PIECES, "x", "n", "N", "X"]), min_size=1, max_size=14))
def test_lenient_label_shortcut_gives_the_plain_answer_on_generated_labels(pieces: list[str]) -> None:
    from uts58_adapt.refine.labels import lenient_label, plain_lenient_label

    label = "".join(pieces)
    assert lenient_label(label) == plain_lenient_label(label)


def test_lenient_label_shortcut_gives_the_plain_answer_on_idnatestv2() -> None:
    from test_idna_conformance import cases

    from uts58_adapt.refine.labels import lenient_label, plain_lenient_label

    labels = {
        label
        for case in cases()
        for text in (case.source, case.to_unicode, case.to_ascii)
        for label in _labels_of(text)
    }
    labels |= {"a" * 64, "a--b", "xn--", "XN--bcher-kva", "Xn--bcher-kva", "-a", "a-", "a_b", "A"}
    differ = [label for label in labels if lenient_label(label) != plain_lenient_label(label)]
    assert not differ, differ[:20]


def test_a_separator_with_no_host_character_next_to_it_is_kept() -> None:
    """A ``。 ． ｡`` with no host character on either side belongs to no domain: the backend reads
    it as written (urlextract reads ``./l.io/`` otherwise than ``｡/l.io/``; fuzz seed 26, issue 32).
    One after a domain is its ``.`` (``例子.中国。``: Jinja2 trims a final ``.``, never a ``。``)."""
    from uts58_adapt.refine.hosts import normalize_separators

    assert normalize_separators("\uff61/l.io/x") == "\uff61/l.io/x"
    assert normalize_separators(" \u3002 x/\uff0e/") == " \u3002 x/\uff0e/"
    assert normalize_separators("\u4f8b\u3048\u3002jp/\u30d1\u3002 x") == "\u4f8b\u3048.jp/\u30d1. x"
    assert normalize_separators("a\u3002\u3002b\uff0e") == "a..b."
    assert normalize_separators("\u4f8b\u5b50.\u4e2d\u56fd\u3002") == "\u4f8b\u5b50.\u4e2d\u56fd."


def test_urlextract_starts_no_link_inside_its_span_after_a_lone_separator() -> None:
    pytest.importorskip("urlextract")
    from urlextract import URLExtract

    from uts58_adapt import wrap

    text = "\uff61/l.io/[l\u00b7l.co"
    assert URLExtract().find_urls(text, get_indices=True) == [("l.io/[l\u00b7l.co", (2, 14))]
    assert all(start == 2 for _, (start, _) in wrap(URLExtract()).find_urls(text, get_indices=True))
