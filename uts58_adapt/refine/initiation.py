"""Where a URL may start (UTS #58 §3.2 Initiation, left to the implementation): a scheme after a word.

linkify-it recognizes a scheme only after a character that is not a letter, so in
``詳しくはhttps://example.com/ページ`` it links nothing.  Japanese and Chinese text writes
URLs right after a word, and ICU4J and arnt/uts58 link them.  :func:`schemes_after_letters`
gives ``detect()`` the explicit ``http://``, ``https://`` and ``ftp://`` that follow a
letter which cannot be part of a scheme (any non-ASCII letter: General_Category L of Unicode 17.0), which it adds to the
backend's spans for the refinement stage.  ``wrap()`` does not use it: there the library decides.
"""

from __future__ import annotations

import re

from ..properties import is_letter

__all__ = ["schemes_after_letters"]

_EXPLICIT = re.compile(r"(?:https?|ftp)://", re.IGNORECASE)


def schemes_after_letters(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each explicit ``http://``, ``https://`` or ``ftp://`` right after a non-ASCII letter.

    Each span holds only the scheme and its ``//``: as a backend span, the refinement
    stage finds the host after it and runs the termination algorithm from there.
    """
    if text.isascii() or "://" not in text:
        return []
    out = []
    for m in _EXPLICIT.finditer(text):
        start = m.start()
        if start and not text[start - 1].isascii() and is_letter(text[start - 1]):
            out.append((start, m.end()))
    return out
