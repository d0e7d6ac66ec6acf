"""Every Python block of the book's Python chapter runs."""

import re

import pytest

from conftest import ROOT

CHAPTER = ROOT / "docs" / "book" / "src" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", CHAPTER.read_text(), re.S)


def test_the_chapter_has_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i + 1}" for i in range(len(BLOCKS))])
def test_each_block_runs(block):
    exec(compile(block, str(CHAPTER), "exec"), {})
