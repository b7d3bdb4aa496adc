"""Reading text inputs for the CLI: files, directories and stdin, one clear message per bad input."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["InputError", "expand_paths", "read_lines"]

_SNIFF = 8192


class InputError(Exception):
    """An input that cannot be read as text; the message names it."""


def _is_binary(path: Path) -> bool:
    with path.open("rb") as fh:
        return b"\0" in fh.read(_SNIFF)


def expand_paths(paths: Sequence[str], errors: list[str]) -> Iterator[str]:
    """Yield input names: ``-`` for stdin, files as given, directories walked recursively (sorted).

    Inside a directory, files that look binary (a NUL byte near the start) are skipped
    silently, hidden entries are skipped; a path that does not exist or a directory that
    cannot be listed is appended to ``errors`` and skipped.
    """
    for name in paths:
        if name == "-":
            yield name
            continue
        path = Path(name)
        if path.is_dir():
            def onerror(exc: OSError) -> None:
                errors.append(f"{exc.filename}: cannot list directory: {exc.strerror}")

            for root, dirs, files in os.walk(path, onerror=onerror):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for fname in sorted(files):
                    if fname.startswith("."):
                        continue
                    child = Path(root) / fname
                    try:
                        if _is_binary(child):
                            continue
                    except OSError as exc:
                        errors.append(f"{child}: cannot read: {exc.strerror}")
                        continue
                    yield str(child)
        elif path.exists():
            yield name
        else:
            errors.append(f"{name}: no such file or directory")


def read_lines(name: str, encoding: str = "utf-8", errors: str = "strict") -> Iterator[str]:
    """Yield the lines of ``name`` (``-`` is stdin) with line endings removed.

    Raises InputError naming the input when it cannot be opened or decoded; lines
    already yielded stay valid, so a caller can report the error and go on.
    """
    try:
        if name == "-":
            stream = io.TextIOWrapper(sys.stdin.buffer, encoding=encoding, errors=errors, newline=None)
            close = False
        else:
            if Path(name).is_dir():
                raise InputError(f"{name}: is a directory")
            stream = open(name, encoding=encoding, errors=errors, newline=None)  # noqa: SIM115
            close = True
    except LookupError as exc:
        raise InputError(f"{name}: {exc}") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot open: {exc.strerror}") from None
    lineno = 0
    try:
        for lineno, line in enumerate(stream, 1):  # noqa: B007
            yield line.rstrip("\n")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{name}: cannot decode line {lineno + 1} as {encoding} ({exc.reason} at byte {exc.start});"
            " try --encoding or --errors replace"
        ) from None
    except OSError as exc:
        raise InputError(f"{name}: read error: {exc.strerror}") from None
    finally:
        if close:
            stream.close()
        else:
            stream.detach()
