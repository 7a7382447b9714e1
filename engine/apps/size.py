"""``size``: card counts per GPU for one model; with a load, the replicas each GPU needs."""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_advisor.engine.calc.calibration import highest_error
from gpu_advisor.engine.calc.load import workload_load
from gpu_advisor.engine.calc.replicas import ReplicaPlan, plans_by_gpu, sizing_policy
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.common.errors import InputError, unknown_value_message
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.load import Load
from gpu_advisor.engine.domain.requests import LoadRequest, SizeRequest
from gpu_advisor.engine.domain.results import SizeResult
from gpu_advisor.engine.pipeline.defaults import context_for
from gpu_advisor.engine.pipeline.engines import rules_engine
from gpu_advisor.engine.pipeline.fit import WORKLOAD_SCENARIO, assert_gpu_fits
from gpu_advisor.engine.report.recommendation import size_result
from gpu_advisor.engine.rulebook.durable import Evaluator


class SizedLoad(NamedTuple):
    load: Load
    input_tokens: int
    output_tokens: int


def sized_load(request: LoadRequest, knowledge: Knowledge) -> SizedLoad:
    """The requested load, the workload defaults in place of the fields it leaves out."""
    defaults = knowledge.workload_default_values()

    def pick(field: str) -> Any:
        value = getattr(request, field)
        return defaults[field] if value is None else value

    schedule = knowledge.schedule(str(pick("schedule")))
    input_tokens, output_tokens = int(pick("avg_input_tokens")), int(pick("avg_output_tokens"))
    pattern = str(pick("load_pattern"))
    load = workload_load(
        knowledge,
        request.requests_per_day,
        schedule,
        schedule.hours_per_month,
        pattern,
        knowledge.load_profile(pattern).hourly,
        False,
        float(defaults["batch_window_hours"]),
        input_tokens,
        output_tokens,
    )
    return SizedLoad(load, input_tokens, output_tokens)


def size(request: SizeRequest, evaluator: Evaluator | None = None) -> SizeResult:
    """Card counts per GPU for one model, with the sizing and interconnect rules applied; with a load,
    the replicas each GPU needs for its peak."""
    knowledge = load_knowledge()
    model_ids = [m.id for m in knowledge.models.models]
    if request.model is not None and request.model not in model_ids:
        raise InputError(unknown_value_message("model", request.model, model_ids), field="model")
    catalog = knowledge.model(request.model) if request.model is not None else None
    total = catalog.params_b if catalog is not None else float(request.params_b or 0)
    active = catalog.active_params_b if catalog is not None else (request.active_params_b or total)
    sized = sized_load(request.load, knowledge) if request.load is not None else None
    context = context_for(
        sized.input_tokens if sized else 0,
        sized.output_tokens if sized else 0,
        request.context_tokens or int(knowledge.workload_default_values()["context_tokens"]),
        request.context_tokens is not None,
        catalog,
    )
    figures = size_model(knowledge, total, active, request.precision, catalog, context)
    plans: dict[str, ReplicaPlan] = {}
    if sized is not None:
        sizing = sizing_policy(knowledge, highest_error(knowledge), False, 1)
        plans = plans_by_gpu(knowledge, figures, sized.load, sized.input_tokens, sized.output_tokens, sizing)
    with (evaluator or rules_engine()).session() as session:
        firings = assert_gpu_fits(session, figures, knowledge, WORKLOAD_SCENARIO)
    return size_result(figures, request.model, firings, knowledge, sized.load if sized else None, plans)
