"""Jinja templates for every text gpu-advisor writes: the memo, and the text views of size and tco."""

from pathlib import Path

TEMPLATES_DIR = Path(__file__).resolve().parent
