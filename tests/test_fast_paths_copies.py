"""What is worked out once per knowledge base is shared by modified copies only where they change
nothing it reads (the shortcuts of test_fast_paths.py for sweeps, scenarios and price overrides)."""

from __future__ import annotations

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR, read_example

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.common.caching import clear_caches
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import load_workload, validate_workload
from gpu_advisor.engine.rulebook.loading import load_rulebook


def test_what_is_worked_out_once_per_knowledge_base_follows_a_modified_copy() -> None:
    """Sweeps and price overrides recommend with modified copies of the knowledge base; each copy gets
    its own listings, server costs and price dates, and the shipped one keeps its own."""
    from gpu_advisor.engine.calc.listings import listings

    knowledge = load_knowledge()
    workload = validate_workload(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"), "test")
    before = recommend(workload, EVALUATED_ON, knowledge=knowledge)
    repriced = tuple(o.model_copy(update={"usd_per_gpu_hour": 9.99}) for o in knowledge.offers.offers)
    servers = tuple(
        s.model_copy(update={"price_usd": s.price_usd * 2}) for s in knowledge.own_hardware.servers
    )
    changed = knowledge.model_copy(
        update={
            "offers": knowledge.offers.model_copy(update={"offers": repriced}),
            "own_hardware": knowledge.own_hardware.model_copy(update={"servers": servers}),
        }
    )
    assert {listing.offer.usd_per_gpu_hour for listing in listings(changed)} == {9.99}
    after = recommend(workload, EVALUATED_ON, knowledge=changed)
    premium = knowledge.pricing_assumptions.eu_region_premium.value
    dedicated = {option.usd_per_gpu_hour for option in after.options if option.pricing != "serverless"}
    assert dedicated <= {9.99, 9.99 * (1 + premium)}
    assert after.own_hardware.usd_per_gpu_hour.capital == pytest.approx(
        2 * before.own_hardware.usd_per_gpu_hour.capital
    )
    assert recommend(workload, EVALUATED_ON, knowledge=knowledge) == before


def test_the_library_decides_from_a_mapping() -> None:
    from gpu_advisor.api import decide

    summary = decide(read_example(EXAMPLES_DIR / "public-chat.yaml"), EVALUATED_ON)
    assert (
        summary.decision
        == recommend(
            validate_workload(read_example(EXAMPLES_DIR / "public-chat.yaml"), "test"), EVALUATED_ON
        ).decision
    )
    with pytest.raises(InputError, match="requests_per_day"):
        decide({**read_example(EXAMPLES_DIR / "public-chat.yaml"), "requests_per_day": -1}, EVALUATED_ON)


def test_serverless_listings_are_shared_by_copies_that_change_only_what_they_do_not_read() -> None:
    """A scenario re-prices the offers: its copy of the knowledge base shares the serverless listings
    (and with them their exclusion tables); a copy with other serverless products gets its own."""
    from gpu_advisor.engine.calc.serverless import serverless_listings
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    base = load_knowledge()
    offers = base.offers.model_copy(update={"offers": base.offers.offers[:-1]})
    repriced = base.model_copy(update={"offers": offers})
    assert serverless_listings(repriced) is serverless_listings(base)
    products = base.serverless.model_copy(update={"products": base.serverless.products[:1]})
    other = base.model_copy(update={"serverless": products})
    assert serverless_listings(other) is not serverless_listings(base)
    assert {listing.product.id for listing in serverless_listings(other)} == {base.serverless.products[0].id}


def test_a_re_priced_copy_shares_the_exclusion_tables_of_the_base() -> None:
    """Listings are priced, so a re-priced copy has its own; their attributes, and with them the rules'
    exclusion tables, are the base's. Other providers make other attributes."""
    from gpu_advisor.engine.calc.listings import listings
    from gpu_advisor.engine.pipeline.constraints import _exclusion_tables

    base = load_knowledge()
    scaled = tuple(
        o.model_copy(update={"usd_per_gpu_hour": o.usd_per_gpu_hour * 2}) for o in base.offers.offers
    )
    repriced = base.model_copy(update={"offers": base.offers.model_copy(update={"offers": scaled})})
    assert listings(repriced) is not listings(base)
    assert [a.attributes for a in listings(repriced)] == [a.attributes for a in listings(base)]
    assert _exclusion_tables(listings(repriced)) is _exclusion_tables(listings(base))
    providers = base.providers.model_copy(update={"providers": base.providers.providers})
    other = base.model_copy(update={"providers": providers})
    assert _exclusion_tables(listings(other)) is not _exclusion_tables(listings(base))


def test_a_re_priced_offer_shares_its_listing_frames_and_only_its_price_moves() -> None:
    """A listing's regions, countries, attributes, source and price origin read no price: an offer
    re-priced in a copy of the knowledge base shares its original's frames, and its listings differ from
    the original's in the price alone. An offer with other regions has frames of its own."""
    from gpu_advisor.engine.calc.listing_frames import listing_frames
    from gpu_advisor.engine.calc.listings import listings

    base = load_knowledge()
    scaled = tuple(
        o.model_copy(update={"usd_per_gpu_hour": o.usd_per_gpu_hour * 2}) for o in base.offers.offers
    )
    repriced = base.model_copy(update={"offers": base.offers.model_copy(update={"offers": scaled})})
    for original, copy in zip(base.offers.offers, scaled, strict=True):
        assert listing_frames(copy, repriced) is listing_frames(original, base)
    for before, after in zip(listings(base), listings(repriced), strict=True):
        assert after.usd_per_gpu_hour == 2 * before.usd_per_gpu_hour
        assert after.offer.usd_per_gpu_hour == 2 * before.offer.usd_per_gpu_hour
        assert (after.regions, after.countries, after.source, after.price_origin, after.price_basis) == (
            before.regions,
            before.countries,
            before.source,
            before.price_origin,
            before.price_basis,
        )
    several = next(o for o in base.offers.offers if len(o.regions) > 1)
    fewer = several.model_copy(update={"regions": several.regions[:1]})
    assert listing_frames(fewer, base) is not listing_frames(several, base)
    assert [f.regions for f in listing_frames(fewer, base)] == [several.regions[:1]]


def test_equal_workloads_share_their_capacity_and_another_volume_has_its_own() -> None:
    """Every scenario of one volume sizes the same workload on the same knowledge base: its capacity
    (and with it the replica plans with spares) is worked out once. A scenario's other volume is
    another workload; the capacity worked out afresh is the same."""
    from gpu_advisor.engine.pipeline.capacity import plan_capacity, replica_plans
    from gpu_advisor.engine.pipeline.defaults import complete_workload

    knowledge = load_knowledge()
    workload = load_workload(str(EXAMPLES_DIR / "hr-assistant.yaml"))
    first, second = (complete_workload(workload, knowledge) for _ in range(2))
    assert first is not second and first == second
    capacity = plan_capacity(first, knowledge)
    assert plan_capacity(second, knowledge) is capacity
    assert replica_plans(second, capacity, knowledge, True) == replica_plans(first, capacity, knowledge, True)
    assert (
        replica_plans(second, capacity, knowledge, True).plans
        is replica_plans(first, capacity, knowledge, True).plans
    )
    more = complete_workload(workload.model_copy(update={"requests_per_day": 80000}), knowledge)
    assert plan_capacity(more, knowledge) is not capacity
    assert plan_capacity(more, knowledge).load.peak_requests_per_second == pytest.approx(
        2 * capacity.load.peak_requests_per_second
    )
    clear_caches()
    assert plan_capacity(first, knowledge) == capacity


def test_a_re_priced_server_shares_its_costs_and_only_the_capital_assumption_moves() -> None:
    """The power, housing and staff lines read no price: a scenario's server at a drawn price shares the
    base's costs; its assumptions differ in the server price alone, and a copy worked out afresh agrees."""
    from gpu_advisor.engine.calc.server_costs import server_costs
    from gpu_advisor.engine.domain.knowledge.base import server_priced_at

    knowledge = load_knowledge()
    server = knowledge.own_server()
    drawn = server_priced_at(server, 300000.0)
    base, scenario = server_costs(knowledge, server, "DE"), server_costs(knowledge, drawn, "DE")
    assert scenario.costs is base.costs
    assert scenario.assumptions.server_price_usd == 300000.0
    assert scenario.assumptions.model_copy(update={"server_price_usd": server.price_usd}) == base.assumptions
    clear_caches()
    assert server_costs(knowledge, drawn, "DE") == scenario
    assert server_costs(knowledge, server, "US").costs != base.costs


def test_a_rendered_message_is_reused_only_for_the_same_values_written_the_same_way() -> None:
    """Rule messages are kept by the values they read, with their class; 0.0 and -0.0 are equal (and hash
    alike) but are written "0" and "-0": rendered after 0.0, -0.0 must not get 0.0's text."""
    from gpu_advisor.engine.i18n.formats import Format
    from gpu_advisor.engine.report.findings import finding_texts, render_finding_message

    texts = finding_texts(load_rulebook(), load_knowledge(), "en")
    parts, fmt = texts.rules["DEP001"], Format.named("en", "USD", 1.0)
    zero = render_finding_message(
        parts, texts, {"requests_per_schedule_day": 0.0, "requests_per_day": 0}, fmt
    )
    negative_zero = render_finding_message(
        parts, texts, {"requests_per_schedule_day": -0.0, "requests_per_day": 0}, fmt
    )
    assert zero.startswith("0 requests/day is below")
    assert negative_zero.startswith("-0 requests/day is below")
    again = render_finding_message(
        parts, texts, {"requests_per_schedule_day": 0.0, "requests_per_day": 0}, fmt
    )
    assert again == zero
