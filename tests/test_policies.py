"""Organization policies: an organization's own rules and thresholds, in the catalog's format (--policy)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, ONE_RTX_5090_AT_RUNPOD, REPO_ROOT

from gpu_advisor.cli import main

POLICY = str(REPO_ROOT / "examples" / "org-policy")


BIG = {"name": "big", "model": {"name": "llama-3.1-405b", "precision": "fp8"}, "requests_per_day": 3000000}
"""Costs more than the example policy's CFO threshold, so ORG005 fires."""


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def changed_policy(tmp_path: Path, file_name: str, change: Callable[[list[dict[str, Any]]], object]) -> Path:
    """A copy of the example policy with ``change`` applied to the rules of one of its files."""
    directory = tmp_path / "policy"
    shutil.copytree(POLICY, directory)
    path = directory / file_name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data["rules"])
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return directory


def test_rules_lists_organization_rules() -> None:
    result = invoke("rules", "--policy", POLICY)
    assert result.exit_code == 0
    listing = "ORG001  residency       critical  Company policy: EU infrastructure for every workload"
    assert f"{listing}  [organization]" in result.output
    assert "ORG001" not in invoke("rules").output
    shown = invoke("rules", "--policy", POLICY, "show", "ORG005").output
    assert "cheapest_standing_usd_per_month > cfo_approval_per_month (20000 EUR per month)" in shown
    assert invoke("rules", "show", "ORG005", "--policy", POLICY).output == shown
    assert invoke("rules", "show", "ORG005").exit_code == 2


def test_recommend_applies_them_and_marks_them() -> None:
    result = invoke(
        "recommend",
        str(EXAMPLES_DIR / "public-chat.yaml"),
        "--as-of",
        "2026-11-30",
        "--policy",
        POLICY,
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # Within the policy the best rental is an approved provider's EU region: OVHcloud's H200, sold as
    # 8-GPU instances, for three cards ($35,566), over the CFO threshold. The 8-GPU node at German cost
    # lines ($11,007), three quarters busy, costs less than every rental bills (TCO001); the EU-hosted
    # API costs less than both and decides (DEP011). It costs less than the CFO threshold too, so ORG005,
    # which reads the cheapest route still standing, not the rental nobody recommends, stays silent.
    best = data["best_option"]
    assert best["eu"] and best["provider"] in {"aws", "gcp", "azure", "ovhcloud"}
    assert all(
        o["eu"] and o["provider"] in {"aws", "gcp", "azure", "ovhcloud"}
        for o in data["options"]
        if not o["excluded_by"]
    )
    assert {"TCO001", "DEP011"} <= set(data["fired_rules"])
    assert data["decision"]["deciding_rule_id"] == "DEP011"
    organization = {f["rule_id"] for f in data["findings"] if f["origin"] == "organization"}
    assert organization == {"ORG001", "ORG003"}
    memo = invoke(
        "recommend", str(EXAMPLES_DIR / "public-chat.yaml"), "--as-of", "2026-11-30", "--policy", POLICY
    )
    assert (
        "**ORG001** (organization rule) Company policy: EU infrastructure for every workload" in memo.output
    )


def test_budget_threshold_in_eur() -> None:
    data = json.loads(
        invoke(
            "recommend",
            "-",
            "--as-of",
            "2026-11-30",
            "--policy",
            POLICY,
            "--format",
            "json",
            stdin=json.dumps(BIG),
        ).output
    )
    finding = next(f for f in data["findings"] if f["rule_id"] == "ORG005")
    assert "above the $23,200 (20,000 EUR)" in finding["message"]
    # The figure is what the recommendation costs, not the cheapest rental nobody recommends.
    cost = data["decision"]["usd_per_month"]
    assert f"costs ${cost:,.0f} a month" in finding["message"]


def test_check_applies_organization_checks(tmp_path: Path) -> None:
    proposal = {
        "workload": {
            "name": "chat",
            "model": {"name": "llama-3.1-8b", "precision": "bf16"},
            "requests_per_day": 50000,
        },
        "proposal": ONE_RTX_5090_AT_RUNPOD,
    }
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(proposal), encoding="utf-8")
    result = invoke("check", str(path), "--as-of", "2026-11-30", "--policy", POLICY, "--format", "json")
    assert result.exit_code == 1
    items = {i["rule_id"]: (i["status"], i["origin"]) for i in json.loads(result.output)[0]["results"]}
    assert items["ORG004"] == ("fail", "organization")
    assert items["ORG002"] == ("fail", "organization")  # variable locations give no EU guarantee
    assert items["ORG006"] == ("pass", "organization")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda rules: rules[0].update(id="DEP001"), "rule DEP001: duplicate id"),
        (lambda rules: rules[0].update(fact="workloads"), "fact"),
        (
            lambda rules: rules[0]["when"].append({"fact": "price", "value": "x"}),
            "'price' is not a field of workload facts",
        ),
        (
            lambda rules: rules[0].update(source={"document": "intranet", "section": "x"}),
            "unknown document 'intranet'",
        ),
        # A number as a literal: 0 was read as false, 1 refused on a number field as "got True".
        (
            lambda rules: rules[0]["when"].append({"fact": "personal_data", "value": 0}),
            "value: 0 is a number; a rule compares numbers with a named threshold (threshold: KEY, from the "
            "thresholds data), and value takes true, false or a name (got 0)",
        ),
        # A message is checked at load, not when the rule first fires in a recommendation.
        (
            lambda rules: rules[0].update(message="{{ personal_dta }} stays in the EU."),
            "field message: 'personal_dta' is not a field of workload facts",
        ),
        (
            lambda rules: rules[0].update(message="Above {{ t.no_such_threshold }}."),
            "field message: t.no_such_threshold: unknown threshold key",
        ),
        (
            lambda rules: rules[0].update(message="{{ requests_per_day | dollars }} a day."),
            "field message: unknown filter 'dollars'",
        ),
        (
            lambda rules: rules[0].update(message="{% if personal_data %}EU only."),
            "field message: line 1: Unexpected end of template",
        ),
    ],
)
def test_broken_policies_are_input_errors(tmp_path: Path, change, expected: str) -> None:
    directory = changed_policy(tmp_path, "eu-only.yaml", change)
    result = invoke("rules", "--policy", str(directory))
    assert result.exit_code == 2
    assert "invalid organization policy" in result.output
    assert expected in result.output


def test_policy_must_be_a_directory() -> None:
    result = invoke("rules", "--policy", "no/such/dir")
    assert result.exit_code == 2
    assert "is not a directory" in result.output


def test_a_policy_directory_without_policy_files_is_refused(tmp_path: Path) -> None:
    """The rules one level further down (--policy pol instead of pol/org) turned the gate off silently."""
    (tmp_path / "org").mkdir()
    (tmp_path / "org" / "rules.yaml").write_text("rules: []\n", encoding="utf-8")
    proposal = str(EXAMPLES_DIR / "proposals" / "public-chat.yaml")
    result = invoke("check", proposal, "--policy", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == f"error: --policy: {tmp_path} holds no policy file (*.yaml, *.yml)\n"


def test_a_policy_entry_that_is_no_readable_file_is_refused_not_skipped(tmp_path: Path) -> None:
    """A link to a moved file, or a file named EU-ONLY.YAML, left its rules out of the gate silently
    while the others applied."""
    budget = (EXAMPLES_DIR / "org-policy" / "budget.yaml").read_text(encoding="utf-8")
    (tmp_path / "budget.yaml").write_text(budget, encoding="utf-8")
    (tmp_path / "eu-only.yaml").symlink_to(tmp_path / "moved" / "eu-only.yaml")
    result = invoke("rules", "--policy", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == (
        f"error: --policy {tmp_path / 'eu-only.yaml'}: not a readable file (a link to nothing, or a "
        "directory)\n"
    )
    (tmp_path / "eu-only.yaml").unlink()
    eu_only = (EXAMPLES_DIR / "org-policy" / "eu-only.yaml").read_text(encoding="utf-8")
    (tmp_path / "EU-ONLY.YAML").write_text(eu_only, encoding="utf-8")
    result = invoke("rules", "--policy", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == (
        f"error: --policy {tmp_path / 'EU-ONLY.YAML'}: a policy file's name ends in .yaml or .yml, in lower "
        "case: rename it\n"
    )
    # Upper case elsewhere in the name is a name like any other.
    (tmp_path / "EU-ONLY.YAML").rename(tmp_path / "EU-ONLY.yaml")
    assert invoke("rules", "--policy", str(tmp_path)).exit_code == 0


def test_a_policy_file_that_is_no_mapping_is_said_without_an_empty_field(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("- a\n", encoding="utf-8")
    result = invoke("rules", "--policy", str(tmp_path))
    assert result.exit_code == 2
    assert result.output.endswith(
        f"invalid organization policy\n{tmp_path / 'x.yaml'}: invalid rule file\n  Input should be a valid "
        "dictionary or instance of the model (got ['a'])\n"
    )


def test_a_workload_beside_the_policies_is_said_to_be_one(tmp_path: Path) -> None:
    """A workload file in the policy directory listed each of its fields as 'Extra inputs are not
    permitted' of an 'invalid knowledge file'."""
    (tmp_path / "chat.yaml").write_text(
        "name: chat\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 100\n", encoding="utf-8"
    )
    result = invoke("rules", "--policy", str(tmp_path))
    assert result.exit_code == 2
    assert result.output.endswith(
        f"{tmp_path / 'chat.yaml'}: a workload or proposal, not a rule file (schema_version, family, rules); "
        "a policy directory holds rule files only\n"
    )


def test_a_policy_message_that_cannot_be_written_is_bad_input_not_a_traceback(tmp_path: Path) -> None:
    """The load check cannot see into the knowledge references (``k``); rendering catches the rest."""
    directory = changed_policy(
        tmp_path,
        "budget.yaml",
        lambda rules: rules[0].update(message="Above {{ k.figures.no_such_figure.value }} a month."),
    )
    result = invoke(
        "recommend", "-", "--as-of", "2026-11-30", "--policy", str(directory), stdin=json.dumps(BIG)
    )
    assert result.exit_code == 2
    assert "rule ORG005: its message cannot be written" in result.output
    assert "no_such_figure" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("message", "refusal"),
    [
        ("{{ 'x' * 1000000000 }}", "no value over 100,000 items is built in a rule message"),
        ("{{ [1] * 1000000000 }}", "no value over 100,000 items is built in a rule message"),
        ("{{ 10 ** 1000000 }}", "a power this large is not computed in a rule message"),
        ("{{ '%0999999999d' % 1 }}", "no field over 100,000 characters is formatted in a rule message"),
        ("{{ '%*d' % (999999999, 1) }}", "no field over 100,000 characters is formatted in a rule message"),
        (
            "{{ '%0999999999d' | format(1) }}",
            "no field over 100,000 characters is formatted in a rule message",
        ),
        (
            "{{ '{:>999999999}'.format(1) }}",
            "no field over 100,000 characters is formatted in a rule message",
        ),
        (
            "{{ '{:{}}'.format(1, 999999999) }}",
            "no field over 100,000 characters is formatted in a rule message",
        ),
        ("{{ 'x' | center(999999999) }}", "no value over 100,000 items is built in a rule message"),
        ("{{ 'a\nb' | indent(999999999) }}", "no value over 100,000 items is built in a rule message"),
        (
            "{{ 'ab' | replace('a', 'aaaaaaaaaa') | replace('a', 'aaaaaaaaaa') | replace('a', 'aaaaaaaaaa')"
            " | replace('a', 'aaaaaaaaaa') | replace('a', 'aaaaaaaaaa') | replace('a', 'aaaaaaaaaa') }}",
            "no value over 100,000 items is built in a rule message",
        ),
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "a rule message takes no more than 1,000,000 loop steps",
        ),
        ("{% for i in range(100000) %}xxxxxxxxxx{% endfor %}", "no value over 100,000 items is built"),
    ],
)
def test_a_policy_message_cannot_build_a_value_without_bound(
    tmp_path: Path, message: str, refusal: str
) -> None:
    """A gigabyte of text took minutes and gigabytes, first while the message was checked at load; a
    repetition or power of any size is refused as the sandbox refuses a method call, and so are a field
    padded beyond bound by a format, a filter that pads or multiplies beyond it, loops nested to ten
    thousand million steps and a message over 100,000 characters (``engine/i18n/message_limits.py``)."""
    directory = changed_policy(tmp_path, "budget.yaml", lambda rules: rules[0].update(message=message))
    result = invoke(
        "recommend", "-", "--as-of", "2026-11-30", "--policy", str(directory), stdin=json.dumps(BIG)
    )
    assert result.exit_code == 2
    assert f"rule ORG005: its message cannot be written: {refusal}" in result.output


def test_a_policy_message_may_repeat_a_short_text(tmp_path: Path) -> None:
    directory = changed_policy(
        tmp_path, "budget.yaml", lambda rules: rules[0].update(message="{{ '=' * 3 }}")
    )
    result = invoke(
        "recommend", "-", "--as-of", "2026-11-30", "--policy", str(directory), stdin=json.dumps(BIG)
    )
    assert result.exit_code == 0 and "**ORG005** · " in result.output and ".** ===" in result.output


def test_a_policy_message_may_format_pad_and_loop_within_bounds(tmp_path: Path) -> None:
    message = (
        "{{ '%05.1f' % 3.14159 }}|{{ '%.2f' | format(2.5) }}|{{ '{:>6}'.format('ab') }}|"
        "{{ 'x' | center(5) }}|{{ 'a-b' | replace('-', '+') }}|"
        "{% for i in range(3) %}{% for j in range(2) %}.{% endfor %}{% endfor %}"
    )
    directory = changed_policy(tmp_path, "budget.yaml", lambda rules: rules[0].update(message=message))
    result = invoke(
        "recommend", "-", "--as-of", "2026-11-30", "--policy", str(directory), stdin=json.dumps(BIG)
    )
    assert result.exit_code == 0
    assert ".** 003.1|2.50| ab| x |a+b|......" in result.output


TOUCH_PICKLE = repr("cos\nsystem\n(S'touch REACHED'\ntR.")
"""A pickle that runs ``touch REACHED`` when loaded, as a Jinja string literal."""


@pytest.mark.parametrize(
    "message",
    [
        "{{ cycler.__init__.__globals__.os.system('touch REACHED') }}",
        "{{ lipsum.__globals__.os.system('touch REACHED') }}",
        "{{ k.server.__class__.__mro__ }}",
        # pydantic's v1 methods unpickle: a model must show its fields and nothing else
        "{{ k.server.parse_raw(PICKLE, proto='pickle', allow_pickle=True) }}".replace("PICKLE", TOUCH_PICKLE),
        "{{ k.server.model_dump() }}",
        "{{ k.figures.spot_discount.model_copy }}",
        "{{ range(10 ** 9) | list | length }}",
        "{{ 1 // 0 }}",
    ],
    ids=[
        "function globals",
        "another function's globals",
        "class internals",
        "model methods: parse_raw",
        "model methods: dump",
        "model methods: copy",
        "a huge range",
        "arithmetic",
    ],
)
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # as outside the suite: parse_raw would run
def test_a_policy_message_cannot_reach_past_its_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    """An organization's messages render in a sandbox that shows data only; whatever goes wrong is
    bad input naming the rule, not a traceback."""
    directory = changed_policy(tmp_path, "budget.yaml", lambda rules: rules[0].update(message=message))
    monkeypatch.chdir(tmp_path)
    result = invoke(
        "recommend", "-", "--as-of", "2026-11-30", "--policy", str(directory), stdin=json.dumps(BIG)
    )
    assert result.exit_code == 2, result.output
    assert "rule ORG005: its message cannot be written" in result.output
    assert not (tmp_path / "REACHED").exists()
    assert "Traceback" not in result.output


def test_a_policy_message_reads_fields_thresholds_and_figures() -> None:
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.i18n.environment import message_template, render_compiled_message
    from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT

    knowledge = load_knowledge()
    source = (
        "{{ k.server.name }} {{ k.figures.spot_discount.value_low }} {{ fmt.currency }} {{ range(3)|list }}"
    )
    template = message_template("en", source, True)
    context = {
        **template.environment.globals,
        "k": {"server": knowledge.own_server(), "figures": knowledge.figures_by_id()},
        "fmt": DEFAULT_FORMAT,
    }
    server, discount = knowledge.own_server().name, knowledge.figures_by_id()["spot_discount"].value_low
    assert render_compiled_message(template, context) == f"{server} {discount} USD [0, 1, 2]"


def test_built_in_messages_render_outside_the_sandbox_and_policy_messages_inside() -> None:
    from gpu_advisor.engine.i18n.environment import environment, message_template

    assert not message_template("en", "{{ gpu }}").environment.sandboxed
    assert message_template("en", "{{ gpu }}", True).environment.sandboxed
    assert environment("de") is environment("de", False)  # one environment per language and kind


def organization_rules_fired(policy_dir: Path) -> set[str]:
    from gpu_advisor.api import load_workload, recommend

    result = recommend(load_workload(str(EXAMPLES_DIR / "public-chat.yaml")), policy_dir=str(policy_dir))
    return {f.rule_id for f in result.findings if f.origin == "organization"}


def test_a_changed_or_deleted_policy_file_takes_effect(tmp_path: Path) -> None:
    directory = tmp_path / "policy"
    shutil.copytree(POLICY, directory)
    assert organization_rules_fired(directory) == {"ORG001", "ORG003"}
    (directory / "eu-only.yaml").unlink()
    assert "ORG001" not in organization_rules_fired(directory)
    shutil.copy(Path(POLICY) / "eu-only.yaml", directory / "eu-only.yaml")
    assert "ORG001" in organization_rules_fired(directory)
    approved = directory / "approved-providers.yaml"
    approved.write_text(approved.read_text(encoding="utf-8").replace("ORG003", "ORG103"), encoding="utf-8")
    assert "ORG103" in organization_rules_fired(directory)


def test_the_policy_engine_cache_is_bounded(tmp_path: Path) -> None:
    from gpu_advisor.engine.pipeline.engines import policy_engine
    from gpu_advisor.engine.rulebook.loading import POLICY_CACHE_ENTRIES, rulebook_for_policies

    for index in range(POLICY_CACHE_ENTRIES + 4):
        directory = tmp_path / f"policy-{index}"
        directory.mkdir()
        shutil.copy(Path(POLICY) / "eu-only.yaml", directory / "eu-only.yaml")
        assert organization_rules_fired(directory) == {"ORG001"}
    assert policy_engine.cache_info().currsize <= POLICY_CACHE_ENTRIES
    assert rulebook_for_policies.cache_info().currsize <= POLICY_CACHE_ENTRIES
