"""``POST /recommend`` evaluated in the service's pool of worker processes (``serve --processes N``): the
same answers as the library, refused input answered as in the server's own process, and a worker killed
from outside costs no request."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from helpers import EVALUATED_ON, EXAMPLES_DIR
from web_pages import free_port, served_process

from gpu_advisor.api import recommend
from gpu_advisor.engine.commands.serve import available_cpus
from gpu_advisor.engine.common.errors import InputError

AS_OF = {"as_of": EVALUATED_ON.isoformat()}
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))


def spawned(pid: int) -> list[int]:
    """The live worker processes ``pid`` spawned (Linux /proc): its pool's and the large-body reader; not
    multiprocessing's resource tracker, nor a killed worker not yet reaped."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            # The command name is in parentheses and may hold spaces: the state and the parent's ID follow.
            state, parent = stat.rsplit(")", 1)[1].split()[:2]
            if int(parent) == pid and state != "Z" and b"spawn_main" in command:
                found.append(int(entry.name))
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    log = tmp_path_factory.mktemp("pool") / "server.log"
    with served_process(log, "--processes", "2") as (url, process):
        yield url, process.pid


def body(path: Path) -> dict[str, object]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_pool_runs_beside_the_server(server: tuple[str, int]) -> None:
    # The large-body reader and two evaluation workers.
    assert len(spawned(server[1])) == 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_worker_answers_as_the_library_does(server: tuple[str, int], path: Path) -> None:
    response = httpx.post(f"{server[0]}/recommend", params=AS_OF, json=body(path), timeout=60)
    assert response.status_code == 200, response.text
    assert response.json() == recommend(body(path), evaluated_on=EVALUATED_ON).model_dump(mode="json")


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"context_tokens": 1_000_000}, ["body", "context_tokens"]),
        (
            {"model": {"name": "llama-3.1-8b", "precision": "fp8", "params_b": 70}},
            ["body", "model", "params_b"],
        ),
    ],
)
def test_input_the_engine_refuses_is_a_422_naming_the_field(
    server: tuple[str, int], change: dict[str, object], loc: list[str]
) -> None:
    """Refused by the engine in the worker (the body itself is valid), answered as the server's own
    process answers it."""
    workload = {**body(EXAMPLES_DIR / "public-chat.yaml"), **change}
    with pytest.raises(InputError) as refused:
        recommend(workload, evaluated_on=EVALUATED_ON)
    response = httpx.post(f"{server[0]}/recommend", params=AS_OF, json=workload, timeout=60)
    assert response.status_code == 422, response.text
    assert response.json() == {"detail": [{"loc": loc, "msg": str(refused.value), "type": "value_error"}]}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_worker_costs_no_request(server: tuple[str, int]) -> None:
    url, pid = server
    before = spawned(pid)
    for worker in before:
        # Killing one breaks the pool: its manager may stop and reap the others before the loop reaches
        # them (ProcessLookupError), and gone is what the kill is for.
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)
    time.sleep(0.5)
    workload = body(EXAMPLES_DIR / "prototype.yaml")
    expected = recommend(workload, evaluated_on=EVALUATED_ON).model_dump(mode="json")
    first = httpx.post(f"{url}/recommend", params=AS_OF, json=workload, timeout=120)
    assert first.status_code == 200, first.text
    assert first.json() == expected
    # The pool was replaced: later requests are answered by new workers.
    second = httpx.post(f"{url}/recommend", params=AS_OF, json=workload, timeout=120)
    assert second.json() == expected
    assert set(spawned(pid)).isdisjoint(before)


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [("max 100000\n", None), ("200000 100000\n", 2), ("150000 100000\n", 2), ("50000 100000\n", 1)],
)
def test_a_containers_cpu_quota_caps_the_processes(
    tmp_path: Path, cpu_max: str, expected: int | None
) -> None:
    quota = tmp_path / "cpu.max"
    quota.write_text(cpu_max, encoding="ascii")
    cpus = len(os.sched_getaffinity(0))
    assert available_cpus(quota) == (cpus if expected is None else min(cpus, expected))
    assert available_cpus(tmp_path / "absent") == cpus


@pytest.mark.parametrize(
    ("options", "processes"), [([], None), (["--workers", "2"], 0), (["--processes", "3"], 3)]
)
def test_serve_starts_the_pool_with_one_server_process_only(
    monkeypatch: pytest.MonkeyPatch, options: list[str], processes: int | None
) -> None:
    """Without --processes: one per CPU with --workers 1, none with several server processes (each would
    start its own pool)."""
    import uvicorn
    from click.testing import CliRunner
    from uvicorn.supervisors import Multiprocess

    from gpu_advisor.engine.commands import serve as serve_module
    from gpu_advisor.engine.commands.http_settings import limits

    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    monkeypatch.setattr(Multiprocess, "run", lambda self: None)
    monkeypatch.setattr(serve_module, "available_cpus", lambda: 5)
    monkeypatch.setenv("GPU_ADVISOR_SERVE_LIMITS", "{}")
    for name, value in dataclasses.asdict(limits).items():  # serve sets them for this process: restore them
        monkeypatch.setattr(limits, name, value)
    result = CliRunner().invoke(serve_module.serve, ["--port", str(free_port()), *options])
    assert result.exit_code == 0, result.output
    assert limits.processes == (5 if processes is None else processes)
