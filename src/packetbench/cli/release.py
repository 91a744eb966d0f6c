"""`packetbench release`: build, verify, refresh, publish and export a versioned release."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

release_app = typer.Typer(
    help="Releases: a named, versioned benchmark with a public dev split and a private test "
    "split published as a commitment (docs/release.md).",
    no_args_is_help=True,
)

Jobs = Annotated[int, typer.Option(help="Worker processes that generate packets.")]


def _say(line: str) -> None:
    """Progress on a terminal only: scripts and logs see the command's own lines alone, and a
    refusal stays one line on stderr."""
    if sys.stderr.isatty():
        typer.echo(f"release: {line}", err=True)


@release_app.command("seeds", short_help="Draw the test split's private seeds.")
def seeds(
    spec: Annotated[Path, typer.Argument(metavar="SPEC", help="The release spec (TOML).")],
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write the seed file (default: the spec's seed_file)."),
    ] = None,
    force: Annotated[bool, typer.Option(help="Replace an existing seed file.")] = False,
) -> None:
    """Draw the test split's private seeds (a random salt and a random first seed per tier)
    into the spec's seed_file. Keep the file out of the release folder."""
    from packetbench.benchmark.release.build import write_seeds

    written = write_seeds(spec, out, force)
    typer.echo(f"{written}: private seeds of the test split (keep it out of the release)")


@release_app.command("build", short_help="Build the release a spec describes.")
def build(
    spec: Annotated[Path, typer.Argument(metavar="SPEC", help="The release spec (TOML).")],
    out: Annotated[Path, typer.Option(help="The release folder to write.", metavar="DIR")],
    seeds: Annotated[
        Path | None,
        typer.Option(help="The test split's seed file (default: the spec's seed_file)."),
    ] = None,
    jobs: Jobs = 1,
    force: Annotated[bool, typer.Option(help="Replace the release in DIR.")] = False,
) -> None:
    """Build the release SPEC.toml describes: DIR/release.json, DIR/COMMITMENT, DIR/dev/ and
    DIR/test/. A spec naming another generator version than this packetbench's is refused.
    Exit 0 when built, 2 on bad input (nothing written)."""
    from packetbench.benchmark.release.build import build as make

    built = make(spec, out, seeds=seeds, jobs=jobs, force=force, progress=_say)
    manifest = built.release.manifest
    for name, entry in manifest.splits.items():
        extra = (
            f"; seeds committed as {entry.seed_commitment}"
            if entry.seed_commitment
            else f"; imported ({', '.join(entry.imported_generator_versions or [])})"
            if entry.source == "imported"
            else ""
        )
        typer.echo(
            f"{out / name}: {len(entry.packets)} packet(s), {entry.documents} documents, "
            f"{entry.files} files{extra}"
        )
    typer.echo(f"release {built.release.title}: digest {built.release.digest}")


@release_app.command("verify", short_help="Check every file of a release against its commitment.")
def verify(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The release folder.")],
    seeds: Annotated[
        Path | None,
        typer.Option(help="The test split's seed file: check it against the commitment."),
    ] = None,
    regenerate: Annotated[
        bool,
        typer.Option(
            "--regenerate",
            help="Generate the splits again (test only with --seeds) and compare every byte.",
        ),
    ] = False,
    jobs: Jobs = 1,
) -> None:
    """Check every file of the release against COMMITMENT and release.json. Exit 0 when all
    match, 1 naming the first that differs, 2 on bad input."""
    from packetbench.benchmark.release.verify import verify as check

    found = check(folder, seeds, regenerate, jobs)
    release = found.release
    for name, files in found.files.items():
        typer.echo(f"{folder / name}: {files} files match COMMITMENT")
    for name in found.absent:
        entry = release.split(name)
        typer.echo(
            f"{folder / name}: not in this folder (a public copy): {entry.files} files of "
            f"{len(entry.packets)} packets committed as {entry.files_sha256}"
        )
    if found.seeds:
        typer.echo(f"{seeds}: the seeds the test split's commitment names")
    for name, files in found.regenerated.items():
        typer.echo(f"{folder / name}: regenerated, {files} files byte-identical")
    typer.echo(f"release {release.title}: digest {release.digest}")


@release_app.command("refresh", short_help="Draw a new test split when the old one leaked.")
def refresh(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The release folder.")],
    seeds: Annotated[
        Path, typer.Option(help="Where to write the new seeds (a new file, outside DIR).")
    ],
    jobs: Jobs = 1,
) -> None:
    """Draw a new test split (when the old one leaked): new private seeds, new test packets,
    a new commitment. The dev split is kept. Exit 0 when done, 2 on bad input."""
    from packetbench.benchmark.release.build import refresh as redraw

    done = redraw(folder, seeds, jobs=jobs, progress=_say)
    entry = done.release.split("test")
    typer.echo(
        f"{folder / 'test'}: draw {entry.draw}, {len(entry.packets)} packet(s); seeds committed "
        f"as {entry.seed_commitment} (was {done.old_commitment}); new seeds in {done.seeds}"
    )
    typer.echo(
        f"release {done.release.title}: digest {done.release.digest} (was {done.old_digest})"
    )


@release_app.command("publish", short_help="Copy what may be published (never the test packets).")
def publish(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The release folder.")],
    out: Annotated[Path, typer.Option(help="The public copy to write.", metavar="PUBLIC")],
    force: Annotated[bool, typer.Option(help="Replace the copy in PUBLIC.")] = False,
) -> None:
    """Copy what may be published: release.json, COMMITMENT and the dev split (never the
    test packets, whose files carry their seeds and truth)."""
    from packetbench.benchmark.release.build import publish as copy

    release = copy(folder, out, force)
    typer.echo(f"{out}: release {release.title} without its test packets; digest {release.digest}")


@release_app.command("export", short_help="Write the release as Parquet, with a dataset card.")
def export(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The release folder.")],
    out: Annotated[Path, typer.Option(help="The dataset folder to write.", metavar="DATA")],
    dpi: Annotated[int, typer.Option(help="Resolution of the page images.")] = 100,
    force: Annotated[bool, typer.Option(help="Replace the dataset in DATA.")] = False,
) -> None:
    """Write the release as Parquet (DATA/<split>.parquet, one row per document: page
    images, the file, its schema, its truth, tier and patterns) and a dataset card
    (DATA/README.md). The test split is exported without truth, schema ids or seeds."""
    from packetbench.benchmark.release.export import export as write

    done = write(folder, out, dpi=dpi, force=force, progress=_say)
    for name, rows in done.rows.items():
        typer.echo(f"{out / f'{name}.parquet'}: {rows} documents")
    typer.echo(f"{out / 'README.md'}: dataset card of release {done.release.title}")


def register(app: typer.Typer) -> None:
    app.add_typer(
        release_app, name="release", short_help="Build, verify, publish and export a release."
    )
