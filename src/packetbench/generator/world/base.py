"""The pieces every world model module shares: the frozen base model, addresses, answers."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WorldModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Address(WorldModel):
    street: str
    city: str
    state: str
    zip: str
    county: str

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"


class Answer(WorldModel):
    """The applicant's answer to one underwriting question (see providers.QUESTIONS)."""

    question: str  # question id
    answer: bool
    explanation: str | None
