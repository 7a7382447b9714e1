"""OPT001 quotes the documents' latency saving from quantization (30 to 50 %); where the estimate for the
rental it advises says otherwise, the message sets the estimate's figures beside it: INT4 on an H100 is
multiplied in 16 bits and runs on fewer cards, so its answers come later, not sooner."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

SAID = "Quantization cuts memory by 50 to 75 % and latency by 30 to 50 %, the documents say"


def opt001(workload: dict[str, object]) -> str:
    result = run(workload)
    (finding,) = [f for f in result.findings if f.rule_id == "OPT001"]
    return " ".join(finding.message.split())


def test_int4_on_h100_is_said_to_be_slower_than_the_model_as_given() -> None:
    workload = read_example(EXAMPLES_DIR / "hr-assistant.yaml")
    result = run(workload)
    best = next(g for g in result.sizing.gpus if g.gpu == result.decision.gpu)
    # The model as given: the best option's GPU at the peak, as its sizing row says (119 ms and 22 ms); the
    # same GPU as the quantized one, so it is not named twice (the other tests name a different one).
    assert (round(best.time_to_first_token_ms or 0), round(best.time_per_output_token_ms or 0)) == (119, 22)
    assert (
        f"{SAID}; the estimate here gives h100-sxm quantized the first token after about 419 ms and 36 ms "
        "per token at the peak, against 119 ms and 22 ms as given: slower here, not faster, as INT4 weights "
        "are multiplied in 16 bits (W4A16 kernels such as Marlin), and the load runs on fewer or other "
        "cards; accuracy drops slightly" in opt001(workload)
    )


CHAT = {"name": "chat", "model": {"name": "llama-3.1-70b", "precision": "bf16", "custom_weights": True}}


def test_a_first_token_later_and_tokens_sooner_are_said_as_such() -> None:
    message = opt001({**CHAT, "requests_per_day": 300_000})
    # As given, the 141.1 GB of BF16 weights (the exact 70.55B x 2 bytes) take a B200 62.22 ms to the first
    # token at the peak (61.99 with every output token a decode step at the bandwidth share 0.87): 62 ms.
    assert (
        "the estimate here gives h200 quantized the first token after about 65 ms and 30 ms per token at "
        "the peak, against 62 ms and 33 ms as given on b200: the first token later here, each further token "
        "sooner; accuracy" in message
    )


def test_where_the_estimate_agrees_it_is_given_without_a_but() -> None:
    message = opt001({**CHAT, "requests_per_day": 20_000})
    # As given, the 141.1 GB of BF16 weights (the exact 70.55B x 2 bytes, of which a pass reads all but
    # the token embedding's 128,256 x 8,192) take two H100 about 66 ms to the first token at the peak;
    # the quantized H200 keeps it shorter, 57 ms.
    assert (
        "the estimate here gives h200 quantized the first token after about 57 ms and 23 ms per token at "
        "the peak, against 66 ms and 31 ms as given on h100-sxm; accuracy" in message
    )
    assert "slower here" not in message and "later here" not in message


def test_a_batch_has_no_latency_at_the_peak_to_set_beside_the_documents() -> None:
    message = opt001({**CHAT, "requests_per_day": 300_000, "load_pattern": "batch", "batch_window_hours": 8})
    assert f"{SAID}; accuracy drops slightly" in message
    assert "the estimate here gives" not in message
