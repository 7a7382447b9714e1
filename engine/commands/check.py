"""``gpu-advisor check``: a proposal judged by every applicable rule, in the format a pipeline reads."""

from __future__ import annotations

import json
import sys

import click

from gpu_advisor.engine.commands.common import (
    EXIT_CHECK_FAILED,
    as_of_option,
    emit,
    force_option,
    handle_errors,
    output_target,
    parse_date,
    policy_option,
    policy_path,
)


@click.command()
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
@click.option("--overrides", metavar="FILE", help="Your own prices, or an imported catalog (catalog import).")
@policy_option
@as_of_option
@force_option
@handle_errors
def check(
    proposal_file: str,
    output_format: str,
    output: str | None,
    fail_on: str,
    soft_fail: bool,
    policy_dir: str | None,
    as_of: str | None,
    overrides: str | None = None,
    force: bool = False,
) -> None:
    """Check a proposal (a workload plus what someone intends to do) against every applicable rule.

    Exit codes: 0 passed, 1 failed (--fail-on warn: warnings too), 2 bad input.
    """
    from gpu_advisor.engine.apps.check.run import check_file
    from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.pipeline.engines import rulebook_for
    from gpu_advisor.engine.present.check_formats import junit, sarif

    evaluated_on = parse_date(as_of)
    target = output_target(output, inputs=(proposal_file, overrides), force=force)
    knowledge = knowledge_with_overrides(overrides, evaluated_on)
    results = check_file(proposal_file, evaluated_on, policy_dir=policy_path(policy_dir), knowledge=knowledge)
    if output_format == "json":
        text = json.dumps([r.model_dump(mode="json") for r in results], indent=2, ensure_ascii=False) + "\n"
    elif output_format == "sarif":
        text = sarif(results, rulebook_for(policy_path(policy_dir)))
    elif output_format == "junit":
        text = junit(results)
    else:
        text = render("check.md.j2" if output_format == "markdown" else "check.txt.j2", results=results)
    emit(text, target)
    failing = {"fail"} if fail_on == "fail" else {"fail", "warn"}
    if not soft_fail and any(r.status in failing for r in results):
        sys.exit(EXIT_CHECK_FAILED)
