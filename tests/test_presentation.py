"""What a person sees: tables that fit the terminal, the pager, the brief summary, readable charts."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main
from gpu_advisor.engine.present import terminal

PUBLIC_CHAT = str(EXAMPLES_DIR / "public-chat.yaml")
HR_ASSISTANT = str(EXAMPLES_DIR / "hr-assistant.yaml")


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, [*args, "--as-of", "2026-11-30"], env=env)


def test_a_table_cell_too_narrow_wraps_instead_of_hiding_its_end() -> None:
    table = "| Offer | Price |\n|---|---|\n| p5-reserved-1y | $1 |\n| p5-reserved-3y | $2 |\n"
    shown = terminal.render_markdown(table, width=16)
    assert "…" not in shown
    cells = [line.split()[0] for line in shown.splitlines() if line.strip() and "Offer" not in line]
    # Each offer name folded over two lines of its cell, the distinguishing end on the second.
    assert [cell for cell in cells if cell[0] not in "─-"] == ["p5-rese", "rved-1y", "p5-rese", "rved-3y"]


def test_the_memo_on_a_100_column_terminal_cuts_no_cell() -> None:
    memo = invoke("recommend", PUBLIC_CHAT).output
    shown = terminal.render_markdown(memo, width=100)
    assert shown.count("…") == memo.count("…")
    assert max(len(line) for line in shown.splitlines()) <= 100
    assert "p5-reserved-3y" in "".join(shown.split())


def test_a_long_memo_on_a_terminal_goes_through_the_pager(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(terminal, "is_terminal", lambda: True)
    paged = tmp_path / "paged.txt"
    env = {"PAGER": f"cat > {paged}", "COLUMNS": "100", "LINES": "40"}
    result = invoke("recommend", PUBLIC_CHAT, env=env)
    assert result.exit_code == 0, result.output
    assert result.output == ""
    assert "GPU decision memo: public-chat" in paged.read_text(encoding="utf-8")
    paged.unlink()
    # --no-pager: printed; --brief fits the screen, so it is not paged unless --pager asks.
    assert "GPU decision memo" in invoke("recommend", PUBLIC_CHAT, "--no-pager", env=env).output
    assert "Top findings" in invoke("recommend", PUBLIC_CHAT, "--brief", env=env).output
    assert not paged.exists()
    assert invoke("recommend", PUBLIC_CHAT, "--brief", "--pager", env=env).output == ""
    assert "Top findings" in paged.read_text(encoding="utf-8")


@pytest.mark.parametrize("pager", ["/nonexistent/pager", "false"])
def test_a_pager_that_fails_leaves_the_memo_printed(pager: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PAGER that is not installed (the shell's exit 127) or fails at once showed nothing, and the
    command exited 0 with a blank screen."""
    monkeypatch.setattr(terminal, "is_terminal", lambda: True)
    result = invoke("recommend", PUBLIC_CHAT, "--pager", env={"PAGER": pager, "COLUMNS": "100"})
    assert result.exit_code == 0
    assert "GPU decision memo: public-chat" in result.output


def test_no_pager_for_a_file_or_a_pipe(tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    env = {"PAGER": f"cat > {paged}", "LINES": "5"}
    assert invoke("recommend", PUBLIC_CHAT, "--pager", env=env).output.startswith("# GPU decision memo")
    memo = tmp_path / "memo.md"
    assert invoke("recommend", PUBLIC_CHAT, "--pager", "-o", str(memo), env=env).exit_code == 0
    assert memo.read_text(encoding="utf-8").startswith("# GPU decision memo")
    assert not paged.exists()


def test_brief_is_one_screen_in_english_and_german() -> None:
    english = invoke("recommend", HR_ASSISTANT, "--brief").output
    assert english.startswith("# GPU decision memo: hr-assistant\n")
    assert "## Summary" in english
    assert "## Why" not in english
    assert "### Sizing of the chosen GPU\n\n| GPU | Memory | Cards for weights |" in english, english
    assert "\n| h100-sxm | 80 GB | 1 | 2 |" in english
    assert english.count("\n|") == 3  # header, rule, the chosen GPU's row
    findings = [line for line in english.splitlines() if line.startswith("- **")]
    assert len(findings) == 5
    assert findings[0].startswith("- **DEP005** · warning:")  # the deciding rule first
    assert len({line.split("**")[1] for line in findings}) == 5  # a rule once, however many GPUs
    assert english.endswith("the same command without --brief.\n")
    assert len(english.splitlines()) < 40
    german = invoke("recommend", HR_ASSISTANT, "--brief", "--lang", "de", "--currency", "EUR").output
    assert "### Dimensionierung der gewählten GPU" in german
    assert "### Wichtigste Befunde" in german
    assert "- **DEP005** · Warnung:" in german
    assert german.endswith("derselbe Befehl ohne --brief.\n")


def test_mermaid_charts_have_colours_and_a_legend() -> None:
    memo = invoke("recommend", PUBLIC_CHAT).output
    palette = '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#2563EB, #EA580C"}}}}%%\n'
    assert memo.count(f"```mermaid\n{palette}xychart-beta\n") == 2
    assert "Legend: 🟦 blue line, own hardware; 🟧 orange line, runpod/community.\n" in memo
    assert (
        "Legend: 🟦 blue line, the managed API (Llama 3.1 70B Instruct Turbo (DeepInfra)); 🟧 orange line, "
        "the self-hosted route the API was weighed against, runpod community, 1 × h200 per replica.\n" in memo
    )
    german = invoke("recommend", PUBLIC_CHAT, "--lang", "de").output
    assert "Legende: 🟦 blaue Linie, eigene Hardware; 🟧 orange Linie, runpod/community.\n" in german


def test_chart_files_of_two_workloads_share_a_directory(tmp_path: Path) -> None:
    charts = tmp_path / "charts"
    for workload in (PUBLIC_CHAT, HR_ASSISTANT):
        memo = tmp_path / (Path(workload).stem + ".md")
        result = invoke("recommend", workload, "--charts", str(charts), "-o", str(memo))
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in charts.iterdir()) == [
        "hr-assistant-api-versus-self-hosted.png",
        "hr-assistant-buy-versus-rent.png",
        "public-chat-api-versus-self-hosted.png",
        "public-chat-buy-versus-rent.png",
    ]
    assert "(charts/hr-assistant-buy-versus-rent.png)" in (tmp_path / "hr-assistant.md").read_text("utf-8")
