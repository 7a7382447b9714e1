"""The VAT standard rates by country (knowledge/vat_rates.yaml), which a workload that cannot recover input
VAT has its purchases priced with: each country once, a rate below 100 %, a country countries.yaml
lists, and no rate applied in the shipped file (the evaluation sets it on its own copy)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import knowledge_with

from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge, load_knowledge_from


def test_the_shipped_rates_and_their_laws() -> None:
    rates = {
        r.country: (r.rate, r.law, r.source.document, r.source.section)
        for r in load_knowledge().vat_rates.rates
    }
    assert rates == {
        "DE": (0.19, "§ 12(1) UStG", "de-ustg", "§ 12(1)"),
        "AT": (0.20, "§ 10(1) UStG 1994", "at-ustg-1994", "§ 10(1)"),
        "CH": (0.081, "Art. 25(1) MWSTG", "ch-mwstg", "Art. 25(1)"),
    }
    assert load_knowledge().vat_rates.of("FR") is None
    assert load_knowledge().vat_rates.applied is None


@pytest.mark.parametrize(
    ("before", "after", "problem"),
    [
        ("  - country: AT\n", "  - country: DE\n", "countries listed more than once: DE"),
        ("    rate: 0.20\n", "    rate: 1.20\n", "Input should be less than 1"),
        ("  - country: CH\n", "  - country: XX\n", "entry 'XX': country 'XX' is not in countries.yaml"),
    ],
)
def test_a_bad_vat_rate_is_refused_at_load(tmp_path: Path, before: str, after: str, problem: str) -> None:
    copy = knowledge_with(tmp_path, "vat_rates.yaml", before, after)
    with pytest.raises(KnowledgeError, match=problem):
        load_knowledge_from(copy)


def test_a_rate_applied_in_the_shipped_file_is_refused(tmp_path: Path) -> None:
    applied = (
        "applied: {country: DE, rate: 0.19, law: x, note: x, source: {document: de-ustg, section: x}, "
        "as_of: 2026-12-07}\nrates:\n"
    )
    copy = knowledge_with(tmp_path, "vat_rates.yaml", "rates:\n", applied)
    with pytest.raises(KnowledgeError, match=r"vat_rates\.yaml: field applied: set for one evaluation only"):
        load_knowledge_from(copy)
