"""``check`` on a directory, and ``--compare-to BASE``: every proposal file under a directory, and the
change against its base branch (the monthly cost difference, new and fixed findings, a base this version
cannot check reported as not compared)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_check_pipeline import as_json, invoke, write

# --- directories and comparison ------------------------------------------------------------------------

RUNPOD_SXM = {
    "provider": "runpod",
    "offer": "community",
    "gpu": "h100-sxm",
    "gpus": 2,
    "pricing": "on_demand",
}
AWS = {
    "provider": "aws",
    "offer": "p5-on-demand-2026-09",
    "gpu": "h100-sxm",
    "gpus": 8,
    "pricing": "on_demand",
}


def proposal(name: str, **changes: Any) -> dict[str, Any]:
    return {
        "workload": {
            "name": name,
            "model": {"name": "llama-3.1-70b", "precision": "fp8"},
            "requests_per_day": 20000,
        },
        "proposal": {"deployment": "dedicated_cloud", "region": None, **changes},
    }


def test_a_directory_checks_every_proposal_file_under_it(tmp_path: Path) -> None:
    write(tmp_path / "b.yaml", proposal("two", **AWS, region="us-east-1"))
    write(tmp_path / "a" / "one.yml", proposal("one", **RUNPOD_SXM))
    (tmp_path / "a" / "notes.txt").write_text("not a proposal")
    write(tmp_path / ".drafts" / "draft.yaml", {"not": "read"})
    results = as_json(str(tmp_path))
    assert [(r["file"], r["index"], r["line"]) for r in results] == [
        (f"{tmp_path}/a/one.yml", 1, 1),
        (f"{tmp_path}/b.yaml", 1, 1),
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = invoke(str(empty))
    assert (
        result.exit_code == 2
        and "no proposal file (*.yaml, *.yml, *.json) under the directory" in result.output
    )


@pytest.fixture
def branches(tmp_path: Path) -> tuple[Path, Path]:
    """A base with an AWS proposal, a kept one and one the change removes; the change moves the first to
    RunPod, keeps the second and adds a third."""
    base, head = tmp_path / "base", tmp_path / "head"
    write(base / "chat.yaml", proposal("chat", **AWS, region="us-east-1"))
    write(base / "kept.yaml", proposal("kept", **AWS, region="us-east-1"))
    write(base / "old.yaml", proposal("old", **RUNPOD_SXM))
    write(head / "chat.yaml", proposal("chat", **RUNPOD_SXM))
    write(head / "kept.yaml", proposal("kept", **AWS, region="us-east-1"))
    write(head / "team" / "new.yaml", proposal("new", **RUNPOD_SXM))
    return base, head


# 8 H100 SXM at AWS on demand, $6.88 per GPU-hour for 730 hours: $40,179.20; 2 at RunPod, $2.69: $3,927.40.
AWS_USD, RUNPOD_USD = 6.88 * 8 * 730, 2.69 * 2 * 730


def test_compare_to_reports_the_cost_difference_and_new_and_fixed_findings(
    branches: tuple[Path, Path],
) -> None:
    base, head = branches
    results = {r["workload"]["name"]: r for r in as_json(str(head), "--compare-to", str(base))}
    chat = results["chat"]["comparison"]
    assert chat["change"] == "changed"
    assert chat["base_usd_per_month"] == pytest.approx(AWS_USD)
    assert results["chat"]["usd_per_month"] == pytest.approx(RUNPOD_USD)
    assert chat["usd_per_month_difference"] == pytest.approx(RUNPOD_USD - AWS_USD)
    assert chat["new_findings"] == ["SIZ012 warn"]
    assert chat["fixed_findings"] == []
    assert results["kept"]["comparison"] == {
        "change": "unchanged",
        "base_usd_per_month": pytest.approx(AWS_USD),
        "usd_per_month_difference": 0.0,
        "new_findings": [],
        "fixed_findings": [],
        "base_error": None,
    }
    assert results["new"]["comparison"]["change"] == "added"
    assert results["new"]["comparison"]["usd_per_month_difference"] == pytest.approx(RUNPOD_USD)


def test_compare_to_in_text_shows_only_failures_and_changes(branches: tuple[Path, Path]) -> None:
    base, head = branches
    text = invoke(str(head), "--compare-to", str(base)).output
    # Before: 2 x $40,179.20 + $3,927.40 = $84,286; after: 2 x $3,927.40 + $40,179.20 = $48,034;
    # the difference: -$36,251.80 (chat) + $3,927.40 (new) - $3,927.40 (old) = -$36,252.
    assert text.startswith(f"Compared with {base}: $84,286 -> $48,034 per month (-$36,252).\n")
    assert f"  removed: {head}/old.yaml #1 old (dedicated_cloud) (-$3,927 per month)\n" in text
    assert "  changed: $40,179 -> $3,927 per month (-$36,252); new: SIZ012 warn\n" in text
    assert "  added: $3,927 per month (+$3,927); new: DEP016 warn, DEP033 warn, SIZ012 warn\n" in text
    # kept warns (DEP016) as it did before: unchanged and not failing, so not shown.
    assert "kept (dedicated_cloud)" not in text
    assert text.endswith("1 proposal did not change and does not fail (--show-all lists it).\n")
    assert "kept (dedicated_cloud)" in invoke(str(head), "--compare-to", str(base), "--show-all").output


def test_compare_to_in_markdown(branches: tuple[Path, Path]) -> None:
    base, head = branches
    markdown = invoke(str(head), "--compare-to", str(base), "--format", "markdown").output
    assert markdown.startswith("<!-- gpu-advisor check -->\n## gpu-advisor check\n\n3 proposals checked: ")
    dash = "\N{EN DASH}"
    chat = f"| chat (dedicated_cloud) (`{head}/chat.yaml`) | changed | $40,179 | $3,927 | -$36,252 |"
    assert f"{chat} SIZ012 warn | {dash} |" in markdown
    old = f"| old (dedicated_cloud) (`{head}/old.yaml`) | removed | $3,927 | {dash} | -$3,927 |"
    assert f"{old} {dash} | {dash} |" in markdown
    assert "| **Total** | | **$84,286** | **$48,034** | **-$36,252** | | |" in markdown
    assert "kept (dedicated_cloud)" not in markdown


def test_compare_to_needs_the_same_kind_and_an_existing_base(branches: tuple[Path, Path]) -> None:
    base, head = branches
    mixed = invoke(str(head), "--compare-to", str(base / "chat.yaml"))
    assert (
        mixed.exit_code == 2 and "compare a directory with a directory, or a file with a file" in mixed.output
    )
    empty = base / "none"
    empty.mkdir()
    # A base branch without proposals yet (the CI examples create the directory): all of them are added.
    added = as_json(str(head), "--compare-to", str(empty))
    assert [r["comparison"]["change"] for r in added] == ["added", "added", "added"]
    missing = invoke(str(head), "--compare-to", str(base / "gone"))
    assert missing.exit_code == 2
    assert f"--compare-to: {base}/gone: no such file or directory" in missing.output


def test_a_base_this_version_cannot_check_is_reported_not_compared(branches: tuple[Path, Path]) -> None:
    """The base branch may hold what this version refuses (a region no longer offered, a file broken on
    the base branch): a change that fixes it is compared with the rest, not refused."""
    base, head = branches
    write(base / "chat.yaml", proposal("chat", **AWS, region="mars-1"))
    (base / "kept.yaml").write_text("workload: [", encoding="utf-8")
    write(base / "stale.yaml", proposal("stale", **AWS, region="mars-1"))
    result = invoke(str(head), "--compare-to", str(base), "--format", "json")
    assert result.exit_code == 0, result.output
    results = {r["workload"]["name"]: r for r in json.loads(result.output)}
    region = "proposal.region: unknown value 'mars-1'; allowed: EU, US, eu-central-1, eu-north-1, us-east-1"
    assert results["chat"]["comparison"] == {
        "change": "not_compared",
        "base_usd_per_month": None,
        "usd_per_month_difference": None,
        "new_findings": [],
        "fixed_findings": [],
        "base_error": f"{base}/chat.yaml (proposal 1): {region}",
    }
    assert results["kept"]["comparison"]["change"] == "not_compared"
    assert results["kept"]["comparison"]["base_error"].startswith(f"{base}/kept.yaml: not valid YAML or JSON")
    text = invoke(str(head), "--compare-to", str(base)).output
    # Compared and priced on both sides: only new (+$3,927.40) and old (removed, -$3,927.40); chat, kept
    # and stale are not compared, and not in the totals.
    assert text.startswith(
        f"Compared with {base}: $3,927 -> $3,927 per month ($0); 3 proposals not compared: their base "
        "cannot be checked with this version.\n"
    )
    cannot = "the base's proposal cannot be checked with this version"
    assert f"  not_compared: {cannot} ({base}/chat.yaml (proposal 1): {region})\n" in text
    assert (
        f"  removed: {head}/stale.yaml #1 stale; not compared: {cannot} ({base}/stale.yaml (proposal 1): "
        f"{region})\n"
    ) in text
    markdown = invoke(str(head), "--compare-to", str(base), "--format", "markdown").output
    dash = "\N{EN DASH}"
    row = f"| chat (dedicated_cloud) (`{head}/chat.yaml`) | not_compared | {dash} | $3,927 | {dash} |"
    assert row in markdown
    assert (
        "Not compared, and not in the total: the base's proposal cannot be checked with this version.\n\n"
        f"- chat (dedicated_cloud) (`{head}/chat.yaml`): {base}/chat.yaml (proposal 1): {region}\n"
    ) in markdown


def test_each_proposal_of_a_base_file_is_read_on_its_own(tmp_path: Path) -> None:
    """One proposal of a base file that this version refuses does not hide the others of the file."""
    base, head = tmp_path / "base" / "all.yaml", tmp_path / "head" / "all.yaml"
    write(base, proposal("one", **AWS, region="mars-1"), proposal("two", **RUNPOD_SXM))
    write(head, proposal("one", **AWS, region="us-east-1"), proposal("two", **RUNPOD_SXM))
    results = {r["workload"]["name"]: r["comparison"] for r in as_json(str(head), "--compare-to", str(base))}
    assert results["one"]["change"] == "not_compared"
    assert results["two"]["change"] == "unchanged"
    german = invoke(str(head), "--compare-to", str(base), "--lang", "de").output
    assert "1 Vorschlag nicht verglichen: seine Basis lässt sich mit dieser Version nicht prüfen." in german
    # English keeps the identifier a pipeline greps for; German gets the words.
    said = "  nicht verglichen: der Vorschlag der Basis lässt sich mit dieser Version nicht prüfen ("
    assert said in german


def test_a_base_without_any_proposal_is_a_mistake(tmp_path: Path) -> None:
    """A directory whose files read but hold no proposal (a CI workflow's, say) is not the base branch's
    proposals: comparing with it would call every proposal added and every file removed."""
    head = write(tmp_path / "head" / "chat.yaml", proposal("chat", **RUNPOD_SXM)).parent
    base = tmp_path / "ci"
    base.mkdir()
    (base / "workflow.yml").write_text("name: check\non: [pull_request]\njobs: {}\n", encoding="utf-8")
    result = invoke(str(head), "--compare-to", str(base))
    assert result.exit_code == 2
    assert (
        f"--compare-to: {base}: no file under it holds a proposal (a mapping with workload and proposal)"
        in result.output
    )


def test_a_single_base_file_this_version_cannot_read_is_not_compared(tmp_path: Path) -> None:
    """A base file broken on the base branch (a key misspelt): its change is not compared, not refused."""
    head = write(tmp_path / "head.yaml", proposal("chat", **RUNPOD_SXM))
    base = tmp_path / "base.yaml"
    base.write_text("proposl: {}\n", encoding="utf-8")
    (result,) = as_json(str(head), "--compare-to", str(base))
    assert result["comparison"]["change"] == "not_compared"
    assert result["comparison"]["base_error"].startswith(f"{base} (proposal 1): invalid proposal")


def test_the_change_and_its_base_cannot_both_be_standard_input(tmp_path: Path) -> None:
    result = invoke("-", "--compare-to", "-")
    assert result.exit_code == 2
    assert "--compare-to -: the change and its base cannot both come from standard input" in result.output


def test_a_base_proposal_without_a_readable_name_is_matched_by_its_place(tmp_path: Path) -> None:
    """The second proposal of a base file whose workload is not a mapping: no name to match it by, so
    the head's second proposal of that file is its change, not an addition beside a removal."""
    base, head = tmp_path / "base" / "all.yaml", tmp_path / "head" / "all.yaml"
    write(base, proposal("one", **RUNPOD_SXM), {"workload": "oops", "proposal": {"deployment": "api"}})
    write(head, proposal("one", **RUNPOD_SXM), proposal("two", **RUNPOD_SXM))
    results = {r["workload"]["name"]: r["comparison"] for r in as_json(str(head), "--compare-to", str(base))}
    assert (results["one"]["change"], results["two"]["change"]) == ("unchanged", "not_compared")
    text = invoke(str(head), "--compare-to", str(base)).output
    assert "removed:" not in text


def test_a_comparison_with_nothing_priced_on_both_sides_gives_no_totals(tmp_path: Path) -> None:
    """One proposal, its base not checkable: "$0 -> $0" would read as a proposal that costs nothing."""
    head = write(tmp_path / "head.yaml", proposal("chat", **RUNPOD_SXM))
    base = write(tmp_path / "base.yaml", proposal("chat", **AWS, region="mars-1"))
    text = invoke(str(head), "--compare-to", str(base)).output
    assert text.startswith(
        f"Compared with {base}: no proposal is priced on both sides; 1 proposal not compared: its base "
        "cannot be checked with this version.\n"
    )
    markdown = invoke(str(head), "--compare-to", str(base), "--format", "markdown").output
    dash = "\N{EN DASH}"
    assert f"| **Total** | | {dash} | {dash} | {dash} | | |" in markdown
