"""``size --gpu ID`` answers about that GPU: its row, and only the findings about it or about no GPU in
particular (the other GPUs' NET001 or SIZ004 are not its business)."""

from __future__ import annotations

from gpu_advisor.engine.apps.size import size
from gpu_advisor.engine.domain.requests import SizeRequest


def test_one_gpu_gets_its_own_findings_only() -> None:
    every = size(SizeRequest.model_validate({"model": "llama-3.3-70b", "precision": "fp8"}))
    subjects = {f.subject for f in every.findings}
    assert {"l40s", "a10g"} <= subjects
    l40s = size(SizeRequest.model_validate({"model": "llama-3.3-70b", "precision": "fp8", "gpu": "l40s"}))
    assert [g.gpu for g in l40s.gpus] == ["l40s"]
    assert {f.subject for f in l40s.findings} <= {"l40s", None}
    assert [f.rule_id for f in l40s.findings if f.subject == "l40s"] == [
        f.rule_id for f in every.findings if f.subject == "l40s"
    ]
    h100 = size(SizeRequest.model_validate({"model": "llama-3.3-70b", "precision": "fp8", "gpu": "h100-sxm"}))
    assert all(f.subject in ("h100-sxm", None) for f in h100.findings)
