"""Why the corpus's method and ours judge a claim differently: a ladder of rules.

Each emitted leaf of an extraction is judged "skip" (not counted), or "<number|string>:<ok|
hallucinated>". Its method judges it at rung 0; ours at the last rung. In between, one rule at
a time switches from theirs to ours, in this order:

1. document: ours does not score a document whose output is not a valid instance of its schema
   (theirs scores every document that is not an error stub); with `--invalid salvage` ours
   scores it on the leaves that fit, and drops the leaves under a key its schema lacks and the
   leaves of the wrong type;
2. walk: which leaves are claims, with which value (ours scores a boolean as "Yes"/"No";
   theirs skips booleans);
3. checked: whether a claim is counted (their skipped leaf names, path fragments, aggregate
   totals, generic words, fillers and length floor; our hedges, prose and length floor);
4. class: whether it counts as a number (theirs: a number or a formatted-number string; ours:
   a leaf of a numeric kind);
5. universe: what the universe is built from (theirs: every value of every ground-truth JSON
   file of the packet; ours: field-truth values and visible rendered text), their matching;
6. matching: how a value is found in it (ours: dates by ISO form, enum aliases, id forms of
   words, numbers inside text, NFKC; theirs: compact forms of whole strings, 3-letter tokens);
7. truth: ours grounds a value equal to its truth at its aligned place.

A claim judged differently at the two ends changed at some rung; the first rung where it
changed names its cause, refined by which rule of that step decided it (`diagnose`). The two
ends are checked against the two methods' published numbers (theirs: its per-document counts;
ours: our scores), so a claim is only ever explained by rules that really differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from packetbench.benchmark.importers.nightmare import their_rules as T
from packetbench.benchmark.score.field_view import Claim
from packetbench.benchmark.score.verdicts import grounded
from packetbench.truth import normalize
from packetbench.truth.universe import Universe

RUNGS = ("theirs", "document", "walk", "checked", "class", "universe", "matching", "truth")
SKIP = "skip"


@dataclass(frozen=True)
class Context:
    """The universes a claim of one packet is judged against."""

    theirs: T.TheirUniverse  # their content, their matching
    ours_as_theirs: T.TheirUniverse  # our content, their matching
    ours: Universe  # our content, our matching (the packet universe)
    their_groups: dict[str, T.TheirUniverse]  # their content by the files it comes from


@dataclass(frozen=True)
class Leaf:
    """One emitted leaf: as its method walks it (`path`, `value`) and, when our scorer
    scores the document, as our claim."""

    path: tuple[str | int, ...]
    value: Any
    claim: Claim | None
    valid_document: bool
    # Why a salvaged document's leaf is not scored: "invented" (under a key the schema
    # lacks) or "unfit" (of the wrong type, made null); None when it is scored.
    dropped: str | None = None


def _their_class(value: Any) -> str:
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if T.as_float(value) is not None and (
        numeric or (isinstance(value, str) and T.is_formatted_number(value))
    ):
        return "number"
    return "string"


def _their_checked(path: tuple[str | int, ...], value: Any) -> bool:
    if value is None or isinstance(value, bool) or T.skip_reason(path) is not None:
        return False
    return T.value_class(value) is not None


def _their_found(value: Any, numeric: bool, universe: T.TheirUniverse) -> bool:
    if numeric:
        number = T.as_float(value)
        return number is not None and universe.has_number(number)
    return universe.has_string(T.norm(value))


def verdicts(leaf: Leaf, ctx: Context) -> list[str]:
    """Its verdict at every rung (RUNGS order)."""
    out = [T.their_verdict(leaf.path, leaf.value, ctx.theirs)]
    if leaf.dropped is not None:  # salvaged away: not scored by ours from rung 1 on
        return out + [SKIP] * (len(RUNGS) - 1)
    if not leaf.valid_document or leaf.claim is None:
        # Not scored by ours, or not a claim of ours (a null): skipped from rung 1 (or 2) on.
        first = out[0] if leaf.valid_document else SKIP
        return out + [first] + [SKIP] * (len(RUNGS) - 2)
    claim = leaf.claim
    out.append(out[0])  # document: scored by both
    value = claim.value
    # walk: our value (a boolean is "Yes"/"No"), their rules
    out.append(T.their_verdict(leaf.path, value, ctx.theirs))
    checked = normalize.is_checked(value, claim.kind)
    if not checked:
        return out + [SKIP] * (len(RUNGS) - 3)
    kind = _their_class(value)
    numeric_ours = claim.kind in normalize.NUMERIC_KINDS
    their_numeric = kind == "number"
    # checked: our eligibility, their class and universe
    out.append(f"{kind}:{_ok(_their_found(value, their_numeric, ctx.theirs))}")
    cls = "number" if numeric_ours else "string"
    # class: our class, their universe and matching
    out.append(f"{cls}:{_ok(_their_found(value, numeric_ours, ctx.theirs))}")
    # universe: our content, their matching
    out.append(f"{cls}:{_ok(_their_found(value, numeric_ours, ctx.ours_as_theirs))}")
    found = grounded(value, claim.kind, claim.code_list, ctx.ours)
    out.append(f"{cls}:{_ok(found)}")  # matching: ours
    out.append(f"{cls}:{_ok(found or claim.supported)}")  # truth: ours
    return out


def _ok(found: bool) -> str:
    return "ok" if found else "hallucinated"


def first_change(chain: list[str]) -> int | None:
    """The first rung whose verdict differs from the rung before (None: the two ends agree)."""
    if chain[0] == chain[-1]:
        return None
    return next(i for i in range(1, len(chain)) if chain[i] != chain[i - 1])


def diagnose(rung: int, leaf: Leaf, chain: list[str], ctx: Context, problem: str | None) -> str:
    """The named cause of a claim whose verdict first changed at `rung`."""
    name = RUNGS[rung]
    after = chain[rung]
    value = leaf.claim.value if leaf.claim is not None else leaf.value
    if name == "document" and leaf.dropped is not None:
        return (
            "salvaged document: a leaf under a key its schema lacks (ours counts the key as "
            "an invented key, not its leaves)"
            if leaf.dropped == "invented"
            else "salvaged document: a leaf of the wrong type, which ours drops"
        )
    if name == "document":
        kind = (problem or "").split(": ", 1)[-1]
        what = (
            "an extra key"
            if "additional property" in kind
            else ("a value outside its enum" if "values" in kind else "a value of the wrong type")
        )
        return f"document not scored by ours: output not valid against its schema ({what})"
    if name == "walk":
        return "boolean leaf: theirs skips it, ours checks it as Yes/No"
    if name == "checked":
        if after == SKIP:
            claim = leaf.claim
            assert claim is not None
            if claim.kind == "text":
                return "prose (kind text): ours does not check it"
            if normalize.is_hedge(claim.value):
                return "hedge in our list (N/A, Various, See below...)"
            return "length floor: ours needs 3 normalized characters"
        reason = T.skip_reason(leaf.path)
        if reason is not None:
            return {
                "leaf name": "skipped leaf name in their list (dates, types, codes...)",
                "path fragment": "skipped path fragment in their list (totals, producer, "
                "checkboxes...)",
                "aggregate": "aggregate total: theirs skips total_*",
            }[reason]
        skip = T.string_skip(value) if isinstance(value, str) else None
        return {
            "generic word": "generic word theirs skips (yes, no, open, closed...)",
            "filler": "filler theirs skips (checked, unchecked, see...)",
            "length floor": "length floor: theirs skips 1-2 characters",
        }.get(skip or "", "checked by ours, not by theirs")
    if name == "class":
        if after.startswith("number"):
            return "numeric kind: ours checks a numeric leaf as a number, theirs as a string"
        return "numeric string: theirs checks it as a number, ours as a string (its kind)"
    if name == "universe":
        if after.endswith("hallucinated"):
            numeric = after.startswith("number")
            where = next(
                (
                    group
                    for group, part in ctx.their_groups.items()
                    if _their_found(value, numeric, part)
                ),
                "its universe as a whole",
            )
            return f"universe built from more than visible text: theirs finds it in {where}"
        return "visible text our universe holds and theirs lacks"
    if name == "matching":
        return _matching(leaf, after, ctx)
    return "equal to its truth (after normalization) though not in the universe"


def _matching(leaf: Leaf, after: str, ctx: Context) -> str:
    claim = leaf.claim
    assert claim is not None
    value = claim.value
    numeric = claim.kind in normalize.NUMERIC_KINDS
    if after.endswith(":ok"):  # ours finds it, theirs does not
        if numeric:
            parsed = normalize.number(value)
            if parsed is not None and parsed in ctx.ours.numbers and T.as_float(value) is None:
                return "number spelling only ours reads ((1,234), 80 %)"
            return "number inside visible text: ours reads numbers within strings"
        if claim.kind == "date" and isinstance(value, str) and normalize.date(value):
            return "date in another spelling: ours compares ISO dates"
        if (
            claim.kind == "enum"
            and claim.code_list is not None
            and isinstance(value, str)
            and normalize.string(value) not in ctx.ours.strings
        ):
            return "enum alias: ours accepts abbreviations"
        text = str(value)
        if normalize.string(text) in ctx.ours.strings:
            return "normalization: ours folds NFKC, accents and underscores"
        ident = normalize.id_form(text)
        if ident is not None and ident in ctx.ours.ids:
            return "id form: ours matches the id form of single words"
        return "token rule: ours accepts 1-2 character tokens and words of any string"
    if numeric:
        return "number spelling only theirs reads"
    tier = ctx.ours_as_theirs.string_tier(T.norm(value))
    if tier == "tokens":
        return (
            "token rule: theirs accepts a value made of universe tokens (a date, an amount "
            "split at its punctuation)"
        )
    if tier == "compact":
        return "compact form: theirs matches [a-z0-9] of whole universe strings"
    if claim.kind == "date":
        return "date: theirs matches its text, ours cannot read it as a date shown"
    return "normalization: theirs keeps non-ASCII letters and underscores"
