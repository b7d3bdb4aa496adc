"""``linkify_html(html)``: add UTS #58 links to the text of an HTML fragment (bleach.linkify for nh3 users).

The fragment is read as an HTML5 parser reads it (``backends._html5_text``, the HTML
Standard's tokenizer and what of its tree construction decides where text is, not
Python's ``html.parser``, which disagrees with browsers on malformed markup).  Every tag,
comment, declaration and attribute is copied byte for byte; only runs of text outside
``skip_tags`` (by default ``a``, ``pre``, ``code``, ``script``, ``style``, ``textarea``
and ``title``; ``a`` whatever ``skip_tags`` says) that contain a link are rewritten: their
text is decoded as the parser decodes it (``_html5_text.decode_text``: a reference to a
control character is that character, which ends a link), links are found with ``detect``
and the run is written back by ``html.render`` (everything escaped, CR and the other
controls as numeric references, attributes quoted, Bidi_Control characters
percent-escaped, only the allowed schemes linked).  A run without a link is left exactly
as it was.  No anchor is ever inserted where an HTML5 parser would not see text: in a tag
or attribute value, a comment, a CDATA section or bogus comment, the content of
``script``, ``style``, ``xmp``, ``iframe``, ``noembed``, ``noframes``, ``textarea``,
``title`` or ``plaintext``, foreign content (``svg``, ``math``) or a ``select``; nor in
another anchor as the tree builder nests them (an ``</a>`` out of scope is ignored).
``noscript`` content is markup (scripting off, as bleach reads it).  Where two readings
of the markup could differ, the rest is copied as it is.  Sanitize afterwards
(``nh3.clean``) if the input is untrusted: this function adds links, it does not sanitize.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .backends._html5_text import decode_text, text_runs
from .detection import detect
from .html import _render, _scheme_set
from .link import Link
from .refine.risk_profile import RejectRisky

__all__ = ["DEFAULT_SKIP_TAGS", "linkify_html"]

#: Elements whose content is never linkified.
DEFAULT_SKIP_TAGS = frozenset({"a", "pre", "code", "script", "style", "textarea", "title"})


def _skip_set(skip_tags: object) -> frozenset[str]:
    if isinstance(skip_tags, (str, bytes)) or not isinstance(skip_tags, Collection):
        raise TypeError(f"skip_tags must be a collection of str, not {type(skip_tags).__name__}")
    if not all(isinstance(tag, str) for tag in skip_tags):
        raise TypeError("skip_tags must contain str only")
    return frozenset(tag.lower() for tag in skip_tags)


_DEFAULT_SKIP = _skip_set(DEFAULT_SKIP_TAGS)
#: ASCII white space (the HTML Standard's): the characters a table keeps (§13.2.6.4.10), with U+0000,
#: which it drops.
_HTML_WHITE_SPACE = "\t\n\x0c\r \x00"


def _white_space_piece(text: str, links: Sequence[Link]) -> bool:
    """Whether the anchors cut a piece of ``text`` that is white space alone (§13.2.6.4.10: in a table
    it would stay in the table while the rest of the text moves before it)."""
    pos = 0
    for link in links:
        piece = text[pos : link.start]
        if piece and not piece.strip(_HTML_WHITE_SPACE):
            return True
        pos = link.end
    piece = text[pos:]
    return bool(piece) and not piece.strip(_HTML_WHITE_SPACE)


def linkify_html(
    fragment: str,
    backend: str = "linkify-it",
    *,
    schemes: Collection[str] = ("http", "https", "mailto"),
    skip_tags: Collection[str] = DEFAULT_SKIP_TAGS,
    max_length: int = 4096,
    strict_hosts: bool = True,
    reject_risky: RejectRisky = False,
) -> str:
    """Return the HTML ``fragment`` with UTS #58 links added to its text nodes (see the module docstring).

    ``backend``, ``schemes`` and ``max_length`` are those of :func:`uts58_adapt.linkify`;
    ``skip_tags`` names the elements whose content stays as it is (an ``a`` always does).  ``strict_hosts`` is
    :func:`uts58_adapt.detect`'s: ``backend`` names one of detect's own configured
    backends, not an instance of yours, so hosts must be registrable domains (§1.4) unless
    ``strict_hosts=False`` (then ``http://localhost:8000/`` links too).  ``reject_risky``
    is detect's too: a link with a §8 risk stays text, an ideographic start moves.  Raises TypeError
    naming the argument when one has the wrong type.
    """
    if not isinstance(fragment, str):
        raise TypeError(f"fragment must be str, not {type(fragment).__name__}")
    if not isinstance(backend, str):
        raise TypeError(f"backend must be str, not {type(backend).__name__}")
    if not isinstance(max_length, int) or isinstance(max_length, bool):
        raise TypeError(f"max_length must be int, not {type(max_length).__name__}")
    skip = _DEFAULT_SKIP if skip_tags is DEFAULT_SKIP_TAGS else _skip_set(skip_tags)
    allowed = _scheme_set(schemes)
    out: list[str] = []
    pos = 0
    in_table: list[bool] = []
    for (start, end), table in zip(text_runs(fragment, skip, in_table), in_table, strict=True):
        raw = fragment[start:end]
        text = decode_text(raw)
        links = detect(text, backend, max_length=max_length, strict_hosts=strict_hosts, reject_risky=reject_risky)
        if links and not (table and _white_space_piece(text, links)):
            out.append(fragment[pos:start])
            out.append(_render(text, links, allowed, references=True))
            pos = end
    out.append(fragment[pos:])
    return "".join(out)
