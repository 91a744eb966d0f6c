"""The exceptions packetbench raises on purpose, and what the command line makes of them.

`InputError` (bad usage or bad input: the message names the file or option and the problem)
becomes one line and exit code 2. Any other error is a bug or a crash and exits 1.
"""


class PacketbenchError(Exception):
    """Base class of every error packetbench raises on purpose."""


class InputError(PacketbenchError):
    """Bad usage or bad input; the command line prints the message and exits 2."""
