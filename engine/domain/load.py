"""The workload's load: when requests arrive, how many at peak, and how much of the time a GPU is needed.

Field names are a contract with other tools (``Recommendation.load``): add freely, never rename.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

BusyShareRoute = Literal["rental", "serverless", "own_hardware", "ruled_out", "reference", "excluded"]


class Load(BaseModel):
    """The workload's load over a served day (``engine/calc/traffic.py`` says how it is worked out)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    hours_per_day: float
    """The hours a day in which requests are served: the schedule's, or for a batch its window (the
    hours within which the day's work must finish, at most the paid hours a day)."""
    average_requests_per_second: float
    """Over the served hours."""
    peak_factor: float
    """peak_requests_per_second over average_requests_per_second."""
    peak_requests_per_second: float
    """The busiest hour's rate times the burst within an hour (the load profile's ``peak_within_hour``):
    what the replicas are sized for. A batch runs flat: its peak is its average."""
    peak_output_tokens_per_second: float
    peak_input_tokens_per_second: float
    schedule_hours_per_month: float
    """The schedule's hours a month, in which requests arrive."""
    calendar_hours_per_month: float
    """Every hour of the month: what a reservation bills, an owned machine stands, and a rental kept
    through the nights costs."""
    served_in_paid_hours: bool
    """The requests wait for the GPUs (a batch): the day's work is processed in the hours it runs."""
    served_share_of_paid_hours: float
    """The paid hours in which requests come, at most 1: below 1 where more hours are paid than the
    schedule serves requests in (or than a batch's window spans), and the cards idle in the rest."""
    paid_hours_per_month: float
    """The workload's paid hours (``hours_per_month``)."""
    served_hours_per_month: float
    """The hours a month in which requests come: the schedule's (a batch: its runs' windows), and every
    paid hour around the clock."""
    requests_share_in_paid_hours: float = 1.0
    """Where fewer hours are paid than requests come in (``hours_per_month`` below the schedule): the share
    of the day's requests in its busiest paid hours, which the GPUs are taken to run in (by the load
    profile; the rest find no GPU, PRC009); 1 where every served hour is paid."""
    busiest_hour_requests_per_second: float
    """The busiest hour's mean rate (a batch: its flat rate)."""
    peak_within_hour: float
    """The busiest minutes' rate over the busiest hour's mean (1 for a batch)."""
    first_hour: int
    """The hour of the day (0 to 23) the served hours start."""
    quiet_hours_per_day: int = 0
    """Served hours in which the load profile sends no request (a given profile of zeros at the
    schedule's edges): requests come in ``hours_per_day`` less these."""
    profile_share_outside_served: float = 0.0
    """The share of a day's requests a workload's own profile puts in hours the schedule does not serve:
    they are taken to arrive in the served hours, shaped there by the profile (KNB015 warns where that is
    most of them); 0 for the published profiles and a batch."""
    profile: tuple[float, ...]
    """Requests per second in each hour of a served day, 0 to 23 (0 where none arrive)."""
    profile_source: str
    """'load_pattern': the load pattern's published profile; 'input': the workload's own."""
    busy_share: float | None = None
    """The share of the paid hours in which at least one request is in flight (M/G/∞: 1 - e^(-λS) per
    hour), on ``busy_share_gpu``: the time-based utilization. None where no route, the reference GPU
    or a priced rental gives a GPU that holds the model."""
    busy_share_gpu: str | None = None
    """The GPU whose service time S the busy share and the requests in flight use."""
    busy_share_route: BusyShareRoute | None = None
    """Whose GPU ``busy_share_gpu`` is: the best rental's; where the rules leave no rental standing, the
    best serverless option's or the own server's; where they leave none of the three, the best rental's or
    serverless option's all the same ('ruled_out'); else, where rules exclude every option, the reference
    GPU where it holds the model ('reference'), else the cheapest rental's ('excluded')."""
    requests_in_flight_average: float | None = None
    """Requests in flight on average over the served hours (λS, Little's law)."""
    requests_in_flight_peak: float | None = None
    """Requests in flight at the peak rate."""
    service_seconds_alone: float | None = None
    """One request's time on an idle replica of that GPU (prefill and decode)."""
