"""From load to replicas: what one replica delivers, how many the peak needs, the utilization that follows.

The estimate is deliberately simple and stated in full, so that a reader can check it:

- Decode (one output token for every running sequence) reads the weights once per step for the whole
  batch plus each sequence's KV cache: it is bound by memory bandwidth, unless the matrix work of the
  batch takes longer (then by compute). A mixture of experts reads at most the experts its batch uses.
- Prefill (the prompt) is bound by compute: two FLOPs per active parameter and token.
- Tensor parallelism over several cards keeps a share of the combined bandwidth and compute per doubling
  of the card count, which depends on the link between the cards (NVLink, Infinity Fabric, PCIe).
- The batch is as large as the KV cache allows for the workload's average sequence, up to the engine's
  maximum number of running sequences.

The share of datasheet peaks really reached is knowledge (``knowledge/throughput.yaml``), calibrated
against published measurements (``knowledge/calibration.yaml``); docs/calibration.md shows the error.

"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Load(BaseModel):
    """The workload's load: average and peak request rate over the hours a day in which it is served."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hours_per_day: float
    """The schedule's hours a day, or fewer where a batch job is paid fewer hours a month than the
    schedule has: its requests wait and are served in the paid hours."""
    average_requests_per_second: float
    peak_factor: float
    peak_requests_per_second: float
    peak_output_tokens_per_second: float
    peak_input_tokens_per_second: float
    schedule_hours_per_month: float
    """The schedule's hours a month, in which requests arrive."""
    served_in_paid_hours: bool
    """A batch job paid fewer hours than the schedule has: the month's requests are served in them."""
    served_share_of_paid_hours: float
    """The paid hours in which requests come, at most 1: below 1 where more hours are paid than a schedule
    of fewer than 24 hours a day serves requests in, and the cards idle in the rest."""
