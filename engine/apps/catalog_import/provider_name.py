"""Which cloud a vendor catalog lists: ``--provider``, else SkyPilot's directory name or gpuhunt's file
name (``knowledge/import_mapping.yaml`` maps each format's names to the catalog's providers). A name the
format does not use is refused before any row is read, saying where the name came from and which the
format uses: a file in ``Downloads/`` was read whole, every row skipped, and refused as "the catalog does
not know 'Downloads'"."""

from __future__ import annotations

from pathlib import Path

from gpu_advisor.engine.apps.catalog_import.read import STANDARD_INPUT_NAME
from gpu_advisor.engine.common.errors import InputError, suggestions
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.import_mapping import ImportMappingFile


def provider_name_of(path: str, fmt: str, given: str | None, mapping: ImportMappingFile) -> str | None:
    """The format's name of the cloud the file at ``path`` lists (None for the plain CSV, whose rows name
    their providers, where ``--provider`` is not ``given``)."""
    if fmt == "csv":
        return given
    names = sorted(p.name for p in mapping.providers if p.format == fmt)
    give = Words("give --provider, one of: %(names)s", names=", ".join(names))
    if given is not None:
        if mapping.provider(fmt, given) is not None:
            return given
        raise InputError(at("--provider", unknown_name(fmt, given, None, names, mapping, give)))
    if path == "-":
        # SkyPilot's directory and gpuhunt's file name say which cloud a file lists; a pipe has neither.
        problem = Words("standard input has no file name to take the provider from")
        raise InputError(
            at(STANDARD_INPUT_NAME, Words.joined("%(problem)s; %(give)s", problem=problem, give=give))
        )
    file = Path(path).resolve()
    if fmt == "skypilot":
        name, source = file.parent.name, Words("taken from the directory name")
    else:
        name, source = file.stem, Words("taken from the file name")
    if mapping.provider(fmt, name) is not None:
        return name
    raise InputError(at(path, unknown_name(fmt, name, source, names, mapping, give)))


def unknown_name(
    fmt: str, name: str, source: Words | None, names: list[str], mapping: ImportMappingFile, give: Words
) -> Words:
    """``no skypilot cloud is named 'x' (where the name came from; what it may mean); give --provider,
    one of: ...``."""
    notes: list[Words] = [] if source is None else [source]
    format_name = mapping.format_name(fmt, name)
    if format_name is not None:
        # A catalog ID the format writes otherwise (gpuhunt's lambdalabs is the catalog's lambda).
        notes.append(Words("%(format)s names it %(known)s", format=fmt, known=repr(format_name)))
    else:
        found = suggestions(name, names).matches
        if len(found) == 1:
            notes.append(Words("did you mean %(suggestion)s?", suggestion=repr(found[0])))
    problem = Words("no %(format)s cloud is named %(name)s", format=fmt, name=repr(name))
    if notes:
        places = {f"n{index}": note for index, note in enumerate(notes)}
        listed = "; ".join(f"%({place})s" for place in places)
        problem = Words.joined(f"%(problem)s ({listed})", problem=problem, **places)
    return Words.joined("%(problem)s; %(give)s", problem=problem, give=give)
