"""The base of every result model: frozen, no extra fields. Field names are a contract with other tools."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

RESULT_SCHEMA_VERSION = 1


class ResultModel(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, protected_namespaces=())
