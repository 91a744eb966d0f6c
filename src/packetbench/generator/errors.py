"""The generator's own exceptions."""

from packetbench.errors import InputError, PacketbenchError


class GeneratorError(PacketbenchError):
    """Base class for every error the generator raises on purpose."""


class UsageError(GeneratorError, InputError):
    """Bad input from the user: unknown tier, bad count, unwritable folder, bad knob."""


class LayoutError(GeneratorError):
    """A renderer could not place or record a value: a bug, never the user's input."""


class TaskFailed(GeneratorError):
    """A task of a batch (a packet to write, a packet to audit) crashed in its worker."""
