"""How fast `packetbench view` shows a large run and a long document, in headless Chromium.

    python benchmarks/viewer.py --run RUN --packets DIR      # a scored run you have
    python benchmarks/viewer.py --make 1000                  # N1 packets, sim, score first
    python benchmarks/viewer.py --run RUN --packets DIR --document N1-000001/sov_pdf \\
        --baseline /path/to/other/checkout/src               # beside another version

Starts the real command (`packetbench view RUN --port 0`) and prints: the time from the
command to its document list drawn in a browser that was already open (the target: under
2 s), of which the command takes until it serves (and the processor time it used by then,
which the machine's load does not change); the list drawn after the page is opened on
a running server, the same after a filter, and the list's JSON alone (the DuckDB query
behind it: the floor); then a long document (the one given, else the list's longest) opened
with its first page image loaded, the boxes of that page drawn and the first rows of its
side table: the first time (its index built, the page rendered), later (the target: under
1 s), and the first time on a server started again, each with the bytes the page fetched.
Medians of --repeat openings, each in a fresh browser. With --baseline SRC, every figure is
measured again with the packetbench found in SRC (another checkout's `src`) and printed
beside. With --list-only, only the command to the list, --repeat times (with --baseline,
the two versions in turn; the whole process is what a paired outside timer times: `env
PYTHONPATH=SRC python benchmarks/viewer.py ...` is the baseline's).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.chromium import Page, open_page  # noqa: E402

LIST = "document.querySelectorAll('#document-list tr[data-document]').length > 0"
# The document is open: the first rows of its side table, its first page's image loaded and
# that page's boxes drawn (when it has any).
OPENED = (
    "(() => { const img = document.querySelector('.page img');"
    " const boxes = !view.data || !view.data.boxes || !view.data.boxes[0]"
    " || document.querySelector('.page[data-page=\"1\"] .box');"
    " return document.querySelectorAll('#fields tr[data-path]').length > 0"
    " && (!img || (img.complete && img.naturalWidth > 0)) && !!boxes; })()"
)
FETCHED = (
    "performance.getEntriesByType('resource').filter(e => e.name.includes('/api/'))"
    ".reduce((n, e) => n + e.encodedBodySize, 0)"
)
CLI = str(Path(sys.executable).with_name("packetbench"))


def _make(count: int, folder: Path) -> tuple[Path, Path]:
    packets, run = folder / "corpus", folder / "runs" / "sim"
    for args in (
        ["generate", "--tiers", "N1", "--count", str(count), "--out", str(packets), "--jobs", "2"],
        ["extract", "--provider", "sim", "--packets", str(packets), "--out", str(run)],
        ["score", str(run), "--packets", str(packets), "--jobs", "2"],
    ):
        subprocess.run([CLI, *args], check=True, stdout=subprocess.DEVNULL)
    return run, packets


@dataclass
class Server:
    url: str
    serving: float  # seconds from the command to its first line
    cpu: float  # processor seconds the command had used by then (all its threads)


def _cpu(pid: int) -> float:
    """User and system seconds process `pid` has used so far (Linux /proc)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def serve(
    run: Path, packets: Path, cache: Path, source: Path | None, started: float | None = None
) -> Iterator[Server]:
    """`packetbench view RUN` on a free port (the packetbench in `source` when given)."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    begun = time.perf_counter() if started is None else started
    process = subprocess.Popen(
        [CLI, "view", str(run), "--packets", str(packets), "--port", "0", "--cache", str(cache)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("packetbench view: serving"):
            raise RuntimeError(f"the viewer did not start: {line!r}")
        yield Server(line.split()[3], time.perf_counter() - begun, _cpu(process.pid))
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def _navigate(page: Page, url: str, ready: str) -> float:
    """Seconds from navigating `page` to `url` until `ready` is true."""
    page.send("Page.navigate", {"url": url})
    page.wait_for("Page.loadEventFired", timeout=120)
    page.wait_until(ready, timeout=300)
    return float(page.evaluate("performance.now()")) / 1000


def _opened(url: str, ready: str) -> tuple[float, int]:
    """(seconds from navigation start to `ready`, bytes of API answers) in a fresh browser."""
    with open_page(url, 1400, 900) as page:
        page.wait_until(ready, timeout=300)
        return float(page.evaluate("performance.now()")) / 1000, int(page.evaluate(FETCHED))


def _json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=600) as answer:
        return json.loads(answer.read())


@dataclass
class Figures:
    command_to_list: list[float] = field(default_factory=list)
    serving: list[float] = field(default_factory=list)
    serving_cpu: list[float] = field(default_factory=list)
    listed: list[float] = field(default_factory=list)
    filtered: list[float] = field(default_factory=list)
    api: list[float] = field(default_factory=list)
    total: int = 0
    document: str = ""
    pages: int = 0
    fields: int = 0
    first: tuple[float, int] = (0.0, 0)
    later: list[tuple[float, int]] = field(default_factory=list)
    restarted: tuple[float, int] = (0.0, 0)


def command_to_list(
    figures: Figures, run: Path, packets: Path, cache: Path, repeat: int, source: Path | None
) -> None:
    """The command to its list drawn, in a browser open before the command starts."""
    for _ in range(repeat):
        with open_page("about:blank", 1400, 900) as page:
            started = time.perf_counter()
            with serve(run, packets, cache, source, started) as server:
                _navigate(page, server.url + "#/run/0", LIST)
                figures.command_to_list.append(time.perf_counter() - started)
                figures.serving.append(server.serving)
                figures.serving_cpu.append(server.cpu)


def measure(
    run: Path, packets: Path, document: str | None, repeat: int, source: Path | None
) -> Figures:
    figures = Figures()
    scratch = Path(tempfile.mkdtemp(prefix="viewer-bench-"))
    cache = scratch / "cache"
    command_to_list(figures, run, packets, scratch / "list-cache", repeat, source)
    with serve(run, packets, cache, source) as server:
        url = server.url
        for _ in range(repeat):
            begun = time.perf_counter()
            figures.total = _json(url + "api/runs/0/documents?limit=100")["total"]
            figures.api.append(time.perf_counter() - begun)
        figures.listed = [_opened(url + "#/run/0", LIST)[0] for _ in range(repeat)]
        figures.filtered = [
            _opened(url + "#/run/0?verdict=hallucinated", LIST)[0] for _ in range(repeat)
        ]
        if document is None:
            rows = _json(url + "api/runs/0/documents?limit=500")["rows"]
            longest = max(rows, key=lambda r: r.get("gt_fields") or 0)
            document = f"{longest['packet_id']}/{longest['doc_id']}"
        figures.document = document
        doc_url = f"{url}#/run/0/doc/{document}"
        figures.first = _opened(doc_url, OPENED)
        figures.later = [_opened(doc_url, OPENED) for _ in range(repeat)]
        opened = _json(f"{url}api/runs/0/documents/{document}")
        figures.pages = len(opened["pages"])
        figures.fields = opened.get("fields_total", len(opened.get("fields", [])))
    with serve(run, packets, cache, source) as server:
        figures.restarted = _opened(f"{server.url}#/run/0/doc/{document}", OPENED)
    return figures


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} s ({min(values):.2f}-{max(values):.2f})"


def _opening(found: tuple[float, int]) -> str:
    return f"{found[0]:6.2f} s, {found[1] / 1e6:7.2f} MB fetched"


def report(label: str, figures: Figures) -> list[str]:
    later = [t for t, _ in figures.later]
    return [
        f"[{label}] {figures.total:,} documents in the list",
        f"command to list drawn     {_median(figures.command_to_list)}; target 2 s",
        f"  of which serving after  {_median(figures.serving)}, "
        f"{statistics.median(figures.serving_cpu):.2f} s of CPU",
        f"list drawn (server up)    {_median(figures.listed)}",
        f"filtered list drawn       {_median(figures.filtered)}",
        f"list JSON alone (floor)   {statistics.median(figures.api):6.3f} s",
        f"document {figures.document}: {figures.pages} page(s), {figures.fields:,} fields",
        f"  first opening           {_opening(figures.first)} (index built, page rendered)",
        f"  later openings          {_median(later)}, "
        f"{statistics.median(b for _, b in figures.later) / 1e6:.2f} MB fetched; target 1 s",
        f"  first on a new server   {_opening(figures.restarted)}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--run", type=Path)
    parser.add_argument("--packets", type=Path)
    parser.add_argument("--make", type=int, default=0, help="generate, extract, score N packets")
    parser.add_argument("--document", help="PACKET/DOC to open (default: the longest listed)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another packetbench's src, measured too")
    parser.add_argument("--list-only", action="store_true", help="only the command to the list")
    args = parser.parse_args()
    if args.make:
        run, packets = _make(args.make, Path(tempfile.mkdtemp(prefix="viewer-bench-")))
    elif args.run and args.packets:
        run, packets = args.run, args.packets
    else:
        parser.error("give --run and --packets, or --make N")
    info = json.loads((run / "run.json").read_text())
    documents = sum(len(p["documents"]) for p in info["packets"])
    print(f"run {run}: {documents:,} documents listed in run.json")
    if args.list_only:
        # This checkout and the baseline in turn, each with its own cache (their caches'
        # layouts may differ), so a drift in the machine's speed falls on both alike.
        versions = [("this checkout", None)]
        if args.baseline:
            versions.append((f"baseline {args.baseline}", args.baseline.resolve()))
        found = {name: Figures() for name, _ in versions}
        with tempfile.TemporaryDirectory(prefix="viewer-bench-") as scratch:
            for _ in range(args.repeat):
                for number, (name, source) in enumerate(versions):
                    cache = Path(scratch) / str(number)
                    command_to_list(found[name], run, packets, cache, 1, source)
        for name, only in found.items():
            print(
                f"{name}\n"
                f"  command to list drawn   {_median(only.command_to_list)}; target 2 s\n"
                f"  of which serving after  {_median(only.serving)}, "
                f"{statistics.median(only.serving_cpu):.2f} s of CPU"
            )
        return
    figures = measure(run, packets, args.document, args.repeat, None)
    lines = report("this checkout", figures)
    if args.baseline:
        base = measure(run, packets, figures.document, args.repeat, args.baseline.resolve())
        lines += report(f"baseline {args.baseline}", base)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
