"""UTS #58 §5.2 Email Detection Algorithm and §5.3 Email Minimal Quoting Algorithm."""

from __future__ import annotations

import re

from ..properties import EMAIL_BIT, FLAGS

__all__ = ["MAILTO", "email_start", "mailto_href", "quote_local_part"]

MAILTO = "mailto:"

#: The ASCII characters RFC 6068 §2 requires percent-encoded in the addr-spec of a ``mailto:`` URI:
#: those a URI cannot hold (controls, space, ``"<>\\^`{|}``), ``%``, the gen-delims but ``@`` and ``:``
#: (``/?#[]``) and the sub-delims ``&;=``.  Of Link_Email's characters: ``%/?#&=^`{|}``.
_MAILTO_ESCAPED = "".join(map(chr, range(0x21))) + '\x7f"<>\\^`{|}%/?#[]&;='
_MAILTO_ESCAPES = {ord(ch): f"%{ord(ch):02X}" for ch in _MAILTO_ESCAPED}
_MAILTO_NEEDS_ESCAPE = re.compile("[" + re.escape(_MAILTO_ESCAPED) + "]")


def email_start(text: str, at: int) -> int | None:
    """Return the start of the email link whose ``@`` is at ``text[at]`` (UTS #58 §5.2).

    The caller has already found a valid domain name after the ``@``.  The local
    part is scanned backwards over Link_Email characters; a ``mailto:`` right
    before it is included.  Returns None (no link at all) when the local part is
    empty, starts or ends with ``.``, or contains ``..``.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if not isinstance(at, int) or isinstance(at, bool):
        raise TypeError(f"at must be int, not {type(at).__name__}")
    if not 0 <= at < len(text) or text[at] != "@":
        raise ValueError(f"text[{at}] is not an '@'")
    n = at
    if n == 0 or text[n - 1] == ".":
        return None
    flags = FLAGS
    start = 0
    i = n - 1
    while i >= 0:
        ch = text[i]
        if ch == ".":
            if text[i + 1] == ".":
                return None
        elif not flags[ord(ch)] & EMAIL_BIT:
            start = i + 1
            break
        i -= 1
    if start == n or text[start] == ".":
        return None
    # Schemes are case-insensitive, so "MAILTO:" counts as well (a choice the spec leaves open).
    if start >= 7 and text[start - 7 : start].lower() == MAILTO:
        start -= 7
    return start


def _valid_unquoted(local: str) -> bool:
    return (
        bool(local)
        and not local.startswith(".")
        and not local.endswith(".")
        and ".." not in local
        and all(FLAGS[ord(ch)] & EMAIL_BIT for ch in local)
    )


def quote_local_part(local: str) -> str:
    """Return the local part as it should be written (UTS #58 §5.3).

    A local part made of Link_Email characters with no leading, trailing or
    doubled dot is returned as is.  Anything else is put in quotation marks, with
    a backslash before each ``"`` and ``\\``.  ASCII control characters other
    than tab cannot appear even in a quoted local part (RFC 5322 §3.2.4), so they
    raise ValueError.
    """
    if not isinstance(local, str):
        raise TypeError(f"local must be str, not {type(local).__name__}")
    if _valid_unquoted(local):
        return local
    for ch in local:
        if (ord(ch) < 0x20 and ch != "\t") or ch == "\x7f":
            raise ValueError(f"local part contains U+{ord(ch):04X}, which cannot be quoted")
    return '"' + local.replace("\\", "\\\\").replace('"', '\\"') + '"'


def mailto_href(local: str, domain: str) -> str:
    """The ``mailto:`` href of the email ``local@domain``: ``mailto:`` added unless ``local`` starts with it.

    The local part is percent-encoded as RFC 6068 §2 requires (:data:`_MAILTO_ESCAPED`): in
    ``?subject=Hi&bcc=boss@corp.com`` the ``?`` would otherwise start header fields, so the
    href would send mail to ``boss@corp.com`` only, with a subject.  Other characters are
    kept as they are (a non-ASCII one is an IRI character, as in the hrefs of URLs).
    """
    if local[:7].lower() == MAILTO:
        scheme, local = local[:7], local[7:]
    else:
        scheme = MAILTO
    if _MAILTO_NEEDS_ESCAPE.search(local) is not None:
        local = local.translate(_MAILTO_ESCAPES)
    return f"{scheme}{local}@{domain}"
