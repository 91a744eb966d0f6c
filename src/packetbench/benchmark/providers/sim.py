"""`sim`: the simulated extractor. It is a simulator, not a model, and says so everywhere.

It reads each document's truth and writes the record a real provider would, with seeded
errors of every kind the scorer knows (see `benchmark.sim.engine`), and it writes
`sim_injections.json` into the run: the ledger of what it injected and of what the scorer must
therefore count, so tests can check the scorer recovers every injected count exactly.

A document of a foreign schema (an imported corpus's ``nightmare/acord_125``) is extracted the
same way through its namespace (`truth.namespaces`): its truth is projected onto the
schema's document model, the engine answers on the model, and the answer is emitted back in
the schema's own shapes, so the record is an instance of that schema. The ledger's paths are
the scorer's, those of the model (``forms_attached[0].item`` for the schema's
``forms_attached[0]``).
"""

from __future__ import annotations

import hashlib
import random
import tempfile
import weakref
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import orjson

from packetbench.benchmark.delivery import below_resolution, decide, withheld
from packetbench.benchmark.grounding.citations import Citation, convert, page_sizes
from packetbench.benchmark.grounding.confidences import convert as convert_confidences
from packetbench.benchmark.grounding.places import truth_places
from packetbench.benchmark.grounding.schema import citation_info, confidence_info
from packetbench.benchmark.providers.api import INPUT_MODES, check_cite
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.records import ExtractionRecord, Status, Usage
from packetbench.benchmark.score.field_view import compare
from packetbench.benchmark.score.rates import CLASSES, UNIVERSES
from packetbench.benchmark.score.stale import stale_values
from packetbench.benchmark.score.verdicts import GUESSES
from packetbench.benchmark.sim.citing import CITING, Citer
from packetbench.benchmark.sim.confiding import DEFAULT_CALIBRATION, confide, expected, tally
from packetbench.benchmark.sim.engine import Engine, PoolKey
from packetbench.benchmark.sim.profiles import PROFILES, Profile
from packetbench.core.errors import UsageError
from packetbench.core.jsonfile import compact_length, dump_json_streamed
from packetbench.core.leaves import DocModel, LeafShape, ListShape, ObjectShape, fields_of, set_path
from packetbench.core.seeds import MAX_SEED
from packetbench.core.writing import write_atomic
from packetbench.truth import namespaces, normalize
from packetbench.truth import universe as universes
from packetbench.truth.packets import DocInfo, Packet, PacketFiles

LABEL = "SIMULATED EXTRACTOR - not a model; seeded errors for testing the pipeline"
LEDGER = "sim_injections.json"
BELOW = "below_resolution"  # the ledger's account of the fields below the delivered resolution


def _truth_leaves(
    model: type[DocModel],
    data: Any,
    prefix: str = "",
) -> list[tuple[str, Any, LeafShape]]:
    found: list[tuple[str, Any, LeafShape]] = []
    for name, shape in fields_of(model):
        value = data.get(name) if isinstance(data, dict) else None
        where = f"{prefix}.{name}" if prefix else name
        if isinstance(shape, LeafShape):
            found.append((where, value, shape))
        elif isinstance(shape, ObjectShape):
            found += _truth_leaves(shape.model, value, where)
        elif isinstance(shape, ListShape):
            for index, item in enumerate(value or []):
                found += _truth_leaves(shape.item.model, item, f"{where}[{index}]")
    return found


def _seed(*parts: object) -> int:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _invalidate(model: type[DocModel], output: dict[str, Any]) -> str:
    """Break the schema the way a loose model does: a money amount written as text, or (with
    no money leaf) an extra key, one the schema lacks. Returns what was broken."""
    for path, value, shape in _truth_leaves(model, output):
        if shape.leaf.kind == "money" and isinstance(value, int | float):
            set_path(output, path, f"${value:,.2f}")
            return f"{path} written as text"
    key = "notes"
    while key in model.model_fields:
        key = f"extra_{key}"
    output[key] = "values transcribed from the attached document"
    return f"extra key {key}"


def _illegible(choices: list[dict[str, Any]]) -> dict[str, Any]:
    """The ledger's account of illegible fields: how many, each outcome's count (abstained
    and the three guesses), and every choice (path, outcome, the value written)."""
    outcomes = Counter(c["outcome"] for c in choices)
    return {
        "fields": len(choices),
        **{o: outcomes[o] for o in ("abstained", *GUESSES)},
        "choices": choices,
    }


class SimProvider(Provider):
    name = "sim"
    simulator = True

    def __init__(
        self,
        profile: str = "typical",
        seed: int = 0,
        cite: str | None = None,
        confidence: bool = False,
        calibration: float = DEFAULT_CALIBRATION,
        input_mode: str = "native",
        dpi: int | None = None,
        delivered_dpi: int | None = None,
    ) -> None:
        if profile not in PROFILES:
            raise UsageError(f"unknown sim profile {profile!r}; choose {', '.join(PROFILES)}")
        if not 0 <= seed <= MAX_SEED:
            raise UsageError(f"the sim seed must be between 0 and {MAX_SEED} (got {seed})")
        check_cite(cite)
        if cite == "native":
            raise UsageError(
                "--cite native: the simulator has no document citations of its own; "
                "--cite page simulates page citations"
            )
        if not 0.0 <= calibration <= 1.0:
            raise UsageError(f"--sim-calibration must be between 0 and 1 (got {calibration})")
        if input_mode not in INPUT_MODES:
            raise UsageError(f"unknown input {input_mode!r}; choose {', '.join(INPUT_MODES)}")
        # What the pages show as delivered: a value below the resolution is read as an
        # illegible one is (docs/resolution.md), so the ledger counts what the scorer will.
        self.delivery = decide(self.name, None, input_mode, dpi, delivered_dpi)
        self.profile: Profile = PROFILES[profile]
        self.seed = seed
        self.cite = cite
        self.confidence = confidence
        self.calibration = calibration
        self.found: universes.PacketUniverses | None = None
        self.files: PacketFiles | None = None  # of the packet being extracted (prepare)
        self.ledger = Ledger()

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> SimProvider:
        from packetbench.benchmark.providers.api import check_sampling

        check_sampling(cls.name, options.get("sampling") or {}, {})  # it samples nothing
        return cls(
            profile=options.get("profile", "typical"),
            seed=options.get("seed", 0),
            cite=options.get("cite"),
            confidence=bool(options.get("confidence")),
            calibration=float(
                DEFAULT_CALIBRATION
                if options.get("calibration") is None
                else options["calibration"]
            ),
            input_mode=options.get("input") or "native",
            dpi=options.get("dpi"),
            delivered_dpi=options.get("delivered_dpi"),
        )

    def describe(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "model": f"sim-{self.profile.name}",
            "simulator": True,
            "label": LABEL,
            "parameters": {"profile": self.profile.name, "seed": self.seed},
            "pattern_factors": dict(self.profile.pattern_factors),
        }
        if self.cite:  # only when asked for: a run without it records what it always did
            info["parameters"]["cite"] = self.cite
            info["citations"] = {
                **citation_info(self.cite),
                "sim": CITING[self.profile.name].describe(),
            }
        if self.confidence:
            info["parameters"]["confidence"] = True
            info["parameters"]["calibration"] = self.calibration
            info["confidences"] = confidence_info() | {"sim": {"calibration": self.calibration}}
        delivery = self.delivery
        if delivery.input != "native" or delivery.source == "override":
            # only then: a run of the file as it is records what it always did
            info["parameters"]["input"] = delivery.input
            if delivery.dpi is not None:
                info["parameters"]["dpi"] = delivery.dpi
            info["delivery"] = delivery.describe()
        return info

    def check(self, packet: Packet) -> None:
        # The simulator answers from the truth files: each must be whole before the run
        # starts (read and dropped: a run of many packets holds one packet's files at a time),
        # and each document's schema must be known.
        files = packet.files()
        for doc in packet.documents:
            namespaces.resolve(doc.schema, packet.path)
            files.document_truth(doc.doc_id)
            files.field_truth(doc.doc_id)
            files.rendered_universe(doc.doc_id)

    def prepare(self, packet: Packet) -> None:
        self.files = packet.files()  # the packet's files, read once for its documents
        self.found = universes.build(packet.path, self.files)

    def _files(self, packet: Packet) -> PacketFiles:
        """The files of `packet`: those `prepare` read, when it is the packet prepared."""
        if self.files is None or self.files.folder != packet.path:
            self.files = packet.files()
        return self.files

    def extract(self, packet: Packet, doc: DocInfo) -> ExtractionRecord | None:
        assert self.found is not None, "prepare() runs before extract()"
        key = f"{packet.packet_id}/{doc.doc_id}"
        rng = random.Random(_seed(self.seed, self.profile.name, packet.packet_id, doc.doc_id))
        roll = rng.random()
        profile = self.profile
        if roll < profile.missing:
            self.ledger.put(key, {"status": "missing"})
            return None
        if roll < profile.missing + profile.error:
            self.ledger.put(key, {"status": "error"})
            return self._record(packet, doc, "error", None, "simulated provider failure")
        scored = namespaces.resolve(doc.schema, packet.path)
        model = scored.model
        below = below_resolution(
            self._files(packet).field_truth(doc.doc_id)["fields"], self.delivery
        )
        truth = withheld(scored.project(self._files(packet).truth(doc.doc_id)), below)
        foreign = namespaces.split(doc.schema)[0] != namespaces.DEFAULT
        engine = self._engine(packet, doc, model, truth, rng, scored.required, foreign, below)
        output = engine.record(model, truth, "", None)
        if roll < profile.missing + profile.error + profile.invalid:
            broken = _invalidate(model, output)
            self.ledger.put(key, {"status": "invalid", "broken": broken})
            return self._record(packet, doc, "ok", scored.emit(output), None)
        citations = self._cite(packet, doc, model, truth, output)
        expected = engine.expected
        injected = Counter(i["kind"] for i in engine.injections)
        entry: dict[str, Any] = {
            "status": "ok",
            "field": expected.counts.as_dict(),
            "grounding": {
                u: {
                    c: {
                        "checked": expected.grounding.checked[c],
                        "hallucinated": expected.grounding.hallucinated[(u, c)],
                    }
                    for c in CLASSES
                }
                for u in UNIVERSES
            },
            "verdicts": dict(sorted(expected.verdicts.items())),
            "injected": dict(sorted(injected.items())),
            "injections": engine.injections,
        }
        # Only documents with such fields: others' entries stay as they were.
        unread = [g for g in engine.guesses if g["path"] not in below]
        if unread:
            entry["illegible"] = _illegible(unread)
        unseen = [g for g in engine.guesses if g["path"] in below]
        if unseen:
            entry[BELOW] = _illegible(unseen)
        record = self._record(packet, doc, "ok", scored.emit(output), None)
        if citations is not None:
            entry["citations"], record.citations = citations
        if self.confidence:
            sure = random.Random(
                _seed(self.seed, self.profile.name, packet.packet_id, doc.doc_id, "confidence")
            )
            entries, entry["confidences"] = confide(
                compare(model, truth, output).claims, self.calibration, sure
            )
            record.confidences = convert_confidences(entries)
        self.ledger.put(key, entry)
        return record

    def _cite(
        self,
        packet: Packet,
        doc: DocInfo,
        model: type[DocModel],
        truth: dict[str, Any],
        output: dict[str, Any],
    ) -> tuple[dict[str, Any], list[Citation]] | None:
        """The ledger entry and the record's citations of a cited run (None otherwise). Its
        draws come from a generator of their own, so a run's values are the same with and
        without --cite."""
        if self.cite is None:
            return None
        rng = random.Random(
            _seed(self.seed, self.profile.name, packet.packet_id, doc.doc_id, "cite")
        )
        file = packet.path / doc.file
        citer = Citer(
            CITING[self.profile.name],
            self.cite,
            doc.format,
            page_sizes(file) if doc.format == "pdf" else [],
            truth_places(packet.path, doc.doc_id, self._files(packet).field_truth(doc.doc_id)),
            rng,
        )
        citer.cite(compare(model, truth, output).claims)
        entry = {
            "verdicts": dict(sorted(citer.verdicts.items())),
            "supported": dict(sorted(citer.supported.items())),
            "choices": citer.choices,
        }
        return entry, convert(citer.evidence, doc.format, self.cite, file)

    def _engine(
        self,
        packet: Packet,
        doc: DocInfo,
        model: type[DocModel],
        truth: dict[str, Any],
        rng: random.Random,
        required: frozenset[str],
        foreign: bool,
        below: dict[str, Any],
    ) -> Engine:
        assert self.found is not None
        pools: dict[PoolKey, list[Any]] = {}
        tokens: set[str] = set()
        for _, value, shape in _truth_leaves(model, truth):
            if value is None:
                continue
            code_list = shape.leaf.codes.name if shape.leaf.codes else None
            pool = pools.setdefault((shape.leaf.kind, shape.json_type, code_list), [])
            if value not in pool:
                pool.append(value)
            if isinstance(value, str):
                tokens.update(normalize.tokens(value))
        stale = stale_values(packet, doc, model, truth, self._files(packet))
        return Engine(
            self.profile,
            rng,
            self.found.packet,
            self.found.documents[doc.doc_id],
            pools,
            sorted(tokens),
            stale,
            self._files(packet).touched(doc.doc_id),
            # A value below the delivered resolution is guessed at as an illegible one is.
            {**self.found.illegible.get(doc.doc_id, {}), **below},
            required,
            foreign=foreign,
            below=frozenset(below),
        )

    @staticmethod
    def _record(
        packet: Packet,
        doc: DocInfo,
        status: Status,
        output: dict[str, Any] | None,
        error: str | None,
        citations: list[Citation] | None = None,
    ) -> ExtractionRecord:
        return ExtractionRecord(
            packet_id=packet.packet_id,
            doc_id=doc.doc_id,
            doc_type=doc.doc_type,
            status=status,
            output=output,
            raw_text=orjson.dumps(output).decode() if output is not None else None,
            attempts=1,
            latency_s=0.0,
            usage=Usage(),
            finish_reason="stop" if output else None,
            error=error,
            citations=citations,
        )

    def schema_broken(self) -> int:
        return len(self.ledger.excluded["invalid"])

    def finish(self, run: Path) -> None:
        ledger = self.ledger
        overall: dict[str, Any] = {
            "field": dict(ledger.field),
            "injected": dict(sorted((+ledger.injected).items())),
            **(
                {
                    "citations": {
                        part: dict(sorted((+counts).items()))
                        for part, counts in ledger.citations.items()
                    }
                }
                if self.cite
                else {}
            ),
            **({"confidences": expected(ledger.confidences)} if self.confidence else {}),
            **({"illegible": _illegible(ledger.guesses())} if ledger.choices else {}),
            **({BELOW: _illegible(ledger.guesses(BELOW))} if ledger.below else {}),
            "excluded": {s: sorted(keys) for s, keys in ledger.excluded.items()},
        }
        head = {
            "simulator": True,
            "label": LABEL,
            "profile": self.profile.name,
            "seed": self.seed,
            "pattern_factors": dict(self.profile.pattern_factors),
            "overall": overall,
        }
        try:
            write_atomic(
                run / LEDGER,
                dump_json_streamed(head, "documents", ledger.documents, ledger.length()),
            )
        finally:
            ledger.close()


class Ledger:
    """The simulator's ledger, an entry a document, kept on disk as the run goes: a corpus's
    ledger is hundreds of megabytes (240 for 1,000 hard packets), so only where each entry
    lies and the sums the ledger's overview needs stay in memory, and the file is written
    an entry at a time, in document order."""

    def __init__(self) -> None:
        self._spill: IO[bytes] | None = None
        self._index: dict[str, tuple[int, int]] = {}
        self.excluded: dict[str, list[str]] = {"missing": [], "error": [], "invalid": []}
        self.field: dict[str, int] = {}
        self.injected: Counter[str] = Counter()
        self.citations: dict[str, Counter[str]] = {"verdicts": Counter(), "supported": Counter()}
        self.confidences: Counter[tuple[float, bool]] = Counter()
        self.choices: dict[str, list[dict[str, Any]]] = {}  # illegible fields' choices
        self.below: dict[str, list[dict[str, Any]]] = {}  # those below the resolution

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Add a document's entry (once: a document is extracted once in a run)."""
        if key in self._index:
            raise ValueError(f"{key}: a document's ledger entry is written once")
        if self._spill is None:
            self._spill = tempfile.TemporaryFile(prefix="packetbench-sim-ledger-")  # noqa: SIM115
            # closed by `finish`, or with the ledger when a run stops before it
            weakref.finalize(self, self._spill.close)
        data = orjson.dumps(entry)
        offset = self._spill.seek(0, 2)
        self._spill.write(data)
        self._index[key] = (offset, len(data))
        status = entry["status"]
        if status in self.excluded:
            self.excluded[status].append(key)
            return
        for name, count in entry["field"].items():
            self.field[name] = self.field.get(name, 0) + count
        self.injected.update(entry["injected"])
        if "citations" in entry:
            for part, counts in self.citations.items():
                counts.update(entry["citations"][part])
        if "confidences" in entry:
            tally(entry["confidences"], self.confidences)
        if "illegible" in entry:
            self.choices[key] = entry["illegible"]["choices"]
        if BELOW in entry:
            self.below[key] = entry[BELOW]["choices"]

    def guesses(self, part: str = "illegible") -> list[dict[str, Any]]:
        """Every illegible field's choice (`part` BELOW: every field's below the delivered
        resolution), in document order."""
        found = self.below if part == BELOW else self.choices
        return [choice for key in sorted(found) for choice in found[key]]

    def length(self) -> int:
        """The compact length of the documents' object (`jsonfile.compact_length`)."""
        return compact_length((key, size) for key, (_, size) in self._index.items())

    def documents(self) -> Iterator[tuple[str, Any]]:
        """(key, entry) of every document, in key order, read back one at a time."""
        for key in sorted(self._index):
            yield key, self[key]

    def __getitem__(self, key: str) -> Any:
        """A document's entry, read back."""
        offset, size = self._index[key]
        assert self._spill is not None, "the ledger is written and closed"
        self._spill.seek(offset)
        return orjson.loads(self._spill.read(size))

    def close(self) -> None:
        if self._spill is not None:
            self._spill.close()
            self._spill = None
