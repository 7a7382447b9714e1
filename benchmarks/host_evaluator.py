"""The rules through durable-rules' public Python API (``durable.engine.Host``), for the benchmark only.

gpu-advisor's adapter (``engine/rulebook/durable.py``) calls the C extension the Host wraps directly.
This evaluator shows what the public API would cost instead: the same compiled rulebook, a Host whose
timer threads never start (``_run`` does nothing: the timers race with synchronous calls, see
../shared notes), and an action per rule that records its firing. ``bench.py`` times a recommendation
with it beside the default engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from durable.engine import Host, MessageNotHandledException

from gpu_advisor.engine.rulebook.compiler import APPLICABILITY_SUFFIX, compile_rulebook
from gpu_advisor.engine.rulebook.durable import Firing, fact_payload
from gpu_advisor.engine.rulebook.schema import Rulebook

RULESET = "gpu_advisor_host"
OPEN = "session-open"


class QuietHost(Host):  # type: ignore[misc]
    def _run(self) -> None:
        """No timer threads: evaluations are synchronous."""


class HostEvaluator:
    def __init__(self, rulebook: Rulebook, thresholds: dict[str, float]) -> None:
        definition = compile_rulebook(rulebook, thresholds)
        definition[OPEN] = {"all": [{"m": {"kind": OPEN}}]}
        self._fired: list[str] = []
        for name, rule in definition.items():
            rule["run"] = self._recorder(name)
        self._host = QuietHost({RULESET: definition})
        self._sessions = itertools.count(1)

    def _recorder(self, name: str) -> Any:
        def action(closure: Any) -> None:
            self._fired.append(name)

        return action

    @contextmanager
    def session(self) -> Iterator[HostSession]:
        sid = str(next(self._sessions))
        self._host.assert_fact(RULESET, {"sid": sid, "kind": OPEN})
        try:
            yield HostSession(self, sid)
        finally:
            self._host.delete_state(RULESET, sid)


class HostSession:
    def __init__(self, evaluator: HostEvaluator, sid: str) -> None:
        self._evaluator = evaluator
        self._sid = sid

    def assert_fact(self, fact: Any, workload: Any = None) -> list[Firing]:
        payload = fact_payload(fact, workload)
        evaluator = self._evaluator
        evaluator._fired.clear()
        try:
            evaluator._host.assert_fact(RULESET, {"sid": self._sid, **payload})
        except MessageNotHandledException:
            return []
        return [
            Firing(name.removesuffix(APPLICABILITY_SUFFIX), payload, name.endswith(APPLICABILITY_SUFFIX))
            for name in evaluator._fired
            if name != OPEN
        ]
