"""``size``: card counts per GPU for one model; with a load, the replicas each GPU needs."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from gpu_advisor.engine.calc.load import workload_load
from gpu_advisor.engine.calc.replicas import ReplicaPlan, plans_by_gpu
from gpu_advisor.engine.calc.sizing import size_model
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import SizeResult
from gpu_advisor.engine.pipeline.defaults import context_for
from gpu_advisor.engine.pipeline.engines import rules_engine
from gpu_advisor.engine.pipeline.fit import WORKLOAD_SCENARIO, assert_gpu_fits
from gpu_advisor.engine.report.recommendation import size_result
from gpu_advisor.engine.rulebook.durable import Evaluator


class LoadInput(BaseModel):
    """The load ``size`` can be given to show replicas per GPU; fields left out take the defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    requests_per_day: int = Field(gt=0)
    avg_input_tokens: int = Field(gt=0)
    avg_output_tokens: int = Field(gt=0)
    load_pattern: str
    schedule: str


def size(
    *,
    precision: str,
    model_id: str | None = None,
    params_b: float | None = None,
    active_params_b: float | None = None,
    context_tokens: int | None = None,
    load_input: LoadInput | None = None,
    evaluator: Evaluator | None = None,
) -> SizeResult:
    """Card counts per GPU for one model, with the sizing and interconnect rules applied; with a load,
    the replicas each GPU needs for its peak."""
    knowledge = load_knowledge()
    catalog = knowledge.model(model_id) if model_id is not None else None
    total = params_b if params_b is not None else catalog.params_b  # type: ignore[union-attr]
    active = (
        active_params_b
        if active_params_b is not None
        else (catalog.active_params_b if catalog is not None and params_b is None else total)
    )
    defaults = knowledge.workload_default_values()
    context = context_tokens or int(defaults["context_tokens"])
    context = context_for(
        load_input.avg_input_tokens if load_input else 0,
        load_input.avg_output_tokens if load_input else 0,
        context,
        context_tokens is not None,
        catalog,
    )
    figures = size_model(knowledge, total, active, precision, catalog, context)
    load = None
    plans: dict[str, ReplicaPlan] = {}
    if load_input is not None:
        schedule = knowledge.schedule(load_input.schedule)
        load = workload_load(
            knowledge,
            load_input.requests_per_day,
            schedule,
            schedule.hours_per_month,
            load_input.load_pattern,
            load_input.avg_input_tokens,
            load_input.avg_output_tokens,
        )
        plans = plans_by_gpu(
            knowledge, figures, load, load_input.avg_input_tokens, load_input.avg_output_tokens
        )
    with (evaluator or rules_engine()).session() as session:
        firings = assert_gpu_fits(session, figures, knowledge, WORKLOAD_SCENARIO)
    return size_result(figures, model_id, firings, knowledge, load, plans)
