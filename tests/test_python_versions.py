"""gpu-advisor on Python 3.13 and later, where durable-rules 2.0.28's C engine refers to
``PyEval_CallObject``, a function 3.13 removed (engine/rulebook/durable_compat.c provides it)."""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
import subprocess
import sys
from typing import Any

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import load_workload
from gpu_advisor.engine.rulebook import durable
from gpu_advisor.engine.rulebook.durable import COMPAT_MODULE, RulesEngine
from gpu_advisor.engine.rulebook.loading import load_rulebook

NEEDS_COMPAT = sys.version_info >= (3, 13)
only_313 = pytest.mark.skipif(not NEEDS_COMPAT, reason="Python 3.12 and earlier have PyEval_CallObject")


class Recorder:
    """durable-rules' C engine, recording the names of the functions called on it."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.called: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.called.add(name)
        return getattr(self._engine, name)


def test_the_adapter_never_registers_a_callback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C engine calls PyEval_CallObject only from the host's store and queue callbacks; compiled on
    3.13 without its declaration, it would read the result as a C int. An evaluation must not reach them."""
    recorder = Recorder(durable.load_c_engine())
    monkeypatch.setattr(durable, "load_c_engine", lambda: recorder)
    rulebook = load_rulebook()
    engine = RulesEngine(rulebook, rulebook.threshold_values(load_knowledge()))
    result = recommend(load_workload(str(EXAMPLES_DIR / "public-chat.yaml")), EVALUATED_ON, engine)
    assert result.fired_rules
    assert {"create_ruleset", "assert_fact", "start_action_for_state", "delete_state"} <= recorder.called
    assert [name for name in recorder.called if "callback" in name] == []


def test_the_compatibility_extension_is_built_exactly_where_it_is_needed() -> None:
    found = importlib.util.find_spec(COMPAT_MODULE)
    assert (found is not None) == NEEDS_COMPAT


@only_313
def test_the_removed_function_is_provided_globally_and_behaves_as_before() -> None:
    durable.load_c_engine()
    compat = importlib.import_module(COMPAT_MODULE)
    assert compat.call_object(divmod, (7, 2)) == (3, 1)
    assert compat.call_object(dict) == {}  # no arguments: NULL
    with pytest.raises(TypeError, match="argument list must be a tuple"):
        compat.call_object(divmod, [7, 2])
    # Loaded with RTLD_GLOBAL: the process's global scope, where the engine's reference is resolved.
    assert ctypes.CDLL(None).PyEval_CallObject


@only_313
def test_the_engine_imports_only_after_the_extension() -> None:
    """Without the extension durable-rules cannot be loaded on 3.13: the error the issue reports."""
    plain = subprocess.run(
        [sys.executable, "-c", "import durable_rules_engine"], capture_output=True, text=True, check=False
    )
    assert plain.returncode == 1
    assert "undefined symbol: PyEval_CallObject" in plain.stderr
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "from gpu_advisor.engine.rulebook.durable import load_c_engine; print(load_c_engine().__name__)",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (loaded.returncode, loaded.stdout) == (0, "durable_rules_engine\n"), loaded.stderr
