"""Scanned pages: how fast they are made, and how much of them OCR reads back.

    python benchmarks/scan.py [--pages 6] [--recall-seeds 10] [--tier N3] [--mix FOLDER]
                              [--levels L,...] [--first-seed S]

1. Throughput, on one core (CPU time, so a shared machine does not skew it): per scan level,
   scanned pages per second (`scan_page`: pdfium render, geometry, degradation, encode) beside,
   on the same pages in the same run, the minimal work for one scanned page: pdfium rendering
   the page at the level's resolution plus one image encode (JPEG, or PNG for the fax); two
   pages to a sheet (`two_up`) count the pages its sheets hold. The
   issue's target is a ratio of at least 0.5; then the same per capture mode, over its levels
   measured. "judged/s" is the scan as the generator makes
   it (`judged=True`: the legibility rule's clean side drawn too and the image decoded again),
   without the rule's own verdicts. With --mix, the same for the levels in the proportions
   the packets under FOLDER scanned their pages (read from their manifests).
2. OCR (with --recall-seeds N, needs tesseract): packets of N seeds with one scan level forced
   on every PDF of the packet's ACORD 125, SOV and loss run, audited with `--ocr --ocr-mode
   full` (every scanned page read by tesseract after the audit's restoration, so the figure is
   OCR's, not the pixel rule's); per level the share of located values OCR reads inside their
   moved boxes, and anywhere on the page, against the level's minimum (`OCR_RECALL_MIN`), OCR
   pages per second per core, and beside them the naive baseline of the difficulty card
   (tesseract on the whole page at 300 dpi, no restoration) on every page with a value, and
   its careful readers: tesseract after turning, deskewing and evening out the page at 300
   dpi, and PP-OCR at 150 dpi.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from packetbench.generator.packet import build_packet
from packetbench.generator.render import scan, scan_levels, twoup
from packetbench.generator.tiers import resolve

DOCUMENTS = ("acord_125", "sov_pdf", "loss_run_pdf")


def _native(tier: str, seed: int) -> list[bytes]:
    overrides = {"documents": DOCUMENTS, "patterns.off": ("*",)}
    files = build_packet(tier, seed, resolve(tier, overrides)).files
    return [files[f"{doc}.pdf"] for doc in DOCUMENTS if f"{doc}.pdf" in files]


def _cpu(work: Callable[[], None]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def scanned_pages(folder: Path) -> Counter[str]:
    """Pages per scan level in the packets under `folder`, from their manifests."""
    levels: Counter[str] = Counter()
    for manifest in sorted(folder.glob("**/manifest_*.json")):
        for applied in json.loads(manifest.read_text())["patterns_applied"]:
            pages = (applied.get("details") or {}).get("pages")
            if applied["id"].startswith("scan.") and isinstance(pages, dict):
                levels.update(page["level"] for page in pages.values())
    return levels


def throughput(tier: str, pages: int, levels: list[str]) -> dict[str, tuple[float, float]]:
    pdfs = [scan.open_pdf(data) for data in _native(tier, 1)]
    targets = [(pdf, index) for pdf in pdfs for index in range(len(pdf))][:pages]
    print(f"scanned pages per second, one core (CPU time), {len(targets)} {tier} pages")
    print(f"{'level':<14}{'dpi':>5}{'scanned/s':>12}{'minimal/s':>12}{'ratio':>8}{'judged/s':>11}")
    rates: dict[str, tuple[float, float]] = {}
    for name in levels:
        level = scan_levels.LEVELS[name]

        def scanned(level: scan_levels.Level = level, judged: bool = False) -> None:
            if level.up > 1:
                # Two pages to a sheet (`twoup`): the same pages, a sheet per pair of a document.
                for pdf, first in targets:
                    if first % level.up == 0:
                        count = sum(1 for other, _ in targets if other is pdf)
                        pages = list(range(first, min(first + level.up, count)))
                        twoup.scan_sheet(pdf, pages, level, 7, judged=judged)
                return
            for pdf, index in targets:
                scan.scan_page(pdf, index, level, 7, judged=judged)

        def minimal(level: scan_levels.Level = level) -> None:
            for pdf, index in targets:
                page = pdf[index]
                image = page.render(scale=level.dpi / 72, grayscale=True).to_pil().convert("L")
                page.close()
                out = io.BytesIO()
                if level.binarize:
                    image.save(out, "PNG", compress_level=6)
                else:
                    image.save(out, "JPEG", quality=level.quality)

        minimal()  # warm pdfium's caches for both
        made = len(targets) / min(_cpu(scanned) for _ in range(2))
        floor = len(targets) / min(_cpu(minimal) for _ in range(2))
        judged = len(targets) / _cpu(lambda: scanned(judged=True))
        print(
            f"{name:<14}{level.dpi:>5}{made:>12.1f}{floor:>12.1f}{made / floor:>8.2f}"
            f"{judged:>11.1f}"
        )
        rates[name] = (made, floor)
    for pdf in pdfs:
        pdf.close()
    return rates


def mixed(rates: dict[str, tuple[float, float]], levels: Counter[str], label: str = "mix") -> None:
    """The rates of a mix of levels: its pages over the time each level's share takes."""
    total = sum(levels.values())
    made = total / sum(n / rates[level][0] for level, n in levels.items())
    floor = total / sum(n / rates[level][1] for level, n in levels.items())
    shares = ", ".join(f"{level} {n}" for level, n in levels.most_common())
    print(
        f"{label:<14}{'':>5}{made:>12.1f}{floor:>12.1f}{made / floor:>8.2f}"
        f"{'':>11}   ({total} scanned pages: {shares})"
    )


def by_mode(rates: dict[str, tuple[float, float]]) -> None:
    """Each capture mode's rates: its measured levels, a page at each in turn."""
    print("by capture mode (its levels measured above, a page at each in turn)")
    for mode in scan_levels.MODES:
        levels = [name for name in rates if scan_levels.LEVELS[name].mode == mode]
        if levels:
            made = len(levels) / sum(1 / rates[level][0] for level in levels)
            floor = len(levels) / sum(1 / rates[level][1] for level in levels)
            print(
                f"{mode:<16}{made:>15.1f}{floor:>12.1f}{made / floor:>8.2f}"
                f"{'':>11}   ({', '.join(levels)})"
            )


def recall(tier: str, seeds: int, levels: list[str], first: int = 1) -> None:
    from packetbench.audit import audit_packets
    from packetbench.audit.result import OCR_RECALL_MIN
    from packetbench.benchmark.difficulty import difficulty_card
    from packetbench.generator.packet import write_packet

    print(
        f"\nOCR of scanned pages: {seeds} {tier} packets per level (seeds {first}-"
        f"{first + seeds - 1}), documents "
        f"{', '.join(DOCUMENTS)}"
    )
    print(
        f"{'level':<10}{'located':>9}{'in box':>9}{'on page':>9}{'minimum':>9}"
        f"{'pages':>7}{'OCR pages/s/core':>18}{'naive':>8}{'careful 300':>13}{'PP-OCR 150':>12}"
    )
    # The two careful readers (docs/difficulty.md#careful-readers): Tesseract turned,
    # deskewed and evened out at 300 dpi; PP-OCR at 150 dpi.
    careful = ("careful_300", "ppocr_150")
    with tempfile.TemporaryDirectory(prefix="scanbench") as scratch:
        for name in levels:
            root = Path(scratch) / name
            for seed in range(first, first + seeds):
                overrides = {"documents": DOCUMENTS, "patterns.only": (f"scan.{name}",)}
                root.mkdir(parents=True, exist_ok=True)
                write_packet(root, tier, seed, resolve(tier, overrides))
            wall = time.perf_counter()
            result = audit_packets([root], ocr=True, ocr_mode="full")
            wall = time.perf_counter() - wall
            (row,) = difficulty_card([root], ocr_sample=10_000, readers=careful).tiers
            naive = row["ocr_recovered_share"]
            shares = [row[f"{name}_recovered_share"] for name in ("careful_300", "ppocr_150")]
            totals = result.totals()
            tally = totals["scans"].get(name, {}).get("fields")
            if not tally:
                print(f"{name:<10} (no scanned page)")
                continue
            in_box = (tally["found"] - tally["found_outside_box"]) / tally["checked"]
            anywhere = tally["found"] / tally["checked"]
            pages = totals["pdf_pages"]
            cores = max(1, os.cpu_count() or 1)
            # An opt-in level has no minimum of its own: the audit holds it to the strictest.
            least = OCR_RECALL_MIN.get(name)
            shown = f"{least:>9.0%}" if least is not None else f"{'(max)':>9}"
            print(
                f"{name:<10}{tally['checked']:>9}{in_box:>9.1%}{anywhere:>9.1%}"
                f"{shown}{pages:>7}{pages / wall / cores:>18.2f}{naive:>8.1%}"
                + "".join(
                    f"{share:>{width}.1%}" if share is not None else f"{'-':>{width}}"
                    for share, width in zip(shares, (13, 12), strict=True)
                )
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tier", default="N3")
    parser.add_argument("--pages", type=int, default=6, help="pages per level timed (0: none)")
    parser.add_argument("--recall-seeds", type=int, default=0)
    parser.add_argument("--first-seed", type=int, default=1, help="the recall's first seed")
    parser.add_argument("--mix", type=Path, help="packets whose scanned pages weigh the levels")
    parser.add_argument(
        "--levels",
        default=",".join(scan_levels.LEVELS),
        help="the levels to measure (comma-separated)",
    )
    args = parser.parse_args()
    levels = args.levels.split(",")
    unknown = sorted(set(levels) - set(scan_levels.LEVELS))
    if unknown:
        parser.error(
            f"unknown scan level(s) {', '.join(unknown)}; known: {', '.join(scan_levels.LEVELS)}"
        )
    mix = scanned_pages(args.mix) if args.mix else None
    if args.mix and not mix:
        parser.error(f"{args.mix}: no scanned pages in the packets there")
    # A mix is weighed by every level it holds: those are measured too, --levels or not.
    measured = [level for level in scan_levels.LEVELS if level in levels or (mix and level in mix)]
    if args.pages < 0 or (args.pages == 0 and mix):
        parser.error("--pages must be 0 or more (0: no throughput timed; --mix needs 1 or more)")
    if args.pages:
        rates = throughput(args.tier, args.pages, measured)
        by_mode(rates)
        if mix:
            mixed(rates, mix)
    if args.recall_seeds:
        recall(args.tier, args.recall_seeds, levels, args.first_seed)


if __name__ == "__main__":
    main()
