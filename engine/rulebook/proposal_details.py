"""The details a proposal check's message shows: what the proposal and the recommendation name beyond the
proposal fact (``details.py`` says what details are)."""

from __future__ import annotations

from gpu_advisor.engine.rulebook.details import Details


class ProposalDetails(Details):
    ruled_out_by: str
    """IDs of the rules that ruled the proposed deployment out."""
    ttft_target_stated: bool = False
    """The workload file states its time-to-first-token target (not the default); the same per token."""
    tpot_target_stated: bool = False
    offer_rate_yours: bool = False
    """The proposed offer's price is the team's own rate (``PriceOrigin.yours``), not a list price."""
    unsuitable_by: str
    """IDs of the rules that declared the proposed GPU unsuitable."""
    serverless_name: str = ""
    """A priced serverless proposal as the memo names an option; its provider's name and price date."""
    serverless_provider_name: str = ""
    serverless_as_of: str = ""
    residency_rules: str = ""
    """The residency rules that exclude the proposal's jurisdiction, each with its title."""
    admitted_regions: tuple[str, ...] = ()
    """The IDs of the proposed provider's regions where it sells the proposed GPU and the residency rules
    admit (``remedies.remedy_details``); ``admitted_providers``: the other providers' names that sell it in
    such a region; ``sla_providers``: those of them that publish an enterprise SLA;
    ``offers_without_spot``: the offers of the GPU sold there that are not spot, of the provider whose spot
    capacity the proposal rents (``spot_provider``)."""
    admitted_providers: tuple[str, ...] = ()
    sla_providers: tuple[str, ...] = ()
    offers_without_spot: tuple[str, ...] = ()
    spot_provider: str = ""
    """The provider whose spot capacity the proposal rents: the proposed one's, or a hybrid's busier
    hours' where only they run on spot (the spot checks name its notice and its offers without spot)."""
    expired_waivers: str = ""
    """The waivers past their end date: rule, end date and owner."""
    commitment_months: int = 0
    """The proposed offer's term (0 where it has none or is not in the catalog)."""
    reserve_with: str = ""
    """How the provider reserves the instances a proposed commitment leaves unreserved
    (``CapacityNotReserved.reserve_with``), and the two sources, '; '-separated ("" otherwise)."""
    capacity_sources: str = ""
    recommended_usd_per_month: float = 0.0
    """What the recommendation costs a month (0 where it has no price)."""
    idle_cards_usd_per_month: float = 0.0
    """What the billed cards beyond the proposed ones cost a month."""
    unlinked_sizes: tuple[int, ...] = ()
    """Smaller sizes of the proposed offer that would hold a proposed replica but are not documented to
    link its cards (``ProposedCost.unlinked_sizes``), for PRC013's message; ``replica_cards``: its cards;
    ``linked_usd_per_month``: the proposal's bill on them, were they linked."""
    replica_cards: int = 0
    linked_usd_per_month: float = 0.0
    offer: str = ""
    """The offer or serverless product the proposal names ("" where it names none)."""
    proposed_server: str = ""
    """The server the proposal buys (its catalog name; "" where it buys none), where it stands
    (``server_housing``: office, datacenter), and the rules whose exclusions keep own servers out of there
    (``housing_excluded_by``, "" where none do)."""
    server_housing: str = ""
    housing_excluded_by: str = ""
    largest_instance_gpus: int = 0
    """The proposed offer's largest instance, linked or not (0 where the catalog has no such offer)."""
    listed_offers: tuple[str, ...] = ()
    """The proposed provider's catalog offers of the proposed GPU, where the offer named is not one of
    them (KNB004 names them: a misspelt name is the usual cause)."""
    peak_offer_name: str = ""
    """A hybrid's busier-hours offer as the mix was priced on it ("lambda 2-gpu-plan"), and the most
    cards it runs in one hour ("" and 0 where no mix is priced)."""
    peak_gpus_max: int = 0
    peak_set_by_latency: bool = False
    """The latency targets, not the throughput headroom, set the replicas the peak needs on the proposed
    GPU (SIZ009 says which)."""
    proposed_replicas: int = 0
    loss_replicas_left: int = 0
    """A business-critical rental (``InstanceLoss``): the replicas the loss of its fullest instance
    leaves, those the peak needs, and the cards, billed cards and month of a proposal on the same offer
    that keeps the peak through it; 0 otherwise."""
    loss_peak_replicas: int = 0
    loss_surviving_gpus: int = 0
    loss_surviving_gpus_billed: int = 0
    loss_surviving_usd_per_month: float = 0.0
    """The replicas the proposed cards make (0 where the GPU cannot hold one)."""
    successor_offer: str = ""
    """The provider's newer offer that replaces the one named ("" where none replaces it)."""
    successor_usd_per_gpu_hour: float = 0.0
    successor_as_of: str = ""
    base_gpus_fewer: int = 0
    """A hybrid's stated reserved base: the largest base below what it bills that fills whole instances
    (0 where none does)."""
    unpriced: str = ""
    """Why the catalog prices nothing proposed (``ProposedCost.unpriced``), for the unknown-cost checks."""
    hours_billed: float = 0.0
    """A rental's hours billed a month (``ProposedCost.hours_billed``), which the result reports."""
    base_gpus_cheapest: int = 0
    """A hybrid's stated reserved base: the cards of the base that costs least on the same reservation
    (0 where none is priced), and what that mix costs a month."""
    cheapest_mix_usd_per_month: float = 0.0
    api_name: str = ""
    """A managed-API proposal: the API judged (its name in the catalog), where its provider processes the
    requests, the size of the open model it hosts and its active parameters (0 for a proprietary model
    and for a dense one's active ones), and the rules that exclude it, each with its title."""
    loadable_cards_max: int = 0
    """The most cards a replica may have for the model's heads (``SizingFigures.card_counts``)."""
    api_as_of: str = ""
    """The date of the proposed API's price (YYYY-MM-DD)."""
    api_jurisdiction: str = ""
    api_model_params_b: float = 0.0
    api_model_active_params_b: float = 0.0
    api_model_reasons: bool = False
    """The proposed API's model thinks before it answers (DEP053's message)."""
    workload_model: str = ""
    """The workload's catalog model, which DEP054 says the API does not host ("" for one given by its size,
    where DEP054 does not fire)."""
    api_excluded_by: str = ""
    api_exceeded_limit: str = ""
    """The limit of the API the workload's requests exceed: window or answer ("" where none)."""
    api_context_window_tokens: int = 0
    """Its context window and answer cap (0 where the catalog does not record them), and the workload's
    serving context and average answer that DEP038 holds them to."""
    api_max_output_tokens: int = 0
    context_tokens: int = 0
    avg_output_tokens: int = 0
    api_window_cut_short: str = ""
    """That API, its window and its model's (``api_windows.cut_window_words``; DEP039)."""
    api_rate_limit_scope: str = ""
    """What the proposed API's limits count over: account, project, organization (a model each), contract."""
    request_queue_note: str = ""
    """What the proposed serverless product's queue is and how to do without it (RES017; "" otherwise)."""
    serverless_options: str = ""
    """A serverless proposal: the options of it the recommendation weighed ('RunPod Serverless
    (eu-datacenters, h200)'; several '; '-separated), and the rules that exclude them, each with its
    title."""
    serverless_excluded_by: str = ""
    rental_policy_excluded_by: str = ""
    """The organization rules that exclude the proposed rental, each with its title."""
    planned_cards_per_replica: int = 0
    planned_kv_held_requests_per_second: float = 0.0
    """The cards of a replica as the recommendation plans it on the proposed GPU (0: no plan), for SIZ026,
    and the most one carries by its KV cache (``ReplicaPlan.rate_kv_holds``; 0: no such cap), for SIZ009."""
    planned_without_usual_count: bool = False
    """The proposed GPU has no usual count within the allowed counts: its replicas run a light load."""
    serverless_instance_sizes: str = ""
    """The instance sizes the catalog prices the proposed serverless product at on the proposed GPU
    ('1, 2, 4, 8'), for SIZ024/SIZ025."""
