"""The exceptions packetbench raises on purpose, and what the command line makes of them.

`InputError` (bad usage or bad input: the message names the file or option and the problem)
becomes one line and exit code 2: `UsageError` for the command line (an unknown tier, a bad
option value, an existing output), `BadInput` for a file or folder (missing, unreadable,
malformed). `CheckFailed` (a check found what it looks for: nothing in
common to compare) and `WriteFailed` (the machine refused a write: a full disk) become one
line and exit code 1, with nothing half written left behind as if complete. Any other error
is a bug or a crash and exits 1 with its traceback.
"""


class PacketbenchError(Exception):
    """Base class of every error packetbench raises on purpose."""


class InputError(PacketbenchError):
    """Bad usage or bad input; the command line prints the message and exits 2."""


class UsageError(InputError):
    """Bad command-line usage: an unknown name, a bad option value, an output in the way."""


class BadInput(InputError):
    """An input file or folder is missing, unreadable or malformed (the message names it)."""


class TaskFailed(PacketbenchError):
    """A task of a batch (a packet to write, to audit, to score) crashed in its worker; one
    line naming the task and the error's last line, exit 1."""


class CheckFailed(PacketbenchError):
    """A check the command exists to make failed; one line ("failed: ..."), exit 1."""


class WriteFailed(PacketbenchError):
    """A write the command needed was refused by the machine (no space left, quota, file
    too large, I/O error); one line naming the file, exit 1. What was half written is gone."""
