"""A finding whose rule proposed a deployment the decision did not take says so in the memo's Findings,
as the table under "How the rules decided" does: TCO012's title says "buy" where TCO016 ruled buying
out for a cheaper mixed fleet, and the manager reading the findings should not take it for the advice."""

from __future__ import annotations

import re

from helpers import run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

# A 24/7 US service of 5 million requests a day: a reserved base with hourly cards for the busier hours
# (DEP025) costs less than owning (TCO016), which costs less than the reservation alone (TCO012).
HIGH_VOLUME = {
    "name": "high-volume-247",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 5_000_000,
    "avg_input_tokens": 1_000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "schedule": "always",
    "latency_sensitive": True,
    "model_stable": True,
    "company_country": "US",
}


def finding_line(memo: str, rule_id: str) -> str:
    (line,) = re.findall(rf"^- \*\*{rule_id}\*\* .*$", memo, flags=re.MULTILINE)
    return line


def test_a_ruled_out_proposal_and_a_lost_one_say_they_were_not_followed() -> None:
    result = run(HIGH_VOLUME)
    outcomes = {p.rule_id: (p.deployment, p.status, p.ruled_out_by) for p in result.resolution.proposals}
    assert result.decision.deployment == "hybrid" and result.resolution.winner_rule_id == "DEP025"
    assert outcomes["TCO012"] == ("own_hardware", "ruled_out", ("TCO016",))
    memo = render_memo(result)
    assert finding_line(memo, "TCO012").endswith(
        "the reservation bills the idle hours too. Not followed: Own hardware is ruled out by TCO016."
    )
    # The winner's finding, and those of rules that proposed nothing, carry no such sentence.
    assert "Not followed" not in finding_line(memo, "DEP025")
    assert "Not followed" not in finding_line(memo, "TCO016")
    lost = [rule for rule, (deployment, status, _) in outcomes.items() if status == "lost"]
    assert lost and all(outcomes[rule][0] != "hybrid" for rule in lost)
    for rule in lost:
        assert finding_line(memo, rule).endswith("Not followed: DEP025, of higher precedence, decided.")
    german = render_memo(result, Format.named("de"))
    assert finding_line(german, "TCO012").endswith(
        "Nicht befolgt: Eigene Hardware ist durch TCO016 ausgeschlossen."
    )
