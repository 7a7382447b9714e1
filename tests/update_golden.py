"""Rewrite the golden memos and results of every example (tests/golden/) from the current code.

    python tests/update_golden.py

A separate, explicit command: the golden tests only ever compare. After running it, review the diff like
any other change (``git diff tests/golden``) and say in the commit why each memo changed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

TESTS_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS_DIR))

from golden import GOLDEN_CASES, golden_arguments  # noqa: E402


def main() -> None:
    from gpu_advisor.cli import main as cli

    for case in GOLDEN_CASES:
        result = CliRunner().invoke(cli, golden_arguments(case))
        if result.exit_code != 0:
            raise SystemExit(f"{case.file.name}: exit {result.exit_code}\n{result.output}")
        case.file.write_text(result.output, encoding="utf-8")
        print(f"wrote {case.file.relative_to(TESTS_DIR.parent)}")


if __name__ == "__main__":
    main()
