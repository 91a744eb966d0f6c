"""`packetbench report`: report.md and a self-contained report.html from some runs.

Templates live under ``templates/report/`` (jinja2, StrictUndefined: a missing value fails
the report instead of printing a blank). The HTML carries its style and its SVG charts inline
and loads nothing. Nothing in either file depends on the clock or the machine, so the same
runs give byte-identical reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment

from packetbench.benchmark.report import charts, glossary
from packetbench.benchmark.report.context import HALLUCINATION, RateTable, build_context
from packetbench.benchmark.report.spread import repeats_context
from packetbench.benchmark.results.query import open_runs
from packetbench.benchmark.runs import expand
from packetbench.benchmark.stats.bootstrap import Interval
from packetbench.core.errors import UsageError
from packetbench.core.templates import environment
from packetbench.core.writing import check_outputs, write_together


def pct(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value * 100:.{digits}f} %"


def fixed(value: float | None, digits: int = 3) -> str:
    """A statistic that is no rate (Cohen's kappa), to `digits` decimals."""
    return "–" if value is None else f"{value:.{digits}f}"


def interval(value: Interval | None, digits: int = 2) -> str:
    if value is None or value.low is None or value.high is None:
        return "–"
    return f"[{value.low * 100:.{digits}f}, {value.high * 100:.{digits}f}]"


def points(value: float | None, digits: int = 2) -> str:
    """A difference of rates (a standard deviation of them), in percentage points."""
    return "–" if value is None else f"{value * 100:.{digits}f} pp"


def count(value: int | float | None) -> str:
    return "–" if value is None else f"{int(value):,}"


def money(value: float | None) -> str:
    return "–" if value is None else f"${value:,.4f}"


def amount(value: float | None, kind: str = "number") -> str:
    """A checked amount as the document would write it: money in dollars and cents, a whole
    number (a count) without decimals, anything else with two."""
    if value is None:
        return "–"
    if kind == "money":
        return f"-${-value:,.2f}" if value < 0 else f"${value:,.2f}"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}"


def md_cell(value: Any) -> str:
    """Text safe inside a Markdown table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


@cache
def _environment() -> Environment:
    # report.html.j2 ends in ".j2": its full extension, "html.j2", is what turns escaping
    # on ("html" alone never matched it, and run names and values went in as markup).
    env = environment("report", keep_trailing_newline=True, escape=("html", "html.j2"))
    # The words the report uses link to their meaning (`w` in the templates; a word the
    # glossary lacks fails the report).
    env.globals.update(word=glossary.word, report_words=glossary.report_words)
    env.filters.update(
        pct=pct,
        points=points,
        fixed=fixed,
        interval=interval,
        count=count,
        money=money,
        md=md_cell,
        amount=amount,
    )
    return env


def _charts(context: dict[str, Any]) -> list[str]:
    order: list[str] = context["order"]
    out: list[str] = []
    bars: list[charts.RateBar] = []
    headline: RateTable
    for headline in context["hallucination"]:
        for row in headline.rows:
            estimate = row.estimate
            bars.append(
                charts.RateBar(
                    f"{headline.label} · {row.run}" if len(order) > 1 else headline.label,
                    row.series,
                    row.micro,
                    estimate.micro_doc.low if estimate else None,
                    estimate.micro_doc.high if estimate else None,
                )
            )
    if bars:
        out.append(
            charts.rate_chart("Hallucination rates (micro, 95 % document interval)", bars, order)
        )
    tiers = next((d for d in context["dimensions"] if d["name"] == "tier"), None)
    for metric in HALLUCINATION:
        table: RateTable | None = tiers["tables"].get(metric) if tiers else None
        if table is None:
            continue
        tier_bars = [
            charts.RateBar(
                f"{row.slice} · {row.run}" if len(order) > 1 else row.slice,
                row.series,
                row.micro,
                row.estimate.micro_doc.low if row.estimate else None,
                row.estimate.micro_doc.high if row.estimate else None,
                "(small)" if row.small else "",
            )
            for row in table.rows
        ]
        out.append(charts.rate_chart(f"{table.label} by tier, worst first", tier_bars, order))
    recall = [
        charts.StackedBar(
            name, [("correct", r["correct"]), ("wrong", r["wrong"]), ("omitted", r["omitted"])]
        )
        for name, r in zip(order, context["recall"], strict=True)
        if r
    ]
    if recall:
        out.append(
            charts.stacked_chart(
                "Populated truth fields: correct, wrong, omitted",
                recall,
                ("correct", "wrong", "omitted"),
            )
        )
    verdict_names = ["supported", "contradicted", "stale", "overreach", "unlinked"]
    mix = [
        charts.StackedBar(
            name, [(v["verdict"], int(v["claims"])) for v in context["verdicts"][name]]
        )
        for name in order
        if context["verdicts"][name]
    ]
    if mix:
        out.append(charts.stacked_chart("Verdict mix of all claims", mix, verdict_names))
    return out


@dataclass(frozen=True)
class ReportFiles:
    markdown: Path
    html: Path


def write_report(
    runs: Sequence[Path], out: Path, force: bool = False, progress: bool = False
) -> ReportFiles:
    """Write `out`/report.md and `out`/report.html for `runs` (in the order given); existing
    ones are replaced only with `force`. A repeated run (`--repeats`) stands for its repeats,
    and the report adds the spread between them. `progress` shows a bar on a terminal."""
    from packetbench.benchmark.report.context import STEPS
    from packetbench.benchmark.report.documents import documents_context, is_documents
    from packetbench.core import progress as bars

    check_outputs(out, ("report.md", "report.html"), force, "report")
    flat, groups = expand(list(runs))  # a repeated run is its repeats, and their spread
    own = [is_documents(run) for run in flat]
    env = _environment()
    if any(own):
        # One's own documents have no scores: their report is the judge's estimate.
        if not all(own):
            mixed = flat[own.index(True)]
            raise UsageError(
                f"{mixed}: a run of your own documents has no scores to set beside scored "
                "runs; report it apart"
            )
        context = documents_context(flat)
        markdown = env.get_template("documents.md.j2").render(**context)
        html = env.get_template("documents.html.j2").render(**context)
    else:
        with bars.bar("report", "steps", STEPS + 2, disable=not progress) as advance:
            with open_runs(flat) as opened:
                context = build_context(opened, lambda: advance(None))
                context["repeats"] = repeats_context(opened, groups)
            markdown = env.get_template("report.md.j2").render(**context)
            advance(None)
            html = env.get_template("report.html.j2").render(**context, charts=_charts(context))
            advance(None)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{out}: cannot create the report folder ({error.strerror})") from None
    files = ReportFiles(out / "report.md", out / "report.html")
    # together: a full disk leaves the earlier report whole, never half of each
    write_together({files.markdown: markdown.encode("utf-8"), files.html: html.encode("utf-8")})
    return files
