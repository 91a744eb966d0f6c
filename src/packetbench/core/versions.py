"""The versions of everything that decides the bytes of a packet, recorded in every manifest
and in run.json."""

from __future__ import annotations

from functools import cache
from importlib.metadata import version

from packetbench import __version__


@cache
def versions() -> dict[str, str]:
    """Versions of everything that decides the bytes of a packet (read once per process)."""
    return {
        "packetbench": __version__,
        "faker": version("faker"),
        "reportlab": version("reportlab"),
        "openpyxl": version("openpyxl"),
        "lxml": version("lxml"),
        "orjson": version("orjson"),
        "pillow": version("pillow"),
        "pypdfium2": version("pypdfium2"),
        "numpy": version("numpy"),
        "pikepdf": version("pikepdf"),
        "fonttools": version("fonttools"),
    }
