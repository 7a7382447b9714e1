"""`gpu-advisor schema proposal-file` states every layout a check file may take: each layout the reader
accepts validates against it, and a file the reader refuses does not."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.check.files import raw_documents
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.proposal import ProposalInput

WORKLOAD = {
    "name": "chat",
    "model": {"name": "llama-3.1-8b", "precision": "bf16"},
    "requests_per_day": 20_000,
}
PROPOSAL = {"deployment": "dedicated_cloud", "provider": "runpod", "gpu": "l40s", "gpus": 1}
WAIVER = {"rule": "DEP016", "reason": "the team runs its own GPUs"}


def schema() -> dict[str, Any]:
    result = CliRunner().invoke(main, ["schema", "proposal-file"])
    assert result.exit_code == 0
    found = json.loads(result.output)
    assert found["title"] == "ProposalFile" and len(found["anyOf"]) == 4
    return found


LAYOUTS = {
    "one proposal": {"workload": WORKLOAD, "proposal": PROPOSAL, "waivers": [WAIVER]},
    "a list": [{"workload": WORKLOAD, "proposal": PROPOSAL}, {"workload": WORKLOAD, "proposal": PROPOSAL}],
    "a list under proposals": {"proposals": [{"workload": WORKLOAD, "proposal": PROPOSAL}]},
    "one workload beside proposals": {
        "workload": WORKLOAD,
        "proposals": [PROPOSAL, PROPOSAL],
        "waivers": [WAIVER],
    },
}


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_each_layout_the_reader_takes_validates(layout: Any) -> None:
    jsonschema.validate(layout, schema())
    assert raw_documents(json.dumps(layout), "p.json")


def test_the_example_proposal_validates() -> None:
    example = yaml.safe_load((EXAMPLES_DIR / "proposals" / "public-chat.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(example, schema())


def test_a_layout_the_reader_refuses_does_not_validate() -> None:
    # Another key beside one workload and its proposals.
    refused = {"workload": WORKLOAD, "proposals": [PROPOSAL], "owner": "platform"}
    with pytest.raises(InputError):
        raw_documents(json.dumps(refused), "p.json")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(refused, schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"workload": WORKLOAD}, schema())


@pytest.mark.parametrize("spelled", ["on-demand", "On-Demand", "ON_DEMAND", "on_demand"])
def test_a_pricing_is_taken_as_the_memo_prints_it(spelled: str) -> None:
    """The memo says "(community, on-demand)": a proposal that copies it names on_demand, and the schema
    an editor checks the file with takes it too."""
    document = {"workload": WORKLOAD, "proposal": {**PROPOSAL, "pricing": spelled}}
    jsonschema.validate(document, schema())
    assert ProposalInput.model_validate(document["proposal"]).pricing == "on_demand"


def test_a_pricing_of_another_name_is_still_refused() -> None:
    document = {"workload": WORKLOAD, "proposal": {**PROPOSAL, "pricing": "on-demandd"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema())
    with pytest.raises(ValueError, match="Input should be 'on_demand'"):
        ProposalInput.model_validate({**PROPOSAL, "pricing": "on-demandd"})
