"""cmark-gfm: the upgrade (``uts58_adapt.integrations.cmarkgfm``) against cmarkgfm, side by side (issue 35.4).

    python benchmarks/bench_cmarkgfm.py [--size 300000] [--repeat 5]

Each corpus of bench.py (the Debian/sample one and the dense one) is rendered as Markdown,
one paragraph per call, by ``cmarkgfm.github_flavored_markdown_to_html`` and by the drop-in,
timed as bench.py times the drop-ins (CPU time, blocks run by each in turn, the memos
emptied before every timed run, so no text is one the process has read before).

Also printed, for docs/decisions.md (refine the HTML, or render without the autolink
extension and link the text): how many paragraphs the upgrade changes, how many need the
second render, and on how many cmark-gfm's output is *not* its output without the autolink
extension plus anchors (anchor tags removed from both), where linking the text of that
render could not give cmark-gfm's output back.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cmarkgfm
from bench import load_corpus, measure, paragraphs
from corpus_dense import dense_corpus

from uts58_adapt.integrations import cmarkgfm as upgrade

_ANCHOR_TAGS = re.compile(r'<a href="[^"]*"(?: title="[^"]*")?>|</a>')


def _census(texts: list[str]) -> tuple[int, int, int]:
    """(paragraphs changed, paragraphs rendered twice, paragraphs where the text linking of
    a render without the extension cannot give cmark-gfm's output)."""
    changed = twice = unreachable = 0
    calls = 0
    original = upgrade.render

    def counting(*args: object, **kwargs: object) -> str:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)  # type: ignore[arg-type]

    upgrade.render = counting
    try:
        for text in texts:
            calls = 0
            out = upgrade.github_flavored_markdown_to_html(text)
            twice += calls > 1
            library = cmarkgfm.github_flavored_markdown_to_html(text)
            changed += out != library
            without = cmarkgfm.markdown_to_html_with_extensions(
                text,
                options=cmarkgfm.Options.CMARK_OPT_GITHUB_PRE_LANG,
                extensions=["table", "tagfilter", "strikethrough", "tasklist"],
            )
            unreachable += _ANCHOR_TAGS.sub("", library) != _ANCHOR_TAGS.sub("", without)
    finally:
        upgrade.render = original
    return changed, twice, unreachable


def generated_census(count: int, seed: int = 58) -> tuple[int, int]:
    """(texts cmark-gfm autolinks, texts whose output a render without the extension cannot give
    back) among ``count`` generated Markdown texts: the differential test's links and markup
    (tests/test_cmarkgfm.py's LINKS, tests/test_hostile_markdown.py's AROUND), 1 to 8 pieces."""
    import random

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from test_cmarkgfm import LINKS
    from test_hostile_markdown import AROUND

    rng = random.Random(seed)
    linked = unreachable = 0
    for _ in range(count):
        text = "".join(rng.choice(LINKS + AROUND) for _ in range(rng.randint(1, 8)))
        library = cmarkgfm.github_flavored_markdown_to_html(text)
        without = cmarkgfm.markdown_to_html_with_extensions(
            text,
            options=cmarkgfm.Options.CMARK_OPT_GITHUB_PRE_LANG,
            extensions=["table", "tagfilter", "strikethrough", "tasklist"],
        )
        if library != without:
            linked += 1
            unreachable += _ANCHOR_TAGS.sub("", library) != _ANCHOR_TAGS.sub("", without)
    return linked, unreachable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=300_000, help="characters per corpus (default 300,000)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds; each block's best is kept (default 5)")
    parser.add_argument(
        "--generated", type=int, default=2000, help="generated Markdown texts for the census (default 2,000)"
    )
    args = parser.parse_args()
    linked, unreachable = generated_census(args.generated)
    print(
        f"[generated] {args.generated:,} Markdown texts (seed 58): {linked:,} autolinked, on {unreachable:,} of them"
        " cmark-gfm's output is not reachable by linking a render without autolink"
    )
    debian_lines, debian = load_corpus(args.size)
    dense_lines, dense = dense_corpus(args.size)
    for name, lines, description in (("debian", debian_lines, debian), ("dense", dense_lines, dense)):
        texts = paragraphs(lines)
        times = measure(
            {
                "cmarkgfm": lambda block: [cmarkgfm.github_flavored_markdown_to_html(t) for t in block],
                "upgrade": lambda block: [upgrade.github_flavored_markdown_to_html(t) for t in block],
            },
            texts,
            args.repeat,
        )
        changed, twice, unreachable = _census(texts)
        print(f"[{name}] {description}, {len(texts):,} paragraphs")
        print(f"  cmarkgfm {times['cmarkgfm']:.3f} s, upgrade {times['upgrade']:.3f} s (CPU)")
        print(f"  ratio upgrade / cmarkgfm: {times['upgrade'] / times['cmarkgfm']:.2f}x")
        print(f"  paragraphs changed {changed:,}, rendered twice {twice:,}")
        print(f"  cmark-gfm output not reachable by linking a render without autolink: {unreachable:,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
