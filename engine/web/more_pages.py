"""The pages beside the questionnaire and the memo: a proposal check by upload, and the rule catalog
(``/rules`` and ``/rules/ID`` for a browser; the same paths answer JSON to other clients)."""

from __future__ import annotations

from gpu_advisor.engine.apps.rule_docs import RuleDoc
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.proposal import CheckResult
from gpu_advisor.engine.web.environment import render_page
from gpu_advisor.engine.web.form import Problem, error_text
from gpu_advisor.engine.web.memo_html import plain
from gpu_advisor.engine.web.pages import Settings, page
from gpu_advisor.engine.web.upload import UploadProblem


def problem_of(error: Exception, lang: str) -> Problem:
    if isinstance(error, UploadProblem):
        return Problem(error.problem, error.name)
    if isinstance(error, InputError):
        return Problem(text=error_text(error, lang))
    return Problem(text=str(error))


def check_page(
    settings: Settings,
    results: list[CheckResult] | None = None,
    problem: Problem | None = None,
    file: str = "",
) -> str:
    shell = page("/check", settings)
    return render_page(
        "check.html.j2",
        shell.fmt,
        **shell.context(),
        results=results,
        problem=problem,
        file=file,
        plain=plain,
    )


def run_check(settings: Settings, name: str, text: str) -> list[CheckResult]:
    """Every proposal of an uploaded file, checked as ``gpu-advisor check FILE`` checks it."""
    from gpu_advisor.engine.apps.check.files import proposal_documents
    from gpu_advisor.engine.apps.check.run import check_document

    knowledge = load_knowledge()
    fmt = settings.format(knowledge)
    documents = list(proposal_documents(text, name))
    if len(documents) > MAX_UPLOADED_PROPOSALS:
        # Each proposal is a whole evaluation: a 1 MB file of thousands would hold a worker for minutes.
        raise InputError(
            f"{name}: {len(documents):,} proposals; the page checks at most {MAX_UPLOADED_PROPOSALS} a file "
            "(gpu-advisor check FILE checks any number)"
        )
    return [
        check_document(document, name, index, settings.evaluated_on, knowledge=knowledge, line=line, fmt=fmt)
        for index, line, document in documents
    ]


MAX_UPLOADED_PROPOSALS = 50


def localized(doc: RuleDoc, lang: str) -> RuleDoc:
    """A rule's title and rationale in ``lang`` where the catalog has them (rules/i18n)."""
    from gpu_advisor.engine.rulebook.texts import rule_texts

    text = rule_texts(lang).get(doc.id)
    return doc.model_copy(update={"title": text.title, "rationale": text.rationale}) if text else doc


def rules_page(settings: Settings, docs: list[RuleDoc]) -> str:
    shell = page("/rules", settings)
    shown = [localized(doc, settings.lang) for doc in docs]
    return render_page("rules.html.j2", shell.fmt, **shell.context(), rules=shown)


def rule_page(settings: Settings, doc: RuleDoc) -> str:
    shell = page(f"/rules/{doc.id}", settings)
    return render_page(
        "rule.html.j2", shell.fmt, **shell.context(), r=localized(doc, settings.lang), plain=plain
    )


def missing_rule_page(settings: Settings, message: str) -> str:
    shell = page("/rules", settings)
    return render_page("rule_missing.html.j2", shell.fmt, **shell.context(), message=message)
