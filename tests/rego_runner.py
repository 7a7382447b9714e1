"""``conftest test`` for the pipeline tests: conftest's evaluation of Rego policies on JSON files, by the
regopy interpreter (no image is pulled, no binary downloaded). Arguments as the pipelines give them:
``test --all-namespaces --policy DIR [--data DIR] [--output junit] FILE...`` (GitLab's conftest image), or
the same after ``run --rm --volume DIR:/project IMAGE`` (``docker run`` in the GitHub workflow). Output
and exit code as conftest's: ``WARN - file - namespace - message`` and ``FAIL - ...`` lines, exit 1 when a
policy denies; ``--output junit`` writes one test case per message.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import regopy
import yaml


def main(args: list[str]) -> int:
    project = Path.cwd()
    if args[0] == "run":  # docker run --rm --volume DIR:/project IMAGE test ...
        if args[1:3] != ["--rm", "--volume"] or not args[4].startswith("openpolicyagent/conftest:v"):
            raise SystemExit(f"not a conftest container: {args}")
        project = Path(args[3].rsplit(":/project", 1)[0])
        args = args[5:]
    if args[:2] != ["test", "--all-namespaces"]:
        raise SystemExit(f"expected test --all-namespaces: {args}")
    rest = args[2:]
    options: dict[str, str] = {}
    while rest[0].startswith("--"):
        name = rest.pop(0)
        options[name] = rest.pop(0)
    policies = sorted((project / options["--policy"]).glob("*.rego"))
    data: dict[str, object] = {}
    if "--data" in options:
        for path in sorted((project / options["--data"]).glob("*.y*ml")):
            data.update(yaml.safe_load(path.read_text(encoding="utf-8")))
    failed = False
    cases = []
    for file in rest:
        rego = regopy.Interpreter()
        rego.add_data(data)
        namespaces = []
        for path in policies:
            text = path.read_text(encoding="utf-8")
            rego.add_module(path.name, text)
            namespaces.append(re.search(r"^package (\S+)", text, re.MULTILINE).group(1))
        rego.set_input_term((project / file).read_text(encoding="utf-8"))
        for namespace in namespaces:
            output = rego.query(f"data.{namespace}")
            assert output.ok(), output
            document = output[0].expressions[0]
            for kind, label in (("warn", "WARN"), ("deny", "FAIL")):
                for message in sorted(document.get(kind, [])):
                    cases.append((label, file, namespace, message))
                    failed = failed or kind == "deny"
    if options.get("--output") == "junit":
        suite = ElementTree.Element("testsuite", name="conftest", tests=str(len(cases)))
        for label, file, namespace, message in cases:
            case = ElementTree.SubElement(suite, "testcase", classname=namespace, name=f"{file} - {message}")
            if label == "FAIL":
                ElementTree.SubElement(case, "failure", message=message)
        print(ElementTree.tostring(suite, encoding="unicode"))
    else:
        for label, file, namespace, message in cases:
            print(f"{label} - {file} - {namespace} - {message}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
