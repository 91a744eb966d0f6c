"""A two-document corpus in the reference corpus's published format, written for the tests.

One packet (N1_easy, seed 70001): an ACORD 25 drawn as a real PDF (reportlab) and a loss run
CSV; two of its schemas, cut down; two cohorts (one with an error stub and an output with a
key its schema lacks); and its published aggregates, counted by hand from its rules (see the
comments): the reconciliation must reproduce them exactly.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

PAGE_HEIGHT = 792.0
NULL_STR = {"type": ["string", "null"]}
NULL_NUM = {"type": ["number", "null"]}

ACORD_25_SCHEMA = {
    "title": "acord_25",
    "type": "object",
    "additionalProperties": False,
    "required": ["header", "total_premium", "coverages", "forms_attached", "flags"],
    "properties": {
        "header": {
            "type": "object",
            "additionalProperties": False,
            "required": ["insured_name", "insured_zip", "policy_period_start"],
            "properties": {
                "insured_name": NULL_STR,
                "insured_zip": NULL_STR,
                "policy_period_start": NULL_STR,
            },
        },
        "total_premium": NULL_NUM,
        "coverages": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["coverage_type", "limit"],
                "properties": {"coverage_type": NULL_STR, "limit": NULL_NUM},
            },
        },
        "forms_attached": {"type": "array", "items": {"type": "string"}},
        "flags": {
            "type": "object",
            "additionalProperties": False,
            "required": ["sprinklered"],
            "properties": {"sprinklered": {"type": ["boolean", "null"]}},
        },
    },
}
LOSS_RUN_SCHEMA = {
    "title": "loss_run",
    "type": "object",
    "additionalProperties": False,
    "required": ["claims", "grand_totals"],
    "properties": {
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["claim_number", "paid", "status"],
                "properties": {
                    "claim_number": NULL_STR,
                    "paid": NULL_NUM,
                    "status": {"type": ["string", "null"], "enum": ["Open", "Closed", None]},
                },
            },
        },
        "grand_totals": {
            "type": "object",
            "additionalProperties": False,
            "required": ["paid"],
            "properties": {"paid": NULL_NUM},
        },
    },
}

# (text, x, y from the top of the page) drawn on the ACORD 25, 10 pt Helvetica.
DRAWN = [
    ("CERTIFICATE OF INSURANCE", 72.0, 60.0),
    ("Insured:", 72.0, 86.0),
    ("Lone Star Holdings, LP", 72.0, 100.0),
    ("Zip:", 300.0, 86.0),
    ("75201", 300.0, 100.0),
    ("Effective:", 72.0, 130.0),
    ("07/01/2025", 72.0, 144.0),
    ("Premium:", 300.0, 130.0),
    ("$1,250", 300.0, 144.0),
    ("Property", 72.0, 180.0),
    ("$500,000", 300.0, 180.0),
    ("CP 00 10", 72.0, 210.0),
]


def _box(text: str, x: float, y: float) -> dict[str, Any]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return {
        "page": 1,
        "x": x,
        "y": y,
        "width": round(stringWidth(text, "Helvetica", 10), 1),
        "height": 10.0,
    }


def _where(text: str) -> dict[str, Any]:
    x, y = next((x, y) for t, x, y in DRAWN if t == text)
    return _box(text, x, y)


def _pdf(path: Path) -> None:
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=(612.0, PAGE_HEIGHT), invariant=True)
    pdf.setFont("Helvetica", 10)
    for text, x, y in DRAWN:
        pdf.drawString(x, PAGE_HEIGHT - y - 8.0, text)  # baseline 8 pt below the box's top
    pdf.showPage()
    pdf.save()


CSV_ROWS = [["Claim Number", "Paid", "Status"], ["CL-1001", "$1,200.00", "Open"]]


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def acord_25_field_truth() -> dict[str, Any]:
    return {
        "fields": {
            "insured_name": {
                "value": "Lone Star Holdings, LP",
                "locations": [_where("Lone Star Holdings, LP")],
            },
            "insured_zip": {"value": "75201", "locations": [_where("75201")]},
            "policy_period_start": {
                "value": "2025-07-01",
                "rendered_as": "07/01/2025",
                "locations": [_where("07/01/2025")],
            },
            "total_premium": {"value": 1250, "rendered_as": "$1,250"},
            "sprinklered": {"value": True},
            "broker_color": {"value": "teal"},  # no schema leaf: unmapped
        },
        "coverages": [
            {
                "coverage_type": "Property",
                "limit": {"value": 500000, "rendered_as": "$500,000"},
                "rating_basis": "ISO",
            }
        ],  # no schema leaf: unmapped
        "forms_attached": ["CP 00 10"],
        "doc_type": "acord_25",  # metadata
    }


def loss_run_field_truth() -> dict[str, Any]:
    return {
        "claims": [
            {
                "claim_number": {"value": "CL-1001"},
                "total_paid": {"value": 1200.0, "rendered_as": "$1,200.00"},
                "status": {"value": "Open"},
                "examiner": "J. Doe",
            }
        ],  # examiner: unmapped
        "grand_totals": {"total_paid": {"value": 1200.0}},
        "format": "csv",
        "doc_type": "loss_run_csv",  # metadata
    }


GPT55_ACORD = {
    "header": {
        "insured_name": "Lone Star Holdings, LP",
        "insured_zip": "75201",
        "policy_period_start": "07/01/2025",
    },
    "total_premium": 1250,
    "coverages": [{"coverage_type": "Property", "limit": 750000}],
    "forms_attached": ["CP 00 10"],
    "flags": {"sprinklered": True},
}
GPT55_LOSS = {
    "claims": [
        {"claim_number": "CL-1001", "paid": 1200, "status": "Open"},
        {"claim_number": "CL-9999", "paid": 50, "status": "Closed"},
    ],
    "grand_totals": {"paid": 1250},
}
# Its rules, by hand. ACORD 25: strings insured_name, policy_period_start, forms_attached[0]
# (3 checked, none invented); numbers insured_zip ("75201" is a formatted number) and
# coverages[0].limit (750000 is nowhere): 2 checked, 1 hallucinated; total_premium (an
# aggregate), coverage_type (a skipped leaf name) and the boolean are skipped. Loss run:
# strings claim_number x2 (CL-9999 invented), numbers paid x2 (50 invented); status (a
# skipped leaf name) and grand_totals (a skipped path fragment) skipped.
PUBLISHED_DOCS = {
    "gpt55": {"N1_easy_70001/acord_25": (3, 0, 2, 1), "N1_easy_70001/loss_run_csv": (2, 1, 2, 1)},
    # the same ACORD 25 plus a key its schema lacks ("see attached" is a filler it skips);
    # the loss run is an error stub
    "gpt55_high": {"N1_easy_70001/acord_25": (3, 0, 2, 1)},
}
FIELD_BREAKDOWN = {
    "gpt55": {
        "overall": {
            "fields_scored": 10,
            "correctness_rate_micro": 0.5,
            "wrong_value_rate_micro": 0.2,
            "omission_rate_micro": 0.3,
        }
    },
    "gpt55_high": {
        "overall": {
            "fields_scored": 5,
            "correctness_rate_micro": 0.6,
            "wrong_value_rate_micro": 0.2,
            "omission_rate_micro": 0.2,
        }
    },
}


def _report(docs: dict[str, tuple[int, int, int, int]]) -> dict[str, Any]:
    per = {
        key: {
            "strings_checked": s,
            "strings_hallucinated": sh,
            "numbers_checked": n,
            "numbers_hallucinated": nh,
        }
        for key, (s, sh, n, nh) in docs.items()
    }
    s = sum(v[0] for v in docs.values())
    sh = sum(v[1] for v in docs.values())
    n = sum(v[2] for v in docs.values())
    nh = sum(v[3] for v in docs.values())
    return {
        "docs": per,
        "aggregate": {
            "overall": {
                "docs": len(docs),
                "strings_checked": s,
                "strings_hallucinated": sh,
                "string_hallucination_rate": sh / s if s else None,
                "numbers_checked": n,
                "numbers_hallucinated": nh,
                "number_hallucination_rate": nh / n if n else None,
            }
        },
    }


def write_corpus(root: Path) -> Path:
    """Write the corpus under `root`; returns `root`."""
    packet = root / "packets" / "N1_easy" / "doc_70001"
    documents, truth = packet / "documents", packet / "ground_truth"
    documents.mkdir(parents=True)
    _pdf(documents / "acord_25_70001.pdf")
    with (documents / "loss_run_csv_70001.csv").open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(CSV_ROWS)
    _write(root / "schemas" / "acord_25.schema.json", ACORD_25_SCHEMA)
    _write(root / "schemas" / "loss_run.schema.json", LOSS_RUN_SCHEMA)
    (root / "COMMIT").write_text("0123456789abcdef\n", encoding="utf-8")
    fields = {"acord_25": acord_25_field_truth(), "loss_run_csv": loss_run_field_truth()}
    for doc_id, field_truth in fields.items():
        _write(truth / f"field_truth_{doc_id}.json", field_truth)
    _write(
        truth / "manifest_acord_25.json",
        {
            "patterns_applied": [
                {
                    "id": "p09_watermark",
                    "name": "Watermark",
                    "phase": "overlay",
                    "pages_affected": [],
                    "ground_truth_delta": {},
                },
                {
                    "id": "p43_skewed_scan",
                    "name": "Skewed scan",
                    "phase": "scan_effects",
                    "pages_affected": [2],
                    "ground_truth_delta": {},
                },
            ]
        },
    )
    _write(truth / "manifest_loss_run_csv.json", {"patterns_applied": []})
    _write(
        truth / "rendered_universe_acord_25.json",
        {
            "doc_type": "acord_25",
            "doc": {
                "format": "pdf",
                "elements": [
                    {
                        "value": t,
                        "kind": "string",
                        "origin": "canvas.drawString",
                        "page": 1,
                        "x": x,
                        "y": y,
                    }
                    for t, x, y in DRAWN
                ],
            },
        },
    )
    _write(
        truth / "rendered_universe_loss_run_csv.json",
        {
            "doc_type": "loss_run_csv",
            "doc": {
                "format": "csv",
                "elements": [
                    {
                        "value": v,
                        "kind": "string",
                        "origin": "csv.writerow",
                        "csv_row": r + 1,
                        "csv_col": c + 1,
                    }
                    for r, row in enumerate(CSV_ROWS)
                    for c, v in enumerate(row)
                ],
            },
        },
    )
    _write(
        truth / "packet_truth.json", {"seed": 70001, "insured": {"name": "Lone Star Holdings, LP"}}
    )
    _write(
        root / "ground_truth" / "N1_easy_70001.json",
        {
            "packet_id": "N1_easy_70001",
            "difficulty": "N1_easy",
            "seed": 70001,
            "documents": {
                doc_id: {
                    "doc_type": doc_id,
                    "category": "test",
                    "prompt_file": "x.md",
                    "raw_ground_truth": data,
                }
                for doc_id, data in fields.items()
            },
        },
    )
    results = root / "results"
    _write(results / "gpt55" / "extraction_N1_easy_70001_acord_25.json", GPT55_ACORD)
    _write(results / "gpt55" / "extraction_N1_easy_70001_loss_run_csv.json", GPT55_LOSS)
    _write(
        results / "gpt55" / "run_summary.json",
        {
            "results": [
                {
                    "packet_id": "N1_easy_70001",
                    "doc_type": "acord_25",
                    "input_tokens": 1000,
                    "output_tokens": 200,
                    "cost_usd": 0.01,
                    "elapsed_s": 3.5,
                }
            ]
        },
    )
    _write(
        results / "gpt55_high" / "extraction_N1_easy_70001_acord_25.json",
        {**GPT55_ACORD, "additional_fields": {"note": "see attached"}},
    )
    _write(
        results / "gpt55_high" / "extraction_N1_easy_70001_loss_run_csv.json",
        {"error": "Request timed out", "packet_id": "N1_easy_70001", "doc_type": "loss_run_csv"},
    )
    aggregate = root / "results_aggregate"
    _write(
        aggregate / "hallucination_report.json",
        {cohort: _report(docs) for cohort, docs in PUBLISHED_DOCS.items()},
    )
    _write(aggregate / "field_breakdown.json", FIELD_BREAKDOWN)
    return root
