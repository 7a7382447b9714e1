"""``gpu-advisor recommend``: the decision memo or the full result of one workload."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import click

from gpu_advisor.engine.commands.common import (
    as_of_option,
    complete_the_files_workload,
    currency_option,
    emit,
    force_option,
    handle_errors,
    lang_option,
    output_target,
    pager_option,
    parse_date,
    policy_option,
    policy_path,
    scenario_options,
    show_markdown,
    to_json,
)
from gpu_advisor.engine.common.empty_paths import A_DIRECTORY, A_FILE, A_FILE_OR_STDIN, refuse_empty_paths

if TYPE_CHECKING:
    import datetime as dt

    from gpu_advisor.engine.common.safe_files import OutputTarget
    from gpu_advisor.engine.common.wording import Words
    from gpu_advisor.engine.domain.knowledge.base import Knowledge
    from gpu_advisor.engine.domain.overrides import Overrides
    from gpu_advisor.engine.domain.results import Recommendation
    from gpu_advisor.engine.domain.workload import WorkloadInput
    from gpu_advisor.engine.domain.workload_ranges import WorkloadRanges
    from gpu_advisor.engine.i18n.formats import Format
    from gpu_advisor.engine.present.terminal import Paging


@click.command()
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
@click.option(
    "--brief",
    is_flag=True,
    help="A one-screen summary: the decision, its cost, the top findings and the chosen GPU's sizing row.",
)
@scenario_options(
    "Also draw N joint scenarios of the uncertain figures and report how often the decision holds."
)
@pager_option
@force_option
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
    brief: bool = False,
    pager: bool | None = None,
    force: bool = False,
    scenarios: int | None = None,
    seed: int = 1,
) -> None:
    """Recommend how to run the workload in FILE (YAML or JSON; - reads standard input)."""
    from gpu_advisor.engine.apps.recommend import recommend as run_recommend
    from gpu_advisor.engine.common.safe_files import removed_if_left_empty
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.domain.workload import load_workload_with_ranges
    from gpu_advisor.engine.present.memo import render_brief, render_memo

    refuse_empty_paths(
        ("FILE", workload_file, A_FILE_OR_STDIN),
        ("--overrides", overrides, A_FILE),
        ("--policy", policy_dir, A_DIRECTORY),
    )
    if brief and output_format == "json":
        from gpu_advisor.engine.common.errors import InputError
        from gpu_advisor.engine.common.wording import Words, at

        # The JSON is the whole result; a summary of it is the Markdown's to give.
        problem = Words("the one-screen summary is Markdown; leave --brief out of --format json")
        raise InputError(at("--brief", problem), field="--brief")
    if brief and charts_dir is not None:
        from gpu_advisor.engine.common.errors import InputError
        from gpu_advisor.engine.common.wording import Words, at

        # The one-screen summary has no chart sections to link the images from.
        problem = Words("the one-screen summary links no charts; leave --charts or --brief out")
        raise InputError(at("--charts", problem), field="--charts")
    if charts_dir is not None and output_format == "json":
        from gpu_advisor.engine.common.errors import InputError
        from gpu_advisor.engine.common.wording import Words, at

        # The JSON carries the charts' series (``charts``); the image files go beside a Markdown memo.
        problem = Words("the chart images go beside the Markdown memo; the JSON holds their series (charts)")
        raise InputError(at("--charts", problem), field="--charts")
    if charts_dir is not None and not charts_dir.strip():
        from gpu_advisor.engine.common.empty_paths import empty_path

        # An empty name would be the current directory, written into unasked (as -o '' is refused).
        raise empty_path("--charts", A_DIRECTORY)
    evaluated_on = parse_date(as_of)
    inputs = (workload_file, overrides)
    target = output_target(output, inputs=inputs, force=force, input_dirs=(policy_dir,))
    # A chart file the memo's own file would replace (or the other way round) is refused before any work.
    beside = (("-o/--output", output),)
    workload, ranges = load_workload_with_ranges(workload_file)
    given = [name for name in ("requests_per_day", "volume_growth") if getattr(ranges, name) is not None]
    if scenarios is None and given:
        # The ranges are the scenarios' draws: a memo of one run prices the workload as given, and says so.
        from gpu_advisor.engine.apps.batch.messages import said

        click.echo(said(lang, "ranges_unread", fields=", ".join(given)), err=True)
    # A chart directory this run creates is removed again where it fails before writing into it.
    with removed_if_left_empty(Path(charts_dir) if charts_dir is not None else None):
        charts = (
            _chart_targets(Path(charts_dir), workload.name, inputs, force, beside, scenarios is not None)
            if charts_dir is not None
            else None
        )
        knowledge, your_figures = load_knowledge(), None
        replaced: tuple[Words | str, ...] = ()
        if overrides is not None:
            # Imported only here: the overrides' models cost a run without them start-up time.
            from gpu_advisor.engine.apps.overrides import apply_overrides, overrides_to_use

            your_figures = overrides_to_use(overrides)
            knowledge, replaced = apply_overrides(knowledge, your_figures, overrides, evaluated_on)
        fmt = knowledge.display_format(lang, currency)
        result: Recommendation
        complete_the_files_workload(workload, knowledge, workload_file)
        if scenarios is not None:
            result = _with_scenarios(
                workload, ranges, evaluated_on, scenarios, seed, knowledge, your_figures, policy_dir, fmt
            )
        else:
            result = run_recommend(
                workload, evaluated_on, knowledge=knowledge, policy_dir=policy_path(policy_dir), fmt=fmt
            )
            if given:
                # The memo and the JSON say which ranges this run priced at a point, as standard error does.
                result = result.model_copy(update={"ranges_not_drawn": ranges})
        if output_format == "json":
            emit(to_json(result), target)
            return
        chart_files = {}
        if charts is not None:
            chart_files = _write_charts(
                result, charts, fmt, relative_to=target.path.parent if target else None
            )
        paging: Paging = "auto" if pager is None else ("always" if pager else "never")
        if brief:
            show_markdown(render_brief(result, fmt, replaced), target, paging)
            return
        show_markdown(render_memo(result, fmt, chart_files, replaced), target, paging)


class _ChartTargets(NamedTuple):
    charts: dict[str, OutputTarget]
    robustness: dict[str, OutputTarget] | None
    """The scenarios' charts, where scenarios are drawn."""


def _chart_targets(
    charts_dir: Path,
    name: str,
    inputs: tuple[str | None, ...],
    force: bool,
    beside: tuple[tuple[str, str | None], ...],
    scenarios: bool,
) -> _ChartTargets:
    """The chart files ``--charts`` writes, each checked before any work (a chart file the memo's own
    file would replace, or the other way round, is refused)."""
    from gpu_advisor.engine.present.chart_images import chart_targets

    # First: it refuses a symbolic link and creates the directory the scenario charts go in too.
    charts = chart_targets(charts_dir, name, inputs, force, beside)
    robustness = None
    if scenarios:
        from gpu_advisor.engine.present.robustness_charts import robustness_chart_targets

        robustness = robustness_chart_targets(charts_dir, name, inputs, force, beside)
    return _ChartTargets(charts, robustness)


def _write_charts(
    result: Recommendation, targets: _ChartTargets, fmt: Format, relative_to: Path | None
) -> dict[str, str]:
    """The charts written, by name: the file each link in the memo points to."""
    from gpu_advisor.engine.present.chart_images import write_charts

    files = write_charts(result, targets.charts, fmt, relative_to=relative_to)
    if targets.robustness is not None:
        from gpu_advisor.engine.domain.robustness import ScenarioRecommendation
        from gpu_advisor.engine.present.robustness_charts import write_robustness_charts

        assert isinstance(result, ScenarioRecommendation)
        files.update(write_robustness_charts(result, targets.robustness, fmt, relative_to=relative_to))
    return files


def _with_scenarios(
    workload: WorkloadInput,
    ranges: WorkloadRanges,
    evaluated_on: dt.date,
    scenarios: int,
    seed: int,
    knowledge: Knowledge,
    your_figures: Overrides | None,
    policy_dir: str | None,
    fmt: Format,
) -> Recommendation:
    """``recommend --scenarios``: on a terminal, a progress bar on standard error while the scenarios run
    (100,000 take minutes); it stays there, above the memo or beside the file written."""
    import sys
    from contextlib import ExitStack

    from gpu_advisor.engine.apps.scenarios.recommend import recommend_scenarios
    from gpu_advisor.engine.apps.scenarios.run import local_mapper
    from gpu_advisor.engine.commands.portfolio import said, summary_signal
    from gpu_advisor.engine.common.signals import exit_code_of, stop_on_signals
    from gpu_advisor.engine.present.batch_progress import TerminalProgress

    try:
        with ExitStack() as stack:
            # Ctrl-C or SIGTERM ends the run as batch and sweep end theirs: a line, exit 130 or 143.
            stack.enter_context(stop_on_signals())
            bar = None
            if sys.stderr.isatty():
                bar = stack.enter_context(TerminalProgress(None, fmt.lang, rate="progress_scenario_rate"))
            return recommend_scenarios(
                workload,
                ranges,
                evaluated_on,
                scenarios,
                seed,
                knowledge,
                your_figures,
                policy_path(policy_dir),
                fmt,
                mapper=local_mapper(progress=bar),
            )
    except KeyboardInterrupt as stop:
        click.echo(said(fmt.lang, "sweep_stopped", signal=summary_signal(stop)), err=True)
        sys.exit(exit_code_of(stop))
