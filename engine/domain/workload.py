"""The workload: what a team wants to run, declared once.

``ResolvedWorkload`` declares every workload field once: its type, bounds and description, and how the
user gives it (``Given``): required, left to a documented default (``knowledge/workload_defaults.yaml``),
or left to be worked out from the other fields. Everything else derives from that declaration:

- ``Workload``, the input model: exactly the fields a user may give, strict (unknown keys rejected, no
  silent type coercion), with ``model`` as a nested ``ModelSpec``;
- the workload part of the rule facts (``rulebook/facts.py``): every scalar field;
- the workload summary of a result: the resolved workload itself.

A new workload field is therefore one declaration here, its default in the knowledge base where it has
one, and the rules that read it.
"""

from __future__ import annotations

import enum
import functools
import os
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
)
from pydantic.fields import FieldInfo

from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import (
    MAX_INPUT_BYTES,
    _depth,
    load_yaml,
    read_input_text,
    too_large,
    type_words,
)
from gpu_advisor.engine.common.values import MAX_NESTING_DEPTH, nested_deeper
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.batch_fields import paired_field_validators
from gpu_advisor.engine.domain.choices import (
    Framework,
    LoadPattern,
    PersonalDataRegionInput,
    Precision,
    ScheduleId,
    ServingEngineId,
)
from gpu_advisor.engine.domain.countries import CountryCodeInput
from gpu_advisor.engine.domain.input_errors import input_error, refuse_proposal_layout
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.models import ModelConfig
from gpu_advisor.engine.domain.knowledge.serving import checked_profile
from gpu_advisor.engine.domain.limits import MAX_CONTEXT_TOKENS, MIN_TARGET_MS
from gpu_advisor.engine.domain.model_spec import AttentionShape, ModelSpec
from gpu_advisor.engine.domain.strict_input import StrictInput
from gpu_advisor.engine.domain.text_patterns import NAME
from gpu_advisor.engine.domain.workload_descriptions import (
    CONTEXT,
    INPUT_VAT,
    PREFIX,
    TPOT_TARGET,
    TTFT_TARGET,
)
from gpu_advisor.engine.domain.workload_ranges import RANGE_ONLY_FIELDS, WorkloadRanges, split_ranges


class Given(enum.Enum):
    """How a workload field reaches the resolved workload."""

    REQUIRED = "required"
    """The user must give it."""
    DEFAULT = "default"
    """The user may give it; left out, the knowledge base's documented default applies."""
    DERIVED = "derived"
    """The user may give it; left out, it is worked out from the other fields (``pipeline/defaults.py``)."""


class WorkloadInput(StrictInput):
    """What identifies a workload in its input file: its name and its model. ``Workload`` adds every
    field ``ResolvedWorkload`` lets the user give."""

    name: str = Field(min_length=1, max_length=200, pattern=NAME, description="Free text; names the files.")
    model: ModelSpec


class ResolvedWorkload(BaseModel):
    """A workload with every fact present: the declaration of each workload field (see the module's
    docstring). Fields without a ``Given`` come from the model specification or are worked out."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, protected_namespaces=())

    name: str
    model: str | None = Field(description="The catalog model ID; None for a model given by its size.")
    model_config_entry: ModelConfig | None = Field(default=None, exclude=True, repr=False)
    """The catalog model's configuration (attention shape, context); not part of the summary, so a result
    read back from its JSON has None here."""
    attention_shape: AttentionShape | None = None
    """The attention shape given for a model given by its size (``ModelSpec.attention_shape``)."""
    params_b: float
    active_params_b: float
    precision: Precision
    custom_weights: bool
    reasoning: bool = False
    """The model thinks before it answers: ``ModelSpec.reasoning`` where given, else the catalog model's
    (``ModelConfig.reasoning``), else no (a model given by its size)."""
    requests_per_day: Annotated[
        int, Field(gt=0, le=10_000_000_000, description="Requests a day."), Given.REQUIRED
    ]
    avg_input_tokens: Annotated[
        int, Field(gt=0, le=10_000_000, description="Average prompt tokens."), Given.DEFAULT
    ]
    avg_output_tokens: Annotated[
        int, Field(gt=0, le=10_000_000, description="Average answer tokens."), Given.DEFAULT
    ]
    context_tokens: Annotated[
        int,
        Field(gt=0, le=MAX_CONTEXT_TOKENS, description=CONTEXT),
        Given.DEFAULT,
    ]
    shared_prefix_tokens: Annotated[
        int, Field(ge=0, le=MAX_CONTEXT_TOKENS, description=PREFIX), Given.DEFAULT
    ]
    load_pattern: Annotated[
        LoadPattern, Field(description="How requests arrive over the day."), Given.DEFAULT
    ]
    schedule: Annotated[ScheduleId, Field(description="When the service runs."), Given.DEFAULT]
    hours_per_month: Annotated[
        float,
        Field(ge=1, le=744, description="Paid hours a month; default the schedule's hours."),
        Given.DERIVED,
    ]
    days_per_month: float
    utilization: Annotated[
        float | None,
        Field(
            gt=0,
            le=1,
            description=(
                "Share of paid hours in which the GPUs emit tokens, as measured; the rules read the busy "
                "share derived from the load and compare this figure with it (KNB003)."
            ),
        ),
        Given.DERIVED,
    ]
    """Given in the input, or derived from the load once the model is sized (None until then)."""
    utilization_source: Literal["input", "derived", "load_pattern_default"]
    load_pattern_source: Literal["input", "default", "load_profile"] = "input"
    """Where ``load_pattern`` comes from: given, the default, or the profile (``profile_pattern``)."""
    latency_sensitive: Annotated[
        bool,
        Field(description="Users wait for the answer; default true, false for batch."),
        Given.DERIVED,
    ]
    personal_data: Annotated[
        bool,
        Field(
            description="Processes personal data: where it may run follows the data-protection law that "
            "applies (GDPR, revDSG, UK GDPR; see personal_data_region)."
        ),
        Given.DEFAULT,
    ]
    on_premises_required: Annotated[
        bool, Field(description="The data must not leave the building."), Given.DEFAULT
    ]
    model_stable: Annotated[
        bool, Field(description="False while the model size is still changing."), Given.DEFAULT
    ]
    company_country: Annotated[
        CountryCodeInput,
        Field(
            description="ISO 3166 code: export-control notes, the data-protection law of the company's "
            "establishment and the own-hardware cost defaults.",
        ),
        Given.DEFAULT,
    ]
    personal_data_region: Annotated[
        PersonalDataRegionInput,
        Field(
            description="Where the people are whose personal data the workload processes: eu (EU/EEA), ch "
            "(Switzerland), uk, us or other; with company_country it decides which law's residency rules "
            "apply. Default: the region of company_country."
        ),
        Given.DERIVED,
    ]
    volume_growing: Annotated[
        bool, Field(description="Inference cost grows linearly with use."), Given.DEFAULT
    ]
    devops_capacity: Annotated[
        bool, Field(description="False: neo-clouds and marketplaces are excluded."), Given.DEFAULT
    ]
    business_critical: Annotated[
        bool, Field(description="No provider known to lack an enterprise SLA; a spare."), Given.DEFAULT
    ]
    capacity_confirmed: Annotated[
        bool,
        Field(
            description="The provider confirms the cards each time the paid hours, the busier hours or a "
            "batch run start."
        ),
        Given.DEFAULT,
    ]
    input_vat_recoverable: Annotated[bool, Field(description=INPUT_VAT), Given.DEFAULT]
    framework: Annotated[Framework, Field(description="JAX/TensorFlow: TPU v5p is named."), Given.DEFAULT]
    needs_gpu: Annotated[
        bool, Field(description="False: the work should not run as GPU hours at all."), Given.DEFAULT
    ]
    load_profile: Annotated[
        list[float],
        AfterValidator(checked_profile),
        Field(
            description="Relative request rate in each hour of the day, 0 to 23 (24 numbers); default the "
            "load pattern's published profile.",
            # The length and signs are checked by checked_profile, whose message names them; the schema
            # says the same to other tools.
            json_schema_extra={"minItems": 24, "maxItems": 24, "items": {"type": "number", "minimum": 0}},
        ),
        Given.DERIVED,
    ]
    batch_window_hours: Annotated[
        float | None,
        Field(
            ge=0.25,
            le=24,
            description="Batch: the hours a day within which the day's work must finish (a quarter of an "
            "hour to 24); with load_pattern: batch only.",
        ),
        Given.DEFAULT,
    ]
    batch_runs_per_month: Annotated[
        float | None,
        Field(
            gt=0,
            le=31,
            description="Batch: how many times a month the day's work runs, each run within the window "
            "(4.35 for a weekly job); default every day of the schedule; with load_pattern: batch only.",
        ),
        Given.DERIVED,
    ]
    min_replicas: Annotated[
        int,
        Field(
            ge=1,
            le=10_000,
            description="The fewest replicas to run; given, it replaces the spare replica the rules add for "
            "business-critical and latency-sensitive services.",
        ),
        Given.DEFAULT,
    ]
    serving_engine: Annotated[
        ServingEngineId,
        Field(
            description="The serving engine of a self-hosted replica: vllm, sglang or trtllm (TensorRT-LLM, "
            "also inside NVIDIA NIM). Its defaults set how many requests run at once and the KV cache's "
            "precision."
        ),
        Given.DEFAULT,
    ]
    max_time_to_first_token_ms: Annotated[
        float | None,
        Field(ge=MIN_TARGET_MS, le=3_600_000, description=TTFT_TARGET),
        Given.DERIVED,
    ]
    max_time_per_output_token_ms: Annotated[
        float | None,
        Field(ge=MIN_TARGET_MS, le=600_000, description=TPOT_TARGET),
        Given.DERIVED,
    ]
    defaults_used: tuple[str, ...]
    """The fields the input left to a documented default, in field order."""
    default_targets_dropped: tuple[str, ...] = ()
    """Default latency targets a rule dropped (LAT010, LAT011: no GPU the workload may have can be planned
    to them); sized without them (None above; they only choose the cards), still in ``defaults_used``."""

    @property
    def is_moe(self) -> bool:
        return self.active_params_b < self.params_b

    def states(self, field: str) -> bool:
        """The workload file gives ``field`` a value itself (a latency target, say), not a default."""
        return getattr(self, field) is not None and field not in self.defaults_used

    def fallback_utilization(self, knowledge: Knowledge) -> float:
        """The load pattern's assumed utilization, for a model no GPU can serve (nothing to derive from)."""
        return knowledge.utilization_default(self.load_pattern).utilization


def given(field: str) -> Given | None:  # how the user gives a field; None: never at top level
    return next((m for m in ResolvedWorkload.model_fields[field].metadata if isinstance(m, Given)), None)


@functools.cache
def fields_given(*kinds: Given) -> tuple[str, ...]:
    """The fields of ``ResolvedWorkload`` given in one of these ways, in declaration order."""
    return tuple(name for name in ResolvedWorkload.model_fields if given(name) in kinds)


def declared_type(info: FieldInfo) -> Any:
    """A field's type with its bounds (``Annotated``) as a ``TypeAdapter`` validates it, without ``Given``."""
    bounds = tuple(m for m in info.metadata if not isinstance(m, Given))
    if not bounds:
        return info.annotation
    # A tuple subscript is Annotated[annotation, *bounds] on every Python (3.13 dropped __class_getitem__).
    parameters = (info.annotation, *bounds)
    return Annotated[parameters]


def _input_model() -> type[WorkloadInput]:
    """``Workload``: ``WorkloadInput`` plus every field the user may give, with the declaration's type,
    bounds and description; the fields left to defaults are optional. A field that applies only beside
    another's value is checked against it (``batch_window_hours``)."""
    fields: dict[str, Any] = {}
    for name in fields_given(*Given):
        info = ResolvedWorkload.model_fields[name]
        annotation = declared_type(info)
        extra = info.json_schema_extra
        if given(name) is Given.REQUIRED:
            fields[name] = (annotation, Field(description=info.description, json_schema_extra=extra))
        else:
            fields[name] = (
                typing.Optional[annotation],  # noqa: UP045
                Field(default=None, description=info.description, json_schema_extra=extra),
            )
    validators = paired_field_validators()
    model = create_model(
        "Workload", __base__=WorkloadInput, __module__=__name__, __validators__=validators, **fields
    )
    model.read_before_validation = RANGE_ONLY_FIELDS
    return model


if TYPE_CHECKING:
    # Statically a workload is its ``WorkloadInput`` part: Python code reads its other fields from the
    # ``ResolvedWorkload``, whose declaration they come from.
    Workload = WorkloadInput
else:
    Workload = _input_model()
    """The input model: every field a user may give."""


def parse_workload_text(text: str, origin: str) -> WorkloadInput:
    """Parse YAML or JSON text into a validated ``Workload``; errors name the field and value."""
    return parse_workload_text_with_ranges(text, origin)[0]


def parse_workload_text_with_ranges(text: str, origin: str) -> tuple[WorkloadInput, WorkloadRanges]:
    """``parse_workload_text``, and the ranges the text gives (``workload_ranges.py``)."""
    if not isinstance(text, str):
        # The library's callers: bytes read from a file are decoded by the caller (or load_workload).
        raise InputError(f"text: the workload as text, not {type(text).__name__}", field="text")
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        raise InputError(too_large(origin))
    data = load_yaml(text, origin)
    workload = validate_workload(data, origin)
    return workload, split_ranges(data, origin)[1] if isinstance(data, dict) else WorkloadRanges()


def load_workload(path: str) -> WorkloadInput:
    """Read a workload from a file path, or from standard input when the path is ``-``."""
    return load_workload_with_ranges(path)[0]


def load_workload_with_ranges(path: str) -> tuple[WorkloadInput, WorkloadRanges]:
    """``load_workload``, and the ranges the file gives (``workload_ranges.py``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"path: a file's path, not {type(path).__name__}", field="path")
    path = os.fspath(path)
    return parse_workload_text_with_ranges(read_input_text(path), "<stdin>" if path == "-" else path)


def validate_workload(data: Any, origin: str | Words) -> WorkloadInput:
    """``data`` as a workload; ``origin`` names where it comes from in a message."""
    if data is None:
        # An empty YAML file, or JSON's null: nothing was given, which a type name would not say.
        raise InputError(at(origin, Words("no fields given: a workload is a mapping of fields")))
    refuse_proposal_layout(data, origin)
    if not isinstance(data, dict):
        raise InputError(
            at(origin, Words("a workload is a mapping of fields, got %(type)s", type=type_words(data)))
        )
    if _depth(data) > MAX_NESTING_DEPTH:
        raise InputError(at(origin, nested_deeper(MAX_NESTING_DEPTH)))
    data, _ = split_ranges(data, origin)  # a range's point value; scenarios draw the range
    try:
        return Workload.model_validate(data)
    except ValidationError as error:
        raise input_error(origin, error, Workload) from None
