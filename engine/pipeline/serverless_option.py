"""A priced serverless listing as an option of the result, beside the rentals: its bill, how the month is
billed, and the replicas of its instances sharing a batch's run."""

from __future__ import annotations

from gpu_advisor.engine.calc.batch_run import replica_share
from gpu_advisor.engine.calc.serverless import serverless_billing
from gpu_advisor.engine.calc.traffic import SECONDS_PER_HOUR
from gpu_advisor.engine.common.trusted import trusted
from gpu_advisor.engine.domain.results import Option, PriceOrigin
from gpu_advisor.engine.pipeline.serverless import PricedServerless


def serverless_option(priced: PricedServerless, busy_share: float | None = None) -> Option:
    listing, plan, bill, excluded = priced
    per_instance = bill.priced.size // plan.cards_per_replica
    attributes = listing.attributes
    billing = serverless_billing(listing, bill)
    return trusted(
        Option,
        provider=listing.product.provider,
        offer=listing.product.id,
        gpu=listing.gpu.gpu,
        jurisdiction=listing.jurisdiction,
        regions=(listing.region,),
        countries=listing.countries,
        gpus=bill.priced.instances_at_peak * billing.instance_gpus,
        gpus_rented=bill.priced.instances_at_peak * billing.instance_gpus,
        replicas=bill.priced.instances_at_peak,
        utilization=min(1.0, bill.priced.work_hours / bill.billed_hours_per_month),
        usd_per_gpu_hour=bill.usd_per_instance_hour / bill.priced.size,
        currency="USD",
        list_price_per_gpu_hour=None,
        price_basis="list",
        usd_per_hour=bill.usd_per_instance_hour,
        billed_hours_per_month=bill.billed_hours_per_month,
        usd_per_month=bill.usd_per_month,
        eu=attributes["eu"],
        pricing="serverless",
        commitment_months=None,
        interconnect=attributes["interconnect"],
        provider_kind=attributes["provider_kind"],
        enterprise_sla=attributes["enterprise_sla"],
        chosen=False,
        excluded_by=excluded,
        as_of=listing.product.as_of,
        source=listing.source,
        note=listing.product.note,
        gpu_note=listing.gpu.note,
        capacity_utilization_at_peak=bill.priced.capacity_utilization_at_peak,
        spare_replicas=bill.priced.spare_replicas,
        hours_per_day_running=bill.priced.hours_per_day_running,
        # The instances' replicas share the run, as a rental's do (``calc.serverless.product_month``).
        run_start_hours=bill.priced.cold / SECONDS_PER_HOUR
        if bill.priced.hours_per_day_running is not None
        else None,
        run_requests_per_replica=replica_share(
            plan.run_requests, bill.priced.instances_at_peak * per_instance
        )
        if plan.run_requests
        else None,
        # Counted in the cold starts of the serverless bill.
        weights_load_hours=None,
        engine_start_hours=None,
        busy_share=busy_share,
        serverless=billing,
        fleet=None,
        instance_gpus=(),
        instances=(),
        replica_room=0,
        replicas_on_fullest_instance=0,
        instances_covering_a_loss_at_no_cost=0,
        latency_targets_usd_per_month=None,
        throughput_alone=None,
        spare_usd_per_month=None,
        price_origin=trusted(
            PriceOrigin, kind="catalog", file=None, format=None, as_of=listing.product.as_of
        ),
        spot_overhead=0.0,
        rework_replicas=0,
    )
