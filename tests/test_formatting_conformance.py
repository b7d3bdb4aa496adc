"""Official LinkFormattingTest.txt (UTS #58 §4.1): the corrected dev file and the 17.0.0 file.

Each case is three lines: a ``# {𝑺=… 𝑯=… 𝑷=… 𝑸=… 𝑽=… 𝑭=… 𝑫=…}`` structure comment,
the fully escaped URL, and the minimal result.  The structure comment is the
authoritative input (/work/shared/spec/NOTES.md): the fully escaped line cannot
say whether a ``/`` is a separator or data.

The files are parsed here, line by line, independently of the library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from uts58_adapt.refine.escaping import format_url, minimal_escape

from conftest import _find_data_dir, require_data

CORRECTED = ("dev", "linkification", "LinkFormattingTest.txt")
RELEASED = ("17.0.0", "linkification", "LinkFormattingTest.txt")
EXPECTED_CASES = 55

# The 10 errata of the 17.0.0 file (NOTES.md): a final Soft character left
# unescaped.  Keyed by host and last path segment (bo and am have two cases each).
ERRATA_17 = {
    ("bo.wikipedia.org", "སའི་གོ་ལ།"): "bo: final U+0F0D TIBETAN MARK SHAD (Soft) left unescaped",
    ("mni.wikipedia.org", "ꯅ꯭ꯌꯨ_ꯌꯣꯔ꯭ꯛ_ꯁꯤꯇꯤꯒꯤ_ꯌꯨ.ꯑꯦꯁ."): "mni: final '.' (Soft) left unescaped",
    ("azb.wikipedia.org", "واشینقتن،_دی.سی."): "azb: final '.' (Soft) left unescaped",
    ("mad.wikipedia.org", "Tasè’"): "mad: final U+2019 (Soft) left unescaped",
    ("vep.wikipedia.org", "Brüssel'"): "vep: final apostrophe (Soft) left unescaped",
    ("ja.wikibooks.org", "植物とはどのような生き物か？"): "ja.wikibooks: final U+FF1F (Soft) left unescaped",
    ("new.wikipedia.org", "विन्सेन्ट_भ्यान_ग:"): "new: final ':' (Soft) left unescaped",
    ("ks.wikipedia.org", "شارٕک۔"): "ks: final U+06D4 ARABIC FULL STOP (Soft) left unescaped",
    ("am.wikipedia.org", "«የሰብዓዊ_መብት_አቀፋዊ_መግለጽ»"): "am: final U+00BB (Soft) left unescaped",
    ("it.wikibooks.org", "Questo_è_l'ebraismo!"): "it.wikibooks: final '!' (Soft) left unescaped",
}

# Cases whose fully escaped line leaves a data syntax character literal, so no
# parser of the URL string alone can recover the structure (NOTES.md: "the
# structure comment is the authoritative input").  Keyed by structure comment.
AMBIGUOUS_FULL_LINES = {
    "𝑺=https:// 𝑯=example.com 𝑷=α#β 𝑸=γ 𝑽=δ#ε": "data '#' in path and value written literally",
    "𝑺=https:// 𝑯=example.com 𝑷=α 𝑷=β/γ": "data '/' in a segment written literally",
    "𝑺=https:// 𝑯=example.com 𝑸=α& 𝑽=β 𝑸=γ 𝑽=&δ": "data '&' in key and value written literally",
    "𝑺=https:// 𝑯=example.com 𝑸=α=β 𝑽=γ=δ": "data '=' in key and value written literally",
    "𝑺=https:// 𝑯=example.com 𝑷=α 𝑷=b/?#c 𝑸=αβ 𝑽=γ&ζ=#Ξ 𝑸=k 𝑽=v 𝑭=frag": "data '/', '#', '&', '=' written literally",
}

_FIELD = re.compile(r"(?:^| )([𝑺𝑯𝑷𝑸𝑽𝑭𝑫])=")


@dataclass(frozen=True)
class Case:
    lineno: int
    structure: str
    scheme: str
    host: str
    path: tuple[str, ...]
    query: tuple[tuple[str, str | None], ...]
    fragment: str | None
    directives: tuple[str, ...]
    full: str
    minimal: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.host, self.path[-1] if self.path else "")


def parse_structure(body: str) -> dict:
    """Parse ``𝑺=https:// 𝑯=example.com 𝑷=αβ γ 𝑸= 𝑽=γξο`` (values may hold spaces or be empty)."""
    pieces = _FIELD.split(body)
    assert pieces[0] == "", f"structure does not start with a field: {body!r}"
    fields = list(zip(pieces[1::2], pieces[2::2]))
    out: dict = {"scheme": None, "host": None, "path": [], "query": [], "fragment": None, "directives": []}
    for name, value in fields:
        if name == "𝑺":
            out["scheme"] = value
        elif name == "𝑯":
            out["host"] = value
        elif name == "𝑷":
            out["path"].append(value)
        elif name == "𝑸":
            out["query"].append([value, None])
        elif name == "𝑽":
            assert out["query"] and out["query"][-1][1] is None, f"𝑽 without its 𝑸 in {body!r}"
            out["query"][-1][1] = value
        elif name == "𝑭":
            out["fragment"] = value
        else:
            out["directives"].append(value)
    assert out["scheme"] is not None and out["host"] is not None, body
    return out


def parse_file(path: Path) -> list[Case]:
    cases: list[Case] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("# {"):
            assert line.rstrip().endswith("}"), f"line {k + 1}: unterminated structure comment"
            structure = line.rstrip()[3:-1]
            data = parse_structure(structure)
            rest = [(j, lines[j]) for j in range(k + 1, min(k + 3, len(lines)))]
            assert len(rest) == 2 and all(t and not t.startswith("#") for _, t in rest), (
                f"line {k + 1}: a structure comment must be followed by the two URL lines"
            )
            cases.append(
                Case(
                    lineno=k + 1,
                    structure=structure,
                    scheme=data["scheme"],
                    host=data["host"],
                    path=tuple(data["path"]),
                    query=tuple((key, value) for key, value in data["query"]),
                    fragment=data["fragment"],
                    directives=tuple(data["directives"]),
                    full=rest[0][1],
                    minimal=rest[1][1],
                )
            )
            k += 3
            continue
        assert not line or line.startswith("#"), f"line {k + 1}: URL line outside a case: {line!r}"
        k += 1
    return cases


def _collect(relative: tuple[str, ...]) -> list[Case]:
    """Cases for parametrization (collection time); the tests below re-check with require_data."""
    base = _find_data_dir()
    path = base.joinpath(*relative) if base else None
    if path is None or not path.is_file():
        return []
    return parse_file(path)


def _params(cases: list[Case], marks_for=None) -> list:
    if not cases:
        # Still one test, so that require_data can skip or (under UTS58_REQUIRE_CONFORMANCE=1) fail.
        return [pytest.param(None, id="data-missing")]
    params = []
    for case in cases:
        marks = marks_for(case) if marks_for else ()
        params.append(pytest.param(case, id=f"line{case.lineno}-{case.host}", marks=marks))
    return params


def _require(relative: tuple[str, ...], case: Case | None) -> Case:
    require_data(*relative)
    assert case is not None, "data file appeared after collection; re-run"
    return case


def _format(case: Case) -> str:
    return format_url(case.scheme, case.host, case.path, case.query, case.fragment, case.directives)


def _full_escape(case: Case) -> str:
    """An unambiguous fully escaped URL built here from the structure: every code point
    outside printable ASCII, every data syntax character of its part, and every '%'."""

    def esc(text: str, syntax: str) -> str:
        out = []
        for ch in text:
            if ord(ch) > 0x7E or ord(ch) <= 0x20 or ch in syntax or ch == "%":
                out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
            else:
                out.append(ch)
        return "".join(out)

    url = case.scheme + case.host
    if case.path:
        url += "/" + "/".join(esc(s, "/?#") for s in case.path)
    if case.query:
        url += "?" + "&".join(esc(k, "#&=+") + ("" if v is None else "=" + esc(v, "#&=+")) for k, v in case.query)
    if case.fragment is not None or case.directives:
        url += "#" + esc(case.fragment or "", ":")
    for d in case.directives:
        url += ":~:" + esc(d, "&,:")
    return url


CORRECTED_CASES = _collect(CORRECTED)
RELEASED_CASES = _collect(RELEASED)


def _errata_marks(case: Case):
    reason = ERRATA_17.get(case.key)
    return [pytest.mark.xfail(strict=True, reason=f"17.0.0 erratum: {reason}")] if reason else []


def _ambiguous_marks(case: Case):
    reason = AMBIGUOUS_FULL_LINES.get(case.structure)
    return [pytest.mark.xfail(strict=True, reason=f"fully escaped line is ambiguous: {reason}")] if reason else []


def test_case_counts() -> None:
    corrected = parse_file(require_data(*CORRECTED))
    released = parse_file(require_data(*RELEASED))
    assert len(corrected) == EXPECTED_CASES
    assert len(released) == EXPECTED_CASES
    # The two files differ only in the errata (and header); same structures in the same order.
    assert [c.structure for c in corrected] == [c.structure for c in released]
    differing = {c.key for c, r in zip(corrected, released) if c.minimal != r.minimal}
    assert differing == set(ERRATA_17)
    assert sum(c.structure in AMBIGUOUS_FULL_LINES for c in corrected) == len(AMBIGUOUS_FULL_LINES)


def test_structure_parser() -> None:
    parsed = parse_structure("𝑺=https:// 𝑯=example.com 𝑷=αβ γ 𝑷=δεζ 𝑸=θ 𝑽=ικ λ 𝑸= 𝑽=γξο 𝑭=πρ σ")
    assert parsed == {
        "scheme": "https://",
        "host": "example.com",
        "path": ["αβ γ", "δεζ"],
        "query": [["θ", "ικ λ"], ["", "γξο"]],
        "fragment": "πρ σ",
        "directives": [],
    }
    parsed = parse_structure("𝑺=https:// 𝑯=x.org 𝑭=reserved 𝑫=text=Reserved,into 𝑫=text=open")
    assert parsed["fragment"] == "reserved" and parsed["directives"] == ["text=Reserved,into", "text=open"]


@pytest.mark.parametrize("case", _params(CORRECTED_CASES))
def test_corrected_format_url(case: Case | None) -> None:
    case = _require(CORRECTED, case)
    assert _format(case) == case.minimal, f"line {case.lineno}: {case.structure}"


@pytest.mark.parametrize("case", _params(CORRECTED_CASES))
def test_corrected_minimal_escape_of_full_escape(case: Case | None) -> None:
    """minimal_escape of an unambiguous fully escaped form built from the structure."""
    case = _require(CORRECTED, case)
    assert minimal_escape(_full_escape(case)) == case.minimal, f"line {case.lineno}: {case.structure}"


@pytest.mark.parametrize("case", _params(CORRECTED_CASES, _ambiguous_marks))
def test_corrected_minimal_escape_of_file_line(case: Case | None) -> None:
    """minimal_escape of the file's own fully escaped line (5 of them are ambiguous)."""
    case = _require(CORRECTED, case)
    assert minimal_escape(case.full) == case.minimal, f"line {case.lineno + 1}: {case.full}"


@pytest.mark.parametrize("case", _params(CORRECTED_CASES))
def test_corrected_minimal_line_is_fixed_point(case: Case | None) -> None:
    case = _require(CORRECTED, case)
    assert minimal_escape(case.minimal) == case.minimal, f"line {case.lineno + 2}: {case.minimal}"


@pytest.mark.parametrize("case", _params(RELEASED_CASES, _errata_marks))
def test_released_17_format_url(case: Case | None) -> None:
    case = _require(RELEASED, case)
    assert _format(case) == case.minimal, f"line {case.lineno}: {case.structure}"
