"""Facts rewritten for the engine and rule messages compiled through the bytecode cache give what
the plain ways give (the engine-side shortcuts of test_fast_paths.py)."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from helpers import EVALUATED_ON, EXAMPLES_DIR, read_example

from gpu_advisor.engine.apps.recommend import recommend
from gpu_advisor.engine.common.errors import EngineError
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.workload import validate_workload
from gpu_advisor.engine.i18n.environment import MessageLoader
from gpu_advisor.engine.rulebook.durable import RulesEngine, fired_rule_name
from gpu_advisor.engine.rulebook.facts import FACT_MODELS, GpuFitFact, _float_fields
from gpu_advisor.engine.rulebook.loading import load_rulebook

# --- facts for the engine -------------------------------------------------------------------------------


def float_typed(annotation: Any) -> bool:
    return annotation is float or float in typing.get_args(annotation)


@pytest.mark.parametrize("kind", sorted(FACT_MODELS))
def test_every_float_field_of_a_fact_is_rewritten_for_the_engine(kind: str) -> None:
    model = FACT_MODELS[kind]
    floats = {name for name, field in model.model_fields.items() if float_typed(field.annotation)}
    assert floats == set(_float_fields(model))


def fact_on(**changes: Any) -> GpuFitFact:
    values: dict[str, Any] = {
        "scenario": "workload",
        "gpu": "h100-sxm",
        "vendor": "nvidia",
        "interconnect": "nvlink",
        "segment": "datacenter",
        "memory_gb": 80.0,
        "weights_gb": 140.0,
        "gpus_for_weights": 2,
        "gpus_with_kv_reserve": 4,
        "multi_card": True,
        "fits": True,
        "needs_two_nodes": False,
        "node_memory_gb": 640.0,
        "native_precision": True,
        "reference_gpus": 4,
        "tensor_parallel": 4,
        "tensor_split_refused": False,
        "tensor_parallel_loadable": 4,
    }
    return GpuFitFact(**{**values, **changes})


def test_a_fact_payload_rewrites_only_numbers_the_engine_cannot_read() -> None:
    payload = fact_on(weights_gb=3e-6, node_memory_gb=2.5e16).payload()
    assert payload["memory_gb"] == 80.0
    assert payload["weights_gb"] == 0.0
    assert payload["node_memory_gb"] == 25_000_000_000_000_000
    assert isinstance(payload["node_memory_gb"], int)
    assert list(payload) == list(GpuFitFact.model_fields)


def test_the_engine_names_the_rules_that_fire_and_an_unknown_name_is_an_engine_error() -> None:
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    with engine.session() as session:
        firings = session.assert_fact(fact_on(interconnect="pcie"))
    assert [f.rule_id for f in firings] == ["NET001"]
    known = {"DEP001": None}
    assert fired_rule_name('{"DEP001":{"m":{"sid": "1"}}}', known) == "DEP001"
    for message in ("[1, 2]", '{"DEP001', '{"XYZ999":{"m":{}}}'):
        with pytest.raises(EngineError, match="could not name"):
            fired_rule_name(message, known)


def test_one_fact_object_asserted_in_many_sessions_fires_alike_and_its_firings_show_the_fact() -> None:
    """The adapter keeps a fact's JSON text with the fact; each session still evaluates it afresh."""
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    fact = fact_on(interconnect="pcie")
    for _ in range(3):
        with engine.session() as session:
            firings = session.assert_fact(fact)
            assert [f.rule_id for f in firings] == ["NET001"]
            assert dict(firings[0].fact) == fact.payload()  # no session ID in it
            assert session.assert_fact(fact_on(interconnect="nvlink")) == []


def test_the_same_fact_twice_in_one_evaluation_is_an_engine_error() -> None:
    engine = RulesEngine(load_rulebook(), load_knowledge().threshold_values())
    with engine.session() as session:
        session.assert_fact(fact_on(interconnect="pcie"))
        with pytest.raises(EngineError, match="same fact asserted twice"):
            session.assert_fact(fact_on(interconnect="pcie"))
    shared = fact_on(interconnect="pcie")
    assert shared.shared_between_evaluations  # its JSON text is kept: the cached path
    with engine.session() as session:
        session.assert_fact(shared)
        with pytest.raises(EngineError, match="same fact asserted twice"):
            session.assert_fact(shared)
    with engine.session() as session:  # the engine goes on
        assert [f.rule_id for f in session.assert_fact(fact_on(interconnect="pcie"))] == ["NET001"]


# --- rule messages through the bytecode cache ----------------------------------------------------------


RUN_EXAMPLE = (
    "import datetime as dt, sys;"
    "from gpu_advisor.engine.apps.recommend import recommend;"
    "from gpu_advisor.engine.domain.workload import load_workload;"
    "recommend(load_workload(sys.argv[1]), dt.date(2026, 11, 30))"
)


def run_example(name: str) -> None:
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", RUN_EXAMPLE, str(EXAMPLES_DIR / f"{name}.yaml")], check=True)


def cache_file(message: str) -> str:
    """Where Jinja's file cache keeps a rule message: named after the template name it is loaded by and
    the environment that compiled it (English text, ``template_cache.compile_fingerprint``)."""
    import hashlib

    from gpu_advisor.engine.i18n.environment import environment
    from gpu_advisor.engine.i18n.template_cache import compile_fingerprint

    name = MessageLoader.PREFIX + hashlib.sha256(message.encode("utf-8")).hexdigest()
    key = f"{name}|{compile_fingerprint(environment('en'))}"
    return f"__jinja2_{hashlib.sha1(key.encode('utf-8')).hexdigest()}.cache"


def test_rule_messages_are_kept_compiled_between_runs(tmp_path: Any, monkeypatch: Any) -> None:
    """A fresh process compiles each fired rule's message once and finds it in the cache the next time."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    run_example("public-chat")
    directory = tmp_path / "gpu-advisor" / "jinja"
    rulebook = load_rulebook()
    fired = recommend(
        validate_workload(read_example(EXAMPLES_DIR / "public-chat.yaml"), "test"), EVALUATED_ON
    ).fired_rules
    expected = {cache_file(rulebook.rule(rule_id).message) for rule_id in fired}
    assert expected <= {path.name for path in directory.iterdir()}
    stamps = {path.name: path.stat().st_mtime_ns for path in directory.iterdir()}
    run_example("public-chat")
    assert {path.name: path.stat().st_mtime_ns for path in directory.iterdir()} == stamps


def test_a_cache_directory_gone_after_start_up_costs_a_compile_not_the_run(
    tmp_path: Any, monkeypatch: Any
) -> None:
    import shutil
    import subprocess
    import sys

    # Worked out before the cache directory is redirected: this process's own templates, compiled into
    # it, would leave the directory the run is to find removed.
    expected = recommend(
        validate_workload(read_example(EXAMPLES_DIR / "deepseek-on-premises.yaml"), "test"), EVALUATED_ON
    )
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    script = (
        "import datetime as dt, shutil, sys;"
        "from gpu_advisor.engine.apps.recommend import recommend;"
        "from gpu_advisor.engine.domain.workload import load_workload;"
        "recommend(load_workload(sys.argv[1]), dt.date(2026, 11, 30));"
        "shutil.rmtree(sys.argv[3]);"
        "print(len(recommend(load_workload(sys.argv[2]), dt.date(2026, 11, 30)).findings))"
    )
    directory = tmp_path / "gpu-advisor"
    paths = [str(EXAMPLES_DIR / "prototype.yaml"), str(EXAMPLES_DIR / "deepseek-on-premises.yaml")]
    done = subprocess.run(
        [sys.executable, "-c", script, *paths, str(directory)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(expected.findings)
    assert not directory.exists()
    shutil.rmtree(tmp_path)
