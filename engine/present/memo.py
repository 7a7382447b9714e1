"""The decision memo: a recommendation as Markdown, in the chosen language and currency."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpu_advisor import __version__
from gpu_advisor.engine.common.wording import Words
from gpu_advisor.engine.domain.results import Finding, Recommendation, apart_from
from gpu_advisor.engine.i18n.environment import render, say
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.present.chart_labels import own_servers


def render_memo(
    result: Recommendation,
    fmt: Format = DEFAULT_FORMAT,
    chart_files: Mapping[str, str] | None = None,
    overridden: Sequence[Words | str] = (),
) -> str:
    """The memo of ``result``. ``fmt`` must carry the exchange rates the result was made with (``Format(
    lang, currency, result.exchange_rate_usd_per_eur, usd_per_chf)``); ``chart_files`` links chart images
    by name;
    ``overridden`` lists the figures an overrides file replaced."""
    volume = result.charts.api_versus_self_hosted
    # The chart's own servers, as its PNG and SVG label them.
    owned = own_servers(volume, fmt) if volume and volume.self_hosted_kind == "own_hardware" else ""
    return render(
        "memo.md.j2",
        fmt,
        r=result,
        version=__version__,
        chart_files=dict(chart_files or {}),
        overridden=tuple(say(fmt.lang, line) for line in overridden),
        apart=[finding for finding in result.findings if elsewhere(result, finding)],
        owned_on_chart=owned,
    )


def elsewhere(result: Recommendation, finding: Finding) -> bool:
    """``finding`` is about the fit of a GPU the decision does not use (an API uses none), or about a
    route the decision does not take (``Finding.route``): the summary names it apart from the decision's
    constraints, and the brief ranks it last. A decision on hardware still to be sized (no GPU named) and
    an organization's rules keep every finding with the decision."""
    if finding.origin == "organization":
        return False
    return apart_from(result.decision, finding.route, finding.about_its_gpu, finding.subject)


SEVERITY_ORDER = {"critical": 0, "warning": 1, "advice": 2, "info": 3}
BRIEF_FINDINGS = 5


def render_brief(
    result: Recommendation, fmt: Format = DEFAULT_FORMAT, overridden: Sequence[Words | str] = ()
) -> str:
    """A one-screen summary of the memo: its title and Summary section as the memo says them, the sizing
    table's row of the chosen GPU, and the most severe findings (the deciding rule's first)."""
    sections = render_memo(result, fmt, overridden=overridden).split("\n## ")
    summary = "\n## ".join(sections[:2]).rstrip()
    sizing = next((s for s in sections if s.splitlines()[0].strip() == _sizing_heading(fmt)), "")
    table = [line for line in sizing.splitlines() if line.startswith("|")]
    chosen = [line for line in table[2:] if line.startswith(f"| {result.decision.gpu} |")]
    first = {f.rule_id: f for f in reversed(result.findings)}  # a rule that fired for several GPUs once
    findings = sorted(
        (f for f in result.findings if first[f.rule_id] is f),
        key=lambda f: (
            f.rule_id != result.decision.deciding_rule_id,
            elsewhere(result, f),
            SEVERITY_ORDER.get(f.severity, 4),
        ),
    )
    return render(
        "memo_brief.md.j2",
        fmt,
        r=result,
        summary=summary,
        sizing_rows="\n".join(table[:2] + chosen) if chosen else "",
        findings=findings[:BRIEF_FINDINGS],
        more=max(0, len(findings) - BRIEF_FINDINGS),
    )


def _sizing_heading(fmt: Format) -> str:
    from gpu_advisor.engine.i18n.environment import translate

    return translate(fmt.lang, "Sizing")
