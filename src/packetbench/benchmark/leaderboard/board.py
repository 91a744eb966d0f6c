"""The rows of a leaderboard, from scored runs of one split of a release.

Each run is first checked against the release (`release.matching`: the sha256 of every file it
read against the commitment); a run made on other packets, on part of a split or on two splits
is refused. The rates are the results views' (`benchmark/metrics/*.sql`) and their intervals
the report's (`report.estimates`, `report.confidence`: a percentile bootstrap over documents,
2,000 resamples, fixed seed). The paired tests are `packetbench compare`'s (a sign test on
per-document rates of the documents both runs scored), each row against the leader, with
Holm's correction over every test of the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.benchmark.release.layout import Release, ReleaseMismatch, read_release
from packetbench.benchmark.release.matching import Match, NotOnRelease, match
from packetbench.benchmark.release.reading import ReleaseRun, run_info
from packetbench.benchmark.stats.bootstrap import Interval
from packetbench.core.errors import BadInput, UsageError

# metric, label, which way is better, where it comes from
COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("accuracy", "Value accuracy", "higher", "split"),
    ("halluc_numbers", "Numbers hallucinated", "lower", "headline"),
    ("halluc_strings", "Strings hallucinated", "lower", "headline"),
    ("correct_abstention", "Correct abstention", "higher", "headline"),
    ("over_refusal", "Over-refusal", "lower", "headline"),
    ("grounding_f1_page", "Grounding F1 (page)", "higher", "grounding"),
    ("citation_precision_page", "Citation precision (page)", "higher", "grounding"),
    ("confidence_auc", "Confidence AUC", "higher", "confidence"),
    # Of the values legible in the file but not at the resolution the run sent its pages at
    # (docs/resolution.md), the share it wrote a value shown nowhere for; shown only on a
    # board where some run has such values.
    ("below_guess_wrong", "Invented below resolution", "lower", "below"),
)
HALLUCINATION = ("halluc_numbers", "halluc_strings")
ALPHA = 0.05


NO_INTERVAL = Interval(None, None)


@dataclass(frozen=True)
class Cell:
    value: float | None
    interval: Interval = NO_INTERVAL


@dataclass(frozen=True)
class Versus:
    """One paired sign test of a row against the leader."""

    documents: int
    row_higher: int
    leader_higher: int
    p_value: float | None
    p_holm: float | None = None
    verdict: str = "not tested"  # worse | better | no significant difference | not tested


@dataclass
class Row:
    run: ReleaseRun
    name: str
    documents_scored: int
    documents: int
    cells: dict[str, Cell]
    cost_usd: float | None
    pages: int
    correct: int
    versus: dict[str, Versus] = field(default_factory=dict)
    rank: int = 0

    @property
    def cost_per_page(self) -> float | None:
        return None if self.cost_usd is None or not self.pages else self.cost_usd / self.pages

    @property
    def cost_per_correct(self) -> float | None:
        return None if self.cost_usd is None or not self.correct else self.cost_usd / self.correct


@dataclass
class Board:
    release: Release
    split: str
    rank_by: str
    alpha: float
    rows: list[Row]
    tested: tuple[str, ...]
    tests: int
    unrated: int = 0  # documents no run scored with a populated truth field

    @property
    def labels(self) -> dict[str, str]:
        return {metric: label for metric, label, *_ in COLUMNS}


def _release(folder: Path) -> Release:
    try:
        return read_release(folder)
    except ReleaseMismatch as error:
        raise BadInput(f"{error} (check it with packetbench release verify {folder})") from None


def check_runs(paths: list[Path], release: Release) -> tuple[list[ReleaseRun], list[Match]]:
    """Every run's run.json read and matched to one split of `release`; BadInput (one line)
    for a run made on other packets, on part of a split, or on another split than the rest."""
    infos: list[ReleaseRun] = []
    matches: list[Match] = []
    for path in paths:
        info = run_info(path)
        try:
            found = match(release, info.packets, path)
        except NotOnRelease as error:
            raise BadInput(str(error)) from None
        if matches and found.split != matches[0].split:
            raise BadInput(
                f"{path}: a run of split {found.split}, the others of {matches[0].split}; a "
                "leaderboard is of one split"
            )
        infos.append(info)
        matches.append(found)
    return infos, matches


def build_board(
    paths: list[Path], release_folder: Path, rank_by: str = "accuracy", alpha: float = ALPHA
) -> Board:
    """The leaderboard of the runs at `paths` on the release in `release_folder`."""
    from packetbench.benchmark.report.estimates import headline_estimates, layouts
    from packetbench.benchmark.results.query import open_runs

    if not paths:
        raise UsageError("give at least one run folder")
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1 (got {alpha})")
    headline = [metric for metric, _, _, source in COLUMNS if source == "headline"]
    if rank_by not in ("accuracy", *headline):
        raise UsageError(
            f"--rank-by {rank_by!r}: choose one of {', '.join(('accuracy', *headline))}"
        )
    release = _release(release_folder)
    infos, matches = check_runs(paths, release)
    split = matches[0].split
    with open_runs(paths, paired=True) as runs:
        layout = layouts(runs)
        estimates = headline_estimates(runs, layout)
        cited = _grounding(runs, layout)
        confidences = _confidence(runs, layout)
        below = _below_resolution(runs, layout)
        costs = _costs(runs, release, split, matches)
        accuracy = _accuracy(runs)
        rows: list[Row] = []
        for index, name in enumerate(runs.names):
            cells = {
                metric: Cell(e.micro, e.micro_doc)
                for (run, metric), e in estimates.items()
                if run == name and metric in headline
            }
            cells["accuracy"] = accuracy.cells[name]
            cells |= cited.get(name, {})
            if name in confidences:
                cells["confidence_auc"] = confidences[name]
            if name in below:
                cells["below_guess_wrong"] = below[name]
            cost, pages, correct, scored = costs[name]
            rows.append(
                Row(
                    infos[index],
                    name,
                    scored,
                    release.split(split).documents,
                    cells,
                    cost,
                    pages,
                    correct,
                )
            )
        rows = _ranked(rows, rank_by)
        tested = tuple(dict.fromkeys((rank_by, *HALLUCINATION)))
        tests = _versus(runs, rows, tested, alpha, accuracy)
    return Board(release, split, rank_by, alpha, rows, tested, tests, accuracy.unrated)


def _better(metric: str) -> str:
    return next(better for m, _, better, _ in COLUMNS if m == metric)


def _ranked(rows: list[Row], rank_by: str) -> list[Row]:
    sign = -1 if _better(rank_by) == "higher" else 1

    def key(row: Row) -> tuple[int, float, str]:
        value = row.cells.get(rank_by, Cell(None)).value
        return (value is None, sign * (value or 0.0), row.name)

    ordered = sorted(rows, key=key)
    for rank, row in enumerate(ordered, 1):
        row.rank = rank
    return ordered


def _grounding(runs: Any, layout: dict[str, Any]) -> dict[str, dict[str, Cell]]:
    from packetbench.benchmark.report.estimates import estimate_view

    cited = {r["run_id"] for r in runs.rows("SELECT DISTINCT run_id FROM grounding_units")}
    wanted = {metric for metric, _, _, source in COLUMNS if source == "grounding"}
    out: dict[str, dict[str, Cell]] = {}
    for name in runs.names:
        if name not in cited:
            continue
        found = estimate_view(runs, layout[name], "grounding_units", ("metric",))
        out[name] = {
            key[0]: Cell(e.micro, e.micro_doc) for key, e in found.items() if key[0] in wanted
        }
    return out


def _below_resolution(runs: Any, layout: dict[str, Any]) -> dict[str, Cell]:
    """run -> the share of its below-resolution fields it answered with a value shown nowhere
    (`below_resolution_units`, metric guess_wrong), for runs that have such fields."""
    from packetbench.benchmark.report.estimates import estimate_view

    hidden = {r["run_id"] for r in runs.rows("SELECT DISTINCT run_id FROM below_resolution_units")}
    out: dict[str, Cell] = {}
    for name in runs.names:
        if name not in hidden:
            continue
        found = estimate_view(runs, layout[name], "below_resolution_units", ("metric",))
        wrong = found.get(("guess_wrong",))
        if wrong is not None:
            out[name] = Cell(wrong.micro, wrong.micro_doc)
    return out


def _confidence(runs: Any, layout: dict[str, Any]) -> dict[str, Cell]:
    from packetbench.benchmark.report.confidence import _interval, replicates

    stated = {r["run_id"]: r for r in runs.rows("SELECT * FROM confidence")}
    out: dict[str, Cell] = {}
    for name in runs.names:
        row = stated.get(name)
        if row is None:
            continue
        drawn = replicates(runs, layout[name])
        interval = _interval(drawn[0]) if drawn is not None else Interval(None, None)
        auc = row.get("auc")
        out[name] = Cell(float(auc) if auc is not None else None, interval)
    return out


def _costs(
    runs: Any, release: Release, split: str, matches: list[Match]
) -> dict[str, tuple[float | None, int, int, int]]:
    """run -> (cost in dollars or None when nothing was priced, pages of the documents with a
    record, correct values, documents scored)."""
    pages = release.split(split).pages
    out: dict[str, tuple[float | None, int, int, int]] = {}
    for index, name in enumerate(runs.names):
        folders = matches[index].folders
        rows = runs.rows(
            "SELECT packet_id, doc_id, status, record_status, cost_usd, correct FROM documents "
            "WHERE run_id = ?",
            [name],
        )
        cost = 0.0
        priced = False
        page_count = correct = scored = 0
        for row in rows:
            if row["record_status"] is None:
                continue
            folder = folders.get(str(row["packet_id"]))
            page_count += pages.get(folder or "", {}).get(str(row["doc_id"]), 0)
            if row["cost_usd"]:
                cost += float(row["cost_usd"])
                priced = True
            if row["status"] == "scored":
                scored += 1
                correct += int(row["correct"] or 0)
        out[name] = (cost if priced else None, page_count, correct, scored)
    return out


@dataclass(frozen=True)
class Accuracy:
    """Value accuracy over every document of the split: a document a run did not score (no
    answer, an error, an output its schema refuses) counts its populated truth fields as not
    correct, so a run is not rated on the documents it managed alone."""

    cells: dict[str, Cell]
    rates: dict[str, Any]  # run -> per-document rate (documents in one order for every run)
    unrated: int  # documents no run scored with a populated truth field: left out


def _accuracy(runs: Any) -> Accuracy:
    import numpy as np

    from packetbench.benchmark.stats.bootstrap import intervals

    rows = runs.rows(
        "SELECT run_id, packet_id, doc_id, status, correct, gt_fields FROM documents "
        "ORDER BY packet_id, doc_id"
    )
    documents = sorted({(r["packet_id"], r["doc_id"]) for r in rows})
    fields: dict[tuple[str, str], int] = {}
    for r in rows:
        if r["status"] == "scored" and r["gt_fields"] is not None:
            key = (r["packet_id"], r["doc_id"])
            fields[key] = max(fields.get(key, 0), int(r["gt_fields"]))
    rated = [d for d in documents if fields.get(d, 0) > 0]
    index = {d: i for i, d in enumerate(rated)}
    den = np.array([fields[d] for d in rated], dtype=np.float64)
    cells: dict[str, Cell] = {}
    rates: dict[str, Any] = {}
    for name in runs.names:
        num = np.zeros(len(rated))
        for r in rows:
            key = (r["packet_id"], r["doc_id"])
            if r["run_id"] == name and r["status"] == "scored" and key in index:
                num[index[key]] = float(r["correct"] or 0)
        if not len(rated):
            cells[name] = Cell(None)
            continue
        found = intervals(num[:, None], den[:, None])
        cells[name] = Cell(float(num.sum() / den.sum()), found.micro[0])
        rates[name] = num / den
    return Accuracy(cells, rates, len(documents) - len(rated))


def _versus(
    runs: Any, rows: list[Row], tested: tuple[str, ...], alpha: float, accuracy: Accuracy
) -> int:
    """Each row's sign tests against the leader (rows[0]), Holm-corrected together."""
    from packetbench.benchmark.report.comparison import pair_statistics, run_units
    from packetbench.benchmark.stats.paired import holm, sign_test

    if len(rows) < 2:
        return 0
    paired = tuple(metric for metric in tested if metric != "accuracy")
    units = {u.name: u for u in run_units(runs, metrics=list(paired))} if paired else {}
    leader = rows[0].name
    better = {metric: _better(metric) for metric in tested}
    found: list[tuple[Row, str, Versus]] = []
    for row in rows[1:]:
        if "accuracy" in tested and leader in accuracy.rates and row.name in accuracy.rates:
            test = sign_test(accuracy.rates[leader], accuracy.rates[row.name])
            found.append(
                (
                    row,
                    "accuracy",
                    Versus(test.documents, test.b_higher, test.a_higher, test.p_value),
                )
            )
        if not paired:
            continue
        pair = pair_statistics(units[leader], units[row.name], list(paired), better, paired)
        for metric in paired:
            test = pair["sign_tests"].get(metric)
            if test is None:
                continue
            found.append(
                (
                    row,
                    metric,
                    Versus(test["documents"], test["b_higher"], test["a_higher"], test["p_value"]),
                )
            )
    adjusted = holm([v.p_value for _, _, v in found])
    for (row, metric, v), p_holm in zip(found, adjusted, strict=True):
        verdict = "not tested"
        if p_holm is not None:
            verdict = "no significant difference"
            if p_holm < alpha:
                higher = v.row_higher > v.leader_higher
                worse = higher if better[metric] == "lower" else not higher
                verdict = "worse" if worse else "better"
        row.versus[metric] = Versus(
            v.documents, v.row_higher, v.leader_higher, v.p_value, p_holm, verdict
        )
    return sum(1 for _, _, v in found if v.p_value is not None)
