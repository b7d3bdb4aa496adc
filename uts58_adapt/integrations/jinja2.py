"""Jinja2's ``urlize`` filter with UTS #58 links: ``uts58_adapt.integrations.jinja2.install(env)``.

The upgraded filter has the parameters of Jinja2's (``trim_url_limit``, ``nofollow``,
``target``, ``rel``, ``extra_schemes``, and the ``urlize.*`` policies of the
environment) and returns ``Markup`` when autoescape is on, as Jinja2's does.  Jinja2
(``jinja2.utils.urlize``) finds the spans; the filter that was installed renders every
link with the caller's arguments; the spans are refined (``integrations._urlize``).
Jinja2 reads only the words that can hold a link (``backends.jinja2.jinja2_anchor``),
and when the installed filter is Jinja2's own, a refined link that is Jinja2's own span
takes the anchor Jinja2 rendered for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import jinja2.utils
from jinja2 import Environment, pass_eval_context
from jinja2.filters import do_urlize
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

from ..backends._html_spans import LibraryLink
from ..backends.jinja2 import (
    JINJA2_SEPARATORS,
    jinja2_anchor,
    jinja2_links_url,
    jinja2_markup,
    jinja2_render_word,
)
from ..refine.risk_profile import RejectRisky, reject_risky_value
from ._urlize import _remember, in_text, urlize_refined

__all__ = ["install"]

#: Per rendering configuration (``render_key``): the attributes Jinja2 writes after a URL's href, when
#: ``jinja2_render_word`` with them gives Jinja2's output on :data:`_CHECK_WORDS`, else None.
_ATTRS: dict[Hashable, str | None] = {}
_PROBE_HREF = re.compile(r'\A<a href="http://example\.com/"([^<>]*)>')
_CHECK_WORDS = (
    "http://example.com/",
    "https://b\u00fccher.example/\u00e4?q=1&r=\u00e9#f",
    "www.example.org/x'y",
    "example.com/" + "x" * 30,
    "a.b@example.com",
    "\u00fc@example.com",
    "mailto:a@example.com",
    "x@y",
    "www.a@b.com",
    'a&b"c@x',
)


def _checked_attrs(
    render_key: Hashable, render_one: Callable[[str], str], markup: bool, trim_url_limit: int | None
) -> str | None:
    """The attributes of Jinja2's anchors for ``render_key`` (its probe's), once
    ``jinja2_render_word`` is checked against Jinja2 (``render_one``) on :data:`_CHECK_WORDS`; None if it differs."""
    try:
        return _ATTRS[render_key]
    except KeyError:
        pass
    except TypeError:  # a configuration that cannot be a key (an option that is a list): Jinja2 renders
        return None
    attrs = None
    m = _PROBE_HREF.match(render_one("http://example.com/"))
    if m is not None:
        attrs = m.group(1)
        for word in _CHECK_WORDS:
            if jinja2_render_word(word, attrs, trim_url_limit, markup) != render_one(word):
                attrs = None
                break
    if len(_ATTRS) >= 64:
        _ATTRS.clear()
    _ATTRS[render_key] = attrs
    return attrs


def install(env: Environment, *, strict_hosts: bool = False, reject_risky: RejectRisky = False) -> None:
    """Replace ``env.filters["urlize"]`` by its UTS #58 upgrade.

    Installing again with the same options changes nothing; with others, the upgrade of
    the original filter is replaced.

    Jinja2 decides scheme and host: what it links stays linked (``localhost``, an
    intranet host after ``http://``), only invalid hosts are dropped; ``strict_hosts=True``
    adds §1.4's registrable-domain rule, as ``detect()`` applies it; ``reject_risky=True``
    its §8 checks (a link with a risk stays text, an ideographic start moves).

    A value that is ``Markup`` (``{{ x|safe|urlize }}``) is linkified only in what an
    HTML5 parser reads as text: never inside a tag, an attribute value, a comment, an
    ``a`` or a raw text element such as ``script``; never in a word a browser shows joined
    across a tag (``x<b>http://a.com``), nor in a word joined to a tag in the markup (no
    white space between: ``a<p>me.com``) where Jinja2, reading that whole word, links nothing:
    Jinja2 decides where links start (issue 32, ``_urlize.in_text``).
    """
    reject_risky = reject_risky_value(reject_risky)
    original = env.filters["urlize"]
    if getattr(original, "uts58", False):
        if (original.uts58_strict_hosts, original.uts58_reject_risky) == (strict_hosts, reject_risky):
            return
        original = original.uts58_original

    @pass_eval_context
    def urlize(
        eval_ctx: EvalContext,
        value: Any,
        trim_url_limit: int | None = None,
        nofollow: bool = False,
        target: str | None = None,
        rel: str | None = None,
        extra_schemes: Iterable[str] | None = None,
    ) -> str:
        if extra_schemes is None:
            extra_schemes = eval_ctx.environment.policies["urlize.extra_schemes"] or ()
        extra_schemes = tuple(extra_schemes)
        is_markup = isinstance(value, Markup)
        text = str(value)

        def render_one(word: str) -> str:
            return str(
                original(
                    eval_ctx, Markup(word) if is_markup else word, trim_url_limit, nofollow, target, rel, extra_schemes
                )
            )

        urlize = jinja2.utils.urlize
        stock = jinja2_anchor(extra_schemes) is not None
        probe_key = ("jinja2", urlize, jinja2.utils._http_re, jinja2.utils._email_re, extra_schemes) if stock else None
        render_key = None
        render = None
        if stock and original is do_urlize:
            # Jinja2's own filter: rendered with the caller's options, trimming aside, its anchors can be reused.
            policies = eval_ctx.environment.policies
            render_key = (
                probe_key,
                trim_url_limit,
                nofollow,
                target,
                rel,
                is_markup,
                policies["urlize.rel"],
                policies["urlize.target"],
            )

            def render(plain: str) -> str:
                return str(original(eval_ctx, plain, None, nofollow, target, rel, extra_schemes))

        render_word = None
        if render is not None:

            def render_word(word: str, span: LibraryLink | None) -> str | None:
                # Jinja2's anchor for ``word`` alone (what render_one returns), made with its parts (issue 36).
                attrs = _checked_attrs(render_key, render_one, is_markup, trim_url_limit)
                return None if attrs is None else jinja2_render_word(word, attrs, trim_url_limit, is_markup)

        def convert(run: str) -> str:
            found = jinja2_markup(run, extra_schemes, render)
            return urlize_refined(
                run,
                [one.link for one in found],
                rendered=found if render is not None else None,
                escapes=not is_markup,
                separators=JINJA2_SEPARATORS,
                trim_url_limit=trim_url_limit,
                probe_key=probe_key,
                render_key=render_key,
                render_one=render_one,
                render_escaped=lambda word: urlize(word, extra_schemes=extra_schemes),
                escape_text=None if is_markup else (lambda s: str(escape(s))),
                default_scheme="https://",
                strict_hosts=strict_hosts,
                reject_risky=reject_risky,
                # Markup holds character references: "&amp;" at the end of a link stays whole.
                html_entities=is_markup,
                markup=is_markup,
                render_word=render_word,
                links_url=jinja2_links_url if stock else None,
            )

        def links_word(word: str) -> bool:
            """Whether Jinja2 links something in the markup ``word`` (tags included) given alone."""
            if render is None:
                return render_one(word) != word  # another filter: asked as it is installed
            # Jinja2's own: its options change no link, and a word without ".", "@", ":" or an extra
            # scheme matches none of its patterns (_http_re, _email_re, "mailto:", the schemes).
            if not (
                "." in word
                or "@" in word
                or ":" in word
                or any(not isinstance(s, str) or s in word for s in extra_schemes)
            ):
                return False
            if not extra_schemes:
                # Jinja2's answer made with its parts (its _http_re and _email_re): None where it may trim.
                alone = jinja2_render_word(word, "", None, True)
                if alone is not None:
                    return alone != word
            key = probe_key if len(word) <= 256 else None  # (kept across calls: short words recur)
            return bool(
                _remember(
                    key, "markup word", word, lambda: str(urlize(Markup(word), extra_schemes=extra_schemes)) != word
                )
            )

        # Markup (``|safe``) is linkified only where a browser sees text (issue 21.2), and in a word
        # joined to a tag only when Jinja2 links something in the whole word (issue 32).
        rv = in_text(text, is_markup, convert, words_across_tags=True, links_word=links_word)
        return Markup(rv) if eval_ctx.autoescape else rv

    urlize.uts58 = True  # type: ignore[attr-defined]
    urlize.uts58_original = original  # type: ignore[attr-defined]
    urlize.uts58_strict_hosts = strict_hosts  # type: ignore[attr-defined]
    urlize.uts58_reject_risky = reject_risky  # type: ignore[attr-defined]
    urlize.__doc__ = original.__doc__
    env.filters["urlize"] = urlize
