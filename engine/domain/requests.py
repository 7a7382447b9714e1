"""What the ``size`` and ``tco`` commands are asked, as validated models.

The command line, the library (``gpu_advisor.api``) and the HTTP service build the same request, so the
same input is accepted or refused with the same message everywhere: unknown fields, wrong types,
non-finite numbers and values out of bounds are ``InputError``s naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, Field, ValidationError, field_validator, model_validator

from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.wording import Words, WordsError
from gpu_advisor.engine.domain.batch_fields import LATENCY_TARGETS, no_target_for_a_batch
from gpu_advisor.engine.domain.choices import LoadPattern, Precision, ScheduleId, ServingEngineId
from gpu_advisor.engine.domain.countries import CountryCodeInput, listed_country
from gpu_advisor.engine.domain.input_errors import input_error, render_problems, validation_problems
from gpu_advisor.engine.domain.knowledge.entries import MAX_INSTANCE_GPUS
from gpu_advisor.engine.domain.limits import (
    MAX_GPU_WATTS,
    MAX_GPUS_PER_SERVER,
    MAX_MONTHLY_COST,
    MAX_POWER_OVERHEAD,
    MAX_PRICE_PER_KWH,
    MAX_SERVER_PRICE,
    MAX_WRITE_OFF_MONTHS,
    MIN_TARGET_MS,
    RESIDUAL_BELOW,
)
from gpu_advisor.engine.domain.model_spec import AttentionShape, refuse_shape_beyond_size
from gpu_advisor.engine.domain.strict_input import StrictInput


def offered_years(years: int) -> int:
    """An economic life the knowledge base offers (``cost_defaults.yaml``: 3, 4 or 5 years)."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    offered = load_knowledge().cost_defaults.depreciation.years
    if years not in offered:
        raise WordsError(
            Words("the years must be one of %(years)s", years=", ".join(str(y) for y in offered))
        )
    return years


def catalog_server_gpus(gpu: str | None = None) -> int:
    """The cards of the catalog's server of ``gpu`` (default: its own server, also for a GPU it prices no
    server of), whose price the catalog knows."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    knowledge = load_knowledge()
    return ((knowledge.own_server_of(gpu) if gpu else None) or knowledge.own_server()).gpus_per_server


def catalog_gpu(gpu: str) -> str:
    """``gpu`` where the catalog lists it."""
    from gpu_advisor.engine.common.errors import unknown_value_problem
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    known = [g.id for g in load_knowledge().gpus.gpus]
    if gpu not in known:
        raise WordsError(unknown_value_problem(gpu, known), names_input=True)
    return gpu


def prices_a_server_of(gpu: str) -> bool:
    """The catalog prices an own server of ``gpu`` (``own_hardware.yaml``)."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    return load_knowledge().own_server_of(gpu) is not None


DepreciationYears = Annotated[int, AfterValidator(offered_years)]
"""The economic life an owned server is written off over, in years."""


class Request(StrictInput):
    @classmethod
    def read(cls, data: dict[str, Any], origin: str, names: Mapping[str, str] | None = None) -> Any:
        """The request made of ``data``; an ``InputError`` naming each bad field otherwise, by the name
        the caller knows it by (``names``: the command line's options for the fields)."""
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            if not names:
                raise input_error(origin, error, cls, "request") from None
            # Named as the command line's options: "invalid options", not an HTTP body's "invalid request".
            problems = [renamed(problem, names) for problem in validation_problems(error, cls)]
            text = render_problems(origin, problems, "options", "en")
            raise InputError(text, problems=problems, origin=origin, what="options") from None


def renamed(problem: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A validation problem with its field, and the fields its message names, called as ``names`` says."""

    def rename(text: str) -> str:
        return re.sub(r"\b[a-z_.]+\b", lambda m: names.get(m.group(0), m.group(0)), text)

    problem = {**problem, "field": names.get(problem["field"], problem["field"])}
    if problem["type"] == "value_error":
        error = problem["ctx"]["error"]
        if isinstance(error, WordsError):
            # Said in English with every field renamed; in another language by the catalog, with the
            # fields its places hold renamed (a field written into the sentence itself keeps its name).
            places = {k: names.get(v, v) if isinstance(v, str) else v for k, v in error.words.values.items()}
            words = Words.verbatim(rename(str(error)), otherwise=Words(error.words.msgid, **places))
            error = WordsError(words, names_input=error.names_input)
        else:
            error = rename(str(error))
        problem["ctx"] = {**problem["ctx"], "error": error}
    return problem


def said_with(error: InputError, names: Mapping[str, str]) -> InputError:
    """An error found while answering a request (an unknown GPU, a context the model cannot hold), said
    with the caller's names for the request's fields: the field it starts with, and every field name
    with an underscore in it (prose such as "cards" elsewhere in the text stays)."""
    text = re.sub(
        r"^[a-z_.]+(?=:)|\b[a-z]+(?:_[a-z]+)+\b", lambda m: names.get(m.group(0), m.group(0)), str(error)
    )
    field = names.get(error.field, error.field) if error.field is not None else None
    return InputError(text, field=field, problems=error.problems, origin=error.origin, what=error.what)


class LoadRequest(Request):
    """The load ``size`` can be given to show replicas per GPU; fields left out take the workload defaults."""

    requests_per_day: int = Field(gt=0, le=10_000_000_000)
    avg_input_tokens: int | None = Field(default=None, gt=0, le=10_000_000)
    avg_output_tokens: int | None = Field(default=None, gt=0, le=10_000_000)
    load_pattern: LoadPattern | None = None
    schedule: ScheduleId | None = None
    latency_sensitive: bool | None = None
    """Users wait for the answers (a workload's ``latency_sensitive``); left out, as a workload of this
    load pattern takes it. A service nobody waits for takes no default latency targets."""
    max_time_to_first_token_ms: float | None = Field(default=None, ge=MIN_TARGET_MS, le=3_600_000)
    """Latency targets at the peak; left out, those of a workload with this load pattern (a service
    answers users: the documented defaults; a batch: none, and refused as a workload refuses them)."""
    max_time_per_output_token_ms: float | None = Field(default=None, ge=MIN_TARGET_MS, le=600_000)
    batch_window_hours: float | None = Field(default=None, ge=0.25, le=24)
    """A batch's window, as a workload's ``batch_window_hours``; left out, the default window."""

    _no_batch_targets = field_validator(*LATENCY_TARGETS)(no_target_for_a_batch)


class SizeRequest(Request):
    """Card counts per GPU for one model: a catalog model or a parameter count, with a load optionally."""

    model: str | None = Field(default=None, description="Catalog model ID.")
    params_b: float | None = Field(default=None, gt=0, le=100_000, description="Total parameters, billions.")
    active_params_b: float | None = Field(
        default=None, gt=0, le=100_000, description="Active parameters per token (mixture of experts)."
    )
    attention_shape: AttentionShape | None = Field(
        default=None, description="With params_b: the model's attention shape from its config.json."
    )
    precision: Precision
    context_tokens: int | None = Field(default=None, gt=0, le=10_000_000)
    shared_prefix_tokens: int | None = Field(
        default=None,
        ge=0,
        le=10_000_000,
        description="Prompt tokens every request begins with (prefix cache).",
    )
    load: LoadRequest | None = None
    serving_engine: ServingEngineId = Field(default="vllm", description="vllm, sglang or trtllm.")
    input_tokens: int | None = Field(
        default=None, gt=0, le=10_000_000, description="Prompt tokens per request, without a load."
    )
    output_tokens: int | None = Field(
        default=None, gt=0, le=10_000_000, description="Answer tokens per request, without a load."
    )
    concurrency: int | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="Requests in flight per replica: throughput and latency are reported at it.",
    )
    gpu: str | None = Field(default=None, description="Evaluate only this GPU (a catalog GPU ID).")
    cards: int | None = Field(
        default=None,
        gt=0,
        le=MAX_INSTANCE_GPUS,
        description="With gpu: one replica of this many cards, not the usual count.",
    )

    @model_validator(mode="after")
    def _one_model(self) -> SizeRequest:
        if (self.model is None) == (self.params_b is None):
            raise WordsError(Words("give exactly one of model or params_b"))
        if self.active_params_b is not None and self.model is not None:
            raise WordsError(
                Words(
                    "active_params_b goes with params_b; "
                    "the catalog knows the active parameters of its models"
                )
            )
        if (
            self.params_b is not None
            and self.active_params_b is not None
            and self.active_params_b > self.params_b
        ):
            raise WordsError(Words("active_params_b cannot exceed params_b"))
        if self.attention_shape is not None and self.model is not None:
            raise WordsError(
                Words(
                    "attention_shape goes with params_b; the catalog knows the attention shapes of its models"
                )
            )
        if self.attention_shape is not None and self.params_b is not None:
            refuse_shape_beyond_size(self.attention_shape, self.params_b)
        if self.cards is not None and self.gpu is None:
            raise WordsError(Words("cards goes with gpu: name the GPU whose replica has that many cards"))
        if self.load is not None and (self.input_tokens is not None or self.output_tokens is not None):
            raise WordsError(
                Words("with a load, give the tokens as the load's avg_input_tokens and avg_output_tokens")
            )
        return self


SERVER_PRICES = ("server_price_usd", "server_price_eur", "server_price_chf")
"""The server's price in each currency a tco request takes it in: one of them at most."""


class TcoRequest(Request):
    """The own server's assumptions to replace; every field left out keeps the knowledge base's figure
    or the company country's default. The bounds keep every cost line finite."""

    country: Annotated[CountryCodeInput, AfterValidator(listed_country)] | None = Field(
        default=None,
        description="ISO 3166 code of the company's country, whose cost defaults apply (default: the "
        "workload default, DE).",
    )
    gpu: Annotated[str, AfterValidator(catalog_gpu)] | None = Field(
        default=None,
        description="The server's GPU, a catalog GPU ID (default: the catalog server's); one the catalog "
        "prices no server of needs server_price_usd, draws its TDP, and is compared with its own offers.",
    )
    server_price_usd: float | None = Field(default=None, gt=0, le=MAX_SERVER_PRICE)
    server_price_eur: float | None = Field(
        default=None,
        gt=0,
        le=MAX_SERVER_PRICE,
        description="The server's price in EUR, at the catalog's rate.",
    )
    server_price_chf: float | None = Field(
        default=None,
        gt=0,
        le=MAX_SERVER_PRICE,
        description="The server's price in CHF, through the EUR at the catalog's rates (a Swiss quote).",
    )
    gpus_per_server: int | None = Field(default=None, ge=1, le=MAX_GPUS_PER_SERVER)
    months: int | None = Field(default=None, ge=1, le=MAX_WRITE_OFF_MONTHS)
    depreciation_years: DepreciationYears | None = Field(
        default=None, description="Economic life in years: 3, 4 or 5 (replaces months)."
    )
    hours_per_month: float | None = Field(default=None, gt=0, le=744)
    gpu_watts: float | None = Field(default=None, gt=0, le=MAX_GPU_WATTS)
    power_overhead: float | None = Field(default=None, ge=1, le=MAX_POWER_OVERHEAD)
    usd_per_kwh: float | None = Field(default=None, ge=0, le=MAX_PRICE_PER_KWH)
    eur_per_kwh: float | None = Field(
        default=None, ge=0, le=MAX_PRICE_PER_KWH, description="The electricity price in EUR instead."
    )
    rack_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    colocation_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    staff_usd_per_month: float | None = Field(default=None, ge=0, le=MAX_MONTHLY_COST)
    residual: float | None = Field(default=None, ge=0, lt=RESIDUAL_BELOW)

    @model_validator(mode="after")
    def _consistent(self) -> TcoRequest:
        # One write-off; one housing, as each replaces the country's (a colocation fee pays for the rack
        # space, so both would count the housing twice); one price, in one currency.
        for first, second in (
            ("months", "depreciation_years"),
            ("rack_usd_per_month", "colocation_usd_per_month"),
            ("usd_per_kwh", "eur_per_kwh"),
        ):
            if getattr(self, first) is not None and getattr(self, second) is not None:
                raise WordsError(Words("give %(first)s or %(second)s, not both", first=first, second=second))
        prices = [name for name in SERVER_PRICES if getattr(self, name) is not None]
        if len(prices) == 2:
            raise WordsError(
                Words("give %(first)s or %(second)s, not both", first=prices[0], second=prices[1])
            )
        if len(prices) == 3:
            raise WordsError(
                Words(
                    "give %(first)s, %(second)s or %(third)s, not all three",
                    first=prices[0],
                    second=prices[1],
                    third=prices[2],
                )
            )
        if self.gpu is not None and not prices_a_server_of(self.gpu) and not self.priced:
            raise WordsError(
                Words(
                    "%(field)s needs %(price)s, %(eur)s or %(chf)s: the catalog prices no server of %(gpu)s; "
                    "give your server's price",
                    field="gpu",
                    price="server_price_usd",
                    eur="server_price_eur",
                    chf="server_price_chf",
                    gpu=self.gpu,
                )
            )
        # The catalog's price is its own server's, cards included: spread over another card count it
        # would be a price no server of that size has.
        own_count = catalog_server_gpus(self.gpu)
        if self.gpus_per_server not in (None, own_count) and not self.priced:
            raise WordsError(
                Words(
                    "%(field)s needs %(price)s, %(eur)s or %(chf)s: the catalog's price is its own server's, "
                    "with its cards; give the price of a server with that many cards",
                    field="gpus_per_server",
                    price="server_price_usd",
                    eur="server_price_eur",
                    chf="server_price_chf",
                )
            )
        return self

    @property
    def priced(self) -> bool:
        """The request gives the server's price (in USD, EUR or CHF)."""
        return any(getattr(self, name) is not None for name in SERVER_PRICES)

    def replaced(self) -> dict[str, float]:
        """The assumptions this request replaces, by name."""
        return self.model_dump(exclude_none=True, exclude={"country", "gpu"})
