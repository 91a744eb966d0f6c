"""How an extraction is configured: the options of `extract` and `run` as one typed object,
built once from the command line (`cli._options`) and passed to the one library call each
command makes (`benchmark.extraction`).

`ModelOptions` are how a model is asked, the options `verify`'s model judges share with an
extraction; `ExtractionConfig` adds who extracts (a provider, or the simulator and its error
profile), what is asked for (citations, confidences), through which API (`--batch`), which
documents (`Selection`) and how many times (`--repeats`). `HarnessOptions` are what one
invocation of the request harness is driven with, derived from the config
(`ExtractionConfig.harness`).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packetbench.benchmark.runs import Repeat
from packetbench.benchmark.selection import Selection
from packetbench.core.errors import UsageError
from packetbench.core.seeds import MAX_SEED

if TYPE_CHECKING:
    from packetbench.benchmark.providers.base import Provider

DEFAULT_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class HarnessOptions:
    """How one invocation of an API run is driven (the simulator takes none of these but the
    document selection)."""

    resume: bool = False
    retry_failed: bool = False
    concurrency: int = 8
    max_cost_usd: float | None = None
    cache_dir: Path | None = None  # None: the default cache folder
    use_cache: bool = True
    pricing: Path | None = None  # a pricing table adding to / replacing the packaged one
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 60.0
    progress: bool = False
    seed: int | None = None  # of the retry jitter (tests)
    batch: bool = False  # through the provider's batch API (`--batch`)
    poll_interval_s: float = 30.0  # between two polls of the batches in flight
    batch_size: int | None = None  # requests per batch at most (None: the provider's limit)
    selection: Selection = field(default_factory=Selection)  # --tiers, --doc-types, ..
    repeat: Repeat | None = None  # which repeat of a repeated run this is (--repeats)


@dataclass(frozen=True)
class ModelOptions:
    """How a model is asked: what `extract`, `run` and `verify`'s model judges share."""

    model: str | None = None
    reasoning: str = "default"  # default | high | xhigh, mapped to the provider's setting
    input_mode: str = "native"  # native | text | images
    image_dpi: int | None = None  # --dpi: images are rendered at (None: delivery.DEFAULT_DPI)
    delivered_dpi: int | None = None  # --delivered-dpi: native PDFs reach the model at
    base_url: str | None = None
    max_output_tokens: int | None = None  # None: the provider's cap
    timeout_s: float = DEFAULT_TIMEOUT_S
    retries: int | None = None  # None: the provider's budget
    backoff_s: float = 1.0
    concurrency: int = 8
    max_cost_usd: float | None = None
    cache_dir: Path | None = None  # None: the default cache folder
    use_cache: bool = True
    pricing: Path | None = None
    sampling: dict[str, float | int] = field(default_factory=dict)  # temperature, top_p, seed
    command: str | None = None  # provider command: the program's template (--command)
    system_version: str | None = None  # command, http: the system's version (--system-version)
    url: str | None = None  # provider http: where each document is POSTed (--url)
    headers: tuple[str, ...] = ()  # provider http: "Name: value" sent with each (--header)

    def settings(self) -> dict[str, Any]:
        """The options `Provider.from_options` reads of these."""
        return {
            "model": self.model,
            "reasoning": self.reasoning,
            "base_url": self.base_url,
            "input": self.input_mode,
            "dpi": self.image_dpi,
            "delivered_dpi": self.delivered_dpi,
            "max_output_tokens": self.max_output_tokens,
            "timeout": self.timeout_s,
            "retries": self.retries,
            "sampling": dict(self.sampling),
            "command": self.command,
            "system_version": self.system_version,
            "url": self.url,
            "headers": list(self.headers),
        }


def sampling_given(
    temperature: float | None, top_p: float | None, seed: int | None
) -> dict[str, float | int]:
    """The sampling parameters given (`ApiSettings.sampling`)."""
    given = {"temperature": temperature, "top_p": top_p, "seed": seed}
    return {key: value for key, value in given.items() if value is not None}


def check_repeats(count: int) -> None:
    if count < 1:
        raise UsageError(f"--repeats must be at least 1 (got {count})")


def repeat_seed(seed: int, index: int) -> int:
    """The seed of repeat `index` (1-based) of a run given `seed`: `seed` itself for the
    first, a seed derived from both for the others (never a neighbour: repeat 2 of seed 0 is
    not the run of seed 1)."""
    if index == 1:
        return seed
    digest = hashlib.sha256(f"packetbench-repeat:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (MAX_SEED + 1)


def repeat_settings(settings: dict[str, Any], index: int) -> dict[str, Any]:
    """A provider's options (`Provider.from_options`) for repeat `index`: the sim seed and a
    sampling seed given derived for it (`repeat_seed`), everything else as given."""
    out = dict(settings)
    if isinstance(out.get("seed"), int):
        out["seed"] = repeat_seed(out["seed"], index)
    sampling = dict(out.get("sampling") or {})
    if isinstance(sampling.get("seed"), int):
        sampling["seed"] = repeat_seed(int(sampling["seed"]), index)
        out["sampling"] = sampling
    return out


@dataclass(frozen=True)
class ExtractionConfig:
    """Everything that decides how a run is extracted, as `extract` and `run` take it."""

    provider: str = "sim"
    api: ModelOptions = field(default_factory=ModelOptions)
    cite: str | None = None  # page | box | native: each value's evidence
    confidence: bool = False  # each value's confidence
    profile: str = "typical"  # sim: its error profile
    sim_seed: int = 0  # sim: the seed of its errors
    sim_calibration: float = 0.8  # sim, with confidence: the share of knowing confidences
    batch: bool = False  # through the provider's batch API
    batch_size: int | None = None
    poll_interval_s: float = 30.0
    selection: Selection = field(default_factory=Selection)
    repeats: int = 1

    def check(self) -> None:
        """UsageError for a value no run can take, before anything is read or written."""
        check_repeats(self.repeats)
        self.provider_class()  # an unknown provider: UsageError naming the known ones
        for given, option, providers in (
            (self.api.command, "--command", ("command",)),
            (self.api.system_version, "--system-version", ("command", "http")),
            (self.api.url, "--url", ("http",)),
            (self.api.headers or None, "--header", ("http",)),
        ):
            if given is not None and self.provider not in providers:
                raise UsageError(
                    f"{option} goes with --provider {' or --provider '.join(providers)}"
                )
        poll = self.poll_interval_s
        if not math.isfinite(poll) or poll <= 0:
            raise UsageError(f"--poll-interval must be a positive number of seconds (got {poll})")

    def provider_class(self) -> type[Provider]:
        from packetbench.benchmark.providers import provider_class

        return provider_class(self.provider)

    @property
    def simulator(self) -> bool:
        return self.provider_class().simulator

    def settings(self, repeat: int = 1) -> dict[str, Any]:
        """The options `Provider.from_options` is given for repeat `repeat` (1: the run)."""
        settings = {
            "profile": self.profile,
            "seed": self.sim_seed,
            **self.api.settings(),
            "cite": self.cite,
            "confidence": self.confidence,
            "calibration": self.sim_calibration,
        }
        return settings if repeat == 1 else repeat_settings(settings, repeat)

    def make_provider(self, repeat: int = 1) -> Provider:
        return self.provider_class().from_options(self.settings(repeat))

    def run_name(self) -> str:
        """The name `run` gives the run under OUT/runs/: the model's, or the simulator's
        with its profile."""
        name = f"{self.provider}-{self.profile}" if self.simulator else self.provider
        return self.api.model or name

    def harness(
        self, *, resume: bool = False, retry_failed: bool = False, progress: bool = False
    ) -> HarnessOptions:
        """The options of one invocation of this run."""
        return HarnessOptions(
            resume=resume,
            retry_failed=retry_failed,
            concurrency=self.api.concurrency,
            max_cost_usd=self.api.max_cost_usd,
            cache_dir=self.api.cache_dir,
            use_cache=self.api.use_cache,
            pricing=self.api.pricing,
            backoff_base_s=self.api.backoff_s,
            progress=progress,
            batch=self.batch,
            poll_interval_s=self.poll_interval_s,
            batch_size=self.batch_size,
            selection=self.selection,
        )
