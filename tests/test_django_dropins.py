"""Each Django function of uts58_adapt is a drop-in for exactly one Django function (issue 34.3):
its parameters, and its output where UTS #58 changes no span (rel="nofollow" included)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("django")

from django.template import defaultfilters
from django.utils import html

from uts58_adapt.integrations import django as ours

#: Text whose links UTS #58 leaves as Django finds them (ASCII, nothing after the links to refine).
PLAIN = "see https://example.com/a and www.example.org, mail b@example.com. <b>"


def _params(function: Callable[..., Any]) -> list[tuple[str, object]]:
    """The positional-or-keyword parameters and their defaults (our keyword-only options left out)."""
    return [
        (p.name, p.default)
        for p in inspect.signature(function).parameters.values()
        if p.kind is not inspect.Parameter.KEYWORD_ONLY
    ]


@pytest.mark.parametrize(
    ("drop_in", "django_function"),
    [(ours.urlize, html.urlize), (ours.urlizetrunc, defaultfilters.urlizetrunc)],
    ids=["urlize-is-django.utils.html.urlize", "urlizetrunc-is-defaultfilters.urlizetrunc"],
)
def test_same_parameters(drop_in: Callable[..., Any], django_function: Callable[..., Any]) -> None:
    wrapped = inspect.unwrap(django_function)
    assert _params(drop_in) == _params(wrapped)


@pytest.mark.parametrize("kwargs", [{}, {"autoescape": True}, {"nofollow": True}, {"trim_url_limit": 12}])
def test_urlize_gives_what_django_utils_html_urlize_gives(kwargs: dict[str, Any]) -> None:
    expected = html.urlize(PLAIN, **kwargs)
    assert ('rel="nofollow"' in expected) == bool(kwargs.get("nofollow"))
    assert ours.urlize(PLAIN, **kwargs) == expected


@pytest.mark.parametrize("autoescape", [True, False])
def test_urlizetrunc_gives_what_the_urlizetrunc_filter_gives(autoescape: bool) -> None:
    expected = defaultfilters.urlizetrunc(PLAIN, 12, autoescape=autoescape)
    assert 'rel="nofollow"' in expected
    assert ours.urlizetrunc(PLAIN, 12, autoescape=autoescape) == expected
