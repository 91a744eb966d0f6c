"""A model as judge: `openai`, `anthropic`, `gemini` (and OpenAI-compatible servers).

The judge is an extraction provider (`benchmark.providers`) asked other questions: each
batch is one request holding the document as the harness sends it (`--input native|text|
images`), the judge's instructions listing the batch's claims, and the strict label schema
(``templates/judge/labels.schema.json``, cleaned for the provider as a document schema is).
Requests go through the harness (`harness.asking.AskRunner`): the same concurrency, retries
with backoff, response cache, `--max-cost` and request log (``RUN/judge/<judge_id>/
requests.jsonl``) as an extraction. judge.json records the provider's description (model,
parameters, the request as sent with the document left out), the retry policy, the pricing
and the hash of the schema as sent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packetbench.benchmark.config import ModelOptions
from packetbench.benchmark.harness.asking import Ask, AskRunner
from packetbench.benchmark.harness.cache import ResponseCache, default_folder, usable_folder
from packetbench.benchmark.harness.progress import ProgressBar, Reporter, Silent
from packetbench.benchmark.harness.redact import Redactor
from packetbench.benchmark.harness.retry import RetryPolicy
from packetbench.benchmark.harness.worklist import schema_hash
from packetbench.benchmark.providers import pricing, provider_class
from packetbench.benchmark.providers.api import ApiProvider
from packetbench.benchmark.verify import prompt
from packetbench.benchmark.verify.judges import Judge, JudgeRequest, Labelled
from packetbench.core import stopping
from packetbench.core.errors import UsageError
from packetbench.truth.packets import DocInfo, Packet

OUTPUT_TOKENS_PER_CLAIM = 40  # a label with a short quote, for --max-cost reservations


def _labels(ask: Ask, answer: dict[str, Any]) -> str | None:
    return prompt.check(answer, len(ask.about["claims"]))


class ApiJudge(Judge):
    """A judge asked through the harness; `options` are `verify`'s (see the CLI)."""

    def __init__(
        self, name: str, api: ModelOptions, truth: Path | None = None, progress: bool = False
    ) -> None:
        if api.model is None:
            raise UsageError(f"--judge {name} needs --model (the model that judges)")
        super().__init__(api.model)
        if truth is not None:
            raise UsageError("--judge-truth is for the sim judge (a model reads the documents)")
        self.name = name  # one class for every API judge
        provider = provider_class(name).from_options(api.settings())
        if not isinstance(provider, ApiProvider):  # pragma: no cover - the registry's three
            raise UsageError(f"--judge {name}: not an API provider")
        if provider.settings.cite or provider.settings.confidence:  # pragma: no cover
            raise UsageError("a judge answers with labels: no --cite or --confidence")
        self.provider = provider
        self.concurrency = api.concurrency
        if self.concurrency < 1:
            raise UsageError("--concurrency must be at least 1")
        self.max_cost_usd: float | None = api.max_cost_usd
        if self.max_cost_usd is not None and self.max_cost_usd <= 0:
            raise UsageError(
                f"--max-cost must be a positive number of dollars (got {self.max_cost_usd})"
            )
        if api.backoff_s < 0:
            raise UsageError(f"--backoff must be 0 or more seconds (got {api.backoff_s})")
        self.policy = RetryPolicy(provider.retries, api.backoff_s)
        self.cache_dir: Path | None = None
        if api.use_cache:
            self.cache_dir = api.cache_dir or default_folder()
        self.price = pricing.price(pricing.load(api.pricing), provider.model)
        if self.max_cost_usd is not None and self.price is None:
            raise UsageError(
                f"--max-cost needs a price for model {provider.model!r}, which the pricing "
                "table lacks (add it with --pricing FILE)"
            )
        self.progress = progress
        self.sent = provider.clean_schema(prompt.label_schema())

    def describe(self) -> dict[str, Any]:
        provider = self.provider
        described = provider.describe()
        return {
            "judge": self.name,
            "model": self.model,
            "simulator": False,
            # What makes two judges' labels comparable: a calibration holds only for these.
            "parameters": {**described["parameters"], "base_url": provider.settings.base_url},
            "request": described["request"],
            "reasoning_parameters": described["reasoning_parameters"],
            "api_key_from": described["api_key_from"],
            "timeout_s": described["timeout_s"],
            "schema_sent": schema_hash(self.sent),
            "retry": self.policy.describe(),
            "concurrency": self.concurrency,
            "max_cost_usd": self.max_cost_usd,
            "pricing": self.price.describe() if self.price else None,
            "cache": {
                "enabled": self.cache_dir is not None,
                "folder": None if self.cache_dir is None else str(self.cache_dir),
            },
            "versions": {provider.sdk: provider.sdk_version()},
        }

    def prepare(self, run: Path, selected: list[tuple[Packet, DocInfo]]) -> None:
        self.provider.api_key()  # a missing key fails here, before anything is written
        if self.cache_dir is not None:
            self.cache_dir = usable_folder(self.cache_dir)

    def label_all(self, batches: list[JudgeRequest], folder: Path) -> Labelled:
        if not batches:
            return Labelled()
        provider = self.provider
        answer = provider.answer_instruction()
        asks: list[Ask] = [
            Ask(
                packet=batch.packet,
                doc=batch.doc,
                number=batch.index,
                instructions=prompt.render(batch.title(), batch.claims, answer),
                schema=prompt.SCHEMA_NAME,
                target=batch.target,
                about=batch.about(),
                output_tokens=OUTPUT_TOKENS_PER_CLAIM * len(batch.claims),
            )
            for batch in batches
        ]
        reporter: Reporter = (
            ProgressBar(f"judge {provider.name} {provider.model}") if self.progress else Silent()
        )
        runner = AskRunner(
            provider,
            folder,
            system=prompt.system(),
            read=_labels,
            schemas={prompt.SCHEMA_NAME: self.sent},
            concurrency=self.concurrency,
            policy=self.policy,
            cache=ResponseCache(self.cache_dir),
            price=self.price,
            max_cost_usd=self.max_cost_usd,
            reporter=reporter,
            redactor=Redactor(provider.secrets()),
        )
        outcome = stopping.run_async(runner.execute(list(asks)))
        tally = outcome.tally
        return Labelled(
            requests=tally.done,
            sent=tally.requests,
            retries=tally.retries,
            cached=tally.cached,
            spent_usd=round(tally.spent_usd, 6),
            stopped="fatal" if outcome.fatal else "max-cost" if outcome.budget_spent else None,
            fatal=outcome.fatal,
        )
