"""Proposal files: a file (YAML or JSON) or every such file under a directory; the proposals of a file
with the line each starts on, so that a report can point at it."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gpu_advisor.engine.common import yaml_core
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.common.user_input import load_yaml, read_input_text, unreadable
from gpu_advisor.engine.common.wording import Words, at
from gpu_advisor.engine.domain.input_errors import input_error, render_problems
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.domain.workload import validate_workload

PROPOSAL_SUFFIXES = (".yaml", ".yml", ".json")


def proposal_files(path: str, *, may_be_empty: bool = False, files_must_read: bool = True) -> list[str]:
    """``path`` itself, or for a directory every ``.yaml``, ``.yml`` and ``.json`` file under it (hidden
    files and directories left out, symbolic links to directories followed, each directory once), sorted
    by path. A directory without any is an input error unless it ``may_be_empty`` (a base branch that had
    no proposals yet). A directory that cannot be listed, a broken symbolic link and (where
    ``files_must_read``) a proposal file that cannot be opened are an input error that names every one of
    them: a gate that skipped them would pass proposals it never saw."""
    if path == "-" or not Path(path).is_dir():
        return [path]
    files: list[str] = []
    problems: list[Words] = []
    _walk(path, files, problems, set())
    if files_must_read:
        problems += [problem for file in files if (problem := _unopenable(file)) is not None]
    if problems:
        raise InputError(problems[0] if len(problems) == 1 else _listed(path, problems))
    if not files and not may_be_empty:
        raise InputError(at(path, Words("no proposal file (*.yaml, *.yml, *.json) under the directory")))
    return sorted(files, key=lambda file: Path(file).parts)


def _walk(directory: str, files: list[str], problems: list[Words], seen: set[tuple[int, int]]) -> None:
    """The proposal files under ``directory`` into ``files``, what cannot be read into ``problems``;
    ``seen``: the directories (device, inode) already walked, so that a link back up is not a loop."""
    try:
        status = os.stat(directory)
        if (status.st_dev, status.st_ino) in seen:
            return
        seen.add((status.st_dev, status.st_ino))
        with os.scandir(directory) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as error:
        problems.append(unreadable(directory, error))
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        name = Path(directory, entry.name).as_posix()
        try:
            mode = os.stat(name).st_mode
        except FileNotFoundError:
            if entry.is_symlink():
                problems.append(
                    at(name, Words("a broken symbolic link (to %(target)s)", target=_target(name)))
                )
            continue
        except OSError as error:
            problems.append(unreadable(name, error))
            continue
        if stat.S_ISDIR(mode):
            _walk(name, files, problems, seen)
        elif stat.S_ISREG(mode) and entry.name.endswith(PROPOSAL_SUFFIXES):
            # Regular files only: opening a named pipe called x.yaml would wait for a writer.
            files.append(name)


def _target(link: str) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"


def _unopenable(file: str) -> Words | None:
    """Why a proposal file cannot be opened, or None where it can."""
    try:
        with open(file, "rb"):
            return None
    except OSError as error:
        return unreadable(file, error)


def _listed(path: str, problems: list[Words]) -> Words:
    """Several problems under ``path``, one a line."""
    places = {f"p{index}": problem for index, problem in enumerate(problems)}
    return Words.joined(
        "%(head)s\n" + "\n".join(f"  %({name})s" for name in places),
        head=at(path, Words("%(count)s files or directories under it cannot be read:", count=len(problems))),
        **places,
    )


def proposals_under(path: str) -> list[tuple[str, int, int, ProposalDocument]]:
    """Every proposal of a file, or of every proposal file under a directory (``proposal_files``): its
    file, position in the file from 1, the line it starts on, the proposal."""
    return [
        (file, index, line, document)
        for file in proposal_files(path)
        for index, line, document in read_proposal_documents(file)
    ]


def read_proposal_documents(path: str) -> list[tuple[int, int, ProposalDocument]]:
    """The proposals of a file (one mapping, a list, or a mapping with 'proposals'): position from 1, the
    line it starts on, the proposal."""
    return proposal_documents(read_input_text(path), path)


def proposal_documents(text: str, path: str) -> list[tuple[int, int, ProposalDocument]]:
    """The proposals of a file's ``text`` (``path`` names it in messages), as ``read_proposal_documents``
    reads them: for a file that arrives as text (an upload to the web page)."""
    parsed = []
    for index, line, document in raw_documents(text, path):
        parsed.append((index, line, validated_document(document, proposal_origin(path, index))))
    return parsed


def raw_documents(text: str, path: str) -> list[tuple[int, int, Any]]:
    """A file's documents as parsed, not yet validated: position from 1, the line each starts on, the
    parsed value. A file that is not YAML or JSON, or holds none, is an input error."""
    data = load_yaml(text, path)
    if isinstance(data, dict) and set(data) == {"proposals"}:
        data = data["proposals"]
    elif shares_a_workload(data, path):
        data = [
            {
                "workload": data["workload"],
                "proposal": proposal,
                **({"waivers": data["waivers"]} if "waivers" in data else {}),
            }
            for proposal in data["proposals"]
        ]
    documents = data if isinstance(data, list) else [data]
    if not documents:
        raise InputError(at(path, Words("no proposal in the file")))
    lines = document_lines(text, len(documents))
    return [(index, lines[index - 1], document) for index, document in enumerate(documents, start=1)]


def shares_a_workload(data: Any, path: str) -> bool:
    """One workload beside a list of proposals for it (``workload``, ``proposals``, and ``waivers`` that
    hold for each): every proposal is checked against that workload. Such a file with another key, or
    whose ``proposals`` is no list, is an input error that says what the layout takes."""
    if not (isinstance(data, dict) and {"workload", "proposals"} <= data.keys()):
        return False
    extra = sorted(str(key) for key in data.keys() - SHARED_WORKLOAD_KEYS)
    if extra:
        raise InputError(
            at(
                path,
                Words(
                    "beside workload and proposals a file takes waivers only (got %(keys)s)",
                    keys=", ".join(extra),
                ),
            )
        )
    if not isinstance(data["proposals"], list):
        raise InputError(at(path, Words("proposals: a list of proposals, each as under proposal:")))
    return True


SHARED_WORKLOAD_KEYS = frozenset({"workload", "proposals", "waivers"})


def validated_document(document: Any, origin: Words) -> ProposalDocument:
    """One parsed document as a proposal; an input error naming ``origin`` where it is not one."""
    if not isinstance(document, dict):
        raise InputError(at(origin, Words("a proposal is a mapping with workload and proposal")))
    try:
        return ProposalDocument.model_validate(document)
    except ValidationError as error:
        refused = input_error(origin, error, ProposalDocument, "proposal")
        # The workload's problems too, as the HTTP service lists them: one run names every one of them.
        before = workload_problems(document.get("workload"))
        if not before or refused.problems is None:
            raise refused from None
        problems = [*before, *refused.problems]
        text = render_problems(str(origin), problems, "proposal", "en")
        raise InputError(
            text, field=str(problems[0]["field"]), problems=problems, origin=origin, what="proposal"
        ) from None


def workload_problems(workload: Any) -> list[dict[str, Any]]:
    """The validation problems of a proposal's workload mapping, each under ``workload.``; none where it is
    valid or no mapping (the document's own validation says so)."""
    if not isinstance(workload, dict):
        return []
    try:
        validate_workload(workload, "workload")
    except InputError as error:
        return [{**p, "field": f"workload.{p['field']}"} for p in error.problems or []]
    return []


def looks_like_a_proposal(document: Any) -> bool:
    """A parsed document that means to be a proposal: a mapping with a workload and a proposal."""
    return isinstance(document, dict) and {"workload", "proposal"} <= document.keys()


def proposal_origin(path: str, index: int) -> Words:
    """Where a proposal is in a message: ``proposals.yaml (proposal 2)``."""
    return Words("%(file)s (proposal %(index)s)", file=path, index=index)


def document_lines(text: str, count: int) -> list[int]:
    """The line (from 1) on which each of the file's ``count`` proposals starts; 1 for each where the
    text cannot be composed as YAML (JSON is YAML's flow style)."""
    try:
        root = yaml_core.compose(text)
    except (yaml.YAMLError, RecursionError):
        return [1] * count
    nodes: list[Node] = [root] if root is not None else []
    if isinstance(root, MappingNode) and [_key(k) for k, _ in root.value] == ["proposals"]:
        nodes = [root.value[0][1]]
    elif isinstance(root, MappingNode) and "proposals" in (keys := [_key(k) for k, _ in root.value]):
        # One workload and its proposals: each proposal starts where its list item does.
        nodes = [root.value[keys.index("proposals")][1]]
    if nodes and isinstance(nodes[0], SequenceNode):
        nodes = list(nodes[0].value)
    lines = [_first_line(node) for node in nodes]
    return lines if len(lines) == count else [1] * count


def _key(node: Node) -> Any:
    return node.value if isinstance(node, ScalarNode) else None


def _first_line(node: Node) -> int:
    """The line of a proposal's first key (a block mapping starts there; a flow mapping at its brace)."""
    if isinstance(node, MappingNode) and node.value and not node.flow_style:
        return int(node.value[0][0].start_mark.line) + 1
    return int(node.start_mark.line) + 1
