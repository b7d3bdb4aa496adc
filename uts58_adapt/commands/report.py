"""``uts58-adapt report``: audit what UTS #58 refinement changes in a backend's links."""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .._io import add_decoding_options, codec_problem, write_output

if TYPE_CHECKING:
    from .._io import Output
    from ..report.runner import Task
    from ..report.stream import Rows, StreamingMerge

PROG = "uts58-adapt report"

EPILOG = """\
The audit previews the upgrade: for every line, "before" is what the library itself links
and "after" what its upgrade links, the library's configuration kept (schemas, TLDs, email
switch: an intranet link it links stays linked, nothing is invented inside a token):
  linkify-it   LinkifyIt().match(line)  vs  wrap(LinkifyIt()).match(line)
  urlextract   URLExtract().find_urls(line, get_indices=True)  vs  wrap(URLExtract())'s
  bleach       Linker().linkify(html.escape(line))  vs  wrap(Linker())'s
  django       django.utils.html.urlize(line, autoescape=True)  vs  the integration's urlize
  jinja2       {{ line|urlize }} in Environment()  vs  after integrations.jinja2.install(env)
  mistune      create_markdown(plugins=['url'])(line)  vs  with integrations.mistune.url_plugin()
  magiclink    Markdown(extensions=['pymdownx.magiclink'])  vs  integrations.magiclink's
--linkifier MODULE:ATTR audits your configured object instead (a LinkifyIt, a MarkdownIt,
a URLExtract, a bleach Linker or Cleaner, a Jinja2 Environment, or a callable returning one;
a function returning a new mistune.Markdown or markdown.Markdown; Django reads the settings
DJANGO_SETTINGS_MODULE names), --strict-hosts adds
§1.4's registrable-domain rule (wrap(..., strict_hosts=True)), and --detect audits detect()
itself (strict hosts, the bundled PSL TLD list, http/https/ftp only).  Each pair of links
(paired by overlap) is classified: unchanged, extended, trimmed, start-moved, added or
removed, with the rule that caused it (soft-trailing, unmatched-close,
bracket-across-separator, hard-char, fragment-directive, invalid-host, userinfo,
email-local-part, ...; the Markdown and HTML reports explain each).  Unchanged links are
counted, not listed.  Every report records its provenance: the tool and library versions,
the configuration that decides links, the data versions (Unicode, PSL, idna), the options,
every input with its line count, and every input that failed and why.
With --reject-risky, "after" also drops the links with a UTS #58 §8
risk (mixed-script, bidi-control, ...: docs/security.md) is a removed change with the
reason risky (or start-moved, for ideographic-boundary); each change row lists "risks",
the §8 risks of its refined link, and the summary's "risky" counts the refined links with
a risk (listed or not) and each code.

formats (default: from the -o suffix: .json; .md, .markdown, .txt; .html, .htm; Markdown
for stdout or a name with no suffix; any other suffix is an error):
  (stdout a terminal, neither --format nor -o: a short summary, cut to its width)
  json  {"backend", "unicode_version", "summary": {...}, "changes": [...]}: offsets are
        code points within the line; sorted, so equal reports are equal byte for byte.
        A line longer than 512 code points is not repeated in each of its rows: line_text
        is the context of the change, from line_text_start in a line of line_length
  md    summary tables and one table row per change, the link marked ⸠…⸡ before and after
  html  one standalone page (no network access): charts of kinds, reasons and files;
        before/after side by side, dropped characters struck through, added ones
        underlined, hrefs; search, filters, sorting and pages (100,000+ changes)

inputs: a file named twice (f, ./f, d/../f, an absolute path, a link, or inside a
directory also given) is audited once, under the first name given.

engines:
  local  in this process, or --jobs N worker processes (default: all cores when a
         directory is given, else 1; never more than the chunks of 2000 lines, nor
         than 4 per core; started with forkserver or spawn, stopped on Ctrl-C/SIGTERM,
         and exiting by themselves if this process is killed)
  dask   a Dask cluster (--scheduler ADDRESS, else a local cluster of --jobs worker
         processes started for the run, default one per core, at most 4 per core); needs
         pip install 'uts58_adapt[dask]'; a scheduler that refuses the connection, does
         not answer within --connect-timeout seconds, or is not Dask, is an error (exit
         status 2), and so is a run in which no task finishes for --stall-timeout seconds
         (every worker died): nothing is written
  Local workers read their part of each file (byte ranges) themselves and send back
  the report's rows, so the main process stays nearly idle; the workers of a
  --scheduler cluster need not see the files: they are sent the lines.
  The report is the same whatever the engine and the number of jobs.
  Memory stays bounded: inputs are streamed, a long line audited in pieces, the changes
  spilled to a temporary file and every report written in pieces.

examples:
  uts58-adapt report --sample --format md                  the bundled sample corpus
  uts58-adapt report docs/ --backend urlextract -o audit.html
  uts58-adapt report docs/ --linkifier myapp.text:linkifier -o audit.html   your configuration
  uts58-adapt report docs/ --reject-risky -o audit.html     what reject_risky=True would drop
  cat notes.txt | uts58-adapt report - --format json

output: -o OUT is checked before any input is read (its directory must exist and take a
new file, and it must not be one of the inputs, or a link to one); a regular file is replaced atomically (temporary file, then rename); a
symbolic link is followed; a device or FIFO (/dev/null, /dev/stdout) is written directly.

exit status: 0 when every input was read; 1 when an input could not be read or decoded,
had a line longer than --max-line, was not a regular file inside a walked directory,
changed (was cut) during the audit, or detection failed on a line (named on stderr and in
the report; the rest is still audited and the report is written); 2 when no document at
all was read (an empty directory, only hidden or binary files, only failed inputs:
nothing is written and an existing OUT stays as it was), for usage errors (one line on
stderr), a backend whose extra is not installed, or when the report cannot be written; 130 and 143 after Ctrl-C and SIGTERM
(no temporary file is left).
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..backends import BACKENDS

    parser = subparsers.add_parser(
        "report",
        help="audit how UTS #58 changes a backend's links (json, md or html report)",
        description=(
            "Preview the upgrade of a linkifier to UTS #58: what it extends, trims, adds or removes, and why."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files, directories (recursive) or '-' for stdin; stdin when none"
    )
    parser.add_argument(
        "--backend",
        choices=tuple(BACKENDS),
        help="linkifier to audit (default: linkify-it, or that of --linkifier)",
    )
    parser.add_argument("--format", choices=("json", "md", "html"), help="report format (default: see below)")
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write the report to OUT (atomically); '-' or absent: stdout"
    )
    parser.add_argument("--sample", action="store_true", help="audit the bundled sample corpus (too)")
    parser.add_argument(
        "--linkifier",
        metavar="MODULE:ATTR",
        help="audit your own configured linkifier, imported from MODULE: a LinkifyIt, a MarkdownIt (its .linkify), "
        "a URLExtract, a bleach Linker or Cleaner, a Jinja2 Environment, or a callable returning one, or a "
        "function returning a new mistune.Markdown or markdown.Markdown (Django: set DJANGO_SETTINGS_MODULE); "
        "--backend follows from it",
    )
    parser.add_argument(
        "--strict-hosts",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="§1.4's registrable-domain rule: wrap(instance, strict_hosts=True) (default: off, as wrap(); "
        "on with --detect)",
    )
    parser.add_argument(
        "--markup",
        choices=("auto", "text", "html", "markdown"),
        default="auto",
        help="audit HTML over its text nodes (no tags, attributes, script/style/textarea, existing links) and "
        "Markdown without its code, links and inline HTML; lines and columns stay the source's "
        "(default: auto, from the suffix: .html/.htm/.xhtml, .md/.markdown, the rest text)",
    )
    parser.add_argument(
        "--detect",
        action="store_true",
        help="audit detect(line, backend) instead of the upgrade: the bundled PSL TLD list, http/https/ftp "
        "schemes only, strict hosts unless --no-strict-hosts",
    )
    parser.add_argument(
        "--reject-risky",
        action="store_true",
        help="audit the upgrade with reject_risky=True: a link with a UTS #58 §8 risk is removed (reason risky); "
        "every change lists the risks of its refined link, the summary counts the risky links",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_decoding_options(parser, "report the file and skip it")
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        metavar="N",
        help=f"worker processes (local engine, or the local Dask cluster), 1 to {MAX_JOBS} (default: see below)",
    )
    parser.add_argument("--engine", choices=("local", "dask"), default="local", help="default: %(default)s")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address (with --engine dask)")
    parser.add_argument(
        "--connect-timeout",
        type=_seconds,
        default=30.0,
        metavar="SECONDS",
        help="give up on a Dask scheduler that does not answer in time (default: %(default)g)",
    )
    parser.add_argument(
        "--stall-timeout",
        type=_seconds,
        default=300.0,
        metavar="SECONDS",
        help="with --engine dask: fail when no task finishes for this long, e.g. every worker died "
        "(default: %(default)g); the previous output is kept",
    )
    parser.set_defaults(func=run)


#: The largest --jobs accepted; the pool itself is smaller still (see runner.max_workers).
MAX_JOBS = 1024


def _jobs(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not 1 <= n <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_JOBS}, not {value}")
    return n


def _seconds(value: str) -> float:
    try:
        t = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not 0 < t <= 86400:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 86400 seconds, not {value}")
    return t


def _encoded(pieces: Iterable[str], size: int = 1 << 16) -> Iterator[bytes]:
    """``pieces`` as UTF-8 (a lone surrogate written ``?``), in blocks of about ``size`` characters."""
    batch: list[str] = []
    length = 0
    for piece in pieces:
        batch.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(batch).encode("utf-8", "replace")
            batch, length = [], 0
    if batch:
        yield "".join(batch).encode("utf-8", "replace")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _reason(exc: OSError) -> str:
    """``exc``'s message as the end of a sentence: "is a directory", "permission denied"."""
    text = str(exc.strerror or exc)
    return text[:1].lower() + text[1:]


def _fail(message: str, status: int = 2) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return status


#: Output suffixes and their formats (without --format).
SUFFIXES = {".json": "json", ".md": "md", ".markdown": "md", ".txt": "md", ".html": "html", ".htm": "html"}


def _format_for(args: argparse.Namespace) -> str | None:
    """The report format: --format, else from the -o suffix (Markdown for stdout, or a file
    with no suffix such as /dev/stdout); None for an unknown suffix (an error: ``audit.pdf``)."""
    if args.format:
        return str(args.format)
    suffix = os.path.splitext(os.path.basename(args.output or ""))[1].lower()
    if not suffix:
        return "md"
    return SUFFIXES.get(suffix)


def write_atomic(path: str, data: bytes | Iterable[bytes]) -> None:
    """Write the report to ``path``: see :func:`uts58_adapt._io.write_output` (atomic for regular files)."""
    write_output(path, data)


def _progress(quiet: bool, total: int | None) -> tuple[Callable[[Rows, int], None], Callable[[], None]]:
    """``(on_result, close)`` for a tqdm bar on stderr; silent when quiet or stderr is no terminal.

    With ``total`` (the bytes of the inputs, when every size is known) the bar counts bytes
    and shows the total, the rate and an ETA; else it counts lines.  ``on_result(rows, size)``
    adds a result and the bytes of its task.
    """
    if not _bar_wanted(quiet):
        return (lambda result, size: None), (lambda: None)
    from tqdm import tqdm

    # No monitor thread: worker processes may be forked while the bar is shown.
    tqdm.monitor_interval = 0
    if total is None:
        bar = tqdm(total=None, unit=" lines", desc="auditing", file=sys.stderr, dynamic_ncols=True, leave=False)
    else:
        bar = tqdm(
            total=total,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            desc="auditing",
            file=sys.stderr,
            dynamic_ncols=True,
            leave=False,
        )
    sources: set[str] = set()
    lines = 0

    def on_result(result: Rows, size: int) -> None:
        nonlocal lines
        sources.add(result.source)
        lines += result.lines
        if total is None:
            bar.update(result.lines)
            bar.set_postfix_str(f"{len(sources)} documents", refresh=False)
        else:
            bar.update(min(size, total - bar.n))
            bar.set_postfix_str(f"{len(sources)} documents, {lines} lines", refresh=False)

    return on_result, bar.close


def _bar_wanted(quiet: bool) -> bool:
    return not quiet and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()


def _input_bytes(paths: list[str], sample: bool) -> int | None:
    """The bytes of all inputs, or None when one has no size known in advance (stdin, a FIFO)."""
    from ..report.runner import resolve_inputs

    total = 0
    for _, path in resolve_inputs(paths, sample, []):
        try:
            st = os.stat(path) if path != "-" else None
        except OSError:
            continue  # reported when it is read
        if st is None or not stat.S_ISREG(st.st_mode):
            return None
        total += st.st_size
    return total


def _task_bytes(task: object) -> int:
    """What a task weighs on the progress bar: the bytes of its lines."""
    from ..report.core import ChunkTask
    from ..report.runner import RangeTask

    if isinstance(task, RangeTask):
        return task.length
    if isinstance(task, ChunkTask):
        return sum(len(line.encode("utf-8", "surrogatepass")) for line in task.lines) + len(task.lines)
    return 0


def _backend_problem(name: str) -> str | None:
    """Why the backend ``name`` cannot be loaded (its extra is not installed), or None.

    Resolved here, before any output or input: a missing extra is one line naming what to
    install and exit status 2, not a traceback per chunk (issue 24.3).
    """
    from ..backends import get_backend

    if name not in EXTRAS:  # linkify-it and urlextract are dependencies: no need to build one here
        return None
    try:
        get_backend(name)
    except ImportError as exc:
        message = str(exc)
        if "pip install" not in message:
            extra = EXTRAS.get(name, name)
            message = (
                f"the {name} backend is not available ({message}); install it with: pip install 'uts58_adapt[{extra}]'"
            )
        return message
    return None


#: The extra that installs each optional backend's library (pyproject.toml).
EXTRAS = {"bleach": "bleach", "django": "django", "jinja2": "jinja2", "mistune": "mistune", "magiclink": "magiclink"}


def _output_is_input(output: str, paths: list[str], sample: bool) -> str | None:
    """The input that ``-o OUT`` names (the same file, or a link to it), or None (issue 33.5).

    Checked before any work: writing the report would replace the input it audits.
    """
    from ..report.runner import resolve_inputs

    try:
        out = os.stat(output)
    except OSError:
        return None  # a new file: no input yet
    if not stat.S_ISREG(out.st_mode):
        return None  # /dev/null, /dev/stdout, a FIFO: written directly, never replaced
    for name, path in resolve_inputs(paths, sample, []):
        if path == "-":
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
            return name
    return None


def _audit_plan(args: argparse.Namespace) -> dict[str, Any]:
    """What the audit compares (the report's ``audit``), from ``--backend``, ``--linkifier``,
    ``--detect`` and ``--strict-hosts``; sets ``args.backend``, ``args.preview`` (see
    :class:`~uts58_adapt.report.core.ChunkTask`) and ``args.strict``.  Raises ValueError (one line)."""
    from ..report.preview import UPGRADABLE, URLIZE, backend_of, load_linkifier

    if args.linkifier is not None:
        if args.detect:
            raise ValueError("--linkifier audits your linkifier's upgrade; --detect audits detect(): choose one")
        found = backend_of(load_linkifier(args.linkifier))
        if args.backend is not None and args.backend != found:
            raise ValueError(f"--linkifier {args.linkifier!r} is a {found} linkifier, not {args.backend}")
        args.backend = found
    args.backend = args.backend or "linkify-it"
    backend = args.backend
    if args.detect or backend not in UPGRADABLE:
        args.preview = None
        # detect(): strict hosts by default; an HTML backend's upgrade (its integration) keeps any valid host.
        args.strict = args.strict_hosts if args.strict_hosts is not None else bool(args.detect)
        call = f"detect(line, backend={backend!r}, strict_hosts={args.strict})"
        return {
            "mode": "detect",
            "before": f"detect(line, backend={backend!r}, refine=False): the library's links",
            "after": call,
            "strict_hosts": args.strict,
            "reject_risky": bool(args.reject_risky),
            "linkifier": None,
        }
    args.preview = args.linkifier or ""
    args.strict = bool(args.strict_hosts)
    options = "".join(
        f", {name}=True" for name, on in (("strict_hosts", args.strict), ("reject_risky", args.reject_risky)) if on
    )
    if backend in URLIZE and args.linkifier is not None:  # a Jinja2 Environment (or its factory)
        return {
            "mode": "upgrade",
            "before": f"{args.linkifier}: env.from_string('{{{{ line|urlize }}}}')",
            "after": f"uts58_adapt.integrations.jinja2.install(env{options}) (on an overlay), then the same",
            "strict_hosts": args.strict,
            "reject_risky": bool(args.reject_risky),
            "linkifier": args.linkifier,
        }
    if backend in ("mistune", "magiclink") and args.linkifier is not None:  # the team's factory
        integration = {"mistune": "url_plugin", "magiclink": "UTS58MagiclinkExtension"}[backend]
        return {
            "mode": "upgrade",
            "before": f"{args.linkifier}() rendering each line",
            "after": f"another {args.linkifier}() with uts58_adapt.integrations.{backend}.{integration}"
            f"({options[2:]}) in place of the library's link rule, the team's options kept",
            "strict_hosts": args.strict,
            "reject_risky": bool(args.reject_risky),
            "linkifier": args.linkifier,
        }
    if backend in ("mistune", "magiclink"):
        before, after = {
            "mistune": (
                "mistune.create_markdown(plugins=['url'])(line)",
                f"mistune.create_markdown(plugins=[uts58_adapt.integrations.mistune.url_plugin({options[2:]})])(line)",
            ),
            "magiclink": (
                "markdown.Markdown(extensions=['pymdownx.magiclink']).convert(line)",
                "markdown.Markdown(extensions=['uts58_adapt.integrations.magiclink']"
                + (f", options: {options[2:]}" if options else "")
                + ").convert(line)",
            ),
        }[backend]
        return {
            "mode": "upgrade",
            "before": before,
            "after": after,
            "strict_hosts": args.strict,
            "reject_risky": bool(args.reject_risky),
            "linkifier": None,
        }
    if backend in URLIZE:
        before, after = {
            "django": (
                "django.utils.html.urlize(line, autoescape=True)",
                f"uts58_adapt.integrations.django.urlize(line, autoescape=True{options})",
            ),
            "jinja2": (
                "Environment().from_string('{{ line|urlize }}')",
                f"uts58_adapt.integrations.jinja2.install(env{options}), then the same",
            ),
        }[backend]
        return {
            "mode": "upgrade",
            "before": before,
            "after": after,
            "strict_hosts": args.strict,
            "reject_risky": bool(args.reject_risky),
            "linkifier": None,
        }
    instance = (
        args.linkifier or {"linkify-it": "LinkifyIt()", "urlextract": "URLExtract()", "bleach": "Linker()"}[backend]
    )
    method = {
        "linkify-it": "match(line)",
        "urlextract": "find_urls(line, get_indices=True)",
        "bleach": "linkify(html.escape(line)) (a Cleaner: clean(...))",
    }[backend]
    return {
        "mode": "upgrade",
        "before": f"{instance}.{method}",
        "after": f"wrap({instance}{options}).{method}",
        "strict_hosts": args.strict,
        "reject_risky": bool(args.reject_risky),
        "linkifier": args.linkifier,
    }


def _provenance(args: argparse.Namespace, paths: list[str], audit: dict[str, Any]) -> dict[str, Any]:
    """The report's provenance: the tool, the audit, the libraries, the configuration, the data
    and the options (the inputs and their problems are added by the merge)."""
    from ..backends import data_versions
    from ..report.preview import library_versions, preview

    if args.preview is not None:
        config = preview(args.backend, args.preview, args.strict).configuration()
    else:
        config = {
            "detect": "the backend's library as uts58_adapt configures it (the ICANN TLDs of the bundled PSL)",
            "schemes": ["ftp", "http", "https", "mailto"],
            "strict_hosts": args.strict,
        }
    return {
        # (the package: imported before any of its modules, so no import points up to it here)
        "tool": {"name": "uts58-adapt", "version": str(sys.modules["uts58_adapt"].__version__)},
        "audit": audit,
        "libraries": library_versions(args.backend),
        "configuration": config,
        "data": data_versions(),
        "options": {
            "backend": args.backend,
            "detect": bool(args.detect),
            "encoding": args.encoding,
            "errors": args.errors,
            "linkifier": args.linkifier,
            "markup": args.markup,
            "max_line": args.max_line,
            "paths": list(paths),
            "reject_risky": bool(args.reject_risky),
            "sample": bool(args.sample),
            "strict_hosts": args.strict_hosts,
        },
    }


def run(args: argparse.Namespace) -> int:
    from .._io import Output
    from ..report.display import terminal_safe
    from ..report.stream import StreamingMerge

    # Usage checks first: a long audit must not end in an error we could have seen now.
    problem = codec_problem(args.encoding, args.errors)
    if problem is not None:
        return _fail(problem)
    if args.scheduler and args.engine != "dask":
        return _fail("--scheduler needs --engine dask")
    if args.scheduler and args.jobs is not None:
        return _fail("--jobs is for the local engine and the local Dask cluster; the scheduler decides the parallelism")
    paths = list(args.paths)
    if not paths and not args.sample:
        if sys.stdin is None or sys.stdin.isatty():
            return _fail("no input: give PATH (or '-' for stdin) or --sample")
        paths = ["-"]
    fmt = _format_for(args)
    if fmt is None:
        return _fail(
            f"{terminal_safe(args.output)}: unknown report format {os.path.splitext(args.output)[1]!r}; "
            f"name the file .json, .md or .html, or give --format json|md|html"
        )
    try:
        audit = _audit_plan(args)
    except ValueError as exc:
        return _fail(terminal_safe(str(exc)))
    problem = _backend_problem(args.backend)
    if problem is not None:
        return _fail(problem)
    # stdout a terminal, no --format, no -o: a readable summary, not Markdown (report/render_text.py).
    if not args.format and args.output in (None, "-") and getattr(sys.stdout, "isatty", lambda: False)():
        fmt = "text"
    # The output before any input: an -o that cannot be written fails now, not after the audit
    # (issue 23.3); its temporary file exists from here on, and is removed on any error.
    output: Output | None = None
    if args.output and args.output != "-":
        clash = _output_is_input(args.output, paths, args.sample)
        if clash is not None:
            return _fail(f"{terminal_safe(args.output)}: is the input {terminal_safe(clash)}; name another report file")
        try:
            output = Output.open(args.output)
        except OSError as exc:
            return _fail(f"{terminal_safe(args.output)}: cannot write: {_reason(exc)}")
    import tempfile

    with contextlib.ExitStack() as stack:
        if output is not None:
            stack.enter_context(output)
        try:
            spill = stack.enter_context(tempfile.TemporaryDirectory(prefix="uts58-report-"))
            merged = stack.enter_context(
                StreamingMerge(args.backend, spill, risks=args.reject_risky, meta=_provenance(args, paths, audit))
            )
        except OSError as exc:  # a full or read-only $TMPDIR
            return _fail(f"cannot make a temporary file: {exc.strerror or exc} (set TMPDIR)")
        return _audit(args, paths, fmt, output, spill, merged)
    return 2  # pragma: no cover - the with block returns


def _audit(
    args: argparse.Namespace, paths: list[str], fmt: str, output: Output | None, spill: str, merged: StreamingMerge
) -> int:
    """The audit of ``run``, once the arguments, the backend and the output are checked."""
    from ..report.display import terminal_safe
    from ..report.render_html import html_chunks
    from ..report.render_md import md_chunks
    from ..report.runner import (
        DASK_RANGE_LINES,
        DASK_TASK,
        LOCAL_TASK,
        DaskUnavailable,
        default_jobs,
        iter_dask_rows,
        iter_report_tasks,
        iter_rows,
    )

    problems: list[str] = []
    failed: set[str] = set()  # inputs that failed part-way: their chunks that ran are dropped
    # Workers read their byte ranges of each file themselves, except on a cluster
    # (--scheduler), whose workers need not see this machine's files: they get the lines.
    ranges = args.scheduler is None
    lines, size = LOCAL_TASK if args.engine == "local" else DASK_TASK
    if args.engine == "dask" and ranges:
        lines = DASK_RANGE_LINES
    tasks = iter_report_tasks(
        paths,
        args.sample,
        args.backend,
        encoding=args.encoding,
        errors=args.errors,
        max_line=args.max_line,
        chunk_lines=lines,
        ranges=ranges,
        range_bytes=size,
        spill_dir=spill,
        reject_risky=args.reject_risky,
        preview=args.preview,
        strict_hosts=args.strict,
        markup=args.markup,
    )
    total = _input_bytes(paths, args.sample) if _bar_wanted(args.quiet) else None
    on_result, close = _progress(args.quiet, total)
    sizes: deque[int] = deque()  # of the tasks handed to the engine, whose results come back in task order

    def weighed(tasks: Iterator[Task]) -> Iterator[Task]:
        for task in tasks:
            sizes.append(_task_bytes(task) if total is not None else 0)
            yield task

    tasks = weighed(tasks)
    failures: list[tuple[str, str]] = []  # (source, message)
    results: Iterator[Rows] | None = None
    try:
        if args.engine == "dask":
            results = iter_dask_rows(tasks, args.scheduler, args.connect_timeout, args.jobs, args.stall_timeout)
        else:
            results = iter_rows(tasks, args.jobs if args.jobs is not None else default_jobs(paths))
        for result in results:
            size = sizes.popleft() if sizes else 0
            if result.problem is not None:  # an input that cannot be read (or a path that is not there)
                if not result.source or result.source not in failed:
                    problems.append(result.problem)
                if result.source:
                    failed.add(result.source)
                continue
            try:
                merged.add(result)
            except OSError as exc:  # the spill file: a full or read-only $TMPDIR
                return _fail(f"cannot write the changes to a temporary file: {exc.strerror or exc} (set TMPDIR)")
            failures.extend((result.source, message) for message in result.failures)
            on_result(result, size)
    except DaskUnavailable as exc:
        close()
        for message in problems:
            print(f"{PROG}: {terminal_safe(message)}", file=sys.stderr)
        return _fail(str(exc) + ("; the previous output is kept" if output is not None else ""))
    finally:
        # However the loop ended (an error here, SIGTERM raised while merging, an early
        # return), the engine stops its workers now, not when the generator is collected
        # (at exit, concurrent.futures would first wait for every chunk in flight).
        stop = getattr(results, "close", None)  # a generator's close()
        if stop is not None:
            stop()
        close()
    problems.extend(message for source, message in failures if source not in failed)
    for message in problems:
        print(f"{PROG}: {terminal_safe(message)}", file=sys.stderr)
    if not merged.sources(exclude=failed):
        # No document read (nothing given, an empty directory, only skipped or failed files): no
        # report, and an existing -o file stays as it was (issue 33.5).
        kept = f"; {terminal_safe(args.output)} left as it was" if output is not None else ""
        return _fail(f"no document was read ({_plural(len(problems), 'problem')} above); nothing written{kept}")
    merged.problems = problems
    data: bytes | Iterator[bytes]
    if fmt == "json":
        data = merged.json_chunks(exclude=failed)
    elif fmt == "text":
        from ..report.render_text import SHOWN, render_text, terminal_width

        data = render_text(merged.report(exclude=failed, limit=SHOWN), terminal_width()).encode("utf-8", "replace")
    elif fmt == "md":
        data = _encoded(md_chunks(merged.head(exclude=failed), merged.dicts(exclude=failed)))
    else:
        head = merged.head(exclude=failed)
        data = _encoded(html_chunks(head, merged.dicts(exclude=failed), merged.kinds_by_source(exclude=failed)))
    if output is not None:
        try:
            output.commit(data)
        except OSError as exc:
            return _fail(f"{terminal_safe(args.output)}: cannot write: {exc.strerror or exc}")
        if not args.quiet:
            s = merged.head(exclude=failed)["summary"]
            print(
                f"wrote {terminal_safe(args.output)}: {_plural(s['changed'], 'change')} in {_plural(s['lines'], 'line')}"
                f" of {_plural(s['documents'], 'document')}",
                file=sys.stderr,
            )
    elif hasattr(sys.stdout, "buffer"):
        sys.stdout.flush()
        for piece in [data] if isinstance(data, bytes) else data:
            sys.stdout.buffer.write(piece)
        sys.stdout.flush()
    else:  # a text-only stream (an embedding application, a test harness)
        for piece in [data] if isinstance(data, bytes) else data:
            sys.stdout.write(piece.decode("utf-8"))
    return 1 if problems else 0
