"""What the broker's cover letter says beyond the application: why the account is being
marketed, what it hopes to pay, when it needs quotes, and the strengths it points to."""

from __future__ import annotations

import datetime as dt
import random

from packetbench.core import codes
from packetbench.generator.world.base import WorldModel
from packetbench.generator.world.draw import iso, round_to, weighted

# Account strengths a broker points to; each is one whole sentence of free prose.
HIGHLIGHTS: tuple[str, ...] = (
    "Management holds a monthly safety meeting and documents every incident, however minor.",
    "A written return-to-work program brings injured employees back on modified duty.",
    "Every premises has had its electrical panels inspected by thermographic scan within the "
    "last two years.",
    "The owners are active in the business day to day and review every claim with the broker.",
    "Roofs were surveyed last year and the repairs the roofer recommended are complete.",
    "Contracts with subcontractors require certificates of insurance and hold-harmless "
    "wording, and the insured tracks them centrally.",
    "Housekeeping is consistently good, with aisles kept clear and combustible waste removed "
    "daily.",
    "A central-station alarm company monitors the main premises around the clock.",
    "New hires complete documented safety orientation before they start work.",
    "The insured has kept the same leadership team for more than ten years.",
)


class Narrative(WorldModel):
    letter_date: str
    quote_needed_by: str
    submission_type: str  # SUBMISSION_TYPE value
    marketing_reason: str  # MARKETING_REASON value
    target_premium: float  # whole hundreds of dollars
    highlights: tuple[str, ...]


def build_narrative(
    rng: random.Random,
    completion: dt.date,
    effective: dt.date,
    expiring_premium: float | None,
    new_premium: float,
    renewal: bool,
) -> Narrative:
    """The letter goes out a few days after the application is signed and asks for quotes a
    couple of weeks before the effective date; the target sits near the expiring premium. A
    submission to the incumbent itself is its renewal."""
    letter = completion + dt.timedelta(days=rng.randint(0, 5))
    needed = max(letter + dt.timedelta(days=7), effective - dt.timedelta(days=rng.randint(10, 21)))
    base = expiring_premium if expiring_premium else new_premium
    return Narrative(
        letter_date=iso(letter),
        quote_needed_by=iso(needed),
        submission_type="Renewal" if renewal else "New Business",
        marketing_reason=weighted(
            rng,
            [
                (reason, weight)
                for reason, weight in zip(
                    codes.MARKETING_REASON.values, (4, 2, 2, 1, 2, 1), strict=True
                )
            ],
        ),
        target_premium=float(round_to(base * rng.uniform(0.85, 1.0), 100)),
        highlights=tuple(rng.sample(HIGHLIGHTS, rng.randint(2, 3))),
    )
