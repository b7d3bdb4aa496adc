"""Reading text inputs for the CLI: files, directories and stdin, one clear message per bad input."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

__all__ = [
    "InputError",
    "Output",
    "Terminated",
    "add_decoding_options",
    "codec_problem",
    "expand_paths",
    "read_lines",
    "write_output",
]

_SNIFF = 8192


#: The longest line read (``--max-line``), in bytes (in characters for encodings such as UTF-16).
MAX_LINE = 16 * 1024 * 1024
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def parse_size(value: str) -> int:
    """``"16777216"``, ``"16M"``, ``"16MiB"``, ``"512k"`` -> bytes (binary multiples); at least 1."""
    text = value.strip().upper().removesuffix("B").removesuffix("I")
    unit = text[-1:] if text[-1:] in ("K", "M", "G") else ""
    number = text[: len(text) - len(unit)].strip()
    if not number.isdigit() or int(number) * _UNITS[unit] < 1:
        raise argparse.ArgumentTypeError(f"not a size in bytes (e.g. 16M, 512K, 65536): {value!r}")
    return int(number) * _UNITS[unit]


def _size(n: int) -> str:
    for unit in ("G", "M", "K"):
        if n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]} {unit}iB"
    return f"{n} bytes"


def add_decoding_options(parser: argparse.ArgumentParser, strict: str) -> None:
    """Add ``--encoding``, ``--errors`` (``strict`` explains what strict does for this command) and ``--max-line``."""
    parser.add_argument("--encoding", default="utf-8", help="input encoding (default: %(default)s)")
    parser.add_argument(
        "--errors",
        default="strict",
        help=f"undecodable input: strict ({strict}), replace, ignore, surrogateescape... (default: %(default)s)",
    )
    parser.add_argument(
        "--max-line",
        type=parse_size,
        default=MAX_LINE,
        metavar="SIZE",
        help="an input with a longer line is reported and the rest of it skipped (default: 16M)",
    )


def codec_problem(encoding: str, errors: str) -> str | None:
    """Why ``--encoding``/``--errors`` cannot be used, or None.  Codecs that are not text
    encodings (``rot13``, ``base64``, ``hex``, ``zlib``, ...) are refused up front."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        return f"unknown encoding: {encoding}"
    if not getattr(info, "_is_text_encoding", True):
        return f"--encoding {encoding}: not a text encoding (it maps bytes to bytes or str to str)"
    try:
        codecs.lookup_error(errors)
    except LookupError:
        return f"unknown --errors handler: {errors} (try strict, replace, ignore, surrogateescape)"
    return None


class InputError(Exception):
    """An input that cannot be read as text; the message names it."""


def _is_binary(path: Path) -> bool:
    with path.open("rb") as fh:
        return b"\0" in fh.read(_SNIFF)


def expand_paths(paths: Sequence[str], errors: list[str]) -> Iterator[str]:
    """Yield input names: ``-`` for stdin, files as given, directories walked recursively (sorted).

    Inside a directory, files that look binary (a NUL byte near the start) are skipped
    silently, hidden entries are skipped; a path that does not exist or a directory that
    cannot be listed is appended to ``errors`` and skipped.  So is anything in a walked
    directory that is not a regular file (a FIFO would block, a device never end): it is
    named in ``errors``.  A FIFO or device named on the command line is read.
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
                        mode = os.stat(child).st_mode
                        if not stat.S_ISREG(mode):
                            errors.append(f"{child}: skipped: not a regular file ({_file_kind(mode)})")
                            continue
                        if _is_binary(child):
                            continue
                    except OSError as exc:
                        errors.append(f"{child}: cannot read: {exc.strerror}")
                        continue
                    yield str(child)
        else:
            try:
                os.stat(name)
            except OSError as exc:  # ENOENT, ELOOP (a symlink loop), EACCES, ENAMETOOLONG...
                errors.append(f"{name}: {(exc.strerror or str(exc)).lower()}")
                continue
            yield name


def _file_kind(mode: int) -> str:
    for test, kind in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return kind
    return "not a file"


def _ascii_compatible(encoding: str) -> bool:
    """Whether the codec writes a newline as the single byte 0x0A (so lines can be split as bytes)."""
    try:
        return "\n".encode(encoding) == b"\n" and codecs.lookup(encoding).name not in _NOT_LINE_SAFE
    except (LookupError, UnicodeError):
        return False


# Stateful codecs in which a 0x0A byte need not be a newline.
_NOT_LINE_SAFE = {"utf-7", "hz", "iso2022_jp", "iso2022_kr"}


def read_lines(name: str, encoding: str = "utf-8", errors: str = "strict", max_line: int = MAX_LINE) -> Iterator[str]:
    """Yield the lines of ``name`` (``-`` is stdin) with line endings removed.

    Lines are read in pieces of at most ``max_line`` bytes (characters for encodings in
    which a newline is not the byte 0x0A): a longer line raises InputError naming the
    input and the line, and the rest of the input is not read, so neither ``/dev/zero``
    nor a multi-gigabyte line can exhaust memory (issue 13.6).

    Raises InputError naming the input (and, for a decoding error, its line number)
    when it cannot be opened or decoded; lines already yielded stay valid, so a caller
    can report the error and go on.  With an ASCII-compatible encoding (UTF-8, Latin-1,
    ...) each line is decoded on its own, so every line before a bad one is yielded.
    """
    problem = codec_problem(encoding, errors)
    if problem is not None:
        raise InputError(f"{name}: {problem}")
    try:
        if name == "-":
            raw = sys.stdin.buffer
        else:
            if Path(name).is_dir():
                raise InputError(f"{name}: is a directory")
            raw = open(name, "rb")  # noqa: SIM115
    except OSError as exc:
        raise InputError(f"{name}: cannot open: {exc.strerror}") from None
    lineno = 0
    try:
        if _ascii_compatible(encoding):
            while data := raw.readline(max_line + 1):
                lineno += 1
                if len(data) > max_line and not data.endswith(b"\n"):
                    raise InputError(_too_long(name, lineno, max_line))
                yield data.decode(encoding, errors).rstrip("\r\n")
        else:
            text = io.TextIOWrapper(raw, encoding=encoding, errors=errors, newline=None)
            try:
                while line := text.readline(max_line + 1):
                    lineno += 1
                    if len(line) > max_line and not line.endswith("\n"):
                        raise InputError(_too_long(name, lineno, max_line))
                    yield line.rstrip("\n")
            finally:
                text.detach()
    except UnicodeDecodeError as exc:
        where = f"line {lineno}" if _ascii_compatible(encoding) else f"after line {lineno}"
        raise InputError(
            f"{name}: cannot decode {where} as {encoding} ({exc.reason} at byte {exc.start});"
            " try --encoding or --errors replace"
        ) from None
    except UnicodeError as exc:  # not a decoding error with a position: "UTF-16 stream does not start with BOM"
        hint = " (try utf-16-le or utf-16-be)" if "BOM" in str(exc) else ""
        raise InputError(f"{name}: cannot decode as {encoding}: {exc}{hint}") from None
    except OSError as exc:
        raise InputError(f"{name}: read error: {exc.strerror}") from None
    finally:
        if raw is not sys.stdin.buffer:
            raw.close()


def _too_long(name: str, lineno: int, max_line: int) -> str:
    return f"{name}: line {lineno} is longer than {_size(max_line)} (--max-line); not read further"


class Terminated(BaseException):
    """Raised in the main thread by the CLI's SIGTERM handler, so ``finally`` blocks run
    (temporary files removed, worker processes stopped) before the exit with status 143."""


def write_output(path: str, data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` (bytes, or an iterable of byte strings written one after the other,
    so a large report need not be held whole) to the file ``path``, atomically where that is
    possible: :meth:`Output.open` then :meth:`Output.commit`.  Raises OSError."""
    with Output.open(path) as out:
        out.commit(data)


class Output:
    """An output file checked, and for a regular file created, before the work that fills it
    (issue 23.3: an output that cannot be written is an error before any input is read).

    - A regular file, or a path that does not exist yet, gets a temporary file in the same
      directory now (its name within the file system's limit on names, whatever the length
      of ``path``'s), which :meth:`commit` renames over ``path`` (readers see the old or the
      new file, never half of one); the new file keeps the old one's permissions, or gets the
      usual ones (0666 less the umask).
    - A symbolic link is followed: its target is replaced, the link stays a link.
    - Anything else (a device such as ``/dev/null``, a FIFO) is written directly by
      :meth:`commit` (renaming over it would replace the device with a file); so is a path
      that leads to an open file descriptor (``/dev/stdout``, ``/dev/fd/1``), even one open
      on a regular file.  :meth:`open` only checks that it may be written.

    Use as a context manager: leaving it without :meth:`commit` (an error, KeyboardInterrupt,
    :class:`Terminated`) removes the temporary file and leaves ``path`` as it was.
    """

    def __init__(self, path: str, target: str | None, tmp: str | None, fd: int | None, mode: int) -> None:
        self.path = path
        self._target = target  # None: written directly
        self._tmp = tmp
        self._fd = fd
        self._mode = mode

    @classmethod
    def open(cls, path: str) -> Output:
        """Check ``path`` and create the temporary file (see the class); raises OSError."""
        try:
            st: os.stat_result | None = os.stat(path)  # follows symbolic links
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory", path)
        if st is not None and (not stat.S_ISREG(st.st_mode) or _through_fd_link(path)):
            # A device, a FIFO, /dev/stdout (a link to /proc/self/fd/1, maybe a pipe): written
            # through with open() at the end (opening a FIFO now would wait for its reader).
            if not os.access(path, os.W_OK):
                raise PermissionError(13, "Permission denied", path)
            return cls(path, None, None, None, 0)
        target = os.path.realpath(path) if os.path.islink(path) else path
        if st is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        else:
            mode = st.st_mode & 0o7777
        directory = os.path.dirname(os.path.abspath(target))
        import tempfile  # here: it imports shutil, bz2, lzma and random

        prefix = _tmp_prefix(directory, os.path.basename(target))
        try:
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=prefix, suffix=".tmp")
        except FileNotFoundError:
            if os.path.isdir(directory):  # /proc: a directory in which no file can be made
                raise PermissionError(13, f"cannot create a file in {directory}", path) from None
            raise FileNotFoundError(2, f"no such directory {directory}", path) from None
        return cls(path, target, tmp, fd, mode)

    def __enter__(self) -> Output:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    def commit(self, data: bytes | Iterable[bytes]) -> None:
        """Write ``data`` and put it in place (see the class); raises OSError."""
        if self._target is None:
            with open(self.path, "wb") as fh:
                _write_all(fh, data)
            return
        if self._fd is None or self._tmp is None:
            raise ValueError("output already committed or discarded")
        fd, self._fd = self._fd, None
        with os.fdopen(fd, "wb") as fh:
            _write_all(fh, data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(self._tmp, self._mode)
        os.replace(self._tmp, self._target)
        self._tmp = None

    def discard(self) -> None:
        """Remove the temporary file, if any: ``path`` stays as it was."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        if self._tmp is not None:
            with contextlib.suppress(OSError):  # already gone
                os.unlink(self._tmp)
            self._tmp = None


#: The random part mkstemp adds, and the suffix: ``.NAME.`` + 8 characters + ``.tmp``.
_TMP_EXTRA = 1 + 1 + 8 + 4


def _tmp_prefix(directory: str, name: str) -> str:
    """``.NAME.``, with NAME cut (in bytes) so that the temporary file's name stays within the
    file system's limit on names: a 245-byte ``-o`` name is valid, ``.NAME.xxxxxxxx.tmp`` would not be."""
    try:
        limit = os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        limit = 255
    raw = os.fsencode(name)
    room = max(1, limit - _TMP_EXTRA)
    if len(raw) > room:
        raw = raw[:room]
        while raw and (raw[-1] & 0xC0) == 0x80:  # do not cut a UTF-8 sequence in two
            raw = raw[:-1]
        raw = raw[:-1] if raw and raw[-1] >= 0xC0 else raw
    return f".{os.fsdecode(raw)}."


def _through_fd_link(path: str) -> bool:
    """Whether ``path`` reaches its file through ``/proc/…/fd/N`` or ``/dev/fd/N`` (as
    ``/dev/stdout`` does): an open file, to be written through, even when it is a
    regular file (``report -o /dev/stdout > out.json`` must write to the shell's file)."""
    for _ in range(40):
        if path.startswith(("/proc/", "/dev/fd/")):
            return True
        if not os.path.islink(path):
            return False
        path = os.path.join(os.path.dirname(path), os.readlink(path))
    return False


def _write_all(fh: io.BufferedIOBase | io.BufferedWriter | io.RawIOBase, data: bytes | Iterable[bytes]) -> None:
    if isinstance(data, (bytes, bytearray, memoryview)):
        fh.write(data)
    else:
        for piece in data:
            fh.write(piece)
