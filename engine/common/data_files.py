"""Reading the shipped data files (knowledge base, rules, translations, questionnaire) and policy files:
YAML under the same schema and value rules as user input (``yaml_core.py``: the YAML 1.2 core schema,
keys given once, numbers finite and in range), parsed with libyaml where PyYAML has it; every failure a
``KnowledgeError`` naming the file, the field and the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gpu_advisor.engine.common import yaml_core
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.common.values import ValueProblem


def read_yaml(path: Path, *, aliases: bool = True) -> Any:
    """A data file, parsed; ``aliases=False`` refuses anchors and aliases (an organization's policy: a
    few nested aliases can expand into billions of values)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise KnowledgeError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise KnowledgeError(f"{path}: not UTF-8 text ({error})") from None
    return parse_yaml(text, str(path), aliases=aliases)


def parse_yaml(text: str, origin: str, *, aliases: bool = True) -> Any:
    """Data file text, parsed; ``origin`` names it in errors."""
    try:
        return yaml_core.build(yaml_core.compose(text, data_file=True), aliases=aliases)
    except yaml.YAMLError as error:
        raise KnowledgeError(f"{origin}: not valid YAML ({yaml_core.yaml_problem(error)})") from None
    except ValueProblem as problem:
        line = "" if problem.line is None else f":{problem.line}"
        raise KnowledgeError(f"{origin}{line}: {problem}") from None
    except RecursionError:
        raise KnowledgeError(f"{origin}: nested too deeply") from None
