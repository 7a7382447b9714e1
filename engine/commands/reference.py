"""The reference commands: ``rules`` (the catalog, one rule, coverage), ``calibration``, ``schema`` and
``catalog``."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import TYPE_CHECKING

import click

from gpu_advisor.engine.commands.common import (
    currency_option,
    emit,
    handle_errors,
    lang_option,
    parse_date,
    policy_option,
    policy_path,
    to_json,
)
from gpu_advisor.engine.common.catalog_parts import KINDS, selects_in
from gpu_advisor.engine.common.empty_paths import A_DIRECTORY, refuse_empty_paths

if TYPE_CHECKING:
    from gpu_advisor.engine.common.wording import Words
    from gpu_advisor.engine.domain.knowledge.base import Knowledge


@click.group(invoke_without_command=True)
@click.option("--topic", help="Only rules of this topic.")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@policy_option
@click.pass_context
@handle_errors
def rules(ctx: click.Context, topic: str | None, output_format: str, policy_dir: str | None) -> None:
    """List the rule catalog: ID, topic, severity and title of every rule."""
    refuse_empty_paths(("--policy", policy_dir, A_DIRECTORY))
    ctx.obj = {"policy_dir": policy_path(policy_dir), "topic": topic, "format": output_format}
    if ctx.invoked_subcommand is not None:
        return
    list_rules(topic, output_format, policy_dir)


@rules.command("list")
@click.option("--topic", help="Only rules of this topic.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), help="[default: text]")
@policy_option
@click.pass_context
@handle_errors
def rules_list(
    ctx: click.Context, topic: str | None, output_format: str | None, policy_dir: str | None
) -> None:
    """The same list as `gpu-advisor rules`: ID, topic, severity and title of every rule."""
    refuse_empty_paths(("--policy", policy_dir, A_DIRECTORY))
    # Options given before `list` (`rules --topic T list`) count as given after it.
    group = ctx.obj or {}
    list_rules(
        topic or group.get("topic"),
        output_format or group.get("format") or "text",
        policy_dir or group.get("policy_dir"),
    )


def list_rules(topic: str | None, output_format: str, policy_dir: str | None) -> None:
    from gpu_advisor.engine.apps.rule_docs import rule_doc
    from gpu_advisor.engine.common.errors import InputError, unknown_value
    from gpu_advisor.engine.domain.choices import TOPICS
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.pipeline.engines import rulebook_for

    if topic is not None and topic not in TOPICS:
        raise InputError(unknown_value("--topic", topic, TOPICS))
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
    from gpu_advisor.engine.apps.rule_docs import rule_doc
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.pipeline.engines import rulebook_for

    refuse_empty_paths(("--policy", policy_dir, A_DIRECTORY))
    # Either place works: `rules --policy DIR show ID` or `rules show ID --policy DIR`.
    rulebook = rulebook_for(policy_path(policy_dir) or (ctx.obj or {}).get("policy_dir"))
    if rule_id.upper() not in rulebook.ids:
        raise InputError(unknown_rule(rule_id, rulebook.ids))
    doc = rule_doc(rulebook.rule(rule_id.upper()), load_knowledge(), rulebook)
    emit(to_json(doc) if output_format == "json" else render("rule_show.txt.j2", r=doc), None)


def unknown_rule(rule_id: str, ids: Collection[str]) -> Words:
    """An unknown rule ID: the IDs of its family where it names one (with the one meant where one is
    close), else the families, rather than every ID of the catalog."""
    from gpu_advisor.engine.common.errors import unknown_value
    from gpu_advisor.engine.common.wording import Words
    from gpu_advisor.engine.rulebook.schema import family_of

    families = sorted({family_of(i) for i in ids})
    family = family_of(rule_id.upper())
    if family in families:
        return unknown_value("ID", rule_id, [i for i in ids if family_of(i) == family])
    return Words(
        "ID: unknown rule %(value)s; the rule families are %(families)s (gpu-advisor rules lists every rule; "
        "an organization's rules are known with --policy DIR)",
        value=repr(rule_id),
        families=", ".join(families),
    )


@rules.command("coverage")
@handle_errors
def rules_coverage() -> None:
    """Print the coverage table: each heuristic and figure of the source documents and where it lives."""
    from gpu_advisor.engine.present.docs import render_coverage

    emit(render_coverage(), None)


@click.command()
@handle_errors
def calibration() -> None:
    """Print the throughput estimate against every recorded published measurement, with the error."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.present.docs import render_calibration

    emit(render_calibration(load_knowledge()), None)


@click.command()
@click.argument(
    "kind",
    type=click.Choice(
        ["workload", "proposal", "proposal-file", "result", "check-result", "decision-summary"]
    ),
)
def schema(kind: str) -> None:
    """Print the JSON Schema of an input (workload, proposal: one proposal with its workload,
    proposal-file: every layout a check file may take) or an output (result, check-result, and
    decision-summary: what the library's decide() returns)."""
    from pydantic import BaseModel, TypeAdapter

    from gpu_advisor.engine.domain.proposal import CheckResult, ProposalDocument, ProposalFile
    from gpu_advisor.engine.domain.results import DecisionSummary, Recommendation
    from gpu_advisor.engine.domain.workload import Workload

    models: dict[str, type[BaseModel]] = {
        "workload": Workload,
        "proposal": ProposalDocument,
        "result": Recommendation,
        "check-result": CheckResult,
        "decision-summary": DecisionSummary,
    }
    if kind == "proposal-file":
        found = {"title": "ProposalFile", **TypeAdapter(ProposalFile).json_schema()}
    else:
        found = models[kind].model_json_schema()
    if kind == "workload":
        from gpu_advisor.engine.domain.workload_ranges import schema_with_ranges

        found = schema_with_ranges(found)
    emit(json.dumps(found, indent=2, ensure_ascii=False) + "\n", None)


@click.command()
@click.argument("kind", type=click.Choice(KINDS))
@click.option("--gpu", metavar="ID", help=f"Only this GPU ({selects_in('--gpu')}).")
@click.option("--provider", metavar="ID", help=f"Only this provider ({selects_in('--provider')}).")
@click.option(
    "--eu/--non-eu",
    "eu_given",
    multiple=True,  # each given, to refuse both: a single flag pair keeps the last
    help=f"Only entries with (or without) an EU region ({selects_in('--eu/--non-eu')}).",
)
@click.option(
    "--country",
    metavar="CC",
    help="Only entries with a region in this country (ISO code, e.g. DE; "
    f"{selects_in('--country')}); a region of variable location is in none.",
)
@click.option("--as-of", "as_of", metavar="YYYY-MM-DD", help="Date against which prices count as stale.")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@lang_option
@currency_option
@handle_errors
def catalog(
    kind: str,
    gpu: str | None,
    provider: str | None,
    eu_given: tuple[bool, ...],
    country: str | None,
    as_of: str | None,
    output_format: str,
    lang: str,
    currency: str,
) -> None:
    """List the knowledge base: GPUs, offers, models, API prices or serverless GPU products, with sources
    and dates."""
    if len(set(eu_given)) > 1:
        from gpu_advisor.engine.common.errors import InputError
        from gpu_advisor.engine.common.wording import Words

        # Only EU and only non-EU list nothing together; the last of the two used to win unsaid.
        problem = Words("give %(first)s or %(second)s, not both", first="--eu", second="--non-eu")
        raise InputError(problem, field="--eu/--non-eu")
    eu = eu_given[-1] if eu_given else None
    from gpu_advisor.engine.apps.catalog import catalog_rows
    from gpu_advisor.engine.domain.knowledge.base import cite
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.present.terminal import text_layout
    from gpu_advisor.engine.present.text import render_text

    knowledge = load_knowledge()
    today = parse_date(as_of)
    rows = catalog_rows(knowledge, kind, today, gpu=gpu, provider=provider, eu=eu, country=country)
    if output_format == "json":
        emit(json.dumps(rows, indent=2, ensure_ascii=False, default=str) + "\n", None)
        return
    stale_days = int(knowledge.threshold("stale_price_days").value)
    premium = knowledge.pricing_assumptions.eu_region_premium
    width, wrap = text_layout()
    text = render_text(
        "catalog.txt.j2",
        knowledge.display_format(lang, currency),
        width=width,
        wrap=wrap,
        kind=kind,
        rows=rows,
        filters=given_filters(gpu, provider, eu, country),
        today=today,
        stale_days=stale_days,
        eu=eu,
        country=country,
        eu_premium=premium.value,
        eu_premium_source=cite(premium.source, knowledge),
        usd_per_eur=knowledge.eur_to_usd().rate,
        chf_per_eur=knowledge.exchange_rate("EUR", "CHF").rate,
        batch_hours=knowledge.threshold("batch_api_completion_hours").value,
        weights_rate=knowledge.serverless.weights_load_gb_per_second,
        weights_source=weights_source(knowledge),
        weights_as_of=knowledge.serverless.weights_load_as_of,
    )
    emit(text, None)


def given_filters(gpu: str | None, provider: str | None, eu: bool | None, country: str | None) -> str:
    """The filters a catalog listing applied, as options (``--eu --country US``), to name them where
    nothing matches; empty where none was given."""
    given = [("--gpu", gpu), ("--provider", provider), ("--country", country and country.upper())]
    options = [f"{option} {value}" for option, value in given[:2] if value is not None]
    if eu is not None:
        options.append("--eu" if eu else "--non-eu")
    return " ".join(options + [f"{option} {value}" for option, value in given[2:] if value is not None])


def weights_source(knowledge: Knowledge) -> str:
    """Where the serverless products' weights-load rate comes from: its address, or the document cited."""
    from gpu_advisor.engine.domain.knowledge.base import cite

    source = knowledge.serverless.weights_load_source
    return f"<{source.url}>" if source.url else cite(source, knowledge)
