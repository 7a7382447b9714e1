"""A serverless proposal held to the recommendation's serverless options: the rules that fired for the
workload exclude a product in a region (where the data may be processed, an enterprise SLA, company
policy) from the options ``recommend`` weighs, and a proposal of the same product is held to them as a
proposed API is (DEP045 beside DEP036)."""

from __future__ import annotations

from typing import Any, NamedTuple

from gpu_advisor.engine.calc.replicas import ReplicaPlan
from gpu_advisor.engine.calc.serverless import ServerlessListing, serverless_listings
from gpu_advisor.engine.common.wording import Words, runs
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.serving import ServerlessGpu, ServerlessProduct
from gpu_advisor.engine.domain.proposal import ProposalInput
from gpu_advisor.engine.i18n.environment import say
from gpu_advisor.engine.pipeline.evaluation import Evaluation
from gpu_advisor.engine.pipeline.serverless import Candidate, PricedServerless, Pricer
from gpu_advisor.engine.rulebook.texts import titled


class ServerlessFacts(NamedTuple):
    facts: dict[str, Any]
    details: dict[str, Any]


class ServerlessCost(NamedTuple):
    usd_per_month: float
    known: bool
    """The catalog prices the proposed product on the proposed GPU, region and instance size."""
    priced: PricedServerless | None = None
    """The product as priced: the bill the check's result shows with its settings (``ProposedCost``)."""


def named_serverless_products(proposal: ProposalInput, knowledge: Knowledge) -> list[ServerlessProduct]:
    """The serverless products a proposal may mean: the offer it names at its provider, else every
    serverless product of that provider."""
    products = [p for p in knowledge.serverless.products if p.provider == proposal.provider]
    return [p for p in products if p.id == proposal.offer] if proposal.offer else products


def priced_instance_sizes(products: list[ServerlessProduct], gpu: str | None) -> tuple[int, ...]:
    """The instance sizes the catalog prices the products at on ``gpu`` (on any GPU where None), smallest
    first."""
    sold = {size for p in products for e in p.gpus if gpu in (None, e.gpu) for size in e.instance_gpus}
    return tuple(sorted(sold))


def sizes_said(sizes: tuple[int, ...]) -> Words | str:
    """Instance sizes as a sentence names them: "1", "1 or 4", "1 to 8", "1, 2, 4 or 8"."""
    parts: list[Words | str] = []
    for low, high in runs(sizes):
        if high - low > 1:
            parts.append(Words("%(low)s to %(high)s", low=low, high=high))
        else:
            parts.extend(str(size) for size in range(low, high + 1))
    if len(parts) < 2:
        return "".join(map(str, parts))
    places = {f"p{k}": part for k, part in enumerate(parts[:-1])}
    items = Words.joined(", ".join(f"%({name})s" for name in places), **places)
    return Words("%(items)s or %(last)s", items=items, last=parts[-1])


def instance_sizes_named(proposal: ProposalInput, gpu: str | None, knowledge: Knowledge, lang: str) -> str:
    """The sizes a serverless proposal's products are priced at on ``gpu`` (on any GPU where the proposal
    names none), in ``lang``, as SIZ024/SIZ025 name them."""
    if proposal.deployment != "serverless":
        return ""
    return say(lang, sizes_said(priced_instance_sizes(named_serverless_products(proposal, knowledge), gpu)))


def serverless_cost(
    proposal: ProposalInput, evaluation: Evaluation, jurisdiction: str | None
) -> ServerlessCost:
    """A serverless proposal: its product (the offer named, else the provider's) on its GPU and in its
    jurisdiction where they are named, priced for the workload as ``recommend`` prices it (the instances
    its hours need, as the product bills them), on instances of the proposed cards where it names them
    (the smallest that holds a replica otherwise); the cheapest where several match. Not known where no
    entry of the product sells that size."""
    products = named_serverless_products(proposal, evaluation.knowledge)

    def meant(listing: ServerlessListing) -> bool:
        return (
            listing.product in products
            and proposal.gpu in (None, listing.gpu.gpu)
            and jurisdiction in (None, listing.jurisdiction)
        )

    if proposal.gpus is None:
        matches = [priced for priced in evaluation.market.serverless.priced if meant(priced.listing)]
    else:
        listings = serverless_listings(evaluation.knowledge)
        sized = (
            price_instance_size(listing, proposal.gpus, evaluation) for listing in listings if meant(listing)
        )
        matches = sorted((m for m in sized if m is not None), key=lambda m: m.bill.usd_per_month)
    if not matches:
        return ServerlessCost(0.0, False)
    return ServerlessCost(matches[0].bill.usd_per_month, True, matches[0])


def price_instance_size(
    listing: ServerlessListing, size: int, evaluation: Evaluation
) -> PricedServerless | None:
    """``listing`` priced on instances of ``size`` cards as ``recommend`` prices the smallest that holds
    a replica; None where the entry does not sell that size, the GPU has no plan or the size holds no
    replica, or a rule calls the GPU unsuitable for the model (``recommend`` prices it for none)."""
    plan = plan_on_instance(listing.gpu, size, evaluation)
    if plan is None:
        return None
    market = evaluation.market.serverless
    return Pricer(market.pricer.workload, market.pricer.knowledge).price(
        Candidate(listing, plan, size, (), 0.0)
    )


def plan_on_instance(entry: ServerlessGpu, size: int, evaluation: Evaluation) -> ReplicaPlan | None:
    """The replica plan instances of ``size`` cards of a product's GPU entry run: the recommendation's
    plan on that GPU, where the entry sells the size and it holds whole replicas of the plan, and no rule
    calls the GPU unsuitable for the model; None otherwise."""
    plan = evaluation.market.plans.get(entry.gpu)
    if plan is None or entry.gpu in evaluation.verdicts.unsuitable:
        return None
    return plan if size >= plan.cards_per_replica and size in entry.instance_gpus else None


def serverless_product_facts(
    proposal: ProposalInput, gpu: str | None, gpus: int | None, evaluation: Evaluation
) -> dict[str, Any]:
    """A serverless proposal's products in the catalog: whether there are any, the most cards one of
    their instances has on ``gpu`` (on any of their GPUs where it names none), whether the proposed
    instance of ``gpus`` cards is a size they are priced at (true where it names none) and whether one
    of that size holds a replica as the recommendation plans it, and whether they sell larger instances
    than the catalog prices. All false or 0 for other deployments."""
    knowledge = evaluation.knowledge
    products = named_serverless_products(proposal, knowledge) if proposal.deployment == "serverless" else []
    sizes = priced_instance_sizes(products, gpu)
    return {
        "serverless_product_known": bool(products),
        "serverless_instance_gpus_max": max(sizes, default=0),
        "serverless_instance_priced": gpus is None or gpus in sizes,
        "serverless_instance_holds_plan": gpus is None
        or holds_planned_replica(products, gpu, gpus, evaluation),
        "serverless_larger_instances_unpriced": any(
            p.larger_instances_unpriced is not None for p in products
        ),
        "serverless_request_queue": any(p.request_queue is not None for p in products),
    }


def request_queue_details(proposal: ProposalInput, knowledge: Knowledge) -> dict[str, str]:
    """What RES017 says of the proposed product's queue (nothing where it has none)."""
    if proposal.deployment != "serverless":
        return {}
    queues = [p.request_queue for p in named_serverless_products(proposal, knowledge) if p.request_queue]
    return {"request_queue_note": queues[0].note} if queues else {}


def holds_planned_replica(
    products: list[ServerlessProduct], gpu: str | None, gpus: int, evaluation: Evaluation
) -> bool:
    """Some entry of the products on ``gpu`` (on any GPU where None) sells instances of ``gpus`` cards that
    hold whole replicas as the recommendation plans them, on a GPU no rule calls unsuitable: the sizes
    ``serverless_cost`` can price."""
    return any(
        plan_on_instance(entry, gpus, evaluation) is not None
        for product in products
        for entry in product.gpus
        if gpu in (None, entry.gpu)
    )


def serverless_option_facts(proposal: ProposalInput, evaluation: Evaluation, lang: str) -> ServerlessFacts:
    """Whether the rules exclude every serverless option of the proposal the recommendation weighed (its
    product's GPUs that suit the model and hold a replica, in the proposed region, named by its ID or its
    jurisdiction, where it names one; nothing where it weighed none); the options and the excluding
    rules with their titles, for the message. Where the proposed GPU was not weighed (a replica needs
    more cards than the product's priced instances), the product's other options in the region stand in,
    and only the rules that exclude every one of them count: those are about the product and the region
    (its provider's SLA, the place, company policy), not the GPU."""
    if proposal.deployment != "serverless":
        return ServerlessFacts({}, {})
    products = {product.id for product in named_serverless_products(proposal, evaluation.knowledge)}
    placed = [
        candidate
        for candidate in evaluation.market.serverless.candidates
        if candidate.listing.product.id in products
        and proposal.region in (None, candidate.listing.region, candidate.listing.jurisdiction)
    ]
    meant = [c for c in placed if proposal.gpu in (None, c.listing.gpu.gpu)]
    if not placed:
        return ServerlessFacts({}, {})
    excluding = _excluding(meant) if meant else _excluding_all(placed)
    # Where the proposed GPU was not weighed, the product in its regions is what the rules exclude.
    names = dict.fromkeys(
        f"{c.listing.product.name} ({c.listing.region}, {c.listing.gpu.gpu})"
        if meant
        else f"{c.listing.product.name} ({c.listing.region})"
        for c in meant or placed
    )
    rules = {rule.id: rule for rule in evaluation.rules}
    details = {
        "serverless_options": "; ".join(names),
        "serverless_excluded_by": titled((rules[rule_id] for rule_id in excluding), lang),
    }
    return ServerlessFacts({"serverless_excluded": bool(excluding)}, details)


def _excluding(options: list[Candidate]) -> tuple[str, ...]:
    """Where every option is excluded, the rules that exclude them, in the order the options name them,
    each once; nothing where one stands."""
    if not all(option.excluded_by for option in options):
        return ()
    return tuple(dict.fromkeys(rule_id for option in options for rule_id in option.excluded_by))


def _excluding_all(options: list[Candidate]) -> tuple[str, ...]:
    """The rules that exclude every one of the options, in the order the first names them."""
    common = set.intersection(*(set(option.excluded_by) for option in options))
    return tuple(rule_id for rule_id in options[0].excluded_by if rule_id in common)
