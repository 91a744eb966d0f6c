"""leaderboard.md, leaderboard.html (self-contained: style inline, no script, nothing
fetched) and leaderboard.csv, from a `Board`. Nothing depends on the clock or on where the runs
are, so the same runs and release give byte-identical files."""

from __future__ import annotations

import csv
import io
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment

from packetbench.benchmark.leaderboard.board import COLUMNS, Board, Cell, Row
from packetbench.benchmark.stats import bootstrap
from packetbench.core.output_folder import OutputFolder, check, output_folder
from packetbench.core.templates import environment

FILES = ("leaderboard.md", "leaderboard.html", "leaderboard.csv")
SHORT = {"accuracy": "acc", "halluc_numbers": "num", "halluc_strings": "str"}
SIGN = {"worse": "−", "better": "+", "no significant difference": "=", "not tested": "·"}


def rate(cell: Cell | None) -> str:
    if cell is None or cell.value is None:
        return "–"
    return f"{cell.value * 100:.2f} %"


def interval(cell: Cell | None) -> str:
    if cell is None or cell.interval.low is None or cell.interval.high is None:
        return ""
    return f"[{cell.interval.low * 100:.1f}, {cell.interval.high * 100:.1f}]"


def auc(cell: Cell | None) -> str:
    return "–" if cell is None or cell.value is None else f"{cell.value:.3f}"


def auc_interval(cell: Cell | None) -> str:
    if cell is None or cell.interval.low is None or cell.interval.high is None:
        return ""
    return f"[{cell.interval.low:.3f}, {cell.interval.high:.3f}]"


def rate_cell(cell: Cell | None) -> str:
    """A rate and its interval, as one Markdown cell."""
    return f"{rate(cell)} {interval(cell)}".strip()


def auc_cell(cell: Cell | None) -> str:
    return f"{auc(cell)} {auc_interval(cell)}".strip()


def dollars(value: float | None, batch: bool) -> str:
    if value is None:
        return "–"
    shown = f"${value:.4f}" if value < 1 else f"${value:,.2f}"
    return f"{shown} (batch)" if batch else shown


def system_parts(row: Row) -> tuple[str, str, str]:
    """A row's system as (its name, what it ran: model, reasoning, the resolution its pages were
    sent at, "" when nothing to add, and its badge: SIMULATED or imported, else ""), the one
    account both the Markdown and the HTML board print."""
    run = row.run
    what = [] if run.model in row.name else [run.model]
    if run.model not in row.name and run.reasoning and run.reasoning != "default":
        what.append(run.reasoning)
    if run.delivered_dpi is not None:
        what.append(f"pages at {'about ' if run.delivered_assumed else ''}{run.delivered_dpi} dpi")
    badge = "SIMULATED, not a model" if run.simulator else "imported" if run.imported else ""
    return row.name, ", ".join(what), badge


def system(row: Row) -> str:
    name, detail, badge = system_parts(row)
    return name + (f" ({detail})" if detail else "") + (f" [{badge}]" if badge else "")


def versus(row: Row, board: Board) -> str:
    if row.rank == 1:
        return "leader"
    return " · ".join(
        f"{SHORT.get(metric, metric)} {SIGN[row.versus[metric].verdict]}"
        for metric in board.tested
        if metric in row.versus
    )


def md_cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


@dataclass(frozen=True)
class Written:
    files: list[Path]


@cache
def _environment() -> Environment:
    env = environment("leaderboard", keep_trailing_newline=True, escape=("html.j2",))
    env.filters.update(
        rate=rate,
        interval=interval,
        auc=auc,
        auc_interval=auc_interval,
        rate_cell=rate_cell,
        auc_cell=auc_cell,
        md=md_cell,
        count=lambda value: f"{int(value):,}",
    )
    env.globals.update(
        system=system,
        system_parts=system_parts,
        versus=versus,
        dollars=dollars,
        SIGN=SIGN,
        SHORT=SHORT,
    )
    return env


def context(board: Board) -> dict[str, Any]:
    release = board.release
    entry = release.split(board.split)
    present = {
        metric
        for metric, *_ in COLUMNS
        if any(row.cells.get(metric) is not None for row in board.rows)
    }
    return {
        "board": board,
        "release": release.manifest,
        "digest": release.digest,
        "entry": entry,
        "split": board.split,
        "columns": [c for c in COLUMNS if c[0] in present],
        "absent": [c for c in COLUMNS if c[0] not in present],
        "rows": board.rows,
        "labels": board.labels,
        "resamples": bootstrap.RESAMPLES,
        "seed": bootstrap.SEED,
        "level": int(bootstrap.COVERAGE * 100),
        "batch": any(row.run.batch for row in board.rows),
    }


def csv_text(board: Board) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    metrics = [metric for metric, *_ in COLUMNS]
    header = [
        "rank",
        "system",
        "provider",
        "model",
        "reasoning",
        "simulator",
        "imported",
        "batch_prices",
        "delivered_dpi",
        "documents_scored",
        "documents",
    ]
    for metric in metrics:
        header += [metric, f"{metric}_low", f"{metric}_high"]
    header += ["cost_usd", "pages", "cost_per_page", "correct_values", "cost_per_correct_value"]
    for metric in board.tested:
        header += [f"vs_leader_{metric}_{part}" for part in ("documents", "p_holm", "verdict")]
    writer.writerow(header)

    def number(value: float | None, digits: int = 6) -> str:
        return "" if value is None else f"{value:.{digits}f}"

    for row in board.rows:
        run = row.run
        line: list[Any] = [
            row.rank,
            row.name,
            run.provider,
            run.model,
            run.reasoning,
            str(run.simulator).lower(),
            str(run.imported).lower(),
            str(run.batch).lower(),
            "" if run.delivered_dpi is None else run.delivered_dpi,
            row.documents_scored,
            row.documents,
        ]
        for metric in metrics:
            cell = row.cells.get(metric)
            line += [
                number(cell.value if cell else None),
                number(cell.interval.low if cell else None),
                number(cell.interval.high if cell else None),
            ]
        line += [
            number(row.cost_usd),
            row.pages,
            number(row.cost_per_page, 8),
            row.correct,
            number(row.cost_per_correct, 8),
        ]
        for metric in board.tested:
            v = row.versus.get(metric)
            line += (
                [v.documents, number(v.p_holm), v.verdict]
                if v is not None
                else ["", "", "leader" if row.rank == 1 else ""]
            )
        writer.writerow(line)
    return buffer.getvalue()


def write_board(board: Board, out: Path, force: bool = False) -> Written:
    """Write leaderboard.md, .html and .csv into `out` (existing ones only with `force`), as
    every output folder is written (`core.output_folder`): all three new or all three old."""
    env = _environment()
    values = context(board)
    texts = {
        "leaderboard.md": env.get_template("leaderboard.md.j2").render(values),
        "leaderboard.html": env.get_template("leaderboard.html.j2").render(values),
        "leaderboard.csv": csv_text(board),
    }
    with _board_folder(out, force) as into:
        for name in FILES:
            into.write(name, texts[name].encode("utf-8"))
    return Written([out / name for name in FILES])


def _board_folder(out: Path, force: bool) -> AbstractContextManager[OutputFolder]:
    return output_folder(
        out, frozenset(FILES), command="leaderboard", force=force, what="leaderboard"
    )


def check_free(out: Path, force: bool) -> None:
    """Refuse before any work what `write_board` would refuse (an existing leaderboard
    without `force`, a folder holding other files, a folder inside a release)."""
    check(
        out, frozenset(FILES), command="leaderboard", force=force, what="leaderboard", release=False
    )
