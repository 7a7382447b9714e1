"""Output files written safely, by every command that writes one (``-o``, ``--summary``, ``--charts``,
``ask --save/--memo``, ``catalog import -o``).

- **Atomic**: the text goes to a temporary file beside the target, which is renamed onto the target only
  once it is complete; a reader sees the old file or the whole new one, never a part, and an error (a
  batch file's bad header) leaves an existing file as it was.
- **Never onto an input**: a target that is one of the command's input files (the same path, another
  path to it, or a hard link) is refused, ``--force`` or not; so is one that is another of its outputs.
- **No symbolic links**: a target that is a symbolic link is refused; the rename would replace the link,
  and writing through it would change a file the user did not name.
- **Regular files only**: a device, pipe or socket is refused, ``--force`` or not; the rename would
  remove it (``-o /dev/null --force`` as root deleted the device).
- **No silent overwrite**: an existing target is refused unless ``--force``; without it, the new file is
  linked into place, which fails if another process created the target in the meantime.

Every refusal is an ``InputError`` naming the option and the file (exit code 2); where the operating system
refuses (no permission to write in the directory, an error while writing), a ``SystemRefusal`` (exit
code 5).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from gpu_advisor.engine.common.empty_paths import A_FILE, empty_path
from gpu_advisor.engine.common.errors import InputError, SystemRefusal
from gpu_advisor.engine.common.read_problems import os_problem
from gpu_advisor.engine.common.wording import Words, at

STANDARD_OUTPUT = "-"


@dataclass(frozen=True)
class OutputTarget:
    """A checked output file: where it goes, the option that named it, and whether it may replace one."""

    path: Path
    option: str
    force: bool


def _same_file(target: Path, source: Path) -> bool:
    try:
        if target.resolve() == source.resolve():
            return True
        return source.exists() and target.exists() and os.path.samefile(source, target)
    except (OSError, RuntimeError):  # a loop of links, a vanished file: not provably the same
        return False


def names_the_same_file(target: Path, given: str | None) -> bool:
    """``given`` (another of the command's files, if any; not standard output) is ``target``."""
    return given is not None and given != STANDARD_OUTPUT and _same_file(target, Path(given))


STANDARD_INPUT = "-"
"""An input named so is read from standard input."""


def _is_standard_input(target: Path) -> bool:
    """Standard input is a regular file (redirected from one), and it is ``target``."""
    try:
        given = os.fstat(sys.stdin.fileno())
        found = os.stat(target)
    except (AttributeError, ValueError, OSError):  # no standard input, or one without a file (a test's)
        return False
    return stat.S_ISREG(given.st_mode) and (given.st_dev, given.st_ino) == (found.st_dev, found.st_ino)


READ_FROM_DIRECTORIES = frozenset({".yaml", ".yml", ".json"})
"""The files a directory of policies or proposals is read for: an output of another kind (a memo, a
chart) may be written there."""


def _holds(given: str | None, target: Path) -> bool:
    """``given`` (an input, if any) is a directory ``target`` lies in, at any depth, and ``target`` is a
    file of a kind read from it: a directory of proposals or policies the command reads (a report
    written there is read as one the next time)."""
    if given is None or given == STANDARD_OUTPUT or target.suffix.lower() not in READ_FROM_DIRECTORIES:
        return False
    try:
        directory = Path(given)
        return directory.is_dir() and target.resolve().is_relative_to(directory.resolve())
    except (OSError, RuntimeError):  # a loop of links, a vanished directory: not provably inside
        return False


def check_output(
    output: str,
    option: str,
    *,
    inputs: Iterable[str | None] = (),
    force: bool = False,
    others: Iterable[tuple[str, str | None]] = (),
    input_dirs: Iterable[str | None] = (),
) -> OutputTarget:
    """Check ``output`` before any work is done; the refusals are listed in the module's docstring.
    ``others``: the command's other outputs, (option, file), which ``output`` may not be either;
    ``input_dirs``: what the command reads whole where it is a directory (policies, proposals), which
    ``output`` may not lie in."""
    if not output:
        # Said as an empty input path is: the system would read it as the current directory.
        raise empty_path(option, A_FILE)
    if output.endswith(("/", os.sep)):
        # Path() drops the slash: "newdir/" would be written as a file named "newdir".
        raise InputError(at(option, Words("%(file)s names a directory; name a file", file=repr(output))))
    target = Path(output)
    for other_option, other in others:
        if names_the_same_file(target, other):
            problem = Words(
                "%(file)s is also the file of %(other)s; write each output to a file of its own",
                file=repr(output),
                other=other_option,
            )
            raise InputError(at(option, problem))
    try:
        mode: int | None = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        # A path that cannot name a file (a file where a directory should be, a name too long): bad input;
        # a directory on the way the user may not search: the system's refusal.
        raise refusal(error, cannot_write(option, output, os_problem(error))) from None
    if mode is not None and stat.S_ISLNK(mode):
        problem = Words(
            "%(file)s is a symbolic link; outputs are never written through a link (name the file itself)",
            file=repr(output),
        )
        raise InputError(at(option, problem))
    if mode is not None and stat.S_ISDIR(mode):
        raise InputError(at(option, Words("%(file)s is a directory; name a file", file=repr(output))))
    if mode is not None and not stat.S_ISREG(mode):
        # A device, pipe or socket: replacing it (--force renames a new file over it) would remove it,
        # /dev/null included for a user who may; writing into it is what standard output is for.
        problem = Words(
            "%(file)s is not a regular file (a device, pipe or socket); outputs are written to files only: "
            "leave the option out to write to standard output",
            file=repr(output),
        )
        raise InputError(at(option, problem))
    for source in inputs:
        # A file redirected to standard input (``- -o pc.yaml --force < pc.yaml``) is an input too.
        redirected = source == STANDARD_INPUT and mode is not None and _is_standard_input(target)
        if redirected or names_the_same_file(target, source):
            problem = Words(
                "%(file)s is an input file of this command (%(source)s); write the output elsewhere",
                file=repr(output),
                source=Words("standard input") if redirected else repr(source),
            )
            raise InputError(at(option, problem))
    for source in input_dirs:
        if _holds(source, target):
            problem = Words(
                "%(file)s is inside %(source)s, a directory this command reads; write the output elsewhere",
                file=repr(output),
                source=repr(source),
            )
            raise InputError(at(option, problem))
    if mode is not None and not force:
        raise InputError(exists(option, output))
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(
            cannot_write(option, output, Words("no directory %(directory)s", directory=repr(str(parent))))
        )
    if not may_write_in(parent):
        raise SystemRefusal(cannot_write(option, output, no_permission(parent)))
    return OutputTarget(target, option, force)


SYSTEM_REFUSALS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EIO})
"""The operating system's errors that refuse what a valid path asks for (no permission, a read-only or full
disk, a failing device), as opposed to those of a path that cannot name a file (ENOTDIR, ENAMETOOLONG)."""


def refusal(error: OSError, words: Words) -> InputError:
    """``words`` as the error ``error`` makes of them: the system's refusal (exit code 5) where the system
    refused a valid path, bad input (exit code 2) where the path cannot name a file."""
    return SystemRefusal(words) if error.errno in SYSTEM_REFUSALS else InputError(words)


def may_write_in(directory: Path) -> bool:
    """The user may create a file in ``directory`` (checked before the work, as the questionnaire's
    answers were lost to a read-only directory found only when they were saved)."""
    return os.access(directory, os.W_OK | os.X_OK)


def no_permission(directory: Path) -> Words:
    return Words("no permission to write in %(directory)s", directory=repr(str(directory)))


def cannot_write(option: str, output: str, problem: Words) -> Words:
    return at(option, Words("cannot write %(file)s (%(problem)s)", file=repr(output), problem=problem))


def exists(option: str, output: str) -> Words:
    return at(option, Words("%(file)s exists; pass --force to replace it", file=repr(output)))


class PendingOutput:
    """The temporary file of an output being written; ``keep`` publishes it even when the block ends in
    an error (an interrupted batch keeps the results it has written); ``partial_path``: where such a
    part went instead of the target, which held a file already (``PARTIAL_SUFFIX``)."""

    def __init__(self, target: OutputTarget, handle: IO[Any]) -> None:
        self.target = target
        self.handle = handle
        self.keep = False
        self.partial_path: Path | None = None


PARTIAL_SUFFIX = ".partial"
"""What a stopped run's part of an output is named beside a target that holds a file already: a part
never replaces a whole earlier output (``--force`` replaces it with a whole new one only)."""


def _refuse_os(target: OutputTarget, error: OSError) -> InputError:
    return SystemRefusal(cannot_write(target.option, str(target.path), os_problem(error)))


def _publish(target: OutputTarget, temporary: str) -> None:
    """Move the complete temporary file onto the target: replace it with ``force``, else link it into
    place so that a file created meanwhile is not overwritten."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # a temporary file is private; the output gets the usual mode
    if target.force:
        # A file replaced keeps its permissions: a memo kept private (0600) is not made readable to all.
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(os.stat(target.path).st_mode))
        os.replace(temporary, target.path)
        return
    try:
        os.link(temporary, target.path)
    except FileExistsError:
        raise InputError(exists(target.option, str(target.path))) from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
        if os.path.lexists(target.path):  # a file system without hard links: check, then rename
            raise InputError(exists(target.option, str(target.path))) from None
        os.replace(temporary, target.path)
        return
    os.unlink(temporary)


@contextlib.contextmanager
def pending_output(target: OutputTarget, *, binary: bool = False) -> Iterator[PendingOutput]:
    """A temporary file beside ``target``, published when the block ends normally (or with ``keep``
    set), removed otherwise; Ctrl-C and SIGTERM (``KeyboardInterrupt``) keep what was written."""
    directory = target.path.parent if str(target.path.parent) else Path(".")
    try:
        handle: IO[Any] = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed below)
            "wb" if binary else "w",
            encoding=None if binary else "utf-8",
            newline=None if binary else "",
            dir=directory,
            prefix=f".{target.path.name}.",
            suffix=".tmp",
            delete=False,
        )
    except OSError as error:
        raise _refuse_os(target, error) from None
    pending = PendingOutput(target, handle)
    try:
        yield pending
    except KeyboardInterrupt:
        _finish_quietly(pending)
        raise
    except BaseException:
        if pending.keep:
            _finish_quietly(pending)
        else:
            _discard(handle)
        raise
    _finish(pending)


@contextlib.contextmanager
def removed_if_left_empty(directory: Path | None) -> Iterator[None]:
    """A directory the block may create (``directory``, where it does not exist yet), removed again if
    the block fails and leaves it empty: a command that stops on an error leaves no trace of its own."""
    missing = []  # the directory and its parents the block would create, deepest first
    while directory is not None and _missing(directory) and directory != directory.parent:
        missing.append(directory)
        directory = directory.parent
    try:
        yield
    except BaseException:
        for created in missing:
            try:
                created.rmdir()  # only an empty one
            except OSError:
                break
        raise


def _missing(path: Path) -> bool:
    """Nothing is at ``path``; where the system will not say (a directory above it that may not be
    searched), something may be, and the command's own check of the path reports why."""
    try:
        path.lstat()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _discard(handle: IO[Any]) -> None:
    """Remove a temporary file not to be published. Closing flushes what is buffered, which fails again
    on a full disk: the file is removed all the same."""
    with contextlib.suppress(OSError):
        handle.close()
    with contextlib.suppress(OSError):
        os.unlink(handle.name)


def _finish(pending: PendingOutput) -> None:
    handle = pending.handle
    try:
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        _publish(pending.target, handle.name)
    except OSError as error:
        _discard(handle)
        raise _refuse_os(pending.target, error) from None
    except InputError:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        raise


def _finish_quietly(pending: PendingOutput) -> None:
    """Publish what an interrupted command wrote: onto the target where none is there, else beside it
    as NAME.partial (replacing an earlier part), so that the file there stays whole. A failure to
    publish must not hide the interruption."""
    if os.path.lexists(pending.target.path):
        path = pending.target.path.with_name(pending.target.path.name + PARTIAL_SUFFIX)
        pending.target = OutputTarget(path, pending.target.option, force=True)
        pending.partial_path = path
    with contextlib.suppress(InputError, OSError):
        _finish(pending)


def write_output(target: OutputTarget, content: str | bytes) -> None:
    """Write all of ``content`` to ``target`` atomically."""
    with pending_output(target, binary=isinstance(content, bytes)) as pending:
        pending.handle.write(content)
