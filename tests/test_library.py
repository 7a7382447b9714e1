"""The Python library (``gpu_advisor.api``) as a program calls it: every ``tco`` override applied or
refused, ``recommend`` with an organization's policy directory, and ``render_memo`` writing the memo the
command line writes."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import EVALUATED_ON, EXAMPLES_DIR

from gpu_advisor import api
from gpu_advisor.cli import main
from gpu_advisor.engine.domain.requests import TcoRequest

POLICY_DIR = EXAMPLES_DIR / "org-policy"
PUBLIC_CHAT = EXAMPLES_DIR / "public-chat.yaml"
AS_OF = EVALUATED_ON.isoformat()

# --- tco ---------------------------------------------------------------------------------------------

OVERRIDES: dict[str, Any] = {
    "server_price_usd": 123_456.0,
    "server_price_eur": 123_456.0,
    "server_price_chf": 123_456.0,
    "gpus_per_server": 4,
    "months": 20,
    "depreciation_years": 4,
    "hours_per_month": 100.0,
    "gpu_watts": 100.0,
    "power_overhead": 2.0,
    "usd_per_kwh": 0.9,
    "eur_per_kwh": 0.8,
    "rack_usd_per_month": 999.0,
    "colocation_usd_per_month": 888.0,
    "staff_usd_per_month": 777.0,
    "residual": 0.5,
}
"""A value for every assumption ``tco`` can replace, each unlike the default it replaces."""


def test_every_tco_field_has_an_override_case() -> None:
    """A field added to ``TcoRequest`` gets a case below, so no override can be silently ignored (the
    country and the GPU choose the server and its defaults: test_cli_tco.py)."""
    assert set(TcoRequest.model_fields) - {"country", "gpu"} == set(OVERRIDES)


@pytest.mark.parametrize("country", ["DE", "US"])
@pytest.mark.parametrize("field", sorted(OVERRIDES))
def test_every_tco_override_is_applied_and_reported(field: str, country: str) -> None:
    default = api.tco(country=country)
    # Another card count is another server: it comes with that server's price.
    given = {
        field: OVERRIDES[field],
        **({"server_price_usd": 285_000.0} if field == "gpus_per_server" else {}),
    }
    replaced = api.tco(country=country, **given)
    assert replaced.usd_per_gpu_hour.total != default.usd_per_gpu_hour.total
    data = replaced.model_dump()
    if field == "server_price_eur":
        # A quote in euros replaces the server's price, at the catalog's rate; it is named as given.
        assert replaced.overridden == ("server_price_eur",)
        assert data["server_price_usd"] == 123_456.0 * 1.16
        return
    if field == "eur_per_kwh":
        # A tariff in euros replaces the electricity price, at the catalog's rate; named as given.
        assert replaced.overridden == ("eur_per_kwh",)
        assert data["usd_per_kwh"] == pytest.approx(0.8 * 1.16)
        return
    if field == "server_price_chf":
        # A quote in francs at the USD per CHF every franc figure passes through: 1.16 USD per EUR over
        # 0.9197 CHF per EUR.
        assert replaced.overridden == ("server_price_chf",)
        assert data["server_price_usd"] == 123_456.0 * (1.16 / 0.9197)
        return
    assert replaced.overridden == tuple(sorted(given))
    if field == "depreciation_years":
        assert data["months"] == 4 * 12
    else:
        assert data[field] == OVERRIDES[field]


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"server_price": 1}, "server_price"),
        ({"server_price_usd": 1, "watts": 700}, "watts"),
        ({"country": "US", "usd_per_kwh_": 0.2}, "usd_per_kwh_"),
    ],
)
def test_an_unknown_tco_argument_is_refused_not_ignored(given: dict[str, Any], field: str) -> None:
    with pytest.raises(api.InputError) as raised:
        api.tco(**given)
    assert f"  {field}: unknown field; allowed fields: country, gpu, server_price_usd," in str(raised.value)
    assert [problem["field"] for problem in raised.value.problems or []] == [field]


def test_tco_refuses_a_value_it_cannot_apply() -> None:
    with pytest.raises(api.InputError, match="gpus_per_server: Input should be a valid integer"):
        api.tco(gpus_per_server=7.5)
    with pytest.raises(api.InputError, match="give months or depreciation_years, not both"):
        api.tco(months=24, depreciation_years=3)
    with pytest.raises(
        api.InputError,
        match="gpus_per_server needs server_price_usd, server_price_eur or server_price_chf: the catalog's "
        "price is its own server's, with its cards; give the price of a server with that many cards",
    ):
        api.tco(gpus_per_server=4)


# --- recommend with a policy directory ---------------------------------------------------------------


def test_recommend_with_a_policy_directory_equals_the_command_line() -> None:
    workload = api.load_workload(str(PUBLIC_CHAT))
    plain = api.recommend(workload, EVALUATED_ON)
    policed = api.recommend(workload, EVALUATED_ON, policy_dir=POLICY_DIR)
    organization = [f.rule_id for f in policed.findings if f.rule_id.startswith("ORG")]
    assert organization and not [f for f in plain.findings if f.rule_id.startswith("ORG")]
    cli = CliRunner().invoke(
        main,
        ["recommend", str(PUBLIC_CHAT), "--format", "json", "--as-of", AS_OF, "--policy", str(POLICY_DIR)],
    )
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.output) == policed.model_dump(mode="json")
    # The same directory given as text is the same policy.
    assert api.recommend(workload, EVALUATED_ON, policy_dir=str(POLICY_DIR)) == policed


def test_a_policy_directory_that_is_not_one_is_named_as_the_library_calls_it(tmp_path: Path) -> None:
    workload = api.load_workload(str(PUBLIC_CHAT))
    proposal = tmp_path / "proposal.yaml"
    proposal.write_text(
        yaml.safe_dump(
            {"workload": yaml.safe_load(PUBLIC_CHAT.read_text()), "proposal": {"deployment": "api"}}
        )
    )
    assert [result.status for result in api.check_path(str(proposal), EVALUATED_ON, policy_dir=POLICY_DIR)]
    for missing in (tmp_path / "absent", PUBLIC_CHAT):
        with pytest.raises(api.InputError) as raised:
            api.recommend(workload, EVALUATED_ON, policy_dir=missing)
        assert str(raised.value) == f"policy_dir: {missing} is not a directory"
        assert raised.value.field == "policy_dir"
        with pytest.raises(api.InputError, match=r"^policy_dir: "):
            api.check_path(str(proposal), EVALUATED_ON, policy_dir=missing)


# --- render_memo -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "currency"), [("en", "USD"), ("de", "EUR"), ("en", "EUR")])
def test_render_memo_writes_the_memo_of_the_command_line(lang: str, currency: str) -> None:
    result = api.recommend(
        api.load_workload(str(PUBLIC_CHAT)), EVALUATED_ON, policy_dir=POLICY_DIR, lang=lang, currency=currency
    )
    cli = CliRunner().invoke(
        main,
        [
            *("recommend", str(PUBLIC_CHAT), "--as-of", AS_OF, "--policy", str(POLICY_DIR)),
            *("--lang", lang, "--currency", currency),
        ],
    )
    assert cli.exit_code == 0, cli.output
    assert api.render_memo(result, lang=lang, currency=currency) == cli.output


def test_render_memo_refuses_a_language_or_currency_it_has_no_text_for() -> None:
    result = api.recommend(api.load_workload(str(PUBLIC_CHAT)), EVALUATED_ON)
    with pytest.raises(api.InputError, match="lang"):
        api.render_memo(result, lang="fr")
    with pytest.raises(api.InputError, match="currency"):
        api.render_memo(result, currency="GBP")


@pytest.mark.parametrize(
    ("workload", "wrong"), [(None, "NoneType"), ([{}], "list"), ("examples/public-chat.yaml", "str")]
)
def test_a_workload_that_is_no_mapping_is_an_input_error_naming_it(workload: Any, wrong: str) -> None:
    # It raised AttributeError ('model_dump') from inside the pipeline.
    with pytest.raises(api.InputError) as raised:
        api.recommend(workload, EVALUATED_ON)
    assert raised.value.field == "workload"
    assert str(raised.value) == (
        f"workload: a mapping of workload fields or a WorkloadInput, not {wrong} "
        "(a file: load_workload(path))"
    )
    with pytest.raises(api.InputError) as refused:
        api.check(workload, EVALUATED_ON)
    assert (refused.value.field, str(refused.value).startswith("document: a mapping")) == ("document", True)


def test_any_mapping_is_read_as_the_dict_it_holds() -> None:
    """A read-only mapping (and one inside it) was refused as "not mappingproxy" by a message that asks
    for a mapping."""
    workload = yaml.safe_load((EXAMPLES_DIR / "prototype.yaml").read_text(encoding="utf-8"))
    frozen = MappingProxyType({**workload, "model": MappingProxyType(workload["model"])})
    assert api.recommend(frozen, EVALUATED_ON) == api.recommend(workload, EVALUATED_ON)
    proposal = {"name": "api", "deployment": "api"}
    document = MappingProxyType({"workload": frozen, "proposal": MappingProxyType(proposal)})
    assert api.check(document, EVALUATED_ON) == api.check(
        {"workload": workload, "proposal": proposal}, EVALUATED_ON
    )


def test_the_evaluation_date_may_be_its_iso_text_and_nothing_else() -> None:
    workload = yaml.safe_load((EXAMPLES_DIR / "prototype.yaml").read_text(encoding="utf-8"))
    assert api.recommend(workload, "2026-11-30") == api.recommend(workload, EVALUATED_ON)
    with pytest.raises(api.InputError) as raised:
        api.recommend(workload, "yesterday")
    assert raised.value.field == "evaluated_on"


def test_a_validation_error_names_its_first_field_and_check_path_takes_a_path() -> None:
    workload = yaml.safe_load((EXAMPLES_DIR / "prototype.yaml").read_text(encoding="utf-8"))
    with pytest.raises(api.InputError) as raised:
        api.recommend({**workload, "requests_per_day": -1}, EVALUATED_ON)
    assert raised.value.field == "requests_per_day"
    path = EXAMPLES_DIR / "proposals" / sorted(p.name for p in (EXAMPLES_DIR / "proposals").glob("*.yaml"))[0]
    assert api.check_path(path, EVALUATED_ON) == api.check_path(str(path), EVALUATED_ON)


@pytest.mark.parametrize(
    ("call", "field", "message"),
    [
        (lambda w: api.recommend(w, lang=None), "lang", "lang: one of en, de, not None"),
        (
            lambda w: api.recommend(w, currency=["USD"]),
            "currency",
            "currency: one of USD, EUR, CHF, not ['USD']",
        ),
        (lambda w: api.recommend(w, policy_dir=5), "policy_dir", "policy_dir: a directory's path, not 5"),
        # The empty text is the current directory: it was read as a policy directory.
        (lambda w: api.recommend(w, policy_dir=""), "policy_dir", "policy_dir: a directory's path, not ''"),
        (lambda w: api.load_workload(5), "path", "path: a file's path, not int"),
        # The empty text checked every file of the current directory.
        (lambda w: api.check_path(""), "path", "path: a file's or a directory's path, not ''"),
        (lambda w: api.check_path(None), "path", "path: a file's or a directory's path, not None"),
        (lambda w: api.parse_workload_text(b"name: x", "o"), "text", "text: the workload as text, not bytes"),
        (
            lambda w: api.render_memo(None),
            "result",
            "result: a Recommendation from recommend(), not NoneType",
        ),
        (
            lambda w: api.render_memo(api.recommend(w), chart_files=5),
            "chart_files",
            "chart_files: a mapping of chart titles to files, not int",
        ),
        # A text was read letter by letter as the names of the figures replaced.
        (
            lambda w: api.render_memo(api.recommend(w), overridden="abc"),
            "overridden",
            "overridden: a list of the figures' names, not str",
        ),
    ],
)
def test_an_argument_of_the_wrong_kind_is_an_input_error_naming_it(
    call: Any, field: str, message: str
) -> None:
    """Each raised AttributeError or TypeError from inside gpu-advisor, or read a directory unasked."""
    workload = {"name": "x", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 5}
    with pytest.raises(api.InputError) as raised:
        call(workload)
    assert (raised.value.field, str(raised.value)) == (field, message)


def test_a_workload_path_may_be_a_path_object() -> None:
    assert api.load_workload(PUBLIC_CHAT).name == api.load_workload(str(PUBLIC_CHAT)).name
