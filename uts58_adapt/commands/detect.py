"""``uts58-adapt detect``: find the links in text files or stdin, line by line."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys

from .._io import InputError, add_decoding_options, codec_problem, expand_paths, read_lines
from ..link import Link
from ..refine.risk_profile import RejectRisky

OPEN_MARK, CLOSE_MARK = "\u2e20", "\u2e21"
FORMATS = ("marked", "json", "html")

EPILOG = """\
Each line is detected on its own (a line break is Link_Term=Hard, so this gives the
same links as detecting the whole text).  Links longer than --max-length code points
are dropped (UTS #58 §8).  With --reject-risky, a link with a §8 risk (mixed-script,
restricted-character, whole-script-confusable, bidi-control, invalid-tld, mixed-numbers,
invisible-marks, cjk-lookalike) is not linked, and one whose host follows ideographs
(ideographic-boundary) starts after them: ウェブサイトはexample.com links example.com.
--risk-profile browser adds the checks of Chromium's IDN policy (digit-lookalike,
whole-script-lookalike, non-ascii-latin-mixed, dangerous-pattern, latin-lookalike,
tld-specific-character) to --reject-risky and to the "risks" of --format json.

formats:
  marked  each line with every link wrapped in ⸠ ⸡ (the LinkDetectionTest.txt format);
          over several files (or a directory) each line starts with FILE:LINE:
  json    one JSON object per line (JSON Lines): {"source", "line", "links": [{"start",
          "end", "text", "kind", "href", "original", "risks"}]}; offsets are code
          points; "risks" lists the link's §8 codes (uts58_adapt.link_risks)
  html    each line as HTML with <a href> around the links

examples:
  echo 'see example.com/αβγ. or mail x@example.com' | uts58-adapt detect
  uts58-adapt detect notes.txt --format json
  uts58-adapt detect docs/ --backend urlextract --no-refine     the backend's own view
  uts58-adapt detect old.txt --encoding latin-1
  uts58-adapt detect mail.txt --reject-risky                   no link with a §8 risk
  uts58-adapt detect mail.txt --reject-risky --risk-profile browser

exit status: 0 when every input was read, 1 when an input could not be read or
decoded, had a line longer than --max-line, or detection failed on a line (a message
naming it goes to stderr; that line is left out and the other inputs are still
processed; after an undecodable line, the lines done and the command that goes on,
with --errors replace); 2 for a --encoding that is not a text encoding.
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..backends import BACKENDS

    parser = subparsers.add_parser(
        "detect",
        help="find the links in text (files, directories or stdin)",
        description="Find the links in text with an existing linkifier, refined to UTS #58.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="input files or directories; stdin when none, or '-'")
    parser.add_argument(
        "--backend", choices=tuple(BACKENDS), default="linkify-it", help="linkifier to refine (default: %(default)s)"
    )
    parser.add_argument(
        "--no-refine", dest="refine", action="store_false", help="show the backend's own spans, unrefined"
    )
    parser.add_argument("--format", choices=FORMATS, default="marked", help="output format (default: %(default)s)")
    add_decoding_options(parser, "report the file")
    parser.add_argument(
        "--max-length",
        type=int,
        default=4096,
        metavar="N",
        help="drop links longer than N code points; 0 for no limit (default: %(default)s)",
    )
    parser.add_argument(
        "--reject-risky",
        action="store_true",
        help="do not link a link with a UTS #58 §8 risk (see docs/security.md); off by default",
    )
    parser.add_argument(
        "--risk-profile",
        choices=("default", "browser"),
        default="default",
        help="the §8 checks of --reject-risky and of the json risks: UTS #39's (default) or also "
        'Chromium\'s IDN policy (browser: reject_risky="browser")',
    )
    parser.set_defaults(func=run)


def stdin_hint(command: str, what: str) -> None:
    """On a terminal, say on stderr that ``command`` reads ``what`` from it (issue 24.3): not a silent wait."""
    stdin = sys.stdin
    try:
        interactive = stdin is not None and stdin.isatty()
    except (AttributeError, ValueError, OSError):  # a replaced or closed stdin
        interactive = False
    if interactive:
        print(
            f"uts58-adapt {command}: reading {what} from the terminal; end with Ctrl-D (Ctrl-Z Enter on Windows), "
            f"or pass files (uts58-adapt {command} --help)",
            file=sys.stderr,
            flush=True,
        )


def _marked(line: str, links: list[Link]) -> str:
    parts = []
    pos = 0
    for link in links:
        parts.append(line[pos : link.start])
        parts.append(OPEN_MARK + line[link.start : link.end] + CLOSE_MARK)
        pos = link.end
    parts.append(line[pos:])
    return "".join(parts)


def _html(line: str, links: list[Link]) -> str:
    from ..html import render  # here: not imported for the other formats

    return render(line, links)


def _json(source: str, lineno: int, links: list[Link], profile: str = "default") -> str:
    import json

    from ..refine.risks import link_risks

    return json.dumps(
        {
            "source": source,
            "line": lineno,
            "links": [
                {
                    "start": link.start,
                    "end": link.end,
                    "text": link.text,
                    "kind": link.kind,
                    "href": link.href,
                    "original": list(link.original) if link.original is not None else None,
                    "risks": list(link_risks(link, profile=profile)),
                }
                for link in links
            ],
        },
        ensure_ascii=False,
    )


def _go_on(source: str, done: int, argv: list[str] | None) -> str:
    """What to say after an undecodable line: how many lines were done, and the command that goes on
    past such bytes (``--errors replace``: each becomes U+FFFD), the given one with that option."""
    given = list(argv[1:]) if argv and argv[0] == "detect" else []
    kept = [
        w
        for i, w in enumerate(given)
        if w != "--errors" and not w.startswith("--errors=") and given[i - 1 : i] != ["--errors"]
    ]
    command = shlex.join(["uts58-adapt", "detect", "--errors", "replace", *kept])
    again = " (with the same input)" if source == "<stdin>" else ""
    return f"{source}: {done} lines done, the rest not read; to go on past undecodable bytes{again}: {command}"


def run(args: argparse.Namespace) -> int:
    from ..backends import get_backend
    from ..detection import detect
    from ..report.display import terminal_safe

    problem = codec_problem(args.encoding, args.errors)
    if problem is not None:  # a usage error: one message, before any input is read
        print(f"uts58-adapt detect: {problem}", file=sys.stderr)
        return 2
    try:  # a backend whose extra is missing: one line naming the extra, before any input is read
        get_backend(args.backend)
    except ImportError as exc:
        print(f"uts58-adapt detect: {exc}", file=sys.stderr)
        return 2
    errors: list[str] = []
    status = 0
    max_length = args.max_length if args.max_length and args.max_length > 0 else None
    out = sys.stdout
    # Output may contain lone surrogates (--errors surrogateescape): never crash on them.
    if hasattr(out, "reconfigure"):
        with contextlib.suppress(ValueError, OSError):  # exotic streams: keep their error handler
            out.reconfigure(errors="surrogateescape" if args.errors == "surrogateescape" else "backslashreplace")

    reject_risky: RejectRisky = False
    if args.reject_risky:
        reject_risky = "browser" if args.risk_profile == "browser" else True
    names = args.files or ["-"]
    if "-" in names:
        stdin_hint("detect", "text")
    several = len(names) > 1 or any(name != "-" and os.path.isdir(name) for name in names)
    for name in expand_paths(names, errors):
        source = "<stdin>" if name == "-" else name
        # Several inputs in the marked format: each line starts with its file's name and line number.
        prefix = f"{source}:{{}}:" if several and args.format == "marked" else ""
        done = 0
        try:
            for lineno, line in enumerate(read_lines(name, args.encoding, args.errors, args.max_line), 1):
                done = lineno
                try:
                    links = detect(line, args.backend, args.refine, max_length=max_length, reject_risky=reject_risky)
                except Exception as exc:  # a backend bug on one line must not sink the batch
                    errors.append(f"{source}:{lineno}: detect failed ({type(exc).__name__}: {exc}); line not shown")
                    continue
                if args.format == "html":
                    out.write(_html(line, links) + "\n")
                elif args.format == "json":
                    out.write(_json(source, lineno, links, args.risk_profile) + "\n")
                elif prefix:
                    out.write(prefix.format(lineno) + _marked(line, links) + "\n")
                else:
                    out.write(_marked(line, links) + "\n")
        except InputError as exc:
            errors.append(str(exc))
            if "cannot decode" in str(exc) and args.errors == "strict":
                errors.append(_go_on(source, done, getattr(args, "argv", None)))
        for message in errors:  # a file name cannot write terminal escapes or forge a line (issue 33.5)
            print(f"uts58-adapt detect: {terminal_safe(message)}", file=sys.stderr)
            status = 1
        errors.clear()
    for message in errors:
        print(f"uts58-adapt detect: {terminal_safe(message)}", file=sys.stderr)
        status = 1
    out.flush()
    return status
