"""Old spellings of options, kept working for one release (a helper module: the command
loader skips `_` names).

Each word means one thing in every command: ``--seed`` is the first packet's seed, the
simulator's is ``--sim-seed``, the simulated judge's ``--judge-seed``; ``--tiers`` takes one
or more tiers; a run is an argument (``RUN``), never an option. The spellings this replaced
are rewritten to the current ones before typer parses the command line, so they still work
but no help lists them. They go in the next release (CHANGELOG.md).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

# command -> {old option: current option}; "" drops the old word and leaves its value where
# it stands, as the positional argument it is.
ALIASES: dict[str, dict[str, str]] = {
    "generate": {"--tier": "--tiers"},
    "patterns": {"--tier": "--tiers"},
    "extract": {"--seed": "--sim-seed"},
    "verify": {"--seed": "--judge-seed", "--batch": "--claims-per-request"},
    "difficulty": {"--seed": "--ocr-sample-seed"},
    "plan": {"--pilot": ""},
}


# Commands that took their packet folders as arguments before `--packets`: each
# folder given so is rewritten to `--packets FOLDER`, with a note on stderr.
PACKETS_AS_ARGUMENTS = ("audit", "difficulty")


def current(words: list[str], takes_value: Callable[[str, str], bool] | None = None) -> list[str]:
    """`words` (the command line after the program name) with every old spelling of the
    command's options replaced by the current one; `--old=value` as well as `--old value`.
    Nothing after a bare ``--`` is touched. `takes_value(command, option)` says which options
    take a value, which tells the old arguments of PACKETS_AS_ARGUMENTS from option values."""
    words = _options(words)
    if words and words[0] in PACKETS_AS_ARGUMENTS and takes_value is not None:
        words = _packets_as_option(words, takes_value)
    return words


def _options(words: list[str]) -> list[str]:
    if not words or words[0] not in ALIASES:
        return words
    table = ALIASES[words[0]]
    out = [words[0]]
    rest = iter(words[1:])
    for word in rest:
        if word == "--":
            out.append(word)
            out.extend(rest)
            break
        name, eq, value = word.partition("=")
        if name not in table:
            out.append(word)
        elif table[name]:
            out.append(table[name] + eq + value)
        elif eq:
            out.append(value)
    return out


def _packets_as_option(words: list[str], takes_value: Callable[[str, str], bool]) -> list[str]:
    """`words` of a PACKETS_AS_ARGUMENTS command with every argument as `--packets ARG`."""
    command, out, folders = words[0], [words[0]], 0
    rest = iter(words[1:])
    for word in rest:
        if word == "--":  # what follows is arguments only
            for folder in rest:
                out += ["--packets", folder]
                folders += 1
            break
        if word.startswith("-"):
            out.append(word)
            if "=" not in word and takes_value(command, word):
                value = next(rest, None)
                if value is not None:
                    out.append(value)
            continue
        out += ["--packets", word]
        folders += 1
    if folders:
        sys.stderr.write(
            f"packetbench: note: `{command} PACKETS` is now `{command} --packets PACKETS` "
            "(the folders as arguments work until the next release)\n"
        )
    return out
