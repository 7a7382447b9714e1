"""A batch rented by the hour is priced for its running hours; the start-up a run from which another
admitted rental bills less (engine/calc/batch_start_up.py), worked out by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpu_advisor.engine.calc.batch_start_up import start_up_break_even
from gpu_advisor.engine.domain.options import Option, ServerlessBilling


def option(provider: str, usd_per_hour: float, usd_per_month: float, **changes: Any) -> Option:
    fields: dict[str, Any] = {
        "provider": provider,
        "offer": "on-demand",
        "gpu": "h100-sxm",
        "gpus": 2,
        "pricing": "on_demand",
        "usd_per_hour": usd_per_hour,
        "usd_per_month": usd_per_month,
        "excluded_by": (),
        "serverless": None,
        "fleet": None,
    }
    return Option.model_construct(**{**fields, **changes})


NIGHTLY_BATCH = Path(__file__).resolve().parents[1] / "examples" / "nightly-batch.yaml"

BEST = option("lambda", 53.52, 470.976, gpu="b200", gpus=8)
"""8 × B200 at $6.69 a card-hour, 8.8 billed hours a month: 22 runs of 24 minutes."""


def test_a_rival_with_a_cheaper_instance_hour_wins_from_its_break_even() -> None:
    rival = option("lambda", 5.98, 563.5153)
    found = start_up_break_even([BEST, rival], BEST, 22)
    assert found is not None
    # $92.5393 more a month, made up by $47.54 an hour less over 22 starts a month:
    # 60 × 92.5393 / (22 × 47.54) = 5.3088 minutes a run.
    assert found.minutes == pytest.approx(5.3088, abs=1e-4)
    assert (found.provider, found.gpu, found.gpus, found.starts_priced) == ("lambda", "h100-sxm", 2, False)


def test_the_earliest_break_even_is_given() -> None:
    near = option("near", 5.98, 563.5153)  # 5.31 minutes
    far = option("far", 10.0, 600.0)  # 60 × 129.024 / (22 × 43.52) = 8.09 minutes
    assert start_up_break_even([BEST, far, near], BEST, 22).provider == "near"  # type: ignore[union-attr]


def test_a_serverless_rival_has_its_cold_starts_in_its_bill() -> None:
    best = option("runpod", 23.92, 3504.17, gpu="b200", gpus=4)
    serverless = option(
        "modal",
        6.25,
        3676.0,
        offer="functions",
        pricing="serverless",
        serverless=ServerlessBilling.model_construct(),
    )
    found = start_up_break_even([best, serverless], best, 22)
    assert found is not None and found.starts_priced
    # Only the recommendation's start-up counts: 60 × 171.83 / (22 × 23.92) = 19.59 minutes.
    assert found.minutes == pytest.approx(60 * 171.83 / (22 * 23.92))


@pytest.mark.parametrize(
    "rival",
    [
        option("dearer-hour", 60.0, 500.0),  # start-up makes it dearer still
        option("cheaper", 5.98, 400.0),  # cheaper already: it lost on a preference, not on start-up
        option("excluded", 5.98, 563.5, excluded_by=("NET001",)),
        option("reserved", 5.98, 563.5, pricing="reserved"),  # bills every hour: start-up adds nothing
    ],
    ids=lambda o: o.provider,
)
def test_no_break_even_against(rival: Option) -> None:
    assert start_up_break_even([BEST, rival], BEST, 22) is None


def test_a_recommendation_not_billed_by_the_hour_has_none() -> None:
    reserved = option("aws", 40.0, 900.0, pricing="reserved")
    assert start_up_break_even([reserved, option("lambda", 5.98, 1000.0)], reserved, 22) is None


def test_the_memo_says_when_start_up_changes_the_choice() -> None:
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    text = CliRunner().invoke(main, ["recommend", str(NIGHTLY_BATCH), "--as-of", "2026-11-30"]).output
    assert (
        "Start-up can change the choice: the recommended 4 × b200 bill $23.92 an hour ($3,504 a month for "
        "the runs alone), modal functions (4 × b200) $3,676 a month with its cold starts. From about 19.6 "
        "minutes of start-up a run, the latter bills less; time your instances' start and the weights' load "
        "before you choose."
    ) in " ".join(text.split())
