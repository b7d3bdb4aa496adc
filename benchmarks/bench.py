#!/usr/bin/env python3
"""Performance ratios of uts58_adapt, measured side by side in one run.

    python benchmarks/bench.py            # prints the figures, exit status 0
    python benchmarks/bench.py --check    # exit status 1 if a target is missed
    python benchmarks/bench.py --profile  # also cProfile the adapter over the corpus
    python benchmarks/bench.py --check --clock cpu --point very-dense   # one point of the family
    python benchmarks/bench.py --pure ...  # the same, run again with UTS58_ADAPT_PURE=1

The first line printed says which refinement runs: the compiled extension or pure Python
(``--pure`` measures the pure-Python path where the extension is built).

Every figure is a ratio of two timings taken in the same process on the same input,
so it does not depend much on the machine.  Timings use time.perf_counter (``--clock cpu``: process_time); the input
is cut into blocks of ~20 ms of work, the variants being compared run each block in
turn (interleaved), and each block's time is its minimum over ``--repeat`` rounds.

Corpora (every figure is printed on each; ``--corpus debian|dense|both``, default both):
  debian  real text.  The Debian changelogs and copyright files under /usr/share/doc
          (gzip-compressed ones too), up to 20,000 characters from each of many packages
          until ``--size`` characters; when there are none, the bundled sample corpus
          (uts58_adapt/corpora/*.txt) repeated.  The next fifth as much text, from other
          files, is the warm-up.
  dense   the family of link-dense multilingual corpora (issue 36.2), generated and
          deterministic (corpus_dense.py, ``--dense-size`` characters per point, default
          60,000): chat in 18 scripts, a Zipf mix of 3,000 hosts, emails with non-ASCII
          local parts, links in brackets and quotes and before CJK punctuation.  Each point
          (corpus_dense.POINTS; ``--point NAME`` or ``--points A,B`` for some) sets the
          share of explicit schemes, of IDN hosts, of emails, of links against closers and
          brackets, the script mix and the links per 100 characters: default (the corpus of
          issue 20), scheme-idn (issue 36's: 62% schemes, 40% IDN hosts, CJK and Arabic,
          75% against closers, 12% emails), email-heavy (45% emails), very-dense (about 3
          links per 100 characters), cjk-arabic (half the hosts IDNs), sparse (Latin, 0.25
          per 100).  Point k reads seed ``--seed``+101(k+1) and warms up on another seed.
Every ratio is printed per corpus; at the end, each row's worst corpus ("worst point"),
named, with its figure and target.  Start-up (f) does not depend on the corpus and runs once.

First reading and repeated reading (issue 36.3): the memos are emptied before every timed
run (``forget()``: the backends' and integrations' memos and the refinement's caches of
hosts and labels), and the warm-up reads other text, so each figure is a first reading of
text the process has not seen.  (a) prints the refinement's µs per backend span on both
readings.  (h) also prints each upgrade's repeated reading (the same
text a second time, the memos kept) against the library's time, for information
(``--no-repeated``: not); ``--keep-host-caches`` keeps the caches of hosts across rounds,
as bench.py measured before issue 36.

Targets:
  (a) the time refinement adds is at most 10% of the raw library's time on the same
      lines (issue 20, restating issue 5's (a)): refine_links on the backend's spans /
      the library alone (LinkifyIt(same TLDs).match, URLExtract(same TLDs).find_urls);
      (information) detect(refine=True) / detect(refine=False), and their difference
      as a share of the library's time
  (b) the whole adapter (detect with linkify-it: host checks, §3.5.1, emails)
      <= 1.25 x raw linkify-it-py (LinkifyIt with the same options and TLD list,
      .match(line)); the ratio to a default LinkifyIt() is printed for information
  (c) minimal_escape <= 3 x urllib.parse.unquote, on the corpus URLs fully
      percent-encoded first
  (d) property lookups per second: link_term(ch) and FLAGS[ord(ch)] (information)
  (e) detection speed: detect() <= 0.6 x the raw backend on the same text, per
      paragraph (blank-line separated) and on the whole corpus as one text.  linkify-it:
      against LinkifyIt(same options and TLD list).match, and (information) a default
      LinkifyIt().match.  urlextract: against URLExtract(same TLD list).find_urls, and
      (information) a stock URLExtract().find_urls.  MB/s of each are printed, and
      (information) the backend pass of detect() alone (the windowed find() or
      candidates() that refinement starts from) against the same raw backend.
  (f) start-up, in fresh processes (best of --startup-runs, CPU time of the child, with
      the modules' bytecode cached as after pip install): the first detect() after the
      import <= 120 ms, `echo line | uts58-adapt detect` <= 250 ms
  (g) throughput (information): MB/s of detect() with every installed backend, and of
      arnt/uts58 (JavaScript) on the same paragraphs when node and the package are here
      (UTS58_JS_DIR; see benchmarks/bench_js.py), else its figure quoted from issue 11
  (h) drop-in entry points (issue 20): each upgrade <= 1.0 x the library it upgrades,
      per paragraph, side by side: wrap(LinkifyIt()).match, markdown-it-py render with
      md.linkify wrapped, wrap(URLExtract()).find_urls, wrap(bleach Linker()).linkify,
      the Django and Jinja2 urlize integrations, mistune's url plugin, the magiclink
      extension, linkify_html (against bleach.linkify, the function an nh3 pipeline
      replaces; html.parser plus LinkifyIt().match on each text node for information),
      the documentation toolchains (docutils' publish_parts with
      integrations.docutils.Parser against its own parser; marko with gfm and the
      integration against gfm alone; cmarkgfm's two drop-ins against its functions); and
      detect() <= 0.6 x the raw library behind each of its backends (mistune: its inline
      parser with the url plugin, md.inline).  An entry point whose library is not
      installed is skipped.
  (js, with --js) JavaScript anchors: MB/s of linkify-it 5.0.2 (the JavaScript original of
      linkify-it-py, installed with npm by ``--install-js DIR``, or found in
      ``LINKIFY_JS_DIR``) and of arnt/uts58 (``UTS58_JS_DIR``) beside detect()'s, per
      paragraph, on each corpus (see benchmarks/bench_js.py)
  audit, audit-memory, audit-scale, audit-long-lines: see benchmarks/bench_audit.py (report cost <= 1.3 x
      one refined detection pass; RSS slope <= 1 MB per MB of input, 1 GB under 500 MB;
      --jobs 2 >= 1.8 x --jobs 1; --engine dask <= 1.15 x --jobs 2).  The last two
      generate corpora of --corpus-size MB and run only when named with --only.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import gzip
import html
import importlib
import io
import pstats
import sys
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(REPO))

from uts58_adapt import detect, link_term, minimal_escape  # noqa: E402
from uts58_adapt.backends import BackendUnavailable, get_backend  # noqa: E402
from uts58_adapt.backends._tlds import icann_tlds  # noqa: E402
from uts58_adapt.properties import FLAGS  # noqa: E402
from uts58_adapt.refine.migration import refine_links  # noqa: E402

# --- Audit (issue 11.2-11.4) ---
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_audit import (  # noqa: E402
    bench_audit_cost,
    bench_audit_long_lines,
    bench_audit_memory,
    bench_audit_scale,
    parse_sizes,
)

AUDIT_FIGURES = ["audit", "audit-memory", "audit-scale", "audit-long-lines"]
# --- end audit ---

DOC_DIR = Path("/usr/share/doc")
BACKENDS = ("linkify-it", "urlextract")
#: forget() empties the refinement's caches of hosts and labels too (--keep-host-caches: not,
#: as bench.py did before issue 36, where a round's minimum could be a reading of hosts seen)
CLEAR_CACHES = True
DENSE_SIZE = 60_000  # characters per point of the dense family (--dense-size)
BLOCK_SECONDS = 0.02  # work per timed block (see measure)
#: The clock of measure(): wall time (perf_counter), or with --clock cpu this process's CPU
#: time (process_time), which other processes on a shared machine change much less.
CLOCK: Callable[[], float] = time.perf_counter
T = TypeVar("T")


# ---------------------------------------------------------------------------
# Corpus
# ---------------------------------------------------------------------------
def _debian_files() -> list[Path]:
    if not DOC_DIR.is_dir():
        return []
    files = [p for p in DOC_DIR.glob("*/changelog*") if p.is_file()]
    files += [p for p in DOC_DIR.glob("*/copyright") if p.is_file()]
    return sorted(files)


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
        if path.suffix == ".gz":
            raw = gzip.decompress(raw)
    except (OSError, EOFError, gzip.BadGzipFile):
        return ""
    return raw.decode("utf-8", "replace")


PER_FILE = 20_000  # characters taken from one file at most, so that many packages contribute


def _spread(files: list[Path]) -> list[Path]:
    """The files in a fixed order that jumps across the sorted list (every 37th, wrapping round)."""
    n = len(files)
    return [files[k * 37 % n] for k in range(n)] if n % 37 else files


def load_corpus(size: int) -> tuple[list[str], str]:
    """Return (lines, description), about ``size`` characters of real text."""
    lines: list[str] = []
    total = used = 0
    for path in _spread(_debian_files()):
        if total >= size:
            break
        text = _read_text(path)
        if not text:
            continue
        used += 1
        if len(text) > PER_FILE:  # whole lines only
            text = text[: text.rfind("\n", 0, PER_FILE) + 1]
        for line in text.splitlines():
            lines.append(line)
            total += len(line) + 1
    if lines:
        return lines, f"{used} Debian changelog/copyright files from {DOC_DIR} ({total:,} chars, {len(lines):,} lines)"
    sample = sorted((REPO / "uts58_adapt" / "corpora").glob("*.txt"))
    base = [line for p in sample for line in p.read_text(encoding="utf-8").splitlines()]
    if not base:
        sys.exit("no corpus: neither /usr/share/doc nor uts58_adapt/corpora/*.txt has text")
    copies = max(1, size // max(1, sum(len(line) + 1 for line in base)))
    lines = base * copies
    return lines, f"bundled sample corpus ({', '.join(p.name for p in sample)}) x{copies} ({len(lines):,} lines)"


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------
REPEATED = " (repeated)"  # a variant named so reads its block a second time, the memos kept


def measure(
    variants: dict[str, Callable[[list[T]], object]], items: list[T], repeat: int, warm: list[T] | None = None
) -> dict[str, float]:
    """Time each variant over ``items``; return the sum over blocks of the minimum per block.

    The warm-up (lazy tables, compiled patterns) runs on ``warm``, text of the same kind
    that is not in ``items`` (another seed of the dense corpus, other Debian files), so
    that no timed text is one the process has read before; without ``warm``, on the first
    50th of ``items``.

    The items are cut into blocks of about BLOCK_SECONDS of work; within a round, every
    block is run by each variant in turn (in alternating order), so a slow spell on a
    shared machine hits the variants alike, and each block's minimum over ``repeat``
    rounds drops it.

    The memos a backend keeps (urlextract's window runs and email verdicts, the inline
    integrations' refined spans, the refinement's caches of hosts) are emptied
    before every timed run (``forget``), so a round never reuses an earlier round's work:
    only text repeated within one block is found again, as in one pass over a corpus: the
    *first reading*.  A variant whose name ends with REPEATED is the *repeated* reading:
    its block is run once untimed just before, and timed again with the memos kept.
    """
    clock = CLOCK
    probe = (warm or items)[: max(1, len(warm or items) // 50)]
    for fn in variants.values():  # warm-up: lazy tables, compiled patterns, caches
        fn(probe)
    t0 = clock()
    next(iter(variants.values()))(probe)
    per_item = (clock() - t0) / len(probe)
    size = max(1, int(BLOCK_SECONDS / max(per_item, 1e-9)))
    blocks = [items[i : i + size] for i in range(0, len(items), size)]
    best = {name: [float("inf")] * len(blocks) for name in variants}
    order = list(variants.items())
    for _ in range(repeat):
        for k, block in enumerate(blocks):
            order.reverse()  # A B, then B A: no variant always runs first (warm caches, clock ramps)
            for name, fn in order:
                forget()
                if name.endswith(REPEATED):
                    fn(block)  # the first reading, untimed: the memos now hold this block
                t0 = clock()
                fn(block)
                best[name][k] = min(best[name][k], clock() - t0)
    return {name: sum(times) for name, times in best.items()}


def forget() -> None:
    """Empty the memos of the shared backend instances (see :func:`measure`)."""
    get_backend("urlextract").clear_memo()  # type: ignore[attr-defined]
    from uts58_adapt import wrapping

    wrapping._PROBE_ANSWERS.clear()  # the wrappers' answers to their instance's probes
    wrapping._SCHEME_ANSWERS.clear()  # (linkify-it's: the hosts of the text, asked with a scheme)
    # the inline integrations' memo of refined spans (mistune, magiclink), the urlize probes (Django, Jinja2),
    # bleach's scheme probes
    for module in (
        "uts58_adapt.integrations._common",
        "uts58_adapt.integrations._urlize",
        "uts58_adapt.integrations.bleach",
    ):
        with contextlib.suppress(ImportError):
            importlib.import_module(module).clear_memo()
    if CLEAR_CACHES:
        for cache in _caches():
            cache.cache_clear()


def _caches() -> list[Any]:
    """The ``functools.lru_cache`` memos of uts58_adapt's modules that hold answers about the
    hosts and labels of a text (maxsize above 4096: ``domain_unicode``, ``strict_label``,
    ``_host_risks``), in the modules imported so far (outside the timed runs).  The caches of loaded tables and compiled patterns
    (``functools.cache``, small maxsize) and the per-character ones are left alone: a warm-up
    fills them as any reading does, and emptying them would time loading, not reading."""
    caches = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("uts58_adapt") or module is None:
            continue
        for value in list(vars(module).values()):
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name:
                maxsize = info().maxsize
                if maxsize is not None and maxsize > 4096:
                    caches.append(value)
    return caches


class Report:
    def __init__(self) -> None:
        self.failed: list[str] = []
        self.corpus = ""  # the corpus being measured, named in the list of missed targets
        #: label -> [(corpus, ratio, target)], in the order measured
        self.rows: dict[str, list[tuple[str, float, float | None]]] = {}

    def _fail(self, label: str) -> None:
        self.failed.append(f"[{self.corpus}] {label}" if self.corpus else label)

    def ratio(self, label: str, num: float, den: float, target: float | None) -> float:
        ratio = num / den
        verdict = "" if target is None else ("PASS" if ratio <= target else "FAIL")
        bound = "" if target is None else f"(target <= {target:g}x)"
        print(f"  {label:66} {ratio:6.3f}x {bound:18} {verdict}")
        if verdict == "FAIL":
            self._fail(label)
        self.rows.setdefault(label, []).append((self.corpus, ratio, target))
        return ratio

    def worst(self) -> list[tuple[str, str, float, float | None, int]]:
        """``(label, worst corpus, its ratio, target, corpora measured)`` per row: for a target row
        the corpus furthest from its target, else the highest ratio."""
        out = []
        for label, entries in self.rows.items():
            corpus, ratio, target = max(entries, key=lambda e: e[1] / e[2] if e[2] else e[1])
            out.append((label, corpus, ratio, target, len(entries)))
        return out

    def summary(self) -> None:
        """The worst point of each row, over the corpora measured (issue 36.2); the rows of the
        repeated reading (information) after the target rows."""
        rows = self.worst()
        if not rows or max(n for *_, n in rows) < 2:
            return
        print("\nWorst point per row, over the corpora measured (first reading; then the repeated reading):")
        print(f"  {'row':66} {'worst point':16} {'ratio':>7}  target   met?")
        for label, corpus, ratio, target, n in sorted(rows, key=lambda r: (r[3] is None, REPEATED in r[0])):
            if target is None and REPEATED not in label:
                continue
            bound = f"<= {target:g}x" if target is not None else "(info)"
            met = "" if target is None else ("yes" if ratio <= target else "NO")
            print(f"  {label:66} {corpus:16} {ratio:6.3f}x  {bound:8} {met:4} (of {n})")

    def value(self, label: str, value: float, target: float) -> None:
        verdict = "PASS" if value <= target else "FAIL"
        print(f"  {label:66} {value:6.0f}  (target <= {target:g}) {verdict:>5}")
        if verdict == "FAIL":
            self._fail(label)


def each(fn: Callable[[T], object]) -> Callable[[list[T]], None]:
    """A variant that calls ``fn`` on every item of a block."""

    def run(block: list[T]) -> None:
        for item in block:
            fn(item)

    return run


def raw_linkify_it() -> object:
    """linkify-it-py configured as the backend is: same options, the same ICANN TLD list."""
    from linkify_it import LinkifyIt

    linkify = LinkifyIt(options={"fuzzy_link": True, "fuzzy_email": True, "fuzzy_ip": False})
    linkify.tlds(sorted(icann_tlds()), False)
    return linkify


def full_escape(url: str) -> str:
    """Percent-encode a URL's path, query and fragment except ASCII structure (a browser's href)."""
    scheme_end = url.find("://")
    authority = scheme_end + 3 if scheme_end >= 0 else 0
    end = min((i for i in (url.find(c, authority) for c in "/?#") if i >= 0), default=len(url))
    return url[:end] + urllib.parse.quote(url[end:], safe="%/:?#[]@!$&'()*+,;=~", errors="surrogatepass")


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------
def bench_refinement(
    lines: list[str], repeat: int, report: Report, warm: list[str] | None = None, repeated: bool = True
) -> None:
    print("(a) refinement overhead: refine_links' time / the library's own time on the same lines")
    for name in BACKENDS:
        get_backend(name)
        library = raw_linkify_it().match if name == "linkify-it" else get_backend(name)._extractor.find_urls  # type: ignore[attr-defined]
        times = measure(
            {
                "unrefined": each(lambda s, b=name: detect(s, backend=b, refine=False)),
                "refined": each(lambda s, b=name: detect(s, backend=b, refine=True)),
                "library": each(library),
            },
            lines,
            repeat,
            warm,
        )
        print(
            f"  {name}: refined {times['refined']:.3f}s, unrefined {times['unrefined']:.3f}s, "
            f"the library itself {times['library']:.3f}s"
        )
        report.ratio(f"{name}: refined / unrefined (information)", times["refined"], times["unrefined"], None)
        # The same overhead against what a caller ran before: one call of the library per
        # line (the windowed backend pass of detect() is now a fraction of it).
        added = (times["refined"] - times["unrefined"]) / times["library"]
        print(f"    refinement's added time (a difference of totals): {added:.1%} of the library's own time")
        # The checked figure (issue 20): refine_links on the backend's own output, timed
        # apart against the library alone on the same lines; less noisy than a difference.
        backend = get_backend(name)
        find = getattr(backend, "candidates", None) or backend.find
        pairs = [(line, find(line)) for line in lines if line]
        warm_pairs = [(line, find(line)) for line in warm or [] if line] or None
        variants: dict[str, Callable[[list[tuple[str, Any]]], object]] = {
            "backend": lambda block, find=find: [find(line) for line, _ in block],
            "refine_links": lambda block: [refine_links(line, raw) for line, raw in block],
            "library": lambda block, library=library: [library(line) for line, _ in block],
        }
        if repeated:
            variants["refine_links" + REPEATED] = variants["refine_links"]
        parts = measure(variants, pairs, repeat, warm_pairs)
        share = parts["refine_links"] / parts["backend"]
        print(f"    refine_links alone: {share:.1%} of the backend's windowed pass (information)")
        # Per span: what one link costs the refinement (issue 36's target: 1.5 µs in place).
        spans = sum(len(raw) for _, raw in pairs) or 1
        per_span = f"    refine_links per backend span ({spans:,} spans): {parts['refine_links'] * 1e6 / spans:.2f} µs first reading"
        if repeated:
            per_span += f", {parts['refine_links' + REPEATED] * 1e6 / spans:.2f} µs repeated (the memos kept)"
        print(per_span + " (information)")
        report.ratio(f"{name}: refine_links / the library alone", parts["refine_links"], parts["library"], 0.10)


def bench_adapter(lines: list[str], repeat: int, report: Report, warm: list[str] | None = None) -> None:
    from linkify_it import LinkifyIt

    print("(b) whole adapter vs raw linkify-it-py")
    same = raw_linkify_it()
    default = LinkifyIt()
    times = measure(
        {
            "adapter": each(lambda s: detect(s, backend="linkify-it")),
            "raw": each(same.match),  # type: ignore[attr-defined]
            "default": each(default.match),
        },
        lines,
        repeat,
        warm,
    )
    print(
        f"  adapter {times['adapter']:.3f}s, LinkifyIt(same TLDs).match {times['raw']:.3f}s,"
        f" LinkifyIt().match {times['default']:.3f}s"
    )
    report.ratio("adapter / LinkifyIt (same options and TLD list)", times["adapter"], times["raw"], 1.25)
    report.ratio("adapter / LinkifyIt() default config (information)", times["adapter"], times["default"], None)


def _escape_ratio(label: str, urls: list[str], repeat: int, report: Report, target: float | None) -> None:
    with_escapes = sum("%" in u for u in urls)
    print(f"  {label}: {len(urls):,} URLs ({with_escapes:,} with escapes), {sum(map(len, urls)):,} chars")
    work = urls * max(1, 100_000 // len(urls))  # enough work for stable timings
    times = measure({"minimal_escape": each(minimal_escape), "unquote": each(urllib.parse.unquote)}, work, repeat)
    per = 1e6 / len(work)
    print(f"    minimal_escape {times['minimal_escape'] * per:.2f} us/URL, unquote {times['unquote'] * per:.2f} us/URL")
    report.ratio(f"minimal_escape / unquote, {label}", times["minimal_escape"], times["unquote"], target)


def bench_escaping(lines: list[str], repeat: int, report: Report) -> None:
    print("(c) minimal_escape vs urllib.parse.unquote, on URLs fully percent-encoded first")
    urls = [full_escape(link.text) for line in lines for link in detect(line) if link.kind == "url"]
    if urls:
        _escape_ratio("corpus URLs", urls, repeat, report, 3.0)
    else:
        print("  no URLs in the corpus")
    # For information: the multilingual sample, where nearly every URL has escapes.
    sample = [
        full_escape(link.text)
        for path in sorted((REPO / "uts58_adapt" / "corpora").glob("*.txt"))
        for line in path.read_text(encoding="utf-8").splitlines()
        for link in detect(line)
        if link.kind == "url"
    ]
    if sample:
        _escape_ratio("bundled sample URLs (information)", sample, repeat, report, None)


def bench_properties(lines: list[str], repeat: int) -> None:
    print("(d) property lookups")
    text = "".join(lines)[:1_000_000]
    chunks = [text[i : i + 10_000] for i in range(0, len(text), 10_000)]
    flags = FLAGS
    times = measure(
        {
            "link_term": lambda block: [link_term(ch) for chunk in block for ch in chunk],
            "FLAGS": lambda block: [flags[ord(ch)] for chunk in block for ch in chunk],
            "loop": lambda block: [ch for chunk in block for ch in chunk],  # the loop alone
        },
        chunks,
        repeat,
    )
    for name, shown in (("link_term", "link_term(ch)"), ("FLAGS", "FLAGS[ord(ch)]")):
        beyond = max(times[name] - times["loop"], 1e-9) / len(text) * 1e9
        print(
            f"  {shown:16} {len(text) / times[name] / 1e6:6.2f} M lookups/s in a list comprehension"
            f" ({beyond:5.1f} ns each beyond the bare loop)"
        )


def paragraphs(lines: list[str]) -> list[str]:
    """The corpus cut at blank lines, each paragraph one text."""
    out: list[str] = []
    block: list[str] = []
    for line in lines:
        if line.strip():
            block.append(line)
        elif block:
            out.append("\n".join(block))
            block = []
    if block:
        out.append("\n".join(block))
    return out


def stock_urlextract() -> object:
    """urlextract as shipped: its own TLD list file, emails on, no URL limit (offline: no update)."""
    from urlextract import URLExtract

    return URLExtract(extract_email=True, cache_dns=False, limit=None)


def bench_detection(lines: list[str], repeat: int, report: Report, warm: list[str] | None = None) -> None:
    from linkify_it import LinkifyIt

    print("(e) detection speed: detect() / the raw backend on the same text")
    paras = paragraphs(lines)
    whole = "\n".join(lines)
    chars = sum(map(len, paras))
    print(f"  {len(paras):,} paragraphs ({chars:,} chars); whole text {len(whole):,} chars")
    same = raw_linkify_it()
    default = LinkifyIt()
    backend = get_backend("urlextract")
    same_ux = backend._extractor  # type: ignore[attr-defined]  # URLExtract with the backend's TLD trie
    stock_ux = stock_urlextract()
    cases: list[tuple[str, dict[str, Callable[[list[str]], object]], list[str], str, str]] = [
        (
            "linkify-it",
            {
                "detect": each(lambda s: detect(s, backend="linkify-it")),
                "backend pass": each(get_backend("linkify-it").find),
                "raw": each(same.match),  # type: ignore[attr-defined]
                "default": each(default.match),
            },
            paras,
            "LinkifyIt(same TLDs).match",
            "LinkifyIt().match",
        ),
        (
            "urlextract",
            {
                "detect": each(lambda s: detect(s, backend="urlextract")),
                "backend pass": each(backend.candidates),  # type: ignore[attr-defined]
                "raw": each(same_ux.find_urls),
                "default": each(stock_ux.find_urls),  # type: ignore[attr-defined]
            },
            paras,
            "URLExtract(same TLDs).find_urls",
            "URLExtract().find_urls",
        ),
    ]
    warm_scopes = {"per paragraph": paragraphs(warm or []) or None, "whole text": ["\n".join(warm)] if warm else None}
    for name, variants, _items, raw_label, default_label in cases:
        for scope, items in (("per paragraph", paras), ("whole text", [whole])):
            times = measure(variants, items, repeat, warm_scopes[scope])
            size = sum(map(len, items)) / 1e6
            print(
                f"  {name}, {scope}: detect {size / times['detect']:.2f} MB/s, {raw_label} "
                f"{size / times['raw']:.2f} MB/s, {default_label} {size / times['default']:.2f} MB/s"
            )
            report.ratio(f"{name} {scope}: detect / {raw_label}", times["detect"], times["raw"], 0.6)
            report.ratio(
                f"{name} {scope}: detect / {default_label} (information)", times["detect"], times["default"], None
            )
            # What refine=True hands to refinement (the windowed backend pass), alone: the part
            # of detect() that is the library's own work and the windows around it.
            report.ratio(
                f"{name} {scope}: its backend pass alone / {raw_label} (information)",
                times["backend pass"],
                times["raw"],
                None,
            )


def _entry_points() -> list[tuple[str, Callable[[str], object], Callable[[str], object], str]]:
    """``(label, the library alone, the upgrade, input)`` for every entry point whose library is
    installed; ``input`` is ``"text"`` (a paragraph) or ``"html"`` (the paragraph escaped, in ``<p>``)."""
    import uts58_adapt

    out: list[tuple[str, Callable[[str], object], Callable[[str], object], str]] = []

    def linkify_it() -> None:
        from linkify_it import LinkifyIt

        out.append(
            (
                "wrap(LinkifyIt()).match / LinkifyIt().match",
                LinkifyIt().match,
                uts58_adapt.wrap(LinkifyIt()).match,
                "text",
            )
        )

    def markdown_it() -> None:
        from markdown_it import MarkdownIt

        plain = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
        upgraded = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
        upgraded.linkify = uts58_adapt.wrap(upgraded.linkify)
        out.append(("markdown-it-py render, md.linkify wrapped / not", plain.render, upgraded.render, "text"))

    def urlextract() -> None:
        from urlextract import URLExtract

        plain, upgraded = URLExtract(), uts58_adapt.wrap(URLExtract())
        out.append(
            ("wrap(URLExtract()).find_urls / URLExtract().find_urls", plain.find_urls, upgraded.find_urls, "text")
        )

    def bleach() -> None:
        from bleach.linkifier import Linker

        out.append(
            ("wrap(Linker()).linkify / Linker().linkify", Linker().linkify, uts58_adapt.wrap(Linker()).linkify, "html")
        )

    def django() -> None:
        from django.utils.html import urlize

        from uts58_adapt.integrations.django import urlize as upgraded

        out.append(("Django urlize: integration / django.utils.html.urlize", urlize, upgraded, "text"))

    def jinja2() -> None:
        from jinja2 import Environment

        from uts58_adapt.integrations.jinja2 import install

        env = Environment()
        install(env)
        plain = Environment().from_string("{{ v|urlize }}")
        upgraded = env.from_string("{{ v|urlize }}")
        out.append(
            (
                "Jinja2 {{ v|urlize }}: install(env) / Environment()",
                lambda v: plain.render(v=v),
                lambda v: upgraded.render(v=v),
                "text",
            )
        )

    def mistune() -> None:
        import mistune

        from uts58_adapt.integrations.mistune import url

        plain, upgraded = mistune.create_markdown(plugins=["url"]), mistune.create_markdown(plugins=[url])
        out.append(("mistune: plugins=[integration url] / plugins=['url']", plain, upgraded, "text"))

    def magiclink() -> None:
        import markdown

        plain = markdown.Markdown(extensions=["pymdownx.magiclink"])
        upgraded = markdown.Markdown(extensions=["uts58_adapt.integrations.magiclink"])
        out.append(
            (
                "Markdown: magiclink integration / pymdownx.magiclink",
                lambda t: plain.reset().convert(t),
                lambda t: upgraded.reset().convert(t),
                "text",
            )
        )

    def html_fragment() -> None:
        # Fair baselines (issue 36.1): bleach.linkify, the function an nh3 pipeline replaces
        # (the target row), and html.parser with LinkifyIt().match on each text node.
        from html.parser import HTMLParser

        from linkify_it import LinkifyIt

        class TextNodes(HTMLParser):
            def __init__(self) -> None:
                super().__init__(convert_charrefs=True)
                self.linkify = LinkifyIt()

            def handle_data(self, data: str) -> None:
                self.linkify.match(data)

        nodes = TextNodes()

        def parse_and_match(fragment: str) -> None:
            nodes.reset()
            nodes.feed(fragment)
            nodes.close()

        try:
            import bleach

            out.append(("linkify_html / bleach.linkify", bleach.linkify, uts58_adapt.linkify_html, "html"))
        except ImportError:
            pass
        out.append(
            (
                "linkify_html / html.parser + LinkifyIt().match per text node (information)",
                parse_and_match,
                uts58_adapt.linkify_html,
                "html",
            )
        )

    def docutils() -> None:
        import docutils.core

        from uts58_adapt.integrations.docutils import Parser

        settings = {"report_level": 5, "halt_level": 5, "warning_stream": False, "_disable_config": True}

        def publish(text: str, parser: object = None) -> object:
            kw = {} if parser is None else {"parser": parser}
            return docutils.core.publish_parts(text, writer_name="html5", settings_overrides=settings, **kw)

        upgraded_parser = Parser()
        out.append(
            (
                "docutils publish_parts: integrations.docutils.Parser / its own",
                publish,
                lambda t: publish(t, upgraded_parser),
                "text",
            )
        )

    def marko() -> None:
        import marko

        plain = marko.Markdown(extensions=["gfm"])
        upgraded = marko.Markdown(extensions=["gfm", "uts58_adapt.integrations.marko"])
        out.append(('marko: extensions=["gfm", integration] / ["gfm"]', plain.convert, upgraded.convert, "text"))

    def cmarkgfm() -> None:
        import cmarkgfm

        from uts58_adapt.integrations import cmarkgfm as upgrade

        out.append(
            (
                "cmarkgfm: github_flavored_markdown_to_html, drop-in / its own",
                cmarkgfm.github_flavored_markdown_to_html,
                upgrade.github_flavored_markdown_to_html,
                "text",
            )
        )
        extensions = ["autolink", "table", "strikethrough", "tagfilter", "tasklist"]
        out.append(
            (
                "cmarkgfm: markdown_to_html_with_extensions, drop-in / its own",
                lambda t: cmarkgfm.markdown_to_html_with_extensions(t, extensions=extensions),
                lambda t: upgrade.markdown_to_html_with_extensions(t, extensions=extensions),
                "text",
            )
        )

    for add in (
        linkify_it,
        markdown_it,
        urlextract,
        bleach,
        django,
        jinja2,
        mistune,
        magiclink,
        html_fragment,
        docutils,
        marko,
        cmarkgfm,
    ):
        try:
            add()
        except ModuleNotFoundError as exc:  # (another ImportError is a broken tree: not a missing row)
            print(f"  {add.__name__}: not installed ({exc})")
    return out


def _raw_libraries() -> list[tuple[str, Callable[[str], object], str]]:
    """``(backend, the library alone with the backend's configuration, its label)`` for the
    backends (e) does not already cover, where the library is installed."""
    out: list[tuple[str, Callable[[str], object], str]] = []
    try:
        from bleach.linkifier import Linker

        flt = get_backend("bleach")._filter  # type: ignore[attr-defined]
        linker = Linker(url_re=flt.url_re, email_re=flt.email_re, parse_email=True)
        out.append(
            ("bleach", lambda t: linker.linkify(html.escape(t, quote=False)), "Linker(same url_re, email_re).linkify")
        )
    except ImportError:
        pass
    try:
        from django.utils.html import urlize as django_urlize

        out.append(("django", lambda t: django_urlize(t, autoescape=True), "django.utils.html.urlize"))
    except ImportError:
        pass
    try:
        from jinja2.utils import urlize as jinja2_urlize

        out.append(("jinja2", jinja2_urlize, "jinja2.utils.urlize"))
    except ImportError:
        pass
    try:
        import mistune

        # Fair baseline (issue 36.1): mistune's inline parser with the url plugin on, the
        # work mistune does to find the links of a text (its tokens)
        inline = mistune.create_markdown(plugins=["url"]).inline
        out.append(("mistune", lambda t: inline(t, {}), "md.inline with the url plugin"))
    except ImportError:
        pass
    try:
        from uts58_adapt.backends.magiclink import magiclink_spans

        md = get_backend("magiclink")._md  # type: ignore[attr-defined]
        out.append(("magiclink", lambda t: magiclink_spans(md, t), "its inline patterns over the text"))
    except ImportError:
        pass
    return out


def bench_entry_points(
    lines: list[str],
    repeat: int,
    report: Report,
    rows: str = "",
    warm: list[str] | None = None,
    repeated: bool = True,
) -> None:
    """(h) every drop-in entry point against the library it upgrades; detect() per backend.

    ``rows``: only the rows whose label holds this text (any case; empty: every row).
    ``warm``: lines of the same kind not in ``lines``, for the warm-up (see :func:`measure`).
    ``repeated``: also the repeated reading of each upgrade (the same block a second time,
    the memos kept), against the library's first reading (information)."""
    print("(h) drop-in entry points / the library alone, per paragraph, side by side (issue 20)")
    paras, warm_paras = paragraphs(lines), paragraphs(warm or [])
    docs = ["<p>" + html.escape(p, quote=False) + "</p>" for p in paras]
    warm_docs = ["<p>" + html.escape(p, quote=False) + "</p>" for p in warm_paras]
    for label, library, upgraded, kind in _entry_points():
        if rows.lower() not in label.lower():
            continue
        items, warm_items = (docs, warm_docs) if kind == "html" else (paras, warm_paras)
        info = "(information)" in label
        variants = {"library": each(library), "upgraded": each(upgraded)}
        if repeated and not info:
            variants["upgraded" + REPEATED] = each(upgraded)
        times = measure(variants, items, repeat, warm_items or None)
        report.ratio(label, times["upgraded"], times["library"], None if info else 1.0)
        if repeated and not info:
            report.ratio(label + REPEATED, times["upgraded" + REPEATED], times["library"], None)
    for name, library, label in _raw_libraries():
        if rows.lower() not in f"detect(backend={name!r}) / {label}".lower():
            continue
        try:
            get_backend(name)
        except ImportError:
            continue
        variants = {"detect": each(lambda s, b=name: detect(s, backend=b)), "library": each(library)}
        if repeated:
            variants["detect" + REPEATED] = variants["detect"]
        times = measure(variants, paras, repeat, warm_paras or None)
        report.ratio(f"detect(backend={name!r}) / {label}", times["detect"], times["library"], 0.6)
        if repeated:
            report.ratio(
                f"detect(backend={name!r}) / {label}{REPEATED}", times["detect" + REPEATED], times["library"], None
            )


STARTUP_DETECT = """\\
import sys, time
c0, t0 = time.process_time(), time.perf_counter()
from uts58_adapt import detect
c1, t1 = time.process_time(), time.perf_counter()
detect(sys.argv[1])
c2, t2 = time.process_time(), time.perf_counter()
print(c1 - c0, c2 - c1, t2 - t1)
"""
STARTUP_LINE = "see https://example.com/a(b) and jane@example.org."
# Non-ASCII text also compiles the full Unicode forms of the character classes (an
# ASCII text needs only their ASCII forms: see properties.FlagPattern).
STARTUP_LINE_UNICODE = "voir https://fr.wikipedia.org/wiki/Antonín_Dvořák (né 1841) et σωκράτης@example.gr."


def _child_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _startup_runs(runs: int, env: dict[str, str]) -> dict[str, list[float]]:
    """The start-up figures of ``runs`` rounds of fresh processes with environment ``env``."""
    import subprocess

    figures: dict[str, list[float]] = {
        "import": [],
        "first": [],
        "first_wall": [],
        "unicode": [],
        "cli": [],
        "cli_wall": [],
    }
    for _ in range(runs):
        for text, keys in (
            (STARTUP_LINE, ("import", "first", "first_wall")),
            (STARTUP_LINE_UNICODE, (None, "unicode", None)),
        ):
            out = subprocess.run(
                [sys.executable, "-c", STARTUP_DETECT, text], capture_output=True, text=True, check=True, env=env
            ).stdout.split()
            for key, value in zip(keys, out):
                if key is not None:
                    figures[key].append(float(value))
        c0, t0 = _child_cpu(), time.perf_counter()
        command = [sys.executable, "-m", "uts58_adapt.cli", "detect"]
        subprocess.run(command, input=STARTUP_LINE + "\n", capture_output=True, text=True, check=True, env=env)
        figures["cli"].append(_child_cpu() - c0)
        figures["cli_wall"].append(time.perf_counter() - t0)
    return figures


def bench_startup(runs: int, report: Report) -> None:
    """Start-up in fresh processes.  The checked figures are CPU times (user + system, of the
    child), which other processes on a shared machine change less than wall-clock times
    (printed for information; on a quiet machine they are about the same).

    As after ``pip install`` (which writes the bytecode of every module), the processes
    find the bytecode of every module cached: it is written by one untimed run into a
    temporary ``PYTHONPYCACHEPREFIX``, so the repository is left alone even where
    ``PYTHONDONTWRITEBYTECODE`` is set.  The figures without a bytecode cache (every
    module of the package compiled at every start) are printed for information."""
    import os
    import tempfile

    base = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    print(f"(f) start-up in fresh processes, best of {runs} (CPU time of the child)")
    with tempfile.TemporaryDirectory(prefix="uts58-pycache-") as cache:
        env = dict(base, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        _startup_runs(1, env)  # writes the bytecode cache
        cached = _startup_runs(runs, env)
    uncached_env = dict(base, PYTHONDONTWRITEBYTECODE="1")
    uncached_env.pop("PYTHONPYCACHEPREFIX", None)
    uncached = _startup_runs(max(1, runs // 2), uncached_env)
    best = {key: min(values) * 1e3 for key, values in cached.items()}
    print(f"  import uts58_adapt: {best['import']:.0f} ms CPU (information)")
    print(f"  wall clock (information): first detect() {best['first_wall']:.0f} ms, CLI {best['cli_wall']:.0f} ms")
    print(f"  first detect() of a non-ASCII line: {best['unicode']:.0f} ms CPU (information)")
    print(
        "  with no bytecode cache (information): first detect() "
        f"{min(uncached['first']) * 1e3:.0f} ms, CLI {min(uncached['cli']) * 1e3:.0f} ms CPU"
    )
    report.value("first detect() in a fresh process (ms CPU)", best["first"], 120)
    report.value("echo line | uts58-adapt detect (ms CPU, whole process)", best["cli"], 250)


def bench_throughput(
    lines: list[str], repeat: int, js_prefix: str | None = None, warm: list[str] | None = None
) -> None:
    """(g) MB/s of detect() with every installed backend, and of the JavaScript anchors
    (linkify-it 5.0.2, arnt/uts58) on the same paragraphs when node and they are here."""
    from bench_js import QUOTED, linkify_js_version, run_js, run_linkify_js
    from linkify_it import LinkifyIt

    from uts58_adapt.backends import BACKENDS as ALL_BACKENDS

    print("(g) throughput per paragraph, MB/s = million code points per second (information)")
    paras = paragraphs(lines)
    size = sum(map(len, paras)) / 1e6
    variants: dict[str, Callable[[list[str]], object]] = {}
    for name in ALL_BACKENDS:
        try:
            get_backend(name)
        except BackendUnavailable as exc:  # an optional extra that is not installed
            print(f"  detect(backend={name!r}): not installed ({exc})")
            continue
        variants[name] = each(lambda s, b=name: detect(s, backend=b))
    variants["LinkifyIt().match"] = each(LinkifyIt().match)
    times = measure(variants, paras, repeat, paragraphs(warm or []) or None)
    for name, seconds in times.items():
        shown = name if name.endswith(")") or "." in name else f"detect(backend={name!r})"
        print(f"  {shown}: {size / seconds:.2f} MB/s")
    detect_mbs = size / times["linkify-it"]
    clock = "cpu" if CLOCK is time.process_time else "wall"
    linkify_js = run_linkify_js(paras, repeat, js_prefix, clock)
    if linkify_js is None:
        print("  linkify-it (JS): not run (no node, or not installed: --install-js DIR or LINKIFY_JS_DIR)")
    else:
        seconds, links = linkify_js
        print(
            f"  linkify-it {linkify_js_version(js_prefix)} (JS, node {_node_version()}) new LinkifyIt().match: "
            f"{size / seconds:.2f} MB/s ({links:,} links); detect() with linkify-it {detect_mbs:.2f} MB/s: "
            f"{detect_mbs / (size / seconds):.2f}x its speed"
        )
    js = run_js(paras, repeat, clock)
    if js is None:
        print(f"  {QUOTED}")
    else:
        seconds, links = js
        print(
            f"  arnt/uts58 (JS, node) extractEntitiesWithIndices: {size / seconds:.2f} MB/s ({links:,} links); "
            f"detect() {detect_mbs / (size / seconds):.2f}x its speed"
        )


def _node_version() -> str:
    import subprocess

    try:
        return subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except OSError:
        return "?"


def profile_adapter(lines: list[str]) -> None:
    from linkify_it import LinkifyIt

    import uts58_adapt

    paras = paragraphs(lines)
    wrapped = uts58_adapt.wrap(LinkifyIt())
    for label, fn in (("detect(backend='linkify-it')", detect), ("wrap(LinkifyIt()).match", wrapped.match)):
        print(f"\ncProfile: {label} per paragraph over the corpus, by internal time")
        profiler = cProfile.Profile()
        profiler.enable()
        for para in paras:
            fn(para)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())


def load_corpus_split(size: int) -> tuple[list[str], str, list[str]]:
    """``(lines, description, warm)``: the real-text corpus of ``size`` characters, and the next
    fifth as much text, from other files, for the warm-up (see :func:`measure`)."""
    everything, description = load_corpus(size + size // 5)
    total = k = 0
    while k < len(everything) and total < size:
        total += len(everything[k]) + 1
        k += 1
    return everything[:k], f"{description}; timed: the first {total:,} chars, warm-up: the rest", everything[k:]


def refinement_path() -> str:
    """Which refinement runs: the compiled extension or pure Python (issue 36.4).  Read from
    ``uts58_adapt.compiled`` or ``uts58_adapt.refine.compiled`` (a bool, a str naming the
    extension, or a function giving either), where the extension's helper puts it; absent:
    pure Python."""
    import os

    pure = os.environ.get("UTS58_ADAPT_PURE") == "1"
    for owner in ("uts58_adapt", "uts58_adapt.refine"):
        value = getattr(importlib.import_module(owner), "compiled", None)
        if callable(value):
            value = value()
        if value is None:
            continue
        if value:
            return f"compiled extension ({value if isinstance(value, str) else owner + '.compiled'})"
        return "pure Python (UTS58_ADAPT_PURE=1)" if pure else "pure Python (the extension is not built)"
    return "pure Python (no extension)" + (", UTS58_ADAPT_PURE=1" if pure else "")


def _reexec_pure(argv: list[str]) -> None:
    """--pure: run this script again with UTS58_ADAPT_PURE=1 (the pure-Python refinement)."""
    import os

    if os.environ.get("UTS58_ADAPT_PURE") == "1":
        return
    args = [a for a in argv if a != "--pure"]
    sys.stdout.flush()
    os.execve(
        sys.executable, [sys.executable, str(Path(__file__).resolve()), *args], {**os.environ, "UTS58_ADAPT_PURE": "1"}
    )


def main(argv: list[str] | None = None) -> int:
    from corpus_dense import POINTS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit with status 1 if a target is missed")
    parser.add_argument("--size", type=int, default=500_000, help="corpus size in characters (default 500000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds per block, min taken (default 5)")
    parser.add_argument("--profile", action="store_true", help="also cProfile the adapter over the corpus")
    parser.add_argument(
        "--only", choices=[*"abcdefgh", "js", *AUDIT_FIGURES], action="append", help="run only these figures"
    )
    parser.add_argument(
        "--corpus", choices=["debian", "dense", "both"], default="both", help="the corpora measured (default both)"
    )
    parser.add_argument("--dense-size", type=int, default=DENSE_SIZE, help=f"characters per dense point ({DENSE_SIZE})")
    parser.add_argument(
        "--seed",
        type=int,
        default=58,
        help="base seed of the dense points: point k of POINTS reads seed+101(k+1), its warm-up seed+101(k+1)+50",
    )
    parser.add_argument(
        "--point",
        action="append",
        choices=list(POINTS),
        metavar="NAME",
        help=f"only this point of the dense family (repeatable; default every one: {', '.join(POINTS)})",
    )
    parser.add_argument("--points", help="only these points, comma-separated (as --point)")
    parser.add_argument(
        "--no-repeated", action="store_true", help="(a), (h): leave out the repeated reading (the memos kept)"
    )
    parser.add_argument(
        "--keep-host-caches",
        action="store_true",
        help="forget() leaves the refinement's lru caches of hosts and labels (as before issue 36; information)",
    )
    parser.add_argument(
        "--pure", action="store_true", help="run again with UTS58_ADAPT_PURE=1: the pure-Python refinement"
    )
    parser.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="time blocks by wall clock (default) or by this process's CPU time (steadier on a shared machine)",
    )
    parser.add_argument(
        "--install-js",
        metavar="DIR",
        help="optional step: npm install linkify-it 5.0.2 into DIR (network), then run it in (g)",
    )
    parser.add_argument("--startup-runs", type=int, default=15, help="rounds of fresh processes for (f) (default 15)")
    # --- Audit (issue 11.2-11.4; benchmarks/bench_audit.py) ---
    parser.add_argument(
        "--corpus-size",
        type=parse_sizes,
        default=[50.0, 100.0, 200.0],
        metavar="MB[,MB...]",
        help="generated corpora for audit-memory (each) and audit-scale (the largest)",
    )
    parser.add_argument(
        "--line-size",
        type=parse_sizes,
        default=[0.1, 1.0, 4.0, 16.0],
        metavar="MB[,MB...]",
        help="MB in the one line of each audit-long-lines run",
    )
    # --- end audit ---
    parser.add_argument(
        "--rows", default="", metavar="TEXT", help="(h): only the rows whose label holds TEXT, in any case"
    )
    args = parser.parse_args(argv)
    if args.pure:
        _reexec_pure(sys.argv[1:] if argv is None else argv)
    points = list(args.point or [])
    for name in (args.points or "").split(","):
        if name.strip():
            if name.strip() not in POINTS:
                parser.error(f"--points: no point {name.strip()!r} (points: {', '.join(POINTS)})")
            points.append(name.strip())
    points = points or list(POINTS)

    global CLOCK, CLEAR_CACHES
    CLEAR_CACHES = not args.keep_host_caches
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.install_js:
        from bench_js import install_linkify_js

        install_linkify_js(args.install_js)
    corpora = []
    if args.corpus in ("debian", "both"):
        corpora.append(("debian", *load_corpus_split(args.size)))
    if args.corpus in ("dense", "both"):
        from corpus_dense import dense_corpus, dense_lines

        for k, point in enumerate(POINTS):
            if point in points:
                seed = args.seed + 101 * (k + 1)
                lines, description = dense_corpus(args.dense_size, seed, POINTS[point])
                warm, _ = dense_lines(args.dense_size // 5, seed + 50, POINTS[point])
                corpora.append((f"dense/{point}", lines, description + f"; warm-up: seed {seed + 50}", warm))
    print(f"Python {sys.version.split()[0]}; min of {args.repeat} interleaved runs; {args.clock} clock")
    print(f"refinement: {refinement_path()}")
    started = time.perf_counter()
    report = Report()
    only = set(args.only or [*"abcdefgh", "js"])
    for name, lines, description, warm in corpora:
        report.corpus = name
        print(f"\n=== corpus {name}: {description}\n")
        if "a" in only:
            bench_refinement(lines, args.repeat, report, warm, not args.no_repeated)
        if "b" in only:
            bench_adapter(lines, args.repeat, report, warm)
        if "c" in only:
            bench_escaping(lines, args.repeat, report)
        if "d" in only:
            bench_properties(lines, args.repeat)
        if "e" in only:
            bench_detection(lines, args.repeat, report, warm)
        if "h" in only:
            bench_entry_points(lines, args.repeat, report, args.rows, warm, not args.no_repeated)
        if "g" in only or "js" in only:
            bench_throughput(lines, args.repeat, args.install_js, warm)
        # --- Audit (issue 11.2-11.4; benchmarks/bench_audit.py): audit-memory/-scale only when asked (minutes) ---
        if "audit" in only or not args.only:
            bench_audit_cost(lines, args.repeat, report, functools.partial(measure, warm=warm), each)
        if name == corpora[0][0]:  # generated corpora of --corpus-size MB from the first corpus's lines
            if "audit-memory" in only:
                bench_audit_memory(args.corpus_size, lines, report)
            if "audit-scale" in only:
                bench_audit_scale(max(args.corpus_size), lines, report)
        # --- end audit ---
        if args.profile:
            profile_adapter(lines)
    report.corpus = ""
    if "audit-long-lines" in only:  # one generated line per size: no corpus
        print()
        bench_audit_long_lines(args.line_size, report)
    if "f" in only:
        print()
        bench_startup(args.startup_runs, report)
    report.summary()
    print(f"\nrefinement: {refinement_path()}; run time {time.perf_counter() - started:.0f} s (wall)")
    print("\n" + ("all targets met" if not report.failed else "FAILED: " + "; ".join(report.failed)))
    return 1 if args.check and report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
