"""The report as JSON: UTF-8, keys in a fixed order, one change per line, one final newline.

The same report gives the same bytes, so two reports can be compared with ``cmp``.
Lone surrogates (from ``--errors surrogateescape``) are written as ``\\udXXX`` escapes,
so the output is always valid UTF-8.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["render_json"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def render_json(report: dict[str, Any]) -> str:
    """Return ``report`` (from :func:`~uts58_adapt.report.core.merge`) as a JSON document."""
    head = {key: value for key, value in report.items() if key != "changes"}
    text = json.dumps(head, ensure_ascii=False, indent=2)
    if "changes" in report:
        # One change per line: readable, and a diff between two reports shows whole changes.
        rows = [json.dumps(change, ensure_ascii=False) for change in report["changes"]]
        body = "[\n    " + ",\n    ".join(rows) + "\n  ]" if rows else "[]"
        text = text[:-2] + ',\n  "changes": ' + body + "\n}"
    # Surrogates can only occur inside JSON strings, where an escape is equivalent.
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"
