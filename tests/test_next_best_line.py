"""The Summary's "Next best" line names the cards a runner-up bills, not only those its plan needs,
where the offer sells whole instances (the options table's "(pays N)"): its price is that of the whole
instances, and a reader comparing cards would otherwise see 4 cards priced as 8."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, read_example, run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo


def test_a_runner_up_in_whole_instances_says_what_it_bills() -> None:
    r = run(read_example(EXAMPLES_DIR / "hr-assistant.yaml"))
    runner_up = r.next_best_option
    assert runner_up is not None and (runner_up.provider, runner_up.offer, runner_up.gpus) == (
        "scaleway",
        "h100-sxm-2-80g",
        4,
    )
    assert (
        "Next best dedicated offer: scaleway h100-sxm-2-80g (4 × h100-sxm) at $4,054 per month."
        in render_memo(r)
    )
    # Were STACKIT's 8-card H100 server the runner-up (its 4 cards billed as 8, $19,701 a month), the line
    # would say what it bills, as the options table does.
    (whole,) = [o for o in r.options if (o.provider, o.offer) == ("stackit", "n3-gpu-server")]
    assert (whole.gpus, whole.gpus_rented) == (4, 8)
    whole_result = r.model_copy(update={"next_best_option": whole})
    memo = " ".join(render_memo(whole_result).split())
    assert (
        "Next best dedicated offer: stackit n3-gpu-server (4 × h100-sxm, sold in whole instances: 8 cards "
        "billed) at $19,701 per month."
    ) in memo
    german = " ".join(render_memo(whole_result, Format.named("de")).split())
    assert (
        "Nächstbestes dediziertes Angebot: stackit n3-gpu-server (4 × h100-sxm, in ganzen Instanzen "
        "verkauft: 8 Karten abgerechnet) für 19.701 $ pro Monat."
    ) in german
