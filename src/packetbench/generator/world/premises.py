"""The insured's premises: its locations and their buildings."""

from __future__ import annotations

from packetbench.generator.world.base import Address, WorldModel


class Building(WorldModel):
    location_number: int
    building_number: int
    address: Address
    description: str
    occupancy: str
    construction: str
    year_built: int
    stories: int
    basements: int
    square_feet: int
    roof_covering: str
    roof_year: int
    wiring_year: int
    plumbing_year: int
    heating_year: int
    sprinklered_percent: float
    sprinkler_type: str
    fire_alarm: str
    burglar_alarm: str
    protection_class: int
    hydrant_feet: int
    station_miles: float
    wind_class: str
    building_value: float
    contents_value: float
    business_income_value: float
    tiv: float
    valuation: str
    coinsurance_percent: float
    causes_of_loss: str
    deductible: float
    interest: str  # "Owner" | "Tenant"
    mortgagee: str | None
    loan_number: str | None


class Location(WorldModel):
    number: int
    address: Address
    full_time_employees: int
    part_time_employees: int
    annual_revenue: float
    operations: str
    buildings: tuple[Building, ...]
