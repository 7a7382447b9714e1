"""The workload: what a team wants to run, validated strictly, then completed from the knowledge base.

``Workload`` is exactly what the user wrote (unknown keys rejected, no silent type coercion).
``ResolvedWorkload`` is the same workload with catalog model facts and documented defaults filled in,
and remembers which values were defaults so the memo can list them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import InputError, close_match, unknown_value_message
from .knowledge import Knowledge, ModelConfig, Precision

LoadPattern = Literal["steady", "variable", "batch"]
Framework = Literal["pytorch", "jax", "tensorflow"]
ScheduleId = Literal["always", "workdays", "office_hours"]

MAX_INPUT_BYTES = 1_000_000
MAX_NESTING_DEPTH = 20

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


# --- parsing -----------------------------------------------------------------------------------------


class UniqueKeyLoader(yaml.SafeLoader):
    """Safe YAML for user input: a key given twice is an error instead of the last value winning, keys
    must be plain values, and aliases are refused (a few nested aliases expand to billions of nodes)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.events.AliasEvent):  # type: ignore[no-untyped-call]
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in gpu-advisor input", event.start_mark
            )
        return super().compose_node(parent, index)  # type: ignore[misc]

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
            try:
                duplicate = key in seen
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a key must be a plain value, not a list or mapping", key_node.start_mark
                ) from None
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def parse_workload_text(text: str, origin: str) -> Workload:
    """Parse YAML or JSON text into a validated ``Workload``; errors name the field and value."""
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        raise InputError(f"{origin}: input is larger than {MAX_INPUT_BYTES} bytes")
    return validate_workload(load_yaml(text, origin), origin)


def load_yaml(text: str, origin: str) -> Any:
    """User input as YAML (JSON is YAML): safe, strict about keys, bounded in depth."""
    try:
        return yaml.load(text, Loader=UniqueKeyLoader)
    except yaml.YAMLError as error:
        raise InputError(f"{origin}: not valid YAML or JSON ({_one_line(error)})") from None
    except RecursionError:
        raise InputError(f"{origin}: input is nested deeper than {MAX_NESTING_DEPTH} levels") from None


def load_workload(path: str) -> Workload:
    """Read a workload from a file path, or from standard input when the path is ``-``."""
    return parse_workload_text(read_input_text(path), "<stdin>" if path == "-" else path)


def read_input_text(path: str, *, error_prefix: str = "", stdin: bool = True) -> str:
    """A user's input file as text, or standard input for ``-``: bounded in size, UTF-8, and every
    failure an input error naming the file (after ``error_prefix``, e.g. the option that named it)."""
    if stdin and path == "-":
        import sys

        return decode(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1), "<stdin>")
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{error_prefix}{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{error_prefix}{path}: cannot be read ({error.strerror})") from None
    return decode(data, path)


def decode(data: bytes, origin: str) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{origin}: input is larger than {MAX_INPUT_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{origin}: not UTF-8 text (byte {error.start})") from None


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

# pydantic's messages for type errors, as msgids the language catalogs translate.
TYPE_MESSAGES: dict[str, str] = {
    "int_type": "Input should be a valid integer",
    "int_parsing": "Input should be a valid integer, unable to parse string as an integer",
    "int_from_float": "Input should be a valid integer, got a number with a fractional part",
    "float_type": "Input should be a valid number",
    "float_parsing": "Input should be a valid number, unable to parse string as a number",
    "bool_type": "Input should be a valid boolean",
    "bool_parsing": "Input should be a valid boolean, unable to interpret input",
    "string_type": "Input should be a valid string",
    "string_too_short": "String should have at least 1 character",
    "dict_type": "Input should be a valid dictionary",
    "model_type": "Input should be a valid dictionary or instance of the model",
    "list_type": "Input should be a valid list",
    "date_from_datetime_parsing": "Input should be a valid date",
    "date_type": "Input should be a valid date",
    "finite_number": "Input should be a finite number",
}


def validation_problems(error: ValidationError, schema: type[BaseModel]) -> list[dict[str, Any]]:
    """Each problem of a pydantic error with what a reader needs: field, kind, limits, a suggestion."""
    problems = []
    for problem in error.errors():
        field = ".".join(str(part) for part in problem["loc"]) or "(top level)"
        kind = problem["type"]
        given = problem.get("input")
        entry: dict[str, Any] = {
            "field": field,
            "type": kind,
            "msg": problem["msg"],
            "ctx": {key: _plain_number(value) for key, value in problem.get("ctx", {}).items()},
            "input": _short_repr(given),
            # A check across fields gets the whole mapping as its input: its message names the fields.
            "show_input": kind not in ("missing", "extra_forbidden")
            and not (kind == "value_error" and isinstance(given, dict)),
            "allowed": [],
            "suggestion": None,
        }
        if kind == "string_pattern_mismatch" and field == "company_country":
            entry["type"] = "iso_country"
            text = str(given)
            entry["suggestion"] = text.upper() if len(text) == 2 and text.isalpha() else None
        if kind == "extra_forbidden":
            entry["allowed"] = _allowed_fields(schema, problem["loc"][:-1])
            entry["suggestion"] = close_match(str(problem["loc"][-1]), entry["allowed"])
        problems.append(entry)
    return problems


def _plain_number(value: Any) -> Any:
    """Limits as pydantic writes them: 1 rather than 1.0."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def input_error(
    origin: str, error: ValidationError, schema: type[BaseModel], what: str = "workload"
) -> InputError:
    """A pydantic validation error as an ``InputError`` the reader can act on."""
    problems = validation_problems(error, schema)
    return InputError(
        render_problems(origin, problems, what, "en"), problems=problems, origin=origin, what=what
    )


def render_problems(origin: str, problems: list[dict[str, Any]], what: str, lang: str) -> str:
    from .text import Format, render

    text = render(
        "input_error.txt.j2",
        Format(lang=lang),
        origin=origin,
        problems=problems,
        what=what,
        type_messages=TYPE_MESSAGES,  # type: ignore[arg-type]
    )
    return text.rstrip("\n")


def _allowed_fields(schema: type[BaseModel], location: tuple[Any, ...]) -> list[str]:
    model: type[BaseModel] = schema
    for part in location:
        annotation = model.model_fields[str(part)].annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
    return list(model.model_fields)


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_NESTING_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


# --- resolution --------------------------------------------------------------------------------------


CATALOG_TOLERANCE = 0.05
"""A params_b given beside a catalog model may differ from the catalog's count by this share (rounding)."""


def check_against_catalog(spec: ModelSpec, catalog: ModelConfig) -> None:
    """Numbers given beside a catalog ID must describe the same model: the attention shape used for the
    KV cache comes from the catalog, so a different size would silently mix two models."""
    known = [catalog.params_b] + ([catalog.params_b_exact] if catalog.params_b_exact else [])
    if spec.params_b is not None and all(abs(spec.params_b - k) > CATALOG_TOLERANCE * k for k in known):
        raise InputError(
            f"model.params_b: {spec.params_b} contradicts the catalog's {catalog.id} ({catalog.params_b}B); "
            "give the catalog ID or the parameter count, not both",
            field="model.params_b",
        )
    if spec.active_params_b is not None and (
        abs(spec.active_params_b - catalog.active_params_b) > CATALOG_TOLERANCE * catalog.active_params_b
    ):
        raise InputError(
            f"model.active_params_b: {spec.active_params_b} contradicts the catalog's {catalog.id} "
            f"({catalog.active_params_b}B active); leave it out for a catalog model",
            field="model.active_params_b",
        )


def context_for(
    avg_input_tokens: int,
    avg_output_tokens: int,
    context_tokens: int,
    given: bool,
    catalog: ModelConfig | None,
) -> int:
    """The context window the KV cache is sized for. A default window grows to hold an average request;
    a given one that cannot hold it, or any window longer than the model supports, is an input error."""
    request = avg_input_tokens + avg_output_tokens
    if not given:
        context_tokens = max(context_tokens, request)
    if request > context_tokens:
        raise InputError(
            f"context_tokens: an average request ({avg_input_tokens:,} in + {avg_output_tokens:,} out = "
            f"{request:,} tokens) does not fit context_tokens: {context_tokens:,} tokens; "
            f"give a context_tokens of at least {request:,}",
            field="context_tokens",
        )
    if catalog is not None and context_tokens > catalog.max_context_tokens:
        what = f"{context_tokens:,}" if given else f"an average request of {request:,} tokens"
        raise InputError(
            f"context_tokens: {what} exceeds {catalog.id}'s maximum context of "
            f"{catalog.max_context_tokens:,} tokens",
            field="context_tokens",
        )
    return context_tokens


def resolve_workload(workload: Workload, knowledge: Knowledge) -> ResolvedWorkload:
    """Fill in catalog model facts and documented defaults; the result has no missing fact."""
    spec = workload.model
    catalog: ModelConfig | None = None
    if spec.name is not None:
        model_ids = [m.id for m in knowledge.models.models]
        if spec.name not in model_ids:
            raise InputError(unknown_value_message("model.name", spec.name, model_ids), field="model.name")
        catalog = knowledge.model(spec.name)
    if catalog is not None:
        check_against_catalog(spec, catalog)
    params_b = spec.params_b if spec.params_b is not None else catalog.params_b  # type: ignore[union-attr]
    if spec.active_params_b is not None:
        active_params_b = spec.active_params_b
    elif catalog is not None and spec.params_b is None:
        active_params_b = catalog.active_params_b
    else:
        active_params_b = params_b
    if active_params_b > params_b:
        raise InputError(
            f"model.active_params_b: {active_params_b} exceeds the total of {params_b} billion parameters",
            field="model.active_params_b",
        )

    defaults = knowledge.workload_default_values()
    given = workload.model_dump(exclude_none=True)
    defaults_used: list[str] = []

    def pick(field: str) -> Any:
        if field in given:
            return given[field]
        defaults_used.append(field)
        return defaults[field]

    schedule_id = pick("schedule")
    schedule = knowledge.schedule(schedule_id)
    load_pattern = pick("load_pattern")
    by_pattern = {u.load_pattern: u for u in knowledge.workload_defaults.utilization_by_load_pattern}
    utilization_source = "input" if workload.utilization is not None else "derived"
    if workload.latency_sensitive is not None:
        latency_sensitive = workload.latency_sensitive
    else:
        latency_sensitive = by_pattern[load_pattern].latency_sensitive
        defaults_used.append("latency_sensitive")

    avg_input_tokens, avg_output_tokens = pick("avg_input_tokens"), pick("avg_output_tokens")
    context_tokens = pick("context_tokens")
    context_tokens = context_for(
        avg_input_tokens, avg_output_tokens, context_tokens, "context_tokens" in given, catalog
    )

    return ResolvedWorkload(
        name=workload.name,
        model_id=spec.name,
        model_config_entry=catalog,
        params_b=params_b,
        active_params_b=active_params_b,
        precision=spec.precision,
        custom_weights=spec.custom_weights,
        requests_per_day=workload.requests_per_day,
        avg_input_tokens=avg_input_tokens,
        avg_output_tokens=avg_output_tokens,
        context_tokens=context_tokens,
        load_pattern=load_pattern,
        schedule=schedule_id,
        hours_per_month=workload.hours_per_month
        if workload.hours_per_month is not None
        else schedule.hours_per_month,
        days_per_month=schedule.days_per_month,
        utilization=workload.utilization,
        utilization_source=utilization_source,
        latency_sensitive=latency_sensitive,
        personal_data=pick("personal_data"),
        on_premises_required=pick("on_premises_required"),
        model_stable=pick("model_stable"),
        company_country=pick("company_country"),
        volume_growing=pick("volume_growing"),
        devops_capacity=pick("devops_capacity"),
        business_critical=pick("business_critical"),
        framework=pick("framework"),
        needs_gpu=pick("needs_gpu"),
        defaults_used=tuple(defaults_used),
    )
