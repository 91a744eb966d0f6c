"""Reading the reference corpus as it is published: its packets, documents and cohorts.

Layout (facts of the corpus, read, never assumed beyond these names):

    packets/<tier>_<name>/doc_<seed>/documents/<doc_type>_<seed>.<pdf|xlsx|csv>
    packets/<tier>_<name>/doc_<seed>/ground_truth/{field_truth,manifest,rendered_universe}_<doc>.json
    ground_truth/<tier>_<name>_<seed>.json        the packet's documents, keyed by document
    schemas/<schema>.schema.json                  its 26 extraction schemas
    results/<cohort>/extraction_<packet>_<doc>.json and run_summary.json
    results_aggregate/hallucination_report.json, field_breakdown.json   its published figures
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput

# Which of its schemas each non-ACORD document type was extracted with (an ACORD form has the
# schema of its own name); a fact of the corpus's extraction runs.
SCHEMA_OF_TYPE = {
    "sov": "sov",
    "sov_excel": "sov",
    "loss_run": "loss_run",
    "loss_run_excel": "loss_run",
    "loss_run_csv": "loss_run",
    "engineering_report": "engineering_report",
    "dec_page": "dec_page",
    "driver_schedule": "driver_schedule",
    "driver_schedule_excel": "driver_schedule",
    "financial_statement": "financial_statement",
    "financial_statement_excel": "financial_statement",
    "broker_narrative": "narrative",
    "supplemental_app": "narrative",
    "supplemental_app_trucking": "narrative",
    "policy_form": "narrative",
    "hybrid_workbook": "narrative",
    "supplemental_schedule_excel": "narrative",
    "experience_mod": "narrative",
    "experience_mod_excel": "narrative",
}
# Cohort folder -> (model, reasoning effort); the three efforts of five models.
_EFFORT = re.compile(r"^(?P<model>.+?)(?:_(?P<effort>high|xhigh))?$")
MODEL_NAMES = {
    "gpt55": "gpt-5.5",
    "gpt54": "gpt-5.4",
    "opus47": "claude-opus-4-7",
    "sonnet": "claude-sonnet-4-6",
    "gemini_pro": "gemini-3.1-pro",
}
PROVIDERS = {
    "gpt55": "openai",
    "gpt54": "openai",
    "opus47": "anthropic",
    "sonnet": "anthropic",
    "gemini_pro": "gemini",
}


def schema_of(doc_type: str) -> str | None:
    return doc_type if doc_type.startswith("acord_") else SCHEMA_OF_TYPE.get(doc_type)


@dataclass(frozen=True)
class CorpusDoc:
    doc_id: str  # the corpus's document key (acord_125, sov_excel, ...)
    doc_type: str
    category: str
    file: Path
    truth_dir: Path

    @property
    def format(self) -> str:
        return self.file.suffix.lstrip(".")

    def truth_file(self, kind: str) -> Path:
        return self.truth_dir / f"{kind}_{self.doc_id}.json"


@dataclass(frozen=True)
class CorpusPacket:
    name: str  # its packet id: N1_easy_70001
    tier: str  # N1
    seed: int
    folder: Path  # packets/N1_easy/doc_70001
    documents: tuple[CorpusDoc, ...]

    @property
    def packet_id(self) -> str:
        """Our packet id, "<tier>-<seed>" (docs/design.md §4)."""
        return f"{self.tier}-{self.seed:06d}"


@dataclass(frozen=True)
class Cohort:
    name: str  # folder name: gpt55_high
    folder: Path

    @property
    def base(self) -> str:
        found = _EFFORT.match(self.name)
        return found.group("model") if found else self.name

    @property
    def effort(self) -> str:
        found = _EFFORT.match(self.name)
        return (found.group("effort") if found else None) or "default"


@dataclass(frozen=True)
class Corpus:
    root: Path
    packets: tuple[CorpusPacket, ...]
    cohorts: tuple[Cohort, ...]
    # With `partial`: what was left out (one line each), and the published outputs that are
    # no JSON (truncated, damaged), imported as no record rather than as a model's error.
    skipped: tuple[str, ...] = ()
    damaged: frozenset[Path] = frozenset()

    @property
    def commit(self) -> str | None:
        """The corpus's published commit (its COMMIT file), when it names one."""
        try:
            return safe_read.read_text(self.root / "COMMIT", "settings").strip() or None
        except (OSError, UnicodeDecodeError):
            return None

    def schema_path(self, schema: str) -> Path:
        return self.root / "schemas" / f"{schema}.schema.json"

    def aggregate(self, name: str) -> Any:
        return read_json(self.root / "results_aggregate" / name)


def read_json(path: Path, kind: str = "truth") -> Any:
    """A JSON file of the corpus, read as untrusted input (`safe_read`: a regular file
    within its ceiling, nested at most MAX_DEPTH deep); BadInput naming it otherwise."""
    try:
        return safe_read.load_json(path, kind)
    except FileNotFoundError:
        raise BadInput(f"{path}: missing") from None
    except (OSError, ValueError) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None


# The kind of each file of the corpus the import reads, by where it is and what it ends in.
def _kind(path: Path, root: Path) -> str | None:
    parts = path.relative_to(root).parts
    if parts[0] == "schemas":
        return "schema"
    if parts[0] == "results":
        return "record" if path.suffix == ".json" else None
    if path.suffix == ".json":
        return "truth"
    if parts[0] == "packets" and "documents" in parts:
        return safe_read.document_kind(path)
    return "settings" if path.name == "COMMIT" else None


def check_files(root: Path) -> None:
    """Every file of the corpus the import may read is a regular file (a link to one is
    followed) within the ceiling of its kind: a FIFO, a device (a link to /dev/zero) or a
    file past its ceiling is refused, naming it, before anything is read or written."""
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            path = Path(folder) / name
            kind = _kind(path, root)
            if kind is None:
                continue
            try:
                safe_read.check_file(path, kind)
            except FileNotFoundError:
                raise BadInput(f"{path}: a link to nothing") from None
            except OSError as error:
                raise BadInput(f"{path}: unreadable ({error.strerror})") from None


def _packet(root: Path, gt_file: Path) -> CorpusPacket:
    data = read_json(gt_file)
    try:
        name, difficulty = str(data["packet_id"]), str(data["difficulty"])
        seed = int(data["seed"])
        entries = data["documents"]
    except (KeyError, TypeError, ValueError) as error:
        raise BadInput(f"{gt_file}: not a packet ground truth ({error})") from None
    # The corpus is untrusted input: its names become folder and file names of ours.
    ids.check(difficulty, "difficulty", gt_file)
    folder = root / "packets" / difficulty / f"doc_{seed}"
    if not folder.is_dir():
        raise BadInput(f"{folder}: missing (the packet {name} lists it)")
    docs = []
    for doc_id, entry in entries.items():
        ids.check(doc_id, "a documents key", gt_file)
        doc_type = ids.check(str(entry.get("doc_type") or doc_id), f"{doc_id}.doc_type", gt_file)
        found = sorted((folder / "documents").glob(f"{doc_id}_{seed}.*"))
        if len(found) != 1:
            raise BadInput(f"{folder / 'documents'}: no single file for document {doc_id}")
        docs.append(
            CorpusDoc(
                doc_id,
                doc_type,
                str(entry.get("category") or ""),
                found[0],
                folder / "ground_truth",
            )
        )
    return CorpusPacket(name, difficulty.split("_", 1)[0], seed, folder, tuple(docs))


def _unlisted(root: Path, packets: tuple[CorpusPacket, ...], partial: bool) -> list[str]:
    """Packet folders no ground-truth file lists: BadInput naming the missing file, or
    (with `partial`) one line each of what is skipped."""
    listed = {p.folder.resolve() for p in packets}
    skipped = []
    for folder in sorted((root / "packets").glob("*/doc_*")):
        if not folder.is_dir() or folder.resolve() in listed:
            continue
        seed = folder.name.removeprefix("doc_")
        missing = root / "ground_truth" / f"{folder.parent.name}_{seed}.json"
        if not partial:
            raise BadInput(
                f"{missing}: missing (the packet {folder.parent.name}/{folder.name} has no "
                "ground truth); import the other packets with --partial"
            )
        skipped.append(f"packet {folder.parent.name}/{folder.name} (no {missing.name})")
    return skipped


def _damaged(root: Path, cohorts: tuple[Cohort, ...], partial: bool) -> dict[Path, str]:
    """Published outputs that are no JSON (the corpus writes parsed outputs, so such a file
    is truncated or damaged, not a model's answer): BadInput naming the first, or (with
    `partial`) each with what is skipped."""
    found: dict[Path, str] = {}
    for cohort in cohorts:
        for path in sorted(cohort.folder.glob("extraction_*.json")):
            try:
                safe_read.parse_json(safe_read.read_bytes(path, "record"))
            except ValueError as error:  # not UTF-8, not JSON, or nested too deep
                why = getattr(error, "msg", None) or str(error).splitlines()[0][:100]
                if not partial:
                    raise BadInput(
                        f"{path}: not JSON ({why}): a truncated or damaged published output; "
                        "import without it with --partial"
                    ) from None
                found[path] = f"{path.relative_to(root)} (not JSON: {why})"
            except OSError as error:
                raise BadInput(f"{path}: unreadable ({error.strerror})") from None
    return found


def read_corpus(root: Path, partial: bool = False) -> Corpus:
    """The corpus at `root`; BadInput naming what is missing when it is not one, or a
    packet without ground truth, or a published output that is not JSON (unless
    `partial`: then they are skipped and listed in `Corpus.skipped`)."""
    gt_dir = root / "ground_truth"
    if not gt_dir.is_dir() or not (root / "schemas").is_dir():
        raise BadInput(f"{root}: not the reference corpus (no ground_truth/ and schemas/)")
    check_files(root)
    files = sorted(f for f in gt_dir.glob("*.json") if not f.name.endswith("_summary.json"))
    packets = tuple(_packet(root, f) for f in files)
    results = root / "results"
    cohorts = (
        tuple(
            Cohort(ids.check(d.name, "cohort folder", results), d)
            for d in sorted(results.iterdir())
            if d.is_dir() and any(d.glob("extraction_*.json"))
        )
        if results.is_dir()
        else ()
    )
    skipped = _unlisted(root, packets, partial)
    damaged = _damaged(root, cohorts, partial)
    return Corpus(
        root, packets, cohorts, tuple(skipped + list(damaged.values())), frozenset(damaged)
    )
