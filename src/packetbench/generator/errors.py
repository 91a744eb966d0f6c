"""The generator's own exceptions; the CLI turns them into one line and an exit code."""


class GeneratorError(Exception):
    """Base class for every error the generator raises on purpose."""


class UsageError(GeneratorError):
    """Bad input from the user: unknown tier, bad count, unwritable folder, bad knob."""


class LayoutError(GeneratorError):
    """A renderer could not place or record a value (a bug, never user input)."""
