"""Machine formats of check results: SARIF 2.1.0 for code-scanning tools and JUnit XML for CI reports.

The message texts come from the rules' templates; these functions only arrange them in each format's
structure.

"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence

from gpu_advisor import __version__
from gpu_advisor.engine.domain.proposal import CheckItem, CheckResult
from gpu_advisor.engine.rulebook.schema import Rulebook

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


SARIF_LEVELS = {"fail": "error", "warn": "warning", "unknown": "note", "pass": "none"}


INFORMATION_URI = "https://pypi.org/project/gpu-advisor/"


def sarif(results: Sequence[CheckResult], rulebook: Rulebook) -> str:
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
        sarif_result(result, item, index[item.rule_id])
        for result in results
        for item in result.results
        if item.status != "pass"
    ]
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "gpu-advisor",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": descriptors,
                    }
                },
                "results": sarif_results,
            }
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def sarif_result(result: CheckResult, item: CheckItem, rule_index: int) -> dict[str, object]:
    entry: dict[str, object] = {
        "ruleId": item.rule_id,
        "ruleIndex": rule_index,
        "level": SARIF_LEVELS[item.status],
        "kind": "review" if item.status == "unknown" else "fail",
        "message": {"text": f"{result.name}: {item.message}"},
        "locations": [
            {
                "physicalLocation": {"artifactLocation": {"uri": result.file}, "region": {"startLine": 1}},
                "logicalLocations": [{"name": result.name, "kind": "object"}],
            }
        ],
        "properties": {
            "proposal": result.index,
            "evidence": item.evidence,
            "knowledge": list(item.knowledge),
        },
    }
    if item.waived:
        entry["suppressions"] = [{"kind": "external", "justification": item.waiver_reason}]
    return entry


def junit(results: Sequence[CheckResult]) -> str:
    suites = ElementTree.Element("testsuites", name="gpu-advisor check")
    for result in results:
        failures = sum(item.status == "fail" and not item.waived for item in result.results)
        skipped = sum(item.status == "unknown" or item.waived for item in result.results)
        suite = ElementTree.SubElement(
            suites,
            "testsuite",
            name=f"{result.file} #{result.index} {result.name}",
            tests=str(len(result.results)),
            failures=str(failures),
            errors="0",
            skipped=str(skipped),
        )
        for item in result.results:
            case = ElementTree.SubElement(
                suite, "testcase", classname=f"gpu-advisor.{item.topic}", name=f"{item.rule_id} {item.title}"
            )
            if item.waived:
                ElementTree.SubElement(case, "skipped", message=f"waived: {item.waiver_reason}")
            elif item.status == "fail":
                failure = ElementTree.SubElement(case, "failure", message=item.message, type=item.rule_id)
                failure.text = f"{item.message}\nSource: {item.source}"
            elif item.status == "unknown":
                ElementTree.SubElement(case, "skipped", message=item.message)
            elif item.status == "warn":
                output = ElementTree.SubElement(case, "system-out")
                output.text = f"warning: {item.message}"
    ElementTree.indent(suites)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"
    )
