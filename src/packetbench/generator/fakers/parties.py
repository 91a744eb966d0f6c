"""Other parties to the account: lenders on vehicles, and those who ask for certificates."""

from __future__ import annotations

# Vehicle lenders and lessors (real company names; every loan number is synthetic).
LIENHOLDERS: tuple[str, ...] = (
    "Ford Motor Credit Company LLC",
    "Ally Bank",
    "PACCAR Financial Corp.",
    "Daimler Truck Financial Services USA LLC",
    "Wells Fargo Equipment Finance, Inc.",
    "Huntington Equipment Finance",
)
LESSORS: tuple[str, ...] = (
    "Penske Truck Leasing Co., L.P.",
    "Ryder Truck Rental, Inc.",
    "Enterprise Fleet Management, Inc.",
)

# Who asks for a certificate, by relationship: a name template ({last}, {city}), whether the
# holder is an additional insured, and whether it wants the carrier's rights waived.
HOLDERS: tuple[tuple[str, str, bool, bool], ...] = (
    ("General Contractor", "{last} Construction Company", True, True),
    ("Customer", "{last} Industries, Inc.", True, False),
    ("Property Manager", "{last} Property Management LLC", True, False),
    ("Municipality", "City of {city}", True, False),
    ("Lender", "{city} Community Bank", False, False),
    ("Project Owner", "{last} Development Group LLC", True, True),
)
