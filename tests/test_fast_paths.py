"""The shortcuts that keep a recommendation in milliseconds give what the plain ways give: models built
without validation, per-object caches, the decision without its texts, facts rewritten for the engine,
and rule messages compiled through the bytecode cache."""

from __future__ import annotations

import datetime as dt
import typing
from typing import Any

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR
from hypothesis import HealthCheck, given, settings
from test_robustness import valid_workloads

from gpu_advisor.engine.apps.recommend import decide_workload, recommend
from gpu_advisor.engine.calc.performance import replica_performances
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.common.caching import clear_caches, per_object
from gpu_advisor.engine.common.errors import EngineError, InputError
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import PriceDate, Recommendation
from gpu_advisor.engine.domain.workload import load_workload, validate_workload
from gpu_advisor.engine.i18n.environment import MessageLoader
from gpu_advisor.engine.pipeline.fit import gpu_fit_facts
from gpu_advisor.engine.rulebook.durable import RulesEngine, fired_rule_name
from gpu_advisor.engine.rulebook.facts import FACT_MODELS, GpuFitFact, _float_fields
from gpu_advisor.engine.rulebook.loading import load_rulebook

PRICE_DATE = {
    "document": "cloud-gpu-costs-2026",
    "title": "Cloud GPU costs",
    "as_of": dt.date(2026, 3, 27),
    "used_for": "GPU offers",
    "origin": None,
}


# --- trusted --------------------------------------------------------------------------------------------


def test_a_trusted_model_equals_the_validated_one_and_serializes_alike() -> None:
    built = trusted(PriceDate, **PRICE_DATE)
    validated = PriceDate(**PRICE_DATE)
    assert built == validated
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_fields_set == validated.model_fields_set


def test_a_trusted_model_keeps_the_field_order_whatever_the_call_order() -> None:
    built = trusted(PriceDate, **dict(reversed(PRICE_DATE.items())))
    assert list(built.model_dump()) == ["document", "title", "as_of", "used_for", "origin"]


def test_a_trusted_model_names_missing_and_unknown_fields() -> None:
    values = {key: value for key, value in PRICE_DATE.items() if key != "title"}
    with pytest.raises(TypeError, match=r"PriceDate: missing fields \['title'\], unknown fields \['titel'\]"):
        trusted(PriceDate, **values, titel="x")


# --- per-object caches ----------------------------------------------------------------------------------


class Box:
    def __init__(self, value: int) -> None:
        self.value = value


def test_per_object_caches_by_identity_and_by_value_for_strings_and_numbers() -> None:
    calls: list[tuple[Any, ...]] = []

    @per_object
    def work(box: Box, label: str, factor: float) -> float:
        calls.append((box, label, factor))
        return box.value * factor

    first, twin = Box(2), Box(2)
    label = "".join(["lab", "el"])
    assert work(first, label, 1.5) == 3.0
    same_label = "".join(["la", "bel"])
    assert same_label is not label
    assert work(first, same_label, 1.5) == 3.0  # an equal string, another object: cached
    assert work(twin, label, 1.5) == 3.0  # an equal but other object: worked out again
    assert work(first, label, 2.0) == 4.0
    assert work(first, label, 2) == 4.0  # an int is not the float of the same value
    assert len(calls) == 4


def test_a_cached_object_is_kept_alive_so_its_id_cannot_come_back() -> None:
    import gc
    import weakref

    @per_object
    def work(box: Box) -> int:
        return box.value

    box = Box(7)
    alive = weakref.ref(box)
    work(box)
    del box
    gc.collect()
    assert alive() is not None


def test_a_one_argument_cache_holds_a_bounded_number_of_objects() -> None:
    calls: list[Box] = []

    @per_object
    def work(box: Box) -> int:
        calls.append(box)
        return box.value

    boxes = [Box(index) for index in range(40)]
    assert [work(box) for box in boxes] == list(range(40))
    assert work(boxes[-1]) == 39
    assert len(calls) == 40
    assert work(boxes[0]) == 0  # long dropped: worked out again
    assert len(calls) == 41


def test_a_cache_can_be_given_its_size_and_every_cache_can_be_emptied() -> None:
    calls: list[int] = []

    @per_object(entries=3)
    def work(box: Box, factor: int) -> int:
        calls.append(box.value)
        return box.value * factor

    box = Box(5)
    assert [work(box, factor) for factor in (1, 2, 3)] == [5, 10, 15]
    assert work(box, 3) == 15 and len(calls) == 3  # still held
    assert work(box, 4) == 20  # the fourth entry starts the cache over
    assert work(box, 1) == 5 and len(calls) == 5
    clear_caches()
    assert work(box, 1) == 5 and len(calls) == 6


# --- calculators cached per model ------------------------------------------------------------------------


def test_a_sizing_is_worked_out_once_per_model_precision_and_context_and_per_knowledge_base() -> None:
    knowledge = load_knowledge()
    model = knowledge.model("llama-3.1-70b")
    figures = size_model(knowledge, 70.6, 70.6, "fp8", model, 8192)
    assert size_model(knowledge, 70.6, 70.6, "fp8", model, 8192) is figures
    assert size_model(knowledge, 70.6, 70.6, "bf16", model, 8192) is not figures
    assert size_model(knowledge, 70.6, 70.6, "fp8", model, 4096) is not figures
    copy = knowledge.model_copy()
    assert size_model(copy, 70.6, 70.6, "fp8", model, 8192) is not figures
    performances = replica_performances(knowledge, figures, 500, 300)
    assert replica_performances(knowledge, figures, 500, 300) is performances
    assert replica_performances(knowledge, figures, 500, 301) is not performances
    facts = gpu_fit_facts(knowledge, figures, "workload")
    assert gpu_fit_facts(knowledge, figures, "workload") is facts
    assert [fact.scenario for fact in gpu_fit_facts(knowledge, figures, "quantized")] == ["quantized"] * len(
        facts
    )


CACHE_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"context_tokens": 6000},
    {"avg_input_tokens": 700, "avg_output_tokens": 90},
    {"model": {"precision": "int8"}},
)
"""Each changes one input of the cached calculators: context (sizing), token counts (replica
performance), precision (sizing and GPU-fit facts)."""


def cache_variant_workloads() -> list[Any]:
    import yaml

    workloads = []
    for path in sorted(EXAMPLES_DIR.glob("*.yaml")):
        base = yaml.safe_load(path.read_text(encoding="utf-8"))
        for change in CACHE_VARIANTS:
            data = {**base, **change}
            if "model" in change:
                data["model"] = {**base["model"], **change["model"]}
            workloads.append(validate_workload(data, path.stem))
    return workloads


def test_recommendations_from_cached_calculations_are_the_ones_worked_out_afresh() -> None:
    """A cache key that left out an input would hand one variant another's figures: every variant,
    run after all the others have filled the caches, must equal its run from empty caches."""
    workloads = cache_variant_workloads()
    afresh = []
    for workload in workloads:
        clear_caches()
        afresh.append(recommend(workload, EVALUATED_ON).model_dump_json())
    assert len(set(afresh)) == len(workloads)  # every variant changes the result
    for workload in workloads:
        recommend(workload, EVALUATED_ON)
    assert [recommend(w, EVALUATED_ON).model_dump_json() for w in reversed(workloads)] == afresh[::-1]


# --- the decision without its texts ---------------------------------------------------------------------


def assert_same_decision(data: dict[str, Any]) -> None:
    workload = validate_workload(data, "test")
    try:
        full = recommend(workload, EVALUATED_ON)
    except InputError:
        with pytest.raises(InputError):
            decide_workload(workload, EVALUATED_ON)
        return
    # Models built without validation hold what validation accepts: the result read back from its JSON
    # is the same result (a value outside a literal or a bound would fail here).
    written = full.model_dump_json()
    assert Recommendation.model_validate_json(written).model_dump_json() == written
    summary = decide_workload(workload, EVALUATED_ON)
    assert summary.workload == full.workload.name
    assert summary.decision == full.decision
    assert summary.fired_rules == full.fired_rules
    attention = [f.rule_id for f in full.findings if f.severity in ("critical", "warning")]
    assert summary.attention == tuple(dict.fromkeys(attention))


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_the_decision_alone_is_the_recommendations_decision_for_every_example(path: Any) -> None:
    """Also: the result, written as JSON and validated, is the same result."""
    import yaml

    assert_same_decision(yaml.safe_load(path.read_text(encoding="utf-8")))


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_workloads)
def test_the_decision_alone_is_the_recommendations_decision_for_any_workload(data: dict[str, Any]) -> None:
    assert_same_decision(data)


# --- facts for the engine -------------------------------------------------------------------------------


def float_typed(annotation: Any) -> bool:
    return annotation is float or float in typing.get_args(annotation)


@pytest.mark.parametrize("kind", sorted(FACT_MODELS))
def test_every_float_field_of_a_fact_is_rewritten_for_the_engine(kind: str) -> None:
    model = FACT_MODELS[kind]
    floats = {name for name, field in model.model_fields.items() if float_typed(field.annotation)}
    assert floats == set(_float_fields(model))


def fact_on(**changes: Any) -> GpuFitFact:
    values: dict[str, Any] = {
        "scenario": "workload",
        "gpu": "h100-sxm",
        "vendor": "nvidia",
        "interconnect": "nvlink",
        "segment": "datacenter",
        "memory_gb": 80.0,
        "weights_gb": 140.0,
        "gpus_for_weights": 2,
        "gpus_with_kv_reserve": 4,
        "multi_card": True,
        "fits": True,
        "needs_two_nodes": False,
        "node_memory_gb": 640.0,
        "native_precision": True,
        "reference_gpus": 4,
        "tensor_parallel": 4,
        "tensor_split_refused": False,
        "tensor_parallel_loadable": 4,
    }
    return GpuFitFact(**{**values, **changes})


def test_a_fact_payload_rewrites_only_numbers_the_engine_cannot_read() -> None:
    payload = fact_on(weights_gb=3e-6, node_memory_gb=2.5e16).payload()
    assert payload["memory_gb"] == 80.0
    assert payload["weights_gb"] == 0.0
    assert payload["node_memory_gb"] == 25_000_000_000_000_000
    assert isinstance(payload["node_memory_gb"], int)
    assert list(payload) == list(GpuFitFact.model_fields)


def test_the_engine_names_the_rules_that_fire_and_an_unknown_name_is_an_engine_error() -> None:
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    with engine.session() as session:
        firings = session.assert_fact(fact_on(interconnect="pcie"))
    assert [f.rule_id for f in firings] == ["NET001"]
    known = {"DEP001": None}
    assert fired_rule_name('{"DEP001":{"m":{"sid": "1"}}}', known) == "DEP001"
    for message in ("[1, 2]", '{"DEP001', '{"XYZ999":{"m":{}}}'):
        with pytest.raises(EngineError, match="could not name"):
            fired_rule_name(message, known)


def test_one_fact_object_asserted_in_many_sessions_fires_alike_and_its_firings_show_the_fact() -> None:
    """The adapter keeps a fact's JSON text with the fact; each session still evaluates it afresh."""
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    fact = fact_on(interconnect="pcie")
    for _ in range(3):
        with engine.session() as session:
            firings = session.assert_fact(fact)
            assert [f.rule_id for f in firings] == ["NET001"]
            assert dict(firings[0].fact) == fact.payload()  # no session ID in it
            assert session.assert_fact(fact_on(interconnect="nvlink")) == []


def test_the_same_fact_twice_in_one_evaluation_is_an_engine_error() -> None:
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    with engine.session() as session:
        session.assert_fact(fact_on(interconnect="pcie"))
        with pytest.raises(EngineError, match="same fact asserted twice"):
            session.assert_fact(fact_on(interconnect="pcie"))
    shared = fact_on(interconnect="pcie")
    assert shared.shared_between_evaluations  # its JSON text is kept: the cached path
    with engine.session() as session:
        session.assert_fact(shared)
        with pytest.raises(EngineError, match="same fact asserted twice"):
            session.assert_fact(shared)
    with engine.session() as session:  # the engine goes on
        assert [f.rule_id for f in session.assert_fact(fact_on(interconnect="pcie"))] == ["NET001"]


# --- rule messages through the bytecode cache ----------------------------------------------------------


RUN_EXAMPLE = (
    "import datetime as dt, sys;"
    "from gpu_advisor.engine.apps.recommend import recommend;"
    "from gpu_advisor.engine.domain.workload import load_workload;"
    "recommend(load_workload(sys.argv[1]), dt.date(2026, 11, 30))"
)


def run_example(name: str) -> None:
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", RUN_EXAMPLE, str(EXAMPLES_DIR / f"{name}.yaml")], check=True)


def cache_file(message: str) -> str:
    """Where Jinja's file cache keeps a rule message: named after the template name it is loaded by."""
    import hashlib

    name = MessageLoader.PREFIX + hashlib.sha256(message.encode("utf-8")).hexdigest()
    return f"__jinja2_{hashlib.sha1(name.encode('utf-8')).hexdigest()}.cache"


def test_rule_messages_are_kept_compiled_between_runs(tmp_path: Any, monkeypatch: Any) -> None:
    """A fresh process compiles each fired rule's message once and finds it in the cache the next time."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    run_example("public-chat")
    directory = tmp_path / "gpu-advisor" / "jinja"
    rulebook = load_rulebook()
    fired = recommend(validate_workload(_example("public-chat"), "test"), EVALUATED_ON).fired_rules
    expected = {cache_file(rulebook.rule(rule_id).message) for rule_id in fired}
    assert expected <= {path.name for path in directory.iterdir()}
    stamps = {path.name: path.stat().st_mtime_ns for path in directory.iterdir()}
    run_example("public-chat")
    assert {path.name: path.stat().st_mtime_ns for path in directory.iterdir()} == stamps


def test_a_cache_directory_gone_after_start_up_costs_a_compile_not_the_run(
    tmp_path: Any, monkeypatch: Any
) -> None:
    import shutil
    import subprocess
    import sys

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    script = (
        "import datetime as dt, shutil, sys;"
        "from gpu_advisor.engine.apps.recommend import recommend;"
        "from gpu_advisor.engine.domain.workload import load_workload;"
        "recommend(load_workload(sys.argv[1]), dt.date(2026, 11, 30));"
        "shutil.rmtree(sys.argv[3]);"
        "print(len(recommend(load_workload(sys.argv[2]), dt.date(2026, 11, 30)).findings))"
    )
    directory = tmp_path / "gpu-advisor"
    paths = [str(EXAMPLES_DIR / "prototype.yaml"), str(EXAMPLES_DIR / "deepseek-on-premises.yaml")]
    done = subprocess.run(
        [sys.executable, "-c", script, *paths, str(directory)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    expected = recommend(validate_workload(_example("deepseek-on-premises"), "test"), EVALUATED_ON)
    assert int(done.stdout) == len(expected.findings)
    assert not directory.exists()
    shutil.rmtree(tmp_path)


def _example(name: str) -> dict[str, Any]:
    import yaml

    return yaml.safe_load((EXAMPLES_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


def test_what_is_worked_out_once_per_knowledge_base_follows_a_modified_copy() -> None:
    """Sweeps and price overrides recommend with modified copies of the knowledge base; each copy gets
    its own listings, server costs and price dates, and the shipped one keeps its own."""
    from gpu_advisor.engine.calc.listings import listings

    knowledge = load_knowledge()
    workload = validate_workload(_example("deepseek-on-premises"), "test")
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

    summary = decide(_example("public-chat"), EVALUATED_ON)
    assert (
        summary.decision
        == recommend(validate_workload(_example("public-chat"), "test"), EVALUATED_ON).decision
    )
    with pytest.raises(InputError, match="requests_per_day"):
        decide({**_example("public-chat"), "requests_per_day": -1}, EVALUATED_ON)


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
