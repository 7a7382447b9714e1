"""Where the documents' band keeps a cheaper serverless product out (DEP024), the finding names the terms to
weigh: whether each provider publishes an enterprise SLA (providers.yaml)."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.pipeline.serverless_weighing import sla_said

SLAS = {"aws": True, "runpod": False, "lambda": None}


def test_each_providers_sla_is_said_as_the_catalog_has_it() -> None:
    said = [sla_said(provider, SLAS.get) for provider in ("aws", "runpod", "lambda", "")]
    assert said == ["published", "none", "unknown", ""]


def test_the_hr_assistant_weighs_runpods_terms_against_scaleways() -> None:
    """RunPod Serverless bills $2,359 a month against Scaleway's $3,911: RunPod publishes no enterprise
    SLA for it, Scaleway one for its instances."""
    result = run(read_example(EXAMPLES_DIR / "hr-assistant.yaml"))
    (message,) = [f.message for f in result.findings if f.rule_id == "DEP024"]
    assert message.endswith(
        "an endpoint that stays up all month is a rental on the serverless product's terms (unlike a "
        "variable load's, which follows the load hour by hour and is weighed on its price, DEP020), so weigh "
        "those terms against the rental's before relying on the rule: the serverless product's provider "
        "publishes no enterprise SLA, the rental's provider publishes one (providers.yaml)."
    )
