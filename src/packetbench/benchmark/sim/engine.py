"""The simulated extractor's engine: copy the truth, inject seeded errors, and write down what
the scorer must conclude about each one.

The output is built by walking the document truth through its model. Every injection is
chosen so its score follows from how it was made: a value copied from the document is
grounded in the document; a fabricated value is drawn until the packet universe lacks it; a
reformatted value equals the truth under normalization. The expectations (field counts,
grounding tallies, verdicts) are the ledger the scorer is tested against.

Two rules keep record alignment predictable: key leaves are only ever reformatted, and a
record of a list without a key gets at most one changed leaf.

An illegible field (its value damaged past reading, docs/patterns.md rule 3b) is left empty or
guessed (`Profile.guess`): the destroyed value, another value of its kind the document shows,
or a fabricated one; a guess changes no leaf alignment reads (the truth there is null), and an
illegible key leaf is always left empty. Every choice is in `guesses`, the ledger's account
of the illegible fields. A value below the run's delivered resolution (`below`,
docs/resolution.md) is answered as an illegible one, except in a list record the scorer pairs
by agreement (no unique key) or one that shows nothing at all: there it is left empty, since a
guess could agree with another record's value and pair the record with that one.

A leaf whose schema admits no null (`required`: only a foreign schema has them, such as the
reference corpus's checkbox records) is never left empty: an omission or a move drawn for it
keeps its value, and a record is invented only when every such leaf of it gets one.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from packetbench.benchmark.score.align import flat_leaves, record_key
from packetbench.benchmark.score.field_view import FieldCounts
from packetbench.benchmark.score.rates import GroundingTally
from packetbench.benchmark.score.verdicts import GUESSES, grounded
from packetbench.benchmark.sim import values
from packetbench.benchmark.sim.profiles import Profile
from packetbench.core.leaves import DocModel, LeafShape, ListShape, ObjectShape, fields_of
from packetbench.truth import normalize
from packetbench.truth.packets import Touched
from packetbench.truth.universe import Universe

# Drawn per populated leaf by cumulative rate; "stale" is drawn on its own, and only for
# leaves whose superseded version differs.
LEAF_OPS = ("omit", "wrong_in", "wrong_out", "composed", "overreach", "moved", "reformat")
PoolKey = tuple[str, str, str | None]  # kind, json type, code list


def _json_type(value: Any) -> str:
    return (
        "integer"
        if isinstance(value, int) and not isinstance(value, bool)
        else ("number" if isinstance(value, float) else "string")
    )


def _code_list(shape: LeafShape) -> str | None:
    return shape.leaf.codes.name if shape.leaf.codes else None


def _populated(model: type[DocModel], record: dict[str, Any]) -> int:
    """The populated leaves the scorer's agreement counts (benchmark.score.align)."""
    return sum(1 for _, value, _ in flat_leaves(model, record) if value is not None)


@dataclass
class Expected:
    counts: FieldCounts = field(default_factory=FieldCounts)
    grounding: GroundingTally = field(default_factory=GroundingTally)
    verdicts: Counter[str] = field(default_factory=Counter)


@dataclass
class Engine:
    profile: Profile
    rng: random.Random
    packet: Universe  # the packet universe
    document: Universe  # this document's universe
    pools: dict[PoolKey, list[Any]]  # values this document shows, by kind
    tokens: list[str]  # tokens of the string values this document shows
    stale: dict[str, Any]  # path -> the superseded version's value
    touched: Touched = field(default_factory=lambda: Touched({}))  # patterns per path
    illegible: dict[str, Any] = field(default_factory=dict)  # path -> the destroyed value
    required: frozenset[str] = frozenset()  # leaf patterns (indices erased) never left null
    # A foreign schema's document (an imported corpus's): its truth holds what the page shows
    # ("BHG-2023-039582¹"), so a respelling that normalization does not equate with it is not
    # written. Off for packetbench's own schemas, whose runs stay as they were.
    foreign: bool = False
    expected: Expected = field(default_factory=Expected)
    injections: list[dict[str, Any]] = field(default_factory=list)
    guesses: list[dict[str, Any]] = field(default_factory=list)  # one per illegible field
    below: frozenset[str] = frozenset()  # paths below the delivered resolution (in illegible)
    # Inside a list record whose truth holds nothing (every value unseen): answered empty, the
    # scorer pairs it with its truth record only so (benchmark.score.align).
    blank: bool = False
    agreeing: bool = False  # inside a list record the scorer pairs by agreement

    # --- expectations -------------------------------------------------------------------------

    def _claim(self, value: Any, kind: str, verdict: str, in_doc: bool, in_packet: bool) -> None:
        checked = normalize.is_checked(value, kind)
        self.expected.grounding.add(kind in normalize.NUMERIC_KINDS, checked, in_packet, in_doc)
        self.expected.verdicts[verdict] += 1

    def _note(self, kind: str, path: str, **detail: Any) -> None:
        self.injections.append({"kind": kind, "path": path, **detail})

    # --- records ------------------------------------------------------------------------------

    def record(
        self, model: type[DocModel], truth: dict[str, Any], path: str, budget: int | None
    ) -> dict[str, Any]:
        """The output for one matched truth record (or object); `budget` caps changed leaves
        (None: no cap)."""
        out: dict[str, Any] = {}
        shapes = fields_of(model)
        keys = set(model.record_key)
        leaf_names = [n for n, s in shapes if isinstance(s, LeafShape)]
        moved_into: set[str] = set()
        ops: dict[str, str] = {}
        for name in leaf_names:
            if truth.get(name) is not None and name not in keys:
                ops[name] = self._draw_op(f"{path}.{name}" if path else name)
        for name, shape in shapes:
            where = f"{path}.{name}" if path else name
            value = truth.get(name)
            if isinstance(shape, LeafShape):
                if name in moved_into:
                    continue
                spent = self._leaf(
                    model,
                    shapes,
                    name,
                    shape,
                    value,
                    where,
                    ops.get(name),
                    name in keys,
                    truth,
                    out,
                    moved_into,
                    budget,
                )
                if budget is not None:
                    budget -= spent
            elif isinstance(shape, ObjectShape):
                # A keyless record's budget is spent on its own leaves only.
                out[name] = self.record(
                    shape.model, value or {}, where, None if budget is None else 0
                )
            else:
                out[name] = self.items(shape, value or [], where)
        return {name: out.get(name) for name, _ in shapes}

    def factor(self, path: str) -> float:
        """How much more error-prone `path` is for the patterns that touched it."""
        factors = self.profile.pattern_factors
        if not factors:
            return 1.0
        return max(
            (factors.get(p.split(".", 1)[0], 1.0) for p in self.touched.of(path)), default=1.0
        )

    def _draw_op(self, path: str) -> str:
        rates = [getattr(self.profile, op) for op in LEAF_OPS]
        factor = self.factor(path)
        if factor != 1.0:
            # Scaled, but never past certainty: at most 95 % of leaves go wrong.
            factor = min(factor, 0.95 / sum(rates)) if sum(rates) else factor
            rates = [rate * factor for rate in rates]
        roll = self.rng.random()
        for op, rate in zip(LEAF_OPS, rates, strict=True):
            if roll < rate:
                return op
            roll -= rate
        return "none"

    def items(self, shape: ListShape, truths: list[dict[str, Any]], path: str) -> list[Any]:
        item = shape.item.model
        # The scorer pairs a record by its key when the key is there and unique in the list;
        # any other record it pairs by agreement (at least half its leaves), so that one may
        # change a single leaf and still be the same record (benchmark.score.align).
        keys = [record_key(item, truth) for truth in truths]
        unique = {key for key, n in Counter(keys).items() if n == 1 and key is not None}
        out: list[Any] = []
        dropped_any = False
        # The scorer pairs the records that show nothing (rows below the delivered resolution,
        # say) in order with the empty records of the output: such a list, and every list in
        # such a record, keeps its records, in order, none invented (benchmark.score.align).
        blanks = [_populated(item, truth) == 0 for truth in truths]
        kept = self.blank or any(blanks)
        for index, truth in enumerate(truths):
            where = f"{path}[{index}]"
            if not kept and self.rng.random() < self.profile.drop:
                self._dropped(item, truth, where)
                dropped_any = True
                continue
            budget = None if keys[index] in unique else 1
            # Paired by agreement, a record keeps one of its leaves right only when it has
            # two: with one populated leaf (the rest damaged past reading, say), changing it
            # would make the record a dropped one beside an invented one.
            if budget and _populated(item, truth) < 2:
                budget = 0
            # A record the page shows nothing of (a row below the delivered resolution, say)
            # is left empty: a guess in it would make it an invented record beside a dropped one.
            outer = self.blank, self.agreeing
            self.blank = self.blank or blanks[index]
            self.agreeing = self.agreeing or budget is not None
            out.append(self.record(item, truth, where, budget))
            self.blank, self.agreeing = outer
        if (
            truths
            and not dropped_any
            and not self.blank
            and self.rng.random() < self.profile.invent
            and not any(isinstance(s, ListShape) for _, s in fields_of(item))
        ):
            invented = self._invented(item, f"{path}[+{len(out)}]")
            if invented is not None:
                out.append(invented)
        if len(out) > 1 and not kept and self.rng.random() < self.profile.shuffle:
            self.rng.shuffle(out)
            self._note("shuffle", path)
        return out

    def _dropped(self, model: type[DocModel], truth: dict[str, Any], path: str) -> None:
        self._note("drop", path)
        self.expected.counts.dropped_records += self._count_leaves(model, truth, path)

    def _count_leaves(self, model: type[DocModel], truth: Any, path: str) -> int:
        """Count a dropped subtree's leaves as omitted / abstained; return its records."""
        records = 1
        for name, shape in fields_of(model):
            value = truth.get(name) if isinstance(truth, dict) else None
            where = f"{path}.{name}"
            if isinstance(shape, LeafShape):
                if value is not None:
                    self.expected.counts.gt_fields += 1
                    self.expected.counts.omitted += 1
                else:
                    self.expected.counts.gt_null_fields += 1
                    self.expected.counts.abstained += 1
                    if where in self.illegible:
                        self.guesses.append({"path": where, "outcome": "abstained"})
            elif isinstance(shape, ObjectShape):
                records += self._count_leaves(shape.model, value, where) - 1
            else:
                for index, item in enumerate(value or []):
                    records += self._count_leaves(shape.item.model, item, f"{where}[{index}]")
        return records

    def _invented(self, model: type[DocModel], path: str) -> dict[str, Any] | None:
        """A record of fabricated values only, so it can match no truth record."""
        claims: list[tuple[Any, str]] = []
        empty_required: list[str] = []  # leaves left null that the schema requires

        def build(current: type[DocModel], where: str) -> dict[str, Any]:
            record: dict[str, Any] = {}
            for name, shape in fields_of(current):
                if isinstance(shape, LeafShape):
                    made = values.fabricate(shape.leaf.kind, shape.json_type, self.rng, self.packet)
                    record[name] = made
                    if made is not None:
                        claims.append((made, shape.leaf.kind))
                    elif self._required(f"{where}.{name}"):
                        empty_required.append(name)
                elif isinstance(shape, ObjectShape):
                    record[name] = build(shape.model, f"{where}.{name}")
            return record

        record = build(model, path)
        if not claims or empty_required:
            return None
        self._note("invent", path)
        self.expected.counts.invented_records += 1
        for value, kind in claims:
            self._claim(value, kind, "unlinked", False, False)
        return record

    # --- leaves -------------------------------------------------------------------------------

    def _leaf(
        self,
        model: type[DocModel],
        shapes: tuple[tuple[str, Any], ...],
        name: str,
        shape: LeafShape,
        truth: Any,
        path: str,
        op: str | None,
        is_key: bool,
        record: dict[str, Any],
        out: dict[str, Any],
        moved_into: set[str],
        budget: int | None,
    ) -> int:
        """Decide and write one leaf; return how many leaves it changed (for the budget)."""
        kind = shape.leaf.kind
        counts = self.expected.counts
        if truth is None and path in self.illegible:
            counts.gt_null_fields += 1
            unseen = self.agreeing and path in self.below  # a guess could pair it elsewhere
            if is_key or self.blank or unseen:  # a key is never guessed: the record is paired by it
                self.guesses.append({"path": path, "outcome": "abstained"})
                written = None
            else:
                written = self._guess(path, shape)
            if written is None:
                counts.abstained += 1
            else:
                counts.answered += 1
            out[name] = written
            return 0  # alignment reads no leaf whose truth is null
        if truth is None:
            counts.gt_null_fields += 1
            made = None
            if (
                not is_key
                and (budget is None or budget > 0)
                and self.rng.random() < min(0.95, self.profile.fabricate * self.factor(path))
            ):
                made = values.fabricate(kind, shape.json_type, self.rng, self.packet)
            if made is None:
                counts.abstained += 1
                out[name] = None
                return 0
            counts.answered += 1
            self._note("fabricate", path, value=made)
            self._claim(made, kind, "unlinked", False, False)
            out[name] = made
            return 1
        counts.gt_fields += 1
        stale = self.stale.get(path)
        if (
            op is not None
            and stale is not None
            and (budget is None or budget > 0)
            and not normalize.equal(stale, truth, kind, _code_list(shape))
            and self.rng.random() < self.profile.stale
        ):
            op = "stale"
        if op in ("omit", "moved") and self._required(path):
            op = "none"  # its schema admits no null: the value stays where it is
        if op is None or op == "reformat" or (budget is not None and budget <= 0):
            op = (
                "reformat"
                if (op == "reformat" or (is_key and self.rng.random() < self.profile.reformat))
                else "none"
            )
        written, spent = self._apply(
            op,
            shapes,
            model.record_key,
            name,
            shape,
            truth,
            path,
            record,
            out,
            moved_into,
            budget is not None,
        )
        if written is None:
            counts.omitted += 1
        elif spent == 0:
            counts.correct += 1
            self._claim(written, kind, "supported", True, True)
        else:
            counts.wrong += 1
        out[name] = written
        return spent

    def _guess(self, path: str, shape: LeafShape) -> Any:
        """The value written at an illegible field, or None (left empty). Each outcome holds
        by construction: the destroyed value equals itself; a value drawn from the document's
        own (legible) values of the kind is grounded in it; a fabricated one is shown nowhere.
        A guess is never checked for grounding; its verdict is the one any value gets where
        the truth is null (stale, else contradicted when the packet shows it, else unlinked)."""
        kind, code_list = shape.leaf.kind, _code_list(shape)
        destroyed = self.illegible[path]
        written: Any = None
        outcome = "abstained"
        if self.rng.random() < self.profile.guess:
            drawn = self.rng.choices(GUESSES, weights=self.profile.guess_mix)[0]
            if drawn == "guess_right":
                written = destroyed
            elif drawn == "guess_grounded":
                pool = [
                    v
                    for v in self.pools.get((kind, shape.json_type, code_list), [])
                    if not normalize.equal(v, destroyed, kind, code_list)
                ]
                written = self.rng.choice(pool) if pool else None
            else:
                written = values.fabricate(kind, shape.json_type, self.rng, self.packet)
                while written is not None and normalize.equal(written, destroyed, kind):
                    written = values.fabricate(kind, shape.json_type, self.rng, self.packet)
            if written is not None:  # an enum has no fabricated value, a pool may be empty
                outcome = drawn
        if written is None:
            self.guesses.append({"path": path, "outcome": outcome})
            return None
        self.guesses.append({"path": path, "outcome": outcome, "value": written})
        stale = self.stale.get(path)
        if stale is not None and normalize.equal(written, stale, kind, code_list):
            said = "stale"
        elif grounded(written, kind, code_list, self.packet):
            said = "contradicted"
        else:
            said = "unlinked"
        self.expected.verdicts[said] += 1
        return written

    def _apply(
        self,
        op: str,
        shapes: tuple[tuple[str, Any], ...],
        keys: tuple[str, ...],
        name: str,
        shape: LeafShape,
        truth: Any,
        path: str,
        record: dict[str, Any],
        out: dict[str, Any],
        moved_into: set[str],
        limited: bool,
    ) -> tuple[Any, int]:
        """(value written, changed leaves) for one populated leaf under `op`; a wrong value's
        claim is recorded here, a correct one by the caller."""
        kind, code_list = shape.leaf.kind, _code_list(shape)
        stale = self.stale.get(path)
        if op == "reformat":
            written = values.reformat(truth, kind)
            if written is not None and self.foreign:
                written = written if normalize.equal(written, truth, kind, code_list) else None
            if written is not None:
                self._note("reformat", path, value=written)
                return written, 0
            return truth, 0
        if op == "omit":
            self._note("omit", path)
            return None, 1
        if op == "stale" and stale is not None:
            in_doc = self._grounded_in_document(stale, kind, code_list)
            self._note("stale", path, value=stale)
            self._claim(stale, kind, "stale", in_doc, True)
            return stale, 1
        if op == "wrong_in":
            pool = [
                v
                for v in self.pools.get((kind, shape.json_type, code_list), [])
                if not normalize.equal(v, truth, kind, code_list)
                and not (stale is not None and normalize.equal(v, stale, kind, code_list))
            ]
            if pool:
                written = self.rng.choice(pool)
                self._note("wrong_in_universe", path, value=written)
                self._claim(written, kind, "contradicted", True, True)
                return written, 1
        if op == "wrong_out":
            made = values.fabricate(kind, shape.json_type, self.rng, self.packet)
            if made is not None:
                self._note("wrong_out_of_universe", path, value=made)
                self._claim(made, kind, "contradicted", False, False)
                return made, 1
        if (
            op in ("composed", "overreach")
            and kind in ("string", "id")
            and isinstance(truth, str)
            and normalize.tokens(truth)
        ):
            if op == "composed" and self.tokens:
                written = f"{truth} {self.rng.choice(self.tokens)}"
                if not (stale is not None and normalize.equal(written, stale, kind)):
                    self._note("composed", path, value=written)
                    self._claim(written, kind, "contradicted", True, True)
                    return written, 1
            if op == "overreach":
                written = f"{truth} {values.foreign_word(self.rng, self.packet)}"
                self._note("overreach", path, value=written)
                self._claim(written, kind, "overreach", False, False)
                return written, 1
        if op == "moved" and not limited:  # a move changes two leaves
            parent = path.rsplit(".", 1)[0] + "." if "." in path else ""
            target = self._move_target(
                shapes, keys, name, shape, truth, record, out, moved_into, parent
            )
            if target is not None:
                target_name, target_shape = target
                target_truth = record.get(target_name)
                target_path = parent + target_name
                self._note("moved", path, to=target_path)
                counts = self.expected.counts
                if target_truth is None:
                    counts.gt_null_fields += 1
                    counts.answered += 1
                else:
                    counts.gt_fields += 1
                    counts.wrong += 1
                self._claim(truth, target_shape.leaf.kind, "contradicted", True, True)
                out[target_name] = truth
                moved_into.add(target_name)
                return None, 1
        return truth, 0

    def _move_target(
        self,
        shapes: tuple[tuple[str, Any], ...],
        keys: tuple[str, ...],
        name: str,
        shape: LeafShape,
        truth: Any,
        record: dict[str, Any],
        out: dict[str, Any],
        moved_into: set[str],
        parent: str,
    ) -> tuple[str, LeafShape] | None:
        """A later, untouched, non-key leaf of the same object, kind and JSON type whose truth
        (and superseded value) the moved value does not equal."""
        names = [n for n, _ in shapes]
        later = set(names[names.index(name) + 1 :])
        kind, code_list = shape.leaf.kind, _code_list(shape)
        candidates = []
        for other, other_shape in shapes:
            if (
                other in later
                and other not in moved_into
                and other not in out
                and other not in keys
                and parent + other not in self.illegible  # a value there would be a guess
                and isinstance(other_shape, LeafShape)
                and other_shape.leaf.kind == kind
                and other_shape.json_type == shape.json_type
                and other_shape.leaf.codes == shape.leaf.codes
                and not normalize.equal(truth, record.get(other), kind, code_list)
            ):
                stale = self.stale.get(parent + other)
                if stale is None or not normalize.equal(truth, stale, kind, code_list):
                    candidates.append((other, other_shape))
        return self.rng.choice(candidates) if candidates else None

    def _required(self, path: str) -> bool:
        """Whether the schema admits no null at `path` (`[+N]`: an invented record's)."""
        return bool(self.required) and re.sub(r"\[\+?\d+\]", "[]", path) in self.required

    def _grounded_in_document(self, value: Any, kind: str, code_list: str | None) -> bool:
        return grounded(value, kind, code_list, self.document)
