"""``{% load uts58 %}``: the ``urlize`` and ``urlizetrunc`` filters with UTS #58 links."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import stringfilter
from django.utils.safestring import SafeString, mark_safe

from .. import urlize as _urlize
from .. import urlizetrunc as _urlizetrunc

register = template.Library()


@register.filter(is_safe=True, needs_autoescape=True)  # type: ignore[untyped-decorator]
@stringfilter  # type: ignore[untyped-decorator]
def urlize(value: Any, autoescape: bool = True) -> SafeString:
    """Convert URLs in plain text into clickable links (UTS #58), as Django's ``urlize``."""
    return mark_safe(_urlize(value, nofollow=True, autoescape=autoescape))


@register.filter(is_safe=True, needs_autoescape=True)  # type: ignore[untyped-decorator]
@stringfilter  # type: ignore[untyped-decorator]
def urlizetrunc(value: Any, limit: Any, autoescape: bool = True) -> SafeString:
    """Convert URLs into clickable links, truncating them to ``limit`` characters, as Django's ``urlizetrunc``."""
    return mark_safe(_urlizetrunc(value, limit, autoescape=autoescape))
