"""A knowledge base's prices as a company that cannot deduct input VAT pays them.

Such a company (the workload's ``input_vat_recoverable: false``: a public authority acting as such, a bank
or insurer for its VAT-exempt business) pays the VAT on everything it buys. ``with_vat`` is the one place
that adds it: a copy of the knowledge base whose every purchase carries the company country's standard
rate (``vat_rates.yaml``), which the evaluation prices the workload with, so that every calculator, rule
and text reads the same gross figures: API prices, GPU rentals (their USD price; a list price in EUR stays
as listed beside it), serverless products and what they bill for CPU and memory, owned servers, and the
power and housing of the cost defaults and of an overrides file. Prices from an overrides file or an
import are taken as net, as a business is quoted. An engineer's salary (the staff line) carries no VAT and
stays as it is; so does the resale share of an owned server, a share of the price paid.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.costs import CostFigure, CountryCosts

OFFER_PRICES = ("usd_per_gpu_hour", "usd_per_gpu_hour_low", "usd_per_gpu_hour_high", "instance_usd_per_hour")
"""An offer's prices that are raised; its list price in EUR (``list_price_per_gpu_hour``,
``list_instance_price_per_hour``) stays the figure the provider lists, which the memo shows beside the USD
price with VAT."""
API_PRICES = ("input_per_million_tokens", "output_per_million_tokens")
SERVERLESS_GPU_PRICES = ("usd_per_gpu_hour", "warm_usd_per_gpu_hour")
HOST_PRICES = ("usd_per_core_hour", "usd_per_gib_hour")
SERVER_PRICES = ("price_usd", "price_usd_low", "price_usd_high", "usd_per_kwh", "rack_usd_per_month")
YOUR_PURCHASES = ("usd_per_kwh", "rack_usd_per_month", "colocation_usd_per_month")
"""Your own cost lines that are bought; ``staff_usd_per_month`` is a salary."""

M = TypeVar("M", bound=BaseModel)


@per_object
def with_vat(knowledge: Knowledge, country: str) -> Knowledge:
    """``knowledge`` with every purchase priced with ``country``'s standard VAT rate, the rate recorded as
    ``vat_rates.applied``; ``knowledge`` itself where the catalog has no rate for the country (the
    prices stay net, and KNB023 says so). A copy that carries a rate already is returned as it is: a
    scenario of a workload evaluated on it (``apps.scenarios``) is evaluated again, and its purchases are
    taxed once."""
    rate = knowledge.vat_rates.of(country)
    if rate is None or knowledge.vat_rates.applied is not None:
        return knowledge
    factor = 1 + rate.rate
    costs = knowledge.cost_defaults
    yours = costs.yours
    serverless = tuple(
        product.model_copy(
            update={
                "gpus": tuple(_times(gpu, factor, SERVERLESS_GPU_PRICES) for gpu in product.gpus),
                "host_prices": _times(product.host_prices, factor, HOST_PRICES)
                if product.host_prices is not None
                else None,
            }
        )
        for product in knowledge.serverless.products
    )
    update: dict[str, Any] = {
        "offers": knowledge.offers.model_copy(
            update={"offers": tuple(_times(o, factor, OFFER_PRICES) for o in knowledge.offers.offers)}
        ),
        "api_prices": knowledge.api_prices.model_copy(
            update={"apis": tuple(_times(a, factor, API_PRICES) for a in knowledge.api_prices.apis)}
        ),
        "serverless": knowledge.serverless.model_copy(update={"products": serverless}),
        "own_hardware": knowledge.own_hardware.model_copy(
            update={
                "servers": tuple(_times(s, factor, SERVER_PRICES) for s in knowledge.own_hardware.servers)
            }
        ),
        "cost_defaults": costs.model_copy(
            update={
                "countries": tuple(_country_with_vat(c, factor) for c in costs.countries),
                "yours": _times(yours, factor, YOUR_PURCHASES) if yours is not None else None,
            }
        ),
        "vat_rates": knowledge.vat_rates.model_copy(update={"applied": rate}),
    }
    return knowledge.model_copy(update=update)


def _country_with_vat(country: CountryCosts, factor: float) -> CountryCosts:
    """A country's power and housing figures with VAT; its salary as it is."""
    return country.model_copy(
        update={
            "electricity_per_kwh": tuple(_figure(f, factor) for f in country.electricity_per_kwh),
            "rack_per_month": _figure(country.rack_per_month, factor),
            "colocation_per_kw_month": _figure(country.colocation_per_kw_month, factor),
        }
    )


def _figure(figure: CostFigure | None, factor: float) -> CostFigure | None:
    """``figure`` with VAT, and the further amounts its note quotes (a second tariff, a monthly fee) too."""
    if figure is None:
        return None
    quoted = {name: amount * factor for name, amount in figure.quoted.items()}
    return figure.model_copy(update={"value": figure.value * factor, "quoted": quoted})


def _times(entry: M, factor: float, fields: tuple[str, ...]) -> M:
    """``entry`` with each of ``fields`` that it gives times ``factor``."""
    update = {name: value * factor for name in fields if (value := getattr(entry, name)) is not None}
    return entry.model_copy(update=update)
