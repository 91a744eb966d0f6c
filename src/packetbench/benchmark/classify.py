"""Which type each document of one's own is (`extract --documents`): as the user said
(`--schema`, `--schema-map`, any document type with a prompt) or, when the user did not say,
as a classifier answers.

An API provider is asked one question per document through the harness
(`harness.asking.AskRunner`: the same concurrency, retries, response cache and cost cap as an
extraction): the document as `--input` sends it, the instructions of
``templates/classify/prompt.j2`` listing every document type with its description, and a
strict schema whose one field is an enum of those types. The simulator reads the type of the
generated document the file is a copy of (`origins`): a classifier that is never wrong, so
that a simulated run's errors are the extractor's alone. What was asked and answered is
recorded in run.json (the packets entry's `own_documents.classifier`).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from jinja2 import Environment

from packetbench.benchmark.documents import (
    BY_MAP,
    BY_SCHEMA,
    SUFFIXES,
    TIER,
    Typed,
    doc_id_of,
    files_of,
)
from packetbench.benchmark.harness import prompts
from packetbench.benchmark.harness.asking import Ask, AskRunner
from packetbench.benchmark.harness.cache import ResponseCache, default_folder, usable_folder
from packetbench.benchmark.harness.progress import Silent
from packetbench.benchmark.harness.prompts import title
from packetbench.benchmark.harness.redact import Redactor
from packetbench.benchmark.harness.retry import RetryPolicy
from packetbench.benchmark.harness.worklist import schema_hash
from packetbench.benchmark.origins import Origins
from packetbench.benchmark.providers import pricing
from packetbench.benchmark.providers.api import ApiProvider, ProviderStopped
from packetbench.core import safe_read, stopping
from packetbench.core.errors import BadInput
from packetbench.core.packet_files import read_json
from packetbench.core.resources import resource_dir
from packetbench.core.templates import environment
from packetbench.truth.packets import DocInfo, Packet

SCHEMA_NAME = "document_type"
BY_CLASSIFIER = "classifier"
BY_SIM = "sim classifier"  # the type of the generated document the file is a copy of
UNCLASSIFIED = "unclassified"


def known_types() -> list[str]:
    """The document types a document of one's own may be given (those with a prompt)."""
    from packetbench.generator.schema_files import all_schemas

    return sorted(
        name
        for name in all_schemas()
        if (prompts.folder() / f"{prompts.template_name(name)}.j2").is_file()
    )


def _check_type(value: Any, where: str) -> str:
    known = known_types()
    if not isinstance(value, str) or value not in known:
        raise BadInput(f"{where}: unknown document type {value!r} (known: {', '.join(known)})")
    return value


def read_schema_map(path: Path) -> dict[str, str]:
    """The `--schema-map` file: a JSON object of file name -> document type."""
    try:
        data = orjson.loads(safe_read.read_bytes(path, "settings"))
    except FileNotFoundError:
        raise BadInput(f"{path}: missing (the --schema-map file)") from None
    except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    if not isinstance(data, dict) or not data:
        raise BadInput(f"{path}: not a schema map (a JSON object: file name -> document type)")
    return {str(name): _check_type(kind, f"{path}: {name}") for name, kind in data.items()}


def chosen(
    folder: Path, schema: str | None, schema_map: Path | None
) -> tuple[list[Typed], list[Path], list[str]]:
    """The documents the user typed, the documents left to a classifier, the skipped
    files' names."""
    files, skipped = files_of(folder)
    given = read_schema_map(schema_map) if schema_map is not None else {}
    if schema is not None:
        _check_type(schema, "--schema")
    names = {p.name for p in files}
    unknown = sorted(set(given) - names)
    if unknown:
        raise BadInput(f"{schema_map}: names {unknown[0]!r}, which is no document of {folder}")
    typed, left = [], []
    seen: dict[str, Path] = {}
    for path in files:
        doc_id = doc_id_of(path)
        if doc_id in seen:
            raise BadInput(
                f"{path}: its document id {doc_id!r} is also {seen[doc_id].name}'s; rename one"
            )
        seen[doc_id] = path
        fmt = SUFFIXES[path.suffix.lower()]
        if path.name in given:
            typed.append(Typed(path, doc_id, fmt, given[path.name], BY_MAP))
        elif schema is not None:
            typed.append(Typed(path, doc_id, fmt, schema, BY_SCHEMA))
        else:
            left.append(path)
    return typed, left, skipped


def _folder() -> Path:
    return resource_dir("templates") / "classify"


@cache
def _environment() -> Environment:
    return environment("classify")


def answer_schema() -> dict[str, Any]:
    """The strict schema of the classifier's answer: one document type of `known_types`."""
    return {
        "title": SCHEMA_NAME,
        "description": "The type of one document.",
        "type": "object",
        "additionalProperties": False,
        "required": ["doc_type"],
        "properties": {
            "doc_type": {
                "type": "string",
                "enum": known_types(),
                "description": "The document's type: one of the types the instructions list.",
            }
        },
    }


def instructions(answer: str) -> str:
    from packetbench.generator.schema_files import all_schemas

    schemas = all_schemas()
    types = [{"name": name, "title": title(schemas[name])} for name in known_types()]
    return _environment().get_template("prompt.j2").render(types=types, answer=answer).strip()


def prompt_hash() -> str:
    data = b"".join((_folder() / name).read_bytes() for name in ("system.j2", "prompt.j2"))
    return hashlib.sha256(data).hexdigest()


def _read(ask: Ask, answer: dict[str, Any]) -> str | None:
    if set(answer) != {"doc_type"}:
        return f"schema-invalid: keys {sorted(answer)}, not ['doc_type']"
    if answer["doc_type"] not in known_types():
        return f"schema-invalid: {answer['doc_type']!r} is no document type"
    return None


def classify_sim(paths: list[Path], origins: Origins) -> tuple[list[Typed], dict[str, Any]]:
    typed = [
        Typed(p, doc_id_of(p), SUFFIXES[p.suffix.lower()], origins.of(p)[1].schema, BY_SIM)
        for p in paths
    ]
    return typed, {"provider": "sim", "truth_for_simulation": origins.describe()}


def classify_api(
    provider: ApiProvider,
    paths: list[Path],
    folder: Path,
    work: Path,
    *,
    concurrency: int,
    cache_dir: Path | None,
    use_cache: bool,
    pricing_file: Path | None,
    max_cost_usd: float | None,
    backoff_s: float,
) -> tuple[list[Typed], dict[str, Any], float]:
    """Ask `provider` the type of each of `paths` (records and request log in `work`); the
    documents typed, what run.json records of the classifier, and the dollars spent."""
    sent = provider.clean_schema(answer_schema())
    price = pricing.price(pricing.load(pricing_file), provider.model)
    placeholder = Packet(folder.resolve(), "unclassified", TIER, 0, (), None, {})
    text = instructions(provider.answer_instruction())
    asks: list[Ask] = []
    for number, path in enumerate(paths):
        doc_id = doc_id_of(path)
        fmt = SUFFIXES[path.suffix.lower()]
        doc = DocInfo(doc_id, UNCLASSIFIED, fmt, path.name, UNCLASSIFIED, None)
        asks.append(
            Ask(
                packet=placeholder,
                doc=doc,
                number=number,
                instructions=text,
                schema=SCHEMA_NAME,
                target=work / f"{doc_id}.json",
                about={"file": path.name, "doc_id": doc_id},
                output_tokens=16,
            )
        )
    cache = usable_folder(cache_dir or default_folder()) if use_cache else None
    runner = AskRunner(
        provider,
        work,
        system=(_folder() / "system.j2").read_text("utf-8").strip(),
        read=_read,
        schemas={SCHEMA_NAME: sent},
        concurrency=concurrency,
        policy=RetryPolicy(provider.retries, backoff_s),
        cache=ResponseCache(cache),
        price=price,
        max_cost_usd=max_cost_usd,
        reporter=Silent(),
        redactor=Redactor(provider.secrets()),
    )
    outcome = stopping.run_async(runner.execute(list(asks)))
    if outcome.fatal:
        raise ProviderStopped(f"{outcome.fatal} (while classifying {folder}'s documents)")
    typed: list[Typed] = []
    for ask in asks:
        path = folder / ask.doc.file
        record = read_json(ask.target, "record") if ask.target.is_file() else None
        answer = record.get("answer") if isinstance(record, dict) else None
        if not isinstance(answer, dict) or record is None or record.get("status") != "ok":
            why = (record or {}).get("error") or "not asked: --max-cost reached"
            raise BadInput(
                f"{path}: could not be classified ({why}); give its type with "
                "--schema-map or --schema"
            )
        typed.append(Typed(path, ask.doc.doc_id, ask.doc.format, answer["doc_type"], BY_CLASSIFIER))
    tally = outcome.tally
    about = {
        "provider": provider.name,
        "model": provider.model,
        "parameters": provider.describe()["parameters"],
        "prompt": prompt_hash(),
        "schema_sent": schema_hash(sent),
        "records": "classify/",  # each document's question and answer, and requests.jsonl
    }
    return typed, about, tally.spent_usd
