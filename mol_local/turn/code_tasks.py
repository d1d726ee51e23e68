"""Tests for the functions people ask for most, so a draft that only looks right is caught (turn/code_check.py).

Tried with `mol chat` on the embedded default: "a function that checks if two strings are anagrams" got
`return Counter(s1.lower().replace("A", "")… for s in range(…) if s1 == s2)` and "the second largest number in a
list" got `sorted(arr, reverse=True)[-2]` — the second *smallest* — with the example "second_largest([1, 5, 9])
returns 5", true only by luck. Neither names its function or shows an example, so the request alone gave the
check nothing to run. A request that asks for one of the common tasks below gets that task's few
uncontroversial cases as tests, used only when the function takes the number of arguments the cases pass.
They check; they never write the answer, and a task whose answer has several fair readings (Fibonacci's first
index, how deep "flatten" goes) is not here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence

from mol_local.turn.units import conversion_factor

def _counting(things: str) -> str:
    """How a request asks to count one of `things` in a text: "how many times a word appears", "count of a letter"."""
    return rf"\bhow many times\b(?!\s+each\b).{{0,30}}\b(?:{things})\b|\b(?:occurrences|count) of a (?:given |specific )?(?:{things})\b"


# (what the request says, the number of arguments, calls with their results as Python source)
_TASKS: tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...] = (
    (r"\b(?:is|are|checks?|whether|if)\b.{0,40}\banagrams?\b", 2, (("'listen', 'silent'", "True"), ("'apple', 'paple'", "True"), ("'abc', 'abd'", "False"))),
    (r"\b(?:is|checks?|whether|if)\b.{0,40}\bpalindrome\b|\bis_?palindrome\b", 1, (("'racecar'", "True"), ("'level'", "True"), ("'hello'", "False"))),
    (r"\bsecond[- ](?:largest|biggest|highest)\b", 1, (("[1, 2, 3, 4]", "3"), ("[5, 1, 9, 7]", "7"))),
    (r"\bsecond[- ](?:smallest|lowest)\b", 1, (("[4, 3, 2, 1]", "2"), ("[5, 1, 9, 7]", "5"))),
    (r"\bcelsius\b.{0,20}\bto\b.{0,10}\bfahrenheit\b", 1, (("100", "212"), ("0", "32"))),
    (r"\bfahrenheit\b.{0,20}\bto\b.{0,10}\bcelsius\b", 1, (("212", "100"), ("32", "0"))),
    (r"\bfactorial\b(?!.*\b(?:zeros?|digits?)\b)", 1, (("5", "120"), ("0", "1"), ("1", "1"))),
    (r"\b(?:is|checks?|whether|if)\b.{0,30}\bprime\b", 1, (("2", "True"), ("7", "True"), ("9", "False"), ("1", "False"))),
    (r"\bfizz\s*buzz\b(?=.*\blist\b)(?=.*\bstrings?\b)", 1,  # the reading the request names: a list of strings
     (("15", "['1', '2', 'Fizz', '4', 'Buzz', 'Fizz', '7', '8', 'Fizz', 'Buzz', '11', 'Fizz', '13', '14', 'FizzBuzz']"), ("1", "['1']"))),
    (r"\b(?:is|checks?|whether|if)\b.{0,30}\beven\b(?!\s+numbers)", 1, (("6", "True"), ("9", "False"), ("0", "True"), ("10", "True"), ("3", "False"))),
    (r"\b(?:is|checks?|whether|if)\b.{0,30}\bodd\b(?!\s+numbers)", 1, (("7", "True"), ("6", "False"), ("9", "True"), ("0", "False"), ("10", "False"))),
    (_counting("character|char|letter"), 2,
     (("'hello', 'l'", "2"), ("'banana', 'a'", "3"), ("'sky', 'a'", "0"))),
    (_counting("word"), 2,
     (("'the cat sat on the mat', 'the'", "2"), ("'then the end', 'the'", "1"), ("'hello world', 'cat'", "0"))),  # L2: one argument
    (r"\b(?:list|array) of (?:strings|words)\b.{0,20}\b(?:to |in )?upper\s*case\b|\bupper\s*cases?\b.{0,10}\b(?:every|each|all)\b.{0,20}\b(?:strings|words) in a list\b",
     1, (("['a', 'bc']", "['A', 'BC']"), ("[]", "[]"))),
    (r"\b(?:valid|validates?|looks like an?)\b.{0,20}\be-?mail(?: address)?\b", 1,
     (("'ada@example.com'", "True"), ("'ada.example.com'", "False"), ("''", "False"), ("'ada@'", "False"))),
    (r"\bleap[- ]years?\b", 1, (("2000", "True"), ("1900", "False"), ("2024", "True"), ("2023", "False"))),
    (r"\b(?:count|counts|how many|number of)\b.{0,20}\bvowels\b", 1, (("'hello'", "2"), ("'sky'", "0"))),
    (r"\breverses?\b.{0,12}\b(?:the\s+)?(?:order\s+of\s+(?:the\s+)?)?words\b", 1, (("'hello big world'", "'world big hello'"), ("'one'", "'one'"))),
    (r"\breverses?\b.{0,20}\b(?:string|word|text)\b", 1, (("'abc'", "'cba'"), ("'hello'", "'olleh'"))),
    (r"\b(?:remove|removes|drop|drops|dedupe|dedupes)\b.{0,20}\bduplicates?\b(?=.*\border\b)", 1, (("[3, 1, 3, 2, 1]", "[3, 1, 2]"),)),
    (r"\bmerges?\b.{0,20}\bsorted\b", 2, (("[1, 4, 6], [2, 3, 7]", "[1, 2, 3, 4, 6, 7]"), ("[], [1]", "[1]"))),
    (r"\b(?:gcd|greatest common divisor|highest common factor)\b", 2, (("12, 18", "6"), ("7, 5", "1"))),
    (r"\b(?:lcm|least common multiple|lowest common multiple)\b", 2, (("4, 6", "12"), ("3, 5", "15"))),
    (r"\blargest of (?:three|3)\b|\bmaximum of (?:three|3)\b", 3, (("1, 5, 3", "5"), ("9, 2, 4", "9"), ("-1, -5, -3", "-1"))),
    (r"\bsmallest of (?:three|3)\b|\bminimum of (?:three|3)\b", 3, (("1, 5, 3", "1"), ("9, 2, 4", "2"))),
    (r"\bsum of (?:the |its )?digits\b", 1, (("123", "6"), ("9", "9"))),
    (r"\bhow (?:many times|often) each word\b|\bword (?:frequenc\w*|counts)\b|\b(?:occurrences|frequency) of each word\b", 1,
     (("'the cat the'", "{'the': 2, 'cat': 1}"), ("'a'", "{'a': 1}"))),
    (r"\bcounts?\s+(?:the\s+)?(?:number of\s+)?words\b|\bnumber of words\b|\bword count\b", 1,
     (("'the cat sat'", "3"), ("'hello'", "1"), ("'Hi, there!'", "2"))),  # L2 counted only the words of letters alone
    (r"\btitle[- ]case\b|\bcapitali[sz]es?\b.{0,20}\b(?:first letter of )?(?:each|every)\s+word\b", 1,
     (("'hello world'", "'Hello World'"), ("'a'", "'A'"))),  # L2 joined the words with nothing between them
    (r"\b(?:remove|removes|strip|strips|delete|deletes|drop|drops)\b.{0,12}\bvowels\b", 1,
     (("'hello'", "'hll'"), ("'Apple pie'", "'ppl p'"), ("'sky'", "'sky'"))),  # L2 kept each letter once ("banana" -> "ban")
    (r"\b(?:max(?:imum)?|largest|biggest|highest)\b.{0,20}\b(?:of|in) (?:a|the) list\b(?!.*\bsecond\b)", 1,
     (("[3, 9, 2]", "9"), ("[-5, -2]", "-2"))),
    (r"\b(?:return|returns|filter|filters|keep|keeps|get|gets|select|selects)\s+(?:only\s+)?(?:the\s+|all\s+(?:the\s+)?)?even numbers\b", 1, (("[1, 2, 3, 4, 6]", "[2, 4, 6]"), ("[10, 3, 7, 8]", "[10, 8]"))),  # the second: L2 filtered range(len + 2)
    (r"\b(?:return|returns|filter|filters|keep|keeps|get|gets|select|selects)\s+(?:only\s+)?(?:the\s+|all\s+(?:the\s+)?)?odd numbers\b", 1, (("[1, 2, 3, 4, 5]", "[1, 3, 5]"), ("[9, 4, 7]", "[9, 7]"))),
    (r"(?<!moving )(?<!weighted )(?<!running )\b(?:average|mean)\b.{0,20}\blist\b", 1, (("[1, 2, 3]", "2"), ("[2, 4]", "3"))),
    (r"\bsorts?\b(?!.*\b(?:reverse|descending|z-a|z to a|by (?:length|the|their|its|last|age|key|value))\b).{0,40}\b(?:names|words|strings)\b"
     r"|\bsort\w*\b.{0,40}\balphabetical\w*", 1,  # the names all capitalised: no case to argue over
     (("['Bob', 'Ada', 'Carl']", "['Ada', 'Bob', 'Carl']"), ("[]", "[]"))),
    (r"\bsorts?\b(?!.*\b(?:reverse|descending|largest first|biggest first|highest first|by )\b).{0,30}\b(?:numbers|integers|ints)\b", 1,
     (("[3, 1, 2]", "[1, 2, 3]"), ("[5, -1, 5]", "[-1, 5, 5]"))),
    (r"\b(?:how many times each|(?:frequency|occurrences|count) of each|counts? (?:each|every))\s+(?:letter|character|char)\b", 1,
     (("'aab'", "{'a': 2, 'b': 1}"), ("''", "{}"))),  # L2 counted the vowels (mol chat)
    (r"\bkey\b.{0,20}\b(?:max(?:imum)?|largest|biggest|highest)\s+value\b", 1, (("{'a': 1, 'b': 3, 'c': 2}", "'b'"),)),
    (r"\b(?:max(?:imum)?|largest|biggest|highest)\s+value\b.{0,20}\bdict(?:ionary)?\b", 1, (("{'a': 1, 'b': 3, 'c': 2}", "3"),)),
    (r"\blast (?:element|item|value|entry)\b.{0,20}\b(?:list|array)\b", 1, (("[1, 2, 3]", "3"), ("['a']", "'a'"))),  # L2: min of the list
    (r"\bfirst (?:element|item|value|entry)\b.{0,20}\b(?:list|array)\b", 1, (("[4, 2, 3]", "4"), ("['a']", "'a'"))),
    (r"\bsnake[_ ]?case\b", 1, (("'hello world'", "'hello_world'"), ("'Hello World'", "'hello_world'"),
                                  ("'helloWorld'", "'hello_world'"))),  # L2 put "_" before each capital: "_hello _world"
    (r"\bflatten\w*\b.{0,20}\blist of lists\b", 1, (("[[1, 2], [3], []]", "[1, 2, 3]"),)),  # one level deep either way
    (r"\bsort\w*\b.{0,30}\b(?:numbers|integers|ints)\b.{0,30}\b(?:descending|reverse|largest first|biggest first|highest first)\b", 1,
     (("[3, 1, 2]", "[3, 2, 1]"),)),
)


_KEYED_SORT = re.compile(r"\bsort\w*\b.{0,40}\b(?:dict(?:ionarie|ionary|ionaries)?s?|records|rows)\b.{0,30}?\bby\s+(?:the\s+|their\s+|its\s+)?"
                         r"['\"]?(?P<key>[A-Za-z_]\w*)['\"]?", re.IGNORECASE)
_DESCENDING = re.compile(r"\b(?:descending|reverse|largest first|highest first|biggest first|oldest first)\b", re.IGNORECASE)


_EMPTY = re.compile(r"\b(?:returns?|gives?|or)\s+(?P<v>0(?:\.0)?|-1|none|false|true|an empty (?:list|string)|\[\]|''|\"\")\s+"
                    r"(?:for|on|when (?:given|passed)|if (?:given|passed|it gets))\s+(?:an?\s+)?empty\s+(?P<kind>list|string|input|array)\b",
                    re.IGNORECASE)
_EMPTY_VALUE = {"none": "None", "false": "False", "true": "True", "an empty list": "[]", "an empty string": "''", '""': "''"}


def empty_case(request: str) -> tuple[str, str] | None:
    """(the empty argument, the value to return) for "return 0 for an empty list" in a request; None without one."""
    m = _EMPTY.search(request)
    if m is None:
        return None
    arg = "''" if m["kind"].lower() == "string" else "[]"
    return arg, _EMPTY_VALUE.get(m["v"].lower(), m["v"])


_NEGATIVE = re.compile(r"\b(?:returns?|gives?|or)\s+(?P<v>0(?:\.0)?|-1|none|false|true)\s+(?:for|on|when (?:given|passed)|if (?:given|passed|it gets))\s+"
                       r"(?:an?\s+|any\s+)?negative(?:\s+(?:numbers?|inputs?|values?|integers?))?\b", re.IGNORECASE)


def said_cases(request: str, name: str) -> list[str]:
    """`name(x) == value` for what the request says to return for an empty input or a negative number ("Now make it
    return False for negative numbers": L2 repeated its function, and nothing said whether it did)."""
    out = [f"{name}({empty[0]}) == {empty[1]}"] if (empty := empty_case(request)) else []
    if m := _NEGATIVE.search(request):
        out += [f"{name}({n}) == {_EMPTY_VALUE.get(m['v'].lower(), m['v'])}" for n in (-7, -8)]  # odd and even: a parity check too
    return out


def task_tests(request: str, name: str, takes: Callable[[int], bool], params: Sequence[str] = ()) -> list[str]:
    """`name(args) == value` for the first common task the request asks for, when the function `takes` that task's
    number of arguments, and for what it must return for an empty input when the request says ("Make it return 0
    for an empty list": L2 had repeated its function that returned None); [] for anything else. A task that counts
    one thing in another passes them in the order the function's `params` name them ("count(word, sentence)")."""
    empty = empty_case(request)
    said = said_cases(request, name) if takes(1) else []
    cases = _task_cases(request, name, takes)
    if _counts_in(request) and len(params) == 2 and _NEEDLE.fullmatch(params[0]) and not _NEEDLE.fullmatch(params[1]):
        cases = [_swapped(c, name) for c in cases]
    return said + [t for t in cases if not (empty and said) or not t.startswith(f"{name}([])")]


# "how many times a word appears in a sentence" needs both: the thing counted and where
_COUNTS_IN = re.compile(_counting("word|character|char|letter"), re.IGNORECASE)
_NEEDLE = re.compile(r"(?:word|target|needle|term|sub\w*|search\w*|pattern|find|query|key|char\w*|letter|ch|c|w|x)", re.IGNORECASE)


def _counts_in(request: str) -> bool:
    return bool(_COUNTS_IN.search(request))


def _swapped(case: str, name: str) -> str:
    call, _, want = case.partition(" == ")
    first, second = ast.literal_eval(f"({call.removeprefix(name + '(')[:-1]})")
    return f"{name}({second!r}, {first!r}) == {want}"


def missing_argument(request: str, name: str, takes: Callable[[int], bool]) -> str:
    """Why a function for "how many times a word appears in a sentence" that takes one argument cannot be it (L2 wrote
    `word_count(s)` counting every word); '' otherwise."""
    if not _counts_in(request) or takes(2) or not takes(1):
        return ""
    what = "word" if re.search(r"\bword\b", request, re.IGNORECASE) else "character"
    return f"{name} takes 1 argument, but counting a {what} needs two: the text and the {what} to count"


# what a palindrome check is told to ignore, with a case that only a check ignoring it passes
_PALINDROME_IGNORES = ((r"\b(?:case|capitals?|upper\s*case|lower\s*case)\b", "'Racecar'"),
                       (r"\b(?:spaces?|whitespace)\b", "'nurses run'"),
                       (r"\bpunctuation\b", "'step on no pets!'"))


def _task_cases(request: str, name: str, takes: Callable[[int], bool]) -> list[str]:
    for said, count, cases in _TASKS:
        if re.search(said, request, re.IGNORECASE):
            if not takes(count):
                return []
            extra = []
            if "palindrome" in said and re.search(r"\bignor\w*|\bregardless of\b|\bdisregard\w*", request, re.IGNORECASE):
                extra = [(arg, "True") for ignored, arg in _PALINDROME_IGNORES if re.search(ignored, request, re.IGNORECASE)]
            return [f"{name}({args}) == {want}" for args, want in (*cases, *extra)]
    if (factor := conversion_factor(request)) is not None and takes(1):  # "converts kilometres to miles": L2 multiplied by 0.001
        n = next(n for n in (100, 10_000, 1_000_000, 100_000_000) if n * factor[2] >= 20 or n == 100_000_000)
        return [f"round({name}({n})) == {round(n * factor[2])}"]
    if m := _KEYED_SORT.search(request):  # "sorts a list of dictionaries by the 'age' key": L2 wrote sorted(list(dict))
        key = m["key"]
        rows = [{key: 3, "i": "c"}, {key: 1, "i": "a"}, {key: 2, "i": "b"}]
        want = sorted(rows, key=lambda r: r[key], reverse=bool(_DESCENDING.search(request)))
        return [f"{name}({rows!r}) == {want!r}"] if takes(1) else [f"{name}({rows!r}, {key!r}) == {want!r}"] if takes(2) else []
    return []
