"""PNG files of the robustness section's charts (``recommend --scenarios N --charts DIR``): the inputs'
one-at-a-time effects as a tornado ranking, and the monthly cost band of the recommendation and its rival.
Drawn with matplotlib like ``chart_images.py``; imported only when asked for."""

from __future__ import annotations

from pathlib import Path

from gpu_advisor.engine.common.file_names import file_stem
from gpu_advisor.engine.common.safe_files import OutputTarget, check_output
from gpu_advisor.engine.domain.robustness import ScenarioRecommendation
from gpu_advisor.engine.i18n.environment import translate as translate_to
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.chart_images import SERIES_COLOURS, save

ROBUSTNESS_FILES = {"tornado": "robustness-tornado.png", "cost_band": "robustness-cost-band.png"}


def robustness_chart_targets(
    directory: Path,
    workload_name: str,
    inputs: tuple[str | None, ...],
    force: bool,
    others: tuple[tuple[str, str | None], ...] = (),
) -> dict[str, OutputTarget]:
    """The two files in ``directory`` (which ``chart_images.chart_targets`` has checked and created);
    ``others`` as there."""
    stem = file_stem(workload_name)
    return {
        chart: check_output(
            str(directory / f"{stem}-{name}"), "--charts", inputs=inputs, force=force, others=others
        )
        for chart, name in ROBUSTNESS_FILES.items()
    }


def write_robustness_charts(
    result: ScenarioRecommendation, targets: dict[str, OutputTarget], fmt: Format, relative_to: Path | None
) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def translate(message: str) -> str:
        return translate_to(fmt.lang, message)

    scale = fmt.usd_per_unit
    rb = result.robustness
    written: dict[str, str] = {}
    # Bars of nothing but zeros say no more than the memo's sentence that no input moves anything.
    if any(s.effect > 0 for s in rb.sensitivity):
        title = translate("What moves the decision (one at a time)")
        figure, axes = plt.subplots(figsize=(9, 4), dpi=100)
        ranked = list(reversed(rb.sensitivity))  # the largest at the top
        axes.barh(
            [translate(s.description) for s in ranked],
            [s.effect / scale for s in ranked],
            color=SERIES_COLOURS[0],
            label=translate("Effect, per month"),
        )
        axes.set_xlabel(f"{fmt.currency} / {translate('month')}")
        written[title] = save(figure, axes, title, targets["tornado"], relative_to)
    bands = rb.cost_usd_per_month
    if bands.p10 is not None and bands.p50 is not None and bands.p90 is not None:
        title = translate("Monthly cost across the scenarios")
        figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
        marks = ["P10", "P50", "P90"]
        axes.plot(
            marks,
            [v / scale for v in (bands.p10, bands.p50, bands.p90)],
            marker="o",
            color=SERIES_COLOURS[0],
            label=result.decision.offer or result.decision.deployment,
        )
        rival = bands.rival
        if rival is not None and rival.p10 is not None and rival.p50 is not None and rival.p90 is not None:
            axes.plot(
                marks,
                [v / scale for v in (rival.p10, rival.p50, rival.p90)],
                marker="o",
                color=SERIES_COLOURS[1],
                label=rival.offer or rival.deployment,
            )
        axes.set_ylabel(f"{fmt.currency} / {translate('month')}")
        written[title] = save(figure, axes, title, targets["cost_band"], relative_to)
    return written
