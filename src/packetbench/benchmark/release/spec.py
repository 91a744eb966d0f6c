"""The release spec (SPEC.toml) and the private seed file of its test split.

A spec names the release, its version and the generator version it is built with, and per
split the tiers, the packets per tier and where the seeds come from: a public `seed` for
`dev` (tier T's packets are seeds seed .. seed+n-1, as `generate --seed` draws them), a
private seed file for `test`, or, for a release that wraps a corpus imported from elsewhere
(`packetbench import`), the imported packets folder. `[split.dev]` alone is a valid spec.

The seed file is written by `release seeds` (or `release refresh`): a random 256-bit salt and,
per tier, a random first seed below 2**62. Both matter. The release publishes the sha256 of
every test file: with small seeds anyone could generate candidate packets until one matches
a committed hash, so the seeds are drawn from a space too large to search; and it publishes
the sha256 of the seed list, which without the salt would be found by trying likely lists.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput, InputError, UsageError

SPLITS = ("dev", "test")
# Test seeds are drawn below this (a packet's seed range must stay below 2**63).
SEED_SPACE = 2**62
# A hand-written test seed below this could be found by generating packets until one
# matches a committed hash: refused (draw them with `release seeds`).
SMALLEST_PRIVATE_SEED = 2**40
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class SplitSpec(BaseModel):
    """One split of a spec: generated (tiers, packets_per_tier, a seed or a seed file) or
    imported (the folder of an imported corpus)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    tiers: list[str] | None = None
    packets_per_tier: int | None = Field(default=None, ge=1, le=100_000)
    seed: int | None = Field(default=None, ge=0)
    seed_file: str | None = None
    set_: list[str] = Field(default_factory=list, alias="set")
    imported: str | None = Field(default=None, alias="import")

    @field_validator("tiers")
    @classmethod
    def _tiers(cls, tiers: list[str] | None) -> list[str] | None:
        if tiers is not None and (not tiers or len(set(tiers)) != len(tiers)):
            raise ValueError("tiers must list at least one tier, each once")
        return tiers


class Spec(BaseModel):
    """A release spec, as SPEC.toml gives it."""

    model_config = ConfigDict(extra="forbid")

    name: str
    version: str
    generator_version: str
    description: str = ""
    licence: str = "Apache-2.0"
    split: dict[str, SplitSpec]


@dataclass(frozen=True)
class LoadedSpec:
    """A checked spec and the folder its relative paths are read from."""

    spec: Spec
    path: Path

    @property
    def folder(self) -> Path:
        return self.path.parent

    def split(self, name: str) -> SplitSpec | None:
        return self.spec.split.get(name)

    @property
    def imported(self) -> Path | None:
        dev = self.split("dev")
        if dev is None or dev.imported is None:
            return None
        return self.folder / dev.imported

    def seed_file(self) -> Path | None:
        test = self.split("test")
        if test is None or test.seed_file is None:
            return None
        return self.folder / test.seed_file


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the spec"
    return f"{where}: {first['msg']}"


def load_spec(path: Path) -> LoadedSpec:
    """The spec at `path`, checked; BadInput naming the file and its first problem."""
    data = safe_read.toml_file(path, "a release spec, TOML")
    try:
        spec = Spec.model_validate(data)
    except ValidationError as error:
        raise BadInput(f"{path}: not a release spec ({_first_error(error)})") from None
    _check(spec, path)
    return LoadedSpec(spec, path)


def _check(spec: Spec, path: Path) -> None:
    from packetbench.generator.tiers import PRESETS, parse_overrides

    ids.check(spec.name, "name", path)
    ids.check(spec.version, "version", path)
    unknown = sorted(set(spec.split) - set(SPLITS))
    if unknown:
        raise BadInput(f"{path}: split.{unknown[0]}: unknown split (the splits are dev and test)")
    dev = spec.split.get("dev")
    if dev is None:
        raise BadInput(f"{path}: no [split.dev] (every release has a public dev split)")
    if dev.imported is not None:
        extra = [
            key
            for key, value in (
                ("tiers", dev.tiers),
                ("packets_per_tier", dev.packets_per_tier),
                ("seed", dev.seed),
                ("seed_file", dev.seed_file),
            )
            if value is not None
        ] + (["set"] if dev.set_ else [])
        if extra:
            raise BadInput(
                f"{path}: split.dev.{extra[0]}: an imported split takes its packets as they "
                "are (give import alone)"
            )
        if "test" in spec.split:
            raise BadInput(
                f"{path}: split.test: a release of an imported corpus has no test split (its "
                "packets were published, so no seed of them is private)"
            )
        return
    for name, split in spec.split.items():
        where = f"split.{name}"
        if split.imported is not None:
            raise BadInput(f"{path}: {where}.import: only the dev split can be imported")
        if split.tiers is None or split.packets_per_tier is None:
            missing = "tiers" if split.tiers is None else "packets_per_tier"
            raise BadInput(f"{path}: {where}.{missing}: missing")
        for tier in split.tiers:
            if tier not in PRESETS:
                raise BadInput(
                    f"{path}: {where}.tiers: unknown tier {tier!r} (choose from "
                    f"{', '.join(PRESETS)})"
                )
        try:
            parse_overrides(split.set_)
        except InputError as error:
            raise BadInput(f"{path}: {where}.set: {error}") from None
    if dev.seed is None or dev.seed_file is not None:
        raise BadInput(
            f"{path}: split.dev: give seed (the dev split's seeds are public), not seed_file"
        )
    if dev.seed + dev.packets_per_tier - 1 > 2**63 - 1:  # type: ignore[operator]
        raise BadInput(f"{path}: split.dev.seed: the seeds run past 2**63 - 1")
    test = spec.split.get("test")
    if test is not None and (test.seed is not None or test.seed_file is None):
        raise BadInput(
            f"{path}: split.test: give seed_file (a private file outside the release folder), "
            "not seed: a seed in the spec is public"
        )


class SeedFile(BaseModel):
    """The private seeds of a release's test split."""

    model_config = ConfigDict(extra="forbid")

    release: str
    draw: int = Field(ge=1)
    salt: str
    seeds: dict[str, int]

    def seeds_of(self, tier: str, count: int) -> list[int]:
        first = self.seeds[tier]
        return list(range(first, first + count))

    def commitment(self, tiers: list[str], count: int) -> str:
        """sha256 of the salted seed list: what release.json publishes of the seeds."""
        listed = {
            "release": self.release,
            "draw": self.draw,
            "salt": self.salt,
            "seeds": {tier: self.seeds_of(tier, count) for tier in tiers},
        }
        import hashlib

        return hashlib.sha256(orjson.dumps(listed, option=orjson.OPT_SORT_KEYS)).hexdigest()


def load_seeds(path: Path, release: str, tiers: list[str], count: int) -> SeedFile:
    """The seed file at `path` for the test split of `release` (its tiers, `count` packets
    each); BadInput naming the file and its first problem."""
    data = safe_read.toml_file(
        path,
        "the test split's private seed file; draw one with `packetbench release seeds SPEC.toml`",
    )
    try:
        seeds = SeedFile.model_validate(data)
    except ValidationError as error:
        raise BadInput(f"{path}: not a seed file ({_first_error(error)})") from None
    if seeds.release != release:
        raise BadInput(f"{path}: the seeds of release {seeds.release!r}, not of {release!r}")
    if not _HEX64.match(seeds.salt):
        raise BadInput(f"{path}: salt: not 64 lowercase hex digits (256 random bits)")
    for tier in tiers:
        first = seeds.seeds.get(tier)
        if first is None:
            raise BadInput(f"{path}: seeds.{tier}: missing (the test split has tier {tier})")
        if first < SMALLEST_PRIVATE_SEED:  # not private: a seed this small may be named
            raise BadInput(
                f"{path}: seeds.{tier}: {first} is not a private seed (below 2**40 it can be "
                "found by trying seeds against the committed file hashes); draw the seeds "
                "with `packetbench release seeds`"
            )
        if first > 2**63 - count:  # ... and one this large is a private seed: never named
            raise BadInput(
                f"{path}: seeds.{tier}: its {count} seeds run past 2**63 - 1; draw the seeds "
                "with `packetbench release seeds`"
            )
    return seeds


def draw(release: str, tiers: list[str], number: int = 1) -> SeedFile:
    """Fresh secret seeds for `tiers` (the `number`-th draw of the release's test split)."""
    seeds = {tier: SMALLEST_PRIVATE_SEED + secrets.randbelow(SEED_SPACE) for tier in tiers}
    return SeedFile(release=release, draw=number, salt=secrets.token_hex(32), seeds=seeds)


def seed_text(seeds: SeedFile) -> bytes:
    """The seed file as written: TOML, with a warning of what it is."""
    lines = [
        "# packetbench release seeds: PRIVATE. Whoever holds this file can regenerate the",
        "# test split, truth included. Keep it out of the release folder; publish it only",
        "# to retire the split (after `packetbench release refresh`), so that anyone can",
        "# regenerate it and check the scores made on it.",
        f"release = {_toml_string(seeds.release)}",
        f"draw = {seeds.draw}",
        f"salt = {_toml_string(seeds.salt)}",
        "",
        "[seeds]",
        *(f"{tier} = {first}" for tier, first in seeds.seeds.items()),
    ]
    return ("\n".join(lines) + "\n").encode()


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check_outside(path: Path, folder: Path, what: str) -> None:
    """UsageError when `path` lies inside `folder` (a seed file inside a release)."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return
    raise UsageError(
        f"{path}: inside the release folder {folder}; {what} must be kept out of it (it would "
        "be published with the release)"
    )


def resolved_knobs(split: SplitSpec) -> dict[str, dict[str, Any]]:
    """tier -> the knobs its packets are generated with (the preset with the split's `set`)."""
    from packetbench.generator.tiers import parse_overrides, resolve

    overrides = parse_overrides(split.set_)
    return {tier: resolve(tier, overrides) for tier in split.tiers or []}


SplitName = Literal["dev", "test"]
