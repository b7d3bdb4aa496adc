"""Run the official UTS #58 data files (§6, §7) against this implementation.

Used by ``uts58-adapt conformance``.  Each ``check_*`` function returns a
``Result`` with the number of cases, the passing count and one message per
failing case (naming the line of the official file).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .properties import is_link_email, link_bracket, link_term

__all__ = ["Result", "check_detection", "check_formatting", "check_property", "parse_structure", "run_all"]

OPEN_MARK, CLOSE_MARK = "\u2e20", "\u2e21"
_FIELD = re.compile(r" ?([𝑺𝑯𝑷𝑸𝑽𝑭𝑫])=")


@dataclass
class Result:
    name: str
    total: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return self.total - len(self.failures)


def _data_lines(path: Path) -> Iterator[tuple[int, int, int, list[str]]]:
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            data = line.split("#", 1)[0].strip()
            if data:
                fields = [f.strip() for f in data.split(";")]
                first, _, last = fields[0].partition("..")
                yield lineno, int(first, 16), int(last or first, 16), fields[1:]


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
    for _lineno, first, last, fields in _data_lines(path):
        expected[first : last + 1] = [value(fields)] * (last - first + 1)
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
    return {"scheme": scheme, "host": host, "path": path, "query": query, "fragment": fragment, "directives": directives}


def _formatting_cases(path: Path) -> Iterator[tuple[int, str, str, str]]:
    """Yield (line number, structure comment, fully escaped, minimally escaped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# {") and i + 2 < len(lines):
            yield i + 1, line, lines[i + 1], lines[i + 2]


def check_formatting(path: Path) -> list[Result]:
    """LinkFormattingTest.txt through format_url (structure comment) and minimal_escape (escaped line)."""
    from .refine.escaping import format_url, minimal_escape

    label = "/".join(path.parts[-3:])
    structured = Result(f"{label} via format_url")
    whole = Result(f"{label} via minimal_escape")
    for lineno, comment, escaped, minimal in _formatting_cases(path):
        for result, compute in (
            (structured, lambda: format_url(**parse_structure(comment))),  # type: ignore[arg-type]
            (whole, lambda: minimal_escape(escaped)),
        ):
            result.total += 1
            try:
                got = compute()
            except Exception as exc:  # report, never crash the run
                got = f"<{type(exc).__name__}: {exc}>"
            if got != minimal:
                result.failures.append(f"line {lineno + 2}: expected {minimal}\n    got      {got}")
    return [structured, whole]


def check_detection(path: Path, backend: str) -> Result:
    """LinkDetectionTest.txt: remove the marks, detect, re-insert the marks, compare the line."""
    from .detection import detect

    result = Result(f"{path.name} with backend {backend}")
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            result.total += 1
            plain = line.replace(OPEN_MARK, "").replace(CLOSE_MARK, "")
            out = []
            pos = 0
            for link in detect(plain, backend):
                out += [plain[pos : link.start], OPEN_MARK, plain[link.start : link.end], CLOSE_MARK]
                pos = link.end
            got = "".join(out) + plain[pos:]
            if got != line:
                result.failures.append(f"line {lineno}: expected {line}\n    got      {got}")
    return result


def run_all(base: Path, backends: tuple[str, ...] = ("linkify-it", "urlextract")) -> Iterator[Result]:
    """Yield a Result per official file found under ``base`` (a ``unicode/`` data directory)."""
    link = base / "17.0.0" / "linkification"
    for name in ("LinkTerm.txt", "LinkBracket.txt", "LinkEmail.txt"):
        if (link / name).is_file():
            yield check_property(link / name)
    for formatting in (link / "LinkFormattingTest.txt", base / "dev" / "linkification" / "LinkFormattingTest.txt"):
        if formatting.is_file():
            yield from check_formatting(formatting)
    if (link / "LinkDetectionTest.txt").is_file():
        for backend in backends:
            yield check_detection(link / "LinkDetectionTest.txt", backend)
