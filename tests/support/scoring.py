"""The scorer's counts against the simulator's ledger of injected errors."""

from __future__ import annotations

from pathlib import Path

from packetbench.benchmark.score.outputs import read_documents
from tests.support.files import read_json as _json

# Types only some classes of business carry: the canonical suite's packets insure one business
# and cannot carry them, so test_industry_types proves the scorer on packets that do.
INDUSTRY_TYPES = ("supplemental_restaurant", "supplemental_habitational")


def ledger_mismatches(run: Path) -> list[str]:
    """Every place where the scores differ from what the simulator injected."""
    ledger = _json(run / "sim_injections.json")
    fields = _json(run / "scores" / "field_breakdown.json")
    documents = read_documents(run / "scores")
    problems = []
    for key, entry in ledger["documents"].items():
        if entry["status"] != "ok":
            continue
        if key not in documents:
            problems.append(f"{key} was not scored")
            continue
        if documents[key]["fields"] != entry["field"]:
            problems.append(f"{key} field counts {documents[key]['fields']} != {entry['field']}")
        scored = {
            u: {
                c: {k: documents[key]["grounding"][u][c][k] for k in ("checked", "hallucinated")}
                for c in ("numbers", "strings")
            }
            for u in ("packet", "document")
        }
        if scored != entry["grounding"]:
            problems.append(f"{key} grounding {scored} != {entry['grounding']}")
        verdicts = {k: v for k, v in documents[key]["verdicts"].items() if v}
        if verdicts != entry["verdicts"]:
            problems.append(f"{key} verdicts {verdicts} != {entry['verdicts']}")
    excluded = fields["excluded"]
    scored_excluded = {
        "missing": sorted(excluded["missing"]),
        "error": sorted(e["document"] for e in excluded["error"]),
        "invalid": sorted(e["document"] for e in excluded["invalid"]),
    }
    if scored_excluded != ledger["overall"]["excluded"]:
        problems.append(f"excluded {scored_excluded} != {ledger['overall']['excluded']}")
    return problems
