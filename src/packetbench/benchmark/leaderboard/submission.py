"""`leaderboard --check`: whether a submission was made on the packets of a release.

A submission is one of:
- a run folder (run.json and its records: `packetbench extract`, or `packetbench import`);
- an inspect_ai log of `packetbench/extract` (.eval or .json);
- a folder holding `submission.toml`, which names the release and points at one of the two:

      release = "packetbench-insurance"   # the release's name
      version = "1.0"                     # and version
      system = "my-extractor 2.1"         # what made the run (free text, optional)
      run = "run"                         # a run folder inside the submission, or
      log = "logs/extract.eval"           # an inspect_ai log inside it

A submission that cannot be read (no run.json, a damaged log, a malformed submission.toml, a
path leaving the submission) is bad input: exit 2. A well-formed one that names another
release, or was made on other packets (a file whose sha256 the release does not commit), on
part of a split or on two splits, fails the check: exit 1, with the first reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from packetbench.benchmark.release.layout import ReleaseMismatch, read_release
from packetbench.benchmark.release.matching import Match, NotOnRelease, match
from packetbench.benchmark.release.reading import RunPacket, log_packets, run_info
from packetbench.core import safe_read
from packetbench.core.errors import BadInput, UsageError

FILE = "submission.toml"


class SubmissionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    release: str
    version: str
    system: str = ""
    run: str | None = None
    log: str | None = None


@dataclass(frozen=True)
class Checked:
    submission: Path
    what: str  # "run folder" | "inspect log"
    match: Match
    release_title: str
    release_digest: str


def _inside(base: Path, relative: str, where: Path) -> Path:
    target = (base / relative).resolve()
    try:
        target.relative_to(base.resolve())
    except ValueError:
        raise BadInput(f"{where}: {relative!r} leaves the submission folder") from None
    return target


def _read_file(path: Path) -> SubmissionFile:
    data = safe_read.toml_file(path, "a submission file")
    try:
        found = SubmissionFile.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or FILE
        raise BadInput(f"{path}: not a submission file ({where}: {first['msg']})") from None
    if (found.run is None) == (found.log is None):
        raise BadInput(f"{path}: give one of run (a run folder) or log (an inspect_ai log)")
    return found


def _log(path: Path) -> tuple[RunPacket, ...]:
    # A FIFO or a device is named for what it is (never "missing"), and never opened.
    safe_read.check_file(path, "run")
    return log_packets(path)[1]


def _packets(submission: Path) -> tuple[str, tuple[RunPacket, ...], SubmissionFile | None]:
    if not submission.exists():
        raise BadInput(f"{submission}: missing (a run folder, an inspect log or a submission)")
    if not submission.is_dir():
        return "inspect log", _log(submission), None
    if (submission / FILE).exists():
        named = _read_file(submission / FILE)
        if named.run is not None:
            run = _inside(submission, named.run, submission / FILE)
            return "run folder", run_info(run).packets, named
        assert named.log is not None
        log = _inside(submission, named.log, submission / FILE)
        if not log.exists():
            raise BadInput(f"{submission / FILE}: log: {named.log} is missing")
        return "inspect log", _log(log), named
    return "run folder", run_info(submission).packets, None


def check_submission(submission: Path, release_folder: Path) -> Checked:
    """Check `submission` against the release in `release_folder` (see the module docstring):
    BadInput when it cannot be read, NotOnRelease when it was not made on the release."""
    try:
        release = read_release(release_folder)
    except ReleaseMismatch as error:
        raise BadInput(f"{error} (check it with packetbench release verify)") from None
    what, packets, named = _packets(submission)
    if named is not None and (named.release, named.version) != (
        release.manifest.name,
        release.manifest.version,
    ):
        raise NotOnRelease(
            f"{submission / FILE}: names release {named.release} {named.version}, not "
            f"{release.title}"
        )
    found = match(release, packets, submission)
    return Checked(submission, what, found, release.title, release.digest)


def require_release(release: Path | None) -> Path:
    if release is None:
        raise UsageError("--release: missing (the release folder the runs are checked against)")
    return release
