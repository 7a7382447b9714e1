"""The labels of the requests-per-day chart's two lines in the PNG and SVG charts: the same sentences of
the message catalog as the memo's legend under its Mermaid chart (``templates/memo.md.j2``)."""

from __future__ import annotations

from gpu_advisor.engine.common.wording import marked
from gpu_advisor.engine.domain.results import ApiVersusSelfHosted
from gpu_advisor.engine.i18n.environment import translate
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.i18n.knowledge_texts import known_text


def own_servers(chart: ApiVersusSelfHosted, fmt: Format) -> str:
    """The own server of the first point, then each other server with the two points the change lies
    between (the chart samples volumes; the change is somewhere between them): 'HGX H100 8-GPU' or 'RTX
    5090 workstation; HGX H100 8-GPU from between 100,000 and 300,000 requests a day'."""
    servers = chart.self_hosted_servers or (chart.self_hosted_offer,)
    text = known_text(fmt.lang, servers[0])
    for index in range(1, len(servers)):
        if servers[index] != servers[index - 1]:
            # Marked here: the memo's legend takes this text from here too (``owned_on_chart``).
            wording = marked("%(server)s from between %(before)s and %(volume)s requests a day")
            later = translate(fmt.lang, wording) % {
                "server": known_text(fmt.lang, servers[index]),
                "before": fmt.number(chart.requests_per_day[index - 1]),
                "volume": fmt.number(chart.requests_per_day[index]),
            }
            text = f"{text}; {later}"
    return text


def self_hosted_label(chart: ApiVersusSelfHosted, fmt: Format) -> str:
    if chart.self_hosted_kind == "own_hardware":
        label = translate(fmt.lang, "own hardware (%(server)s)") % {"server": own_servers(chart, fmt)}
    elif chart.self_hosted_kind == "serverless":
        label = translate(fmt.lang, "%(product)s, %(cards)s × %(gpu)s per replica") % {
            "product": chart.self_hosted_offer,
            "cards": chart.self_hosted_cards_per_replica,
            "gpu": chart.self_hosted_gpu,
        }
    else:
        label = translate(fmt.lang, "%(provider)s %(offer)s, %(cards)s × %(gpu)s per replica") % {
            "provider": chart.self_hosted_provider,
            "offer": chart.self_hosted_offer,
            "cards": chart.self_hosted_cards_per_replica,
            "gpu": chart.self_hosted_gpu,
        }
    if chart.self_hosted_follows == "cheapest_rental":
        return translate(fmt.lang, "the cheapest rental (not the recommendation), %(hosted)s") % {
            "hosted": label
        }
    return label


def api_label(chart: ApiVersusSelfHosted, fmt: Format) -> str:
    """The API's name; where the rules rule the API out for the workload (as a bar) or set it aside (on
    cost or strategy), with the rules."""
    if not chart.api_ruled_out_by:
        return chart.api
    verdict = translate(fmt.lang, "ruled out" if chart.api_barred else marked("set aside"))
    return f"{chart.api} ({verdict}: {', '.join(chart.api_ruled_out_by)})"


STEP_SHAPES = ("replicas", "servers", "batch_hours", "reserved")
"""The self-hosted line's shapes drawn as steps; the others (a batch billed in seconds or minutes, a
serverless bill) grow with the work."""

DEPLOYMENT_LABELS = {
    "api": "Managed API",
    "serverless": "Serverless GPU endpoints",
    "dedicated_cloud": "Dedicated cloud GPUs",
    "own_hardware": "Own hardware",
    "hybrid": "Hybrid",
}
"""The deployments' names in the message catalog (``templates/_labels.j2``), for the decided point."""
