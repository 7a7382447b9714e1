"""Ranges a workload file may give instead of a point (``requests_per_day: {low: 200000, high: 600000}``)
and its volume growth (``volume_growth: {low: 0.1, high: 0.5}`` or ``volume_growth: 0.3``: next year's
requests a day over today's, less one).

A run without scenarios uses each range's point value (``Range.point``, rounded to a whole number of
requests) and ignores the growth; ``recommend --scenarios N`` draws both: a scenario's requests a day are
the drawn volume times one plus the drawn growth, the volume the decision must carry within a year.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gpu_advisor.engine.common.errors import InputError, validator_message
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.distributions import Range
from gpu_advisor.engine.domain.input_errors import validation_problems

MAX_REQUESTS_PER_DAY = 10_000_000_000
RANGE_FIELDS = ("requests_per_day", "volume_growth")
RANGE_ONLY_FIELDS = ("volume_growth",)
"""The range fields that are no workload fields: read here, before the workload is validated."""


class RequestsRange(Range):
    low: float = Field(gt=0, le=MAX_REQUESTS_PER_DAY)
    high: float = Field(gt=0, le=MAX_REQUESTS_PER_DAY)


class GrowthRange(Range):
    low: float = Field(gt=-1, le=100)
    high: float = Field(gt=-1, le=100)


class WorkloadRanges(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    requests_per_day: RequestsRange | None = None
    volume_growth: GrowthRange | None = None

    @model_validator(mode="before")
    @classmethod
    def _growth_as_number(cls, data: Any) -> Any:
        growth = data.get("volume_growth") if isinstance(data, dict) else None
        if isinstance(growth, (int, float)) and not isinstance(growth, bool):
            return {**data, "volume_growth": {"low": growth, "high": growth}}
        return data


def split_ranges(data: dict[str, Any], origin: str | Words) -> tuple[dict[str, Any], WorkloadRanges]:
    """The workload's data with each range replaced by its point value (growth left out), and the ranges.
    A bad range is an input error naming the field."""
    given = {
        name: data[name]
        for name in RANGE_FIELDS
        if name in data and (name == "volume_growth" or isinstance(data[name], dict))
    }
    if not given:
        return data, WorkloadRanges()
    try:
        ranges = WorkloadRanges.model_validate(given)
    except ValidationError as error:
        problem = error.errors()[0]
        field = ".".join(str(part) for part in problem["loc"])
        problems = validation_problems(error, WorkloadRanges)
        for entry in problems:
            if entry["type"] == "missing":
                # {a: 1} is no range: say what the field takes, a number or both ends.
                entry["type"], entry["range"] = "range_missing", entry["field"].split(".")[0]
        said = validator_message(str(problem["msg"]))
        if problems[0]["type"] == "range_missing":
            said = str(range_missing(problems[0]["range"]))
        # The first problem in English as before; every problem for the other languages.
        raise InputError(
            f"{origin}: {field}: {said}",
            field=field.split(".")[0],
            problems=problems,
            origin=origin,
            what="workload",
        ) from None
    point = {name: value for name, value in data.items() if name != "volume_growth"}
    # A growth above 0 says the volume grows where the file does not say otherwise, as ``ask --from``
    # reads it (the memo said "Volume growing: no (default)" beside the file's 5 % a year).
    if ranges.volume_growth is not None and ranges.volume_growth.high > 0:
        point.setdefault("volume_growing", True)
    if ranges.requests_per_day is not None:
        point["requests_per_day"] = point_requests(ranges.requests_per_day)
    return point, ranges


def range_missing(name: str) -> Words:
    """An end of a range left out (``input_error.txt.j2`` says it so in every language)."""
    return Words("Field required: %(name)s takes a number, or a range {low, high} with both", name=name)


def point_requests(requests: RequestsRange) -> int:
    """The requests a day a run without scenarios reads from a range: its point value, a whole number."""
    return max(1, round(requests.point))


def schema_with_ranges(schema: dict[str, Any]) -> dict[str, Any]:
    """The workload's JSON Schema with the forms a workload file may also give: ``requests_per_day`` as a
    range, and ``volume_growth`` (a range or a number)."""
    properties = dict(schema.get("properties", {}))
    definitions = dict(schema.get("$defs", {}))
    definitions["RequestsRange"] = RequestsRange.model_json_schema()
    definitions["GrowthRange"] = GrowthRange.model_json_schema()
    point = properties.get("requests_per_day")
    if point is not None:
        properties["requests_per_day"] = {
            "anyOf": [point, {"$ref": "#/$defs/RequestsRange"}],
            "description": (
                f"{point.get('description', '')} Or a range {{low, high, shape, mode}}: its point value "
                "is used, and recommend --scenarios N draws it."
            ).strip(),
        }
    properties["volume_growth"] = {
        "anyOf": [
            {"type": "number", "exclusiveMinimum": -1, "maximum": 100},
            {"$ref": "#/$defs/GrowthRange"},
        ],
        "description": (
            "Next year's requests a day over today's, less one (a number or a range); only recommend "
            "--scenarios N reads it."
        ),
    }
    return {**schema, "properties": properties, "$defs": definitions}


def written_ranges(ranges: WorkloadRanges) -> dict[str, Any]:
    """The ranges as a workload file gives them, whole numbers without a fraction (200000, not 200000.0)."""
    return {
        name: {key: _plain(value) for key, value in values.items()}
        for name, values in ranges.model_dump(exclude_none=True, exclude_defaults=True).items()
    }


def with_ranges(document: dict[str, Any], ranges: WorkloadRanges) -> dict[str, Any]:
    """A workload document written again (``ask --from``, the web form's saved file) with the ranges its
    source gave: the volume growth as it was, the requests a day as a range while the document's value is
    still the range's point value (an answer changed to another number replaces the range)."""
    given = written_ranges(ranges)
    written = dict(document)
    requests = ranges.requests_per_day
    if requests is not None and written.get("requests_per_day") == point_requests(requests):
        written["requests_per_day"] = given["requests_per_day"]
    if "volume_growth" in given:
        written["volume_growth"] = given["volume_growth"]
    return written


def _plain(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value
