"""Tiny releases for the release and leaderboard tests: one N1 packet per split."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

from packetbench import __version__

RunCli = Callable[..., CompletedProcess[str]]


def spec_text(
    *,
    name: str = "tiny",
    version: str = "1.0",
    generator_version: str = __version__,
    dev_seed: int = 1,
    test: bool = True,
) -> str:
    text = (
        f'name = "{name}"\nversion = "{version}"\ngenerator_version = "{generator_version}"\n'
        f'description = "A release for tests."\n\n[split.dev]\ntiers = ["N1"]\n'
        f"packets_per_tier = 1\nseed = {dev_seed}\n"
    )
    if test:
        text += (
            '\n[split.test]\ntiers = ["N1"]\npackets_per_tier = 1\n'
            'seed_file = "private/seeds.toml"\n'
        )
    return text


def write_spec(folder: Path, **options: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / "spec.toml"
    spec.write_text(spec_text(**options), encoding="utf-8")  # type: ignore[arg-type]
    return spec


def build(run_cli: RunCli, folder: Path, out: str = "rel", *extra: str) -> Path:
    """Draw the seeds (when the spec's seed file is missing) and build the release."""
    spec = folder / "spec.toml"
    if not (folder / "private" / "seeds.toml").exists() and "[split.test]" in spec.read_text():
        done = run_cli("release", "seeds", str(spec))
        assert done.returncode == 0, done.stderr
    done = run_cli("release", "build", str(spec), "--out", str(folder / out), *extra)
    assert done.returncode == 0, done.stderr
    return folder / out
