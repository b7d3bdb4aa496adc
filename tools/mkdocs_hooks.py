"""MkDocs hooks (mkdocs.yml ``hooks:``): the CLI reference, generated from the argparse parser.

Also: the docstrings cite other objects with Sphinx roles (``:func:`detect```), which
mkdocstrings leaves as text; :func:`on_page_content` drops the role, keeping the code span.

``docs/cli.md`` holds the line ``<!-- cli-reference -->``; at build time it is replaced by
the ``--help`` text of ``uts58-adapt`` and of each subcommand, as
:func:`uts58_adapt.cli.build_parser` builds them, so the page cannot drift from the
parser.  ``tests/test_docs.py`` checks the generated text against the parser too.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MARKER = "<!-- cli-reference -->"
WIDTH = "100"
#: ``:func:`` before the ``<code>`` that mkdocstrings renders for a Sphinx role's target.
ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|attr|data|mod|exc|obj|const):(?=<code>)"
)  # argparse wraps help text to $COLUMNS: fixed, so the page is the same everywhere


def cli_reference() -> str:
    """Markdown: one section per command, each with its ``--help`` in a text block."""
    if str(REPO) not in sys.path:  # build from a checkout without installing
        sys.path.insert(0, str(REPO))
    import argparse

    from uts58_adapt.cli import build_parser

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        parser = build_parser()
        sections = [("uts58-adapt", parser.format_help())]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    sections.append((f"uts58-adapt {name}", sub.format_help()))
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    out = []
    for title, text in sections:
        out += [f"## `{title}`", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(out)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    return ROLE.sub("", html)
