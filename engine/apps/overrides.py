"""The user's own figures: negotiated cloud rates, an own server price, electricity, the exchange rate.

The documents tell readers to replace the default cost lines with their own. An overrides file
(``--overrides FILE``) does that for one run: it yields a modified copy of the knowledge base, and every
replaced figure is listed so the memo can mark it.

    offers:                       # negotiated rates for catalog offers
      - {provider: aws, offer: p5-on-demand, gpu: h100-sxm, usd_per_gpu_hour: 2.80}
    added_offers: [...]           # offers the catalog lacks (engine/apps/overrides_added.py)
    regions: [...]                # regions of catalog providers the catalog lacks
    own_server:                   # the own server: price, write-off, power draw; power price, housing, staff
      price_eur: 240000           # or price_usd; EUR figures are converted at the catalog's rate
      depreciation_years: 4       # 3, 4 or 5; or months
      eur_per_kwh: 0.25           # or usd_per_kwh; replaces the company country's default
      staff_eur_per_month: 400    # or staff_usd_per_month; also rack_..., colocation_..._per_month
    exchange_rate:
      usd_per_eur: 1.05
    as_of: 2026-11-28             # when these figures were agreed (default: the evaluation date)

"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gpu_advisor.engine.apps.overrides_added import added_offers, added_regions, not_in_the_catalog
from gpu_advisor.engine.calc.server_costs import MONTHS_PER_YEAR
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import load_yaml, read_input_text
from gpu_advisor.engine.common.wording import Grouped, Words, at
from gpu_advisor.engine.domain.input_errors import input_error
from gpu_advisor.engine.domain.knowledge.base import LIST_PRICE_CLEARED, Knowledge, relisted_offers
from gpu_advisor.engine.domain.knowledge.costs import YourCosts
from gpu_advisor.engine.domain.knowledge.entries import Citation, PriceOrigin
from gpu_advisor.engine.domain.overrides import Overrides, ServerOverride
from gpu_advisor.engine.i18n.reading import dotted_readings, thousands_dotted_lines, thousands_dotted_values

OVERRIDE_SOURCE_TITLE = "your overrides file"


def read_overrides(path: str, option: str = "--overrides", *, stdin: bool = False) -> Overrides:
    """The overrides file at ``path`` (standard input for ``-`` where ``stdin``); its errors name
    ``option``, the way the user gave it (``catalog diff`` takes its files as OLD and NEW)."""
    text = read_input_text(path, error_prefix=f"{option}: ", stdin=stdin)
    refuse_thousands_dots(text, f"{option} {path}")
    lines: dict[tuple[str | int, ...], int] = {}
    data = load_yaml(text, f"{option}: {path}", lines)
    try:
        return Overrides.model_validate(data or {}, strict=False).read_on(lines)
    except ValidationError as error:
        raise input_error(f"{option} {path}", error, Overrides, "overrides") from None


AMOUNTS = frozenset(
    name for name in ServerOverride.model_fields if name.startswith("price_") or name.endswith("_per_month")
)
"""The own server's amounts a German writer may give with a dot between thousands (``240.000``)."""


def refuse_thousands_dots(text: str, where: str) -> None:
    """Refuse an own-server amount written with a dot between groups of three digits: YAML reads
    ``price_eur: 240.000`` as 240.0, a server for the price of a meal, and the figures would follow."""
    # Several dots make text, which validation refuses as not a number; one dot makes a smaller number.
    for line, key, written in _dotted_amounts(text):
        readings = dotted_readings(written)
        if readings is None:
            continue
        read, whole, plain = readings
        raise InputError(
            Words(
                "%(where)s, line %(line)s: %(key)s: %(written)s reads as %(read)s, not %(whole)s (YAML takes "
                "the dot for a decimal point): write %(whole)s, or %(plain)s where %(read)s is meant.",
                where=where,
                line=line,
                key=key,
                written=written,
                read=read,
                whole=whole,
                plain=plain,
            ),
            field=key if key.startswith("ranges.") else f"own_server.{key}",
        )


def _dotted_amounts(text: str) -> list[tuple[int, str, str]]:
    """The own server's amounts, and the ends of a range of its price (``ranges.server_price.low``),
    written with a thousands dot: (line, the field as named in the message, the number as written)."""
    found = thousands_dotted_values(text)
    if found is None:
        return thousands_dotted_lines(text, AMOUNTS)
    price_ranges = server_price_ranges()
    amounts = []
    for line, path, written in found:
        if path[-1] in AMOUNTS:
            amounts.append((line, path[-1], written))
        elif (
            len(path) == 3
            and path[0] == "ranges"
            and path[1] in price_ranges
            and path[2] in ("low", "high", "mode")
        ):
            amounts.append((line, ".".join(path), written))
    return amounts


def server_price_ranges() -> frozenset[str]:
    """The uncertain inputs that are an own server's price (``knowledge/uncertainty.yaml``)."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    inputs = load_knowledge().uncertainty.inputs
    return frozenset(entry.id for entry in inputs if entry.applies_to == "own_server_price")


def knowledge_with_overrides(path: str | None, today: dt.date) -> Knowledge:
    """The shipped knowledge base, with the overrides file at ``path`` applied where one is given."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    knowledge = load_knowledge()
    if path is None:
        return knowledge
    return apply_overrides(knowledge, overrides_to_use(path), path, today)[0]


def overrides_to_use(path: str) -> Overrides:
    """The overrides file a run prices with (``--overrides``): one that replaces nothing would leave the
    catalog's prices standing unsaid, so it is refused, as ``catalog import`` refuses to write one
    (``catalog diff`` reads its files with ``read_overrides``, empty or not)."""
    overrides = read_overrides(path)
    refuse_empty(overrides, path)
    return overrides


def apply_overrides(
    knowledge: Knowledge, overrides: Overrides, path: str, today: dt.date, where: str | None = None
) -> tuple[Knowledge, tuple[Words | str, ...]]:
    """A copy of ``knowledge`` with the user's figures, and the list of what was replaced. ``where``: the
    file as its errors name it (``--overrides FILE``, the default; ``catalog diff`` names OLD and NEW)."""
    where = f"--overrides {path}" if where is None else where
    stamp = {
        "source": Citation(url=Path(path).resolve().as_uri(), title=source_title(overrides, path)),
        "as_of": overrides.as_of or today,
        "origin": price_origin(overrides, path),
    }
    update: dict[str, Any] = {}
    replaced: list[Words | str] = []
    for part in (added_regions, replaced_offers, added_offers, replaced_server, replaced_rate):
        files, lines = part(knowledge, overrides, stamp, where)
        update |= files
        replaced += lines
        # Offers added later name the regions added before.
        knowledge = knowledge.model_copy(update=files)
    knowledge = knowledge.model_copy(update=update)
    if overrides.exchange_rate is not None:
        # Offers listed in EUR follow the user's rate, as the EUR API prices do.
        relisted = relisted_offers(knowledge.offers, overrides.exchange_rate.usd_per_eur)
        knowledge = knowledge.model_copy(update={"offers": relisted})
    return knowledge, tuple(replaced)


def refuse_empty(overrides: Overrides, path: str) -> None:
    where = f"--overrides {path}"
    given = (overrides.offers, overrides.own_server, overrides.exchange_rate, overrides.regions)
    if not any(given) and not overrides.added_offers and not overrides.ranges:
        problem = Words("the file replaces no figure: every price and cost would stay the catalog's unsaid")
        raise InputError(at(where, problem))


def source_title(overrides: Overrides, path: str) -> str:
    """The title an overrides file's figures are cited with: the imported file where it is an import."""
    if overrides.source is not None:
        return f"{overrides.source.file} ({overrides.source.format})"
    return OVERRIDE_SOURCE_TITLE


def price_origin(overrides: Overrides, path: str) -> PriceOrigin:
    if overrides.source is not None:
        return PriceOrigin(kind="import", file=overrides.source.file, format=overrides.source.format)
    return PriceOrigin(kind="overrides", file=Path(path).name)


def dated(stamp: dict[str, Any]) -> dict[str, Any]:
    """The source and date of the stamp, for entries that record no origin."""
    return {"source": stamp["source"], "as_of": stamp["as_of"]}


Replacement = tuple[dict[str, Any], list[Words | str]]
"""The knowledge files replaced, by name, and a line for each figure replaced (said in the memo's
language)."""


def replaced_offers(
    knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any], where: str
) -> Replacement:
    if not overrides.offers:
        return {}, []
    offers = list(knowledge.offers.offers)
    keys = [o.key for o in offers]
    lines: list[Words | str] = []
    for index, override in enumerate(overrides.offers):
        key = override.key
        if key not in keys:
            raise InputError(at(overrides.entry(where, "offers", index), not_in_the_catalog(key, offers)))
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
                "as_of": override.as_of or stamp["as_of"],
                "origin": stamp["origin"],
                "note": f"your rate (catalog: {old.usd_per_gpu_hour:g} USD, {old.as_of.isoformat()})"
                + (f": {override.note}" if override.note else ""),
                # Your rate is the price you pay: no newer list of the provider's replaces it (KNB010).
                "superseded_by": None,
            }
        )
        lines.append(
            Words("%(key)s = %(price)s USD per GPU-hour", key=key, price=f"{override.usd_per_gpu_hour:g}")
        )
    return {"offers": knowledge.offers.model_copy(update={"offers": tuple(offers)})}, lines


EUR_FIELDS = frozenset(
    {"price_eur", "eur_per_kwh", "rack_eur_per_month", "colocation_eur_per_month", "staff_eur_per_month"}
)
"""Figures given in EUR: converted to USD at the overrides' rate, else the catalog's."""

YOUR_LINES = {
    "usd_per_kwh": ("usd_per_kwh", "eur_per_kwh"),
    "rack_usd_per_month": ("rack_usd_per_month", "rack_eur_per_month"),
    "colocation_usd_per_month": ("colocation_usd_per_month", "colocation_eur_per_month"),
    "staff_usd_per_month": ("staff_usd_per_month", "staff_eur_per_month"),
}
"""Your cost lines (``YourCosts``), each given in USD or in EUR; they replace the country's defaults."""


def replaced_server(
    knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any], where: str
) -> Replacement:
    given = overrides.own_server.model_dump(exclude_none=True) if overrides.own_server else {}
    if not given:
        return {}, []
    rate = overrides.exchange_rate.usd_per_eur if overrides.exchange_rate else knowledge.eur_to_usd().rate
    servers = list(knowledge.own_hardware.servers)
    index = next(i for i, s in enumerate(servers) if s.default)
    server = servers[index]
    changes: dict[str, Any] = {}
    yours: dict[str, float] = {}
    lines: list[Words | str] = []
    for name, value in given.items():
        usd = value * rate if name in EUR_FIELDS else value
        target = next((key for key, names in YOUR_LINES.items() if name in names), None)
        lines.append(
            replaced_line(f"own_server.{name}" if target else f"{server.id}.{name}", value, usd, rate)
        )
        if target is not None:
            yours[target] = usd
            continue
        if name in ("price_usd", "price_eur"):
            # The user's price replaces the range the documents give.
            changes.update(price_usd=usd, price_usd_low=usd, price_usd_high=usd, price_yours=True)
        elif name == "depreciation_years":
            changes["months"] = value * MONTHS_PER_YEAR
        else:
            changes[name] = value
    update: dict[str, Any] = {}
    if changes:
        servers[index] = server.model_copy(update={**changes, **dated(stamp)})
        update["own_hardware"] = knowledge.own_hardware.model_copy(update={"servers": tuple(servers)})
    if yours:
        update["cost_defaults"] = knowledge.cost_defaults.model_copy(update={"yours": YourCosts(**yours)})
    return update, lines


def replaced_line(figure: str, value: float, usd: float, rate: float) -> Words | str:
    """'hgx-h100-8.price_eur = 230000 (= 266,800 USD at 1.16 USD per EUR)': the figure as given, and in
    USD where it was given in EUR (``usd`` differs from ``value``), in the reader's language."""
    given = f"{figure} = {value:g}"
    if usd == value:
        return given
    return Words(
        "%(given)s (= %(usd)s USD at %(rate)s USD per EUR)",
        given=given,
        usd=Grouped(usd, decimals(f"{usd:.4g}")),
        rate=Grouped(rate, decimals(repr(rate))),
    )


def decimals(text: str) -> int:
    """The decimals a number written as ``text`` shows ("0.1624": 4, "928": 0, "2.784e+05": 0): a
    converted figure keeps four significant digits, a rate the user's own."""
    return 0 if "e" in text or "." not in text else len(text.split(".")[1])


def replaced_rate(
    knowledge: Knowledge, overrides: Overrides, stamp: dict[str, Any], where: str
) -> Replacement:
    if overrides.exchange_rate is None:
        return {}, []
    usd_per_eur = overrides.exchange_rate.usd_per_eur
    rates = tuple(
        rate.model_copy(update={"rate": usd_per_eur, **dated(stamp)})
        if (rate.from_currency, rate.to_currency) == ("EUR", "USD")
        else rate
        for rate in knowledge.exchange_rates.rates
    )
    return {"exchange_rates": knowledge.exchange_rates.model_copy(update={"rates": rates})}, [
        Words.joined("EUR/USD = %(rate)s", rate=Grouped(usd_per_eur, decimals(repr(usd_per_eur))))
    ]
