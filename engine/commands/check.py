"""``gpu-advisor check``: proposals judged by every applicable rule, in the format a pipeline reads."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from gpu_advisor.engine.commands.common import (
    EXIT_CHECK_FAILED,
    as_of_option,
    currency_option,
    emit,
    force_option,
    handle_errors,
    lang_option,
    output_target,
    parse_date,
    policy_option,
    policy_path,
    scenario_options,
)
from gpu_advisor.engine.common.empty_paths import (
    A_DIRECTORY,
    A_FILE,
    A_FILE_DIRECTORY_OR_STDIN,
    A_FILE_OR_DIRECTORY,
    refuse_empty_paths,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gpu_advisor.engine.apps.check.compare import Diff
    from gpu_advisor.engine.apps.check.gating import Gate
    from gpu_advisor.engine.domain.proposal import CheckResult, ProposalDocument
    from gpu_advisor.engine.i18n.formats import Format
    from gpu_advisor.engine.rulebook.schema import Rulebook


@click.command()
@click.argument("proposal_file", metavar="PROPOSAL|DIR|-")
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
    "--compare-to",
    metavar="BASE",
    help="The same proposal file or directory on the base branch: report the monthly cost difference "
    "and the new and fixed findings.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["fail", "warn"]),
    default="fail",
    show_default=True,
    help="Exit 1 on failed checks only, or on warnings too.",
)
@click.option(
    "--hard-fail-on",
    metavar="RULE|SEVERITY",
    multiple=True,
    help="Exit 1 only on these rules, or on results of this severity or above (repeatable, or "
    "comma-separated); a warning of such a rule fails too.",
)
@click.option(
    "--soft-fail-on",
    metavar="RULE|SEVERITY",
    multiple=True,
    help="Never exit 1 on these rules, or on results of this severity or below.",
)
@click.option(
    "--unwaivable",
    metavar="RULE|SEVERITY",
    multiple=True,
    help="Refuse the proposal's waivers of these rules, or of this severity and above: their results "
    "count, and fail the run by the rules above.",
)
@click.option(
    "--pass-unknown",
    is_flag=True,
    help="A check that cannot tell (unknown) never fails the run; by default a critical one does.",
)
@click.option(
    "--skip-rule",
    metavar="RULE|SEVERITY",
    multiple=True,
    help="Leave these rules (or this severity and below) out of the results.",
)
@click.option("--soft-fail", is_flag=True, help="Report, but exit 0 whatever the checks say (for rollout).")
@click.option(
    "--show-all",
    is_flag=True,
    help="text and markdown: every proposal and every check, not only failures and changes.",
)
@click.option("--overrides", metavar="FILE", help="Your own prices, or an imported catalog (catalog import).")
@scenario_options(
    "Also draw N scenarios of each workload's uncertain figures; checks read how often the proposal "
    "is their decision (ROB004, organization rules)."
)
@policy_option
@as_of_option
@lang_option
@currency_option
@force_option
@handle_errors
def check(
    proposal_file: str,
    output_format: str,
    output: str | None,
    compare_to: str | None,
    fail_on: str,
    hard_fail_on: tuple[str, ...],
    soft_fail_on: tuple[str, ...],
    unwaivable: tuple[str, ...],
    pass_unknown: bool,
    skip_rule: tuple[str, ...],
    soft_fail: bool,
    show_all: bool,
    policy_dir: str | None,
    as_of: str | None,
    overrides: str | None = None,
    force: bool = False,
    lang: str = "en",
    currency: str = "USD",
    scenarios: int | None = None,
    seed: int = 1,
) -> None:
    """Check proposals (a workload plus what someone intends to do) against every applicable rule: one
    file, or every *.yaml, *.yml and *.json file under a directory.

    Exit codes: 0 passed, 1 failed (--fail-on warn: warnings too; a critical check that cannot tell,
    unknown, fails too unless --pass-unknown; see --hard-fail-on, --soft-fail-on and --unwaivable), 2 bad
    input, 5 the system refused to write the output.
    """
    from gpu_advisor.engine.apps.check.compare import base_entries, compare
    from gpu_advisor.engine.apps.check.files import proposals_under
    from gpu_advisor.engine.apps.check.gating import (
        refuse_skip_of_all_or_gated,
        refuse_unwaivable_conflicts,
        selector,
        skipped,
        unwaived,
    )
    from gpu_advisor.engine.apps.check.run import check_document
    from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
    from gpu_advisor.engine.common.errors import InputError
    from gpu_advisor.engine.pipeline.engines import rulebook_for

    refuse_empty_paths(
        ("PROPOSAL|DIR", proposal_file, A_FILE_DIRECTORY_OR_STDIN),
        (
            "--compare-to",
            compare_to,
            A_FILE_OR_DIRECTORY if proposal_file == "-" else A_FILE_DIRECTORY_OR_STDIN,
        ),
        ("--overrides", overrides, A_FILE),
        ("--policy", policy_dir, A_DIRECTORY),
    )
    evaluated_on = parse_date(as_of)
    rulebook = rulebook_for(policy_path(policy_dir))
    gate = _gate(rulebook.ids, fail_on, hard_fail_on, soft_fail_on, soft_fail, pass_unknown)
    skip = selector(skip_rule, "--skip-rule", rulebook.ids, hard=False)
    refuse_skip_of_all_or_gated(skip, gate.hard)
    refused = selector(unwaivable, "--unwaivable", rulebook.ids, hard=True)
    severities = {rule.id: rule.severity for rule in rulebook.rules}
    refuse_unwaivable_conflicts(refused, gate.soft, skip, severities)
    target = output_target(
        output,
        inputs=(proposal_file, overrides, compare_to),
        force=force,
        input_dirs=(proposal_file, compare_to, policy_dir),
    )
    knowledge = knowledge_with_overrides(overrides, evaluated_on)
    fmt = knowledge.display_format(lang, currency)

    def checked(document: ProposalDocument, file: str, index: int, line: int) -> CheckResult:
        result = check_document(
            document,
            file,
            index,
            evaluated_on,
            policy_dir=policy_path(policy_dir),
            knowledge=knowledge,
            line=line,
            fmt=fmt,
            scenarios=scenarios,
            seed=seed,
        )
        return skipped(unwaived(result, refused), skip)

    if compare_to == "-" and proposal_file == "-":
        from gpu_advisor.engine.common.wording import Words, at

        problem = Words("the change and its base cannot both come from standard input")
        raise InputError(at("--compare-to -", problem), field="--compare-to")
    results = [
        checked(document, file, index, line) for file, index, line, document in proposals_under(proposal_file)
    ]
    diff = None
    if compare_to is not None:
        try:
            base = base_entries(compare_to, checked, lang)
        except InputError as error:
            from gpu_advisor.engine.domain.input_errors import prefixed

            raise prefixed(error, "--compare-to", field="--compare-to") from None
        diff = compare(results, proposal_file, base, compare_to)
        results = list(diff.results)
    text = _report(
        results, output_format, rulebook, gate, diff, show_all, compare_to, fmt, to_file=target is not None
    )
    emit(text, target)
    if not soft_fail and gate.failed(results):
        sys.exit(EXIT_CHECK_FAILED)


def _gate(
    ids: Sequence[str],
    fail_on: str,
    hard_fail_on: tuple[str, ...],
    soft_fail_on: tuple[str, ...],
    report_only: bool = False,
    pass_unknown: bool = False,
) -> Gate:
    """The exit gate the options set, refused where they contradict each other."""
    from gpu_advisor.engine.apps.check.gating import Gate, distinct_selectors, fail_on_heeded, selector

    gate = Gate(
        fail_on,
        selector(hard_fail_on, "--hard-fail-on", ids, hard=True),
        selector(soft_fail_on, "--soft-fail-on", ids, hard=False),
        report_only,
        pass_unknown,
    )
    distinct_selectors(gate.hard, gate.soft)
    fail_on_heeded(gate.fail_on, gate.hard)
    return gate


def _report(
    results: list[CheckResult],
    output_format: str,
    rulebook: Rulebook,
    gate: Gate,
    diff: Diff | None,
    show_all: bool,
    compare_to: str | None,
    fmt: Format,
    to_file: bool,
) -> str:
    """The results in ``output_format``; text and markdown show the failures and changes only, unless
    ``show_all``."""
    if output_format == "json":
        return json.dumps([r.model_dump(mode="json") for r in results], indent=2, ensure_ascii=False) + "\n"
    if output_format == "sarif":
        from gpu_advisor.engine.present.sarif import sarif

        return sarif(results, rulebook, gate)
    if output_format == "junit":
        from gpu_advisor.engine.present.check_formats import junit

        return junit(results, gate)
    from gpu_advisor.engine.apps.check.compare import worth_showing

    shown = [r for r in results if show_all or worth_showing(r, gate)]
    context: dict[str, Any] = {
        "results": results,
        "shown": shown,
        "hidden": len(results) - len(shown),
        "diff": diff,
        "gate": gate,
        "show_all": show_all,
        "base": compare_to,
    }
    if output_format == "markdown":
        from gpu_advisor.engine.i18n.environment import render

        return render("check.md.j2", fmt, **context)
    from gpu_advisor.engine.present.terminal import text_layout
    from gpu_advisor.engine.present.text import render_text

    return render_text("check.txt.j2", fmt, *text_layout(to_file=to_file), **context)
