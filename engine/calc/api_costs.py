"""What every managed API in the catalog costs for the workload's tokens, and which of them the cost
comparison uses: a hosted open-weights model of the workload's own size class.

Each price is a listing, and each price with a published batch discount a second one for its batch API.
The rules exclude listings (personal data: hosted in the EU only; batch APIs only for batch work; a
business-critical workload: only a provider with an enterprise SLA); of
those they admit, the comparison takes the workload's own model where a host serves it, else the
nearest size class at or above the workload's model, and within it the cheapest.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from gpu_advisor.engine.calc.costs import api_usd_per_month
from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.choices import BATCH_API
from gpu_advisor.engine.domain.knowledge.api_prices import ApiPrice, RequestLimit
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.results import ApiCost
from gpu_advisor.engine.domain.workload import ResolvedWorkload

T = TypeVar("T")


@dataclass(frozen=True)
class ApiListing:
    """One API price as sold: per request, or (``batch``) through the provider's batch API."""

    api: ApiPrice
    batch: bool
    attributes: Mapping[str, Any]
    """What option exclusions can name: eu, jurisdiction, pricing, provider, enterprise_sla, withdrawn,
    reasoning (read-only)."""

    @property
    def price_factor(self) -> float:
        return 1.0 - (self.api.batch_discount or 0.0) if self.batch else 1.0


def api_listings(knowledge: Knowledge) -> tuple[ApiListing, ...]:
    """Every API price, each with a batch discount followed by its batch API; in catalog order. Worked
    out once per set of API prices, which a scenario's re-priced copy of the knowledge base keeps (and
    with them the rules' exclusion tables, ``pipeline.constraints``)."""
    return _listings_of(knowledge.api_prices.apis)


@per_object
def _listings_of(apis: tuple[ApiPrice, ...], /) -> tuple[ApiListing, ...]:
    found = []
    for api in apis:
        for batch in (False, True) if api.batch_discount is not None else (False,):
            attributes = {
                "eu": api.jurisdiction == "EU",
                "jurisdiction": api.jurisdiction,
                "pricing": BATCH_API if batch else "on_demand",
                "provider": api.provider or "",
                "enterprise_sla": api.enterprise_sla,
                "withdrawn": api.withdrawn_on is not None,
                "reasoning": api.model_reasoning,
                # Where it processes requests, as one region: unknown, no country is kept.
                "countries": (api.countries,),
            }
            found.append(ApiListing(api, batch, MappingProxyType(attributes)))
    return tuple(found)


def large_enough(api: ApiPrice, params_b: float, active_params_b: float) -> bool:
    """The hosted model is of the workload model's size or larger: at least its parameters and, for a
    mixture of experts, at least its active ones, so its price may stand in (KNB005: no bound, as hosts
    price by demand too). Sizes compare
    in whole billions, as models are named and sized in workload files (Mixtral's 46.7B is "47B")."""
    largest = api.largest_stood_in_for
    if largest is None or whole_billions(params_b) > whole_billions(largest):
        return False
    active = api.model_active_params_b
    return active is None or whole_billions(active_params_b) <= whole_billions(active)


def whole_billions(params_b: float) -> int:
    """A size rounded half up to whole billions (``round`` would take 46.5 down to 46)."""
    return math.floor(params_b + 0.5)


class _Priced(NamedTuple):
    listing: ApiListing
    usd_per_month: float
    large_enough: bool
    """Of the workload model's size or larger (``large_enough``)."""
    exceeded_limit: RequestLimit | None
    """The product's limit the workload's requests exceed (``ApiPrice.limit_exceeded``)."""
    same_model: bool
    excluded_by: tuple[str, ...]

    @property
    def stands_in(self) -> bool:
        """Large enough, and takes the workload's requests."""
        return self.large_enough and self.exceeded_limit is None


def api_costs(
    knowledge: Knowledge,
    resolved: ResolvedWorkload,
    exclusions: Sequence[tuple[str, ...]],
    served_share: float = 1.0,
) -> tuple[ApiCost, ...]:
    """Monthly cost of every API listing for the workload's tokens, in the order of ``api_listings``;
    ``exclusions``: the rules that exclude each listing. The compared one is marked. ``served_share``:
    the share of the day's requests the self-hosted routes serve (``Load.requests_share_in_paid_hours``:
    fewer hours paid than served leave the rest's requests without a GPU, PRC009), which the API is priced
    for too, so that the two compare like for like. Worked out once per listings, rate and the workload's
    figures it reads (``_costs``): every scenario of a scenario run whose volume is the base's asks for
    the same."""
    return _costs(
        api_listings(knowledge),
        knowledge.eur_to_usd().rate,
        resolved.requests_per_day * served_share,
        resolved.days_per_month,
        resolved.avg_input_tokens,
        resolved.avg_output_tokens,
        resolved.context_tokens,
        resolved.params_b,
        resolved.active_params_b,
        resolved.model or "",
        resolved.reasoning,
        tuple(exclusions),
    )


API_COSTS_KEPT = 64
"""API cost lists kept: a scenario run asks for one per volume it draws."""


@per_object(entries=API_COSTS_KEPT)
def _costs(
    listings: tuple[ApiListing, ...],
    usd_per_eur: float,
    requests_per_day: float,
    days_per_month: float,
    input_tokens: int,
    output_tokens: int,
    context_tokens: int,
    params_b: float,
    active_params_b: float,
    model: str,
    reasoning: bool,
    exclusions: tuple[tuple[str, ...], ...],
    /,
) -> tuple[ApiCost, ...]:
    requests = requests_per_day * days_per_month
    priced = []
    for listing, excluded in zip(listings, exclusions, strict=True):
        api = listing.api
        monthly = listing.price_factor * api_usd_per_month(
            api, requests_per_day, days_per_month, input_tokens, output_tokens, usd_per_eur
        )
        size = large_enough(api, params_b, active_params_b)
        limit = api.limit_exceeded(context_tokens, output_tokens)
        same = api.model is not None and api.model == model
        priced.append(_Priced(listing, monthly, size, limit, same, excluded))
    compared = comparable(priced)
    cheaper = cheaper_same_size(priced, compared)
    smaller = nearest_smaller(priced, params_b, active_params_b, reasoning)
    if compared is not None and not undercuts_a_larger(compared, smaller, params_b):
        smaller = None
    return tuple(
        _cost(
            p,
            requests,
            compared is p,
            listed(p, compared) or p is cheaper,
            cheaper is p,
            p is smaller,
        )
        for p in priced
    )


def nearest_smaller(
    priced: Sequence[_Priced], params_b: float, active_params_b: float, reasoning: bool
) -> _Priced | None:
    """Where no price stands in for the workload's model, or a larger model's does and costs more
    (``undercuts_a_larger``): the cheapest admitted hosted price of the largest class below it that takes its
    requests (a 100B model whose classes above are all excluded or too short is shown the 70B class's, whose
    prices stand in up to 72B), so that the memo names what an API would cost at the nearest size the catalog
    admits, as another and smaller model. Below means smaller in all parameters: a mixture of experts too
    large in total but too small in active parameters is neither. A reasoning model is told only of reasoning
    models' prices, and the other way round (as KNB021 and KNB022 keep the comparison's)."""
    below = [
        p
        for p in priced
        if whole_billions(p.listing.api.largest_stood_in_for or 0.0) < whole_billions(params_b)
        and whole_billions(p.listing.api.model_active_params_b or p.listing.api.model_params_b or 0.0)
        <= whole_billions(active_params_b)
        and p.exceeded_limit is None
        and not p.excluded_by
        and p.listing.api.kind == "open_weights_hosted"
        and p.listing.api.model_reasoning == reasoning
    ]
    if not below:
        return None
    largest = max(p.listing.api.model_params_b or 0.0 for p in below)
    return min(
        (p for p in below if p.listing.api.model_params_b == largest),
        key=lambda p: (p.usd_per_month, p.listing.api.id),
    )


def undercuts_a_larger(compared: _Priced, smaller: _Priced | None, params_b: float) -> bool:
    """Beside a larger model's price that stands in (Llama 3.1 405B for a 100B model), the nearest smaller
    class's price that costs less is named too, never compared: a 70B model at a fifth of the 405B's price
    is the reader's call to try."""
    larger = whole_billions(compared.listing.api.model_params_b or 0.0) > whole_billions(params_b)
    return larger and smaller is not None and smaller.usd_per_month < compared.usd_per_month


def cheaper_same_size(priced: Sequence[_Priced], compared: _Priced | None) -> _Priced | None:
    """The cheapest admitted price of another hosted model of the compared price's size that costs less
    (``ApiCost.cheaper_same_size``), where the comparison takes the workload's own model's price or a
    class price that stands in for a larger model (a 70B price for the 72B Qwen), so that a
    cheaper model of that size is not left out of the memo: switching models is the reader's call, not
    the comparison's. Where the compared price stands in as the nearest larger class, every admitted
    price of its size stands in too, and the comparison took the cheapest."""
    if compared is None:
        return None
    size = compared.listing.api.model_params_b
    others = [
        p
        for p in priced
        if not p.same_model
        and p is not compared
        # Beside the model's own price, another model that stands in for it; beside a class price, any
        # that takes the workload's requests.
        and (p.stands_in or (not compared.same_model and p.exceeded_limit is None))
        and p.listing.api.kind != "proprietary"
        and not p.excluded_by
        and p.listing.api.model_params_b == size
        and p.usd_per_month < compared.usd_per_month
    ]
    return min(others, key=lambda p: (p.usd_per_month, p.listing.api.id), default=None)


def _cost(
    priced: _Priced,
    requests: float,
    compared: bool,
    shown: bool,
    cheaper: bool,
    smaller: bool,
) -> ApiCost:
    listing, monthly = priced.listing, priced.usd_per_month
    api, factor = listing.api, listing.price_factor
    # Built from validated knowledge: no re-validation (see engine/common/trusted.py).
    return trusted(
        ApiCost,
        api=api.id,
        name=api.name,
        kind=api.kind,
        currency=api.currency,
        usd_per_month=monthly,
        usd_per_request=monthly / requests if requests else 0.0,
        # A batch price rests on the token price and the batch discount: the older of their dates.
        as_of=min(api.as_of, api.batch_as_of) if listing.batch and api.batch_as_of else api.as_of,
        compared=compared,
        model_params_b=api.model_params_b,
        provider=api.provider,
        input_per_million_tokens=api.input_per_million_tokens * factor,
        output_per_million_tokens=api.output_per_million_tokens * factor,
        batch=listing.batch,
        jurisdiction=api.jurisdiction,
        countries=api.countries,
        stands_in=priced.stands_in,
        large_enough=priced.large_enough,
        exceeded_limit=priced.exceeded_limit,
        context_window_tokens=api.context_window_tokens,
        max_output_tokens=api.max_output_tokens,
        concurrent_requests=api.concurrent_requests,
        requests_per_minute=api.requests_per_minute,
        tokens_per_minute=api.tokens_per_minute,
        rate_limit_scope=api.rate_limit_scope,
        same_model=priced.same_model,
        excluded_by=priced.excluded_by,
        withdrawn_on=api.withdrawn_on,
        listed=shown,
        cheaper_same_size=cheaper,
        nearest_smaller=smaller,
    )


def listed(priced: _Priced, compared: _Priced | None) -> bool:
    """Shown beside the comparison (``ApiCost.listed``): proprietary references, and the prices of the
    model's size or larger up to the compared one's size class (all of them where none is compared),
    those whose requests are too short for the workload's too, marked; the cheaper price of the compared
    one's size (``cheaper_same_size``) is shown too."""
    api = priced.listing.api
    if api.kind == "proprietary":
        return True
    if not priced.large_enough:
        return False
    if compared is None or priced.same_model:
        return True
    return float(api.model_params_b or 0.0) <= float(compared.listing.api.model_params_b or 0.0)


def comparable(priced: Sequence[_Priced]) -> _Priced | None:
    """The price the comparison uses: among those the rules admit and that stand in for the model, the
    workload's own model where a host serves it, else the nearest size class at or above it
    (``nearest_class``); the cheapest of them (ties: catalog ID, the standard price before the batch
    API)."""
    admitted = [p for p in priced if p.stands_in and not p.excluded_by]
    tier = nearest_class(admitted, lambda p: p.same_model, lambda p: p.listing.api)
    if not tier:
        return None
    return min(tier, key=lambda p: (p.usd_per_month, p.listing.api.id, p.listing.batch))


def nearest_class(
    candidates: Sequence[T], same_model: Callable[[T], bool], api: Callable[[T], ApiPrice]
) -> list[T]:
    """Of prices that may stand in for the model, those the comparison chooses among: the model's own
    where a host serves it, else the nearest size class above it (the smallest hosted model)."""
    tier = [c for c in candidates if same_model(c)]
    if tier or not candidates:
        return tier
    nearest = min(float(api(c).model_params_b or 0.0) for c in candidates)
    return [c for c in candidates if float(api(c).model_params_b or 0.0) == nearest]
