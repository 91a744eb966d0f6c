"""`packetbench compare`: paired statistics of runs on the same documents."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from packetbench.cli._options import finite

FIRST_WORST = 10  # worst documents printed (paired_stats.json has them all)


def compare(
    runs: Annotated[
        list[Path],
        typer.Argument(metavar="RUN", show_default=False, help="Two or more scored run folders."),
    ],
    out: Annotated[
        Path | None, typer.Option(help="Also write DIR/paired_stats.json.", metavar="DIR")
    ] = None,
    alpha: Annotated[
        float, typer.Option(callback=finite, help="Significance level after Holm's correction.")
    ] = (0.05),
    json_output: Annotated[
        bool, typer.Option("--json", help="Print paired_stats.json instead of the tables.")
    ] = False,
    force: Annotated[
        bool, typer.Option(help="Replace DIR/paired_stats.json if it exists.")
    ] = False,
) -> None:
    """Paired statistics of two or more runs on the documents both completed.

    Per pair: a sign test on per-document hallucination rates (numbers, strings), Holm-corrected
    over all pairs, and paired bootstrap intervals of the difference (second run minus first) in
    every headline rate; the same for grounding rates (runs that cited) and for abstention and
    guesses on illegible fields (runs whose packets have them) and on fields below a run's
    delivered resolution (runs whose pages hid some). Then the documents where one
    run is worse than all others.

    Exit 0 when compared, 1 when two runs have no completed document in common (nothing is
    written), 2 on bad input.
    """
    from packetbench.benchmark.report.comparison import write_comparison

    result = write_comparison(runs, out, alpha, force)
    if json_output:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
        return
    _print(result)
    if out is not None:
        typer.echo(f"wrote {out / 'paired_stats.json'}")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:+.2f}" if value else "0.00"


def _rate(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.2f} %"


def _print_pair(console: Any, pair: dict[str, Any], labels: dict[str, Any], what: str) -> None:
    """One pair's rates side by side with their paired intervals, then its sign tests."""
    from rich.table import Table

    # The title names the runs in the columns' order, and the difference by name: b - a.
    # It is a line of its own (a table's title is padded to the table's width, or wrapped).
    console.print(
        f"{what}{pair['a']} vs {pair['b']} ({pair['documents_paired']} documents paired; "
        f"difference = {pair['b']} - {pair['a']}, in points)",
        soft_wrap=True,
    )
    table = Table()
    for name in (
        "rate",
        pair["a"],
        pair["b"],
        "difference",
        "95 % CI (documents)",
        "95 % CI (packets)",
    ):
        table.add_column(name, justify="left" if name == "rate" else "right")
    for metric, rate in pair["rates"].items():
        ci = rate["ci_documents"]
        cp = rate["ci_packets"]
        table.add_row(
            labels[metric]["label"],
            _rate(rate["a"]),
            _rate(rate["b"]),
            _pct(rate["difference"]),
            f"[{_pct(ci[0])}, {_pct(ci[1])}]" if ci[0] is not None else "–",
            f"[{_pct(cp[0])}, {_pct(cp[1])}]" if cp[0] is not None else "–",
        )
    console.print(table)
    for metric, test in pair["sign_tests"].items():
        p_value = "–" if test["p_value"] is None else f"{test['p_value']:.3g}"
        p_holm = "–" if test["p_holm"] is None else f"{test['p_holm']:.3g}"
        verdict = f"{test['worse']} worse" if test["significant"] else "no significant difference"
        console.print(
            f"sign test, {labels[metric]['label']}: {pair['b']} higher on "
            f"{test['b_higher']} documents, {pair['a']} higher on "
            f"{test['a_higher']}, tied {test['ties']}; p {p_value}, Holm p "
            f"{p_holm}: {verdict}",
            soft_wrap=True,
        )


def _print(result: dict[str, Any]) -> None:
    from rich.console import Console

    from packetbench.benchmark.report.grounding import GROUNDING

    console = Console(width=None if sys.stdout.isatty() else 160, highlight=False)
    method = result["method"]
    labels = result["metrics"]
    for pair in result["pairs"]:
        _print_pair(console, pair, labels, "")
        if pair["excluded"]:
            shown = ", ".join(e["document"] for e in pair["excluded"][:5])
            more = len(pair["excluded"]) - 5
            console.print(
                f"not paired ({len(pair['excluded'])}): {shown}"
                + (f" and {more} more" if more > 0 else ""),
                soft_wrap=True,
            )
    from packetbench.benchmark.report.illegible import BELOW_OUTCOMES, OUTCOMES

    for key, title, family, absent in (
        ("grounding", "Grounding", GROUNDING, "no citations"),  # only when a run cited
        ("illegible", "Illegible fields", OUTCOMES, "no illegible fields"),  # rule 3b
        # only when a run's pages hid values at its delivered resolution (docs/resolution.md)
        ("below_resolution", "Below the delivered resolution", BELOW_OUTCOMES, "no such fields"),
    ):
        found = result.get(key)
        if found is None:
            continue
        named = {metric: {"label": label} for metric, label, *_ in family}
        for pair in found["pairs"]:
            _print_pair(console, pair, named, f"{title}: ")
        if found["absent"]:
            console.print(
                f"{title}: {absent} (not compared, not zero): " + ", ".join(found["absent"]),
                soft_wrap=True,
            )
        console.print(f"{key} sign tests: {found['correction']}")
    worst = result["worst_documents"]
    console.print(
        f"Documents where one run hallucinates more than every other: {len(worst)}"
        + (f" (first {FIRST_WORST})" if len(worst) > FIRST_WORST else "")
    )
    for row in worst[:FIRST_WORST]:
        rates = ", ".join(f"{k} {_rate(v)}" for k, v in row["rates"].items())
        console.print(f"  {row['document']}: {row['worst']} ({rates})", soft_wrap=True)
    console.print(f"alpha {method['alpha']}; {method['correction']}")


def register(app: typer.Typer) -> None:
    app.command("compare", short_help="Paired statistics of two or more runs.")(compare)
