"""The ACORD-style 125 commercial application: applicant, policy, premises, history, signature.

Checkbox groups that mirror a code list (transaction status, legal entity, nature of business,
lines of business) name one field per code value, spelled by `code_field`; a test keeps the
two in step, so a value added to a code list cannot silently miss its box.
"""

from __future__ import annotations

import re

from pydantic import Field

from packetbench.core.leaves import (
    Checkbox,
    Count,
    Date,
    DocModel,
    Id,
    Money,
    Str,
    Text,
    Year,
    YesNo,
)
from packetbench.generator.doctypes.common import Address, AuditFrequency, LossLine, PaymentPlan

# The form's fixed capacities, as on a printed application.
PREMISES_ROWS = 4
PRIOR_YEARS = 3
LOSS_ROWS = 6
LOSS_LOOKBACK_YEARS = 5


def code_field(value: str) -> str:
    """The field that holds code `value`: ``"Not For Profit"`` -> ``not_for_profit``,
    ``"Insured's Request"`` -> ``insureds_request`` (an apostrophe joins, never splits)."""
    return re.sub(r"[^a-z0-9]+", "_", value.lower().replace("'", "")).strip("_")


class Agency(DocModel):
    """The producing agency and its contact for this submission."""

    name: Str = None
    """Full name of the agency (producer)."""
    address: Address = Field(default_factory=Address)
    """Mailing address of the agency."""
    contact_name: Str = None
    """Agency contact person for this application."""
    phone: Str = None
    """Agency contact phone number."""
    fax: Str = None
    """Agency fax number."""
    email: Str = None
    """Agency contact e-mail address."""
    agency_code: Id = None
    """Code the carrier assigned to the agency."""
    customer_id: Id = None
    """The agency's own customer identifier for the applicant."""


class Carrier(DocModel):
    """The insurer applied to, the policy number and the form's completion date."""

    name: Str = None
    """Full legal name of the insurance company."""
    naic_code: Id = None
    """NAIC company code of the insurer."""
    underwriter: Str = None
    """Name of the carrier's underwriter."""
    underwriter_office: Str = None
    """Underwriting office of the carrier."""
    policy_number: Id = None
    """Policy number applied for or renewed."""
    completion_date: Date = None
    """Date the application was completed."""


class TransactionStatus(DocModel):
    """Status of the transaction: one box per status, exactly one ticked."""

    quote: Checkbox = None
    """Quote requested."""
    issue: Checkbox = None
    """Issue the policy."""
    renew: Checkbox = None
    """Renewal of an existing policy."""
    bound: Checkbox = None
    """Coverage already bound."""
    change: Checkbox = None
    """Change to an existing policy."""
    cancel: Checkbox = None
    """Cancellation of an existing policy."""


class LineOfBusiness(DocModel):
    """One line of business: whether it is applied for and its estimated premium."""

    selected: Checkbox = None
    """Ticked when this line is part of the application."""
    premium: Money = None
    """Estimated annual premium for the line in dollars; empty when the line is not selected."""


class LinesOfBusiness(DocModel):
    """The lines of business applied for."""

    commercial_property: LineOfBusiness = Field(default_factory=LineOfBusiness)
    """Commercial property."""
    general_liability: LineOfBusiness = Field(default_factory=LineOfBusiness)
    """Commercial general liability."""
    commercial_auto: LineOfBusiness = Field(default_factory=LineOfBusiness)
    """Commercial (business) auto."""
    workers_compensation: LineOfBusiness = Field(default_factory=LineOfBusiness)
    """Workers compensation."""
    umbrella: LineOfBusiness = Field(default_factory=LineOfBusiness)
    """Commercial umbrella."""
    motor_truck_cargo: LineOfBusiness = Field(default_factory=LineOfBusiness)
    """Motor truck cargo (inland marine on goods carried on the insured's vehicles)."""


class Attachments(DocModel):
    """Supporting documents attached to the application."""

    statement_of_values: Checkbox = None
    """A statement of values is attached."""
    loss_runs: Checkbox = None
    """Carrier loss runs are attached."""
    driver_schedule: Checkbox = None
    """A driver schedule is attached."""
    financial_statements: Checkbox = None
    """Financial statements are attached."""


class PolicyInfo(DocModel):
    """Policy period, billing and premium information."""

    effective_date: Date = None
    """Proposed policy effective date."""
    expiration_date: Date = None
    """Proposed policy expiration date."""
    direct_bill: Checkbox = None
    """Ticked when the carrier bills the insured directly."""
    agency_bill: Checkbox = None
    """Ticked when the agency bills the insured."""
    payment_plan: PaymentPlan = None
    """Premium payment plan."""
    audit_frequency: AuditFrequency = None
    """How often the premium is audited."""
    deposit: Money = None
    """Deposit premium in dollars."""
    minimum_premium: Money = None
    """Minimum premium in dollars."""
    estimated_premium: Money = None
    """Total estimated annual premium in dollars (sum of the line premiums)."""


class LegalEntity(DocModel):
    """The applicant's legal entity: one box per entity type, exactly one ticked."""

    corporation: Checkbox = None
    """Corporation."""
    subchapter_s_corporation: Checkbox = None
    """Subchapter S corporation."""
    limited_liability_company: Checkbox = None
    """Limited liability company (LLC)."""
    partnership: Checkbox = None
    """Partnership."""
    joint_venture: Checkbox = None
    """Joint venture."""
    individual: Checkbox = None
    """Individual or sole proprietor."""
    trust: Checkbox = None
    """Trust."""
    not_for_profit: Checkbox = None
    """Not-for-profit organization."""


class Applicant(DocModel):
    """The first named insured."""

    name: Str = None
    """Full legal name of the applicant."""
    dba: Str = None
    """Trade name the applicant does business as, if any."""
    mailing_address: Address = Field(default_factory=Address)
    """Mailing address of the applicant."""
    phone: Str = None
    """Primary business phone number."""
    website: Str = None
    """Website address."""
    fein: Id = None
    """Federal employer identification number (NN-NNNNNNN)."""
    sic: Id = None
    """Four-digit SIC code."""
    naics: Id = None
    """Six-digit NAICS code."""
    gl_code: Id = None
    """General liability classification code."""
    business_start_date: Date = None
    """Date the business started."""
    legal_entity: LegalEntity = Field(default_factory=LegalEntity)
    """Legal entity of the applicant."""


class Contact(DocModel):
    """A person at the applicant to contact for one purpose."""

    record_key = ("name",)

    role: Str = None
    """What the contact is for (accounting, claims, inspection, operations)."""
    name: Str = None
    """Full name of the contact."""
    phone: Str = None
    """Phone number of the contact."""
    email: Str = None
    """E-mail address of the contact."""


class Premises(DocModel):
    """One premises row of the form (the first building at a location)."""

    record_key = ("location_number", "building_number")

    location_number: Count = None
    """Location number."""
    building_number: Count = None
    """Building number of the first building at the location."""
    address: Address = Field(default_factory=Address)
    """Street address of the premises."""
    owner: Checkbox = None
    """Ticked when the applicant owns the premises."""
    tenant: Checkbox = None
    """Ticked when the applicant is a tenant at the premises."""
    full_time_employees: Count = None
    """Full-time employees at the premises."""
    part_time_employees: Count = None
    """Part-time employees at the premises."""
    annual_revenue: Money = None
    """Annual revenue of the premises in dollars."""
    occupied_area: Count = None
    """Area occupied by the applicant in square feet (all buildings at the location)."""
    operations: Text = None
    """Description of the operations at the premises."""


class NatureOfBusiness(DocModel):
    """The nature of the applicant's business and its operations narrative."""

    apartments: Checkbox = None
    """Apartments."""
    contractor: Checkbox = None
    """Contractor."""
    manufacturing: Checkbox = None
    """Manufacturing."""
    office: Checkbox = None
    """Office."""
    restaurant: Checkbox = None
    """Restaurant."""
    retail: Checkbox = None
    """Retail."""
    service: Checkbox = None
    """Service."""
    wholesale: Checkbox = None
    """Wholesale."""
    institutional: Checkbox = None
    """Institutional."""
    operations_description: Text = None
    """Description of the applicant's primary operations."""


class Answer(DocModel):
    """The answer to one general-information question."""

    answer: YesNo = None
    """The applicant's answer, written Y or N."""
    explanation: Text = None
    """Explanation given with a Yes answer; empty when the answer is No."""


class GeneralInformation(DocModel):
    """Answers to the general-information questions."""

    subsidiary: Answer = Field(default_factory=Answer)
    """Is the applicant a subsidiary of another entity?"""
    has_subsidiaries: Answer = Field(default_factory=Answer)
    """Does the applicant have any subsidiaries?"""
    safety_program: Answer = Field(default_factory=Answer)
    """Is a formal written safety program in operation?"""
    hazardous_materials: Answer = Field(default_factory=Answer)
    """Any exposure to flammables, explosives or chemicals?"""
    other_insurance: Answer = Field(default_factory=Answer)
    """Any other insurance with this carrier?"""
    declined_cancelled: Answer = Field(default_factory=Answer)
    """Any policy declined, cancelled or non-renewed in the prior three years?"""
    fraud_conviction: Answer = Field(default_factory=Answer)
    """Any applicant indicted for or convicted of fraud, bribery or arson in five years?"""
    fire_code_violations: Answer = Field(default_factory=Answer)
    """Any uncorrected fire or safety code violations?"""
    bankruptcy: Answer = Field(default_factory=Answer)
    """Any foreclosure, repossession or bankruptcy in the last five years?"""
    judgement_lien: Answer = Field(default_factory=Answer)
    """Any judgement or lien in the last five years?"""
    foreign_operations: Answer = Field(default_factory=Answer)
    """Any foreign operations or products?"""
    drones: Answer = Field(default_factory=Answer)
    """Does the applicant own, lease or operate drones?"""


class PriorTerm(DocModel):
    """One prior policy of one line in one policy year."""

    carrier: Str = None
    """Insurer that wrote the policy."""
    policy_number: Id = None
    """Policy number."""
    premium: Money = None
    """Total premium of the policy in dollars."""
    effective_date: Date = None
    """Policy effective date."""
    expiration_date: Date = None
    """Policy expiration date."""


class PriorYear(DocModel):
    """Prior coverage in one policy year; a line without a policy that year is empty."""

    record_key = ("year",)

    year: Year = None
    """Policy year (year of the effective date)."""
    commercial_property: PriorTerm = Field(default_factory=PriorTerm)
    """Prior property policy."""
    general_liability: PriorTerm = Field(default_factory=PriorTerm)
    """Prior general liability policy."""
    commercial_auto: PriorTerm = Field(default_factory=PriorTerm)
    """Prior commercial auto policy."""


class Loss(DocModel):
    """One prior loss."""

    loss_date: Date = None
    """Date of loss."""
    line: LossLine = None
    """Line of business the loss was reported under."""
    description: Text = None
    """What happened."""
    paid: Money = None
    """Amount paid in dollars."""
    reserved: Money = None
    """Amount reserved (outstanding) in dollars."""
    open: YesNo = None
    """Whether the claim is still open, written Y or N."""


class LossHistory(DocModel):
    """The largest losses of the last five years."""

    no_prior_losses: Checkbox = None
    """Ticked when the applicant has had no losses in the period."""
    losses: list[Loss] = Field(default_factory=list)
    """Up to six largest losses by incurred amount, most recent first."""
    total_incurred: Money = None
    """Total incurred (paid plus reserved) of the listed losses in dollars."""


class Signature(DocModel):
    """The signature block (signatures themselves are handwritten)."""

    applicant_signer: Str = None
    """Name of the person signing for the applicant."""
    producer_name: Str = None
    """Name of the producer signing the application."""
    producer_license_number: Id = None
    """State licence number of the producer."""
    producer_npn: Id = None
    """National producer number (NPN) of the producer."""
    signature_date: Date = None
    """Date the application was signed."""


class CommercialApplication(DocModel):
    """A commercial insurance application (ACORD 125 style): applicant information section."""

    agency: Agency = Field(default_factory=Agency)
    """Producing agency."""
    carrier: Carrier = Field(default_factory=Carrier)
    """Insurer, policy number and completion date."""
    transaction_status: TransactionStatus = Field(default_factory=TransactionStatus)
    """Status of the transaction."""
    lines_of_business: LinesOfBusiness = Field(default_factory=LinesOfBusiness)
    """Lines of business applied for, with premiums."""
    attachments: Attachments = Field(default_factory=Attachments)
    """Documents attached to the application."""
    policy: PolicyInfo = Field(default_factory=PolicyInfo)
    """Policy information."""
    applicant: Applicant = Field(default_factory=Applicant)
    """The named insured."""
    contacts: list[Contact] = Field(default_factory=list)
    """Contacts at the applicant."""
    premises: list[Premises] = Field(default_factory=list)
    """Premises rows (at most four; further locations are on the statement of values)."""
    premises_count: Count = None
    """Total number of premises (locations) of the applicant, listed here or not."""
    nature_of_business: NatureOfBusiness = Field(default_factory=NatureOfBusiness)
    """Nature of business and operations description."""
    general_information: GeneralInformation = Field(default_factory=GeneralInformation)
    """General-information questions and answers."""
    prior_carriers: list[PriorYear] = Field(default_factory=list)
    """Prior coverage for the three most recent policy years, most recent first."""
    loss_history: LossHistory = Field(default_factory=LossHistory)
    """Loss history of the last five years."""
    signature: Signature = Field(default_factory=Signature)
    """Signature block."""
