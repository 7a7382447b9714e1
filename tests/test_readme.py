"""The README shows real output: its memo excerpt is the start of the golden memo."""

from __future__ import annotations

import re

from helpers import GOLDEN_DIR, REPO_ROOT


def test_readme_memo_excerpt_is_the_start_of_the_real_memo() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What the memo looks like", 1)[1]
    excerpt = re.search(r"```markdown\n(.*?)```", section, re.DOTALL)
    assert excerpt is not None
    golden = (GOLDEN_DIR / "public-chat.md").read_text(encoding="utf-8")
    assert golden.startswith(excerpt.group(1))
