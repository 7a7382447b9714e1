"""JUnit XML of check results, for CI test reports (SARIF: ``sarif.py``).

The message texts come from the rules' templates; these functions only arrange them in the format's
structure. A result that gates the pipeline (``Gate``: a failure, a warning under ``--fail-on warn``,
what ``--hard-fail-on`` names, a critical rule's unknown, a waived one ``--unwaivable`` names) is a
``failure``, so that the report shows what failed the job; a warning that does not gate is written to the
test case's ``system-out``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence

from gpu_advisor.engine.apps.check.gating import Gate
from gpu_advisor.engine.domain.proposal import CheckResult


def junit(results: Sequence[CheckResult], gate: Gate | None = None) -> str:
    gate = gate or Gate()
    suites = ElementTree.Element("testsuites", name="gpu-advisor check")
    for result in results:
        failures = sum(gate.gates(item) for item in result.results)
        skipped = sum(
            (item.status == "unknown" or item.waived) and not gate.gates(item) for item in result.results
        )
        suite = ElementTree.SubElement(
            suites,
            "testsuite",
            name=f"{result.file}:{result.line} #{result.index} {result.name}",
            tests=str(len(result.results)),
            failures=str(failures),
            errors="0",
            skipped=str(skipped),
        )
        for item in result.results:
            case = ElementTree.SubElement(
                suite, "testcase", classname=f"gpu-advisor.{item.topic}", name=f"{item.rule_id} {item.title}"
            )
            if gate.gates(item):
                failure = ElementTree.SubElement(case, "failure", message=item.message, type=item.rule_id)
                waived = (
                    f" (waiver refused by --unwaivable: {item.waiver_reason})" if item.waiver_refused else ""
                )
                failure.text = f"{item.status}{waived}: {item.message}\nSource: {item.source}"
            elif item.waived:
                ElementTree.SubElement(case, "skipped", message=f"waived: {item.waiver_reason}")
            elif item.status == "unknown":
                ElementTree.SubElement(case, "skipped", message=item.message)
            elif item.status in ("fail", "warn"):
                output = ElementTree.SubElement(case, "system-out")
                output.text = f"{item.status} (does not fail the run): {item.message}"
    ElementTree.indent(suites)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"
    )
