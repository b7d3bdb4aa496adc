"""Run the official UTS #58 data files (§6, §7) against this implementation.

Used by ``uts58-adapt conformance``.  Each ``check_*`` function returns a
``Result`` with the number of cases, the passing count, one message per failing
case (naming the line of the official file), the documented correct score
(``expected``) and notes that explain it.

The documented correct scores (docs/decisions.md and docs/data.md):
every code point of the property files, every line of LinkDetectionTest.txt (for a
backend of :data:`RECALL_BACKENDS`: no line with a link the file does not expect, the
recall being reported), and every case of LinkFormattingTest.txt except the 10 errata of the 17.0.0 file
(``FORMATTING_ERRATA``), for both ``format_url`` (from each case's structure comment)
and ``minimal_escape`` (from a fully escaped URL built from that structure).  The
file's own fully escaped lines are also run through ``minimal_escape``, as a second
figure: 5 of them (``AMBIGUOUS_ESCAPED_LINES``) leave a data ``/``, ``#``, ``&`` or
``=`` unescaped, so no parser can tell data from structure there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ._unicode_version import DATA_DIRECTORY
from .properties import is_link_email, link_bracket, link_term

__all__ = [
    "AMBIGUOUS_ESCAPED_LINES",
    "FORMATTING_ERRATA",
    "RECALL_BACKENDS",
    "Result",
    "check_detection",
    "check_formatting",
    "check_property",
    "full_escape",
    "parse_structure",
    "run_all",
]

OPEN_MARK, CLOSE_MARK = "\u2e20", "\u2e21"
_FIELD = re.compile(r" ?([𝑺𝑯𝑷𝑸𝑽𝑭𝑫])=")

#: Known errata of LinkFormattingTest.txt, by release directory: cases whose expected
#: minimal URL is wrong (a final Soft character left unescaped); fixed in ``dev/`` (and in
#: ``18.0.0-draft/``, whose file is the ``dev/`` one).
FORMATTING_ERRATA = {"17.0.0": 10}
#: The corrected files of a release directory, checked beside its own when present (optional).
CORRECTED = {"17.0.0": "dev"}
#: Cases of LinkFormattingTest.txt whose fully escaped line leaves a data ``/ # & =`` literal.
AMBIGUOUS_ESCAPED_LINES = 5
#: Backends whose libraries recognize fewer link forms than UTS #58 (their documented
#: limits: no fuzzy IDN TLDs, no ports, no ``?`` or ``#`` right after the host …).  On
#: LinkDetectionTest.txt they pass when no line has a link the file does not expect;
#: the lines where they miss a link give their recall.  The others must pass every line.
RECALL_BACKENDS = frozenset({"django", "jinja2", "mistune", "magiclink"})


@dataclass
class Result:
    name: str
    total: int = 0
    failures: list[str] = field(default_factory=list)
    #: The documented correct number of passing cases (None: all of them).
    expected: int | None = None
    #: Lines that explain the expected score or a second figure.
    notes: list[str] = field(default_factory=list)
    #: A second figure reported on this result's notes, which must be correct too.
    secondary: Result | None = None
    #: The official file was not found (a failure unless ``optional``).
    missing: bool = False
    optional: bool = False
    #: Judged by its wrong links only (a backend of RECALL_BACKENDS): missed links are allowed.
    recall_only: bool = False
    #: The failing cases with a link the official file does not expect.
    wrong: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return self.total - len(self.failures)

    @property
    def expected_passed(self) -> int:
        return self.total if self.expected is None else self.expected

    @property
    def ok(self) -> bool:
        """True when the score (and the secondary one) is the documented correct one (not below, nor above)."""
        if self.missing:
            return self.optional
        if self.recall_only:
            return not self.wrong
        return self.passed == self.expected_passed and (self.secondary is None or self.secondary.ok)


class DataFileError(ValueError):
    """An official data file that cannot be read or parsed; the message names the file (and line)."""


def _data_lines(path: Path) -> Iterator[tuple[int, int, int, list[str]]]:
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            data = line.split("#", 1)[0].strip()
            if data:
                fields = [f.strip() for f in data.split(";")]
                first, _, last = fields[0].partition("..")
                try:
                    lo, hi = int(first, 16), int(last or first, 16)
                except ValueError:
                    raise DataFileError(f"{path}: line {lineno}: not a code point range: {fields[0]!r}") from None
                if not 0 <= lo <= hi <= 0x10FFFF:
                    raise DataFileError(f"{path}: line {lineno}: malformed entry: {data!r}")
                yield lineno, lo, hi, fields[1:]


def check_property(path: Path) -> Result:
    """Compare one of LinkTerm.txt, LinkBracket.txt, LinkEmail.txt with the tables, all code points."""
    name = path.name
    lookups: dict[str, tuple[object, Callable[[str], object], Callable[[list[str]], object]]] = {
        "LinkTerm.txt": ("Hard", lambda ch: link_term(ch).value, lambda f: f[0]),
        "LinkBracket.txt": (None, link_bracket, lambda f: chr(int(f[0], 16))),
        "LinkEmail.txt": (False, is_link_email, lambda f: True),
    }
    default, actual, value = lookups[name]
    expected: list[object] = [default] * 0x110000
    for lineno, first, last, fields in _data_lines(path):
        try:
            expected[first : last + 1] = [value(fields)] * (last - first + 1)
        except (IndexError, ValueError):
            raise DataFileError(f"{path}: line {lineno}: malformed value: {fields!r}") from None
    result = Result(f"{name} (code points)", total=0x110000)
    for cp in range(0x110000):
        got = actual(chr(cp))
        if got != expected[cp]:
            result.failures.append(f"U+{cp:04X}: expected {expected[cp]!r}, got {got!r}")
    return result


def parse_structure(comment: str) -> dict[str, object]:
    """Parse a LinkFormattingTest.txt structure comment ``# {𝑺=… 𝑯=… 𝑷=… …}`` into format_url arguments."""
    inner = comment.strip().removeprefix("#").strip().removeprefix("{").removesuffix("}")
    pieces = _FIELD.split(inner)
    scheme = host = ""
    path: list[str] = []
    query: list[tuple[str, str | None]] = []
    fragment: str | None = None
    directives: list[str] = []
    for key, val in zip(pieces[1::2], pieces[2::2]):
        if key == "𝑺":
            scheme = val
        elif key == "𝑯":
            host = val
        elif key == "𝑷":
            path.append(val)
        elif key == "𝑸":
            query.append((val, None))
        elif key == "𝑽":
            query[-1] = (query[-1][0], val)
        elif key == "𝑭":
            fragment = val
        else:
            directives.append(val)
    return {
        "scheme": scheme,
        "host": host,
        "path": path,
        "query": query,
        "fragment": fragment,
        "directives": directives,
    }


def full_escape(structure: dict[str, object]) -> str:
    """A fully escaped URL built from a parsed structure comment, without ambiguity.

    Every code point outside printable ASCII, every ``%`` and every syntax character
    that is data in its part is percent-escaped (UTF-8).
    """

    def esc(text: str, syntax: str) -> str:
        return "".join(
            "".join(f"%{b:02X}" for b in ch.encode("utf-8")) if not " " < ch <= "~" or ch in syntax or ch == "%" else ch
            for ch in text
        )

    path = cast("list[str]", structure["path"])
    query = cast("list[tuple[str, str | None]]", structure["query"])
    fragment = cast("str | None", structure["fragment"])
    directives = cast("list[str]", structure["directives"])
    url = str(structure["scheme"]) + str(structure["host"])
    if path:
        url += "/" + "/".join(esc(segment, "/?#") for segment in path)
    if query:
        url += "?" + "&".join(esc(k, "#&=+") + ("" if v is None else "=" + esc(v, "#&=+")) for k, v in query)
    if fragment is not None or directives:
        url += "#" + esc(fragment or "", ":")
    for directive in directives:
        url += ":~:" + esc(directive, "&,:")
    return url


def _formatting_cases(path: Path) -> Iterator[tuple[int, str, str, str]]:
    """Yield (line number, structure comment, fully escaped, minimally escaped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# {") and i + 2 < len(lines):
            yield i + 1, line, lines[i + 1], lines[i + 2]


def _attempt(compute: Callable[..., str], *args: object, **kwargs: object) -> str:
    """``compute(*args, **kwargs)``, or the exception it raised as a string: report, never crash the run."""
    try:
        return compute(*args, **kwargs)
    except Exception as exc:
        return f"<{type(exc).__name__}: {exc}>"


def check_formatting(path: Path) -> list[Result]:
    """LinkFormattingTest.txt through format_url and minimal_escape, with the file's escaped lines as a second figure.

    ``format_url`` gets each case's structure comment, ``minimal_escape`` a fully escaped
    URL built from it (:func:`full_escape`); the third Result runs ``minimal_escape`` on the
    file's own escaped lines and is reported in the notes of the second.
    """
    from .refine.escaping import format_url, minimal_escape

    label = "/".join(path.parts[-3:])
    errata = FORMATTING_ERRATA.get(path.parts[-3], 0) if len(path.parts) >= 3 else 0
    structured = Result(f"{label} via format_url")
    whole = Result(f"{label} via minimal_escape")
    own_lines = Result(f"{label} via minimal_escape of the file's escaped lines")
    for lineno, comment, escaped, minimal in _formatting_cases(path):
        try:
            structure = parse_structure(comment)
        except (IndexError, ValueError):
            raise DataFileError(f"{path}: line {lineno}: malformed structure comment: {comment!r}") from None
        for result, got in (
            (structured, _attempt(format_url, **structure)),
            (whole, _attempt(lambda url: minimal_escape(full_escape(url)), structure)),
            (own_lines, _attempt(minimal_escape, escaped)),
        ):
            result.total += 1
            if got != minimal:
                result.failures.append(f"line {lineno + 2}: expected {minimal}\n    got      {got}")
    if errata:
        for result in (structured, whole):
            result.expected = max(result.total - errata, 0)
            result.notes.append(
                f"correct: {result.expected}/{result.total}, the file's {errata} known errata fail "
                "(a final Soft character left unescaped; fixed in dev/)"
            )
    whole.notes.append("input: a fully escaped URL built from each case's structure comment")
    own_lines.expected = max(own_lines.total - errata - AMBIGUOUS_ESCAPED_LINES, 0)
    whole.secondary = own_lines
    whole.notes.append(
        f"second figure, the file's own escaped lines: {own_lines.passed}/{own_lines.total} "
        f"(correct: {own_lines.expected}; {AMBIGUOUS_ESCAPED_LINES} are ambiguous, a data / # & = left literal"
        + (", and the errata)" if errata else ")")
    )
    return [structured, whole]


def _marked_spans(line: str) -> set[tuple[int, int]]:
    """The ``(start, end)`` spans marked with ⸠ ⸡ in a LinkDetectionTest.txt line, as offsets
    into the line without its marks."""
    spans = set()
    start = pos = 0
    for ch in line:
        if ch == OPEN_MARK:
            start = pos
        elif ch == CLOSE_MARK:
            spans.add((start, pos))
        else:
            pos += 1
    return spans


def check_detection(path: Path, backend: str) -> Result:
    """LinkDetectionTest.txt: remove the marks, detect, re-insert the marks, compare the line.

    For a backend of :data:`RECALL_BACKENDS` the result is judged by its wrong links (a
    link the line does not mark), and a note gives the recall: the marked links found.
    """
    from .detection import detect

    result = Result(f"{path.name} with backend {backend}", recall_only=backend in RECALL_BACKENDS)
    expected_links = found_links = 0
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            result.total += 1
            plain = line.replace(OPEN_MARK, "").replace(CLOSE_MARK, "")
            out = []
            pos = 0
            links = detect(plain, backend)
            for link in links:
                out += [plain[pos : link.start], OPEN_MARK, plain[link.start : link.end], CLOSE_MARK]
                pos = link.end
            got = "".join(out) + plain[pos:]
            expected = _marked_spans(line)
            spans = {(link.start, link.end) for link in links}
            expected_links += len(expected)
            found_links += len(expected & spans)
            if got != line:
                failure = f"line {lineno}: expected {line}\n    got      {got}"
                result.failures.append(failure)
                if spans - expected:
                    result.wrong.append(failure)
    if result.recall_only:
        share = f" ({100 * found_links / expected_links:.1f}%)" if expected_links else ""
        missed = len(result.failures) - len(result.wrong)
        result.notes.append(
            f"recall: {found_links}/{expected_links} expected links{share}; {missed} lines miss a link the "
            f"library does not recognize (its documented limits); {len(result.wrong)} lines with a wrong link"
        )
    return result


def run_all(
    base: Path, backends: tuple[str, ...] = ("linkify-it", "urlextract"), directory: str = DATA_DIRECTORY
) -> Iterator[Result]:
    """Yield a Result per official file under ``base`` (a ``unicode/`` data directory).

    ``directory``: the release directory, that of the Unicode version in use (``17.0.0``,
    ``18.0.0-draft``), whose tables the checks run.  A missing file of it gives a Result with
    ``missing`` set (not ``ok``); the corrected ``dev/`` LinkFormattingTest.txt (17.0.0's) is optional.
    """
    link = base / directory / "linkification"

    def missing(path: Path, optional: bool = False) -> Result:
        note = "optional: the corrected figures are not checked" if optional else "required"
        rel = path.relative_to(base).as_posix()
        return Result(rel, missing=True, optional=optional, notes=[f"not found: {path} ({note})"])

    def unreadable(path: Path, exc: Exception) -> Result:
        rel = path.relative_to(base).as_posix()
        if isinstance(exc, UnicodeDecodeError):
            why = f"{path}: not UTF-8 (byte {exc.start}: {exc.reason})"
        elif isinstance(exc, OSError):
            why = f"{path}: {exc.strerror or exc}"
        else:
            why = str(exc)
        return Result(rel, missing=True, notes=[f"cannot read: {why}"])

    def guarded(path: Path, check: Callable[..., Result | list[Result]], *args: str) -> list[Result]:
        try:
            got = check(path, *args)
        except (OSError, UnicodeDecodeError, DataFileError) as exc:
            return [unreadable(path, exc)]
        return got if isinstance(got, list) else [got]

    for name in ("LinkTerm.txt", "LinkBracket.txt", "LinkEmail.txt"):
        prop = link / name
        yield from guarded(prop, check_property) if prop.is_file() else [missing(prop)]
    formatting_files = [(link / "LinkFormattingTest.txt", False)]
    if directory in CORRECTED:
        formatting_files.append((base / CORRECTED[directory] / "linkification" / "LinkFormattingTest.txt", True))
    for formatting, optional in formatting_files:
        if formatting.is_file():
            yield from guarded(formatting, check_formatting)
        else:
            yield missing(formatting, optional)
    detection = link / "LinkDetectionTest.txt"
    for backend in backends:
        if detection.is_file():
            yield from guarded(detection, check_detection, backend)
        else:
            yield missing(detection)
