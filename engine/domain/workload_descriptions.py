"""The longer descriptions of workload fields (``workload.ResolvedWorkload``): the input model's and the
JSON Schema's text for each."""

from __future__ import annotations

CONTEXT = "Serving context window the KV cache is sized for; at least one average request."
PREFIX = (
    "Prompt tokens every request begins with (system prompt, instructions, a shared document), fewer than "
    "an average prompt: the serving engine's prefix cache computes them once, not for every request."
)
TTFT_TARGET = (
    "Latency target: the mean wait for the first token at peak, milliseconds (the memo adds the 99th "
    "percentile); null for none. Default for latency-sensitive work: about a second."
)
TPOT_TARGET = (
    "Latency target: a request's mean time between two tokens at peak, milliseconds; null for none. "
    "Default for latency-sensitive work: reading speed."
)
INPUT_VAT = (
    "The company deducts the VAT it pays on purchases (input VAT), so prices are compared net. False (a "
    "public authority acting as such, a bank or insurer for its VAT-exempt business): every purchase (API "
    "bills, rentals, serverless, servers, power, housing) is priced with the company country's VAT "
    "(knowledge/vat_rates.yaml); staff costs carry none."
)
