"""SIZ009 says what is short where memory, not throughput, sets the cards: one L4 holds an 8B BF16
model's weights, but not the KV cache of two full-context sequences beside them, so a replica takes two
cards. Before, the message put it down to the busiest minutes filling 70 % of the throughput, for a peak
of under 1 % of one replica's."""

from __future__ import annotations

import datetime as dt

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument

WORKLOAD = {
    "name": "summariser",
    "model": {"name": "llama-3.1-8b", "precision": "bf16", "custom_weights": True},
    "requests_per_day": 40,
    "avg_input_tokens": 3000,
    "avg_output_tokens": 300,
    "load_pattern": "variable",
    "latency_sensitive": False,
    "company_country": "AT",
}
PROPOSAL = {"name": "one l4", "deployment": "serverless", "provider": "modal", "gpu": "l4", "gpus": 1}


def test_one_card_that_holds_the_weights_but_not_the_kv_cache_is_told_so() -> None:
    # vLLM keeps 90 % of the card's 24 GB and a 3.5 GiB reserve; 8B BF16 weights are 16.06 GB; a token's
    # KV cache is 2 x 32 layers x 8 heads x 128 x 2 bytes = 131,072 bytes.
    free = 24e9 * 0.9 - 8.03e9 * 2 - 3.5 * 2**30
    assert int(free // 131_072) == 13_594 < 2 * 8192
    document = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": PROPOSAL})
    result = check_document(document, "case.yaml", 1, dt.date(2026, 11, 30))
    finding = next(item for item in result.results if item.rule_id == "SIZ009")
    assert finding.status == "warn"
    assert finding.message == (
        "1 × l4 holds the weights, but not a replica: beside the weights and the serving engine's "
        "reserve, a replica needs room for the KV cache of several sequences at the full serving context "
        "(the memo's Sizing section says how many), which takes 2 cards of this GPU. Memory, not "
        "throughput, is short: on fewer cards the engine holds fewer sequences at once, or a shorter "
        "context, than the workload is sized for."
    )
    two = ProposalDocument.model_validate({"workload": WORKLOAD, "proposal": {**PROPOSAL, "gpus": 2}})
    statuses = {i.rule_id: i.status for i in check_document(two, "c.yaml", 1, dt.date(2026, 11, 30)).results}
    assert statuses["SIZ009"] == "pass"
