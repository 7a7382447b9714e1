"""Load test of the HTTP service (``gpu-advisor serve`` with its default limits) against its targets.

    python benchmarks/load.py              # all figures (about three minutes)
    python benchmarks/load.py --n 4000     # fewer mixed requests for the memory figure
    python benchmarks/load.py --record     # also write the table into benchmarks/README.md

(e) 8 concurrent clients POST /recommend (the example workloads in turn, kept-alive connections) while
    100 slow-loris connections are held open: each sends a request line and one header line at a time
    and is reopened whenever the server cuts it off; p50 and p99 of the clients' latency.
(f) GET /healthz every 20 ms while a 990 KB body with 77,001 unknown keys is processed (three in a row):
    the highest and the 99th-percentile latency, and each oversized request's own time and answer size.
(g) resident memory of the server and every process it started (``/proc/PID/status``) after warm-up and
    after N mixed requests (recommend, check, size, tco, rules, healthz, invalid bodies, an oversized 422
    every 500th).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import yaml
from readme_record import record_between

REPO = Path(__file__).resolve().parent.parent
RECORD_START = "<!-- load test: written by load.py --record -->"
RECORD_END = "<!-- end of load test -->"
AS_OF = "2026-11-30"
WORKLOADS = [
    yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((REPO / "examples").glob("*.yaml"))
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Client:
    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def request(
        self, method: str, path: str, body: Any = None, raw: bytes | None = None
    ) -> tuple[int, int, float]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        headers = {"Content-Type": "application/json"} if data is not None else {}
        started = time.perf_counter()
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                payload = response.read()
                return response.status, len(payload), time.perf_counter() - started
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                if attempt:
                    raise
        raise AssertionError("unreachable")


class SlowLoris:
    """``count`` connections that never finish their headers, reopened whenever the server closes one."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.stop = threading.Event()
        self.reopened = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def open(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.sendall(b"POST /recommend HTTP/1.1\r\nHost: x\r\n")
        sock.setblocking(False)
        return sock

    def run(self) -> None:
        sockets = [self.open() for _ in range(self.count)]
        while not self.stop.wait(1.0):
            for index, sock in enumerate(sockets):
                try:
                    if sock.recv(1024) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    try:
                        sock.send(b"X-a: b\r\n")
                        continue
                    except OSError:
                        pass
                except OSError:
                    pass
                sock.close()
                sockets[index] = self.open()
                self.reopened += 1
        for sock in sockets:
            sock.close()


def concurrent_clients(port: int, clients: int, per_client: int) -> list[float]:
    latencies: list[float] = []
    lock = threading.Lock()

    def work(offset: int) -> None:
        client = Client(port)
        mine = []
        for index in range(per_client):
            status, _, seconds = client.request(
                "POST", f"/recommend?as_of={AS_OF}", WORKLOADS[(offset + index) % len(WORKLOADS)]
            )
            assert status == 200, status
            mine.append(seconds)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


OVERSIZED = json.dumps({f"k{i}": 1 for i in range(77_001)}).encode()


def healthz_during_oversized(port: int, rounds: int = 3) -> tuple[list[float], list[tuple[float, int]]]:
    done = threading.Event()
    big: list[tuple[float, int]] = []

    def send_big() -> None:
        client = Client(port)
        for _ in range(rounds):
            status, size, seconds = client.request("POST", "/recommend", raw=OVERSIZED)
            assert status == 422, status
            big.append((seconds, size))
        done.set()

    sender = threading.Thread(target=send_big)
    probe = Client(port)
    latencies = []
    sender.start()
    while not done.is_set():
        status, _, seconds = probe.request("GET", "/healthz")
        assert status == 200
        latencies.append(seconds)
        time.sleep(0.02)
    sender.join()
    return latencies, big


def mixed_requests(port: int, count: int, clients: int = 4) -> None:
    proposal = {"workload": WORKLOADS[0], "proposal": {"deployment": "api"}}
    kinds: list[tuple[str, str, Any, bytes | None]] = [
        ("POST", f"/recommend?as_of={AS_OF}", None, None),
        ("POST", f"/check?as_of={AS_OF}", proposal, None),
        ("POST", "/size", {"model": "llama-3.1-70b", "precision": "fp8"}, None),
        ("POST", "/tco", {"country": "DE"}, None),
        ("GET", "/rules?topic=tco", None, None),
        ("GET", "/healthz", None, None),
        ("POST", "/recommend", {"name": "x", "model": {"name": "nope"}}, None),
        ("POST", "/recommend", None, b'{"name": "x", "utilization": NaN}'),
    ]

    def work(offset: int) -> None:
        client = Client(port)
        for index in range(offset, count, clients):
            if index % 500 == 499:
                client.request("POST", "/recommend", raw=OVERSIZED)
                continue
            method, path, body, raw = kinds[index % len(kinds)]
            if path.startswith("/recommend?"):
                body = WORKLOADS[index % len(WORKLOADS)]
            status, _, _ = client.request(method, path, body, raw)
            assert status < 500, (path, status)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process below it (server workers, evaluation workers, the large-body reader)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += process_tree(int(child))
    return found


def server_rss_mb(pid: int) -> float:
    """The service's resident memory: the server process and every process it started, together."""
    return sum(rss_mb(member) for member in process_tree(pid))


def run(n: int, workers: int = 1, processes: int | None = None) -> str:
    port = free_port()
    log = open(os.devnull, "wb")  # noqa: SIM115 (closed at the end)
    command = [sys.executable, "-m", "gpu_advisor.cli", "serve", "--port", str(port)]
    command += ["--workers", str(workers)]
    pool = [] if processes is None else ["--processes", str(processes)]
    server = subprocess.Popen(
        [*command, *pool],
        stdout=log,
        stderr=log,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if Client(port).request("GET", "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        load_start = os.getloadavg()[0]
        warm = Client(port)
        for workload in WORKLOADS * 5 * workers:
            warm.request("POST", f"/recommend?as_of={AS_OF}", workload)
        rss_before = server_rss_mb(server.pid)
        baseline = concurrent_clients(port, 8, 50)
        loris = SlowLoris(port, 100)
        loris.thread.start()
        time.sleep(2)
        held = concurrent_clients(port, 8, 150)
        health, big = healthz_during_oversized(port)
        loris.stop.set()
        loris.thread.join()
        started = time.perf_counter()
        mixed_requests(port, n)
        mixed_seconds = time.perf_counter() - started
        time.sleep(1)
        rss_after = server_rss_mb(server.pid)
        load_end = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
    ms = 1000
    p50, p99 = statistics.median(held) * ms, percentile(held, 0.99) * ms
    health_max, health_p99 = max(health) * ms, percentile(health, 0.99) * ms
    growth = rss_after - rss_before
    base_p50, base_p99 = statistics.median(baseline) * ms, percentile(baseline, 0.99) * ms
    health_verdict = "met" if health_max < 50 else "**missed**"
    big_text = ", ".join(f"{seconds:.2f} s / {size / 1000:.1f} KB" for seconds, size in big)
    return (
        f"Run on {dt.date.today().isoformat()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()}; `serve --workers {workers}"
        f"{'' if processes is None else f' --processes {processes}'}` (evaluation processes: "
        f"{'one per CPU' if processes is None and workers == 1 else processes or 0}); load average "
        f"{load_start:.2f} at the start and "
        f"{load_end:.2f} at the end.\n\n"
        "| Figure | Measured | Target | |\n|---|---|---|---|\n"
        f"| (e) POST /recommend, 8 clients × 150, 100 slow-loris connections held ({loris.reopened} reopened "
        f"after the header timeout) | p50 {p50:.1f} ms, p99 {p99:.1f} ms | p99 < 100 ms | "
        f"{'met' if p99 < 100 else '**missed**'} |\n"
        f"| (e) the same without slow-loris connections, 8 × 50 | p50 {base_p50:.1f} ms, "
        f"p99 {base_p99:.1f} ms | (context) | |\n"
        f"| (f) GET /healthz while 77,001-key bodies are answered ({len(health)} probes) | highest "
        f"{health_max:.1f} ms, p99 {health_p99:.1f} ms | < 50 ms | {health_verdict} |\n"
        f"| (f) each oversized request: time / 422 answer size | {big_text} | (context) | |\n"
        f"| (g) server RSS after warm-up → after {n:,} mixed requests ({mixed_seconds:.0f} s) | "
        f"{rss_before:.1f} MB → {rss_after:.1f} MB ({growth:+.1f} MB) | within 50 MB | "
        f"{'met' if abs(growth) <= 50 else '**missed**'} |\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=20_000, help="mixed requests for the memory figure")
    parser.add_argument("--workers", type=int, default=1, help="serve --workers (default 1)")
    parser.add_argument("--processes", type=int, default=None, help="serve --processes (default: serve's)")
    parser.add_argument("--record", action="store_true", help="write the table into benchmarks/README.md")
    args = parser.parse_args()
    text = run(args.n, args.workers, args.processes)
    print(text)
    if args.record:
        record_between(RECORD_START, RECORD_END, text)


if __name__ == "__main__":
    main()
