"""The common tasks' own cases (turn/code_tasks.py): a draft that only looks right fails one of them."""

from __future__ import annotations

import pytest

from mol_local.turn.code_check import check

WORD = "Write a function that counts how many times a word appears in a sentence"
ANAGRAM = "Write a Python function that checks if two strings are anagrams"
SECOND = "Write a Python function that returns the second largest number in a list"


@pytest.mark.parametrize(("request_text", "answer", "why"), [
    (WORD, "```python\ndef word_count(s: str) -> int:\n    return sum(1 for word in s.split() if word.lower().isalpha())\n```",  # L2, mol chat
     "word_count takes 1 argument, but counting a word needs two: the text and the word to count"),
    (WORD, "```python\ndef count_word(sentence, word):\n    return sentence.count(word)\n```",  # counts "the" inside "then"
     "count_word('then the end', 'the') should be 1"),
    (WORD, "```python\ndef count_word(sentence, word):\n    return sentence.split().count(word)\n```", ""),
    (WORD, "```python\ndef count_word(word, sentence):\n    return sentence.split().count(word)\n```", ""),  # the word first: asked so
    (WORD, "```python\ndef count_word(word, sentence):\n    return word.split().count(sentence)\n```",
     "count_word('the', 'the cat sat on the mat') should be 2"),
    ("Write a function that counts how many times a letter appears in a string",
     "```python\ndef count_letter(letter, text):\n    return text.count(letter)\n```", ""),
    ("Write a function that counts how many times a letter appears in a string",
     "```python\ndef count_letter(text):\n    return len(text)\n```",
     "count_letter takes 1 argument, but counting a character needs two: the text and the character to count"),
    # more tasks with cases of their own
    (ANAGRAM, "```python\nfrom collections import Counter\n\ndef is_anagram(s1: str, s2: str) -> bool:\n"  # L2, mol chat
              "    return Counter(s1.lower() for s in range(len(s1)) if s1 == s2)\n```",
     "is_anagram('hello world', 'hello world') returned Counter({'hello world': 11}), not the bool it promises"),
    (ANAGRAM, "```python\ndef is_anagram(a, b):\n    return a == b\n```", "is_anagram('listen', 'silent') should be True"),
    (ANAGRAM, "```python\ndef is_anagram(a: str, b: str) -> bool:\n    return sorted(a.lower()) == sorted(b.lower())\n```", ""),
    (SECOND, "```python\ndef second_largest(arr: list[float]) -> float | None:\n    distinct = sorted(arr, reverse=True)\n"  # L2, mol chat:
             "    return distinct[-2] if len(distinct) >= 2 else None\n```\nFor example, second_largest([1, 5, 9]) returns 5.",  # true by luck
     "second_largest([1, 2, 3, 4]) should be 3"),
    (SECOND, "```python\ndef second_largest(xs):\n    return sorted(set(xs))[-2]\n```", ""),
    ("Write a function that checks if a word is a palindrome", "```python\ndef pal(w, strict):\n    return False\n```", ""),  # 2 args: not the task's
    ("Write a function that removes vowels from a string", "```python\ndef strip_vowels(s):\n    return s\n```",
     "strip_vowels('hello') should be 'hll'"),  # removing them (its own cases), not counting them
    ("Write a Python function that counts how many times each word appears in a string",  # L2, mol chat: one int
     "```python\ndef word_count(string: str) -> int:\n    return sum(1 for term in string.split())\n```", "word_count('the cat the') should be {'the': 2, 'cat': 1}"),
    ("Write a Python function fizzbuzz(n) that returns a list of strings",  # L2, mol chat: `i % 5 == 5`
     "```python\ndef fizzbuzz(n: int) -> list[str]:\n    out = []\n    for i in range(1, n + 1):\n"
     "        if i % 3 == 0 and i % 5 == 5:\n            out.append('FizzBuzz')\n        elif i % 2 == 0 and i % 4 == 2:\n"
     "            out.append('Buzz')\n        else:\n            out.append(f'{i}')\n    return out\n```",
     "fizzbuzz(15) should be ['1', '2', 'Fizz', '4', 'Buzz', 'Fizz', '7', '8', 'Fizz', 'Buzz', '11', 'Fizz', '13', '14', 'FizzBuzz']"),
    ("Write a Python function fizzbuzz(n) that returns a list of strings",
     "```python\ndef fizzbuzz(n):\n    return ['Fizz' * (i % 3 == 0) + 'Buzz' * (i % 5 == 0) or str(i) for i in range(1, n + 1)]\n```", ""),
    ("Write a Python function that sorts a list of dictionaries by the 'age' key",  # L2, mol chat
     "```python\ndef sort_by_age(dict: dict) -> list[dict]:\n    return sorted(list(dict))\n```",
     "sort_by_age([{'age': 3, 'i': 'c'}, {'age': 1, 'i': 'a'}, {'age': 2, 'i': 'b'}]) raised TypeError: "
     "'<' not supported between instances of 'dict' and 'dict'"),
    ("Write a Python function that sorts a list of dictionaries by the 'age' key",
     "```python\ndef sort_by(rows, key):\n    return sorted(rows, key=lambda r: r[key])\n```", ""),
    ("Sort a list of dicts by price, descending",
     "```python\ndef by_price(rows):\n    return sorted(rows, key=lambda r: r['price'])\n```",
     "by_price([{'price': 3, 'i': 'c'}, {'price': 1, 'i': 'a'}, {'price': 2, 'i': 'b'}]) should be "
     "[{'price': 3, 'i': 'c'}, {'price': 2, 'i': 'b'}, {'price': 1, 'i': 'a'}]"),
    ("Write a Python function that checks whether a number is even",  # L2, mol chat: a perfect-square test
     "```python\nfrom math import isqrt\n\ndef check_even(number: int) -> bool:\n    return number >= 0 and isqrt(number) ** 2 == number\n```",
     "check_even(6) should be True"),
    ("Write a Python function that checks whether a number is even",  # L2 again: isqrt(n) <= 2, true of 6, 0 and 4
     "```python\nfrom math import isqrt\n\ndef check_even(number: int) -> bool:\n    return number >= 0 and isqrt(number) <= 2\n```",
     "check_even(10) should be True"),
    ("Write a Python function that counts how many times a character appears in a string",
     "```python\ndef count_char(s, c):\n    return s.count(c)\n```", ""),
    ("Write a Python function that converts a list of strings to uppercase",  # L2, mol chat: joined into one string
     "```python\ndef uppercase_words(words: list) -> list[str]:\n    return ''.join(word.upper() for word in words if word)\n```",
     "uppercase_words([3, 1, 2]) raised AttributeError: 'int' object has no attribute 'upper'"),  # the smoke call comes first
    ("Write a function that reverses the words in a sentence",  # L2, mol chat: the letters reversed, spaced out
     "```python\ndef reverse_words(sentence: str) -> str:\n    return \" \".join(reversed(sentence))\n```",
     "reverse_words('hello big world') should be 'world big hello'"),
    ("Write a function that reverses the words in a sentence",
     "```python\ndef reverse_words(sentence: str) -> str:\n    return ' '.join(sentence.split()[::-1])\n```", ""),
    ("Write a Python function that checks if a string is a valid email address",  # L2, mol chat: it ran, and said
     "```python\ndef check_email(s: str) -> bool:\n    return s.lower().count('@') >= 2 and s.isuffix('x')\n```",  # nothing
     "check_email('ada@example.com') should be True"),
    ("Write a Python function that checks if a string is a valid email address",
     "```python\nimport re\n\ndef is_email(s):\n    return re.fullmatch(r'[^@ ]+@[^@ ]+\\.[a-z]+', s) is not None\n```", ""),
    ("Write a Python function that returns the last element of a list",  # L2, mol chat: its claim was true of its code
     "```python\ndef last(lst: list[list]) -> float | None:\n    return max(lst) if not lst else min(lst)\n```\nFor example, last([1, 2, 3]) returns 1.",
     "last([1, 2, 3]) should be 3"),
    ("Write a Python function that returns the last element of a list", "```python\ndef last(xs):\n    return xs[-1]\n```", ""),
    ("Write a function that converts a string to snake_case",  # L2, mol chat
     "```python\ndef snake_case(s: str) -> str:\n    return \"\".join(\"_\" + ch.lower() if ch.isupper() else ch for ch in s)\n```",
     "snake_case('hello world') should be 'hello_world'"),
    ("Write a function that converts a string to snake_case",
     "```python\nimport re\n\ndef snake(s):\n    return re.sub(r'(?<=[a-z])(?=[A-Z])|\\s+', '_', s).lower()\n```", ""),
])
def test_counting_a_word_and_other_common_tasks_bring_their_cases(request_text: str, answer: str, why: str) -> None:
    ran = check(answer, request_text)
    assert ran is not None and ran.why == why


def test_the_checks_own_note_and_a_quoted_value_are_never_taken_for_made_up_names() -> None:
    """`mol chat "… to snake_case"`: the note "I ran this and it does not work yet: snake_case('hello world') should be
    'hello_world'." was cut, as naming `hello_world`, which the code does not have; the answer looked like it worked."""
    from mol_local.turn.code_fix import without_made_up_names

    code = "```python\ndef snake(s):\n    return s.lower()\n```\n"
    note = "I ran this and it does not work yet: snake('hello world') should be 'hello_world'."
    assert without_made_up_names(code + note) == code + note
    assert without_made_up_names(code + "For example, snake('A B') returns 'a_b'.") == code + "For example, snake('A B') returns 'a_b'."
    assert without_made_up_names(code + "It calls made_up_helper first.") == code.rstrip("\n")  # a name outside quotes still goes


def test_what_to_return_for_a_negative_number_is_held_to_and_said() -> None:
    """`mol chat -c`: after a prime check, "Now make it return False for negative numbers" got the same function back,
    with nothing said about whether it did."""
    from mol_local.turn.code_check import checked_code
    from mol_local.turn.code_tasks import said_cases

    asked = "Write a function that checks if a number is even. Now make it return False for negative numbers"
    assert said_cases(asked, "f") == ["f(-7) == False", "f(-8) == False"]
    prime = ("```python\nfrom math import isqrt\n\ndef check_prime(number: int) -> bool:\n"
             "    return number >= 2 and all(number % d for d in range(2, isqrt(number) + 1))\n```")
    kept = checked_code(prime, "a prime check. Now make it return False for negative numbers", lambda _seed: "no code")
    assert kept.answer == prime + "\n\n(I ran it: check_prime(-7) gives False; check_prime(-8) gives False, as you asked.)"
    even = "```python\ndef is_even(n):\n    return n % 2 == 0\n```"
    mended = checked_code(even, asked, lambda _seed: "no code")
    assert "    if n < 0:\n        return False\n" in mended.answer and mended.answer.endswith(
        "(For a negative number it now returns False, as you asked; I ran it.)")


def test_a_code_block_closed_with_an_indented_fence_is_shown_closed() -> None:
    """`mol chat -c`: L2 ended its block with "    ```", which the terminal and the app showed as code."""
    from mol_local.turn.code_check import checked_code

    indented = "```python\ndef double(n):\n    return n * 2\n    ```"
    assert checked_code(indented, "Write a function that doubles a number", lambda _seed: "no code").answer == \
        "```python\ndef double(n):\n    return n * 2\n```"
