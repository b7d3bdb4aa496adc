"""The urlextract backend: ``URLExtract`` with the ICANN TLD list, offline, no cache files.

urlextract normally loads IANA's list from a cache file (and can download a new one);
here its TLD loading is replaced by the bundled Public Suffix List snapshot (every ICANN
TLD, Unicode and ``xn--`` forms), its cache path is never resolved, ``update()`` is
refused, DNS caching is off and the per-text URL limit is lifted.

:func:`instance_gen_urls` is the same fast path for any configured ``URLExtract`` instance
(``wrap(URLExtract())``): anchors from the instance's own TLD pattern and after-TLD
characters, a tracked copy of the instance, the plain call where that cannot be exact.
"""

from __future__ import annotations

import operator
import re
import threading
import weakref
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from urlextract.urlextract_core import URLExtract

from ..refine.hosts import ASCII_HOST_CHARS, MAX_HOST, SEPARATORS, host_run_end, host_run_start, is_host_char
from ..refine.labels import ANY_CONTEXTO
from ..refine.whatwg import SCHEME_AT
from ._tlds import build_tld_pattern, icann_tlds, tld_initials, tld_pattern
from ._windows import ASCII_SPACE, anchored_windows
from ._windows import OVERLAP as _OVERLAP  # noqa: F401 (re-exported for tests)
from ._windows import WINDOW as _WINDOW
from ._windows import windows as _windows
from .base import RawLink

if TYPE_CHECKING:
    from ..link import Link

__all__ = ["UrlExtractBackend", "instance_gen_urls", "instance_plan", "instance_state", "not_on_empty_label"]


def not_on_empty_label(text: str, links: list[Link]) -> list[Link]:
    """``links`` without the URLs refined to start just after a label separator inside urlextract's span.

    urlextract decides where a link starts: its span ``.e.io`` (on ``~.e.io``; ``*.e.io`` once
    the ``*`` it takes is moved over) has a host whose first label is empty, which UTS #46
    rejects: the span is rejected, not cut to ``e.io`` (issue 32; linkify-it's ``~x.co``,
    Django's ``｡e.org`` in ``integrations._urlize``).  A start moved over characters urlextract
    takes but no host holds (``*eo.wikipedia.org``) stays, and so does a span urlextract
    itself starts after a dot (``e.io`` in ``see .e.io``).

    The one place for this rule: ``detect(backend="urlextract")`` applies it through
    :meth:`UrlExtractBackend.keep_refined`, ``wrap(URLExtract())`` calls it directly.
    """
    return [
        link
        for link in links
        if not (
            link.kind == "url"
            and link.original is not None
            and link.original[0] < link.start < link.original[1]
            and text[link.start - 1] in SEPARATORS
        )
    ]


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
        # whether it is empty, and raised UnicodeDecodeError out of find() (issue 13.8);
        # it encodes the host as UTF-8, which raised UnicodeEncodeError for a lone
        # surrogate (``0.0.\ud800@``).  Such a part is not empty, nor such a host valid:
        # urlextract's own answer is False.
        try:
            return bool(super()._is_domain_valid(url, tld, check_dns=check_dns, with_schema_only=with_schema_only))
        except UnicodeError:
            return False

    def _download_tlds_list(self) -> bool:  # pragma: no cover - defensive
        raise RuntimeError("the urlextract backend works offline; its TLD list comes from the PSL snapshot")

    def update(self) -> bool:  # pragma: no cover - defensive
        return self._download_tlds_list()

    def update_when_older(self, days: int) -> bool:  # pragma: no cover - defensive
        return self._download_tlds_list()


class _Run(NamedTuple):
    """What one run of a tracked extractor on a window gave (``UrlExtractBackend._window_run``)."""

    #: The URLs as gen_urls yields them, ``(url, start, end, kind, lib_url)``: ``kind`` is
    #: :func:`_kind` of the URL, ``lib_url`` the URL urlextract itself would report there
    #: (a dual run only; else None).
    found: tuple[tuple[str, int, int, Literal["url", "email"], str | None], ...]
    #: ``_TrackedURLExtract._window_is_exact`` after the run.
    exact: bool
    #: A dual run: whether urlextract's own run takes the same steps (``_CandidateURLExtract._same``).
    same: bool


#: How many window runs an extractor keeps (``UrlExtractBackend._window_run``), and the
#: longest window kept (so the memo stays under a few megabytes).
_RUNS = 4096
_RUN_CHARS = 512


class _Recorder:
    """Stands in for urlextract's TLD pattern (``_tlds_re``, of which ``gen_urls`` uses only
    ``findall``): the same hits, and where they are.

    ``gen_urls`` takes the hits from the front of the list ``findall`` gave it (``pop(0)``),
    so how many it has taken is how many are gone from ``hits`` (:attr:`taken`).
    """

    __slots__ = ("hits", "pattern", "starts", "strings")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.starts: list[int] = []
        self.strings: list[str] = []
        self.hits: list[str] = []

    def findall(self, text: str) -> list[str]:
        found = list(self.pattern.finditer(text))
        self.starts = [m.start() for m in found]
        strings = self.strings = [m.group() for m in found]
        hits = self.hits = strings.copy()
        return hits

    @property
    def taken(self) -> int:
        """How many hits ``gen_urls`` has taken (popped) so far."""
        return len(self.strings) - len(self.hits)


class _Tracking:
    """Follows ``gen_urls`` through one text, to tell whether its run on a window of a
    longer text is exactly the part of one run on the whole text that falls there.

    ``gen_urls`` takes the TLD hits of ``findall`` one by one and relocates each with
    ``str.find`` from a cursor (the end of the last hit, or of the last URL as
    ``_get_tld_pos`` computes it), and after a URL it drops the next hits whose text
    follows in the URL's rest.  A window's run is the whole run's there when (checked by
    :meth:`_window_is_exact`): every hit it takes is found where ``findall`` found it,
    after the cursor (so ``find`` failed nowhere); its last cursor is inside the window;
    and when the last URL dropped the window's last hits, what is left of the URL's rest
    holds no TLD hit at all (so in the whole run no later hit is dropped there).  The
    rest follows from where windows are cut (see ``UrlExtractBackend._fast``).

    A mixin before a ``URLExtract`` class whose ``_tlds_re`` is a :class:`_Recorder`:
    :class:`_TrackedURLExtract` (the backend's), and the tracked copy of a wrapped
    instance (:func:`instance_gen_urls`).
    """

    _recorder: _Recorder
    _runs: dict[tuple[str, bool], _Run]

    def _begin(self) -> None:
        self._exact = True
        self._cursor = 0  # where gen_urls searches for the next hit (as of the last URL)
        self._index = -1  # the index (in findall's list) of the last hit taken
        self._hit_pos = 0
        self._url_index = -1  # the index of the hit of the last URL, and that URL's rest
        self._rest = ""

    def _validate_tld_match(self, text: str, matched_tld: str, tld_pos: int) -> bool:
        self._track(tld_pos)
        return self._accepts(text, matched_tld, tld_pos)

    def _track(self, tld_pos: int) -> None:
        """Note the hit ``gen_urls`` takes now, found at ``tld_pos``."""
        recorder = self._recorder
        i = self._index = len(recorder.strings) - len(recorder.hits) - 1  # (recorder.taken - 1)
        self._hit_pos = tld_pos
        if i >= len(recorder.starts) or recorder.starts[i] != tld_pos or tld_pos < self._cursor:
            self._exact = False  # not found where findall found it (or not at all)

    def _accepts(self, text: str, matched_tld: str, tld_pos: int) -> bool:
        return bool(URLExtract._validate_tld_match(cast(URLExtract, self), text, matched_tld, tld_pos))

    def _get_tld_pos(self, url: str, tld: str) -> int:  # an instance method: gen_urls calls it for every URL
        k = self._tld_index(url, tld)
        rest = self._rest = url[k + len(tld) :]
        self._cursor = self._hit_pos + len(tld) + len(rest)  # gen_urls's own arithmetic
        self._url_index = self._index
        return k

    @staticmethod
    def _tld_index(url: str, tld: str) -> int:
        return int(URLExtract._get_tld_pos(url, tld))

    def _window_is_exact(self, length: int) -> bool:
        """After a run on a window of ``length`` code points: see the class docstring."""
        if not self._exact or self._cursor > length:
            return False
        strings = self._recorder.strings
        last = self._index
        if last < len(strings) - 1:  # the last hits were dropped after the last URL
            if last < 0 or self._url_index != last:
                return False
            rest = self._rest
            for tld in strings[last + 1 :]:
                k = rest.find(tld)
                if k < 0:
                    return False
                rest = rest[k + len(tld) :]
            if self._recorder.pattern.search(rest):
                return False
        return True


class _TrackedURLExtract(_Tracking, _OfflineURLExtract):
    """The backend's URLExtract, tracked (see :class:`_Tracking`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
        #: (window text, dual run?) -> what a run on it gave (``UrlExtractBackend._window_run``).
        self._runs = {}

    def _reload_tlds_from_file(self) -> None:
        super()._reload_tlds_from_file()
        self._recorder = _Recorder(self._tlds_re)
        self._tlds_re: Any = self._recorder
        self._begin()


#: The ASCII characters that continue a host label ("." is a separator, see SEPARATORS).
_ASCII_LABEL_CHARS = ASCII_HOST_CHARS - set(SEPARATORS)


#: Before an email's "@": ASCII local-part characters (RFC 5322 atext and "."), less "/",
#: the ones urlextract stops at on the left ("=", "|", "}") and its enclosures ("{", "'", "`").
_LOCAL_RUN = re.compile(r"[A-Za-z0-9!#$%&*+?^_~.\-]{1,256}")


#: In a local part, a character that makes uritools split an email candidate elsewhere (``_follow_email``).
_NOT_CLEAN = re.compile("[/?#%]")

#: How many validity verdicts ``_CandidateURLExtract._follow_email`` keeps (the same
#: domains recur: changelog trailers, copyright lines).
_EMAIL_VERDICTS = 4096


def _domain_after_at(text: str, start: int) -> bool:
    """Whether a TLD reported alone at ``text[start]`` ends a host that follows an ``@``: the
    refinement's host stage (``refine.hosts.url_host``) rejects it (an email's domain is left
    to the email stage), so it is no candidate.

    That is: no ``scheme://`` and no ``//`` at ``start``, and the run of host characters
    that ends there starts right after an ``@``, with no CONTEXTO character before
    ``start`` (whose context rule could move the host's start, ``refine.labels.contexto_cut``).
    A run that reaches the window's start is not taken (its start is not known here).
    """
    floor = max(0, start - MAX_HOST)
    run_start = host_run_start(text, start, floor)
    return (
        floor < run_start < start
        and text[run_start - 1] == "@"
        and ANY_CONTEXTO.search(text, run_start, start) is None
        and SCHEME_AT.match(text, start) is None
        and not text.startswith("//", start)
    )


def _char_class(chars: Iterable[str], more: str = "") -> str:
    """A regex character class of ``chars`` (each escaped) and the range(s) ``more``."""
    return "[" + "".join(map(re.escape, sorted(chars))) + more + "]"


class _EmailCandidate(str):
    """A candidate that ends at its TLD (see ``_CandidateURLExtract._email_candidate``)."""

    __slots__ = ()


class _CandidateURLExtract(_TrackedURLExtract):
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

    #: Whether a run also follows what urlextract itself (``find``) would do (``UrlExtractBackend.find_and_candidates``).
    _dual = False
    #: Whether a TLD alone is left out where it ends the domain of an email (``_domain_after_at``).
    _skip_domains_after_at = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._email_verdicts: dict[tuple[str, str], Literal["valid", "invalid", "raises"]] = {}
        #: ``_library_completion``'s memo: the text whose spans are asked, that text reversed, and
        #: (span, TLD, check_dns, with_schema_only) -> urlextract's completion in that text.
        self._stops_text: str | None = None
        self._reversed = ""
        self._last_span = (-1, 0, -1)  # the last hit whose span had no enclosure (nor "://"), and that span
        self._completions: dict[tuple[tuple[int, int], str, bool, bool], str | None] = {}
        self._patterns: tuple[Any, tuple[re.Pattern[str], re.Pattern[str] | None, re.Pattern[str]]] | None = None
        self._text_patterns = self._stop_patterns()  # (those of the text, looked up once per text)

    def _begin(self) -> None:
        super()._begin()
        self._same = True  # urlextract's own run would take the same steps
        self._lib_ok = False  # urlextract's own verdict on the current hit
        self._lib_url: str | None = None  # and the URL it would report for it

    def _validate_tld_match(self, text: str, matched_tld: str, tld_pos: int) -> bool:
        self._track(tld_pos)
        if not self._dual:
            return self._accepts_candidate(text, matched_tld, tld_pos)
        return self._accepts(text, matched_tld, tld_pos)

    def _accepts(self, text: str, matched_tld: str, tld_pos: int) -> bool:
        ok = self._accepts_candidate(text, matched_tld, tld_pos)
        if self._dual:
            self._lib_url = None
            self._lib_ok = bool(URLExtract._validate_tld_match(self, text, matched_tld, tld_pos))
            if self._lib_ok and not ok:
                self._same = False  # (never: urlextract's accepted hits are a subset)
        return ok

    def _accepts_candidate(self, text: str, matched_tld: str, tld_pos: int) -> bool:
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
            if self._dual and self._lib_ok:
                self._follow_email(tld, email)
            return email
        completed = self._library_completion(text, tld_pos, tld, check_dns, with_schema_only)
        if completed is None:  # uritools on odd input
            url = ""
            if self._dual and self._lib_ok:
                self._same = False  # urlextract's own find() raises here
        else:
            url = completed
        if self._dual and url:
            if self._lib_ok:
                self._lib_url = url  # the same URL, so the same cursor and dropped hits
            else:
                self._same = False  # urlextract skips the hit, here a URL moves the cursor
        if url or not tld.startswith(".") or tld[1:].isdigit():
            return url  # urlextract's own result; its IPv4 ".0"-".255" and "localhost" hits stay rejected
        if self._skip_domains_after_at and _domain_after_at(text, tld_pos + 1):
            return ""  # (the same cursor as for tld[1:], whose rest is empty, and no candidate)
        return tld[1:]

    def _library_completion(
        self, text: str, tld_pos: int, tld: str, check_dns: bool, with_schema_only: bool
    ) -> str | None:
        """urlextract's own ``_complete_url`` of a hit, or None where it raises ValueError.

        Its completion walks left and right from the hit to its stop characters, in
        Python: on a long token with many TLD hits urlextract discards (``**a.co**`` * n)
        that is a walk over the token per hit.  Its span (the token around the hit,
        :meth:`_span`) and its result are the same for every hit of one span when the
        span holds none of the characters that make the steps after the walk depend on
        where the TLD is: an enclosure character (``_remove_enclosure_from_url``, the
        Markdown split, the enclosure search before the URL, all of which also need
        ``(``, ``)``, ``[`` or ``]``) or ``://`` (the left walk stops at ``:`` after
        it).  Without them, every step after the walk reads the span and the TLD only,
        so the result is kept per span (``tests/test_urlextract_*.py`` compare the links).
        """
        span = self._span(text, tld_pos) if tld[:1] == "." else None
        key = (span, tld, check_dns, with_schema_only) if span is not None else None
        if key is not None and key in self._completions:
            return self._completions[key]
        try:
            url: str | None = URLExtract._complete_url(
                self, text, tld_pos, tld, check_dns=check_dns, with_schema_only=with_schema_only
            )
        except ValueError:
            url = None
        if key is not None:
            self._completions[key] = url
        return url

    def _forget_completions(self) -> None:
        """Forget the text whose completions are kept (``UrlExtractBackend.clear_memo``)."""
        self._stops_text = None
        self._reversed = ""
        self._last_span = (-1, 0, -1)
        self._completions = {}

    def _span(self, text: str, tld_pos: int) -> tuple[int, int] | None:
        """The span ``[start, end]`` urlextract's walk in ``_complete_url`` covers from a TLD at
        ``text[tld_pos]``, when it holds no enclosure character and no ``://``; else None.

        Left, the walk stops after a left stop character or a non-ASCII one (or at the
        start), right before a right stop character (or at the end; ``text[tld_pos]``
        itself is not looked at).  Each is one regex search over the span (the left one in
        the reversed text, reversed once per text), against urlextract's loop in Python.
        """
        if text is not self._stops_text:
            self._stops_text = text
            self._reversed = text[::-1]
            self._completions = {}
            self._last_span = (-1, 0, -1)
            self._text_patterns = self._stop_patterns()
        left_re, right_re, special_re = self._text_patterns
        n = len(text)
        last, start, end = self._last_span
        if last < tld_pos <= end:
            # In the last span found (gen_urls takes its hits in order): the same end, and
            # the start moves only past a left stop between the last hit and this one.
            m = left_re.search(self._reversed, n - tld_pos, n - last)
            if m is not None:
                start = n - m.start()
        else:
            m = left_re.search(self._reversed, n - tld_pos)
            start = n - m.start() if m is not None else 0
            m = right_re.search(text, tld_pos + 1) if right_re is not None else None
            end = m.start() - 1 if m is not None else n - 1
            # (a "://" the walk left passes starts at most 2 before the TLD's "." and ends before it)
            if special_re.search(text, start, end + 1) is not None:
                return None
        self._last_span = (tld_pos, start, end)
        return start, end

    def _stop_patterns(self) -> tuple[re.Pattern[str], re.Pattern[str] | None, re.Pattern[str]]:
        """Regexes of ``_complete_url``'s left and right stops (the left one with the non-ASCII
        characters) and of an enclosure character or ``://`` (see :meth:`_library_completion`).

        Built again when urlextract's setters have replaced a set of stop characters or the
        enclosures (this is the backend's own instance: nothing changes them in place).
        """
        cached = self._patterns
        if (
            cached is not None
            and cached[0][0] is self._stop_chars_left
            and cached[0][1] is self._stop_chars_right
            and cached[0][2] is self._enclosure
        ):
            return cached[1]
        sets = (self._stop_chars_left, self._stop_chars_right, self._enclosure)
        enclosures = frozenset(c for pair in self._enclosure for c in pair)
        patterns = (
            re.compile(_char_class(sets[0], "\x80-\U0010ffff")),  # (the walk left is ASCII only)
            re.compile(_char_class(sets[1])) if sets[1] else None,
            re.compile("|".join([*map(re.escape, sorted(enclosures)), "://"])),
        )
        self._patterns = (sets, patterns)
        return patterns

    def _follow_email(self, tld: str, email: str) -> None:
        """What urlextract's own run does with the hit of an email candidate.

        Its completion gives the candidate's span when the domain is valid, else nothing:
        the span is bounded by its stop characters (or the text's ends), less at most the
        one character it strips after a TLD, and holds no character that its later steps
        remove or cut at (``/`` and ``-._~`` first, enclosures, ``[``, ``)``, ``://``,
        white space); the local part's characters (``_LOCAL_RUN``) and the domain's (ASCII
        letters, digits, ``-`` and ``.``) are none of them.  So only its validity check is
        repeated here, and where it finds the TLD (which moves its cursor).
        """
        at = email.index("@")
        # With no "/", "?", "#" or "%" in the local part, uritools' authority is the whole
        # span, the userinfo the local part and the host the domain: the validity check
        # (its emails branch) then depends on the domain alone, which many addresses share.
        clean = _NOT_CLEAN.search(email, 0, at) is None
        key = (email[at + 1 :] if clean else email, tld)
        verdict = self._email_verdicts.get(key)
        if verdict is None:
            if len(self._email_verdicts) >= _EMAIL_VERDICTS:
                self._email_verdicts.clear()
            verdict = self._email_verdicts[key] = self._email_validity(email, tld)
        if verdict == "invalid":
            return
        if verdict == "valid":
            # urlextract's _get_tld_pos looks the host up in the lower-cased span from
            # its start: with a clean local part the host is the domain, found at its
            # place unless it also occurs in the local part.
            lower = email.lower()
            if clean and lower.find(lower[at + 1 :]) == at + 1:
                self._lib_url = email
                return
            try:
                if URLExtract._get_tld_pos(email, tld) == len(email) - len(tld):
                    self._lib_url = email
                    return
            except ValueError:
                pass
        self._same = False

    def _email_validity(self, email: str, tld: str) -> Literal["valid", "invalid", "raises"]:
        """urlextract's validity check of an email candidate (kept by ``_follow_email``)."""
        try:
            return "valid" if self._is_domain_valid(email, tld) else "invalid"
        except ValueError:  # urlextract's find() raises here
            return "raises"

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
    def _tld_index(url: str, tld: str) -> int:
        if type(url) is _EmailCandidate:
            return len(url) - len(tld)  # it ends with its TLD
        if url == tld[1:] and tld[:1] == "." and url.isalpha():
            return -1  # a TLD reported alone (above): no ``.`` in its host, as urlextract finds
        return int(URLExtract._get_tld_pos(url, tld))


#: What a token (cut at ASCII white space) holds when urlextract can find something in it:
#: a hit of its TLD pattern (``_OfflineURLExtract._reload_tlds_from_file``) other than
#: its ".0"-".255" entries and not followed by an ASCII letter, digit or ``-`` (which
#: both urlextract's ``_validate_tld_match`` and ``_CandidateURLExtract._accepts_candidate``
#: reject; a hit holds no dot but its first character, so it overlaps no other hit and
#: the longest TLD at a dot is followed by one of those whenever a shorter one is),
#: or an IPv4 address.  A hit of the latter gives a URL only
#: with an IPv4 address as its host (``URLExtract._is_domain_valid``: four octets of one
#: to three ASCII digits, nothing decoded; neither a URL nor its host ends before a
#: digit); the candidates' extractor also gives an email candidate for
#: it after an ``@`` and ASCII host characters (``_CandidateURLExtract._email_candidate``).
#: Every alternative begins with a dot (``re`` then searches much faster), but
#: ``localhost``, which is looked for only in a text that holds it (case-folded).  A
#: lookahead for the TLDs' first characters (either case, as the trie under IGNORECASE)
#: fails most dots (line ends, spaces, digits) before the trie is tried: half the time.
_TLD_START = f"(?=[{tld_initials()}])"
_DOT_ANCHOR = (
    rf"\.(?:{_TLD_START}(?:{tld_pattern()})(?!(?-i:[A-Za-z0-9\-]))"
    rf"|(?<=[0-9]\.)[0-9]{{1,3}}\.[0-9]{{1,3}}\.[0-9]{{1,3}}(?![0-9]))"
)
_EMAIL_ANCHOR = r"@(?=[^\s@]*\.[0-9])"
#: (for the candidates, with localhost) -> anchor
_ANCHORS = {
    (candidates, localhost): re.compile(
        "|".join([_DOT_ANCHOR] + [_EMAIL_ANCHOR] * candidates + ["localhost"] * localhost), re.IGNORECASE
    )
    for candidates in (False, True)
    for localhost in (False, True)
}


def _anchor(text: str, candidates: bool) -> re.Pattern[str]:
    # casefold() and ``in`` take a tenth of the time of an IGNORECASE search for "localhost".
    # The "@" alternative is left out of the search of a text without "@" (it cannot match
    # there), so every alternative begins with a dot: the search takes 40 % less time.
    return _ANCHORS[candidates and "@" in text, "localhost" in text.casefold()]


#: Sort key of RawLinks: by start, then end.
_SPAN = operator.attrgetter("start", "end")

#: What ``gen_urls(..., get_indices=True)`` yields (urlextract's own annotation is looser).
_Found = Iterator[tuple[str, tuple[int, int]]]

#: urlextract looks left of a URL over spaces and left enclosure characters (issue #77).
_LEFT_CONTEXT = frozenset(" ") | {left for left, _ in URLExtract._enclosure}
#: Anchored tokens at most this far apart go to urlextract in one call.
_GAP = 32


#: A run without ASCII white space longer than half a window, ``_LONG`` (only a longer text holds one;
#: see ``UrlExtractBackend.find``).
#: Tried only where a run starts (the lookbehind): from every position, the search cost up
#: to half a window of steps per character of a long run without white space (CJK text).
_LONG = _WINDOW // 2
_LONG_RUN = re.compile(rf"(?<![^ \t\n\r\x0b\x0c])[^ \t\n\r\x0b\x0c]{{{_LONG + 1}}}")


class UrlExtractBackend:
    """urlextract behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "urlextract"

    #: ``detect()`` gives the refined links of this backend's spans to this (see
    #: :func:`not_on_empty_label`): the rule ``wrap(URLExtract())`` applies too.
    keep_refined = staticmethod(not_on_empty_label)

    def __init__(self) -> None:
        self._extractor = _OfflineURLExtract(extract_email=True, cache_dns=False, limit=None)  # type: ignore[no-untyped-call]
        self._tracked = _TrackedURLExtract(extract_email=True, cache_dns=False, limit=None)
        self._candidate_extractor: _CandidateURLExtract | None = None
        # The tracked extractors keep the state of their current run: one caller at a time.
        self._lock = threading.Lock()

    def plain(self, text: str) -> list[RawLink]:
        """The links of one urlextract call on the whole ``text`` (what :meth:`find` gives, from more text)."""
        return self._spans(self._extractor, text)

    def find(self, text: str) -> list[RawLink]:
        """The links urlextract itself finds in ``text``, sorted by start (``x@y`` without ``://`` is an email).

        Exactly those of one call on the whole text (:meth:`plain`), from less text:
        urlextract is given only the tokens (cut at ASCII white space) that hold an anchor
        (``_anchor``), see :meth:`_fast`; where that cannot be shown to give the
        same links, one call on the whole text.  A text with a run of over ``_WINDOW // 2``
        code points without white space is given to urlextract in windows instead
        (:meth:`_windowed_plain`): urlextract alone takes time quadratic in such a run
        (``a.com,a.com,…``), and the audit calls this for its "before" (issue 21).
        """
        first = _anchor(text, False).search(text)
        if first is None:
            return []  # no anchor: no link (see _fast)
        if len(text) > _LONG and _LONG_RUN.search(text):
            return self._windowed_plain(text)
        try:
            with self._lock:
                fast = self._fast(self._tracked, text, first, _WINDOW)
        except Exception:  # the plain call raises it again, or not
            fast = None
        return self.plain(text) if fast is None else fast[0]

    def _windowed_plain(self, text: str) -> list[RawLink]:
        """urlextract's links of ``text`` from windows of at most ``_WINDOW`` code points (see ``_windowed_candidates``).

        Cut after ASCII white space, the links are exactly those of one call; only in a
        run of over ``_WINDOW // 2`` code points without white space do the windows
        overlap (by ``_OVERLAP``), and there a span urlextract would have run to the end
        of the run ends at its window's end.
        """
        seen: set[RawLink] = set()
        for lo, hi in _windows(text, space=ASCII_SPACE):
            for r in self._spans(self._extractor, text[lo:hi]):
                seen.add(RawLink(r.start + lo, r.end + lo, r.kind))
        return sorted(seen, key=_SPAN)

    def candidates(self, text: str) -> list[RawLink]:
        """``find`` plus the TLD hits urlextract discards (see ``_CandidateURLExtract``), for refinement.

        From the anchored tokens, as :meth:`find` , when that gives
        exactly the candidates of :meth:`_windowed_candidates`, else those.
        """
        first = _anchor(text, True).search(text)
        if first is None:
            return []
        extractor = self._candidates_extractor()
        try:
            with self._lock:
                fast = self._fast(extractor, text, first, _WINDOW)
        except Exception:  # the plain pass raises it again, or not
            fast = None
        return self._windowed_candidates(text) if fast is None else fast[0]

    def find_and_candidates(self, text: str) -> tuple[list[RawLink], list[RawLink]]:
        """``(find(text), candidates(text))``, from one urlextract pass where possible (the audit's).

        The candidates' extractor differs from urlextract only in what it does with some
        hits; it also follows what urlextract would do with each (``_CandidateURLExtract._dual``),
        and where both take the same steps, urlextract's links are read off the same run.
        Elsewhere ``find`` is called too.
        """
        first = _anchor(text, True).search(text)
        if first is None:
            return [], []
        extractor = self._candidates_extractor()
        try:
            with self._lock:
                extractor._dual = True
                try:
                    fast = self._fast(extractor, text, first, _WINDOW)
                finally:
                    extractor._dual = False
        except Exception:  # the two plain passes raise it again, or not
            fast = None
        if fast is None:
            return self.find(text), self._windowed_candidates(text)
        candidates, own = fast
        return (
            own if own is not None and not (len(text) > _LONG and _LONG_RUN.search(text)) else self.find(text)
        ), candidates

    def clear_memo(self) -> None:
        """Forget the windows' runs, the email verdicts and completions this backend keeps (the same
        links come out, from more work: for benchmarks, and to release the memory)."""
        with self._lock:
            for extractor in (self._tracked, self._candidate_extractor):
                if extractor is not None:
                    extractor._runs.clear()
            if self._candidate_extractor is not None:
                self._candidate_extractor._email_verdicts.clear()
                self._candidate_extractor._forget_completions()

    def _candidates_extractor(self) -> _CandidateURLExtract:
        if self._candidate_extractor is None:
            self._candidate_extractor = _CandidateURLExtract(extract_email=True, cache_dns=False, limit=None)
        return self._candidate_extractor

    def _windowed_candidates(self, text: str) -> list[RawLink]:
        """The candidates of one call on ``text``, or of windows of a long text.

        urlextract walks from every TLD hit to the ends of its run of non-stop characters,
        so a long run with many hits (``a.com,b.com,…`` without spaces) costs time
        quadratic in its length.  Long texts are therefore given to it in windows of at
        most ``_WINDOW`` code points, cut after ASCII white space where there is some
        (urlextract's spans never cross its stop characters, ``string.whitespace``
        among them), else overlapping by ``_OVERLAP``
        (more than a host and its scheme).  Only a run of over ``_WINDOW // 2`` code
        points without white space is cut inside, and there the refined links can differ
        from those of one whole pass (a single urlextract span can swallow the rest of
        the run; a cut span's ``original`` ends at its window's end).  Every one-pass
        link is then kept or overlapped by a windowed one (tests/test_urlextract_windows.py).
        """
        extractor = self._candidates_extractor()
        with self._lock:
            if len(text) <= _WINDOW:
                return self._spans(extractor, text)
            seen: set[RawLink] = set()
            for lo, hi in _windows(text, space=ASCII_SPACE):
                for r in self._spans(extractor, text[lo:hi]):
                    seen.add(RawLink(r.start + lo, r.end + lo, r.kind))
        return sorted(seen, key=_SPAN)

    @staticmethod
    def _fast(
        extractor: _TrackedURLExtract, text: str, first: re.Match[str], window: int
    ) -> tuple[list[RawLink], list[RawLink] | None] | None:
        """The links of one ``extractor`` call on ``text`` (and, for a dual run, urlextract's
        own: None where its steps differ), from the anchored tokens only; None where that
        cannot be shown to be exact.  ``first`` is the first match of the anchor pattern
        (``_anchor``) in ``text``: a text without one holds no link, and the callers
        return at once.

        Windows are cut at ASCII white space (urlextract's stop characters: no URL, and no
        TLD hit, crosses one), each begins with the spaces and left enclosure characters
        before its first token (urlextract looks left over them), and a token without an
        anchor holds no hit that gives anything (see ``_DOT_ANCHOR``).  Each window's run
        is then one piece of the whole run, as :meth:`_TrackedURLExtract._window_is_exact`
        checks; a window cut inside a run longer than ``window`` (only for the candidates)
        is not, and neither is a URL whose indices are not its own text.  The caller holds the lock.
        """
        out: list[RawLink] = []
        dual = isinstance(extractor, _CandidateURLExtract) and extractor._dual
        own: list[RawLink] | None = [] if dual else None
        end = 0
        pos = own_pos = 0  # as in _spans, over the whole text
        anchor = first.re
        for lo, hi in anchored_windows(text, anchor, space=ASCII_SPACE, gap=_GAP, window=window, first=first):
            if lo < end:
                return None  # cut inside a run without white space: the windows overlap
            end = hi
            while lo and text[lo - 1] in _LEFT_CONTEXT:
                lo -= 1
            chunk = text[lo:hi] if hi - lo < len(text) else text
            run = UrlExtractBackend._window_run(extractor, chunk, dual)
            for url, start, stop, kind, lib_url in run.found:
                start += lo
                stop += lo
                placed = len(out)
                new_pos = _place(out, text, url, start, stop, pos, kind)
                if own is not None and lib_url is not None:
                    if lib_url != url:
                        own = None
                    elif own_pos == pos:  # _place would do the same for urlextract's own list
                        own += out[placed:]
                        own_pos = new_pos
                    else:
                        own_pos = _place(own, text, url, start, stop, own_pos, kind)
                pos = new_pos
            if not run.exact:
                return None
            if not run.same:
                own = None
        if len(text) > _WINDOW and isinstance(extractor, _CandidateURLExtract):
            return sorted(set(out), key=_SPAN), own
        out.sort(key=_SPAN)
        if own is not None:
            own.sort(key=_SPAN)
        return out, own

    @staticmethod
    def _window_run(extractor: _TrackedURLExtract, chunk: str, dual: bool) -> _Run:
        """One run of ``extractor`` on the window ``chunk`` (``dual``: the candidates' extractor
        in its dual mode), or what the last run on the same window gave.

        A run depends on the window's text alone (``_begin`` resets the extractor, the
        configuration is the backend's own), and text repeats: signatures, changelog
        trailers, the same project URLs.  Up to ``_RUNS`` windows of at most
        ``_RUN_CHARS`` code points are kept per extractor, all dropped when it is full
        (:meth:`UrlExtractBackend.clear_memo` empties it too).  The caller holds the lock.
        """
        key = (chunk, dual)
        run = extractor._runs.get(key)
        if run is not None:
            return run
        extractor._begin()
        found: list[tuple[str, int, int, Literal["url", "email"], str | None]] = []
        lib = extractor if dual and isinstance(extractor, _CandidateURLExtract) else None
        for url, (start, stop) in cast(_Found, extractor.gen_urls(chunk, get_indices=True)):
            found.append((url, start, stop, _kind(url), None if lib is None else lib._lib_url))
        run = _Run(tuple(found), extractor._window_is_exact(len(chunk)), lib is None or lib._same)
        if len(chunk) <= _RUN_CHARS:
            if len(extractor._runs) >= _RUNS:
                extractor._runs.clear()
            extractor._runs[key] = run
        return run

    @staticmethod
    def _spans(extractor: URLExtract, text: str) -> list[RawLink]:
        """The links of one ``extractor`` call on ``text``, sorted."""
        out: list[RawLink] = []
        pos = 0
        # With get_indices=True, urlextract yields (url, (start, end)) pairs.
        found_urls = cast(_Found, extractor.gen_urls(text, get_indices=True))
        for url, (start, end) in found_urls:
            pos = _place(out, text, url, start, end, pos, _kind(url))
        out.sort(key=_SPAN)
        return out


def _kind(url: str) -> Literal["url", "email"]:
    """What a URL urlextract reports is: ``x@y`` without ``://`` or ``/`` is an email."""
    return "email" if "@" in url and "://" not in url and "/" not in url else "url"


def _place(
    out: list[RawLink], text: str, url: str, start: int, end: int, pos: int, kind: Literal["url", "email"]
) -> int:
    """Append the link urlextract reports as ``(url, (start, end))`` (see ``UrlExtractBackend._spans``); the new ``pos``."""
    if text[start:end] != url:
        # urlextract's indices can be off after it trims a span; find the text itself.
        found = text.find(url, max(0, pos - len(url)))
        if found == -1:
            return pos
        start, end = found, found + len(url)
    out.append(RawLink(start, end, kind))
    return end


# --- The fast path of any configured URLExtract instance (``wrap(URLExtract())``) ----------------

#: The methods of URLExtract whose steps ``_Tracking`` follows, or whose walk stops at the stop
#: characters (so at ASCII white space): an instance whose class overrides one takes the plain path.
_OWN_STEPS = (
    "gen_urls",
    "_complete_url",
    "_validate_tld_match",
    "_get_tld_pos",
    "_remove_enclosure_from_url",
    "_split_markdown",
)
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_SPACES = frozenset(" \t\n\r\x0b\x0c")
#: Anchored tokens at most this far apart go to a wrapped instance in one call.  Its TLD
#: pattern (as urlextract builds it: a flat alternation of every TLD) is slow per character
#: scanned, so text between tokens is not worth joining.
INSTANCE_GAP = 0


class _InstancePlan:
    """How :func:`instance_gen_urls` runs one configured instance: its anchor, the characters
    urlextract looks left over, and a tracked copy of it (the state of a run is the copy's)."""

    __slots__ = ("anchor", "clone", "items", "left_context", "lock", "state")

    def __init__(
        self, anchor: re.Pattern[str], clone: _Tracking, left_context: frozenset[str], state: tuple[Any, ...]
    ) -> None:
        self.anchor = anchor
        self.clone = clone
        self.left_context = left_context
        self.state = state
        self.lock = threading.Lock()


#: instance -> (the state its plan was made for, the plan or None: the plain path).
_PLANS: weakref.WeakKeyDictionary[URLExtract, tuple[tuple[Any, ...], _InstancePlan | None]] = (
    weakref.WeakKeyDictionary()
)
_TRACKED_CLASSES: dict[type[URLExtract], type[Any]] = {}


def instance_state(extractor: URLExtract) -> tuple[Any, ...]:
    """What the plan of ``extractor`` (and its answers to any text) depends on: its attributes (by identity), and the contents
    of the sets it reads that can change in place (stop characters, after-TLD characters, enclosures)."""
    attrs = tuple(vars(extractor).items())
    sets: tuple[frozenset[Any], ...]
    try:
        sets = (
            frozenset(extractor._stop_chars_left),
            frozenset(extractor._stop_chars_right),
            frozenset(extractor._after_tld_chars),
            frozenset(extractor._enclosure),
        )
    except (AttributeError, TypeError):
        sets = ()
    return (type(extractor), sets, *((k, id(v)) for k, v in attrs))


def _tld_strings(pattern: object) -> list[str] | None:
    """The TLD strings of a pattern as urlextract builds it (``"|".join(re.escape(tld) ...)``), or None."""
    if not isinstance(pattern, re.Pattern) or not isinstance(pattern.pattern, str):
        return None
    if pattern.flags & ~(re.IGNORECASE | re.UNICODE):
        return None
    strings = [_ESCAPED.sub(r"\1", part) for part in pattern.pattern.split("|")]
    if not all(strings) or "|".join(re.escape(s) for s in strings) != pattern.pattern:
        return None
    return strings


def _make_plan(extractor: URLExtract, state: tuple[Any, ...]) -> _InstancePlan | None:
    """The plan of ``extractor`` as configured now, or None (see :func:`instance_gen_urls`)."""
    cls = type(extractor)
    if any(getattr(cls, name, None) is not getattr(URLExtract, name) for name in _OWN_STEPS):
        return None
    strings = _tld_strings(getattr(extractor, "_tlds_re", None))
    stops_left = getattr(extractor, "_stop_chars_left", None)
    stops_right = getattr(extractor, "_stop_chars_right", None)
    after = getattr(extractor, "_after_tld_chars", None)
    enclosure = getattr(extractor, "_enclosure", None)
    if strings is None or not isinstance(after, set) or not isinstance(enclosure, set):
        return None
    if not isinstance(stops_left, set) or not isinstance(stops_right, set):
        return None
    if not (stops_left >= _SPACES and stops_right >= _SPACES):
        return None  # a link may cross ASCII white space: no windows
    # A hit gives something only before an after-TLD character or at the end (_validate_tld_match),
    # wherever gen_urls relocates it: the anchor takes every TLD there (any case).
    after_chars = sorted(ch for ch in after if isinstance(ch, str) and len(ch) == 1)
    follow = (f"[{''.join(re.escape(ch) for ch in after_chars)}]|" if after_chars else "") + r"\Z"
    anchor = re.compile(f"(?:{build_tld_pattern(frozenset(strings))})(?={follow})", re.IGNORECASE)
    tracked = _TRACKED_CLASSES.get(cls)
    if tracked is None:
        tracked = _TRACKED_CLASSES.setdefault(cls, type(f"_Tracked{cls.__name__}", (_Tracking, cls), {}))
    clone = cast(_Tracking, object.__new__(tracked))
    vars(clone).update(vars(extractor))
    clone._recorder = _Recorder(cast(re.Pattern[str], extractor._tlds_re))
    clone._tlds_re = clone._recorder  # type: ignore[attr-defined]
    clone._runs = {}
    clone._begin()
    left = frozenset(" ") | {pair[0] for pair in enclosure if isinstance(pair, tuple) and pair}
    return _InstancePlan(anchor, clone, left, state)


def instance_plan(extractor: URLExtract) -> _InstancePlan | None:
    """The plan of ``extractor`` (kept per instance until its configuration changes), or None."""
    state = instance_state(extractor)
    try:
        known = _PLANS.get(extractor)
    except TypeError:  # not weak-referenceable or not hashable
        return _make_plan(extractor, state)
    if known is not None and known[0] == state:
        return known[1]
    try:
        plan = _make_plan(extractor, state)
    except Exception:  # an instance in a state urlextract itself would not build: the plain path
        plan = None
    _PLANS[extractor] = (state, plan)
    return plan


def instance_gen_urls(
    extractor: URLExtract, text: str, with_schema_only: bool = False
) -> list[tuple[str, tuple[int, int]]] | None:
    """``list(extractor.gen_urls(text, get_indices=True, with_schema_only=...))``, from the anchored
    tokens only; None where that cannot be shown to be exact (the caller makes the plain call).

    As for the backend (``UrlExtractBackend._fast``): urlextract is given the tokens (cut at
    ASCII white space) that hold an *anchor* of the instance, derived from its own TLD pattern
    and after-TLD characters (a TLD hit followed by one of them, or at the end: no other hit
    gives anything), with the spaces and left enclosure characters before each; a tracked
    copy of the instance (:class:`_Tracking`) checks that each window's run is that part of
    one run on the whole text.  The plain path (None) is taken when the instance's class
    overrides a step of ``gen_urls`` (``_OWN_STEPS``), its ``_tlds_re`` is not urlextract's
    own form (an alternation of escaped TLDs, no flags but IGNORECASE), its stop characters
    leave out ASCII white space, or a run of over ``WINDOW`` code points without white space
    holds an anchor.
    """
    plan = instance_plan(extractor)
    if plan is None:
        return None
    first = plan.anchor.search(text)
    if first is None:
        return []
    out: list[tuple[str, tuple[int, int]]] = []
    clone, left = plan.clone, plan.left_context
    end = 0
    try:
        with plan.lock:
            for lo, hi in anchored_windows(
                text, plan.anchor, space=ASCII_SPACE, gap=INSTANCE_GAP, window=_WINDOW, first=first
            ):
                if lo < end:
                    return None  # cut inside a run without white space
                end = hi
                while lo and text[lo - 1] in left:
                    lo -= 1
                chunk = text[lo:hi] if hi - lo < len(text) else text
                clone._begin()
                found = cast(
                    _Found,
                    cast(URLExtract, clone).gen_urls(chunk, get_indices=True, with_schema_only=with_schema_only),
                )
                for url, (start, stop) in found:
                    out.append((url, (start + lo, stop + lo)))
                if not clone._window_is_exact(len(chunk)):
                    return None
    except Exception:  # the plain call raises it again, or not
        return None
    return out
