"""The strict schema of a cited answer: the document's values and a list of evidence.

`extract --cite page|box` sends, in place of a document schema S,

    {"values": S, "evidence": [{"path", "page", ["x0", "y0", "x1", "y1",] "sheet", "cell",
                                "row", "column"}]}

A list of entries keyed by the value's path, rather than a second object mirroring S, keeps
the schema small (a mirrored S would double its properties, and OpenAI and Anthropic bound a
strict schema's size) and keeps S itself byte-identical inside it. Every object lists every
property in `required` with `additionalProperties: false`, and every entry field is a
nullable scalar: the form all three providers' strict modes accept (no tuples, no
`minItems`, no unions beyond `[type, "null"]`). A PDF value cites `page` (and with `box` the
box in the page's 0-1 coordinates, origin top left); a workbook value `sheet` and `cell`; a
CSV value `row` and `column` (0-based, the header is row 0); the other fields are null.
"""

from __future__ import annotations

from typing import Any

# Evidence asked for in the strict schema (page, box), or the provider's own document
# citations in a second pass (native: Anthropic, PDF pages; `grounding.native`).
EVIDENCE_MODES: tuple[str, ...] = ("page", "box")
NATIVE = "native"
CITE_MODES: tuple[str, ...] = (*EVIDENCE_MODES, NATIVE)
BOX_KEYS: tuple[str, ...] = ("x0", "y0", "x1", "y1")


def _nullable(kind: str, description: str) -> dict[str, Any]:
    return {"type": [kind, "null"], "description": description}


def entry_schema(mode: str) -> dict[str, Any]:
    """The schema of one evidence entry for `mode` (page or box)."""
    properties: dict[str, Any] = {
        "path": {
            "type": ["string", "null"],
            "description": "The value this evidence is for: its path in values, dotted, list "
            "items by 0-based index (insured.name, locations[2].building_value).",
        },
        "page": _nullable("integer", "PDF: the 1-based page the value is printed on."),
    }
    if mode == "box":
        edges = {
            "x0": "left edge",
            "y0": "top edge",
            "x1": "right edge",
            "y1": "bottom edge",
        }
        for key, edge in edges.items():
            properties[key] = _nullable(
                "number",
                f"PDF: the {edge} of the value's box, as a fraction 0-1 of the page's "
                "width or height, measured from the page's top left corner.",
            )
    properties |= {
        "sheet": _nullable("string", "Workbook: the sheet name the value is in."),
        "cell": _nullable("string", "Workbook: the value's cell, A1 style (B7)."),
        "row": _nullable("integer", "CSV: the 0-based row of the value (the header is row 0)."),
        "column": _nullable("integer", "CSV: the 0-based column of the value."),
    }
    return {
        "type": "object",
        "description": "Where one value of values is shown in the document.",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def confidence_entry_schema() -> dict[str, Any]:
    """The schema of one confidence entry (`extract --confidence`): a value's path and the
    model's probability that the value is right. The 0-1 range is said in the description,
    not as numeric bounds, which strict modes do not all accept."""
    properties: dict[str, Any] = {
        "path": {
            "type": ["string", "null"],
            "description": "The value this confidence is for: its path in values, as in "
            "evidence (insured.name, locations[2].building_value).",
        },
        "confidence": _nullable(
            "number",
            "The probability, from 0 to 1, that the value is exactly what the document "
            "states for that field.",
        ),
    }
    return {
        "type": "object",
        "description": "How sure the answer is of one value of values.",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def wrapped_schema(
    schema: dict[str, Any], cite: str | None, confidence: bool = False
) -> dict[str, Any]:
    """`schema` (a document schema) under `values`, with the evidence list of `cite` (page
    or box) and, with `confidence`, a list of each value's confidence. Without confidence
    the schema is exactly the cited schema it always was."""
    if cite is not None and cite not in EVIDENCE_MODES:
        raise ValueError(f"unknown evidence mode {cite!r}")
    # The keys that describe the schema file ($schema, $id) do not belong inside another.
    values = {key: value for key, value in schema.items() if key not in ("$schema", "$id")}
    properties: dict[str, Any] = {"values": values}
    if cite is not None:
        properties["evidence"] = {
            "type": "array",
            "description": "One entry per non-null value of values, in the order of values.",
            "items": entry_schema(cite),
        }
    if confidence:
        properties["confidence"] = {
            "type": "array",
            "description": "One entry per non-null value of values, in the order of values.",
            "items": confidence_entry_schema(),
        }
    if cite is None:
        description = "The document's values and how sure the answer is of each."
    elif confidence:
        description = (
            "The document's values and, for every non-null value, where the document shows "
            "it and how sure the answer is of it."
        )
    else:
        description = (
            "The document's values and, for every non-null value, where the document shows it."
        )
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def cited_schema(schema: dict[str, Any], mode: str) -> dict[str, Any]:
    """`schema` (a document schema) wrapped with the evidence list of `mode`."""
    if mode not in EVIDENCE_MODES:
        raise ValueError(f"unknown evidence mode {mode!r}")
    return wrapped_schema(schema, mode)


def confidence_info() -> dict[str, Any]:
    """What run.json records about a run asked for confidences."""
    return {
        "source": "schema",  # a list beside values in the strict schema
        "scale": "0-1, the probability that the value is right; a number outside it or "
        "none is recorded with its problem and not scored",
    }


def citation_info(mode: str) -> dict[str, Any]:
    """What run.json records about a cited run: the mode and the coordinate conventions."""
    if mode == NATIVE:
        return {
            "mode": mode,
            # the provider's document citations, asked for in a second request per document
            "source": "native",
            "pdf": "page, 1-based (the first page of the provider's page range); no box",
            "xlsx": "none (native citations cover PDF documents only)",
            "csv": "none (native citations cover PDF documents only)",
        }
    info: dict[str, Any] = {
        "mode": mode,
        "source": "schema",  # evidence asked for in the strict schema (not native citations)
        "pdf": "page, 1-based"
        if mode == "page"
        else "page, 1-based; box x0, y0, x1, y1 in "
        "0-1 of the page, origin top left; the record converts it to PDF points "
        "(origin bottom left) under points",
        "xlsx": "sheet and A1 cell",
        "csv": "row and column, 0-based, header row 0",
    }
    return info
