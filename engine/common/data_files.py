"""Reading the shipped data files (knowledge base, rules, translations, questionnaire) and policy files:
safe YAML, parsed with libyaml where PyYAML has it; every failure a ``KnowledgeError`` naming the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gpu_advisor.engine.common.errors import KnowledgeError

SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it: the knowledge base and the rules are read at every
start, and the C loader reads them several times faster than the pure-Python one."""


def read_yaml(path: Path) -> Any:
    """A data file, parsed."""
    try:
        text = path.read_bytes()
    except OSError as error:
        raise KnowledgeError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        return yaml.load(text.decode("utf-8"), Loader=SAFE_LOADER)
    except UnicodeDecodeError as error:
        raise KnowledgeError(f"{path}: not UTF-8 text ({error})") from None
    except yaml.YAMLError as error:
        raise KnowledgeError(f"{path}: not valid YAML ({error})") from None
