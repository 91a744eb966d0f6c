"""No module of packetbench runs past 800 lines: a module that does several jobs is split along
its seams (docs/design.md §2)."""

from __future__ import annotations

from tests.support.paths import ROOT

PACKAGE = ROOT / "src" / "packetbench"
MAX_LINES = 800


def _lines() -> dict[str, int]:
    return {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }


def test_every_module_is_at_most_800_lines() -> None:
    lines = _lines()
    assert len(lines) > 400
    too_long = {name: n for name, n in sorted(lines.items()) if n > MAX_LINES}
    assert too_long == {}
