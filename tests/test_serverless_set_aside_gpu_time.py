"""Where the rules set a cheaper serverless option aside, the Summary says what it would save; where its
product bills CPU and memory on top of its GPU time (Modal), it says that the saving is GPU time only and
how much host time would use it up."""

from __future__ import annotations

from pathlib import Path

from helpers import EVALUATED_ON, run

from gpu_advisor import api
from gpu_advisor.engine.present.memo import render_memo

BIG_STEADY = {
    "name": "big-steady-service",
    "model": {"name": "llama-3.1-70b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 3_000_000,
    "avg_input_tokens": 500,
    "avg_output_tokens": 200,
    "load_pattern": "steady",
    "schedule": "always",
    "model_stable": True,
    "volume_growing": True,
    "company_country": "DE",
}


def summary(workload: dict[str, object]) -> str:
    return render_memo(run(workload)).split("## Summary")[1].split("## Why")[0]


def test_a_saving_on_gpu_time_alone_says_what_host_time_would_use_it_up() -> None:
    """Two owned HGX H100 at $22,015; Modal's B200 at $21,301 for 3,408 instance-hours: $713 less, $0.209
    an instance-hour, 4.4 cores at $0.0472 or 26 GiB at $0.00799."""
    result = run(BIG_STEADY)
    own, modal = result.decision, result.serverless_option
    assert own.deployment == "own_hardware" and modal is not None and modal.serverless is not None
    assert (round(own.usd_per_month), round(modal.usd_per_month)) == (22015, 21301)
    assert round(modal.billed_hours_per_month) == 3408
    lead = (own.usd_per_month - modal.usd_per_month) / modal.billed_hours_per_month
    assert (round(lead, 3), round(lead / 0.0472, 1), round(lead / 0.00799)) == (0.209, 4.4, 26)
    assert (
        "It would cost $713 a month less than the recommendation: the rule, not the price, keeps it out (its "
        "finding says why). That is GPU time only: Modal serverless functions bills CPU and memory on top, "
        "and about 4.4 cores or 26 GiB on each instance over its 3,408 billed instance-hours, or less of "
        "both together, would use up that lead.\n"
    ) in summary(BIG_STEADY)


NO_MODAL = """\
schema_version: 1
family: ORG
rules:
  - id: ORG101
    name: no-modal
    topic: provider
    severity: info
    fact: workload
    when: []
    then:
      exclude_options:
        - {field: provider, equals: modal}
    title: "No Modal"
    message: "Modal is not used."
    rationale: "A test's policy."
    source: {document: cloud-gpu-costs-2026, section: "Das Wichtigste in Kürze"}
"""


def test_a_product_that_bills_its_gpus_alone_has_no_host_time_to_weigh(tmp_path: Path) -> None:
    """Modal kept out by a policy, workdays only, 2,950,000 requests a day: RunPod Serverless (GPU time
    alone, $13,993) is the cheapest serverless option, set aside by DEP024 though it costs less than the
    rental ($14,208). (At 3,000,000 it bills more than the rental.)"""
    (tmp_path / "no-modal.yaml").write_text(NO_MODAL, encoding="utf-8")
    workload = {**BIG_STEADY, "schedule": "workdays", "requests_per_day": 2_950_000}
    result = api.recommend(workload, EVALUATED_ON, policy_dir=tmp_path)
    serverless = result.serverless_option
    assert serverless is not None and serverless.serverless is not None
    assert serverless.serverless.name == "RunPod Serverless"
    assert serverless.serverless.host_usd_per_core_hour is None
    assert result.decision.usd_per_month is not None
    assert (round(serverless.usd_per_month), round(result.decision.usd_per_month)) == (13993, 14208)
    text = render_memo(result).split("## Summary")[1].split("## Why")[0]
    assert "the rule, not the price, keeps it out" in text
    assert "That is GPU time only" not in text
