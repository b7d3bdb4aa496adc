"""pymdownx.magiclink with UTS #58 links.

Use: ``markdown.markdown(text, extensions=["uts58_adapt.integrations.magiclink"])``.

The extension is magiclink's own (it takes the same options, ``extension_configs``
included) with its bare-link and email patterns upgraded:

- URLs: magiclink's ``handleMatch`` finds the span and builds the element (its href
  rules, ``hide_protocol``, the repository shortener); the span is then refined
  (``integrations._common.refined_span``) and the element's text and href follow it.
  Python-Markdown searches the pattern (``RE_LINK``) only from its anchors, ``://`` and
  ``www.`` (``backends.magiclink.link_matches``): the same matches, from less text.
- Emails: found from each ``@`` by the refinement (§5.2), so non-ASCII local parts link
  too; an address is kept when magiclink's own email pattern accepts it with the local
  part ``a``, and magiclink's ``handleMatch`` builds the (entity-encoded) element.

magiclink decides scheme and host (what it links stays linked, ``http://localhost:8000/``
included) and only invalid hosts are dropped; the extension's own option
``strict_hosts=True`` adds §1.4's registrable-domain rule, as ``detect()`` applies it, and
``reject_risky=True`` its §8 checks (a link or email with a risk stays text).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

from markdown import Markdown
from markdown.util import ETX, STX, AtomicString
from pymdownx.magiclink import RE_LINK, RE_MAIL, MagiclinkExtension, MagiclinkMailPattern, MagiclinkPattern

from ..backends.magiclink import link_matches
from ..html import BIDI_CONTROLS
from ..refine.acceptance import ascii_local, email_word_probe
from ..refine.email import MAILTO
from ..refine.hosts import SEPARATORS
from ..refine.migration import refine_links
from ..refine.risk_profile import reject_risky_value
from ._common import WINDOW, completes_reference, escape_bidi, escape_bidi_references, refined_span, risk_filter

__all__ = ["UTS58MagiclinkExtension", "makeExtension"]

_MAIL_RE = re.compile(RE_MAIL)
_WHOLE = re.compile(r"(?P<mail>.+)", re.DOTALL)
_SPACE = re.compile(r"\s")
#: Where a refined link stops past magiclink's span: where ``RE_LINK_PATH`` stops (white space,
#: ``<``, a stash placeholder), or at a character magiclink leaves out of a link's end that a later
#: inline processor reads: ``* _ ~ ^`` (emphasis, pymdownx's tilde and caret) and the ``&`` of a
#: character reference.
_LINK_STOP = re.compile(r"[\s<\x02\x03*_~^&]")
#: Delimiters of Python-Markdown's emphasis and of pymdownx's tilde, caret and mark that magiclink's
#: email pattern never takes: an email's local part starts after the last one before its "@".
_MAIL_DELIMITERS = re.compile(r".*[*~^=]", re.DOTALL)
#: An ``&`` that Python-Markdown's serializer writes ``&amp;`` (``markdown.serializers.RE_AMP``).
_AMP = re.compile(r"&(?!(?:\#[0-9]+|\#x[0-9a-f]+|[0-9a-z]+);)", re.IGNORECASE)
#: The start of a reference that the serializer keeps as it is once a ``;`` follows (``RE_AMP``'s lookahead).
_KEPT_REFERENCE_END = re.compile(r"&(?:\#[0-9]+|\#x[0-9a-f]+|[0-9a-z]+)\Z", re.IGNORECASE)
#: What an email never ends before: magiclink's ``RE_MAIL`` ends with ``[a-z]\b(?![-@])``.
_MAIL_NOT_BEFORE = re.compile(r"[\w@-]")
_LAST_SPACE = re.compile(r".*\s", re.DOTALL)
#: How far before an "@" a local part is looked for (RFC 5321 allows 64 octets).
_LOCAL_MAX = 256
#: From just after an "@": text up to a label separator, before any white space or other "@".
#: Where it does not match, the domain after that "@" is one label (see ``_one_label_domain``).
_SEPARATOR_AHEAD = re.compile(f"[^@\\s{SEPARATORS}]*[{SEPARATORS}]")
_ASCII_DIGITS = frozenset("0123456789")
#: A character after which a "_" closes no Python-Markdown emphasis (its ``(?!\w)``).
_WORD_START = re.compile(r"\w")


def _own_email(data: str, start: int, at: int) -> re.Match[str] | None:
    """magiclink's own email pattern at ``data[start]``, the local part up to the "@" at ``at`` with
    its non-ASCII characters written ``a``, as magiclink reads the address it links."""
    return _MAIL_RE.match(data[:start] + ascii_local(data[start:at]) + data[at:], start)


def _last_opener(data: str, start: int, at: int) -> int | None:
    """The last ``_`` in ``data[start:at]`` that may open emphasis: at ``start``, or after a
    character that is neither a letter nor a digit (``a_b`` is no emphasis), or None."""
    p = data.rfind("_", start, at)
    while p != -1:
        if p == start or not data[p - 1].isalnum():
            return p
        p = data.rfind("_", start, p)
    return None


class _AnchoredLinkRE:
    """magiclink's compiled ``RE_LINK`` whose ``finditer`` (the one call Python-Markdown makes)
    searches only from the pattern's anchors (:func:`~uts58_adapt.backends.magiclink.link_matches`)."""

    def __init__(self, regex: re.Pattern[str]) -> None:
        self._regex = regex

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match[str]]:
        if endpos is not None:
            return self._regex.finditer(string, pos, endpos)
        return link_matches(self._regex, string, pos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._regex, name)


class RefinedLinkPattern(MagiclinkPattern):  # type: ignore[misc]
    """magiclink's bare-link pattern, its spans refined to UTS #58."""

    def __init__(self, pattern: str, md: Markdown | None = None) -> None:
        super().__init__(pattern, md)
        regex = self.compiled_re
        self._searched = _AnchoredLinkRE(regex) if pattern == RE_LINK else regex

    def getCompiledRegExp(self) -> Any:
        """The pattern Python-Markdown searches: ``RE_LINK`` searched only from its anchors."""
        return self._searched

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[Any, int | None, int | None]:
        el, start, end = super().handleMatch(m, data)
        if el is None or start is None or end is None:
            return el, start, end
        # The refinement's text ends where magiclink's path pattern stops, or at a character it
        # leaves out of the link that a later processor reads (``**`` closing emphasis, ``&amp;``):
        # the link may shorten, but never take markup that magiclink alone leaves to the
        # processors after it (issue 32).
        stop = _LINK_STOP.search(data, end, min(len(data), end + WINDOW))
        window_end = stop.start() if stop else min(len(data), end + WINDOW)
        config = self.config
        link = refined_span(
            data,
            start,
            end,
            "url",
            window_end,
            bool(config["strict_hosts"]),
            reject_risky_value(config["reject_risky"]),
        )
        if link is None:
            # magiclink would link the whole span: it stays plain text (no Markdown inside it
            # comes alive that magiclink alone would have kept in its link, issue 21).
            return _inert(data[start:end]), start, end
        link_start, link_end, text, _href = link
        if link_end < end and (
            completes_reference(data, link_end, text) or (data[link_end] == ";" and _KEPT_REFERENCE_END.search(text))
        ):
            # "…&amp" then ";": the reference stays whole, in the link as in magiclink's (so does
            # "&lta;", which Python-Markdown writes as it is and a browser reads "<a;"; fuzz seed 31)
            link_end, text = link_end + 1, text + ";"
        if link_start != start or link_end != end:
            el.text = AtomicString(text)
            if m.group("www"):
                href = f"http://{text}"
            else:
                href = text
                if config["hide_protocol"]:
                    el.text = AtomicString(text[text.find("://") + 3 :])
            el.set("href", self.unescape(href.strip()))
        href = el.get("href")
        if not href.isascii():  # Bidi_Control characters percent-escaped (§8); none is ASCII
            el.set("href", escape_bidi(href))
        if "&" in href:  # a reference the browser decodes, as written out (it ends with ";")
            el.set("href", escape_bidi_references(el.get("href"), _decoded_as_written))
        text = el.text
        if not text.isascii() and BIDI_CONTROLS.intersection(text):
            text = escape_bidi(text)
        if "&" in text:
            text = escape_bidi_references(text, _decoded_as_written)
        if text != el.text:
            el.text = AtomicString(text)
        if link_end < end:
            # The rest of magiclink's span stays plain text, as it is in magiclink's own link:
            # no Markdown in it (``**b**``) comes alive that magiclink alone keeps inert (issue 21).
            el.tail = _inert(data[link_end:end])
            return el, link_start, end
        return el, link_start, link_end


def _inert(text: str) -> AtomicString:
    """``text``, the end of magiclink's span, as plain text that shows as it does in magiclink's link.

    Python-Markdown writes the ``&`` of a character reference out as it is (``&amp;`` stays one
    ``&``), any other as ``&amp;``.  At the end of the link's text ``&#38`` is no reference; as the
    text before the ``;`` that follows the span it would become one: its ``&`` is written ``&amp;``.

    Each character other than a letter or digit is written as Python-Markdown writes a backslash
    escape (``STX`` code ``ETX``, restored as it serializes): no inline pattern reads it.  An
    ``AtomicString`` alone is not enough: inside emphasis, Python-Markdown joins the text after the
    anchor to its tail and parses the two again (``*ftp://a&#;@c.*`` made a mention of ``@c``).
    """
    if "&" in text:
        text = _AMP.sub("&amp;", text)
    return AtomicString("".join(c if c.isalnum() else f"{STX}{ord(c)}{ETX}" for c in text))


def _decoded_as_written(reference: str) -> str:
    """A character reference as the browser reads it in Python-Markdown's output, which keeps
    those that end with ``;`` and writes the ``&`` of any other as ``&amp;``."""
    return html.unescape(reference) if reference.endswith(";") else reference


class RefinedMailPattern(MagiclinkMailPattern):  # type: ignore[misc]
    """Emails found from each ``@`` by UTS #58 §5.2, rendered by magiclink's email pattern."""

    config: dict[str, Any]

    @staticmethod
    def _accepts_email_in(data: str, start: int, end: int) -> bool:
        """Whether magiclink's email pattern links an address over the email ``data[start:end]`` in its
        word (``refine.acceptance.email_word_probe``: its non-ASCII local part written ``a``): the
        pattern decides where an email may start (``/t@e.o`` is none), UTS #58 what its local part holds.
        The address magiclink links holds the email's "@" (in ``/r.g@e.m/t@e.c`` its ``g@e.m`` of the
        probe overlaps ``e.m/t@e.c`` but is another address; fuzz seed 23)."""
        if data[start : start + len(MAILTO)].lower() == MAILTO:  # magiclink links the address after "mailto:"
            start += len(MAILTO)
        word, s, _ = email_word_probe(data, start, end)
        at = s + data.rfind("@", start, end) - start
        return any(m.start() <= at < m.end() for m in _MAIL_RE.finditer(word))

    def _one_label_domain(self, data: str, at: int) -> bool:
        """Whether the domain after the "@" at ``data[at]`` can only be one label that is no
        IPv4 number, so that no email holds this "@": §5.2 takes a domain of two labels or
        more (``refine.domains``: ``lenient_domain`` takes one label only as a WHATWG IPv4
        number, which starts with an ASCII digit; ``domain_unicode`` never).

        The refinement in :meth:`handleMatch` is given the text up to the next "@" or white
        space (at most ``WINDOW`` past the "@"): with no separator there, its host run after
        the "@" has none.  One regex from the "@", against a refinement per "@", keeps a long
        word of "@"s that magiclink's own pattern drops at once (``a@`` * n) at its pace.
        """
        if _SEPARATOR_AHEAD.match(data, at + 1, at + WINDOW) is not None:
            return False
        return bool(self.config["strict_hosts"]) or data[at + 1 : at + 2] not in _ASCII_DIGITS

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[Any, int | None, int | None]:
        at = m.start()
        if self._one_label_domain(data, at):
            return None, None, None
        # The email holding this "@" holds no other "@" (neither a local part nor a domain
        # does) and no white space: the refinement is given only the text between the "@"s
        # or spaces around it, so each "@" costs a bounded time ("a" + "@" * n, issue 21).
        lo = max(0, at - _LOCAL_MAX, data.rfind("@", max(0, at - _LOCAL_MAX), at) + 1)
        last = _LAST_SPACE.match(data, lo, at)  # the last white space before the "@", in one call
        if last is not None:
            lo = last.end()
        # Emphasis runs after this pattern: the local part takes no "*" (nor pymdownx's "~ ^ ="),
        # which magiclink's own email never holds: "**a@b.com**" stays bold (issue 32).
        delimiter = _MAIL_DELIMITERS.match(data, lo, at)
        if delimiter is not None:
            lo = delimiter.end()
        hi = min(len(data), at + WINDOW)
        next_at = data.find("@", at + 1, hi)
        if next_at != -1:
            hi = next_at
        after = _SPACE.search(data, at, hi)
        if after:
            hi = after.start()
        found = self._email_at(data, lo, hi, at)
        if found is not None and "_" in data[found[0] : at]:
            # Nor a "_" that may open emphasis before it (at the local part's start or after a
            # character that is no letter or digit: "!_#y@z.m?_"), unless magiclink's own email
            # starts there.
            # (asked with the local part's non-ASCII characters written "a", as magiclink reads the
            # address it links: "_ς@e.m" is its "_a@e.m", from the "_"; fuzz seed 19)
            own = _own_email(data, found[0], at)
            opener = _last_opener(data, found[0], at)
            if opener is not None and (own is None or own.end() <= at):
                lo = opener
                while data.startswith("_", lo):
                    lo += 1
                found = self._email_at(data, lo, hi, at)
                if found is not None and data[found[0] - 1] == "_" and _WORD_START.match(data, found[0]):
                    # The "_" left right before the link is before a letter or digit, where it closes no
                    # emphasis in magiclink, whose own email starts later (or is none); before the link's
                    # placeholder it may close one (Python-Markdown's "(?!\w)"), with it in the address
                    # open one: no start keeps magiclink's emphasis, and the address is not linked
                    # ("_)_a&b@c.o", "_>__a%b@c.c/__", "_`>_a%b@c.c/_"; fuzz seeds 23 to 29).
                    own = _own_email(data, found[0], at)
                    if own is None or own.end() <= at:
                        return None, None, None
        if found is None or _MAIL_NOT_BEFORE.match(data, found[1]):
            # magiclink's pattern ends an address only at a word boundary, before neither "-"
            # nor "@": "a@b.com_x_" is no email for it (and with the "_" left after a link,
            # emphasis would start there that magiclink alone never makes).
            return None, None, None
        start, end, text = found
        if text[:7].lower() == "mailto:":  # magiclink links the address after "mailto:"
            start, text = start + 7, text[7:]
        whole = _WHOLE.match(text)
        assert whole is not None
        el, _, _ = super().handleMatch(whole, text)
        return el, start, end

    def _email_at(self, data: str, lo: int, hi: int, at: int) -> tuple[int, int, str] | None:
        """The refined email in ``data[lo:hi]`` that holds the "@" at ``at``: its start, end and text."""
        strict = bool(self.config["strict_hosts"])
        links = refine_links(data[lo:hi], [], strict_hosts=strict)
        reject_risky = reject_risky_value(self.config["reject_risky"])
        if reject_risky:
            links = risk_filter(data[lo:hi], links, strict_hosts=strict, reject_risky=reject_risky)
        for link in links:
            if link.kind == "email" and link.start <= at - lo < link.end:
                # (asked in the whole text: the window starts after an "@", which the pattern reads before a local part)
                if not self._accepts_email_in(data, lo + link.start, lo + link.end):
                    return None
                return lo + link.start, lo + link.end, link.text
        return None


class UTS58MagiclinkExtension(MagiclinkExtension):  # type: ignore[misc]
    """``pymdownx.magiclink`` whose bare links and emails conform to UTS #58.

    It takes magiclink's options and two of its own, ``strict_hosts`` and ``reject_risky``
    (default False).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        strict_hosts = kwargs.pop("strict_hosts", False)
        reject_risky = kwargs.pop("reject_risky", False)
        super().__init__(*args, **kwargs)
        self.config["strict_hosts"] = [
            bool(strict_hosts),
            "If 'True', hosts must be registrable domains (UTS #58 §1.4) - Default: False",
        ]
        self.config["reject_risky"] = [
            reject_risky_value(reject_risky),
            "If 'True' (or 'browser', the stricter profile), a link with a UTS #58 §8 risk (link_risks) stays text"
            " - Default: False",
        ]

    def setup_autolinks(self, md: Markdown, config: dict[str, Any]) -> None:
        super().setup_autolinks(md, config)
        link_pattern = RefinedLinkPattern(RE_LINK, md)
        link_pattern.config = config
        md.inlinePatterns.register(link_pattern, "magic-link", 85)
        mail_pattern = RefinedMailPattern("@", md)
        mail_pattern.config = config
        md.inlinePatterns.register(mail_pattern, "magic-mail", 84.9)


def makeExtension(*args: Any, **kwargs: Any) -> UTS58MagiclinkExtension:
    """Return the extension (Python-Markdown's entry point for ``extensions=[module name]``)."""
    return UTS58MagiclinkExtension(*args, **kwargs)
