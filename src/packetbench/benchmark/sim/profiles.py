"""Error profiles of the simulated extractor: how often it makes each kind of mistake.

Leaf rates apply per populated truth leaf (per null leaf for `fabricate`), record rates per
record (`drop`) or per list (`invent`, `shuffle`), document rates per document. On a leaf a
presentation pattern touched, leaf rates are multiplied by the pattern family's factor.
An illegible field (its value damaged past reading: the truth is null, abstention expected) is
guessed at `guess`, never scaled (every one sits under a blot on a scanned page), and a guess
is the destroyed value, another value the document shows or one the packet shows nowhere in
the proportions of `guess_mix`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# How much more often a leaf that a presentation pattern touched goes wrong, by pattern family
# (a reader stumbles more on a scanned page than on a reordered column). A leaf touched by
# several families takes the largest factor; leaf rates are scaled by it.
PATTERN_FACTORS: dict[str, float] = {
    "table": 2.0,
    "data": 2.5,
    "overlay": 1.6,
    "textlayer": 3.0,
    "scan": 3.5,
    "hand": 3.0,
    "sheet": 2.0,
    "csv": 1.8,
    "packet": 2.5,
}


@dataclass(frozen=True)
class Profile:
    name: str
    omit: float = 0.0  # a populated value left null
    wrong_in: float = 0.0  # replaced by another value the document shows
    wrong_out: float = 0.0  # replaced by a value shown nowhere in the packet
    composed: float = 0.0  # the value plus words the document shows elsewhere
    overreach: float = 0.0  # the value plus a word shown nowhere
    moved: float = 0.0  # the value put in another field of the record, its own left null
    stale: float = 0.0  # the superseded version's value, for leaves where it differs
    reformat: float = 0.0  # the same value written differently ("CL202312345", "03/01/2025")
    fabricate: float = 0.0  # a value invented where the document shows none
    guess: float = 0.0  # a value written where the page is illegible (else left empty)
    guess_mix: tuple[float, float, float] = (1.0, 0.0, 0.0)  # right, grounded, wrong
    drop: float = 0.0  # a record left out
    invent: float = 0.0  # a record that does not exist added to a list
    shuffle: float = 0.0  # a list returned in another order
    missing: float = 0.0  # no record written for the document
    error: float = 0.0  # the call failed
    invalid: float = 0.0  # an answer that breaks the schema (a number written as "$1,500,000")
    pattern_factors: dict[str, float] = field(default_factory=dict)  # see PATTERN_FACTORS


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("perfect"),
        Profile(
            "typical",
            omit=0.03,
            wrong_in=0.02,
            wrong_out=0.01,
            composed=0.01,
            overreach=0.01,
            moved=0.01,
            stale=0.3,
            reformat=0.05,
            fabricate=0.03,
            guess=0.4,
            guess_mix=(0.4, 0.35, 0.25),
            drop=0.01,
            invent=0.03,
            shuffle=0.1,
            pattern_factors=PATTERN_FACTORS,
        ),
        Profile(
            "sloppy",
            omit=0.10,
            wrong_in=0.06,
            wrong_out=0.05,
            composed=0.03,
            overreach=0.03,
            moved=0.03,
            stale=0.6,
            reformat=0.15,
            fabricate=0.10,
            guess=0.8,
            guess_mix=(0.25, 0.35, 0.4),
            drop=0.04,
            invent=0.10,
            shuffle=0.3,
            missing=0.03,
            error=0.03,
            invalid=0.03,
            pattern_factors=PATTERN_FACTORS,
        ),
    )
}
