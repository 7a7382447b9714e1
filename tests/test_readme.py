"""The README shows real output: its memo excerpt is the start of the golden memo, and its scenarios
excerpt is what its command prints."""

from __future__ import annotations

import re
import shlex

import pytest
from helpers import EVALUATED_ON, GOLDEN_DIR, REPO_ROOT, invoke


def readme_from(title: str) -> str:
    """The README from the heading ``title`` on (the first code blocks after it are the section's)."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split(f"## {title}\n", 1)[1]


def test_readme_memo_excerpt_is_the_start_of_the_real_memo() -> None:
    section = readme_from("What the memo looks like")
    excerpt = re.search(r"```markdown\n(.*?)```", section, re.DOTALL)
    assert excerpt is not None
    golden = (GOLDEN_DIR / "public-chat.md").read_text(encoding="utf-8")
    assert golden.startswith(excerpt.group(1))


def test_readme_scenarios_excerpt_is_what_its_command_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line of the excerpt, in order ("..." standing for the lines left out), is a line of the
    Robustness section the command above it prints, evaluated on the suite's date. The excerpt had
    drifted from the tool (60 %, 79 %, $3,122 where the command printed 61 %, 80 %, $3,201): no test
    read it."""
    section = readme_from("How sure is the decision: scenarios")
    command = re.search(r"```sh\n(gpu-advisor recommend [^\n]*--scenarios[^\n]*)\n```", section)
    excerpt = re.search(r"```markdown\n(.*?)```", section, re.DOTALL)
    assert command is not None and excerpt is not None
    arguments = shlex.split(command.group(1))[1:]
    monkeypatch.chdir(REPO_ROOT)  # the command's paths are the repository's
    result = invoke(*arguments, "--as-of", EVALUATED_ON.isoformat())
    assert result.exit_code == 0, result.output
    printed = result.stdout.split("\n## Robustness\n", 1)[1].split("\n## ", 1)[0].splitlines()
    printed = ["## Robustness", *printed]
    shown = [line for line in excerpt.group(1).splitlines() if line != "..."]
    position = 0
    for line in shown:
        assert line in printed[position:], line
        position = printed.index(line, position) + 1


def test_the_command_synopses_name_every_option() -> None:
    """Each synopsis under "Commands" that does not end its options with "..." names every option of its
    command (``ask --as-of``, ``check --unwaivable`` and ``--pass-unknown`` and ``size
    --latency-sensitive`` were left out)."""
    import click

    from gpu_advisor.cli import main

    block = readme_from("Commands").split("```sh\n", 1)[1].split("```", 1)[0]
    synopses: dict[tuple[str, str], str] = {}
    for line in block.splitlines():
        if line.startswith("gpu-advisor "):
            name, following = [*line.split()[1:3], ""][:2]
            key = (name, following.strip("[]"))
            synopses[key] = ""
        synopses[key] += line.split("  #", 1)[0] + "\n"
    context = click.Context(main)
    checked = []
    for (name, following), synopsis in synopses.items():
        if "..." in synopsis:
            continue  # batch, sweep, serve: their own sections list their options
        command = main.get_command(context, name)
        if isinstance(command, click.Group):
            command = command.get_command(context, following) or getattr(command, "listing", None)
        assert command is not None, name
        left_out = [
            option.opts[-1]
            for option in command.params
            if isinstance(option, click.Option)
            and option.name != "help"
            and not any(
                f"{spelled}{after}" in synopsis
                for spelled in option.opts + option.secondary_opts
                for after in (" ", "]", "|", "\n")
            )
        ]
        assert left_out == [], f"{name} {following}"
        checked.append(name)
    assert {"recommend", "ask", "check", "size", "tco", "catalog", "rules"} <= set(checked)
