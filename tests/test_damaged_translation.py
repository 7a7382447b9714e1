"""A shipped translation that does not read (a damaged installation) is said as a broken data file is, with
exit code 3, before any command runs: it ended in a traceback from the command line's language set-up."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gpu_advisor.cli import main
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.i18n import click_words, environment


def test_a_translation_that_does_not_read_is_an_error_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def damaged(lang: str) -> None:
        raise KnowledgeError(f"templates/i18n/{lang}.yaml: not valid YAML (line 181, column 4)")

    monkeypatch.setattr(click_words, "speak_click", damaged)
    monkeypatch.delenv("GPU_ADVISOR_TRACEBACK", raising=False)
    result = CliRunner().invoke(main, ["--lang", "de", "rules", "list"])
    assert result.exit_code == 3
    assert result.output == "error: templates/i18n/de.yaml: not valid YAML (line 181, column 4)\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("text", ["- just a list\n", "messages: [a, b]\n", "messages: {unclosed\n"])
def test_a_translation_file_that_is_not_a_catalog_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """The shipped catalog replaced by a list, a catalog whose messages are a list, or broken YAML: each
    is said as a broken data file (a list ended in an AttributeError)."""
    (tmp_path / "de.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(environment, "I18N_DIR", tmp_path)
    monkeypatch.delenv("GPU_ADVISOR_TRACEBACK", raising=False)
    environment.catalog.cache_clear()
    try:
        result = CliRunner().invoke(main, ["--lang", "de", "rules", "list"])
    finally:
        environment.catalog.cache_clear()
    assert result.exit_code == 3, result.output
    assert result.output.startswith(f"error: {tmp_path / 'de.yaml'}: ")
    assert "Traceback" not in result.output
