"""Rule declarations: the schema of ``rules/*.yaml`` and its loader.

A rule is data: a stable ID, a name that says what it flags, topic, severity, the fact kind it reads,
conditions over that fact's fields, a conclusion, a message template, a rationale and a source. Thresholds
are named by key and looked up in ``knowledge/thresholds.yaml``; a rule body holds no number. Loading
checks every condition against the fact model it reads, so a typo in a rule file fails at start-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.domain.choices import Deployment, FactKind, PricingKind, Severity, Topic
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import Citation
from gpu_advisor.engine.domain.knowledge.figures import Threshold

Operator = Literal["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in"]


OptionField = Literal[
    "eu",
    "jurisdiction",
    "pricing",
    "interconnect",
    "provider_kind",
    "enterprise_sla",
    "commitment",
    "segment",
    "provider",
    "gpu",
    "housing",
    "managed",
    "streaming_worker",
    "superseded",
    "withdrawn",
    "reasoning",
    "countries",
]
"""What an option filter can name: ``eu`` (regions in the EU), ``jurisdiction`` (EU, US, UK, CH or unknown),
``countries`` (its regions' ISO 3166 codes: ``not_in`` keeps an option one of whose regions lies wholly in
those listed, ``equals`` one with a region known to lie outside the country named; a region of unknown
countries is neither), the pricing kind and how long it binds (``commitment``: none, months, years), the
GPU's interconnect and segment, the provider, its kind and SLA; ``managed`` (the platform runs the serving
stack, knowledge/serverless.yaml); ``streaming_worker`` (a serverless endpoint streaming to waiting users
runs a ``ready_made`` or a ``team_built`` worker; a rental's is ``none``); ``superseded`` (a list price the
provider's newer one replaces); ``withdrawn`` (an API price of a model no longer served under that product);
``reasoning`` (a model that thinks before it answers); ``housing`` (datacenter, office): an own server's."""


OPTION_KINDS: dict[str, frozenset[str]] = {
    "rental": frozenset(
        (
            "eu",
            "jurisdiction",
            "pricing",
            "commitment",
            "interconnect",
            "provider_kind",
            "enterprise_sla",
            "segment",
            "provider",
            "gpu",
            "managed",
            "streaming_worker",
            "superseded",
            "countries",
        )
    ),
    "api": frozenset(
        ("eu", "jurisdiction", "pricing", "provider", "enterprise_sla", "withdrawn", "reasoning", "countries")
    ),
    "own_server": frozenset(("housing",)),
}
"""The fields each kind of option has (a rental or serverless product, a managed API's price, an own
server): a filter whose tests name fields of two kinds could never match an option."""


Verdict = Literal["fail", "warn"]

LatencyTargetField = Literal["max_time_to_first_token_ms", "max_time_per_output_token_ms"]


Origin = Literal["builtin", "organization"]


Precedence = Annotated[int, Field(ge=1, le=1000)]


class Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class Condition(Strict):
    """``fact <op> value | values | threshold | other_fact``: exactly one right-hand side."""

    fact: str
    op: Operator = "eq"
    value: bool | str | None = None
    values: tuple[str, ...] | None = None
    """For ``in`` and ``not_in``: the names the fact is compared with."""
    threshold: str | None = None
    other_fact: str | None = None

    @field_validator("value", mode="before")
    @classmethod
    def _no_number(cls, value: Any) -> Any:
        # pydantic read 0 and 1 as false and true, and 1.5 failed as "not a valid boolean": a number in a
        # rule is a threshold, by name, so that it lives in data with its source.
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise ValueError(
                f"{value!r} is a number; a rule compares numbers with a named threshold (threshold: KEY, "
                "from the thresholds data), and value takes true, false or a name"
            )
        return value

    @model_validator(mode="after")
    def _one_right_hand_side(self) -> Condition:
        given = [x for x in (self.value, self.values, self.threshold, self.other_fact) if x is not None]
        if len(given) != 1:
            raise ValueError(
                "a condition compares with exactly one of value, values, threshold or other_fact"
            )
        if self.value is not None and self.op not in ("eq", "ne"):
            raise ValueError("a literal value (true/false or a name) is only compared with eq or ne")
        if (self.values is not None) != (self.op in ("in", "not_in")):
            raise ValueError("in and not_in compare with a list of values, and only they do")
        if self.values is not None and not self.values:
            raise ValueError("values must not be empty")
        return self


class Proposal(Strict):
    deployment: Deployment
    precedence: Precedence


class RuleOut(Strict):
    deployments: tuple[Deployment, ...] = Field(min_length=1)
    precedence: Precedence
    """Removes proposals of these deployments whose precedence is lower than this."""
    bar: bool = False
    """A legal or technical bar (own weights on a model API, data that stays in the building, no
    hardware that holds the model): a proposal of such a deployment fails ``check`` (DEP017). Without it
    the rule weighs cost or strategy, and the proposal is warned of (DEP041)."""


class OptionTest(Strict):
    """An option's ``field`` equals ``equals``, or (for an allow-list) is not in ``not_in``."""

    field: OptionField
    equals: bool | str | None = None
    not_in: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _one_test(self) -> OptionTest:
        if (self.equals is None) == (self.not_in is None):
            raise ValueError("an option filter gives exactly one of equals or not_in")
        if self.field == "countries" and self.equals is not None and not isinstance(self.equals, str):
            raise ValueError("countries is tested against a country code (equals: DE) or a list (not_in)")
        return self

    def matches(self, value: object) -> bool:
        if self.field == "countries":
            return not any(map(self._region_kept, cast(tuple[tuple[str, ...], ...], value)))
        if self.not_in is not None:
            return value not in self.not_in
        return value == self.equals

    def _region_kept(self, countries: tuple[str, ...]) -> bool:
        """A region (its countries) that keeps its option: wholly within the allow-list, or known to lie
        outside the country excluded; a region of unknown countries keeps none."""
        if not countries:
            return False
        if self.not_in is not None:
            return all(country in self.not_in for country in countries)
        return self.equals not in countries


class OptionFilter(OptionTest):
    """Excludes options that pass its test and every test of ``and_also``."""

    and_also: tuple[OptionTest, ...] = ()
    """Further tests an option must pass to be excluded: a neo-cloud's GPUs, unless its product is
    managed."""

    @property
    def fields(self) -> frozenset[str]:
        return frozenset((self.field, *(test.field for test in self.and_also)))

    def excludes(self, attributes: Mapping[str, object]) -> bool:
        return self.matches(attributes[self.field]) and all(
            test.matches(attributes[test.field]) for test in self.and_also
        )


WORKLOAD_CONCLUSIONS = (
    "add_spare_replica",
    "keep_serverless_warm",
    "spread_replicas",
    "spread_batch_rentals",
    "keep_rentals_every_hour",
    "keep_serverless_minimum_every_hour",
    "keep_rentals_without_automation",
)
"""The conclusions that shape a workload's own plans: only workload rules draw them."""


class Conclusion(Strict):
    propose: Proposal | None = None
    rule_out: RuleOut | None = None
    prefer_pricing: PricingKind | None = None
    exclude_options: tuple[OptionFilter, ...] = ()
    comparison_only: bool = False
    """``exclude_options`` keep those options out of the recommendation's comparison only (another kind
    of model's API is no stand-in for the workload's cost), not out of what a proposal may choose: check
    does not count such an exclusion against a proposal (DEP036)."""
    gpu_unsuitable: bool = False
    offer_unsuitable: bool = False
    """The offer cannot carry the model's replicas as it is sold (instance_fit rules)."""
    add_spare_replica: bool = False
    """Services: run the redundancy's spare replicas beyond those the peak needs (throughput.yaml)."""
    keep_serverless_warm: bool = False
    """Serverless options keep one instance warm every hour instead of scaling to zero."""
    keep_rentals_every_hour: bool = False
    """Services: every hourly rental is billed for every calendar hour, its cards kept outside the paid
    hours and in the quieter ones: no fleet of hourly cards that follows the load is priced (PRC033)."""
    keep_serverless_minimum_every_hour: bool = False
    """Services: a serverless endpoint's kept instances run every calendar hour (no scheduled minimum)."""
    keep_rentals_without_automation: bool = False
    """Services: rentals kept through the unpaid hours for want of automation, not capacity (DEP055)."""
    spread_replicas: bool = False
    """Services: two replicas or more run on at least two instances (``instances.place``)."""
    spread_batch_rentals: bool = False
    """Batches: a rental's replicas placed as a service's (``spread_replicas``) for the window's need."""
    drop_default_target: LatencyTargetField | None = None
    """latency_fit rules only: the workload's default latency target is not applied (sized again without)."""
    verdict: Verdict | None = None
    """Proposal checks only: the result when the proposal meets ``when`` (a violation)."""


class RuleTranslation(Strict):
    """An organization rule's texts in another language; the rationale may stay in English."""

    title: str
    message: str
    """The same Jinja template as the English message, over the same fields."""
    rationale: str | None = None


class RuleTranslations(Strict):
    """An organization rule's texts by language (``--lang de``); the built-in rules' translations live in
    ``rules/i18n/<lang>.yaml``."""

    de: RuleTranslation | None = None


def family_of(rule_id: str) -> str:
    """A rule ID's family: its letters (``Rule.id`` is three letters and three digits; LAT001: LAT)."""
    return rule_id.rstrip("0123456789")


def route_spoken_of(about_route: str | None, fact: Mapping[str, Any]) -> str | None:
    """The route a firing's message speaks of (``Rule.about_route``): the api fact's self-hosted route
    is read from the fact it fired on (None where it has none)."""
    if about_route == "self_hosted":
        return str(fact["self_hosted_kind"]) or None
    return about_route


class Rule(Strict):
    id: str = Field(pattern=r"^[A-Z]{3}[0-9]{3}$")
    name: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    topic: Topic
    severity: Severity
    fact: FactKind
    applies: tuple[Condition, ...] = ()
    """Proposal checks only: when the check applies at all; it then passes unless ``when`` holds."""
    needs: tuple[str, ...] = ()
    """Proposal checks only: proposal facts that must be known (``<name>_known``), else the result is
    'unknown'."""
    when: tuple[Condition, ...] = ()
    """Conditions on the fact, all of which must hold; empty: the rule fires for every fact of its kind."""
    then: Conclusion = Conclusion()
    title: str
    message: str
    """Jinja template rendered with the matched fact's fields, ``t`` (thresholds) and ``k`` (knowledge)."""
    rationale: str
    source: Citation
    translations: RuleTranslations = RuleTranslations()
    """Organization rules: the title and message in other languages."""
    see_also: tuple[Citation, ...] = ()
    """Further documents the rule rests on (a law's list of adequate states beside its article), each a
    document and section; cited after ``source``."""
    about_route: (
        Literal["api", "self_hosted", "dedicated_cloud", "serverless", "own_hardware", "hybrid"] | None
    ) = None
    """The one route the message speaks of, where it is not the workload's decision as such: ``api`` the
    compared managed API, ``self_hosted`` the api fact's cheapest self-hosted route (its kind read from
    the fact), ``dedicated_cloud`` the cheapest rental, ``serverless`` the cheapest serverless option,
    ``own_hardware`` the owned servers the buy-versus-rent comparison costs.
    Where the decision takes another route, the memo names the finding apart from its constraints."""

    @model_validator(mode="after")
    def _source_is_a_document(self) -> Rule:
        if any(citation.document is None for citation in (self.source, *self.see_also)):
            raise ValueError("a rule cites a source document and its section")
        if self.about_route == "self_hosted" and self.fact != "api":
            raise ValueError("about_route self_hosted reads the api fact's self_hosted_kind: api rules only")
        if self.then.gpu_unsuitable and self.fact not in ("gpu_fit", "latency_fit"):
            raise ValueError("gpu_unsuitable is a conclusion of gpu_fit and latency_fit rules only")
        if self.then.drop_default_target is not None and self.fact != "latency_fit":
            raise ValueError("drop_default_target is a conclusion of latency_fit rules only")
        if self.then.comparison_only and not self.then.exclude_options:
            raise ValueError("comparison_only qualifies exclude_options: without them it excludes nothing")
        if self.fact == "decision" and self.then != Conclusion():
            raise ValueError("decision rules fire once the decision is settled: they conclude nothing")
        if self.then.offer_unsuitable and self.fact != "instance_fit":
            raise ValueError("offer_unsuitable is a conclusion of instance_fit rules only")
        then = self.then
        workload_only = [name for name in WORKLOAD_CONCLUSIONS if getattr(then, name)]
        if workload_only and self.fact != "workload":
            raise ValueError(f"{', '.join(WORKLOAD_CONCLUSIONS)} conclude workload rules only")
        is_check = self.fact == "proposal"
        if is_check != (self.then.verdict is not None):
            raise ValueError("proposal rules, and only they, conclude with a verdict (fail or warn)")
        if not is_check and (self.applies or self.needs):
            raise ValueError("applies and needs belong to proposal rules")
        if is_check and not self.when:
            raise ValueError("a proposal rule states the violation it looks for in when")
        return self

    @property
    def citations(self) -> tuple[Citation, ...]:
        """The source, then the further documents."""
        return (self.source, *self.see_also)

    @property
    def threshold_keys(self) -> tuple[str, ...]:
        return tuple(c.threshold for c in (*self.applies, *self.when) if c.threshold is not None)

    @property
    def is_check(self) -> bool:
        return self.fact == "proposal"

    @property
    def per_gpu(self) -> bool:
        """It fires once per GPU (its finding's subject is the GPU)."""
        return self.fact in ("gpu_fit", "latency_fit")

    @property
    def about_its_gpu(self) -> bool:
        """What it says holds for its GPU only (a rule on one GPU's fit), not for the workload."""
        return self.fact == "gpu_fit"


class RuleFile(Strict):
    schema_version: Literal[1]
    family: str
    rules: tuple[Rule, ...]
    thresholds: tuple[Threshold, ...] = ()
    """Organization policy files may define their own thresholds; the shipped catalog keeps them in
    knowledge/thresholds.yaml."""


class Rulebook(Strict):
    """All rules in catalog order (file order, then order within the file); organization rules last."""

    rules: tuple[Rule, ...]
    origins: dict[str, Origin] = Field(default_factory=dict)
    """Rule ID -> where it comes from; rules not listed are built in."""
    thresholds: tuple[Threshold, ...] = ()
    """Thresholds that organization policies add to the knowledge base's."""

    def origin(self, rule_id: str) -> Origin:
        return self.origins.get(rule_id, "builtin")

    def threshold_values(self, knowledge: Knowledge) -> dict[str, float]:
        """The knowledge base's thresholds plus the policies' (USD; EUR thresholds converted)."""
        values = knowledge.threshold_values()
        rate = knowledge.eur_to_usd().rate
        for threshold in self.thresholds:
            values[threshold.key] = threshold.value * (rate if threshold.currency == "EUR" else 1.0)
        return values

    def rule(self, rule_id: str) -> Rule:
        return _rules_by_id(self.rules)[rule_id]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(rule.id for rule in self.rules)


@per_object
def _rules_by_id(rules: tuple[Rule, ...]) -> dict[str, Rule]:
    return {rule.id: rule for rule in reversed(rules)}  # the first of duplicates, as a scan finds
