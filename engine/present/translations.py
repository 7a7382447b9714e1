"""Which sentences the texts ask to translate: every ``_()`` and ``{% trans %}`` in the templates, the
questionnaire's prompts, and the messages the code builds (``Words("...")`` and ``marked("...")``,
``common/wording.py``). Used by the tests (every sentence has a translation) and by translators.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from gpu_advisor.engine.apps.questionnaire import OTHER_MODEL, load_questions
from gpu_advisor.engine.domain.input_errors import TYPE_MESSAGES
from gpu_advisor.engine.domain.model_spec import VALUE_ERRORS
from gpu_advisor.engine.i18n.click_words import CLICK_MESSAGES
from gpu_advisor.engine.i18n.environment import environment
from gpu_advisor.engine.present.robustness_words import words as robustness_words
from gpu_advisor.engine.present.sweep_text import WORDS as SWEEP_WORDS
from gpu_advisor.templates import TEMPLATES_DIR


def translated_templates() -> list[str]:
    """Every template, by its path under ``templates/``: one that asks for no translation adds nothing,
    and a new include is found without being listed (a by-hand list let one stay English unnoticed)."""
    return sorted(path.relative_to(TEMPLATES_DIR).as_posix() for path in TEMPLATES_DIR.rglob("*.j2"))


def messages() -> list[str]:
    """Every sentence to translate, once, in order of appearance."""
    env = environment("en")
    found: dict[str, None] = {}
    for name in translated_templates():
        source = (TEMPLATES_DIR / name).read_text(encoding="utf-8")
        # extract_translations is added by the i18n extension, which the type stubs do not know.
        for _line, _function, message in env.extract_translations(source):  # type: ignore[attr-defined]
            for text in message if isinstance(message, tuple) else (message,):
                if text:
                    found[text] = None
    for question in load_questions():
        found[question.prompt] = None
        found[question.help] = None
        # a choice's word in the language is shown beside it and taken as an answer ('andere')
        for choice in (OTHER_MODEL,) if question.choices == "models" else question.choices or ():
            found[choice] = None
    for text in (
        *TYPE_MESSAGES.values(),
        *VALUE_ERRORS,
        *SWEEP_WORDS,
        *robustness_words(),
        *code_messages(),
        *CLICK_MESSAGES,
    ):
        found[text] = None
    return list(found)


ENGINE_DIR = Path(__file__).resolve().parents[1]

MARKERS = ("Words", "marked")
"""The calls whose first argument, written as a string, is a sentence to translate."""


@cache
def code_messages() -> tuple[str, ...]:
    """The sentences the code builds messages of, in the order of the files and their lines."""
    found: dict[str, None] = {}
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        calls = [
            node
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in MARKERS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ]
        for call in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):
            found[call.args[0].value] = None  # type: ignore[attr-defined]
    return tuple(found)
