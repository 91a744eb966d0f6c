"""The broker's cover letter: a letter in running prose whose facts are fields."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from packetbench.core import codes
from packetbench.core.leaves import Count, Date, DocModel, Id, Leaf, Money, Str, Text
from packetbench.generator.doctypes.common import Address, EntityType, LossLine, State

SubmissionType = Annotated[str | None, Leaf("enum", codes=codes.SUBMISSION_TYPE)]
MarketingReason = Annotated[str | None, Leaf("enum", codes=codes.MARKETING_REASON)]


class Letter(DocModel):
    """Who writes to whom, and when."""

    letter_date: Date = None
    """Date of the letter."""
    agency_name: Str = None
    """The broker's agency (letterhead and signature)."""
    agency_address: Address = Field(default_factory=Address)
    """The agency's address on the letterhead."""
    phone: Str = None
    """The agency's telephone number on the letterhead."""
    producer_name: Str = None
    """The producer who signs the letter."""
    email: Str = None
    """The producer's e-mail address under the signature."""
    underwriter_name: Str = None
    """The underwriter the letter is addressed to."""
    carrier_name: Str = None
    """The insurance company (market) the submission goes to."""
    underwriter_office: Str = None
    """The underwriter's office."""
    submission_type: SubmissionType = None
    """New business, or the renewal of the carrier's own policy."""


class Account(DocModel):
    """The insured as the letter introduces it."""

    named_insured: Str = None
    """First named insured."""
    dba: Str = None
    """Trade name (doing business as); null when the letter names none."""
    entity_type: EntityType = None
    """Legal form of the insured."""
    city: Str = None
    """City of the insured's mailing address."""
    state: State = None
    """State of the insured's mailing address."""
    industry: Str = None
    """The insured's industry, in words."""
    sic_code: Id = None
    """SIC code of the insured's business."""
    naics_code: Id = None
    """NAICS code of the insured's business."""
    years_in_business: Count = None
    """Whole years the business has operated as of the letter date."""
    annual_revenue: Money = None
    """Annual revenue in dollars."""
    full_time_employees: Count = None
    """Number of full-time employees."""
    location_count: Count = None
    """Number of locations the insured operates from."""
    schedule_tiv: Money = None
    """Total insured value of the statement of values; null when property is not requested."""
    vehicle_count: Count = None
    """Number of vehicles on the auto schedule; null when auto is not requested."""
    driver_count: Count = None
    """Number of drivers on the driver schedule; null when auto is not requested."""
    operations: Text = None
    """The paragraph describing the insured's operations."""


class RequestedLine(DocModel):
    """One line of business of the program the broker asks the market to quote."""

    record_key = ("line",)

    line: LossLine = None
    """Line of business requested."""
    requested_limit: Money = None
    """Limit requested: property the total insured value, liability lines each occurrence
    (auto the combined single limit, workers compensation each accident)."""
    deductible: Money = None
    """Deductible or retention requested; null when none is stated."""
    expiring_carrier: Str = None
    """Carrier of the expiring policy of this line; null for a line new to the account."""
    expiring_policy_number: Id = None
    """Number of the expiring policy of this line; null for a new line."""
    expiring_premium: Money = None
    """Premium of the expiring policy of this line; null for a new line."""


class Program(DocModel):
    """The program requested and the terms the broker is after."""

    effective_date: Date = None
    """Proposed effective date."""
    expiration_date: Date = None
    """Proposed expiration date."""
    quote_needed_by: Date = None
    """Date by which the broker needs the quote."""
    target_premium: Money = None
    """Premium the broker expects to need to place the program."""
    expiring_premium: Money = None
    """Premium of the expiring program, all lines; null when no policy expires."""
    marketing_reason: MarketingReason = None
    """Why the account is being marketed."""
    lines: list[RequestedLine] = Field(default_factory=list)
    """The lines requested, in policy order."""


class LossSummary(DocModel):
    """The loss history as the letter summarizes it."""

    years: Count = None
    """Number of policy years the loss runs cover."""
    valuation_date: Date = None
    """Valuation date of the loss runs."""
    claim_count: Count = None
    """Claims reported over those years, all lines."""
    open_claim_count: Count = None
    """Claims still open at the valuation date."""
    incurred: Money = None
    """Incurred losses (paid plus reserves) over those years, all lines."""
    largest_loss: Money = None
    """Incurred amount of the largest claim; null without claims."""
    largest_loss_date: Date = None
    """Date of loss of the largest claim; null without claims."""
    largest_loss_description: Str = None
    """What happened in the largest claim; null without claims."""


class Highlight(DocModel):
    """One strength of the account the broker points to."""

    # A strength has no number or name: the sentence is what identifies it (a one-leaf
    # record without a key could not be told from an invented one).
    record_key = ("text",)

    text: Text = None
    """The sentence as written."""


class Attachment(DocModel):
    """One document enclosed with the letter."""

    record_key = ("title",)

    title: Str = None
    """Title of the enclosed document."""


class BrokerNarrative(DocModel):
    """A broker's cover letter submitting an account to an insurance market."""

    letter: Letter = Field(default_factory=Letter)
    """Letterhead, date, addressee and signature."""
    account: Account = Field(default_factory=Account)
    """The insured and its business."""
    program: Program = Field(default_factory=Program)
    """The program requested."""
    losses: LossSummary = Field(default_factory=LossSummary)
    """The summary of the loss history."""
    highlights: list[Highlight] = Field(default_factory=list)
    """The account's strengths, as listed."""
    attachments: list[Attachment] = Field(default_factory=list)
    """The documents enclosed, in the order listed."""
