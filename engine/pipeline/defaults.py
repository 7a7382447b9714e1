"""Completing a workload: catalog model facts and documented defaults filled in."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from gpu_advisor.engine.calc.traffic import daily_traffic
from gpu_advisor.engine.common.errors import InputError, unknown_model_problem
from gpu_advisor.engine.common.wording import Grouped, Words, WordsError, at
from gpu_advisor.engine.domain.batch_fields import BATCH_FIELDS
from gpu_advisor.engine.domain.choices import LoadPattern
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.figures import Schedule
from gpu_advisor.engine.domain.knowledge.models import ModelConfig
from gpu_advisor.engine.domain.limits import MAX_CONTEXT_TOKENS
from gpu_advisor.engine.domain.model_spec import ModelSpec
from gpu_advisor.engine.domain.workload import Given, ResolvedWorkload, WorkloadInput, fields_given

CATALOG_TOLERANCE = 0.05
"""A params_b given beside a catalog model may differ from the catalog's count by this share (rounding)."""


def check_against_catalog(spec: ModelSpec, catalog: ModelConfig) -> None:
    """Numbers given beside a catalog ID must describe the same model: the attention shape used for the
    KV cache comes from the catalog, so a different size would silently mix two models."""
    known = [catalog.params_b] + ([catalog.params_b_exact] if catalog.params_b_exact else [])
    if spec.params_b is not None and all(abs(spec.params_b - k) > CATALOG_TOLERANCE * k for k in known):
        problem = Words(
            "%(given)s contradicts the catalog's %(model)s (%(params)sB); "
            "give the catalog ID or the parameter count, not both",
            given=spec.params_b,
            model=catalog.id,
            params=catalog.params_b,
        )
        raise InputError(at("model.params_b", problem), field="model.params_b")
    if spec.active_params_b is not None and (
        abs(spec.active_params_b - catalog.active_params_b) > CATALOG_TOLERANCE * catalog.active_params_b
    ):
        problem = Words(
            "%(given)s contradicts the catalog's %(model)s (%(params)sB active); "
            "leave it out for a catalog model",
            given=spec.active_params_b,
            model=catalog.id,
            params=catalog.active_params_b,
        )
        raise InputError(at("model.active_params_b", problem), field="model.active_params_b")
    if spec.attention_shape is not None:
        problem = Words(
            "the catalog's %(model)s has its own attention shape; leave it out for a catalog model",
            model=catalog.id,
        )
        raise InputError(at("model.attention_shape", problem), field="model.attention_shape")


def _request_counts(avg_input_tokens: int, avg_output_tokens: int) -> dict[str, Grouped]:
    """An average request's parts and length, as the refusals of its length name them."""
    return {
        "input": Grouped(avg_input_tokens),
        "output": Grouped(avg_output_tokens),
        "request": Grouped(avg_input_tokens + avg_output_tokens),
    }


def _refuse_longer_part(problem: Words, avg_input_tokens: int, avg_output_tokens: int) -> NoReturn:
    """Refuse an average request no window takes, blaming the longer of its parts (the one to shorten)."""
    blamed = "avg_input_tokens" if avg_input_tokens >= avg_output_tokens else "avg_output_tokens"
    raise InputError(at(blamed, problem), field=blamed)


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
    if request > MAX_CONTEXT_TOKENS:
        # Each count is within its own bound, their sum is not: no window is sized that long.
        problem = Words(
            "an average request (%(input)s in + %(output)s out = %(request)s tokens) is longer than the "
            "longest context gpu-advisor sizes, %(most)s tokens",
            **_request_counts(avg_input_tokens, avg_output_tokens),
            most=Grouped(MAX_CONTEXT_TOKENS),
        )
        _refuse_longer_part(problem, avg_input_tokens, avg_output_tokens)
    if catalog is not None and request > catalog.max_context_tokens:
        # No context_tokens can hold it: say so before asking for a longer one.
        problem = Words(
            "an average request (%(input)s in + %(output)s out = %(request)s tokens) exceeds %(model)s's "
            "maximum context of %(most)s tokens",
            **_request_counts(avg_input_tokens, avg_output_tokens),
            model=catalog.id,
            most=Grouped(catalog.max_context_tokens),
        )
        _refuse_longer_part(problem, avg_input_tokens, avg_output_tokens)
    if not given:
        context_tokens = max(context_tokens, request)
    if request > context_tokens:
        problem = Words(
            "an average request (%(input)s in + %(output)s out = %(request)s tokens) does not fit "
            "context_tokens: %(context)s; give a context_tokens of at least %(request)s",
            **_request_counts(avg_input_tokens, avg_output_tokens),
            context=Grouped(context_tokens),
        )
        raise InputError(at("context_tokens", problem), field="context_tokens")
    if catalog is not None and context_tokens > catalog.max_context_tokens:
        problem = Words(
            "%(what)s exceeds %(model)s's maximum context of %(most)s tokens",
            what=Words.joined("%(tokens)s", tokens=Grouped(context_tokens)),
            model=catalog.id,
            most=Grouped(catalog.max_context_tokens),
        )
        raise InputError(at("context_tokens", problem), field="context_tokens")
    return context_tokens


@dataclass(frozen=True)
class Derivation:
    """How a field left out of the input is worked out from the fields before it."""

    work_out: Callable[[dict[str, Any], Knowledge], Any]
    listed_as_default: bool
    """The memo marks the value as a default (a documented assumption, not a figure of the load)."""


def _users_wait(values: dict[str, Any]) -> bool:
    """Someone waits for each answer: a latency-sensitive service that is no batch."""
    return bool(values["latency_sensitive"]) and values["load_pattern"] != "batch"


DERIVATIONS: dict[str, Derivation] = {
    # Users wait for a steady or variable service's answers, not for a batch job's.
    "latency_sensitive": Derivation(
        lambda values, knowledge: knowledge.utilization_default(values["load_pattern"]).latency_sensitive,
        listed_as_default=True,
    ),
    # A latency-sensitive service is held to the documented targets; a batch job to none, even one marked
    # latency-sensitive (its results are awaited, DEP029 and PRC002, but its requests wait for the
    # window: a target given for a batch is refused, so none is derived either).
    "max_time_to_first_token_ms": Derivation(
        lambda values, knowledge: (
            knowledge.latency_target("max_time_to_first_token_ms") if _users_wait(values) else None
        ),
        listed_as_default=True,
    ),
    "max_time_per_output_token_ms": Derivation(
        lambda values, knowledge: (
            knowledge.latency_target("max_time_per_output_token_ms") if _users_wait(values) else None
        ),
        listed_as_default=True,
    ),
    # A batch runs every day of its schedule unless the workload says how often (a weekly job: 4.35).
    "batch_runs_per_month": Derivation(
        lambda values, knowledge: knowledge.schedule(values["schedule"]).days_per_month,
        listed_as_default=True,
    ),
    "hours_per_month": Derivation(
        lambda values, knowledge: knowledge.schedule(values["schedule"]).hours_per_month,
        listed_as_default=False,
    ),
    # The people whose data it is are taken to be where the company is (knowledge/data_protection.yaml).
    "personal_data_region": Derivation(
        lambda values, knowledge: knowledge.data_protection_region(values["company_country"]),
        listed_as_default=True,
    ),
    # Derived from the load once the model is sized (``pipeline/market.py``).
    "utilization": Derivation(lambda values, knowledge: None, listed_as_default=False),
    # The load pattern's published profile (knowledge/load_profiles.yaml).
    "load_profile": Derivation(
        lambda values, knowledge: list(knowledge.load_profile(values["load_pattern"]).hourly),
        listed_as_default=True,
    ),
}
"""One entry for every field declared ``Given.DERIVED``."""

NO_TARGET_FIELDS = ("max_time_to_first_token_ms", "max_time_per_output_token_ms")
"""Fields where an explicit null is a value of its own (no target), where elsewhere it leaves the field
to its default or derivation."""


def profile_pattern(profile: Sequence[float], schedule: Schedule, knowledge: Knowledge) -> LoadPattern:
    """The load pattern of a workload's own profile given without one: that of the published profile
    (``knowledge/load_profiles.yaml``; a batch's, which is a scheduler's, excepted) whose shape over the
    schedule's hours is nearest the profile's own: its busiest and its quietest hour, each over the mean
    (steady around the clock: 1.33 and 0.70; variable: 2.31 and 0.06), as a point in the plane. A call
    centre's day with ten empty hours (2.35 and 0) is variable, and so is a flat day with ten empty hours
    (1.71 and 0), though its busiest hour alone is nearer the steady profile's."""

    def shape(hourly: Sequence[float]) -> tuple[float, float]:
        traffic = daily_traffic(tuple(hourly), schedule.first_hour, schedule.hours_per_day)
        rates = zip(traffic.relative_rate, traffic.served, strict=True)
        return traffic.busiest, min(rate for rate, share in rates if share > 0)

    try:
        own = shape(profile)
    except WordsError:
        # No traffic in the schedule's hours: the load's own check says so (calc/load.py).
        return knowledge.workload_default_values()["load_pattern"]  # type: ignore[no-any-return]
    published = [p for p in knowledge.load_profiles.profiles if not p.work_waits]
    nearest = min(published, key=lambda p: (math.dist(shape(p.hourly), own), p.load_pattern))
    return nearest.load_pattern


def pattern_left_out(given: Mapping[str, Any], knowledge: Knowledge) -> LoadPattern:
    """The load pattern of a workload that gives none: with a ``load_profile`` the pattern it is nearest
    (the profile says how the load varies, the rules read the pattern), else the documented default.
    The questionnaire offers it too, for a ``--from`` file with a profile."""
    defaults = knowledge.workload_default_values()
    if "load_profile" not in given:
        return defaults["load_pattern"]  # type: ignore[no-any-return]
    schedule = knowledge.schedule(given.get("schedule") or defaults["schedule"])
    return profile_pattern(given["load_profile"], schedule, knowledge)


def model_facts(spec: ModelSpec, knowledge: Knowledge) -> dict[str, Any]:
    """The model's catalog entry and sizes: the catalog's where the spec names a model, checked against
    the numbers given beside it."""
    catalog: ModelConfig | None = None
    if spec.name is not None:
        model_ids = [m.id for m in knowledge.models.models]
        if spec.name not in model_ids:
            raise InputError(
                at("model.name", unknown_model_problem(spec.name, model_ids)), field="model.name"
            )
        catalog = knowledge.model(spec.name)
        check_against_catalog(spec, catalog)
    if catalog is not None:
        # Sizes given beside a catalog ID agree with it within rounding (``check_against_catalog``): the
        # model is the catalog's, with its counts. A 34B given for Qwen2.5 32B is its 32B (32.76B in
        # its checkpoint), and Qwen3-235B-A22B given as 235B keeps its 22B active, not 235.
        params_b, active_params_b = catalog.params_b, catalog.active_params_b
    else:
        params_b = spec.params_b  # type: ignore[assignment]
        active_params_b = spec.active_params_b if spec.active_params_b is not None else params_b
    if active_params_b > params_b:
        problem = Words(
            "%(active)s exceeds the total of %(total)s billion parameters",
            active=active_params_b,
            total=params_b,
        )
        raise InputError(at("model.active_params_b", problem), field="model.active_params_b")
    return {
        "model": spec.name,
        "model_config_entry": catalog,
        "params_b": params_b,
        "active_params_b": active_params_b,
        "precision": spec.precision,
        "custom_weights": spec.custom_weights,
        "reasoning": spec.reasoning
        if spec.reasoning is not None
        else bool(catalog is not None and catalog.reasoning),
        "attention_shape": spec.attention_shape,
    }


def check_shared_prefix(prefix: int, input_tokens: int, defaulted: bool = False) -> None:
    """Refuse a shared prompt start as long as an average prompt: it is the start of every prompt, and a
    prompt of no more than it would add nothing to compute. ``defaulted``: the prompt's length is the
    default, which the refusal says, as the user gave none."""
    if prefix >= input_tokens:
        problem = Words(
            "%(prefix)s tokens is not less than an average prompt, %(input)s tokens: the shared prefix is "
            "the start of every prompt, and each prompt adds tokens of its own",
            prefix=Grouped(prefix),
            input=Grouped(input_tokens),
        )
        if defaulted:
            problem = Words(
                "%(problem)s; %(input)s is the default: give the average prompt's tokens as "
                "avg_input_tokens, its shared start included",
                problem=problem,
                input=Grouped(input_tokens),
            )
        raise InputError(at("shared_prefix_tokens", problem), field="shared_prefix_tokens")


def complete_workload(workload: WorkloadInput, knowledge: Knowledge) -> ResolvedWorkload:
    """Fill in catalog model facts, documented defaults and derived values; the result has no missing
    fact. The fields are completed in declaration order, so a derivation sees the fields before it."""
    given = workload.model_dump(exclude_none=True, exclude={"name", "model"})
    # A latency target given as null means "no target", not "the default target".
    given |= {
        field: None for field in NO_TARGET_FIELDS if field in workload.model_fields_set and field not in given
    }
    defaults = knowledge.workload_default_values()
    values: dict[str, Any] = {"name": workload.name, **model_facts(workload.model, knowledge)}
    # Whether the model thinks before it answers moves the decision (KNB021 sets an API of it aside): one
    # the file leaves to the catalog (or, for a model given by its size, to no) is a default, said so.
    defaults_used: list[str] = ["reasoning"] if workload.model.reasoning is None else []
    for field in fields_given(*Given):
        if field in given:
            values[field] = given[field]
        elif field == "load_pattern" and "load_profile" in given:
            values[field] = pattern_left_out(given, knowledge)
            values["load_pattern_source"] = "load_profile"
        elif field in DERIVATIONS:
            values[field] = DERIVATIONS[field].work_out(values, knowledge)
            if DERIVATIONS[field].listed_as_default:
                defaults_used.append(field)
        else:
            values[field] = defaults[field]
            defaults_used.append(field)
            if field == "load_pattern":
                values["load_pattern_source"] = "default"
    knowledge.check_country("company_country", values["company_country"])
    catalog = values["model_config_entry"]
    values["context_tokens"] = context_for(
        values["avg_input_tokens"],
        values["avg_output_tokens"],
        values["context_tokens"],
        "context_tokens" in given,
        catalog,
    )
    check_shared_prefix(
        values["shared_prefix_tokens"], values["avg_input_tokens"], "avg_input_tokens" in defaults_used
    )
    schedule_days = knowledge.schedule(values["schedule"]).days_per_month
    batch = knowledge.load_profile(values["load_pattern"]).work_waits
    if not batch:
        # A service has no window and no runs (given, they are refused): its result says none, rather
        # than the batch defaults it never reads.
        values |= dict.fromkeys(BATCH_FIELDS)
        defaults_used = [field for field in defaults_used if field not in BATCH_FIELDS]
    elif values["batch_runs_per_month"] > schedule_days:
        problem = Words(
            "%(runs)s runs are more than the schedule's %(days)s days a month; at most one run a day",
            runs=f"{values['batch_runs_per_month']:g}",
            days=f"{schedule_days:g}",
        )
        raise InputError(at("batch_runs_per_month", problem), field="batch_runs_per_month")
    # The days a month the load comes: a batch's runs, a service's schedule days.
    values["days_per_month"] = values["batch_runs_per_month"] if batch else schedule_days
    values["utilization_source"] = "input" if values["utilization"] is not None else "derived"
    return ResolvedWorkload(**values, defaults_used=tuple(defaults_used))
