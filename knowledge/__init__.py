"""The knowledge base: dated, sourced YAML data files read by ``gpu_advisor.engine.knowledge``."""

from pathlib import Path

KNOWLEDGE_DIR = Path(__file__).resolve().parent
