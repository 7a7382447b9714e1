"""SARIF 2.1.0 of check results, for code-scanning tools (GitHub code scanning, GitLab, IDEs).

Each result sits at the line of its own proposal in its file, so that two proposals of one file are two
places in a pull request's diff. The tool's ``informationUri`` is the README of the repository this
installation of gpu-advisor came from, read from the installation's ``direct_url.json`` (PEP 610, which
pip writes for a git URL or a path): a pinned git URL on GitHub or GitLab gives the README at that
commit, a path the README in that checkout. An installation that does not say where it came from gives
no ``informationUri`` (it is optional), rather than a page that may not exist.
"""

from __future__ import annotations

import importlib.metadata
import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from gpu_advisor import __version__
from gpu_advisor.engine.apps.check.gating import Gate
from gpu_advisor.engine.domain.proposal import CheckItem, CheckResult
from gpu_advisor.engine.rulebook.schema import Rulebook

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


SARIF_LEVELS = {"fail": "error", "warn": "warning", "unknown": "none", "pass": "none"}
"""SARIF 2.1.0 (3.27.10): a result whose kind is not "fail" has level "none"."""
SARIF_KINDS = {"pass": "pass", "unknown": "review"}
"""A result's kind: passed, to be reviewed (the check cannot tell), else failed (a failure or warning)."""


README_SECTION = "README.md#checking-a-proposal"


def documentation_uri(direct_url: dict[str, Any]) -> str | None:
    """The README section on checks in the repository an installation came from (its PEP 610 record)."""
    url = direct_url.get("url")
    if not isinstance(url, str):
        return None
    if url.startswith("file://"):
        return f"{url.rstrip('/')}/{README_SECTION}" if "dir_info" in direct_url else None
    vcs = direct_url.get("vcs_info")
    parts = urlsplit(url)
    if not isinstance(vcs, dict) or vcs.get("vcs") != "git" or parts.scheme != "https" or parts.username:
        return None
    repository = url.removesuffix("/").removesuffix(".git")
    commit = vcs.get("commit_id")
    if not isinstance(commit, str):
        return repository
    if parts.hostname == "github.com":
        return f"{repository}/blob/{commit}/{README_SECTION}"
    if parts.hostname == "gitlab.com":
        return f"{repository}/-/blob/{commit}/{README_SECTION}"
    return repository


def information_uri() -> str | None:
    try:
        text = importlib.metadata.distribution("gpu-advisor").read_text("direct_url.json")
        return documentation_uri(json.loads(text)) if text else None
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None


def sarif(results: Sequence[CheckResult], rulebook: Rulebook, gate: Gate | None = None) -> str:
    gate = gate or Gate()
    used = sorted({item.rule_id for result in results for item in result.results})
    rules = [rulebook.rule(rule_id) for rule_id in used]
    descriptors = [
        {
            "id": rule.id,
            "name": rule.name,
            "shortDescription": {"text": rule.title},
            "fullDescription": {"text": " ".join(rule.rationale.split())},
            "defaultConfiguration": {"level": SARIF_LEVELS[rule.then.verdict or "warn"]},
            "properties": {
                "topic": rule.topic,
                "severity": rule.severity,
                "origin": rulebook.origin(rule.id),
            },
        }
        for rule in rules
    ]
    index = {rule.id: position for position, rule in enumerate(rules)}
    sarif_results = [
        sarif_result(result, item, index[item.rule_id], gate.gates(item))
        for result in results
        for item in result.results
        if item.status != "pass"
    ]
    driver: dict[str, object] = {"name": "gpu-advisor", "version": __version__}
    uri = information_uri()
    if uri is not None:
        driver["informationUri"] = uri
    driver["rules"] = descriptors
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": sarif_results}],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def sarif_result(result: CheckResult, item: CheckItem, rule_index: int, gates: bool) -> dict[str, object]:
    region = {"startLine": result.line}
    entry: dict[str, object] = {
        "ruleId": item.rule_id,
        "ruleIndex": rule_index,
        "level": SARIF_LEVELS[item.status],
        "kind": SARIF_KINDS.get(item.status, "fail"),
        "message": {"text": f"{result.name}: {item.message}"},
        "locations": [
            {
                "physicalLocation": {"artifactLocation": {"uri": result.file}, "region": region},
                "logicalLocations": [{"name": result.name, "kind": "object"}],
            }
        ],
        "properties": {
            "proposal": result.index,
            "gates": gates,
            "evidence": item.evidence,
            "knowledge": list(item.knowledge),
        },
    }
    if item.waived or item.waiver_refused:
        justification = item.waiver_reason or ""
        if item.waiver_owner:
            justification += f" (owner: {item.waiver_owner})"
        if item.waiver_until:
            justification += f" (until {item.waiver_until.isoformat()})"
        suppression = {"kind": "external", "justification": justification}
        if item.waiver_refused:
            # --unwaivable: the waiver is shown, and the pipeline's owner has rejected it.
            suppression["status"] = "rejected"
        entry["suppressions"] = [suppression]
    return entry
