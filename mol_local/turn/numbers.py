"""Number questions the request settles: "What is the least common multiple of 13, 31 and 37?" becomes one python call.

Tried with `mol chat` on the embedded default: that question got "… is 98." (routed L0, no tool) and, forced
to L2, a python call that raised TypeError followed by a made-up number; "How many divisors does 17410 have?"
got "17410 has 3 divisors: 1, 2, and 49." plus an unrelated function. A question that asks only one of the
number facts below about numbers it states — a least common multiple or greatest common divisor, divisors,
prime factors, whether a number is prime, even or odd, a factorial, a Fibonacci number, the sum of a range,
the sum, product, mean or median of a list, a remainder — is written here as a few lines of Python run in the
conversation's sandbox, so the number shown is the one Python computed (as turn/arith.py does for
arithmetic). Anything else leaves the turn to the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LEAD = (r"^(?:(?:hey|hi|ok|okay|so|quick question)[,:!]?\s+)?(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:tell me\s+)?"
         r"(?:what(?:'s| is| are)|whats|calculate|compute|work out|find|give me|list)?\s*(?:the\s+)?")
_END = r"(?:,?\s*(?:please|for me|thanks|thank you))?[\s?.!]*$"
_INT = r"\d{1,3}(?:,\d{3})+|\d+"
_NUM = r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_LIST = rf"(?P<list>{_NUM}(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\s*{_NUM})+)"
_MAX_INT = 10**12  # divisors and primes by trial division stay well under the sandbox's CPU limit
_MAX_FACTORIAL = 500
_MAX_FIBONACCI = 1000


def _ints(text: str) -> list[str]:
    return [n.replace(",", "") for n in re.findall(rf"-?(?:{_INT})(?:\.\d+)?", text)]


def _listed(numbers: list[str]) -> str:
    """"13, 31 and 37" as the answer says them."""
    return numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} and {numbers[-1]}"


def _whole(numbers: list[str], *, least: int = 1) -> bool:
    return all("." not in n and not n.startswith("-") and least <= int(n) <= _MAX_INT for n in numbers)


def _common(m: re.Match[str]) -> tuple[str, str] | None:
    numbers = _ints(m["list"])
    if not _whole(numbers) or len(numbers) > 20:
        return None
    multiple = m["kind"].lower().startswith(("l", "smallest"))
    name = "least common multiple" if multiple else "greatest common divisor"
    return f"The {name} of {_listed(numbers)} is {{}}.", f"math.{'lcm' if multiple else 'gcd'}({', '.join(numbers)})"


def _divisors(m: re.Match[str]) -> tuple[str, str] | None:
    n = m["n"].replace(",", "")
    if not _whole([n]):
        return None
    found = f"sorted({{d for i in range(1, math.isqrt({n}) + 1) if {n} % i == 0 for d in (i, {n} // i)}})"
    if m["count"]:
        return f"{n} has {{}} divisors.", f"len({found})"
    return f"The divisors of {n} are {{}}.", f"', '.join(map(str, {found}))"


def _prime(m: re.Match[str]) -> tuple[str, str] | None:
    n = m["n"].replace(",", "")
    if not _whole([n], least=0):
        return None
    return "{}", (f"n = {n}\n"
                  "d = next((i for i in range(2, math.isqrt(n) + 1) if n % i == 0), None)\n"
                  "_v = (f'{n} is not prime (primes start at 2).' if n < 2 else f'Yes, {n} is prime.' if d is None\n"
                  "      else f'No, {n} is not prime: it is {d} × {n // d}.')")


def _prime_factors(m: re.Match[str]) -> tuple[str, str] | None:
    n = (m["n"] or m["n2"]).replace(",", "")
    if not _whole([n], least=2):
        return None
    return (f"The prime factors of {n} are {{}}.",
            f"n, p, out = {n}, 2, []\n"
            "while p * p <= n:\n"
            "    while n % p == 0:\n"
            "        out.append(p)\n"
            "        n //= p\n"
            "    p += 1\n"
            "_v = ' × '.join(map(str, out + ([n] if n > 1 else [])))")


def _parity(m: re.Match[str]) -> tuple[str, str] | None:
    n = m["n"].replace(",", "")
    if "." in n:
        return None
    asked = m["parity"].lower()
    return "{}", f"'Yes, {n} is {asked}.' if ({n} % 2 == 0) == {asked == 'even'} else 'No, {n} is {'odd' if asked == 'even' else 'even'}.'"


def _factorial(m: re.Match[str]) -> tuple[str, str] | None:
    n = (m["n"] or m["n2"] or m["n3"]).replace(",", "")
    if not _whole([n], least=0) or int(n) > _MAX_FACTORIAL:
        return None
    return f"{n}! (the factorial of {n}) is {{}}.", f"math.factorial({n})"


def _fibonacci(m: re.Match[str]) -> tuple[str, str] | None:
    n = (m["n"] or m["n2"]).replace(",", "")
    if not _whole([n]) or int(n) > _MAX_FIBONACCI:
        return None
    return (f"Fibonacci number {n} is {{}} (counting 1, 1, 2, 3, 5, … from number 1).",
            f"a, b = 0, 1\nfor _ in range({n}):\n    a, b = b, a + b\n_v = a")


def _range_sum(m: re.Match[str]) -> tuple[str, str] | None:
    a, b = m["a"].replace(",", ""), m["b"].replace(",", "")
    if "." in a or "." in b or abs(int(b) - int(a)) > _MAX_INT:
        return None
    return f"The sum of the whole numbers from {a} to {b} is {{}}.", f"sum(range(min({a}, {b}), max({a}, {b}) + 1))"


def _of_list(m: re.Match[str]) -> tuple[str, str] | None:
    numbers = _ints(m["list"])
    kind = m["kind"].lower()
    kind = "mean" if kind in ("average", "mean") else kind
    python = {"sum": "sum", "product": "math.prod", "mean": "statistics.mean", "median": "statistics.median"}[kind]
    said = "average (mean)" if kind == "mean" else kind
    return f"The {said} of {_listed(numbers)} is {{}}.", f"{python}([{', '.join(numbers)}])"


def _remainder(m: re.Match[str]) -> tuple[str, str] | None:
    a, b = (m["a"] or m["a2"]).replace(",", ""), (m["b"] or m["b2"]).replace(",", "")  # "remainder of A divided by B" / "A mod B"
    if "." in a or "." in b or int(b) == 0:
        return None
    return f"The remainder of {a} divided by {b} is {{}}.", f"{a} % {b}"


def _percentage(m: re.Match[str]) -> tuple[str, str] | None:
    """"3/4 as a percentage", "what percentage is 30 of 120", "30 is what percent of 120": L0 said "34%" for 3/4."""
    part, whole = (next(g for g in (m[f"{k}{i}"] for i in ("", "2", "3")) if g) for k in ("a", "b"))
    part, whole = part.replace(",", ""), whole.replace(",", "")
    if float(whole) == 0:
        return None
    said = f"{part}/{whole}" if m["a"] else f"{part} out of {whole}"
    return f"{said} is {{}}%.", f"round({part} / {whole} * 100, 2)"


_N = rf"(?P<n>{_INT})"
_ASKS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[str, str] | None]], ...] = tuple(
    (re.compile(f"{_LEAD}(?:{pattern}){_END}", re.IGNORECASE), build) for pattern, build in (
        (rf"(?P<kind>lcm|least common multiple|lowest common multiple|smallest common multiple|gcd|gcf|hcf|greatest common "
         rf"(?:divisor|factor)|highest common factor)\s+(?:of\s+|for\s+)?{_LIST}", _common),
        (rf"(?P<count>how many )?(?:divisors|factors)\s+(?:does|of|has|for)\s+{_N}(?:\s+have)?", _divisors),
        (rf"(?:is|check (?:if|whether))\s+{_N}\s+(?:a\s+)?prime(?:\s+number)?", _prime),
        (rf"prime (?:factors|factori[sz]ation|decomposition) of\s+{_N}|factori[sz]e\s+(?P<n2>{_INT})", _prime_factors),
        (rf"is\s+{_N}\s+(?:an?\s+)?(?P<parity>even|odd)(?:\s+number)?", _parity),
        (r"factorial of\s+(?P<n>\d+)|(?P<n2>\d+)\s+factorial|(?P<n3>\d+)!", _factorial),
        (r"(?P<n>\d+)(?:st|nd|rd|th)\s+fibonacci(?:\s+number)?|fibonacci(?:\s+number)?\s+(?:of\s+|number\s+)?(?P<n2>\d+)", _fibonacci),
        (rf"sum of (?:all\s+)?(?:the\s+)?(?:whole\s+)?(?:numbers|integers)?\s*(?:from\s+)?(?P<a>{_INT})\s+(?:to|through|up to)\s+(?P<b>{_INT})",
         _range_sum),
        (rf"(?P<kind>sum|product|average|mean|median)\s+of\s+(?:the\s+numbers\s+)?{_LIST}", _of_list),
        (rf"(?:remainder (?:of|when)\s+(?P<a>{_INT})\s+(?:is\s+)?divided by\s+(?P<b>{_INT})|(?P<a2>{_INT})\s+mod(?:ulo)?\s+(?P<b2>{_INT}))",
         _remainder),
        (rf"(?P<a>{_NUM})\s*(?:/|out of|over)\s*(?P<b>{_NUM})\s+(?:as an?|in)\s+percent(?:age)?|what percent(?:age)?\s+"
         rf"(?:of\s+(?P<b2>{_NUM})\s+is\s+(?P<a2>{_NUM})|is\s+(?P<a3>{_NUM})\s+(?:of|out of)\s+(?P<b3>{_NUM}))", _percentage),
    ))


def number_code(request: str) -> str | None:
    """The sandbox code answering a number question, its first line the answer with '{}' for the value; None when
    the request is not only one of the questions this module reads."""
    text = " ".join(request.strip().split())
    if len(text) > 200:
        return None
    for pattern, build in _ASKS:
        if (m := pattern.match(text)) and (found := build(m)) is not None:
            template, python = found
            body = python if "_v = " in python else f"_v = {python}"
            return (f"# answer: {template}\nimport math, statistics\n{body}\n"
                    "int(_v) if isinstance(_v, float) and _v.is_integer() else round(_v, 10) if isinstance(_v, float) else _v")
    return None
