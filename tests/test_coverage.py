"""The coverage table maps every heuristic and figure of the documents, and docs/coverage.md is current."""

from __future__ import annotations

import re

from click.testing import CliRunner
from helpers import REPO_ROOT

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.coverage import load_coverage
from gpu_advisor.engine.present.docs import render_coverage
from gpu_advisor.engine.rulebook.loading import load_rulebook


def test_generated_table_is_up_to_date() -> None:
    committed = (REPO_ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
    assert render_coverage() == committed, "regenerate: gpu-advisor rules coverage > docs/coverage.md"


def test_every_rule_traces_to_a_heuristic() -> None:
    traced = {rule_id for heuristic in load_coverage().heuristics for rule_id in heuristic.rules}
    assert set(load_rulebook().ids) - traced == set()


def test_every_named_test_exists() -> None:
    for figure in load_coverage().figures:
        for test in figure.tests:
            path, _, name = test.partition("::")
            source = (REPO_ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {name}\(", source, re.MULTILINE), test


def test_every_document_is_covered() -> None:
    coverage = load_coverage()
    documents = {h.document for h in coverage.heuristics} | {f.document for f in coverage.figures}
    assert documents == {"gpu-choice-2026", "cloud-gpu-costs-2026", "card-counts-2026"}


def test_cli_prints_the_table() -> None:
    result = CliRunner().invoke(main, ["rules", "coverage"])
    assert result.exit_code == 0
    assert result.output == render_coverage()
