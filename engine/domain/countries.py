"""A country code as a request's input: one of the shipped knowledge base's list
(``knowledge/countries.yaml``), checked with the request's other fields so that every problem is reported
at once. A workload's company_country is checked in the pipeline instead (``pipeline/defaults.py``): the
workload's field types also check the knowledge base's own defaults while it loads."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from gpu_advisor.engine.common.errors import naming_meant
from gpu_advisor.engine.common.wording import Words, WordsError


def capitalized(value: str) -> str:
    """A code typed in small letters ('de') is that code: ISO 3166 spells every code in capitals, and no
    two codes differ by case alone."""
    return value.upper()


# The pattern takes either case so that a refusal shows the code as it was typed.
CountryCodeInput = Annotated[str, Field(pattern=r"^[A-Za-z]{2}$"), AfterValidator(capitalized)]
"""A country code as a user types it (a workload file, ``--country``, a request body): small letters taken
as the capitals the catalog lists. The knowledge base's own codes stay capitals only."""


def listed_country(code: str) -> str:
    """``code`` where ``countries.yaml`` lists it; said under whichever name the caller knows the field by
    (``--country`` on the command line, ``country`` in a request body)."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    knowledge = load_knowledge()
    if not knowledge.is_country(code):
        meant = knowledge.countries.meant_by.get(code)
        raise WordsError(naming_meant(Words("not a code of the ISO 3166-1 list"), meant))
    return code
