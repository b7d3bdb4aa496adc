"""Upgrade an already configured linkifier in place of use: ``linkifier = wrap(linkifier)``.

``wrap`` returns a thin proxy around a ``linkify_it.LinkifyIt`` or a
``urlextract.URLExtract`` instance.  Every public method keeps its signature and
its result types, but the spans come out refined to UTS #58 (§10.1 Migration:
Link Detection): the wrapped instance's own matches are the raw spans, and
``refine_links`` does all the refinement.  The proxy holds no configuration of
its own — schemas added with ``add``, options changed with ``set``, TLD lists,
urlextract's stop characters and ``extract_email`` all live in (and are read
from) the wrapped instance.  Any other attribute is the wrapped instance's.

Emails the backend did not report (a non-ASCII local part, say) are added by the
refinement; an email is kept only when the backend accepts the same address
with the local part ``a`` (the same ``mailto:`` prefix, the same domain), so
switching emails off (``set({"fuzzy_email": False})``, ``extract_email=False``)
or restricting TLDs still applies.

Typical use with markdown-it-py::

    md = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    md.linkify = uts58_adapt.wrap(md.linkify)
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from .backends.base import RawLink
from .link import Link
from .properties import FLAGS, HARD, TERM_MASK
from .refine.migration import candidate_text, refine_links

if TYPE_CHECKING:
    from linkify_it import LinkifyIt
    from linkify_it.main import Match
    from urlextract import URLExtract

__all__ = ["LinkifyItWrapper", "URLExtractWrapper", "wrap"]

_MAILTO = "mailto:"
# Local part used to ask the backend whether it would link an email on this domain.
_PROBE_LOCAL = "a"


class _Wrapper:
    """Attribute delegation and the one refinement step shared by both wrappers."""

    _OWN = frozenset({"_wrapped", "_pending"})

    def __init__(self, wrapped: Any) -> None:
        object.__setattr__(self, "_wrapped", wrapped)
        object.__setattr__(self, "_pending", None)

    @property
    def wrapped(self) -> Any:
        """The backend instance this wrapper refines (its configuration is the one in use)."""
        return self._wrapped

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes the wrapper does not define itself.
        if name.startswith("__") or name in _Wrapper._OWN:
            raise AttributeError(name)
        return getattr(self._wrapped, name)

    def __setattr__(self, name: str, value: Any) -> None:
        # Properties and options set on the wrapper configure the wrapped instance
        # (e.g. ``wrapper.extract_email = True`` for urlextract).
        if name in _Wrapper._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self._wrapped, name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(type(self))) | set(dir(self._wrapped)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._wrapped!r})"

    @staticmethod
    def _refine(text: str, raw: Sequence[RawLink], accepts_email: Callable[[str], bool]) -> list[Link]:
        """Refine ``raw`` with ``refine_links``; drop emails the backend's configuration rejects."""
        cache: dict[str, bool] = {}
        out = []
        for link in refine_links(text, raw):
            if link.kind == "email":
                local, _, domain = link.text.rpartition("@")
                prefix = _MAILTO if local[: len(_MAILTO)].lower() == _MAILTO else ""
                probe = f"{prefix}{_PROBE_LOCAL}@{domain}"
                if probe not in cache:
                    cache[probe] = accepts_email(probe)
                if not cache[probe]:
                    continue
            out.append(link)
        return out


#: How far past the backend's end ``_window_end`` looks for a Hard character (code points).
_WINDOW_REACH = 4096
_NOT_HARD_RUN: re.Pattern[str] | None = None


def _window_end(text: str, pos: int) -> int:
    """Return the offset of the first Link_Term=Hard character at or after ``pos``, looking at
    most ``_WINDOW_REACH`` code points ahead (else ``min(len(text), pos + _WINDOW_REACH)``).

    No link crosses a Hard character (§3.5.1), so refining a link that ends at or
    before ``pos`` only needs the text up to there; ``match_at_start`` uses this to
    avoid rescanning the rest of a long paragraph for every link in it.  The reach is
    bounded because markdown-it calls ``match_at_start`` with the rest of the paragraph
    at every ``://``: an unbounded search (even at C speed) would make a paragraph
    without Hard characters (``http://a.co/x>http://a.co/x>…``) cost quadratic time.
    Only a link running on for more than ``_WINDOW_REACH`` code points past the backend's
    end, with no Hard character, is cut at the reach.
    """
    global _NOT_HARD_RUN
    if _NOT_HARD_RUN is None:  # built on first use (a class of every non-Hard range)
        from .properties import class_body, flag_runs, largest_astral

        ranges = largest_astral(flag_runs(lambda b: b & TERM_MASK != HARD), 32)
        _NOT_HARD_RUN = re.compile(f"[{class_body(ranges)}]*")
    n = min(len(text), pos + _WINDOW_REACH)
    while pos < n:
        pos = _NOT_HARD_RUN.match(text, pos, n).end()  # type: ignore[union-attr]  # ``*`` always matches
        if pos == n or FLAGS[ord(text[pos])] & TERM_MASK == HARD:
            return pos
        pos += 1  # a non-Hard astral code point the class leaves out
    return n


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*:)//")


def _refinable(text: str, m: Match) -> bool:
    """Whether UTS #58 covers a linkify-it match: an email, or a URL with a host.

    That is a fuzzy ``x.com``, a ``//x.com``, a ``s://x.com`` or a ``mailto:``.

    Other schemas an instance may define (``skype:``, ``@`` mentions …) have no host
    and no path for the standard to refine; they are kept as the backend found them.
    """
    return m.schema in ("", "//", _MAILTO) or text.startswith("//", m.index + len(m.schema))


def _schema_of(link: Link) -> str:
    """The linkify-it schema of a refined link: ``mailto:``, ``s:`` (``s://…``), ``//`` or ``""``."""
    if link.kind == "email":
        return _MAILTO
    m = _SCHEME.match(link.text)
    if m:
        return m.group(1).lower()
    return "//" if link.text.startswith("//") else ""


def _merge_unrefined(refined: list[Match], others: Sequence[Match]) -> list[Match]:
    """Add the matches left as they are, except those overlapping a refined one; keep the order by index."""
    starts = [m.index for m in refined]
    out = list(refined)
    for m in others:
        i = bisect.bisect_right(starts, m.index)
        if i and refined[i - 1].last_index > m.index:
            continue
        if i < len(refined) and refined[i].index < m.last_index:
            continue
        out.append(m)
    out.sort(key=lambda m: m.index)
    return out


class LinkifyItWrapper(_Wrapper):
    """A ``linkify_it.LinkifyIt`` whose matches are refined to UTS #58.

    ``match``, ``match_at_start``, ``test``, ``pretest`` and ``test_schema_at``
    return what the originals return (``Match`` objects with consistent
    ``index``/``last_index``/``raw``/``text``/``url``/``schema``, booleans,
    lengths); ``add``, ``set`` and ``tlds`` configure the wrapped instance and
    return the wrapper, so chaining keeps the upgrade.
    """

    _wrapped: LinkifyIt
    _pending: tuple[str, list[Match]] | None

    # -- configuration: delegated, chainable -----------------------------------------

    def add(self, schema: str, definition: Any) -> LinkifyItWrapper:
        """Add (or, with ``None``, remove) a schema on the wrapped instance; return the wrapper."""
        self._pending = None
        self._wrapped.add(schema, definition)
        return self

    def set(self, options: dict[str, Any]) -> LinkifyItWrapper:
        """Update the wrapped instance's options (``fuzzy_link``, ``fuzzy_email``…); return the wrapper."""
        self._pending = None
        self._wrapped.set(options)
        return self

    def tlds(self, list_tlds: str | list[str], keep_old: bool = False) -> LinkifyItWrapper:
        """Replace (or, with ``keep_old``, extend) the wrapped instance's TLD list; return the wrapper."""
        self._pending = None
        self._wrapped.tlds(list_tlds, keep_old)
        return self

    # -- detection ---------------------------------------------------------------------

    def pretest(self, text: str) -> bool:
        """Quick check that may give false positives, like the original.

        Refinement only moves the ends of the backend's links and adds emails, which
        need an ``@``, so the backend's pretest or an ``@`` covers every refined link.
        """
        return bool(self._wrapped.pretest(candidate_text(text))) or "@" in text

    def test(self, text: str) -> bool:
        """Return whether ``match(text)`` finds at least one link.

        The result is kept for an immediately following ``match`` on the same text
        (markdown-it-py calls ``test`` then ``match``), so the text is scanned once.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        found = self._match(text)
        self._pending = (text, found)
        return bool(found)

    def match(self, text: str) -> list[Match] | None:
        """Return the refined ``Match`` list of ``text`` (sorted, non-overlapping), or None when empty."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        pending, self._pending = self._pending, None
        found = pending[1] if pending is not None and pending[0] == text else self._match(text)
        return found or None

    def match_at_start(self, text: str) -> Match | None:
        """Return the refined link with a schema starting at ``text[0]``, or None.

        markdown-it-py's inline rule calls it with the rest of the paragraph.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        backend_text = candidate_text(text)
        raw = self._wrapped.match_at_start(backend_text)
        if raw is None:
            return None
        # Only the text up to the next Hard character matters; it is a prefix, so the
        # offsets are the same.
        end = _window_end(text, raw.last_index)
        for m in self._refined_matches(text[:end], [raw], backend_text[:end]):
            if m.index == raw.index:
                return m
        return None

    def test_schema_at(self, text: str, name: str, position: int) -> int:
        """Return the length of the refined link tail after schema ``name`` ending at ``position``, or 0.

        When ``name`` does not end at ``position`` the backend's own length is returned.
        """
        length = self._wrapped.test_schema_at(text, name, position)
        start = position - len(name)
        if not length or start < 0 or text[start:position].lower() != name.lower():
            return length
        raw = self._make_match(text, name.lower(), start, position + length)
        end = _window_end(text, raw.last_index)
        for m in self._refined_matches(text[:end], [raw], text[:end]):
            if m.index == start:
                return max(0, m.last_index - position)
        return 0

    # -- internals ---------------------------------------------------------------------

    def _match(self, text: str) -> list[Match]:
        backend_text = candidate_text(text)
        return self._refined_matches(text, self._wrapped.match(backend_text) or [], backend_text)

    def _refined_matches(self, text: str, matches: Sequence[Match], backend_text: str) -> list[Match]:
        """Refine the URL and email matches the backend found in ``backend_text``; keep the others.

        ``backend_text`` is ``text`` as given to the backend (same length, see
        ``candidate_text``).  Matches of schemas UTS #58 does not cover (custom ones
        without a host) are kept unless a refined link overlaps them.
        """
        refinable = [m for m in matches if _refinable(backend_text, m)]
        raw = [RawLink(m.index, m.last_index, "email" if m.schema == _MAILTO else "url") for m in refinable]
        out = [
            self._make_match(text, _schema_of(link), link.start, link.end)
            for link in self._refine(text, raw, self._accepts_email)
        ]
        if len(refinable) < len(matches):
            others = [
                m if backend_text is text else self._make_match(text, m.schema, m.index, m.last_index)
                for m in matches
                if not _refinable(backend_text, m)
            ]
            out = _merge_unrefined(out, others)
        return out

    def _make_match(self, text: str, schema: str, start: int, end: int) -> Match:
        """Build a ``Match`` normalised by the wrapped instance's own normaliser for ``schema``."""
        create = getattr(self._wrapped, "_create_match", None)
        if create is not None:
            try:
                return create(text, schema, start, end)
            except KeyError:  # schema no longer compiled on the instance
                pass
        from linkify_it.main import Match

        match = Match(text, schema, start, end)
        self._wrapped.normalize(match)
        return match

    def _accepts_email(self, probe: str) -> bool:
        found = self._wrapped.match(candidate_text(probe)) or []
        return len(found) == 1 and found[0].index == 0 and found[0].last_index == len(probe)


class URLExtractWrapper(_Wrapper):
    """A ``urlextract.URLExtract`` whose results are refined to UTS #58.

    ``find_urls``, ``gen_urls`` and ``has_urls`` take the original arguments and
    return strings, or ``(url, (start, end))`` tuples with ``get_indices=True``.
    Setters and properties (``extract_email``, ``set_stop_chars_right`` …) are
    the wrapped instance's.
    """

    _wrapped: URLExtract

    def find_urls(
        self,
        text: str,
        only_unique: bool = False,
        check_dns: bool = False,
        get_indices: bool = False,
        with_schema_only: bool = False,
    ) -> list[str] | list[tuple[str, tuple[int, int]]]:
        """Return the refined URLs (and emails, if enabled) of ``text`` like ``URLExtract.find_urls``.

        The instance's ``limit`` applies to the backend's own results; when it is
        reached, ``URLExtractError`` is raised with the refined partial results as
        ``data``, like the original.
        """
        from urlextract.urlextract_core import URLExtractError

        self._check_text(text)
        error = None
        try:
            raw = self._wrapped.find_urls(
                candidate_text(text), check_dns=check_dns, get_indices=True, with_schema_only=with_schema_only
            )
        except URLExtractError as exc:
            raw, error = exc.data, exc
        items = list(self._items(text, raw, check_dns, get_indices, with_schema_only))
        if error is not None:
            raise URLExtractError(error.message, data=items) from error
        if only_unique:
            items = list(dict.fromkeys(items))
        return items  # type: ignore[return-value]

    def gen_urls(
        self, text: str, check_dns: bool = False, get_indices: bool = False, with_schema_only: bool = False
    ) -> Iterator[str | tuple[str, tuple[int, int]]]:
        """Yield the refined URLs of ``text`` like ``URLExtract.gen_urls``.

        The whole text is scanned and refined before the first item is yielded.
        """
        self._check_text(text)
        raw = list(
            self._wrapped.gen_urls(
                candidate_text(text), check_dns=check_dns, get_indices=True, with_schema_only=with_schema_only
            )
        )
        yield from self._items(text, raw, check_dns, get_indices, with_schema_only)

    def has_urls(self, text: str, check_dns: bool = False, with_schema_only: bool = False) -> bool:
        """Return whether ``text`` has at least one refined URL."""
        return any(True for _ in self.gen_urls(text, check_dns=check_dns, with_schema_only=with_schema_only))

    @staticmethod
    def _check_text(text: object) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")

    def _items(
        self,
        text: str,
        raw_found: Sequence[tuple[str, tuple[int, int]]],
        check_dns: bool,
        get_indices: bool,
        with_schema_only: bool,
    ) -> Iterator[str | tuple[str, tuple[int, int]]]:
        backend_text = candidate_text(text)
        raw = []
        for url, (start, end) in raw_found:
            if backend_text[start:end] != url:  # the indices are urlextract's own arithmetic
                start = backend_text.find(url, max(0, start - len(url)))
                if start < 0:
                    continue
                end = start + len(url)
            # urlextract reports an email as a schemeless URL with userinfo: ``user@host``.
            kind = "email" if "@" in url and "://" not in url and "/" not in url else "url"
            raw.append(RawLink(start, end, kind))

        def accepts_email(probe: str) -> bool:
            probe = candidate_text(probe)
            found = self._wrapped.gen_urls(probe, check_dns=check_dns, with_schema_only=with_schema_only)
            return list(found) == [probe]

        for link in self._refine(text, raw, accepts_email):
            found = text[link.start : link.end]
            yield (found, (link.start, link.end)) if get_indices else found


@overload
def wrap(obj: LinkifyIt) -> LinkifyItWrapper: ...
@overload
def wrap(obj: URLExtract) -> URLExtractWrapper: ...
@overload
def wrap(obj: LinkifyItWrapper) -> LinkifyItWrapper: ...
@overload
def wrap(obj: URLExtractWrapper) -> URLExtractWrapper: ...


def wrap(obj: Any) -> LinkifyItWrapper | URLExtractWrapper:
    """Return ``obj`` upgraded to UTS #58: same methods, same result types, refined spans.

    ``obj`` is an already configured ``linkify_it.LinkifyIt`` or
    ``urlextract.URLExtract`` instance; its configuration stays in effect (and can
    still be changed, through the wrapper or directly).  Wrapping a wrapper returns
    it unchanged.  Raises TypeError for anything else.
    """
    if isinstance(obj, (LinkifyItWrapper, URLExtractWrapper)):
        return obj
    try:
        from linkify_it import LinkifyIt
    except ImportError:  # pragma: no cover - linkify-it-py is a dependency
        pass
    else:
        if isinstance(obj, LinkifyIt):
            return LinkifyItWrapper(obj)
    try:
        from urlextract import URLExtract
    except ImportError:  # pragma: no cover - urlextract is a dependency
        pass
    else:
        if isinstance(obj, URLExtract):
            return URLExtractWrapper(obj)
    raise TypeError(
        f"obj must be a linkify_it.LinkifyIt or urlextract.URLExtract instance, not {type(obj).__name__}"
    )
