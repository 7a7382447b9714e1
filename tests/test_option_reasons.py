"""The options table's last column gives every reason an option is not taken: the rules that exclude it
and, where a rule rules its whole route out, that rule too (an on-premises decision rules every cloud
route out, DEP006; the table said only 'excluded by RES001' for a spot row)."""

from __future__ import annotations

import yaml
from helpers import EXAMPLES_DIR, run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

ON_PREMISES = yaml.safe_load((EXAMPLES_DIR / "deepseek-on-premises.yaml").read_text())


def option_row(memo: str, provider: str, offer: str, gpu: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(f"|  | {provider} | {offer} | {gpu} |"))


def test_an_excluded_option_of_a_ruled_out_route_names_both() -> None:
    result = run(ON_PREMISES)
    assert result.decision.deployment == "own_hardware"
    assert result.resolution.ruled_out["dedicated_cloud"] == ("DEP006",)
    memo = render_memo(result)
    assert option_row(memo, "vast", "spot", "h100-pcie").endswith(
        "| excluded by NET001, RES001, PRC003; ruled out by DEP006 |"
    )
    # An option no rule excludes names the rule-out only.
    assert "| ruled out by DEP006 |" in option_row(memo, "huggingface", "inference-endpoints", "h200")
    # In German the two stay apart: an option excluded, its route discarded.
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert option_row(german, "vast", "spot", "h100-pcie").endswith(
        "| ausgeschlossen durch NET001, RES001, PRC003; Weg verworfen durch DEP006 |"
    )


def test_an_excluded_option_of_a_route_still_open_names_its_exclusions_only() -> None:
    result = run(yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text()))
    assert result.decision.deployment == "dedicated_cloud"
    assert "dedicated_cloud" not in result.resolution.ruled_out
    row = option_row(render_memo(result), "vast", "spot", "h100-pcie")
    assert row.endswith("| excluded by NET001, RES001, PRC002 |")


def notes_block(memo: str) -> list[str]:
    lines = memo.splitlines()
    start = lines.index("What the catalog notes on the offers the memo discusses:")
    return lines[start + 2 : lines.index("", start + 2)]


def test_the_notes_of_the_options_discussed_are_quoted_under_the_table() -> None:
    result = run(yaml.safe_load((EXAMPLES_DIR / "public-chat.yaml").read_text()))
    best, serverless = result.best_option, result.serverless_option
    assert best is not None and serverless is not None
    assert (best.provider, best.offer, serverless.provider, serverless.offer) == (
        "runpod",
        "community",
        "modal",
        "functions",
    )
    memo = render_memo(result)
    assert notes_block(memo) == [
        "- runpod community (h200): listed beside the community H100 price; the document does not name the "
        "tier",
        "- modal functions (b200): CPU cores and memory are billed on top of the GPU (USD 0.0000131 per"
        " core-second, 0.00000222 per GiB-second), not included; prices from dated transcriptions of"
        " modal.com/pricing, which agree",
    ]
    # Another row's note (Lambda's 8-GPU plan) is in the JSON only.
    lambda_plan = next(o for o in result.options if (o.provider, o.offer) == ("lambda", "8-gpu-plan"))
    assert lambda_plan.note == "per-GPU price of the 8-GPU plan on the instances page"
    assert lambda_plan.note not in memo


def test_no_notes_block_where_the_options_discussed_have_no_note() -> None:
    result = run(yaml.safe_load((EXAMPLES_DIR / "hr-assistant.yaml").read_text()))
    chosen, serverless = result.best_option, result.serverless_option
    assert chosen is not None and chosen.chosen and chosen.note is None
    assert serverless is not None and serverless.note is not None
    assert "What the catalog notes" in render_memo(result)
    # The serverless product's note is the only one: without it, no block.
    quiet = result.model_copy(update={"serverless_option": serverless.model_copy(update={"note": None})})
    assert "What the catalog notes" not in render_memo(quiet)


def test_a_note_on_one_gpu_of_a_serverless_product_is_quoted_for_that_gpu_alone() -> None:
    """RunPod's note that its 'H100 PRO' pool is taken as H100 SXM concerns that GPU's price only: an
    L40S endpoint's memo quotes the product's note alone, an H100 endpoint's both (and in German)."""
    result = run(yaml.safe_load((EXAMPLES_DIR / "internal-assistant.yaml").read_text()))
    runpod = {o.gpu: o for o in result.options if (o.provider, o.offer) == ("runpod", "serverless")}
    assert runpod["h100-sxm"].gpu_note == "'H100 PRO' pool taken as H100 SXM"
    assert runpod["l40s"].gpu_note is None and runpod["l40s"].note == runpod["h100-sxm"].note
    table = "the per-second table moved to runpod.io/pricing on 2026-06-29 and may have changed since"
    for gpu, line in (
        ("l40s", f"- runpod serverless (l40s): {table}"),
        ("h100-sxm", f"- runpod serverless (h100-sxm): 'H100 PRO' pool taken as H100 SXM; {table}"),
    ):
        chosen = result.model_copy(update={"serverless_option": runpod[gpu]})
        assert line in notes_block(render_memo(chosen))
    german = render_memo(
        result.model_copy(update={"serverless_option": runpod["h100-sxm"]}), fmt=Format.named("de")
    )
    assert (
        "- runpod serverless (h100-sxm): Pool „H100 PRO“ als H100 SXM genommen; die Tabelle der "
        "Sekundenpreise ist am 2026-06-29 nach runpod.io/pricing umgezogen und kann sich seither "
        "geändert haben"
    ) in german
