"""A batch rented by the hour is priced for its running hours; the start-up a run from which another
admitted option bills less (engine/calc/batch_start_up.py), worked out by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import EVALUATED_ON, NO_API_POLICY, read_example, run_waves, wave_seconds

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.batch_start_up import start_up_break_even
from gpu_advisor.engine.domain.options import Option, ServerlessBilling
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.present.memo import render_memo

NIGHTLY_BATCH = Path(__file__).resolve().parents[1] / "examples" / "nightly-batch.yaml"
"""Run with managed APIs ruled out (``helpers.NO_API_POLICY``): the example itself goes to DeepInfra's
Llama 3.3 70B, cheaper than the rental whose start-up these tests are about."""
PER_SECOND, PER_MINUTE, WHOLE_HOURS = 1, 60, None
INCREMENTS = {"best": PER_SECOND, "lambda": PER_MINUTE, "ovh": WHOLE_HOURS}


def increment_of(option: Option) -> int | None:
    return INCREMENTS.get(option.provider, PER_SECOND)


def option(provider: str, usd_per_hour: float, usd_per_month: float, **changes: Any) -> Option:
    fields: dict[str, Any] = {
        "provider": provider,
        "offer": "on-demand",
        "gpu": "h100-sxm",
        "gpus": 2,
        "pricing": "on_demand",
        "usd_per_hour": usd_per_hour,
        "usd_per_month": usd_per_month,
        "hours_per_day_running": usd_per_month / 22 / usd_per_hour,
        "excluded_by": (),
        "serverless": None,
        "fleet": None,
        "chosen": False,
    }
    return Option.model_construct(**{**fields, **changes})


# 8 × B200 at $53.52 an instance-hour, billed by the second, 0.4 hours a run, 22 runs: $470.976 a month,
# and $1,177.44 more a month for each hour of start-up a run.
BEST = option("best", 53.52, 470.976, gpu="b200", gpus=8, chosen=True)


def break_even(*rivals: Option, best: Option = BEST, ruled_out: tuple[str, ...] = ()) -> Any:
    return start_up_break_even([best, *rivals], best, 22, increment_of, ruled_out)


def test_a_rival_with_a_cheaper_instance_hour_wins_from_its_break_even() -> None:
    # Lambda's 2 × H100 at $5.98, billed by the minute: $563.52 for 4.2836 hours a run ($125.84 a month
    # for each hour of start-up). $92.544 more a month, made up at 1,177.44 - 131.56 = $1,045.88 an hour
    # of start-up: 0.088485 hours, 5.309 minutes.
    found = break_even(option("lambda", 5.98, 563.52))
    assert found.minutes == pytest.approx(60 * 92.544 / (1177.44 - 22 * 5.98), abs=1e-6)
    assert (found.provider, found.gpu, found.gpus, found.billing) == ("lambda", "h100-sxm", 2, "by_the_hour")


def test_a_rival_billed_in_whole_hours_bills_nothing_more_until_its_run_crosses_the_hour() -> None:
    # OVH billed by the started hour: a 0.83-hour run billed 1 hour at $32, $704 a month. Start-up is free
    # until 0.17 hours (10.2 minutes), where the recommendation has grown only to $671.14: the run then
    # bills 2 hours, $1,408, which the recommendation reaches at (1,408 - 470.976) / 1,177.44 = 0.795822
    # hours, 47.75 minutes (billed continuously it would be 11.9 minutes).
    found = break_even(option("ovh", 32.0, 704.0, hours_per_day_running=0.83))
    assert found.minutes == pytest.approx(60 * (1408 - 470.976) / 1177.44, abs=1e-6)


def test_the_earliest_break_even_is_given() -> None:
    near = option("lambda", 5.98, 563.52)  # 5.31 minutes
    far = option("far", 10.0, 600.0)  # billed by the second: 60 × 129.024 / (1,177.44 - 220) = 8.09
    assert break_even(far, near).provider == "lambda"


def test_a_serverless_rival_has_its_cold_starts_in_its_bill() -> None:
    serverless = option(
        "modal",
        6.25,
        800.0,
        offer="functions",
        pricing="serverless",
        serverless=ServerlessBilling.model_construct(),
    )
    found = break_even(serverless)
    # Only the recommendation's start-up counts: 60 × (800 - 470.976) / 1,177.44 = 16.77 minutes.
    assert found.billing == "serverless"
    assert found.minutes == pytest.approx(60 * (800 - 470.976) / 1177.44)


def test_a_reservation_bills_every_hour_of_its_term_whatever_the_start_up() -> None:
    reserved = option("aws", 4.0, 2_920.0, pricing="reserved", hours_per_day_running=None)
    found = break_even(reserved)
    assert found.billing == "every_hour"
    assert found.minutes == pytest.approx(60 * (2_920 - 470.976) / 1177.44)


@pytest.mark.parametrize(
    "rival",
    [
        option("dearer-hour", 60.0, 500.0),  # start-up makes it dearer still
        option("cheaper", 5.98, 400.0),  # cheaper already: it lost on a preference, not on start-up
        option("excluded", 5.98, 563.5, excluded_by=("NET001",)),
        option("never", 53.0, 100_000.0),  # not within a day of start-up
    ],
    ids=lambda o: o.provider,
)
def test_no_break_even_against(rival: Option) -> None:
    assert break_even(rival) is None


def test_a_rival_of_a_deployment_the_rules_ruled_out_is_none() -> None:
    serverless = option(
        "modal", 6.25, 800.0, pricing="serverless", serverless=ServerlessBilling.model_construct()
    )
    assert break_even(serverless, ruled_out=("serverless",)) is None
    assert break_even(option("lambda", 5.98, 563.52), ruled_out=("dedicated_cloud",)) is None


@pytest.mark.parametrize(
    "best",
    [
        BEST.model_copy(update={"chosen": False}),  # the decision is another deployment
        BEST.model_copy(update={"pricing": "reserved"}),  # billed every hour: start-up adds nothing
    ],
    ids=["not chosen", "reserved"],
)
def test_a_recommendation_not_rented_by_the_hour_has_none(best: Option) -> None:
    assert break_even(option("lambda", 5.98, 563.52), best=best) is None


def test_the_memo_says_when_start_up_changes_the_choice() -> None:
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    text = (
        CliRunner()
        .invoke(main, ["recommend", str(NIGHTLY_BATCH), "--as-of", "2026-11-30", "--policy", NO_API_POLICY])
        .output
    )
    # 149.75 billed hours a month at $23.92 and vLLM's 21.8 s start a run, $3,582 (one-card replicas of a
    # dense 72B: no all-reduces; the bandwidth share of 0.86 sets their decode steps, 499 a request after the
    # prompt's pass yields its first token, the compute share of 0.58 their prefills). A B200 holds 114
    # requests at once: 192 GB x 0.9 less the FP8 checkpoint's 75.20 GB (70.22B parameters x 1 byte and
    # the 16-bit embedding and lm_head, 2 x 152,064 x 8,192 x 2 bytes) and vLLM's 3.5 GiB leave 93.84 GB,
    # 114.6 requests of 2,500 tokens x 327,680 bytes. Each of the 4 replicas runs 100,000 requests: 877
    # full waves of 27.836 s and one of 22, 11.870 s: 6.7845 hours. Modal's 4 instances run as long on 22
    # workdays, 597.04 hours, with 88 cold starts of 80.97 s (1.98 hours) and 88 idle timeouts of 60 s and
    # half a second of rounding (1.48 hours): 600.49 hours at $6.2496, $3,752.85. The $170.76 between them
    # is 7.14 hours at $23.92, 19.5 minutes on each of the 22 runs.
    r = recommend(
        validate_workload(read_example(NIGHTLY_BATCH), "nightly"), EVALUATED_ON, policy_dir=NO_API_POLICY
    )
    row = next(g for g in r.sizing.gpus if g.gpu == "b200")
    assert (row.replicas, row.concurrent_requests, run_waves(400_000, 4, 114)) == (4, 114, (877, 22))
    last = wave_seconds(22, "qwen2.5-72b", "fp8", "b200", 1, (2000, 500))
    full = 114 / row.requests_per_second_per_replica
    assert (round(full, 3), round(last, 3)) == (27.836, 11.870)
    modal = next(o for o in r.options if (o.provider, o.offer) == ("modal", "functions"))
    assert modal.serverless is not None and round(modal.serverless.cold_start_seconds, 2) == 80.97
    hours = 4 * (877 * full + last) / 3600 * 22 + 88 * (modal.serverless.cold_start_seconds + 60.5) / 3600
    assert round(hours, 2) == 600.49 and modal.billed_hours_per_month == pytest.approx(hours)
    assert round(hours * 6.2496, 2) == round(modal.usd_per_month, 2) == 3752.85
    assert r.best_option is not None and round(r.best_option.usd_per_month) == 3582
    assert round((modal.usd_per_month - r.best_option.usd_per_month) / 23.92 / 22 * 60, 1) == 19.5
    assert (
        "Start-up can change the choice: the recommended rental (4 × b200) bills $23.92 an hour ($3,582 a "
        "month for the runs and their starts as counted above), modal functions (4 × b200) $3,753 a month "
        "with its cold starts. From about 19.5 minutes of start-up a run beyond that counted, the latter "
        "bills less; time your instances' start and the engine's before you choose. Its cold starts are "
        "floors (the platform's start, the weights' load and the engine's start, each at its best): with "
        "longer ones it bills more, so the start-up a run beyond which it bills less lies further out than "
        "stated."
    ) in " ".join(text.split())


def test_a_spot_rate_is_said_with_its_allowance_for_redone_work() -> None:
    """A spot rental's month is its running hours plus 5 % for work redone after interruptions
    (knowledge/pricing_assumptions.yaml): beside its hourly rate, the sentence says so, or the hour times
    the hours would not give the month. The nightly batch's result with its best option and its rival
    made spot, the rival a Vast.ai spot listing (the template's reading of them; the pipeline's spot
    pricing is tested apart)."""
    r = recommend(
        validate_workload(read_example(NIGHTLY_BATCH), "nightly"), EVALUATED_ON, policy_dir=NO_API_POLICY
    )
    assert r.best_option is not None and r.batch_start_up is not None and r.spot_interruption_overhead == 0.05
    spot = r.model_copy(
        update={
            "best_option": r.best_option.model_copy(update={"pricing": "spot", "spot_overhead": 0.05}),
            "batch_start_up": r.batch_start_up.model_copy(
                update={
                    "billing": "by_the_hour",
                    "pricing": "spot",
                    "spot_overhead": 0.05,
                    "provider": "vast",
                    "offer": "spot",
                    "usd_per_hour": 30.0,
                }
            ),
        }
    )
    assert (
        "the recommended rental (4 × b200) bills $23.92 an hour ($3,582 a month for the runs and their "
        "starts as counted above, which counts 5 % more hours for work redone after interruptions), vast "
        "spot (4 × b200) $30.00 an hour ($3,753 a month, which counts 5 % more hours for work redone after "
        "interruptions)."
    ) in " ".join(render_memo(spot).split())
    # A rival rented by the hour has no cold starts to call floors.
    assert "Its cold starts are floors" not in render_memo(spot)
    assert "a month for the runs and their starts as counted above)," in " ".join(render_memo(r).split())
