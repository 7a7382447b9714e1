"""A regular install ships every data file the code reads: the tests run from an editable install,
which reads the source tree and so cannot notice a file that ``pip install .`` leaves out."""

from __future__ import annotations

import fnmatch

import pytest
from helpers import REPO_ROOT

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the globs do not depend on the interpreter

DATA_PACKAGES = ("knowledge", "rules", "templates")


def package_data_globs() -> dict[str, list[str]]:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return pyproject["tool"]["setuptools"]["package-data"]


def data_files(package: str) -> list[str]:
    root = REPO_ROOT / package
    return sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    )


def shipped(name: str, globs: list[str]) -> bool:
    # setuptools matches a glob per directory level: "*.yaml" does not reach into i18n/.
    return any(fnmatch.fnmatch(name, glob) and name.count("/") == glob.count("/") for glob in globs)


@pytest.mark.parametrize("package", DATA_PACKAGES)
def test_every_data_file_of_the_package_is_installed(package: str) -> None:
    globs = package_data_globs()[f"gpu_advisor.{package}"]
    files = data_files(package)
    assert files, f"{package}/ holds no data files: the test would pass for nothing"
    assert [name for name in files if not shipped(name, globs)] == []


def test_the_package_declares_its_type_hints() -> None:
    """``py.typed`` at the package root tells type checkers that gpu_advisor's hints are meant for them."""
    assert (REPO_ROOT / "py.typed").is_file()
    assert "py.typed" in package_data_globs()["gpu_advisor"]


def test_every_package_of_the_source_tree_is_installed() -> None:
    """A regular install ships only the packages pyproject.toml lists: a new folder of engine/ left out
    would import from the source tree in the tests and fail after ``pip install .``."""
    listed = set(
        tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    found = {
        "gpu_advisor." + ".".join(path.parent.relative_to(REPO_ROOT).parts)
        for path in (REPO_ROOT / "engine").rglob("__init__.py")
    }
    assert found - listed == set()
