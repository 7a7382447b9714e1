"""Loading the knowledge base: every file validated with pydantic, then the references between files (an
offer's GPU, provider and regions; a citation's document), so a corrupt knowledge base fails at start-up
with the file, the entry and the field named.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.checks import check_references
from gpu_advisor.engine.domain.knowledge.entries import USD_PER_EUR
from gpu_advisor.engine.domain.knowledge.files import ExchangeRatesFile, VersionedFile
from gpu_advisor.knowledge import KNOWLEDGE_DIR


def _file_models() -> dict[str, type[VersionedFile]]:
    """Each knowledge file by its name (``knowledge/NAME.yaml``) and the model it is validated as: the
    fields of ``Knowledge``, in their order, so that a file is declared in one place."""
    models = {}
    for name, field in Knowledge.model_fields.items():
        model = field.annotation
        if not (isinstance(model, type) and issubclass(model, VersionedFile)):
            raise TypeError(f"Knowledge.{name} is not a knowledge file model")
        models[name] = model
    return models


KNOWLEDGE_FILES = _file_models()


def describe_validation_error(
    path: Path, data: Any, error: ValidationError, what: str = "knowledge file"
) -> str:
    """Name the file, the entry (by its id where it has one) and the field of each problem."""
    lines = [f"{path}: invalid {what}"]
    for problem in error.errors():
        location = problem["loc"]
        entry = _entry_label(data, location)
        field = ".".join(str(part) for part in location)
        # A problem with the whole document (a list where a mapping belongs) has no field to name.
        lines.append(f"  {entry}field {field}: {problem['msg']}" if field else f"  {problem['msg']}")
    return "\n".join(lines)


def _entry_label(data: Any, location: tuple[Any, ...]) -> str:
    if len(location) >= 2 and isinstance(data, dict) and isinstance(location[1], int):
        entries = data.get(location[0])
        if (
            isinstance(entries, list)
            and location[1] < len(entries)
            and isinstance(entries[location[1]], dict)
        ):
            entry = entries[location[1]]
            name = entry.get("id") or entry.get("key") or entry.get("field") or entry.get("precision")
            if name is None and "provider" in entry:
                name = f"{entry.get('provider')}/{entry.get('offer')}/{entry.get('gpu')}"
            if name is not None:
                return f"entry {name!r}: "
    return ""


def load_file(
    path: Path, schema: type[VersionedFile], context: dict[str, Any] | None = None
) -> VersionedFile:
    data = read_yaml(path)
    try:
        return schema.model_validate(data, context=context)
    except ValidationError as error:
        raise KnowledgeError(describe_validation_error(path, data, error)) from None


def load_knowledge_from(directory: Path) -> Knowledge:
    rates = load_file(directory / "exchange_rates.yaml", ExchangeRatesFile)
    assert isinstance(rates, ExchangeRatesFile)
    # Offers listed in EUR are converted to USD at the knowledge base's rate as they are read.
    usd_per_eur = next(
        (r.rate for r in rates.rates if (r.from_currency, r.to_currency) == ("EUR", "USD")), None
    )
    if usd_per_eur is None:
        raise KnowledgeError(
            f"{directory / 'exchange_rates.yaml'}: rates: no EUR to USD rate (EUR prices need it)"
        )
    context = {USD_PER_EUR: usd_per_eur}
    files = {
        name: rates
        if name == "exchange_rates"
        else load_file(directory / f"{name}.yaml", schema, context if name == "offers" else None)
        for name, schema in KNOWLEDGE_FILES.items()
    }
    knowledge = Knowledge.model_validate(files)
    check_references(knowledge, directory, tuple(KNOWLEDGE_FILES))
    return knowledge


@cache
def load_knowledge() -> Knowledge:
    """The shipped knowledge base, loaded once per process."""
    return load_knowledge_from(KNOWLEDGE_DIR)
