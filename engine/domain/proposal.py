"""A proposal (what someone intends to do for a workload) as it is read, and the result of checking it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from gpu_advisor.engine.common.wording import Words, WordsError
from gpu_advisor.engine.domain.choices import Deployment, PricingKindInput
from gpu_advisor.engine.domain.fleets import MixedFleetBilling
from gpu_advisor.engine.domain.options import ServerlessBilling
from gpu_advisor.engine.domain.results import Decision, PurchasesVat, ResultModel
from gpu_advisor.engine.domain.text_patterns import ONE_LINE, TEXT
from gpu_advisor.engine.domain.workload import ResolvedWorkload

CHECK_SCHEMA_VERSION = 1


Status = Literal["pass", "warn", "fail", "unknown"]


class StrictInput(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", strict=True, frozen=True)


class ProposalInput(StrictInput):
    """What someone intends to do. Leave out what is not decided; checks that need it report 'unknown'."""

    name: str | None = Field(default=None, max_length=200, pattern=ONE_LINE)
    deployment: Deployment
    provider: str | None = None
    offer: str | None = None
    """The offer's name at its provider; for a managed API, the API's ID (knowledge/api_prices.yaml), as
    ``recommend`` names its decision."""
    gpu: str | None = None
    gpus: int | None = Field(default=None, gt=0, le=100_000)
    """Cards in all (replicas x cards per replica)."""
    pricing: PricingKindInput | None = None
    region: str | None = None
    """A region ID of the provider (eu-central-1) or a jurisdiction (EU, US, UK, CH); for a rental, one where
    the catalog prices its offer (a marketplace offer of variable locations: any of its provider's)."""
    server: str | None = None
    """Own hardware: the server type to buy (knowledge/own_hardware.yaml); default the catalog's."""
    servers: int | None = Field(default=None, gt=0, le=10_000)
    peak_provider: str | None = None
    """Hybrid: the provider of the hourly offer for the busier hours; default the cheapest admitted hourly
    offer of the base's GPU in its jurisdiction, as ``recommend`` pairs them."""
    peak_offer: str | None = None
    """Hybrid: that hourly offer (with ``peak_provider``)."""
    base_gpus: int | None = Field(default=None, gt=0, le=100_000)
    """Hybrid: the cards reserved for every hour (priced in whole instances); default the base that
    costs least, as ``recommend`` sizes it."""

    @field_validator("gpu", "gpus", "pricing", "region", "server", "servers")
    @classmethod
    def _not_of_an_api(cls, value: Any, info: ValidationInfo) -> Any:
        # A managed API runs on its provider's GPUs, sold per token, where its provider processes the
        # requests: a stated GPU or region would be judged as if the proposal chose them.
        if value is not None and info.data.get("deployment") == "api":
            raise WordsError(
                Words(
                    "not for a managed API: it runs on its provider's GPUs, priced per token, where its "
                    "provider processes the requests; leave it out"
                )
            )
        return value

    @field_validator("provider", "offer", "pricing")
    @classmethod
    def _not_of_own_servers(cls, value: Any, info: ValidationInfo) -> Any:
        # Bought servers have no provider, offer or price tier: stated, they were ignored, and a spot
        # tier passed the spot checks unsaid.
        if value is not None and info.data.get("deployment") == "own_hardware":
            raise WordsError(
                Words("not for own hardware: its servers are bought (server, servers); leave it out")
            )
        return value

    @field_validator("pricing")
    @classmethod
    def _serverless_priced_as_it_bills(cls, value: Any, info: ValidationInfo) -> Any:
        if info.data.get("deployment") == "serverless" and value not in (None, "serverless"):
            raise WordsError(
                Words("a serverless product bills the time its instances are up: leave pricing out")
            )
        return value

    @field_validator("server", "servers")
    @classmethod
    def _of_own_servers(cls, value: Any, info: ValidationInfo) -> Any:
        if value is not None and info.data.get("deployment") not in ("own_hardware", "api"):
            raise WordsError(Words("the servers to buy: only with deployment: own_hardware"))
        return value

    @field_validator("peak_provider", "peak_offer")
    @classmethod
    def _peak_of_a_hybrid(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and info.data.get("deployment") != "hybrid":
            raise WordsError(Words("a mixed fleet's hourly offer: only with deployment: hybrid"))
        if value is not None and info.field_name == "peak_offer" and info.data.get("peak_provider") is None:
            # An offer's name is its provider's (several sell "on-demand"): without it the checks could
            # not tell where or with whom the busier hours run.
            raise WordsError(Words("an offer of peak_provider: name the provider too"))
        return value

    @field_validator("base_gpus")
    @classmethod
    def _base_of_a_hybrid(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and info.data.get("deployment") != "hybrid":
            raise WordsError(Words("a mixed fleet's reserved cards: only with deployment: hybrid"))
        gpus = info.data.get("gpus")
        if value is not None and gpus is not None and value > gpus:
            raise WordsError(Words("at most the cards in all (gpus: %(gpus)s)", gpus=gpus))
        return value


class Waiver(StrictInput):
    """A decision to accept a check's result for this proposal: whose it is, why, and until when."""

    rule: str
    reason: str = Field(min_length=1, pattern=TEXT)
    owner: str | None = Field(default=None, min_length=1, max_length=200, pattern=ONE_LINE)
    """Who accepted the result and answers for it (a person or team)."""
    until: dt.date | None = None
    """The last day the waiver holds; from the next day on it waives nothing and KNB006 warns."""

    @field_validator("rule", mode="before")
    @classmethod
    def _rule_in_capitals(cls, value: Any) -> Any:
        # As `rules show` and --skip-rule take a rule ID: siz012 is SIZ012.
        return value.upper() if isinstance(value, str) else value

    @field_validator("until", mode="before")
    @classmethod
    def _until_from_text(cls, value: Any) -> Any:
        # YAML and JSON give dates as text; strict mode would refuse the text form.
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                raise WordsError(Words("a date as YYYY-MM-DD")) from None
        return value

    @field_validator("reason")
    @classmethod
    def _reason_is_written(cls, reason: str) -> str:
        if not reason.strip():
            raise WordsError(Words("a waiver needs a written reason"))
        return reason


class ProposalDocument(StrictInput):
    workload: dict[str, Any]
    proposal: ProposalInput
    waivers: list[Waiver] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _not_a_workload_file(cls, data: Any) -> Any:
        # A workload file given to check would list every one of its fields as unknown: say what it is.
        if (
            isinstance(data, dict)
            and not {"workload", "proposal", "proposals"} & data.keys()
            and "model" in data
        ):
            raise WordsError(
                Words(
                    "this is a workload file: check reads a proposal beside its workload (workload: and "
                    "proposal:, see gpu-advisor schema proposal-file); gpu-advisor recommend evaluates the "
                    "workload alone"
                )
            )
        return data

    @field_validator("waivers")
    @classmethod
    def _one_waiver_a_rule(cls, waivers: list[Waiver]) -> list[Waiver]:
        # Two reasons for one rule: the report would show one of them, and the other would be lost.
        rules = [w.rule for w in waivers]
        twice = sorted({rule for rule in rules if rules.count(rule) > 1})
        if twice:
            raise WordsError(Words("%(rules)s waived twice; one waiver a rule", rules=", ".join(twice)))
        return waivers


class ProposalList(StrictInput):
    """A file of several proposals, each with its workload."""

    proposals: list[ProposalDocument]


class SharedWorkload(StrictInput):
    """A file of one workload and the proposals for it: each is checked against that workload, and the
    waivers hold for each."""

    workload: dict[str, Any]
    proposals: list[ProposalInput]
    waivers: list[Waiver] = Field(default_factory=list)


ProposalFile = ProposalDocument | list[ProposalDocument] | ProposalList | SharedWorkload
"""Every layout a file ``check`` reads may take (``apps/check/files.py`` reads them; this type states them
for ``gpu-advisor schema proposal-file``): one proposal with its workload, a list of those, the same list
under ``proposals``, or one workload beside ``proposals``."""


class CheckItem(ResultModel):
    rule_id: str
    name: str
    topic: str
    severity: str
    origin: Literal["builtin", "organization"]
    status: Status
    title: str
    message: str
    evidence: dict[str, Any]
    """The proposal facts the check read, with their values."""
    knowledge: tuple[str, ...]
    """Knowledge entries behind the verdict: thresholds and prices, with their dates."""
    source: str
    waived: bool
    waiver_reason: str | None
    waiver_owner: str | None = None
    waiver_until: dt.date | None = None
    waiver_refused: bool = False
    """The proposal waives this result, but ``--unwaivable`` names its rule: the waiver is shown and does
    not lift it (``waived`` is false, the status counts)."""
    part: Literal["proposal", "peak"] = "proposal"
    """Whose result it is: the proposal's, or (a hybrid that names its busier hours' offer) that offer's,
    where it did worse than the rest of the proposal."""


class ProposedApi(ResultModel):
    """The catalog API a managed-API proposal was judged and priced as (``apps/check/proposal_api.py``)."""

    api: str
    """Its ID in knowledge/api_prices.yaml, as ``recommend`` names a managed API in its decision."""
    name: str
    provider: str | None
    batch: bool
    """Priced through the provider's batch API (a batch workload that may use it)."""


class Location(ResultModel):
    """Where the proposal may run, as the catalog reads its provider, offer and region; for a managed
    API, where its provider processes the requests."""

    jurisdictions: tuple[str, ...]
    """EU, US, UK, CH, CN (an API) or unknown (a marketplace with variable locations, an API that
    guarantees none); empty where it names none."""
    countries: tuple[str, ...]
    """ISO codes of the countries of those regions; empty where not known."""


class Comparison(ResultModel):
    """The proposal against the same proposal in the base (``check --compare-to``): matched by its file
    (relative to the directory compared) and its name (the proposal's, else its workload's)."""

    change: Literal["added", "changed", "unchanged", "not_compared"]
    """not_compared: the base's proposal could not be checked with this version (``base_error``)."""
    base_usd_per_month: float | None
    usd_per_month_difference: float | None
    """This proposal's monthly cost less the base's (an added one: its whole cost); None where either is
    not priced."""
    new_findings: tuple[str, ...]
    """Failed or warning checks not in the base, as 'RULE status' (a waived one does not count)."""
    fixed_findings: tuple[str, ...]
    """Failed or warning checks of the base that this proposal no longer has."""
    base_error: str | None = None
    """Why the base's proposal could not be checked with this version (a value it now refuses, a file it
    cannot read): its cost and findings are then not compared, and the change counts as unpriced."""


class CheckResult(ResultModel):
    schema_version: int = CHECK_SCHEMA_VERSION
    file: str
    index: int
    """Position of the proposal in its file, from 1."""
    line: int = 1
    """The line of the file on which the proposal starts, from 1."""
    name: str
    evaluated_on: dt.date
    workload: ResolvedWorkload | None = None
    """The workload as evaluated, with the defaults filled in (the same block as in ``recommend``)."""
    proposal: ProposalInput
    usd_per_month: float | None = None
    """What the proposal costs per month at the catalog's prices (or the overrides'); None where the
    catalog cannot price it (an offer it does not know, no card count)."""
    billed_hours_per_month: float | None = None
    """A rental: the hours a month its cards are billed, as the recommendation's options bill that offer
    (a business-critical service's hourly cards kept every calendar hour, PRC033); None otherwise."""
    unpriced: str = ""
    """Why ``usd_per_month`` is None where the checks do not say it: ``no_server`` (own hardware of a GPU
    the catalog prices no server of), ``no_mix`` (a hybrid whose parts make no mix), ``no_batch_plan`` (a
    batch's rental on a GPU for which no run is planned, SIZ041); "" otherwise."""
    location: Location | None = None
    api: ProposedApi | None = None
    """A managed-API proposal: the API it was judged and priced as (None for other deployments, or where
    the catalog prices none it could mean)."""
    serverless: ServerlessBilling | None = None
    """A serverless proposal: how its price is billed (the instances kept warm, the endpoint's settings
    that assumes); None for other deployments or where the catalog cannot price it."""
    recommendation: Decision
    purchases_vat: PurchasesVat | None = None
    """The VAT rate the proposal's cost and the recommendation's include, as ``recommend``'s result says it
    (``Recommendation.purchases_vat``); None: net of VAT (KNB024 warns where the company cannot recover it
    and the catalog has no rate for its country)."""
    recommended_fleet: MixedFleetBilling | None = None
    """Where the recommendation is a mixed fleet (hybrid): its base and its peak, each with its offer and
    cards (``recommendation`` names the base's offer and counts the cards of both)."""
    status: Status
    """fail if any check failed (waived ones do not count), else warn, else unknown, else pass."""
    counts: dict[str, int]
    """Results by status (pass, warn, fail, unknown), a waived result under ``waived`` only."""
    results: tuple[CheckItem, ...]
    comparison: Comparison | None = None
