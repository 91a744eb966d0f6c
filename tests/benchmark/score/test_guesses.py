"""Illegible fields (docs/patterns.md rule 3b): a null there is a correct abstention, a value is a
guess reported apart (right, grounded in the packet, wrong) and never a hallucination.

A hand-edited record gets exactly the outcomes written into it, and the hallucination rates
do not move; the simulator's guesses on the canonical N4 and N5 packets are recovered from the
`illegible` views exactly as its ledger wrote them.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from packetbench.benchmark.report.render import write_report
from packetbench.benchmark.results import load_run, open_runs
from packetbench.benchmark.score.outputs import read_documents
from packetbench.benchmark.score.scorer import RunScores, score_run
from packetbench.core.leaves import set_path
from packetbench.truth import universe
from tests.support.chromium import section_table
from tests.support.files import read_json as _json
from tests.support.paths import PACKETS
from tests.support.scoring import ledger_mismatches

SimRun = Callable[..., tuple[Path, RunScores]]
DOC = "acord_125"
# Fields of DOC the test blots: guessed right (as written, and as another form of an id),
# guessed from another document, guessed wrong, and left empty.
RIGHT, RIGHT_AS_ID, GROUNDED, WRONG = (
    "lines_of_business.commercial_property.premium",
    "agency.customer_id",
    "carrier.underwriter",
    "agency.contact_name",
)
LEFT_EMPTY = ("carrier.underwriter_office", "agency.address.city")


def _save(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def blot(packet: Path, doc_id: str, paths: tuple[str, ...]) -> dict[str, Any]:
    """Leave `paths` of a document as overlay.blot leaves a value it destroys: truth null,
    field truth `illegible: true` with no legible location, its text moved from the
    universe's strings to `illegible`. Returns path -> the destroyed value."""
    truth = _json(packet / f"document_truth_{doc_id}.json")
    fields = _json(packet / f"field_truth_{doc_id}.json")
    shown = _json(packet / f"rendered_universe_{doc_id}.json")
    destroyed = {}
    for entry in fields["fields"]:
        if entry["path"] not in paths:
            continue
        set_path(truth["truth"], entry["path"], None)
        entry["illegible"] = True
        for location in entry["locations"]:
            location["legible"] = False
        drawn = {"text": entry["rendered_as"], "page": entry["locations"][0]["page"]}
        if drawn in shown["strings"]:
            shown["strings"].remove(drawn)
        shown["illegible"].append({"path": entry["path"], **drawn, "value": entry["value"]})
        destroyed[entry["path"]] = entry["value"]
    assert set(destroyed) == set(paths)
    for name, data in (("document_truth", truth), ("field_truth", fields)):
        _save(packet / f"{name}_{doc_id}.json", data)
    _save(packet / f"rendered_universe_{doc_id}.json", shown)
    return destroyed


@pytest.fixture(scope="module")
def blotted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the canonical N1 packet with six fields of its ACORD 125 blotted."""
    folder = tmp_path_factory.mktemp("blotted")
    shutil.copytree(PACKETS / "N1-000001", folder / "N1-000001")
    blot(folder / "N1-000001", DOC, (RIGHT, RIGHT_AS_ID, GROUNDED, WRONG, *LEFT_EMPTY))
    return folder


@pytest.fixture(scope="module")
def n4_n5(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("n4-n5")
    for name in ("N4-000001", "N5-000001"):
        (folder / name).symlink_to(PACKETS / name)
    return folder


def test_a_hand_edited_record_gets_exactly_its_guesses(
    sim_run: SimRun, blotted: Path, tmp_path: Path
) -> None:
    """Guesses right (one written as another form of the destroyed id), grounded in another
    document and wrong, and nulls on the other illegible fields: the claims carry exactly
    those outcomes, the fields are answered or abstained, and no hallucination count moves."""
    packet = blotted / "N1-000001"
    built = universe.build(packet)
    destroyed = built.illegible[DOC]
    assert set(destroyed) == {RIGHT, RIGHT_AS_ID, GROUNDED, WRONG, *LEFT_EMPTY}
    source = sim_run("perfect", 0, blotted)[0]  # perfect abstains on every illegible field
    run = tmp_path / "run"
    shutil.copytree(source, run, ignore=shutil.ignore_patterns("scores", "results.duckdb"))
    # A name another document shows and the blotted one does not.
    grounded_name = next(
        entry["value"]
        for doc_id in universe.packet_doc_ids(packet)
        if doc_id != DOC
        for entry in _json(packet / f"field_truth_{doc_id}.json")["fields"]
        if entry["kind"] == "string"
        and len(str(entry["value"]).split()) == 2
        and not built.documents[DOC].has_string(entry["value"])
    )
    assert built.packet.has_string(grounded_name)
    customer = str(destroyed[RIGHT_AS_ID])
    written = {
        RIGHT: (int(destroyed[RIGHT]), "guess_right"),
        RIGHT_AS_ID: (f"{customer[:1]}-{customer[1:]}", "guess_right"),
        GROUNDED: (grounded_name, "guess_grounded"),
        WRONG: ("Zyxqvort Quillane", "guess_wrong"),
    }
    record = run / "extractions" / "N1-000001" / f"{DOC}.json"
    data = _json(record)
    for path, (value, _) in written.items():
        set_path(data["output"], path, value)
    _save(record, data)
    score_run(run, blotted)
    load_run(run, blotted)

    claims = duckdb.execute(
        "SELECT doc_id, path, guess, hallucinated, hallucinated_document, verdict, grounded_in "
        f"FROM read_parquet('{run / 'scores' / 'claims.parquet'}') WHERE guess IS NOT NULL"
    ).fetchall()
    assert {(d, p): g for d, p, g, *_ in claims} == {(DOC, p): g for p, (_, g) in written.items()}
    for _, path, _, hallucinated, in_document, verdict, grounded_in in claims:
        assert hallucinated is None and in_document is None, path
        assert verdict != "supported"
        if path == GROUNDED:
            assert grounded_in == "packet"
    fields = duckdb.execute(
        "SELECT doc_id, path, outcome FROM "
        f"read_parquet('{run / 'scores' / 'fields.parquet'}') WHERE illegible"
    ).fetchall()
    assert {(d, p): o for d, p, o in fields} == {
        (DOC, p): "answered" if p in written else "abstained" for p in destroyed
    }

    # The headline hallucination rates do not move: the wrong guess is shown nowhere in the
    # packet, yet nothing is hallucinated (the perfect run's 0 stays 0).
    before, after = read_documents(source / "scores"), read_documents(run / "scores")
    assert {k: d["grounding"] for k, d in after.items()} == {
        k: d["grounding"] for k, d in before.items()
    }
    hallucination = _json(run / "scores" / "hallucination.json")
    assert hallucination["overall"] == _json(source / "scores" / "hallucination.json")["overall"]
    for kind in ("numbers", "strings"):
        assert hallucination["overall"]["packet"][kind]["hallucinated"] == 0
    answered = _json(run / "scores" / "field_breakdown.json")["overall"]["answered"]
    assert answered == len(written)

    with open_runs([run]) as runs:
        whole = runs.rows("SELECT * FROM illegible WHERE tier = 'all'")[0]
        headline = {r["metric"]: r["num"] for r in runs.metric("headline")}
    assert (whole["fields"], whole["abstained"], whole["guesses"]) == (6, 2, 4)
    assert (whole["guess_right"], whole["guess_grounded"], whole["guess_wrong"]) == (2, 1, 1)
    assert headline["halluc_all"] == 0


def test_runs_without_illegible_values_have_no_rows(sim_run: SimRun, tmp_path: Path) -> None:
    """A run of packets without illegible values is absent from the views, not zero."""
    folder = tmp_path / "packets"
    folder.mkdir()
    (folder / "N1-000001").symlink_to(PACKETS / "N1-000001")
    run = sim_run("typical", 1, folder)[0]
    load_run(run, folder)
    with open_runs([run]) as runs:
        assert runs.rows("SELECT * FROM illegible") == []
        assert runs.rows("SELECT * FROM illegible_units") == []
        assert runs.rows("SELECT COUNT(*) AS n FROM claims WHERE guess IS NOT NULL")[0]["n"] == 0


@pytest.mark.parametrize(
    "profile",
    [
        "typical",
        pytest.param("perfect", marks=pytest.mark.slow),
        pytest.param("sloppy", marks=pytest.mark.slow),
    ],
)
@pytest.mark.slow
def test_the_sims_guesses_are_recovered_from_the_views(
    sim_run: SimRun, n4_n5: Path, profile: str
) -> None:
    """Every choice the simulator made on an illegible field (abstain, or guess right,
    grounded, wrong) is in its ledger; the views count exactly those, per document and per
    run, and every guess claim is the ledger's (path, outcome, value)."""
    run = sim_run(profile, 1, n4_n5)[0]
    load_run(run, n4_n5)
    assert ledger_mismatches(run) == []
    ledger = _json(run / "sim_injections.json")
    documents = {k: d for k, d in ledger["documents"].items() if d["status"] == "ok"}
    expected = {k: d["illegible"] for k, d in documents.items() if "illegible" in d}
    assert expected
    outcomes = ("abstained", "guess_right", "guess_grounded", "guess_wrong")
    with open_runs([run]) as runs:
        units = runs.rows("SELECT * FROM illegible_units")
        whole = runs.rows("SELECT * FROM illegible WHERE tier = 'all'")[0]
        guesses = runs.rows(
            "SELECT packet_id || '/' || doc_id AS doc, path, guess, value FROM claims "
            "WHERE guess IS NOT NULL"
        )
    found: dict[str, dict[str, int]] = {}
    for unit in units:
        doc = found.setdefault(f"{unit['packet_id']}/{unit['doc_id']}", {})
        doc["fields"] = unit["den"]
        doc[unit["metric"]] = unit["num"]
    assert found == {k: {o: e[o] for o in ("fields", *outcomes)} for k, e in expected.items()}
    total = ledger["overall"]["illegible"]
    assert {o: whole[o] for o in ("fields", *outcomes)} == {
        o: total[o] for o in ("fields", *outcomes)
    }
    assert sorted((g["doc"], g["path"], g["guess"], json.loads(g["value"])) for g in guesses) == (
        sorted(
            (k, c["path"], c["outcome"], c["value"])
            for k, e in expected.items()
            for c in e["choices"]
            if c["outcome"] != "abstained"
        )
    )
    drawn = Counter(c["outcome"] for e in expected.values() for c in e["choices"])
    if profile == "perfect":
        assert set(drawn) == {"abstained"}
    else:  # the test means something only if every outcome was drawn
        assert set(drawn) == set(outcomes)


@pytest.mark.slow
def test_the_report_shows_the_guesses_and_names_runs_without_them(
    sim_run: SimRun, n4_n5: Path, tmp_path: Path
) -> None:
    """Section 5's illegible subsection: each outcome of the run with illegible fields, with
    its count and intervals, and the tiers; the run without them named as absent."""
    guessed = sim_run("typical", 1, n4_n5)[0]
    folder = tmp_path / "packets"
    folder.mkdir()
    (folder / "N1-000001").symlink_to(PACKETS / "N1-000001")
    clean = sim_run("typical", 1, folder)[0]
    for run, packets in ((guessed, n4_n5), (clean, folder)):
        load_run(run, packets)
    files = write_report([guessed, clean], tmp_path / "report")
    text = files.markdown.read_text(encoding="utf-8")
    section = text[
        text.index("### Illegible values: abstention and guesses") : text.index("## 6. ")
    ]
    total = _json(guessed / "sim_injections.json")["overall"]["illegible"]
    with open_runs([guessed, clean]) as runs:
        name, other = runs.names
    for label, outcome in (
        ("Abstained", "abstained"),
        ("Guessed right", "guess_right"),
        ("Guessed from the packet", "guess_grounded"),
        ("Guessed wrong", "guess_wrong"),
    ):
        row = next(line for line in section.splitlines() if line.startswith(f"| {label} |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == name and (cells[3], cells[4]) == (
            str(total[outcome]),
            str(total["fields"]),
        )
        assert cells[6].startswith("["), row  # a bootstrap interval over documents
    assert f"| {name} | N4 |" in section and f"| {name} | N5 |" in section
    assert f"| {other} |" not in section
    assert f"(no rows, not zero): `{other}`" in section
    shown = section_table(files.html, "illegible", tmp_path / "illegible.png")
    if shown is None:
        return
    assert "Guessed from the packet" in shown and name in shown
