"""click's own messages in the reader's language: a bad option value, a missing argument, an unknown
option ("Error: Invalid value for '--jobs': 'x' is not a valid integer range.").

click marks these sentences with ``gettext`` and looks them up when it raises, in the global domain,
which would need compiled catalogs on disk and a locale in the environment. Instead, before click parses
the command line, the language is read from it (``--lang``, else ``GPU_ADVISOR_LANG``) and click's
modules are given a lookup in the project's own catalog (``templates/i18n/``). A sentence this click
release words differently falls back to its English.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from types import ModuleType

CLICK_MESSAGES: tuple[str, ...] = (
    "Error: {message}",
    "Try '{command} {option}' for help.",
    "Usage:",
    "Invalid value for {param_hint}: {message}",
    "Invalid value: {message}",
    "Missing argument",
    "Missing option",
    "Missing parameter",
    "Missing {param_type}",
    "Missing parameter: {param_name}",
    "Missing command.",
    "No such option {name!r}.",
    "No such command {name!r}.",
    "Did you mean {possibility}?",
    "(Did you mean one of: {possibilities}?)",
    "Got unexpected extra argument ({args})",
    "Got unexpected extra arguments ({args})",
    "Option {name!r} does not take a value.",
    "Option {name!r} requires an argument.",
    "Option {name!r} requires {nargs} arguments.",
    "Argument {name!r} takes {nargs} values.",
    "Takes {nargs} values but 1 was given.",
    "Takes {nargs} values but {len} were given.",
    "{value!r} is not {choice}.",
    "{value!r} is not one of {choices}.",
    "{value} is not in the range {range}.",
    "{value!r} is not a valid {number_type}.",
    "{value!r} is not a valid boolean. Recognized values: {states}",
    "file",
    "directory",
    "path",
    "{name} {filename!r} does not exist.",
    "{name} {filename!r} is a file.",
    "{name} {filename!r} is a directory.",
    "{name} {filename!r} is not readable.",
    "{name} {filename!r} is not writable.",
    "Could not open file {filename!r}: {message}",
    "unknown error",
    "Aborted!",
    "Error: invalid input",
    "Error: The two entered values do not match.",
    "Repeat for confirmation",
)
"""The sentences of click's that a user meets on a mistyped command line or answer; its help texts stay
as they are, like the options' own help."""

LANGUAGES = ("en", "de")


UNTRANSLATED_LOCALES = ("c", "posix")
"""The POSIX default locale, a container's usual LANG (``C.UTF-8``): no language asked for, English."""


def locale_language(value: str) -> str:
    """A language as a locale names it (``de_DE.UTF-8``, ``de-AT``, ``DE``) as gpu-advisor's (``de``), the
    POSIX default locale (``C``, ``C.UTF-8``, ``POSIX``) as English; anything else unchanged, for the
    option's own check."""
    first = value.split(".", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    if first in UNTRANSLATED_LOCALES:
        return "en"
    return first if first in LANGUAGES else value


def requested_language(arguments: Sequence[str]) -> str:
    """The language a command line asks for: its ``--lang`` (the last one given), else the environment's,
    else English; an unknown one is left to the option's own check, in English."""
    lang = os.environ.get("GPU_ADVISOR_LANG", "en")
    for index, argument in enumerate(arguments):
        if argument == "--":
            break
        if argument == "--lang" and index + 1 < len(arguments):
            lang = arguments[index + 1]
        elif argument.startswith("--lang="):
            lang = argument.removeprefix("--lang=")
    lang = locale_language(lang)
    return lang if lang in LANGUAGES else "en"


def speak_click(lang: str) -> None:
    """click's messages in ``lang`` from now on in this process (English: click's own lookup again, so
    that one German command does not leave later ones in the same process German)."""
    import gettext as standard

    import click.core
    import click.exceptions
    import click.formatting
    import click.parser
    import click.termui
    import click.types

    gettext: Callable[[str], str] = standard.gettext
    ngettext: Callable[[str, str, int], str] = standard.ngettext
    if lang != "en":
        from gpu_advisor.engine.i18n.environment import catalog

        words = catalog(lang)

        def gettext(message: str) -> str:
            return words.get(message, message)

        def ngettext(singular: str, plural: str, count: int) -> str:
            return gettext(singular if count == 1 else plural)

    modules: tuple[ModuleType, ...] = (
        click.core,
        click.exceptions,
        click.formatting,
        click.parser,
        click.termui,
        click.types,
    )
    for module in modules:
        if hasattr(module, "_"):
            module._ = gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]
