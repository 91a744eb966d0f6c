"""Which fault the stub injects into which request, decided per (document, request number).

Transport faults are transient and a harness should retry them: a 429 with retry-after, a 500,
a 503, and a hung response (held past the client's timeout). Answer faults are final: text
that is not JSON, the answer wrapped in an extra single-key envelope, a completion truncated
at the output-token cap, a refusal, and `long`, a valid answer that used 97 % of the cap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

TRANSIENT = ("rate_limit", "server_500", "server_503", "hang")
ANSWER = ("malformed", "envelope", "truncated", "refusal")
ALL = TRANSIENT + ANSWER
KNOWN = (*ALL, "long")


@dataclass
class Faults:
    """`rate` of requests get a fault drawn from `kinds` (seeded); `script` fixes the faults of
    chosen documents request by request ("packet_id/doc_id" -> ["hang", "none", ...])."""

    rate: float = 0.0
    kinds: tuple[str, ...] = ALL
    seed: int = 0
    script: dict[str, list[str]] = field(default_factory=dict)
    retry_after_s: float = 0.05

    def __post_init__(self) -> None:
        unknown = [
            k
            for k in (*self.kinds, *(f for s in self.script.values() for f in s))
            if k not in (*KNOWN, "none")
        ]
        if unknown:
            raise ValueError(f"unknown fault {unknown[0]!r}; known: {', '.join(KNOWN)}")

    def fault(self, document: str, number: int) -> str | None:
        """The fault of the `number`-th request (1-based) for `document`, or None."""
        if document in self.script:
            sequence = self.script[document]
            chosen = sequence[number - 1] if number <= len(sequence) else "none"
            return None if chosen == "none" else chosen
        if self.rate <= 0:
            return None
        rng = random.Random(f"{self.seed}:{document}:{number}")
        return rng.choice(self.kinds) if rng.random() < self.rate else None
