"""The pages: what each one shows, worked out from a request's query string, rendered from
``templates/web/``. No I/O beyond reading the knowledge base; ``routes.py`` is the HTTP side."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from gpu_advisor import __version__
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import iso_date, not_a_date
from gpu_advisor.engine.common.wording import at
from gpu_advisor.engine.domain.knowledge.base import Knowledge
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.results import Recommendation
from gpu_advisor.engine.i18n.formats import CURRENCIES, LANGUAGES, Format
from gpu_advisor.engine.web import charts as chart_geometry
from gpu_advisor.engine.web.environment import render_page
from gpu_advisor.engine.web.form import (
    EXTRA,
    SETTINGS,
    FormState,
    Problem,
    error_text,
    fields,
    prefilled,
    query_from_answers,
    read_form,
    value_text,
)
from gpu_advisor.engine.web.memo_html import findings_by_severity, memo_html, plain
from gpu_advisor.engine.web.whatif import (
    OFFER_KEY,
    OFFER_PRICE,
    SERVER_PRICE,
    WHATIF_PARAMETERS,
    PriceChange,
    priced_knowledge,
    read_price_change,
    sliders,
)

DEFAULT_CURRENCY = {"de": "EUR", "en": "USD"}
"""A page opened without a currency shows the one of its language."""


@dataclass(frozen=True)
class Settings:
    """The page's language and currency, and the evaluation date if one is given (else today)."""

    lang: str = "en"
    currency: str = "USD"
    as_of: dt.date | None = None
    problems: tuple[str, ...] = ()

    @property
    def evaluated_on(self) -> dt.date:
        return self.as_of or dt.date.today()

    def query(self, lang: str | None = None, currency: str | None = None) -> dict[str, str]:
        query = {"lang": lang or self.lang, "currency": currency or self.currency}
        if self.as_of:
            query["as_of"] = self.as_of.isoformat()
        return query

    def format(self, knowledge: Knowledge) -> Format:
        return knowledge.display_format(self.lang, self.currency)


def read_settings(params: Mapping[str, str], accept_language: str | None) -> Settings:
    """``lang`` and ``currency`` from the query string; without them the browser's first language if
    it is German, and the language's currency (francs for a Swiss one)."""
    lang = params.get("lang", "")
    if lang not in LANGUAGES:
        first = (accept_language or "").split(",")[0].strip().lower()
        lang = "de" if first.startswith("de") else "en"
    currency = params.get("currency", "").upper()
    if currency not in CURRENCIES:
        # A browser set to Swiss German or French (de-CH, fr-CH) gets francs.
        region = (accept_language or "").split(",")[0].split(";")[0].strip().lower()
        currency = "CHF" if region.endswith("-ch") else DEFAULT_CURRENCY[lang]
    as_of: dt.date | None = None
    problems: tuple[str, ...] = ()
    if params.get("as_of"):
        try:
            as_of = iso_date(params["as_of"], "as_of")
        except InputError:
            problems = ("as_of",)
    return Settings(lang, currency, as_of, problems)


def url(path: str, query: Mapping[str, str]) -> str:
    return f"{path}?{urlencode(query)}" if query else path


@dataclass
class Page:
    """What every page shows around its content: the language and currency switches keep the answers."""

    settings: Settings
    fmt: Format
    path: str
    switch: dict[str, str] = field(default_factory=dict)

    def context(self) -> dict[str, Any]:
        return {"settings": self.settings, "switch": self.switch, "version": __version__, "path": self.path}


def page(path: str, settings: Settings, query_for: Callable[[str], Mapping[str, str]] | None = None) -> Page:
    """A page with its switches; ``query_for(lang)``: the page's own query in that language."""
    fmt = settings.format(load_knowledge())
    own = query_for or (lambda _lang: {})
    switch = {lang: url(path, {**own(lang), **settings.query(lang=lang)}) for lang in LANGUAGES}
    switch.update(
        {
            currency: url(path, {**own(settings.lang), **settings.query(currency=currency)})
            for currency in CURRENCIES
        }
    )
    return Page(settings, fmt, path, switch)


def answers_query(state: FormState, lang: str) -> dict[str, str]:
    """The answers that were given (not the defaults that filled in the rest), as the form sends them
    in ``lang``."""
    given = {name: value for name, value in state.answers.items() if state.texts.get(name, "").strip()}
    return query_from_answers(given, state.extra, lang)


def form_page(
    settings: Settings,
    params: Mapping[str, str] | None,
    state: FormState | None = None,
    problems: tuple[Any, ...] = (),
) -> str:
    """The questionnaire: empty with its defaults, pre-filled from a query string, or with problems."""
    knowledge = load_knowledge()
    if state is None and params and any(name not in SETTINGS for name in params):
        state = prefilled(params, knowledge, settings.lang)
    extra = params.get(EXTRA, "") if params else ""

    def query_for(lang: str) -> dict[str, str]:
        if state is None:
            return {}
        query = {k: v for k, v in state.texts.items() if v}
        if state.answers and not state.errors:
            query = answers_query(state, lang)
        if extra:
            query[EXTRA] = extra
        return query

    shell = page("/", settings, query_for)
    return render_page(
        "form.html.j2",
        shell.fmt,
        **shell.context(),
        fields=fields(state, knowledge, settings.lang),
        general_errors=state.general_errors if state else [],
        problems=[*(state.problems if state else []), *problems],
        extra=extra,
    )


@dataclass
class Evaluated:
    """A valid form evaluated: the result, and what the page needs around it."""

    state: FormState
    result: Recommendation
    change: PriceChange
    params: Mapping[str, str]


def evaluate(settings: Settings, params: Mapping[str, str]) -> Evaluated | FormState:
    """The recommendation of the answers in ``params``; the form state with its problems where an
    answer, the workload or a what-if price is not valid."""
    from gpu_advisor.engine.apps.recommend import recommend

    knowledge = load_knowledge()
    fmt = settings.format(knowledge)
    state = read_form(params, knowledge, fmt)
    if settings.problems:
        # Said as --as-of and the service's as_of say it, in the page's language.
        refused = InputError(at("as_of", not_a_date(params.get("as_of", ""))))
        state.general_errors.append(error_text(refused, settings.lang))
    if state.workload is None or state.general_errors or state.errors:
        return state
    try:
        change = read_price_change(params, fmt.usd_per_unit, settings.lang)
        if not change.empty:
            base = recommend(state.workload, settings.evaluated_on, knowledge=knowledge)
            knowledge = priced_knowledge(change, knowledge, base.own_hardware.server)
    except InputError as error:
        # An unknown offer is said with the offers near it; a price out of bounds as the boxes' rule.
        offer = error.field == OFFER_KEY
        text = error_text(error, settings.lang) if offer else str(error)
        state.problems.append(Problem(code="offer" if offer else "price", text=text))
        return state
    try:
        result = recommend(state.workload, settings.evaluated_on, knowledge=knowledge, fmt=fmt)
    except InputError as error:
        state.general_errors.append(error_text(error, settings.lang))
        return state
    return Evaluated(state, result, change, params)


def whatif_query(params: Mapping[str, str]) -> dict[str, str]:
    return {name: params[name] for name in WHATIF_PARAMETERS if params.get(name, "").strip()}


def memo_page(settings: Settings, evaluated: Evaluated) -> str:
    from gpu_advisor.engine.present.memo import render_memo
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    state, result = evaluated.state, evaluated.result
    whatif = whatif_query(evaluated.params)

    def query_for(lang: str) -> dict[str, str]:
        return {**answers_query(state, lang), **whatif}

    shell = page("/memo", settings, query_for)
    fmt = shell.fmt
    own_query = {**query_for(settings.lang), **settings.query()}
    drawn = chart_geometry.charts(result, fmt)
    svgs = [render_page("_chart.html.j2", fmt, chart=chart) for chart in drawn]
    findings = render_page(
        "_findings.html.j2", fmt, groups=findings_by_severity(result.findings), plain=plain
    )
    memo = render_memo(result, fmt)
    assert state.document is not None
    utilization, requests = sliders(state.document, result, settings.evaluated_on, evaluated.change)
    offer_key = evaluated.params.get(OFFER_KEY) or price_offer_key(result)
    knowledge = load_knowledge()
    return render_page(
        "memo.html.j2",
        fmt,
        **shell.context(),
        r=result,
        memo=memo_html(memo, settings.lang, load_rulebook().ids, svgs, findings),
        charts=drawn,
        query=own_query,
        urls={
            "share": url("/memo", own_query),
            "edit": url("/", own_query),
            "save": url("/workload.yaml", {**answers_query(state, settings.lang), **settings.query()}),
            "markdown": url("/memo.md", own_query),
        },
        hidden={
            k: v
            for k, v in own_query.items()
            if k not in ("utilization", "requests_per_day", *WHATIF_PARAMETERS)
        },
        sliders=(utilization, requests),
        texts={
            "utilization": value_text_for("utilization", state.answers.get("utilization"), settings.lang),
            "requests_per_day": value_text_for(
                "requests_per_day", state.answers.get("requests_per_day"), settings.lang
            ),
        },
        derived_utilization=result.workload.utilization,
        offer_key=offer_key,
        offer_price=catalog_price(knowledge, offer_key),
        server_price=knowledge.own_server(result.own_hardware.server).price_usd
        if result.own_hardware.server
        else None,
        change=evaluated.change,
        whatif=whatif,
        names={"offer_key": OFFER_KEY, "offer_price": OFFER_PRICE, "server_price": SERVER_PRICE},
    )


def value_text_for(name: str, value: Any, lang: str) -> str:
    from gpu_advisor.engine.apps.questionnaire import load_questions

    question = next(q for q in load_questions() if q.field == name)
    return value_text(question, value, lang)


def price_offer_key(result: Recommendation) -> str | None:
    """The offer whose price the what-if panel offers to change: the decision's, else the cheapest
    rental's."""
    decision = result.decision
    if decision.deployment == "dedicated_cloud" and decision.provider and decision.offer and decision.gpu:
        return f"{decision.provider}/{decision.offer}/{decision.gpu}"
    best = result.best_option
    return f"{best.provider}/{best.offer}/{best.gpu}" if best else None


def catalog_price(knowledge: Knowledge, key: str | None) -> float | None:
    return next((o.usd_per_gpu_hour for o in knowledge.offers.offers if o.key == key), None)


def markdown_memo(settings: Settings, evaluated: Evaluated) -> str:
    from gpu_advisor.engine.present.memo import render_memo

    return render_memo(evaluated.result, settings.format(load_knowledge()))
