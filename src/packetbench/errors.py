"""The exceptions packetbench raises on purpose, and what the command line makes of them.

`InputError` (bad usage or bad input: the message names the file or option and the problem)
becomes one line and exit code 2. `CheckFailed` (a check found what it looks for: nothing in
common to compare) and `WriteFailed` (the machine refused a write: a full disk) become one
line and exit code 1, with nothing half written left behind as if complete. Any other error
is a bug or a crash and exits 1 with its traceback.
"""


class PacketbenchError(Exception):
    """Base class of every error packetbench raises on purpose."""


class InputError(PacketbenchError):
    """Bad usage or bad input; the command line prints the message and exits 2."""


class CheckFailed(PacketbenchError):
    """A check the command exists to make failed; one line ("failed: ..."), exit 1."""


class WriteFailed(PacketbenchError):
    """A write the command needed was refused by the machine (no space left, quota, file
    too large, I/O error); one line naming the file, exit 1. What was half written is gone."""
