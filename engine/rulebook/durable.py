"""The one module that talks to durable-rules.

Rule declarations are compiled into durable-rules' native JSON form (rule names are our rule IDs, so the
DSL's process-wide registry is never touched) and loaded into durable-rules' C engine, which matches
facts against them (its Rete network) and hands back the rules that fired, one at a time, in its
agenda order.

This module drives the C engine (``durable_rules_engine``, the extension module every durable-rules
install builds) directly instead of through ``durable.engine.Host``. The host's Python layer exists
for asynchronous actions, timers and statecharts, none of which an evaluation uses: for every fired
rule it decoded and re-encoded the session state as JSON and built closure objects, which took most of
an evaluation's engine time, and it started two timer threads that raced with synchronous calls. The
calls used here are the ones that layer makes; durable-rules is pinned to the version they were read
from (2.0.28).

Measured traps of durable-rules 2.0.28 this module avoids:

- a ruleset holds at most 1,024 live sessions: each evaluation uses a fresh session and deletes it;
- asserting a fact no rule matches still creates the session, and deleting a session that never
  stored a fact crashes the process: every session first asserts a marker fact that an internal rule
  matches, so it can always be deleted;
- ``post`` consumes events: facts are only ever asserted;
- a fact asserted twice in one session is kept once and fires nothing the second time: reported as an
  engine error (the facts of one evaluation all differ, so it would be a bug);
- ``none()`` is not truth-maintained: "no rule concluded X" is decided in Python after the run;
- comparisons with missing or mistyped properties misfire: facts are complete pydantic models;
- the engine is not safe to share between threads: a lock serializes evaluations.

Thresholds are compiled into the rules as numbers. An engine built with ``sent_with_facts`` compares with
those thresholds as every fact of a session carries them instead (``compiler.sent_with_the_fact``): a
scenario run draws a threshold in each scenario, and one engine serves every drawn value
(``with_thresholds``), where compiling a ruleset per value would cost milliseconds a scenario.

Every rule matches one fact, so the rules that fire after an assert are about the fact just asserted:
a firing carries that fact as it was sent.

On Python 3.13 and later the C engine refers to ``PyEval_CallObject``, which 3.13 removed: the package's
own extension ``_durable_compat`` (``durable_compat.c``, built only there) defines it and is loaded into
the process's global symbol scope before the engine (``load_c_engine``). The engine calls it only from
the host's callbacks, which this module never registers.

"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import itertools
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType, ModuleType
from typing import Any, NamedTuple, Protocol

from pydantic_core import to_json

from gpu_advisor.engine.common.caching import per_object
from gpu_advisor.engine.common.errors import EngineError
from gpu_advisor.engine.rulebook.compiler import (
    APPLICABILITY_SUFFIX,
    SENT_PREFIX,
    compile_rulebook,
    sent_with_the_fact,
)
from gpu_advisor.engine.rulebook.facts import Fact, engine_number
from gpu_advisor.engine.rulebook.schema import Rulebook

RULESET_NAME = "gpu_advisor"


SESSION_RULE = "session-open"
"""Internal rule matching the marker fact that opens every session; not part of the rulebook."""


class Firing(NamedTuple):
    """One rule that fired on one fact, in firing order (a named tuple: about twenty per evaluation).

    For a proposal check, ``applicability`` marks the firing that only says the check applies; the
    check's own firing says the proposal violates it."""

    rule_id: str
    fact: Mapping[str, Any]
    applicability: bool = False


class FactSession(Protocol):
    def assert_fact(self, fact: Fact, workload: Fact | None = None) -> list[Firing]:
        """Assert ``fact`` (with ``workload``, the workload's facts, where the fact is about the
        workload) and return the rules it fired, in firing order."""
        ...


class Evaluator(Protocol):
    """Anything that evaluates the rulebook over facts: the durable-rules engine here, or the tests'
    plain-Python reference evaluator that reads the same declarations."""

    def session(self) -> contextlib.AbstractContextManager[FactSession]: ...


def _encode(payload: dict[str, Any]) -> str:
    """A fact as JSON text, non-ASCII text kept as it is (the C engine compares the bytes it is
    given). pydantic's serializer writes a flat fact three times faster than the json module; numbers
    come out as ``engine_number`` left them, without an exponent."""
    return to_json(payload).decode()


SHARED_FACTS_KEPT_ENCODED = 1024
"""Shared facts kept with their JSON text: the GPU-fit facts of about a hundred model sizings."""


def fact_payload(fact: Fact, workload: Fact | None) -> dict[str, Any]:
    """What a rule on ``fact`` reads: its fields, and the workload's facts where it is about the workload."""
    if fact.about_workload != (workload is not None):
        raise TypeError(
            f"{fact.__class__.__name__} is asserted with the workload's facts where it is about the workload"
        )
    return fact.payload() if workload is None else {**workload.payload(), **fact.payload()}


def _as_sent(fact: Fact, workload: Fact | None = None) -> tuple[str, Mapping[str, Any]]:
    """A fact as the engine reads it (JSON text without the session ID) and as its firings show it."""
    payload = fact_payload(fact, workload)
    return _encode(payload), MappingProxyType(payload)


_shared_as_sent = per_object(entries=SHARED_FACTS_KEPT_ENCODED)(_as_sent)
"""``_as_sent`` worked out once per shared fact object; its firings share the read-only payload."""


_RULES_OK, _NOT_HANDLED = 0, 1
"""Result codes an assert returns (durable-rules' ``rules.h``): taken, or matched by no rule. It also
returns 2 (this very fact was asserted before in the session: kept once, nothing fires) and 3 (deferred),
which facts that all differ never meet, so they are reported as errors; every other code raises
``durable_rules_engine.error``."""


def fired_rule_name(message: str, known: Mapping[str, object]) -> str:
    """The rule name of one fired action as the C engine serializes it, ``{"<rule>":{"m":{...}}}``;
    it must be one of the ``known`` names."""
    end = message.find('"', 2) if message.startswith('{"') else -1
    name = message[2:end] if end > 2 else None
    if name is None or name not in known:
        raise EngineError(f"rules engine returned an action it could not name: {message[:80]!r}")
    return name


COMPAT_MODULE = "gpu_advisor.engine.rulebook._durable_compat"
"""The extension that defines ``PyEval_CallObject`` on Python 3.13+ (``durable_compat.c``)."""


def load_c_engine() -> ModuleType:
    """durable-rules' C engine; on Python 3.13+ after the compatibility extension, loaded with
    ``RTLD_GLOBAL`` so that the engine's reference to ``PyEval_CallObject`` resolves to it."""
    if sys.version_info >= (3, 13):
        import ctypes

        spec = importlib.util.find_spec(COMPAT_MODULE)
        if spec is None or not spec.origin or not spec.has_location:
            raise EngineError(
                f"{COMPAT_MODULE} is missing: on Python 3.13 and later gpu-advisor builds it at install "
                "(a C compiler is needed, as for durable-rules); reinstall gpu-advisor"
            )
        # dlopen of a library already loaded only widens its scope to global, so this is safe to repeat.
        ctypes.CDLL(spec.origin, mode=os.RTLD_GLOBAL)
    return importlib.import_module("durable_rules_engine")


class RulesEngine:
    """A compiled rulebook in durable-rules' C engine. Build once per process; reuse for every call."""

    def __init__(
        self,
        rulebook: Rulebook,
        thresholds: Mapping[str, float],
        sent_with_facts: frozenset[str] = frozenset(),
    ) -> None:
        """``sent_with_facts``: thresholds that every session is given values for (``with_thresholds``)
        and whose rules compare with them as each fact carries them."""
        self._c: Any = load_c_engine()
        # Re-entrant: a stage may open a session of its own inside another (the GPU-fit facts' within an
        # evaluation's); sessions stay isolated by their IDs, and threads still take turns.
        self._lock = threading.RLock()
        self._sessions = itertools.count(1)
        self.sent_with_facts = sent_with_facts
        definition = compile_rulebook(
            rulebook,
            {key: sent_with_the_fact(key) if key in sent_with_facts else v for key, v in thresholds.items()},
        )
        definition[SESSION_RULE] = {"all": [{"m": {"kind": SESSION_RULE}}]}
        # Engine rule name -> (rule ID, whether the firing only marks a proposal check as applicable).
        self._rule_names = {
            name: (name.removesuffix(APPLICABILITY_SUFFIX), name.endswith(APPLICABILITY_SUFFIX))
            for name in definition
        }
        self._handle = self._c.create_ruleset(RULESET_NAME, json.dumps(definition, ensure_ascii=False))

    def __del__(self, _finalizing: Callable[[], bool] = sys.is_finalizing) -> None:
        """Free the C engine's ruleset once nothing refers to this engine (a policy engine dropped from
        its bounded cache); no session can be open then, since a session holds the engine. At
        interpreter exit the process frees everything (and module globals may be gone): nothing to do."""
        handle = getattr(self, "_handle", None)
        if handle is None or _finalizing():
            return
        self._handle = None
        try:
            self._c.delete_ruleset(handle)
        except Exception:  # a destructor must not raise
            return

    @contextmanager
    def session(self, thresholds: Mapping[str, float] | None = None) -> Iterator[Session]:
        """A fresh engine session, deleted afterwards; evaluations are serialized across threads.
        ``thresholds``: a value for each threshold the engine reads from the facts, and only those."""
        given = dict(thresholds or {})
        if set(given) != self.sent_with_facts:
            raise EngineError(
                f"rules engine expects values for {sorted(self.sent_with_facts)}, was given {sorted(given)}"
            )
        # Every fact of the session carries them: after its own fields, in key order.
        carried = "".join(
            f",{_encode({SENT_PREFIX + key: engine_number(value)})[1:-1]}"
            for key, value in sorted(given.items())
        )
        with self._lock:
            sid = str(next(self._sessions))
            self._send(_encode({"sid": sid, "kind": SESSION_RULE}), SESSION_RULE)
            try:
                yield Session(self, sid, carried)
            finally:
                self._c.delete_state(self._handle, sid)

    def with_thresholds(self, values: Mapping[str, float]) -> ThresholdsGiven:
        """This engine as an evaluator whose sessions give the thresholds it reads from the facts
        ``values``."""
        return ThresholdsGiven(self, values)

    def _assert(self, sid: str, fact: Fact, workload: Fact | None, carried: str = "") -> list[Firing]:
        if fact.shared_between_evaluations:
            text, fact_seen = _shared_as_sent(fact)
        else:
            text, fact_seen = _as_sent(fact, workload)
        # The session ID goes first: the rest of the text is the same in every session.
        body = f"{text[1:-1]}{carried}}}" if carried else text[1:]
        names = self._send(f'{{"sid":"{sid}",{body}', fact_seen["kind"])
        firings = []
        for name in names:
            rule_id, applicability = self._rule_names[name]
            if rule_id != SESSION_RULE:
                firings.append(Firing(rule_id, fact_seen, applicability))
        return firings

    def _send(self, text: str, kind: str) -> list[str]:
        """Assert one fact (JSON text) and run the engine's agenda: the names of the rules that fired,
        in order."""
        try:
            code, state = self._c.assert_fact(self._handle, text)
            if code == _NOT_HANDLED:
                return []
            if code != _RULES_OK:
                raise EngineError(
                    f"rules engine did not take a {kind} fact (result code {code}): "
                    "was the same fact asserted twice in one evaluation?"
                )
            names = []
            action = self._c.start_action_for_state(self._handle, state)
            message = action[1] if action else None
            while message:
                names.append(fired_rule_name(message, self._rule_names))
                message = self._c.complete_and_start_action(self._handle, state)
        except self._c.error as error:
            raise EngineError(f"rules engine failed while evaluating {kind} facts: {error}") from None
        return names


class Session:
    """Asserts facts into one engine session and returns the firings each assert caused."""

    def __init__(self, engine: RulesEngine, sid: str, carried: str = "") -> None:
        self._engine = engine
        self._sid = sid
        self._carried = carried
        """The thresholds every fact carries, as JSON members (``RulesEngine.session``)."""

    def assert_fact(self, fact: Fact, workload: Fact | None = None) -> list[Firing]:
        return self._engine._assert(self._sid, fact, workload, self._carried)


class ThresholdsGiven:
    """An engine built with thresholds sent with the facts, and values for them: an ``Evaluator`` (a
    scenario's, with its drawn thresholds)."""

    def __init__(self, engine: RulesEngine, values: Mapping[str, float]) -> None:
        self._engine = engine
        self._values = dict(values)

    def session(self) -> contextlib.AbstractContextManager[Session]:
        return self._engine.session(self._values)
