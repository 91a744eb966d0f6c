"""Harness overhead: documents extracted per second against a stub that answers instantly.

    python benchmarks/extract.py [--packets 40] [--concurrency 64] [--provider openai]
                                 [--input native] [--repeat 3]

Generates N1 packets into a temporary folder, starts the provider's stub server in a process
of its own (so the stub's work is not counted against the harness), and times
`benchmark.extract.extract` over every document: reading the document, rendering the prompt,
the real SDK building and sending the request over HTTP on 127.0.0.1, parsing the answer,
validating it against the schema, and writing the record and the request log. The response
cache is off for that figure; a second run answers everything from a warm cache (no HTTP).
The SDK is imported before the clock starts (a one-time cost per process, printed apart).
Each figure is the median of --repeat runs (the range is printed too: on a small shared
machine the stub, the input workers and the harness compete for the same cores).
Target: at least 200 documents/s at concurrency 64. The workbook and CSV conversion (what a
model is sent for them: visible cells only, cached formula values, decoded text) is timed on
its own over the same packets' workbooks and CSV files.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.extract import extract
from packetbench.benchmark.harness.inputs import build_file
from packetbench.benchmark.providers import provider_class
from packetbench.generator.generation import generate

KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY"}
SDKS = {"openai": "openai", "anthropic": "anthropic", "gemini": "google.genai"}


def _timed(
    provider_name: str,
    base_url: str,
    packets: Path,
    run: Path,
    concurrency: int,
    input_mode: str,
    cache: Path | None,
) -> tuple[float, int, dict[str, int]]:
    provider = provider_class(provider_name).from_options(
        {"model": "stub-model", "base_url": base_url, "input": input_mode}
    )
    started = time.perf_counter()
    summary = extract(
        provider,
        packets,
        run,
        options=HarnessOptions(
            concurrency=concurrency, use_cache=cache is not None, cache_dir=cache
        ),
    )
    return time.perf_counter() - started, summary.written, summary.by_status


def _conversion(packets: Path, repeat: int) -> tuple[int, list[float]]:
    """Workbooks and CSV files of `packets`, and the seconds each pass converting them took."""
    files = sorted(p for p in packets.rglob("*") if p.suffix in (".xlsx", ".csv"))
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        for path in files:
            build_file(path, "text")
        times.append(time.perf_counter() - started)
    return len(files), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--packets", type=int, default=40, help="N1 packets (about 22 documents each)"
    )
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--provider", choices=sorted(KEYS), default="openai")
    parser.add_argument("--input", default="native", choices=("native", "text"))
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    os.environ.setdefault(KEYS[args.provider], "benchmark-key-not-secret")
    folder = Path(tempfile.mkdtemp(prefix="pb-bench-extract-"))
    stub = None
    try:
        packets = folder / "packets"
        generate("N1", 5000, args.packets, packets)
        stub = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "packetbench.benchmark.harness.stub",
                "--api",
                args.provider,
                "--packets",
                str(packets),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert stub.stdout is not None
        base_url = stub.stdout.readline().strip()
        converted, conversions = _conversion(packets, args.repeat)
        cache = folder / "cache"
        clock = time.perf_counter()
        importlib.import_module(SDKS[args.provider])
        imported = time.perf_counter() - clock
        colds, warms = [], []
        _timed(
            args.provider, base_url, packets, folder / "fill", args.concurrency, args.input, cache
        )
        for number in range(args.repeat):
            seconds, written, statuses = _timed(
                args.provider,
                base_url,
                packets,
                folder / f"cold{number}",
                args.concurrency,
                args.input,
                None,
            )
            colds.append(seconds)
            warms.append(
                _timed(
                    args.provider,
                    base_url,
                    packets,
                    folder / f"warm{number}",
                    args.concurrency,
                    args.input,
                    cache,
                )[0]
            )
    finally:
        if stub is not None:
            stub.communicate(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"provider {args.provider} (real SDK) against its stub, input {args.input}, "
        f"concurrency {args.concurrency}"
    )
    print(f"documents: {written} in {args.packets} N1 packets; statuses {statuses}")
    print(f"SDK import (once per process, not timed below): {imported:.2f} s")
    middle = statistics.median(conversions)
    print(
        f"workbook and CSV conversion: {converted} files in {middle:.2f} s -> "
        f"{converted / middle:,.0f} files/s (median of {len(conversions)})"
    )
    for label, times in (("over HTTP, no cache", colds), ("from a warm cache (no HTTP)", warms)):
        middle = statistics.median(times)
        print(
            f"{label}: {middle:.2f} s -> {written / middle:,.0f} documents/s (median of "
            f"{len(times)}; {written / max(times):,.0f}-{written / min(times):,.0f})"
        )


if __name__ == "__main__":
    main()
