"""The Jinja environments: templates from ``templates/``, rule messages from the rule declarations, the
message catalogs of each language, and the number and money formats every text shares.

Every text gpu-advisor writes goes through here. Templates mark their sentences for translation
(``_()`` and ``{% trans %}``); ``templates/i18n/<lang>.yaml`` maps each English sentence to its
translation. Numbers and money follow the language (1,420.32 in English, 1.420,32 in German) and the
chosen currency: amounts are computed in USD and shown in EUR at the knowledge base's dated rate.

"""

from __future__ import annotations

import hashlib
import re
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

import jinja2
import jinja2.meta

from gpu_advisor.engine.common.data_files import read_yaml
from gpu_advisor.engine.common.errors import KnowledgeError
from gpu_advisor.engine.common.wording import Words, runs
from gpu_advisor.engine.i18n.formats import DEFAULT_FORMAT, Format
from gpu_advisor.engine.i18n.knowledge_texts import (
    country_after_in,
    country_name,
    knowledge_texts,
    known_text,
)
from gpu_advisor.engine.i18n.message_limits import bounded_text
from gpu_advisor.engine.i18n.template_cache import bytecode_cache
from gpu_advisor.templates import TEMPLATES_DIR

I18N_DIR = TEMPLATES_DIR / "i18n"


def _format(context: jinja2.runtime.Context) -> Format:
    fmt = context.get("fmt")
    return fmt if isinstance(fmt, Format) else DEFAULT_FORMAT


@jinja2.pass_context
def _num(context: jinja2.runtime.Context, value: float | int, digits: int = 0) -> str:
    return _format(context).number(value, digits)


@jinja2.pass_context
def _figure(context: jinja2.runtime.Context, value: float) -> str:
    return _format(context).figure(value)


@jinja2.pass_context
def _money(context: jinja2.runtime.Context, value: float, digits: int = 2) -> str:
    return _format(context).money(value, digits)


@jinja2.pass_context
def _money0(context: jinja2.runtime.Context, value: float) -> str:
    return _format(context).money_whole(value)


@jinja2.pass_context
def _money_rate(context: jinja2.runtime.Context, value: float) -> str:
    return _format(context).money_rate(value)


@jinja2.pass_context
def _money_small(context: jinja2.runtime.Context, value: float) -> str:
    return _format(context).money_small(value)


@jinja2.pass_context
def _eur(context: jinja2.runtime.Context, value: float) -> str:
    """An amount the source gives in EUR, as it is (a list price shown beside its USD conversion)."""
    fmt = _format(context)
    return Format(fmt.lang, "EUR", 1.0).money(value)


@jinja2.pass_context
def _listed(context: jinja2.runtime.Context, value: float, currency: str, digits: int = 2) -> str:
    """A price as its source lists it, in its own currency (an API's EUR or USD price per token)."""
    return Format(_format(context).lang, typing.cast(Any, currency), 1.0, 1.0).money(value, digits)


@jinja2.pass_context
def _pct(context: jinja2.runtime.Context, value: float, beside: float | None = None) -> str:
    return _format(context).pct(value, beside)


@jinja2.pass_context
def _signed_pct(context: jinja2.runtime.Context, value: float) -> str:
    return _format(context).signed_pct(value)


@jinja2.pass_context
def _gb(context: jinja2.runtime.Context, value: float) -> str:
    return _format(context).gb(value)


@jinja2.pass_context
def _billions(context: jinja2.runtime.Context, value: float) -> str:
    return _format(context).billions(value)


def _range(context: jinja2.runtime.Context, figure: Any, write: Callable[[float], str]) -> str:
    low, high = write(figure.value_low), write(figure.value_high)
    if low == high:
        return low
    return f"{low} {'bis' if _format(context).lang == 'de' else 'to'} {high}"


@jinja2.pass_context
def _range_pct(context: jinja2.runtime.Context, figure: Any) -> str:
    """A market figure that is a share, as the documents write it: '60 to 90 %' or '44 %'."""
    low, high = (f"{v * 100:.0f}" for v in (figure.value_low, figure.value_high))
    if low == high:
        return f"{low} %"
    return f"{low} {'bis' if _format(context).lang == 'de' else 'to'} {high} %"


@jinja2.pass_context
def _range_num(context: jinja2.runtime.Context, figure: Any) -> str:
    return _range(context, figure, _format(context).number)


@jinja2.pass_context
def _range_money(context: jinja2.runtime.Context, figure: Any) -> str:
    return _range(context, figure, _format(context).money)


@jinja2.pass_context
def _known(context: jinja2.runtime.Context, text: str | None) -> str | None:
    """Prose quoted from the knowledge base, in the reader's language where it has a translation."""
    return text if not text else known_text(_format(context).lang, text)


@jinja2.pass_context
def _country(context: jinja2.runtime.Context, code: str, name: str | None = None) -> str:
    """A country by its ISO code, named in the reader's language (``name``: the English one)."""
    return country_name(_format(context).lang, code, name or code)


@jinja2.pass_context
def _in_country(context: jinja2.runtime.Context, code: str, name: str | None = None) -> str:
    """A country as it reads after "in" in the reader's language ("the Netherlands", "den Niederlanden")."""
    return country_after_in(_format(context).lang, code, name or code)


NOTE_PLACE = re.compile(r"\{(\w+)\}")
"""A place in a knowledge note, ``{name}`` (``CostFigure.quoted``, ``CostFigure.vat``)."""


def _filled(text: str, values: dict[str, str]) -> str:
    """A knowledge note with its ``{name}`` places filled in from ``values``: the amounts it quotes and its
    VAT, as the template words them for the reader."""
    return NOTE_PLACE.sub(lambda place: values.get(place[1], place[0]), text)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]<>|])")


def _markdown_text(text: str) -> str:
    """Text the user wrote, as literal Markdown text: no link, image, HTML, code or table cell can start
    in it, and it stays on its line (a workload's name in the memo's title, shown on the web page too)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


FILTERS: dict[str, Any] = {
    "md": _markdown_text,
    "known": _known,
    "filled": _filled,
    "country": _country,
    "in_country": _in_country,
    "num": _num,
    "figure": _figure,
    "money": _money,
    "money0": _money0,
    "money_small": _money_small,
    "money_rate": _money_rate,
    "eur": _eur,
    "listed": _listed,
    "runs": runs,
    "pct": _pct,
    "signed_pct": _signed_pct,
    "gb": _gb,
    "billions": _billions,
    "range_pct": _range_pct,
    "range_num": _range_num,
    "range_money": _range_money,
    # The first names of the money filters, kept for templates written before EUR output.
    "usd": _money,
    "usd0": _money0,
    "usd_small": _money_small,
    "range_usd": _range_money,
}


@cache
def catalog(lang: str) -> dict[str, str]:
    """English sentence -> translation for ``lang`` (empty for English)."""
    if lang == "en":
        return {}
    path = I18N_DIR / f"{lang}.yaml"
    data = read_yaml(path) or {}
    messages = data.get("messages", {}) if isinstance(data, dict) else None
    if not isinstance(messages, dict):
        # A shipped file, so a broken installation: said as a broken data file, not a traceback.
        raise KnowledgeError(f"{path}: not a translation catalog (a mapping of messages)")
    return {str(key): str(value) for key, value in messages.items()}


def translate(lang: str, message: str) -> str:
    """One sentence of the catalog, for text written outside a template (chart labels)."""
    return catalog(lang).get(message, message)


def say(lang: str, words: Words | str) -> str:
    """A message the code built (``common/wording.py``: a reader's complaint, a refused value) in ``lang``;
    text that is no such message as it is."""
    if isinstance(words, str):
        return words
    if lang == "en":
        return words.say(None, Format.named(lang).number)
    return words.say(spoken_catalog(lang), Format.named(lang).number)


@cache
def spoken_catalog(lang: str) -> dict[str, str]:
    """The sentences of ``lang``'s catalog and the knowledge base's own translations of the names it
    quotes (a server's name inside a message the code built); the catalog's sentences first."""
    return {**knowledge_texts(lang), **catalog(lang)}


def environment(lang: str = "en", sandboxed: bool = False) -> jinja2.Environment:
    """One environment per language: the gettext callables installed are the language's catalog.

    ``sandboxed``: for the messages of organization rules (``MessageSandbox``). It compiles without the
    bytecode cache, whose entries are found by template name and source alone, so that a sandboxed
    message never runs code compiled outside the sandbox."""
    return _environment(lang, sandboxed)


@cache
def _environment(lang: str, sandboxed: bool) -> jinja2.Environment:
    kind: type[jinja2.Environment] = message_sandbox() if sandboxed else jinja2.Environment
    env = kind(
        loader=jinja2.ChoiceLoader([_MESSAGES, jinja2.FileSystemLoader(str(TEMPLATES_DIR))]),
        bytecode_cache=None if sandboxed else bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n", "jinja2.ext.do"],
    )
    install_language(env, lang)
    return env


def install_language(env: jinja2.Environment, lang: str) -> None:
    """The filters (numbers and money in the reader's language and currency) and ``lang``'s message
    catalog as the gettext callables of ``env``: the same for plain text, Markdown and the web page."""
    env.filters.update(FILTERS)
    messages = catalog(lang)

    def gettext(message: str) -> str:
        return messages.get(message, message)

    def ngettext(singular: str, plural: str, count: int) -> str:
        return gettext(singular if count == 1 else plural)

    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]


@cache
def message_sandbox() -> type[jinja2.Environment]:
    """Jinja's immutable sandbox, with pydantic models read as data.

    An organization's rule messages are templates from a policy file: input, not code. Jinja's sandbox
    refuses attributes starting with an underscore, a function's internals and changes to lists and
    dicts, but would still let a message call a model's methods (``parse_raw`` unpickles). Here a
    model shows its fields and nothing else, and a class shows nothing. Imported when a policy is used:
    the built-in rules do not need it."""
    from jinja2.exceptions import SecurityError
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    from pydantic import BaseModel

    from gpu_advisor.engine.i18n.message_limits import (
        MAX_MESSAGE_VALUE,
        bounded_filters,
        counted_range,
        refuse_wide,
        repeated_length,
        small_power,
    )

    class MessageSandbox(ImmutableSandboxedEnvironment):
        # A message could build a value of any size: "x" * 1000000000 ran for minutes, "%0999999999d" % 1
        # took gigabytes. Jinja's sandbox lets such operators be intercepted; the filters that pad or
        # multiply, str.format and range are bounded too (``message_limits``).
        intercepted_binops = frozenset({"*", "**", "%"})
        bounded = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.filters.update(bounded_filters(self.filters))
            self.globals["range"] = counted_range(typing.cast(Callable[..., range], self.globals["range"]))

        def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
            if isinstance(obj, BaseModel):
                return attr in type(obj).model_fields
            if isinstance(obj, type):
                return False
            return bool(super().is_safe_attribute(obj, attr, value))

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            if operator == "**" and not small_power(left, right):
                raise SecurityError("a power this large is not computed in a rule message")
            if operator == "*" and repeated_length(left, right) > MAX_MESSAGE_VALUE:
                raise SecurityError(f"no value over {MAX_MESSAGE_VALUE:,} items is built in a rule message")
            if operator == "%":
                refuse_wide(left)
            return super().call_binop(context, operator, left, right)

        def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
            wrapped = super().wrap_str_format(value)
            if wrapped is not None:
                refuse_wide(value.__self__)
            return wrapped

    return MessageSandbox


class MessageLoader(jinja2.BaseLoader):
    """Rule messages as named templates, so the bytecode cache keeps them compiled between runs like
    the template files (compiling the messages a recommendation fires took longer than rendering
    it). A message is registered under a name derived from its text before it is loaded."""

    PREFIX = "rule-message/"

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}

    def register(self, source: str) -> str:
        name = self.PREFIX + hashlib.sha256(source.encode("utf-8")).hexdigest()
        self.sources[name] = source
        return name

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, None, Callable[[], bool]]:
        source = self.sources.get(template)
        if source is None:
            raise jinja2.TemplateNotFound(template)
        return source, None, lambda: True

    def list_templates(self) -> list[str]:
        """None to list: messages are registered as they are used, not found on disk."""
        return []


_MESSAGES = MessageLoader()


@cache
def message_template(lang: str, source: str, sandboxed: bool = False) -> jinja2.Template:
    """A rule message compiled once per language (the filters and catalog differ); ``sandboxed`` for an
    organization's rules (see ``environment``)."""
    return environment(lang, sandboxed).get_template(_MESSAGES.register(source))


@cache
def message_names(lang: str, source: str, sandboxed: bool = False) -> tuple[str, ...]:
    """The names a rule message reads from its context, sorted: a finding's context holds only these,
    since merging every fact field, detail and global for each finding cost more than rendering it."""
    parsed = environment(lang, sandboxed).parse(source)
    return tuple(sorted(jinja2.meta.find_undeclared_variables(parsed)))


def render_compiled_message(template: jinja2.Template, context: dict[str, Any]) -> str:
    """Render a compiled message with ``context`` as its whole context: the caller puts in the
    template's globals and ``fmt``. ``Template.render`` would copy every variable over the globals
    first, which cost more than the rendering of a short message itself."""
    try:
        chunks = template.root_render_func(template.new_context(context, shared=True))
        text = bounded_text(chunks) if getattr(template.environment, "bounded", False) else "".join(chunks)
    except Exception:
        # As Template.render does: the error then points at the message's own line.
        template.environment.handle_exception()
    return " ".join(text.split())


def render(template_name: str, fmt: Format = DEFAULT_FORMAT, **context: Any) -> str:
    return environment(fmt.lang).get_template(template_name).render(**context, fmt=fmt)
