"""What the knowledge base says about a workload's own fields: the part of the workload facts that is not
copied from ``ResolvedWorkload`` (``facts.WorkloadFacts`` adds the rest)."""

from __future__ import annotations

from typing import Annotated

from gpu_advisor.engine.domain.choices import PersonalDataRegion
from gpu_advisor.engine.rulebook.fact_base import Fact, Guard


class WorkloadContext(Fact):
    """What the knowledge base says about a workload's own fields (the rest of ``WorkloadFacts`` is
    derived from ``ResolvedWorkload``)."""

    schedule_hours_per_month: float
    calendar_hours_per_month: float
    """The hours a reservation bills and an owned machine stands: the around-the-clock schedule's."""
    requests_per_schedule_day: float
    """The requests a day of the schedule on average: ``requests_per_day`` for a service; a batch's day of
    work times its runs over the schedule's days (a weekly job on workdays: a fifth of one run). The
    documents' volume lines (10,000 and 100,000 a day) read this."""
    paid_share_of_calendar: float
    """The paid hours' share of the calendar hours: a reservation bills every calendar hour, so it costs
    less than paying by the hour only where this share is above its price's share of the hourly price."""
    schedule_has_days_off: bool = False
    """The schedule serves fewer days a month than the calendar has (workdays: weekends off)."""
    min_replicas_given: bool
    """The workload states its min_replicas (which then replaces the spare replica rules add)."""
    latency_sensitive_given: bool
    """The workload states latency_sensitive (else the default, yes, applies)."""
    devops_capacity_given: bool = True
    """The workload states devops_capacity (else the default, yes, applies)."""
    latency_targets_given: bool
    """The workload has a latency target (one given, or the default for latency-sensitive work)."""
    latency_targets_stated: bool = False
    """The workload file states a latency target itself (not the default for latency-sensitive work)."""
    export_restricted_country: bool
    company_region: PersonalDataRegion
    """The data-protection region of the company's country (knowledge/data_protection.yaml): the law of
    its establishment, beside the region of the people whose data it is (``personal_data_region``)."""
    company_vat_rate_known: bool = True
    """The catalog has the company country's standard VAT rate (knowledge/vat_rates.yaml): a workload that
    cannot recover input VAT (``input_vat_recoverable``) has its purchases priced with it, else net."""
    is_moe: bool
    batch: bool = False
    """The workload's work waits for its GPUs (a batch's load pattern): it has a window and runs a month."""
    batch_window_hours: Annotated[float, Guard("batch")] = 0.0
    """A batch's window (``ResolvedWorkload.batch_window_hours``; a service has none)."""
    batch_runs_per_month: Annotated[float, Guard("batch")] = 0.0
    context_is_average_request: bool = False
    """context_tokens is left out and an average request outgrows the default window, which grows to it."""
    profile_given: bool
    """The workload gives its own load_profile (else its load pattern's applies)."""
    profile_share_outside_schedule: float
    """The share of a day's requests that the load profile puts outside the schedule's served hours; the
    requests are taken to arrive in the served hours, so that share is carried by them."""
    profile_share_outside_paid_hours: float = 0.0
    profile_idle_served_hours: int = 0
    """The requests' share outside the busiest paid hours (fewer paid than served); the served hours a day
    the load profile has no requests in (``calc.traffic``)."""
