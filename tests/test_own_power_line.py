"""The documents' power line charges an owned server's rated draw in every hour of the month; the memo
says what that leaves out (idle cards draw less, cooling is on top), so neither reader takes it for a
measured figure."""

from __future__ import annotations

import pytest
from helpers import run
from test_next_server import CHAT, IN_HOUSE

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

LINE = (
    "- The power line counts each server at the draw it is costed with (7.28 kW: its cards' rated power "
    "plus 30 % for the rest of the server) in all 730 hours of the month, busy or idle. Idle, a GPU server "
    "draws about 20 % of its rating by the estimate TCO028 reads, and a real server's draw is what its "
    "management controller reports: the comparison keeps the documents' line."
)
COOLING = (
    " The cooling the room adds on top of that draw is not counted either: the line may be off either way.\n"
)


def test_the_assumptions_say_what_the_power_line_leaves_out() -> None:
    result = run(IN_HOUSE)
    # 8 cards x 700 W x 1.3 for the rest of the server: 7.28 kW.
    assert result.own_hardware.costs is not None
    assert result.own_hardware.costs.node_kw == pytest.approx(8 * 0.7 * 1.3)
    # In the building (the data may not leave it): the room's cooling is the company's to pay.
    assert LINE + COOLING in render_memo(result)
    # In a data centre (rack or colocation) the housing price is taken to carry the cooling: not said.
    hosted = render_memo(run({**IN_HOUSE, "on_premises_required": False, "personal_data": False}))
    assert LINE + "\n" in hosted and COOLING not in hosted


def test_the_idle_share_is_the_catalogs_figure() -> None:
    """The idle share the sentence names is knowledge/own_hardware.yaml's ``idle_power_share`` (0.20),
    not words of the template: a catalog that says 0.25 is read as "about 25 %"."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    knowledge = load_knowledge()
    own = knowledge.own_hardware
    share = own.idle_power_share.model_copy(update={"value": 0.25})
    own = own.model_copy(update={"idle_power_share": share})
    changed = knowledge.model_copy(update={"own_hardware": own})
    memo = render_memo(run(IN_HOUSE, knowledge=changed))
    assert LINE.replace("about 20 %", "about 25 %") + COOLING in memo


def test_no_power_line_where_no_own_server_is_priced() -> None:
    """DeepSeek-R1 in BF16 (1,342 GB of weights): no server of the catalog holds it, so no own server is
    priced and its power is not spoken of."""
    result = run({**CHAT, "model": {"name": "deepseek-r1", "precision": "bf16"}, "requests_per_day": 1000})
    assert not result.own_hardware.applicable
    assert "The power line counts" not in render_memo(result)


def test_a_tariff_sold_for_less_than_the_servers_draw_is_said_to_be_exceeded() -> None:
    """The Swiss power price is EKZ's tariff for business customers under 100,000 kWh a year. Two HGX
    servers at 7.28 kW draw 2 x 7.28 x 730 x 12 = 127,546 kWh a year: outside it. One draws 63,773:
    within it, nothing said."""
    swiss = run({**IN_HOUSE, "company_country": "CH"})
    assert swiss.own_hardware.nodes == 2
    assert swiss.own_hardware.kwh_per_year == pytest.approx(2 * 7.28 * 730 * 12)
    said = (
        "The power price is a tariff for up to 100,000 kWh a year; the 2 servers costed draw about 127,546 "
        "kWh a year at their full draw: EKZ publishes separate tariffs for business customers from 100 MWh "
        "a year, not read here, and a consumer of more than 100,000 kWh a year may buy its electricity on "
        "the free market instead, with market access since 2009 (VSE). Ask your utility for its price."
    )
    assert said in " ".join(render_memo(swiss).split())
    german = (
        "kWh im Jahr: die EKZ veröffentlicht eigene Tarife für Geschäftskunden ab 100 MWh im Jahr, hier "
        "nicht gelesen, und ein Verbraucher von mehr als 100.000 kWh im Jahr kann seinen Strom stattdessen "
        "am freien Markt kaufen, mit Marktzugang seit 2009 (VSE). Fragen Sie Ihren Versorger nach seinem "
        "Preis."
    )
    assert german in " ".join(render_memo(swiss, Format.named("de")).split())
    one = run({**IN_HOUSE, "company_country": "CH", "business_critical": False, "requests_per_day": 20_000})
    assert one.own_hardware.nodes == 1 and one.own_hardware.kwh_per_year < 100_000
    assert "The power price is a tariff" not in render_memo(one)
    # The German price has no band.
    assert "The power price is a tariff" not in render_memo(run(IN_HOUSE))
