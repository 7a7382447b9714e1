"""The user's own figures: negotiated cloud rates, an own server price, electricity, the exchange rate.

The documents tell readers to replace the default cost lines with their own. An overrides file
(``--overrides FILE``) does that for one run: it yields a modified copy of the knowledge base, and every
replaced figure is listed so the memo can mark it.

    offers:                       # negotiated rates for catalog offers
      - {provider: aws, offer: p5-on-demand, gpu: h100-sxm, usd_per_gpu_hour: 2.80}
    own_server:                   # fields of the default own server
      price_usd: 240000
      usd_per_kwh: 0.31
    exchange_rate:
      usd_per_eur: 1.05
    as_of: 2026-11-28             # when these figures were agreed (default: the evaluation date)

"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gpu_advisor.engine.common.errors import InputError, unknown_value_message
from gpu_advisor.engine.common.user_input import load_yaml, read_input_text
from gpu_advisor.engine.domain.input_errors import input_error
from gpu_advisor.engine.domain.knowledge.base import LIST_PRICE_CLEARED, Knowledge, relisted_offers
from gpu_advisor.engine.domain.knowledge.entries import Citation
from gpu_advisor.engine.domain.overrides import Overrides

OVERRIDE_SOURCE_TITLE = "your overrides file"


def read_overrides(path: str) -> Overrides:
    text = read_input_text(path, error_prefix="--overrides: ", stdin=False)
    data = load_yaml(text, f"--overrides: {path}")
    try:
        return Overrides.model_validate(data or {}, strict=False)
    except ValidationError as error:
        raise input_error(f"--overrides {path}", error, Overrides, "overrides") from None


def apply_overrides(
    knowledge: Knowledge, overrides: Overrides, path: str, today: dt.date
) -> tuple[Knowledge, tuple[str, ...]]:
    """A copy of ``knowledge`` with the user's figures, and the list of what was replaced."""
    stamp = {
        "source": Citation(url=Path(path).resolve().as_uri(), title=OVERRIDE_SOURCE_TITLE),
        "as_of": overrides.as_of or today,
    }
    update: dict[str, Any] = {}
    replaced: list[str] = []
    for part in (replaced_offers, replaced_server, replaced_rate):
        files, lines = part(knowledge, overrides, stamp)
        update |= files
        replaced += lines
    knowledge = knowledge.model_copy(update=update)
    if overrides.exchange_rate is not None:
        # Offers listed in EUR follow the user's rate, as the EUR API prices do.
        relisted = relisted_offers(knowledge.offers, overrides.exchange_rate.usd_per_eur)
        knowledge = knowledge.model_copy(update={"offers": relisted})
    return knowledge, tuple(replaced)


Replacement = tuple[dict[str, Any], list[str]]
"""The knowledge files replaced, by name, and a line for each figure replaced."""


def replaced_offers(knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any]) -> Replacement:
    if not overrides.offers:
        return {}, []
    offers = list(knowledge.offers.offers)
    keys = [o.key for o in offers]
    lines = []
    for override in overrides.offers:
        key = f"{override.provider}/{override.offer}/{override.gpu}"
        if key not in keys:
            raise InputError(f"--overrides: {unknown_value_message('offers', key, keys)}")
        index = keys.index(key)
        old = offers[index]
        offers[index] = old.model_copy(
            update={
                "usd_per_gpu_hour": override.usd_per_gpu_hour,
                "usd_per_gpu_hour_low": None,
                "usd_per_gpu_hour_high": None,
                "instance_usd_per_hour": None,
                **LIST_PRICE_CLEARED,
                **stamp,
                "note": f"your rate (catalog: {old.usd_per_gpu_hour:g} USD, {old.as_of.isoformat()})",
            }
        )
        lines.append(f"{key} = {override.usd_per_gpu_hour:g} USD per GPU-hour")
    return {"offers": knowledge.offers.model_copy(update={"offers": tuple(offers)})}, lines


def replaced_server(knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any]) -> Replacement:
    changes = overrides.own_server.model_dump(exclude_none=True) if overrides.own_server else {}
    if not changes:
        return {}, []
    servers = list(knowledge.own_hardware.servers)
    index = next(i for i, s in enumerate(servers) if s.default)
    server = servers[index]
    lines = [f"{server.id}.{name} = {value:g}" for name, value in changes.items()]
    if "price_usd" in changes:
        # The user's price replaces the range the documents give.
        changes["price_usd_low"] = changes["price_usd_high"] = changes["price_usd"]
    servers[index] = server.model_copy(update={**changes, **stamp})
    return {"own_hardware": knowledge.own_hardware.model_copy(update={"servers": tuple(servers)})}, lines


def replaced_rate(knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any]) -> Replacement:
    if overrides.exchange_rate is None:
        return {}, []
    usd_per_eur = overrides.exchange_rate.usd_per_eur
    rates = tuple(
        rate.model_copy(update={"rate": usd_per_eur, **stamp})
        if (rate.from_currency, rate.to_currency) == ("EUR", "USD")
        else rate
        for rate in knowledge.exchange_rates.rates
    )
    return {"exchange_rates": knowledge.exchange_rates.model_copy(update={"rates": rates})}, [
        f"EUR/USD = {usd_per_eur:g}"
    ]
