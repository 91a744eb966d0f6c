"""`packetbench audit`: read every ground-truth value back from its rendered page."""

from __future__ import annotations

import json
import shlex
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from packetbench.cli import _options as _o

if TYPE_CHECKING:
    from packetbench.audit.result import AuditResult, Finding
    from packetbench.audit.sample import Bound, Sample

FIRST_FINDINGS = 10  # findings shown in the human report (all of them are in --json)
NOT_VERIFIED_EXIT = 3  # nothing wrong, something not checked: neither 0 (passed) nor 1 (wrong)


def audit(
    packets: _o.PacketFolders = None,
    ocr: Annotated[
        bool,
        typer.Option(
            "--ocr",
            help="OCR the pages whose text layer is missing or unreliable "
            "(needs the tesseract binary).",
        ),
    ] = False,
    ocr_mode: Annotated[
        str,
        typer.Option(
            metavar="pixel|full",
            help="With --ocr: pixel judges each scanned page's boxes against the page drawn "
            "clean (rebuilt from the packet's seed) and OCRs only what that leaves, plus a "
            "seeded sample that calibrates it; full OCRs every such page.",
        ),
    ] = "pixel",
    json_output: Annotated[
        bool,
        typer.Option("--json", help="Print the result as JSON for scripts, nothing else."),
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            help="Packets audited at once (worker processes, or "
            "CPUs of the Ray instance started for the run)."
        ),
    ] = 1,
    executor: Annotated[str, typer.Option(help="local (worker processes) or ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="--executor ray: 'auto' or HOST:PORT of a running cluster.")
    ] = None,
    sample: Annotated[
        str,
        typer.Option(
            metavar="N|P%|all",
            help="Audit a seeded random sample of the packets (N packets, or P% of them, "
            "stratified by tier) and bound each finding's rate in the whole corpus; "
            "all: every packet.",
        ),
    ] = "all",
    sample_seed: Annotated[
        int, typer.Option(min=0, help="Seed of the --sample draw (same seed, same sample).")
    ] = 0,
    include: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PACKET_ID",
            help="Audit this packet as well as the sample (repeatable); not counted in the bound.",
        ),
    ] = None,
    ocr_sample: Annotated[
        str,
        typer.Option(
            metavar="N|P%|all|auto",
            help="With --ocr: OCR a seeded sample of the audited packets (N, or P%, stratified "
            "by tier; drawn with --sample-seed) and bound each finding's rate among them; the "
            "others are audited without OCR. auto: all up to 100 packets, else 100 "
            "(no finding: under 3 % at 95 %).",
        ),
    ] = "all",
) -> None:
    """Prove that every ground-truth value is on a rendered page.

    Reads every located value back (PDF text layer, workbook cell, CSV cell; OCR with --ocr).

    Checks every visible string against its page, and the universe for leaks and untraced values.

    With --sample, audits a seeded sample of the packets and prints, per finding kind, the
    upper 95 % bound on the share of the corpus's packets that have it. With --ocr-sample, every
    audited packet's text layer, workbooks and CSV are read, and OCR reads a seeded sample.

    Exit 0 when everything is found; 1 when anything is wrong (a value missing, a leak, a
    file that is not its manifest's...); 3 when nothing is wrong but values on pages without a
    usable text layer (scans, ink, attacked text) were not verified (run with --ocr); 2 when
    an input is unreadable.
    """
    # The readers (pdfium, openpyxl, numpy) load only when this command runs.
    from packetbench.audit import audit_packets
    from packetbench.audit.result import FAILED, NOT_VERIFIED
    from packetbench.audit.sample import corpus, draw, ocr_default, parse_sample
    from packetbench.core.errors import UsageError
    from packetbench.core.executors import make_executor
    from packetbench.core.progress import bar

    packet_dirs = _o.packet_folders("audit", packets)
    size = parse_sample(sample)
    if ocr_sample != "all" and not ocr:
        raise UsageError("--ocr-sample reads a sample with OCR: give --ocr too")
    runner = make_executor(executor, jobs, ray_address)
    found = corpus(packet_dirs)
    total = len(draw(found, size, sample_seed, include or []).folders)
    ocr_size = (
        ocr_default(total) if ocr_sample == "auto" else parse_sample(ocr_sample, "--ocr-sample")
    )
    with bar("audit", "packets", total=total, disable=json_output) as advance:
        result = audit_packets(
            packet_dirs,
            ocr=ocr,
            on_packet=lambda _: advance(None),
            executor=None if executor == "local" and jobs == 1 else runner,
            sample=size,
            sample_seed=sample_seed,
            include=include or [],
            ocr_mode=ocr_mode,
            ocr_sample=ocr_size,
        )
    if json_output:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        _report(result, " ".join(f"--packets {shlex.quote(str(p))}" for p in packet_dirs))
    if result.status == FAILED:
        raise typer.Exit(1)
    if result.status == NOT_VERIFIED:
        raise typer.Exit(NOT_VERIFIED_EXIT)


def _count(checked: int, found: int) -> tuple[str, str, str]:
    missing = checked - found
    return f"{checked:,}", f"{found:,}", f"[red]{missing:,}[/]" if missing else "0"


def _report(result: AuditResult, packets: str) -> None:
    """The audit as a person reads it; `packets` is its --packets options, for the commands
    that check what it did not."""
    from packetbench.audit.result import (
        NOT_CHECKED,
        NOT_VERIFIED,
        PASSED,
        READERS,
        Tally,
    )

    console = Console(width=None if sys.stdout.isatty() else 160, highlight=False)
    table = Table(title="Read back, by document and reader", title_justify="left")
    for name in ("packet", "document", "reader", "pages"):
        table.add_column(name, justify="right" if name == "pages" else "left")
    for name in ("located", "found", "missing", "strings", "found", "missing", "not checked"):
        table.add_column(name, justify="right")
    for packet in result.packets:
        for doc in packet.documents:
            readers = sorted(set(doc.fields) | set(doc.strings), key=READERS.index)
            not_checked = sum(doc.not_checked.values())
            for reader in readers or [doc.format]:
                fields, strings = doc.fields.get(reader), doc.strings.get(reader)
                table.add_row(
                    packet.packet_id,
                    doc.doc_id,
                    reader,
                    str(doc.pages),
                    *_count(fields.checked if fields else 0, fields.found if fields else 0),
                    *_count(strings.checked if strings else 0, strings.found if strings else 0),
                    f"[yellow]{not_checked:,}[/]"
                    if not_checked and reader not in ("ocr", "pixel")
                    else "",
                )
        table.add_section()
    console.print(table)
    ocr = [doc for packet in result.packets for doc in packet.documents if "ocr" in doc.fields]
    if ocr:
        fields = sum((doc.fields["ocr"] for doc in ocr), Tally())
        strings = sum((doc.strings["ocr"] for doc in ocr if "ocr" in doc.strings), Tally())
        console.print(
            f"OCR: {fields.found - fields.by_page:,} of {fields.checked:,} located values read "
            f"inside their box, {fields.by_page:,} only elsewhere on the page; "
            f"{strings.found:,} of {strings.checked:,} visible strings found",
            soft_wrap=True,
        )
    pixels = result.pixels()
    if pixels is not None:
        agreement = pixels.agreement
        low, high = agreement.interval()
        calibration = (
            f"OCR agreed on {agreement.agreed:,} of {agreement.boxes:,} boxes of "
            f"{pixels.pages_sampled:,} page(s) read whole (95 % interval "
            f"{low * 100:.1f}-{high * 100:.1f} %)"
            if agreement.boxes
            else f"none of {pixels.pages_sampled:,} page(s) read whole held a box to compare"
        )
        console.print(
            f"Pixels: {pixels.boxes['intact']:,} located values on {pixels.pages:,} scanned "
            f"page(s) verified against their clean selves, {pixels.boxes['damaged']:,} not as "
            f"drawn, {pixels.boxes['undecided']:,} left to OCR; calibration: {calibration}",
            soft_wrap=True,
        )
        if pixels.rungs_checked or pixels.resolutions:
            sent = "; ".join(
                f"at {dpi} dpi {a.intact_read:,} of {a.intact_read + a.intact_unread:,} legible "
                f"there and {a.damaged_read:,} of {a.damaged_read + a.damaged_unread:,} below it"
                for dpi, a in sorted(pixels.resolutions.items())
            )
            console.print(
                f"Resolutions: {pixels.rungs_checked:,} values' rungs (the lowest delivered "
                f"resolution each is legible from) decided again on their pages' pixels"
                + (f"; OCR of the calibration pages as sent read {sent}" if sent else ""),
                soft_wrap=True,
            )
        for packet in result.packets:
            problem = packet.calibration_problem()
            if problem:
                console.print(
                    f"[yellow]not verified[/]: {packet.packet_id}: {problem}", soft_wrap=True
                )

    totals = result.totals()
    if totals["illegible_boxes_confirmed"]:
        console.print(
            f"Illegible: {totals['illegible_boxes_confirmed']:,} box(es) the generator judged "
            f"illegible confirmed unreadable by OCR, the only locations of "
            f"{totals['illegible_values_confirmed']:,} value(s) whose truth is null",
            soft_wrap=True,
        )

    universe = Table(title="Universe", title_justify="left")
    for name in (
        "packet",
        "strings",
        "tokens",
        "numbers",
        "ids",
        "dates",
        "forbidden",
        "coincidences",
        "skipped keys",
    ):
        universe.add_column(name, justify="left" if name in ("packet", "skipped keys") else "right")
    for packet in result.packets:
        size = packet.universe
        skipped = ", ".join(f"{k} {v:,}" for k, v in sorted(packet.skipped_keys.items()))
        universe.add_row(
            packet.packet_id,
            *(f"{size.get(k, 0):,}" for k in ("strings", "tokens", "numbers", "ids", "dates")),
            f"{packet.forbidden:,}",
            str(len(packet.coincidences)),
            skipped,
        )
    console.print(universe)

    # Outside an OCR sample, the values only OCR reads are not checked by design.
    findings = [
        finding
        for packet in result.packets
        for finding in packet.all_findings()
        if not (finding.problem == NOT_CHECKED and result.ocr_sample and not packet.ocr)
    ]
    if findings:
        # One unwrapped line per finding, so a path can be read (and grepped) whole.
        console.print(
            f"First {min(len(findings), FIRST_FINDINGS)} of {len(findings)} "
            "finding(s) (all of them with --json):",
            soft_wrap=True,
        )
        packet_of = {id(f): p.packet_id for p in result.packets for f in p.all_findings()}
        for finding in findings[:FIRST_FINDINGS]:
            console.print(_line(packet_of[id(finding)], finding), soft_wrap=True, markup=False)
    if result.sample is not None:
        _bounds(console, result.sample, result.bounds, "--sample", "the corpus's packets")
    if result.ocr_sample is not None:
        _bounds(
            console,
            result.ocr_sample,
            result.ocr_bounds,
            "--ocr-sample",
            "the audited packets, read by OCR,",
        )
    scope = (
        f"{totals['packets']} packet(s), {totals['documents']} documents, "
        f"{totals['pdf_pages']} PDF pages"
    )
    found = (
        f"{totals['fields_found']:,} located values and {totals['strings_found']:,} visible "
        "strings found"
    )
    if result.sample is not None:
        scope += f" (a sample of the corpus's {result.sample.population:,} packets)"
    if result.ocr_sample is not None:
        scope += (
            f"; OCR read {len(result.ocr_sample.folders):,} of them, the others' "
            f"{totals['fields_not_checked']:,} located values on pages only OCR reads are "
            "covered by the bound above"
        )
    if result.status == PASSED:
        console.print(f"[green]audit passed[/]: {found} in {scope}")
    elif result.status == NOT_VERIFIED:
        # What was read passed, what was not is named with the command that reads it, and
        # the verdict comes last, in words that say neither "passed" nor "failed" alone.
        console.print(f"audit passed for what it read: {found} in {scope}", soft_wrap=True)
        if totals["fields_not_checked"] or totals["strings_not_checked"]:
            documents = totals["findings"][NOT_CHECKED]
            console.print(
                f"not checked: {totals['fields_not_checked']:,} located values and "
                f"{totals['strings_not_checked']:,} visible strings in {documents} document(s), "
                "on pages only OCR reads (scans, ink, attacked text); to check them: "
                f"packetbench audit --ocr {packets}",
                soft_wrap=True,
                markup=False,
            )
        if any(p.calibration_problem() for p in result.packets):
            console.print(
                "not checked: the pixel rule's verdicts, which its calibration does not prove "
                f"(above); to check them: packetbench audit --ocr --ocr-mode full {packets}",
                soft_wrap=True,
                markup=False,
            )
        console.print(
            f"[yellow]audit not verified[/] (exit {NOT_VERIFIED_EXIT}): nothing is wrong, but "
            "not everything was checked",
            soft_wrap=True,
        )
    else:
        problems = ", ".join(
            f"{count:,} {problem.replace('_', ' ')}"
            for problem, count in totals["findings"].items()
            if count
        )
        console.print(f"[red]audit FAILED[/]: {problems} in {scope}")


def _bounds(console: Console, sample: Sample, bounds: list[Bound], option: str, whole: str) -> None:
    """The sample drawn (by `option`), and per finding kind the bound on its rate in `whole`."""
    tiers = ", ".join(
        f"{tier} {drawn} of {total:,}" for tier, (drawn, total) in sorted(sample.by_tier.items())
    )
    forced = [p.name for p in sample.forced if p not in sample.drawn]
    console.print(
        f"{option.lstrip('-')}: {len(sample.drawn):,} of {sample.population:,} packets drawn "
        f"at random ({option} {sample.size.describe()}, seed {sample.seed}; by tier: {tiers})"
        + (f", and {', '.join(forced)} included (not counted in the bound)" if forced else ""),
        soft_wrap=True,
        markup=False,
    )
    table = Table(
        title=f"Upper 95 % bound on the share of {whole} with each finding",
        title_justify="left",
    )
    for name in ("finding", "packets with it", "of sampled", "upper bound", "rule"):
        table.add_column(name, justify="left" if name in ("finding", "rule") else "right")
    for bound in bounds:
        table.add_row(
            bound.problem,
            f"{bound.packets:,}",
            f"{bound.sampled:,}",
            f"{bound.upper:.2%}",
            "3/n (rule of three)" if bound.packets == 0 else "Clopper-Pearson",
        )
    console.print(table)


def _line(packet_id: str, finding: Finding) -> str:
    """One finding: problem, packet/file, entry path, where, and what was read."""
    where = "  ".join(part for part in (finding.path, finding.where) if part)
    if finding.problem == "missing":
        what = f"expected {finding.expected!r}, read {finding.got!r}"
    elif finding.problem == "string_missing":
        what = f"{finding.expected!r} is not in the page's {finding.reader} text"
    elif finding.problem == "unaccounted":
        what = finding.got
    elif finding.problem == "value_mismatch":
        what = f"value {finding.got!r}, drawn as {finding.expected!r}"
    elif finding.got:
        what = repr(finding.got)
    else:
        what = ""
    said = "; ".join(part for part in (what, finding.detail) if part)
    return f"  {finding.problem:<15} {packet_id}/{finding.file}  {where}: {said}"


def register(app: typer.Typer) -> None:
    app.command("audit", short_help="Read every truth value back from the rendered files.")(audit)
