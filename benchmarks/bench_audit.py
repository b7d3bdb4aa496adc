"""Audit figures (issue 11.2-11.4): ``uts58-adapt report`` cost, memory and parallelism.

Run through ``benchmarks/bench.py --only audit`` (cost: ratios side by side in one process)
and ``--only audit-memory`` / ``--only audit-scale`` (``--corpus-size MB[,MB...]``: a corpus
of that many MB is generated in a temporary directory and audited by the CLI in a
subprocess; its peak RSS is read with ``os.wait4``).  This module is imported by
``bench.py`` and imports nothing from it (no cycle): run the figures through ``bench.py``.

Targets:
  (audit)        report costs <= 1.3 x one refined detection pass over the same lines
  (audit-memory) peak RSS grows <= 1 MB per MB of input (slope of a least-squares line
                 over the sizes given); at 1 GB (if given) under 500 MB
  (audit-scale)  --jobs 2 >= 1.8 x faster than --jobs 1; --engine dask (a local cluster
                 of 2 processes) <= 1.15 x the time of --jobs 2

  (audit-long-lines) one line of 100 kB to 16 MB (``--line-size MB[,MB...]``, default
                 0.1,1,4,16) repeating the hostile shape of issue 23.1: the report of the
                 100 kB line is at most 30 x the input; the 16 MB line audits in under
                 500 MB peak RSS; report size and peak RSS per MB of input are printed

The 1 GB check:
  python benchmarks/bench.py --only audit-memory --corpus-size 10,50,200,1024
audits generated corpora of 10, 50, 200 and 1024 MB with ``--jobs 1 --format json``
(one process does all the work: the largest footprint), prints each peak RSS, fails if the
1024 MB one reaches 500 MB or if the RSS grows by more than 1 MB per MB.  At about
1.5 MB/s it takes some 15 minutes on one core, and needs about 2.5 GB in $TMPDIR (the
corpus, the spilled changes and the report, each deleted afterwards).

CPU seconds: where ``psutil`` is installed (it comes with the ``dask`` extra), each run
also reports the CPU time of the CLI process (main) and of all its descendants (the
workers, the fork server), polled five times a second.  On a shared machine the wall
time of ``--jobs 2`` depends on the load (printed with each run): the CPU figures tell
whether the work itself grew (pickling, a busy main process) or only had to wait.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from uts58_adapt import detect  # noqa: E402
from uts58_adapt.link import Link  # noqa: E402
from uts58_adapt.report.core import audit_line  # noqa: E402

MB = 1024 * 1024


class _Report(Protocol):
    failed: list[str]

    def ratio(self, label: str, num: float, den: float, target: float | None) -> float: ...


def _two_passes(text: str, backend: str, refine: bool = True, **kw: object) -> list[Link]:
    return detect(text, backend, refine=refine)


def bench_audit_cost(
    lines: list[str],
    repeat: int,
    report: _Report,
    measure: Callable[..., dict[str, float]],
    each: Callable[..., Callable[[list[str]], None]],
    backends: Sequence[str] = ("linkify-it", "urlextract"),
) -> None:
    """Audit of a line (one shared backend pass) / one refined detect() of it; and the old two-pass audit."""
    print("(audit) audit_line (what report does per line) vs one refined detect(), same lines")
    for backend in backends:
        times = measure(
            {
                "detect": each(lambda line, backend=backend: detect(line, backend)),
                "audit": each(lambda line, backend=backend: audit_line(line, backend, detect)),
                "two-pass": each(lambda line, backend=backend: audit_line(line, backend, _two_passes)),
            },
            lines,
            repeat,
        )
        mb = sum(len(line.encode("utf-8")) + 1 for line in lines) / MB
        print(f"  {backend}: audit {mb / times['audit']:.2f} MB/s, detect {mb / times['detect']:.2f} MB/s")
        report.ratio(f"audit / detect(refine=True), {backend}", times["audit"], times["detect"], 1.3)
        report.ratio(
            f"old two-pass audit / detect(refine=True), {backend} (info)", times["two-pass"], times["detect"], None
        )


def write_corpus(path: Path, size_mb: float, lines: list[str]) -> int:
    """Write about ``size_mb`` MB of ``lines`` (repeated, numbered) to ``path``; return the bytes written."""
    target = int(size_mb * MB)
    written = 0
    # Real text, and the bundled sample (every rule of the audit) so that many links change.
    sample = [
        line
        for p in sorted((REPO / "uts58_adapt" / "corpora").glob("*.txt"))
        for line in p.read_text(encoding="utf-8").splitlines()
    ]
    lines = lines + sample * max(1, len(lines) // (10 * max(1, len(sample))))
    with path.open("w", encoding="utf-8") as fh:
        k = 0
        while written < target:
            block = "".join(f"{k}:{i} {line}\n" for i, line in enumerate(lines))
            fh.write(block)
            written += len(block.encode("utf-8"))
            k += 1
    return written


class Run(NamedTuple):
    seconds: float
    rss_mb: float  # peak RSS of the CLI process itself (see _hwm)
    status: int
    main_cpu: float | None  # CPU seconds of the CLI process (None without psutil)
    all_cpu: float | None  # ... and of all its descendants (workers)
    load: float  # 1-minute load average at the end


def run_cli(args: Sequence[str]) -> Run:
    """Run ``uts58-adapt report ARGS`` in a subprocess and measure it (see :class:`Run`)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    try:
        import psutil
    except ImportError:
        psutil = None
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uts58_adapt.cli", "report", "-q", *args], env=env, stdout=subprocess.DEVNULL
    )
    cpu: dict[int, float] = {}
    hwm = 0.0
    while True:
        hwm = max(hwm, _hwm(proc.pid))
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if psutil is not None:
            try:
                root = psutil.Process(proc.pid)
                for p in [root, *root.children(recursive=True)]:
                    with contextlib.suppress(psutil.Error):
                        times = p.cpu_times()
                        cpu[p.pid] = times.user + times.system
            except psutil.Error:
                pass
        time.sleep(0.2)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    main_cpu = all_cpu = None
    if psutil is not None:
        main_cpu = usage.ru_utime + usage.ru_stime  # exact for the CLI process; its workers as last polled
        all_cpu = main_cpu + sum(t for p, t in cpu.items() if p != proc.pid)
    # ru_maxrss counts the pages of this (big) process shared by the fork before exec: on
    # Linux the CLI's own high-water mark (VmHWM, polled) is the truer figure.
    rss = hwm or usage.ru_maxrss / 1024  # KiB on Linux
    return Run(seconds, rss, proc.returncode, main_cpu, all_cpu, os.getloadavg()[0])


def _hwm(pid: int) -> float:
    """The peak RSS of process ``pid`` so far in MB (VmHWM in /proc; 0 where there is none)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def _cpu(run: Run) -> str:
    if run.main_cpu is None or run.all_cpu is None:
        return ""
    return f", CPU {run.main_cpu:.1f} s main / {run.all_cpu:.1f} s all"


def _slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def bench_audit_memory(
    sizes_mb: Sequence[float], lines: list[str], report: _Report, backend: str = "linkify-it"
) -> None:
    """Peak RSS of ``report FILE --jobs 1 --format json -o OUT`` for corpora of each size."""
    print(f"(audit-memory) peak RSS of report --jobs 1 --format json, {backend}, one generated file per size")
    xs: list[float] = []
    ys: list[float] = []
    with tempfile.TemporaryDirectory(prefix="uts58-bench-") as tmp:
        for size in sizes_mb:
            corpus = Path(tmp) / "corpus.txt"
            mb = write_corpus(corpus, size, lines) / MB
            run = run_cli(
                [str(corpus), "--backend", backend, "--jobs", "1", "--format", "json", "-o", str(Path(tmp) / "r.json")]
            )
            seconds, rss, status = run.seconds, run.rss_mb, run.status
            out = Path(tmp) / "r.json"
            out_mb = out.stat().st_size / MB if out.exists() else 0.0
            out.unlink(missing_ok=True)
            print(
                f"  {mb:8.1f} MB in: {rss:7.1f} MB peak RSS, {mb / seconds:5.2f} MB/s, {seconds:7.1f} s, "
                f"report {out_mb:.1f} MB, exit {status}, load {run.load:.2f}"
            )
            if status != 0:
                report.failed.append(f"audit of {mb:.0f} MB exited with status {status}")
            xs.append(mb)
            ys.append(rss)
            if size >= 1024 and rss >= 500:
                report.failed.append(f"audit of {mb:.0f} MB peaks at {rss:.0f} MB RSS (target < 500 MB)")
            corpus.unlink()
    if len(xs) >= 2:
        slope = _slope(xs, ys)
        verdict = "PASS" if slope <= 1 else "FAIL"
        print(f"  {'RSS growth (least squares), MB RSS per MB input':58} {slope:6.3f}   (target <= 1)       {verdict}")
        if verdict == "FAIL":
            report.failed.append("audit RSS slope")


def bench_audit_scale(size_mb: float, lines: list[str], report: _Report, backend: str = "linkify-it") -> None:
    """--jobs 1 vs --jobs 2 vs --engine dask (local cluster, 2 worker processes) on one corpus."""
    print(f"(audit-scale) report on {size_mb:g} MB, {backend}: --jobs 1, --jobs 2, --engine dask --jobs 2")
    with tempfile.TemporaryDirectory(prefix="uts58-bench-") as tmp:
        corpus = Path(tmp) / "corpus.txt"
        mb = write_corpus(corpus, size_mb, lines) / MB
        common = [str(corpus), "--backend", backend, "--format", "json", "-o", str(Path(tmp) / "r.json")]
        times = {}
        runs = {}
        for label, extra in (
            ("jobs1", ["--jobs", "1"]),
            ("jobs2", ["--jobs", "2"]),
            ("dask2", ["--engine", "dask", "--jobs", "2"]),
        ):
            load = os.getloadavg()[0]
            run = runs[label] = run_cli([*common, *extra])
            times[label] = run.seconds
            print(
                f"  {label}: {run.seconds:7.1f} s, {mb / run.seconds:5.2f} MB/s, peak RSS {run.rss_mb:.0f} MB, "
                f"exit {run.status}{_cpu(run)}; load {load:.2f} before, {run.load:.2f} after"
            )
            if run.status != 0:
                report.failed.append(f"{label} exited with status {run.status}")
        one, two = runs["jobs1"].all_cpu, runs["jobs2"].all_cpu
        if one and two:
            # What an idle machine would show if nothing but the work itself counted.
            print(f"  (CPU time of --jobs 2 / --jobs 1: {two / one:.3f}; idle-machine bound {2 * one / two:.2f}x)")
        load = os.getloadavg()[0]
        print(f"  (cores: {os.cpu_count()}; load average {load:.2f}: other work on the machine slows both)")
        speedup = times["jobs1"] / times["jobs2"]
        verdict = "PASS" if speedup >= 1.8 else "FAIL"
        print(f"  {'speed-up of --jobs 2 over --jobs 1':58} {speedup:6.3f}x (target >= 1.8x)    {verdict}")
        if verdict == "FAIL":
            report.failed.append("--jobs 2 speed-up")
        report.ratio("--engine dask (2 processes) / --jobs 2", times["dask2"], times["jobs2"], 1.15)


#: The line of issue 23.1: every repetition changes two links (a bracket kept, one across a separator).
LONG_LINE_UNIT = "see example.com/αβ(γ/δ)ρς, or a@b.co x.co/( "


def write_long_line(path: Path, size: int) -> int:
    """Write one line of at most ``size`` bytes (then a newline) repeating :data:`LONG_LINE_UNIT`;
    return the bytes written.  (16 MB is the default --max-line: the line must not pass it.)"""
    unit = LONG_LINE_UNIT.encode("utf-8")
    with path.open("wb") as fh:
        written = 0
        while written + len(unit) <= size:
            fh.write(unit)
            written += len(unit)
        fh.write(b"\n")
    return written + 1


def bench_audit_long_lines(sizes_mb: Sequence[float], report: _Report, backend: str = "linkify-it") -> None:
    """Report size and peak RSS of ``report FILE --jobs 1 --format json -o OUT`` on one line of each size."""
    print(f"(audit-long-lines) one line of each size, {backend}, report --jobs 1 --format json")
    print(f"  {'line':>9}  {'report':>9}  {'x input':>7}  {'peak RSS':>9}  {'RSS/MB in':>9}  {'time':>7}")
    xs: list[float] = []
    ys: list[float] = []
    with tempfile.TemporaryDirectory(prefix="uts58-bench-") as tmp:
        for size in sizes_mb:
            path = Path(tmp) / "line.txt"
            out = Path(tmp) / "r.json"
            mb = write_long_line(path, int(size * MB)) / MB
            run = run_cli([str(path), "--backend", backend, "--jobs", "1", "--format", "json", "-o", str(out)])
            out_mb = out.stat().st_size / MB if out.exists() else 0.0
            out.unlink(missing_ok=True)
            path.unlink()
            print(
                f"  {mb:7.2f} MB  {out_mb:6.1f} MB  {out_mb / mb:6.1f}x  {run.rss_mb:6.0f} MB  "
                f"{run.rss_mb / mb:6.1f} MB  {run.seconds:5.1f} s   exit {run.status}"
            )
            xs.append(mb)
            ys.append(run.rss_mb)
            if run.status != 0:
                report.failed.append(f"audit of a {mb:.2f} MB line exited with status {run.status}")
            if size <= 0.1 and out_mb > 30 * mb:
                report.failed.append(
                    f"the report of a {mb:.2f} MB line is {out_mb / mb:.0f} x the input (target <= 30)"
                )
            if size >= 16 and run.rss_mb >= 500:
                report.failed.append(f"a {mb:.0f} MB line peaks at {run.rss_mb:.0f} MB RSS (target < 500 MB)")
    if len(xs) >= 2:
        print(f"  RSS growth (least squares): {_slope(xs, ys):.2f} MB per MB of input")


def parse_sizes(value: str) -> list[float]:
    return [float(part) for part in value.split(",") if part.strip()]


if __name__ == "__main__":
    # This module is bench.py's (which imports it); it does not import bench.py back.
    sys.exit(
        "run the audit figures with: python benchmarks/bench.py --only audit|audit-memory|audit-scale|audit-long-lines [...]"
    )
