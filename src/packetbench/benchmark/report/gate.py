"""`packetbench gate`: hold a run to rules, for CI. A breached rule makes the gate fail.

Rules are a TOML file of ``[[rule]]`` tables, each one of two forms:

    [[rule]]                         # a threshold on a rate
    metric = "halluc_numbers"        # a rate of catalog.sql (`packetbench sql RUN "SELECT *
                                     #   FROM catalog"` lists them)
    max = 0.03                       # or min = ...
    per = "tier"                     # optional: every slice of tier, doc_type, format, kind,
                                     #   field_class or pattern must hold (the worst decides)
    statistic = "micro"              # micro (default), macro, or upper / lower: the bound of
                                     #   the 95 % document-bootstrap interval of the micro rate
    skip_small = false               # optional: leave out slices too small to compare
    name = "..."                     # optional: how the rule is reported

A threshold rule may also name a grounding rate of a run made with `extract --cite`
(`citation_recall`, `citation_precision_page`, ..., the `grounding` view), overall or per
tier or doc_type; a run without citations has no value there, so the rule breaches.
A no_regression rule may list grounding rates too: they are paired as the catalog's rates
are, and a run or baseline without citations (or without boxes, for a box rate) breaches.

Illegible fields (docs/patterns.md rule 3b: the truth is null, abstention expected) have rates of
their own, shares of the illegible fields (the `illegible` view): `abstained` (left empty,
the correct answer; higher is better), `guess_right`, `guess_grounded` and `guess_wrong`
(guesses, in no hallucination rate; lower is better). A threshold rule may name them, overall
or per tier; a no_regression rule may list them. A run whose packets have no illegible
values has none, which breaches. The same four rates of the fields below a run's delivered
resolution (docs/resolution.md; the `below_resolution` view) are `below_abstained`,
`below_guess_right`, `below_guess_grounded` and `below_guess_wrong`: a threshold rule may name
them, overall or per tier (not a no_regression rule: two runs at different resolutions test
different fields); a run without such fields has none, which breaches.

    [[rule]]                         # no significant regression against --baseline
    no_regression = ["halluc_numbers", "halluc_strings"]
    alpha = 0.05                     # optional

A regression is a two-sided sign test on the per-document rates of the documents both runs
completed, Holm-corrected over the rule's rates, that is significant with the run worse than
the baseline. A rate over nothing cannot be shown to hold, so it breaches its rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.benchmark.report.comparison import pair_statistics, run_units
from packetbench.benchmark.report.context import DIMENSIONS
from packetbench.benchmark.report.estimates import (
    Estimate,
    estimate_view,
    headline_estimates,
    layouts,
    slice_estimates,
)
from packetbench.benchmark.report.grounding import GROUNDING
from packetbench.benchmark.report.illegible import OUTCOMES
from packetbench.benchmark.results.query import RunSet, open_runs
from packetbench.benchmark.stats.paired import holm
from packetbench.core import safe_read
from packetbench.core.errors import BadInput, UsageError

STATISTICS = ("micro", "macro", "upper", "lower")
GROUNDING_RATES = frozenset(metric for metric, *_ in GROUNDING)
GROUNDING_PER = ("tier", "doc_type")  # the dimensions of grounding_slices with every rate
ILLEGIBLE_RATES = frozenset(metric for metric, *_ in OUTCOMES)
ILLEGIBLE_PER = ("tier",)  # the dimension of the `illegible` view
# The same rates of the fields below a run's delivered resolution (the `below_resolution` view).
BELOW_PREFIX = "below_"
BELOW_RATES = frozenset(BELOW_PREFIX + metric for metric in ILLEGIBLE_RATES)
# Whether a higher or a lower rate is better, for the rates outside the catalog.
OUTSIDE_CATALOG = {metric: way for metric, _, _, way in GROUNDING} | {
    metric: "higher" if metric == "abstained" else "lower" for metric in ILLEGIBLE_RATES
}
THRESHOLD_KEYS = {"name", "metric", "max", "min", "per", "statistic", "skip_small"}
REGRESSION_KEYS = {"name", "no_regression", "alpha"}


@dataclass(frozen=True)
class Rule:
    name: str
    metric: str = ""
    bound: str = ""  # "max" or "min"
    limit: float = 0.0
    per: str | None = None
    statistic: str = "micro"
    skip_small: bool = False
    regression: tuple[str, ...] = ()
    alpha: float = 0.05


@dataclass
class RuleResult:
    rule: Rule
    passed: bool
    observed: str
    details: list[str] = field(default_factory=list)


@dataclass
class GateResult:
    run: str
    baseline: str | None
    results: list[RuleResult]

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)


def _number(value: Any, where: str) -> float:
    # TOML has nan and inf; a bound of nan passes every rate (every comparison with it is
    # false), so a rule with one could never fail.
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadInput(f"{where}: must be a finite number (got {value!r})")
    return float(value)


def load_rules(
    path: Path, metrics: set[str], thresholds: frozenset[str] = frozenset()
) -> list[Rule]:
    """The rules of a TOML file, checked against the known rates (`thresholds`: rates a
    threshold rule may name besides them); BadInput names the rule."""
    data = safe_read.toml_file(path, "a TOML rules file")
    entries = data.get("rule")
    unknown_top = sorted(set(data) - {"rule"})
    if unknown_top:
        raise BadInput(f"{path}: unknown table {unknown_top[0]!r} (rules are [[rule]] tables)")
    if not isinstance(entries, list) or not entries:
        raise BadInput(f"{path}: no [[rule]] tables")
    dimensions = [d for d, _ in DIMENSIONS]
    rules: list[Rule] = []
    for index, entry in enumerate(entries, start=1):
        where = f"{path}: rule {index}"
        if "no_regression" in entry:
            extra = sorted(set(entry) - REGRESSION_KEYS)
            if extra:
                raise BadInput(f"{where}: unknown key {extra[0]!r} in a no_regression rule")
            listed = entry["no_regression"]
            if not isinstance(listed, list) or not listed:
                raise BadInput(f"{where}: no_regression must list rates")
            for metric in listed:
                if metric in BELOW_RATES:
                    raise BadInput(
                        f"{where}: {metric} is a threshold rate only (name it in a metric rule)"
                    )
                if metric not in metrics | thresholds:
                    known = ", ".join(sorted(metrics | thresholds))
                    raise BadInput(f"{where}: unknown rate {metric!r}; known: {known}")
            alpha = _number(entry.get("alpha", 0.05), f"{where}: alpha")
            if not 0 < alpha < 1:
                raise BadInput(f"{where}: alpha must be between 0 and 1")
            name = str(entry.get("name") or f"no significant regression in {', '.join(listed)}")
            rules.append(Rule(name, regression=tuple(listed), alpha=alpha))
            continue
        extra = sorted(set(entry) - THRESHOLD_KEYS)
        if extra:
            raise BadInput(f"{where}: unknown key {extra[0]!r}")
        metric = entry.get("metric")
        if metric not in metrics | thresholds:
            known = ", ".join(sorted(metrics | thresholds))
            raise BadInput(f"{where}: unknown rate {metric!r}; known: {known}")
        bounds = [b for b in ("max", "min") if b in entry]
        if len(bounds) != 1:
            raise BadInput(f"{where}: give exactly one of max or min")
        limit = _number(entry[bounds[0]], f"{where}: {bounds[0]}")
        # Every rate is in [0, 1]: a bound outside (0, 1) on its side makes a rule no run
        # can meet (max < 0, min > 1) or none can break (max >= 1, min <= 0).
        meetable = 0 <= limit < 1 if bounds[0] == "max" else 0 < limit <= 1
        if not meetable:
            what = "no run can meet" if limit < 0 or limit > 1 else "no run can break"
            allowed = "0 <= max < 1" if bounds[0] == "max" else "0 < min <= 1"
            raise BadInput(
                f"{where}: {bounds[0]} = {limit:g} makes a rule {what}; rates are 0 to 1 "
                f"({allowed})"
            )
        per = entry.get("per")
        if per is not None and per not in dimensions:
            raise BadInput(f"{where}: per must be one of {', '.join(dimensions)} (got {per!r})")
        for kind, rates, dims in (
            ("a grounding", GROUNDING_RATES, GROUNDING_PER),
            ("an illegible-field", ILLEGIBLE_RATES, ILLEGIBLE_PER),
            ("a below-resolution", BELOW_RATES, ILLEGIBLE_PER),
        ):
            if metric in thresholds & rates and per is not None and per not in dims:
                raise BadInput(
                    f"{where}: {kind} rate is sliced per {' or '.join(dims)} only (got {per!r})"
                )
        statistic = entry.get("statistic", "micro")
        if statistic not in STATISTICS:
            raise BadInput(f"{where}: statistic must be one of {', '.join(STATISTICS)}")
        if metric in thresholds and per is not None and statistic != "micro":
            kind = (
                "a grounding"
                if metric in GROUNDING_RATES
                else "a below-resolution"
                if metric in BELOW_RATES
                else "an illegible-field"
            )
            raise BadInput(f"{where}: {kind} rate per {per} is its micro rate only")
        skip_small = entry.get("skip_small", False)
        if not isinstance(skip_small, bool):
            raise BadInput(f"{where}: skip_small must be true or false")
        scope = f" per {per}" if per else ""
        name = str(entry.get("name") or f"{metric} {statistic}{scope} {bounds[0]} {limit:g}")
        rules.append(Rule(name, metric, bounds[0], limit, per, statistic, skip_small))
    return rules


def _statistic(estimate: Estimate | None, view: dict[str, Any], statistic: str) -> float | None:
    if statistic in ("micro", "macro"):
        value: float | None = view[statistic]
        return value
    if estimate is None:
        return None
    return estimate.micro_doc.high if statistic == "upper" else estimate.micro_doc.low


def _breaches(rule: Rule, value: float | None) -> bool:
    if value is None:
        return True
    return value > rule.limit if rule.bound == "max" else value < rule.limit


def _fmt(value: float | None) -> str:
    return "no values" if value is None else f"{value:.6g}"


def _grounding_threshold(rule: Rule, runs: RunSet, name: str, cache: dict[str, Any]) -> RuleResult:
    """A threshold on a grounding rate (`grounding` and `grounding_slices`, from
    grounding_units); a run without citations has none, which breaches."""
    if rule.per is None:
        key = f"grounding {name}"
        if key not in cache:
            cache[key] = estimate_view(runs, cache["layout"][name], "grounding_units", ("metric",))
        views = runs.rows(
            "SELECT * FROM grounding WHERE run_id = ? AND metric = ?", [name, rule.metric]
        )
        view = views[0] if views else {"micro": None, "macro": None}
        value = _statistic(cache[key].get((rule.metric,)), view, rule.statistic)
        return RuleResult(rule, not _breaches(rule, value), _fmt(value))
    rows = runs.rows(
        "SELECT slice, rate FROM grounding_slices WHERE run_id = ? AND dimension = ? "
        "AND metric = ? ORDER BY slice",
        [name, rule.per, rule.metric],
    )
    if not rows:
        return RuleResult(rule, False, "no values", [f"no {rule.per} slice has values"])
    checked = [(str(r["slice"]), r["rate"]) for r in rows]
    breached = [(s, value) for s, value in checked if _breaches(rule, value)]
    sign = 1 if rule.bound == "max" else -1
    worst = max(checked, key=lambda item: (sign * item[1], item[0]))
    details = [f"{rule.per} {s}: {_fmt(value)}" for s, value in breached]
    return RuleResult(rule, not breached, f"{_fmt(worst[1])} (worst: {worst[0]})", details)


def _illegible_threshold(rule: Rule, runs: RunSet, name: str, cache: dict[str, Any]) -> RuleResult:
    """A threshold on an illegible-field rate (the `illegible` view, from illegible_units), or
    on one of the fields below the delivered resolution (`below_` and the same rate: the
    `below_resolution` view); a run without such fields has none, which breaches."""
    below = rule.metric in BELOW_RATES
    metric = rule.metric.removeprefix(BELOW_PREFIX) if below else rule.metric
    table = "below_resolution" if below else "illegible"
    none = "no fields below the delivered resolution" if below else "no illegible fields"
    column = "abstention_rate" if metric == "abstained" else f"{metric}_rate"
    rows = runs.rows(
        f"SELECT tier, {column} AS rate FROM {table} WHERE run_id = ? ORDER BY tier", [name]
    )
    if rule.per is None:
        key = f"{table} {name}"
        if key not in cache:
            cache[key] = estimate_view(runs, cache["layout"][name], f"{table}_units", ("metric",))
        whole = [r["rate"] for r in rows if r["tier"] == "all"]
        if not whole:
            return RuleResult(rule, False, "no values", [f"{none} in this run"])
        view = {"micro": whole[0], "macro": None}
        estimate = cache[key].get((metric,))
        if rule.statistic == "macro":
            view["macro"] = estimate.macro if estimate is not None else None
        value = _statistic(estimate, view, rule.statistic)
        return RuleResult(rule, not _breaches(rule, value), _fmt(value))
    checked = [(str(r["tier"]), r["rate"]) for r in rows if r["tier"] != "all"]
    if not checked:
        return RuleResult(rule, False, "no values", [f"{none} in this run"])
    breached = [(s, value) for s, value in checked if _breaches(rule, value)]
    sign = 1 if rule.bound == "max" else -1
    worst = max(checked, key=lambda item: (sign * item[1], item[0]))
    details = [f"{rule.per} {s}: {_fmt(value)}" for s, value in breached]
    return RuleResult(rule, not breached, f"{_fmt(worst[1])} (worst: {worst[0]})", details)


def _threshold(rule: Rule, runs: RunSet, name: str, cache: dict[str, Any]) -> RuleResult:
    if "layout" not in cache:
        cache["layout"] = layouts(runs)
    if rule.metric in GROUNDING_RATES:
        return _grounding_threshold(rule, runs, name, cache)
    if rule.metric in ILLEGIBLE_RATES | BELOW_RATES:
        return _illegible_threshold(rule, runs, name, cache)
    if rule.per is None:
        if "headline" not in cache:
            cache["headline"] = headline_estimates(runs, cache["layout"])
        views = [
            v for v in runs.metric("headline") if v["run_id"] == name and v["metric"] == rule.metric
        ]
        view = views[0] if views else {"micro": None, "macro": None}
        value = _statistic(cache["headline"].get((name, rule.metric)), view, rule.statistic)
        return RuleResult(rule, not _breaches(rule, value), _fmt(value))
    if "slices" not in cache:
        cache["slices"] = slice_estimates(runs, cache["layout"])
    rows = [
        v
        for v in runs.metric("slices")
        if v["run_id"] == name
        and v["dimension"] == rule.per
        and v["metric"] == rule.metric
        and not (rule.skip_small and v["small"])
    ]
    if not rows:
        return RuleResult(rule, False, "no values", [f"no {rule.per} slice has values"])
    checked = [
        (
            v["slice"],
            _statistic(
                cache["slices"].get((name, rule.per, v["slice"], rule.metric)), v, rule.statistic
            ),
        )
        for v in rows
    ]
    breached = [(s, value) for s, value in checked if _breaches(rule, value)]
    sign = 1 if rule.bound == "max" else -1
    worst = max(
        checked, key=lambda item: (float("inf") if item[1] is None else sign * item[1], item[0])
    )
    details = [f"{rule.per} {s}: {_fmt(value)}" for s, value in breached]
    return RuleResult(rule, not breached, f"{_fmt(worst[1])} (worst: {worst[0]})", details)


def _regression(rule: Rule, runs: RunSet, name: str, baseline: str) -> RuleResult:
    catalog = {c["metric"]: c["better"] for c in runs.metric("catalog")}
    grounded = [m for m in rule.regression if m in GROUNDING_RATES]
    illegible = [m for m in rule.regression if m in ILLEGIBLE_RATES]
    catalog |= {m: OUTSIDE_CATALOG[m] for m in [*grounded, *illegible]}
    units = {u.name: u for u in run_units(runs)}
    # The counts per document of the rates outside the catalog (none for a run without them).
    for view, listed in (("grounding_units", grounded), ("illegible_units", illegible)):
        if listed:
            for extra in run_units(runs, view, listed):
                units[extra.name].counts.update(extra.counts)
    have = {
        (r["run_id"], r["metric"])
        for view in ("grounding_units", "illegible_units")
        for r in runs.rows(f"SELECT DISTINCT run_id, metric FROM {view}")
    }
    pair = pair_statistics(
        units[baseline], units[name], list(rule.regression), catalog, rule.regression
    )
    tests = [pair["sign_tests"].get(m) for m in rule.regression]
    adjusted = holm([t["p_value"] if t else None for t in tests])
    details: list[str] = []
    regressed = False
    for metric, test, p_holm in zip(rule.regression, tests, adjusted, strict=True):
        lacking = [
            r
            for r in (baseline, name)
            if metric in [*grounded, *illegible] and (r, metric) not in have
        ]
        if lacking and metric in illegible:
            details.append(
                f"{metric}: no illegible fields in {' and '.join(lacking)}; not shown to hold"
            )
            regressed = True
            continue
        if lacking:
            details.append(
                f"{metric}: no grounding rates for {' and '.join(lacking)} (made without "
                f"--cite{' box' if metric.endswith('_box') else ''}); not shown to hold"
            )
            regressed = True
            continue
        if test is None:
            details.append(f"{metric}: no documents completed by both runs")
            regressed = True
            continue
        worse_docs = test["b_higher"] if catalog[metric] == "lower" else test["a_higher"]
        better_docs = test["a_higher"] if catalog[metric] == "lower" else test["b_higher"]
        rate = pair["rates"][metric]
        significant = p_holm is not None and p_holm < rule.alpha
        worse = significant and worse_docs > better_docs
        regressed = regressed or worse
        details.append(
            f"{metric}: {'REGRESSED' if worse else 'ok'}; baseline {_fmt(rate['a'])} -> run "
            f"{_fmt(rate['b'])} (difference {_fmt(rate['difference'])}, 95 % CI "
            f"[{_fmt(rate['ci_documents'][0])}, {_fmt(rate['ci_documents'][1])}]); worse on "
            f"{worse_docs} documents, better on {better_docs}, equal on {test['ties']}; "
            f"Holm p = {_fmt(p_holm)}"
        )
    observed = f"{pair['documents_paired']} documents paired"
    return RuleResult(rule, not regressed, observed, details)


def run_gate(run: Path, rules_file: Path, baseline: Path | None = None) -> GateResult:
    """Evaluate every rule of `rules_file` on `run` (and against `baseline`)."""
    paths = [run] if baseline is None else [run, baseline]
    # A baseline is paired document by document: it must have been extracted from the same.
    with open_runs(paths, paired=baseline is not None) as runs:
        metrics = {c["metric"] for c in runs.metric("catalog")}
        rules = load_rules(rules_file, metrics, GROUNDING_RATES | ILLEGIBLE_RATES | BELOW_RATES)
        needs_baseline = [r.name for r in rules if r.regression]
        if needs_baseline and baseline is None:
            raise UsageError(f"{rules_file}: rule {needs_baseline[0]!r} needs --baseline RUN")
        name = runs.names[0]
        base = runs.names[1] if baseline is not None else None
        cache: dict[str, Any] = {}
        results = [
            _regression(rule, runs, name, base)
            if rule.regression and base is not None
            else _threshold(rule, runs, name, cache)
            for rule in rules
        ]
    return GateResult(name, base, results)
