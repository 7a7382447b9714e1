"""Fuzz every command with malformed input: no traceback, and every exit code in {0, 1, 2, 3}.

    python benchmarks/fuzz.py                # 10,000 inputs (minutes)
    python benchmarks/fuzz.py --n 500        # a quick run
    python benchmarks/fuzz.py --record       # also write the result into benchmarks/README.md

Inputs are mutations of real ones (the example workloads, a proposal, an overrides file, a batch in CSV,
JSON Lines and YAML, price catalogs in the three import formats, a policy) with the values the issue
found to break readers: impossible dates, YAML 1.1 forms, tagged values, huge and non-finite numbers,
long hex, anchors, duplicate keys, lone surrogates, bytes that are not UTF-8, cut-off files, lines
removed and repeated. Each goes through the command that reads it in-process (click's test runner), and
each JSON mutation also as an HTTP body (FastAPI's test client). The generator is seeded: the same N gives
the same inputs.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from readme_record import record_between

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
IMPORTS = REPO / "tests" / "catalog_imports"
AS_OF = "2026-11-30"
RECORD_START = "<!-- fuzz run: written by fuzz.py --record -->"
RECORD_END = "<!-- end of fuzz run -->"

# fmt: off
NASTY = [
    "2026-02-30", "!!bool maybe", "!!int ''", "!!float x", "1" * 4301, "0x" + "f" * 4000, ".inf", "-.inf",
    ".nan", "NaN", "1e308", "1e400", "1e-400", "-1", "0", "05000", "010", "1:23:20", "1:30", "on", "off",
    "NO", "yes", "~", "null", "''", '""', "[]", "{}", "[", "{", "&a x", "*a",
    "!!python/object/apply:os.system ['x']", "!!binary aGk=", "!!timestamp 2026-01-01", "'\\ud800'",
    '"\\ud800"', "\t", "- x", "? x", "|", ">", "9" * 30, "-9" * 10, "1.5", "true", "True", "TRUE",
    '=HYPERLINK("x")', "\u202e", "\x00", "é" * 50,
]
"""Values that broke, or might break, a reader; put in place of a value."""

JSON_JUNK: list[Any] = [
    None, True, False, 0, -1, 1e308, 2**70, -(2**70), "", "x" * 10_000, [], {}, [[[[]]]], {"a": {"b": {}}},
    "2026-02-30", "NaN", 1.5, "\ud83d\ude00", {"0": 1}, [None] * 30,
]
# fmt: on


def mutate_text(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        if not lines:
            lines = [""]
        index = rng.randrange(len(lines))
        line = lines[index]
        if kind <= 3 and ":" in line:
            head = line.split(":", 1)[0]
            lines[index] = f"{head}: {rng.choice(NASTY)}"
        elif kind <= 3 and "," in line:
            cells = line.split(",")
            cells[rng.randrange(len(cells))] = rng.choice(NASTY).replace(",", ";")
            lines[index] = ",".join(cells)
        elif kind == 4:
            del lines[index]
        elif kind == 5:
            lines.insert(index, line)
        elif kind == 6:
            lines.insert(
                index, f"{rng.choice(['extra', 'nmae', 'model', 'offers', '0'])}: {rng.choice(NASTY)}"
            )
        elif kind == 7:
            cut = rng.randrange(len(line) + 1)
            lines[index] = line[:cut]
        else:
            lines[index] = line + rng.choice(["", " #", "\x00", "\udcff", "\ufeff", " &x", " *x", "\r"])
    result = "\n".join(lines) + "\n"
    if rng.random() < 0.05:
        result = result[: rng.randrange(len(result) + 1)]
    return result


def mutate_json(value: Any, rng: random.Random, depth: int = 0) -> Any:
    if isinstance(value, dict) and value and depth < 4:
        copy = dict(value)
        key = rng.choice(list(copy))
        choice = rng.randrange(5)
        if choice == 0:
            del copy[key]
        elif choice == 1:
            copy[rng.choice(["extra", "nmae", key + "_", "0"])] = rng.choice(JSON_JUNK)
        elif choice == 2:
            copy[key] = rng.choice(JSON_JUNK)
        else:
            copy[key] = mutate_json(copy[key], rng, depth + 1)
        return copy
    if isinstance(value, list) and value and depth < 4:
        copy = list(value)
        index = rng.randrange(len(copy))
        copy[index] = mutate_json(copy[index], rng, depth + 1)
        return copy
    return rng.choice(JSON_JUNK)


def to_bytes(text: str, rng: random.Random) -> bytes:
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.05 and data:
        position = rng.randrange(len(data))
        data = data[:position] + bytes([rng.choice([0xFF, 0xC3, 0x80, 0x00])]) + data[position:]
    return data


def seeds() -> dict[str, str]:
    import yaml

    workloads = {p.stem: p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.yaml"))}
    public = yaml.safe_load(workloads["public-chat"])
    proposal = yaml.safe_dump(
        {
            "workload": public,
            "proposal": {
                "deployment": "dedicated_cloud",
                "provider": "runpod",
                "offer": "community",
                "gpu": "h100-pcie",
                "gpus": 2,
                "pricing": "on_demand",
                "region": "EU",
            },
            "waivers": [{"rule": "DEP016", "reason": "benchmark first"}],
        },
        sort_keys=False,
    )
    overrides = (
        "own_server:\n  price_usd: 250000\n  depreciation_years: 4\n  usd_per_kwh: 0.2\n"
        "exchange_rate: {usd_per_eur: 1.08}\n"
        "offers:\n  - {provider: runpod, offer: community, gpu: h100-pcie, usd_per_gpu_hour: 1.5}\n"
    )
    batch_csv = (
        "name,model.name,model.params_b,model.precision,requests_per_day,personal_data,load_pattern\n"
        "public-chat,llama-3.1-70b,,fp8,1000000,false,steady\nprototype,,8,bf16,500,,\n"
    )
    lines = [json.dumps(yaml.safe_load(text)) for text in workloads.values()]
    policy = (EXAMPLES / "org-policy" / "budget.yaml").read_text(encoding="utf-8")
    return {
        **{f"workload:{name}": text for name, text in workloads.items()},
        "proposal": proposal,
        "overrides": overrides,
        "batch.csv": batch_csv,
        "batch.jsonl": "\n".join(lines[:3]) + "\n",
        "batch.yaml": "".join(
            "- " + text.rstrip().replace("\n", "\n  ") + "\n" for text in list(workloads.values())[:3]
        ),
        "import.csv": (IMPORTS / "rates.csv").read_text(encoding="utf-8"),
        "import.skypilot": (IMPORTS / "skypilot" / "runpod" / "vms.csv").read_text(encoding="utf-8"),
        "import.gpuhunt": (IMPORTS / "gpuhunt" / "lambdalabs.csv").read_text(encoding="utf-8"),
        "policy": policy,
    }


def commands_for(kind: str, path: Path, workdir: Path, rng: random.Random) -> list[list[str]]:
    """The command lines that read an input of ``kind`` at ``path``."""
    p = str(path)
    out = str(workdir / f"out-{rng.randrange(10**9)}")
    if kind.startswith("workload"):
        choices = [
            ["recommend", p, "--format", "json", "--as-of", AS_OF],
            ["recommend", p, "--lang", "de", "--currency", "EUR", "--as-of", AS_OF, "-o", out],
            ["sweep", p, "--vary", "avg_output_tokens=100:300:100", "--as-of", AS_OF],
            ["ask", "--from", p, "--save", out, "--memo", out + ".md"],
        ]
        return [rng.choice(choices)]
    if kind == "proposal":
        return [
            [
                "check",
                p,
                "--format",
                rng.choice(["text", "json", "sarif", "junit", "markdown"]),
                "--as-of",
                AS_OF,
            ]
        ]
    if kind == "overrides":
        workload = str(EXAMPLES / "public-chat.yaml")
        return [
            rng.choice(
                [
                    ["recommend", workload, "--overrides", p, "--format", "json", "--as-of", AS_OF],
                    ["catalog", "diff", "--builtin", p],
                    [
                        "sweep",
                        workload,
                        "--overrides",
                        p,
                        "--vary",
                        "price:runpod/community/h100-pcie=1:2:1",
                        "--as-of",
                        AS_OF,
                    ],
                ]
            )
        ]
    if kind.startswith("batch"):
        return [["batch", p, "--jobs", "1", "--format", rng.choice(["csv", "jsonl"]), "--as-of", AS_OF]]
    if kind.startswith("import"):
        fmt = kind.split(".")[1]
        return [["catalog", "import", p, "--format", fmt, "--provider", "runpod", "-o", out + ".yaml"]]
    if kind == "policy":
        return [
            ["rules", "--policy", str(path.parent)],
            ["check", str(workdir / "good-proposal.yaml"), "--policy", str(path.parent), "--as-of", AS_OF],
        ]
    raise ValueError(kind)


ARGUMENT_JUNK = ["-1", "0", "nan", "inf", "1e308", "abc", "", "9" * 40, "h100", "llama", "2026-02-30", "de"]


def option_commands(rng: random.Random) -> list[str]:
    """A command line of the commands that take no file: size, tco, catalog listings, schema, rules show."""
    junk = lambda: rng.choice(ARGUMENT_JUNK)  # noqa: E731
    return rng.choice(
        [
            [
                "size",
                "--params-b",
                junk(),
                "--precision",
                rng.choice(["bf16", "fp8", junk()]),
                "--context-tokens",
                junk(),
            ],
            ["size", "--model", junk(), "--precision", "bf16", "--requests-per-day", junk()],
            [
                "tco",
                "--server-price",
                junk(),
                "--usd-per-kwh",
                junk(),
                "--months",
                junk(),
                "--country",
                junk(),
            ],
            ["tco", "--depreciation-years", junk(), "--gpu-watts", junk(), "--residual", junk()],
            ["catalog", rng.choice(["gpus", "offers", "models", "apis", junk()]), "--gpu", junk()],
            ["schema", rng.choice(["workload", "proposal", junk()])],
            ["rules", "show", junk()],
            [
                "sweep",
                str(EXAMPLES / "prototype.yaml"),
                "--vary",
                f"{rng.choice(['utilization', 'usd_per_kwh', 'x'])}={junk()}:{junk()}:{junk()}",
            ],
            ["recommend", str(EXAMPLES / "prototype.yaml"), "--as-of", junk()],
        ]
    )


def run(n: int, seed: int = 17) -> dict[str, Any]:
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from gpu_advisor.cli import main
    from gpu_advisor.service import create_app

    rng = random.Random(seed)
    sources = seeds()
    kinds = sorted(sources)
    runner = CliRunner()
    exits: collections.Counter[str] = collections.Counter()
    tracebacks: list[str] = []
    per_command: collections.Counter[str] = collections.Counter()
    inputs = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app()) as client:
        workdir = Path(tmp)
        (workdir / "good-proposal.yaml").write_text(sources["proposal"], encoding="utf-8")

        def invoke(args: list[str], label: str) -> None:
            # ask takes every default (the answers of --from); where a question has none, the answers
            # run out and it stops as documented (exit 130 at the end of input, nothing saved).
            result = runner.invoke(main, args, input="\n" * 60 if args[0] == "ask" else "")
            output = result.output + (result.stderr if result.stderr_bytes else "")
            clean = result.exception is None or isinstance(result.exception, SystemExit)
            allowed = (0, 1, 2, 3, 130) if args[0] == "ask" else (0, 1, 2, 3)
            exits[f"ask {result.exit_code}" if args[0] == "ask" else str(result.exit_code)] += 1
            per_command[
                " ".join(args[:2]) if args[0] == "catalog" and args[1] in ("import", "diff") else args[0]
            ] += 1
            if not clean or "Traceback" in output or result.exit_code not in allowed:
                tracebacks.append(f"{label}: {args[:3]} exit {result.exit_code}: {result.exception!r}")

        while inputs < n:
            inputs += 1
            if rng.random() < 0.1:
                invoke(option_commands(rng), "options")
                continue
            kind = rng.choice(kinds)
            text = sources[kind]
            if kind.startswith("workload") and rng.random() < 0.3:
                import yaml

                data = mutate_json(yaml.safe_load(text), rng)
                body = json.dumps(data, allow_nan=True)
                endpoint = rng.choice(["/recommend", "/size", "/tco", "/check"])
                response = client.post(
                    endpoint,
                    content=body,
                    headers={"Content-Type": "application/json"},
                    params={"as_of": AS_OF},
                )
                exits[f"http {response.status_code}"] += 1
                per_command[f"POST {endpoint}"] += 1
                if response.status_code >= 500:
                    tracebacks.append(f"http {endpoint}: {response.status_code} {response.text[:200]}")
                text = body
            else:
                text = mutate_text(text, rng)
            suffix = {"batch.csv": ".csv", "batch.jsonl": ".jsonl", "batch.yaml": ".yaml"}.get(kind, ".yaml")
            if kind.startswith("import"):
                suffix = ".csv"
            folder = workdir / f"in-{inputs}"
            folder.mkdir()
            name = (
                "vms.csv"
                if kind == "import.skypilot"
                else ("lambdalabs.csv" if kind == "import.gpuhunt" else f"input{suffix}")
            )
            path = folder / name
            path.write_bytes(to_bytes(text, rng))
            for args in commands_for(kind, path, workdir, rng):
                invoke(args, kind)
    elapsed = time.perf_counter() - started
    return {
        "inputs": inputs,
        "runs": sum(per_command.values()),
        "seconds": elapsed,
        "exits": dict(sorted(exits.items())),
        "per_command": dict(sorted(per_command.items())),
        "tracebacks": tracebacks,
    }


def table(result: dict[str, Any]) -> str:
    load = os.getloadavg()[0]
    exits = ", ".join(f"{code}: {count:,}" for code, count in result["exits"].items())
    commands = ", ".join(f"{name} {count:,}" for name, count in result["per_command"].items())
    return (
        f"Run on {dt.date.today().isoformat()}, Python {platform.python_version()}, seed 17; load average "
        f"{load:.2f} at the end.\n\n"
        "| Figure | Measured | Target | |\n|---|---|---|---|\n"
        f"| inputs | {result['inputs']:,} ({result['runs']:,} command runs and HTTP requests, "
        f"{result['seconds']:.0f} s) | ≥ 10,000 | {'met' if result['inputs'] >= 10_000 else '**missed**'} |\n"
        f"| tracebacks, exit codes outside 0-3 (ask: 130 where the answers end), HTTP 5xx | "
        f"{len(result['tracebacks'])} | 0 | "
        f"{'met' if not result['tracebacks'] else '**missed**'} |\n"
        f"| exit codes and HTTP statuses | {exits} | (context) | |\n"
        f"| runs per command | {commands} | (context) | |\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=10_000, help="inputs to generate (default 10,000)")
    parser.add_argument("--record", action="store_true", help="write the result into benchmarks/README.md")
    args = parser.parse_args()
    result = run(args.n)
    text = table(result)
    print(text)
    for line in result["tracebacks"][:30]:
        print(line, file=sys.stderr)
    if args.record:
        record_between(RECORD_START, RECORD_END, text)
    sys.exit(1 if result["tracebacks"] else 0)


if __name__ == "__main__":
    main()
