"""The examples of docs/pairing.md run, in order, and their asserts hold."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "pairing.md"


def test_the_examples_in_docs_pairing_md_run():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"docs/pairing.md block {number}", "exec"), namespace)
