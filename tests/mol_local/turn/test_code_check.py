"""Code in an answer is run before it is shown (mol_local/turn/code_check.py): in the real subprocess sandbox,
against the signature and examples the request names and the examples the answer claims."""

from __future__ import annotations

import pytest

from mol_local.turn.code_check import check, checked_code, examples, named_entry

LARGEST = "Write a Python function that returns the largest of three numbers"
TWO_ARGS = ("```python\ndef largest(a: int, b: int) -> int:\n    return max(a, b) if a >= b else min(b, a)\n```\n"
            "The function compares the two given arguments. For example, largest(12, 50) returns 50.")  # L2, mol chat
THREE_ARGS = "```python\ndef largest(a, b, c):\n    return max(a, b, c)\n```\nFor example, largest(1, 5, 3) returns 5."
MASK = "Hi! Python: mask_card('1234567890') -> '######7890'. Write mask_card(number). Thanks!"


def _never(_seed: int) -> str:
    raise AssertionError("no redraft was needed")


def test_the_request_names_the_signature_and_its_examples_are_tests() -> None:
    assert named_entry(MASK) == ("mask_card", 1) and named_entry("Write a function that adds two numbers") is None
    assert examples(MASK) == ["mask_card('1234567890') == '######7890'"]
    assert examples("For example, f(x) returns 3 and print(2) is 2.") == []  # a name, not a literal; a builtin


@pytest.mark.parametrize(("answer", "why"), [
    (TWO_ARGS, "largest takes 2 arguments, but the request gives 3"),
    ("```python\ndef largest(a, b, c:\n```", "syntax error: '(' was never closed (line 1)"),
    ("```python\nfrom math import gcd\n\ndef largest(a, b, c):\n    return largest(a, b, c)\n```\nFor example, largest(1, 2, 3) returns 3.",
     "largest(1, 5, 3) raised RecursionError: maximum recursion depth exceeded"),  # the task's own case runs first
    ("```python\nwhile True:\n    pass\n\ndef largest(a, b, c):\n    return c\n```\nFor example, largest(1, 2, 3) returns 3.",
     "running it ran past the time limit"),
    (THREE_ARGS, ""),
])
def test_a_draft_fails_for_a_reason_it_names(answer: str, why: str) -> None:
    ran = check(answer, LARGEST)
    assert ran is not None and ran.why == why


def test_a_named_function_missing_or_failing_the_persons_example_fails() -> None:
    assert check("```python\ndef hide(number):\n    return number\n```", MASK).why == "it does not define mask_card, which you asked for"  # type: ignore[union-attr]
    wrong = check("```python\ndef mask_card(number):\n    return number\n```", MASK)
    assert wrong is not None and wrong.why == "mask_card('1234567890') should be '######7890'"
    right = check("```python\ndef mask_card(number):\n    return '#' * (len(number) - 4) + number[-4:]\n```", MASK)
    assert right is not None and right.why == "" and right.wrong_claims == ()
    assert check("No code here, just words.", MASK) is None
    bucket = "```python\nclass Bucket:\n    def add(self, name):\n        pass\n```"  # held-out L2, for "Can you write class Basket?"
    assert check(bucket, "Can you write class Basket?").why == "it does not define class Basket, which you asked for"  # type: ignore[union-attr]


def test_the_examples_a_request_shows_are_tests_and_a_plain_call_must_not_crash() -> None:
    from mol_local.turn.code_check import shown_examples, smoke_call

    assert shown_examples("Python: median(numbers). [3, 1, 2] gives 2; [4, 1, 3, 2] gives 2.5.", "median", 1) == \
        ["median([3, 1, 2]) == 2", "median([4, 1, 3, 2]) == 2.5"]
    assert shown_examples("Python: gcd(a, b) -> int. (12, 18) gives 6 and (7, 0) gives 7.", "gcd", 2) == ["gcd(12, 18) == 6", "gcd(7, 0) == 7"]
    assert smoke_call("def f(a: int, b: list[int], c=3):\n    pass", "f") == "f(7, [3, 1, 2])"
    assert smoke_call("def f(a, b):\n    pass", "f") is None  # nothing to fill it with: not called
    broken = "```python\ndef palindrome(text: str) -> bool:\n    return text == text__[::-1]\n```"  # held-out L2
    assert check(broken, "Write palindrome(text)").why == "palindrome('hello world') raised NameError: name 'text__' is not defined"  # type: ignore[union-attr]
    validating = "```python\ndef f(x: int) -> int:\n    raise ValueError('x must be positive')\n```"
    assert check(validating, "write f(x)").why == ""  # type: ignore[union-attr]  (its own validation, not a crash)


def test_a_failing_draft_is_replaced_by_one_that_passes() -> None:
    seeds: list[int] = []
    checked = checked_code(TWO_ARGS, LARGEST, lambda seed: seeds.append(seed) or ("no code" if seed == 1 else THREE_ARGS))
    tried = "\n\n(I ran it on a few cases: largest(1, 5, 3) gives 5; largest(9, 2, 4) gives 9; largest(-1, -5, -3) gives -1.)"
    assert checked.answer == THREE_ARGS + tried and checked.redrafted and seeds == [1, 2]  # what it passed, said
    assert checked.report == "ran: the first draft failed (largest takes 2 arguments, but the request gives 3); draft 3 passes its checks"
    assert checked_code(THREE_ARGS, LARGEST, _never).report == "ran: its checks pass"
    assert checked_code("Plain words.", LARGEST, _never).report == ""


def test_when_no_draft_passes_the_person_is_told_what_failed() -> None:
    checked = checked_code(TWO_ARGS, LARGEST, lambda _seed: TWO_ARGS)
    assert checked.answer == f"{TWO_ARGS}\n\nI ran this and it does not work yet: largest takes 2 arguments, but the request gives 3."
    assert not checked.redrafted


def test_a_false_example_in_the_sentence_is_made_to_say_what_the_code_returns() -> None:
    """L2 wrote a right reverse_string, then "For example, reverse_string('a') returns 'ab'."."""
    answer = ("```python\ndef reverse_string(s: str) -> str:\n    return \"\".join(reversed(s))\n```\n"
              "The function reverses the text. For example, reverse_string('a') returns 'ab'.")
    checked = checked_code(answer, "Write a Python function that reverses a string", lambda _seed: "no code")
    assert checked.answer.endswith("For example, reverse_string('a') returns 'a'.") and "'ab'" not in checked.answer


def test_the_turn_shows_the_draft_that_passes(scripted_runtime) -> None:
    rt, scripted = scripted_runtime([TWO_ARGS, THREE_ARGS])
    result = rt.session().run_turn(LARGEST, slot="L2")
    assert result.answer.startswith(THREE_ARGS + "\n\n(I ran it on a few cases: largest(1, 5, 3) gives 5;")
    assert result.code_redrafted and scripted.outputs == []
    stored = rt.timeline.load_tasks(result.conversation_id)[-1].messages[-1].content
    from mol_local.turn.code_tidy import without_check_notes

    assert stored == result.answer and without_check_notes(stored) == THREE_ARGS  # kept: the checked answer; trained on: less the notes


def test_a_shell_block_must_parse_and_is_never_run(tmp_path) -> None:
    """`mol chat "Write a bash one-liner to count lines in all .py files"` got an unclosed quote."""
    broken = "```bash\npython -o count.txt '*.py\" | grep \"linecount\" -o count.txt\n```\nThe script counts lines."
    ran = check(broken, "Write a bash one-liner to count lines in all .py files")
    assert ran is not None and ran.why.startswith("shell syntax error: unexpected EOF while looking for matching")
    fine = check("```bash\n$ find . -name '*.py' | xargs wc -l\n```", "count lines")
    assert fine is not None and fine.why == ""
    made = tmp_path / "made"
    assert check(f"```sh\ntouch {made}\n```", "make a file").why == "" and not made.exists()  # type: ignore[union-attr]  (parsed only)


SECOND = "Write a Python function that returns the second largest number in a list"


def test_a_function_must_return_the_plain_type_it_promises() -> None:
    from mol_local.turn.code_check import returns

    counter = "```python\nfrom collections import Counter\n\ndef same(a: str, b: str) -> bool:\n    return Counter(a)\n```"
    assert check(counter, "Write a function that compares two strings").why.endswith("not the bool it promises")  # type: ignore[union-attr]
    optional = "```python\ndef first(xs: list[int]) -> int | None:\n    return None\n```"
    assert check(optional, "Write a function").why == ""  # type: ignore[union-attr]
    as_float = "```python\ndef half(x: int) -> float:\n    return 3\n```"
    assert check(as_float, "Write a function").why == ""  # type: ignore[union-attr]  (an int is a fine float)
    import ast
    assert [returns(ast.parse(f"def f() -> {a}: pass"), "f") for a in ("bool", "list[int]", "Optional[str]", "dict | None", "int | str", "Foo")] == \
        ["bool", "list", "str or None", "dict or None", "", ""]


@pytest.mark.parametrize(("request_text", "answer", "renamed"), [
    ("Write a function that returns the maximum value in a list",  # L2, mol chat: TypeError
     "```python\ndef max(a: list) -> float | None:\n    return max(a, default=None)\n```\nThe function compares.", "max_of"),
    ("Write a Python function that returns the sum of a list of numbers",  # L2, mol chat: RecursionError
     "```python\ndef sum(numbers: list[float]) -> float:\n    return sum(numbers) if numbers else 0\n```", "sum_of"),
])
def test_a_function_hiding_the_builtin_it_calls_is_renamed_and_said_so(request_text: str, answer: str, renamed: str) -> None:
    from mol_local.turn.code_check import checked_code

    got = checked_code(answer, request_text, lambda seed: "no code this time")
    assert f"def {renamed}(" in got.answer and got.answer.endswith(f"(I renamed `{renamed[:3]}` to `{renamed}`: a function called "
                                                                   f"{renamed[:3]} hides Python's own {renamed[:3]}, which it calls.)")
    assert check(got.answer, request_text).why == ""  # type: ignore[union-attr]


def test_a_recursive_function_with_a_builtins_name_that_works_is_left_alone() -> None:
    from mol_local.turn.code_check import checked_code

    works = "```python\ndef pow(x: int, n: int) -> int:\n    return 1 if n == 0 else x * pow(x, n - 1)\n```\nFor example, pow(2, 3) returns 8."
    assert checked_code(works, "Write a recursive power function", lambda seed: "").answer == works


def test_told_what_to_return_for_an_empty_list_the_function_is_guarded_and_checked() -> None:
    """`mol chat -c`: "Make it return 0 for an empty list" got the same `… if numbers else None` back."""
    from mol_local.turn.code_check import checked_code
    from mol_local.turn.code_tasks import empty_case

    same = ("```python\ndef average(numbers: list[float]) -> float:\n    \"\"\"Mean.\"\"\"\n    return sum(numbers) / len(numbers) if numbers else None\n```\n"
            "For example, average([1, 2, 3]) returns 2.0.")
    got = checked_code(same, "Make it return 0 for an empty list", lambda seed: same)
    assert '    """Mean."""\n    if not numbers:\n        return 0\n' in got.answer  # after the docstring
    assert got.answer.endswith("(For an empty list it now returns 0, as you asked; I ran it.)") and got.redrafted
    assert check(got.answer, "Make it return 0 for an empty list").why == ""  # type: ignore[union-attr]
    assert check(same, "Make it return 0 for an empty list").why == "average([]) should be 0"  # type: ignore[union-attr]
    assert empty_case("a function that joins words, or an empty string for an empty list") == ("[]", "''")
    assert empty_case("return None if given empty string") == ("''", "None") and empty_case("Sort an empty list") is None


def test_a_sentence_naming_what_the_code_does_not_have_is_dropped() -> None:
    """`mol chat`: `sum(numbers) / len(numbers)` was explained as "The function sums each item withjango_sort(numbers, …)"."""
    from mol_local.turn.code_fix import without_made_up_names

    code = "```python\nfrom math import isqrt\n\ndef is_prime(n: int) -> bool:\n    return n >= 2 and all(n % d for d in range(2, isqrt(n) + 1))\n```\n"
    made_up = code + "It calls withjango_sort(n) first. It tries divisors up to isqrt(n), so is_prime(9) returns False.\n\n(A note.)"
    assert without_made_up_names(made_up) == code + "It tries divisors up to isqrt(n), so is_prime(9) returns False.\n\n(A note.)"
    assert without_made_up_names(code + "It checks prime_list first.") == code.rstrip("\n")
    assert without_made_up_names(code + "It uses str.join(x) and range(2).") == code + "It uses str.join(x) and range(2)."
    assert without_made_up_names("no code here, foo_bar(1)") == "no code here, foo_bar(1)"


def test_a_sentence_naming_a_number_neither_the_code_nor_the_request_has_is_dropped() -> None:
    """`mol chat`: a right leap-year test was explained "It tries the divisibility of 2800 with neither 400 nor 100."."""
    from mol_local.turn.code_fix import without_made_up_names

    code = "```python\ndef is_leap_year(year: int) -> bool:\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n```\n"
    said = code + "It tries the divisibility of 2800 with neither 400 nor 100. It checks 100 and 400. is_leap_year(1900) returns False."
    assert without_made_up_names(said) == code + "It checks 100 and 400. is_leap_year(1900) returns False."  # a claim is run, not dropped
    assert without_made_up_names(code + "Years like 2800 are leap years.", "is 2800 a leap year?") == code + "Years like 2800 are leap years."
    assert without_made_up_names(code + "It has 2 steps.") == code + "It has 2 steps."  # one digit: a count


def test_a_draft_one_slip_from_the_stated_cases_gets_that_edit_and_says_so() -> None:
    """`mol chat`: "a function that reverses the words in a sentence" got `"".join(reversed(sentence.split()))` and
    "I ran this and it does not work yet"; "the second largest" got `sorted(arr, reverse=True)[-2]`."""
    words = ("```python\ndef reverse_words(sentence: str) -> str:\n    return \"\".join(reversed(sentence.split()))\n```\n"
             "For example, reverse_words('banana') returns 'ban'.")
    fixed = checked_code(words, "Write a function that reverses the words in a sentence", lambda _seed: "no code")
    assert '" ".join(reversed(sentence.split()))' in fixed.answer and fixed.redrafted
    assert "returns 'banana'." in fixed.answer  # its example made true
    assert "(I corrected `\"\".join` to `\" \".join` after running it: reverse_words('hello big world') should be" in fixed.answer
    second = "```python\ndef second_largest(arr):\n    return sorted(arr, reverse=True)[-2]\n```"
    assert "[1]" in checked_code(second, SECOND, lambda _seed: "no code").answer
    unstated = "```python\ndef halve(n: int) -> int:\n    return str(n < 2)\n```"  # no case stated: nothing to edit toward
    out = checked_code(unstated, "Write a function that halves a number", lambda _seed: "no code")
    assert "str(n < 2)" in out.answer and "does not work yet" in out.answer


def test_a_converter_is_checked_against_the_factor_and_a_wrong_factor_is_corrected() -> None:
    """`mol chat`: "a function that converts kilometres to miles" got `return km * 0.001` and "It multiplies by
    1,000,000, which is 1 kilometer." — it ran, so nothing said it was wrong."""
    request = "Write a function that converts kilometres to miles"
    wrong = "```python\ndef kmToMiles(km: float) -> float:\n    return km * 0.001\n```\nIt multiplies by 1,000,000, which is 1 kilometer."
    ran = check(wrong, request)
    assert ran is not None and ran.why == "round(kmToMiles(100)) should be 62"
    fixed = checked_code(wrong, request, lambda _seed: "no code")
    assert "return km * 0.621371" in fixed.answer and "1,000,000" not in fixed.answer
    assert "(I corrected `0.001` to `0.621371` after running it" in fixed.answer
    divided = "```python\ndef to_km(miles):\n    return miles / 2\n```"  # a divisor is made the inverse
    assert "miles / 0.621371" in checked_code(divided, "Write a function converting miles to km", lambda _seed: "no code").answer
    close = "```python\ndef km_to_miles(km):\n    return km * 0.6214\n```\nIt multiplies by 0.6214."
    assert check(close, request) == check(close, request) and check(close, request).why == ""  # near enough passes, untouched


@pytest.mark.parametrize(("request_text", "why"), [
    ("Write a function is_palindrome(s) that ignores case and spaces", "is_palindrome('Racecar') should be True"),
    ("Write a function is_palindrome(s) that ignores spaces", "is_palindrome('nurses run') should be True"),
    ("Write is_palindrome(s) ignoring punctuation", "is_palindrome('step on no pets!') should be True"),
    ("Write a function is_palindrome(s)", ""),
])
def test_what_a_palindrome_check_is_told_to_ignore_is_a_case(request_text: str, why: str) -> None:
    """`mol chat`: "is_palindrome(s) that ignores case and spaces" got `s = s.lower(); return s == s[::-1]`."""
    plain = "```python\ndef is_palindrome(s: str) -> bool:\n    return s == s[::-1]\n```"
    ran = check(plain, request_text)
    assert ran is not None and ran.why == why
    both = "```python\ndef is_palindrome(s: str) -> bool:\n    t = ''.join(c for c in s.lower() if c.isalnum())\n    return t == t[::-1]\n```"
    assert check(both, request_text + " and punctuation").why == ""


def test_a_check_told_what_to_ignore_is_made_to_ignore_it_and_says_so() -> None:
    """`mol chat`: "is_palindrome(s) that ignores case and spaces" got a function that lowercases only, and after three
    redrafts "I ran this and it does not work yet"."""
    lowered = ("```python\ndef is_palindrome(s: str) -> bool:\n    s = s.lower()\n    return s == s[::-1]\n```\n"
               "It lowercases the text and compares it with its reverse.")
    fixed = checked_code(lowered, "Write a function is_palindrome(s) that ignores case and spaces", lambda _seed: "no code")
    assert "s = ''.join(ch for ch in str(s).lower() if not ch.isspace())" in fixed.answer
    assert fixed.answer.endswith("(It now ignores case and spaces, as you asked; I ran it.)") and fixed.redrafted
    assert checked_code(lowered, "Write a function is_palindrome(s) that ignores case", _never).answer.startswith(lowered + "\n\n(I ran it on")  # it already does


@pytest.mark.parametrize(("request_text", "answer", "why"), [
    ("Write a function that returns the nth Fibonacci number",  # mol chat: a loop with a bare return, and no note
     "```python\nfromiths = 0\nfor k in range(1, n):\n    a, b = b, a + b\n    return a\n```", "syntax error: 'return' outside function (line 4)"),
    ("Write a function that returns the nth Fibonacci number", "```python\nprint(55)\n```", "it defines no function, which you asked for"),
    ("How do I print in Python?", "```python\nprint(55)\n```", ""),  # no function asked for
    ("Write a python function that sorts a list of names alphabetically",  # mol chat: it filtered, never sorted
     "```python\ndef sort_by(names: list) -> list:\n    return [name for name in names if name]\n```", "sort_by(['Bob', 'Ada', 'Carl']) should be ['Ada', 'Bob', 'Carl']"),
    ("Write a function that sorts a list of numbers in descending order",
     "```python\ndef sort_desc(nums):\n    return sorted(nums)\n```", "sort_desc([3, 1, 2]) should be [3, 2, 1]"),
    ("Write a function that sorts a list of numbers", "```python\ndef sort_nums(nums):\n    return sorted(nums)\n```", ""),
])
def test_a_function_asked_for_must_be_defined_and_sort_the_way_asked(request_text: str, answer: str, why: str) -> None:
    ran = check(answer, request_text)
    assert ran is not None and ran.why == why


@pytest.mark.parametrize(("request_text", "answer", "why"), [
    ("Write a function that counts how many times each letter appears in a string",  # mol chat: it counted the vowels
     "```python\ndef count_letter(word: str) -> int:\n    return sum(1 for ch in word.lower() if ch in \"aeiou\")\n```", "count_letter('aab') should be {'a': 2, 'b': 1}"),
    ("Write a function that counts how many times each letter appears in a string",
     "```python\nfrom collections import Counter\n\ndef letters(s):\n    return Counter(s)\n```", ""),
    ("Write a function that returns the maximum value in a dictionary",  # mol chat: max of the keys
     "```python\ndef max_of(a):\n    return max(a, default=None)\n```", "max_of({'a': 1, 'b': 3, 'c': 2}) should be 3"),
    ("Write a function that returns the key with the highest value in a dict", "```python\ndef top(d):\n    return max(d, key=d.get)\n```", ""),
    ("Write a function that flattens a list of lists", "```python\ndef flat(xs):\n    return [x for sub in xs for x in sub]\n```", ""),
])
def test_more_common_tasks_bring_cases(request_text: str, answer: str, why: str) -> None:
    ran = check(answer, request_text)
    assert ran is not None and ran.why == why


def test_a_filter_that_only_happens_to_fit_one_case_fails_the_other() -> None:
    """`mol chat`: "the even numbers from a list" got `[n for n in range(1, len(nums) + 2) if n % 2 == 0]`, which gives
    [2, 4, 6] for [1, 2, 3, 4, 6] by luck."""
    lucky = "```python\ndef even_numbers(nums: list[int]) -> list[int]:\n    return [n for n in range(1, len(nums) + 2) if n % 2 == 0]\n```"
    ran = check(lucky, "Write a function that returns the even numbers from a list")
    assert ran is not None and ran.why == "even_numbers([10, 3, 7, 8]) should be [10, 8]"


def test_a_bare_fence_around_prose_is_not_code() -> None:
    """The held-out bench: L0 answered "Sort that out for me" with "# Tools / Sort that out for me" in a bare fence and
    "I ran this and it does not work yet: syntax error"."""
    from mol_local.turn.code_check import first_code_block

    assert check("You can:\n\n```\n# Tools\nSort that out for me\n```", "Sort that out for me") is None
    assert first_code_block("```\ndef f(x:\n```") == "def f(x:"  # broken code is still code, and gets its syntax error


@pytest.mark.parametrize(("code", "why"), [
    ("import os\n\ndef largest_files(folder: str) -> int:\n"  # L2, mol chat: "the 10 largest files in a folder"
     "    return sum(1 for file in sorted(os.listdir(folder)) if os.path.getaccess(file, 'public') == True)",
     "it uses os.path.getaccess, which Python's os.path does not have"),
    ("from math import sqroot\nprint(sqroot(4))", "it imports sqroot from math, which math does not have"),
    ("import math as m\nprint(m.sqroot(2))", "it uses math.sqroot, which Python's math does not have"),
    ("import os\nprint(os.path.getsize('x'), os.environ.bogus)", ""),  # environ is a mapping: its attributes are not looked up
    ("import pandas_not_here as pd\nprint(pd.read_csv('x.csv'))", ""),  # not installed here: the person may have it
    ("import os\n\ndef f(os):\n    return os.bogus", ""),  # a parameter called os is not the module
    ("import this\nprint(this.nothing)", ""),  # a module that prints on import is never imported to look
])
def test_names_taken_from_modules_must_exist_and_nothing_is_run(code: str, why: str) -> None:
    ran = check(f"```python\n{code}\n```", "Write a Python script that prints the 10 largest files in a folder")
    assert ran is not None and ran.why == why


def test_module_uses_reads_imports_and_the_attributes_read_from_them() -> None:
    from mol_local.turn.code_names import module_uses
    assert module_uses("import os.path\nfrom json import loads as l\nos.path.join('a')\nl('1')") == [
        ("json.loads", ()), ("os", ()), ("os", ("path", "join"))]
    assert module_uses("def broken(:") == []


def test_two_values_joined_by_and_for_two_names_are_set_side_by_side() -> None:
    """`mol chat "Write a function that returns the nth Fibonacci number"`: `current, following = 0 and 1` ("cannot unpack
    non-iterable int object")."""
    draft = ("```python\ndef fibonacci(n: int) -> int:\n    current, following = 0 and 1\n    for _ in range(n):\n"
             "        current, following = following, current + following\n    return current\n```\nIt steps a pair forward n times.")
    checked = checked_code(draft, "Write a function that returns the nth Fibonacci number", _never)
    assert "    current, following = 0, 1\n" in checked.answer and checked.redrafted
    assert checked.answer.endswith("(I changed `0 and 1` to `0, 1`: two values side by side take a comma; I ran it.)")
    from mol_local.turn.code_fix import pair_fixes
    assert pair_fixes("ok = a and b\nx, y = 1, 2") == []  # one name, or a pair already


def test_a_function_the_request_says_not_to_use_fails_the_check() -> None:
    """`mol chat "… the maximum of a list without using max"`: `return max(a, default=None)`."""
    asked = "Write a function that returns the maximum of a list without using max"
    uses = "```python\ndef max_of(a: list) -> int:\n    return max(a, default=None)\n```"
    assert check(uses, asked).why == "it calls max, which you asked it not to use"
    loop = "```python\ndef max_of(a: list) -> int:\n    best = a[0]\n    for x in a:\n        if x > best:\n            best = x\n    return best\n```"
    assert check(loop, asked).why == ""
    assert check("```python\ndef s(a: list) -> list:\n    a.sort()\n    return a\n```", "sort a list of numbers without sort").why == \
        "it calls sort, which you asked it not to use"
    assert check(loop, "the maximum of a list without recursion").why == ""  # names no function


@pytest.mark.parametrize(("request_", "code", "why"), [
    ("Write a Python function to convert a string to title case",
     "def convert_to_title(text: str) -> str:\n    return \"\".join(w[:1].upper() + w[1:] for w in text.split())",  # L2, mol chat
     "convert_to_title('hello world') should be 'Hello World'"),
    ("Write a Python function that removes vowels from a string",
     "def remove_vowels(s: str) -> str:\n    return \"\".join(dict.fromkeys(s))", "remove_vowels('hello') should be 'hll'"),
    ("Write a Python function that counts the words in a sentence",
     "def wordcount(sentence: str) -> int:\n    return sum(1 for term in sentence.split() if term.lower().isalpha())",
     "wordcount('Hi, there!') should be 2"),
])
def test_more_common_tasks_bring_their_own_cases(request_: str, code: str, why: str) -> None:
    assert check(f"```python\n{code}\n```", request_).why == why
