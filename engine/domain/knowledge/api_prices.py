"""A managed API's price per million tokens, where its provider processes the requests, its SLA, and
the requests the product takes (knowledge/api_prices.yaml)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.engine.domain.choices import Jurisdiction
from gpu_advisor.engine.domain.knowledge.entries import (
    Citation,
    CountryCode,
    Currency,
    PositiveFloat,
    Sourced,
    Translated,
    Vat,
)

RequestLimit = Literal["window", "answer"]
"""A product's limit a request exceeds: its context window (prompt and answer together) or its answer
cap."""


class ApiPrice(Sourced, Translated):
    id: str
    name: str
    kind: Literal["proprietary", "open_weights_hosted"]
    provider: str | None = None
    """Who serves it (free text ID, e.g. deepinfra); None where the source names no host."""
    currency: Currency
    input_per_million_tokens: PositiveFloat
    output_per_million_tokens: PositiveFloat
    model: str | None = None
    """The catalog model (models.yaml) the API serves, where it serves one of them."""
    model_params_b: PositiveFloat | None = None
    """The size of the open model the API hosts; None for a proprietary model, whose size is not public."""
    model_active_params_b: PositiveFloat | None = None
    """A mixture-of-experts model's parameters active per token; None for a dense model."""
    model_reasoning: bool = False
    """The hosted model thinks before it answers by default (a reasoning model, as ``ModelConfig.reasoning``;
    the API's output tokens count the chain of thought)."""
    reasoning_source: Citation | None = None
    """Where the hosted model's default (thinking or not) is said, for a model outside the catalog (a catalog
    model's own ``reasoning_source`` says it otherwise)."""
    stands_in_up_to_params_b: PositiveFloat | None = None
    """The largest open model the price stands in for, where a source counts a larger one into its size
    class (the documents' 70B price for the 72B Qwen); None: up to ``model_params_b``."""
    jurisdiction: Jurisdiction = "unknown"
    """Where the API processes requests; unknown where the provider guarantees no location."""
    countries: tuple[CountryCode, ...] = ()
    location_source: Citation | None = None
    """Where ``jurisdiction`` comes from (the provider's own statement)."""
    batch_discount: float | None = Field(default=None, gt=0, lt=1)
    """The provider's batch API: the share taken off both prices for work returned within its
    completion window; None: no flat batch discount published."""
    batch_source: Citation | None = None
    batch_as_of: dt.date | None = None
    vat: Vat | None = None
    enterprise_sla: bool
    """The provider publishes an uptime commitment with service credits (a public SLA page or its enterprise
    terms) for the product sold at this price; false where the provider's pages checked publish none, or
    only for another product or tier (reserved capacity at its own price)."""
    sla_source: Citation
    """The page that says so (or that was checked and says nothing of one), by its title as published."""
    sla_as_of: dt.date
    sla_note: str | None = None
    """What the page says of an SLA (or that it says nothing of one)."""
    context_window_tokens: int | None = Field(default=None, gt=0)
    """The most tokens one request may hold on this product, prompt and answer together; None where no
    dated source gives it for this product."""
    max_output_tokens: int | None = Field(default=None, gt=0)
    """The longest answer it returns, where the product caps it below its window; None: not published."""
    context_source: Citation | None = None
    context_as_of: dt.date | None = None
    context_note: str | None = None
    """Where the figures come from when not from the provider's own page, and how a "128k" was read."""
    concurrent_requests: int | None = Field(default=None, gt=0)
    """The requests an account may have in flight at once on this product by default (beyond them the
    provider answers HTTP 429 until it raises the limit); None where no dated source gives it."""
    concurrency_source: Citation | None = None
    concurrency_as_of: dt.date | None = None
    requests_per_minute: int | None = Field(default=None, gt=0)
    """The requests a minute the product takes by default (beyond them HTTP 429 until the provider raises
    the limit), per ``rate_limit_scope`` and model; None where no dated source gives it."""
    tokens_per_minute: int | None = Field(default=None, gt=0)
    """The tokens a minute, input and output together, it takes by default; None where none is given."""
    rate_limit_scope: Literal["account", "project", "organization", "contract"] = "account"
    """What the limits count over, each model apart: an account, one of its projects (OVHcloud's Public
    Cloud project), an organization and every project in it (Scaleway's); or a contract across all its
    models (IONOS's)."""
    rate_limit_source: Citation | None = None
    rate_limit_as_of: dt.date | None = None
    withdrawn_on: dt.date | None = None
    """The day the provider stopped serving the priced model under this product (it moved the name to
    another model, or retired it): the price is kept to say so, and KNB018 excludes it."""
    withdrawn_source: Citation | None = None
    withdrawn_note: str | None = None
    """What the product's name serves since, as the source says."""
    note: str | None = None

    @model_validator(mode="after")
    def _withdrawal_sourced(self) -> ApiPrice:
        if (self.withdrawn_on is None) != (self.withdrawn_source is None):
            raise ValueError("withdrawn_on and withdrawn_source come together")
        if self.withdrawn_note is not None and self.withdrawn_on is None:
            raise ValueError("withdrawn_note needs withdrawn_on")
        return self

    @model_validator(mode="after")
    def _reasoning_sourced(self) -> ApiPrice:
        # A catalog model's card is cited in models.yaml, and the cross-file check holds the two equal.
        if self.model_reasoning and self.model is None and self.reasoning_source is None:
            raise ValueError("a hosted model outside the catalog that reasons cites where (reasoning_source)")
        if self.reasoning_source is not None and self.model is not None:
            raise ValueError(
                "reasoning_source is for a model outside the catalog; models.yaml cites the rest"
            )
        return self

    @model_validator(mode="after")
    def _concurrency_sourced(self) -> ApiPrice:
        given = (self.concurrent_requests, self.concurrency_source, self.concurrency_as_of)
        if any(x is None for x in given) != all(x is None for x in given):
            raise ValueError("concurrent_requests, concurrency_source and concurrency_as_of come together")
        return self

    @model_validator(mode="after")
    def _rate_limits_sourced(self) -> ApiPrice:
        given = self.requests_per_minute is not None or self.tokens_per_minute is not None
        if given != (self.rate_limit_source is not None and self.rate_limit_as_of is not None):
            raise ValueError(
                "requests_per_minute and tokens_per_minute come with rate_limit_source and rate_limit_as_of"
            )
        return self

    @model_validator(mode="after")
    def _context_sourced(self) -> ApiPrice:
        given = self.context_window_tokens is not None or self.max_output_tokens is not None
        if given != (self.context_source is not None and self.context_as_of is not None):
            raise ValueError(
                "context_window_tokens and max_output_tokens come with context_source and context_as_of"
            )
        if (
            self.context_window_tokens is not None
            and self.max_output_tokens is not None
            and self.max_output_tokens > self.context_window_tokens
        ):
            raise ValueError("max_output_tokens cannot exceed context_window_tokens")
        return self

    def limit_exceeded(self, context_tokens: int, output_tokens: int) -> RequestLimit | None:
        """Which of the product's recorded limits a request of the workload exceeds: its context window
        the workload's serving context, or its answer cap the average answer; None where neither (or
        where the catalog records none)."""
        if self.context_window_tokens is not None and self.context_window_tokens < context_tokens:
            return "window"
        if self.max_output_tokens is not None and self.max_output_tokens < output_tokens:
            return "answer"
        return None

    @model_validator(mode="after")
    def _sla_noted(self) -> ApiPrice:
        # A page is cited by its title as published; what it says of an SLA is the note.
        if self.sla_source.url is not None and not self.sla_note:
            raise ValueError("an sla_source page comes with an sla_note saying what it says of an SLA")
        return self

    @model_validator(mode="after")
    def _size_and_terms(self) -> ApiPrice:
        hosted = self.kind == "open_weights_hosted"
        if hosted != (self.model_params_b is not None):
            raise ValueError("model_params_b is given for, and only for, a hosted open-weights model")
        if not hosted and (self.model or self.stands_in_up_to_params_b or self.model_active_params_b):
            raise ValueError(
                "model, stands_in_up_to_params_b and model_active_params_b describe hosted open models"
            )
        if self.model_params_b is not None:
            if self.model_active_params_b is not None and self.model_active_params_b > self.model_params_b:
                raise ValueError("model_active_params_b cannot exceed model_params_b")
            if (
                self.stands_in_up_to_params_b is not None
                and self.stands_in_up_to_params_b < self.model_params_b
            ):
                raise ValueError("stands_in_up_to_params_b cannot be below model_params_b")
        if (self.jurisdiction == "unknown") != (self.location_source is None):
            raise ValueError("a known jurisdiction comes with its location_source, and only it")
        batch = (self.batch_discount, self.batch_source, self.batch_as_of)
        if any(x is None for x in batch) != all(x is None for x in batch):
            raise ValueError("batch_discount, batch_source and batch_as_of come together")
        if (self.currency == "EUR") != (self.vat is not None) and self.source.document is None:
            raise ValueError("a EUR price from a public source states its vat treatment, a USD price none")
        return self

    @property
    def largest_stood_in_for(self) -> float | None:
        """The largest open model this price stands in for."""
        return self.stands_in_up_to_params_b or self.model_params_b


def class_bound_problems(apis: Iterable[ApiPrice], where: str) -> list[str]:
    """Every hosted open-weights price of one model size stands in up to the same size
    (``stands_in_up_to_params_b``): a size class counts a larger model in for all its prices or for none,
    so the comparison takes the class's cheapest admitted price and never names a class some of whose
    prices count the model in and others do not. ``where``: the file, for the messages."""
    bounds: dict[float, dict[float, list[str]]] = {}
    for api in apis:
        if api.model_params_b is not None:
            by_bound = bounds.setdefault(api.model_params_b, {})
            by_bound.setdefault(api.largest_stood_in_for or api.model_params_b, []).append(api.id)
    return [
        f"{where}: the hosted {size:g}B prices stand in up to different sizes ("
        + "; ".join(f"{bound:g}B: {', '.join(ids)}" for bound, ids in sorted(by_bound.items()))
        + "): give each of them the same stands_in_up_to_params_b"
        for size, by_bound in sorted(bounds.items())
        if len(by_bound) > 1
    ]
