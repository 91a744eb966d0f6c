"""Grounding (precision side) and the verdict of every claim (docs/design.md §7).

A checked value is *hallucinated* when it is not grounded in the universe: a number that
equals no universe number; a date whose ISO form is no universe date; a string whose
normalized form, id form (>= 4 characters) or every token is not in the universe.

Verdicts, first that applies:
- supported: equals the truth at its path;
- stale: equals the value a superseded document holds at the same path;
- overreach: contains the truth value plus tokens foreign to the packet universe;
- contradicted: the truth at its path is a different value;
- unlinked: ungrounded, with nothing at its path to contradict;
- contradicted, too, for a grounded value where the document shows nothing: the claim
  asserts a value the page leaves empty.

A value emitted where the document's only ink is damaged past reading (docs/patterns.md rule 3b:
field truth `illegible: true`, document truth null) is a *guess*, reported apart (`guess`):
`guess_right` when it equals the destroyed value under the normalization of its kind,
`guess_grounded` when it does not but the packet universe shows it (its own document's
legible values included; the claim's `grounded_in` says which document), `guess_wrong`
otherwise. The choice, stated once: a guess is never checked by the grounding view, so it is
neither hallucinated nor grounded in the headline hallucination rates, whatever its outcome;
it keeps the verdict the rules above give any value where the truth is null (stale,
contradicted or unlinked: never supported), so faithfulness counts it as a claim the page
does not support; and its field counts as answered (a failed abstention) in the field view,
where a null there is a correct abstention like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from packetbench.benchmark.score.field_view import Claim
from packetbench.truth import normalize
from packetbench.truth.universe import Universe

Verdict = Literal["supported", "contradicted", "stale", "overreach", "unlinked"]
VERDICTS: tuple[Verdict, ...] = ("supported", "contradicted", "stale", "overreach", "unlinked")
Guess = Literal["guess_right", "guess_grounded", "guess_wrong"]
GUESSES: tuple[Guess, ...] = ("guess_right", "guess_grounded", "guess_wrong")
STRING_KINDS = frozenset({"string", "id", "text"})


def grounded(value: Any, kind: str, code_list: str | None, universe: Universe) -> bool:
    """Whether `value` (as a leaf of `kind`) is something the universe shows."""
    if kind in normalize.NUMERIC_KINDS:
        return universe.has_number(value)
    if not isinstance(value, str):
        return universe.has_string(str(value))
    if kind == "date" and normalize.date(value) is not None:
        return universe.has_date(value)
    if kind == "enum" and code_list is not None:
        return any(
            form in universe.strings for form in normalize.aliases_of(value, code_list)
        ) or universe.has_string(value)
    return universe.has_string(value)


@dataclass(frozen=True, slots=True)
class ClaimGrounding:
    """How the grounding view counts one claim."""

    checked: bool  # counted at all (not a hedge, not prose, long enough)
    numeric: bool  # counted among numbers, else among strings
    in_packet: bool  # grounded in the packet universe
    in_document: bool  # grounded in its document's universe


def ground(claim: Claim, document: Universe, packet: Universe) -> ClaimGrounding:
    """The grounding of one claim. A value equal to its truth is grounded: the truth is what
    the page shows."""
    in_doc = claim.supported or grounded(claim.value, claim.kind, claim.code_list, document)
    in_packet = in_doc or grounded(claim.value, claim.kind, claim.code_list, packet)
    return ClaimGrounding(
        normalize.is_checked(claim.value, claim.kind),
        claim.kind in normalize.NUMERIC_KINDS,
        in_packet,
        in_doc,
    )


def guess(claim: Claim, illegible: dict[str, Any], grounded_in_packet: bool) -> Guess | None:
    """The guess a claim is, or None when it is not one: `illegible` holds the destroyed
    values of its document by truth path (`universe.PacketUniverses.illegible`; an invented
    record's claims sit at no truth path)."""
    if claim.path not in illegible:
        return None
    if normalize.equal(claim.value, illegible[claim.path], claim.kind, claim.code_list):
        return "guess_right"
    return "guess_grounded" if grounded_in_packet else "guess_wrong"


def _contains(value: Any, truth: Any) -> bool:
    """Whether the normalized tokens of `truth` occur, in order and together, in `value`."""
    if not (isinstance(value, str) and isinstance(truth, str)):
        return False
    inner, outer = normalize.tokens(truth), normalize.tokens(value)
    if not inner or len(inner) >= len(outer):
        return False
    width = len(inner)
    return any(outer[i : i + width] == inner for i in range(len(outer) - width + 1))


def verdict(claim: Claim, grounded_in_packet: bool, stale_value: Any, packet: Universe) -> Verdict:
    """The verdict of one claim; `stale_value` is the superseded document's value at the
    claim's path (None when there is no superseded version)."""
    value, truth, kind = claim.value, claim.truth, claim.kind
    if claim.supported:
        return "supported"
    if stale_value is not None and normalize.equal(value, stale_value, kind, claim.code_list):
        return "stale"
    if truth is not None:
        if kind in STRING_KINDS and _contains(value, truth) and packet.foreign_tokens(value):
            return "overreach"
        return "contradicted"
    return "contradicted" if grounded_in_packet else "unlinked"
