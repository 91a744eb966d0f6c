"""The ``inspect_ai`` entry point: importing it registers ``packetbench/extract``."""

from packetbench.integrations.inspect.task import extract

__all__ = ["extract"]
