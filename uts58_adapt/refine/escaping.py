"""UTS #58 §4 URL Minimal Escaping of whole URLs (§4.1, §10 "Migration: Link Formatting").

The §4.1 algorithm itself, on one part, is in :mod:`.part_escaping`; the decoding and
data escaping of a whole URL's parts in :mod:`.url_parts`.  Three entry points (the
first re-exported from :mod:`.part_escaping`):

``minimal_escape_part(text, part, last=...)``
    The §4.1 URL Minimal Escaping Algorithm for one URL part (Path, Query,
    Fragment or fragment directive), whose data characters that are syntax for
    the part are already percent-escaped.  Both functions below use it.
``minimal_escape(url)``
    A whole URL string, e.g. a fully escaped ``href``: the Scheme, Host and Port
    are formatted "as is customary" (§4.1; an ``xn--`` host label is shown in
    Unicode by UTS #46 ToUnicode), and the Path, Query and Fragment are
    percent-decoded and re-escaped minimally (§10, Migration: Link Formatting).
``format_url(scheme, host, path, query, fragment, directives)``
    The same from structured parts, whose strings are data: the characters
    that are syntax for their part are escaped first, as §4.1 assumes.

The point of the minimal form (§4) is that link detection of the result, when
it stands alone, covers all of it: ``terminate(text, host_end)`` (§3.5.1) ends
exactly at the end of the URL.

Conventions where the standard is silent (each keeps that promise, and
``minimal_escape`` idempotent):

* Percent-escapes are written with uppercase hex digits of the UTF-8 bytes.
* Lone surrogates cannot be encoded in UTF-8.  U+DC80..U+DCFF are taken as
  Python's ``surrogateescape`` stand-ins for undecodable bytes (as in
  ``sys.argv`` or text read with ``errors="surrogateescape"``) and escaped as
  that byte (U+DCFF -> ``%FF``); any other lone surrogate is escaped as its
  WTF-8 bytes (``'surrogatepass'``: U+D800 -> ``%ED%A0%80``).  Such bytes are
  not valid UTF-8, so they stay escaped when the result is escaped again.
* A closing bracket that does not match the top of the open stack is escaped
  *without* popping the stack.  §4.1 as written pops it, which can leave a
  later, literal Close that the detection algorithm then stops at
  (``[(]]``: §3.5.1 stops at the last ``]`` if the ``(`` was popped here).
* A ClearStackOpen sequence of the part (``/`` in a path, ``=`` ``&`` in a
  query, ``&`` ``,`` ``:~:`` in a directive) is structure: like the detection
  algorithm, it is treated as safe, so a structural ``,`` that ends the last
  directive is not turned into data (``%2C``).
* ``\\`` is treated as a path syntax character as well as ``/?#``: WHATWG URL
  parsing reads it as ``/`` in the path of special schemes, so a data ``\\``
  (``%5C``) stays escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import idna

from ..properties import FLAGS, HARD, INCLUDE, SOFT, TERM_MASK, class_body, flag_runs
from .part_escaping import DIRECTIVE_INITIATOR, INITIATORS, minimal_escape_part, percent_escape
from .termination import DIRECTIVE, FRAGMENT, PATH, QUERY
from .url_parts import _SURROGATE, _data, _decode, _normalize_surrogates, _serialize

__all__ = [
    "INITIATORS",
    "format_url",
    "minimal_escape",
    "minimal_escape_part",
    "percent_escape",
]


def _plain_class(excluded: str) -> str:
    """A character class body: the BMP Include and Soft code points, minus ``excluded``."""
    return class_body(flag_runs(lambda b: b & TERM_MASK in (INCLUDE, SOFT), 0x10000), excluded)


# Scheme (not 'name:digits', which is a host and port), '//', then the authority up
# to the first '/', '?' or '#'.  Everything is optional, so it always matches.
_HEAD = re.compile(r"(?:([A-Za-z][A-Za-z0-9+.\-]*:)(?![0-9]+(?:[/?#]|\Z))(//)?|(//))?([^/?#]*)")
# A tail that §4.1 leaves unchanged, if it does not end with a Soft code point: no
# '%', no Hard, Open or Close code point, nothing above U+FFFF, and no '?' or '#'
# that would start a part.  An exact shortcut, not a heuristic.
_PLAIN_TAIL = re.compile(f"(?:/[{_plain_class('%?#')}]*)?(?:\\?[{_plain_class('%#')}]*)?(?:#[{_plain_class('%')}]*)?")
# The whole URL when minimal_escape returns it unchanged (more checks in minimal_escape).
_PLAIN_URL = re.compile(_HEAD.pattern + _PLAIN_TAIL.pattern)


def _ascii_unchanged_pattern() -> re.Pattern[str]:
    """ASCII URLs that ``minimal_escape`` certainly returns unchanged, as one regex (see ``_ascii_unchanged``).

    Printable ASCII except ``%``, brackets and ``\\`` (§4.1 never changes those characters by
    themselves); no upper-case letter before the first ``:`` when there is one (the scheme
    is lowercased); and a last character that is not Soft.  Each alternative is a single
    greedy class followed by a one-character test, so a failed match costs linear time.
    """
    plain = [chr(c) for c in range(0x21, 0x7F) if chr(c) not in "%()<>[]{}\\"]
    soft = "".join(ch for ch in plain if FLAGS[ord(ch)] & TERM_MASK == SOFT)
    before_colon = re.escape("".join(ch for ch in plain if ch != ":" and not "A" <= ch <= "Z"))
    no_colon = re.escape("".join(ch for ch in plain if ch != ":"))
    body = re.escape("".join(plain))
    return re.compile(f"(?:[{before_colon}]*:[{body}]*|[{no_colon}]+)(?<![{re.escape(soft)}])")


_ASCII_UNCHANGED = _ascii_unchanged_pattern().fullmatch
_SCHEME_NAME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*\Z")

# --------------------------------------------------------------------------
# Scheme, host and port: "as is customary" (§4.1).


@lru_cache(maxsize=4096)
def _to_unicode(label: str) -> str:
    """UTS #46 ToUnicode of one ``xn--`` label via ``idna.decode``; the label itself when that fails."""
    try:
        decoded = idna.decode(label)
    except Exception:  # idna.IDNAError, UnicodeError, ValueError...: keep the A-label
        return label
    if (
        not isinstance(decoded, str)
        or not decoded
        or decoded[:4].lower() == "xn--"
        or any(ch in "./?#@:[]%\\" or FLAGS[ord(ch)] & TERM_MASK == HARD for ch in decoded)
    ):
        return label
    return decoded


def _display_authority(authority: str) -> str:
    """Format userinfo, host and port: ``xn--`` host labels in Unicode, nothing else changed.

    Lone surrogates (unencodable) are percent-escaped as described in the module docstring.
    """
    if not authority.isascii():
        authority = _normalize_surrogates(authority)
        if _SURROGATE.search(authority):
            authority = _SURROGATE.sub(lambda m: percent_escape(m.group()), authority)
    if "xn--" not in authority.lower():
        return authority
    userinfo, at, hostport = authority.rpartition("@")
    host, colon, port = hostport, "", ""
    if not hostport.startswith("["):
        h, c, p = hostport.rpartition(":")
        if c and p.isascii() and (p == "" or p.isdigit()):
            host, colon, port = h, c, p
    labels = [_to_unicode(label) if label[:4].lower() == "xn--" else label for label in host.split(".")]
    return userinfo + at + ".".join(labels) + colon + port


def minimal_escape(url: str) -> str:
    """Return ``url`` in the minimal escaped form of UTS #58 §4 (§4.1 with §10 Migration: Link Formatting).

    The URL is split as ``scheme://authority`` (or ``scheme:`` without ``//``,
    e.g. ``mailto:``; ``//authority``; or no scheme at all, e.g.
    ``example.com/α``), then the Path (from the first ``/``), Query (``?``),
    Fragment (``#``) and fragment directive (the first ``:~:`` in the fragment).
    A ``name:digits`` start such as ``localhost:8080/`` is a host and port, not
    a scheme.

    * The scheme is lowercased; userinfo and port are kept; each ``xn--`` host
      label is shown in Unicode (UTS #46 ToUnicode with ``idna.decode``) unless
      that fails.  Nothing else in the scheme or authority is changed.
    * In each part, literal characters are structure and kept.  Runs of ``%XX``
      are decoded as UTF-8: characters that are syntax for the part stay
      escaped (``%2F`` ``%3F`` ``%23`` in a path, ``%23`` ``%26`` ``%3D`` ``%2B``
      in a query, ``%26`` ``%2C`` in a directive, the ``:`` of a ``:~:`` in a
      fragment or directive); invalid UTF-8 bytes stay escaped (``%FF``,
      ``%C2%C2``); a ``%`` stays ``%25`` only where two hex digits follow it.  A
      ``%`` not followed by two hex digits is left as it is.  Everything is then
      escaped again by §4.1 (``minimal_escape_part``).
    * Nothing is dropped: an empty part keeps its initiator (``x.com/a?``); an
      initiator ends a link safely, so only a final Soft character of a URL
      that ends inside a non-empty part is escaped.

    It never raises for a str.  Text that is not a URL is treated the same way:
    what comes before the first ``/``, ``?`` or ``#`` is taken as the host and
    left as it is (so ``"a b"`` is returned unchanged), and the rest as parts.
    Surrounding whitespace is not trimmed.  The result contains no lone
    surrogates, and ``minimal_escape(minimal_escape(x)) == minimal_escape(x)``.
    """
    # Most URLs in running text are minimal ASCII already: _ascii_unchanged, inlined, comes
    # first (the regex raises TypeError for a non-str, and the type check below explains it).
    try:
        if _ASCII_UNCHANGED(url) is not None and "--" not in url:
            return url
    except TypeError:
        pass
    if not isinstance(url, str):
        raise TypeError(f"url must be str, not {type(url).__name__}")
    return _minimal_escape(url)


def _ascii_unchanged(url: str) -> bool:
    """Whether ``url`` is ASCII with no '%' and certainly left unchanged by §4.1 (a C-speed check).

    §4.1 can only change such a URL through a Hard or bracket character, a final Soft
    one, an upper-case scheme or an ``xn--`` label (any ``--`` is sent the long way);
    when none is present it is minimal.  A property test checks it against the full
    algorithm.
    """
    return _ASCII_UNCHANGED(url) is not None and "--" not in url


def _minimal_escape(url: str) -> str:
    """``minimal_escape`` after the type check and the ASCII shortcut."""
    # Shortcut: is the URL already minimal?  (match, not fullmatch: the greedy parse is
    # the same as the one below, and a failure costs no backtracking.)
    m = None if "%" in url else _PLAIN_URL.match(url)
    if m is not None and m.end() == len(url):
        scheme, _, _, authority = m.groups()
        if (
            (scheme is None or scheme.islower())
            and authority.isascii()
            and "xn--" not in authority.lower()
            and (m.end(4) == len(url) or FLAGS[ord(url[-1])] & TERM_MASK != SOFT)
        ):
            return url
    m = _HEAD.match(url)
    assert m is not None  # every group of _HEAD is optional or may be empty
    scheme, slashes, bare_slashes, authority = m.groups()
    if scheme:
        head = scheme.lower() + (slashes or "")
    else:
        head = bare_slashes or ""
    if not authority.isascii() or "xn--" in authority.lower():
        authority = _display_authority(authority)
    head += authority
    tail = url[m.end() :]
    parts: list[tuple[int, str]] = []
    hash_at = tail.find("#")
    before = tail if hash_at < 0 else tail[:hash_at]
    query_at = before.find("?")
    path = before if query_at < 0 else before[:query_at]
    if path:
        parts.append((PATH, _decode(path[1:], PATH)))
    if query_at >= 0:
        parts.append((QUERY, _decode(before[query_at + 1 :], QUERY)))
    if hash_at >= 0:
        fragment = tail[hash_at + 1 :]
        directive_at = fragment.find(DIRECTIVE_INITIATOR)
        if directive_at < 0:
            parts.append((FRAGMENT, _decode(fragment, FRAGMENT)))
        else:
            parts.append((FRAGMENT, _decode(fragment[:directive_at], FRAGMENT)))
            parts.append((DIRECTIVE, _decode(fragment[directive_at + 3 :], DIRECTIVE)))
    return _serialize(head, parts)


def _check_str(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str, not {type(value).__name__}")
    return value


def _check_strings(values: object, name: str) -> list[str]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a sequence of str, not {type(values).__name__}")
    return [_check_str(v, f"{name}[{k}]") for k, v in enumerate(values)]


def format_url(
    scheme: str,
    host: str,
    path: Sequence[str] = (),
    query: Sequence[tuple[str, str | None]] = (),
    fragment: str | None = None,
    directives: Sequence[str] = (),
) -> str:
    """Format a URL from its parts in the minimal escaped form of UTS #58 §4.1.

    All strings after ``host`` are data.  Their characters that are syntax for
    the part are escaped first, as §4.1 assumes: ``/?#`` (and ``\\``) in a path
    segment, ``#&=+`` in a query key or value, ``&,`` in a directive, the first
    character of each ``:~:`` in the fragment or a directive; a ``%`` followed
    by two hex digits becomes ``%25``, any other ``%`` stays.  Then §4.1 runs on
    each part (``minimal_escape_part``); only the last character of the last
    part can get the trailing-Soft escape.

    * ``scheme``: ``"https"``, ``"https://"`` or ``"mailto:"`` (a bare name gets
      ``://``; it is lowercased), or ``""`` / ``"//"`` for none.
    * ``host``: the authority, shown as is except that ``xn--`` labels are shown
      in Unicode (UTS #46 ToUnicode); it may carry ``userinfo@`` and ``:port``.
      ValueError if it contains ``/``, ``?``, ``#`` or a Hard character.
    * ``path``: the segments (``["wiki", "α"]`` -> ``/wiki/α``).
    * ``query``: ``(key, value)`` pairs, ``value`` None for a bare key.
    * ``fragment``: None for no fragment.
    * ``directives``: fragment directive strings such as ``"text=foo"``; each
      comes after a ``:~:``, and a ``#`` is written even if ``fragment`` is None.
      Their ``,`` and ``&`` are data (escaped).

    As in §4.1 ("each URL part in any non-empty Path, Query, Fragment"), a part
    that serializes to nothing (``path=[""]``, ``fragment=""``) is left out.
    TypeError for arguments of the wrong type.
    """
    _check_str(scheme, "scheme")
    _check_str(host, "host")
    segments = _check_strings(path, "path")
    if isinstance(query, (str, bytes)) or not isinstance(query, Sequence):
        raise TypeError(f"query must be a sequence of (key, value) pairs, not {type(query).__name__}")
    pairs: list[tuple[str, str | None]] = []
    for k, pair in enumerate(query):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"query[{k}] must be a (key, value) tuple")
        key, value = pair
        _check_str(key, f"query[{k}] key")
        if value is not None:
            _check_str(value, f"query[{k}] value")
        pairs.append((key, value))
    if fragment is not None:
        _check_str(fragment, "fragment")
    directive_list = _check_strings(directives, "directives")

    if scheme in ("", "//"):
        prefix = scheme
    else:
        name = scheme[:-3] if scheme.endswith("://") else scheme[:-1] if scheme.endswith(":") else scheme
        if not _SCHEME_NAME.match(name):
            raise ValueError(f"scheme {scheme!r} is not a URL scheme")
        prefix = scheme.lower() if scheme.endswith(":") else name.lower() + "://"
    if any(ch in "/?#" or FLAGS[ord(ch)] & TERM_MASK == HARD for ch in host):
        raise ValueError(f"host {host!r} contains '/', '?', '#' or a Hard character")
    head = prefix + _display_authority(host)

    parts: list[tuple[int, str]] = []
    path_text = "/".join(_data(segment, PATH) for segment in segments)
    if path_text:
        parts.append((PATH, path_text))
    query_text = "&".join(
        _data(key, QUERY) + ("" if value is None else "=" + _data(value, QUERY)) for key, value in pairs
    )
    if query_text:
        parts.append((QUERY, query_text))
    fragment_text = "" if fragment is None else _data(fragment, FRAGMENT)
    directive_text = DIRECTIVE_INITIATOR.join(_data(d, DIRECTIVE) for d in directive_list)
    if directive_text:
        parts.append((FRAGMENT, fragment_text))
        parts.append((DIRECTIVE, directive_text))
    elif fragment_text:
        parts.append((FRAGMENT, fragment_text))
    return _serialize(head, parts)
