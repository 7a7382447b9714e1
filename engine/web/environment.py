"""The Jinja environment of the web page: HTML templates from ``templates/web/``, escaped, with the same
filters (numbers and money in the language and currency) and the same message catalog as every other text."""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

from gpu_advisor.engine.i18n.environment import install_language
from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.i18n.template_cache import bytecode_cache
from gpu_advisor.templates import TEMPLATES_DIR

WEB_TEMPLATES = TEMPLATES_DIR / "web"
STATIC_DIR = WEB_TEMPLATES / "static"


@cache
def html_environment(lang: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(WEB_TEMPLATES), str(TEMPLATES_DIR)]),
        bytecode_cache=bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    install_language(env, lang)
    return env


def render_page(template_name: str, fmt: Format, **context: Any) -> str:
    return html_environment(fmt.lang).get_template(template_name).render(**context, fmt=fmt)
