"""Options the command line refuses: exit 2 with a message that names the option and says what to write
(a number with a thousands dot or comma, a value out of range, options that contradict each other)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR, PUBLIC_CHAT, invoke

from gpu_advisor.cli import main


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["size", "--precision", "bf16"], "give exactly one of --model or --params-b"),
        (
            ["size", "--model", "llama-70b", "--precision", "bf16"],
            "error: --model: unknown value 'llama-70b'",
        ),
        (
            ["size", "--params-b", "7", "--active-params-b", "9", "--precision", "bf16"],
            "--active-params-b cannot exceed --params-b",
        ),
        (["size", "--params-b", "7", "--precision", "fp9"], "'fp9' is not one of"),
        (["size", "--params-b", "-7", "--precision", "bf16"], "-7.0 is not in the range x>0"),
        (["tco", "--residual", "1.5"], "Invalid value for '--residual'"),
        (["tco", "--server-price", "nan"], "'--server-price': nan is not a finite number"),
        (["tco", "--server-price", "inf"], "'--server-price': inf is not a finite number"),
        # click said "'250,000' is not a valid float range".
        (
            ["tco", "--server-price", "250,000"],
            "Invalid value for '--server-price': 250,000: write the number without a comma: 250000 or 250.0",
        ),
        (["size", "--params-b", "1,5", "--precision", "bf16"], "1,5: write the number without a comma: 1.5"),
        # Every sum of money: a rack of 1.000 was $1.00 a month.
        (
            ["tco", "--rack-usd-per-month", "1.000"],
            "Invalid value for '--rack-usd-per-month': 1.000: the dot reads as a decimal point; for 1,000 "
            "write 1000",
        ),
        # Whole numbers: click said "'1,000' is not a valid integer range".
        (
            ["size", "--model", "llama-3.1-8b", "--precision", "bf16", "--requests-per-day", "1,000"],
            "Invalid value for '--requests-per-day': 1,000: write the number without a comma: 1000\n",
        ),
        (
            ["size", "--model", "llama-3.1-8b", "--precision", "bf16", "--requests-per-day", "10.000"],
            "'--requests-per-day': 10.000: the dot reads as a decimal point; for 10,000 write 10000",
        ),
        (
            ["size", "--model", "llama-3.1-8b", "--precision", "bf16", "--input-tokens", "1,5"],
            "Invalid value for '--input-tokens': 1,5: a whole number, written without a comma",
        ),
        # The range every file's numbers are read in, said once (the option was named twice).
        (
            ["size", "--params-b", "1e-300", "--precision", "bf16"],
            "Invalid value for '--params-b': '1e-300' is too small; a number other than 0 is at least 1e-15",
        ),
        # A German thousands dot: 250.000 was a server for $250.
        (
            ["tco", "--server-price", "250.000"],
            "Invalid value for '--server-price': 250.000: the dot reads as a decimal point; for 250,000 "
            "write 250000",
        ),
        (["size", "--params-b", "inf", "--precision", "bf16"], "'--params-b': inf is not a finite number"),
        (
            ["size", "--model", "mistral-7b", "--precision", "bf16", "--context-tokens", "1000000"],
            "error: --context-tokens: 1,000,000 exceeds mistral-7b's maximum context of 32,768 tokens",
        ),
        (
            [
                *("size", "--params-b", "7", "--precision", "bf16", "--requests-per-day", "100"),
                *("--input-tokens", "30000", "--context-tokens", "1000"),
            ],
            "(30,000 in + 150 out = 30,150 tokens) does not fit --context-tokens: 1,000; give a "
            "--context-tokens of at least 30,150",
        ),
        # Found after the request is read, and still said by the option's name.
        (
            ["size", "--model", "llama-3.1-8b", "--precision", "bf16", "--gpu", "h100-sxm", "--cards", "3"],
            "error: --cards: 3 is not a card count a replica runs on (1, 2, 4, 8, 16)",
        ),
        (
            ["size", "--model", "llama-3.1-8b", "--precision", "bf16", "--gpu", "h100", "--cards", "1"],
            "error: --gpu: unknown value 'h100'",
        ),
        # A request longer than the model's window: the longer of the token counts is at fault, as past the
        # longest window sized.
        (
            [
                *("size", "--model", "llama-3.1-8b", "--precision", "bf16", "--concurrency", "2"),
                *("--input-tokens", "200000"),
            ],
            "error: --input-tokens: an average request (200,000 in + 150 out = 200,150 tokens) exceeds "
            "llama-3.1-8b's maximum context of 131,072 tokens",
        ),
        # Past the longest window sized: the option that set the prompt is named.
        (
            [
                *("size", "--params-b", "7", "--precision", "fp8", "--requests-per-day", "1000"),
                *("--input-tokens", "10000000"),
            ],
            "error: --input-tokens: an average request (10,000,000 in + 150 out = 10,000,150 tokens) is "
            "longer than the longest context gpu-advisor sizes, 10,000,000 tokens",
        ),
        # Requests measured at a concurrency must fit the window, as a load's must.
        (
            [
                *("size", "--model", "llama-3.1-8b", "--precision", "bf16", "--concurrency", "4"),
                *("--input-tokens", "9000", "--context-tokens", "8192"),
            ],
            "(9,000 in + 150 out = 9,150 tokens) does not fit --context-tokens: 8,192;",
        ),
    ],
)
def test_bad_options_exit_2(args: list[str], expected: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert expected in result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            # The JSON was written in full, the --brief asked for dropped unsaid.
            ["recommend", PUBLIC_CHAT, "--brief", "--format", "json"],
            "error: --brief: the one-screen summary is Markdown; leave --brief out of --format json\n",
        ),
        (
            # "cannot create examples/public-chat.yaml (File exists)".
            ["recommend", PUBLIC_CHAT, "--charts", PUBLIC_CHAT],
            f"error: --charts: {PUBLIC_CHAT!r} is a file, not a directory; name the directory the chart "
            "images go to\n",
        ),
        (
            # The JSON was written and the chart directory left unmade, without a word.
            ["recommend", PUBLIC_CHAT, "--charts", "charts", "--format", "json"],
            "error: --charts: the chart images go beside the Markdown memo; the JSON holds their series "
            "(charts)\n",
        ),
        (
            # Ignored, the filter listed every model as if each had matched it.
            ["catalog", "models", "--gpu", "h100-sxm"],
            "error: --gpu: filters catalog gpus, offers, serverless only, not models\n",
        ),
        (
            ["catalog", "gpus", "--eu"],
            "error: --eu/--non-eu: filters catalog offers, serverless, apis only, not gpus\n",
        ),
        # The last of the two won unsaid: only non-EU offers, exit 0.
        (["catalog", "offers", "--eu", "--non-eu"], "error: give --eu or --non-eu, not both\n"),
        (["catalog", "apis", "--non-eu", "--eu"], "error: give --eu or --non-eu, not both\n"),
        (
            # The hard gate won unsaid: exit 1 for a rule the user also asked to soften.
            [
                "check",
                str(EXAMPLES_DIR / "proposals" / "public-chat.yaml"),
                "--hard-fail-on",
                "LAT005",
                "--soft-fail-on",
                "SIZ009,LAT005",
            ],
            "error: --soft-fail-on: LAT005 named by both --hard-fail-on and --soft-fail-on; name each "
            "rule in one of them\n",
        ),
        (
            # Every rule skipped: "1 proposal passed every check" with nothing checked.
            ["check", str(EXAMPLES_DIR / "proposals" / "public-chat.yaml"), "--skip-rule", "critical"],
            "error: --skip-rule: critical skips every rule (each is at or below it), and the run would "
            "pass with nothing checked; name the rules to skip\n",
        ),
        (
            # The skip silenced the gate asked for.
            [
                "check",
                str(EXAMPLES_DIR / "proposals" / "public-chat.yaml"),
                "--skip-rule",
                "DEP016",
                "--hard-fail-on",
                "DEP016",
            ],
            "error: --skip-rule: DEP016 named by both --skip-rule and --hard-fail-on; a skipped rule "
            "cannot fail the run\n",
        ),
        (
            # The warnings asked for passed unsaid: only what --hard-fail-on names fails the run.
            [
                "check",
                str(EXAMPLES_DIR / "proposals" / "public-chat.yaml"),
                "--fail-on",
                "warn",
                "--hard-fail-on",
                "LAT005",
            ],
            "error: --fail-on: warn has no effect beside --hard-fail-on, which alone says what "
            "fails the run; add info to --hard-fail-on to fail on every warning\n",
        ),
        (
            # Both covered warning and critical: the hard gate won for them unsaid.
            [
                "check",
                str(EXAMPLES_DIR / "proposals" / "public-chat.yaml"),
                "--hard-fail-on",
                "warning",
                "--soft-fail-on",
                "critical",
            ],
            "error: --soft-fail-on: critical selects the warning, critical results --hard-fail-on warning "
            "selects; choose a severity below warning\n",
        ),
        (
            # An unset CI variable ("--hard-fail-on $RULES" with a comma left): no gate at all, exit 0.
            ["check", str(EXAMPLES_DIR / "proposals" / "public-chat.yaml"), "--hard-fail-on", ","],
            "error: --hard-fail-on: no rule or severity given (an empty value); name rule IDs or a "
            "severity\n",
        ),
    ],
)
def test_options_that_contradict_each_other_are_refused(args: list[str], expected: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.output == expected


def test_a_dot_between_thousands_is_told_how_to_write_the_number() -> None:
    """German writes 1.500 for 1,500: YAML reads 1.5 (and 2.000.000 as text); the refusal says what to
    write."""
    document = (
        "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 2.000.000\n"
        "avg_input_tokens: 1.500\navg_output_tokens: 1.5e3\ncontext_tokens: 5000.5\n"
    )
    result = CliRunner().invoke(main, ["recommend", "-", "--lang", "de"], input=document)
    assert result.exit_code == 2
    assert (
        "  requests_per_day: Erwartet wird eine ganze Zahl (angegeben: '2.000.000') (trennt ein Punkt die "
        "Tausender, schreiben Sie 2000000: Eine Datendatei liest den Punkt als Dezimalpunkt oder als Text)\n"
    ) in result.output
    assert (
        "  avg_input_tokens: Erwartet wird eine ganze Zahl (angegeben: 1.5) (trennt ein Punkt"
        in result.output
    )
    # 1.5e3 is a whole number written as a float: no thousands to guess, the decimal point to drop.
    assert (
        "avg_output_tokens: Erwartet wird eine ganze Zahl (angegeben: 1500.0) (schreiben Sie 1500: eine "
        "ganze Zahl, ohne Dezimalpunkt)\n" in result.output
    )
    # Four digits before the dot are no thousands group: 5000.5 is a fraction, not 5,000,500.
    assert "context_tokens: Erwartet wird eine ganze Zahl" in result.output
    assert "5000500" not in result.output


def test_a_thousands_dot_that_reads_as_a_whole_number_gets_the_hint_too() -> None:
    """10.000 reads as 10.0: refused as no whole number, with no hint that the dot may be a thousands
    separator, where 1.500 had one. A whole number written with a decimal point (2.0 for 2) is as likely:
    both readings are said."""
    document = "name: x\nmodel: {name: llama-3.1-8b, precision: bf16}\nrequests_per_day: 10.000\n"
    result = CliRunner().invoke(main, ["recommend", "-"], input=document)
    assert result.exit_code == 2
    assert (
        "requests_per_day: Input should be a valid integer (got 10.0) (write 10; if a dot separates "
        "thousands, write 10000: a data file reads the dot as a decimal point or as text)"
    ) in result.output


def test_a_number_written_otherwise_is_told_in_the_languages_words() -> None:
    """German readers write the thousands dot: the refusal was English under --lang de."""
    result = CliRunner().invoke(main, ["tco", "--lang", "de", "--server-price", "250.000"])
    assert result.exit_code == 2
    assert (
        "Ungültiger Wert für '--server-price': 250.000: Der Punkt gilt hier als Dezimalpunkt; für 250.000 "
        "schreiben Sie 250000"
    ) in result.output


def test_the_same_region_filter_twice_is_no_contradiction() -> None:
    """--eu given twice asks for one thing: listed, not refused as --eu beside --non-eu is."""
    once, twice = invoke("catalog", "offers", "--eu"), invoke("catalog", "offers", "--eu", "--eu")
    assert (twice.exit_code, twice.output) == (0, once.output)


def test_a_swiss_amount_is_told_to_drop_its_apostrophes() -> None:
    """250'000 (also with the typographic apostrophe U+2019) is how a Swiss quote is written: refused
    with the number to write, as a thousands comma or dot is."""
    for written in ("250'000", "250\u2019000"):
        result = invoke("tco", "--server-price-chf", written)
        assert result.exit_code == 2
        assert f"{written}: write the number without apostrophes: 250000" in result.output
    german = invoke("tco", "--lang", "de", "--server-price", "1'250'000")
    assert "1'250'000: Schreiben Sie die Zahl ohne Apostrophe: 1250000" in german.output
