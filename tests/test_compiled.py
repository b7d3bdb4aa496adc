"""The compiled refinement (uts58_adapt/refine/_compiled.pyx) against its pure-Python reference.

Identical output is required, at two levels (docs/compiled.md):

- each compiled function against its pure twin (``_dispatch.PURE``), at every offset of:
  the official files (LinkDetectionTest.txt, LinkFormattingTest.txt, IdnaTestV2.txt's
  hosts), the bundled sample corpus, the benchmark's dense corpus, the repetitive shapes
  of tests/test_linear_time.py and generated hostile text (hypothesis); the Punycode twins
  (``labels.a_label``, ``labels.punycode_length``) on every non-ASCII label of
  IdnaTestV2.txt, of the benchmark's corpora and of generated labels of every plane;
- end to end: ``detect()`` with both backends, ``minimal_escape`` and ``format_url`` on the
  same texts, in two fresh processes, one with ``UTS58_ADAPT_PURE=1``.

When the extension is not built the tests skip, saying so; with ``UTS58_REQUIRE_COMPILED=1``
(.ci/run) they fail instead.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import uts58_adapt
from uts58_adapt.properties import BRACKET, FLAGS
from uts58_adapt.refine import _dispatch, host_chars, labels, migration, part_escaping, termination
from uts58_adapt.refine.hosts import SEP_TABLE

from conftest import REPO, dense_paragraphs, load_module, plain_text, require_data, sample_lines

REQUIRE = "UTS58_REQUIRE_COMPILED"


def _load_extension() -> ModuleType:
    try:
        module = importlib.import_module("uts58_adapt.refine._compiled")
    except ImportError as error:
        reason = f"the compiled refinement is not built ({error}); `pip install -e .` with a C compiler builds it"
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{reason}; {REQUIRE}=1 forbids skipping")
        pytest.skip(reason)
    # Its tables, as _dispatch and the modules install them (also under UTS58_ADAPT_PURE=1).
    module.set_tables(FLAGS, BRACKET)
    module.set_percent_escape(part_escaping.percent_escape)
    module.set_host_loader(host_chars._host_table)
    return module


@pytest.fixture(scope="module")
def ext() -> ModuleType:
    return _load_extension()


def pure(name: str) -> Callable[..., Any]:
    return _dispatch.PURE[name]


# --- Inputs ------------------------------------------------------------------------------------


def _official_lines(*relative: str) -> list[str]:
    path = require_data(*relative)
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def detection_texts() -> list[str]:
    lines = _official_lines("17.0.0", "linkification", "LinkDetectionTest.txt")
    texts = [plain_text(line) for line in lines if not line.startswith("#")]
    assert len(texts) == 344
    return texts


def formatting_texts() -> list[str]:
    """Every URL line of LinkFormattingTest.txt (fully escaped and minimal), and the structure comments."""
    lines = _official_lines("17.0.0", "linkification", "LinkFormattingTest.txt")
    texts = [line for line in lines if not line.startswith("#") or line.startswith("# {")]
    assert len(texts) == 3 * 55
    return texts


_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}")


def idna_hosts() -> list[str]:
    """Column 1 (source) of every data line of IdnaTestV2.txt, its escapes decoded."""
    hosts = []
    for line in _official_lines("17.0.0", "idna", "IdnaTestV2.txt"):
        data = line.split("#", 1)[0].strip()
        if data:
            source = data.split(";")[0].strip()
            hosts.append(_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), source))
    assert len(hosts) > 6000
    return hosts


def idna_texts() -> list[str]:
    """The hosts as a bare host, after a scheme with a path, and as an email's domain, a few per text."""
    hosts = idna_hosts()
    return [
        " ".join(f"{h} https://{h}/p?q#f a.b@{h}, (see {h}/x)" for h in hosts[i : i + 8])
        for i in range(0, len(hosts), 8)
    ]


#: tests/test_linear_time.py's shapes, at a small n, and more aimed at the compiled loops.
SHAPES: list[Callable[[int], str]] = [
    lambda n: "a@" * n,
    lambda n: "see a.co " * n,
    lambda n: "x.com/" + "(" * n,
    lambda n: "x.com/a" + "." * n + "b",
    lambda n: "x.com/" + "([{<a" * n + ">}])" * n + " " + "(]a[)" * n,
    lambda n: "a@b.com x.co mailto:c.d@e.org, https://f.net/g " * n,
    lambda n: "see x.com/a" + ".,;:!?'\"。」" * n + " b",
    lambda n: "a." * n + "@x.com",
    lambda n: "a@b.co.x.com@" * n,
    lambda n: "a.com," * n,
    lambda n: "https://x.com/#a:~:" * n + "b,c&d:~:e",
    lambda n: "https://x.com/p?" + "a=b&" * n + "#f:~:t=1,2&x",
    lambda n: "MAILTO:" + "é" * n + "@例え.jp mailto:a..b@c.org",
    lambda n: "x" * n + "@a.com " + "y" * (260 + n) + "@b.com",
    lambda n: "例え。テスト／" * n + "ü.de/" + "𝔞" * n + " 𐩐x.com",
    lambda n: "https://e.org/" + "(" * 130 + ")" * 130 + "[x]",
]


def shape_texts() -> list[str]:
    return [shape(n) for shape in SHAPES for n in (1, 2, 7, 40)]


def random_texts(count: int = 300, seed: int = 58) -> list[str]:
    """Hostile text: the pieces the refinement looks at, at random."""
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 60))) for _ in range(count)]


#: What the loops branch on: part initiators, ClearStackOpen elements, ``:~:``, brackets,
#: Soft and Hard characters, separators, host and email characters of every width.
PIECES = [
    *"/?#&=,:~.@-_%()[]{}<>'\"!; \t\n",
    *["a", "Z", "0", "é", "ß", "例", "。", "．", "｡", "」", "「", "（", "）", "﹙", "﹚", "‹", "›", "«", "»"],
    "\u200d", "\u00ad", "\ufffd", "\U0001f600", "𝔞", "𐩐", "\U000e0001", "\U0010ffff", "\udc80",
    "mailto:", "MaIlTo:", "https://", "//", ":~:", "x.com", "例え.jp", "a.b", "..", "xn--bcher-kva.de",
]  # fmt: skip


# --- Function level ------------------------------------------------------------------------------


def check_functions(ext: ModuleType, text: str) -> None:
    """Every compiled function against its pure twin, at every offset of ``text``."""
    n = len(text)
    safe = migration._SAFE_RUN.get(text)
    for i in range(n + 1):
        for name, args in (
            ("termination.terminate_unchecked", (text, i)),
            ("host_chars.host_run_end", (text, i)),
            ("host_chars.host_run_start", (text, i, max(0, i - 253))),
            ("host_chars.host_run_start", (text, i, 0)),
        ):
            short = name.split(".")[1]
            assert getattr(ext, short)(*args) == pure(name)(*args), f"{name}{args[1:]} on {text!r}"
        if i == n:
            break
        ch = text[i]
        if ch == "@":
            got = ext.email_start_window(text, i)
            assert got == pure("migration._email_start")(text, i), f"_email_start at {i} on {text!r}"
        if ch in "/?#":
            for raw_end in range(i, min(n, i + 40) + 1):
                args = (text, i, raw_end, safe, True)
                assert ext.path_end(*args) == pure("migration._path_end")(*args), f"_path_end{args[1:3]} on {text!r}"
            for part in (termination.PATH, termination.QUERY, termination.FRAGMENT):
                args2 = (text, i + 1, part, i + 1)
                got = ext.terminate_unchecked(*args2)
                assert got == pure("termination.terminate_unchecked")(*args2), f"resumed scan {args2[1:]} on {text!r}"
    for part in (termination.PATH, termination.QUERY, termination.FRAGMENT, termination.DIRECTIVE):
        for last in (False, True):
            got = ext.minimal_escape_part(text, part, last)
            assert got == pure("part_escaping.minimal_escape_part")(text, part, last), (part, last, text)


def test_the_extension_runs_unless_pure_python_is_asked_for(ext: ModuleType) -> None:
    assert _dispatch.compiled is (os.environ.get(_dispatch.ENV, "").strip() != "1")
    if _dispatch.compiled:
        assert termination.terminate_unchecked is ext.terminate_unchecked
        assert migration._path_end is ext.path_end
        assert host_chars.host_run_end is ext.host_run_end
        assert part_escaping.minimal_escape_part is ext.minimal_escape_part
        assert labels.a_label is ext.a_label
        assert labels.punycode_length is ext.punycode_length
    else:
        assert termination.terminate_unchecked is pure("termination.terminate_unchecked")
        assert labels.a_label is pure("labels.a_label")
    assert sorted(_dispatch.PURE) == [
        "host_chars.host_run_end",
        "host_chars.host_run_start",
        "labels.a_label",
        "labels.punycode_length",
        "migration._email_start",
        "migration._path_end",
        "part_escaping.minimal_escape_part",
        "termination.terminate_unchecked",
    ]


def test_the_extension_constants_are_the_modules(ext: ModuleType) -> None:
    from uts58_adapt import properties as p

    assert ext.CONSTANTS == (
        (p.INCLUDE, p.HARD, p.SOFT, p.OPEN, p.CLOSE, p.TERM_MASK, p.EMAIL_BIT)
        + (termination.NONE, termination.PATH, termination.QUERY, termination.FRAGMENT, termination.DIRECTIVE)
        + (termination.STACK_LIMIT, migration.MAX_LOCAL_PART, host_chars.MAX_HOST)
    )


def test_host_characters_of_every_code_point(ext: ModuleType) -> None:
    """The host table the extension reads gives what the pure host runs give, on every code point."""
    pure_end = pure("host_chars.host_run_end")
    different = [cp for cp in range(0x110000) if ext.host_run_end(chr(cp), 0) != pure_end(chr(cp), 0)]
    assert not different, [f"U+{cp:04X}" for cp in different[:20]]


def test_official_detection_lines(ext: ModuleType) -> None:
    for text in detection_texts():
        check_functions(ext, text)


def test_official_formatting_lines(ext: ModuleType) -> None:
    for text in formatting_texts():
        check_functions(ext, text)


def test_idna_hosts(ext: ModuleType) -> None:
    for text in idna_texts():
        check_functions(ext, text)


def test_sample_corpus(ext: ModuleType) -> None:
    lines = sample_lines()
    assert len(lines) >= 50
    for line in lines:
        check_functions(ext, line)


def test_dense_corpus(ext: ModuleType) -> None:
    paragraphs = dense_paragraphs(20_000)
    assert len(paragraphs) > 20
    for paragraph in paragraphs:
        check_functions(ext, paragraph)


def test_hostile_shapes_and_random_text(ext: ModuleType) -> None:
    for text in shape_texts() + random_texts():
        check_functions(ext, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=50).map("".join))
def test_generated_text(text: str) -> None:
    check_functions(_load_extension(), text)


def test_the_compiled_functions_check_their_arguments(ext: ModuleType) -> None:
    """C reads no code point outside the text: a negative offset is an error (the pure functions
    would read from the end); past the end, the pure functions' results."""
    outside: list[tuple[str, tuple[object, ...]]] = [
        ("terminate_unchecked", ("abc", -1)),
        ("host_run_end", ("abc", -1)),
        ("host_run_start", ("abc", 4)),
        ("email_start_window", ("a@b", 3)),
        ("path_end", ("abc", 4, 4)),
    ]
    for name, args in outside:
        with pytest.raises(ValueError, match="outside"):
            getattr(ext, name)(*args)
    assert ext.terminate_unchecked("abc", 5) == pure("termination.terminate_unchecked")("abc", 5) == 5
    assert ext.terminate_unchecked("abc", 5, 1, 3) == pure("termination.terminate_unchecked")("abc", 5, 1, 3) == 3
    assert ext.host_run_end("abc", 7) == pure("host_chars.host_run_end")("abc", 7) == 7
    with pytest.raises(TypeError):
        ext.host_run_end(b"abc", 0)


# --- Punycode: labels.a_label and labels.punycode_length ------------------------------------------

#: RFC 3492 §7.1's samples (A), (B), (D), (L), (M): upper case basic code points kept as they are.
RFC3492_SAMPLES = [
    ("\u0644\u064a\u0647\u0645\u0627\u0628\u062a\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064a\u061f",
     "egbpdaj6bu4bxfgehfvwxn"),
    ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
    ("Pro\u010dprost\u011bnemluv\u00ed\u010desky", "Proprostnemluvesky-uyb24dma41a"),
    ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
    ("安室奈美恵-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
]  # fmt: skip


def check_punycode(ext: ModuleType, label: str) -> None:
    """``a_label`` and ``punycode_length`` (whole, and stopped where strict_label stops) against the pure twins."""
    assert ext.a_label(label) == pure("labels.a_label")(label), f"a_label({label!r})"
    for stop in (None, 59, 5, 0):
        got = ext.punycode_length(label, stop)
        assert got == pure("labels.punycode_length")(label, stop), f"punycode_length({label!r}, {stop})"


def idna_labels() -> list[str]:
    """Every non-ASCII label of IdnaTestV2.txt's source, toUnicode and toASCII columns (split at
    every UTS #46 separator), and each whole column that is not ASCII."""
    from test_idna_conformance import cases

    found: set[str] = set()
    for case in cases():
        for text in (case.source, case.to_unicode, case.to_ascii):
            found.add(text)
            found.update(text.translate(SEP_TABLE).split("."))
    return sorted(label for label in found if not label.isascii())


def corpus_labels() -> list[str]:
    """The non-ASCII labels of every run of host characters in the benchmark's dense corpora
    (each point of corpus_dense.POINTS, at bench.py's seeds) and the bundled sample corpus."""
    module = load_module("corpus_dense", REPO / "benchmarks" / "corpus_dense.py")
    texts = sample_lines()
    for k, mix in enumerate(module.POINTS.values()):
        texts += module.dense_lines(30_000, 58 + 101 * (k + 1), mix)[0]
    found: set[str] = set()
    for text in texts:
        i = 0
        while i < len(text):
            end = pure("host_chars.host_run_end")(text, i)
            if end > i:
                found.update(text[i:end].translate(SEP_TABLE).split("."))
                i = end
            else:
                i += 1
    return sorted(label for label in found if not label.isascii())


def test_a_label_is_the_codec_and_rfc_3492() -> None:
    """The pure reference: the ``punycode`` codec after ``xn--``, ASCII labels as they are, and
    RFC 3492's own samples; the compiled twin gives the same (when it is built)."""
    a_label = pure("labels.a_label")
    for label in ["bücher", "Bücher-X", "παράδειγμα", "例え", "\udc80", "a\ud800B", "\U0010ffff" * 3, "-ü-"]:
        assert a_label(label) == "xn--" + label.encode("punycode").decode("ascii")
    for label in ["", "a", "ABC", "xn--bcher-kva", "a-b", "\x7f"]:
        assert a_label(label) is label
    assert a_label("bücher") == "xn--bcher-kva" and a_label("例え") == "xn--r8jz45g"
    twins = [a_label] + ([_dispatch.extension.a_label] if _dispatch.extension is not None else [])
    for unicode, punycode in RFC3492_SAMPLES:
        for twin in twins:
            assert twin(unicode) == "xn--" + punycode, unicode


@settings(max_examples=2000, deadline=None)
@given(st.text(max_size=70))
def test_a_label_is_the_codec_on_generated_labels(label: str) -> None:
    expected = label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii")
    assert pure("labels.a_label")(label) == expected


def test_punycode_on_idna_labels(ext: ModuleType) -> None:
    found = idna_labels()
    assert len(found) > 4000
    for label in found:
        check_punycode(ext, label)


def test_punycode_on_the_benchmark_corpus_hosts(ext: ModuleType) -> None:
    found = corpus_labels()
    assert len(found) > 1000
    for label in found:
        check_punycode(ext, label)


def test_punycode_on_shapes(ext: ModuleType) -> None:
    """Each plane's extremes, surrogates (the codec takes them), long and repeated labels (the
    largest deltas, many bias adaptations, more than the compiled stack buffer) and basic code
    points only (``punycode_length``: the codec's ``abc-``; ``a_label``: the label itself)."""
    shapes = ["", "a", "ABC-", "\x7f", "\x80", "\udc80", "a\ud800B", "\U0010ffff", "\U0010ffff\x80" * 40]
    shapes += [chr(plane << 16 | low) for plane in range(17) for low in (0, 0xFFFF)]
    shapes += ["ü" * 300, "a" * 100 + "例", "例" * 1000, "".join(map(chr, range(0x10FFFF, 0x10FFFF - 3000, -7)))]
    for label in shapes + [s.upper() + "Ab-" + s for s in shapes] + [p for p, _ in RFC3492_SAMPLES]:
        check_punycode(ext, label)


#: Labels of every plane but the surrogates, with ASCII mixed in (upper case too).
_ANY_LABEL = st.lists(
    st.one_of(
        st.characters(min_codepoint=0, max_codepoint=0x7F),
        st.characters(blacklist_categories=("Cs",)),
        st.characters(min_codepoint=0x10000, blacklist_categories=("Cs",)),
    ),
    max_size=64,
).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_ANY_LABEL)
def test_punycode_on_generated_labels(label: str) -> None:
    check_punycode(_load_extension(), label)


def test_the_punycode_twins_check_their_arguments(ext: ModuleType) -> None:
    for name in ("a_label", "punycode_length"):
        with pytest.raises(TypeError):
            getattr(ext, name)(b"abc")
        with pytest.raises(TypeError):
            getattr(ext, name)(None)
    for stop in (-(10**30), -1, 10**30):
        assert ext.punycode_length("例え", stop) == pure("labels.punycode_length")("例え", stop)


# --- End to end, in two processes ------------------------------------------------------------------

_CHILD = r"""
import json, sys
from uts58_adapt import detect, format_url, minimal_escape
from uts58_adapt.refine import _dispatch
texts = json.load(sys.stdin)
out = {"compiled": _dispatch.compiled, "detect": [], "escape": []}
for text in texts:
    for backend in ("linkify-it", "urlextract"):
        links = detect(text, backend=backend)
        out["detect"].append([[l.start, l.end, l.text, l.href, l.kind, l.original] for l in links])
        for l in links:
            if l.kind == "url":
                out["escape"].append(minimal_escape(l.href))
                out["escape"].append(format_url("https", "example.com", [l.text], [(l.text, l.text)], l.text))
    for piece in text.split()[:20]:
        out["escape"].append(minimal_escape(piece))
json.dump(out, sys.stdout)
"""


#: Where the uts58_adapt under test was imported from (a checkout, or an installed wheel, whose
#: extension an unpacked sdist's copy lacks): first on the children's path, and their directory.
PACKAGE_ROOT = Path(uts58_adapt.__file__).resolve().parent.parent


def child_env(changes: dict[str, str]) -> dict[str, str]:
    """This environment, without ``$UTS58_ADAPT_PURE``, with ``changes``, importing this uts58_adapt."""
    env = {k: v for k, v in os.environ.items() if k != _dispatch.ENV}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p)
    env.update(changes)
    return env


def _run_child(texts: list[str], pure_python: bool) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        env=child_env({_dispatch.ENV: "1"} if pure_python else {}),
        cwd=PACKAGE_ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def _end_to_end_texts() -> Iterator[tuple[str, list[str]]]:
    yield "LinkDetectionTest.txt", detection_texts()
    yield "LinkFormattingTest.txt", formatting_texts()
    yield "IdnaTestV2.txt hosts", idna_texts()[::4]
    yield "sample corpus", sample_lines()
    yield "dense corpus", dense_paragraphs(20_000)
    yield "hostile text", shape_texts() + random_texts(200, seed=5858)


@pytest.mark.parametrize("corpus", ["LinkDetectionTest.txt", "LinkFormattingTest.txt", "IdnaTestV2.txt hosts",
                                    "sample corpus", "dense corpus", "hostile text"])  # fmt: skip
def test_end_to_end_compiled_and_pure_python_agree(ext: ModuleType, corpus: str) -> None:
    texts = dict(_end_to_end_texts())[corpus]
    compiled = _run_child(texts, pure_python=False)
    pure_python = _run_child(texts, pure_python=True)
    assert compiled["compiled"] is True
    assert pure_python["compiled"] is False
    assert len(compiled["detect"]) == 2 * len(texts)
    assert sum(map(len, compiled["detect"])) > 0
    for k, (a, b) in enumerate(zip(compiled["detect"], pure_python["detect"])):
        assert a == b, (
            f"{corpus}: detect() differs on text {k // 2} ({('linkify-it', 'urlextract')[k % 2]}): {texts[k // 2]!r}"
        )
    assert compiled["escape"] == pure_python["escape"]


# --- The switches ------------------------------------------------------------------------------------


def _version_lines(env_changes: dict[str, str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt", "--version"],
        capture_output=True,
        text=True,
        env=child_env(env_changes),
        cwd=PACKAGE_ROOT,
        check=True,
    )
    return proc.stdout.splitlines()


def test_version_says_which_refinement_runs(ext: ModuleType) -> None:
    assert _version_lines({})[-1] == "refinement: compiled (Cython)"
    assert _version_lines({_dispatch.ENV: "1"})[-1] == "refinement: pure Python ($UTS58_ADAPT_PURE=1)"


_VERSION_CHILD = r"""
import json
from uts58_adapt import UNICODE_VERSION
from uts58_adapt.refine import _dispatch, termination
text = "x.com/a\u2e62b"
print(json.dumps([UNICODE_VERSION, _dispatch.compiled, termination.terminate_unchecked(text, 5),
                  _dispatch.PURE["termination.terminate_unchecked"](text, 5)]))
"""


def test_the_extension_reads_the_tables_of_the_unicode_version_in_use(ext: ModuleType) -> None:
    """U+2E62 is unassigned (Hard) in 17.0.0 and assigned in the 18.0.0 draft: the compiled
    scan follows ``$UTS58_UNICODE_VERSION``, as the pure one does."""
    results = {}
    for version in ("17.0.0", "18.0.0"):
        proc = subprocess.run(
            [sys.executable, "-c", _VERSION_CHILD],
            capture_output=True,
            text=True,
            env=child_env({"UTS58_UNICODE_VERSION": version}),
            cwd=PACKAGE_ROOT,
            check=True,
        )
        unicode_version, compiled, got, reference = json.loads(proc.stdout)
        assert (unicode_version, compiled) == (version, True)
        assert got == reference, version
        results[version] = got
    assert results["17.0.0"] == 7  # stops before the Hard U+2E62
    assert results["18.0.0"] != results["17.0.0"]


def test_no_table_is_compiled_in() -> None:
    """The extension's source holds no property table: it receives them (_dispatch.py, host_chars.py)."""
    source = (REPO / "uts58_adapt" / "refine" / "_compiled.pyx").read_text(encoding="utf-8")
    assert "set_tables" in source
    assert not re.search(r"0x[0-9A-Fa-f]{4,}\s*,\s*0x[0-9A-Fa-f]{4,}", source), "a range table in _compiled.pyx"
    assert Path(REPO / "uts58_adapt" / "refine" / "_compiled.pyx").stat().st_size < 40_000
