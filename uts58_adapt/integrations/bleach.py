"""``uts58_adapt.wrap(bleach.linkifier.Linker(...))``: bleach's linkify with UTS #58 links.

The wrapped Linker is an instance of a ``Linker`` subclass sharing the original's
attributes (callbacks, ``skip_tags``, ``parse_email``, ``url_re``, ``email_re`` and the
parser built from ``recognized_tags``): a change to either is seen by both.  Its
``linkify`` runs bleach's own pipeline with one filter method replaced: on each text
node, bleach's spans (``backends.bleach.bleach_find``: its regexes and its own
trimming) are refined (§10.1), then every link goes through the callbacks as bleach's do,
with bleach's hrefs (``http://`` added to schemeless links, the local part of a
``mailto:`` percent-quoted).  Emails are linked only with ``parse_email=True`` and when
``email_re`` accepts the address with an ASCII local part.

Fast path: when the filter's ``url_re`` (and ``email_re``, emails on) are of the shapes
bleach's ``build_url_re``/``build_email_re`` build, whatever their TLDs and protocols, the
regexes read only the tokens of a text node that hold an anchor (a ``.`` before one of the
TLDs, ``@``), with the same spans (``backends.bleach.linker_anchors``); a text node without
one is passed on as it is.  Other regexes read the whole node, as bleach does.

bleach decides scheme and host, as in ``wrap()`` of the other libraries: what its
``url_re`` links (its protocols, its TLD list, ``localhost`` after ``http://``) stays
linked and only invalid hosts are dropped; ``wrap(linker, strict_hosts=True)`` adds
§1.4's registrable-domain rule, and ``wrap(linker, reject_risky=True)`` the §8 checks of
``detect()`` (a link with a risk stays text; an ideographic start moves).
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from bleach.linkifier import PROTO_RE, Linker
from bleach.linkifier import LinkifyFilter as _BleachLinkifyFilter

from ..backends.bleach import bleach_find
from ..html import BIDI_CONTROLS
from ..refine.acceptance import HostProbe, ascii_host, overlaps_any
from ..refine.risk_profile import RejectRisky, reject_risky_value
from ._common import after_email_reference, escape_bidi, refine, safe_scheme, with_entity_end

__all__ = ["LinkifyFilter", "UTS58Linker", "UTS58LinkifyFilter", "clear_memo", "wrap_filter", "wrap_linker"]

Token = dict[str, Any]

#: (id(url_re), scheme, probe) -> (url_re, whether it links the probe with that scheme).
_PROBES: dict[tuple[int, str, str], tuple[Any, bool]] = {}
_BIDI = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")
_LABEL_ENDS = re.compile(r"([./])")
#: A character reference that may stand for a Bidi_Control character (the named ones are ``&lrm;`` and ``&rlm;``).
#: Only with its ";": bleach (``html5lib_shim.match_entity``) reads ``&#x202e`` without it as text.
_BIDI_REFERENCE = re.compile(r"&(?:#[xX][0-9a-fA-F]+;|#[0-9]+;|lrm;|rlm;)")
#: A numeric character reference without its ";", then one character that is not a digit of it and ";":
#: bleach keeps ``&#xf\u202a;`` as the reference ``&#xf;`` (``html5lib_shim.match_entity`` reads one
#: character past the digits) and drops that character.
_REFERENCE_CUT = re.compile(
    r"(&#(?:[xX][0-9a-fA-F]+(?=[^0-9a-fA-F<&=;\t\n\f\v\r ];)|[0-9]+(?=[^0-9<&=;\t\n\f\v\r ];)))(.)", re.S
)
#: What bleach never writes in an href (its ``url_re`` stops before them), percent-encoded.
_HREF_ESCAPES = {ord("<"): "%3C", ord(">"): "%3E"}


def _escape_bidi_references(s: str) -> str:
    """``s`` (text as bleach keeps it, character references unread) with each reference to a
    Bidi_Control character (``&#x202e;``) percent-escaped, as a literal one is (UTS #58 §8)."""

    def escape(m: re.Match[str]) -> str:
        char = html.unescape(m.group())
        return escape_bidi(char) if char in BIDI_CONTROLS else m.group()

    return _BIDI_REFERENCE.sub(escape, s)


def _end_references(shown: str, after: str) -> str:
    """``shown`` (a link's text, references unread) as bleach writes it: a numeric reference
    whose ``;`` comes one character later ends there, that character dropped (``after``: the
    character after the link)."""
    tail = ";" if after == ";" else ""
    ended = _REFERENCE_CUT.sub(r"\1;", shown + tail)
    return ended[: len(ended) - len(tail)]


def _unicode_labels(url: str) -> str:
    """``url`` with its ``xn--`` labels decoded: the probe's host as bleach may see it in text.

    A probe's host comes with its non-ASCII labels as ``xn--`` labels; bleach's ``url_re``
    matches hosts as written, with the TLDs of its list (``рф`` is not ``xn--p1ai``), so a
    scheme is linked when bleach links it before either form of the host.
    """
    out = []
    for part in _LABEL_ENDS.split(url):
        if part[:4].lower() == "xn--":
            with contextlib.suppress(UnicodeError, ValueError):  # not Punycode: kept as it is
                part = part[4:].encode("ascii").decode("punycode")
        out.append(part)
    return "".join(out)


#: What a span of ``url_re`` may hold before the host it links: a scheme, userinfo.
_BEFORE_HOST = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.\-]*:/{0,3})?(?:[^\s/?#@]*@)?")


def clear_memo() -> None:
    """Forget the filters' answers to scheme probes kept across calls (a benchmark round that must not reuse them)."""
    _PROBES.clear()


class UTS58LinkifyFilter(_BleachLinkifyFilter):  # type: ignore[misc]
    """bleach's LinkifyFilter whose URLs and emails are refined to UTS #58.

    Also a filter for ``bleach.sanitizer.Cleaner``, as bleach's own is:
    ``Cleaner(filters=[partial(LinkifyFilter, skip_tags=["pre"])])`` with this module's
    ``LinkifyFilter`` (or ``uts58_adapt.wrap(bleach.linkifier.LinkifyFilter)``); it takes
    bleach's arguments (``callbacks``, ``skip_tags``, ``parse_email``, ``url_re``,
    ``email_re``).  ``wrap(LinkifyFilter, strict_hosts=True)`` is the class with §1.4's
    registrable-domain rule, ``wrap(LinkifyFilter, reject_risky=True)`` the one with §8's checks.
    """

    def __init__(self, source: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(source, *args, **kwargs)
        self.source = self._tracked(self.source)  # type: ignore[has-type]

    def _tracked(self, source: Any) -> Iterator[Token]:
        """``source``, each token's previous one kept in ``_before`` while it is handled: bleach gives
        ``handle_links`` one text token at a time, and a character reference before it is a token of
        its own (``Entity``), which the local part of an email may go on into (``&#xc1;ς@e.om``)."""
        previous: Token | None = None
        for token in source:
            self._before = previous
            previous = token
            yield token

    #: The token before the one being handled (see ``_tracked``).
    _before: Token | None = None

    def handle_email_addresses(self, src_iter: Iterator[Token]) -> Iterator[Token]:
        return src_iter  # emails are handled with the URLs, in handle_links

    #: Set by ``UTS58Linker.linkify``: §1.4's registrable-domain rule on hosts.
    strict_hosts = False
    #: Set by ``UTS58Linker.linkify``: §8's checks (``reject_risky``: True or ``"browser"``).
    reject_risky: RejectRisky = False
    #: ``_accepts_host``'s last word, the ``url_re`` it was searched with, and its spans.
    _host_word: tuple[str, Any, list[tuple[int, int]]] | None = None

    def _accepts_email(self, probe: str) -> bool:
        m = self.email_re.search(probe)
        return m is not None and m.group(0) == probe

    def _accepts_host(self, word: str, start: int, end: int) -> bool:
        """Whether ``url_re`` (its TLDs, its configuration) links, in ``word``, a span over the host
        ``word[start:end]`` (``refine.acceptance.HostCheck``); the spans of the last word are kept
        (several hosts in one word: it is searched once).

        The span must read the domain as its host: it starts there, or a scheme and userinfo
        before it.  A span whose path holds the domain (``hTtP:t@e.om/ｅ.ｏｍ``) does not link it.
        """
        kept = self._host_word
        if kept is None or kept[0] != word or kept[1] is not self.url_re:
            kept = self._host_word = (word, self.url_re, [m.span() for m in self.url_re.finditer(word)])
        return overlaps_any(
            [(s, e) for s, e in kept[2] if s >= start or _BEFORE_HOST.fullmatch(word, s, start)], start, end
        )

    def _accepts_scheme(self, scheme: str, host: str) -> bool:
        """Whether ``url_re`` links ``scheme//host/`` with that scheme (``HostProbe``'s answer:
        the probe is written only when the answer is not known yet)."""
        # ``match``: what ``search`` gives when its match starts at 0.  Answers are kept per url_re.
        url_re = self.url_re
        key = (id(url_re), scheme, host)
        known = _PROBES.get(key)
        if known is not None and known[0] is url_re:
            return known[1]
        # Either form of the host, as in text (_unicode_labels): the Unicode one first, which
        # needs no Punycode; the ASCII one only when it differs and the first is not linked.
        probe = f"{scheme}//{host}/"
        unicode_form = _unicode_labels(probe) if "xn--" in host else probe
        m = url_re.match(unicode_form)
        ok = m is not None and m.group(0).lower().startswith(scheme)
        if not ok and (unicode_form != probe or not host.isascii()):
            ascii_form = f"{scheme}//{ascii_host(host)}/"
            m = url_re.match(ascii_form)
            ok = m is not None and m.group(0).lower().startswith(scheme)
        if len(_PROBES) >= 4096:
            _PROBES.clear()
        _PROBES[key] = (url_re, ok)
        return ok

    def handle_links(self, src_iter: Iterator[Token]) -> Iterator[Token]:
        parse_email = self.parse_email
        accepts_email = self._accepts_email if parse_email else None
        for token in src_iter:
            if token["type"] != "Characters":
                yield token
                continue
            text = token["data"]
            entity = self._before if self._before is not None and self._before.get("type") == "Entity" else None
            before = f"&{entity.get('name', '')};" if entity is not None else ""
            raw = bleach_find(self, text, parse_email)
            if not raw and "@" not in text and text.isascii():
                yield token  # no span, no email, no "。" domain: nothing for the refinement
                continue
            links = refine(
                text,
                raw,
                accepts_email,
                strict_hosts=self.strict_hosts,
                scheme_probe=HostProbe(self._accepts_scheme),
                reject_risky=self.reject_risky,
                accepts_host=self._accepts_host,
                hard_references=True,
            )
            if (
                before
                and links
                and links[0].kind == "email"
                and links[0].start == 0
                and after_email_reference(before + text, len(before))
            ):
                links = links[1:]  # an email whose local part goes on into the reference before it (&#xc1;ς@e.om)
            if not links:
                yield token
                continue
            out: list[Token] = []
            pos = 0
            for link in links:
                if "&" in link.text:
                    # bleach keeps character references as they are in text nodes: "&amp;" is one character.
                    link = with_entity_end(text, link)
                if link.start > pos:
                    out.append({"type": "Characters", "data": text[pos : link.start]})
                self._anchor(out, link.text, link.kind == "email", text[link.end : link.end + 1])
                pos = link.end
            if pos < len(text):
                out.append({"type": "Characters", "data": text[pos:]})
            yield from out

    def _anchor(self, out: list[Token], shown: str, email: bool, after: str = "") -> None:
        """Append to ``out`` the tokens of the link ``shown``: bleach's href and callbacks.

        ``after``: the character of the text node that follows the link, if any.
        """
        if "&#" in shown:
            # "&#xf\u202a;": bleach keeps the reference "&#xf;" and drops U+202A; so does the link.
            shown = _end_references(shown, after)
        if email and shown[:7].lower() != "mailto:":
            local, _, domain = shown.rpartition("@")
            href = f"mailto:{quote(local)}@{domain}"  # a mailto: or http:// href is safe (safe_scheme)
        elif PROTO_RE.search(shown):
            href = shown
            if not safe_scheme(href):
                out.append({"type": "Characters", "data": shown})
                return
        else:
            href = f"http://{shown}"
        if "<" in href or ">" in href:
            # UTS #58 keeps "<1" in ``x.com/<1`` (text to bleach's tokenizer): not written raw in the attribute.
            href = href.translate(_HREF_ESCAPES)
        if not shown.isascii():  # (href is ASCII too: shown with an ASCII prefix, or a quoted local part)
            if _BIDI.search(href) is not None:
                href = escape_bidi(href)
            if _BIDI.search(shown) is not None:
                shown = escape_bidi(shown)
        if "&" in shown:  # a character reference bleach keeps as it is: "&#x202e;" is a Bidi_Control too
            href = _escape_bidi_references(href)
            shown = _escape_bidi_references(shown)
        attrs = self.apply_callbacks({(None, "href"): href, "_text": shown}, True)
        if attrs is None:
            out.append({"type": "Characters", "data": shown})
            return
        text = attrs.pop("_text", "")
        out += (
            {"type": "StartTag", "name": "a", "data": attrs},
            {"type": "Characters", "data": str(text)},
            {"type": "EndTag", "name": "a"},
        )


#: The upgraded filter under bleach's name: ``Cleaner(filters=[uts58_adapt.integrations.bleach.LinkifyFilter])``.
LinkifyFilter = UTS58LinkifyFilter


_FILTERS: dict[tuple[type[Any], bool, RejectRisky], type[UTS58LinkifyFilter]] = {}
_CONFIGURED: dict[tuple[type[Any], bool, RejectRisky], type[Any]] = {}


def _configured(base: type[Any], names: tuple[str, str], strict_hosts: bool, reject_risky: RejectRisky) -> type[Any]:
    """``base`` itself when both options are off, else its subclass with them set as class attributes."""
    if not strict_hosts and not reject_risky:
        return base
    key = (base, strict_hosts, reject_risky)
    made = _CONFIGURED.get(key)
    if made is None:
        safe = "BrowserSafe" if reject_risky == "browser" else "Safe" if reject_risky else ""
        name = f"{'Strict' if strict_hosts else ''}{safe}{base.__name__}"
        attrs = {names[0]: strict_hosts, names[1]: reject_risky, "__module__": __name__, "__qualname__": name}
        made = _CONFIGURED.setdefault(key, type(name, (base,), attrs))
    return made


def wrap_filter(
    cls: type[Any], strict_hosts: bool = False, reject_risky: RejectRisky = False
) -> type[UTS58LinkifyFilter]:
    """The upgraded filter class for bleach's ``LinkifyFilter`` class ``cls`` (or a subclass of it).

    For bleach's own class: :class:`UTS58LinkifyFilter` (or, with ``strict_hosts`` or
    ``reject_risky``, its subclass with them on); for a subclass of the user's, a class
    deriving from both, so its overrides still apply where this module does not replace
    them.  An upgraded class is returned as it is when both options match.
    """
    strict_hosts, reject_risky = bool(strict_hosts), reject_risky_value(reject_risky)
    if issubclass(cls, UTS58LinkifyFilter) and (cls.strict_hosts, cls.reject_risky) == (strict_hosts, reject_risky):
        return cls
    base: type[UTS58LinkifyFilter] = _configured(
        UTS58LinkifyFilter, ("strict_hosts", "reject_risky"), strict_hosts, reject_risky
    )
    if cls is _BleachLinkifyFilter or issubclass(cls, UTS58LinkifyFilter):
        return base
    key = (cls, strict_hosts, reject_risky)
    made = _FILTERS.get(key)
    if made is None:
        name = f"UTS58{cls.__name__}"
        made = _FILTERS.setdefault(key, type(name, (base, cls), {"__module__": __name__, "__qualname__": name}))
    return made


class UTS58Linker(Linker):  # type: ignore[misc]
    """A bleach ``Linker`` whose ``linkify`` gives UTS #58 links (see the module docstring)."""

    # Class attributes (``_configured``): the attribute dict is the wrapped Linker's.
    _strict_hosts = False
    _reject_risky: RejectRisky = False

    @property
    def strict_hosts(self) -> bool:
        """Whether hosts must be registrable domains (§1.4); see ``wrap_linker``."""
        return self._strict_hosts

    @property
    def reject_risky(self) -> RejectRisky:
        """Whether a link with a §8 risk stays text (``detect(reject_risky=True)``, or ``"browser"``); see ``wrap_linker``."""
        return self._reject_risky

    def linkify(self, text: str) -> str:
        """Linkify ``text`` (an HTML fragment) as bleach does, with refined links."""
        if not isinstance(text, str):
            raise TypeError("argument must be of text type")
        if not text:
            return ""
        dom = self.parser.parseFragment(text)
        filtered = UTS58LinkifyFilter(
            source=self.walker(dom),
            callbacks=self.callbacks,
            skip_tags=self.skip_tags,
            parse_email=self.parse_email,
            url_re=self.url_re,
            email_re=self.email_re,
        )
        filtered.strict_hosts = self._strict_hosts
        filtered.reject_risky = self._reject_risky
        return str(self.serializer.render(filtered))


def wrap_linker(linker: Linker, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> UTS58Linker:
    """Return a ``UTS58Linker`` that shares ``linker``'s configuration (its attribute dict).

    ``strict_hosts=True`` adds §1.4's registrable-domain rule to bleach's own host rules;
    ``reject_risky=True`` leaves a link with a §8 risk as text (``detect(reject_risky=True)``).
    Wrapping a ``UTS58Linker`` returns it unchanged (or, with other options, a new one
    sharing the same configuration).
    """
    strict_hosts, reject_risky = bool(strict_hosts), reject_risky_value(reject_risky)
    if isinstance(linker, UTS58Linker) and (linker.strict_hosts, linker.reject_risky) == (strict_hosts, reject_risky):
        return linker
    cls: type[UTS58Linker] = _configured(UTS58Linker, ("_strict_hosts", "_reject_risky"), strict_hosts, reject_risky)
    upgraded: UTS58Linker = cls.__new__(cls)
    upgraded.__dict__ = linker.__dict__  # one configuration: changes to either apply to both
    return upgraded
