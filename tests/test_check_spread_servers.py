"""TCO027: a bought server that keeps the peak's replicas through the loss of another is not idle. The
recommendation's memo says that surviving a lost server takes one server more (with replicas on its
cards), and ``check`` had called that very server idle."""

from __future__ import annotations

from helpers import EVALUATED_ON

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.i18n.formats import Format

# Llama 3.1 70B FP8 in the building at 100,000 requests a day: one replica of 2 x H100 carries the peak,
# min_replicas asks for a second; both fit one 8-card HGX H100 server.
WORKLOAD = {
    "name": "two-replica-assistant",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 100_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 300,
    "load_pattern": "steady",
    "min_replicas": 2,
    "on_premises_required": True,
    "company_country": "DE",
}


def tco027(servers: int, lang: str = "en", **proposal: object) -> tuple[str, str | None]:
    document = ProposalDocument.model_validate(
        {
            "workload": WORKLOAD,
            "proposal": {
                "name": "own servers",
                "deployment": "own_hardware",
                "server": "hgx-h100-8",
                "servers": servers,
                **proposal,
            },
        }
    )
    result = check_document(document, "own.yaml", 1, EVALUATED_ON, fmt=Format.named(lang))
    (item,) = [i for i in result.results if i.rule_id == "TCO027"]
    return item.status, item.message


def test_the_server_that_survives_a_lost_one_is_not_idle() -> None:
    """One replica carries the peak (4 to a server of 8 cards): two servers keep it through a loss."""
    assert tco027(1)[0] == "pass"
    assert tco027(2)[0] == "pass"


def test_a_third_server_beyond_the_two_the_replicas_spread_over_is_idle() -> None:
    status, message = tco027(3)
    assert status == "warn"
    assert message == (
        "The workload needs 4 cards, placed on 1 server of 8, and 2 with replicas on their cards keep the "
        "peak through the loss of any one; the proposal buys 3, so 1 stands idle and is paid for all the "
        "same."
    )
    _, german = tco027(3, "de")
    assert german == (
        "Der Workload braucht 4 Karten, verteilt auf 1 Server mit 8 Karten, und 2 mit Replikaten auf ihren "
        "Karten halten die Spitze beim Ausfall eines beliebigen davon; der Vorschlag kauft 3, also steht 1 "
        "leer und wird trotzdem bezahlt."
    )


def test_named_cards_of_one_replica_leave_the_second_server_idle() -> None:
    """Two cards named: one replica, on one of the two servers; the other holds nothing."""
    status, message = tco027(2, gpu="h100-sxm", gpus=2)
    assert status == "warn"
    assert message is not None and message.endswith("so 1 stands idle and is paid for all the same.")


def test_a_batch_keeps_no_peak_through_a_lost_server() -> None:
    """A batch's run restarts on the servers left: a second server beside the one its cards need is idle,
    and its memo prices no server to survive a loss (there was one: 'surviving that takes one server
    more')."""
    batch = {**WORKLOAD, "load_pattern": "batch", "batch_window_hours": 8, "min_replicas": 1}
    document = ProposalDocument.model_validate(
        {
            "workload": batch,
            "proposal": {"name": "own", "deployment": "own_hardware", "server": "hgx-h100-8", "servers": 2},
        }
    )
    result = check_document(document, "own.yaml", 1, EVALUATED_ON)
    (item,) = [i for i in result.results if i.rule_id == "TCO027"]
    assert item.status == "warn"
    assert item.message == (
        "The workload needs 2 cards, placed on 1 server of 8; the proposal buys 2, so 1 stands idle and is "
        "paid for all the same."
    )
