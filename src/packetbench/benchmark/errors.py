"""The benchmark's own exceptions (bad usage and bad input are `packetbench.core.errors`')."""

from packetbench.core.errors import PacketbenchError


class BenchmarkError(PacketbenchError):
    """Base class for every error only the benchmark raises on purpose."""
