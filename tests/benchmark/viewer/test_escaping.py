"""Strings from a run are shown as text, never run as markup: a run named
``<script>...``, a model named ``"><img src=x onerror=...>`` and the same strings as a
model's answers, in the runs list, the run's page, the document's side table and its
claims, served and exported (opened from file://, where no content security policy would
stop a script that got into the page)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from packetbench.benchmark.viewer.export import _write
from packetbench.benchmark.viewer.pages import Pages
from tests.support.chromium import Page, open_page
from tests.support.paths import cli_path
from tests.support.viewer import HOSTILE, HOSTILE_DOCUMENT, HOSTILE_PATHS, serving

# No element made of the strings, no script but the viewer's own (and an export's data).
INJECTED = (
    "document.querySelectorAll('img[src=\"x\"], img[onerror], [onerror]').length"
    " + Array.from(document.scripts).filter(s => !/\\/(static\\/app|data\\/)/.test(s.src)).length"
)


def _shown(page: Page, hash_: str, ready: str) -> str:
    """The text of the page at `hash_` once `ready` holds, after checking nothing ran."""
    page.evaluate(f"location.hash = {hash_!r}")
    # Escaping is tested here, not speed: the run's overview is computed in the server's
    # background, a few seconds on two loaded cores (not the 120 s this once waited: the
    # page the test opened was replaced by the runs list answered late, since fixed).
    page.wait_until(ready, timeout=60)
    assert page.evaluate("window.__pwned === undefined"), hash_
    assert page.evaluate(INJECTED) == 0, hash_
    text: str = page.evaluate("document.body.innerText")
    return text


def _walk(page: Page) -> None:
    runs = _shown(page, "#/", "document.querySelectorAll('table tr').length > 2")
    assert f"run {HOSTILE[0]}" in runs and f"model {HOSTILE[1]}" in runs
    run = _shown(page, "#/run/0", "document.querySelectorAll('#overview table').length > 0")
    assert f"run {HOSTILE[0]}" in run and f"model {HOSTILE[1]}" in run
    document = f"#/run/0/doc/N3-000001/{HOSTILE_DOCUMENT}"
    fields = _shown(page, document, "document.querySelectorAll('#fields tr[data-path]').length")
    claims = _shown(
        page, f"{document}?tab=claims", "document.querySelectorAll('#claims tr[data-path]').length"
    )
    for path, value in zip(HOSTILE_PATHS, HOSTILE, strict=True):
        row = page.evaluate(
            f"document.querySelector('#claims tr[data-path=\"{path}\"]').children[1].textContent"
        )
        assert row == value
        assert value in fields and value in claims
    page.wait_until("document.querySelectorAll('.box').length > 0")
    tips = page.evaluate(
        "Array.from(document.querySelectorAll('.box')).map(b => b.title).join('\\n')"
    )
    assert HOSTILE[0] in tips  # in a tooltip, as an attribute's text
    assert page.evaluate("window.__pwned === undefined")


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_markup_from_a_run_is_text_when_served(
    viewer_runs: tuple[Path, Path, Path], hostile_run: Path, tmp_path: Path
) -> None:
    packets, _, typical = viewer_runs
    with (
        serving(
            str(hostile_run),
            str(typical),
            "--packets",
            str(packets),
            "--cache",
            str(tmp_path / "c"),
        ) as url,
        open_page(url, 1400, 900) as page,
    ):
        _walk(page)


# Slow (~50 s on 2 loaded cores: the export renders every page): the served test above
# covers the same page in the fast tier.
@pytest.mark.slow
@pytest.mark.usefixtures("browser")
def test_markup_from_a_run_is_text_in_the_export(
    viewer_runs: tuple[Path, Path, Path], hostile_run: Path, tmp_path: Path
) -> None:
    packets, _, typical = viewer_runs
    out = tmp_path / "site"
    done = subprocess.run(
        [
            *(cli_path(), "view", str(hostile_run), str(typical), "--packets", str(packets)),
            *("--out", str(out), "--cache", str(tmp_path / "c")),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with open_page(out / "index.html", 1400, 900) as page:
        _walk(page)


@pytest.mark.usefixtures("browser")
def test_a_route_of_the_export_loads_nothing_outside_it(tmp_path: Path) -> None:
    """An export opened at a route naming a document ``../../../planted/x`` (a link anyone
    can write) loads no script from outside the export: a key is a file of the export."""
    out = tmp_path / "site"
    out.mkdir()
    _write([], Pages(tmp_path / "cache"), out, None)  # the export's own files, of no run
    planted = tmp_path / "planted" / "x"
    planted.mkdir(parents=True)
    (planted / "summary.js").write_text("window.__pwned = 3;\n")
    route = "#/run/0/doc/..%2F..%2F..%2Fplanted/x"
    with open_page((out / "index.html").resolve().as_uri() + route) as page:
        page.wait_until("document.querySelector('#app .error, #app p') !== null")
        time.sleep(0.5)  # a script added to the page would have run by now
        assert page.evaluate("window.__pwned === undefined")
        requests = page.requests
    assert not any("planted" in url for url in requests), requests
