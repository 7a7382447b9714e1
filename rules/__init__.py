"""The rule catalog: one YAML file per family, read in this explicit order (no globbing, no import side
effects). Catalog order is also the engine's firing order for rules of equal priority."""

from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent

RULE_FILES: tuple[str, ...] = (
    "deployment.yaml",
    "residency.yaml",
    "pricing.yaml",
    "interconnect.yaml",
    "sizing.yaml",
    "latency.yaml",
    "tco.yaml",
    "provider.yaml",
    "optimization.yaml",
    "export_control.yaml",
    "knowledge.yaml",
    "robustness.yaml",
)
