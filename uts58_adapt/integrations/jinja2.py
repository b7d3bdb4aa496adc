"""Jinja2's ``urlize`` filter with UTS #58 links: ``uts58_adapt.integrations.jinja2.install(env)``.

The upgraded filter has the parameters of Jinja2's (``trim_url_limit``, ``nofollow``,
``target``, ``rel``, ``extra_schemes``, and the ``urlize.*`` policies of the
environment) and returns ``Markup`` when autoescape is on, as Jinja2's does.  Jinja2
(``jinja2.utils.urlize``) finds the spans; the filter that was installed renders every
link with the caller's arguments; the spans are refined (``integrations._urlize``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jinja2 import Environment, pass_eval_context
from jinja2.nodes import EvalContext
from jinja2.utils import urlize as jinja2_urlize
from markupsafe import Markup, escape

from ..backends.jinja2 import jinja2_spans
from ._urlize import in_text, urlize_refined

__all__ = ["install"]


def install(env: Environment, *, strict_hosts: bool = False, reject_risky: bool = False) -> None:
    """Replace ``env.filters["urlize"]`` by its UTS #58 upgrade.

    Installing again with the same options changes nothing; with others, the upgrade of
    the original filter is replaced.

    Jinja2 decides scheme and host: what it links stays linked (``localhost``, an
    intranet host after ``http://``), only invalid hosts are dropped; ``strict_hosts=True``
    adds §1.4's registrable-domain rule, as ``detect()`` applies it; ``reject_risky=True``
    its §8 checks (a link with a risk stays text, an ideographic start moves).

    A value that is ``Markup`` (``{{ x|safe|urlize }}``) is linkified only in what an
    HTML5 parser reads as text: never inside a tag, an attribute value, a comment, an
    ``a`` or a raw text element such as ``script``.
    """
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

        def convert(run: str) -> str:
            return urlize_refined(
                run,
                jinja2_spans(run, extra_schemes),
                render_one=render_one,
                render_escaped=lambda word: jinja2_urlize(word, extra_schemes=extra_schemes),
                escape_text=(lambda s: s) if is_markup else (lambda s: str(escape(s))),
                default_scheme="https://",
                strict_hosts=strict_hosts,
                reject_risky=reject_risky,
            )

        # Markup (``|safe``) is linkified only where a browser sees text (issue 21.2).
        rv = in_text(text, is_markup, convert)
        return Markup(rv) if eval_ctx.autoescape else rv

    urlize.uts58 = True  # type: ignore[attr-defined]
    urlize.uts58_original = original  # type: ignore[attr-defined]
    urlize.uts58_strict_hosts = strict_hosts  # type: ignore[attr-defined]
    urlize.uts58_reject_risky = reject_risky  # type: ignore[attr-defined]
    urlize.__doc__ = original.__doc__
    env.filters["urlize"] = urlize
