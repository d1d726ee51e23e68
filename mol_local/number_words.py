"""Numbers as people write them in requests ("three tips", "the five largest files", "split between four")."""

from __future__ import annotations

NUMBER_WORDS: dict[str, int] = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                                "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "fifty": 50, "a hundred": 100}
_WORD_OF = {n: w for w, n in NUMBER_WORDS.items() if n <= 12}


def number_word(n: int) -> str:
    """How a count is written in a reply: "three" for 3, digits past twelve."""
    return _WORD_OF.get(n, str(n))


def said_number(said: str) -> int:
    """The number written as digits or as one of NUMBER_WORDS (KeyError for anything else)."""
    return int(said) if said.isdigit() else NUMBER_WORDS[said.lower()]
