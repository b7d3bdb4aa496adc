"""The urlextract backend: ``URLExtract`` with the ICANN TLD list, offline, no cache files.

urlextract normally loads IANA's list from a cache file (and can download a new one);
here its TLD loading is replaced by the bundled Public Suffix List snapshot (every ICANN
TLD, Unicode and ``xn--`` forms), its cache path is never resolved, ``update()`` is
refused, DNS caching is off and the per-text URL limit is lifted.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from typing import Literal, cast

from urlextract.urlextract_core import URLExtract

from ..refine.hosts import MAX_HOST, SEPARATORS, host_run_end, is_host_char
from ._tlds import icann_tlds, tld_pattern
from ._windows import ASCII_SPACE
from ._windows import OVERLAP as _OVERLAP  # noqa: F401 (re-exported for tests)
from ._windows import WINDOW as _WINDOW
from ._windows import windows as _windows
from .base import RawLink

__all__ = ["UrlExtractBackend"]


class _OfflineURLExtract(URLExtract):
    """URLExtract whose TLDs come from the PSL snapshot; it never touches a file or the network."""

    def _get_cache_file_path(self) -> str:  # no writable-directory probing or creation
        return ""

    def _load_cached_tlds(self) -> set[str]:
        return {"." + tld for tld in icann_tlds()}

    def _reload_tlds_from_file(self) -> None:
        # The same matches as urlextract's length-sorted alternation of every ".tld",
        # written as a trie (much faster in ``re``), then its IPv4 and localhost entries.
        # ".255" ... ".0" (urlextract lists them longest first) as one equivalent pattern.
        ipv4 = r"\.(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
        parts = [r"\.(?:" + tld_pattern() + ")", ipv4]
        if self._extract_localhost:
            parts.append("localhost")
        self._tlds_re = re.compile("|".join(parts), flags=re.IGNORECASE)

    def _is_domain_valid(self, url: str, tld: str, check_dns: bool = False, with_schema_only: bool = False) -> bool:
        # For ``x@example.com/%FF`` uritools decodes the path as strict UTF-8 only to see
        # whether it is empty, and raised UnicodeDecodeError out of find() (issue 13.8).
        # A part that cannot be decoded is not empty: urlextract's own answer is False.
        try:
            return bool(super()._is_domain_valid(url, tld, check_dns=check_dns, with_schema_only=with_schema_only))
        except UnicodeDecodeError:
            return False

    def _download_tlds_list(self) -> bool:  # pragma: no cover - defensive
        raise RuntimeError("the urlextract backend works offline; its TLD list comes from the PSL snapshot")

    def update(self) -> bool:  # pragma: no cover - defensive
        return self._download_tlds_list()

    def update_when_older(self, days: int) -> bool:  # pragma: no cover - defensive
        return self._download_tlds_list()


#: The ASCII characters that continue a host label ("." is a separator, see SEPARATORS).
_ASCII_LABEL_CHARS = frozenset(string.ascii_letters + string.digits + "-")


#: Before an email's "@": ASCII local-part characters (RFC 5322 atext and "."), less "/",
#: the ones urlextract stops at on the left ("=", "|", "}") and its enclosures ("{", "'", "`").
_LOCAL_RUN = re.compile(r"[A-Za-z0-9!#$%&*+?^_~.\-]{1,256}")


class _EmailCandidate(str):
    """A candidate that ends at its TLD (see ``_CandidateURLExtract._email_candidate``)."""

    __slots__ = ()


class _CandidateURLExtract(_OfflineURLExtract):
    """Also reports the TLD hits that urlextract finds and then throws away.

    urlextract scans left of a TLD over ASCII only and accepts a TLD only before a few
    listed characters, so ``deΩ.uk``, ``普遍适用测试.我爱你`` or ``example.com!`` give
    nothing.  Here a TLD hit is accepted whenever the next character cannot continue the
    host, and when urlextract rejects the URL around a hit, the TLD itself is reported as
    a candidate: the refinement stage (``refine.hosts.url_host``) then finds the real start
    of the host, or rejects it.

    A TLD hit in the domain of a plainly delimited ASCII email (``<jane@example.org>``)
    is not completed by urlextract: the refinement's email stage (§5.2) finds every email
    from its ``@`` whatever the backend reports, and the URL stage never links a host
    that follows an ``@``, so urlextract's completion (its most costly step) would be
    thrown away.  The candidate is the span that completion would give (the local part
    and the domain up to the TLD), which becomes the email's ``Link.original``.
    ``tests/test_urlextract_email_candidates.py`` checks that the links are the same.
    """

    def _validate_tld_match(self, text: str, matched_tld: str, tld_pos: int) -> bool:
        if not 0 < tld_pos <= len(text):
            return False
        right = tld_pos + len(matched_tld)
        if right < len(text):
            ch = text[right]
            if ch in _ASCII_LABEL_CHARS or (not ch.isascii() and ch not in SEPARATORS and is_host_char(ch)):
                return False  # (ASCII host characters are letters, digits, "-" and ".")
        return text[tld_pos - 1] not in self._stop_chars_left

    def _complete_url(
        self, text: str, tld_pos: int, tld: str, check_dns: bool = False, with_schema_only: bool = False
    ) -> str:
        email = self._email_candidate(text, tld_pos, tld)
        if email is not None:
            return email
        try:
            url = URLExtract._complete_url(
                self, text, tld_pos, tld, check_dns=check_dns, with_schema_only=with_schema_only
            )
        except ValueError:  # uritools on odd input
            url = ""
        if url or not tld.startswith(".") or tld[1:].isdigit():
            return url  # urlextract's own result; its IPv4 ".0"-".255" and "localhost" hits stay rejected
        return tld[1:]

    def _email_candidate(self, text: str, tld_pos: int, tld: str) -> _EmailCandidate | None:
        """The candidate for a TLD hit in an email's domain (see the class docstring), else None.

        Only where urlextract's completion would give exactly this span, or nothing: an
        ASCII local part with one of urlextract's left stop characters (or the start of
        the text) before it, and the TLD followed by a right stop character or the end,
        possibly after one character that urlextract strips (``x@y.org.``).  Elsewhere
        (``(x@y.org)``, ``x@y.co.uk``, ``σωκράτης@example.com``) urlextract completes
        the hit as usual, so the candidates, and the links, are the same either way.
        """
        if not tld.startswith("."):
            return None
        at = text.rfind("@", max(0, tld_pos - MAX_HOST), tld_pos)
        if at == -1 or host_run_end(text, at + 1) <= tld_pos or not text[at + 1 : tld_pos].isascii():
            return None  # no ASCII host characters from an "@" to this TLD
        m = _LOCAL_RUN.match(text[max(0, at - 256) : at][::-1])
        if m is None:
            return None
        start = at - m.end()
        if (start and text[start - 1] not in self._stop_chars_left) or text[start] in "-._~":
            return None
        end = tld_pos + len(tld)
        stops, n = self._stop_chars_right, len(text)
        if end < n and text[end] not in stops:
            after = text[end]
            if after == "/" or after not in self._after_tld_chars or (end + 1 < n and text[end + 1] not in stops):
                return None
        return _EmailCandidate(text[start:end])

    @staticmethod
    def _get_tld_pos(url: str, tld: str) -> int:
        if type(url) is _EmailCandidate:
            return len(url) - len(tld)  # it ends with its TLD
        if url == tld[1:] and tld[:1] == "." and url.isalpha():
            return -1  # a TLD reported alone (above): no ``.`` in its host, as urlextract finds
        return URLExtract._get_tld_pos(url, tld)


class UrlExtractBackend:
    """urlextract behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "urlextract"

    def __init__(self) -> None:
        self._extractor = _OfflineURLExtract(extract_email=True, cache_dns=False, limit=None)  # type: ignore[no-untyped-call]
        self._candidate_extractor: _CandidateURLExtract | None = None

    def find(self, text: str) -> list[RawLink]:
        """The links urlextract itself finds in ``text``, sorted by start (``x@y`` without ``://`` is an email)."""
        return self._spans(self._extractor, text)

    def candidates(self, text: str) -> list[RawLink]:
        """``find`` plus the TLD hits urlextract discards (see ``_CandidateURLExtract``), for refinement.

        urlextract walks from every TLD hit to the ends of its run of non-stop characters,
        so a long run with many hits (``a.com,b.com,…`` without spaces) costs time
        quadratic in its length.  Long texts are therefore given to it in windows of at
        most ``_WINDOW`` code points, cut after ASCII white space where there is some
        (exact: urlextract's spans never cross its stop characters, ``string.whitespace``
        among them), else overlapping by ``_OVERLAP``
        (more than a host and its scheme).  Only a run of over ``_WINDOW // 2`` code
        points without white space is cut inside, and there the refined links can differ
        from those of one whole pass (a single urlextract span can swallow the rest of
        the run; a cut span's ``original`` ends at its window's end).  Every one-pass
        link is then kept or overlapped by a windowed one (tests/test_urlextract_windows.py).
        """
        if self._candidate_extractor is None:
            self._candidate_extractor = _CandidateURLExtract(  # type: ignore[no-untyped-call]
                extract_email=True, cache_dns=False, limit=None
            )
        if len(text) <= _WINDOW:
            return self._spans(self._candidate_extractor, text)
        seen: set[RawLink] = set()
        for lo, hi in _windows(text, space=ASCII_SPACE):
            for r in self._spans(self._candidate_extractor, text[lo:hi]):
                seen.add(RawLink(r.start + lo, r.end + lo, r.kind))
        return sorted(seen, key=lambda r: (r.start, r.end))

    @staticmethod
    def _spans(extractor: URLExtract, text: str) -> list[RawLink]:
        out = []
        pos = 0
        # With get_indices=True, urlextract yields (url, (start, end)) pairs.
        found_urls = cast(Iterator[tuple[str, tuple[int, int]]], extractor.gen_urls(text, get_indices=True))
        for url, (start, end) in found_urls:
            if text[start:end] != url:
                # urlextract's indices can be off after it trims a span; find the text itself.
                found = text.find(url, max(0, pos - len(url)))
                if found == -1:
                    continue
                start, end = found, found + len(url)
            pos = end
            kind: Literal["url", "email"] = "email" if "@" in url and "://" not in url and "/" not in url else "url"
            out.append(RawLink(start, end, kind))
        out.sort(key=lambda r: (r.start, r.end))
        return out
