"""The batch summary: running totals over the outcomes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict


@dataclass(frozen=True)
class Outcome:
    """One row's result: the output text to write, or the error; and what the summary counts."""

    line: int
    name: str | None
    text: str | None
    error: str | None
    deployment: str | None = None
    usd_per_month: float | None = None
    cost_is_estimate: bool = False
    attention: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """Portfolio-wide notes that fired on this workload (``PORTFOLIO_NOTE_RULES``)."""
    fault: bool = False
    """The error is a fault in gpu-advisor (an exception no check expected), not in the row."""
    unread_rest: bool = False
    """The error ends the reading: the file's rest is not run (a YAML error within the list)."""
    vat: tuple[str, float] | None = None
    """The company country and VAT rate every purchase of the workload is priced with: its company cannot
    recover input VAT (``input_vat_recoverable: false``); None: priced net."""
    vat_rate_missing: bool = False
    """The company cannot recover input VAT, but the catalog has no rate for its country: priced net
    (KNB023)."""


PORTFOLIO_NOTE_RULES = ("KNB001", "KNB007", "KNB013", "KNB019")
"""Rules whose finding is about the catalog rather than the workload (KNB001: the cheapest rental's list
price is older than the stale-price line; KNB007: the compared API's; KNB013: the serverless
product's; KNB019: the own server's), counted wherever they fired. In a portfolio they would flag
nearly every workload, so the summary reports each once, with the number of workloads it concerns, and
they do not count as a reason for attention; each workload's own result still lists the finding."""


def portfolio_split(rule_ids: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``rule_ids`` without the portfolio-wide notes, and those notes."""
    return (
        tuple(r for r in rule_ids if r not in PORTFOLIO_NOTE_RULES),
        tuple(r for r in rule_ids if r in PORTFOLIO_NOTE_RULES),
    )


LISTED_MAX = 100
"""The summary lists at most this many errors and workloads needing attention (counts are complete)."""


class SummaryModel(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class RowError(SummaryModel):
    line: int
    name: str | None
    error: str


class Attention(SummaryModel):
    line: int
    name: str | None
    rules: tuple[str, ...]
    """Rules that fired with severity critical or warning."""


class Row(SummaryModel):
    """A workload of the input by its line and name."""

    line: int
    name: str | None


class Repeated(SummaryModel):
    """A workload whose name an earlier row of the input already has: both are in the total."""

    line: int
    name: str
    first_line: int


class VatShare(SummaryModel):
    """The workloads of one company country priced with its VAT, and their part of the total."""

    country: str
    rate: float
    workloads: int
    usd_per_month: float


class PortfolioNote(SummaryModel):
    rule: str
    title: str
    workloads: int
    """The workloads it fired on."""


class BatchSummary(SummaryModel):
    input: str
    evaluated_on: dt.date
    workloads: int
    """Rows read (evaluated plus errors)."""
    evaluated: int
    errors: int
    faults: int = 0
    """Of the errors, those that are faults in gpu-advisor rather than in their rows: the run exits 4."""
    by_deployment: dict[str, int]
    total_usd_per_month: float
    """Sum of the decisions' monthly cost; decisions without a monthly
    figure add nothing."""
    estimated_usd_per_month: float = 0.0
    """The part of the total whose decision is marked an estimate (none since serverless products are priced;
    kept for readers of older summaries)."""
    purchases_vat: tuple[VatShare, ...] = ()
    """The parts of the total priced with VAT (workloads whose company cannot recover input VAT), by
    country; the rest of the total is net of VAT."""
    vat_rate_missing: int = 0
    """Workloads whose company cannot recover input VAT, priced net as the catalog has no rate for its
    country (KNB023)."""
    without_monthly_cost: int
    without_monthly_cost_rows: tuple[Row, ...] = ()
    """The first LISTED_MAX of them, so that the reader finds what the total leaves out."""
    attention_count: int
    attention: tuple[Attention, ...]
    """The first LISTED_MAX workloads needing attention; the CSV output's attention column has all."""
    error_list: tuple[RowError, ...]
    """The first LISTED_MAX errors (every error is also reported on standard error as it happens)."""
    interrupted: bool
    stopped_at_line: int | None
    """--strict: the line of the first bad row."""
    unread_from_line: int | None = None
    """The line from which the input could not be read (a YAML error within the list): the workloads
    after it are in no total, and the run exits 1 even with --allow-bad-rows."""
    interrupted_by: str | None = None
    """SIGINT (Ctrl-C) or SIGTERM, where a signal stopped the run."""
    partial_output: str | None = None
    """Where the results of a stopped run went instead of ``-o``, which held a file already: beside it,
    NAME.partial, leaving that file whole."""
    portfolio_notes: tuple[PortfolioNote, ...] = ()
    """Findings about the catalog rather than any one workload, each once (``PORTFOLIO_NOTE_RULES``)."""
    repeated_count: int = 0
    """Evaluated workloads whose name an earlier evaluated row has (a workload listed twice counts twice
    in the total); the first LISTED_MAX in ``repeated``."""
    repeated: tuple[Repeated, ...] = ()


@dataclass
class Tally:
    """Running totals over the outcomes; holds no per-workload data beyond the listed few."""

    input: str
    evaluated_on: dt.date
    evaluated: int = 0
    errors: int = 0
    faults: int = 0
    by_deployment: dict[str, int] = field(default_factory=dict)
    total_usd_per_month: float = 0.0
    estimated_usd_per_month: float = 0.0
    without_monthly_cost: int = 0
    without_monthly_cost_rows: list[Row] = field(default_factory=list)
    attention_count: int = 0
    attention: list[Attention] = field(default_factory=list)
    error_list: list[RowError] = field(default_factory=list)
    interrupted: bool = False
    stopped_at_line: int | None = None
    unread_from_line: int | None = None
    interrupted_by: str | None = None
    partial_output: str | None = None
    note_titles: dict[str, str] = field(default_factory=dict)
    notes: dict[str, int] = field(default_factory=dict)
    first_lines: dict[str, int] = field(default_factory=dict)
    """Each evaluated name's first line, by the name without case or surrounding spaces: the one
    per-workload record kept, to tell a repeated name."""
    repeated_count: int = 0
    repeated: list[Repeated] = field(default_factory=list)
    vat: dict[tuple[str, float], tuple[int, float]] = field(default_factory=dict)
    """(company country, VAT rate) -> the workloads priced with it and their monthly cost."""
    vat_rate_missing: int = 0

    def add(self, outcome: Outcome) -> None:
        if outcome.error is not None:
            self.errors += 1
            if outcome.unread_rest:
                self.unread_from_line = outcome.line
            self.faults += outcome.fault
            if len(self.error_list) < LISTED_MAX:
                self.error_list.append(RowError(line=outcome.line, name=outcome.name, error=outcome.error))
            return
        self.evaluated += 1
        if outcome.name is not None:
            # "Chat" and "chat " name the same workload to a reader: case and surrounding spaces aside.
            first = self.first_lines.setdefault(outcome.name.strip().casefold(), outcome.line)
            if first != outcome.line:
                self.repeated_count += 1
                if len(self.repeated) < LISTED_MAX:
                    self.repeated.append(Repeated(line=outcome.line, name=outcome.name, first_line=first))
        kind = outcome.deployment or "none"
        self.by_deployment[kind] = self.by_deployment.get(kind, 0) + 1
        if outcome.usd_per_month is None:
            self.without_monthly_cost += 1
            if len(self.without_monthly_cost_rows) < LISTED_MAX:
                self.without_monthly_cost_rows.append(Row(line=outcome.line, name=outcome.name))
        else:
            self.total_usd_per_month += outcome.usd_per_month
            if outcome.cost_is_estimate:
                self.estimated_usd_per_month += outcome.usd_per_month
            if outcome.vat is not None:
                workloads, usd = self.vat.get(outcome.vat, (0, 0.0))
                self.vat[outcome.vat] = (workloads + 1, usd + outcome.usd_per_month)
        self.vat_rate_missing += outcome.vat_rate_missing
        for rule in outcome.notes:
            self.notes[rule] = self.notes.get(rule, 0) + 1
        if outcome.attention:
            self.attention_count += 1
            if len(self.attention) < LISTED_MAX:
                self.attention.append(
                    Attention(line=outcome.line, name=outcome.name, rules=outcome.attention)
                )

    def summary(self) -> BatchSummary:
        return BatchSummary(
            input=self.input,
            evaluated_on=self.evaluated_on,
            workloads=self.evaluated + self.errors,
            evaluated=self.evaluated,
            errors=self.errors,
            faults=self.faults,
            by_deployment=dict(sorted(self.by_deployment.items())),
            total_usd_per_month=round(self.total_usd_per_month, 2),
            estimated_usd_per_month=round(self.estimated_usd_per_month, 2),
            purchases_vat=tuple(
                VatShare(country=country, rate=rate, workloads=workloads, usd_per_month=round(usd, 2))
                for (country, rate), (workloads, usd) in sorted(self.vat.items())
            ),
            vat_rate_missing=self.vat_rate_missing,
            without_monthly_cost=self.without_monthly_cost,
            without_monthly_cost_rows=tuple(self.without_monthly_cost_rows),
            attention_count=self.attention_count,
            attention=tuple(self.attention),
            error_list=tuple(self.error_list),
            interrupted=self.interrupted,
            stopped_at_line=self.stopped_at_line,
            unread_from_line=self.unread_from_line,
            interrupted_by=self.interrupted_by,
            partial_output=self.partial_output,
            portfolio_notes=tuple(
                PortfolioNote(rule=rule, title=self.note_titles.get(rule, rule), workloads=count)
                for rule, count in sorted(self.notes.items())
            ),
            repeated_count=self.repeated_count,
            repeated=tuple(self.repeated),
        )
