"""``check --compare-to BASE``: the proposals of a change against those of its base branch, as Infracost
compares cost: the monthly cost difference per proposal and in all, and the findings that are new or
fixed.

A proposal is matched to the base's by its file (relative to the directory given, or the one file
against the other) and its name (the proposal's ``name``, else its workload's), the n-th of a name with
the n-th.

The base is read as this version reads it, which may refuse what the base branch's version accepted (a
region no longer offered, a value checked more strictly). A base proposal or file it cannot read is not
an error of the change: its proposal is compared as unchecked (``Comparison.base_error``), so that a
change fixing such a proposal can still be gated on its own checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from gpu_advisor.engine.apps.check.files import (
    looks_like_a_proposal,
    proposal_files,
    proposal_origin,
    raw_documents,
    validated_document,
)
from gpu_advisor.engine.apps.check.gating import Gate
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import read_input_text
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.input_errors import error_text
from gpu_advisor.engine.domain.proposal import CheckResult, Comparison, ProposalDocument

Key = tuple[str, str, int]


@dataclass(frozen=True)
class Unchecked:
    """A base proposal this version cannot check, or a whole base file it cannot read (``index`` 0,
    ``label`` empty), with the error in the reader's language."""

    file: str
    index: int
    label: str
    error: str


BaseEntry = CheckResult | Unchecked
Entry = TypeVar("Entry", CheckResult, BaseEntry)
CheckDocument = Callable[[ProposalDocument, str, int, int], CheckResult]


def base_entries(path: str, check: CheckDocument, lang: str) -> list[BaseEntry]:
    """The base's proposals as ``check`` (file, position, line) judges them, in path order; a proposal
    or file that this version refuses is kept as ``Unchecked`` in its place, each proposal of a file on
    its own. A base that does not exist, or a directory whose files all read but hold nothing meant as a
    proposal (given by mistake), is an input error; a directory without proposal files has none (every
    proposal of the change is added)."""
    if path != "-" and not Path(path).exists():
        # A mistyped base is the user's error, not the base branch's: the comparison would be empty.
        raise InputError(at(path, Words("no such file or directory")))
    found: list[BaseEntry] = []
    meant = unreadable = 0
    for file in proposal_files(path, may_be_empty=True, files_must_read=False):
        try:
            documents = raw_documents(read_input_text(file), file)
        except InputError as error:
            found.append(Unchecked(file, 0, "", said(error, lang)))
            unreadable += 1
            continue
        for index, line, raw in documents:
            meant += looks_like_a_proposal(raw)
            try:
                document = validated_document(raw, proposal_origin(file, index))
                found.append(check(document, file, index, line))
            except InputError as error:
                found.append(Unchecked(file, index, name_of(raw), said(error, lang)))
    if Path(path).is_dir() and found and not meant and not unreadable:
        # A directory given by mistake (a CI workflow's); one base file that is broken on the base branch
        # stays a base this version cannot check.
        problem = Words("no file under it holds a proposal (a mapping with workload and proposal)")
        raise InputError(at(path, problem))
    return found


def name_of(raw: Any) -> str:
    """What a base proposal this version cannot check is matched by: its proposal's name, else its
    workload's, as ``label`` reads a checked one ("" where neither is text)."""
    if not isinstance(raw, dict):
        return ""
    for part in ("proposal", "workload"):
        block = raw.get(part)
        if isinstance(block, dict) and isinstance(block.get("name"), str) and block["name"]:
            return str(block["name"])
    return ""


def said(error: InputError, lang: str) -> str:
    """An error in the reader's language, on one line: a report lists it beside its proposal."""
    return "; ".join(line.strip() for line in error_text(error, lang).splitlines() if line.strip())


def findings(result: CheckResult) -> tuple[str, ...]:
    """The failed and warning checks of a proposal that are not waived, as 'RULE status'."""
    return tuple(
        f"{item.rule_id} {item.status}"
        for item in result.results
        if item.status in ("fail", "warn") and not item.waived
    )


def label(result: BaseEntry) -> str:
    if isinstance(result, Unchecked):
        return result.label
    if result.proposal.name:
        return result.proposal.name
    return result.workload.name if result.workload is not None else result.name


def keyed(results: Sequence[Entry], root: str) -> dict[Key, Entry]:
    """Each result under its file relative to ``root`` (empty for a single file) and name; a base file
    this version cannot read under its file, an empty name and 0, and a base proposal whose name cannot
    be read under its file, an empty name and minus its position in the file."""
    seen: Counter[tuple[str, str]] = Counter()
    by_key: dict[Key, Entry] = {}
    directory = Path(root).is_dir()
    for result in results:
        relative = Path(result.file).relative_to(root).as_posix() if directory else ""
        if isinstance(result, Unchecked) and not result.label:
            by_key[relative, "", -result.index] = result
            continue
        seen[relative, label(result)] += 1
        by_key[relative, label(result), seen[relative, label(result)]] = result
    return by_key


def worth_showing(result: CheckResult, gate: Gate) -> bool:
    """Shown by default: without a comparison, a proposal that did not pass every check; in a
    comparison, one the change added or changed, and one that fails (or has a result that fails the run),
    changed or not."""
    if result.comparison is None:
        return result.status != "pass" or gate.gates_any(result)
    failing = result.status == "fail" or any(gate.gates(item) for item in result.results)
    return failing or result.comparison.change != "unchanged"


def difference(head: float | None, base: float | None) -> float | None:
    if head is None or base is None:
        return None
    return round(head - base, 2)


@dataclass(frozen=True)
class Diff:
    """The head's results, each with its comparison, the base's proposals the head no longer has, and
    those of them this version could not check."""

    results: tuple[CheckResult, ...]
    removed: tuple[CheckResult, ...]
    removed_unchecked: tuple[Unchecked, ...] = ()

    @property
    def counted(self) -> tuple[CheckResult, ...]:
        """The head's proposals priced on both sides (an added one: priced), which the totals add up."""
        return tuple(
            r
            for r in self.results
            if r.comparison is None or r.comparison.usd_per_month_difference is not None
        )

    @property
    def priced(self) -> bool:
        """Any proposal is in the totals: priced on both sides, added with a price or removed with one."""
        return any(r.usd_per_month is not None for r in (*self.counted, *self.removed))

    @property
    def base_usd_per_month(self) -> float:
        return round(
            sum(r.comparison.base_usd_per_month or 0 for r in self.counted if r.comparison)
            + sum(r.usd_per_month or 0 for r in self.removed),
            2,
        )

    @property
    def usd_per_month(self) -> float:
        return round(sum(r.usd_per_month or 0 for r in self.counted), 2)

    @property
    def usd_per_month_difference(self) -> float:
        """The difference over every proposal priced on both sides (an added or removed one: its cost)."""
        changed = sum(
            r.comparison.usd_per_month_difference or 0 for r in self.results if r.comparison is not None
        )
        return round(changed - sum(r.usd_per_month or 0 for r in self.removed), 2)

    @property
    def unpriced(self) -> int:
        """Proposals compared whose difference is not known (one side without a price)."""
        return sum(
            r.comparison is not None
            and r.comparison.change != "not_compared"
            and r.comparison.usd_per_month_difference is None
            for r in self.results
        ) + sum(r.usd_per_month is None for r in self.removed)

    @property
    def not_compared(self) -> int:
        """Proposals whose base this version could not check, the removed ones included."""
        return sum(
            r.comparison is not None and r.comparison.change == "not_compared" for r in self.results
        ) + len(self.removed_unchecked)


def compare(head: Sequence[CheckResult], head_root: str, base: Sequence[BaseEntry], base_root: str) -> Diff:
    if Path(head_root).is_dir() != Path(base_root).is_dir():
        problem = Words("compare a directory with a directory, or a file with a file")
        raise InputError(at(f"--compare-to {base_root}", problem), field="--compare-to")
    heads, bases = keyed(head, head_root), keyed(base, base_root)
    compared = []
    matched: set[Key] = set()
    for key, result in heads.items():
        # By name; a base proposal without a readable name by its position in the file; a base file this
        # version cannot read stands for each of its proposals.
        found = [k for k in (key, (key[0], "", -result.index), (key[0], "", 0)) if k in bases]
        before = bases[found[0]] if found else None
        matched.update(found[:1])
        now = findings(result)
        if isinstance(before, Unchecked):
            comparison = Comparison(
                change="not_compared",
                base_usd_per_month=None,
                usd_per_month_difference=None,
                new_findings=(),
                fixed_findings=(),
                base_error=before.error,
            )
        elif before is None:
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
    files = {key[0] for key in heads}
    gone = [(key, entry) for key, entry in bases.items() if key not in matched]
    removed = tuple(
        # Named where the proposal was, as the change's files are: not under the base's checkout.
        result.model_copy(update={"file": where(head_root, key[0])})
        for key, result in gone
        if isinstance(result, CheckResult)
    )
    unchecked = tuple(
        Unchecked(where(head_root, key[0]), entry.index, entry.label, entry.error)
        for key, entry in gone
        # A file the base cannot read stands for the head's proposals in it, where the head has the file.
        if isinstance(entry, Unchecked) and not (entry.index == 0 and key[0] in files)
    )
    return Diff(tuple(compared), removed, unchecked)


def where(head_root: str, relative: str) -> str:
    return (Path(head_root) / relative).as_posix() if relative else head_root
