"""An empty path ('') given for a file or directory, read or written: the system reads it as the current
directory (``check ""`` checked every file under it, ``--policy ""`` read its YAML files as rules), so
every command refuses it, naming the argument or option, in one wording whichever way the path goes."""

from __future__ import annotations

from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.wording import Words, at

A_FILE = Words("an empty path; name a file")
A_FILE_OR_STDIN = Words("an empty path; name a file, or - for standard input")
A_FILE_DIRECTORY_OR_STDIN = Words("an empty path; name a file or a directory, or - for standard input")
A_FILE_OR_DIRECTORY = Words("an empty path; name a file or a directory")
A_DIRECTORY = Words("an empty path; name a directory")


def empty_path(name: str, wanted: Words) -> InputError:
    """The refusal of an empty path given for ``name`` (an argument or option), which takes ``wanted``."""
    return InputError(at(name, wanted), field=name)


def refuse_empty_paths(*given: tuple[str, str | None, Words]) -> None:
    """Each (argument or option, path given, what it takes): an empty path ('') is refused, before any
    work."""
    for name, path, wanted in given:
        if path == "":
            raise empty_path(name, wanted)
