"""The mistune backend: the ``url`` plugin of mistune 3 (``http://`` and ``https://`` URLs only).

The plugin is one regular expression, ``mistune.plugins.url.URL_LINK_PATTERN``, which
the inline parser tries at every position of a text; here it is run over the plain text.
mistune has no fuzzy domains and no bare emails, so those links are never started.
"""

from __future__ import annotations

import re

from .base import RawLink

__all__ = ["MistuneBackend"]


class MistuneBackend:
    """mistune's url plugin behind the :class:`~uts58_adapt.backends.base.Backend` protocol."""

    name = "mistune"
    #: mistune links no bare emails: ``detect`` drops the emails the refinement would add.
    links_emails = False

    def __init__(self) -> None:
        from mistune.plugins.url import URL_LINK_PATTERN

        self._url_re = re.compile(URL_LINK_PATTERN)

    def find(self, text: str) -> list[RawLink]:
        """The URLs mistune's url plugin links in ``text``, sorted by start."""
        if "://" not in text:  # in every match of the pattern: no call into re for most texts
            return []
        return [RawLink(m.start(), m.end(), "url") for m in self._url_re.finditer(text)]
