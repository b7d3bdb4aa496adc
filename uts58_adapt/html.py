"""Plain text to HTML with UTS #58 links: ``linkify("see example.com/α")``.

Every piece of text and every attribute value is escaped with
``html.escape(..., quote=True)``.  A detected link becomes ``<a href="…">…</a>``
only when the scheme of its ``href`` is one of ``schemes``; any other link stays
plain (escaped) text.  Bidi_Control characters inside a link are percent-escaped
in the href and in the displayed text, so they cannot reorder what the reader
sees (UTS #58 §8 Security Considerations).

Bidi_Control characters *around* a link can still reorder it as a whole: in
``"Pay here: \u202e (evil.com/moc.knab)"`` the RLO before the link would make it
read ``bank.com/moc.live``.  So, following UAX #9 HL4 and §8 (issue 13.2):

- every anchor is written ``<a href="…" dir="ltr">``: an element with a ``dir``
  attribute is a bidi isolate in HTML (``unicode-bidi: isolate``), so nothing outside
  it can reorder its characters, and a URL reads left to right;
- with ``escape_bidi=True`` (the default) the Bidi_Control characters in the text
  around links are shown as ``⟨U+202E⟩`` instead of acting on the text.  Pass
  ``escape_bidi=False`` to keep them (right-to-left text that needs its marks); the
  anchors stay isolated either way.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterable

from .detection import detect
from .link import Link
from .refine.risk_profile import RejectRisky

__all__ = ["BIDI_CONTROLS", "FORBIDDEN_SCHEMES", "linkify", "render"]

#: The characters with Bidi_Control=Yes.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Schemes that can run script in a browser; they are refused in ``schemes``.
FORBIDDEN_SCHEMES = frozenset({"javascript", "vbscript", "data"})

_BIDI_ESCAPES = {ord(ch): "".join(f"%{byte:02X}" for byte in ch.encode("utf-8")) for ch in sorted(BIDI_CONTROLS)}
_BIDI_VISIBLE = {ord(ch): f"\u27e8U+{ord(ch):04X}\u27e9" for ch in sorted(BIDI_CONTROLS)}
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*(?=:)")
# str.translate with a dict costs a lookup per character: it runs only where one is found.
_BIDI = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")


def _escape_bidi(s: str) -> str:
    """Percent-escape the Bidi_Control characters of ``s`` (UTF-8, uppercase hex)."""
    return s.translate(_BIDI_ESCAPES) if _BIDI.search(s) is not None else s


def _visible_bidi(s: str) -> str:
    """``s`` with its Bidi_Control characters shown as ``⟨U+XXXX⟩``."""
    return s.translate(_BIDI_VISIBLE) if _BIDI.search(s) is not None else s


def _scheme_set(schemes: object) -> frozenset[str]:
    if isinstance(schemes, (str, bytes)) or not isinstance(schemes, Collection):
        raise TypeError(f"schemes must be a collection of str, e.g. ('http', 'https'), not {type(schemes).__name__}")
    out = set()
    for scheme in schemes:
        if not isinstance(scheme, str):
            raise TypeError(f"schemes must contain str, not {type(scheme).__name__}")
        name = scheme.lower().removesuffix(":")
        if name in FORBIDDEN_SCHEMES:
            raise ValueError(f"schemes must not include {scheme!r}: it can run script in a browser")
        out.add(name)
    return frozenset(out)


def linkify(
    text: str,
    backend: str = "linkify-it",
    *,
    schemes: Collection[str] = ("http", "https", "mailto"),
    max_length: int = 4096,
    escape_bidi: bool = True,
    reject_risky: RejectRisky = False,
) -> str:
    """Return ``text`` as HTML, with each detected link whose scheme is in ``schemes`` as an anchor.

    Links are found by ``detect(text, backend, max_length=max_length)`` and the
    anchor's href is the link's ``href``.  Schemes compare case-insensitively
    (``"http"`` and ``"http:"`` are the same); ``javascript``, ``vbscript`` and
    ``data`` are refused (ValueError).  Raises TypeError naming the argument when
    ``text``, ``backend``, ``schemes``, ``max_length`` or ``escape_bidi`` has the wrong type.

    Anchors are bidi isolates (``dir="ltr"``); with ``escape_bidi`` (default) the
    Bidi_Control characters outside links are shown as ``⟨U+XXXX⟩`` (see the module doc).
    ``reject_risky`` is ``detect()``'s: the §8 checks (``link_risks``), off by default.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if not isinstance(backend, str):
        raise TypeError(f"backend must be str, not {type(backend).__name__}")
    if not isinstance(max_length, int) or isinstance(max_length, bool):
        raise TypeError(f"max_length must be int, not {type(max_length).__name__}")
    if not isinstance(escape_bidi, bool):
        raise TypeError(f"escape_bidi must be bool, not {type(escape_bidi).__name__}")
    _scheme_set(schemes)  # argument errors before any work
    links = detect(text, backend, max_length=max_length, reject_risky=reject_risky)
    return render(text, links, schemes=schemes, escape_bidi=escape_bidi)


def render(
    text: str,
    links: Iterable[Link],
    *,
    schemes: Collection[str] = ("http", "https", "mailto"),
    escape_bidi: bool = True,
) -> str:
    """Return ``text`` as HTML with the given ``links`` (from ``detect``) as anchors; see ``linkify``."""
    return _render(text, links, _scheme_set(schemes), escape_bidi)


#: Characters written as numeric references in markup text by ``_render(..., references=True)``: CR
#: (a literal one reads as LF), the other C0 controls but tab, LF and FF, DEL, and the noncharacters.
#: A C1 control stays literal: ``&#x80;`` reads as U+20AC (§13.2.5.80), a literal U+0080 as itself.
_REFERENCES = re.compile("[\x01-\x08\x0b\x0d-\x1f\x7f\ufdd0-\ufdef\ufffe\uffff\U0001fffe-\U0010ffff]")


def _reference(m: re.Match[str]) -> str:
    ch = m.group()
    # one range for planes 1-16 searches faster than their 32 noncharacters one by one
    return ch if ch > "\uffff" and ord(ch) & 0xFFFE != 0xFFFE else f"&#x{ord(ch):X};"


def _references(s: str) -> str:
    """``s`` (escaped markup text) with the characters of ``_REFERENCES`` written as numeric references."""
    return _REFERENCES.sub(_reference, s) if _REFERENCES.search(s) is not None else s


def _render(
    text: str, links: Iterable[Link], allowed: frozenset[str], escape_bidi: bool = True, references: bool = False
) -> str:
    """:func:`render` with the schemes already checked (``_scheme_set``).

    ``references``: the text was decoded from markup (``linkify_html``); the characters a
    parser would not read back as themselves when written literally are written as
    numeric references (``_REFERENCES``), so the text reads back as it was.
    """

    def plain(s: str) -> str:
        return html.escape(_visible_bidi(s) if escape_bidi else s, quote=True)

    out: list[str] = []
    pos = 0
    for link in links:
        if link.start < pos:  # overlapping results are not expected; never emit text twice
            continue
        scheme = _SCHEME.match(link.href)
        if scheme is None or scheme.group().lower() not in allowed:
            continue  # stays in the plain text around it
        out.append(plain(text[pos : link.start]))
        href = html.escape(_escape_bidi(link.href), quote=True)
        shown = html.escape(_escape_bidi(text[link.start : link.end]), quote=True)
        out.append(f'<a href="{href}" dir="ltr">{shown}</a>')
        pos = link.end
    out.append(plain(text[pos:]))
    return _references("".join(out)) if references else "".join(out)
