"""``check --compare-to BASE``: the proposals of a change against those of its base branch, as Infracost
compares cost: the monthly cost difference per proposal and in all, and the findings that are new or
fixed.

A proposal is matched to the base's by its file (relative to the directory given, or the one file
against the other) and its name (the proposal's ``name``, else its workload's), the n-th of a name with
the n-th.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gpu_advisor.engine.apps.check.gating import Gate
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.proposal import CheckResult, Comparison

Key = tuple[str, str, int]


def findings(result: CheckResult) -> tuple[str, ...]:
    """The failed and warning checks of a proposal that are not waived, as 'RULE status'."""
    return tuple(
        f"{item.rule_id} {item.status}"
        for item in result.results
        if item.status in ("fail", "warn") and not item.waived
    )


def label(result: CheckResult) -> str:
    if result.proposal.name:
        return result.proposal.name
    return result.workload.name if result.workload is not None else result.name


def keyed(results: Sequence[CheckResult], root: str) -> dict[Key, CheckResult]:
    """Each result under its file relative to ``root`` (empty for a single file) and name."""
    seen: Counter[tuple[str, str]] = Counter()
    by_key: dict[Key, CheckResult] = {}
    directory = Path(root).is_dir()
    for result in results:
        relative = Path(result.file).relative_to(root).as_posix() if directory else ""
        seen[relative, label(result)] += 1
        by_key[relative, label(result), seen[relative, label(result)]] = result
    return by_key


def worth_showing(result: CheckResult, gate: Gate) -> bool:
    """Shown by default: without a comparison, a proposal that did not pass every check; in a
    comparison, one the change added or changed, and one that fails (or has a result that fails the run),
    changed or not."""
    if result.comparison is None:
        return result.status != "pass"
    failing = result.status == "fail" or any(gate.gates(item) for item in result.results)
    return failing or result.comparison.change != "unchanged"


def difference(head: float | None, base: float | None) -> float | None:
    if head is None or base is None:
        return None
    return round(head - base, 2)


@dataclass(frozen=True)
class Diff:
    """The head's results, each with its comparison, and the base's proposals the head no longer has."""

    results: tuple[CheckResult, ...]
    removed: tuple[CheckResult, ...]

    @property
    def base_usd_per_month(self) -> float:
        return round(
            sum(r.comparison.base_usd_per_month or 0 for r in self.results if r.comparison)
            + sum(r.usd_per_month or 0 for r in self.removed),
            2,
        )

    @property
    def usd_per_month(self) -> float:
        return round(sum(r.usd_per_month or 0 for r in self.results), 2)

    @property
    def usd_per_month_difference(self) -> float:
        """The difference over every proposal priced on both sides (an added or removed one: its cost)."""
        changed = sum(
            r.comparison.usd_per_month_difference or 0 for r in self.results if r.comparison is not None
        )
        return round(changed - sum(r.usd_per_month or 0 for r in self.removed), 2)

    @property
    def unpriced(self) -> int:
        """Proposals whose difference is not known (one side without a price)."""
        return sum(
            r.comparison is not None and r.comparison.usd_per_month_difference is None for r in self.results
        ) + sum(r.usd_per_month is None for r in self.removed)


def compare(head: Sequence[CheckResult], head_root: str, base: Sequence[CheckResult], base_root: str) -> Diff:
    if Path(head_root).is_dir() != Path(base_root).is_dir():
        problem = Words("compare a directory with a directory, or a file with a file")
        raise InputError(at(f"--compare-to {base_root}", problem), field="--compare-to")
    heads, bases = keyed(head, head_root), keyed(base, base_root)
    compared = []
    for key, result in heads.items():
        before = bases.get(key)
        now = findings(result)
        if before is None:
            comparison = Comparison(
                change="added",
                base_usd_per_month=None,
                usd_per_month_difference=result.usd_per_month,
                new_findings=now,
                fixed_findings=(),
            )
        else:
            then = findings(before)
            cost = difference(result.usd_per_month, before.usd_per_month)
            same = (result.proposal, result.workload, now, result.usd_per_month) == (
                before.proposal,
                before.workload,
                then,
                before.usd_per_month,
            )
            comparison = Comparison(
                change="unchanged" if same else "changed",
                base_usd_per_month=before.usd_per_month,
                usd_per_month_difference=cost,
                new_findings=tuple(f for f in now if f not in then),
                fixed_findings=tuple(f for f in then if f not in now),
            )
        compared.append(result.model_copy(update={"comparison": comparison}))
    removed = tuple(
        # Named where the proposal was, as the change's files are: not under the base's checkout.
        result.model_copy(update={"file": (Path(head_root) / key[0]).as_posix() if key[0] else head_root})
        for key, result in bases.items()
        if key not in heads
    )
    return Diff(tuple(compared), removed)
