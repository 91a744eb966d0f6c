"""Schemas are strict, current, and every document truth is a valid instance."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from packetbench.core import codes
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.schema_files import all_schemas, stale
from tests.support.files import read_json
from tests.support.paths import ROOT
from tests.support.readback import doc_ids
from tests.support.schemas import SCHEMAS, strictness_problems


def test_every_schema_is_strict() -> None:
    schemas = all_schemas()
    assert set(schemas) == set(DOC_TYPES) and len(schemas) >= 15
    for name, schema in schemas.items():
        Draft202012Validator.check_schema(schema)
        assert strictness_problems(schema, name) == []


def test_strictness_walker_can_fail() -> None:
    loose = {
        "type": "object",
        "description": "x",
        "properties": {"a": {"type": "string", "description": "a"}},
        "required": [],
    }
    assert len(strictness_problems(loose, "loose")) == 3


def test_enums_come_from_code_lists() -> None:
    code_values = {tuple(c.values) for c in codes.ALL}

    def enums(node: dict[str, Any]) -> list[list[Any]]:
        found = [node["enum"]] if "enum" in node else []
        for child in node.get("properties", {}).values():
            found += enums(child)
        if "items" in node:
            found += enums(node["items"])
        return found

    for schema in all_schemas().values():
        for values in enums(schema):
            assert tuple(values[:-1]) in code_values


def test_every_code_list_is_listed_in_all() -> None:
    # The scorer and the audit read abbreviations only from codes.ALL: a list left out would
    # make its abbreviated renderings unreadable to both.
    defined = {id(v) for v in vars(codes).values() if isinstance(v, codes.CodeList)}
    assert defined == {id(c) for c in codes.ALL}


def test_committed_schemas_are_current() -> None:
    assert stale(SCHEMAS) == []


@pytest.mark.slow
def test_check_flag_fails_on_stale_schemas(tmp_path: Path) -> None:
    folder = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, folder)
    script = str(ROOT / "_build_schemas.py")
    ok = subprocess.run(
        [sys.executable, script, "--check", "--out", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    victim = next(folder.glob("*.schema.json"))
    data = json.loads(victim.read_text())
    data["description"] = "edited by hand"
    victim.write_text(json.dumps(data))
    bad = subprocess.run(
        [sys.executable, script, "--check", "--out", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1
    assert victim.name in bad.stderr


@pytest.fixture(scope="module")
def validators() -> dict[str, Draft202012Validator]:
    return {name: Draft202012Validator(s) for name, s in all_schemas().items()}


def _validate_packet(packet: Path, validators: dict[str, Draft202012Validator]) -> None:
    for doc_id in doc_ids(packet):
        truth = read_json(packet / f"document_truth_{doc_id}.json")
        errors = list(validators[truth["schema"]].iter_errors(truth["truth"]))
        assert not errors, f"{packet.name}/{doc_id}: {errors[0].message} at {errors[0].path}"


def test_canonical_truths_validate(
    canonical_packets: list[Path], validators: dict[str, Draft202012Validator]
) -> None:
    for packet in canonical_packets:
        _validate_packet(packet, validators)


@pytest.mark.slow
def test_fresh_truths_validate(
    fresh_packet_dir: Any, validators: dict[str, Draft202012Validator]
) -> None:
    for tier in ("N1", "N2", "N3"):
        _validate_packet(fresh_packet_dir(tier, 3), validators)
