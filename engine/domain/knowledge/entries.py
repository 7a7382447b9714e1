"""Catalog entries of the knowledge base: documents, regions, offers, own servers (GPUs in
``gpus.py``, providers in ``providers.py``, API prices in ``api_prices.py``, model configs in
``models.py``). Every entry carries ``source`` and ``as_of``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from gpu_advisor.engine.domain.choices import Jurisdiction, PricingKind

SCHEMA_VERSION = 1


PositiveFloat = Annotated[float, Field(gt=0)]
CountryCode = Annotated[str, Field(pattern=r"^[A-Z]{2}$")]
Currency = Literal["EUR", "USD"]
Vat = Literal["excluded", "not_stated"]
"""Whether a list price excludes VAT (net, as the source says) or the source does not say."""

USD_PER_EUR = "usd_per_eur"
"""The validation context key the loader passes EUR list prices' conversion rate under."""


class Strict(BaseModel):
    """A knowledge entry: unknown fields refused, and every number finite (NaN and infinities refused
    here as well as by the reader, ``common/yaml_core.py``)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, allow_inf_nan=False)


class Translations(Strict):
    """An entry's prose in another language, by field name: ``translations: {de: {note: "..."}}``."""

    de: dict[str, str] = Field(default_factory=dict)

    def __hash__(self) -> int:
        # A translated entry may sit inside one that is hashed (an offer: listing frames are cached by
        # it); the mapping itself cannot be hashed, its items can.
        return hash(tuple(sorted(self.de.items())))


class Translated(Strict):
    """An entry whose prose the texts quote: its German wording beside the English, shown under
    ``--lang de`` (``engine/i18n/knowledge_texts.py``). Optional; an untranslated text stays English."""

    translations: Translations = Translations()

    @model_validator(mode="after")
    def _translations_name_prose_fields(self) -> Translated:
        for field, text in self.translations.de.items():
            if field == "translations" or not isinstance(getattr(self, field, None), str):
                raise ValueError(f"translations.de.{field}: not a text field of this entry")
            if not text.strip():
                raise ValueError(f"translations.de.{field}: empty")
        return self


class Citation(Translated):
    """Where a figure or rule comes from: a source document and section, or a public URL. A page's title
    may carry its German wording (``translations: {de: {title: ...}}``) where it adds words of its own
    to the published title (when the page was read, what it holds). Left out where a result shows the
    citation: the texts translate it, the JSON keeps the knowledge base's wording."""

    translations: Translations = Field(default=Translations(), exclude=True)
    document: str | None = None
    section: str | None = None
    url: str | None = None
    title: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _url_shorthand(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"url": data}
        return data

    @model_validator(mode="after")
    def _one_kind(self) -> Citation:
        if (self.document is None) == (self.url is None):
            raise ValueError("a source names either a document (with a section) or a url")
        if self.document is not None and not self.section:
            raise ValueError("a document citation needs a section")
        return self

    def label(self) -> str:
        if self.document is not None:
            return f"{self.document}, {self.section}"
        return self.title or self.url or ""


class Sourced(Strict):
    source: Citation
    as_of: dt.date


class Document(Translated):
    id: str
    title: str
    language: str
    published: dt.date | None
    as_of: dt.date
    summary: str
    url: str | None = Field(default=None, pattern=r"^https://[^\s<>]+$")
    """Where the document is published (the legal texts); the source articles are not online."""


class Region(Strict):
    id: str
    name: str
    jurisdiction: Jurisdiction
    countries: tuple[CountryCode, ...] = ()
    """Where the region's data centres are (ISO 3166-1 alpha-2); empty where the source names a group
    of regions or variable locations."""


class PriceOrigin(Strict):
    """Where an offer's price came from when not from the shipped catalog."""

    kind: Literal["overrides", "import"]
    file: str
    """The file's name, without its directory."""
    format: Literal["skypilot", "gpuhunt", "csv"] | None = None
    """The imported catalog's format (imports only)."""

    @property
    def yours(self) -> bool:
        """A rate the team gives (an overrides file, a plain CSV of negotiated rates), not a list price."""
        return self.kind == "overrides" or self.format == "csv"


MAX_INSTANCE_GPUS = 64
"""The most cards an instance or replica is taken to have: the largest single machine sold (8 GPUs)
many times over, so a count above it is a typo or another unit."""

MAX_USD_PER_GPU_HOUR = 1000
"""The GPU-hour price every price stays below (the catalog's, an overrides file's, an import's): far above
any list price of a GPU-hour, so that a price per month, or a whole cluster's, taken for one is refused,
and every monthly and yearly sum stays finite."""

GpuHourPrice = Annotated[float, Field(gt=0, lt=MAX_USD_PER_GPU_HOUR)]
"""A price per GPU-hour: below ``MAX_USD_PER_GPU_HOUR``, as an overrides file's (``domain/overrides.py``)."""


CommitmentTerm = Literal["none", "months", "years"]

MONTHS_PER_YEAR = 12


def commitment_term(pricing: str, months: int | None) -> CommitmentTerm:
    """How long an offer of this pricing and stated term binds: not at all, for months, or for a year or
    more; a reservation whose term is not stated is taken as the documents' 1 to 3 years."""
    if pricing == "reserved" and not months:
        return "years"
    if not months:
        return "none"
    return "years" if months >= MONTHS_PER_YEAR else "months"


class ClusterNetwork(Sourced, Translated):
    """A network the provider documents between instances of an offer, fast enough for one replica's
    pipeline stages on two instances (RDMA: AWS's EFA, Azure's InfiniBand, Google's GPUDirect-TCPX)."""

    kind: str
    gbps_per_instance: Annotated[float, Field(gt=0, le=100_000)]
    """The instance's network bandwidth the provider states for it, in gigabits a second."""
    condition: str
    """What it takes, as the provider says: the instances in one zone, placement group or scale set."""


class CapacityNotReserved(Translated):
    """A committed price that binds the bill and reserves no capacity (an AWS Savings Plan): the
    instances run at its rate only while the provider has them free, so one that fails, or one added, may
    not start again."""

    source: Citation
    """Where the provider says the commitment reserves no capacity."""
    reserve_with: str
    """The provider's product that reserves the capacity beside it, and what that bills, as its source
    says (a plural noun phrase without article: the messages read "reserve them with ...")."""
    reserve_source: Citation

    def sources(self) -> str:
        """Both sources, as a message names them: their addresses, '; '-separated."""
        return "; ".join(c.url or c.label() for c in (self.source, self.reserve_source))


class Offer(Sourced, Translated):
    provider: str
    offer: str
    gpu: str
    usd_per_gpu_hour: GpuHourPrice
    """USD per GPU-hour; for a list price in another currency, converted from it at load."""
    currency: Currency = "USD"
    """The currency the provider lists the offer in."""
    list_price_per_gpu_hour: PositiveFloat | None = None
    """The list price per GPU-hour in ``currency``, where that is not USD: the figure the source gives
    (or its instance price over the instance's cards), kept as it is."""
    list_instance_price_per_hour: PositiveFloat | None = None
    """The largest instance's list price per hour in ``currency``, where the source quotes one."""
    vat: Vat | None = None
    """VAT treatment of a list price in EUR: excluded (net) or not stated by the source."""
    usd_per_gpu_hour_low: GpuHourPrice | None = None
    usd_per_gpu_hour_high: GpuHourPrice | None = None
    instance_usd_per_hour: float | None = Field(default=None, gt=0, lt=64_000)
    pricing: PricingKind
    billing: Literal["hourly", "committed"] = "hourly"
    """hourly: paid for the hours used; committed: a reservation is paid for every calendar hour."""
    commitment_months: int | None = Field(default=None, gt=0)
    capacity_not_reserved: CapacityNotReserved | None = None
    """Set on a committed price that reserves no instances (a savings plan); None: a reservation holds
    its instances, and an hourly price promises none (PRC019 says so where it matters)."""
    instance_gpus: tuple[Annotated[int, Field(ge=1, le=MAX_INSTANCE_GPUS)], ...] = Field(min_length=1)
    """The instance sizes the offer is sold in, in cards (``[1, 8]``: a 1-GPU and an 8-GPU instance);
    billing is per whole instance."""
    nvlink_instance_gpus: tuple[Annotated[int, Field(ge=2, le=MAX_INSTANCE_GPUS)], ...] | None = None
    """The sizes whose cards share NVLink (or another fast link); None: the GPU's interconnect decides
    for every multi-card size (SXM modules sit on a baseboard whose switch links all of them)."""
    shapes_source: Citation | None = None
    """Where ``instance_gpus`` and ``nvlink_instance_gpus`` come from, where not from ``source``."""
    cluster_network: ClusterNetwork | None = None
    """The network between the offer's instances where the provider documents one that its listed price
    includes: a replica larger than the largest instance may then run as pipeline stages on several of
    them (NET006); None: none documented, and such a replica is not recommended (NET003)."""
    regions: tuple[str, ...] = Field(min_length=1)
    price_jurisdiction: Jurisdiction
    """Where the list price applies; other jurisdictions' regions are priced by estimate (EU premium)."""
    billing_increment_seconds: int | None = Field(default=None, ge=1, le=86_400)
    """What a running instance is billed in (1: per second, 60: per minute, 86,400: whole days); None: not
    published, so whole hours are assumed. Matters where an instance runs part of a day (a batch)."""
    billing_source: Citation | None = None
    """Where ``billing_increment_seconds`` comes from."""
    note: str | None = None
    superseded_by: str | tuple[str, ...] | None = None
    """The provider's own newer list price of this GPU, pricing and shapes (an offer of the same
    provider), or several that sell its instance sizes between them (a provider that prices each size
    apart): this older figure is not what the provider charges now (KNB010 excludes it)."""
    origin: PriceOrigin | None = None
    """Set for a price from an overrides file or an import; None: the shipped catalog's."""

    @property
    def successor_names(self) -> tuple[str, ...]:
        """The offers ``superseded_by`` names, one or several."""
        if self.superseded_by is None:
            return ()
        return (self.superseded_by,) if isinstance(self.superseded_by, str) else self.superseded_by

    @property
    def rate_yours(self) -> bool:
        """Its price is the team's own rate (``PriceOrigin.yours``), not a list price."""
        return self.origin is not None and self.origin.yours

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.offer}/{self.gpu}"

    @property
    def commitment(self) -> CommitmentTerm:
        """How long the offer binds: not at all (paid by the hour or second, spot), for months (OVHcloud's
        monthly instances), or for a year or more (reservations and savings plans). A reservation whose
        term the catalog does not state (an import, an override) is taken as the documents' 1 to 3 years."""
        return commitment_term(self.pricing, self.commitment_months)

    @model_validator(mode="before")
    @classmethod
    def _convert_list_price(cls, data: Any, info: ValidationInfo) -> Any:
        """A list price in EUR is converted to USD with the rate the loader passes; the file states the
        list price only, so the two cannot disagree."""
        rate = (info.context or {}).get(USD_PER_EUR)
        if not isinstance(data, dict) or data.get("currency", "USD") == "USD" or rate is None:
            return data
        if "usd_per_gpu_hour" in data:
            raise ValueError(
                "an offer listed in EUR gives list_price_per_gpu_hour only; usd_per_gpu_hour is converted "
                "at load with exchange_rates.yaml"
            )
        price = data.get("list_price_per_gpu_hour")
        if not isinstance(price, int | float) or isinstance(price, bool):
            raise ValueError("an offer listed in EUR needs list_price_per_gpu_hour (a number)")
        return {**data, "usd_per_gpu_hour": price * rate}

    @model_validator(mode="after")
    def _consistent_prices(self) -> Offer:
        low, high = self.usd_per_gpu_hour_low, self.usd_per_gpu_hour_high
        if (low is None) != (high is None):
            raise ValueError("usd_per_gpu_hour_low and usd_per_gpu_hour_high come together")
        if low is not None and high is not None and not low <= self.usd_per_gpu_hour <= high:
            raise ValueError("usd_per_gpu_hour must lie within usd_per_gpu_hour_low..usd_per_gpu_hour_high")
        if (self.billing_increment_seconds is None) != (self.billing_source is None):
            raise ValueError("billing_increment_seconds and billing_source come together")
        if self.pricing == "serverless":
            raise ValueError("serverless products are priced in serverless.yaml, not as offers")
        if (self.pricing == "reserved") != (self.billing == "committed"):
            raise ValueError("reserved offers, and only they, are billed as committed")
        if self.capacity_not_reserved is not None and self.billing != "committed":
            raise ValueError("capacity_not_reserved is said of a committed (reserved) price only")
        if list(self.instance_gpus) != sorted(set(self.instance_gpus)):
            raise ValueError("instance_gpus lists each size once, smallest first")
        if self.nvlink_instance_gpus is not None and not set(self.nvlink_instance_gpus) <= set(
            self.instance_gpus
        ):
            raise ValueError("nvlink_instance_gpus names sizes of instance_gpus only")
        if self.instance_usd_per_hour is not None:
            # The instance price quoted is the largest size's.
            per_gpu = self.instance_usd_per_hour / self.instance_gpus[-1]
            if abs(per_gpu - self.usd_per_gpu_hour) > 0.01:
                raise ValueError(
                    f"instance_usd_per_hour / the largest of instance_gpus is {per_gpu:.4f}, "
                    f"not usd_per_gpu_hour {self.usd_per_gpu_hour}"
                )
        self._check_list_price()
        return self

    def _check_list_price(self) -> None:
        listed = self.currency != "USD"
        if listed != (self.list_price_per_gpu_hour is not None) or listed != (self.vat is not None):
            raise ValueError(
                "list_price_per_gpu_hour and vat are given for, and only for, a price not in USD"
            )
        if self.list_instance_price_per_hour is not None:
            if self.list_price_per_gpu_hour is None:
                raise ValueError("list_instance_price_per_hour comes with list_price_per_gpu_hour")
            per_gpu = self.list_instance_price_per_hour / self.instance_gpus[-1]
            if abs(per_gpu - self.list_price_per_gpu_hour) > 0.0001:
                raise ValueError(
                    f"list_instance_price_per_hour / the largest of instance_gpus is {per_gpu:.6f}, "
                    f"not list_price_per_gpu_hour {self.list_price_per_gpu_hour}"
                )


class IdlePowerShare(Sourced, Translated):
    """The share of its rated power a GPU server draws when powered on and idle: what owning would cost in
    power at the servers' busy share (TCO028 says so beside the rated-draw line; not costed)."""

    value: float = Field(gt=0, lt=1)
    note: str


class IdleDraw(Sourced, Translated):
    """A card's measured draw while it holds a model and no request is in flight: beside the rated draw
    the power line charges in every hour, it says how far that line is an upper bound."""

    watts: PositiveFloat
    note: str


class OwnServer(Sourced, Translated):
    id: str
    name: str
    gpu: str
    gpus_per_server: int = Field(ge=1)
    max_servers: int | None = Field(ge=1)
    """How many of these a workload may use; None: as many nodes as it needs."""
    default: bool
    """The server ``gpu-advisor tco`` shows and rule messages quote."""
    price_usd: PositiveFloat
    price_usd_low: PositiveFloat
    price_usd_high: PositiveFloat
    months: int = Field(gt=0)
    hours_per_month: PositiveFloat
    gpu_watts: PositiveFloat
    power_overhead_factor: float = Field(ge=1)
    usd_per_kwh: float = Field(ge=0)
    rack_usd_per_month: float = Field(ge=0)
    residual_share: float = Field(ge=0, lt=1)
    residual_share_scenario: float = Field(ge=0, lt=1)
    price_yours: bool = False
    """The price is the user's (an overrides file's ``own_server`` price), not the catalog's."""
    idle_draw: IdleDraw | None = None
    """Where measured: the card's draw holding a model with no request in flight (the power line charges
    ``gpu_watts`` in every hour of the month all the same; the memo and ``tco`` say so)."""
    housing: Literal["datacenter", "office"] = "datacenter"
    """datacenter: housed in a rack or colocation and operated by staff, at the company country's
    defaults (``cost_defaults.yaml``); office: a machine that already stands and is looked after in an
    office, so only the power of the card is added (no rack, colocation or staff line)."""
    note: str | None = None

    @model_validator(mode="after")
    def _price_in_range(self) -> OwnServer:
        if not self.price_usd_low <= self.price_usd <= self.price_usd_high:
            raise ValueError("price_usd must lie within price_usd_low..price_usd_high")
        return self
