"""Which check results fail a pipeline, in checkov's terms: ``--hard-fail-on`` and ``--soft-fail-on`` by
rule ID or severity, ``--skip-rule`` to leave a rule out, beside the global ``--fail-on fail|warn``.

A result gates (makes ``check`` exit 1) when it failed or warned, is not waived, and:

1. its rule ID is named by ``--hard-fail-on`` (it gates) or ``--soft-fail-on`` (it does not);
2. else its severity is at or above a ``--hard-fail-on`` severity (it gates), or at or below a
   ``--soft-fail-on`` severity (it does not);
3. else, where ``--hard-fail-on`` was given, it does not gate (only what it names gates), unless it
   failed and its waiver was refused (``--unwaivable``: the pipeline's owner keeps that rule gating);
4. else a failure gates, and a warning gates under ``--fail-on warn``.

A result that is ``unknown`` (the proposal leaves out a fact the check needs, such as the region) gates
where its rule is named by ID in ``--hard-fail-on`` or is critical, by the same order: a legal or
technical bar that cannot be shown to hold is not passed by leaving its fact out (``--pass-unknown``:
no unknown gates). ``--unwaivable`` (``unwaived``) refuses the proposal's waivers of the rules it names
before any of this: such a result counts as if it were not waived.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gpu_advisor.engine.common.errors import InputError, unknown_value
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.proposal import CheckItem, CheckResult, Status

SEVERITIES = ("info", "advice", "warning", "critical")
"""The rules' severities, lowest first."""


@dataclass(frozen=True)
class Selector:
    """Rule IDs and the lowest (hard) or highest (soft) severity an option names."""

    rule_ids: frozenset[str] = frozenset()
    severity: str | None = None

    @property
    def given(self) -> bool:
        return bool(self.rule_ids) or self.severity is not None

    def selects(self, rule_id: str, severity: str, *, at_or_above: bool) -> bool:
        """The option names the rule: by its ID, or by a severity at or below its own (``at_or_above``:
        the named severity and those above it, as --unwaivable reads one) or at or above it (the named
        and those below, as --skip-rule and --soft-fail-on read one)."""
        if rule_id in self.rule_ids:
            return True
        if self.severity is None:
            return False
        own, named = SEVERITIES.index(severity), SEVERITIES.index(self.severity)
        return own >= named if at_or_above else own <= named


def selector(values: Iterable[str], option: str, rule_ids: Sequence[str], *, hard: bool) -> Selector:
    """The rule IDs and severity of an option's values (each a rule ID or a severity, in either case, as
    ``rules show`` takes an ID; several may be given, comma-separated or by repeating the option). Of
    several severities, the one that selects most counts."""
    ids: set[str] = set()
    severities: list[str] = []
    values = tuple(values)
    parts = [part.strip() for raw in values for part in raw.split(",")]
    if values and not any(parts):
        # An empty value (a CI variable left unset, "--hard-fail-on $RULES") would gate nothing, unsaid.
        problem = Words("no rule or severity given (an empty value); name rule IDs or a severity")
        raise InputError(at(option, problem), field=option)
    for value in parts:
        if not value:
            continue
        if value.lower() in SEVERITIES:
            severities.append(value.lower())
        elif value.upper() in rule_ids:
            ids.add(value.upper())
        else:
            allowed = [*SEVERITIES, *sorted(rule_ids)]
            raise InputError(unknown_value(option, value, allowed), field=option)
    ranks = [SEVERITIES.index(s) for s in severities]
    severity = SEVERITIES[min(ranks) if hard else max(ranks)] if ranks else None
    return Selector(frozenset(ids), severity)


def distinct_selectors(hard: Selector, soft: Selector) -> None:
    """A rule named by both ``--hard-fail-on`` and ``--soft-fail-on`` is refused: the two say opposite
    things of it (the first one read used to win unsaid)."""
    if hard.severity is not None and soft.severity is not None:
        low, high = SEVERITIES.index(hard.severity), SEVERITIES.index(soft.severity)
        if low <= high:
            # Each selects the severities between them: the hard gate would win for them unsaid.
            problem = Words(
                "%(soft)s selects the %(both)s results --hard-fail-on %(hard)s selects; choose a severity "
                "below %(hard)s",
                hard=hard.severity,
                soft=soft.severity,
                both=", ".join(SEVERITIES[low : high + 1]),
            )
            raise InputError(at("--soft-fail-on", problem), field="--soft-fail-on")
    both = sorted(hard.rule_ids & soft.rule_ids)
    if both:
        problem = Words(
            "%(rules)s named by both --hard-fail-on and --soft-fail-on; name each rule in one of them",
            rules=", ".join(both),
        )
        raise InputError(at("--soft-fail-on", problem), field="--soft-fail-on")


def refuse_skip_of_all_or_gated(skip: Selector, hard: Selector) -> None:
    """``--skip-rule`` that leaves every rule out (the highest severity: every rule is at or below it)
    is refused, as is a rule both skipped and named by ``--hard-fail-on``: the run would pass with
    nothing checked, or with the gate asked for silenced."""
    if skip.severity == SEVERITIES[-1]:
        problem = Words(
            "%(severity)s skips every rule (each is at or below it), and the run would pass with nothing "
            "checked; name the rules to skip",
            severity=skip.severity,
        )
        raise InputError(at("--skip-rule", problem), field="--skip-rule")
    both = sorted(skip.rule_ids & hard.rule_ids)
    if both:
        problem = Words(
            "%(rules)s named by both --skip-rule and --hard-fail-on; a skipped rule cannot fail the run",
            rules=", ".join(both),
        )
        raise InputError(at("--skip-rule", problem), field="--skip-rule")


def fail_on_heeded(fail_on: str, hard: Selector) -> None:
    """``--fail-on warn`` beside ``--hard-fail-on`` is refused: where ``--hard-fail-on`` is given, only
    what it names fails the run (rule 3 above), so the warnings asked for would pass unsaid.
    ``--hard-fail-on info`` fails the run on every warning and failure, as ``--fail-on warn`` does."""
    if fail_on == "warn" and hard.given:
        problem = Words(
            "warn has no effect beside --hard-fail-on, which alone says what fails the run; "
            "add info to --hard-fail-on to fail on every warning"
        )
        raise InputError(at("--fail-on", problem), field="--fail-on")


@dataclass(frozen=True)
class Gate:
    fail_on: str = "fail"
    """``fail``: failures gate; ``warn``: warnings too."""
    hard: Selector = Selector()
    soft: Selector = Selector()
    report_only: bool = False
    """``--soft-fail``: the run exits 0 whatever gates; the report says what would fail it."""
    pass_unknown: bool = False
    """``--pass-unknown``: a check that cannot tell never fails the run, critical or not."""

    def gates(self, item: CheckItem) -> bool:
        if item.waived or item.status not in ("fail", "warn", "unknown"):
            return False
        if item.status == "unknown" and self.pass_unknown:
            return False
        if item.rule_id in self.hard.rule_ids:
            return True
        if item.rule_id in self.soft.rule_ids:
            return False
        if item.status == "unknown" and item.severity != SEVERITIES[-1]:
            return False
        # The rule IDs were read above: what is left of each option to select by is its severity.
        if self.hard.selects(item.rule_id, item.severity, at_or_above=True):
            return True
        if self.soft.selects(item.rule_id, item.severity, at_or_above=False):
            return False
        if self.hard.given:
            return item.waiver_refused and item.status == "fail"
        return item.status in ("fail", "unknown") or self.fail_on == "warn"

    def failed(self, results: Iterable[CheckResult]) -> bool:
        return any(self.gates_any(result) for result in results)

    def gates_any(self, result: CheckResult) -> bool:
        """Some check of one proposal fails the run (its header says so where only warnings do)."""
        return any(self.gates(item) for item in result.results)


def unwaived(result: CheckResult, unwaivable: Selector) -> CheckResult:
    """The result with the proposal's waivers of the rules ``--unwaivable`` names (by ID, or at or above
    the severity named) refused: each such result is kept with its waiver shown, counts as not waived,
    and the status and counts are worked out again. The proposal's author writes its waivers, the
    pipeline's owner this option."""
    if not unwaivable.given:
        return result

    def refused(item: CheckItem) -> bool:
        return item.waived and unwaivable.selects(item.rule_id, item.severity, at_or_above=True)

    if not any(refused(item) for item in result.results):
        return result
    items = tuple(
        item.model_copy(update={"waived": False, "waiver_refused": True}) if refused(item) else item
        for item in result.results
    )
    return result.model_copy(update={"results": items, "status": overall(items), "counts": counts(items)})


def refuse_unwaivable_conflicts(
    unwaivable: Selector, soft: Selector, skip: Selector, severities: Mapping[str, str]
) -> None:
    """A rule both ``--unwaivable`` and ``--soft-fail-on`` or ``--skip-rule`` select, by ID or severity
    (``severities``: each rule's), is refused: the waiver refused would still never fail the run, or the
    rule not be checked at all."""
    refused = selected(unwaivable, severities, at_or_above=True)
    for option, other in (("--soft-fail-on", soft), ("--skip-rule", skip)):
        both = sorted(refused & selected(other, severities, at_or_above=False))
        if both:
            problem = Words(
                "%(rules)s named by both --unwaivable and %(option)s; name each rule in one of them",
                rules=", ".join(both),
                option=option,
            )
            raise InputError(at("--unwaivable", problem), field="--unwaivable")


def selected(named: Selector, severities: Mapping[str, str], *, at_or_above: bool) -> set[str]:
    """The rules of ``severities`` (each rule's) an option selects (``Selector.selects``)."""
    return {
        rule_id
        for rule_id, severity in severities.items()
        if named.selects(rule_id, severity, at_or_above=at_or_above)
    }


def skipped(result: CheckResult, skip: Selector) -> CheckResult:
    """The result without the checks ``--skip-rule`` names (by ID, or by severity at or below the one
    named), its status and counts worked out again."""
    if not skip.given:
        return result

    items = tuple(
        item for item in result.results if not skip.selects(item.rule_id, item.severity, at_or_above=False)
    )
    return result.model_copy(update={"results": items, "status": overall(items), "counts": counts(items)})


def overall(items: Sequence[CheckItem]) -> Status:
    """fail if a check failed (waived ones do not count), else unknown if a critical check cannot tell (it
    fails the run by default, a warning does not), else warn, else unknown, else pass."""
    counted = [item for item in items if not item.waived]
    statuses = [item.status for item in counted]
    if "fail" in statuses:
        return "fail"
    if any(item.status == "unknown" and item.severity == SEVERITIES[-1] for item in counted):
        return "unknown"
    order: tuple[Status, ...] = ("warn", "unknown")
    return next((status for status in order if status in statuses), "pass")


def counts(items: Sequence[CheckItem]) -> dict[str, int]:
    """Results by status, a waived result under ``waived`` only."""
    by_status = {
        status: sum(item.status == status and not item.waived for item in items)
        for status in ("pass", "warn", "fail", "unknown")
    }
    return {**by_status, "waived": sum(item.waived for item in items)}
