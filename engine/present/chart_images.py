"""PNG files of the memo's charts (``recommend --charts DIR``), drawn with matplotlib from the same data
as the Mermaid charts in the memo. Imported only when asked for: matplotlib is slow to import.
"""

from __future__ import annotations

import os
import stat
import textwrap
from pathlib import Path

from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.file_names import file_stem
from gpu_advisor.engine.common.read_problems import os_problem
from gpu_advisor.engine.common.safe_files import OutputTarget, check_output, refusal, write_output
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.i18n.environment import translate as translate_to
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.chart_labels import (
    DEPLOYMENT_LABELS,
    STEP_SHAPES,
    api_label,
    self_hosted_label,
)

CHART_FILES = {
    "buy_versus_rent": "buy-versus-rent.png",
    "api_versus_self_hosted": "api-versus-self-hosted.png",
}

# The series colours, the same as the Mermaid charts' in the memo (templates/memo.md.j2): a blue and an
# orange with a contrast of at least 3:1 on a white and on a dark background.
SERIES_COLOURS = ("#2563EB", "#EA580C")
LEGEND_WIDTH = 60
"""Characters per line of a legend entry: a longer label is wrapped, so that the legend stays in the
figure."""


def chart_file_names(workload_name: str) -> dict[str, str]:
    """Each chart's file name, the workload's name first, so that the charts of several workloads can
    share one directory: ``public-chat-buy-versus-rent.png``."""
    stem = file_stem(workload_name)
    return {chart: f"{stem}-{name}" for chart, name in CHART_FILES.items()}


def chart_targets(
    directory: Path,
    workload_name: str,
    inputs: tuple[str | None, ...],
    force: bool,
    others: tuple[tuple[str, str | None], ...] = (),
) -> dict[str, OutputTarget]:
    """The chart files of the workload named ``workload_name`` in ``directory`` (created if missing;
    never a symbolic link), each checked as an output file before anything is evaluated; ``others``: the
    command's other outputs, (option, file), which no chart file may be."""
    try:
        mode: int | None = directory.lstat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise refusal(error, cannot_create(directory, error)) from None
    if mode is not None and stat.S_ISLNK(mode):
        problem = Words(
            "%(directory)s is a symbolic link; name the directory itself", directory=repr(str(directory))
        )
        raise InputError(at("--charts", problem))
    if mode is not None and not stat.S_ISDIR(mode):
        problem = Words(
            "%(directory)s is a file, not a directory; name the directory the chart images go to",
            directory=repr(str(directory)),
        )
        raise InputError(at("--charts", problem))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        # A read-only directory above it is the system's refusal (exit code 5), as for -o; a file where a
        # directory should be is bad input.
        raise refusal(error, cannot_create(directory, error)) from None
    return {
        chart: check_output(str(directory / name), "--charts", inputs=inputs, force=force, others=others)
        for chart, name in chart_file_names(workload_name).items()
    }


def cannot_create(directory: Path, error: OSError) -> Words:
    problem = Words(
        "cannot create %(directory)s (%(problem)s)", directory=str(directory), problem=os_problem(error)
    )
    return at("--charts", problem)


def write_charts(
    result: Recommendation, targets: dict[str, OutputTarget], fmt: Format, relative_to: Path | None = None
) -> dict[str, str]:
    """Write the charts that have data; return their titles with the path the memo links to."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def translate(message: str) -> str:
        return translate_to(fmt.lang, message)

    scale = fmt.usd_per_unit
    written: dict[str, str] = {}
    charts = result.charts

    if charts.buy_versus_rent is not None:
        chart = charts.buy_versus_rent
        title = translate("Monthly cost against node utilization")
        figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
        percent = [u * 100 for u in chart.utilization]
        axes.plot(
            percent,
            [v / scale for v in chart.own_usd_per_month],
            label=translate("Own hardware"),
            color=SERIES_COLOURS[0],
        )
        axes.plot(
            percent,
            [v / scale for v in chart.rent_usd_per_month],
            label=chart.compared_with,
            color=SERIES_COLOURS[1],
        )
        if chart.compared_billing == "hourly":
            axes.axvline(chart.break_even_utilization * 100, linestyle=":", color="grey")
        axes.set_xlabel(translate("utilization in percent"))
        axes.set_ylabel(f"{fmt.currency} / {translate('month')}")
        written[title] = save(figure, axes, title, targets["buy_versus_rent"], relative_to)

    if charts.api_versus_self_hosted is not None:
        volume = charts.api_versus_self_hosted
        title = translate("Monthly cost against requests per day")
        figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
        axes.plot(
            volume.requests_per_day,
            [v / scale for v in volume.api_usd_per_month],
            label=textwrap.fill(api_label(volume, fmt), LEGEND_WIDTH),
            color=SERIES_COLOURS[0],
        )
        axes.plot(
            volume.requests_per_day,
            [v / scale for v in volume.self_hosted_usd_per_month],
            drawstyle="steps-post" if volume.self_hosted_shape in STEP_SHAPES else "default",
            label=textwrap.fill(self_hosted_label(volume, fmt), LEGEND_WIDTH),
            color=SERIES_COLOURS[1],
        )
        if volume.decided is not None and volume.decided_usd_per_month is not None:
            axes.plot(
                [result.workload.requests_per_day],
                [volume.decided_usd_per_month / scale],
                marker="o",
                linestyle="none",
                label=translate(DEPLOYMENT_LABELS[volume.decided]),
                color="grey",
            )
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel(translate("requests per day"))
        axes.set_ylabel(f"{fmt.currency} / {translate('month')}")
        written[title] = save(figure, axes, title, targets["api_versus_self_hosted"], relative_to)
    return written


def save(figure: object, axes: object, title: str, target: OutputTarget, relative_to: Path | None) -> str:
    import io

    import matplotlib.pyplot as plt

    axes.set_title(title)  # type: ignore[attr-defined]
    axes.legend()  # type: ignore[attr-defined]
    axes.grid(True, alpha=0.3)  # type: ignore[attr-defined]
    figure.tight_layout()  # type: ignore[attr-defined]
    # No software or date in the file: the same input gives the same bytes.
    png = io.BytesIO()
    figure.savefig(png, format="png", metadata={"Software": None})  # type: ignore[attr-defined]
    plt.close(figure)  # type: ignore[arg-type]
    write_output(target, png.getvalue())
    path = target.path
    return os.path.relpath(path, relative_to) if relative_to is not None else str(path)
