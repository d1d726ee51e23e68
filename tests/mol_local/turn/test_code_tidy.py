"""Tidy-ups of an answer's code once run (mol_local/turn/code_tidy.py), each from an answer seen with `mol chat`."""

from __future__ import annotations

from mol_local.turn.code_check import checked_code
from mol_local.turn.code_tidy import annotation_fixes, tidied, without_unused_imports

WORDS = "Write a python function that counts how many times each word appears in a string"


def test_a_right_function_under_the_wrong_return_type_gets_the_type_it_returns() -> None:
    """`mol chat`: the right Counter under `-> int` was shown with "I ran this and it does not work yet"."""
    counter = "```python\nfrom collections import Counter\n\ndef word_count(text: str) -> int:\n    return Counter(text.lower().split())\n```\n"
    got = checked_code(counter + "It counts the words.", WORDS, lambda _seed: "no code")
    assert "def word_count(text: str) -> dict:" in got.answer and got.redrafted
    assert got.answer.endswith("(I changed its return type from `int` to `dict`: it returns a dict; I ran it.)")
    assert annotation_fixes("def f(x) -> int:\n    return x\n", "f(1) raised TypeError: boom", WORDS) == []  # not a type mismatch
    assert annotation_fixes("def f(x):\n    return {x: 1}\n", "f(1) returned {1: 1}, not the int it promises", WORDS) == []  # no annotation
    halve = "def halve(n: int) -> int:\n    return str(n < 2)\n"  # a broken function, not a wrong annotation
    assert annotation_fixes(halve, "halve(7) returned 'False', not the int it promises", "Write a function that halves a number") == []


def test_an_import_nothing_uses_is_dropped() -> None:
    """`mol chat`: an average came with `from math import isqrt`."""
    code = "from math import isqrt\nimport os, re\n\ndef average(xs: list[float]) -> float:\n    return sum(xs) / len(xs) if xs else 0\n"
    assert without_unused_imports(code) == "def average(xs: list[float]) -> float:\n    return sum(xs) / len(xs) if xs else 0\n"
    used = "import math\n\ndef root(x):\n    return math.sqrt(x)\n"
    assert without_unused_imports(used) == used and without_unused_imports("import os\n") == "import os\n"  # all it is: kept


def test_an_example_with_no_call_in_it_is_dropped_and_one_that_can_be_run_stays() -> None:
    """`mol chat`: "For example, capitalized 'A' becomes 'ABC'." under a right capitaliser."""
    code = "```python\ndef cap(s: str) -> str:\n    return s.title()\n```\n"
    assert tidied(code + "It capitalises each word. For example, capitalized 'A' becomes 'ABC'.") == code + "It capitalises each word."
    assert tidied(code + "For example, cap('a b') returns 'A B'.") == code + "For example, cap('a b') returns 'A B'."
    assert tidied("```bash\nls\n```\nFor example, it lists.") == "```bash\nls\n```\nFor example, it lists."  # not Python


def test_a_redraft_whose_only_slip_is_its_return_type_is_retyped_and_shown() -> None:
    """`mol chat`: the first draft did not parse; a later one was the right Counter under `-> int`."""
    bad = "```python\ndef word_count(text: str) -> int:\n    return Counter(text.lower().split())__['count']\n```"
    good = "```python\nfrom collections import Counter\n\ndef word_count(text: str) -> int:\n    return Counter(text.lower().split())\n```\nIt counts."
    got = checked_code(bad, WORDS, lambda _seed: good)
    assert "-> dict:" in got.answer and "(I changed its return type from `int` to `dict`: it returns a dict.)" in got.answer
    assert "draft 2 passes" in got.report


def test_the_same_code_back_for_a_change_is_said_to_be_unchanged_and_a_glued_name_is_dropped() -> None:
    """`mol chat -c`: "Make it ignore spaces" after a string reverser got the same function back, explained "The function
    joins the characters withjoindepascal."."""
    from mol_local.turn.code_tidy import UNCHANGED, said_unchanged

    code = "```python\ndef reverse_string(s: str) -> str:\n    return \"\".join(reversed(s))\n```\n"
    assert tidied(code + "It reverses s. The function joins the characters withjoindepascal.") == code + "It reverses s."
    assert tidied(code + "It works without a loop.") == code + "It works without a loop."  # a word: kept
    assert tidied(code + "It reverses s. It zips the keys and values withzip.") == code + "It reverses s."  # L2, held-out bench
    assert said_unchanged(code + "It reverses s.", code + "Before.") == code + "It reverses s.\n\n" + UNCHANGED
    changed = code.replace("reversed(s)", "reversed(s.replace(' ', ''))")
    assert said_unchanged(changed, code) == changed
    held = code + "It reverses s.\n\n(I ran it: reverse_string('') gives '', as you asked.)"  # the cases asked for hold: not a failure
    assert said_unchanged(held, code) == held


def test_the_example_the_unchanged_note_asks_for_is_read_as_a_case() -> None:
    from mol_local.turn.code_check import examples

    assert examples("Make it ignore spaces: reverse_string('a b') should give 'ba'") == ["reverse_string('a b') == 'ba'"]
    assert examples("reverse_string('a b') should be 'ba'") == ["reverse_string('a b') == 'ba'"]


def test_a_sentence_naming_a_module_attribute_the_code_does_not_have_is_dropped_and_what_it_passed_is_said() -> None:
    """`mol chat "Write a function that checks whether a number is even"`: a right `n % 2 == 0` (the tenth draft) came with
    "The function tries the divisibility of math.BigInt.is_ odd, …"; what it was run on is said instead."""
    from mol_local.turn.code_fix import without_made_up_names

    code = "```python\ndef isEven(n: int) -> bool:\n    return n % 2 == 0\n```"
    answer = code + "\nThe function tries the divisibility of math.BigInt.is_ odd, which returns True when the number is even."
    checked = checked_code(answer, "Write a function that checks whether a number is even", lambda _seed: "no code")
    assert checked.answer == code + ("\n\n(I ran it on a few cases: isEven(6) gives True; isEven(9) gives False; isEven(0) gives True.)")
    kept = code + "\nIt reads data.csv and calls str.lower on each line."  # a file name and a builtin's method stay
    assert without_made_up_names(kept) == kept


def test_a_sentence_of_words_from_nowhere_after_right_code_is_dropped_and_the_check_note_stays() -> None:
    """`mol chat`: right code, then "It reverses the text with loop and condiments." and "It tries the divisibility of 400
    with neither year nor month."."""
    code = 'def reverse_string(s: str) -> str:\n    return "".join(reversed(s))\n'
    answer = (f"```python\n{code}```\nIt reverses the text with loop and condiments.\n\n"
              "(I ran it on a few cases: reverse_string('abc') gives 'cba'.)")
    assert tidied(answer, "How do I reverse a string in Python?") == (
        f"```python\n{code}```\n\n(I ran it on a few cases: reverse_string('abc') gives 'cba'.)")
    leap = "```python\ndef is_leap(year: int) -> bool:\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n```\n"
    assert tidied(leap + "It tries the divisibility of 400 with neither year nor month.", "Write a function that checks if a year is a leap year") \
        == leap.rstrip()
    vowels = '```python\ndef count_vowels(s: str) -> int:\n    return sum(1 for ch in s.lower() if ch in "aeiou")\n```\n'
    said = "It sums one for every character found in 'aeiou' after lowercasing."
    assert tidied(vowels + said, "Write a function that counts the vowels in a string") == vowels + said  # plain words: kept


def test_an_example_whose_claimed_value_is_no_python_value_is_dropped() -> None:
    """`mol chat`: right `list(dict.fromkeys(lst))`, then "For example, remove_duplicates([[1, 2], [3, 4]]) returns
    [{1, 2]: ['1', 2], 3: []}, {1, 2}: [])."."""
    code = "```python\ndef remove_duplicates(lst: list) -> list:\n    return list(dict.fromkeys(lst))\n```\n"
    bad = "For example, remove_duplicates([[1, 2], [3, 4]]) returns [{1, 2]: ['1', 2], 3: []}, {1, 2}: [])."
    assert tidied(code + bad, "Write a function that removes duplicates from a list") == code.rstrip()
    good = "For example, remove_duplicates([3, 1, 3]) returns [3, 1]."
    assert tidied(code + good, "Write a function that removes duplicates from a list") == code + good
