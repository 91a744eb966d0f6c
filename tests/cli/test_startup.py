"""Starting the command loads only the command line: every command pays for its start, and
the tests start it hundreds of times. The document types, the tier presets and the heavy
libraries load when a command that needs them runs."""

from __future__ import annotations

import subprocess
import sys

HEAVY = (
    "packetbench.generator.tiers",
    "packetbench.generator.doctypes.base",
    "packetbench.benchmark.score.scorer",
    "numpy",
    "reportlab",
    "openpyxl",
    "duckdb",
    "pypdfium2",
    "starlette",
    "typer.rich_utils",  # typer's help renderer: only --help needs it
)
PROBE = (
    "import sys\n"
    "from packetbench.cli import app\n"
    "print(','.join(m for m in sys.argv[1:] if m in sys.modules))\n"
)


def test_starting_the_command_loads_no_heavy_module() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *HEAVY], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
