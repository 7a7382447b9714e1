"""The Rego policies of the approval pipeline examples, checked by a real client.

The Rego policies in ``examples/policies`` are evaluated by a real Rego interpreter (``regopy``, a declared
test dependency: without it this module fails to import, it does not skip) on the real output of
``gpu-advisor check --format json`` (a list with one entry per proposal: the workload as evaluated, the
proposal, its monthly cost, where it runs and every check's result), for proposal files written here, and
on outputs derived from real ones, so that every ``deny`` and ``warn`` rule is shown to fire and to stay
silent. The CI definitions in ``examples/ci`` are checked in ``test_ci_definitions.py`` (and run in
``test_ci_workflow.py`` and ``test_ci_pipeline.py``).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import regopy
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, LAMBDA_UK

from gpu_advisor.cli import main

POLICY_DIR = EXAMPLES_DIR / "policies"
PACKAGES = ("budget", "findings", "residency", "spot")


Result = list[dict[str, Any]]
Verdicts = dict[str, set[str]]


# --- the input: gpu-advisor check --format json ---------------------------------------------------------


def workload(name: str, **changes: Any) -> dict[str, Any]:
    base = {"name": name, "model": {"name": "llama-3.1-70b", "precision": "fp8"}, "requests_per_day": 20000}
    return {**base, **changes}


HR = workload("hr-assistant", personal_data=True, company_country="DE")
RUNPOD = {
    "deployment": "dedicated_cloud",
    "provider": "runpod",
    "offer": "community",
    "gpu": "h100-sxm",
    "gpus": 2,
    "pricing": "on_demand",
}


@functools.cache
def _checked(text: str, *options: str) -> tuple[int, str]:
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as directory:
        os.chdir(directory)
        try:
            Path("proposals").mkdir()
            Path("proposals/p.yaml").write_text(text, encoding="utf-8")
            arguments = ["check", "proposals", "--format", "json", "--as-of", "2026-11-30", *options]
            run = CliRunner().invoke(main, arguments, catch_exceptions=False)
        finally:
            os.chdir(here)
    return run.exit_code, run.output


def checked(*documents: dict[str, Any], options: tuple[str, ...] = ()) -> tuple[int, Result]:
    """The exit code and JSON of ``gpu-advisor check proposals --format json`` (and ``options``) on a
    file holding the documents (each a workload, a proposal and optional waivers)."""
    exit_code, output = _checked(yaml.safe_dump({"proposals": list(documents)}, sort_keys=False), *options)
    return exit_code, copy.deepcopy(json.loads(output))


def interpreter(data: dict[str, Any] | None = None) -> regopy.Interpreter:
    """Every policy loaded at once, as ``conftest test --all-namespaces --policy examples/policies`` does."""
    rego = regopy.Interpreter()
    if data is not None:
        rego.add_data(data)
    for path in sorted(POLICY_DIR.glob("*.rego")):
        rego.add_module(path.name, path.read_text(encoding="utf-8"))
    return rego


def query(rego: regopy.Interpreter, expression: str) -> Any:
    output = rego.query(expression)
    assert output.ok(), f"{expression}: {output}"
    assert len(output) == 1, f"{expression}: {output}"
    (value,) = output[0].expressions
    return value


def verdicts(result: Result, data: dict[str, Any] | None = None) -> Verdicts:
    """Every non-empty ``deny`` and ``warn`` set, keyed ``package.rule``. The input is the JSON text, as
    conftest and OPA read a file (a Python dict would round floats to six decimals)."""
    rego = interpreter(data)
    rego.set_input_term(json.dumps(result))
    found: Verdicts = {}
    for package in PACKAGES:
        document = query(rego, f"data.gpu_advisor.{package}")
        for rule in ("deny", "warn"):
            messages = document.get(rule, [])
            assert isinstance(messages, list), f"{package}.{rule} is not a set: {messages!r}"
            assert all(isinstance(message, str) for message in messages)
            if messages:
                found[f"{package}.{rule}"] = set(messages)
    return found


def statuses(result: dict[str, Any]) -> dict[str, str]:
    return {item["rule_id"]: item["status"] for item in result["results"] if item["status"] != "pass"}


# --- the policies load and answer in the conftest convention -------------------------------------------


def test_every_policy_is_a_gpu_advisor_package_with_deny_and_warn_sets() -> None:
    assert sorted(path.stem for path in POLICY_DIR.glob("*.rego")) == sorted(PACKAGES)
    rego = interpreter()
    rego.set_input_term(json.dumps(checked({"workload": HR, "proposal": RUNPOD})[1]))
    packages = query(rego, "data.gpu_advisor")
    assert sorted(packages) == sorted(PACKAGES)
    assert all("deny" in packages[name] for name in PACKAGES)
    warning = {name for name in PACKAGES if "warn" in packages[name]}
    assert warning == {"budget", "findings", "residency", "spot"}


def test_a_broken_policy_is_an_error_not_an_empty_set() -> None:
    rego = regopy.Interpreter()
    with pytest.raises(regopy.RegoError):
        rego.add_module("broken.rego", "package gpu_advisor.broken\n\ndeny contains msg if { msg := }\n")
        rego.query("data.gpu_advisor.broken.deny")


# --- residency -----------------------------------------------------------------------------------------

ON_A_MARKETPLACE = "hr-assistant (dedicated_cloud) (proposals/p.yaml line 2)"


def test_personal_data_on_a_non_eu_marketplace_fails_in_check_and_in_rego() -> None:
    exit_code, result = checked({"workload": HR, "proposal": RUNPOD})
    assert exit_code == 1
    assert statuses(result[0]) == {"RES005": "fail", "DEP016": "warn", "DEP033": "warn", "SIZ012": "warn"}
    assert result[0]["location"] == {"jurisdictions": ["unknown"], "countries": []}
    assert verdicts(result) == {
        "residency.deny": {
            f"{ON_A_MARKETPLACE}: personal data of people in eu, but the proposal may run in jurisdiction "
            "unknown, outside those its law admits",
            f"{ON_A_MARKETPLACE}: RES005 failed: Personal data in a jurisdiction its law does not admit",
        }
    }


def test_residency_is_silent_without_personal_data() -> None:
    _exit_code, result = checked({"workload": workload("chat"), "proposal": RUNPOD})
    assert "RES005" not in statuses(result[0])
    assert "residency.deny" not in verdicts(result) and "residency.warn" not in verdicts(result)


def test_residency_accepts_personal_data_in_an_eu_region() -> None:
    proposal = {**RUNPOD, "provider": "aws", "offer": "p5-on-demand-stockholm", "gpus": 8, "region": "EU"}
    _exit_code, result = checked({"workload": HR, "proposal": proposal})
    assert result[0]["location"] == {"jurisdictions": ["EU"], "countries": ["SE"]}
    assert "RES005" not in statuses(result[0])
    assert "residency.deny" not in verdicts(result)


def test_residency_accepts_a_uk_region_for_swiss_personal_data_and_denies_a_us_one() -> None:
    swiss = workload("hr-assistant", personal_data=True, company_country="CH")
    # The catalog has no UK region: the overrides add Lambda's H100 in the UK and the US.
    lambda_uk = {**RUNPOD, "provider": "lambda", "offer": "on-demand-uk", "region": "uk"}
    _, result = checked({"workload": swiss, "proposal": lambda_uk}, options=("--overrides", LAMBDA_UK))
    assert result[0]["workload"]["personal_data_region"] == "ch"
    assert result[0]["location"] == {"jurisdictions": ["UK"], "countries": ["GB"]}
    assert "residency.deny" not in verdicts(result)
    _, result = checked(
        {"workload": swiss, "proposal": {**lambda_uk, "region": "us"}}, options=("--overrides", LAMBDA_UK)
    )
    assert statuses(result[0])["RES005"] == "fail"
    assert len(verdicts(result)["residency.deny"]) == 2


def test_a_waiver_does_not_lift_the_residency_table() -> None:
    waiver = {"rule": "RES005", "reason": "legal review pending", "owner": "dpo", "until": "2026-12-31"}
    exit_code, result = checked({"workload": HR, "proposal": RUNPOD, "waivers": [waiver]})
    assert exit_code == 0  # waived in check
    assert verdicts(result)["residency.deny"] == {
        f"{ON_A_MARKETPLACE}: personal data of people in eu, but the proposal may run in jurisdiction "
        "unknown, outside those its law admits"
    }


def test_an_edited_result_still_fails_on_the_table() -> None:
    _, result = checked({"workload": workload("chat"), "proposal": RUNPOD})
    result[0]["workload"]["personal_data"] = True
    assert "residency.deny" in verdicts(result)


def test_residency_warns_where_the_proposal_says_nothing_of_where_it_runs() -> None:
    _, result = checked({"workload": HR, "proposal": {"deployment": "dedicated_cloud", "gpu": "h100-sxm"}})
    assert result[0]["location"]["jurisdictions"] == []
    assert verdicts(result)["residency.warn"] == {
        "hr-assistant (dedicated_cloud) (proposals/p.yaml line 2): personal data, but the proposal names no "
        "provider, offer or region, so where it runs is not known"
    }


# --- budget --------------------------------------------------------------------------------------------

# RunPod's community H100 SXM at $2.69 per GPU-hour, 2 cards for 730 hours: $3,927.40 a month.
RUNPOD_USD_PER_MONTH = 2.69 * 2 * 730


def test_the_proposal_carries_its_monthly_cost() -> None:
    _, result = checked({"workload": workload("chat"), "proposal": RUNPOD})
    assert result[0]["usd_per_month"] == pytest.approx(RUNPOD_USD_PER_MONTH, abs=0.005)


def test_budget_warns_over_a_budget_given_as_data() -> None:
    _, result = checked({"workload": workload("chat"), "proposal": RUNPOD})
    assert verdicts(result, {"budget": {"usd_per_month": 3000}}) == {
        "budget.warn": {
            "chat (dedicated_cloud) (proposals/p.yaml line 2): the proposal costs 3927 USD per month, over "
            "the budget of 3000 USD per month"
        }
    }
    assert verdicts(result) == {}  # under the default of 20,000 USD
    assert verdicts(result, {"budget": {"usd_per_month": result[0]["usd_per_month"]}}) == {}


def test_budget_denies_over_the_hard_limit() -> None:
    _, result = checked({"workload": workload("chat"), "proposal": RUNPOD})
    found = verdicts(result, {"budget": {"deny_usd_per_month": 3900}})
    assert found["budget.deny"] == {
        "chat (dedicated_cloud) (proposals/p.yaml line 2): the proposal costs 3927 USD per month, over the "
        "limit of 3900 USD per month"
    }
    assert "budget.deny" not in verdicts(result, {"budget": {"deny_usd_per_month": 3928}})


def test_a_proposal_without_a_monthly_cost_is_not_passed_silently() -> None:
    # A rental whose offer the catalog does not know (a misspelled "communty") has no price: it is said
    # under a budget, and denied under a hard limit, which it cannot be held to.
    proposal = {**RUNPOD, "offer": "communty"}
    _, result = checked({"workload": workload("chat"), "proposal": proposal})
    assert result[0]["usd_per_month"] is None
    head = (
        "chat (dedicated_cloud) (proposals/p.yaml line 2): the proposal has no monthly cost at the catalog's"
    )
    assert verdicts(result) == {
        "budget.warn": {f"{head} prices, so it is not held to the budget (its checks say what is missing)"}
    }
    assert verdicts(result, {"budget": {"usd_per_month": 1, "deny_usd_per_month": 5000}}) == {
        "budget.deny": {
            f"{head} prices, so it cannot be held to the limit of 5000 USD per month (its checks say what is "
            "missing)"
        }
    }


def test_a_sketch_that_names_only_its_route_is_denied_under_a_hard_limit() -> None:
    _, result = checked({"workload": workload("chat"), "proposal": {"deployment": "own_hardware"}})
    assert result[0]["usd_per_month"] is None
    assert set(verdicts(result, {"budget": {"deny_usd_per_month": 5000}})) == {"budget.deny"}
    assert set(verdicts(result)) == {"budget.warn"}


@pytest.mark.parametrize(
    ("budget", "shown"), [("lots", "lots"), (0, "0"), (-5, "-5")], ids=["text", "zero", "negative"]
)
def test_budget_that_is_not_a_positive_number_is_denied(budget: Any, shown: str) -> None:
    _, result = checked({"workload": workload("chat"), "proposal": {"deployment": "api"}})
    found = verdicts(result, {"budget": {"usd_per_month": budget}})
    assert found == {
        "budget.deny": {f"data.budget.usd_per_month must be a positive number of USD, got {shown}"}
    }


# --- spot ----------------------------------------------------------------------------------------------

VAST_SPOT = {
    "deployment": "dedicated_cloud",
    "provider": "vast",
    "offer": "spot",
    "gpu": "h100-pcie",
    "gpus": 1,
    "pricing": "spot",
}
SMALL = {"name": "batch", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 5000}


def test_spot_is_denied_for_a_latency_sensitive_workload() -> None:
    _, result = checked({"workload": {**SMALL, "latency_sensitive": True}, "proposal": VAST_SPOT})
    assert statuses(result[0])["PRC007"] == "fail"
    assert verdicts(result)["spot.deny"] == {
        "batch (dedicated_cloud) (proposals/p.yaml line 2): the workload is latency-sensitive, but the "
        "proposal rents spot capacity, which can be reclaimed at any time"
    }


def test_spot_is_accepted_for_work_that_can_wait() -> None:
    batch = {**SMALL, "latency_sensitive": False, "load_pattern": "batch"}
    _, result = checked({"workload": batch, "proposal": VAST_SPOT})
    assert {"spot.deny", "spot.warn"}.isdisjoint(verdicts(result))


def test_spot_is_denied_for_a_business_critical_service() -> None:
    critical = {**SMALL, "latency_sensitive": False, "business_critical": True}
    _, result = checked({"workload": critical, "proposal": {**VAST_SPOT, "gpus": 2}})
    assert statuses(result[0])["PRC030"] == "fail"
    assert verdicts(result)["spot.deny"] == {
        "batch (dedicated_cloud) (proposals/p.yaml line 2): the service is business-critical, but the "
        "proposal rents spot capacity, which can be reclaimed at any time"
    }


def test_spot_for_a_service_that_is_not_a_batch_is_warned() -> None:
    _, result = checked({"workload": {**SMALL, "latency_sensitive": False}, "proposal": VAST_SPOT})
    assert statuses(result[0])["PRC029"] == "warn"
    assert "spot.deny" not in verdicts(result)
    assert verdicts(result)["spot.warn"] == {
        "batch (dedicated_cloud) (proposals/p.yaml line 2): spot capacity for a service that is not a batch: "
        "its requests wait whenever the capacity is reclaimed"
    }


# --- findings ------------------------------------------------------------------------------------------


def test_findings_warns_on_an_expired_waiver_by_default() -> None:
    waiver = {"rule": "DEP016", "reason": "benchmark", "owner": "platform-team", "until": "2026-10-31"}
    _, result = checked({"workload": workload("chat"), "proposal": RUNPOD, "waivers": [waiver]})
    assert statuses(result[0])["KNB006"] == "warn"
    assert verdicts(result)["findings.warn"] == {
        "chat (dedicated_cloud) (proposals/p.yaml line 2): KNB006 needs review before approval "
        "(gpu-advisor rules show KNB006)"
    }


def test_findings_lists_come_from_data() -> None:
    _, result = checked({"workload": workload("chat"), "proposal": RUNPOD})
    rules = {"findings": {"warn_rule_ids": [], "deny_rule_ids": ["SIZ012", "NET002"]}}
    assert verdicts(result, rules) == {
        "findings.deny": {
            "chat (dedicated_cloud) (proposals/p.yaml line 2): SIZ012 blocks approval "
            "(gpu-advisor rules show SIZ012)"
        }
    }
