"""The knowledge base loads with provenance everywhere and rejects corrupt files with a precise message."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import KNOWLEDGE_FILES, load_knowledge, load_knowledge_from
from gpu_advisor.knowledge import KNOWLEDGE_DIR

REQUIRED_GPUS = {"h100-sxm", "h100-pcie", "h200", "b200", "l40s", "rtx-5090", "a10g", "mi300x"}
REQUIRED_MODELS = {
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "mixtral-8x7b",
    "qwen2.5-7b",
    "qwen2.5-72b",
    "deepseek-r1",
}
REQUIRED_PROVIDERS = {
    "aws",
    "azure",
    "gcp",
    "lambda",
    "runpod",
    "vast",
    "coreweave",
    "gmi",
    "ovhcloud",
    "hetzner",
    "stackit",
    "ionos",
    "scaleway",
    "verda",
}


def test_catalog_has_the_required_entries() -> None:
    knowledge = load_knowledge()
    assert {g.id for g in knowledge.gpus.gpus} >= REQUIRED_GPUS
    assert {m.id for m in knowledge.models.models} >= REQUIRED_MODELS
    assert {p.id for p in knowledge.providers.providers} >= REQUIRED_PROVIDERS
    # The documents' three API prices stay, beside the hosted prices per size class.
    assert {a.id for a in knowledge.api_prices.apis} >= {"gpt-4o", "claude-3.5-sonnet", "llama-3-70b-hosted"}


def test_memory_as_the_documents_count_it() -> None:
    knowledge = load_knowledge()
    assert [knowledge.gpu(g).memory_gb for g in ("h100-sxm", "h200", "b200", "mi300x")] == [80, 141, 192, 192]


def test_every_price_of_the_documents_is_in_the_catalog() -> None:
    prices = {
        (o.provider, o.offer, o.gpu): (o.usd_per_gpu_hour, o.pricing, o.as_of.isoformat())
        for o in load_knowledge().offers.offers
    }
    assert prices[("aws", "p5-on-demand", "h100-sxm")] == (3.90, "on_demand", "2026-03-27")
    assert prices[("azure", "nd-h100-v5-on-demand", "h100-sxm")] == (6.98, "on_demand", "2026-03-27")
    assert prices[("gcp", "a3-high-on-demand", "h100-sxm")] == (3.00, "on_demand", "2026-03-27")
    assert prices[("vast", "spot", "h100-pcie")] == (1.49, "spot", "2026-03-27")
    assert prices[("gmi", "on-demand", "h100-sxm")] == (2.10, "on_demand", "2026-03-27")
    assert prices[("aws", "p5-reserved-3y", "h100-sxm")] == (1.90, "reserved", "2026-03-27")
    assert prices[("aws", "p5-reserved-1y", "h100-sxm")] == (2.10, "reserved", "2026-03-27")
    assert prices[("runpod", "community", "h100-sxm")] == (2.69, "on_demand", "2026-10-10")
    assert prices[("runpod", "secure", "h100-sxm")] == (3.29, "on_demand", "2026-10-10")
    assert prices[("runpod", "community", "h100-pcie")] == (1.99, "on_demand", "2026-10-10")
    assert prices[("runpod", "community", "h200")] == (3.59, "on_demand", "2026-10-10")
    assert prices[("runpod", "community", "b200")] == (5.98, "on_demand", "2026-10-10")
    assert prices[("runpod", "community", "rtx-5090")] == (0.69, "on_demand", "2026-10-10")
    assert prices[("lambda", "8-gpu-plan", "h100-sxm")] == (3.99, "on_demand", "2026-10-10")
    assert prices[("lambda", "8-gpu-plan", "b200")] == (6.69, "on_demand", "2026-10-10")
    assert prices[("aws", "p5-capacity-block", "h100-sxm")] == (5.97, "capacity_block", "2026-10-10")


def test_personal_data_jurisdictions() -> None:
    knowledge = load_knowledge()
    eu = {o.provider for o in knowledge.offers.offers if "EU" in knowledge.offer_regions_by_jurisdiction(o)}
    assert eu == {"aws", "azure", "gcp", "stackit", "ovhcloud", "scaleway"}
    # The documents' UK region is not Lambda's own: its region list has none (regions_note).
    lambda_regions = {r.jurisdiction for r in knowledge.provider("lambda").regions}
    assert lambda_regions == {"US"}
    assert "no UK region" in (knowledge.provider("lambda").regions_note or "")


# --- corrupt knowledge files ---------------------------------------------------------------------------


@pytest.fixture
def knowledge_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return target


def edit(directory: Path, name: str, change) -> None:
    path = directory / f"{name}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_copy_loads(knowledge_copy: Path) -> None:
    assert load_knowledge_from(knowledge_copy).offers == load_knowledge().offers


def test_offer_with_unknown_gpu(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "offers", lambda d: d["offers"][0].update(gpu="h900"))
    with pytest.raises(
        KnowledgeError, match=r"offers\.yaml: entry 'aws/p5-on-demand/h900': field gpu: unknown GPU"
    ):
        load_knowledge_from(knowledge_copy)


def test_negative_price(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "offers", lambda d: d["offers"][0].update(usd_per_gpu_hour=-1))
    with pytest.raises(KnowledgeError) as error:
        load_knowledge_from(knowledge_copy)
    assert "offers.yaml" in str(error.value)
    assert "entry 'aws/p5-on-demand/h100-sxm': field offers.0.usd_per_gpu_hour" in str(error.value)


def test_missing_source(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "gpus", lambda d: d["gpus"][1].pop("source"))
    with pytest.raises(
        KnowledgeError, match=r"gpus\.yaml.*\n.*entry 'h100-pcie': field gpus\.1\.source: Field required"
    ):
        load_knowledge_from(knowledge_copy)


def test_duplicate_ids(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "gpus", lambda d: d["gpus"].append(dict(d["gpus"][0])))
    with pytest.raises(KnowledgeError, match=r"gpus\.yaml: entry 'h100-sxm': duplicate id"):
        load_knowledge_from(knowledge_copy)


def test_unknown_document_in_a_citation(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "thresholds", lambda d: d["thresholds"][0]["source"].update(document="blog-post"))
    with pytest.raises(
        KnowledgeError, match=r"entry 'api_max_requests_per_day': field source: unknown document"
    ):
        load_knowledge_from(knowledge_copy)


def test_region_not_of_the_provider(knowledge_copy: Path) -> None:
    edit(knowledge_copy, "offers", lambda d: d["offers"][0].update(regions=["westeurope"]))
    with pytest.raises(KnowledgeError, match=r"field regions: 'westeurope' is not a region of aws"):
        load_knowledge_from(knowledge_copy)


def test_every_file_has_a_schema(knowledge_copy: Path) -> None:
    shipped = {p.stem for p in KNOWLEDGE_DIR.glob("*.yaml")}
    # The import mapping has a schema of its own (engine/domain/import_mapping.py), read by catalog import.
    assert shipped == set(KNOWLEDGE_FILES) | {"import_mapping"}


def test_a_workload_field_without_its_default(knowledge_copy: Path) -> None:
    edit(
        knowledge_copy,
        "workload_defaults",
        lambda d: d["defaults"].pop(
            next(i for i, e in enumerate(d["defaults"]) if e["field"] == "framework")
        ),
    )
    with pytest.raises(KnowledgeError, match="no default for the workload field 'framework'"):
        load_knowledge_from(knowledge_copy)


def test_a_default_of_the_wrong_type_or_for_no_field(knowledge_copy: Path) -> None:
    def change(document: dict) -> None:
        entry = next(e for e in document["defaults"] if e["field"] == "avg_input_tokens")
        entry["value"] = 0
        document["defaults"].append({**entry, "field": "gpu_count", "value": 1})

    edit(knowledge_copy, "workload_defaults", change)
    with pytest.raises(KnowledgeError) as raised:
        load_knowledge_from(knowledge_copy)
    assert "entry 'avg_input_tokens': field value: Input should be greater than 0" in str(raised.value)
    assert "entry 'gpu_count': not a workload field that takes a default" in str(raised.value)


def supersede(key: tuple[str, str, str], successor: str | list[str]) -> Any:
    def change(data: dict[str, Any]) -> None:
        for offer in data["offers"]:
            if (offer["provider"], offer["offer"], offer["gpu"]) == key:
                offer["superseded_by"] = successor

    return change


@pytest.mark.parametrize(
    ("key", "superseded_by", "problem"),
    [
        (
            ("aws", "p5-on-demand", "h100-sxm"),
            "p5-on-demand-2027",
            "no offer 'p5-on-demand-2027' of aws for h100-sxm",
        ),
        (
            ("aws", "p5-on-demand", "h100-sxm"),
            "p5-spot",
            r"aws/p5-spot/h100-sxm is of another pricing \(spot, not on_demand\)",
        ),
        # AWS's September list does not replace itself with the March figure.
        (
            ("aws", "p5-on-demand-2026-09", "h100-sxm"),
            "p5-on-demand",
            r"aws/p5-on-demand/h100-sxm is not newer \(2026-03-27\)",
        ),
        # Stockholm's list is an EU price, the March figure a US one.
        (
            ("aws", "p5-on-demand", "h100-sxm"),
            "p5-on-demand-stockholm",
            r"aws/p5-on-demand-stockholm/h100-sxm is priced for another jurisdiction \(EU\)",
        ),
        # The 1-year savings plan does not replace the documents' 3-year reservation.
        (
            ("aws", "p5-reserved-3y", "h100-sxm"),
            "p5-reserved-1y-2026-09",
            r"aws/p5-reserved-1y-2026-09/h100-sxm is a commitment of another term \(12 months\)",
        ),
        # Lambda's 8-GPU plan (October) does not sell the 1-, 2- and 4-card instances of its March row.
        (
            ("lambda", "on-demand", "h100-sxm"),
            "8-gpu-plan",
            "the newer offers do not sell every instance size it does",
        ),
        # Nor do its 1- and 2-GPU instances alone: the 4-card one is missing.
        (
            ("lambda", "on-demand", "h100-sxm"),
            ["1-gpu-plan", "2-gpu-plan"],
            "the newer offers do not sell every instance size it does",
        ),
    ],
)
def test_superseded_by_must_name_a_newer_offer_of_the_same_kind(
    knowledge_copy: Path, key: tuple[str, str, str], superseded_by: str | list[str], problem: str
) -> None:
    edit(knowledge_copy, "offers", supersede(key, superseded_by))
    with pytest.raises(KnowledgeError, match=rf"entry '{'/'.join(key)}': field superseded_by: {problem}"):
        load_knowledge_from(knowledge_copy)


def test_a_successor_may_not_be_superseded_itself(knowledge_copy: Path) -> None:
    """AWS's September list superseded by Stockholm's (refused on its own account) makes the March figure's
    successor a superseded row."""
    edit(
        knowledge_copy,
        "offers",
        supersede(("aws", "p5-on-demand-2026-09", "h100-sxm"), "p5-on-demand-stockholm"),
    )
    with pytest.raises(KnowledgeError, match=r"aws/p5-on-demand-2026-09/h100-sxm is superseded itself"):
        load_knowledge_from(knowledge_copy)
