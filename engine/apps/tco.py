"""``tco``: an owned 8-GPU server's cost per GPU-hour and its break-even against every offer."""

from __future__ import annotations

from gpu_advisor.engine.calc.costs import ServerAssumptions, break_even_utilization, own_hardware_cost
from gpu_advisor.engine.calc.own_hardware import per_gpu_hour
from gpu_advisor.engine.domain.knowledge.base import Knowledge, cite
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.requests import TcoRequest
from gpu_advisor.engine.domain.results import BreakEven, TcoResult, TcoScenario


def tco(request: TcoRequest | None = None, knowledge: Knowledge | None = None) -> TcoResult:
    """Own 8-GPU server cost per GPU-hour in three lines, and break-even utilization against every
    catalog offer of the same GPU; ``request`` replaces any of the server's assumptions."""
    knowledge = knowledge or load_knowledge()
    server = knowledge.own_server()
    overrides = request.replaced() if request is not None else {}
    assumptions = ServerAssumptions.from_server(server).model_copy(update=overrides)
    cost = own_hardware_cost(assumptions)
    lines = per_gpu_hour(assumptions)
    break_even = tuple(
        BreakEven(
            provider=offer.provider,
            offer=offer.offer,
            gpu=offer.gpu,
            pricing=offer.pricing,
            usd_per_gpu_hour=offer.usd_per_gpu_hour,
            utilization=break_even_utilization(cost.total, offer.usd_per_gpu_hour),
            as_of=offer.as_of,
        )
        for offer in sorted(
            (o for o in knowledge.offers.offers if o.gpu == server.gpu),
            key=lambda o: (o.usd_per_gpu_hour, o.provider, o.offer),
        )
    )
    scenarios = tuple(
        TcoScenario(
            name=name,
            server_price_usd=price,
            residual=residual,
            usd_per_gpu_hour=per_gpu_hour(
                assumptions.model_copy(update={"server_price_usd": price, "residual": residual})
            ),
        )
        for name, price, residual in (
            ("low price", server.price_usd_low, assumptions.residual),
            ("high price", server.price_usd_high, assumptions.residual),
            ("residual value", assumptions.server_price_usd, server.residual_share_scenario),
        )
    )
    return TcoResult(
        server=server.id,
        gpu=server.gpu,
        server_price_usd=assumptions.server_price_usd,
        gpus_per_server=assumptions.gpus_per_server,
        months=assumptions.months,
        hours_per_month=assumptions.hours_per_month,
        hours_written_off=cost.hours_written_off,
        gpu_watts=assumptions.gpu_watts,
        power_overhead=assumptions.power_overhead,
        node_kw=cost.node_kw,
        usd_per_kwh=assumptions.usd_per_kwh,
        rack_usd_per_month=assumptions.rack_usd_per_month,
        residual=assumptions.residual,
        power_usd_per_month=cost.power_usd_per_month,
        server_usd_per_month=cost.server_usd_per_month,
        usd_per_gpu_hour=lines,
        break_even=break_even,
        scenarios=scenarios,
        overridden=tuple(sorted(overrides)),
        source=cite(server.source, knowledge),
        as_of=server.as_of,
    )
