"""`release verify`: what anyone can check of a release, and what the seed holder can.

Without the seeds: release.json binds COMMITMENT (its sha256), COMMITMENT binds every file
(its sha256), so every file present is checked, and a missing, extra or changed file is named.
A public copy (`release publish`) has no test packets: their lines are committed, not
checked. With the seed file (`--seeds`): its salted sha256 must be the commitment in
release.json, and each test packet must carry the seeds it lists. With `--regenerate`: the
splits are generated again in a temporary folder (dev from its public seeds; test from the
seed file) and every regenerated file must have its committed sha256, which proves the
committed files are what this generator makes from those seeds, byte for byte.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from packetbench import __version__
from packetbench.benchmark.release import reading
from packetbench.benchmark.release.generation import generate_dev, generate_test, hash_tree
from packetbench.benchmark.release.layout import Release, ReleaseMismatch, read_release
from packetbench.benchmark.release.spec import SeedFile, SplitSpec, load_seeds
from packetbench.core.errors import UsageError


@dataclass
class Verified:
    release: Release
    files: dict[str, int] = field(default_factory=dict)  # split -> files checked
    absent: list[str] = field(default_factory=list)  # splits committed, not present
    seeds: bool = False
    regenerated: dict[str, int] = field(default_factory=dict)  # split -> files regenerated


def _compare(expected: dict[str, str], actual: dict[str, str], folder: Path, what: str) -> None:
    for path in sorted(set(expected) | set(actual)):
        if path not in actual:
            raise ReleaseMismatch(f"{folder / path}: missing ({what})")
        if path not in expected:
            raise ReleaseMismatch(f"{folder / path}: not in COMMITMENT ({what})")
        if expected[path] != actual[path]:
            raise ReleaseMismatch(f"{folder / path}: sha256 differs from COMMITMENT ({what})")


def _split_spec(release: Release, name: str) -> SplitSpec:
    entry = release.split(name)
    counts = {t.packets for t in entry.tiers.values()}
    first = next(iter(entry.tiers.values())).first_seed
    return SplitSpec.model_validate(
        {
            "tiers": list(entry.tiers),
            "packets_per_tier": counts.pop() if len(counts) == 1 else 0,
            "seed": first,
            "set": entry.set_,
        }
    )


def verify(
    folder: Path, seeds: Path | None = None, regenerate: bool = False, jobs: int = 1
) -> Verified:
    """Check the release in `folder`; ReleaseMismatch naming the first file that differs."""
    release = read_release(folder)
    result = Verified(release)
    for name in release.manifest.splits:
        root = folder / name
        expected = {p: s for p, s in release.lines.items() if p.startswith(f"{name}/")}
        if not root.exists() and name == "test":
            result.absent.append(name)
            continue
        if not root.is_dir():
            raise ReleaseMismatch(f"{root}: missing (split {name})")
        _compare(expected, hash_tree(root, name), folder, "the files of the release")
        result.files[name] = len(expected)
    seed_file = _check_seeds(release, folder, seeds, result) if seeds is not None else None
    if regenerate:
        _regenerate(release, folder, seed_file, jobs, result)
    return result


def _check_seeds(release: Release, folder: Path, seeds: Path, result: Verified) -> SeedFile:
    entry = release.manifest.splits.get("test")
    if entry is None or entry.seed_commitment is None:
        raise UsageError(f"--seeds: release {release.title} has no private test split")
    spec = _split_spec(release, "test")
    seed_file = load_seeds(
        seeds, release.manifest.name, spec.tiers or [], spec.packets_per_tier or 0
    )
    if seed_file.commitment(spec.tiers or [], spec.packets_per_tier or 0) != entry.seed_commitment:
        raise ReleaseMismatch(
            f"{seeds}: not the seeds release {release.title} commits to (their salted sha256 "
            "differs from splits.test.seed_commitment)"
        )
    if "test" not in result.absent:
        from packetbench.benchmark.release.layout import test_folder

        for tier in spec.tiers or []:
            for index, seed in enumerate(seed_file.seeds_of(tier, spec.packets_per_tier or 0), 1):
                where = folder / "test" / test_folder(tier, index)
                info = reading.packet_info(where)
                if (info.tier, info.seed) != (tier, seed):
                    raise ReleaseMismatch(
                        f"{where / 'packet_truth.json'}: not the packet the seed file gives "
                        "this place"
                    )
    result.seeds = True
    return seed_file


def _regenerate(
    release: Release, folder: Path, seed_file: SeedFile | None, jobs: int, result: Verified
) -> None:
    from packetbench.core.versions import versions

    manifest = release.manifest
    if manifest.splits["dev"].source == "imported":
        raise UsageError(
            f"--regenerate: release {release.title} wraps an imported corpus, which this "
            "generator did not make; its files are checked against the commitment only"
        )
    if manifest.generator_version != __version__:
        raise UsageError(
            f"--regenerate: release {release.title} was built by packetbench "
            f"{manifest.generator_version}; regenerate it with that version (this is {__version__})"
        )
    ours = dict(versions())
    differ = sorted(k for k, v in manifest.library_versions.items() if ours.get(k) != v)
    if differ:
        name = differ[0]
        raise UsageError(
            f"--regenerate: release {release.title} was built with {name} "
            f"{manifest.library_versions[name]} (this environment has {ours.get(name)}); the "
            "bytes depend on it"
        )
    work = Path(tempfile.mkdtemp(prefix="packetbench-regenerate-"))
    try:
        dev = _split_spec(release, "dev")
        generate_dev(dev, dev.seed or 0, work / "dev", jobs, _say)
        _compare(
            {p: s for p, s in release.lines.items() if p.startswith("dev/")},
            hash_tree(work / "dev", "dev"),
            folder,
            "regenerated from the dev seeds",
        )
        result.regenerated["dev"] = manifest.splits["dev"].files
        if seed_file is not None:
            generate_test(_split_spec(release, "test"), seed_file, work / "test", jobs, _say)
            _compare(
                {p: s for p, s in release.lines.items() if p.startswith("test/")},
                hash_tree(work / "test", "test"),
                folder,
                "regenerated from the seed file",
            )
            result.regenerated["test"] = manifest.splits["test"].files
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _say(_: str) -> None:
    return None
