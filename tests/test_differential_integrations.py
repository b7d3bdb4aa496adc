"""Issue 21: each integration against the library it upgrades, on hostile text (tools/fuzz.py).

hypothesis-generated text (URL-ish tokens, schemes in mixed case or with character
references and controls inside, quotes, ``<``, ``>``, ``&``, references, markup, bidi and
zero-width characters; for Django and Jinja2 also as markup marked safe) goes through the
upgrade and through the library alone; both outputs are parsed with html5lib.  The
upgrade may not produce an element, an attribute, an event handler or an href scheme
that the library alone does not (``check_differential``).  A short run here; the long
campaign is ``python tools/fuzz.py``.
"""

from __future__ import annotations

import pytest

from conftest import INTEGRATION_MODULES, REPO, load_module

pytest.importorskip("html5lib")

FUZZ = load_module("uts58_fuzz", REPO / "tools" / "fuzz.py")
_LIBRARY = INTEGRATION_MODULES

#: Examples per integration in the default suite.
EXAMPLES = 150


@pytest.mark.parametrize("integration", list(FUZZ.DIFFERENTIAL))
def test_differential(integration: str) -> None:
    library = _LIBRARY.get(integration.split()[0])
    if library:
        pytest.importorskip(library)
    assert FUZZ.run_differential(integration, EXAMPLES) == EXAMPLES


@pytest.mark.parametrize(
    ("integration", "text"),
    [
        # the inputs of issue 21, items 1 to 3
        ("django", "ms-msdt://evilhost://x.com"),
        ("django", "file://127.0.0.1%www.x.com"),
        ("django safe", '<abbr title="mail:a@b.com <img src=x onerror=alert(1)>">hi</abbr>'),
        ("jinja2 safe", '<abbr title="x/onmouseover=alert`1`//@b.com">hover me</abbr>'),
        ("linkify_html", '<p title="><b>see http://x.com/onmouseover=alert(1)// now</b></p>'),
        ("linkify_html", '<b title=">see http://example.com <img src=x onerror=alert(1)>'),
        ("markdown-it html", "see http://example.com/a<b>c</b>d now"),
    ],
)
def test_issue_inputs(integration: str, text: str) -> None:
    library = _LIBRARY.get(integration.split()[0])
    if library:
        pytest.importorskip(library)
    FUZZ.check_integration(integration, text)


def test_the_check_can_fail() -> None:
    """The invariants are real: a new element, a new handler, a new scheme are each caught."""
    vocabulary = FUZZ._Signature(
        '<a href="http://x.com" rel="nofollow">x</a> <a href="https://x.com" rel="nofollow">x</a>'
    )
    library = '<abbr title="x">hi</abbr>'
    for upgraded in (
        '<abbr title="x">hi</abbr><img src=x onerror=alert(1)>',
        '<abbr title="x" onmouseover="alert(1)">hi</abbr>',
        '<abbr title="x">hi</abbr><a href="ms-msdt:x">y</a>',
        '<abbr title="x">hi</abbr><a href=" jAvA\tscript:alert(1)">y</a>',
        '<abbr title="x">hi</abbr><a href="http://x.com" onclick="y">y</a>',
    ):
        with pytest.raises(AssertionError):
            FUZZ.check_differential("", upgraded, library, vocabulary)
    FUZZ.check_differential("", library + '<a href="https://y.com" rel="nofollow">y</a>', library, vocabulary)
