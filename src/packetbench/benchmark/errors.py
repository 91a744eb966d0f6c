"""The benchmark's own exceptions; the CLI turns each into one line and exit code 2."""

from packetbench.errors import InputError, PacketbenchError


class BenchmarkError(PacketbenchError):
    """Base class for every error the benchmark raises on purpose."""


class BadInput(BenchmarkError, InputError):
    """An input file or folder is missing, unreadable or malformed (the message names it)."""


class UsageError(BenchmarkError, InputError):
    """Bad command-line usage: unknown provider, bad option value, existing output."""
