"""A batch's CSV output: one flat row per workload, its columns fixed (README, "batch"), and the cells a
spreadsheet would run as formulas defused."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any, NamedTuple

from gpu_advisor.engine.apps.batch.scenarios import SCENARIO_COLUMNS
from gpu_advisor.engine.apps.batch.summary import portfolio_split
from gpu_advisor.engine.domain.results import DecisionSummary

CSV_COLUMNS = (
    "line",
    "name",
    "deployment",
    "pricing",
    "provider",
    "offer",
    "gpu",
    "gpus",
    "usd_per_month",
    "fired_rules",
    "attention",
    "cost_is_estimate",
    "priced_with_another_model",
)


class CurrencyColumn(NamedTuple):
    """With ``--currency EUR`` or ``CHF``, a last column: the monthly cost at the knowledge base's rate.
    The columns before it keep their places (usd_per_month stays, the column a script reads)."""

    currency: str
    usd_per_unit: float

    @property
    def name(self) -> str:
        """``eur_per_month`` or ``chf_per_month``."""
        return f"{self.currency.lower()}_per_month"


def csv_header(scenarios: bool, column: CurrencyColumn | None) -> str:
    """The header row: the scenario columns with ``--scenarios``, the currency's column with one."""
    scenario = SCENARIO_COLUMNS if scenarios else ()
    return csv_line((*CSV_COLUMNS, *scenario, *((column.name,) if column is not None else ())))


def csv_result_line(
    line: int, result: DecisionSummary, more: Iterable[Any] = (), column: CurrencyColumn | None = None
) -> str:
    decision = result.decision
    cells = [
        line,
        result.workload,
        decision.deployment,
        decision.pricing or "",
        decision.provider or "",
        decision.offer or "",
        decision.gpu or "",
        "" if decision.gpus is None else decision.gpus,
        "" if decision.usd_per_month is None else f"{decision.usd_per_month:.2f}",
        " ".join(result.fired_rules),
        " ".join(portfolio_split(result.attention)[0]),
        "true" if decision.cost_is_estimate else "false",
        "true" if decision.priced_with_another_model else "false",
        *more,
    ]
    if column is not None:
        cost = decision.usd_per_month
        cells.append("" if cost is None else f"{cost / column.usd_per_unit:.2f}")
    return csv_line(cells)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads a cell starting with as a formula (OWASP, CSV injection)."""


def csv_cell(cell: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets a leading apostrophe, as OWASP
    recommends (``=HYPERLINK(...)`` is written ``'=HYPERLINK(...)``); quotes are the CSV writer's."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def csv_line(cells: Iterable[Any]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([csv_cell(cell) for cell in cells])
    return buffer.getvalue()
