"""``docker run ... openpolicyagent/conftest test`` for the workflow test: conftest's evaluation of Rego
policies on JSON files, by the regopy interpreter (no image is pulled). Arguments as the workflow gives
them: ``run --rm --volume DIR:/project IMAGE test --all-namespaces --policy DIR [--data DIR] FILE...``.
Output and exit code as conftest's: ``WARN - file - namespace - message`` and ``FAIL - ...`` lines, exit
1 when a policy denies.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import regopy
import yaml


def main(args: list[str]) -> int:
    assert args[:2] == ["run", "--rm"] and args[2] == "--volume", args
    project = Path(args[3].rsplit(":/project", 1)[0])
    assert args[4].startswith("openpolicyagent/conftest:v") and args[5] == "test", args
    if args[6] != "--all-namespaces":
        raise SystemExit(f"expected --all-namespaces: {args}")
    rest = args[7:]
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
                    print(f"{label} - {file} - {namespace} - {message}")
                    failed = failed or kind == "deny"
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
