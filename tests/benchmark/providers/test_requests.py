"""What each provider sends, read off the wire by the stub (real SDKs, no mocks)."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.extract import extract
from packetbench.benchmark.harness.stub import StubServer
from packetbench.benchmark.providers import provider_class
from packetbench.benchmark.providers.schema_clean import with_property_ordering
from packetbench.generator.schema_files import all_schemas
from tests.support.paths import PACKETS
from tests.support.stubs import KEYS, records, truth

PACKET = PACKETS / "N1-000001"


@pytest.fixture
def bodies(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> Iterator[Callable[..., tuple[dict[str, list[dict[str, Any]]], Path]]]:
    """bodies(api, reasoning=..., input=...) -> (request bodies by document, run)."""
    servers: list[StubServer] = []

    def run(api: str, **options: Any) -> tuple[dict[str, list[dict[str, Any]]], Path]:
        monkeypatch.setenv(KEYS[api], "requests-test-key-0005")
        modes = (
            ("native", "text", "images") if options.get("input") == "images" else ("native", "text")
        )
        server = StubServer(api, PACKET, keep_bodies=True, modes=modes).start()
        servers.append(server)
        provider = provider_class(api).from_options(
            {"model": options.pop("model", "stub-model"), "base_url": server.base_url, **options}
        )
        out = tmp_path / f"run-{len(servers)}"
        extract(provider, PACKET, out, options=HarnessOptions(use_cache=False))
        assert server.rejected == []
        return server.bodies, out

    yield run
    for server in servers:
        server.stop()


def test_openai_strict_structured_outputs_and_reasoning_effort(bodies: Any) -> None:
    sent, run = bodies("openai")
    body = sent["N1-000001/sov_pdf"][0]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["name"] == "sov"
    expected = {k: v for k, v in all_schemas()["sov"].items() if k not in ("$schema", "$id")}
    assert fmt["json_schema"]["schema"] == expected  # derived, not a kept copy
    assert body["max_completion_tokens"] == 32_000 and "reasoning_effort" not in body
    user = body["messages"][1]["content"]
    pdf = next(part for part in user if part["type"] == "file")["file"]
    assert pdf["filename"] == "sov_pdf.pdf"
    assert (
        base64.b64decode(pdf["file_data"].split("base64,")[1])
        == (PACKET / "sov_pdf.pdf").read_bytes()
    )
    sheet = next(
        p
        for p in sent["N1-000001/sov_excel"][0]["messages"][1]["content"]
        if p["type"] == "text" and p["text"].startswith("[sheet")
    )
    assert sheet["text"].startswith("[sheet 'SOV']\n")
    info = json.loads((run / "run.json").read_text())
    assert info["request"]["response_format"]["json_schema"]["strict"] is True
    assert info["versions"]["openai"] == metadata.version("openai")  # the SDK that sent it
    for level, effort in (("high", "high"), ("xhigh", "max")):
        sent, run = bodies("openai", reasoning=level)
        assert {b[0]["reasoning_effort"] for b in sent.values()} == {effort}
        assert json.loads((run / "run.json").read_text())["reasoning_parameters"] == {
            "reasoning_effort": effort
        }


@pytest.mark.slow
def test_anthropic_forces_its_tool_unless_thinking(bodies: Any) -> None:
    sent, run = bodies("anthropic")
    body = sent["N1-000001/loss_run_pdf"][0]
    assert body["tool_choice"] == {
        "type": "tool",
        "name": "record_extraction",
        "disable_parallel_tool_use": True,
    }
    assert [t["name"] for t in body["tools"]] == ["record_extraction"]
    assert "$schema" not in body["tools"][0]["input_schema"]
    assert body["tools"][0]["input_schema"]["title"] == "loss_run"
    assert "thinking" not in body
    document = body["messages"][0]["content"][0]
    assert document["type"] == "document" and document["source"]["media_type"] == (
        "application/pdf"
    )
    assert records(run)["N1-000001/loss_run_pdf"]["output"] == truth(
        PACKET.parent, "N1-000001/loss_run_pdf"
    )
    sent, run = bodies("anthropic", reasoning="high")
    body = sent["N1-000001/loss_run_pdf"][0]
    assert body["tool_choice"] == {"type": "auto"}  # a forced tool is refused with thinking
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 16_000}
    assert "record_extraction tool" in body["messages"][0]["content"][-1]["text"]
    assert all(r["status"] == "ok" for r in records(run).values())
    sent, _ = bodies("anthropic", reasoning="xhigh", max_output_tokens=64_000)
    assert sent["N1-000001/loss_run_pdf"][0]["thinking"] == {
        "type": "enabled",
        "budget_tokens": 48_000,
    }


def test_anthropic_adaptive_models_get_adaptive_thinking(bodies: Any) -> None:
    sent, _ = bodies("anthropic", reasoning="xhigh", model="claude-opus-4-6")
    body = sent["N1-000001/sov_pdf"][0]
    assert body["thinking"] == {"type": "adaptive"}
    assert body["output_config"] == {"effort": "max"}


def test_gemini_json_schema_with_property_ordering_and_thinking(bodies: Any) -> None:
    sent, _ = bodies("gemini", reasoning="high")
    config = sent["N1-000001/acord_140"][0]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    schema = config["responseJsonSchema"]
    original = all_schemas()["acord_140"]
    assert schema == with_property_ordering(
        {k: v for k, v in original.items() if k not in ("$schema", "$id")}
    )
    assert schema["propertyOrdering"] == list(original["properties"])

    def objects(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, dict):
            if "properties" in node:
                yield node
                for sub in node["properties"].values():
                    yield from objects(sub)
            yield from objects(node.get("items"))

    nested = list(objects(schema))
    assert len(nested) > 3
    assert all(o["propertyOrdering"] == list(o["properties"]) for o in nested)
    # Nested fields go out as the SDK writes them (snake_case, which the API's proto JSON
    # parser accepts as well as camelCase).
    assert config["thinkingConfig"] == {"thinking_level": "HIGH"}
    sent, _ = bodies("gemini", reasoning="xhigh", model="gemini-2.5-pro")
    assert sent["N1-000001/sov_pdf"][0]["generationConfig"]["thinkingConfig"] == {
        "thinking_budget": 32_768
    }


@pytest.mark.parametrize("api", ["openai", "gemini"])
@pytest.mark.slow
def test_text_and_image_inputs_reach_the_model(api: str, bodies: Any) -> None:
    sent, run = bodies(api, input="text")
    text = json.dumps(sent["N1-000001/sov_pdf"][0])
    assert "[page 1 of 1]" in text and "application/pdf" not in text
    assert all(r["status"] == "ok" for r in records(run).values())
    sent, run = bodies(api, input="images")
    text = json.dumps(sent["N1-000001/acord_125"][0])
    assert text.count("image/png") == 3  # one image per page
    assert all(r["status"] == "ok" for r in records(run).values())
