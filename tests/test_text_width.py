"""Plain-text outputs fit the width: tables laid out like the memo's (cells wrap or fold, never cut),
prose wrapped at the width on a terminal or where COLUMNS says so; a pipe or a file gets tables of
100 columns and whole prose lines. Text that fits is the same at every width."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main
from gpu_advisor.engine.present.terminal import Column, fit_table
from gpu_advisor.engine.present.text import wrap_lines

AS_OF = "2026-11-30"


def run(*args: str, columns: int | None = None) -> str:
    env = {"COLUMNS": str(columns)} if columns else {"COLUMNS": ""}
    result = CliRunner().invoke(main, list(args), env=env)
    assert result.exit_code in (0, 1), result.output
    return result.output


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_a_table_that_fits_is_laid_out_as_printf_did() -> None:
    columns = [Column("GPU", 10), Column("Cards", 6, ">"), Column("Note", prose=True, gap=2)]
    rows = [["h100-sxm", 4, ""], ["l4", 8, "not recommended: NET001"]]
    expected = "".join(
        line.rstrip() + "\n"
        for line in (
            "%-10s %6s  %s" % ("GPU", "Cards", "Note"),  # noqa: UP031 (the templates' former layout)
            "%-10s %6s  %s" % ("h100-sxm", 4, ""),  # noqa: UP031
            "%-10s %6s  %s" % ("l4", 8, "not recommended: NET001"),  # noqa: UP031
        )
    )
    assert fit_table(columns, rows, 100) == expected
    assert fit_table(columns, rows, None) == expected


def test_a_cell_longer_than_its_column_widens_the_column_instead_of_shifting_its_row() -> None:
    columns = [Column("GPU", 10), Column("Cards", 6, ">")]
    assert fit_table(columns, [["h100-sxm", 4], ["a100-80gb-pcie", 2]], 100) == (
        "GPU             Cards\nh100-sxm            4\na100-80gb-pcie      2\n"
    )


def test_free_text_wraps_first_and_other_cells_keep_their_width() -> None:
    columns = [Column("GPU", 10), Column("Cards", 6, ">"), Column("Note", prose=True, gap=2)]
    rows = [["a100-80gb-pcie", 2, "not recommended: NET001 and a note that goes on"]]
    assert fit_table(columns, rows, 50) == (
        "GPU             Cards  Note\n"
        "a100-80gb-pcie      2  not recommended: NET001 and\n"
        "                       a note that goes on\n"
    )


def test_prose_wraps_under_its_indent_and_a_link_stays_whole() -> None:
    text = "  - Power: a price <https://example.com/a/very/long/address/that/does/not/fit> and more words"
    assert wrap_lines(text, 40) == (
        "  - Power: a price\n"
        "    <https://example.com/a/very/long/address/that/does/not/fit>\n"
        "    and more words"
    )
    assert wrap_lines(text, None) == text


SIZE = ("size", "--model", "llama-3.1-8b", "--precision", "bf16", "--requests-per-day", "100000")
# The tables' figures are the estimate's at the exact 8.03B parameters (16.06 GB of BF16 weights, which
# each decode step reads): 0.4 % more bytes than at 8B, so some latency figures moved in their last digit
# (H100 SXM 8.04 -> 8.07 ms a token). The refit's compute share of 0.58 (0.59 before) leaves the one-card
# prefills about 1 % slower (H100 SXM 15.8 -> 15.9 ms to the first token) and its bandwidth share of 0.87
# (0.86 before) the decode steps about 1 % faster (8.07 -> 8 ms a token): 65.2 -> 64.5 requests/s. Since
# a request's first token comes from its prompt's pass (149 decode steps for the default 150 tokens, not
# 150) the refit's bandwidth share is 0.86 again: the steps about 1 % slower (8 -> 8.07 ms a token, the
# mi300x's 5.89 -> 5.94), each request one step fewer, and the requests a second about the same (64.5).
# Since a pass reads the output layer but only looks rows of the token embedding up (15.01 of the 16.06
# GB), the steps are about 5 % faster (8.07 -> 7.69 ms a token, the first token 15.9 -> 15.6 ms).
# One card sends no all-reduce, and a dense model has no routed experts.


def test_size_at_100_columns() -> None:
    text = run(*SIZE, columns=100)
    assert widest(text) <= 100
    assert (
        "\n".join(text.split("\n")[4:22]) + "\n"
        == """Load: 1.16 requests/s on average over 24 h/day, 1.95 at peak (factor 1.69)
Latency targets at the peak: first token within 1,000 ms, 100 ms a token (--max-ttft-ms,
--max-tpot-ms)

                      Cards for Cards per Req/s per                    TTFT  TPOT
GPU            Memory   weights   replica   replica Repl. GPUs Util.     ms    ms  Note
h100-sxm        80 GB         1         1      64.6     1    1   2 %   15.6  7.69
h100-pcie       80 GB         1         1      47.4     1    1   2 %   21.3  11.4
h100-nvl        94 GB         1         1      57.4     1    1   2 %   16.4  6.96
h200           141 GB         1         1      68.1     1    1   2 %   14.2  6.08
b200           192 GB         1         1       144     1    1   1 %   8.67  4.54
l40s            48 GB         1         1      20.2     1    1   6 %   43.7  24.1
l4              24 GB         1         -         -     -    -     -      -     -  ruled out: NET001
rtx-5090        32 GB         1         1        15     1    1   8 %   50.8  13.2
a10g            24 GB         1         -         -     -    -     -      -     -  ruled out: NET001
a100-80gb       80 GB         1         1      21.8     1    1   5 %   36.1  11.6
a100-80gb-pcie  80 GB         1         1      21.7     1    1   5 %   36.4  12.1
mi300x         192 GB         1         1      87.2     1    1   1 %     12   5.7
"""
    )


def test_size_at_80_columns_wraps_headings_at_spaces_and_folds_no_word() -> None:
    # The headings wrap between their words before the note narrows; a heading word, a GPU ID and a
    # figure are never folded, and the note wraps at its spaces.
    text = run(*SIZE, columns=80)
    assert widest(text) <= 80
    assert (
        "\n".join(text.split("\n")[4:23]) + "\n"
        == """Load: 1.16 requests/s on average over 24 h/day, 1.95 at peak (factor 1.69)
Latency targets at the peak: first token within 1,000 ms, 100 ms a token
(--max-ttft-ms, --max-tpot-ms)

                        Cards   Cards   Req/s
                          for     per     per                  TTFT TPOT
GPU            Memory weights replica replica Repl. GPUs Util.   ms   ms  Note
h100-sxm        80 GB       1       1    64.6     1    1   2 % 15.6 7.69
h100-pcie       80 GB       1       1    47.4     1    1   2 % 21.3 11.4
h100-nvl        94 GB       1       1    57.4     1    1   2 % 16.4 6.96
h200           141 GB       1       1    68.1     1    1   2 % 14.2 6.08
b200           192 GB       1       1     144     1    1   1 % 8.67 4.54
l40s            48 GB       1       1    20.2     1    1   6 % 43.7 24.1
l4              24 GB       1       -       -     -    -     -    -    -  ruled
                                                                          out:
                                                                          NET001
rtx-5090        32 GB       1       1      15     1    1   8 % 50.8 13.2
a10g            24 GB       1       -       -     -    -     -    -    -  ruled
                                                                          out:
"""
    )
    headings = text.split("\n")[8:11]
    assert "Weigh" not in "".join(headings) and "Utiliz" not in "".join(headings)


CATALOG = ("catalog", "offers", "--gpu", "h100-sxm", "--provider", "runpod", "--as-of", AS_OF)


def test_catalog_sources_become_numbered_notes_where_the_table_is_too_wide() -> None:
    assert (
        run(*CATALOG, columns=80)
        == """Provider/offer/GPU        $/GPU-h Pricing      Regions Sizes   As of      Source
runpod/community/h100-sxm   $2.69 on-demand    unknown 1,2,4,8 2026-10-10 [1]
runpod/secure/h100-sxm      $3.29 on-demand    unknown 1,2,4,8 2026-10-10 [2]

[1] Wie viele GPUs braucht KI-Inferenz: Cloud oder Eigenbau 2026 (2026-10-10),
    Cloud-GPU-Stundenpreise am 10.10.2026
[2] Wie viele GPUs braucht KI-Inferenz: Cloud oder Eigenbau 2026 (2026-10-10),
    Fragen: Was kostet eine gemietete H100 im Jahr 2026?
"""
    )
    # a pipe: 100 columns for the table, the notes wrapped with it
    pipe = run(*CATALOG)
    assert (
        pipe
        == """\
Provider/offer/GPU          $/GPU-h Pricing         Regions       Sizes     As of       Source
runpod/community/h100-sxm     $2.69 on-demand       unknown       1,2,4,8   2026-10-10  [1]
runpod/secure/h100-sxm        $3.29 on-demand       unknown       1,2,4,8   2026-10-10  [2]

[1] Wie viele GPUs braucht KI-Inferenz: Cloud oder Eigenbau 2026 (2026-10-10),
    Cloud-GPU-Stundenpreise am 10.10.2026
[2] Wie viele GPUs braucht KI-Inferenz: Cloud oder Eigenbau 2026 (2026-10-10), Fragen: Was kostet
    eine gemietete H100 im Jahr 2026?
"""
    )
    wide = run(*CATALOG, columns=300)
    assert "[1]" not in wide and widest(wide) > 100


OFFERS = ("catalog", "offers", "--as-of", AS_OF)


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_offer_or_gpu_id_is_split_at_any_width(columns: int, lang: str) -> None:
    """The whole catalog: an offer is named by its key, which wraps only after a slash; an ID, a price, a
    date is never folded, whatever the width and the language's headings."""
    import json

    text = run(*OFFERS, "--lang", lang, columns=columns)
    table = text.split("\n\n")[0]
    assert widest(table) <= columns  # a note's link stays whole
    keys = [line.split(" ")[0] for line in table.splitlines()[1:]]
    # a row's first line starts with its provider; a key's continuation lines hold its other parts
    rows: list[str] = []
    for part in keys:
        if rows and (rows[-1].endswith("/") or not part):
            rows[-1] += part
        elif part:
            rows.append(part)
    offers = json.loads(run(*OFFERS, "--format", "json"))
    assert rows == [f"{o['provider']}/{o['offer']}/{o['gpu']}" for o in offers]
    for offer in offers:
        assert offer["as_of"] in text
    assert "p5-res\n" not in text and "erved-3y" not in text.replace("p5-reserved-3y", "")


def test_the_catalog_at_80_columns_in_german_and_euro() -> None:
    text = run(*OFFERS, "--lang", "de", "--currency", "EUR", columns=80)
    assert text.startswith(
        """Anbieter/Angebot/GPU        €/GPU-h Preismodell Regionen  GPUs Stand      Quelle
aws/p5-on-demand/h100-sxm   3,36 €* On-Demand†  US        1,8  2026-03-27 [1]
aws/p5-reserved-1y/h100-sxm 1,81 €* reserviert† US        8    2026-03-27 [2]
"""
    ), text
    assert text.endswith(
        "* am 2026-11-30 älter als 180 Tage: Fragen Sie beim Anbieter den aktuellen Preis\nnach.\n"
    )


def test_sweep_at_80_columns() -> None:
    text = run(
        "sweep",
        str(EXAMPLES_DIR / "public-chat.yaml"),
        "--vary",
        "requests_per_day=100000:300000:100000",
        "--as-of",
        AS_OF,
        columns=80,
    )
    assert (
        text
        == """Sweep of public-chat: requests_per_day from 100,000 to 300,000 in steps of
100,000 (3 values; the file's: 1,000,000). Evaluated on 2026-11-30.

Decisions:
  A  managed API: llama-3.1-70b-deepinfra  (at the file's own values)

Break-even (the decision changes between two neighbouring values):
  none: the decision is the same over the whole range

requests_per_day Decision  GPUs    USD/month  Deciding rule
100,000          A            -         $548  DEP003
200,000          A            -       $1,095  DEP011
300,000          A            -       $1,643  DEP011

Monthly cost by requests_per_day (bar length is the cost, up to $1,643; drawn
with the decision's letter):
         100,000 A |AAAAAAAAAAAAA                            $548
         200,000 A |AAAAAAAAAAAAAAAAAAAAAAAAAAA              $1,095
         300,000 A |AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA $1,643
"""
    )


@pytest.mark.parametrize(("columns", "name"), [(80, "check80.txt"), (100, "check100.txt")])
def test_check_messages_wrap_under_their_indent(
    columns: int, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(EXAMPLES_DIR.parent)
    text = run("check", "examples/proposals/public-chat.yaml", "--as-of", AS_OF, columns=columns)
    expected = {
        "check80.txt": """examples/proposals/public-chat.yaml:4 #1 chat on four reserved H100: WARN
  recommended: dedicated_cloud (3 x h200 at runpod community), $7,862 per month
  proposed: $17,357 per month (+$9,495)
  WARN    DEP033 The proposal costs more than the recommendation
          The proposal costs $17,357/month, 2.21 times the recommendation's
          $7,862/month ($9,495 more a month, $341,831 over its 36-month term);
          see gpu-advisor recommend for what the rules weighed.
  WARN    PRC013 Whole instances: the proposal pays for cards it leaves idle
          The proposed offer is sold in whole instances: the 4 proposed cards
          are billed as 8, so 4 of them are paid for and idle, about $8,679 of
          the proposal's $17,357 a month. Propose all 8 (the same bill, room for
          more replicas) or an offer sold in smaller instances.
  WARN    SIZ012 No spare replica for a workload that needs one
          4 × h100-sxm carry the peak, but the workload needs 6 cards of this
          GPU: the spare replica the rules add for a business-critical or
          latency-sensitive service, or the workload's own min_replicas. A
          failed card takes its replica down, and with it the peak.
  24 passed, 3 with warnings, 0 failed, 0 unknown

""",
        "check100.txt": """examples/proposals/public-chat.yaml:4 #1 chat on four reserved H100: WARN
  recommended: dedicated_cloud (3 x h200 at runpod community), $7,862 per month
  proposed: $17,357 per month (+$9,495)
  WARN    DEP033 The proposal costs more than the recommendation
          The proposal costs $17,357/month, 2.21 times the recommendation's $7,862/month ($9,495
          more a month, $341,831 over its 36-month term); see gpu-advisor recommend for what the
          rules weighed.
  WARN    PRC013 Whole instances: the proposal pays for cards it leaves idle
          The proposed offer is sold in whole instances: the 4 proposed cards are billed as 8, so 4
          of them are paid for and idle, about $8,679 of the proposal's $17,357 a month. Propose all
          8 (the same bill, room for more replicas) or an offer sold in smaller instances.
  WARN    SIZ012 No spare replica for a workload that needs one
          4 × h100-sxm carry the peak, but the workload needs 6 cards of this GPU: the spare replica
          the rules add for a business-critical or latency-sensitive service, or the workload's own
          min_replicas. A failed card takes its replica down, and with it the peak.
  24 passed, 3 with warnings, 0 failed, 0 unknown

""",
    }
    assert text == expected[name]
