"""A finding whose proposal another rule ruled out (here set aside on cost: TCO016 is no bar) says so in
the memo's Findings, as the table under "How the rules decided" does: TCO012's title says "buy" where
TCO016 ruled buying out for a cheaper mixed fleet, and the manager reading the findings should not take it
for the advice. A proposal that only lost on precedence is not marked: its advice may still hold
(self-hosting's, where owning won)."""

from __future__ import annotations

import re

from helpers import negotiated_aws, run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

# A 24/7 US service of 5 million requests a day, for a team with a negotiated AWS rate: a reserved base
# with hourly cards for the busier hours (DEP025) costs less than owning (TCO016), which costs less than
# the reservation alone (TCO012).
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


def test_a_ruled_out_proposal_says_it_was_not_followed_and_a_lost_one_does_not() -> None:
    result = run(HIGH_VOLUME, knowledge=negotiated_aws())
    outcomes = {p.rule_id: (p.deployment, p.status, p.ruled_out_by) for p in result.resolution.proposals}
    assert result.decision.deployment == "hybrid" and result.resolution.winner_rule_id == "DEP025"
    assert outcomes["TCO012"] == ("own_hardware", "ruled_out", ("TCO016",))
    memo = render_memo(result)
    assert finding_line(memo, "TCO012").endswith(
        "the reservation bills the idle hours too. Not followed: the deployment it proposes is set aside "
        "by TCO016, on cost or strategy."
    )
    # The winner's finding, those of rules that proposed nothing and those that lost on precedence carry
    # no such sentence.
    lost = [rule for rule, (_, status, _) in outcomes.items() if status == "lost"]
    assert lost
    for rule in ("DEP025", "TCO016", *lost):
        assert "Not followed" not in finding_line(memo, rule)
    german = render_memo(result, Format.named("de"))
    assert finding_line(german, "TCO012").endswith(
        "Nicht befolgt: Die vorgeschlagene Bereitstellung ist durch TCO016 aus Kosten- oder Strategiegründen "
        "nicht gewählt."
    )
