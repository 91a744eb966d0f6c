"""The generator's own exceptions (bad usage and bad input are `packetbench.core.errors`')."""

from packetbench.core.errors import PacketbenchError


class GeneratorError(PacketbenchError):
    """Base class for every error only the generator raises on purpose."""


class LayoutError(GeneratorError):
    """A renderer could not place or record a value: a bug, never the user's input."""
