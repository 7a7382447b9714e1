"""A business-critical service is not put on office machines (TCO018), and the power-line advice names the
own server it compares with (TCO008)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from helpers import EXAMPLES_DIR, VOICE_ASSISTANT, run

from gpu_advisor.engine.present.memo import render_memo

VOICE = VOICE_ASSISTANT


def test_a_business_critical_service_is_costed_on_a_datacenter_server_not_office_workstations() -> None:
    critical = run({**VOICE, "business_critical": True})
    assert "TCO018" in critical.fired_rules
    # The workstation is excluded: owning is costed on the 8-GPU node, which the rules then weigh (and
    # the API wins); owning is not ruled out as such, so a datacenter purchase can still be checked.
    assert critical.own_hardware.server == "hgx-h100-8"
    assert critical.decision.deployment != "own_hardware"
    assert not [p for p in critical.resolution.proposals if "TCO018" in p.ruled_out_by]
    assert (
        "**TCO018** · tco · info: **Business-critical: own hardware in a datacenter, not in an office.** The "
        "workload is business-critical, so owning it is costed only on a server in a datacenter"
    ) in render_memo(critical)


def test_where_the_data_stays_in_the_building_a_business_critical_service_buys_a_server() -> None:
    # On premises, owning is the route (DEP006): on the datacenter node, not on the office workstation.
    on_site = run({**VOICE, "business_critical": True, "on_premises_required": True})
    assert on_site.decision.deployment == "own_hardware"
    assert on_site.own_hardware.server == "hgx-h100-8"


def test_the_same_service_around_the_clock_is_costed_on_a_datacenter_server_too() -> None:
    """Not business-critical, but served at every hour (TCO023): no one is in the office at night to
    restart a workstation, and the documents' office machine is for an internal tool in working hours.
    In working hours (workdays, 7:00 to 19:00) the workstations stay in the running."""
    plain = run(VOICE)
    assert ("TCO018" in plain.fired_rules, "TCO023" in plain.fired_rules) == (False, True)
    assert plain.own_hardware.server == "hgx-h100-8"
    # Half the requests in half the hours: the same peak, which two workstations carry.
    working_hours = run({**VOICE, "schedule": "workdays", "requests_per_day": 150_000})
    assert "TCO023" not in working_hours.fired_rules
    assert working_hours.own_hardware.server == "workstation-rtx-5090"
    (owning,) = [p for p in working_hours.resolution.proposals if p.deployment == "own_hardware"]
    assert (owning.status, owning.ruled_out_by) == ("lost", ())
    # Where the data stays in the building there is no rental to turn to, and the catalog's other own
    # machine is an 8-GPU node: the workstations stay costed (TCO019 names their spare).
    on_site = run({**VOICE, "on_premises_required": True})
    assert "TCO023" not in on_site.fired_rules
    assert on_site.own_hardware.server == "workstation-rtx-5090"
    # ... and TCO024 warns that they need a server room and someone on call, which costs more.
    (warning,) = [f for f in on_site.findings if f.rule_id == "TCO024"]
    assert warning.message == (
        "The workload is served around the clock and its data stays in the building, so owning is costed on "
        "office machines (RTX 5090 workstation), the catalog's own machine for this model short of an 8-GPU "
        "node: at night and at weekends no one is there to restart them, and an office has no redundant "
        "power or network. House them in a server room with someone on call; the office figure carries no "
        "housing or staff line, so that cost comes on top."
    )
    # In working hours, or on a datacenter server, it is silent.
    assert "TCO024" not in run({**VOICE, "on_premises_required": True, "schedule": "workdays"}).fired_rules
    assert "TCO024" not in run({**VOICE, "on_premises_required": True, "business_critical": True}).fired_rules


def test_the_power_line_advice_names_the_own_server_it_compares_with() -> None:
    # The nightly batch's best option is a B200 at 1,000 W; the own server line is the HGX H100's 700 W.
    batch = yaml.safe_load((EXAMPLES_DIR / "nightly-batch.yaml").read_text(encoding="utf-8"))
    memo = render_memo(run(batch))
    assert (
        "**TCO008** · tco · info: **Buying this card: the own server's power line does not apply.** The best "
        "option's b200 runs at about 1,000 W, not the 700 W per card of the own-server line (HGX H100 "
        "8-GPU)."
    ) in memo
    assert "H100 figures" not in memo


def test_two_spare_rules_say_they_add_one_spare_between_them() -> None:
    """SIZ010 (business-critical) and SIZ011 (latency-sensitive) both ask for the spare: one, not two."""
    same = "It is the same spare the business-critical service gets, not a second one."
    critical = run({**VOICE, "business_critical": True})
    assert {"SIZ010", "SIZ011"} <= set(critical.fired_rules)
    assert same in render_memo(critical)
    plain = run(VOICE)
    assert "SIZ011" in plain.fired_rules and "SIZ010" not in plain.fired_rules
    assert same not in render_memo(plain)


HOSPITAL: dict[str, Any] = {
    "name": "ch-hospital-discharge-letters",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 12_000,
    "avg_input_tokens": 3_000,
    "avg_output_tokens": 700,
    "load_pattern": "variable",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "on_premises_required": True,
    "business_critical": True,
    "company_country": "CH",
}


def test_an_on_premises_spare_in_the_same_node_is_named_a_single_point_of_failure() -> None:
    """TCO019: the hospital's two replicas and their spare (2 × 2 H100 in one HGX node) share it, where
    the service is latency-sensitive but not business-critical."""
    sensitive = {**HOSPITAL, "business_critical": False}
    result = run(sensitive)
    assert result.decision.deployment == "own_hardware" and result.own_hardware.nodes == 1
    assert "TCO019" in result.fired_rules
    assert (
        "The own route is one HGX H100 8-GPU, and the replicas beyond the peak's (the spare the rules add, "
        "or those min_replicas asks for) run in it beside the others"
    ) in render_memo(result)
    # Four of the node's eight cards carry the load and its spare: TCO020 counts the other four.
    assert "TCO020" in result.fired_rules
    assert "the 4 idle cards are paid for all the same" in render_memo(result)
    # Two servers' worth of load gives each replica set a node of its own: silent then.
    assert "TCO019" not in run({**sensitive, "requests_per_day": 400_000}).fired_rules


def test_a_business_critical_service_in_the_building_buys_a_second_node_for_its_spare() -> None:
    """SIZ015: business-critical, the spare goes on a second server; the two nodes cost twice the one
    ($11,213.93 a month at Swiss cost lines each), and TCO020 counts 12 idle cards of 16."""
    single = run({**HOSPITAL, "business_critical": False}).own_hardware
    result = run(HOSPITAL)
    own = result.own_hardware
    assert result.decision.deployment == "own_hardware" and {"SIZ015", "TCO020"} <= set(result.fired_rules)
    assert "TCO019" not in result.fired_rules
    assert (own.nodes, own.gpus_needed) == (2, 4)
    assert own.usd_per_month == pytest.approx(2 * single.usd_per_month)
    memo = render_memo(result)
    assert "the 12 idle cards are paid for all the same" in memo
    assert (
        "The cards the load needs would fit fewer servers: the business-critical service's replicas are "
        "spread over servers so that it survives a failed one (SIZ015), so 2 are bought."
    ) in memo
    assert "would fit fewer servers" not in render_memo(run({**HOSPITAL, "business_critical": False}))


def test_an_office_machine_has_no_staff_line_by_design_not_for_want_of_a_salary() -> None:
    """Two RTX 5090 workstations for a custom 8B chat in Germany whose data stays in the building: the
    catalog has a sourced German salary, and an office machine has no staff line (the documents'
    workstation case), so TCO001 does not say the salary is missing (it said "the catalog has no sourced
    salary for DE"). (Served around the clock without that need, the workstations would be excluded,
    TCO023.)"""
    result = run(
        {
            "name": "small-chat-8b-custom",
            "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
            "requests_per_day": 60_000,
            "avg_input_tokens": 500,
            "avg_output_tokens": 250,
            "load_pattern": "variable",
            "company_country": "DE",
            "on_premises_required": True,
        }
    )
    assert result.decision.deployment == "own_hardware"
    (tco001,) = [f.message for f in result.findings if f.rule_id == "TCO001"]
    assert "staff" not in tco001
    assert tco001.endswith("(runpod/community/rtx-5090, billed 730 hours a month).")


def test_on_premises_the_default_line_advice_names_no_machine_the_memo_did_not_cost() -> None:
    """Two RTX 5090 workstations are the own route of a voice service whose data stays in the building;
    TCO005 named the catalog's default HGX H100 node at $285,000 as the figures to replace."""
    r = run({**VOICE, "on_premises_required": True})
    assert r.own_hardware.server == "workstation-rtx-5090"
    (tco005,) = [f.message for f in r.findings if f.rule_id == "TCO005"]
    assert "HGX" not in tco005 and "285,000" not in tco005
    # An overrides file's own_server price sets the catalog's default server's, not the workstation's.
    assert (
        "power draw of the machine costed, RTX 5090 workstation, whose price an overrides file's own_server "
        "does not set: it sets the catalog's default server's, and the power price"
    ) in " ".join(tco005.split())
    assert " ".join(tco005.split()).startswith(
        "Own-server figures not given in an overrides file are defaults (the catalog's price and power draw "
        "of the machine costed"
    )
