"""gpu-advisor: explainable decisions on how to run LLM inference, traced to their sources."""

__version__ = "0.1.0"
