"""Numbers in words for messages: '1 cell', '2 cells', '12,988 solutions'."""
from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """n and the word, in the plural unless n is 1 (`many` for an irregular plural)."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"
