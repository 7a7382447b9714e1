"""A proposal whose warnings fail the run (``--fail-on warn``) says so in its header, as each gated line
does: the header said WARN above lines marked "fails the run", and the run exited 1."""

from __future__ import annotations

from helpers import EXAMPLES_DIR, invoke

PROPOSAL = str(EXAMPLES_DIR / "proposals" / "public-chat.yaml")


def test_the_header_says_the_warnings_fail_the_run() -> None:
    result = invoke("check", PROPOSAL, "--fail-on", "warn")
    assert result.exit_code == 1
    assert result.output.startswith(f"{PROPOSAL}:4 #1 chat on four reserved H100: WARN [fails the run]\n")
    markdown = invoke("check", PROPOSAL, "--fail-on", "warn", "--format", "markdown")
    assert "### chat on four reserved H100: ⚠️ warn (fails the run)\n" in markdown.output


def test_warnings_that_do_not_gate_are_said_as_warnings() -> None:
    result = invoke("check", PROPOSAL)
    assert result.exit_code == 0
    assert result.output.startswith(f"{PROPOSAL}:4 #1 chat on four reserved H100: WARN\n")
    assert "fails the run" not in result.output


def test_with_soft_fail_the_report_says_what_would_fail_the_run() -> None:
    result = invoke("check", PROPOSAL, "--fail-on", "warn", "--soft-fail")
    assert result.exit_code == 0
    assert result.output.startswith(
        f"{PROPOSAL}:4 #1 chat on four reserved H100: WARN [would fail the run without --soft-fail]\n"
    )
    assert "[fails the run]" not in result.output
