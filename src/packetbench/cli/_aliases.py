"""Old spellings of options, kept working for one release (a helper module: the command
loader skips `_` names).

Each word means one thing in every command: ``--seed`` is the first packet's seed, the
simulator's is ``--sim-seed``, the simulated judge's ``--judge-seed``; ``--tiers`` takes one
or more tiers; a run is an argument (``RUN``), never an option. The spellings this replaced
are rewritten to the current ones before typer parses the command line, so they still work
but no help lists them. They go in the next release (CHANGELOG.md).
"""

from __future__ import annotations

# command -> {old option: current option}; "" drops the old word and leaves its value where
# it stands, as the positional argument it now is.
ALIASES: dict[str, dict[str, str]] = {
    "generate": {"--tier": "--tiers"},
    "patterns": {"--tier": "--tiers"},
    "extract": {"--seed": "--sim-seed"},
    "verify": {"--seed": "--judge-seed"},
    "difficulty": {"--seed": "--ocr-sample-seed"},
    "plan": {"--pilot": ""},
}


def current(words: list[str]) -> list[str]:
    """`words` (the command line after the program name) with every old spelling of the
    command's options replaced by the current one; `--old=value` as well as `--old value`.
    Nothing after a bare ``--`` is touched."""
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
