"""``{% load uts58 %}``: the ``urlize`` and ``urlizetrunc`` filters with UTS #58 links.

The filters take the options of :func:`uts58_adapt.integrations.django.urlize` from the
project's settings, read at each call: ``UTS58_ADAPT = {"strict_hosts": True,
"reject_risky": True}`` (both off when the setting is absent; ``"reject_risky": "browser"``
takes the stricter profile of ``link_risks``).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.template.defaultfilters import stringfilter
from django.utils.safestring import SafeString, mark_safe

from .. import urlize as _urlize
from .. import urlizetrunc as _urlizetrunc

register = template.Library()

#: The options ``UTS58_ADAPT`` may set, all off by default.
OPTIONS = ("strict_hosts", "reject_risky")


def options() -> dict[str, Any]:
    """The filters' options: the ``UTS58_ADAPT`` setting, checked (ImproperlyConfigured names what is wrong)."""
    chosen = getattr(settings, "UTS58_ADAPT", None)
    if chosen is None:
        return {}
    if not isinstance(chosen, dict):
        raise ImproperlyConfigured(
            f"UTS58_ADAPT must be a dict such as {{'strict_hosts': True}}, not {type(chosen).__name__}"
        )
    for name, value in chosen.items():
        if name not in OPTIONS:
            raise ImproperlyConfigured(f"UTS58_ADAPT: unknown option {name!r}; the options are {', '.join(OPTIONS)}")
        if not isinstance(value, bool) and not (name == "reject_risky" and value == "browser"):
            allowed = "True, False or 'browser'" if name == "reject_risky" else "True or False"
            raise ImproperlyConfigured(f"UTS58_ADAPT[{name!r}] must be {allowed}, not {value!r}")
    return chosen


@register.filter(is_safe=True, needs_autoescape=True)  # type: ignore[untyped-decorator]
@stringfilter  # type: ignore[untyped-decorator]
def urlize(value: Any, autoescape: bool = True) -> SafeString:
    """Convert URLs in plain text into clickable links (UTS #58), as Django's ``urlize``."""
    return mark_safe(_urlize(value, nofollow=True, autoescape=autoescape, **options()))


@register.filter(is_safe=True, needs_autoescape=True)  # type: ignore[untyped-decorator]
@stringfilter  # type: ignore[untyped-decorator]
def urlizetrunc(value: Any, limit: Any, autoescape: bool = True) -> SafeString:
    """Convert URLs into clickable links, truncating them to ``limit`` characters, as Django's ``urlizetrunc``."""
    return mark_safe(_urlizetrunc(value, limit, autoescape=autoescape, **options()))
