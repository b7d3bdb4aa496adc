"""Django's ``urlize`` and ``urlizetrunc`` with UTS #58 links.

``from uts58_adapt.integrations.django import urlize, urlizetrunc`` gives drop-ins for one
Django function each: ``urlize`` for ``django.utils.html.urlize`` (no ``rel="nofollow"`` unless
asked), ``urlizetrunc`` for the template filter ``django.template.defaultfilters.urlizetrunc``
(always ``rel="nofollow"``).  The template filter ``django.template.defaultfilters.urlize``
(``rel="nofollow"``) has its drop-in in the template library: ``templatetags.uts58.urlize``.  Adding ``"uts58_adapt.integrations.django"`` to ``INSTALLED_APPS`` gives the
template library ``{% load uts58 %}``, whose ``urlize`` and ``urlizetrunc`` filters
replace the built-in ones, autoescaping as Django's do.

Django's own ``Urlizer`` (``django.utils.html.urlizer``, read at each call) finds the
spans and renders every link; the spans are refined (``integrations._urlize``).  Django
reads only the words that can hold a link (``backends.django.django_anchor``), and a
refined link that is Django's own span takes the anchor Django rendered for it.
"""

from __future__ import annotations

from typing import Any, cast

from ...backends._html_spans import LibraryLink, without_surrogates
from ...backends.django import DJANGO_SEPARATORS, django_configuration, django_markup
from ...refine.risk_profile import RejectRisky
from .._urlize import in_text, urlize_refined

__all__ = ["urlize", "urlizetrunc"]

#: ``django.utils.html``, ``SafeData`` and ``mark_safe``, imported at the first call (importing this module
#: does not import Django; an import statement per call costs more than a paragraph's refinement).
_DJANGO: list[Any] = []


def _django() -> list[Any]:
    if not _DJANGO:
        from django.utils import html as django_html
        from django.utils.safestring import SafeData, mark_safe

        _DJANGO[:] = [django_html, SafeData, mark_safe]
    return _DJANGO


def urlize(
    text: Any,
    trim_url_limit: int | None = None,
    nofollow: bool = False,
    autoescape: bool = False,
    *,
    strict_hosts: bool = False,
    reject_risky: RejectRisky = False,
) -> str:
    """A drop-in for ``django.utils.html.urlize`` with UTS #58 links (same parameters, same escaping).

    Not for the template filter ``django.template.defaultfilters.urlize``, which adds
    ``rel="nofollow"``: its drop-in is ``templatetags.uts58.urlize`` (or pass ``nofollow=True``).

    Django decides scheme and host: what it links stays linked (``localhost``, an
    intranet host after ``http://``), only invalid hosts are dropped; ``strict_hosts=True``
    adds §1.4's registrable-domain rule, as ``detect()`` applies it; ``reject_risky=True``
    its §8 checks (a link with a risk stays text, an ideographic start moves).

    Input that stays markup in the output (``SafeData``, or ``autoescape=False``) is
    linkified only in what an HTML5 parser reads as text: never inside a tag, an
    attribute value, a comment, an ``a`` or a raw text element such as ``script``.
    """
    django_html, SafeData, mark_safe = _DJANGO or _django()
    urlizer = django_html.urlizer
    safe_input = isinstance(text, SafeData)
    plain = str(text)

    def render_one(word: str) -> str:
        # Django's own rendering of the word, with the input's safety (a SafeData word is not escaped again).
        # Django raises on a lone surrogate (it encodes to UTF-8): it reads U+FFFD there, as in the spans.
        word = without_surrogates(word)
        piece = mark_safe(word) if safe_input else word
        return str(urlizer(piece, trim_url_limit=trim_url_limit, nofollow=nofollow, autoescape=autoescape))

    def escape_text(s: str) -> str:
        return str(django_html.escape(s))

    config = django_configuration(urlizer)
    probe_key = config.key
    stock = config.anchor is not None
    render_key = None if probe_key is None else (probe_key, trim_url_limit, nofollow, autoescape, safe_input)

    words = config.words
    rendered_words: dict[tuple[str, str], str | None] = {}  # per call, as Django keeps its words' output

    def render_word(word: str, span: LibraryLink | None) -> str | None:
        # Django's anchor for ``word`` alone (what render_one returns), made with Django's parts (issue 36).
        if words is None or not words.ready():
            return None
        scheme_end = -1 if span is None else span.href.find("://")
        href = "" if scheme_end < 0 else span.href[: scheme_end + 3]  # type: ignore[union-attr]  # (its protocol)
        key = (word, href)
        try:
            return rendered_words[key]
        except KeyError:
            pass
        own = rendered_words[key] = words.render(word, href, safe_input, trim_url_limit, nofollow, autoescape)
        return own

    def spans_of(word: str) -> list[tuple[int, int]] | None:
        # Django's spans in a word it is asked about (an email's or a host's), decided with its own parts.
        if words is None or not words.ready():
            return None
        protocol = words.protocol()
        return words.spans(word, protocol if protocol is not None and words.ready(protocol) else None)

    def convert(run: str) -> str:
        found = django_markup(urlizer, run, nofollow, config)
        return urlize_refined(
            run,
            [one.link for one in found],
            # Django's own Urlizer (it has anchors): its anchors can be reused.
            rendered=found if stock else None,
            escapes=autoescape and not safe_input,
            separators=DJANGO_SEPARATORS if stock else None,
            trim_url_limit=trim_url_limit,
            probe_key=probe_key,
            render_key=render_key,
            links_url=config.links_url,
            links_email=config.links_email,
            links_word=config.links_word,
            render_one=render_one,
            render_escaped=lambda word: str(urlizer(without_surrogates(word), autoescape=True)),
            escape_text=escape_text if autoescape and not safe_input else None,
            default_scheme="http://",
            strict_hosts=strict_hosts,
            html_entities=True,
            reject_risky=reject_risky,
            markup=markup,
            render_word=render_word if stock else None,
            spans_of=spans_of if stock else None,
        )

    # Markup (safe input, or autoescape off) is linkified only where a browser sees text.
    markup = safe_input or not autoescape
    return in_text(plain, markup, convert)


def urlizetrunc(
    value: Any, limit: int, autoescape: bool = True, *, strict_hosts: bool = False, reject_risky: RejectRisky = False
) -> str:
    """A drop-in for the template filter ``django.template.defaultfilters.urlizetrunc`` with UTS #58 links:
    display texts cut to ``limit``, ``rel="nofollow"``, autoescaped by default."""
    from django.utils.safestring import mark_safe

    return cast(
        str,
        mark_safe(
            urlize(
                value,
                trim_url_limit=int(limit),
                nofollow=True,
                autoescape=autoescape,
                strict_hosts=strict_hosts,
                reject_risky=reject_risky,
            )
        ),
    )
