"""`packetbench run`: the whole benchmark in one call, into one folder.

    OUT/packets/            generate: the tiers asked for (default: the canonical N1..N5, seed 1)
    OUT/audit.json          audit: every ground-truth value read back from its page
    OUT/runs/<name>/        extract (default: sim, the SIMULATED extractor) and score
    OUT/report/             report.md and report.html

Each stage calls the library function its own command calls. Generation, the audit and
scoring run packets as tasks of one executor (`--executor local`: worker processes;
`--executor ray`: a Ray cluster). A failed audit stops the run before extraction: scores
against unproven truth would be worthless. A listener is told when each stage starts, advances
and ends, so a command can show progress.

`resume` continues a run that was stopped (killed, out of money, a crash): generation keeps
every complete packet and writes the others again (`generate --resume`), the audit runs
again, extraction requests only the documents without a record (`extract --resume`; the
simulator makes its run again), and scoring and the report are done again. OUT/pipeline.json
records what the run was asked for; a run resumed with other packets or another extractor
is refused before anything is touched.
"""

from __future__ import annotations

import json
import shutil
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from packetbench.benchmark.config import ExtractionConfig
from packetbench.core.codes import TIERS
from packetbench.core.errors import UsageError
from packetbench.core.locking import LOCK_NAME, hold
from packetbench.core.seeds import check_seeds

if TYPE_CHECKING:
    from packetbench.audit.sample import SampleSize

DEFAULT_OUT = Path("packetbench-run")
PIPELINE = "pipeline.json"  # what the run was asked for, checked by --resume
# What `run` writes in its folder. --force removes the packets, the audit, pipeline.json and
# the report's own files; under runs/ it replaces only the run this command makes (as
# `extract --force` does), never another run beside it (a paid API run).
OWNED = ("packets", "runs", "report", "audit.json", PIPELINE)
REPORT_FILES = ("report.md", "report.html")


class Listener(Protocol):
    def start(self, stage: str, total: int | None) -> None: ...
    def advance(self, stage: str, completed: int) -> None: ...
    # `summary` is one line, or several when a stage has more to say (the audit: what it
    # did not check, and how to check it)
    def finish(self, stage: str, summary: str, seconds: float) -> None: ...


@dataclass(frozen=True)
class Options:
    out: Path = DEFAULT_OUT
    tiers: tuple[str, ...] = TIERS
    count: int = 1
    seed: int = 1
    # who extracts, how, which documents, how many times (extract's options, as extract
    # takes them)
    extraction: ExtractionConfig = field(default_factory=ExtractionConfig)
    jobs: int = 1
    force: bool = False
    executor: str = "local"  # where generate, audit and score run: local or ray
    ray_address: str | None = None
    # Packets the audit reads: None = every one up to RUN_SAMPLE_ABOVE, a sample above it.
    audit_sample: SampleSize | None = None
    resume: bool = False  # continue a stopped run in `out` where each stage stopped
    overrides: dict[str, Any] = field(default_factory=dict)  # tier knobs (generate --set)
    ocr: bool = False  # the audit OCRs pages without a usable text layer (audit --ocr)
    # Of the audited packets, those OCR reads: None = all up to OCR_SAMPLE, a sample above it.
    ocr_sample: SampleSize | None = None
    # Generate and audit, then print what extraction would request and cost; send nothing.
    dry_run: bool = False

    def asked(self) -> dict[str, Any]:
        """What decides the run's packets and records (OUT/pipeline.json): a resumed run
        must ask for the same. Workers, executor, concurrency and --max-cost may change."""
        config = self.extraction
        return {
            "tiers": list(self.tiers),
            "count": self.count,
            "seed": self.seed,
            "provider": config.provider,
            "profile": config.profile,
            "sim_seed": config.sim_seed,
            "model": config.api.model,
            "reasoning": config.api.reasoning,
            "input": config.api.input_mode,
            "base_url": config.api.base_url,
            # Only when asked: a run without citations asks what it asked before --cite.
            **({"cite": config.cite} if config.cite is not None else {}),
            **(
                {"confidence": True, "sim_calibration": config.sim_calibration}
                if config.confidence
                else {}
            ),
            # Tier knobs as JSON reads them back (lists, not tuples); None when none are set,
            # as a run recorded before --set existed reads.
            "selection": config.selection.describe(),
            "sampling": config.api.sampling or None,
            "set": json.loads(json.dumps(self.overrides)) if self.overrides else None,
            # Only when asked: a run of one extraction asks what it asked before --repeats.
            **({"repeats": config.repeats} if config.repeats != 1 else {}),
        }


@dataclass
class Outcome:
    packets: Path
    run: Path
    report: Path | None = None
    audit_ok: bool = True
    stopped: str | None = None  # why the run stopped before its report (the audit aside)
    stages: dict[str, float] = field(default_factory=dict)
    documents: int = 0  # --dry-run: the documents extraction would read
    estimate: Any = None  # --dry-run: what it would request and cost (an API provider's DryRun)
    headline: dict[str, Any] = field(default_factory=dict)
    grounding: dict[str, Any] = field(default_factory=dict)  # a cited run's rates (micro)
    spread: dict[str, Any] = field(default_factory=dict)  # --repeats: between the repeats


def _resumable(options: Options) -> None:
    """UsageError unless `options.out` holds a run `run` made that asked for what `options`
    ask for (its pipeline.json)."""
    out = options.out
    record = out / PIPELINE
    if not record.is_file():
        raise UsageError(f"{out}: no run to continue (no {PIPELINE}); start it without --resume")
    from packetbench.core.packet_files import read_json

    before = read_json(record, "run")
    asked = options.asked()
    differing = [k for k in asked if not isinstance(before, dict) or before.get(k) != asked[k]]
    if differing:
        was = before.get(differing[0]) if isinstance(before, dict) else None
        raise UsageError(
            f"{out}: cannot continue a run that asked for other {differing[0]} ({was!r}, now "
            f"{asked[differing[0]]!r}); use a new --out, or --force to start over"
        )


def _prepare(options: Options) -> None:
    out = options.out
    check_seeds(options.seed, options.count)
    if options.jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {options.jobs})")
    if options.resume and options.force:
        raise UsageError("--resume continues the run and --force starts it over; choose one")
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    present = [name for name in OWNED if (out / name).exists()]
    held = sorted(p.name for p in out.iterdir() if p.name != LOCK_NAME) if out.is_dir() else []
    if held and not present:
        raise UsageError(
            f"{out}: not a folder packetbench run made (it holds {held[0]}); "
            "write the run into a new or empty folder"
        )
    if options.resume:
        _resumable(options)
        return
    if present and not options.force:
        raise UsageError(
            f"{out}: already holds a benchmark run ({present[0]}); use --force to replace it, "
            "or --resume to continue it"
        )
    for name in ("packets", "audit.json", PIPELINE):
        target = out / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
    for name in REPORT_FILES:
        (out / "report" / name).unlink(missing_ok=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{out}: cannot create the folder ({error.strerror})") from None
    from packetbench.core.writing import write_json

    write_json(out / PIPELINE, options.asked())


def _watch(folder: Path, stage: str, listener: Listener) -> Callable[[], None]:
    """Report how many files are under `folder` while a stage that has no callback runs."""
    stop = threading.Event()

    def poll() -> None:
        while not stop.wait(0.1):
            listener.advance(stage, sum(1 for _ in folder.rglob("*.json")))

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()

    def done() -> None:
        stop.set()
        thread.join()

    return done


def _offset(listener: Listener, stage: str, before: int) -> Callable[[int], None]:
    """A progress callback that counts on from `before` (a stage run once per repeat)."""
    return lambda completed: listener.advance(stage, before + completed)


def _timed(
    stage: str, listener: Listener, outcome: Outcome, total: int | None, work: Callable[[], str]
) -> None:
    listener.start(stage, total)
    began = time.perf_counter()
    summary = work()
    seconds = time.perf_counter() - began
    outcome.stages[stage] = seconds
    listener.finish(stage, summary, seconds)


def run_pipeline(options: Options, listener: Listener) -> Outcome:
    """Generate, audit, extract, score and report into `options.out`."""
    config = options.extraction
    config.check()  # an unknown provider, a bad count: before any work
    provider = config.make_provider()
    if config.batch:
        from packetbench.benchmark.providers.batch import BatchProvider

        if not isinstance(provider, BatchProvider):
            from packetbench.benchmark.providers import batch_providers, listed

            raise UsageError(
                f"--batch is for providers with a batch API ({listed(batch_providers(), False)}); "
                f"{config.provider} has none"
            )
    from packetbench.benchmark.providers.api import ApiProvider

    if isinstance(provider, ApiProvider) and not options.dry_run:
        provider.api_key()  # a missing key fails now, before any packet is generated
    from packetbench.core.executors import make_executor
    from packetbench.generator.tiers import resolve

    for tier in options.tiers:  # bad knobs are refused before the folder is touched
        resolve(tier, options.overrides or None)
    runner = make_executor(options.executor, options.jobs, options.ray_address)
    if options.out.exists() and not options.out.is_dir():
        raise UsageError(f"{options.out}: exists and is not a folder")
    # The run's folder is held from the first check to the report: a second `run` into it is
    # refused, naming this one, instead of mixing its results with this run's.
    with hold(options.out):
        return _run(options, listener, runner)


def _run(options: Options, listener: Listener, runner: Any) -> Outcome:
    _prepare(options)
    config = options.extraction
    packets = options.out / "packets"
    run = options.out / "runs" / config.run_name()
    outcome = Outcome(packets, run)

    def generate() -> str:
        from packetbench.generator.corpus import read
        from packetbench.generator.generation import generate as write_packets

        made: list[Any] = []
        written: list[Any] = []

        def tick(summary: Any) -> None:
            written.append(summary)
            listener.advance("generate", len(written))

        for tier in options.tiers:
            made += write_packets(
                tier,
                options.seed,
                options.count,
                packets,
                executor=runner,
                on_done=tick,
                resume=options.resume,
                overrides=options.overrides or None,
            )
        kept = sum(1 for s in made if s.kept)
        return (
            f"{len(made):,} packets, {sum(s.documents for s in made):,} documents, "
            f"{sum(s.pdf_pages for s in made):,} PDF pages"
            + (f" ({kept:,} complete before, kept)" if kept else "")
            + f"; corpus digest {read(packets).digest[:12]}"
        )

    _timed("generate", listener, outcome, len(options.tiers) * options.count, generate)
    folders = sorted(p for p in packets.iterdir() if (p / "packet_truth.json").is_file())

    def audit() -> str:
        from packetbench.audit import audit_packets
        from packetbench.audit.result import FAILED, PASSED
        from packetbench.audit.sample import ocr_default, run_default
        from packetbench.core.writing import write_json

        done: list[Any] = []

        def audited(packet: Any) -> None:
            done.append(packet.packet_id)
            listener.advance("audit", len(done))

        size = options.audit_sample or run_default(len(folders))
        result = audit_packets(
            folders,
            ocr=options.ocr,
            on_packet=audited,
            executor=runner,
            sample=size,
            ocr_sample=options.ocr_sample or ocr_default(size.of(len(folders))),
        )
        write_json(options.out / "audit.json", result.to_json())
        # Values only OCR can read (scanned pages) are not checked here: the run needs no
        # tesseract. They are counted, never called found; anything else failing stops it.
        outcome.audit_ok = result.status != FAILED
        totals = result.totals()
        found = (
            f"{totals['fields_found']:,} of {totals['fields_checked']:,} located values "
            f"and {totals['strings_found']:,} of {totals['strings_checked']:,} visible "
            "strings found"
        )
        if result.sample is not None:
            bound = max(b.upper for b in result.bounds if b.problem != "not_checked")
            found = (
                f"a seeded sample of {len(result.sample.drawn):,} of "
                f"{result.sample.population:,} packets (every packet: --audit-sample all, or "
                f"packetbench audit --packets {packets}); at most {bound:.2%} of the corpus's "
                f"packets have any one kind of finding (95 % bound; per kind in audit.json); "
                f"{found}"
            )
        if result.ocr_sample is not None:
            bound = max(b.upper for b in result.ocr_bounds)
            found += (
                f"; OCR read a seeded sample of {len(result.ocr_sample.drawn):,} of the "
                f"{result.ocr_sample.population:,} audited packets (--ocr-sample; at most "
                f"{bound:.2%} of them have any one kind of finding, 95 % bound)"
            )
        if not outcome.audit_ok:
            return f"FAILED: {found}; see {options.out / 'audit.json'}"
        if result.status == PASSED:
            return f"passed: {found}"
        # Not verified: what was checked passed, and what was not is said on lines of its
        # own, each with the command that checks it (never "passed" for values no reader
        # read; `audit` says it the same way).
        lines = [f"passed: {found}"]
        if totals["fields_not_checked"] or totals["strings_not_checked"]:
            lines.append(
                f"not checked: {totals['fields_not_checked']:,} located values and "
                f"{totals['strings_not_checked']:,} visible strings on pages only OCR reads "
                f"(scans, ink, attacked text); to check them: packetbench audit --ocr "
                f"--packets {packets}"
            )
        refuted = [
            f"{packet.packet_id}: {packet.calibration_problem()}"
            for packet in result.packets
            if packet.calibration_problem()
        ]
        if refuted:
            lines.append(
                f"not checked: the pixel rule's verdicts, which its calibration does not prove "
                f"({'; '.join(refuted)}); to check them: packetbench audit --ocr --ocr-mode "
                f"full --packets {packets}"
            )
        return "\n".join(lines)

    _timed("audit", listener, outcome, len(folders), audit)
    if not outcome.audit_ok:
        return outcome
    from packetbench.truth.packets import find_packets

    chosen = config.selection.apply(find_packets(packets), str(packets))
    documents = sum(len(packet.documents) for packet in chosen)
    if options.dry_run:
        outcome.documents = documents
        from packetbench.benchmark.extraction import estimate_run

        outcome.estimate = estimate_run(config, packets, run)
        return outcome

    def extract() -> str:
        from packetbench.benchmark.extraction import extract_run
        from packetbench.benchmark.runs import is_run

        stop = _watch(
            run / ("extractions" if config.repeats == 1 else "repeats"), "extract", listener
        )
        try:
            # Continued where its records stop when the run was started before (its run.json
            # is written before the first request); otherwise started, as a new run.
            summary = extract_run(
                config, packets, run, force=options.force, resume=options.resume and is_run(run)
            )
        finally:
            stop()
        statuses = ", ".join(f"{n:,} {s}" for s, n in summary.statuses.items()) or "none"
        label = " (SIMULATED extractor, not a model)" if config.simulator else ""
        stopped = (
            f"; --max-cost reached, {summary.not_started} not requested (continue with "
            f"packetbench extract --resume --out {run})"
            if summary.stopped == "max-cost"
            else ""
        )
        if summary.ok == 0:
            outcome.stopped = (
                f"no document was extracted ok ({statuses}), so there is nothing "
                f"to score; each record in {run / 'extractions'} says why"
            )
        return (
            f"{summary.written:,} of {summary.documents:,} documents [{statuses}] by "
            f"{config.make_provider().describe().get('model', config.provider)}{label}{stopped}"
        )

    _timed("extract", listener, outcome, documents * config.repeats, extract)
    if outcome.stopped:
        return outcome

    def score() -> str:
        from packetbench.benchmark.report.spread import write_spread
        from packetbench.benchmark.results import load_run
        from packetbench.benchmark.runs import repeat_runs
        from packetbench.benchmark.score.scorer import score_run

        repeats = repeat_runs(run)
        scored = claims = excluded = 0
        with hold(run):  # as `packetbench score` holds it
            for number, target in enumerate(repeats or [run]):
                with hold(target):
                    result = score_run(
                        target,
                        packets,
                        executor=runner,
                        on_packet=_offset(listener, "score", number * len(folders)),
                    )
                    load_run(target, packets)
                scored += result.documents
                claims += result.claims
                excluded += len(result.missing) + len(result.errors) + len(result.invalid)
            if repeats:
                outcome.spread = write_spread(run, repeats)
        return f"{scored:,} documents scored, {claims:,} claims, {excluded:,} excluded" + (
            f" ({len(repeats)} repeats; spread in {run / 'scores' / 'repeats.json'})"
            if repeats
            else ""
        )

    _timed("score", listener, outcome, len(folders) * config.repeats, score)

    def report() -> str:
        from packetbench.benchmark.report.render import write_report
        from packetbench.benchmark.results.query import open_runs
        from packetbench.benchmark.runs import expand

        files = write_report([run], options.out / "report", force=options.resume)
        outcome.report = files.html
        # A repeated run's rates are the means of its repeats' (one run: its own).
        with open_runs(expand([run])[0]) as opened:
            outcome.headline = _means(opened.metric("headline"))
            outcome.grounding = _means(opened.metric("grounding"))
        return f"{files.markdown} and {files.html}"

    _timed("report", listener, outcome, None, report)
    return outcome


def _means(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """metric -> the mean of the runs' micro rates (None where no run has one)."""
    found: dict[str, list[float]] = {}
    for row in rows:
        values = found.setdefault(row["metric"], [])
        if row["micro"] is not None:
            values.append(row["micro"])
    return {metric: statistics.mean(v) if v else None for metric, v in found.items()}
