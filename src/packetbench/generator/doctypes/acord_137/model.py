"""The PB-137 commercial auto coverages section: covered-auto symbols, limits by state,
hired and non-owned liability, physical-damage deductibles."""

from __future__ import annotations

from pydantic import Field

from packetbench.core.leaves import Checkbox, Count, DocModel, Money, YesNo
from packetbench.generator.doctypes.common import SectionHeader, Signature, State


class SymbolBoxes(DocModel):
    """The covered-auto symbols ticked for one coverage."""

    symbol_1: Checkbox = None
    """Symbol 1: any auto."""
    symbol_2: Checkbox = None
    """Symbol 2: owned autos only."""
    symbol_3: Checkbox = None
    """Symbol 3: owned private passenger autos only."""
    symbol_4: Checkbox = None
    """Symbol 4: owned autos other than private passenger."""
    symbol_7: Checkbox = None
    """Symbol 7: specifically described autos."""
    symbol_8: Checkbox = None
    """Symbol 8: hired autos only."""
    symbol_9: Checkbox = None
    """Symbol 9: non-owned autos only."""


class Symbols(DocModel):
    """Covered-auto symbols by coverage."""

    liability: SymbolBoxes = Field(default_factory=SymbolBoxes)
    """Symbols of liability coverage."""
    medical_payments: SymbolBoxes = Field(default_factory=SymbolBoxes)
    """Symbols of medical payments coverage."""
    uninsured_motorists: SymbolBoxes = Field(default_factory=SymbolBoxes)
    """Symbols of uninsured motorists coverage."""
    underinsured_motorists: SymbolBoxes = Field(default_factory=SymbolBoxes)
    """Symbols of underinsured motorists coverage."""
    comprehensive: SymbolBoxes = Field(default_factory=SymbolBoxes)
    """Symbols of comprehensive coverage."""
    collision: SymbolBoxes = Field(default_factory=SymbolBoxes)
    """Symbols of collision coverage."""
    towing: SymbolBoxes = Field(default_factory=SymbolBoxes)
    """Symbols of towing and labor coverage."""


class Limits(DocModel):
    """Limits that apply in every state."""

    combined_single_limit: Money = None
    """Liability combined single limit (each accident) in dollars."""
    medical_payments: Money = None
    """Medical payments limit per person in dollars; empty without the coverage."""
    towing: Money = None
    """Towing and labor limit per disablement in dollars; empty without the coverage."""


class HiredNonOwned(DocModel):
    """Hired and non-owned auto liability."""

    hired_liability: Checkbox = None
    """Ticked when hired auto liability is requested."""
    cost_of_hire: Money = None
    """Estimated annual cost of hire in dollars."""
    non_owned_liability: Checkbox = None
    """Ticked when non-owned auto liability is requested."""
    non_owned_employees: Count = None
    """Number of employees whose own autos are used in the business."""


class PhysicalDamage(DocModel):
    """Physical-damage deductibles of the scheduled autos that carry the coverage."""

    comprehensive_deductible: Money = None
    """Comprehensive deductible in dollars."""
    collision_deductible: Money = None
    """Collision deductible in dollars."""


class StateCoverage(DocModel):
    """Uninsured and underinsured motorists by garaging state."""

    record_key = ("state",)

    state: State = None
    """Garaging state."""
    vehicle_count: Count = None
    """Number of scheduled vehicles garaged in the state."""
    uninsured_motorists_limit: Money = None
    """Uninsured motorists limit in dollars (0 when rejected)."""
    underinsured_motorists_limit: Money = None
    """Underinsured motorists limit in dollars (0 when rejected)."""
    um_rejected: YesNo = None
    """Whether the insured rejected UM/UIM coverage in writing in this state, written Y or N."""


class Premiums(DocModel):
    """The auto premium."""

    scheduled_autos: Money = None
    """Premium of the scheduled vehicles in dollars."""
    hired_non_owned: Money = None
    """Hired and non-owned liability premium in dollars."""
    total_premium: Money = None
    """Total auto premium in dollars (scheduled autos plus hired and non-owned)."""


class AutoCoveragesSection(DocModel):
    """An ACORD 137-style commercial auto coverages and limits section."""

    header: SectionHeader = Field(default_factory=SectionHeader)
    """Policy identification block."""
    symbols: Symbols = Field(default_factory=Symbols)
    """Covered-auto symbols by coverage."""
    limits: Limits = Field(default_factory=Limits)
    """Limits that apply in every state."""
    hired_non_owned: HiredNonOwned = Field(default_factory=HiredNonOwned)
    """Hired and non-owned auto liability."""
    physical_damage: PhysicalDamage = Field(default_factory=PhysicalDamage)
    """Physical-damage deductibles."""
    states: list[StateCoverage] = Field(default_factory=list)
    """Limits by garaging state, most vehicles first."""
    premiums: Premiums = Field(default_factory=Premiums)
    """Premium summary."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
