"""detect(), refine_links() and the ``detect`` command."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uts58_adapt.backends import BACKENDS, get_backend
from uts58_adapt.backends.base import Backend, RawLink
from uts58_adapt.cli import main
from uts58_adapt.detection import detect, with_schemes_after_letters
from uts58_adapt.link import Link
from uts58_adapt.refine.migration import refine_links

from conftest import CLOSE_MARK, OPEN_MARK, REPO

ALL = pytest.mark.parametrize("backend", tuple(BACKENDS))
#: The backends whose libraries start every link UTS #58 finds (the others miss some by
#: design, e.g. mistune has no bare domains; see tests/test_newlib_backends.py and README).
FULL_RECALL = pytest.mark.parametrize("backend", ["linkify-it", "urlextract", "bleach"])


def spans(text: str, backend: str = "linkify-it") -> list[str]:
    return [link.text for link in detect(text, backend)]


# --- §10 migration: extending and trimming the backend's links --------------------------


@FULL_RECALL
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # cut short by the backend: extended by the termination algorithm
        (
            "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta'_artikli_li_kull_Wikipedija_għandu_jkollha x",
            "https://mt.wikipedia.org/wiki/Wikipedija:Lista_ta'_artikli_li_kull_Wikipedija_għandu_jkollha",
        ),
        (
            "https://nap.wikipedia.org/wiki/Wikipedia:Lista_d\"e_vvoce_ca_tutt'_'e_Wikipedie_aveno_a_avé",
            "https://nap.wikipedia.org/wiki/Wikipedia:Lista_d\"e_vvoce_ca_tutt'_'e_Wikipedie_aveno_a_avé",
        ),
        # ran too far: trimmed
        ("See example.com/αβ(γ/δ)ρς?α=θ on…", "example.com/αβ(γ/δ"),
        ("https://bo.wikipedia.org/wiki/ཟིན་ཐོ།", "https://bo.wikipedia.org/wiki/ཟིན་ཐོ"),
        ("blah example.com/?foo[1]=a&amp;foo[2]=b blah", "example.com/?foo[1]=a&amp;foo[2]=b"),
        ("a example.com/123... HTML", "example.com/123"),
        ("(example.com/123?123#(123)) b", "example.com/123?123#(123)"),
    ],
)
def test_section_10_examples(backend, text, expected):
    assert spans(text, backend) == [expected]


def test_original_is_the_backend_span():
    text = "See example.com/αβ(γ/δ)ρς on…"
    (link,) = detect(text)
    raw = get_backend("linkify-it").plain(text)
    assert link.original == (raw[0].start, raw[0].end)
    assert link.text == "example.com/αβ(γ/δ"
    assert link.href == "https://example.com/αβ(γ/δ"


# --- emails (Table 5-1) -------------------------------------------------------------------


@FULL_RECALL
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Contact abcd@example.com", ["abcd@example.com"]),
        ("Contact x.abcd@example.com.", ["x.abcd@example.com"]),
        ("Contact アルベルト.アルベルト@example.com", ["アルベルト.アルベルト@example.com"]),
        ("Contact @example.😎", []),
        ("Contact @example.com", []),
        ("Contact john.@example.com", []),
        ("Contact john..doe@example.com", []),
        ("Contact .john.doe@example.com", []),
        ('Contact "john\\ doe"@example.com', []),
        ("john.doe@example.com:1234/forum/questions/?tag=new", ["john.doe@example.com"]),
        ("mailto:john.smith@example.com/foo/bar", ["mailto:john.smith@example.com"]),
        ("MAILTO:john.smith@example.com", ["MAILTO:john.smith@example.com"]),
        (
            "Lorem www.mail-archive.com/ruby-talk@ruby-lang.org/ dolor",
            ["www.mail-archive.com/ruby-talk@ruby-lang.org/"],
        ),
    ],
)
def test_emails(backend, text, expected):
    assert spans(text, backend) == expected


def test_email_href_and_kind():
    (link,) = detect("write to Jane@BÜCHER.example.com.")
    assert link.kind == "email"
    assert link.href == "mailto:Jane@bücher.example.com"
    (link,) = detect("mailto:x@example.com")
    assert link.href == "mailto:x@example.com"


def test_an_email_the_backend_did_not_report_has_no_original():
    class UrlsOnly:
        name = "urls-only"

        def find(self, text):
            return []

    (link,) = detect("x: a.b@example.com", UrlsOnly())
    assert link.kind == "email" and link.original is None


# --- hosts ------------------------------------------------------------------------------


@FULL_RECALL
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://john.smith@example.com", []),
        ("http://john.smith@example.com/foo/bar", []),
        ("http://user:pw@example.com/x y", []),
        ("Lorem 普遍适用测试。我爱你 dolor", ["普遍适用测试。我爱你"]),
        ("Lorem 普遍适用测试．我爱你/测试 dolor", ["普遍适用测试．我爱你/测试"]),
        ("See http://foo.example.com. on", ["http://foo.example.com"]),
        ("See http://foo.example.com./αβγ on", ["http://foo.example.com./αβγ"]),
        ("See foo.example.com. on", ["foo.example.com"]),
        ("See http://foo..example.com/αβγ on", []),
        ("See http://-foo.example-.com. on", []),
        ("See FOO.VERMÖGEN.com on", ["FOO.VERMÖGEN.com"]),
        ("Lorem épreuve-acceptation-universelle.org dolor", ["épreuve-acceptation-universelle.org"]),
        ("a com b, .fr and example.invalid", []),
    ],
)
def test_hosts(backend, text, expected):
    assert spans(text, backend) == expected


def test_href_host_is_unicode():
    (link,) = detect("a xn-----ctdbabcfhu9c2b9l1acccr4c.xn--mgbah1a3hjkrd/x b")
    assert link.href == "https://تجربة-القبول-الشامل.موريتانيا/x"
    (link,) = detect("see http://foo.example.com./p")
    assert link.href == "http://foo.example.com./p"


# --- API contract ----------------------------------------------------------------------------


def test_type_errors_and_unknown_backend():
    with pytest.raises(TypeError, match="text"):
        detect(b"example.com")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text"):
        detect(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"linkify-it.*urlextract"):
        detect("example.com", "nope")
    with pytest.raises(TypeError, match=r"backend.*linkify-it"):
        detect("example.com", 42)  # type: ignore[arg-type]


def test_backends_are_cached_and_follow_the_protocol():
    for name in BACKENDS:
        backend = get_backend(name)
        assert backend is get_backend(name)
        assert isinstance(backend, Backend)
        assert backend.name == name


def test_max_length():
    url = "example.com/" + "a" * 100
    assert spans(url) == [url]
    assert detect(url, max_length=50) == []
    assert [link.text for link in detect(url + " x@example.com", max_length=50)] == ["x@example.com"]
    assert detect(url, max_length=None)[0].text == url


def test_refine_false_is_the_raw_view():
    text = "See example.com/αβ(γ/δ)ρς on…"
    (link,) = detect(text, refine=False)
    assert link.original == (link.start, link.end)
    assert link.text == text[link.start : link.end]


@ALL
def test_sorted_non_overlapping(backend):
    text = (
        "x@example.com example.com/a@b.com (see http://a.example.org/x_(y)) "
        "a.b@c.example.com:80/x mailto:u@example.com www.example.net? 普遍适用测试。我爱你."
    )
    links = detect(text, backend)
    assert [link.start for link in links] == sorted(link.start for link in links)
    for a, b in itertools.pairwise(links):
        assert a.end <= b.start
    for link in links:
        assert text[link.start : link.end] == link.text


def test_refine_links_tolerates_bad_raw_spans():
    text = "see example.com"
    raw = [RawLink(-1, 3, "url"), RawLink(4, 400, "url"), RawLink(9, 9, "url"), RawLink(4, 15, "url")]
    assert [link.text for link in refine_links(text, raw)] == ["example.com"]


NASTY = [
    "",
    "\0",
    "\ud800example.com\udfff",
    "example.com/\ud800\udc00",
    "@" * 1000,
    "a@" * 500 + "example.com",
    ".com" * 500,
    "http://" * 300,
    "x" * 5000 + ".com",
    "(" * 300 + "example.com/" + "(" * 300,
    "\U0010ffff example.com/\U000e0001",
    "。" * 100 + "我爱你",
]


@ALL
@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
def test_no_input_crashes(backend, text):
    for link in detect(text, backend):
        assert 0 <= link.start < link.end <= len(text)


@ALL
@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "example.com",
                "/",
                "?",
                "#",
                "(",
                ")",
                "[",
                "]",
                " ",
                ".",
                "@",
                "x",
                "é",
                "。",
                "http://",
                ":80",
                "'",
                "\ud800",
                "\0",
                "-",
                "我爱你",
                "mailto:",
            ]
        )
        | st.text(max_size=3),
        max_size=30,
    ).map("".join)
)
def test_detect_properties(backend, text):
    links = detect(text, backend)
    last = 0
    for link in links:
        assert last <= link.start < link.end <= len(text)
        assert link.text == text[link.start : link.end]
        last = link.end


# --- the command ------------------------------------------------------------------------------


def test_cli_marked_and_json(tmp_path, capsys):
    f = tmp_path / "in.txt"
    f.write_text("see example.com/αβγ. or x@example.com\nnothing here\n", encoding="utf-8")
    assert main(["detect", str(f)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"see {OPEN_MARK}example.com/αβγ{CLOSE_MARK}. or {OPEN_MARK}x@example.com{CLOSE_MARK}",
        "nothing here",
    ]
    assert main(["detect", str(f), "--format", "json", "--backend", "urlextract"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in rows] == [1, 2]
    assert rows[0]["source"] == str(f)
    assert rows[0]["links"][0] == {
        "start": 4,
        "end": 19,
        "text": "example.com/αβγ",
        "kind": "url",
        "href": "https://example.com/αβγ",
        "original": rows[0]["links"][0]["original"],
        "risks": [],
    }
    assert rows[0]["links"][1]["kind"] == "email"
    assert rows[1]["links"] == []


def test_cli_bad_files_are_reported_and_skipped(tmp_path, capsys):
    good = tmp_path / "good.txt"
    good.write_text("example.com\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok.example.com\n\xff\xfe\n")
    missing = tmp_path / "missing.txt"
    assert main(["detect", str(bad), str(missing), str(good)]) == 1
    captured = capsys.readouterr()
    assert f"{OPEN_MARK}example.com{CLOSE_MARK}" in captured.out.splitlines()[-1]
    assert str(bad) in captured.err and str(missing) in captured.err
    assert main(["detect", str(bad), "--errors", "replace"]) == 0


def test_cli_stdin_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "detect", "--no-refine"],
        input="see example.com/αβ(γ/δ)ρς on\n".encode(),
        capture_output=True,
        cwd=REPO,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert OPEN_MARK in proc.stdout.decode()
    proc = subprocess.run(
        [sys.executable, "-m", "uts58_adapt.cli", "detect", "--help"], capture_output=True, cwd=REPO, check=False
    )
    assert proc.returncode == 0 and b"examples:" in proc.stdout


@pytest.mark.parametrize(
    ("cls", "args", "defaults"),
    [
        (Link, {"start": 1, "end": 3, "text": "ab", "kind": "url", "href": "https://ab"}, {"original": None}),
        (RawLink, {"start": 1, "end": 3, "kind": "email"}, {"scheme_length": 0}),
    ],
)
def test_result_types_are_frozen_dataclasses(cls: type, args: dict[str, object], defaults: dict[str, object]) -> None:
    """Link and RawLink write their own __init__ (for speed): still frozen dataclasses with
    every field set, defaults, value equality and hashing, replace() and pickling."""
    import dataclasses
    import pickle

    obj = cls(**args)
    assert {f.name: getattr(obj, f.name) for f in dataclasses.fields(cls)} == {**args, **defaults}
    assert obj == cls(*args.values()) and hash(obj) == hash(cls(**args))
    assert obj != dataclasses.replace(obj, end=4) and dataclasses.replace(obj, end=4).end == 4
    assert pickle.loads(pickle.dumps(obj)) == obj
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.start = 0
    assert repr(obj).startswith(f"{cls.__name__}(start=1, end=3, ")


def test_dense_corpus_every_backend_refines_its_own_spans() -> None:
    """detect() on the benchmark's dense multilingual corpus (benchmarks/corpus_dense.py): for
    every installed backend, the links are the refinement of the backend's own spans (its
    candidates where it has them), sorted and non-overlapping, and the corpus gives links."""
    from conftest import dense_paragraphs

    paragraphs = dense_paragraphs(20_000)
    for name in BACKENDS:
        try:
            backend = get_backend(name)
        except ImportError:
            continue
        find = getattr(backend, "candidates", None) or backend.find
        total = 0
        for text in paragraphs:
            links = detect(text, backend=name, max_length=None)
            expected = refine_links(text, with_schemes_after_letters(text, find(text)))
            if not getattr(backend, "links_emails", True):
                expected = [link for link in expected if link.kind != "email"]
            assert links == expected, (name, text)
            assert all(a.end <= b.start for a, b in itertools.pairwise(links)), (name, text)
            total += len(links)
        assert total > len(paragraphs), name  # the corpus is link-dense for every backend
