"""How fast `packetbench view` shows a large run, measured in headless Chromium.

    python benchmarks/viewer.py --run RUN --packets DIR      # a scored run you have
    python benchmarks/viewer.py --make 1000                  # N1 packets, sim, score first

Starts the real command (`packetbench view RUN --port 0`) and prints: how long it takes to
serve (it checks every file of the run as `score` does), the time from opening the run's
page to its document list drawn (the target: under 2 s), the same after a filter, the JSON
answer of the list alone (the DuckDB query behind it: the floor), and the time to open the
longest document with its first page image loaded and every box drawn, cold (pages rendered)
and warm (from the page cache), beside its page count. Medians of --repeat openings.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.chromium import open_page  # noqa: E402

LIST = "document.querySelectorAll('#document-list tr[data-document]').length > 0"


def _make(count: int, folder: Path) -> tuple[Path, Path]:
    packets, run = folder / "corpus", folder / "runs" / "sim"
    cli = str(Path(sys.executable).with_name("packetbench"))
    for args in (
        ["generate", "--tier", "N1", "--count", str(count), "--out", str(packets), "--jobs", "2"],
        ["extract", "--provider", "sim", "--packets", str(packets), "--out", str(run)],
        ["score", str(run), "--packets", str(packets), "--jobs", "2"],
    ):
        subprocess.run([cli, *args], check=True, stdout=subprocess.DEVNULL)
    return run, packets


def _opened(url: str, ready: str) -> float:
    """Seconds from navigation start to `ready` being true in a fresh browser."""
    with open_page(url, 1400, 900) as page:
        page.wait_until(ready, timeout=120)
        return float(page.evaluate("performance.now()")) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path)
    parser.add_argument("--packets", type=Path)
    parser.add_argument("--make", type=int, default=0, help="generate, extract, score N packets")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="viewer-bench-"))
    if args.make:
        run, packets = _make(args.make, scratch)
    elif args.run and args.packets:
        run, packets = args.run, args.packets
    else:
        parser.error("give --run and --packets, or --make N")
    info = json.loads((run / "run.json").read_text())
    documents = sum(len(p["documents"]) for p in info["packets"])
    started = time.perf_counter()
    process = subprocess.Popen(
        [
            *(str(Path(sys.executable).with_name("packetbench")), "view", str(run)),
            *("--packets", str(packets), "--port", "0", "--cache", str(scratch / "pages")),
        ],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        serving = time.perf_counter() - started
        url = line.split()[3]
        api = []
        for _ in range(args.repeat):
            begun = time.perf_counter()
            with urllib.request.urlopen(url + "api/runs/0/documents?limit=100") as answer:
                total = json.loads(answer.read())["total"]
            api.append(time.perf_counter() - begun)
        listed = [_opened(url + "#/run/0", LIST) for _ in range(args.repeat)]
        filtered = [_opened(url + "#/run/0?verdict=hallucinated", LIST) for _ in range(args.repeat)]
        with urllib.request.urlopen(url + "api/runs/0/documents?limit=500") as answer:
            rows = json.loads(answer.read())["rows"]
        longest = max(rows, key=lambda r: r.get("gt_fields") or 0)
        doc_url = f"{url}#/run/0/doc/{longest['packet_id']}/{longest['doc_id']}"
        drawn = (
            "(() => { const img = document.querySelector('.page img');"
            " return document.querySelectorAll('#fields tr[data-path]').length > 0"
            " && (!img || (img.complete && img.naturalWidth > 0)); })()"
        )
        cold = _opened(doc_url, drawn)
        warm = [_opened(doc_url, drawn) for _ in range(args.repeat)]
        with urllib.request.urlopen(
            f"{url}api/runs/0/documents/{longest['packet_id']}/{longest['doc_id']}"
        ) as answer:
            opened = json.loads(answer.read())
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    print(f"run {run}: {documents:,} documents listed in run.json, {total:,} in the list")
    print(f"serving after            {serving:6.2f} s (every file checked as `score` checks it)")
    print(
        f"document list drawn      {statistics.median(listed):6.2f} s median "
        f"({min(listed):.2f}-{max(listed):.2f}); target 2 s"
    )
    print(f"filtered list drawn      {statistics.median(filtered):6.2f} s median")
    print(f"list JSON alone (floor)  {statistics.median(api):6.3f} s median")
    print(
        f"longest document ({longest['packet_id']}/{longest['doc_id']}, "
        f"{len(opened['pages'])} page(s), {len(opened['fields']):,} fields): "
        f"{cold:.2f} s cold (pages rendered), {statistics.median(warm):.2f} s warm"
    )


if __name__ == "__main__":
    main()
