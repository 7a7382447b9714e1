"""The workload: what a team wants to run, validated strictly, then completed from the knowledge base.

``Workload`` is exactly what the user wrote (unknown keys rejected, no silent type coercion).
``ResolvedWorkload`` is the same workload with catalog model facts and documented defaults filled in,
and remembers which values were defaults so the memo can list them.

"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import (
    MAX_INPUT_BYTES,
    MAX_NESTING_DEPTH,
    _depth,
    load_yaml,
    read_input_text,
)
from gpu_advisor.engine.domain.choices import Framework, LoadPattern, Precision, ScheduleId
from gpu_advisor.engine.domain.input_errors import input_error
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.entries import ModelConfig

PositiveInt = Annotated[int, Field(gt=0)]


PositiveFloat = Annotated[float, Field(gt=0)]


class StrictInput(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, protected_namespaces=())


class ModelSpec(StrictInput):
    name: str | None = Field(default=None, description="Catalog model ID, e.g. llama-3.1-70b.")
    params_b: PositiveFloat | None = Field(
        default=None, le=100_000, description="Total parameters, billions."
    )
    active_params_b: PositiveFloat | None = Field(
        default=None, le=100_000, description="Parameters active per token (mixture-of-experts), billions."
    )
    precision: Precision = Field(description="Weight precision: fp32, bf16, fp16, fp8, int8 or int4.")
    custom_weights: bool = Field(
        default=False, description="Own or fine-tuned weights: a third-party model API cannot serve them."
    )

    @model_validator(mode="after")
    def _size_given(self) -> ModelSpec:
        if self.name is None and self.params_b is None:
            raise ValueError(MISSING_SIZE)
        if (
            self.params_b is not None
            and self.active_params_b is not None
            and self.active_params_b > self.params_b
        ):
            raise ValueError(ACTIVE_ABOVE_TOTAL)
        return self


class Workload(StrictInput):
    name: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")
    model: ModelSpec
    requests_per_day: int = Field(gt=0, le=10_000_000_000)
    avg_input_tokens: PositiveInt | None = Field(default=None, le=10_000_000)
    avg_output_tokens: PositiveInt | None = Field(default=None, le=10_000_000)
    context_tokens: PositiveInt | None = Field(default=None, le=10_000_000)
    load_pattern: LoadPattern | None = None
    schedule: ScheduleId | None = None
    hours_per_month: float | None = Field(default=None, ge=1, le=744)
    utilization: float | None = Field(default=None, gt=0, le=1)
    latency_sensitive: bool | None = None
    personal_data: bool | None = None
    on_premises_required: bool | None = None
    model_stable: bool | None = None
    company_country: str | None = Field(default=None, pattern=r"^[A-Z]{2}$")
    volume_growing: bool | None = None
    devops_capacity: bool | None = None
    business_critical: bool | None = None
    framework: Framework | None = None
    needs_gpu: bool | None = None


class ResolvedWorkload(BaseModel):
    """A workload with every fact present: catalog model facts and defaults filled in."""

    model_config = ConfigDict(extra="forbid", frozen=True, protected_namespaces=())

    name: str
    model_id: str | None
    model_config_entry: ModelConfig | None
    params_b: float
    active_params_b: float
    precision: Precision
    custom_weights: bool
    requests_per_day: int
    avg_input_tokens: int
    avg_output_tokens: int
    context_tokens: int
    load_pattern: LoadPattern
    schedule: ScheduleId
    hours_per_month: float
    days_per_month: float
    utilization: float | None
    """Given in the input, or derived from the load once the model is sized (None until then)."""
    utilization_source: Literal["input", "derived", "load_pattern_default"]
    latency_sensitive: bool
    personal_data: bool
    on_premises_required: bool
    model_stable: bool
    company_country: str
    volume_growing: bool
    devops_capacity: bool
    business_critical: bool
    framework: Framework
    needs_gpu: bool
    defaults_used: tuple[str, ...]

    @property
    def is_moe(self) -> bool:
        return self.active_params_b < self.params_b

    def fallback_utilization(self, knowledge: Knowledge) -> float:
        """The load pattern's assumed utilization, for a model no GPU can serve (nothing to derive from)."""
        return next(
            u.utilization
            for u in knowledge.workload_defaults.utilization_by_load_pattern
            if u.load_pattern == self.load_pattern
        )


def parse_workload_text(text: str, origin: str) -> Workload:
    """Parse YAML or JSON text into a validated ``Workload``; errors name the field and value."""
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        raise InputError(f"{origin}: input is larger than {MAX_INPUT_BYTES} bytes")
    return validate_workload(load_yaml(text, origin), origin)


def load_workload(path: str) -> Workload:
    """Read a workload from a file path, or from standard input when the path is ``-``."""
    return parse_workload_text(read_input_text(path), "<stdin>" if path == "-" else path)


def validate_workload(data: Any, origin: str) -> Workload:
    if not isinstance(data, dict):
        raise InputError(f"{origin}: a workload is a mapping of fields, got {type(data).__name__}")
    if _depth(data) > MAX_NESTING_DEPTH:
        raise InputError(f"{origin}: input is nested deeper than {MAX_NESTING_DEPTH} levels")
    try:
        return Workload.model_validate(data)
    except ValidationError as error:
        raise input_error(origin, error, Workload) from None


# The workload's own validation messages (raised in model validators), translated like pydantic's.
MISSING_SIZE = "give model.name (a catalog ID) or model.params_b"


ACTIVE_ABOVE_TOTAL = "model.active_params_b cannot exceed model.params_b"


VALUE_ERRORS: tuple[str, ...] = (MISSING_SIZE, ACTIVE_ABOVE_TOTAL)
