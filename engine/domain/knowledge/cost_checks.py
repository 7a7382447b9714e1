"""The own-hardware cost defaults' consistency with the rest of the knowledge base."""

from __future__ import annotations

from pathlib import Path

from gpu_advisor.engine.domain.knowledge.base import Knowledge


def cost_default_problems(knowledge: Knowledge, directory: Path) -> list[str]:
    """Country codes once each; a complete fallback that agrees with the own servers' documents' figures;
    every currency convertible; every cited document known; no user figures in the shipped file."""
    where = directory / "cost_defaults.yaml"
    costs = knowledge.cost_defaults
    codes = [c.country for c in costs.countries]
    problems = [
        f"{where}: entry {code!r}: duplicate country"
        for code in sorted({c for c in codes if codes.count(c) > 1})
    ]
    fallback = knowledge.country_costs(costs.fallback)
    if fallback is None:
        return [*problems, f"{where}: field fallback: no country {costs.fallback!r}"]
    if not fallback.documents or not fallback.electricity_per_kwh or fallback.rack_per_month is None:
        problems.append(
            f"{where}: entry {fallback.country!r}: the fallback is the documents' figures, "
            "with electricity and a rack"
        )
    else:
        usd_per_kwh = sum(p.value * knowledge.usd_per(p.currency) for p in fallback.electricity_per_kwh)
        rack = fallback.rack_per_month.value * knowledge.usd_per(fallback.rack_per_month.currency)
        for server in knowledge.own_hardware.servers:
            if abs(server.usd_per_kwh - usd_per_kwh) > 1e-9 or (
                server.housing == "datacenter" and abs(server.rack_usd_per_month - rack) > 1e-9
            ):
                problems.append(
                    f"{directory / 'own_hardware.yaml'}: entry {server.id!r}: usd_per_kwh and "
                    f"rack_usd_per_month must be the documents' figures of {costs.fallback} "
                    "in cost_defaults.yaml"
                )
    documents = {d.id for d in knowledge.documents.documents}
    rates = {"USD", "EUR"} | {
        r.to_currency for r in knowledge.exchange_rates.rates if r.from_currency == "EUR"
    }
    for country in costs.countries:
        figures = [
            *country.electricity_per_kwh,
            *(
                f
                for f in (
                    country.rack_per_month,
                    country.colocation_per_kw_month,
                    country.staff_salary_per_year,
                )
                if f
            ),
        ]
        for figure in figures:
            if figure.currency not in rates:
                problems.append(f"{where}: entry {country.country!r}: no exchange rate for {figure.currency}")
            if figure.source.document is not None and figure.source.document not in documents:
                problems.append(
                    f"{where}: entry {country.country!r}: unknown document {figure.source.document!r}"
                )
    lives = {12 * years for years in costs.depreciation.years}
    problems += [
        f"{directory / 'own_hardware.yaml'}: entry {server.id!r}: months must be one of the "
        "depreciation years"
        for server in knowledge.own_hardware.servers
        if server.months not in lives
    ]
    if costs.yours is not None:
        problems.append(f"{where}: field yours: set from an overrides file only")
    return problems + vat_unstated(knowledge, directory)


def vat_unstated(knowledge: Knowledge, directory: Path) -> list[str]:
    """Every power price of a country with a VAT rate says what its source says of VAT (``vat``): a company
    there that cannot recover it has it added, and the note words it for both cases."""
    where = directory / "cost_defaults.yaml"
    return [
        f"{where}: entry {country.country!r}: electricity_per_kwh {index}: give vat (excluded or "
        "not_stated): the country has a VAT rate in vat_rates.yaml"
        for country in knowledge.cost_defaults.countries
        if knowledge.vat_rates.of(country.country) is not None
        for index, figure in enumerate(country.electricity_per_kwh)
        if figure.vat is None
    ]
