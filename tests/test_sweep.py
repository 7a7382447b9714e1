"""`gpu-advisor sweep`: one workload over a range of one or two inputs, and where its decision flips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers import EXAMPLES_DIR, NEGOTIATED_AWS

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.sweep.variables import apply_knowledge, parse_vary
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

PUBLIC_CHAT = str(EXAMPLES_DIR / "public-chat.yaml")
# DeepSeek-R1 in the cloud, busy around the clock: buying 16 H100s competes with renting 8 H200s.
# Llama 3.1 405B FP8 on its own weights (no hosted API serves them) holds one replica on eight H100: one
# own HGX node at the US cost lines (the documents' and a staff line) against the reserved 8-GPU
# p5.48xlarge at 8 x 1.90 x 730 = $11,096 a month (DeepSeek-R1 needs sixteen H100, which no instance of
# the catalog links in one machine).
REASONING = """\
name: reasoning-cloud
model: {name: llama-3.1-405b, precision: fp8, custom_weights: true}
requests_per_day: 30000
avg_input_tokens: 2000
avg_output_tokens: 2000
schedule: always
utilization: 0.8
latency_sensitive: false
company_country: US  # the documents' own (US) cost lines and the US staff line for the owned node
"""


OWN_WEIGHTS = """\
name: own-70b
model: {name: llama-3.1-70b, precision: fp8, custom_weights: true}
requests_per_day: 1000
load_pattern: variable
latency_sensitive: false
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["sweep", *args, "--as-of", "2026-11-30"])


def sweep_json(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_requests_sweep_crosses_the_serverless_line(tmp_path: Path) -> None:
    # Own 70B weights, variable load, not latency-sensitive: a scale-to-zero H200 costs less than a rented
    # one up to a few thousand requests a day, then the rental wins (DEP005's dedicated proposal).
    workload = tmp_path / "own.yaml"
    workload.write_text(OWN_WEIGHTS, encoding="utf-8")
    data = sweep_json(str(workload), "--vary", "requests_per_day=1000:9000:2000")
    labels = {d["label"]: d for d in data["decisions"]}
    points = [(p["values"][0], labels[p["decision"]]["deployment"]) for p in data["points"]]
    assert points == [
        (1000, "serverless"),
        (3000, "serverless"),
        (5000, "dedicated_cloud"),
        (7000, "dedicated_cloud"),
        (9000, "dedicated_cloud"),
    ]
    (flip,) = data["flips"]
    assert (flip["variable"], flip["below"], flip["above"]) == ("requests_per_day", 3000, 5000)
    assert "deployment" in flip["changed"]
    assert [p["deciding_rule_id"] for p in data["points"]] == ["DEP018"] * 2 + ["DEP005"] * 3
    costs = [p["usd_per_month"] for p in data["points"]]
    assert costs[:2] == sorted(costs[:2]) and costs[1] < costs[2]  # serverless grows with the load
    assert not any(p["cost_is_estimate"] for p in data["points"])


def test_requests_sweep_text_shows_break_even_table_and_chart(tmp_path: Path) -> None:
    workload = tmp_path / "own.yaml"
    workload.write_text(OWN_WEIGHTS, encoding="utf-8")
    result = invoke(str(workload), "--vary", "requests_per_day=1000:9000:2000")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "requests_per_day between 3,000 and 5,000: A -> B (deployment, pricing, offer)" in text
    assert "  A  serverless: runpod serverless, h200  (at the file's own values)\n" in text
    assert "\n5,000            B            1       $2,621  DEP005\n" in text  # 3.59 x 730
    assert "Monthly cost by requests_per_day" in text
    assert "\n           5,000 B |" + "B" * 40 + " $2,621\n" in text  # the longest bar
    assert "~" not in text


def test_the_header_counts_a_single_value_in_the_singular() -> None:
    """A variable swept over one value said "(1 values; ...)", and "from 1,000 to 1,000 in steps of 1"."""
    english = invoke(PUBLIC_CHAT, "--vary", "requests_per_day=1000:1000:1")
    assert english.exit_code == 0, english.output
    assert english.stdout.startswith(
        "Sweep of public-chat: requests_per_day at 1,000 only (1 value; the file's: 1,000,000). Evaluated on"
    )
    german = invoke(PUBLIC_CHAT, "--vary", "requests_per_day=1000:1000:1", "--lang", "de").stdout
    assert german.startswith(
        "Variation von public-chat: requests_per_day nur bei 1.000 (1 Wert; Wert der Datei: 1.000.000). "
        "Ausgewertet am"
    )
    assert (
        "(2 Werte; "
        in invoke(PUBLIC_CHAT, "--vary", "requests_per_day=1000:2000:1000", "--lang", "de").stdout
    )


def test_a_variable_of_one_value_is_named_by_that_value_in_the_header_and_the_map() -> None:
    """A second variable of one value (0.5:0.5:0.1, or a step past its stop: 0.5:0.6:0.2) headed the map
    "columns utilization from 0.5 (left) to 0.5 (right) in steps of 0.1"."""
    for spec in ("utilization=0.5:0.5:0.1", "utilization=0.5:0.6:0.2"):
        args = ("--vary", "requests_per_day=1000:2000:1000", "--vary", spec)
        text = " ".join(invoke(PUBLIC_CHAT, *args).stdout.split())
        assert "and utilization at 0.5 only (1 value; derived from the load)." in text
        assert "Decision map: rows requests_per_day, columns utilization at 0.5 only 1,000 | A" in text
        assert "steps of 0.1" not in text
        german = " ".join(invoke(PUBLIC_CHAT, *args, "--lang", "de").stdout.split())
        assert "und utilization nur bei 0,5 (1 Wert; aus der Last abgeleitet)." in german
        heading = "Entscheidungskarte: Zeilen requests_per_day, Spalten utilization nur bei 0,5"
        assert f"{heading} 1.000 | A" in german


def test_the_header_names_the_last_value_swept_not_the_stop_given(tmp_path: Path) -> None:
    """1,000 to 10,000 in steps of 2,000 sweeps 1,000, 3,000, 5,000, 7,000 and 9,000: the header says
    9,000."""
    workload = tmp_path / "own.yaml"
    workload.write_text(OWN_WEIGHTS, encoding="utf-8")
    text = invoke(str(workload), "--vary", "requests_per_day=1000:10000:2000").stdout
    assert "requests_per_day from 1,000 to 9,000 in steps of 2,000 (5 values;" in " ".join(text.split())


def test_a_stated_utilization_does_not_move_the_decision() -> None:
    # The serverless band and buy versus rent read the busy share; a stated figure only draws KNB003.
    data = sweep_json(PUBLIC_CHAT, "--vary", "utilization=0.1:0.9:0.4")
    assert len({p["decision"] for p in data["points"]}) == 1
    assert data["flips"] == []


def test_server_price_sweep_finds_buy_versus_rent(tmp_path: Path) -> None:
    workload = tmp_path / "reasoning.yaml"
    workload.write_text(REASONING, encoding="utf-8")
    # At a team's negotiated AWS rate (helpers.NEGOTIATED_AWS): AWS's own list prices no mix below owning.
    rates = ("--overrides", NEGOTIATED_AWS)
    data = sweep_json(str(workload), "--vary", "server_price_usd=100000:300000:50000", *rates)
    labels = {d["label"]: d for d in data["decisions"]}
    deployments = [labels[p["decision"]]["deployment"] for p in data["points"]]
    assert deployments == ["own_hardware"] * 2 + ["hybrid"] * 3
    (flip,) = data["flips"]
    # The peak takes two replicas of 8 x H100, two servers; the quieter hours need one. Own at $150k:
    # 2 x (150,000 / 36 + 8 x 0.7 kW x 1.3 x 730 h x $0.12 + $1,000 + staff 5 % x $90,520 / 12) = $12,363,
    # at $200k $15,141. The mixed
    # fleet beats that from $200k: one replica on 8 reserved H100 (8 x $1.90 x 730 h = $11,096) and the
    # second in the 3 hours of the steady profile above 1.207 times the average (1.28, 1.33, 1.25: there
    # 0.347 requests/s x 1.27 exceeds one replica's usable 0.532 requests/s, 64 % of its 0.827), 3 x 8
    # cards x 730 / 24 days at Lambda's $3.99 for its 8-GPU instances: $2,913; $14,009 in all.
    assert (flip["below"], flip["above"]) == (150_000, 200_000)
    fleet = 8 * 1.90 * 730 + 3 * 8 * 730 / 24 * 3.99
    assert fleet == pytest.approx(14_009, abs=1)
    staff = 90_520 * 0.05 / 12
    own = [2 * (price / 36 + 8 * 0.7 * 1.3 * 730 * 0.12 + 1_000 + staff) for price in (100_000, 150_000)]
    assert [round(p["usd_per_month"]) for p in data["points"]] == [*map(round, own), 14009, 14009, 14009]
    costs = [p["usd_per_month"] for p in data["points"][:2]]
    assert costs[0] < costs[1]  # a dearer server costs more a month
    variable = data["variables"][0]
    assert (variable["kind"], variable["baseline"]) == ("knowledge", 285_000)
    assert not any(p["cost_is_estimate"] for p in data["points"])
    text = invoke(str(workload), "--vary", "server_price_usd=100000:300000:50000", *rates).stdout
    assert "~" not in text


def test_two_variables_give_a_decision_map(tmp_path: Path) -> None:
    workload = tmp_path / "reasoning.yaml"
    workload.write_text(REASONING, encoding="utf-8")
    result = invoke(
        str(workload),
        "--vary",
        "server_price_usd=125000:225000:50000",
        "--vary",
        "usd_per_kwh=0.1:0.5:0.2",
        "--overrides",
        NEGOTIATED_AWS,
    )
    assert result.exit_code == 0, result.output
    assert "Decision map: rows server_price_usd, columns usd_per_kwh from 0.1 (left) to 0.5" in result.stdout
    rows = result.stdout.splitlines()[-3:]
    # At a team's negotiated AWS rate (helpers.NEGOTIATED_AWS), two servers against the mixed H100 fleet
    # ($14,009), 2 x (price / 36 + 8 x 0.7 x 1.3 x 730 x kWh price + 1,000 + 5 % x 90,520 / 12 of staff):
    # at $125k $10,762 / $12,887 / $15,013 at $0.10 / $0.30 / $0.50 a kWh, so power up to $0.30 undercuts
    # the fleet; at $175k $13,539 at $0.10 only; at $225k $16,317 at $0.10 already does not.
    assert [row.split(" | ") for row in rows] == [
        ["         125,000", "B B A"],
        ["         175,000", "B A A"],
        ["         225,000", "A A A"],
    ]


def test_offer_price_changes_only_that_offer() -> None:
    knowledge = load_knowledge()
    variable, _ = parse_vary("price:runpod/community/h200=1:2:1", knowledge)
    cheaper = apply_knowledge(variable, 1.0, knowledge, "hgx-h100-8")
    changed = [
        (old.key, new.usd_per_gpu_hour)
        for old, new in zip(knowledge.offers.offers, cheaper.offers.offers, strict=True)
        if old != new
    ]
    assert changed == [("runpod/community/h200", 1.0)]
    assert load_knowledge().offers == knowledge.offers  # the shipped knowledge base is untouched


def test_offer_price_sweep_moves_the_choice() -> None:
    data = sweep_json(
        PUBLIC_CHAT, "--vary", "price:runpod/community/h200=1:5:2", "--vary", "utilization=0.8:0.8:0.1"
    )
    labels = {d["label"]: d for d in data["decisions"]}
    cheapest = labels[data["points"][0]["decision"]]
    assert (cheapest["provider"], cheapest["offer"], cheapest["gpu"]) == ("runpod", "community", "h200")
    assert data["flips"] and data["flips"][0]["variable"] == "price:runpod/community/h200"


def test_a_sweep_over_an_excluded_offer_says_its_price_does_not_enter() -> None:
    """The HR assistant's personal data stay in the EU and a replica needs a fast link: AWS's A10G (US,
    PCIe) is excluded by NET001 and RES001, so sweeping its price changes nothing, and the sweep says
    why; an admitted offer's sweep says nothing of the kind."""
    hr = str(EXAMPLES_DIR / "hr-assistant.yaml")
    data = sweep_json(hr, "--vary", "price:aws/g5-on-demand/a10g=0.5:3:0.5")
    assert data["variables"][0]["excluded_by"] == ["NET001", "RES001"]
    assert len({p["decision"] for p in data["points"]}) == 1 and data["flips"] == []
    text = invoke(hr, "--vary", "price:aws/g5-on-demand/a10g=0.5:3:0.5").output
    assert (
        "  price:aws/g5-on-demand/a10g: the offer is excluded for this workload at the file's own values "
        "(NET001, RES001), so the swept price does not enter the decision\n" in text
    )
    admitted = sweep_json(hr, "--vary", "price:scaleway/h100-sxm-4-80g/h100-sxm=1:5:1")
    assert admitted["variables"][0]["excluded_by"] == []
    assert admitted["flips"]


def test_ranges_are_exact_decimals() -> None:
    _, variable = parse_vary("utilization=0.1:0.3:0.05", load_knowledge())
    assert variable.values == (0.1, 0.15, 0.2, 0.25, 0.3)
    _, whole = parse_vary("requests_per_day=1000:3000:1000", load_knowledge())
    assert whole.values == (1000, 2000, 3000) and all(isinstance(v, int) for v in whole.values)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("utilisation=0.1:0.5:0.1", "unknown variable 'utilisation'; allowed: "),
        ("utilisation=0.1:0.5:0.1", "(did you mean 'utilization'?)"),
        ("utilization=0.1:0.5", "expected NAME=START:STOP:STEP"),
        ("utilization", "expected NAME=START:STOP:STEP"),
        ("utilization=0.5:0.1:0.1", "STOP must not be below START"),
        ("utilization=0.1:0.5:0", "STEP must be greater than 0"),
        ("utilization=a:0.5:0.1", "START 'a' is not a number"),
        ("utilization=0.1:1.5:0.1", "utilization: Input should be less than or equal to 1"),
        ("requests_per_day=1000:2000:0.5", "requests_per_day takes whole numbers"),
        # German thousands: 1.000 is 1 to a decimal reader, and swept "from 1 to 1" before.
        (
            "requests_per_day=1.000:2.000:500",
            "requests_per_day takes whole numbers, and the dot of 1.000 reads as a decimal point, not as a "
            "thousands separator: write 1000",
        ),
        # A fraction of a whole number (1.5) still says the general rule.
        ("requests_per_day=1.5:2:1", "requests_per_day takes whole numbers; START, STOP and STEP"),
        ("utilization=0:1:0.001", "at most 200 per variable"),
        ("server_price_usd=0:100000:50000", "a price must be greater than 0"),
        ("price:runpod/comunity/h200=1:2:1", "did you mean price:runpod/community/h200?"),
        # Every value of the range clashes with the workload's own request (450 tokens): nothing to sweep.
        (
            "context_tokens=256:400:16",
            "--vary context_tokens=256: context_tokens: an average request (300 in + 150 out = 450 tokens)",
        ),
    ],
)
def test_bad_vary_exits_2_with_a_clear_message(spec: str, message: str) -> None:
    result = invoke(PUBLIC_CHAT, "--vary", spec)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_at_most_two_variables() -> None:
    spec = "utilization=0.1:0.2:0.1"
    result = invoke(
        PUBLIC_CHAT, "--vary", spec, "--vary", "requests_per_day=1:2:1", "--vary", "usd_per_kwh=0:1:1"
    )
    assert result.exit_code == 2
    assert "give one or two variables" in result.stderr
    result = invoke(PUBLIC_CHAT, "--vary", spec, "--vary", spec)
    assert result.exit_code == 2
    assert "utilization is given twice" in result.stderr


def test_same_sweep_gives_identical_output() -> None:
    args = (PUBLIC_CHAT, "--vary", "utilization=0.2:0.4:0.1")
    assert invoke(*args).stdout == invoke(*args).stdout


@pytest.mark.parametrize(
    ("example", "vary", "own_value"),
    [
        ("public-chat", "requests_per_day=100000:300000:100000", "the file's: 1,000,000"),
        ("nightly-batch", "hours_per_month=100:700:200", "the default: 176"),  # office hours' 176
        ("prototype", "utilization=0.1:0.9:0.4", "derived from the load"),
        ("public-chat", "server_price_usd=200000:300000:50000", "the knowledge base's: 285,000"),
    ],
)
def test_the_header_says_where_the_varied_input_s_own_value_comes_from(
    example: str, vary: str, own_value: str
) -> None:
    # A value the file leaves out was once called "the file's: derived from the load", whatever it was.
    result = invoke(str(EXAMPLES_DIR / f"{example}.yaml"), "--vary", vary)
    assert result.exit_code == 0, result.output
    assert f"values; {own_value}). Evaluated on" in result.stdout.splitlines()[0]


def test_a_value_your_overrides_file_replaced_is_said_to_be_yours(tmp_path: Path) -> None:
    """An own server priced at EUR 100,000 in an overrides file ($116,000 at 1.16) was called "the
    knowledge base's"."""
    overrides = tmp_path / "server.yaml"
    overrides.write_text("own_server: {price_eur: 100000}\n", encoding="utf-8")
    args = ("--vary", "server_price_usd=200000:300000:50000", "--overrides", str(overrides))
    result = invoke(str(EXAMPLES_DIR / "public-chat.yaml"), *args)
    assert result.exit_code == 0, result.output
    assert "values; your overrides file's: 116,000). Evaluated on" in result.stdout.splitlines()[0]


def test_a_model_the_catalog_refuses_is_named_with_its_file(tmp_path: Path) -> None:
    """Found with the workload's other fields: the message names the file, as ``recommend``'s does."""
    workload = tmp_path / "typo.yaml"
    workload.write_text("name: x\nmodel: {name: llama3.1-8b, precision: fp8}\nrequests_per_day: 1000\n")
    result = CliRunner().invoke(main, ["sweep", str(workload), "--vary", "requests_per_day=1000:2000:500"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"error: {workload}: invalid workload\n  model.name: unknown value 'llama3.1-8b'; allowed: "
    )


def test_the_policy_applies_at_every_point(tmp_path: Path) -> None:
    # A German retail Q&A with personal data: IONOS's API without the example policy, OVHcloud's (an
    # approved provider, ORG003) with it, at every volume swept.
    workload = tmp_path / "retail.yaml"
    workload.write_text(
        "name: retail\nmodel: {name: llama-3.3-70b, precision: fp8}\nrequests_per_day: 20000\n"
        "personal_data: true\ncompany_country: DE\n",
        encoding="utf-8",
    )
    vary = ("--vary", "requests_per_day=10000:30000:10000", "--format", "json")
    plain = json.loads(invoke(str(workload), *vary).stdout)
    ruled = json.loads(invoke(str(workload), *vary, "--policy", str(EXAMPLES_DIR / "org-policy")).stdout)
    assert [d["offer"] for d in plain["decisions"]] == ["llama-3.3-70b-ionos"]
    assert [d["offer"] for d in ruled["decisions"]] == ["llama-3.3-70b-ovhcloud"]
    assert {point["decision"] for point in ruled["points"]} == {"A"}


def test_an_offer_price_sweep_names_its_unit_and_a_euro_list_price_without_float_noise() -> None:
    """OVHcloud lists its H100 in EUR (EUR 2.80 an hour, 2.80 x 1.16 = USD 3.248): the header gave the
    knowledge base's value as 3.2479999999999998 and no unit, while the values swept are USD per GPU-hour
    whatever --currency shows."""
    args = ("--vary", "price:ovhcloud/h100/h100-pcie=1:3:1", "--currency", "EUR")
    header = invoke(PUBLIC_CHAT, *args).stdout.splitlines()[0]
    assert header.startswith(
        "Sweep of public-chat: price:ovhcloud/h100/h100-pcie (USD per GPU-hour, whatever the currency "
        "shown) from 1 to 3 in steps of 1 (3 values; the knowledge base's: 3.248)."
    )


CONTEXT_256 = (
    "--vary context_tokens=256: context_tokens: an average request (300 in + 150 out = 450 tokens) does "
    "not fit context_tokens: 256; give a context_tokens of at least 450"
)


def test_a_combination_the_workload_refuses_is_a_point_of_the_sweep_not_its_end() -> None:
    """public-chat asks 300 + 150 tokens: a 256-token context refuses it, as ``recommend`` would; the
    sweep still evaluates 2,304 to 6,400 and lists the refusal (it stopped the whole sweep with exit 2)."""
    result = invoke(PUBLIC_CHAT, "--vary", "context_tokens=256:8192:2048")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "  -  refused: the workload is not valid at these values (listed below)\n" in text
    assert "  none: the decision is the same wherever the workload is valid\n" in text
    assert (
        "Refused (1 of 4 combinations; no break-even is drawn across them):\n  " + CONTEXT_256 + "\n" in text
    )
    assert "256            -            -            -  refused\n" in text
    assert "2,304          A            -       $5,476  DEP011\n" in text
    assert "           256 - |" + " " * 41 + "refused\n" in text
    points = sweep_json(PUBLIC_CHAT, "--vary", "context_tokens=256:8192:2048")["points"]
    assert points[0] == {
        "values": [256],
        "decision": "-",
        "gpus": None,
        "usd_per_month": None,
        "cost_is_estimate": False,
        "deciding_rule_id": "-",
        "refused": CONTEXT_256,
    }
    assert [p["refused"] for p in points[1:]] == [None, None, None]


def test_no_break_even_is_drawn_across_a_refused_combination() -> None:
    """Decisions A and B on either side of a refused point: no flip joins them, and the text does not
    claim the decision stays the same."""
    from gpu_advisor.engine.apps.sweep.model import SweepDecision, SweepPoint, SweepVariable
    from gpu_advisor.engine.apps.sweep.run import all_flips

    def at(value: int, decision: str, refused: str | None = None) -> SweepPoint:
        return SweepPoint(
            values=(value,),
            decision=decision,
            gpus=None,
            usd_per_month=None,
            deciding_rule_id="X",
            refused=refused,
        )

    variable = SweepVariable(
        name="context_tokens",
        kind="workload",
        start=1,
        stop=3,
        step=1,
        decimals=0,
        values=(1, 2, 3),
        baseline=None,
    )
    decisions = {
        label: SweepDecision(
            label=label, deployment="api", pricing=None, provider=None, offer=offer, gpu=None, description=""
        )
        for label, offer in (("A", "a"), ("B", "b"), ("-", None))
    }
    refused = [at(1, "A"), at(2, "-", "refused"), at(3, "B")]
    assert all_flips(refused, [variable], decisions) == ()
    flips = all_flips([at(1, "A"), at(2, "A"), at(3, "B")], [variable], decisions)
    assert [(f.below, f.above, f.changed) for f in flips] == [(2, 3, ("offer",))]


def test_a_range_without_refusals_whose_decision_differs_from_the_file_s_says_it_is_the_same_throughout() -> (
    None
):
    """Both points decide B, the file's own values A: the decisions listed are two, but nothing was
    refused, so the break-even says the decision is the same over the range (it said the decision
    changes only across refused combinations)."""
    # 800,000 and 1,250,000 a day both go to Scaleway's 8-card instances (16 and 24 cards); 850,000
    # goes to its 2-card ones (18 cards).
    result = invoke(
        str(EXAMPLES_DIR / "hr-assistant.yaml"), "--vary", "requests_per_day=800000:1250000:450000"
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert (
        "  A  dedicated cloud GPUs: scaleway h100-sxm-4-80g, h100-sxm, on-demand  "
        "(at the file's own values)\n" in text
    )
    assert (
        "Break-even (the decision changes between two neighbouring values):\n"
        "  none: the decision is the same over the whole range\n"
    ) in text
    assert "refused" not in text
