"""sheet.*: each workbook pattern really does what it claims in the file (read back with
openpyxl), and what is hidden in the workbook never reaches what a model is sent."""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

from packetbench.benchmark.harness import inputs, prompts
from packetbench.generator.render.sheetlook import EXCEL_EPOCH, THOUSANDS_SUFFIX
from packetbench.generator.schema_files import all_schemas
from tests.support.rendering import Case, Render, first_applied

DOCS = ("sov_excel", "loss_run_excel", "driver_schedule_excel", "financial_statement_excel")
SOV, LOSS = "sov_excel", "loss_run_excel"


def case(render: Render, pattern: str, doc_id: str = SOV, tier: str = "N3") -> Case:
    seed = first_applied(render, pattern, doc_id, tier, DOCS)
    return Case(pattern, doc_id, render(tier, seed, DOCS, pattern), render(tier, seed, DOCS))


def book(c: Case, data_only: bool = True, on: bool = True) -> Any:
    files = (c.on if on else c.off).files
    return openpyxl.load_workbook(io.BytesIO(files[f"{c.doc_id}.xlsx"]), data_only=data_only)


def cell(wb: Any, location: dict[str, Any]) -> Any:
    return wb[location["sheet"]][location["cell"]]


def prompt_text(c: Case, tmp_path: Path) -> str:
    """Everything a model is sent for the document (instructions and every part)."""
    path = tmp_path / f"{c.doc_id}.xlsx"
    path.write_bytes(c.on.files[f"{c.doc_id}.xlsx"])
    document = inputs.build_file(path, "native")
    schema = c.doc_id.rsplit("_", 1)[0]
    prompt = prompts.render(schema, all_schemas()[schema], document, "Answer.")
    return "\n".join([prompt.instructions, *(p.text for p in document.parts)])


def hidden_only(c: Case) -> list[str]:
    """Texts in `hidden` that no visible string of the document shows."""
    universe = c.on.universe(c.doc_id)
    visible = {s["text"] for s in universe["strings"]}
    return [
        h["text"] for h in universe["hidden"] if h["text"] not in visible and len(h["text"]) >= 4
    ]


def test_hidden_sheet_is_hidden_and_its_text_reaches_no_prompt(
    render: Render, tmp_path: Path
) -> None:
    c = case(render, "sheet.hidden_sheet")
    wb = book(c)
    title = c.record["details"]["sheet"]
    assert wb[title].sheet_state == "hidden"
    assert c.record["pages_affected"] == [wb.sheetnames.index(title) + 1]
    universe = c.on.universe(SOV)
    assert title in {h["text"] for h in universe["hidden"]}
    assert title not in {s["text"] for s in universe["strings"]}
    values = [
        str(v)
        for row in wb[title].iter_rows(min_row=2, values_only=True)
        for v in row[1:]
        if v is not None
    ]
    assert values and set(values) <= {h["text"] for h in universe["hidden"]}
    text = prompt_text(c, tmp_path)
    assert title not in text and all(h not in text for h in hidden_only(c))


def test_hidden_row_holds_an_older_copy_out_of_truth_and_out_of_the_prompt(
    render: Render, tmp_path: Path
) -> None:
    c = case(render, "sheet.hidden_rows", LOSS)
    record, factor = c.record["details"]["after"], c.record["details"]["factor"]
    fields = c.on.fields(LOSS)
    assert c.on.truth(LOSS) == c.off.truth(LOSS)
    location = fields[f"{record}.claim_number"]["locations"][0]
    letters, row = coordinate_from_string(location["cell"])
    ws = book(c)[location["sheet"]]
    assert ws.row_dimensions[row + 1].hidden and not ws.row_dimensions[row].hidden
    paid = fields[f"{record}.paid"]
    paid_cell = coordinate_from_string(paid["locations"][0]["cell"])[0]
    copy = ws[f"{paid_cell}{row + 1}"].value
    assert copy == round(paid["value"] * factor)
    hidden = {h["text"] for h in c.on.universe(LOSS)["hidden"]}
    assert (
        str(copy) in hidden
        and ws[f"{letters}{row + 1}"].value == fields[f"{record}.claim_number"]["value"]
    )
    text = prompt_text(c, tmp_path)
    assert all(h not in text for h in hidden_only(c))


def test_hidden_column_is_hidden_and_out_of_the_prompt(render: Render, tmp_path: Path) -> None:
    c = case(render, "sheet.hidden_columns")
    wb = book(c)
    ws = wb[wb.sheetnames[0]]
    title = c.record["details"]["column"]
    (header,) = [x for r in ws.iter_rows() for x in r if x.value == title]
    assert ws.column_dimensions[header.column_letter].hidden
    assert title in {h["text"] for h in c.on.universe(SOV)["hidden"]}
    text = prompt_text(c, tmp_path)
    assert title not in text and all(h not in text for h in hidden_only(c))


def test_merged_cells_keep_values_in_their_top_left_cell(render: Render) -> None:
    c = case(render, "sheet.merged_cells")
    wb = book(c)
    ranges = list(wb[wb.sheetnames[0]].merged_cells.ranges)
    assert ranges
    for path, entry in c.on.fields(SOV).items():
        assert cell(wb, entry["locations"][0]).value is not None, path


def test_numbers_as_text_are_text_cells_reading_as_the_number(render: Render) -> None:
    c = case(render, "sheet.numbers_as_text")
    wb, fields = book(c), c.on.fields(SOV)
    for path, entry in c.record["ground_truth_delta"].items():
        found = cell(wb, fields[path]["locations"][0])
        assert found.data_type == "s" and found.value == entry["shown"]
        assert float(found.value.replace(",", "")) == entry["canonical"]


def test_date_serials_are_numbers_counting_days_from_the_excel_epoch(render: Render) -> None:
    c = case(render, "sheet.date_serials", LOSS)
    wb, fields = book(c), c.on.fields(LOSS)
    for path, entry in c.record["ground_truth_delta"].items():
        found = cell(wb, fields[path]["locations"][0])
        assert isinstance(found.value, int) and not found.is_date
        assert (EXCEL_EPOCH + dt.timedelta(found.value)).isoformat() == entry["canonical"]


def _refs(formula: str) -> list[str]:
    inner = re.fullmatch(r"=SUM\((.*)\)", formula)
    assert inner is not None, formula
    cells: list[str] = []
    for part in inner.group(1).split(","):
        first, _, last = part.partition(":")
        letters, start = coordinate_from_string(first)
        end = coordinate_from_string(last)[1] if last else start
        cells.extend(f"{letters}{row}" for row in range(start, end + 1))
    return cells


def test_totals_are_formulas_whose_cached_value_is_their_sum(render: Render) -> None:
    c = case(render, "sheet.formulas", LOSS)
    formulas, cached = book(c, data_only=False), book(c)
    fields = c.on.fields(LOSS)
    assert c.record["targets"]
    for path in c.record["targets"]:
        location = fields[path]["locations"][0]
        formula = cell(formulas, location).value
        value = cell(cached, location).value
        assert isinstance(formula, str) and formula.startswith("=SUM(")
        assert value == fields[path]["value"]
        ws = cached[location["sheet"]]
        assert abs(sum(ws[ref].value for ref in _refs(formula)) - value) < 0.005


def test_header_offset_moves_every_value_down_under_a_title_block(render: Render) -> None:
    c = case(render, "sheet.header_offset")
    lines = c.record["details"]["lines"]
    on, off = c.on.fields(SOV), c.off.fields(SOV)
    for path, entry in off.items():
        letters, row = coordinate_from_string(entry["locations"][0]["cell"])
        assert on[path]["locations"][0]["cell"] == f"{letters}{row + lines + 1}"
    assert book(c)[book(c).sheetnames[0]]["A1"].value != book(c, on=False)["SOV"]["A1"].value


def test_thousands_column_says_so_and_holds_amounts_over_1000(render: Render) -> None:
    c = case(render, "sheet.thousands")
    wb, fields = book(c), c.on.fields(SOV)
    for path, entry in c.record["ground_truth_delta"].items():
        location = fields[path]["locations"][0]
        ws = wb[location["sheet"]]
        found = ws[location["cell"]]
        assert found.value * 1000 == entry["canonical"]
        column = column_index_from_string(coordinate_from_string(location["cell"])[0])
        headers = [ws.cell(row=r, column=column).value for r in range(1, found.row)]
        assert any(isinstance(h, str) and h.endswith(THOUSANDS_SUFFIX) for h in headers)


def test_notes_column_is_a_visible_column_of_notes(render: Render) -> None:
    c = case(render, "sheet.notes_column")
    wb = book(c)
    ws = wb[wb.sheetnames[0]]
    (header,) = [x for r in ws.iter_rows() for x in r if x.value == "Notes"]
    assert not ws.column_dimensions[header.column_letter].hidden
    notes = [x.value for x in ws[header.column_letter][header.row :] if x.value]
    assert len(notes) == c.record["details"]["notes"]
    assert set(notes) <= {s["text"] for s in c.on.universe(SOV)["strings"]}


def test_status_colours_match_their_key(render: Render) -> None:
    c = case(render, "sheet.color_status", LOSS)
    wb, fields = book(c), c.on.fields(LOSS)
    legend, fills = c.record["details"]["legend"], c.record["details"]["fills"]
    ws = wb[wb.sheetnames[0]]
    key = {
        x.value: x
        for r in ws.iter_rows()
        for x in r
        if x.value in legend and x.fill.fgColor.rgb.endswith(fills[x.value])
    }
    assert set(key) == set(legend)
    for path, entry in c.record["ground_truth_delta"].items():
        found = cell(wb, fields[path]["locations"][0])
        assert legend[found.value] == entry["canonical"]
        assert found.fill.fgColor.rgb.endswith(fills[found.value])


def test_subtotal_rows_close_each_location_with_its_sums(render: Render) -> None:
    c = case(render, "sheet.subtotal_rows")
    wb, fields = book(c), c.on.fields(SOV)
    ws = wb[wb.sheetnames[0]]
    labels = [
        (x.row, x.value)
        for x in ws["A"]
        if isinstance(x.value, str) and x.value.endswith(" Subtotal")
    ]
    assert len(labels) == c.record["details"]["groups"]
    tiv = {p: f for p, f in fields.items() if re.fullmatch(r"buildings\[\d+\]\.tiv", p)}
    column = coordinate_from_string(next(iter(tiv.values()))["locations"][0]["cell"])[0]
    for row, label in labels:
        location = int(label.split()[1])
        rows = [
            f
            for p, f in tiv.items()
            if fields[p.replace(".tiv", ".location_number")]["value"] == location
        ]
        assert ws[f"{column}{row}"].value == sum(f["value"] for f in rows)
        assert max(coordinate_from_string(f["locations"][0]["cell"])[1] for f in rows) == row - 1


def test_split_sheets_put_each_policy_term_on_a_sheet_of_its_own(render: Render) -> None:
    c = case(render, "sheet.split_sheets", LOSS)
    wb, fields = book(c), c.on.fields(LOSS)
    policies = c.on.truth(LOSS)["policies"]
    assert len(wb.sheetnames) == 1 + len(policies) == 1 + c.record["details"]["sheets"]
    for path, entry in fields.items():
        match = re.match(r"policies\[(\d+)\]", path)
        sheet = entry["locations"][0]["sheet"]
        if match is None:
            assert sheet == wb.sheetnames[0], path  # title block and grand total
        else:
            index = int(match.group(1))
            assert sheet == wb.sheetnames[1 + index], path
            assert str(policies[index]["effective_date"])[:4] in sheet
