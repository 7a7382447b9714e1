"""What a priced fleet reports: a mixed fleet's and an hourly-scaled fleet's billing as the results and
the memo show them, and a mixed fleet as one option of the options table."""

from __future__ import annotations

from statistics import mean

from gpu_advisor.engine.calc.fleets import AutoscaledFleet, MixedFleet
from gpu_advisor.engine.calc.listings import instance_counts, to_option
from gpu_advisor.engine.domain.fleets import AutoscaledFleetBilling, MixedFleetBilling
from gpu_advisor.engine.domain.results import Option


def autoscaled_billing(fleet: AutoscaledFleet, undercuts_recommendation: bool) -> AutoscaledFleetBilling:
    """``undercuts_recommendation``: as the economics details worked it out once the decision was settled
    (``undercuts``)."""
    listing = fleet.listing.listing
    return AutoscaledFleetBilling(
        provider=listing.offer.provider,
        offer=listing.offer.offer,
        gpu=listing.offer.gpu,
        cards_per_replica=fleet.listing.plan.cards_per_replica,
        usd_per_gpu_hour=listing.usd_per_gpu_hour,
        replicas_by_hour=fleet.replicas_by_hour,
        gpus_rented_max=fleet.gpus_rented_max,
        gpu_hours_per_month=fleet.gpu_hours_per_month,
        usd_per_month=fleet.usd_per_month,
        undercuts_recommendation=undercuts_recommendation,
    )


def undercuts(usd_per_month: float, recommended_usd_per_month: float | None, noise_share: float) -> bool:
    """A bill below the recommendation's by at least ``noise_share`` of it (``saving_worth_mentioning``):
    a smaller gap is noise next to price dates and discounts. DEP032's message and the memo's Summary read
    it (``autoscaled_undercuts_recommendation``, ``AutoscaledFleetBilling.undercuts_recommendation``)."""
    return bool(recommended_usd_per_month) and (
        0 < usd_per_month <= (recommended_usd_per_month or 0.0) * (1 - noise_share)
    )


def fleet_billing(fleet: MixedFleet) -> MixedFleetBilling:
    base, peak = fleet.base.listing, fleet.peak.listing
    return MixedFleetBilling(
        cards_per_replica=fleet.base.plan.cards_per_replica,
        replicas_by_hour=fleet.replicas_by_hour,
        loss_replicas=fleet.loss_replicas,
        base_provider=base.offer.provider,
        base_offer=base.offer.offer,
        base_commitment_months=base.offer.commitment_months,
        base_usd_per_gpu_hour=base.usd_per_gpu_hour,
        base_replicas=fleet.base_replicas,
        base_replicas_hosted=fleet.base_replicas_hosted,
        base_gpus_rented=fleet.base_gpus_rented,
        base_instances=instance_counts(fleet.base_instances),
        base_usd_per_month=fleet.base_usd_per_month,
        peak_provider=peak.offer.provider,
        peak_offer=peak.offer.offer,
        peak_pricing=peak.offer.pricing,
        peak_usd_per_gpu_hour=peak.usd_per_gpu_hour,
        peak_gpus_rented_max=fleet.peak_gpus_rented_max,
        peak_instances_max=instance_counts(fleet.peak_busiest.instances if fleet.peak_busiest else ()),
        peak_gpu_hours_per_month=fleet.peak_gpu_hours_per_month,
        peak_usd_per_month=fleet.peak_usd_per_month,
    )


def fleet_option(fleet: MixedFleet, calendar_hours: float) -> Option:
    """The mixed fleet as an option: its base's offer, price, term and provider, the replicas, cards and
    instances of its busiest hour (the instance sizes of both its offers), the load's shares of its
    replicas, and the whole fleet's monthly cost; ``fleet`` says how it bills."""
    plan = fleet.base.plan
    cards = plan.cards_per_replica
    busiest = max(fleet.replicas_by_hour)
    peak = fleet.peak_busiest
    # The busiest hour's instances: the base's and the hourly ones beside them, one list by size (the
    # base's offer and the peak's may sell the same size); ``fleet`` tells the two apart.
    sizes: dict[int, int] = {}
    for size, count in (*fleet.base_instances, *(peak.instances if peak else ())):
        sizes[size] = sizes.get(size, 0) + count
    instances = tuple(sorted(sizes.items(), reverse=True))
    hosted = fleet.base_replicas_hosted + (peak.replicas_hosted if peak else 0)
    return to_option(fleet.base).model_copy(
        update={
            "gpus": busiest * cards,
            "gpus_rented": fleet.base_gpus_rented + fleet.peak_gpus_rented_max,
            "instances": instance_counts(instances),
            "replica_room": max(0, hosted - busiest),
            # Its replicas change by the hour, over two offers' instances: not worked out (the memo's
            # loss sentences are the best single rental's).
            "replicas_on_fullest_instance": 0,
            "instances_covering_a_loss_at_no_cost": 0,
            # The busiest hour's replicas beyond what its load needs: the spares, and those the loss of
            # an instance carrying several takes (``cheapest_split``'s ``survive_loss``).
            "spare_replicas": busiest - plan.replicas_for_peak,
            # The load's share of what the replicas running hour by hour deliver on average over the
            # served hours, and at the peak of what the busiest hour's deliver (not the base plan's count).
            "utilization": plan.utilization
            * plan.replicas
            / mean(count for count in fleet.replicas_by_hour if count),
            "capacity_utilization_at_peak": plan.capacity_utilization_at_peak * plan.replicas / busiest,
            "instance_gpus": tuple(
                sorted({*fleet.base.listing.offer.instance_gpus, *fleet.peak.listing.offer.instance_gpus})
            ),
            "replicas": busiest,
            "usd_per_hour": fleet.usd_per_month / calendar_hours,
            "billed_hours_per_month": calendar_hours,
            "usd_per_month": fleet.usd_per_month,
            "fleet": fleet_billing(fleet),
        }
    )
