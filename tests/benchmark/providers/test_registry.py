"""A provider is one module plus its registration: the judges, the stub servers,
the help texts and the batch messages take their lists from the registry, so a provider
registered there is extracted with, judged with and listed without touching anything else."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from packetbench.benchmark.config import ExtractionConfig, ModelOptions
from packetbench.benchmark.extraction import extract_run
from packetbench.benchmark.harness.stub import StubServer
from packetbench.benchmark.providers import (
    PROVIDERS,
    ProviderSpec,
    api_providers,
    batch_providers,
    listed,
    provider_class,
)
from packetbench.benchmark.selection import Selection
from packetbench.benchmark.verify.api_judge import ApiJudge
from packetbench.benchmark.verify.judges import judge_names, make_judge
from packetbench.core.registry import UnknownName
from tests.support.paths import PACKETS

ACME = ProviderSpec("acme", "tests.support.acme", "AcmeProvider", speaks="openai")


@pytest.fixture
def acme(monkeypatch: pytest.MonkeyPatch) -> Iterator[ProviderSpec]:
    """The acme provider registered for one test (its one registration line)."""
    monkeypatch.setitem(PROVIDERS._items, ACME.name, ACME)
    yield ACME


def test_the_registry_lists_every_provider_once() -> None:
    assert PROVIDERS.names() == ["anthropic", "gemini", "openai", "command", "http", "sim"]
    assert api_providers() == ["anthropic", "gemini", "openai"]
    assert batch_providers() == ["anthropic", "gemini", "openai"]
    assert judge_names() == ["anthropic", "gemini", "openai", "sim"]
    assert provider_class("sim").simulator and not provider_class("openai").simulator
    with pytest.raises(UnknownName, match="known: anthropic, command, gemini, http, openai, sim"):
        provider_class("acme")


def test_a_registered_provider_is_listed_judged_and_extracts(
    acme: ProviderSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "acme" in api_providers() and "acme" in batch_providers()
    assert "acme" in listed() and "acme" in judge_names()
    judge = make_judge("acme", ModelOptions(model="stub-model"))
    assert isinstance(judge, ApiJudge) and judge.provider.name == "acme"
    with pytest.raises(UnknownName, match="known: acme, anthropic, gemini, openai, sim"):
        make_judge("nobody", ModelOptions(model="m"))
    packets = tmp_path / "packets"
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    monkeypatch.setenv("ACME_API_KEY", "acme-test-key-0123456789")
    with StubServer("acme", packets) as stub:
        config = ExtractionConfig(
            provider="acme",
            api=ModelOptions(model="stub-model", base_url=stub.base_url),
            selection=Selection(limit=2),
        )
        summary = extract_run(config, packets, tmp_path / "run")
    assert summary.by_status == {"ok": 2}
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert (info["provider"], info["api_key_from"]) == ("acme", ["ACME_API_KEY"])
    assert "acme-test-key" not in (tmp_path / "run" / "run.json").read_text()
