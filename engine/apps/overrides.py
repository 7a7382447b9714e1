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
from gpu_advisor.engine.domain.knowledge.base import Knowledge
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
    as_of = overrides.as_of or today
    source = Citation(url=Path(path).resolve().as_uri(), title=OVERRIDE_SOURCE_TITLE)
    replaced: list[str] = []
    update: dict[str, Any] = {}

    if overrides.offers:
        offers = list(knowledge.offers.offers)
        keys = [o.key for o in offers]
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
                    "source": source,
                    "as_of": as_of,
                    "note": f"your rate (catalog: {old.usd_per_gpu_hour:g} USD, {old.as_of.isoformat()})",
                }
            )
            replaced.append(f"{key} = {override.usd_per_gpu_hour:g} USD per GPU-hour")
        update["offers"] = knowledge.offers.model_copy(update={"offers": tuple(offers)})

    if overrides.own_server is not None:
        changes = overrides.own_server.model_dump(exclude_none=True)
        if changes:
            servers = list(knowledge.own_hardware.servers)
            index = next(i for i, s in enumerate(servers) if s.default)
            server = servers[index]
            if "price_usd" in changes:
                # The user's price replaces the range the documents give.
                changes["price_usd_low"] = changes["price_usd_high"] = changes["price_usd"]
            servers[index] = server.model_copy(update={**changes, "source": source, "as_of": as_of})
            update["own_hardware"] = knowledge.own_hardware.model_copy(update={"servers": tuple(servers)})
            replaced += [
                f"{server.id}.{name} = {value:g}"
                for name, value in overrides.own_server.model_dump(exclude_none=True).items()
            ]

    if overrides.exchange_rate is not None:
        rates = tuple(
            rate.model_copy(
                update={"rate": overrides.exchange_rate.usd_per_eur, "source": source, "as_of": as_of}
            )
            if (rate.from_currency, rate.to_currency) == ("EUR", "USD")
            else rate
            for rate in knowledge.exchange_rates.rates
        )
        update["exchange_rates"] = knowledge.exchange_rates.model_copy(update={"rates": rates})
        replaced.append(f"EUR/USD = {overrides.exchange_rate.usd_per_eur:g}")

    return knowledge.model_copy(update=update), tuple(replaced)
