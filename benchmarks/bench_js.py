"""arnt/uts58 (JavaScript, a UTS #58 linkifier written from scratch) on the same text, for comparison.

Information only (no target).  It runs when ``node`` is on the PATH and the package can
be found: ``UTS58_JS_DIR`` naming a checkout of the package (the ``javascript`` folder
of https://github.com/arnt/uts58, the one holding ``src/index.js``), or ``uts58``
importable by node from the current directory (``npm install uts58``).  Nothing is
downloaded here.  Otherwise the figure measured when issue 11 was written is quoted.

linkify-it 5.0.2 (the JavaScript original of linkify-it-py) is the second anchor: ``npm
install --prefix DIR linkify-it@5.0.2`` (:func:`install_linkify_js`, the benchmark's
optional step ``--install-js DIR``; it needs the npm registry, nothing at test time), then
``LINKIFY_JS_DIR=DIR`` or ``--install-js DIR`` finds it.  A default ``new LinkifyIt()``,
``match(paragraph)``, as the Python ``LinkifyIt().match`` of the benchmark.
arnt/uts58 is not published on npm (``npm view uts58``: 404, 2026-11-25).

Timing: ``extractEntitiesWithIndices`` (URLs and emails, as ``detect()`` finds both) over
the same paragraphs as (e), minimum of ``repeat`` rounds, in one node process after one
warm-up round, so its start-up and JIT warm-up are left out, as ours are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

#: What is printed when the JS package cannot be run here.
QUOTED = (
    "arnt/uts58 (JS): not run here (no node, or no checkout: it is not on npm, set UTS58_JS_DIR to the "
    "javascript folder of https://github.com/arnt/uts58); issue 20 (2026-11) measured detect() with linkify-it "
    "at 1.2x its speed on Debian docs and 0.26x on dense multilingual text"
)

_SCRIPT = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [entry, corpus, repeat, clock] = process.argv.slice(2);
const now = clock === "cpu"
  ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; }
  : () => Number(process.hrtime.bigint()) / 1e9;
const { extractEntitiesWithIndices } = await import(entry.startsWith("/") ? pathToFileURL(entry).href : entry);
const paragraphs = JSON.parse(readFileSync(corpus, "utf8"));
let links = 0;
for (const p of paragraphs) links += extractEntitiesWithIndices(p).length;  // warm-up
let best = Infinity;
for (let r = 0; r < Number(repeat); r++) {
  const t0 = now();
  for (const p of paragraphs) extractEntitiesWithIndices(p);
  best = Math.min(best, now() - t0);
}
console.log(JSON.stringify({ seconds: best, links }));
"""


LINKIFY_JS_VERSION = "5.0.2"

_LINKIFY_SCRIPT = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [entry, corpus, repeat, clock] = process.argv.slice(2);
const now = clock === "cpu"
  ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; }
  : () => Number(process.hrtime.bigint()) / 1e9;
const LinkifyIt = (await import(pathToFileURL(entry).href)).default;
const linkify = new LinkifyIt();
const paragraphs = JSON.parse(readFileSync(corpus, "utf8"));
let links = 0;
for (const p of paragraphs) links += (linkify.match(p) || []).length;  // warm-up
let best = Infinity;
for (let r = 0; r < Number(repeat); r++) {
  const t0 = now();
  for (const p of paragraphs) linkify.match(p);
  best = Math.min(best, now() - t0);
}
console.log(JSON.stringify({ seconds: best, links }));
"""


def install_linkify_js(prefix: str) -> bool:
    """``npm install --prefix PREFIX linkify-it@5.0.2`` (network); whether it is there afterwards."""
    if _linkify_entry(prefix) is not None:
        return True
    if shutil.which("npm") is None:
        print("  npm not found: linkify-it (JS) not installed")
        return False
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, f"linkify-it@{LINKIFY_JS_VERSION}"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        print(f"  npm install linkify-it@{LINKIFY_JS_VERSION} failed: {done.stderr.strip()[-300:]}")
    return _linkify_entry(prefix) is not None


def _linkify_entry(prefix: str | None) -> str | None:
    """linkify-it's ``index.mjs`` under ``PREFIX/node_modules`` (PREFIX: the argument, else ``LINKIFY_JS_DIR``)."""
    folder = prefix or os.environ.get("LINKIFY_JS_DIR")
    if not folder:
        return None
    index = Path(folder) / "node_modules" / "linkify-it" / "index.mjs"
    return str(index.resolve()) if index.is_file() else None


def linkify_js_version(prefix: str | None) -> str | None:
    entry = _linkify_entry(prefix)
    if entry is None:
        return None
    return str(json.loads((Path(entry).parent / "package.json").read_text(encoding="utf-8"))["version"])


def run_linkify_js(
    paragraphs: list[str], repeat: int, prefix: str | None = None, clock: str = "wall"
) -> tuple[float, int] | None:
    """``(seconds, links)`` of linkify-it (JS) ``match`` over ``paragraphs``, or None when it cannot run here."""
    entry = _linkify_entry(prefix)
    if entry is None or shutil.which("node") is None:
        return None
    return _run_node(_LINKIFY_SCRIPT, entry, paragraphs, repeat, "linkify-it (JS)", clock)


def _entry() -> str | None:
    """The module node should import: the checkout's ``src/index.js``, or the installed package's file URL."""
    folder = os.environ.get("UTS58_JS_DIR")
    if folder:
        index = Path(folder) / "src" / "index.js"
        return str(index.resolve()) if index.is_file() else None
    # Resolved from the current directory (the script itself runs from a temporary one).
    probe = subprocess.run(
        ["node", "--input-type=module", "-e", "console.log(import.meta.resolve('uts58'))"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    url = probe.stdout.strip()
    return url if probe.returncode == 0 and url.startswith("file:") else None


def run_js(paragraphs: list[str], repeat: int, clock: str = "wall") -> tuple[float, int] | None:
    """``(seconds, links)`` of arnt/uts58 over ``paragraphs``, or None when it cannot run here."""
    if shutil.which("node") is None:
        return None
    entry = _entry()
    if entry is None:
        return None
    return _run_node(_SCRIPT, entry, paragraphs, repeat, "arnt/uts58 (JS)", clock)


def _run_node(
    source: str, entry: str, paragraphs: list[str], repeat: int, name: str, clock: str = "wall"
) -> tuple[float, int] | None:
    """Run ``source`` in node over ``paragraphs``: ``(best seconds, links)``; ``clock`` "cpu" times
    by the node process's CPU time (``process.cpuUsage``), as ``bench.py --clock cpu`` does."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bench.mjs"
        script.write_text(source, encoding="utf-8")
        corpus = Path(tmp) / "corpus.json"
        corpus.write_text(json.dumps(paragraphs), encoding="utf-8")
        out = subprocess.run(
            ["node", str(script), entry, str(corpus), str(repeat), clock],
            capture_output=True,
            text=True,
            timeout=600,
        )
    if out.returncode != 0:
        print(f"  {name} failed: {out.stderr.strip()[-300:]}")
        return None
    result = json.loads(out.stdout)
    return float(result["seconds"]), int(result["links"])
