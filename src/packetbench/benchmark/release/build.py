"""`release seeds`, `release build`, `release refresh` and `release publish`.

Every one writes its folder as every output folder is written (`core.output_folder`): one
writer at a time, refused inside another release and over files it did not write, built in
a scratch folder beside DIR and moved into place only when every file is written and
hashed, so a failed, interrupted or killed build leaves DIR as it was (the next command
removes the scratch a killed one left). The same spec, seed file and packetbench version
give the same bytes in every file, release.json and COMMITMENT included: nothing in them
depends on time, paths outside the release, or workers.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from packetbench import __version__
from packetbench.benchmark.release import reading
from packetbench.benchmark.release.generation import generate_dev, generate_test, hash_tree
from packetbench.benchmark.release.layout import (
    COMMITMENT,
    FORMAT,
    RELEASE,
    Release,
    ReleaseFile,
    SplitEntry,
    TierEntry,
    commitment_text,
    manifest_bytes,
    read_release,
    split_digest,
)
from packetbench.benchmark.release.spec import (
    LoadedSpec,
    SeedFile,
    SplitSpec,
    check_outside,
    draw,
    load_seeds,
    load_spec,
    resolved_knobs,
    seed_text,
)
from packetbench.core import ids, safe_read, sealed
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.locking import hold
from packetbench.core.output_folder import OutputFolder, output_folder
from packetbench.core.writing import write_atomic

OWN = frozenset({RELEASE, COMMITMENT, "dev", "test"})  # what `build` writes into DIR
PUBLIC = frozenset({RELEASE, COMMITMENT, "dev"})  # ... and `publish`
Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    return None


def write_seeds(spec_path: Path, out: Path | None, force: bool = False) -> Path:
    """Draw the test split's private seeds into `out` (default: the spec's seed_file)."""
    loaded = load_spec(spec_path)
    test = loaded.split("test")
    if test is None or test.tiers is None:
        raise UsageError(f"{spec_path}: has no [split.test]; a dev split's seeds are in the spec")
    target = out or loaded.seed_file()
    assert target is not None  # the spec check makes a test split name its seed file
    if sealed.release_around(target.parent) is not None:
        raise UsageError(
            f"{target}: inside a release folder; the seed file must be kept out of it (it "
            "would be published with the release)"
        )
    # Held while it is checked and written: two draws at once never both find it missing.
    with hold(target.parent, name=f".{target.name}.packetbench.lock", shown=target):
        if target.is_dir():
            raise UsageError(f"{target}: is a folder, not a seed file")
        if target.exists() and not force:
            raise UsageError(
                f"{target}: already exists (a release built from it would change if it were "
                "replaced; use --force to draw new seeds anyway)"
            )
        write_atomic(target, seed_text(draw(loaded.spec.name, test.tiers)))
    return target


def _pages(folder: Path) -> tuple[dict[str, int], reading.PacketInfo]:
    info = reading.packet_info(folder)
    return {doc.doc_id: reading.pages(folder, doc) for doc in info.documents}, info


def _copy_file(source: Path, target: Path) -> None:
    """Copy the regular file `source` (a FIFO, a device or a link in its place is refused,
    named for what it is)."""
    if source.is_symlink():
        raise BadInput(f"{source}: a symbolic link; a release holds regular files only")
    safe_read.check_file(source, "document")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _copy_tree(source: Path, target: Path, link: bool = False) -> None:
    """Copy every file below `source` to `target` (hard links with `link`, where the file
    system allows them: a refresh keeps the dev split's bytes without a second copy)."""
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if path.is_dir() and not path.is_symlink():
            (target / relative).mkdir(exist_ok=True)
            continue
        if link and not path.is_symlink() and stat.S_ISREG(path.lstat().st_mode):
            try:
                os.link(path, target / relative)
                continue
            except OSError:
                pass
        _copy_file(path, target / relative)


def _copy_imported(source: Path, generator_version: str, staging: Path) -> list[str]:
    """Copy every packet of the imported corpus `source` into staging/dev, byte for byte;
    the generator versions of the packets that were imported."""
    if not source.is_dir():
        raise BadInput(f"{source}: {'not a folder' if source.exists() else 'missing'}")
    children = sorted(c for c in source.iterdir() if (c / "packet_truth.json").is_file())
    if not children:
        raise BadInput(f"{source}: holds no packets (no */packet_truth.json)")
    versions: set[str] = set()
    for child in children:
        info = reading.packet_info(child)
        if info.generator_version != generator_version:
            raise UsageError(
                f"{child / 'packet_truth.json'}: generator_version {info.generator_version}, "
                f"not the spec's {generator_version} (a release holds packets of the "
                "generator version it names)"
            )
        versions.add(info.generator_version)
        target = staging / "dev" / ids.check(info.packet_id, "packet_id", child)
        for path in sorted(child.rglob("*")):
            relative = path.relative_to(child)
            if path.is_symlink():
                raise BadInput(f"{path}: a symbolic link; a release copies regular files only")
            if path.is_dir():
                continue
            for part in relative.parts:
                ids.check(part, "file name", child)
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            (target / relative).write_bytes(safe_read.read_bytes(path, "document"))
    return sorted(versions)


@dataclass(frozen=True)
class Built:
    release: Release
    packets: dict[str, int]  # split -> packets


def _split_entry(
    staging: Path,
    name: str,
    lines: dict[str, str],
    spec_split: SplitSpec | None,
    seeds: SeedFile | None = None,
    imported: list[str] | None = None,
) -> SplitEntry:
    folder = staging / name
    packets = sorted(c.name for c in folder.iterdir() if (c / "packet_truth.json").is_file())
    pages: dict[str, dict[str, int]] = {}
    tiers: dict[str, int] = {}
    for packet in packets:
        pages[packet], info = _pages(folder / packet)
        tiers[info.tier] = tiers.get(info.tier, 0) + 1
    if spec_split is None or imported is not None:
        tier_entries = {tier: TierEntry(packets=n) for tier, n in sorted(tiers.items())}
    else:
        knobs = resolved_knobs(spec_split)
        tier_entries = {
            tier: TierEntry(
                packets=spec_split.packets_per_tier or 0,
                first_seed=spec_split.seed if seeds is None else None,
                knobs=knobs[tier],
            )
            for tier in spec_split.tiers or []
        }
    return SplitEntry(
        public=name == "dev",
        source="imported" if imported is not None else "generated",
        tiers=tier_entries,
        set_=list(spec_split.set_) if spec_split is not None else [],
        draw=seeds.draw if seeds is not None else None,
        seed_commitment=(
            seeds.commitment(spec_split.tiers or [], spec_split.packets_per_tier or 0)
            if seeds is not None and spec_split is not None
            else None
        ),
        imported_generator_versions=imported,
        packets=packets,
        documents=sum(len(p) for p in pages.values()),
        pages=pages,
        files=sum(1 for p in lines if p.startswith(f"{name}/")),
        files_sha256=split_digest(lines, name),
    )


def _finish(folder: OutputFolder, manifest_of: Callable[[dict[str, str]], ReleaseFile]) -> None:
    lines: dict[str, str] = {}
    for name in ("dev", "test"):
        if (folder.staging / name).is_dir():
            lines |= hash_tree(folder.staging / name, name)
    folder.write(COMMITMENT, commitment_text(lines))
    folder.write(RELEASE, manifest_bytes(manifest_of(lines)))


def _sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _release_folder(
    out: Path, names: frozenset[str], command: str, force: bool
) -> AbstractContextManager[OutputFolder]:
    """`out` written as a release folder is (`core.output_folder`)."""
    what = "public copy" if names == PUBLIC else "release"
    return output_folder(out, names, command=command, force=force, what=what, release=True)


def build(
    spec_path: Path,
    out: Path,
    *,
    seeds: Path | None = None,
    jobs: int = 1,
    force: bool = False,
    progress: Progress = _quiet,
) -> Built:
    """Build the release `spec_path` describes into `out` (see the module docstring)."""
    loaded = load_spec(spec_path)
    spec = loaded.spec
    if loaded.imported is None and spec.generator_version != __version__:
        raise UsageError(
            f"{spec_path}: generator_version {spec.generator_version} is not this "
            f"packetbench's {__version__}; build it with packetbench {spec.generator_version}"
        )
    test = loaded.split("test")
    seed_file: SeedFile | None = None
    if test is not None:
        path = seeds or loaded.seed_file()
        assert path is not None
        check_outside(path, out, "the seed file")
        seed_file = load_seeds(path, spec.name, test.tiers or [], test.packets_per_tier or 0)
    elif seeds is not None:
        raise UsageError(f"--seeds: {spec_path} has no [split.test]")
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")
    if loaded.imported is not None:
        check_outside(loaded.imported, out, "the imported corpus")
    with _release_folder(out, OWN, "release build", force) as folder:
        built = _build(loaded, seed_file, folder, jobs, progress)
    return Built(read_release(out), built)


def _build(
    loaded: LoadedSpec,
    seed_file: SeedFile | None,
    folder: OutputFolder,
    jobs: int,
    progress: Progress,
) -> dict[str, int]:
    spec = loaded.spec
    staging = folder.staging
    dev = loaded.split("dev")
    assert dev is not None
    imported: list[str] | None = None
    if loaded.imported is not None:
        progress(f"copying the imported corpus {loaded.imported}")
        imported = _copy_imported(loaded.imported, spec.generator_version, staging)
    else:
        generate_dev(dev, dev.seed or 0, staging / "dev", jobs, progress, folder.out / "dev")
    test = loaded.split("test")
    if test is not None and seed_file is not None:
        generate_test(test, seed_file, staging / "test", jobs, progress, folder.out / "test")
    from packetbench.core.versions import versions

    def manifest_of(lines: dict[str, str]) -> ReleaseFile:
        splits = {"dev": _split_entry(staging, "dev", lines, dev, imported=imported)}
        if test is not None:
            splits["test"] = _split_entry(staging, "test", lines, test, seeds=seed_file)
        return ReleaseFile(
            release_format=FORMAT,
            name=spec.name,
            version=spec.version,
            description=spec.description,
            licence=spec.licence,
            generator_version=spec.generator_version,
            library_versions={} if imported is not None else dict(versions()),
            splits=splits,
            commitment_sha256=_sha(commitment_text(lines)),
        )

    progress("hashing every file")
    _finish(folder, manifest_of)
    counts = {
        name: sum(1 for c in (staging / name).iterdir() if c.is_dir())
        for name in ("dev", "test")
        if (staging / name).is_dir()
    }
    return counts


@dataclass(frozen=True)
class Refreshed:
    release: Release
    old_commitment: str | None
    old_digest: str
    seeds: Path


def _refreshable(folder: Path) -> tuple[Release, SplitEntry]:
    old = read_release(folder)
    entry = old.manifest.splits.get("test")
    if entry is None or entry.source != "generated":
        raise UsageError(f"{folder / RELEASE}: has no generated test split to refresh")
    if old.manifest.generator_version != __version__:
        raise UsageError(
            f"{folder / RELEASE}: generator_version {old.manifest.generator_version} is not "
            f"this packetbench's {__version__}; refresh it with packetbench "
            f"{old.manifest.generator_version}"
        )
    return old, entry


def refresh(
    folder: Path, seeds_out: Path, *, jobs: int = 1, progress: Progress = _quiet
) -> Refreshed:
    """Draw a new test split for the release in `folder`: new private seeds written to
    `seeds_out` (first, so they are never lost), the test packets generated again from them,
    COMMITMENT and release.json rewritten. The dev split is kept byte for byte. The new
    release is built beside the old one (its dev files linked, not copied, where the file
    system allows) and replaces it whole, as `build` does; a refresh that fails removes
    the seeds it drew (no release was made from them)."""
    _refreshable(folder)
    check_outside(seeds_out, folder, "the seed file")
    drawn = False
    try:
        with _release_folder(folder, OWN, "release build", True) as target:
            old, entry = _refreshable(folder)  # as it is now that it is held
            if seeds_out.exists():
                raise UsageError(
                    f"{seeds_out}: already exists; the new seeds go to a new file (keep the "
                    "old one: publishing it later lets anyone verify the retired split)"
                )
            fresh = draw(old.manifest.name, list(entry.tiers), (entry.draw or 1) + 1)
            write_atomic(seeds_out, seed_text(fresh))
            drawn = True
            _redraw(old, entry, fresh, seeds_out, target, jobs, progress)
    except BaseException:
        # The seeds are kept only when the release was made from them (a signal can come
        # just after it was put in place): else the same --seeds can be given again.
        if drawn and _digest(folder) == old.digest:
            seeds_out.unlink(missing_ok=True)
        raise
    return Refreshed(read_release(folder), entry.seed_commitment, old.digest, seeds_out)


def _digest(folder: Path) -> str | None:
    try:
        return _sha(safe_read.read_bytes(folder / RELEASE, "corpus"))
    except (OSError, BadInput):
        return None


def _redraw(
    old: Release,
    entry: SplitEntry,
    fresh: SeedFile,
    seeds_out: Path,
    target: OutputFolder,
    jobs: int,
    progress: Progress,
) -> None:
    """The refreshed release, written into `target`: the dev split as it was, a new test
    split from `fresh`."""
    count = next(iter(entry.tiers.values())).packets
    split = SplitSpec.model_validate(
        {
            "tiers": list(entry.tiers),
            "packets_per_tier": count,
            "seed_file": str(seeds_out),
            "set": entry.set_,
        }
    )
    staging = target.staging
    _copy_tree(old.folder / "dev", staging / "dev", link=True)
    generate_test(split, fresh, staging / "test", jobs, progress, target.out / "test")
    lines = {p: sha for p, sha in old.lines.items() if not p.startswith("test/")}
    lines |= hash_tree(staging / "test", "test")
    new_entry = _split_entry(staging, "test", lines, split, seeds=fresh)
    splits = dict(old.manifest.splits) | {"test": new_entry}
    manifest = old.manifest.model_copy(
        update={"splits": splits, "commitment_sha256": _sha(commitment_text(lines))}
    )
    target.write(COMMITMENT, commitment_text(lines))
    target.write(RELEASE, manifest_bytes(manifest))


def publish(folder: Path, out: Path, force: bool = False) -> Release:
    """Copy what may be published of the release in `folder` to `out`: release.json,
    COMMITMENT and the dev split; never the test packets (their truth and seeds)."""
    release = read_release(folder)
    check_outside(out, folder, "the public copy")
    with _release_folder(out, PUBLIC, "release publish", force) as target:
        _copy_tree(folder / "dev", target.staging / "dev")
        for name in (RELEASE, COMMITMENT):
            _copy_file(folder / name, target.staging / name)
    return release
