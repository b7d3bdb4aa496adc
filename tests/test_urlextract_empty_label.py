"""urlextract's span on an empty first label is rejected by ``detect()`` too, not cut (issue 32).

urlextract returns ``.e.io`` on ``~.e.io``: a host whose first label is empty, which UTS #46
rejects.  ``wrap(URLExtract())`` rejects that span; ``detect(backend="urlextract")``,
``linkify()`` and the audit cut it to ``e.io`` inside it.  Both now apply the one rule
``backends.urlextract.not_on_empty_label``.
"""

from __future__ import annotations

import pytest
from urlextract import URLExtract

from uts58_adapt import detect, linkify
from uts58_adapt.detection import detect_pair
from uts58_adapt.wrapping import wrap

EMPTY_FIRST_LABEL = ["~.e.io", "see ~.e.io ok", "*.e.io", "~..e.io", "see ~.example.com/path ok"]


@pytest.mark.parametrize("text", EMPTY_FIRST_LABEL)
def test_detect_rejects_a_span_on_an_empty_first_label(text: str) -> None:
    spans = [url for url, _ in URLExtract().find_urls(text, get_indices=True)]
    assert any(url.lstrip("~*").startswith(".") for url in spans)  # urlextract's own span starts with "."
    assert detect(text, backend="urlextract") == []
    assert detect(text, backend="urlextract", strict_hosts=False) == []
    assert "<a" not in linkify(text, backend="urlextract")
    assert detect_pair(text, "urlextract")[1] == []  # the audit's "after"


@pytest.mark.parametrize("text", EMPTY_FIRST_LABEL)
def test_detect_agrees_with_the_wrapper(text: str) -> None:
    wrapped = wrap(URLExtract())
    assert [(link.text, (link.start, link.end)) for link in detect(text, backend="urlextract", strict_hosts=False)] == (
        wrapped.find_urls(text, get_indices=True)
    )


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("see .e.io ok", ["e.io"]),  # urlextract drops the "." itself, after a space
        (".e.io", ["e.io"]),
        ("a.e.io ~.e.io", ["a.e.io"]),
        ("*eo.wikipedia.org/wiki/x", ["eo.wikipedia.org/wiki/x"]),  # a start moved over a non-host character
    ],
)
def test_spans_urlextract_starts_on_a_label_are_kept(text: str, found: list[str]) -> None:
    assert [link.text for link in detect(text, backend="urlextract")] == found
