"""``gpu-advisor size`` and ``gpu-advisor tco``: card counts per GPU, and the own server's cost."""

from __future__ import annotations

import re
from typing import Any

import click

from gpu_advisor.engine.commands.common import (
    FiniteFloat,
    WholeNumber,
    currency_option,
    emit,
    handle_errors,
    lang_option,
    load_pattern_choice,
    precision_choice,
    schedule_choice,
    serving_engine_choice,
    to_json,
)
from gpu_advisor.engine.domain.limits import (
    MAX_GPU_WATTS,
    MAX_GPUS_PER_SERVER,
    MAX_MONTHLY_COST,
    MAX_POWER_OVERHEAD,
    MAX_PRICE_PER_KWH,
    MAX_SERVER_PRICE,
    MAX_WRITE_OFF_MONTHS,
    MIN_TARGET_MS,
    RESIDUAL_BELOW,
)

ATTENTION_SHAPE_FIELDS = ("num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim")
"""``--attention-shape``'s four numbers, in ``AttentionShape``'s field order."""
SIZE_OPTIONS = {
    "model": "--model",
    "params_b": "--params-b",
    "active_params_b": "--active-params-b",
    "attention_shape": "--attention-shape",
    **{f"attention_shape.{name}": f"--attention-shape ({name})" for name in ATTENTION_SHAPE_FIELDS},
    "precision": "--precision",
    "context_tokens": "--context-tokens",
    "shared_prefix_tokens": "--shared-prefix-tokens",
    "load.requests_per_day": "--requests-per-day",
    "load.avg_input_tokens": "--input-tokens",
    "load.avg_output_tokens": "--output-tokens",
    "load.max_time_to_first_token_ms": "--max-ttft-ms",
    "load.max_time_per_output_token_ms": "--max-tpot-ms",
    "load.latency_sensitive": "--latency-sensitive",
    "load.batch_window_hours": "--batch-window-hours",
    "load_pattern": "--load-pattern",
    "input_tokens": "--input-tokens",
    "output_tokens": "--output-tokens",
    "serving_engine": "--serving-engine",
    "concurrency": "--concurrency",
    "gpu": "--gpu",
    "cards": "--cards",
}
"""The command line's option for each field of the size request, for its error messages."""
SHARED_PREFIX = "Prompt tokens every request begins with: the engine's prefix cache computes them once."


# ParamType is generic in the newest click only; subscripting it fails on click 8.1, which pyproject admits.
class AttentionShapeParam(click.ParamType):  # type: ignore[type-arg]
    """``L,H,KV,D``: the four numbers of ``AttentionShape`` in its field order; their bounds are the
    request's to check."""

    name = "attention shape"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> dict[str, int]:
        parts = str(value).split(",")
        if len(parts) != len(ATTENTION_SHAPE_FIELDS) or not all(
            re.fullmatch(r"[0-9]+", p.strip()) for p in parts
        ):
            self.fail(
                f"{value!r}: give four whole numbers separated by commas: layers, attention heads, "
                "key-value heads, head dimension (e.g. 40,40,40,128)",
                param,
                ctx,
            )
        return dict(zip(ATTENTION_SHAPE_FIELDS, (int(p) for p in parts), strict=True))


FORMAT_OPTION = click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)


@click.command()
@click.option("--model", "model_id", metavar="ID", help="Catalog model ID (see knowledge/models.yaml).")
@click.option("--params-b", type=FiniteFloat(min=0, min_open=True), help="Total parameters, billions.")
@click.option(
    "--active-params-b",
    type=FiniteFloat(min=0, min_open=True),
    help="Active parameters per token (mixture of experts), billions.",
)
@click.option(
    "--attention-shape",
    type=AttentionShapeParam(),
    metavar="L,H,KV,D",
    help="With --params-b: the model's num_hidden_layers, num_attention_heads, num_key_value_heads and "
    "head_dim from its config.json (left out, the closest catalog model's KV cache stands in); multi-head "
    "or grouped-query attention only, not latent attention (DeepSeek V3/R1).",
)
@click.option("--precision", required=True, type=precision_choice, help="Weight precision.")
@click.option(
    "--context-tokens",
    type=WholeNumber(min=1),
    metavar="N",
    help="Serving context window the KV reserve must hold (default 8,192).",
)
@click.option("--shared-prefix-tokens", type=WholeNumber(min=0), metavar="N", help=SHARED_PREFIX)
@click.option(
    "--requests-per-day",
    type=WholeNumber(min=1),
    metavar="N",
    help="With a load: replicas, GPUs and utilization per GPU for its peak.",
)
@click.option(
    "--input-tokens", type=WholeNumber(min=1), metavar="N", help="Average prompt tokens (default 300)."
)
@click.option(
    "--output-tokens", type=WholeNumber(min=1), metavar="N", help="Average answer tokens (default 150)."
)
@click.option("--load-pattern", type=load_pattern_choice, help="Default steady.")
@click.option("--schedule", type=schedule_choice, help="Default always.")
@click.option(
    "--batch-window-hours",
    type=FiniteFloat(min=0.25, max=24),
    metavar="H",
    help="With --load-pattern batch: the hours a day within which the day's work must finish (default 8).",
)
@click.option(
    "--latency-sensitive/--not-latency-sensitive",
    default=None,
    help="With a load: whether users wait for the answers, as a workload's latency_sensitive (default: "
    "as its load pattern; a service nobody waits for takes no default latency targets).",
)
@click.option(
    "--max-ttft-ms",
    type=FiniteFloat(min=MIN_TARGET_MS),
    metavar="MS",
    help="With a load: the mean wait for the first token at the peak (default for a service that "
    "answers users: 1,000; a batch: none).",
)
@click.option(
    "--max-tpot-ms",
    type=FiniteFloat(min=MIN_TARGET_MS),
    metavar="MS",
    help="With a load: a request's mean time per output token at the peak (default for a service that "
    "answers users: 100; a batch: none).",
)
@click.option(
    "--serving-engine",
    type=serving_engine_choice,
    default="vllm",
    show_default=True,
    help="The engine's defaults set the requests run at once and the KV cache's precision.",
)
@click.option(
    "--concurrency",
    type=click.IntRange(min=1, max=1_000_000),
    metavar="N",
    help="Requests in flight per replica (each answered one replaced by the next, as benchmarks run): "
    "throughput, time to first token and time per output token at N.",
)
@click.option("--gpu", "gpu_id", metavar="ID", help="Evaluate only this GPU (see knowledge/gpus.yaml).")
@click.option(
    "--cards",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --gpu: one replica of N cards instead of the usual count (a count a replica runs on, "
    "as knowledge/sizing.yaml lists them under card_counts).",
)
@FORMAT_OPTION
@handle_errors
def size(
    model_id: str | None,
    params_b: float | None,
    active_params_b: float | None,
    attention_shape: dict[str, int] | None,
    precision: str,
    context_tokens: int | None,
    shared_prefix_tokens: int | None,
    requests_per_day: int | None,
    input_tokens: int | None,
    output_tokens: int | None,
    load_pattern: str | None,
    schedule: str | None,
    batch_window_hours: float | None,
    latency_sensitive: bool | None,
    max_ttft_ms: float | None,
    max_tpot_ms: float | None,
    serving_engine: str,
    concurrency: int | None,
    gpu_id: str | None,
    cards: int | None,
    output_format: str,
) -> None:
    """Card counts per GPU for a model: weights fit, and the usual count with KV-cache reserve; with
    --requests-per-day, the replicas each GPU needs for the peak; with --concurrency, throughput and
    latency at that many requests in flight."""
    from gpu_advisor.engine.apps.size import size as run_size
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.domain.requests import SizeRequest, said_with
    from gpu_advisor.engine.present.terminal import text_layout
    from gpu_advisor.engine.present.text import render_text

    load_options = {
        "avg_input_tokens": input_tokens,
        "avg_output_tokens": output_tokens,
        "load_pattern": load_pattern,
        "schedule": schedule,
        "batch_window_hours": batch_window_hours,
        "latency_sensitive": latency_sensitive,
        "max_time_to_first_token_ms": max_ttft_ms,
        "max_time_per_output_token_ms": max_tpot_ms,
    }
    given = {name: value for name, value in load_options.items() if value is not None}
    only_with_a_load = (
        "load_pattern",
        "schedule",
        "batch_window_hours",
        "latency_sensitive",
        "max_time_to_first_token_ms",
        "max_time_per_output_token_ms",
    )
    pattern = {name: given[name] for name in only_with_a_load if name in given}
    if pattern and requests_per_day is None:
        options = ", ".join(
            SIZE_OPTIONS.get(f"load.{name}", f"--{name.replace('_', '-')}") for name in pattern
        )
        raise InputError(f"{options}: describe a load, give --requests-per-day too")
    request: dict[str, Any] = {"model": model_id, "params_b": params_b, "active_params_b": active_params_b}
    request["attention_shape"] = attention_shape
    request |= {"precision": precision, "context_tokens": context_tokens, "serving_engine": serving_engine}
    request |= {"concurrency": concurrency, "shared_prefix_tokens": shared_prefix_tokens}
    request |= {"gpu": gpu_id, "cards": cards}
    if requests_per_day is not None:
        request["load"] = {"requests_per_day": requests_per_day, **given}
    else:
        request |= {"input_tokens": input_tokens, "output_tokens": output_tokens}
    try:
        result = run_size(SizeRequest.read(request, "size", SIZE_OPTIONS))
    except InputError as error:
        # A window left to its default is refused for the requests' length: the token counts are at fault.
        blamed = "--context-tokens" if context_tokens is not None else "--input-tokens, --output-tokens"
        tokens = {"avg_input_tokens": "--input-tokens", "avg_output_tokens": "--output-tokens"}
        raise said_with(error, {**SIZE_OPTIONS, **tokens, "context_tokens": blamed}) from None
    if output_format == "json":
        emit(to_json(result), None)
        return
    width, wrap = text_layout()
    emit(render_text("size.txt.j2", width=width, wrap=wrap, r=result), None)


TCO_OPTIONS = {
    "country": "--country",
    "server_price_usd": "--server-price",
    "server_price_eur": "--server-price-eur",
    "server_price_chf": "--server-price-chf",
    "gpus_per_server": "--gpus-per-server",
    "gpu": "--gpu",
    "months": "--months",
    "depreciation_years": "--depreciation-years",
    "gpu_watts": "--gpu-watts",
    "power_overhead": "--power-overhead",
    "usd_per_kwh": "--usd-per-kwh",
    "eur_per_kwh": "--eur-per-kwh",
    "rack_usd_per_month": "--rack-usd-per-month",
    "colocation_usd_per_month": "--colocation-usd-per-month",
    "staff_usd_per_month": "--staff-usd-per-month",
    "residual": "--residual",
}
"""The command line's option for each field of the tco request, for its error messages."""


@click.command()
@click.option(
    "--country",
    metavar="CC",
    help="ISO code of the company's country: its power, housing and staff defaults apply "
    "(knowledge/cost_defaults.yaml; default DE; US: the documents' own figures).",
)
@click.option(
    "--gpu",
    metavar="ID",
    help="The server's GPU (default: the catalog server's, h100-sxm); one the catalog prices no server "
    "of needs --server-price and draws its TDP.",
)
@click.option(
    "--server-price",
    type=FiniteFloat(min=0, min_open=True, max=MAX_SERVER_PRICE, amount=True),
    metavar="USD",
    help="Price of the 8-GPU server (default: $285,000, midpoint of $250,000-$320,000).",
)
@click.option(
    "--server-price-eur",
    type=FiniteFloat(min=0, min_open=True, max=MAX_SERVER_PRICE, amount=True),
    metavar="EUR",
    help="The server's price in EUR instead, converted at the catalog's rate (a European quote).",
)
@click.option(
    "--server-price-chf",
    type=FiniteFloat(min=0, min_open=True, max=MAX_SERVER_PRICE, amount=True),
    metavar="CHF",
    help="The server's price in CHF instead, converted through the EUR at the catalog's rates (a Swiss "
    "quote).",
)
@click.option(
    "--gpus-per-server",
    type=click.IntRange(min=1, max=MAX_GPUS_PER_SERVER),
    metavar="N",
    help="Cards in the server (default: the catalog server's 8); needs --server-price, the price of "
    "a server with that many cards.",
)
@click.option(
    "--months",
    type=click.IntRange(min=1, max=MAX_WRITE_OFF_MONTHS),
    metavar="N",
    help="Write-off period (default 36).",
)
@click.option(
    "--depreciation-years",
    type=click.IntRange(min=3, max=5),
    metavar="N",
    help="Economic life in years (instead of --months; default 3).",
)
@click.option(
    "--gpu-watts",
    type=FiniteFloat(min=0, min_open=True, max=MAX_GPU_WATTS),
    metavar="W",
    help="Power per GPU (default 700 W, H100 SXM TDP; with --gpu, the server's or the GPU's TDP).",
)
@click.option(
    "--power-overhead",
    type=FiniteFloat(min=1, max=MAX_POWER_OVERHEAD),
    metavar="F",
    help="Factor for CPU, NICs and power-supply losses (default 1.3).",
)
@click.option(
    "--usd-per-kwh",
    type=FiniteFloat(min=0, max=MAX_PRICE_PER_KWH),
    metavar="X",
    help="Electricity price (default: the country's).",
)
@click.option(
    "--eur-per-kwh",
    type=FiniteFloat(min=0, max=MAX_PRICE_PER_KWH),
    metavar="X",
    help="The electricity price in EUR instead, converted at the catalog's rate (a European tariff).",
)
@click.option(
    "--rack-usd-per-month",
    type=FiniteFloat(min=0, max=MAX_MONTHLY_COST, amount=True),
    metavar="X",
    help="Rack cost per server; replaces the country's housing (documents: 1,000).",
)
@click.option(
    "--colocation-usd-per-month",
    type=FiniteFloat(min=0, max=MAX_MONTHLY_COST, amount=True),
    metavar="X",
    help="Colocation per server and month; replaces the country's housing.",
)
@click.option(
    "--staff-usd-per-month",
    type=FiniteFloat(min=0, max=MAX_MONTHLY_COST, amount=True),
    metavar="X",
    help="Staff cost per server and month (default: the country's salary x the staff share).",
)
@click.option(
    "--residual",
    type=FiniteFloat(min=0, max=RESIDUAL_BELOW, max_open=True),
    metavar="F",
    help="Resale value after the write-off period as a share of the price (default 0).",
)
@FORMAT_OPTION
@lang_option
@currency_option
@handle_errors
def tco(output_format: str, lang: str = "en", currency: str = "USD", **overrides: Any) -> None:
    """Own 8-GPU server cost per GPU-hour (capital, power, rack, colocation, staff) at the company
    country's defaults, and break-even utilization per offer."""
    from gpu_advisor.engine.apps.tco import tco as run_tco
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.domain.requests import TcoRequest
    from gpu_advisor.engine.present.terminal import text_layout
    from gpu_advisor.engine.present.text import render_text

    names = {"server_price": "server_price_usd"}
    request = {names.get(key, key): value for key, value in overrides.items() if value is not None}
    result = run_tco(TcoRequest.read(request, "tco", TCO_OPTIONS))
    if output_format == "json":
        emit(to_json(result), None)
        return
    fmt = load_knowledge().display_format(lang, currency)
    emit(render_text("tco.txt.j2", fmt, *text_layout(), r=result), None)
