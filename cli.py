"""Command line: parse options, call the engine, pick a format. Engine imports are lazy so that
``--help`` stays fast.

Exit codes: 0 success; 2 bad input (the message names the field, the value and what is allowed);
3 the shipped knowledge base or rule catalog is broken.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CHECK_FAILED = 1
EXIT_INTERRUPTED = 130
EXIT_BAD_INPUT = 2
EXIT_BROKEN_KNOWLEDGE = 3


def handle_errors(function: F) -> F:
    """Turn the engine's user-facing errors into a message on stderr and an exit code, no traceback.
    Validation errors are said in the command's --lang."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .engine.common.errors import EngineError, InputError, KnowledgeError

        try:
            return function(*args, **kwargs)
        except InputError as error:
            lang = kwargs.get("lang", "en")
            if error.problems and lang != "en":
                from .engine.domain.input_errors import render_problems
                from .engine.i18n.environment import render
                from .engine.i18n.formats import Format

                message = render_problems(str(error.origin), error.problems, str(error.what), lang)
                click.echo(render("error_prefix.txt.j2", Format(lang=lang), message=message), err=True)
            else:
                click.echo(f"error: {error}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except (KnowledgeError, EngineError) as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(EXIT_BROKEN_KNOWLEDGE)

    return wrapper  # type: ignore[return-value]


def to_json(result: Any) -> str:
    return json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def emit(text: str, output: str | None) -> None:
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        from .engine.common.errors import InputError

        raise InputError(f"--output: cannot write {output!r} ({error.strerror})") from None


class FiniteFloat(click.FloatRange):
    """A float option that also rejects nan and inf, which click's FloatRange lets through."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        import math

        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{param.opts[0] if param else 'value'}: not a finite number", param, ctx)
        return number


def parse_date(value: str | None) -> dt.date:
    if value is None:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        from .engine.common.errors import InputError

        raise InputError(f"--as-of: {value!r} is not a date; use YYYY-MM-DD") from None


# Options several commands share, declared once so their names, choices and help stay the same.
as_of_option = click.option(
    "--as-of", "as_of", metavar="YYYY-MM-DD", help="Evaluation date, for the age of prices (default: today)."
)
policy_option = click.option(
    "--policy", "policy_dir", metavar="DIR", help="Add an organization's rules from DIR/*.yaml."
)
lang_option = click.option(
    "--lang", type=click.Choice(["en", "de"]), default="en", show_default=True, help="Memo language."
)
currency_option = click.option(
    "--currency",
    type=click.Choice(["USD", "EUR"]),
    default="USD",
    show_default=True,
    help="Currency of amounts.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="gpu-advisor")
def main() -> None:
    """Decide how to run an LLM inference workload, and show why.

    Managed API or self-hosting, serverless or dedicated GPUs, which GPU and how many cards, which
    offer and price tier, EU or not, rent or buy an 8-GPU server: one deterministic decision, traced to
    dated sources and cited rules.
    """


@main.command()
@click.argument("workload_file", metavar="FILE|-")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
    help="Decision memo in Markdown, or the full result as JSON.",
)
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
@as_of_option
@policy_option
@lang_option
@currency_option
@click.option(
    "--overrides", metavar="FILE", help="Your own prices: negotiated rates, server, electricity, rate."
)
@click.option("--charts", "charts_dir", metavar="DIR", help="Also write the charts as PNG files to DIR.")
@handle_errors
def recommend(
    workload_file: str,
    output_format: str,
    output: str | None,
    as_of: str | None,
    policy_dir: str | None,
    lang: str,
    currency: str,
    overrides: str | None,
    charts_dir: str | None,
) -> None:
    """Recommend how to run the workload in FILE (YAML or JSON; - reads standard input)."""
    from .engine.apps.recommend import recommend as run_recommend
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.domain.workload import load_workload
    from .engine.i18n.environment import render
    from .engine.i18n.formats import Format

    evaluated_on = parse_date(as_of)
    knowledge, replaced = load_knowledge(), ()
    if overrides is not None:
        from .engine.apps.overrides import apply_overrides, read_overrides

        knowledge, replaced = apply_overrides(knowledge, read_overrides(overrides), overrides, evaluated_on)
    fmt = Format(lang=lang, currency=currency, usd_per_eur=knowledge.eur_to_usd().rate)  # type: ignore[arg-type]
    workload = load_workload(workload_file)
    result = run_recommend(
        workload, evaluated_on, knowledge=knowledge, policy_dir=policy_path(policy_dir), fmt=fmt
    )
    if output_format == "json":
        emit(to_json(result), output)
        return
    chart_files = {}
    if charts_dir is not None:
        from .engine.present.chart_images import write_charts

        chart_files = write_charts(
            result, Path(charts_dir), fmt, relative_to=Path(output).parent if output else None
        )
    text = render(
        "memo.md.j2", fmt, r=result, version=__version__, chart_files=chart_files, overridden=replaced
    )
    show_markdown(text, output)


def show_markdown(text: str, output: str | None) -> None:
    """Markdown to a file or a pipe as is; to a terminal, rendered (headings, tables, emphasis)."""
    if output is None and sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
        return
    emit(text, output)


@main.command()
@click.option("--model", "model_id", metavar="ID", help="Catalog model ID (see knowledge/models.yaml).")
@click.option("--params-b", type=FiniteFloat(min=0, min_open=True), help="Total parameters, billions.")
@click.option(
    "--active-params-b",
    type=FiniteFloat(min=0, min_open=True),
    help="Active parameters per token (mixture of experts), billions.",
)
@click.option(
    "--precision",
    required=True,
    type=click.Choice(["fp32", "bf16", "fp16", "fp8", "int8", "int4"]),
    help="Weight precision.",
)
@click.option(
    "--context-tokens",
    type=click.IntRange(min=1),
    metavar="N",
    help="Serving context window the KV reserve must hold (default 8,192).",
)
@click.option(
    "--requests-per-day",
    type=click.IntRange(min=1),
    metavar="N",
    help="With a load: replicas, GPUs and utilization per GPU for its peak.",
)
@click.option(
    "--input-tokens", type=click.IntRange(min=1), metavar="N", help="Average prompt tokens (default 300)."
)
@click.option(
    "--output-tokens", type=click.IntRange(min=1), metavar="N", help="Average answer tokens (default 150)."
)
@click.option("--load-pattern", type=click.Choice(["steady", "variable", "batch"]), help="Default steady.")
@click.option("--schedule", type=click.Choice(["always", "workdays", "office_hours"]), help="Default always.")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@handle_errors
def size(
    model_id: str | None,
    params_b: float | None,
    active_params_b: float | None,
    precision: str,
    context_tokens: int | None,
    requests_per_day: int | None,
    input_tokens: int | None,
    output_tokens: int | None,
    load_pattern: str | None,
    schedule: str | None,
    output_format: str,
) -> None:
    """Card counts per GPU for a model: weights fit, and the usual count with KV-cache reserve; with
    --requests-per-day, the replicas each GPU needs for the peak."""
    from .engine.apps.size import LoadInput
    from .engine.apps.size import size as run_size
    from .engine.common.errors import InputError, unknown_value_message
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.i18n.environment import render

    if (model_id is None) == (params_b is None):
        raise InputError("give exactly one of --model ID or --params-b N")
    if model_id is not None:
        model_ids = [m.id for m in load_knowledge().models.models]
        if model_id not in model_ids:
            raise InputError(unknown_value_message("--model", model_id, model_ids))
    if params_b is not None and active_params_b is not None and active_params_b > params_b:
        raise InputError(f"--active-params-b: {active_params_b} exceeds --params-b {params_b}")
    if active_params_b is not None and model_id is not None:
        raise InputError(
            "--active-params-b goes with --params-b; a catalog model knows its active parameters"
        )
    load_options = {
        "--input-tokens": input_tokens,
        "--output-tokens": output_tokens,
        "--load-pattern": load_pattern,
        "--schedule": schedule,
    }
    load_input = None
    if requests_per_day is not None:
        defaults = load_knowledge().workload_default_values()
        load_input = LoadInput(
            requests_per_day=requests_per_day,
            avg_input_tokens=input_tokens or int(defaults["avg_input_tokens"]),
            avg_output_tokens=output_tokens or int(defaults["avg_output_tokens"]),
            load_pattern=load_pattern or str(defaults["load_pattern"]),
            schedule=schedule or str(defaults["schedule"]),
        )
    elif any(value is not None for value in load_options.values()):
        given = ", ".join(name for name, value in load_options.items() if value is not None)
        raise InputError(f"{given}: describe a load, give --requests-per-day too")
    result = run_size(
        precision=precision,
        model_id=model_id,
        params_b=params_b,
        active_params_b=active_params_b,
        context_tokens=context_tokens,
        load_input=load_input,
    )
    emit(to_json(result) if output_format == "json" else render("size.txt.j2", r=result), None)


@main.command()
@click.option(
    "--server-price",
    type=FiniteFloat(min=0, min_open=True),
    metavar="USD",
    help="Price of the 8-GPU server (default: $285,000, midpoint of $250,000-$320,000).",
)
@click.option("--gpus-per-server", type=click.IntRange(min=1), metavar="N")
@click.option("--months", type=click.IntRange(min=1), metavar="N", help="Write-off period (default 36).")
@click.option(
    "--gpu-watts",
    type=FiniteFloat(min=0, min_open=True),
    metavar="W",
    help="Power per GPU (default 700 W, H100 SXM TDP; a B200 runs at about 1,000 W).",
)
@click.option(
    "--power-overhead",
    type=FiniteFloat(min=1),
    metavar="F",
    help="Factor for CPU, NICs and power-supply losses (default 1.3).",
)
@click.option("--usd-per-kwh", type=FiniteFloat(min=0), metavar="X", help="Electricity price (default 0.12).")
@click.option("--rack-usd-per-month", type=FiniteFloat(min=0), metavar="X", help="Rack cost (default 1,000).")
@click.option(
    "--residual",
    type=FiniteFloat(min=0, max=1, max_open=True),
    metavar="F",
    help="Resale value after the write-off period as a share of the price (default 0).",
)
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@handle_errors
def tco(output_format: str, **overrides: float | None) -> None:
    """Own 8-GPU server cost per GPU-hour (capital, power, rack) and break-even utilization per offer."""
    from .engine.apps.tco import tco as run_tco
    from .engine.i18n.environment import render

    names = {"server_price": "server_price_usd", "power_overhead": "power_overhead"}
    result = run_tco({names.get(key, key): value for key, value in overrides.items()})
    emit(to_json(result) if output_format == "json" else render("tco.txt.j2", r=result), None)


@main.group(invoke_without_command=True)
@click.option("--topic", help="Only rules of this topic.")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@policy_option
@click.pass_context
@handle_errors
def rules(ctx: click.Context, topic: str | None, output_format: str, policy_dir: str | None) -> None:
    """List the rule catalog: ID, topic, severity and title of every rule."""
    ctx.obj = {"policy_dir": policy_path(policy_dir)}
    if ctx.invoked_subcommand is not None:
        return
    from .engine.apps.rule_docs import rule_doc
    from .engine.common.errors import InputError, unknown_value_message
    from .engine.domain.choices import TOPICS
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.i18n.environment import render
    from .engine.pipeline.engines import rulebook_for

    if topic is not None and topic not in TOPICS:
        raise InputError(unknown_value_message("--topic", topic, TOPICS))
    knowledge = load_knowledge()
    rulebook = rulebook_for(policy_path(policy_dir))
    docs = [rule_doc(rule, knowledge, rulebook) for rule in rulebook.rules if topic in (None, rule.topic)]
    if output_format == "json":
        emit(json.dumps([d.model_dump(mode="json") for d in docs], indent=2, ensure_ascii=False) + "\n", None)
    else:
        emit(render("rules_list.txt.j2", rules=docs), None)


@rules.command("show")
@click.argument("rule_id", metavar="ID")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@policy_option
@click.pass_context
@handle_errors
def rules_show(ctx: click.Context, rule_id: str, output_format: str, policy_dir: str | None) -> None:
    """Explain one rule: conditions, thresholds with their sources, conclusion, rationale, source."""
    from .engine.apps.rule_docs import rule_doc
    from .engine.common.errors import InputError, unknown_value_message
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.i18n.environment import render
    from .engine.pipeline.engines import rulebook_for

    # Either place works: `rules --policy DIR show ID` or `rules show ID --policy DIR`.
    rulebook = rulebook_for(policy_path(policy_dir) or (ctx.obj or {}).get("policy_dir"))
    if rule_id.upper() not in rulebook.ids:
        raise InputError(unknown_value_message("ID", rule_id, rulebook.ids))
    doc = rule_doc(rulebook.rule(rule_id.upper()), load_knowledge(), rulebook)
    emit(to_json(doc) if output_format == "json" else render("rule_show.txt.j2", r=doc), None)


@rules.command("coverage")
@handle_errors
def rules_coverage() -> None:
    """Print the coverage table: each heuristic and figure of the source documents and where it lives."""
    from .engine.present.docs import render_coverage

    emit(render_coverage(), None)


@main.command()
@handle_errors
def calibration() -> None:
    """Print the throughput estimate against every recorded published measurement, with the error."""
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.present.docs import render_calibration

    emit(render_calibration(load_knowledge()), None)


@main.command()
@click.argument("proposal_file", metavar="PROPOSAL|-")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "markdown", "sarif", "junit"]),
    default="text",
    show_default=True,
    help="markdown for a pull-request comment, sarif for code scanning, junit for CI test reports.",
)
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
@click.option(
    "--fail-on",
    type=click.Choice(["fail", "warn"]),
    default="fail",
    show_default=True,
    help="Exit 1 on failed checks only, or on warnings too.",
)
@click.option("--soft-fail", is_flag=True, help="Report, but exit 0 whatever the checks say (for rollout).")
@policy_option
@as_of_option
@handle_errors
def check(
    proposal_file: str,
    output_format: str,
    output: str | None,
    fail_on: str,
    soft_fail: bool,
    policy_dir: str | None,
    as_of: str | None,
) -> None:
    """Check a proposal (a workload plus what someone intends to do) against every applicable rule.

    Exit codes: 0 passed, 1 failed (--fail-on warn: warnings too), 2 bad input.
    """
    from .engine.apps.check.run import check_file
    from .engine.i18n.environment import render
    from .engine.pipeline.engines import rulebook_for
    from .engine.present.check_formats import junit, sarif

    results = check_file(proposal_file, parse_date(as_of), policy_dir=policy_path(policy_dir))
    if output_format == "json":
        text = json.dumps([r.model_dump(mode="json") for r in results], indent=2, ensure_ascii=False) + "\n"
    elif output_format == "sarif":
        text = sarif(results, rulebook_for(policy_path(policy_dir)))
    elif output_format == "junit":
        text = junit(results)
    else:
        text = render("check.md.j2" if output_format == "markdown" else "check.txt.j2", results=results)
    emit(text, output)
    failing = {"fail"} if fail_on == "fail" else {"fail", "warn"}
    if not soft_fail and any(r.status in failing for r in results):
        sys.exit(EXIT_CHECK_FAILED)


def policy_path(policy_dir: str | None) -> str | None:
    """An absolute path, so that the same directory given two ways shares one engine."""
    return None if policy_dir is None else str(Path(policy_dir).resolve())


@main.command()
@click.argument(
    "kind", type=click.Choice(["workload", "proposal", "result", "check-result", "decision-summary"])
)
def schema(kind: str) -> None:
    """Print the JSON Schema of an input (workload, proposal) or an output (result, check-result, and
    decision-summary: what the library's decide() returns)."""
    from .engine.domain.proposal import CheckResult, ProposalDocument
    from .engine.domain.results import DecisionSummary, Recommendation
    from .engine.domain.workload import Workload

    models = {
        "workload": Workload,
        "proposal": ProposalDocument,
        "result": Recommendation,
        "check-result": CheckResult,
        "decision-summary": DecisionSummary,
    }
    emit(json.dumps(models[kind].model_json_schema(), indent=2, ensure_ascii=False) + "\n", None)


@main.command()
@click.argument("kind", type=click.Choice(["gpus", "offers", "models", "apis"]))
@click.option("--gpu", metavar="ID", help="Only this GPU (gpus, offers).")
@click.option("--provider", metavar="ID", help="Only this provider (offers).")
@click.option("--eu/--non-eu", "eu", default=None, help="Only offers with (or without) an EU region.")
@click.option("--as-of", "as_of", metavar="YYYY-MM-DD", help="Date against which prices count as stale.")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@handle_errors
def catalog(
    kind: str, gpu: str | None, provider: str | None, eu: bool | None, as_of: str | None, output_format: str
) -> None:
    """List the knowledge base: GPUs, offers, models or API prices, with sources and dates."""
    from .engine.apps.catalog import catalog_rows
    from .engine.domain.knowledge.base import cite
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.i18n.environment import render

    knowledge = load_knowledge()
    today = parse_date(as_of)
    rows = catalog_rows(knowledge, kind, today, gpu=gpu, provider=provider, eu=eu)
    if output_format == "json":
        emit(json.dumps(rows, indent=2, ensure_ascii=False, default=str) + "\n", None)
        return
    stale_days = int(knowledge.threshold("stale_price_days").value)
    premium = knowledge.pricing_assumptions.eu_region_premium
    text = render(
        "catalog.txt.j2",
        kind=kind,
        rows=rows,
        today=today,
        stale_days=stale_days,
        eu=eu,
        eu_premium=premium.value,
        eu_premium_source=cite(premium.source, knowledge),
    )
    emit(text, None)


@main.command()
@click.option(
    "--from", "from_file", metavar="FILE", help="Pre-fill the answers from an existing workload file."
)
@click.option("--save", "save_file", metavar="FILE", help="Where to save the answers (default: NAME.yaml).")
@click.option("--memo", "memo_file", metavar="FILE", help="Where to save the memo (default: NAME-memo.md).")
@lang_option
@currency_option
@as_of_option
@handle_errors
def ask(
    from_file: str | None,
    save_file: str | None,
    memo_file: str | None,
    lang: str,
    currency: str,
    as_of: str | None,
) -> None:
    """Answer questions about the workload; get the workload file and the decision memo."""
    import yaml

    from .engine.apps.questionnaire import (
        AnswerError,
        applies,
        choices_of,
        default_for,
        load_questions,
        parse_answer,
        prefill_from,
        workload_document,
    )
    from .engine.apps.recommend import recommend as run_recommend
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.domain.workload import load_workload, validate_workload
    from .engine.i18n.environment import render
    from .engine.i18n.formats import Format

    knowledge = load_knowledge()
    fmt = Format(lang=lang, currency=currency, usd_per_eur=knowledge.eur_to_usd().rate)  # type: ignore[arg-type]
    prefill = prefill_from(load_workload(from_file).model_dump(exclude_none=True)) if from_file else {}
    evaluated_on = parse_date(as_of)
    click.echo(render("ask_intro.txt.j2", fmt), nl=False)
    answers: dict[str, object] = {}
    try:
        asked = 0
        for question in load_questions():
            if not applies(question, answers):
                continue
            asked += 1
            choices = choices_of(question, knowledge)
            click.echo(render("question.txt.j2", fmt, q=question, number=asked, choices=choices), nl=False)
            default = default_for(question, answers, prefill)
            shown = (
                ""
                if default is None
                else (yes_no_text(default, fmt) if question.kind == "yes_no" else default)
            )
            while True:
                # An empty default lets Enter through to the check, which says what is missing.
                text = click.prompt("  ", default=shown, show_default=shown != "", prompt_suffix="> ")
                try:
                    answers[question.field] = parse_answer(question, str(text), knowledge, fmt, answers)
                    break
                except AnswerError as error:
                    click.echo(f"   {error}")
    except (click.Abort, KeyboardInterrupt):
        # click.prompt turns Ctrl-C and end of input into Abort; Ctrl-C between prompts (while a question
        # is written) arrives as it is.
        click.echo(render("ask_stopped.txt.j2", fmt), nl=False)
        sys.exit(EXIT_INTERRUPTED)
    document = workload_document(answers)
    workload = validate_workload(document, "answers")
    name = slug(workload.name)
    save_file = save_file or f"{name}.yaml"
    memo_file = memo_file or f"{name}-memo.md"
    emit(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), save_file)
    from .engine.common.errors import InputError

    try:
        result = run_recommend(workload, evaluated_on, knowledge=knowledge, fmt=fmt)
    except InputError:
        # Each answer was valid alone; a combination (a prompt longer than the context) fails only now.
        click.echo(render("ask_unresolved.txt.j2", fmt, workload_file=save_file), nl=False)
        raise
    memo = render("memo.md.j2", fmt, r=result, version=__version__)
    emit(memo, memo_file)
    show_markdown(memo, None)
    click.echo(render("ask_done.txt.j2", fmt, workload_file=save_file, memo_file=memo_file), nl=False)


def yes_no_text(value: object, fmt: object) -> str:
    from .engine.i18n.environment import translate

    return translate(fmt.lang, "yes" if value else "no")  # type: ignore[attr-defined]


def slug(name: str) -> str:
    """A file-name-safe form of the workload name."""
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "workload"


# --- serve (HTTP service) ---


@main.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on; 0.0.0.0 serves every interface.",
)
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8000, show_default=True)
@handle_errors
def serve(host: str, port: int) -> None:
    """Run the HTTP service: POST /recommend, GET /rules, GET /rules/{id}, GET /healthz, /openapi.json."""
    import uvicorn

    from .engine.pipeline.engines import rules_engine

    # Load the knowledge base and rule catalog first: a broken one exits with code 3 and its message,
    # like every other command, instead of a server start-up traceback.
    rules_engine()
    uvicorn.run("gpu_advisor.service:create_app", factory=True, host=host, port=port)


# --- batch and sweep ---


@main.command()
@click.argument("input_file", metavar="INPUT|-")
@click.option(
    "--input-format",
    type=click.Choice(["csv", "jsonl", "yaml"]),
    help="Format of INPUT; required for - (default: from the extension .csv, .jsonl, .yaml or .yml).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["jsonl", "csv"]),
    default="jsonl",
    show_default=True,
    help="JSON Lines: the full result per workload with its line and name; CSV: one flat row each.",
)
@click.option("-o", "--output", metavar="FILE", help="Write the results to FILE instead of standard output.")
@click.option(
    "--summary",
    "summary_file",
    metavar="FILE",
    help="Write the summary as JSON to FILE instead of as text on standard error.",
)
@click.option(
    "--jobs", type=click.IntRange(min=1), metavar="N", help="Worker processes (default: the number of CPUs)."
)
@click.option(
    "--strict", is_flag=True, help="Stop at the first bad row with exit code 2 instead of skipping it."
)
@as_of_option
@handle_errors
def batch(
    input_file: str,
    input_format: str | None,
    output_format: str,
    output: str | None,
    summary_file: str | None,
    jobs: int | None,
    strict: bool,
    as_of: str | None,
) -> None:
    """Recommend for every workload in INPUT (CSV, JSON Lines or a YAML list; - reads standard input).

    One result per workload, in input order; bad rows are reported with their line number and skipped.
    A summary (counts per deployment, total monthly cost, workloads needing attention) goes to standard
    error. Ctrl-C stops with exit code 130 and keeps every result already written."""
    from .engine.apps.batch.run import batch_file

    evaluated_on = parse_date(as_of)
    try:
        batch_file(
            input_file,
            input_format,
            output_format,  # type: ignore[arg-type]
            output,
            summary_file,
            jobs,
            strict,
            evaluated_on,
        )
    except KeyboardInterrupt:
        click.echo("interrupted: the output keeps every result written before Ctrl-C", err=True)
        sys.exit(130)


@main.command()
@click.argument("workload_file", metavar="FILE|-")
@click.option(
    "--vary",
    "specs",
    multiple=True,
    required=True,
    metavar="NAME=START:STOP:STEP",
    help="A workload field (utilization, requests_per_day, ...), server_price_usd, usd_per_kwh or "
    "price:PROVIDER/OFFER/GPU; give one or two.",
)
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
@as_of_option
@handle_errors
def sweep(
    workload_file: str, specs: tuple[str, ...], output_format: str, output: str | None, as_of: str | None
) -> None:
    """Vary one or two inputs of the workload in FILE over a range and show where the decision changes
    (deployment, provider, offer, GPU, pricing): the break-even points, a table and a chart."""
    from .engine.apps.sweep.run import sweep as run_sweep
    from .engine.domain.knowledge.loading import load_knowledge
    from .engine.domain.workload import load_workload
    from .engine.present.sweep_text import render_sweep

    result = run_sweep(load_workload(workload_file), specs, parse_date(as_of), load_knowledge())
    emit(to_json(result) if output_format == "json" else render_sweep(result), output)


if __name__ == "__main__":  # pragma: no cover
    main()
