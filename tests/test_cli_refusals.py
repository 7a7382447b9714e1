"""Input the command line refuses: exit 2 with a message that names the field, the option or the file
(and suggests a close spelling), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, PUBLIC_CHAT, invoke

from gpu_advisor.cli import main


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            # A shape of 1,000 layers and heads for a 1B model: its KV cache was reported as weights that
            # do not fit 16 cards.
            "name: x\nmodel:\n  params_b: 1\n  precision: bf16\n  attention_shape: {num_hidden_layers: 1000, "
            "num_attention_heads: 1000, num_key_value_heads: 1000, head_dim: 1000}\nrequests_per_day: 1\n",
            "model: model.attention_shape: its query and output projections alone hold at least 2,000B "
            "parameters (layers × 2 × heads × head_dim × head_dim), more than model.params_b; check the "
            "shape against config.json",
        ),
        (
            # A model's field written beside model rather than under it: the place it belongs is named.
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\ncustom_weights: true\n"
            "requests_per_day: 1\n",
            "volume_growth (did you mean 'model.custom_weights'?)\n",
        ),
        (
            # The natural first try names the model alone: the mapping it takes is spelt out.
            "name: x\nmodel: llama-3.1-70b\nrequests_per_day: 1\n",
            "model: a mapping, not a name: write the catalog model as \"name: 'llama-3.1-70b'\" and its "
            'precision (bf16, fp8, int4, ...) as "precision:" on indented lines under "model:"\n',
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp9}\nrequests_per_day: 1\n",
            "model.precision: Input should be 'fp32', 'bf16', 'fp16', 'fp8', 'int8' or 'int4' (got 'fp9')",
        ),
        (
            # A choice written as the memos print it ("on-demand" beside the file's on_demand) or misspelt.
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 1\n"
            "load_pattern: stedy\n",
            "load_pattern: Input should be 'steady', 'variable' or 'batch' (got 'stedy') "
            "(did you mean 'steady'?)",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequest_per_day: 1\n",
            "request_per_day: unknown field; allowed fields:",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequest_per_day: 1\n",
            "(did you mean 'requests_per_day'?)",
        ),
        (
            # volume_growth is read before the workload's fields are: it is still one of the allowed.
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 1\nvolume_grwth: 0.3\n",
            "max_time_per_output_token_ms, volume_growth (did you mean 'volume_growth'?)",
        ),
        ("name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\n", "requests_per_day: Field required"),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: '5'\n",
            "requests_per_day: Input should be a valid integer (got '5')",
        ),
        (
            # A YAML value quoted as the file writes it, not as Python would ('True').
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: true\n",
            "requests_per_day: Input should be a valid integer (got true)",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\nutilization: 1.5\n",
            "utilization: Input should be less than or equal to 1 (got 1.5)",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n"
            "load_pattern: spiky\n",
            "load_pattern: Input should be 'steady', 'variable' or 'batch' (got 'spiky')",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-07b, precision: fp8}\nrequests_per_day: 5\n",
            # found with the workload's other fields, so that every problem is said at once
            "error: <stdin>: invalid workload\n  model.name: unknown value 'llama-3.1-07b'; allowed: ",
        ),
        (
            "name: x\nmodel: {precision: fp8}\nrequests_per_day: 5\n",
            "give model.name (a catalog ID) or model.params_b",
        ),
        (
            "name: x\nmodel: {params_b: 7, active_params_b: 9, precision: fp8}\nrequests_per_day: 5\n",
            "  model: model.active_params_b cannot exceed model.params_b\n",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: [5, 6]\n",
            "requests_per_day: Input should be a valid integer (got [5, 6])",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n"
            "company_country: Deutschland\n",
            "company_country: an ISO 3166 code of two letters (got 'Deutschland')",
        ),
        ("- just\n- a list\n", "a workload is a mapping of fields, got list"),
        ("", "no fields given: a workload is a mapping of fields"),
        ("# only a comment\n", "no fields given: a workload is a mapping of fields"),
        (
            "name: x\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 0\n",
            "requests_per_day: Input should be greater than 0 (got 0)",
        ),
        (
            "name: x\nname: y\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n",
            "key 'name' is given twice",
        ),
        (
            'name: "a\\nb"\nmodel: {name: llama-3.1-70b, precision: fp8}\nrequests_per_day: 5\n',
            "name: one line of text, without control characters such as tabs or line breaks (got 'a\\nb')\n",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, params_b: 7, precision: fp8}\nrequests_per_day: 5\n",
            "model.params_b: 7.0 contradicts the catalog's llama-3.1-70b (70.0B)",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-70b, active_params_b: 20, precision: fp8}\n"
            "requests_per_day: 5\n",
            "model.active_params_b: 20.0 contradicts the catalog's llama-3.1-70b",
        ),
        ("name: [unclosed\n", "not valid YAML or JSON"),
        (
            "name: x\nmodel: {name: mistral-7b, precision: bf16}\nrequests_per_day: 5\n"
            "avg_input_tokens: 40000\n",
            "avg_input_tokens: an average request (40,000 in + 150 out = 40,150 tokens) exceeds mistral-7b's "
            "maximum context of 32,768 tokens",
        ),
        (
            "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 5\n"
            "avg_input_tokens: 4000\navg_output_tokens: 1000\ncontext_tokens: 4096\n",
            "context_tokens: an average request (4,000 in + 1,000 out = 5,000 tokens) does not fit "
            "context_tokens: 4,096; give a context_tokens of at least 5,000",
        ),
        (
            # Below a millisecond: the rules engine read such a target as 0, and a message divided by it.
            "name: x\nmodel: {params_b: 7, precision: fp8}\nrequests_per_day: 5\n"
            "max_time_to_first_token_ms: 0.00001\n",
            "max_time_to_first_token_ms: Input should be greater than or equal to 1 (got 1e-05)",
        ),
        (
            # Each count within its bound, their sum past the longest window sized: it was an internal
            # error (exit 4), and in a batch it ended the run.
            "name: x\nmodel: {params_b: 7, precision: fp8}\nrequests_per_day: 5\n"
            "avg_input_tokens: 10000000\n",
            "error: <stdin>: avg_input_tokens: an average request (10,000,000 in + 150 out = 10,000,150 "
            "tokens) is longer than the longest context gpu-advisor sizes, 10,000,000 tokens",
        ),
        (
            "name: x\nmodel: {name: mistral-7b, precision: bf16}\nrequests_per_day: 5\n"
            "context_tokens: 100000\n",
            "error: <stdin>: context_tokens: 100,000 exceeds mistral-7b's maximum context of 32,768 tokens",
        ),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(document: str, expected: str) -> None:
    result = invoke("recommend", "-", stdin=document)
    assert result.exit_code == 2
    assert expected in result.output
    assert "Traceback" not in result.output


def test_non_utf8_input_exits_2() -> None:
    result = CliRunner().invoke(main, ["recommend", "-"], input=b"name: \xff\xfe\n")
    assert result.exit_code == 2
    assert "<stdin>: not UTF-8 text (byte 6)" in result.output
    # A byte-order mark is skipped, and counted in the byte's place in the file.
    marked = CliRunner().invoke(main, ["recommend", "-"], input=b"\xef\xbb\xbfname: \xff\xfe\n")
    assert "<stdin>: not UTF-8 text (byte 9)" in marked.output


def test_missing_file_exits_2() -> None:
    result = invoke("recommend", "no/such/file.yaml")
    assert result.exit_code == 2
    assert "no/such/file.yaml: no such file" in result.output


def test_bad_date_exits_2() -> None:
    result = invoke("recommend", PUBLIC_CHAT, "--as-of", "30.11.2026")
    assert result.exit_code == 2
    assert "--as-of: '30.11.2026' is not a date; use YYYY-MM-DD" in result.output
    # Python 3.11 reads these as dates too, 3.10 and the HTTP service do not: the one form named is taken.
    for other in ("20261130", "2026-W49-1", "2026-11-30T00:00"):
        refused = invoke("recommend", PUBLIC_CHAT, "--as-of", other)
        assert refused.exit_code == 2, other
        assert f"--as-of: {other!r} is not a date; use YYYY-MM-DD" in refused.output


def test_rules_show_unknown_id_suggests_a_close_one() -> None:
    result = invoke("rules", "show", "DEP0011")
    assert result.exit_code == 2
    assert "(did you mean 'DEP011'?)" in result.output
    # The IDs of its family only, not the whole catalog's.
    assert "allowed: DEP001," in result.output and "NET001" not in result.output


def test_rules_show_an_id_of_no_family_names_the_families() -> None:
    result = invoke("rules", "show", "XYZ999")
    assert result.exit_code == 2
    families = "DEP, EXP, KNB, LAT, NET, OPT, PRC, PRV, RES, ROB, SIZ, TCO"
    assert result.output.strip() == f"error: ID: unknown rule 'XYZ999'; the rule families are {families} " + (
        "(gpu-advisor rules lists every rule; an organization's rules are known with --policy DIR)"
    )


def test_rules_unknown_topic() -> None:
    result = invoke("rules", "--topic", "residence")
    assert result.exit_code == 2
    assert "did you mean 'residency'?" in result.output


def test_a_value_that_starts_one_allowed_value_suggests_it_and_one_that_starts_several_lists_them() -> None:
    one = invoke("catalog", "offers", "--gpu", "rtx")
    assert one.exit_code == 2
    assert one.output.rstrip().endswith("rtx-5090 (did you mean 'rtx-5090'?)")
    several = invoke("catalog", "offers", "--gpu", "h100")  # the H100 variants, not the closest spelling h200
    assert several.exit_code == 2
    assert several.output.rstrip().endswith(
        "mi300x, rtx-5090 (did you mean one of 'h100-nvl', 'h100-pcie', 'h100-sxm'?)"
    )
    size = invoke("size", "--model", "llama-3.1-70b", "--precision", "bf16", "--gpu", "h100")
    assert size.exit_code == 2
    assert "(did you mean one of 'h100-nvl', 'h100-pcie', 'h100-sxm'?)" in size.output


def test_a_value_in_another_case_suggests_the_value_it_spells() -> None:
    """'L40S' is spelt nearer nothing than l40s in lower case (difflib compares case), but it means l40s."""
    result = invoke("catalog", "offers", "--gpu", "L40S")
    assert result.exit_code == 2
    assert result.output.rstrip().endswith("rtx-5090 (did you mean 'l40s'?)")
    # The value it starts, and a spelling it is close to, in another case too.
    upper = invoke("catalog", "offers", "--gpu", "H100")
    assert upper.output.rstrip().endswith("(did you mean one of 'h100-nvl', 'h100-pcie', 'h100-sxm'?)")
    assert invoke("catalog", "offers", "--gpu", "MI300").output.rstrip().endswith("(did you mean 'mi300x'?)")


def test_a_model_of_a_size_its_name_lacks_is_not_taken_for_another_size() -> None:
    """Llama 3.1 comes in 8B, 70B and 405B: 'llama-3.1-7b' is spelt nearest llama-3.1-70b, but it means a
    7B model: the Llama 3.1 nearest that size and the catalog's 7B models are suggested."""
    result = invoke("size", "--model", "llama-3.1-7b", "--precision", "bf16")
    assert result.exit_code == 2
    assert result.output == (
        "error: --model: unknown value 'llama-3.1-7b'; allowed: deepseek-r1, llama-3.1-405b, llama-3.1-70b, "
        "llama-3.1-8b, llama-3.3-70b, mistral-7b, mixtral-8x7b, qwen2.5-32b, qwen2.5-72b, qwen2.5-7b, "
        "qwen3-235b-a22b (did you mean one of 'llama-3.1-8b', 'mistral-7b', 'qwen2.5-7b'?)\n"
    )
    # a misspelling of a model of the size named is that model; a size no Llama 3.1 has, the nearest
    assert (
        "(did you mean 'llama-3.1-8b'?)"
        in invoke("size", "--model", "lama-3.1-8b", "--precision", "bf16").output
    )
    assert (
        "(did you mean 'llama-3.1-70b'?)"
        in invoke("size", "--model", "llama-3.1-80b", "--precision", "bf16").output
    )
    # A size in the name and a close model whose ID gives none (DeepSeek-R1 is 671B): the closest spelling.
    assert (
        "(did you mean 'deepseek-r1'?)"
        in invoke("size", "--model", "deepseek-r1-671b", "--precision", "fp8").output
    )


def test_a_model_typo_is_said_beside_the_other_problems() -> None:
    """Every problem of a workload at once: a catalog model's typo was said only after the rest was fixed."""
    text = "name: x\nmodel: {name: lama-3.1-70b, precision: fp8}\nrequests_per_day: '5000'\nschedul: always\n"
    result = invoke("recommend", "-", stdin=text)
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[0] == "error: <stdin>: invalid workload"
    assert lines[1].startswith("  model.name: unknown value 'lama-3.1-70b'; allowed: deepseek-r1, ")
    assert lines[1].endswith(
        "(did you mean 'llama-3.1-70b'?); a model the catalog lacks is described by its size instead of a "
        "name: params_b (and active_params_b for a mixture of experts)"
    )
    assert lines[2] == "  requests_per_day: Input should be a valid integer (got '5000')"
    assert lines[3].startswith("  schedul: unknown field; allowed fields: ")


def test_a_pricing_written_as_the_memos_print_it_is_read_as_the_files_spelling(tmp_path: Path) -> None:
    """ "on-demand", as the memo prints it, is on_demand: the check goes on to the offer, which is sold
    reserved."""
    proposal = (EXAMPLES_DIR / "proposals" / "public-chat.yaml").read_text(encoding="utf-8")
    path = tmp_path / "proposal.yaml"
    path.write_text(proposal.replace("pricing: reserved", "pricing: on-demand"), encoding="utf-8")
    result = invoke("check", str(path))
    assert result.exit_code == 2
    assert (
        "proposal.pricing: on_demand, but aws p5-reserved-3y-2026-09 is sold as reserved: name the offer "
        "sold at the pricing meant" in result.output
    )


@pytest.mark.parametrize(
    ("given", "choices", "suggested"),
    [
        ("on-demand", ["on_demand", "spot", "reserved"], "on_demand"),
        ("FP8", ["fp32", "bf16", "fp16", "fp8"], "fp8"),
        ("Fp16", ["fp32", "bf16", "fp16", "fp8"], "fp16"),
        ("eu", ["EU", "US"], "EU"),
        ("stedy", ["steady", "variable", "batch"], "steady"),
        # Another precision or engine, not a typo: nothing is suggested.
        ("fp4", ["fp32", "bf16", "fp16", "fp8", "int8", "int4"], None),
        ("fp9", ["fp32", "bf16", "fp16", "fp8", "int8", "int4"], None),
        ("ollama", ["vllm", "sglang", "trtllm"], None),
    ],
)
def test_a_refused_choice_is_answered_with_its_spelling_only(
    given: str, choices: list[str], suggested: str | None
) -> None:
    from gpu_advisor.engine.common.errors import spelling_of

    assert spelling_of(given, choices) == suggested


def test_two_letters_typed_the_wrong_way_round_suggest_the_field_they_spell(tmp_path: Path) -> None:
    """'gpsu' is 'gpus' with two letters swapped; difflib alone ranks 'gpu' (a letter missing) above it.
    Swapped digits name another size ('qwen2.5-27b' is no typo of qwen2.5-72b) and get no such hint."""
    proposal = (EXAMPLES_DIR / "proposals" / "public-chat.yaml").read_text(encoding="utf-8")
    path = tmp_path / "p.yaml"
    path.write_text(proposal.replace("  gpus: 4", "  gpsu: 4"), encoding="utf-8")
    result = invoke("check", str(path))
    assert result.exit_code == 2
    assert result.output.rstrip().endswith("base_gpus (did you mean 'gpus'?)")
    size = invoke("size", "--model", "qwen2.5-27b", "--precision", "bf16")
    assert size.exit_code == 2
    assert "did you mean 'qwen2.5-72b'" not in size.output


def test_a_profile_without_traffic_in_the_schedules_hours_names_the_file(tmp_path: Path) -> None:
    """Found where the traffic is worked out, after the file's other values: it named no file."""
    path = tmp_path / "night.yaml"
    path.write_text(
        "name: x\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 1000\n"
        "schedule: office_hours\nload_profile: [1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1]\n",
        encoding="utf-8",
    )
    result = invoke("recommend", str(path))
    assert result.exit_code == 2
    assert result.output == (
        f"error: {path}: load_profile: the load profile has no traffic in the hours the schedule serves "
        "(8 hours on 22 working days, 176 hours a month, from 9:00)\n"
    )


def test_ctrl_c_in_a_command_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """click turned Ctrl-C into "Aborted!" and exit 1, which check gives a failed check."""
    from gpu_advisor.engine.apps import recommend

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(recommend, "recommend", interrupted)
    result = invoke("recommend", PUBLIC_CHAT)
    assert result.exit_code == 130
    assert "Aborted" not in result.output


def test_a_seed_without_scenarios_is_refused() -> None:
    """--seed without --scenarios was ignored without a word."""
    result = invoke("recommend", PUBLIC_CHAT, "--seed", "3")
    assert (result.exit_code, result.output) == (2, "error: --seed: only with --scenarios N\n")
    german = invoke("recommend", PUBLIC_CHAT, "--seed", "3", "--lang", "de")
    assert (german.exit_code, german.output) == (2, "Fehler: --seed: nur mit --scenarios N\n")
    assert invoke("recommend", PUBLIC_CHAT, "--scenarios", "5", "--seed", "3").exit_code == 0


def test_a_whole_number_written_with_a_decimal_point_is_told_to_drop_it(tmp_path: Path) -> None:
    """1000.0 for a count had no hint (2.0 had one, as 2.000 may be German thousands: both readings)."""
    workload = tmp_path / "w.yaml"
    workload.write_text(
        "name: t\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 1000.0\n", encoding="utf-8"
    )
    result = invoke("recommend", str(workload))
    assert result.exit_code == 2
    assert result.output.endswith(
        "requests_per_day: Input should be a valid integer (got 1000.0) (write 1000: a whole number, without "
        "a decimal point)\n"
    )


def test_option_names_and_ranges_as_the_help_says() -> None:
    """size named the request's field (load.requests_per_day) for its option; --currency took 'EUR' but
    not 'eur' (while --lang took 'DE'); --depreciation-years showed [x>=1] and took 3, 4 or 5 only later."""
    size = invoke(
        "size", "--model", "llama-3.1-8b", "--precision", "bf16", "--requests-per-day", "20000000000"
    )
    assert size.exit_code == 2
    assert "  --requests-per-day: Input should be less than or equal to 10,000,000,000" in size.output
    lower = invoke("recommend", str(PUBLIC_CHAT), "--currency", "eur")
    assert lower.exit_code == 0 and "€" in lower.output
    years = invoke("tco", "--depreciation-years", "7")
    assert years.exit_code == 2
    assert "Invalid value for '--depreciation-years': 7 is not in the range 3<=x<=5." in years.output
    assert "[3<=x<=5]" in invoke("tco", "--help").output
    assert "--currency [USD|EUR|CHF]" in invoke("recommend", "--help").output


def test_options_that_contradict_each_other_are_refused(tmp_path: Path) -> None:
    """--brief with --charts wrote the images and linked them from nothing; --strict with
    --allow-bad-rows quietly let --strict win."""
    charts = tmp_path / "charts"
    brief = invoke("recommend", str(PUBLIC_CHAT), "--brief", "--charts", str(charts))
    assert (brief.exit_code, brief.output) == (
        2,
        "error: --charts: the one-screen summary links no charts; leave --charts or --brief out\n",
    )
    assert not charts.exists()
    rows = tmp_path / "rows.csv"
    rows.write_text(
        "name,model.name,model.precision,requests_per_day\nchat,llama-3.1-8b,fp8,1000\n", encoding="utf-8"
    )
    batch = invoke("batch", str(rows), "--strict", "--allow-bad-rows")
    assert (batch.exit_code, batch.output) == (
        2,
        "error: --strict stops at a bad row, --allow-bad-rows skips it: give one\n",
    )


@pytest.mark.parametrize("written", ["yes", "no", "on"])
def test_a_yaml_yes_for_a_true_or_false_field_says_what_to_write(written: str) -> None:
    document = "name: x\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 100\n"
    document += f"latency_sensitive: {written}\n"
    result = invoke("recommend", "-", stdin=document)
    assert result.exit_code == 2
    assert (
        f"latency_sensitive: Input should be a valid boolean (got '{written}') (write true or false)"
        in result.output
    )
    # A number is no word a reader mistakes for a boolean: no advice.
    number = invoke("recommend", "-", stdin=document.replace(f"sensitive: {written}", "sensitive: 3"))
    assert "latency_sensitive: Input should be a valid boolean (got 3)\n" in number.output


def test_a_whole_number_beyond_the_fields_bound_is_not_suggested() -> None:
    """1.0e12 requests a day: 'write 1000000000000' would be refused next (at most ten billion), so the
    bound is said instead; 5000.0 is still told to drop its decimal point."""
    document = "name: x\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: %s\n"
    beyond = invoke("recommend", "-", stdin=document % "1.0e12")
    assert beyond.exit_code == 2
    assert (
        "requests_per_day: Input should be a valid integer (got 1000000000000.0) (a whole number, at most "
        "10,000,000,000)\n"
    ) in beyond.output
    within = invoke("recommend", "-", stdin=document % "5000.0")
    assert "(write 5000: a whole number, without a decimal point)" in within.output
    german = invoke("recommend", "-", "--lang", "de", stdin=document % "1.0e12")
    assert "(eine ganze Zahl, höchstens 10.000.000.000)" in german.output
    # An optional field's bound, declared inside its optional type, is read as well.
    tokens = invoke("recommend", "-", stdin=document % "100" + "avg_input_tokens: 1.0e8\n")
    assert (
        "avg_input_tokens: Input should be a valid integer (got 100000000.0) (a whole number, at most "
        "10,000,000)\n"
    ) in tokens.output
