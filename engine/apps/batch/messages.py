"""The messages of a run on standard error (batch, sweep, recommend: ``templates/run_message.txt.j2``), in
the run's language."""

from __future__ import annotations


def said(lang: str, kind: str, **context: object) -> str:
    """A message of the run (``templates/run_message.txt.j2``) in ``lang``."""
    from gpu_advisor.engine.i18n.environment import render
    from gpu_advisor.engine.i18n.formats import Format

    return render("run_message.txt.j2", Format.named(lang), kind=kind, **context).strip()
