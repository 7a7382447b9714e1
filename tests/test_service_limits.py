"""The service's limits: a bounded 422, header and body timeouts, a connection limit whose refusals are
logged once and briefly, and /readyz. One server with short limits serves every test of this module."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from gpu_advisor.cli import main
from gpu_advisor.engine.commands.http_errors import MAX_CHECKED_MEMBERS, MAX_REPORTED_ERRORS

MAX_CONNECTIONS = 6
TIMEOUT_S = 1.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Path]]:
    port = free_port()
    log_path = tmp_path_factory.mktemp("limits") / "server.log"
    limits = ["--max-connections", str(MAX_CONNECTIONS), "--header-timeout", str(TIMEOUT_S)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gpu_advisor.cli",
                "serve",
                "--port",
                str(port),
                *limits,
                "--body-timeout",
                "1",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{url}/readyz", timeout=1.0).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail(f"the server did not start:\n{log_path.read_text()}")
                time.sleep(0.1)
            yield url, port, log_path
        finally:
            process.terminate()
            process.wait(timeout=10)


def read_all(sock: socket.socket, timeout: float) -> bytes:
    """What the server sends until it closes the connection (or ``timeout`` passes)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data


def test_a_422_lists_at_most_the_cap_and_says_how_many_there_were(server: tuple[str, int, Path]) -> None:
    url, _, _ = server
    body = json.dumps({f"k{i}": 1 for i in range(77_001)})
    assert len(body) > 900_000
    response = httpx.post(
        f"{url}/recommend", content=body, headers={"Content-Type": "application/json"}, timeout=60
    )
    assert response.status_code == 422
    answer = response.json()
    assert len(answer["detail"]) == MAX_REPORTED_ERRORS
    # Of the 77,001 keys the first 1,000 are checked (pydantic would hold the interpreter while it lists
    # 77,004 errors): the object's size, 1,000 unknown keys and the three required fields missing.
    assert answer["detail"][0] == {
        "loc": ["body"],
        "msg": f"77001 members; no object or list of a request has more than {MAX_CHECKED_MEMBERS}",
        "type": "too_long",
    }
    assert answer["error_count"] == 1 + MAX_CHECKED_MEMBERS + 3
    assert answer["note"] == (
        f"only the first {MAX_REPORTED_ERRORS} of {MAX_CHECKED_MEMBERS + 4} problems are listed; "
        f"body has 77001 members; the first {MAX_CHECKED_MEMBERS} were checked"
    )
    assert len(response.content) < 30_000
    small = httpx.post(f"{url}/recommend", json={"name": "x"}, timeout=10).json()
    assert "error_count" not in small and len(small["detail"]) == 2


def body_cut_short(port: int, path: bytes, content_type: bytes, first: bytes) -> bytes:
    """The answer to a POST that declares 100 bytes of body and sends only ``first``."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        head = b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Type: " + content_type + b"\r\n"
        sock.sendall(head + b"Content-Length: 100\r\n\r\n" + first)
        return read_all(sock, 10)


def test_slow_or_idle_clients_are_cut_off_and_logged_once(server: tuple[str, int, Path]) -> None:
    url, port, log_path = server
    started = time.monotonic()
    with (
        socket.create_connection(("127.0.0.1", port)) as slow,
        socket.create_connection(("127.0.0.1", port)) as idle,
    ):
        slow.sendall(b"POST /recommend HTTP/1.1\r\nHost: x\r\n")  # and never the rest
        answers = read_all(slow, 10), read_all(idle, 10)
    assert time.monotonic() - started < 8
    for answer in answers:
        assert answer.startswith(b"HTTP/1.1 408 "), answer
    answer = body_cut_short(port, b"/size", b"application/json", b"{")
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert b"request body not complete within 1 s" in answer
    # The web page's upload gets its page back, saying so in its language.
    page = body_cut_short(port, b"/load?lang=de", b"multipart/form-data; boundary=b", b"--b")
    assert page.startswith(b"HTTP/1.1 408 "), page
    assert b"Die Datei ist nicht innerhalb von 1 Sekunden angekommen: Senden Sie sie erneut." in page
    log = log_path.read_text(encoding="utf-8")
    assert log.count("no complete request headers within 1 s") == 2
    assert log.count("body not complete within 1 s") == 2
    assert "Traceback" not in log
    assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200


def test_connections_beyond_the_limit_are_refused_with_503(server: tuple[str, int, Path]) -> None:
    url, port, log_path = server
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port)) as extra:
            answer = read_all(extra, 5)
        assert answer.startswith(b"HTTP/1.1 503 "), answer
        assert b"too many open connections" in answer
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    assert httpx.get(f"{url}/readyz", timeout=5).json() == {"status": "ready", "version": "0.1.0"}
    log = log_path.read_text(encoding="utf-8")
    refusals = [line for line in log.splitlines() if "refused a connection" in line]
    assert len(refusals) == 1 and f"{MAX_CONNECTIONS} connections open" in refusals[0]
    assert "Traceback" not in log


def test_a_list_longer_than_any_request_has_is_refused_by_name(server: tuple[str, int, Path]) -> None:
    url, _, _ = server
    workload = {"name": "w", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 5}
    waivers = [{"rule": f"DEP{i:04d}", "reason": "r"} for i in range(1500)]
    body = {"workload": workload, "proposal": {"deployment": "api"}, "waivers": waivers}
    response = httpx.post(f"{url}/check", json=body, timeout=30)
    assert response.status_code == 422
    assert response.json()["detail"] == [
        {
            "loc": ["body", "waivers"],
            "msg": f"1500 members; no object or list of a request has more than {MAX_CHECKED_MEMBERS}",
            "type": "too_long",
        }
    ]


def descendants(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += [int(child), *descendants(int(child))]
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(("stop", "workers"), [("SIGTERM", "1"), ("SIGKILL", "1"), ("SIGKILL", "2")])
def test_no_process_outlives_the_service(stop: str, workers: str) -> None:
    import signal

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gpu_advisor.cli", "serve", "--port", str(port), "--workers", workers],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1.0).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
    helpers = descendants(process.pid)
    assert helpers  # the worker process for large bodies (and multiprocessing's resource tracker)
    process.send_signal(getattr(signal, stop))
    process.wait(timeout=20)
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in helpers if alive(pid)]


def test_an_address_in_use_is_said_as_the_systems_refusal() -> None:
    """uvicorn exits with 3 where it cannot bind, gpu-advisor's code for a broken knowledge base: the
    command says the service could not start and exits with 5, the system's refusal."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        completed = subprocess.run(
            [sys.executable, "-m", "gpu_advisor.cli", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert completed.returncode == 5
    assert completed.stderr.rstrip().endswith(
        f"error: the service could not start on 127.0.0.1:{port} (uvicorn's message above says why: "
        "an address in use, or one this machine does not have)"
    )
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize("host", ["256.1.1.1", "a..b"])
def test_a_host_the_system_cannot_resolve_is_refused_before_the_server_starts(
    host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The resolver's own reason follows in brackets. A resolver that answers every name (a wildcard DNS)
    would resolve 256.1.1.1: this machine's answer is stood in for, as glibc gives it."""
    resolve = socket.getaddrinfo

    def refusing(name: str, *args: object, **kwargs: object) -> object:
        if name == "256.1.1.1":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return resolve(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", refusing)
    result = CliRunner().invoke(main, ["serve", "--host", host])
    assert result.exit_code == 2
    said = f"Invalid value for '--host': {host}: not an address or a host name this machine resolves ("
    assert said in result.output
