"""Shared test helpers: a fixed evaluation date, the repository paths, running a workload, running the
command line, and reading the HTTP service's answers."""

from __future__ import annotations

import copy
import datetime as dt
import math
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.calc.performance import replica_performance
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.rulebook.durable import Evaluator

if TYPE_CHECKING:
    import httpx
    from click.testing import Result

EVALUATED_ON = dt.date(2026, 11, 30)
TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
EXAMPLES_DIR = REPO_ROOT / "examples"
GOLDEN_DIR = TESTS_DIR / "golden"
PUBLIC_CHAT = str(EXAMPLES_DIR / "public-chat.yaml")
CLAIMS_BATCH: dict[str, Any] = {
    "name": "claims-classify",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 250_000,
    "avg_input_tokens": 1_500,
    "avg_output_tokens": 20,
    "load_pattern": "batch",
    "batch_window_hours": 6,
    "personal_data": True,
    "company_country": "CH",
}
"""A Swiss insurer's nightly 8B classification of claim letters: one card, a short run each night."""
CATALOG_IMPORTS_DIR = TESTS_DIR / "catalog_imports"
AS_OF = {"as_of": EVALUATED_ON.isoformat()}
"""The query parameter that dates a service request at ``EVALUATED_ON``."""


def merged(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides`` applied; a nested ``model`` mapping replaces the base model whole, and
    an override of null removes the field (so its documented default applies)."""
    result = copy.deepcopy(base)
    result.update(copy.deepcopy(overrides))
    return {key: value for key, value in result.items() if value is not None}


def flat(text: str) -> str:
    """``text`` with its line breaks and runs of spaces as single spaces (a message as the memo shows it)."""
    return " ".join(text.split())


def run(
    workload: dict[str, Any],
    evaluated_on: dt.date = EVALUATED_ON,
    evaluator: Evaluator | None = None,
    knowledge: Knowledge | None = None,
    policy_dir: str | None = None,
) -> Recommendation:
    return recommend(validate_workload(workload, "test"), evaluated_on, evaluator, knowledge, policy_dir)


ONE_RTX_5090_AT_RUNPOD: dict[str, Any] = {
    "deployment": "dedicated_cloud",
    "provider": "runpod",
    "offer": "community",
    "gpu": "rtx-5090",
    "gpus": 1,
    "pricing": "on_demand",
}
"""A proposal's fields for one RTX 5090 at RunPod's community cloud, on demand (add its name)."""


GERMAN_PURCHASES_VAT: dict[str, Any] = {
    "country": "DE",
    "rate": 0.19,
    "law": "§ 12(1) UStG",
    "source": "Umsatzsteuergesetz (UStG) in der Fassung der Bekanntmachung vom 21. Februar 2005 "
    "(BGBl. I S. 386) (2026-12-07), § 12(1) <https://www.gesetze-im-internet.de/ustg_1980/>",
    "as_of": "2026-12-07",
}
"""``purchases_vat`` in a German company's JSON (recommend and check) where it cannot recover input VAT."""


DE_AUTHORITY_OWN: dict[str, Any] = {
    "name": "de-authority-own",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 60_000,
    "avg_input_tokens": 1500,
    "avg_output_tokens": 400,
    "load_pattern": "variable",
    "schedule": "office_hours",
    "personal_data": True,
    "on_premises_required": True,
    "business_critical": True,
    "company_country": "DE",
    "input_vat_recoverable": False,
}
"""A German authority's 70B service whose data stays in the building (two owned HGX H100 servers), which
cannot recover input VAT: the VAT tests' workload."""


NO_API_POLICY = str(TESTS_DIR / "no_api_policy")
"""An organization policy directory whose one rule (ORG010) rules managed APIs out for every workload:
for the tests built on a rental's figures where a hosted 70B price, which stands in for the 72B Qwen,
would cost less (the nightly-batch example's RunPod 4x B200 at $3,557, against DeepInfra's Llama 3.3 70B
at $3,168)."""


NEGOTIATED_AWS = str(TESTS_DIR / "rates" / "negotiated-aws.yaml")
"""An overrides file with a team's negotiated AWS P5 rates for 1- and 3-year commitments (the documents'
1.90 and 2.10 USD, for reserved instances and savings plans alike): for the tests of mixed fleets and
commitments, whose mechanics need a reservation that undercuts the hourly offers."""


@cache
def negotiated_aws() -> Knowledge:
    """The shipped knowledge base with ``NEGOTIATED_AWS`` applied, loaded once."""
    from gpu_advisor.engine.apps.overrides import knowledge_with_overrides

    return knowledge_with_overrides(NEGOTIATED_AWS, EVALUATED_ON)


LAMBDA_UK = str(TESTS_DIR / "rates" / "lambda-uk.yaml")
"""An overrides file that adds a UK region to Lambda and an H100 offer sold in its US and UK regions:
for the tests of the UK's law and of an offer whose regions span two jurisdictions (the catalog has no
UK region)."""


@cache
def lambda_uk() -> Knowledge:
    """The shipped knowledge base with ``LAMBDA_UK`` applied, loaded once."""
    from gpu_advisor.engine.apps.overrides import knowledge_with_overrides

    return knowledge_with_overrides(LAMBDA_UK, EVALUATED_ON)


def case_knowledge(case: dict[str, Any]) -> Knowledge | None:
    """The knowledge base a scenario case names with ``rates`` (``negotiated-aws``, ``lambda-uk``), or
    None: the shipped one. Any other value is a mistake in the case file."""
    rates = case.get("rates")
    known = {"negotiated-aws": negotiated_aws, "lambda-uk": lambda_uk}
    assert rates is None or rates in known, f"{case.get('name')}: unknown rates {rates!r}"
    return known[rates]() if rates else None


def knowledge_with(directory: Path, file_name: str, before: str, after: str) -> Path:
    """A copy of the shipped knowledge base in ``directory``/knowledge, with ``before`` (found exactly
    once) replaced by ``after`` in ``file_name``: for a test that a bad entry is refused at load."""
    import shutil

    from gpu_advisor.knowledge import KNOWLEDGE_DIR

    copy = directory / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, copy)
    path = copy / file_name
    text = path.read_text(encoding="utf-8")
    assert text.count(before) == 1, f"{before!r} is not in {file_name} once"
    path.write_text(text.replace(before, after), encoding="utf-8")
    return copy


def decile(values: list[float], k: int) -> float:
    """The k-th decile by linear interpolation between order statistics (numpy's default)."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * k / 10
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def invoke(*args: str, stdin: str | None = None) -> Result:
    """``gpu-advisor ARGS`` in process, with ``stdin`` as its standard input."""
    from click.testing import CliRunner

    from gpu_advisor.cli import main

    return CliRunner().invoke(main, list(args), input=stdin)


def read_example(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def post_recommend(http: httpx.Client, body: Any, **kwargs: Any) -> httpx.Response:
    return http.post("/recommend", params=AS_OF, json=body, **kwargs)


def problem_fields(response: httpx.Response) -> list[list[str | int]]:
    """The ``loc`` of every field error in a 422 answer (after checking the answer's shape)."""
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail and all(set(problem) == {"loc", "msg", "type"} for problem in detail), detail
    return [problem["loc"] for problem in detail]


VOICE_ASSISTANT: dict[str, Any] = {
    "name": "voice-assistant",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 300_000,
    "avg_input_tokens": 600,
    "avg_output_tokens": 80,
    "load_pattern": "variable",
    "schedule": "always",
    "latency_sensitive": True,
    "max_time_to_first_token_ms": 150,
    "max_time_per_output_token_ms": 25,
    "company_country": "DE",
}
"""An 8B voice assistant around the clock with tight latency targets (the walkthroughs' workload)."""

STEADY_IN_THE_BAND: dict[str, Any] = {
    "name": "steady-in-the-band",
    "model": {"name": "llama-3.1-8b", "precision": "fp8", "custom_weights": True},
    "requests_per_day": 20000,
    "load_pattern": "steady",
    "schedule": "workdays",
    "devops_capacity": True,
}
"""20,000 requests a day of an 8B model in FP8, steady on workdays: serverless on RunPod's L4 (its EU data
centres) is the cheapest route, and a request is in flight in about 36 % of the paid hours, inside the
30 to 50 % band."""

DOCS_ASSISTANT: dict[str, Any] = {
    "name": "docs-assistant",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 20_000,
    "load_pattern": "variable",
    "schedule": "office_hours",
}
"""A 70B assistant in office hours (176 paid hours a month): 2 replicas of 2 × H100 where it runs on H100,
for the proposals ``check`` prices (an HGX node bought, four cards on an 8-card instance)."""


# A Frankfurt bank's business-critical compliance Q&A on Llama 3.1 70B with personal data, on workdays
# (test_check_serverless_excluded.py, test_idle_cards_spread.py).
EU_BANK: dict[str, Any] = {
    "name": "bank-compliance-qa",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 100_000,
    "avg_input_tokens": 2500,
    "avg_output_tokens": 400,
    "load_pattern": "steady",
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "business_critical": True,
    "company_country": "DE",
}


def provider_policy(name: str, exclusion: str | tuple[str, ...], title: str, message: str) -> str:
    """An organization policy file of one rule, ORG101, that excludes options by ``exclusion`` (a flow
    mapping such as ``{field: provider, equals: scaleway}``, or several), cited as the cost document's
    provider comparison: for tests of what a company's rules leave."""
    exclusions = (exclusion,) if isinstance(exclusion, str) else exclusion
    listed = "\n".join(f"        - {e}" for e in exclusions)
    return f"""\
schema_version: 1
family: ORG
rules:
  - id: ORG101
    name: {name}
    topic: provider
    severity: warning
    fact: workload
    when: []
    then:
      exclude_options:
{listed}
    title: "{title}"
    message: {message}
    rationale: The framework contracts.
    source:
      document: cloud-gpu-costs-2026
      section: "Hyperscaler vs. Neo-Cloud: Wo GPUs wirklich günstiger sind"
"""


def room_for(full_context_requests: int) -> Knowledge:
    """The shipped knowledge with room kept for ``full_context_requests`` full-context requests on a
    replica below the usual count (``full_context_room_under_light_load``)."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    knowledge = load_knowledge()
    throughput = knowledge.throughput
    concurrency = throughput.concurrency.model_copy(
        update={"full_context_room_under_light_load": full_context_requests}
    )
    return knowledge.model_copy(
        update={"throughput": throughput.model_copy(update={"concurrency": concurrency})}
    )


def run_waves(requests: int, replicas: int, batch: int) -> tuple[int, int]:
    """The fullest replica's share of a batch run's ``requests``, whole, shared among ``replicas`` that
    each hold ``batch`` at once: its full waves and the requests of its last, partial wave (0: none)."""
    return divmod(math.ceil(requests / replicas), batch)


def wave_seconds(
    in_flight: int,
    model: str,
    precision: str,
    gpu: str,
    cards: int,
    tokens: tuple[int, int],
    context: int = 8192,
) -> float:
    """``in_flight`` requests of ``tokens`` (input, output) started together on one replica of ``cards`` ×
    ``gpu`` (a catalog ``model`` under vLLM): they finish together, after ``in_flight`` over the replica's
    estimated rate at that batch (a wave's prefills and every decode step of them all)."""
    knowledge = load_knowledge()
    shape = next(m for m in knowledge.models.models if m.id == model)
    figures = size_model(knowledge, shape.params_b, shape.active_params_b, precision, shape, context)
    fit = next(f for f in figures.fits if f.gpu == gpu)
    performance = replica_performance(knowledge, figures, fit, *tokens, cards=cards)
    assert performance is not None
    return in_flight / performance.roofline.requests_per_second(in_flight)
