"""``uts58-adapt conformance`` as a gate: correct scores, non-zero exit when one is wrong, no silent fallback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from uts58_adapt.cli import main
from uts58_adapt.conformance import full_escape, parse_structure

from conftest import require_data

# The documented figures (docs/data.md), written out by hand.
EXPECTED_OUTPUT = """\
 1114112/1114112  LinkTerm.txt (code points)
 1114112/1114112  LinkBracket.txt (code points)
 1114112/1114112  LinkEmail.txt (code points)
      45/55       17.0.0/linkification/LinkFormattingTest.txt via format_url
                  correct: 45/55, the file's 10 known errata fail (a final Soft character left unescaped; fixed in dev/)
      45/55       17.0.0/linkification/LinkFormattingTest.txt via minimal_escape
                  correct: 45/55, the file's 10 known errata fail (a final Soft character left unescaped; fixed in dev/)
                  input: a fully escaped URL built from each case's structure comment
                  second figure, the file's own escaped lines: 40/55 (correct: 40; 5 are ambiguous, a data / # & = \
left literal, and the errata)
      55/55       dev/linkification/LinkFormattingTest.txt via format_url
      55/55       dev/linkification/LinkFormattingTest.txt via minimal_escape
                  input: a fully escaped URL built from each case's structure comment
                  second figure, the file's own escaped lines: 50/55 (correct: 50; 5 are ambiguous, a data / # & = \
left literal)
     344/344      LinkDetectionTest.txt with backend urlextract
OK: every score is the correct one
"""


@pytest.fixture(scope="module")
def base() -> Path:
    require_data("dev", "linkification", "LinkFormattingTest.txt")
    return require_data("17.0.0", "linkification", "LinkDetectionTest.txt").parents[2]


def test_correct_scores_exit_0(base: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--data-dir", str(base), "--backend", "urlextract"]) == 0
    out = capsys.readouterr().out
    assert out == f"data directory: {base.resolve()}\n" + EXPECTED_OUTPUT


def test_a_score_below_the_correct_one_exits_1(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from uts58_adapt.refine import escaping

    real = escaping.minimal_escape
    monkeypatch.setattr(escaping, "minimal_escape", lambda url: real(url).replace("%20", "+"))
    assert main(["conformance", "--data-dir", str(base), "--backend", "urlextract", "--verbose"]) == 1
    out = capsys.readouterr().out
    assert "      44/55       17.0.0/linkification/LinkFormattingTest.txt via minimal_escape\n" in out
    assert "WRONG: below the correct 45/55" in out
    assert "      54/55       dev/linkification/LinkFormattingTest.txt via minimal_escape\n" in out
    assert "WRONG: below the correct 55/55" in out
    assert out.rstrip().splitlines()[-1].startswith("FAILED: 2 score(s) differ from the correct one")


def test_a_score_above_the_correct_one_exits_1(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Passing an erratum of the 17.0.0 file means reproducing its error: also wrong."""
    from uts58_adapt.refine import escaping

    real = escaping.format_url

    def format_url(*args: object, **kwargs: object) -> str:
        url = real(*args, **kwargs)  # type: ignore[arg-type]
        return url.removesuffix("%21") + "!" if url.endswith("l'ebraismo%21") else url

    monkeypatch.setattr(escaping, "format_url", format_url)
    assert main(["conformance", "--data-dir", str(base), "--backend", "urlextract"]) == 1
    out = capsys.readouterr().out
    assert "      46/55       17.0.0/linkification/LinkFormattingTest.txt via format_url\n" in out
    assert "WRONG: above the correct 45/55" in out


def test_a_missing_data_dir_is_an_error_not_a_fallback(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("UTS58_DATA_DIR", str(base))  # a valid directory it must not fall back to
    assert main(["conformance", "--data-dir", str(tmp_path / "nonexistent")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"uts58-adapt conformance: --data-dir {tmp_path / 'nonexistent'}: no 17.0.0/linkification/ directory there\n"
    )


def test_a_missing_required_file_exits_1(base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "17.0.0" / "linkification"
    link.mkdir(parents=True)
    shutil.copy(base / "17.0.0" / "linkification" / "LinkDetectionTest.txt", link)
    shutil.copy(base / "17.0.0" / "linkification" / "LinkFormattingTest.txt", link)
    assert main(["conformance", "--data-dir", str(tmp_path), "--backend", "urlextract"]) == 1
    out = capsys.readouterr().out
    assert (
        f"       -/-        17.0.0/linkification/LinkTerm.txt\n{'':18}not found: {link / 'LinkTerm.txt'} (required)\n"
        in out
    )
    assert f"not found: {tmp_path.resolve() / 'dev/linkification/LinkFormattingTest.txt'} (optional" in out
    assert "     344/344      LinkDetectionTest.txt with backend urlextract\n" in out
    assert "FAILED: 3 score(s) differ from the correct one or are missing: 17.0.0/linkification/LinkTerm.txt;" in out


def test_a_corrupt_data_file_is_named_not_a_traceback(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 13.8: each unreadable or malformed file is a named failure; the other files are still checked."""
    link = tmp_path / "17.0.0" / "linkification"
    link.mkdir(parents=True)
    for name in ("LinkTerm.txt", "LinkBracket.txt", "LinkEmail.txt", "LinkFormattingTest.txt", "LinkDetectionTest.txt"):
        shutil.copy(base / "17.0.0" / "linkification" / name, link)
    with (link / "LinkBracket.txt").open("ab") as fh:
        fh.write(b"0029 ; \xff\xfe\n")  # not UTF-8
    with (link / "LinkTerm.txt").open("a", encoding="utf-8") as fh:
        fh.write("0041..ZZZZ ; Hard\n")  # not a range
    formatting = (link / "LinkFormattingTest.txt").read_text(encoding="utf-8")
    (link / "LinkFormattingTest.txt").write_text("# {𝑽=x}\nhttps://a\nhttps://a\n" + formatting, encoding="utf-8")
    term_lines = (base / "17.0.0" / "linkification" / "LinkTerm.txt").read_text(encoding="utf-8").count("\n") + 1

    assert main(["conformance", "--data-dir", str(tmp_path), "--backend", "urlextract"]) == 1
    out = capsys.readouterr().out
    assert (
        f"       -/-        17.0.0/linkification/LinkTerm.txt\n{'':18}cannot read: {link / 'LinkTerm.txt'}: "
        f"line {term_lines}: not a code point range: '0041..ZZZZ'\n"
    ) in out
    assert f"cannot read: {link / 'LinkBracket.txt'}: not UTF-8 (byte " in out
    assert f"cannot read: {link / 'LinkFormattingTest.txt'}: line 1: malformed structure comment: " in out
    assert " 1114112/1114112  LinkEmail.txt (code points)\n" in out
    assert "     344/344      LinkDetectionTest.txt with backend urlextract\n" in out
    assert "Traceback" not in out


def test_full_escape_escapes_data_syntax_of_each_part() -> None:
    structure = parse_structure("# {𝑺=https:// 𝑯=example.com 𝑷=α/β 𝑷=50% 𝑸=a&b 𝑽=c=d 𝑭=f:x 𝑫=text=a,b}")
    assert full_escape(structure) == "https://example.com/%CE%B1%2F%CE%B2/50%25?a%26b=c%3Dd#f%3Ax:~:text=a%2Cb"


# --- backends that recognize fewer links (issue 22, point 3) ------------------------------------


def test_a_narrower_backend_passes_with_no_wrong_link_and_prints_its_recall(
    base: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """django's urlize links 301 of the 344 lines (its documented limits): no line is wrong, so it passes."""
    assert main(["conformance", "--data-dir", str(base), "--backend", "django"]) == 0
    out = capsys.readouterr().out
    assert "     301/344      LinkDetectionTest.txt with backend django\n" in out
    assert (
        f"{'':18}recall: 278/323 expected links (86.1%); 43 lines miss a link the library does not recognize "
        "(its documented limits); 0 lines with a wrong link\n"
    ) in out
    assert out.endswith("OK: every score is the correct one\n")


@pytest.mark.parametrize("backend", ["django", "jinja2", "mistune", "magiclink"])
def test_each_narrower_backend_has_no_wrong_link(base: Path, backend: str) -> None:
    from uts58_adapt.conformance import check_detection

    result = check_detection(base / "17.0.0" / "linkification" / "LinkDetectionTest.txt", backend)
    assert result.recall_only and result.wrong == [] and result.ok
    assert result.passed < result.total  # a narrower library: lines it misses are allowed


def _one_link_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """``detect`` with every link of a line holding ``abc.com`` ending one character late."""
    from uts58_adapt import detection
    from uts58_adapt.link import Link

    real = detection.detect

    def detect(text: str, *args: object, **kwargs: object) -> list[Link]:
        links = real(text, *args, **kwargs)  # type: ignore[arg-type]
        if "abc.com" not in text:
            return links
        return [
            Link(link.start, link.end + 1, text[link.start : link.end + 1], link.kind, link.href)
            if link.end < len(text)
            else link
            for link in links
        ]

    monkeypatch.setattr(detection, "detect", detect)


def test_a_wrong_link_fails_a_narrower_backend(
    base: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from uts58_adapt.conformance import check_detection

    _one_link_too_long(monkeypatch)
    result = check_detection(base / "17.0.0" / "linkification" / "LinkDetectionTest.txt", "django")
    assert result.wrong and not result.ok
    assert result.notes[-1].endswith(f"; {len(result.wrong)} lines with a wrong link")
    assert main(["conformance", "--data-dir", str(base), "--backend", "django"]) == 1
    out = capsys.readouterr().out
    assert f"{'':18}WRONG: {len(result.wrong)} line(s) with a link the file does not expect\n" in out


@pytest.mark.parametrize("backend", ["linkify-it", "urlextract", "bleach"])
def test_exact_backends_still_fail_on_a_missed_link(base: Path, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """linkify-it, urlextract and bleach must pass every line: a missed link (no wrong one) fails them."""
    from uts58_adapt import detection
    from uts58_adapt.conformance import check_detection

    real = detection.detect
    monkeypatch.setattr(detection, "detect", lambda text, *a, **k: [] if "abc.com" in text else real(text, *a, **k))
    result = check_detection(base / "17.0.0" / "linkification" / "LinkDetectionTest.txt", backend)
    assert result.wrong == [] and result.failures and not result.recall_only and not result.ok
