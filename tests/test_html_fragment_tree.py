"""``linkify_html`` (and Django's safe input) against html5lib's tree (issues 32.9, 32.11, 37.4).

Each output is compared with its input as html5lib's DOM builder reads them
(``html5lib.parse(..., treebuilder="dom")``: its etree builder loses foster-parented text),
with scripting off (``noscript`` content is markup, as bleach reads it):

- no element and no attribute beyond those of the input plus the added anchors;
- no anchor inside another anchor that the input did not already nest;
- every added anchor's href is ``http``, ``https`` or ``mailto``;
- the visible text (the document's text content) is the input's.

The shapes put linkable text after every raw text and RCDATA element, after ``noscript``,
``svg``, ``math`` and ``select``, inside tables in anchors, and write character
references of every class, and check that the text after them is linked where html5lib
sees text outside any anchor.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from uts58_adapt import linkify_html
from uts58_adapt.backends._html5_text import RAW_TEXT_ELEMENTS

html5lib = pytest.importorskip("html5lib")


def _dom(html: str) -> Any:
    return html5lib.parse(html, treebuilder="dom")


def _walk(node: Any) -> list[Any]:
    out = []
    stack = list(reversed(node.childNodes))
    while stack:
        child = stack.pop()
        out.append(child)
        stack.extend(reversed(child.childNodes))
    return out


def _text(doc: Any) -> str:
    return "".join(node.data for node in _walk(doc) if node.nodeType == node.TEXT_NODE)


def _elements(doc: Any) -> Counter[tuple[str, tuple[str, ...]]]:
    return Counter(
        (node.tagName, tuple(sorted(node.attributes.keys())))
        for node in _walk(doc)
        if node.nodeType == node.ELEMENT_NODE
    )


def _in_anchor(node: Any) -> bool:
    parent = node.parentNode
    while parent is not None and parent.nodeType == parent.ELEMENT_NODE:
        if parent.tagName == "a":
            return True
        parent = parent.parentNode
    return False


def _nested_anchors(doc: Any) -> int:
    return sum(
        1 for node in _walk(doc) if node.nodeType == node.ELEMENT_NODE and node.tagName == "a" and _in_anchor(node)
    )


def _linked_texts(doc: Any) -> list[str]:
    """The text of each anchor with ``dir`` (the ones linkify_html adds)."""
    return [
        _text(node)
        for node in _walk(doc)
        if node.nodeType == node.ELEMENT_NODE and node.tagName == "a" and node.getAttribute("dir") == "ltr"
    ]


def check(fragment: str, out: str | None = None) -> Any:
    """The invariants of the module docstring for ``linkify_html(fragment)`` (or ``out``); the output's tree."""
    if out is None:
        out = linkify_html(fragment)
    before, after = _dom(fragment), _dom(out)
    added = _elements(after) - _elements(before)
    assert set(added) <= {("a", ("dir", "href"))}, (fragment, out, added)
    assert _nested_anchors(after) <= _nested_anchors(before), (fragment, out)
    for node in _walk(after):
        if node.nodeType == node.ELEMENT_NODE and node.tagName == "a" and node.getAttribute("dir") == "ltr":
            assert node.getAttribute("href").startswith(("http://", "https://", "mailto:")), (fragment, out)
    assert _text(after) == _text(before), (fragment, out)
    return after


# --- 32.9: an anchor nested in the author's anchor ----------------------------------------------

BOUNDARIES = ["table><tr><td", "table><tr><th", "table><caption", "object", "marquee", "applet", "template"]


@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_no_anchor_in_the_authors_anchor_after_an_out_of_scope_end_tag(boundary: str) -> None:
    fragment = f'<a href="https://good.com/"><{boundary}></a>see http://evil.com/x'
    out = linkify_html(fragment)
    assert out == fragment
    check(fragment)


@pytest.mark.parametrize(
    "fragment",
    [
        # the end tag of an element above the anchor: the anchor is reconstructed after it
        '<code><a href="https://good.com/">x</code> see http://evil.com/',
        '<p><a href="https://good.com/">x</p> see http://evil.com/',
        # more than seven special elements in the anchor: the adoption agency leaves it open
        '<a href="https://good.com/">' + "<div>" * 8 + "x</a> see http://evil.com/",
        # a table opened in a table: the first one is closed, the object keeps the anchor out of scope
        '<a href="https://good.com/"><table><table></table><object></table></a>see http://evil.com/',
        # noscript content closes nothing for a browser (scripting on, it is raw text)
        '<a href="https://good.com/"><noscript></a></noscript>see http://evil.com/',
        '<noscript><a href="https://good.com/"></noscript>see http://evil.com/',
    ],
)
def test_no_anchor_where_the_tree_keeps_the_authors_anchor_open(fragment: str) -> None:
    assert linkify_html(fragment) == fragment
    check(fragment)


@pytest.mark.parametrize(
    "fragment",
    [
        '<a href="https://good.com/"><table><tr><td>x</td></tr></table></a> see http://ok.com/',
        '<a href="https://good.com/"><table><tr><td>x<td>y</table></a> see http://ok.com/',
        '<a href="https://good.com/"><object>x</object></a> see http://ok.com/',
        '<a href="https://good.com/">' + "<div>" * 7 + "x</a> see http://ok.com/",
        '<a href="https://good.com/">' + "<div></div>" * 20 + "x</a> see http://ok.com/",
        '<a href="https://good.com/"><table><td><table></td></table></td></table></a> see http://ok.com/',
        '<a href="https://good.com/"><p>x</a> see http://ok.com/',
        '<a href="https://good.com/"><svg></svg><math><mi>x</mi></math></a> see http://ok.com/',
        '<a href="https://good.com/">x<div>y</a> see http://ok.com/',
        '<a href="https://good.com/">x</a><a href="https://b.com/">y</a> see http://ok.com/',
        '<a href="https://good.com/">x<a href="https://b.com/">y</a> see http://ok.com/',
    ],
)
def test_text_after_a_closed_anchor_is_linked(fragment: str) -> None:
    tree = check(fragment)
    assert _linked_texts(tree) == ["http://ok.com/"], linkify_html(fragment)


def test_django_safe_input_no_anchor_in_the_authors_anchor() -> None:
    pytest.importorskip("django")
    from django.utils.safestring import mark_safe

    from uts58_adapt.integrations.django import urlize

    for boundary in BOUNDARIES:
        value = f'<a href="https://good.com/"><{boundary}></a>see http://evil.com/x'
        assert urlize(mark_safe(value)) == value


def test_jinja2_safe_input_no_anchor_in_the_authors_anchor() -> None:
    pytest.importorskip("jinja2")
    from jinja2 import Environment

    from uts58_adapt.integrations.jinja2 import install

    env = Environment(autoescape=True)
    install(env)
    template = env.from_string("{{ v|safe|urlize }}")
    for boundary in BOUNDARIES:
        value = f'<a href="https://good.com/"><{boundary}></a>see http://evil.com/x'
        assert template.render(v=value) == value


# --- 32.11: character references decode as the HTML Standard says --------------------------------


@pytest.mark.parametrize(
    ("reference", "character"),
    [("&#6;", "\x06"), ("&#x7f;", "\x7f"), ("&#xfdd0;", "\ufdd0"), ("&#13;", "\r"), ("&#x1;", "\x01")],
)
def test_control_and_noncharacter_references_are_kept(reference: str, character: str) -> None:
    fragment = f"see x.com/a{reference}b ok"
    tree = check(fragment)
    assert _text(tree) == f"see x.com/a{character}b ok"
    # the character is Link_Term=Hard: the link ends before it
    assert _linked_texts(tree) == ["x.com/a"]


@pytest.mark.parametrize(
    ("reference", "character"),
    [("&#x80;", "\u20ac"), ("&#150;", "\u2013"), ("&#x81;", "\x81"), ("&#0;", "\ufffd"), ("&#xd800;", "\ufffd")],
)
def test_numeric_reference_replacements(reference: str, character: str) -> None:
    fragment = f"see x.com/a {reference} ok"
    tree = check(fragment)
    assert _text(tree) == f"see x.com/a {character} ok"


def test_a_literal_c1_control_stays_literal() -> None:
    # U+0080 written as "&#x80;" would read as U+20AC: a literal one is copied as it is
    fragment = "see x.com/a \x80 ok"
    assert _text(check(fragment)) == fragment


def test_a_long_decimal_reference_is_a_replacement_character() -> None:
    # past U+10FFFF (§13.2.5.80); Python's int() refuses 4,300 decimal digits, html5lib raises here
    fragment = "see x.com/a &#" + "9" * 5000 + "; ok"
    assert linkify_html(fragment) == 'see <a href="https://x.com/a" dir="ltr">x.com/a</a> \ufffd ok'
    assert _text(check(f"see x.com/a &#x{'f' * 5000}; ok")).endswith(" \ufffd ok")


# --- 37.4: noscript, and the text after every element the tokenizer treats apart -----------------


def test_text_after_noscript_is_linked() -> None:
    tree = check("<div><noscript>x</noscript> and example.org</div>")
    assert _linked_texts(tree) == ["example.org"]


def test_noscript_content_is_markup_with_scripting_off() -> None:
    # as bleach and html5lib read it: the text in noscript is linked, its tags are tags
    tree = check('<noscript><b title="a.com">see b.com</b></noscript> c.com')
    assert _linked_texts(tree) == ["b.com", "c.com"]


@pytest.mark.parametrize(
    "fragment",
    [
        # the two readings of noscript (raw text with scripting on, markup off) disagree: copied as it is
        '<noscript><b title="</noscript>see http://x.com/onmouseover=alert(1)//">',
        "<noscript><!-- </noscript> see http://x.com/ -->",
        "<noscript><style></noscript>see http://x.com/</style>",
    ],
)
def test_noscript_readings_disagree(fragment: str) -> None:
    assert linkify_html(fragment) == fragment


AFTER = {
    **{name: f"<{name}>a.com <b>x</b></{name}>" for name in sorted(RAW_TEXT_ELEMENTS - {"plaintext"})},
    "noscript": "<noscript><i>a</i></noscript>",
    "svg": '<svg viewBox="0 0 1 1"><circle r="1"/><text>a.com</text></svg>',
    "svg/": "<svg/>",
    "math": "<math><mi>x</mi></math>",
    "select": "<select><option>a.com<option>b</select>",
}


@pytest.mark.parametrize("name", list(AFTER))
def test_text_after_each_element_is_linked(name: str) -> None:
    fragment = f"<div>{AFTER[name]} and example.org</div>"
    tree = check(fragment)
    assert _linked_texts(tree) == ["example.org"], linkify_html(fragment)


# --- generated shapes -----------------------------------------------------------------------------

PIECES = [
    "see x.com/a",
    " http://y.org/p?q=1&amp;r ",
    "a@b.com",
    "&#6;",
    "&#13;",
    "&#x80;",
    "&#xfdd0;",
    "&amp",
    "&notin;",
    "&#0;",
    "<a href='https://good.com/'>",
    "</a>",
    "<table>",
    "<tr>",
    "<td>",
    "</td>",
    "</table>",
    "<caption>",
    "<object>",
    "</object>",
    "<marquee>",
    "<template>",
    "</template>",
    "<div>",
    "</div>",
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    "<code>",
    "</code>",
    "<pre>",
    "</pre>",
    "<noscript>",
    "</noscript>",
    "<svg>",
    "</svg>",
    "<math>",
    "</math>",
    "<select>",
    "</select>",
    "<option>",
    "<style>",
    "</style>",
    "<textarea>",
    "</textarea>",
    "<!-- c -->",
    "<![CDATA[ x ]]>",
    "<li>",
    "<ul>",
    "</ul>",
]


def test_generated_shapes() -> None:
    rng = random.Random(3258)
    for _ in range(1500):
        fragment = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12)))
        check(fragment)


def test_every_pair_of_pieces() -> None:
    for first, second in itertools.product(PIECES, repeat=2):
        check(first + second + " see http://z.com/")


# --- linear time on markup that keeps the tree deep ---------------------------------------------

TREE_SHAPES = {
    "<a><table> * n, </a> * n": lambda n: "<a href=x><table>" * n + "</a>" * n + " x.com",
    "<a><object> * n, </code> * n": lambda n: "<a href=x><object>" * n + "</code>" * n + " x.com",
    "<div> * n, </a> * n": lambda n: "<a href=x>" + "<div>" * n + "</a>" * n + " x.com",
    "<svg><g> * n, </g> * n": lambda n: "<svg>" + "<g>" * n + "</g>" * n + "</svg> x.com",
    "<noscript> * n": lambda n: "<noscript>x.com " * n,
    "<td> * n": lambda n: "<table><td>" + "<td>x.com " * n + "</table>",
    "&#x + f * n": lambda n: "see x.com &#x" + "f" * n + "; ok",
}


@pytest.mark.parametrize("shape", list(TREE_SHAPES))
def test_linkify_html_linear_on_deep_trees(shape: str) -> None:
    from test_linear_time import check_linear

    check_linear(linkify_html, TREE_SHAPES[shape])
